# Fuzz targets. With RIG2D_FUZZ=ON (clang) each is a libFuzzer binary:
#   build-fuzz/tests/fuzz_png -max_total_time=600 tests/fuzz/corpus/png
# Otherwise each links replay_main.cpp and replays its saved corpus under ctest, so every input that
# once crashed stays a regression test.
set(RIG2D_FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR})

# rig2d_add_fuzzer(<name> <source>): corpus in tests/fuzz/corpus/<name>/.
function(rig2d_add_fuzzer name source)
  set(target fuzz_${name})
  if(RIG2D_FUZZ)
    add_executable(${target} ${source})
    target_link_options(${target} PRIVATE -fsanitize=fuzzer)
  else()
    add_executable(${target} ${source} ${RIG2D_FUZZ_DIR}/replay_main.cpp)
    add_test(NAME fuzz_replay_${name} COMMAND ${target} ${RIG2D_FUZZ_DIR}/corpus/${name})
  endif()
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/lib/src)
  target_link_libraries(${target} PRIVATE rig2d_internals rig2d_fp nlohmann_json::nlohmann_json)
endfunction()

rig2d_add_fuzzer(png ${RIG2D_FUZZ_DIR}/fuzz_png.cpp)
rig2d_add_fuzzer(json ${RIG2D_FUZZ_DIR}/fuzz_json.cpp)
foreach(extra rig autorig scene outline render interop inputs layout psd ora template)
  if(EXISTS ${RIG2D_FUZZ_DIR}/fuzz_${extra}.cpp)
    rig2d_add_fuzzer(${extra} ${RIG2D_FUZZ_DIR}/fuzz_${extra}.cpp)
  endif()
endforeach()
