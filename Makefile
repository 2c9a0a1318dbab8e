# A thin wrapper over the CMake presets.
#   make           configure (first time) and build
#   make run       build the program (not the tests) and start the REPL
#   make test      build and run every test this machine can run
#                  (GPU tests are skipped where there is no GPU)
#   make gpu       the sm_90-only build in build-gpu/ (for an H100/H200)
#   make asan      the sanitizer build, and its tests
#   make fuzz      the libFuzzer targets (clang), each run FUZZ_SECONDS (60);
#                  figures and findings: docs/reliability.md
# Missing Debian packages are installed when running as root; otherwise the
# build stops and prints the exact apt-get line (scripts/deps.sh).

PRESET ?= default
BUILD  := $(if $(filter default,$(PRESET)),build,build-$(PRESET))
JOBS   ?= $(shell nproc 2>/dev/null || echo 2)

# CMake finds nvcc through CUDACXX when it is not on the PATH.
export CUDACXX ?= $(shell command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)

.PHONY: all deps build run test gpu asan fuzz clean

all: build

deps:
	@scripts/deps.sh

$(BUILD)/CMakeCache.txt: | deps
	cmake --preset $(PRESET)

build: deps $(BUILD)/CMakeCache.txt
	cmake --build --preset $(PRESET) -j $(JOBS)

# run needs the program only (and what it loads at run time), not the tests
run: deps $(BUILD)/CMakeCache.txt
	cmake --build --preset $(PRESET) -j $(JOBS) --target gpulab
	@$(BUILD)/gpulab

test: build
	ctest --preset $(PRESET)

gpu:
	$(MAKE) PRESET=gpu build

asan:
	$(MAKE) PRESET=asan build
	ctest --preset asan

FUZZ_SECONDS ?= 60
fuzz:
	@scripts/deps.sh fuzz
	cmake --preset fuzz
	cmake --build --preset fuzz -j $(JOBS)
	tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS)

clean:
	rm -rf build build-gpu build-asan build-fuzz
