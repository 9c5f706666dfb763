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
