# Installs this build into a temp prefix, then builds and runs a consumer that only knows
# find_package(rig2d) and rig2d::rig2d.
add_test(NAME package.install_and_consume
  COMMAND ${CMAKE_COMMAND}
    -DRIG2D_BUILD_DIR=${PROJECT_BINARY_DIR}
    -DCONSUMER_SOURCE_DIR=${CMAKE_CURRENT_LIST_DIR}/consumer
    -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/package-test
    -DGENERATOR=${CMAKE_GENERATOR}
    -DCXX_COMPILER=${CMAKE_CXX_COMPILER}
    -P ${CMAKE_CURRENT_LIST_DIR}/run_consumer.cmake)
set_tests_properties(package.install_and_consume PROPERTIES
  TIMEOUT 300
  PASS_REGULAR_EXPRESSION "consumer: ok")

# Installs this build, then builds a tiny asset project through rig2d_add_rigs with Ninja: exactly
# the rigs whose PNG, sidecar or OPTIONS changed are remade, and the installed tools run as they are.
find_program(RIG2D_NINJA ninja)
if(RIG2D_BUILD_TOOLS AND RIG2D_NINJA)
  add_test(NAME package.rig2d_add_rigs
    COMMAND ${CMAKE_COMMAND}
      -DRIG2D_BUILD_DIR=${PROJECT_BINARY_DIR}
      -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
      -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/asset-build-test
      -DNINJA=${RIG2D_NINJA}
      -P ${CMAKE_CURRENT_LIST_DIR}/run_asset_build.cmake)
  set_tests_properties(package.rig2d_add_rigs PROPERTIES TIMEOUT 300 PASS_REGULAR_EXPRESSION "asset build: ok")
endif()
