#!/usr/bin/env bash
# tests/scripts/completion.sh COUNT.BASH : the bash completion made from
# `count --help` (scripts/gen-completion) completes what a user types:
# option names, `merge` as the first word, --method's and --strategy's
# words, file names after FILE options and in `count merge`, and nothing
# after an option that takes a number; a file name with a space or a '*'
# stays one word, as it is on disk. Exit 1 on the first miss.
set -u
source "$1" || { echo "cannot source $1"; exit 1; }
dir=$(mktemp -d) && trap 'rm -rf "$dir"' EXIT
cd "$dir" && touch shard-0.json shard-1.json q14.ck
fail=0
expect() {  # expect "WORDS TYPED" "EXPECTED COMPLETIONS (sorted, space-separated)"
  read -r -a COMP_WORDS <<<"$1"
  [[ "$1" == *" " ]] && COMP_WORDS+=("")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _pcount_count
  local got
  got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | xargs)
  if [ "$got" != "$2" ]; then
    echo "completing '$1': got '$got', expected '$2'"
    fail=1
  fi
}
expect "count --que" "--queens"
expect "count --sp" "--split-depth"
expect "count me" "merge"
expect "count --queens 8 --mem" "--memory-limit"
expect "count --queens 8 me" ""
expect "count --queens 8 --method con" "constellations"
expect "count --latin 8 --method cl" "classes"
expect "count --mastermind --strategy k" "knuth"
expect "count --mastermind --objective w" "worst-case"
expect "count --queens 14 --checkpoint q1" "q14.ck"
expect "count merge sh" "shard-0.json shard-1.json"
expect "count merge --r" "--raw"
expect "count --threads " ""
expect "count --queens 14 --shard " ""
# Each file name one word: "a b.txt" not split, "*" not expanded.
touch 'a b.txt' '*'
expect_words() {  # expect_words "WORDS TYPED" NAME... : COMPREPLY holds exactly these names
  local typed=$1; shift
  read -r -a COMP_WORDS <<<"$typed"
  [[ "$typed" == *" " ]] && COMP_WORDS+=("")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _pcount_count
  local got want
  got=$(printf '<%s>' "${COMPREPLY[@]}" | tr '>' '\n' | sort | tr -d '\n')
  want=$(printf '<%s>' "$@" | tr '>' '\n' | sort | tr -d '\n')
  [ "$got" = "$want" ] || { echo "completing '$typed': got '$got', expected '$want'"; fail=1; }
}
expect_words "count merge a" "a b.txt"
expect_words "count --queens 14 --out " "*" "a b.txt" q14.ck shard-0.json shard-1.json
expect_words "count merge " "*" "a b.txt" q14.ck shard-0.json shard-1.json
exit $fail
