#!/bin/bash
# installed.sh install|deb BUILD SRC
# gpulab from its installed files alone:
#   install  `cmake --install BUILD --prefix /usr` into a DESTDIR
#   deb      the Debian package (cpack), its fields checked, unpacked
# then, in a private mount namespace where an empty folder lies over BUILD
# and over SRC (so nothing of either can be read): the first session of the
# README, a student's program on the simulator (compiled with the installed
# runtime), a lesson rehearsed by number, a puzzle, a kernel's source, the
# German catalog. Exit 77 only where this machine cannot make the namespace
# (unshare without user namespaces).
set -u
MODE=$1 BUILD=$(cd "$2" && pwd) SRC=$(cd "$3" && pwd)
tmp=$(mktemp -d /tmp/gpulab-installed.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

if ! unshare --map-root-user --mount true 2>/dev/null; then
    echo "skipped: unshare cannot make a user and mount namespace here, so the build tree cannot be hidden"
    exit 77
fi

case $MODE in
install)
    DESTDIR=$root cmake --install "$BUILD" --prefix /usr >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
    ;;
deb)
    (cd "$BUILD" && cpack -G DEB -B "$tmp/pkg") >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
    deb=$(ls "$tmp"/pkg/gpulab_*.deb 2>/dev/null | head -1)
    [ -n "$deb" ] || { cat "$tmp/log"; echo "FAIL: cpack made no gpulab_*.deb"; exit 1; }
    dpkg-deb -f "$deb" Package Version Architecture Installed-Size Depends Recommends
    depends=$(dpkg-deb -f "$deb" Depends)
    # the libraries the program links, as Debian names them, and the compiler
    # of students' programs; CUDA only recommended
    for p in libreadline8 libncursesw6 libjansson4 libcmark libcairo2 libpng16-16 libdw1 libgomp1 'g++'; do
        case ", $depends" in *", $p"*) ;; *) fail "Depends lacks $p: $depends" ;; esac
    done
    case "$depends" in *cuda*) fail "Depends names CUDA (it must only be recommended): $depends" ;; esac
    if grep -q '^GPULAB_CUDA:BOOL=OFF' "$BUILD/CMakeCache.txt"; then
        dpkg-deb -f "$deb" Recommends | grep -q cuda && fail "a build without CUDA recommends the CUDA toolkit"
    else
        dpkg-deb -f "$deb" Recommends | grep -q cuda || fail "Recommends does not name the CUDA toolkit"
    fi
    dpkg-deb -x "$deb" "$root" || exit 1
    ;;
*)
    echo "usage: installed.sh install|deb BUILD SRC"; exit 2 ;;
esac

pre=$root/usr
for f in bin/gpulab lib/gpulab/libgpulab_progrt.a lib/gpulab/progrt.h lib/gpulab/progrt.h.gch lib/gpulab/gpurt.h \
         lib/gpulab/include/kernels/sim/shim.h share/gpulab/lessons/en/01-threads-blocks-grids.md \
         share/gpulab/lessons/de share/gpulab/locale/de/LC_MESSAGES/gpulab.mo share/gpulab/kernels/reduce/reduce.cu \
         share/man/man1/gpulab.1 share/doc/gpulab/README.md; do
    [ -e "$pre/$f" ] || fail "not installed: <prefix>/$f"
done
# The headers the runtime's header includes are all there: a compiler that
# cannot use the precompiled header reads them instead.
c++ -std=gnu++17 -fsyntax-only -I"$pre/lib/gpulab/include" -x c++ "$pre/lib/gpulab/progrt.h" >"$tmp/hdr" 2>&1 ||
    { fail "progrt.h does not compile from the installed headers alone"; head -20 "$tmp/hdr"; }

cp "$SRC/tests/programs/p01_vector_add.cu" "$tmp/vecadd.cu"
mkdir -p "$tmp/work"
# Everything below runs where BUILD and SRC are empty folders.
unshare --map-root-user --mount bash -s "$BUILD" "$SRC" "$pre" "$tmp" >"$tmp/out" 2>&1 <<'INNER'
BUILD=$1 SRC=$2 pre=$3 tmp=$4
mount -t tmpfs none "$BUILD" && mount -t tmpfs none "$SRC" || { echo "HIDE FAILED"; exit 1; }
[ -z "$(ls -A "$BUILD")" ] && [ -z "$(ls -A "$SRC")" ] || { echo "HIDE FAILED"; exit 1; }
export HOME=$tmp/home XDG_STATE_HOME=$tmp/state XDG_CACHE_HOME=$tmp/cache NO_COLOR=1 COLUMNS=100 LANGUAGE=en
unset GPULAB_PROGRAM_RT GPULAB_PROGRAM_SRC GPULAB_LESSONS GPULAB_LOCALEDIR GPULAB_KERNELS
cd "$tmp/work"
g=$pre/bin/gpulab
echo "=== session"
"$g" --no-color -c "use reduce; set n 64Mi; compare; set block 64; run sequential"; echo "rc=$?"
echo "=== program"
"$g" --no-color -c "set backend sim; open $tmp/vecadd.cu; run"; echo "rc=$?"
echo "=== lesson"
"$g" --no-color -c "set backend sim" --lecture 1 --rehearse </dev/null; echo "rc=$?"
echo "=== puzzle"
"$g" --no-color -c "puzzle 1"; echo "rc=$?"; ls puzzles
echo "=== code"
"$g" --no-color -c "use reduce; code interleaved"; echo "rc=$?"
echo "=== german"
"$g" --no-color --lang de -c "help"; echo "rc=$?"
INNER
rc=$?
section() { sed -n "/^=== $1\$/,/^=== /p" "$tmp/out"; }
if grep -q "HIDE FAILED" "$tmp/out" || [ $rc -ne 0 ]; then
    cat "$tmp/out"; fail "could not run with the build and source trees hidden (rc $rc)"
else
    for s in session program lesson puzzle code german; do
        section $s | grep -q '^rc=0$' || fail "$s: gpulab did not exit 0"
        section $s | grep -q '^error:' && fail "$s: an error"
    done
    section session | grep -q 'sequential' || fail "session: no row of sequential"
    section session | grep -q 'cpu-omp' || fail "session: no CPU row in compare"
    for e in $(sed -n 's|^// EXPECT: ||p' "$tmp/vecadd.cu" | tr ' ' '\036'); do
        e=$(echo "$e" | tr '\036' ' ')
        section program | grep -qF "$e" || fail "program: no \"$e\" in its output"
    done
    section lesson | grep -qi 'thread' || fail "lesson: lesson 1 was not presented"
    section puzzle | grep -q '\.cu$' || fail "puzzle: no skeleton written"
    section code | grep -q '__global__' || fail "code: no kernel source shown"
    section german | grep -q 'Befehl' || fail "german: the help is not German (no catalog)"
    [ $fails -eq 0 ] || cat "$tmp/out"
fi
[ "$MODE" = deb ] && [ $fails -eq 0 ] && echo "installed size: $(du -sk "$root" | cut -f1) KiB unpacked"
[ $fails -eq 0 ] && echo "ok: gpulab runs from the installed files alone ($MODE)"
exit $((fails > 0))
