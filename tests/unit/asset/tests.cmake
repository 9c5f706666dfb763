rig2d_add_test(test_asset ${CMAKE_CURRENT_LIST_DIR}/test_guid.cpp ${CMAKE_CURRENT_LIST_DIR}/test_asset_index.cpp
               ${CMAKE_CURRENT_LIST_DIR}/test_sprite_meta.cpp)
