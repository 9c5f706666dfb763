# Warnings for rig2d's own targets only (linked PRIVATE), never global flags that would leak into
# dependencies. FMA contraction is off everywhere so results match the engine's double arithmetic.
add_library(rig2d_warnings INTERFACE)
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(rig2d_warnings INTERFACE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused -Woverloaded-virtual
    -Wimplicit-fallthrough
    -Wno-missing-field-initializers)  # partial aggregate init ({path}) is idiomatic here
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 reports std::string concatenation falsely (GCC bug 105329).
    target_compile_options(rig2d_warnings INTERFACE -Wno-restrict)
  endif()
  if(RIG2D_WERROR)
    target_compile_options(rig2d_warnings INTERFACE -Werror)
  endif()
endif()

add_library(rig2d_fp INTERFACE)
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(rig2d_fp INTERFACE -ffp-contract=off -fno-fast-math)
endif()
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  # GCC 12's SLP vectorizer drops paired double->float->double round trips (the float32 storage
  # points the engine parity depends on); tests/unit/skin/test_lbs.cpp catches it.
  target_compile_options(rig2d_fp INTERFACE -fno-tree-slp-vectorize)
endif()
