#pragma once
// The example class (grader/examples/class) graded locally, by `grader grade --labs 03 --jobs 2`:
// once per ctest run for every test that compares against it (the fixture "example-class" of
// tests/long_tests.txt: its test grades it into the folder KIT_SHARED_FIXTURES names, the tests
// that need it run after it), or, outside ctest, by each such test for itself.
#include <filesystem>

#include "support.hpp"

namespace test {

// The output folder of that grading: the one this ctest run's fixture test wrote, else one graded
// now under `scratch` (the run exits 0 and leaves the class untouched, or the calling test fails).
std::filesystem::path example_class_graded(const TempDir& scratch);

}  // namespace test
