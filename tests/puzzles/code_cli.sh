#!/bin/bash
# `code` through the real binary: a built-in variant's kernels found in
# kernels/ with the asked line highlighted, a kernel by name, a file, and
# clear refusals (a library row, an unknown kernel, a bad line number).
GPULAB=$(realpath "$1")
SRC=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME=$tmp/state HOME=$tmp NO_COLOR=1 COLUMNS=100
cd "$tmp" || exit 1
fails=0
expect() { # expect NAME PATTERN COMMAND...
  local name=$1 pat=$2; shift 2
  "$GPULAB" --no-color "$@" >out 2>&1
  if grep -q -- "$pat" out; then echo "ok   $name"; else echo "FAIL $name: no \"$pat\" in"; cat out; fails=$((fails + 1)); fi
}
line=$(grep -n "__syncthreads" "$SRC/kernels/reduce/reduce.cu" | head -1 | cut -d: -f1)
expect variant "▶ *$line │ *__syncthreads" -c "code reduce/interleaved $line"
expect title "reduce_interleaved_k.* kernels/reduce/reduce.cu, lines" -c "code reduce/interleaved"
expect several "bitonic_n_finish" -c "use bitonic" -c "code n"
expect kernel "matmul_tiled_k · kernels/matmul/matmul.cu" -c "code matmul_tiled_k"
printf '__global__ void k(int *x)\n{\n    x[threadIdx.x] = 1;\n}\n' >k.cu
expect file "▶ 3 │ *x\[threadIdx.x\] = 1;" -c "code k.cu 3"
expect library "cub is not a kernel of gpulab's" -c "code histogram/cub"
expect unknown "no kernel nothere in gpulab's kernels/ source" -c "code nothere"
expect badline "a line number, 1 or more" -c "code k.cu zero"
exit $((fails > 0))
