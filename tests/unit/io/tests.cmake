rig2d_add_test(test_io ${CMAKE_CURRENT_LIST_DIR}/test_files.cpp ${CMAKE_CURRENT_LIST_DIR}/test_output_safety.cpp
               ${CMAKE_CURRENT_LIST_DIR}/test_write_journal.cpp)
