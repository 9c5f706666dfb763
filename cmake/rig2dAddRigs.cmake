# SPDX-License-Identifier: Apache-2.0
# rig2d_add_rigs(<target> [ALL] SOURCES <png>... [OUTPUT_DIR <dir>] [BASE_DIR <dir>] [OPTIONS <arg>...])
#
# One build step per sprite: rig2d::autorig <png> -o <rig> --depfile <d> <OPTIONS>. Each rig is
# <OUTPUT_DIR>/<png path relative to BASE_DIR, minus .png>.rig2d.json (OUTPUT_DIR defaults to the
# current binary folder, BASE_DIR to the current source folder; relative SOURCES are relative to the
# current source folder). The depfile names the PNG, its sidecar and any bones file, so Make or Ninja
# re-runs exactly the sprites whose inputs changed; the tool itself rewrites a rig only when its bytes
# change (Ninja's restat then skips whatever depends on it). Changing OPTIONS re-rigs every sprite:
# they are kept in <target>.rig2d-options, rewritten only when they change, which every step
# depends on (Make does not compare command lines). <target> builds all the rigs (with ALL, by default).
# Paths inside OPTIONS (e.g. --bones FILE) should be absolute: steps run in the current binary folder.
# Sets <target>_RIGS in the caller's scope: the rig files, in SOURCES order.
if(POLICY CMP0116)
  # Depfile paths are rewritten relative to the build root, as Ninja needs to match them to outputs.
  cmake_policy(PUSH)
  cmake_policy(SET CMP0116 NEW)
endif()

function(rig2d_add_rigs target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "ALL" "OUTPUT_DIR;BASE_DIR" "SOURCES;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "rig2d_add_rigs: unexpected arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "rig2d_add_rigs(${target}): SOURCES names no PNG")
  endif()
  if(NOT TARGET rig2d::autorig)
    message(FATAL_ERROR "rig2d_add_rigs: rig2d::autorig is missing (rig2d was built with RIG2D_BUILD_TOOLS=OFF)")
  endif()
  if(CMAKE_VERSION VERSION_LESS 3.20)
    message(FATAL_ERROR "rig2d_add_rigs needs CMake 3.20 or newer (DEPFILE with every generator)")
  endif()
  set(output_dir "${CMAKE_CURRENT_BINARY_DIR}")
  if(arg_OUTPUT_DIR)
    get_filename_component(output_dir "${arg_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  set(base_dir "${CMAKE_CURRENT_SOURCE_DIR}")
  if(arg_BASE_DIR)
    get_filename_component(base_dir "${arg_BASE_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()

  set(options_file "${CMAKE_CURRENT_BINARY_DIR}/${target}.rig2d-options")
  set(old_options "")
  if(EXISTS "${options_file}")
    file(READ "${options_file}" old_options)
  endif()
  if(NOT EXISTS "${options_file}" OR NOT old_options STREQUAL "${arg_OPTIONS}")
    file(WRITE "${options_file}" "${arg_OPTIONS}")
  endif()

  set(deps_dir "${CMAKE_CURRENT_BINARY_DIR}/${target}.rig2d-deps")
  set(rigs "")
  foreach(source IN LISTS arg_SOURCES)
    get_filename_component(png "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    file(RELATIVE_PATH rel "${base_dir}" "${png}")
    if(rel MATCHES "^\\.\\./" OR IS_ABSOLUTE "${rel}")
      message(FATAL_ERROR "rig2d_add_rigs(${target}): ${png} is not inside BASE_DIR ${base_dir}")
    endif()
    string(REGEX REPLACE "\\.[pP][nN][gG]$" "" stem "${rel}")
    set(rig "${output_dir}/${stem}.rig2d.json")
    set(depfile "${deps_dir}/${stem}.d")
    get_filename_component(depfile_dir "${depfile}" DIRECTORY)
    file(MAKE_DIRECTORY "${depfile_dir}")
    add_custom_command(OUTPUT "${rig}"
      BYPRODUCTS "${rig}.stamp"
      COMMAND rig2d::autorig "${png}" -o "${rig}" --depfile "${depfile}" -q ${arg_OPTIONS}
      DEPENDS "${png}" "${options_file}" "$<TARGET_FILE:rig2d::autorig>"
      DEPFILE "${depfile}"
      COMMENT "rig2d: rigging ${rel}"
      VERBATIM)
    list(APPEND rigs "${rig}")
  endforeach()
  set(all "")
  if(arg_ALL)
    set(all ALL)
  endif()
  add_custom_target(${target} ${all} DEPENDS ${rigs})
  set(${target}_RIGS "${rigs}" PARENT_SCOPE)
endfunction()

if(POLICY CMP0116)
  cmake_policy(POP)
endif()
