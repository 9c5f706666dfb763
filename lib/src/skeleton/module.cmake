target_sources(rig2d_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/suggest_bones.cpp
  ${CMAKE_CURRENT_LIST_DIR}/medial_axis.cpp
  ${CMAKE_CURRENT_LIST_DIR}/axis_tree.cpp
  ${CMAKE_CURRENT_LIST_DIR}/limbs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/drop_shadow.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shape_skeleton.cpp
  ${CMAKE_CURRENT_LIST_DIR}/templates/template_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/templates/bundled.cpp
  ${CMAKE_CURRENT_LIST_DIR}/templates/template_fit.cpp
  ${CMAKE_CURRENT_LIST_DIR}/templates/ground.cpp
  ${CMAKE_CURRENT_LIST_DIR}/templates/template_auto.cpp
  ${CMAKE_CURRENT_LIST_DIR}/templates/spot_pair.cpp
  ${CMAKE_CURRENT_LIST_DIR}/templates/arm_edges.cpp
  ${CMAKE_CURRENT_LIST_DIR}/templates/template_map.cpp)

# The bundled templates (templates/*.rig2d-template.json) are part of the library, so a name works
# without an install path; the same files are installed under share/rig2d/templates/.
set(RIG2D_TEMPLATE_NAMES humanoid quadruped bird fish snake tree prop)
foreach(name IN LISTS RIG2D_TEMPLATE_NAMES)
  set(input ${PROJECT_SOURCE_DIR}/templates/${name}.rig2d-template.json)
  set(output ${CMAKE_CURRENT_BINARY_DIR}/generated/template_${name}.cpp)
  add_custom_command(OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${input} -DOUTPUT=${output} -DSYMBOL=rig2d_template_${name}
            -P ${PROJECT_SOURCE_DIR}/cmake/rig2d_embed_file.cmake
    DEPENDS ${input} ${PROJECT_SOURCE_DIR}/cmake/rig2d_embed_file.cmake
    COMMENT "Embedding the ${name} template"
    VERBATIM)
  target_sources(rig2d_objects PRIVATE ${output})
  install(FILES ${input} DESTINATION ${CMAKE_INSTALL_DATADIR}/rig2d/templates)
endforeach()
