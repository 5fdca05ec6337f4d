#!/usr/bin/env bash
# tests/scripts/compare_tdoku_args.sh SOURCE_DIR : scripts/compare-tdoku
# refuses bad input in one line on stderr with status 2, before it builds
# or times anything: a path that is no tdoku checkout, an unknown
# --solver, a peer whose sources the checkout lacks, too few --reps, an
# unknown --simd level, an unknown or empty --sets, and --solver
# rust_sudoku without cargo. The tdoku checkout is a stand-in holding only
# the files the script looks for, and PATH holds only the tools the script
# runs before those checks. Exit 1 on the first miss.
set -u
src=$1
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/tdoku/src" "$tmp/home"
for t in bash realpath dirname grep mkdir sed; do ln -s "$(command -v "$t")" "$tmp/bin/$t"; done
: >"$tmp/tdoku/src/solver_dpll_triad_simd.cc"
printf '#!/bin/sh\nexit 0\n' >"$tmp/count" && chmod +x "$tmp/count"
fail=0
expect() {  # expect NAME PATTERN ARGS...: status 2 and one line on stderr matching PATTERN
  local name=$1 pattern=$2; shift 2
  local status
  PATH="$tmp/bin" HOME="$tmp/home" TMPDIR="$tmp" bash "$src/scripts/compare-tdoku" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  status=$?
  local lines
  lines=$(wc -l <"$tmp/err")
  if [ "$status" -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -qE -- "$pattern" "$tmp/err"; then
    echo "$name: status $status, $lines lines on stderr, expected 2 and one line matching '$pattern':"
    cat "$tmp/err"
    fail=1
  fi
}
expect no-checkout 'is not a tdoku checkout' "$tmp/nowhere/tdoku"
expect unknown-solver "--solver: one of fsss2 .* lhl_sudoku, got 'rust'" --solver rust "$tmp/tdoku"
expect no-jsolve 'jsolve/JSolve.c is missing' --solver jsolve "$tmp/tdoku"
expect no-norvig 'module_norvig_sudoku/sudoku.en.cc is missing' --solver norvig "$tmp/tdoku"
expect no-fsss2 'module_fsss2/fsss2.cpp is missing' --solver fsss2 "$tmp/tdoku"
expect no-rust-crate 'module_rust_sudoku/Cargo.toml is missing' --solver rust_sudoku "$tmp/tdoku"
expect few-reps "--reps: a whole number ≥ 5, got '4'" --reps 4 "$tmp/tdoku"
expect unknown-simd "--simd: sse4.1, avx2 or avx512, got 'avx'" --simd avx "$tmp/tdoku"
expect unknown-set "--sets: comma-separated names among .*, got 'serg'" --sets puzzles2_17_clue,serg "$tmp/tdoku"
expect empty-sets "--sets: comma-separated names among .*, got ''" --sets "" "$tmp/tdoku"
mkdir -p "$tmp/tdoku/other/module_rust_sudoku"
: >"$tmp/tdoku/other/module_rust_sudoku/Cargo.toml"
expect no-cargo '--solver rust_sudoku: no cargo in PATH' --solver rust_sudoku --count "$tmp/count" "$tmp/tdoku"
exit $fail
