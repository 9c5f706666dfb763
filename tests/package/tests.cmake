# Installs this build into a temp prefix, then builds and runs a consumer that only knows
# find_package(rig2d) and rig2d::rig2d.
add_test(NAME package.install_and_consume
  COMMAND ${CMAKE_COMMAND}
    -DRIG2D_BUILD_DIR=${PROJECT_BINARY_DIR}
    -DCONSUMER_SOURCE_DIR=${CMAKE_CURRENT_LIST_DIR}/consumer
    -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
    -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/package-test
    -DGENERATOR=${CMAKE_GENERATOR}
    -DCXX_COMPILER=${CMAKE_CXX_COMPILER}
    -P ${CMAKE_CURRENT_LIST_DIR}/run_consumer.cmake)
set_tests_properties(package.install_and_consume PROPERTIES
  TIMEOUT 300
  PASS_REGULAR_EXPRESSION "consumer: ok")
if(RIG2D_BUILD_TOOLS)
  set_tests_properties(package.install_and_consume PROPERTIES
    PASS_REGULAR_EXPRESSION "tool_defaults\\(\\) rig matches rig2d-autorig byte for byte")
endif()

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

# The man pages and bash/zsh completions the build generated, against each tool's --help.
find_program(RIG2D_MAN man)
if(RIG2D_BUILD_TOOLS AND RIG2D_MAN)
  set(_tool_dirs)
  foreach(tool rig2d-autorig rig2d-validate rig2d-pose rig2d-convert)
    list(APPEND _tool_dirs $<TARGET_FILE_DIR:${tool}>)
  endforeach()
  add_test(NAME package.tool_docs
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/tool_docs_check.sh ${_tool_dirs} --
      ${PROJECT_BINARY_DIR}/tool-docs/man1 ${PROJECT_BINARY_DIR}/tool-docs/bash-completion
      ${PROJECT_BINARY_DIR}/tool-docs/zsh)
  set_tests_properties(package.tool_docs PROPERTIES TIMEOUT 120 PASS_REGULAR_EXPRESSION "tool docs: ok")
endif()

# Installs this build, then builds an asset workspace with the installed Bazel module (Debian's
# bazel-bootstrap, offline, linux-sandbox): declared inputs, disk cache, one action per sprite,
# validate tests with JUnit output, and the same bytes as the CLI.
find_program(RIG2D_BAZEL bazel)
if(RIG2D_BUILD_TOOLS AND BUILD_SHARED_LIBS AND RIG2D_BAZEL)
  add_test(NAME package.bazel
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/bazel_test.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}
      ${CMAKE_CURRENT_BINARY_DIR}/bazel-test ${RIG2D_BAZEL})
  set_tests_properties(package.bazel PROPERTIES TIMEOUT 600 PASS_REGULAR_EXPRESSION "bazel: ok")
endif()
