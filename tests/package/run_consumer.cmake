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
set(consumer_out "${stdout}")

# The preset: the library with AutorigOptions::tool_defaults() writes the installed rig2d-autorig's bytes
# for the same PNG (run with no option), and a default AutorigOptions (the engine's scheme) does not.
if(EXISTS ${prefix}/bin/rig2d-autorig AND SOURCE_DIR)
  foreach(dir cli lib engine)
    file(COPY ${SOURCE_DIR}/samples/hero.png ${SOURCE_DIR}/samples/hero.png.meta.json DESTINATION ${WORK_DIR}/${dir})
  endforeach()
  run("rig2d-autorig" ${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH ${prefix}/bin/rig2d-autorig
      ${WORK_DIR}/cli/hero.png -q)
  run("consumer with the preset" ${WORK_DIR}/build/rig2d_consumer ${WORK_DIR}/lib/hero.png ${WORK_DIR}/lib/hero.rig2d.json)
  run("consumer with AutorigOptions{}" ${WORK_DIR}/build/rig2d_consumer ${WORK_DIR}/engine/hero.png
      ${WORK_DIR}/engine/hero.rig2d.json engine)
  file(READ ${WORK_DIR}/cli/hero.rig2d.json cli_rig)
  file(READ ${WORK_DIR}/lib/hero.rig2d.json lib_rig)
  file(READ ${WORK_DIR}/engine/hero.rig2d.json engine_rig)
  if(NOT cli_rig STREQUAL lib_rig)
    message(FATAL_ERROR "AutorigOptions::tool_defaults() made other bytes than rig2d-autorig for hero.png")
  endif()
  if(cli_rig STREQUAL engine_rig)
    message(FATAL_ERROR "AutorigOptions{} made rig2d-autorig's rig: the preset is not what tells them apart")
  endif()
  string(APPEND consumer_out "consumer: tool_defaults() rig matches rig2d-autorig byte for byte\n")
endif()
message("${consumer_out}")
