# Shared helpers of Scripts/bench, Scripts/compare, Scripts/plant-check and Scripts/profile-allocations.
# Sourced, not executed. Defines ROOT, ensure_toolchain, ensure_jemalloc, ensure_valgrind, build_lab.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LAB_PACKAGE="$ROOT/Benchmarks"

# Puts swift on PATH when it lives in the usual /opt/swift location.
ensure_toolchain() {
    if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
        export PATH="/opt/swift/usr/bin:$PATH"
    fi
    command -v swift >/dev/null 2>&1 || { echo "error: swift is not on PATH" >&2; exit 1; }
}

# Installs libjemalloc-dev (and pkg-config) with apt-get when pkg-config cannot find jemalloc.
ensure_jemalloc() {
    if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists jemalloc; then
        return
    fi
    echo "jemalloc not found by pkg-config: installing libjemalloc-dev with apt-get" >&2
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || { echo "error: need root (or sudo) to install libjemalloc-dev" >&2; exit 1; }
        sudo="sudo"
    fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq >&2
    $sudo apt-get install -y -qq libjemalloc-dev pkg-config >&2
    pkg-config --exists jemalloc || { echo "error: jemalloc still not visible to pkg-config" >&2; exit 1; }
}

# Installs valgrind (the lab's instruction counter, and the header its client requests come from)
# with apt-get when it is not on PATH.
ensure_valgrind() {
    if command -v valgrind >/dev/null 2>&1 && [ -f /usr/include/valgrind/callgrind.h ]; then
        return
    fi
    echo "valgrind not found: installing it with apt-get (the lab counts instructions with callgrind)" >&2
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || { echo "error: need root (or sudo) to install valgrind; or run the lab with --no-instructions" >&2; exit 1; }
        sudo="sudo"
    fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq >&2
    $sudo apt-get install -y -qq valgrind >&2
    command -v valgrind >/dev/null 2>&1 || { echo "error: valgrind still not on PATH after installing it" >&2; exit 1; }
}

# Builds the release lab executable (progress on stderr) and prints its path.
build_lab() {
    ensure_toolchain
    ensure_jemalloc
    ensure_valgrind
    swift build -c release --package-path "$LAB_PACKAGE" --product swiftrex-lab >&2
    echo "$(swift build -c release --package-path "$LAB_PACKAGE" --show-bin-path)/swiftrex-lab"
}
