# RIG2D_SANITIZE="address;undefined" instruments every target of this build (library, tools, tests).
if(RIG2D_SANITIZE)
  string(REPLACE ";" "," _rig2d_san "${RIG2D_SANITIZE}")
  add_compile_options(-fsanitize=${_rig2d_san} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${_rig2d_san})
endif()

# RIG2D_FUZZ (clang only): instrument everything for coverage-guided fuzzing; tests/fuzz then builds
# real libFuzzer binaries instead of corpus replayers.
if(RIG2D_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "RIG2D_FUZZ needs clang (-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
