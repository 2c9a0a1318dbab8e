# Install.cmake - `make install PREFIX=...`, `cmake --install BUILD`, and
# the Debian package (`make package`, CPack).
#
#   <prefix>/bin/gpulab
#   <prefix>/lib/gpulab              the runtime of students' programs: the
#                                    simulator's library, its precompiled header,
#                                    the GPU wrapper; include/ the headers the
#                                    runtime's header includes
#   <prefix>/share/gpulab/lessons    lessons and puzzles, every language
#   <prefix>/share/gpulab/locale     message catalogs
#   <prefix>/share/gpulab/kernels    the built-in kernels' sources (`code`)
#   <prefix>/share/man/man1/gpulab.1, <prefix>/share/doc/gpulab/
#
# gpulab finds each folder from its own location (kernels/paths.c), so the
# tree works wherever it is installed or unpacked. The folder names are
# fixed, not GNUInstallDirs' LIBDIR (lib/x86_64-linux-gnu on Debian): the
# program looks for lib/gpulab beside its bin/.
set(_rt ${CMAKE_BINARY_DIR}/program-rt)
install(TARGETS gpulab RUNTIME DESTINATION bin)
install(FILES ${_rt}/libgpulab_progrt.a ${_rt}/progrt.h ${_rt}/progrt.h.gch ${_rt}/gpurt.h
        DESTINATION lib/gpulab)
# What progrt.h includes (g++ -MM), for a compiler that cannot use the
# precompiled header (another g++ version): it then reads these.
install(FILES kernels/lab.h kernels/family.h DESTINATION lib/gpulab/include/kernels)
install(FILES kernels/device/occupancy.h DESTINATION lib/gpulab/include/kernels/device)
install(FILES kernels/sim/shim.h kernels/sim/shim_fp.h kernels/sim/shim_cg.h kernels/sim/shim_tex.h kernels/sim/sim.h
              kernels/sim/shim_async.h kernels/sim/shim_wmma.h
              kernels/sim/record.h kernels/sim/race.h
        DESTINATION lib/gpulab/include/kernels/sim)
# The CUDA headers a program names (cuda_runtime.h, cuda_fp16.h, assert.h...):
# the runtime's (the build's program-rt/include), each including progrt.h
install(DIRECTORY kernels/program/include/ DESTINATION lib/gpulab/include)
install(FILES kernels/program/progrt.h DESTINATION lib/gpulab/include/kernels/program)
install(DIRECTORY lessons/ DESTINATION share/gpulab/lessons)
install(DIRECTORY ${CMAKE_BINARY_DIR}/locale/ DESTINATION share/gpulab/locale)
install(DIRECTORY kernels/ DESTINATION share/gpulab/kernels
        FILES_MATCHING PATTERN "*.cu" PATTERN "*.cuh" PATTERN "*.h")
install(FILES docs/gpulab.1 DESTINATION share/man/man1)
install(FILES README.md DESTINATION share/doc/gpulab)
install(DIRECTORY docs/ DESTINATION share/doc/gpulab FILES_MATCHING PATTERN "*.md")

# The Debian package. Shared libraries are named by dpkg-shlibdeps from
# what the program links (readline, ncursesw, jansson, cmark, cairo, libpng,
# libdw, libgomp, ...); g++ builds students' programs on the simulator; the
# CUDA toolkit (nvcc, for students' programs on a GPU, and the driver's
# libraries) is recommended, not required: without it gpulab runs on the
# simulator.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gpulab)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "gpulab maintainers <gpulab@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "terminal lab for learning GPU parallel programming, with a CUDA simulator")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
"terminal lab for learning GPU parallel programming, with a CUDA simulator
 gpulab is a REPL for learning GPU parallel algorithms: built-in algorithms
 with variants and timing tables beside thrust, CUB and cuBLAS, step-by-step
 animations of what the threads did, lessons in five languages, puzzles,
 and students' own CUDA programs, run on the GPU or on gpulab's CPU
 simulator of the CUDA execution model when there is no GPU.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "g++")
if(GPULAB_CUDA)
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "nvidia-cuda-toolkit | cuda-toolkit, less")
else()
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "less")  # built without CUDA: the toolkit would not be used
endif()
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES bin/gpulab)
include(CPack)
