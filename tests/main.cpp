#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>

int main(int argc, char** argv) {
  // Every grader the tests start (and the tests' own gradings) keep and read the records of steps
  // looked at under Oclgrind in this build folder (grader/src/judge/oclgrind_records.hpp): the same
  // solutions, starters and example class are graded by many tests, and each step is run under
  // Oclgrind once. A key holds the grader's and Oclgrind's files, so a rebuild starts anew. Set
  // KIT_OCLGRIND_RECORDS= (empty) to run every step.
  setenv("KIT_OCLGRIND_RECORDS", KIT_OCLGRIND_RECORDS_DIR, 0);
  // And one PoCL kernel cache (KIT_POCL_CACHE, isolation/child_folder.hpp): PoCL compiles each
  // program once per work-group size, and the same programs are graded by many tests. Set
  // KIT_POCL_CACHE= (empty) for each grader's own.
  setenv("KIT_POCL_CACHE", KIT_POCL_CACHE_DIR, 0);
  return doctest::Context(argc, argv).run();
}
