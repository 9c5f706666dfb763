target_sources(rig2d_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/clip_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/curve.cpp
  ${CMAKE_CURRENT_LIST_DIR}/range_of_motion.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rig_binding.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bundled_clips.cpp
  ${CMAKE_CURRENT_LIST_DIR}/skin_rig.cpp)

# The bundled clips (clips/<template>/<clip>.anim.json) are part of the library, so
# `rig2d-pose --anim humanoid/walk` works without an install path; the same files are installed under
# share/rig2d/clips/<template>/.
set(RIG2D_BUNDLED_CLIPS
  humanoid/idle humanoid/jump humanoid/run humanoid/walk humanoid/wave quadruped/walk bird/flap fish/swim
  snake/slither tree/sway prop/wobble)
set(rig2d_clip_table "")
foreach(clip IN LISTS RIG2D_BUNDLED_CLIPS)
  string(MAKE_C_IDENTIFIER "rig2d_clip_${clip}" symbol)
  set(input ${PROJECT_SOURCE_DIR}/clips/${clip}.anim.json)
  set(output ${CMAKE_CURRENT_BINARY_DIR}/generated/${symbol}.cpp)
  add_custom_command(OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${input} -DOUTPUT=${output} -DSYMBOL=${symbol}
            -P ${PROJECT_SOURCE_DIR}/cmake/rig2d_embed_file.cmake
    DEPENDS ${input} ${PROJECT_SOURCE_DIR}/cmake/rig2d_embed_file.cmake
    COMMENT "Embedding the ${clip} clip"
    VERBATIM)
  target_sources(rig2d_objects PRIVATE ${output})
  string(APPEND rig2d_clip_table "RIG2D_CLIP(${symbol}, \"${clip}\")\n")
  get_filename_component(folder ${clip} DIRECTORY)
  install(FILES ${input} DESTINATION ${CMAKE_INSTALL_DATADIR}/rig2d/clips/${folder})
endforeach()
file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/generated/bundled_clip_table.inc CONTENT "${rig2d_clip_table}")
target_include_directories(rig2d_objects PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/generated)
