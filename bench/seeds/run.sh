#!/bin/sh
# On the GPU machine, from a folder holding bundle.tar.xz (scripts/stage-device.sh),
# the seed programs (bench/seeds/build.sh) in seeds/ and this folder's
# accuracy.gpulab: the seed programs' own timings beside gpulab's rows.
# Results in $OUT.
set -u
OUT=${OUT:-out}
mkdir -p "$OUT"
tar -xJf bundle.tar.xz
export LD_LIBRARY_PATH="$PWD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export XDG_STATE_HOME=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv > "$OUT/device.txt" 2>&1
date -u >> "$OUT/device.txt"
{
  echo "== lecture_reduce (the lecture's program, OMP_PLACES=cores OMP_PROC_BIND=spread)"
  OMP_PLACES=cores OMP_PROC_BIND=spread timeout 60 seeds/lecture_reduce
  echo "== article_reduce (the article's program: 100 timed calls, two launches each)"
  timeout 60 seeds/article_reduce > "$OUT/article_times.txt"
  tail -1 "$OUT/article_times.txt"
  sort -t= -k2 -g "$OUT/article_times.txt" | grep Time | awk -F'= ' '{print $2}' | sed -n '50p;51p' | tr '\n' ' '; echo "(the 50th and 51st of 100 sorted times: the median)"
  echo "== plain thrust, -O3"
  timeout 60 seeds/plain_thrust
  echo "== plain thrust after an OpenMP sum"
  timeout 60 seeds/plain_thrust omp
  echo "== plain thrust built with gpulab's flags"
  timeout 60 seeds/plain_thrust_lab
  echo "== thrust_probe: one property of the process at a time"
  for a in "" events-each omp spin yield block "omp spin" "omp block"; do
    timeout 60 seeds/thrust_probe $a
  done
  if command -v taskset >/dev/null 2>&1; then
    echo "== bound to one CPU (taskset -c 2)"
    timeout 60 taskset -c 2 seeds/thrust_probe
    timeout 60 taskset -c 2 seeds/plain_thrust
    timeout 60 taskset -c 2 bin/gpulab -c "use reduce; set n 64Mi; set repeats 20; run thrust cub"
  fi
} > "$OUT/seeds.txt" 2>&1
timeout 150 bin/gpulab --json accuracy.gpulab > "$OUT/gpulab.jsonl" 2> "$OUT/gpulab.err"
echo "gpulab rc=$?" >> "$OUT/seeds.txt"
OMP_WAIT_POLICY=passive timeout 30 bin/gpulab --json -c "use reduce; set n 64Mi; set repeats 20; run thrust cub" \
    > "$OUT/gpulab-passive.jsonl" 2>&1
if command -v nsys >/dev/null 2>&1; then
  timeout 60 nsys profile -o "$OUT/thrust" --force-overwrite true --stats=false \
      bin/gpulab -c "use reduce; set n 64Mi; set repeats 20; run thrust" > /dev/null 2>&1
  timeout 30 nsys stats --report cuda_api_sum "$OUT/thrust.nsys-rep" > "$OUT/nsys.txt" 2>&1
  rm -f "$OUT/thrust.nsys-rep" "$OUT"/*.sqlite
else
  echo "no nsys" > "$OUT/nsys.txt"
fi
