# A thin wrapper over the CMake presets.
#   make              configure (first time) and build
#   make run          build the program (not the tests) and start the REPL
#   make test         build, then the quick tier of the tests: everything but
#                     the lessons' long rehearsals (GPU tests are skipped where
#                     there is no GPU)
#   make test-all     build, then what CI runs: the quick tier, the English
#                     rehearsal and one translation's, chosen in turn
#   make install      install under PREFIX (/usr/local); DESTDIR is honoured
#   make package      the Debian package (CPack), in the build folder
#   make gpu          the sm_90-only build in build-gpu/ (for an H100/H200)
#   make nocuda       the build without the CUDA toolkit in build-nocuda/
#                     (simulator only)
#   make asan         the sanitizer build, and all its tests
#   make fuzz         the libFuzzer targets (clang), each run FUZZ_SECONDS (60);
#                     figures and findings: docs/reliability.md
# PRESET=gpu|nocuda|asan picks another build for make, run, test, test-all,
# install and package. Missing Debian packages are installed when running as
# root; otherwise the build stops and prints the exact apt-get line
# (scripts/deps.sh).

PRESET ?= default
BUILD  := $(if $(filter default,$(PRESET)),build,build-$(PRESET))
JOBS   ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX ?= /usr/local

# One line per file: the nested makes of CMake's Makefiles say nothing about
# the folders they enter.
MAKEFLAGS += --no-print-directory

# CMake finds nvcc through CUDACXX when it is not on the PATH.
ifneq ($(PRESET),nocuda)
export CUDACXX ?= $(shell command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)
endif

.PHONY: all deps build run test test-all install package gpu nocuda asan fuzz clean

all: build

deps:
	@scripts/deps.sh $(if $(filter nocuda,$(PRESET)),nocuda)

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

test-all: build
	ctest --preset $(PRESET)-all

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

package: build
	cd $(BUILD) && cpack -G DEB

gpu:
	$(MAKE) PRESET=gpu build

nocuda:
	$(MAKE) PRESET=nocuda build

asan:
	$(MAKE) PRESET=asan build
	ctest --preset asan-all

FUZZ_SECONDS ?= 60
fuzz:
	@scripts/deps.sh fuzz
	cmake --preset fuzz
	cmake --build --preset fuzz -j $(JOBS)
	tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS)

clean:
	rm -rf build build-gpu build-nocuda build-asan build-fuzz
