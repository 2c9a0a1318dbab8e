#!/bin/sh
# Stage what a GPU machine needs to run gpulab's GPU tests and benchmarks:
# the sm_90 build's programs (build-gpu/), the shared libraries they use
# that a bare CUDA machine may lack, and the message catalogs (share/locale,
# where bin/gpulab looks when its build tree is not there), into .devcarry/
# (ignored by git).
# Usage: scripts/stage-device.sh [BUILD_DIR]   (default build-gpu, from `make gpu`)
set -eu
cd "$(dirname "$0")/.."
build=${1:-build-gpu}
out=.devcarry
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib"
cp "$build"/gpulab "$out/bin/"
find "$build"/tests -type f -perm -u+x \( -name 'gpu_*' -o -name 'bench_*' \) \
    -exec cp {} "$out/bin/" \;
# Libraries outside the C runtime and the CUDA driver: carried along.
for b in "$out"/bin/*; do
    ldd "$b" 2>/dev/null | awk '/=> \// {print $3}'
done | sort -u | while read -r lib; do
    case "$(basename "$lib")" in
        libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*|libstdc++.so*|libgcc_s.so*|libcuda.so*|libcublas*) ;; # cuBLAS comes with the toolkit there
        *) cp -L "$lib" "$out/lib/" ;;
    esac
done
strip --strip-debug "$out"/bin/*
mkdir -p "$out/share/locale"
[ -d "$build/locale" ] && cp -R "$build/locale/." "$out/share/locale/"
# Compressed, since what travels to the GPU machine is limited in size.
tar -C "$out" -cJf "$out.tar.xz" bin lib share
rm -rf "$out"
mkdir -p "$out"
mv "$out.tar.xz" "$out/bundle.tar.xz"
du -sh "$out"
