target_sources(rig2d PRIVATE ${CMAKE_CURRENT_LIST_DIR}/autorig.cpp ${CMAKE_CURRENT_LIST_DIR}/autorig_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/autorig_inputs.cpp)
target_sources(rig2d PRIVATE ${CMAKE_CURRENT_LIST_DIR}/pose.cpp ${CMAKE_CURRENT_LIST_DIR}/pose_input.cpp
  ${CMAKE_CURRENT_LIST_DIR}/preview.cpp ${CMAKE_CURRENT_LIST_DIR}/pose_job.cpp ${CMAKE_CURRENT_LIST_DIR}/legend.cpp
  ${CMAKE_CURRENT_LIST_DIR}/views.cpp
  ${CMAKE_CURRENT_LIST_DIR}/contact_sheet.cpp)
