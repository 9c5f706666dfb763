# SPDX-License-Identifier: Apache-2.0
# rig2d-validate CLI tests: tests/cli/validate_cli_test.py runs one case each (python3, stdlib only).
find_package(Python3 COMPONENTS Interpreter REQUIRED)
foreach(case valid samples invalid_text json junit sarif usage unreadable output_file strict weight_tolerance fix
             big_folder hostile)
  add_test(NAME cli_validate_${case}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/validate_cli_test.py
                   $<TARGET_FILE:rig2d-validate> ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/cli_validate ${case})
endforeach()
set_tests_properties(cli_validate_big_folder cli_validate_hostile PROPERTIES TIMEOUT 300)

# schemas/rig2d.schema.json checked with a real JSON Schema 2020-12 validator (ajv from npm, installed
# into the build tree on first run) against rig2d-validate's verdict on every corpus and sample rig.
add_test(NAME schema_rig2d
         COMMAND bash ${PROJECT_SOURCE_DIR}/tests/schema/schema_test.sh $<TARGET_FILE:rig2d-validate>
                 ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR}/npm)
set_tests_properties(schema_rig2d PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)

# --deform on a generated two-leg figure rigged by rig2d-autorig (joint weights leak, heat passes).
add_test(NAME cli_validate_deform
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/validate_deform_test.py
                 $<TARGET_FILE:rig2d-validate> $<TARGET_FILE:rig2d-autorig> ${CMAKE_CURRENT_BINARY_DIR})

# Config, baselines, CI report formats (checked with ajv against the SARIF 2.1.0 schema and with xmllint
# against a JUnit XSD), stdin and empty inputs: tests/cli/validate_adoption_test.py.
foreach(case schema_key empty sarif_schema sarif_content junit_xsd github codeclimate config config_errors baseline
             max_findings stdin)
  add_test(NAME cli_validate_adoption_${case}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/validate_adoption_test.py
                   $<TARGET_FILE:rig2d-validate> ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/cli_validate_adoption
                   ${CMAKE_BINARY_DIR}/npm-reports ${case})
  set_tests_properties(cli_validate_adoption_${case} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endforeach()
