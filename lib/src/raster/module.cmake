target_sources(rig2d_objects PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/canvas.cpp
  ${CMAKE_CURRENT_LIST_DIR}/triangles.cpp
  ${CMAKE_CURRENT_LIST_DIR}/strokes.cpp
  ${CMAKE_CURRENT_LIST_DIR}/font.cpp
  ${CMAKE_CURRENT_LIST_DIR}/color_ramp.cpp
  ${CMAKE_CURRENT_LIST_DIR}/blit.cpp)

# The label font (DejaVu Sans, Debian's fonts-dejavu-core) is compiled into the library, so
# installed tools need no font path and every machine draws the same label pixels. The DejaVu
# licence allows embedding and redistribution (docs/previews.md).
find_file(RIG2D_LABEL_FONT DejaVuSans.ttf
  PATHS /usr/share/fonts/truetype/dejavu /usr/share/fonts/dejavu /usr/share/fonts/TTF /usr/local/share/fonts
  DOC "DejaVuSans.ttf, embedded as the label font of the previews")
if(NOT RIG2D_LABEL_FONT)
  message(FATAL_ERROR "DejaVuSans.ttf not found: the previews embed it as their label font. Install "
                      "fonts-dejavu-core (scripts/install-deps.sh) or pass -DRIG2D_LABEL_FONT=/path/to/DejaVuSans.ttf")
endif()
set(rig2d_font_source ${CMAKE_CURRENT_BINARY_DIR}/generated/label_font_data.cpp)
add_custom_command(OUTPUT ${rig2d_font_source}
  COMMAND ${CMAKE_COMMAND} -DINPUT=${RIG2D_LABEL_FONT} -DOUTPUT=${rig2d_font_source} -DSYMBOL=rig2d_label_font_ttf
          -P ${PROJECT_SOURCE_DIR}/cmake/rig2d_embed_file.cmake
  DEPENDS ${RIG2D_LABEL_FONT} ${PROJECT_SOURCE_DIR}/cmake/rig2d_embed_file.cmake
  COMMENT "Embedding the label font ${RIG2D_LABEL_FONT}"
  VERBATIM)

target_sources(rig2d_objects PRIVATE ${rig2d_font_source})
