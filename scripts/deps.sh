#!/bin/sh
# Check the Debian packages gpulab builds against; install the missing ones
# when running as root, otherwise stop with the exact apt-get line.
# With the argument fuzz: also what `make fuzz` needs (clang, libFuzzer);
# with nocuda (or fuzz): the CUDA toolkit is not needed.
set -u
missing=""
need_pc() { pkg-config --exists "$1" 2>/dev/null || missing="$missing $2"; }
need_file() { [ -e "$1" ] || missing="$missing $2"; }
need_cmd() { command -v "$1" >/dev/null 2>&1 || missing="$missing $2"; }

need_cmd pkg-config pkg-config
need_cmd cmake cmake
need_cmd g++ g++
need_cmd tmux tmux
need_cmd python3 python3
need_cmd msgfmt gettext
need_cmd dpkg-shlibdeps dpkg-dev   # make package: the Depends of the Debian package
need_cmd unshare util-linux        # the installed tree's test hides the build tree
if command -v pkg-config >/dev/null 2>&1; then
    need_pc readline libreadline-dev
    need_pc ncursesw libncurses-dev
    need_pc jansson libjansson-dev
    need_pc libcmark libcmark-dev
    need_pc cairo libcairo2-dev
    need_pc libpng libpng-dev
    need_pc libdw libdw-dev
    need_pc libseccomp libseccomp-dev
fi
need_file /usr/include/cmocka.h libcmocka-dev
# `make fuzz` (scripts/deps.sh fuzz) also needs clang and its libFuzzer runtime.
if [ "${1:-}" = fuzz ]; then
    need_cmd clang clang
    if command -v clang >/dev/null 2>&1; then
        need_file "$(clang -print-resource-dir)/lib/linux/libclang_rt.fuzzer-x86_64.a" libclang-rt-dev
    fi
fi

if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "gpulab: installing$missing"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends $missing >/dev/null || {
            echo "gpulab: apt-get could not install:$missing" >&2
            exit 1
        }
    else
        echo "gpulab needs these Debian packages. Install them with:" >&2
        echo "  sudo apt-get install -y$missing" >&2
        exit 1
    fi
fi

case "${1:-}" in nocuda|fuzz) exit 0 ;; esac
CUDACXX=${CUDACXX:-$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$CUDACXX" ]; then
    echo "gpulab needs the CUDA toolkit (nvcc 12.x or 13.x): it was not found on the PATH" >&2
    echo "nor at /usr/local/cuda/bin/nvcc. Install it from NVIDIA (cuda-toolkit) or set CUDACXX," >&2
    echo "or build without it, for the simulator only: make nocuda (README, \"Which build\")." >&2
    exit 1
fi
exit 0
