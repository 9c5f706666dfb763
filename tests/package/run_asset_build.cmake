# SPDX-License-Identifier: Apache-2.0
# cmake -P script: install rig2d, then build tests/package/assets (a copy, so its PNGs can change)
# with Ninja through rig2d_add_rigs, checking that each build re-rigs exactly what changed.
include(${CMAKE_CURRENT_LIST_DIR}/package_steps.cmake)
require_vars(run_asset_build.cmake RIG2D_BUILD_DIR SOURCE_DIR WORK_DIR NINJA)

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
set(project ${WORK_DIR}/assets)
set(build ${WORK_DIR}/build)

function(expect step regex)
  if(NOT out MATCHES "${regex}")
    message(FATAL_ERROR "${step}: output lacks /${regex}/:\n${out}")
  endif()
endfunction()

function(expect_not step regex)
  if(out MATCHES "${regex}")
    message(FATAL_ERROR "${step}: output has /${regex}/:\n${out}")
  endif()
endfunction()

function(build step)
  run("${step}" ${CMAKE_COMMAND} --build ${build})
  set(out "${out}" PARENT_SCOPE)
endfunction()

run("install" ${CMAKE_COMMAND} --install ${RIG2D_BUILD_DIR} --prefix ${prefix})
foreach(file share/rig2d/rig2d.schema.json lib/cmake/rig2d/rig2dAddRigs.cmake lib/cmake/rig2d/rig2dToolTargets.cmake)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "the install lacks ${file}")
  endif()
endforeach()

# The installed tools run from this prefix with no help from the environment (RUNPATH).
foreach(tool rig2d-autorig rig2d-validate rig2d-pose rig2d-convert)
  run("${tool} --version" ${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH ${prefix}/bin/${tool} --version)
  expect("${tool} --version" "^${tool} [0-9]+\\.[0-9]+\\.[0-9]+\n$")
endforeach()

file(MAKE_DIRECTORY ${project}/art/props)
file(COPY ${SOURCE_DIR}/tests/package/assets/CMakeLists.txt DESTINATION ${project})
file(COPY ${SOURCE_DIR}/samples/bar.png ${SOURCE_DIR}/samples/bar.png.meta.json DESTINATION ${project}/art)
file(COPY ${SOURCE_DIR}/samples/ring.png ${SOURCE_DIR}/samples/ring.png.meta.json DESTINATION ${project}/art/props)
set(rigs ${build}/rigs/art)

run("configure" ${CMAKE_COMMAND} -S ${project} -B ${build} -G Ninja -DCMAKE_MAKE_PROGRAM=${NINJA}
    -DCMAKE_PREFIX_PATH=${prefix})
build("first build")
expect("first build" "rig2d: rigging art/bar.png")
expect("first build" "rig2d: rigging art/props/ring.png")
expect("first build" "downstream: copying")
foreach(rig bar.rig2d.json props/ring.rig2d.json)
  if(NOT EXISTS ${rigs}/${rig})
    message(FATAL_ERROR "the first build made no ${rig}")
  endif()
endforeach()
file(READ ${rigs}/bar.rig2d.json bar_first)

build("second build")
expect("second build" "no work to do")

# New content in one PNG: only its rig is remade.
file(COPY_FILE ${SOURCE_DIR}/samples/tentacle.png ${project}/art/bar.png)
build("after changing bar.png")
expect("after changing bar.png" "rig2d: rigging art/bar.png")
expect_not("after changing bar.png" "rigging art/props/ring.png|downstream")
file(READ ${rigs}/bar.rig2d.json bar_second)
if(bar_second STREQUAL bar_first)
  message(FATAL_ERROR "bar's rig did not change with its PNG")
endif()
build("after that")
expect("after that" "no work to do")

# The sidecar comes from the depfile: a new texture GUID re-rigs the sprite.
file(READ ${project}/art/bar.png.meta.json meta)
string(REGEX REPLACE "\"id\": \"[^\"]*\"" "\"id\": \"0b5e1c52-9a3c-4f7e-8d21-6a4b3c2d1e0f\"" meta "${meta}")
file(WRITE ${project}/art/bar.png.meta.json "${meta}")
build("after changing bar's sidecar")
expect("after changing bar's sidecar" "rig2d: rigging art/bar.png")
expect_not("after changing bar's sidecar" "rigging art/props/ring.png")

# A new mtime with the same bytes: the step runs, writes nothing, and restat spares the step downstream.
file(TIMESTAMP ${rigs}/props/ring.rig2d.json ring_time "%s")
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
file(TOUCH ${project}/art/props/ring.png)
build("after touching ring.png")
expect("after touching ring.png" "rig2d: rigging art/props/ring.png")
expect_not("after touching ring.png" "downstream")
file(TIMESTAMP ${rigs}/props/ring.rig2d.json ring_time_after "%s")
if(NOT ring_time STREQUAL ring_time_after)
  message(FATAL_ERROR "the ring's rig was rewritten with the same bytes")
endif()
build("after that")
expect("after that" "no work to do")

# New OPTIONS: every rig is remade.
run("reconfigure" ${CMAKE_COMMAND} -S ${project} -B ${build} -DRIG_OPTIONS=--mesh=grid)
build("after changing OPTIONS")
expect("after changing OPTIONS" "rig2d: rigging art/bar.png")
expect("after changing OPTIONS" "rig2d: rigging art/props/ring.png")
expect("after changing OPTIONS" "downstream")
build("after that")
expect("after that" "no work to do")
message("asset build: ok")
