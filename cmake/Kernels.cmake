# gpulab_family(NAME KERNELS a.cu ... CPU a_cpu.c ... LIB a_lib.cu ... HOST a.c ...)
#
# Makes the static library gpulab_<NAME>. Every file under KERNELS is compiled
# three times from the same source:
#   nvcc               -> the timed GPU build        (entry points end in _gpu)
#   nvcc -DLAB_TRACE   -> the traced GPU build       (entry points end in _gput)
#   g++ -DGPULAB_SIM   -> the CPU simulator build    (entry points end in _sim)
# LIB files (thrust, CUB, cuBLAS) exist only for the GPU; CPU and HOST files are
# C (or C++). Without the CUDA toolkit (GPULAB_CUDA off) only the simulator
# build of KERNELS and the CPU and HOST files are made. kernels/CMakeLists.txt links every family into gpulab_kernels.
# The simulator build is instrumented for the access recording (kernels/sim/
# record.h) unless GPULAB_RECORD is off: see gpulab_record_options().
# TEST_ONLY: kernels that only tests use (tests/sim): the library is made the
# simulator build only and is not listed among the families, so gpulab_kernels
# and the registry never see it.
define_property(GLOBAL PROPERTY GPULAB_FAMILIES
  BRIEF_DOCS "family libraries" FULL_DOCS "family libraries")

function(gpulab_family name)
  cmake_parse_arguments(F "TEST_ONLY" "" "KERNELS;CPU;LIB;HOST" ${ARGN})
  set(out "")
  set(gen ${CMAKE_BINARY_DIR}/gen/${name})
  foreach(src IN LISTS F_KERNELS)
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(base ${src} NAME_WE)
    # the simulator's text: the file with its kernels' lane-loop forms
    # (kernels/program/lanes_gen.c), under the file's own name and lines
    add_custom_command(OUTPUT ${gen}/${base}.sim.cpp
      COMMAND gpulab_lanes_gen ${abs} ${gen}/${base}.sim.cpp
      DEPENDS ${abs} gpulab_lanes_gen
      COMMENT "Lane-loop forms of ${base}.cu for the simulator"
      VERBATIM)
    gpulab_record_options(${gen}/${base}.sim.cpp)
    file(CONFIGURE OUTPUT ${gen}/${base}.traced.cu CONTENT
         "/* generated: ${src} with trace recording */\n#define LAB_TRACE 1\n#include \"${abs}\"\n")
    # The traced build runs small instances only (trace, animate), so ptxas
    # need not optimise it: the traced bitonic network, the heaviest file,
    # compiled in 35 s an architecture with ptxas -O0, 54 s with -O1 and
    # 135 s with the default -O3 and the recorder inlined.
    set_property(SOURCE ${gen}/${base}.traced.cu APPEND PROPERTY COMPILE_OPTIONS -Xptxas=-O0)
    if(F_TEST_ONLY OR NOT GPULAB_CUDA)
      list(APPEND out ${gen}/${base}.sim.cpp)  # test kernels run on the simulator only
    else()
      list(APPEND out ${abs} ${gen}/${base}.traced.cu ${gen}/${base}.sim.cpp)
    endif()
  endforeach()
  if(NOT GPULAB_CUDA)
    set(F_LIB "")  # the library rows need the toolkit (LAB_GPU_FN in kernels/family.h)
  endif()
  foreach(src IN LISTS F_LIB F_CPU F_HOST)
    get_filename_component(abs ${src} ABSOLUTE)
    list(APPEND out ${abs})
  endforeach()
  add_library(gpulab_${name} STATIC ${out})
  target_link_libraries(gpulab_${name} PUBLIC gpulab_core)
  gpulab_kernel_options(gpulab_${name})
  if(NOT F_TEST_ONLY)
    set_property(GLOBAL APPEND PROPERTY GPULAB_FAMILIES gpulab_${name})
  endif()
endfunction()

function(gpulab_kernel_options target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -Xcompiler=-Wall,-Wno-maybe-uninitialized -lineinfo>
    $<$<COMPILE_LANGUAGE:CXX>:-Wno-unused-function -Wno-unknown-pragmas>)
endfunction()

# The access recording: g++ -fsanitize=thread at compile time only (nothing
# of the sanitizer is linked; kernels/sim/record.cpp defines the entry points
# it calls), without the calls at every function entry, and without the
# scalar replacement of aggregates, so that a float4 load stays one 16-byte
# access as it is one instruction on the GPU. ThreadSanitizer does not combine
# with AddressSanitizer: the sanitizer build leaves it out. -fsanitize=bounds
# checks every index into an array of known size (a kernel's local arrays):
# memcheck (kernels/sim/check.cpp) defines the handler it calls.
function(gpulab_record_options src)
  if(GPULAB_RECORD)
    set_property(SOURCE ${src} APPEND PROPERTY COMPILE_OPTIONS
      -fsanitize=thread --param=tsan-instrument-func-entry-exit=0 -fno-tree-sra -fsanitize=bounds)
  endif()
endfunction()
