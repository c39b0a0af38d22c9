# HOMP_PLUGINS_FROM=<folder>: take the clang plugin (homp.so) and the pass
# (homp-pass.so) from another build's library folder instead of compiling
# them again. The sanitizer builds (HompSanitizer.cmake) use the main build's:
# both are loaded into the uninstrumented clang, so they are the same files.
foreach(module homp.so homp-pass.so)
  if(NOT EXISTS "${HOMP_PLUGINS_FROM}/${module}")
    message(FATAL_ERROR "HOMP_PLUGINS_FROM: no ${module} in '${HOMP_PLUGINS_FROM}'")
  endif()
  file(MAKE_DIRECTORY ${CMAKE_LIBRARY_OUTPUT_DIRECTORY})
  file(CREATE_LINK "${HOMP_PLUGINS_FROM}/${module}"
    "${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/${module}" SYMBOLIC)
endforeach()
# The targets others depend on, built elsewhere.
add_custom_target(homp-clang-plugin)
add_custom_target(homp-pass)
