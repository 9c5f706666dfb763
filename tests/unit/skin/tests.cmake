rig2d_add_test(test_skin ${CMAKE_CURRENT_LIST_DIR}/test_skeleton.cpp ${CMAKE_CURRENT_LIST_DIR}/test_lbs.cpp
               ${CMAKE_CURRENT_LIST_DIR}/test_skin_plan.cpp)
