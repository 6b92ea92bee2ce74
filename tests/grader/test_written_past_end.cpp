// A write past a buffer's end, found by the guard bytes of the case child's buffers (kit/buffer.hpp),
// loses the case even when every output is right.
#include <doctest/doctest.h>

#include "kit/paths.hpp"
#include "support.hpp"

TEST_CASE("a kernel writing one element past its output loses the case, with the write named") {
  // Lab 03's solution whose last work-group also writes the element after its own: every sum is
  // right, and the write lands past the end of dC.
  test::TempDir labs;
  const std::string source = test::replace_once(test::read(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl"),
                                                "dC[wgNum] = prods[0];",
                                                "dC[wgNum] = prods[0];\n        if (wgNum == get_num_groups(0) - 1) dC[wgNum + 1] = 1.0f;");
  test::write(labs / "03-array-mult-reduce" / "ArrayMultReduce.cl", source);
  const auto run = test::run_program("grader", "check 03 --dir " + labs.path.string());
  CHECK(run.exit_code == 1);
  // Oclgrind finds the write at each case's shape: undefined behaviour, with what the device did (its guard bytes changed).
  CHECK_MESSAGE(run.output.find("wrong: undefined behaviour: Oclgrind found an invalid write of global memory at this case's own shape") !=
                    std::string::npos,
                run.output);
  CHECK(run.output.find("(on the device it computed a wrong result: the kernel wrote past the end of a buffer (a buffer of ") != std::string::npos);
  CHECK(run.output.find("past its end changed (the first at byte ") != std::string::npos);
  // The hint leads with the write the evidence run found, at its line, then the advice.
  CHECK(run.output.find("hint: Oclgrind, on this case: invalid write of size 4 at global memory (kernel ArrayMultReduce)") != std::string::npos);
  CHECK(run.output.find("`if (wgNum == get_num_groups(0) - 1) dC[wgNum + 1] = 1.0f;`. A store past the last element of an array") !=
        std::string::npos);
  CHECK(run.output.find("  PASS ") == std::string::npos);  // every case writes past the end
}
