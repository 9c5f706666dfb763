# cmake -P script: install, configure + build the consumer against the install, run it.
include(${CMAKE_CURRENT_LIST_DIR}/package_steps.cmake)
require_vars(run_consumer.cmake RIG2D_BUILD_DIR CONSUMER_SOURCE_DIR WORK_DIR GENERATOR)

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

run("install" ${CMAKE_COMMAND} --install ${RIG2D_BUILD_DIR} --prefix ${prefix})
if(NOT EXISTS ${prefix}/include/rig2d/rig/rig_json.h OR NOT EXISTS ${prefix}/include/rig2d/export.h)
  message(FATAL_ERROR "the install is missing public headers")
endif()
if(EXISTS ${prefix}/include/rig2d/json_util.h OR EXISTS ${prefix}/include/json)
  message(FATAL_ERROR "private headers were installed")
endif()

set(compiler_arg)
if(CXX_COMPILER)
  set(compiler_arg -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
endif()
run("configure consumer" ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release ${compiler_arg})
run("build consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run("run consumer" ${WORK_DIR}/build/rig2d_consumer)
message("${stdout}")
