# HOMP_SANITIZER=address|thread builds libhomp, homp-core and their unit tests
# instrumented (make check-asan, make check-tsan). The clang plugin and the
# pass are loaded into the distribution's uninstrumented clang and opt, so
# they stay uninstrumented.
set(HOMP_SANITIZER "" CACHE STRING
  "instrument libhomp and its tests: address (ASan and UBSan) or thread (TSan)")
set_property(CACHE HOMP_SANITIZER PROPERTY STRINGS "" address thread)

# homp-sanitizer: the flags, for the targets that are instrumented.
add_library(homp-sanitizer INTERFACE)
set(HOMP_SANITIZER_RUNTIME "")
if(HOMP_SANITIZER STREQUAL "")
  return()
elseif(HOMP_SANITIZER STREQUAL "address")
  set(flags -fsanitize=address,undefined -fno-sanitize-recover=all)
  set(runtime asan)
elseif(HOMP_SANITIZER STREQUAL "thread")
  set(flags -fsanitize=thread)
  set(runtime tsan)
else()
  message(FATAL_ERROR "HOMP_SANITIZER must be address or thread, not '${HOMP_SANITIZER}'")
endif()
target_compile_options(homp-sanitizer INTERFACE ${flags} -fno-omit-frame-pointer)
target_link_options(homp-sanitizer INTERFACE ${flags})

# Programs with offload images cannot take -fsanitize at link time: clang's
# linker wrapper links the x86_64 device image as a shared object with the
# host's libraries, and the static sanitizer runtimes cannot go into one.
# They link the shared runtime instead, first, as the sanitizers require.
execute_process(
  COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libclang_rt.${runtime}-x86_64.so
  OUTPUT_VARIABLE HOMP_SANITIZER_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT IS_ABSOLUTE "${HOMP_SANITIZER_RUNTIME}" OR NOT EXISTS "${HOMP_SANITIZER_RUNTIME}")
  message(FATAL_ERROR "HOMP_SANITIZER=${HOMP_SANITIZER} needs clang's shared "
    "${runtime} runtime (libclang-rt-19-dev)")
endif()
message(STATUS "homp: instrumented with -fsanitize=${HOMP_SANITIZER}")
