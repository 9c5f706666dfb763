rig2d_add_test(test_pose ${CMAKE_CURRENT_LIST_DIR}/test_pose_render.cpp ${CMAKE_CURRENT_LIST_DIR}/test_pose_skin.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_pose_job.cpp ${CMAKE_CURRENT_LIST_DIR}/test_pose_folds.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_legend.cpp ${CMAKE_CURRENT_LIST_DIR}/test_bone_labels.cpp ${CMAKE_CURRENT_LIST_DIR}/test_pose_onion.cpp ${CMAKE_CURRENT_LIST_DIR}/test_views.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_contact_sheet.cpp ${CMAKE_CURRENT_LIST_DIR}/test_review_page.cpp)
