# Shared set-up of scripts/count and scripts/test (sourced, not run).
# Installs missing Debian packages (when root), configures and builds a preset.

PCOUNT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Debian packages the build needs; help2man and
# python3 make count's man page and bash completion from `count --help`;
# pybind11-dev and python3-dev build the Python module pcount (python/).
PCOUNT_PACKAGES=(
  g++ cmake ninja-build pkg-config
  libtbb-dev libboost-program-options-dev libboost-dev nlohmann-json3-dev
  libbenchmark-dev libgtest-dev libgmock-dev
  libnauty2-dev nauty
  libopenmpi-dev openmpi-bin
  help2man python3 python3-dev pybind11-dev
)
# Only for scripts/test and scripts/fuzz: clang with its sanitizer and
# libFuzzer runtimes (the asan preset), python3 for the long-test record,
# python3-jsonschema for scripts/json-schema-check, universal-ctags for
# scripts/function-lengths, clang-format (git clang-format) for
# scripts/check-format, python3-pytest and python3-tqdm for the Python
# module's tests (tests/python; tqdm for its progress bar adapter), doxygen
# for the API reference's check (ctest ApiDocs).
PCOUNT_TEST_PACKAGES=(clang libclang-rt-14-dev python3 python3-jsonschema universal-ctags clang-format python3-pytest
                      python3-tqdm doxygen)

# pcount_install_deps [PACKAGE...]: the build's packages and those named.
# Returns 2 when some are missing and this is not root (one line on stderr
# names them), 1 when apt-get fails; callers exit with that status.
pcount_install_deps() {
  local missing=()
  local pkg
  for pkg in "${PCOUNT_PACKAGES[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "pcount: missing Debian packages: ${missing[*]} (run as root, or: sudo apt-get install ${missing[*]})" >&2
    return 2
  fi
  echo "pcount: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2 || return 1
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 || return 1
}

# pcount_build_progress LOG DIR: copies the build output (stdin) to LOG and
# says on stderr how far the build of DIR is, one line per tenth of its steps.
pcount_build_progress() {
  awk -v logf="$1" -v dir="$2" -v shown=-1 '
    { print > logf; fflush(logf) }
    match($0, /^\[[0-9]+\/[0-9]+\]/) {
      split(substr($0, 2, RLENGTH - 2), step, "/")
      tenth = int(10 * step[1] / step[2])
      if (tenth != shown) {
        shown = tenth
        printf "pcount: building %s: %d%% (%d of %d steps)\n", dir, 10 * tenth, step[1], step[2] > "/dev/stderr"
        fflush("/dev/stderr")
      }
    }'
}

# pcount_existing_targets DIR TARGET...: those of TARGET... that the build
# tree DIR defines (count-mpi without Open MPI, the Python module without
# pybind11 are not).
pcount_existing_targets() {
  local dir=$1; shift
  local all
  all=$(ninja -C "$dir" -t targets all 2>/dev/null) || return 0
  local t
  for t in "$@"; do
    grep -q "^$t:" <<<"$all" && printf '%s\n' "$t"
  done
}

# pcount_build PRESET [TARGET...]: configure once, then an incremental build
# (ninja rebuilds only what is stale). Build output goes to a log, shown on
# failure; stderr gets one line per stage and per tenth of the build.
pcount_build() {
  local preset=$1; shift
  local dir
  case "$preset" in
    release) dir="$PCOUNT_ROOT/build" ;;
    *) dir="$PCOUNT_ROOT/build-$preset" ;;
  esac
  mkdir -p "$dir"
  local log="$dir/pcount-build.log"
  local shown=${dir#"$PCOUNT_ROOT"/}
  if [ ! -f "$dir/build.ninja" ]; then
    echo "pcount: configuring $shown/ (cmake --preset $preset; log: $log)" >&2
    (cd "$PCOUNT_ROOT" && cmake --preset "$preset") >"$log" 2>&1 || { cat "$log" >&2; return 1; }
    grep -E '^-- .*(not found|not built)' "$log" | sed 's/^-- /pcount: /' >&2
  fi
  local targets=()
  [ $# -gt 0 ] && targets=(--target "$@")
  cmake --build "$dir" "${targets[@]}" 2>&1 | pcount_build_progress "$log" "$shown/"
  [ "${PIPESTATUS[0]}" -eq 0 ] || { cat "$log" >&2; echo "pcount: build failed (log: $log)" >&2; return 1; }
  PCOUNT_BUILD_DIR=$dir
}
