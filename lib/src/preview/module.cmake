target_sources(rig2d_objects PRIVATE ${CMAKE_CURRENT_LIST_DIR}/pose.cpp ${CMAKE_CURRENT_LIST_DIR}/pose_input.cpp
  ${CMAKE_CURRENT_LIST_DIR}/preview.cpp ${CMAKE_CURRENT_LIST_DIR}/pose_job.cpp ${CMAKE_CURRENT_LIST_DIR}/legend.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bone_labels.cpp
  ${CMAKE_CURRENT_LIST_DIR}/views.cpp
  ${CMAKE_CURRENT_LIST_DIR}/contact_sheet.cpp
  ${CMAKE_CURRENT_LIST_DIR}/review_page.cpp ${CMAKE_CURRENT_LIST_DIR}/review_data.cpp)

# The review page's script and style are plain source files (lib/src/preview/review/), compiled into
# the library as byte arrays, so a page needs no file beside it and no install path.
foreach(asset review.js review.css)
  string(REPLACE "." "_" rig2d_review_symbol "rig2d_${asset}")
  set(rig2d_review_source ${CMAKE_CURRENT_BINARY_DIR}/generated/${rig2d_review_symbol}.cpp)
  add_custom_command(OUTPUT ${rig2d_review_source}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${CMAKE_CURRENT_LIST_DIR}/review/${asset} -DOUTPUT=${rig2d_review_source}
            -DSYMBOL=${rig2d_review_symbol} -P ${PROJECT_SOURCE_DIR}/cmake/rig2d_embed_file.cmake
    DEPENDS ${CMAKE_CURRENT_LIST_DIR}/review/${asset} ${PROJECT_SOURCE_DIR}/cmake/rig2d_embed_file.cmake
    COMMENT "Embedding the review page's ${asset}"
    VERBATIM)
  target_sources(rig2d_objects PRIVATE ${rig2d_review_source})
endforeach()
