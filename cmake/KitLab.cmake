# kit_add_lab(): one call in each labs/NN-name/CMakeLists.txt registers everything the kit builds
# for that lab, so that a new lab is one new folder (plus its solution and its grading spec).
#
#   kit_add_lab(
#     LIBRARY lab03                     # the lab's host library (omit to use only LINKS)
#     SOURCES array_mult_reduce.cpp     # the library's sources
#     LINKS   elementwise               # libraries the program and the adapter link instead or as well
#     ADAPTER grading.cpp               # the grader's adapter: defines grader::make_lab_driver_NN()
#     TESTS   test_array_mult_reduce.cpp)  # doctest files, compiled into kit_tests
#
# The program is named after the folder (build/bin/03-array-mult-reduce) and built from main.cpp.
# grader/ and tests/ read the global properties set here: KIT_LABS (folder names), KIT_LAB_IDS
# (the two-digit numbers), KIT_LAB_LIBRARIES, KIT_LAB_ADAPTERS and KIT_LAB_TESTS (absolute paths).
function(kit_add_lab)
  cmake_parse_arguments(LAB "" "LIBRARY;ADAPTER" "SOURCES;LINKS;TESTS" ${ARGN})
  get_filename_component(folder ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  string(SUBSTRING ${folder} 0 2 id)
  if(NOT id MATCHES "^[0-9][0-9]$")
    message(FATAL_ERROR "kit_add_lab: the folder ${folder} must start with the lab's two-digit number")
  endif()
  set(links ${LAB_LINKS})
  if(LAB_LIBRARY)
    add_library(${LAB_LIBRARY} STATIC ${LAB_SOURCES})
    target_include_directories(${LAB_LIBRARY} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
    target_link_libraries(${LAB_LIBRARY} PUBLIC kit ${LAB_LINKS})
    list(APPEND links ${LAB_LIBRARY})
  endif()
  add_executable(${folder} main.cpp)
  target_link_libraries(${folder} PRIVATE ${links})
  target_compile_options(${folder} PRIVATE ${KIT_DRIVER_OPT})

  set_property(GLOBAL APPEND PROPERTY KIT_LABS ${folder})
  set_property(GLOBAL APPEND PROPERTY KIT_LAB_IDS ${id})
  set_property(GLOBAL APPEND PROPERTY KIT_LAB_LIBRARIES ${links})
  if(NOT LAB_ADAPTER)
    message(FATAL_ERROR "kit_add_lab: ${folder} names no ADAPTER: the grader needs one per lab")
  endif()
  set_property(GLOBAL APPEND PROPERTY KIT_LAB_ADAPTERS ${CMAKE_CURRENT_SOURCE_DIR}/${LAB_ADAPTER})
  foreach(test ${LAB_TESTS})
    if(NOT EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${test})  # the student release ships no tests
      continue()
    endif()
    set_property(GLOBAL APPEND PROPERTY KIT_LAB_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/${test})
  endforeach()
endfunction()
