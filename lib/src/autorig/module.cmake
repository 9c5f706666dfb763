target_sources(rig2d_objects PRIVATE ${CMAKE_CURRENT_LIST_DIR}/autorig.cpp ${CMAKE_CURRENT_LIST_DIR}/autorig_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/autorig_inputs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mesh_budget.cpp ${CMAKE_CURRENT_LIST_DIR}/slices.cpp
  ${CMAKE_CURRENT_LIST_DIR}/slice_source.cpp ${CMAKE_CURRENT_LIST_DIR}/sheet_slicing.cpp ${CMAKE_CURRENT_LIST_DIR}/layout.cpp
  ${CMAKE_CURRENT_LIST_DIR}/autorig_parts.cpp ${CMAKE_CURRENT_LIST_DIR}/autorig_layout.cpp
  ${CMAKE_CURRENT_LIST_DIR}/layout_skeleton.cpp ${CMAKE_CURRENT_LIST_DIR}/autorig_document.cpp
  ${CMAKE_CURRENT_LIST_DIR}/autorig_template.cpp ${CMAKE_CURRENT_LIST_DIR}/template_choice.cpp)
