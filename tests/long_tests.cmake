# Read by ctest after the tests are listed (TEST_INCLUDE_FILES, set in tests/CMakeLists.txt, which
# also sets KIT_TEST_BINARY_DIR). Each line of long_tests.txt gives a test:
#   - its seconds as COST: ctest -j starts the costliest first, so that a long test does not start
#     last and keep the suite waiting on it alone;
#   - then its properties, comma-separated, or - for none:
#   - lock=NAME: RESOURCE_LOCK NAME, two tests holding the same lock never run at once;
#   - sets=NAME / needs=NAME: the fixture NAME, graded once per run by the test that sets it into
#     the folder KIT_SHARED_FIXTURES names, before the tests that need it (FIXTURES_SETUP/REQUIRED).
file(STRINGS "${CMAKE_CURRENT_LIST_DIR}/long_tests.txt" kit_long_tests REGEX "^[0-9]")
foreach(kit_line IN LISTS kit_long_tests)
  if(NOT kit_line MATCHES "^([0-9]+)\t([a-z=,-]*)\t(.+)$")
    message(WARNING "tests/long_tests.txt: not SECONDS<tab>PROPERTIES<tab>NAME: ${kit_line}")
    continue()
  endif()
  set(kit_name "${CMAKE_MATCH_3}")
  set_tests_properties("${kit_name}" PROPERTIES COST "${CMAKE_MATCH_1}")
  # A hang guard, not a verdict: four times the measured seconds (measured on a busy machine
  # already), and never below ctest's own 1500 s.
  math(EXPR kit_timeout "${CMAKE_MATCH_1} * 4")
  if(kit_timeout LESS 1500)
    set(kit_timeout 1500)
  endif()
  set_tests_properties("${kit_name}" PROPERTIES TIMEOUT "${kit_timeout}")
  set(kit_properties "${CMAKE_MATCH_2}")
  if(kit_properties STREQUAL "-")
    set(kit_properties "")
  endif()
  string(REPLACE "," ";" kit_properties "${kit_properties}")
  foreach(kit_property IN LISTS kit_properties)
    if(kit_property MATCHES "^lock=(.+)$")
      set_tests_properties("${kit_name}" PROPERTIES RESOURCE_LOCK "${CMAKE_MATCH_1}")
    elseif(kit_property MATCHES "^(sets|needs)=(.+)$")
      if(CMAKE_MATCH_1 STREQUAL "sets")
        set_tests_properties("${kit_name}" PROPERTIES FIXTURES_SETUP "${CMAKE_MATCH_2}")
      else()
        set_tests_properties("${kit_name}" PROPERTIES FIXTURES_REQUIRED "${CMAKE_MATCH_2}")
      endif()
      set_tests_properties("${kit_name}" PROPERTIES ENVIRONMENT "KIT_SHARED_FIXTURES=${KIT_TEST_BINARY_DIR}/shared-fixtures")
    else()
      message(WARNING "tests/long_tests.txt: unknown property ${kit_property} of ${kit_name}")
    endif()
  endforeach()
endforeach()
