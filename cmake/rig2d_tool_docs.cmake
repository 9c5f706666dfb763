# SPDX-License-Identifier: Apache-2.0
# cmake -P script, run by the build after each tool links: writes the tool's man page (gzip -9n, as
# Debian installs them), bash completion and zsh completion, each printed by the tool from the option
# table its --help prints (tools/common/cli_docs.h).
foreach(var TOOL NAME OUT_DIR GZIP)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "rig2d_tool_docs.cmake needs -D${var}=...")
  endif()
endforeach()

function(print_to file)
  execute_process(COMMAND ${TOOL} ${ARGN} OUTPUT_FILE ${file} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NAME} ${ARGN} failed (${rc}): ${err}")
  endif()
endfunction()

file(MAKE_DIRECTORY ${OUT_DIR}/man1 ${OUT_DIR}/bash-completion ${OUT_DIR}/zsh)
print_to(${OUT_DIR}/man1/${NAME}.1 --man-page)
# -n: no name or time stamp in the header, so the same page gives the same bytes.
execute_process(COMMAND ${GZIP} -9n -c ${OUT_DIR}/man1/${NAME}.1 OUTPUT_FILE ${OUT_DIR}/man1/${NAME}.1.gz
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip failed on ${OUT_DIR}/man1/${NAME}.1")
endif()
print_to(${OUT_DIR}/bash-completion/${NAME} --completion bash)
print_to(${OUT_DIR}/zsh/_${NAME} --completion zsh)
