# SPDX-License-Identifier: Apache-2.0
# Script mode (cmake -DINPUT=... -DOUTPUT=... -DSYMBOL=... -P rig2d_embed_file.cmake): writes a C++
# source defining `const unsigned char SYMBOL[]` with INPUT's bytes and `const std::size_t
# SYMBOL_size`, so a data file (the label font) is part of the library and needs no install path.
if(NOT INPUT OR NOT OUTPUT OR NOT SYMBOL)
  message(FATAL_ERROR "rig2d_embed_file.cmake needs -DINPUT, -DOUTPUT and -DSYMBOL")
endif()
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR byte_count "${hex_length} / 2")
# 0xNN, per byte, eight bytes a line so compilers and diffs stay comfortable.
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],)(0x[0-9a-f][0-9a-f],)(0x[0-9a-f][0-9a-f],)(0x[0-9a-f][0-9a-f],)(0x[0-9a-f][0-9a-f],)(0x[0-9a-f][0-9a-f],)(0x[0-9a-f][0-9a-f],)(0x[0-9a-f][0-9a-f],))" "\\1\n" body "${body}")
get_filename_component(name "${INPUT}" NAME)
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${name} by cmake/rig2d_embed_file.cmake; do not edit.\n"
  "#include <cstddef>\n"
  "extern const unsigned char ${SYMBOL}[];\n"
  "extern const std::size_t ${SYMBOL}_size;\n"
  "alignas(4) const unsigned char ${SYMBOL}[] = {\n${body}};\n"
  "const std::size_t ${SYMBOL}_size = ${byte_count};\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
