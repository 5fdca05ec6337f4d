#!/usr/bin/env bash
# tests/scripts/missing_packages.sh SOURCE_DIR : scripts that lack a tool
# name its Debian package in one line on stderr and exit 2, before any
# work: common.sh's pcount_install_deps for a user who cannot install
# (not root), and the Python scripts that run a program the build does not
# install (g++ and git for the peer comparisons, gnuplot for plot-sweep,
# the built module for compare-python). Each runs with a PATH that holds
# only the tools it may use. Exit 1 on the first miss.
set -u
src=$1
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
for t in bash dirname dpkg-query grep cat; do ln -s "$(command -v "$t")" "$tmp/bin/$t"; done
# The interpreter itself, not a wrapper script (pyenv's shims need more tools).
ln -s "$(python3 -c 'import os, sys; print(os.path.realpath(sys.executable))')" "$tmp/bin/python3"
printf '#!/bin/sh\necho 1000\n' >"$tmp/bin/id" && chmod +x "$tmp/bin/id"  # not root: nothing is installed
fail=0
expect() {  # expect NAME PATTERN COMMAND...: status 2 and one line on stderr matching PATTERN
  local name=$1 pattern=$2; shift 2
  local status
  PATH="$tmp/bin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  status=$?
  local lines
  lines=$(wc -l <"$tmp/err")
  if [ "$status" -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -qE "$pattern" "$tmp/err"; then
    echo "$name: status $status, $lines lines on stderr, expected 2 and one line matching '$pattern':"
    cat "$tmp/err"
    fail=1
  fi
}
expect "pcount_install_deps" '^pcount: missing Debian packages: .*pcount-no-such-package \(run as root' \
  bash -c "source '$src/scripts/common.sh'; pcount_install_deps pcount-no-such-package || exit \$?"
expect "peer-grids" '^peer-grids: missing Debian packages: g\+\+ git ' "$src/scripts/peer-grids" /dev/null
expect "peer-queens" '^peer-queens: missing Debian packages: g\+\+ git ' "$src/scripts/peer-queens" "$tmp" 8
expect "plot-sweep" 'gnuplot-nox' "$src/scripts/plot-sweep" "$tmp/none.json"
expect "compare-python" 'pybind11-dev python3-dev' "$src/scripts/compare-python" --build "$tmp/none"
exit $fail
