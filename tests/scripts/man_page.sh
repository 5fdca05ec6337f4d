#!/usr/bin/env bash
# tests/scripts/man_page.sh COUNT COUNT.1 : the man page help2man made from
# `COUNT --help` is a count(1) page that names every option --help lists,
# and its examples and pointers to the guides. Exit 1 on the first miss.
set -u
page=$2
[ -s "$page" ] || { echo "no man page at $page"; exit 1; }
head -n 20 "$page" | grep -q '^\.TH COUNT "1"' || { echo "$page is not a count(1) page"; exit 1; }
fail=0
for option in $("$1" --help | grep -oE '^  (-[a-z] \[ )?--[a-z][a-z0-9-]*' | grep -oE -- '--[a-z][a-z0-9-]*'); do
  # groff escapes each '-' as '\-'.
  grep -qF -- "${option//-/\\-}" "$page" || { echo "the man page lacks $option"; fail=1; }
done
for section in '^\.SH EXAMPLES' '^\.SH "SEE ALSO"' 'usage\.md'; do
  grep -qE "$section" "$page" || { echo "the man page lacks $section"; fail=1; }
done
exit $fail
