target_sources(rig2d_objects PRIVATE ${CMAKE_CURRENT_LIST_DIR}/files.cpp ${CMAKE_CURRENT_LIST_DIR}/output_safety.cpp
                                     ${CMAKE_CURRENT_LIST_DIR}/write_journal.cpp)
