rig2d_add_test(test_validate ${CMAKE_CURRENT_LIST_DIR}/test_corpus.cpp ${CMAKE_CURRENT_LIST_DIR}/test_fix.cpp
                ${CMAKE_CURRENT_LIST_DIR}/test_robust.cpp ${CMAKE_CURRENT_LIST_DIR}/test_policy.cpp
                ${CMAKE_CURRENT_LIST_DIR}/test_find_files.cpp)
