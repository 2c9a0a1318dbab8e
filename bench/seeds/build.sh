#!/bin/sh
# Build the seed programs (bench/seeds/extract.py) for an sm_90 GPU:
#   bench/seeds/build.sh SEEDS_DIR OUT_DIR
# lecture_reduce: the reduction lecture's program; article_reduce: the
# cooperative-groups article's; plain_thrust: a user's own thrust::reduce,
# built as a user would (-O3) and with gpulab's own flags (plain_thrust_lab);
# thrust_probe: one property of the process changed at a time (its header).
set -eu
seeds=$1 out=$2
here=$(dirname "$0")
python3 "$here/extract.py" "$seeds" "$out"
cd "$out"
NVCC=${NVCC:-nvcc}
$NVCC -O3 -std=c++17 -arch=sm_90 -Xcompiler -fopenmp -o lecture_reduce lecture_reduce.cu -lgomp &
$NVCC -O3 -arch=sm_90 -o article_reduce article_reduce.cu &
wait
$NVCC -O3 -std=c++17 -arch=sm_90 -Xcompiler -fopenmp -o plain_thrust plain_thrust.cu -lgomp &
$NVCC -O2 -g -lineinfo --expt-relaxed-constexpr -std=c++17 -arch=sm_90 -Xcompiler -fopenmp \
    -o plain_thrust_lab plain_thrust.cu -lgomp &
wait
$NVCC -O3 -std=c++17 -arch=sm_90 -Xcompiler -fopenmp -o thrust_probe "$here/thrust_probe.cu" -lgomp
