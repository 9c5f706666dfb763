target_sources(rig2d_objects PRIVATE ${CMAKE_CURRENT_LIST_DIR}/pose.cpp ${CMAKE_CURRENT_LIST_DIR}/pose_input.cpp
  ${CMAKE_CURRENT_LIST_DIR}/preview.cpp ${CMAKE_CURRENT_LIST_DIR}/pose_job.cpp ${CMAKE_CURRENT_LIST_DIR}/legend.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bone_labels.cpp
  ${CMAKE_CURRENT_LIST_DIR}/views.cpp
  ${CMAKE_CURRENT_LIST_DIR}/contact_sheet.cpp)
