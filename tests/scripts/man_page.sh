#!/usr/bin/env bash
# tests/scripts/man_page.sh COUNT COUNT.1 : the man page help2man made from
# `COUNT --help` is a count(1) page that names every option --help lists,
# and its examples and pointers to the guides, in ASCII with groff escapes
# for the symbols of --help (≤ once came out as '???'), so that man renders
# it in a UTF-8 locale and in LANG=C. Exit 1 on the first miss.
set -u
page=$2
[ -s "$page" ] || { echo "no man page at $page"; exit 1; }
head -n 20 "$page" | grep -q '^\.TH COUNT "1"' || { echo "$page is not a count(1) page"; exit 1; }
fail=0
for option in $("$1" --help | grep -oE '^  (-[a-zA-Z] \[ )?--[a-z][a-z0-9-]*' | grep -oE -- '--[a-z][a-z0-9-]*'); do
  # groff escapes each '-' as '\-'.
  grep -qF -- "${option//-/\\-}" "$page" || { echo "the man page lacks $option"; fail=1; }
done
for section in '^\.SH EXAMPLES' '^\.SH "SEE ALSO"' 'usage\.md'; do
  grep -qE "$section" "$page" || { echo "the man page lacks $section"; fail=1; }
done
if LC_ALL=C grep -n '[^[:print:][:space:]]' "$page" | head -3 | grep .; then
  echo "the man page holds bytes outside ASCII (a symbol without a groff escape)"; fail=1
fi
if "$1" --help | grep -q '≤' && ! grep -qF '\(<=' "$page"; then
  echo "the man page lacks the groff escape \(<= for the ≤ of --help"; fail=1
fi
if command -v man >/dev/null; then
  for locale in C C.UTF-8; do
    text=$(LANG=$locale LC_ALL=$locale MANWIDTH=80 man -l "$page" 2>/dev/null)
    grep -q 'reduced  *Latin  *squares' <<<"$text" || { echo "man -l does not render $page in LANG=$locale"; fail=1; }
    if grep -n '?' <<<"$text" | grep -v "'?'" | head -3 | grep .; then
      echo "man -l renders '?' in LANG=$locale"; fail=1
    fi
  done
fi
exit $fail
