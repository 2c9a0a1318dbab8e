# Third-party libraries, all from Debian packages or the CUDA toolkit.
# scripts/deps.sh installs the missing ones (as root) before CMake runs.
if(GPULAB_CUDA)
  find_package(CUDAToolkit REQUIRED)
endif()
find_package(OpenMP REQUIRED COMPONENTS C CXX)
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)

set(_gpulab_missing "")
foreach(spec IN ITEMS "READLINE;readline;libreadline-dev"
                      "NCURSESW;ncursesw;libncurses-dev"
                      "JANSSON;jansson;libjansson-dev"
                      "CMARK;libcmark;libcmark-dev"
                      "CAIRO;cairo;libcairo2-dev"
                      "PNG;libpng;libpng-dev"
                      "LIBDW;libdw;libdw-dev")
  list(GET spec 0 var)
  list(GET spec 1 mod)
  list(GET spec 2 deb)
  pkg_check_modules(${var} IMPORTED_TARGET ${mod})
  if(NOT ${var}_FOUND)
    list(APPEND _gpulab_missing ${deb})
  endif()
endforeach()
# NCCL's header, for the all-reduce across GPUs (libnccl itself is opened
# at run time): the toolkit's include folder or the CUDA repositories'
# libnccl-dev. Optional: without it the nccl rows say so.
if(GPULAB_CUDA)
  find_path(GPULAB_NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
  if(NOT GPULAB_NCCL_INCLUDE_DIR)
    message(STATUS "nccl.h not found: the nccl combine across GPUs is left out")
  endif()
endif()
find_path(CMOCKA_INCLUDE_DIR cmocka.h)
find_library(CMOCKA_LIBRARY cmocka)
if(NOT CMOCKA_INCLUDE_DIR OR NOT CMOCKA_LIBRARY)
  list(APPEND _gpulab_missing libcmocka-dev)
endif()
# The message catalogs (po/): msgfmt compiles them; xgettext and msgmerge
# (the same package) refresh them (the pot target, po/update.sh). gettext()
# itself is the C library's on Debian; Intl finds it (or libintl elsewhere).
find_program(GPULAB_MSGFMT msgfmt)
if(NOT GPULAB_MSGFMT)
  list(APPEND _gpulab_missing gettext)
endif()
find_package(Intl REQUIRED)
if(_gpulab_missing)
  list(JOIN _gpulab_missing " " _pk)
  message(FATAL_ERROR "gpulab needs these Debian packages: ${_pk}\n"
                      "Install them with:\n  sudo apt-get install -y ${_pk}")
endif()
add_library(gpulab_cmocka INTERFACE)
target_include_directories(gpulab_cmocka INTERFACE ${CMOCKA_INCLUDE_DIR})
target_link_libraries(gpulab_cmocka INTERFACE ${CMOCKA_LIBRARY})

find_program(TMUX_EXECUTABLE tmux)
