// Every refused work-group size is explained by the size given and the reason of the rule it
// breaks (kit/local_size.hpp), whichever lab program is asked.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "kit/errors.hpp"
#include "kit/local_size.hpp"
#include "support.hpp"

TEST_CASE("local_size_problem names the size given and every limit it breaks, with the lab's reason") {
  kit::LocalSizeRule rule;
  rule.least = 2;
  rule.least_why = "least";
  rule.power_of_two = true;
  rule.power_why = "tree";
  rule.most = 4096;
  rule.most_why = "most";
  CHECK(kit::local_size_problem(64, rule).empty());
  CHECK(kit::local_size_problem(0, rule) == "local size 0: a work-group needs at least one work-item");
  CHECK(kit::local_size_problem(1, rule) == "local size 1 is below 2: least");
  CHECK(kit::local_size_problem(48, rule) == "local size 48 is not a power of two (32 and 64 are the nearest): tree");
  CHECK(kit::local_size_problem(8192, rule) == "local size 8192 is above 4096: most");
  CHECK(kit::local_size_problem(6000, rule) ==
        "local size 6000 is not a power of two (4096 and 8192 are the nearest): tree; and it is above 4096: most");
  kit::LocalSizeRule divides;
  divides.divides = 1000;
  divides.divides_why = "whole groups";
  CHECK(kit::local_size_problem(64, divides) == "local size 64 does not divide the element count 1000 (1000 = 15 x 64 + 40): whole groups");
  CHECK(kit::local_size_problem(3, kit::LocalSizeRule{}).empty());  // no rule of the lab's own: any size from 1
  CHECK_THROWS_WITH_AS(kit::require_local_size(48, rule), doctest::Contains("local size 48 is not a power of two"), kit::Error);
}

TEST_CASE("every lab program explains the work-group size it refuses by that size and its own reason") {
  struct Row {
    std::string program, args;
    std::string says;      // the whole reason, beginning with the size given (or a later part of it)
    std::string not_says;  // another size's reason, which must not stand in for this one
  };
  // 1048576 is above any device's largest work-group (PoCL 4096, the H200 1024): the device's own
  // limit, which kit::check_local_size words, after the lab's rules pass.
  const std::vector<Row> table = {
      {"01-array-mult", "--local 0 -n 1Ki", "local size 0: a work-group needs at least one work-item", ""},
      {"01-array-mult", "--local 1048576 -n 1Ki", "local size 1048576 is above this device's maximum work-group size", ""},
      {"02-array-mult-add", "--local 0 -n 1Ki", "local size 0: a work-group needs at least one work-item", ""},
      {"03-array-mult-reduce", "--local 48 -n 4800", "local size 48 is not a power of two (32 and 64 are the nearest): the bitmask tree", ""},
      {"03-array-mult-reduce", "--local 3 -n 999", "local size 3 is not a power of two (2 and 4 are the nearest)", ""},
      {"03-array-mult-reduce", "--local 100 -n 1000", "local size 100 is not a power of two (64 and 128 are the nearest)", ""},
      {"03-array-mult-reduce", "--local 64 -n 1000",
       "local size 64 does not divide the element count 1000 (1000 = 15 x 64 + 40): this lab runs whole work-groups", ""},
      {"03-array-mult-reduce", "--local 1048576 -n 1Mi", "local size 1048576 is above this device's maximum work-group size", ""},
      {"04-tree-reductions", "--local 48 -n 1000", "local size 48 is not a power of two (32 and 64 are the nearest): every rung's tree",
       "1 work-item per group"},
      {"04-tree-reductions", "--local 1 -n 1000", "local size 1 is below 2: with 1 work-item per group a launch of rungs 1-3", "power of two"},
      {"04-tree-reductions", "--local 2048 -n 1000 --solution", "", "local size"},  // accepted: a power of two within rung 5's range
      {"04-tree-reductions", "--local 8192 -n 1000", "local size 8192 is above 4096: rung 5 is unrolled", "power of two"},
      {"05-multipass-reductions", "--local 48 -n 1000", "local size 48 is not a power of two (32 and 64 are the nearest): the tree methods fold",
       "1 work-item per group"},
      {"05-multipass-reductions", "--local 1 -n 1000", "local size 1 is below 2: the tree methods shrink the array L times per pass", ""},
      {"06-cascade-reduction", "--local 48 -n 1000", "local size 48 is not a power of two (32 and 64 are the nearest): the local tree", ""},
      {"06-cascade-reduction", "--local 3 -n 1000", "local size 3 is not a power of two (2 and 4 are the nearest)", ""},
      {"07-image-max-pyramid", "--local 48 -W 64 -H 64", "local size 48: this lab takes no --local, its work-groups are fixed at 16 x 16", ""},
      {"08-atomics-and-scan", "--local 48 -n 1000", "local size 48 is not a power of two (32 and 64 are the nearest): the trees halve",
       "is below"},
      {"08-atomics-and-scan", "--local 1 -n 1000", "local size 1 is below 2: the scan's sweeps pair elements", "power of two"},
      {"08-atomics-and-scan", "--local 6000 -n 1000",
       "local size 6000 is not a power of two (4096 and 8192 are the nearest): the trees halve their stride", "is below"},
      {"08-atomics-and-scan", "--local 6000 -n 1000", "; and it is above 4096: the lab is written for blocks of 2 to 4096", ""},
  };
  for (const Row& row : table) {
    CAPTURE(row.program);
    CAPTURE(row.args);
    const auto run = test::run_program(row.program, row.args + " --check");
    INFO(run.output);
    if (row.says.empty()) {
      CHECK(run.exit_code == 0);
    } else {
      CHECK(run.exit_code != 0);
      const bool whole = row.says.rfind("local size ", 0) == 0;  // the message's start: the line begins with it
      CHECK(run.output.find(whole ? "error: " + row.says : row.says) != std::string::npos);
    }
    if (!row.not_says.empty()) CHECK(run.output.find(row.not_says) == std::string::npos);
  }
}
