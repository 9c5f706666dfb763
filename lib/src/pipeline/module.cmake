target_sources(rig2d_objects PRIVATE ${CMAKE_CURRENT_LIST_DIR}/autorig.cpp ${CMAKE_CURRENT_LIST_DIR}/autorig_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/autorig_inputs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mesh_budget.cpp ${CMAKE_CURRENT_LIST_DIR}/slices.cpp
  ${CMAKE_CURRENT_LIST_DIR}/slice_source.cpp ${CMAKE_CURRENT_LIST_DIR}/sheet_slicing.cpp ${CMAKE_CURRENT_LIST_DIR}/layout.cpp
  ${CMAKE_CURRENT_LIST_DIR}/autorig_parts.cpp ${CMAKE_CURRENT_LIST_DIR}/autorig_layout.cpp
  ${CMAKE_CURRENT_LIST_DIR}/layout_skeleton.cpp)
target_sources(rig2d_objects PRIVATE ${CMAKE_CURRENT_LIST_DIR}/pose.cpp ${CMAKE_CURRENT_LIST_DIR}/pose_input.cpp
  ${CMAKE_CURRENT_LIST_DIR}/preview.cpp ${CMAKE_CURRENT_LIST_DIR}/pose_job.cpp ${CMAKE_CURRENT_LIST_DIR}/legend.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bone_labels.cpp
  ${CMAKE_CURRENT_LIST_DIR}/views.cpp
  ${CMAKE_CURRENT_LIST_DIR}/contact_sheet.cpp)
