#!/usr/bin/env bash
# A student's program with warp collectives (tests/access/shfl.cu) through a
# pipe: `trace` names each shuffle, ballot and barrier with its line, lanes
# and values, and `animate` prints them in its frames; the grid barrier and
# a wide tile's barrier of the corpus programs p28 and p32 are named too.
# Exit 77 (skipped) when the build records nothing.
#
# usage: cli_access.sh GPULAB
set -u
GPULAB=$1
SRC=$(cd "$(dirname "$0")" && pwd)/shfl.cu
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export HOME=$TMP XDG_STATE_HOME=$TMP/state XDG_CACHE_HOME=$TMP/cache LC_ALL=C.UTF-8 LANG=C.UTF-8 COLUMNS=120
fail=0
has() {
    if grep -qF -- "$2" <<<"$1"; then echo "ok: $2"; else echo "FAIL: no \"$2\""; fail=1; fi
}
out=$(cd "$TMP" && "$GPULAB" -c "open $SRC; trace" 2>&1)
if grep -q "records no accesses\|nothing was recorded" <<<"$out"; then
    echo "no recording in this build: skipped"
    exit 77
fi
has "$out" "line 10   block 0 warp 0  32 lanes  read d_in[0..31]"
has "$out" "line 11   block 0 warp 0  32 lanes  __shfl_down_sync by 16: 0←16 (16), 1←17 (17)"
has "$out" "line 11   block 0 warp 1  32 lanes  __shfl_down_sync by 16: 0←16 (48)"
has "$out" "line 11   block 0 warp 0  32 lanes  __shfl_down_sync by 1: 0←1"
has "$out" "line 12   block 0 warp 0  32 lanes  __ballot_sync: 0x"
has "$out" "line 17   block 0  __syncthreads: all 64 threads of the block waited"
has "$out" "  barrier epoch 1"
# wide enough for the lines beside the code pane; the caption wraps, so its
# lines are joined
anim=$(cd "$TMP" && COLUMNS=200 "$GPULAB" -c "open $SRC; animate" 2>&1 | tr '\n' ' ')
has "$anim" "line 11 __shfl_down_sync by 16, 2 warps: lane i gets lane i+16's value"
has "$anim" "__syncthreads at line 17 ends the step: the 64 threads of 1 block waited there"
has "$anim" "12 warp collectives work on registers, not memory"
# the grid barrier and a wide tile's barrier are records of their own: the
# grid's names every block that waited, the tile's its 128 threads
PROGS=$(cd "$(dirname "$0")/../programs" && pwd)
grid=$(cd "$TMP" && "$GPULAB" -c "open $PROGS/p28_grid_sync_reduce.cu; trace" 2>&1)
has "$grid" "line 36   block 0  this_grid().sync: all 256 threads of the block waited"
has "$grid" "line 36   block 3  this_grid().sync: all 256 threads of the block waited"
has "$grid" "line 29   block 0  this_thread_block().sync: all 256 threads of the block waited"
has "$grid" "line 31   block 0 warp 0  32 lanes  read s[0..31]  (1 wavefront)"
tile=$(cd "$TMP" && "$GPULAB" -c "open $PROGS/p32_wide_tile_partition.cu; trace" 2>&1)
has "$tile" "line 22   block 0 warp 0  32 lanes  thread_block_tile::sync of 128 threads"
has "$tile" "line 23   block 0 warp 3  32 lanes  thread_block_tile::sync of 128 threads"
[ "$fail" -eq 0 ]
