#!/bin/sh
# Stage what a GPU machine needs to run gpulab from an INSTALLED tree (not
# the build tree): `cmake --install` of the sm_90 build (build-gpu/, `make
# gpu`) under OUT/gpulab (bin/, lib/gpulab/, share/gpulab/), the GPU test
# programs and benchmarks beside bin/gpulab (they find the installed runtime
# the same way), the corpus of students' programs (tests/programs) and the
# bench scripts, the shared libraries a bare CUDA machine may lack (OUT/lib),
# and scripts/gpu-check.sh, compressed into OUT/bundle.tar.xz.
# Usage: scripts/stage-device.sh [BUILD_DIR [OUT]]   (default build-gpu .devcarry)
# STAGE_TESTS="gpu_*" stages the GPU tests only (default: "gpu_* bench_*").
# On the GPU machine, from OUT: sh gpu-check.sh (results under $OUT or out/).
set -eu
cd "$(dirname "$0")/.."
build=${1:-build-gpu}
out=${2:-.devcarry}
case $out in /*) ;; *) out=$PWD/$out ;; esac
rm -rf "$out"
tree=$out/stage
mkdir -p "$tree/lib"
cmake --install "$build" --prefix "$tree/gpulab" >/dev/null
set -f  # the patterns are find's
for pat in ${STAGE_TESTS:-gpu_* bench_*}; do
    find "$build"/tests -type f -perm -u+x -name "$pat" -exec cp {} "$tree/gpulab/bin/" \;
done
set +f
# Libraries outside the C runtime and the CUDA driver: carried along.
for b in "$tree"/gpulab/bin/*; do
    ldd "$b" 2>/dev/null | awk '/=> \// {print $3}'
done | sort -u | while read -r lib; do
    case "$(basename "$lib")" in
        libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*|libstdc++.so*|libgcc_s.so*|libcuda.so*|libcublas*) ;; # cuBLAS comes with the toolkit there
        *) cp -L "$lib" "$tree/lib/" ;;
    esac
done
strip --strip-debug "$tree"/gpulab/bin/*
mkdir -p "$tree/programs" "$tree/bench"
cp tests/programs/check.sh tests/programs/*.cu tests/programs/*.cuh tests/programs/*.h "$tree/programs/"
for d in tests/programs/p*_project; do [ -d "$d" ] && cp -R "$d" "$tree/programs/"; done
[ -d tests/programs/seeds ] && cp -R tests/programs/seeds "$tree/programs/"
cp bench/*.gpulab "$tree/bench/" 2>/dev/null || true
cp scripts/gpu-check.sh "$out/"
# Compressed, since what travels to the GPU machine is limited in size.
tar -C "$tree" -cJf "$out/bundle.tar.xz" .
rm -rf "$tree"
du -sh "$out"
