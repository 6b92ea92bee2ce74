// tests/long_tests.txt: the suite's long tests with their measured seconds, which ctest takes as
// their COST (tests/long_tests.cmake) to start them first, their locks and the fixtures they share.
// ctest passes over a name that is no test's any more without a word, which would leave its test
// to start wherever it falls, or without its fixture: so every line must name a test of the suite.
#include <doctest/doctest.h>

#include <set>
#include <sstream>

#include "kit/paths.hpp"
#include "support.hpp"

TEST_CASE("every line of tests/long_tests.txt gives seconds, its properties and the name of a test of the suite") {
  const auto listed = test::run_program("kit_tests", "--list-test-cases --no-version");
  REQUIRE(listed.exit_code == 0);
  std::istringstream names(listed.output);
  std::set<std::string> tests;
  for (std::string line; std::getline(names, line);) tests.insert(line);
  std::istringstream lines(test::read(kit::root() / "tests" / "long_tests.txt"));
  std::size_t entries = 0;
  std::set<std::string> fixtures_set, fixtures_needed;
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    CAPTURE(number);
    CAPTURE(line);
    const std::size_t tab = line.find('\t'), tab2 = line.find('\t', tab + 1);
    REQUIRE(tab2 != std::string::npos);
    CHECK(line.find_first_not_of("0123456789") == tab);  // whole seconds, as long_tests.cmake reads them
    // "-", or properties long_tests.cmake knows, each a word of lower-case letters and dashes after it.
    const std::string properties = line.substr(tab + 1, tab2 - tab - 1);
    if (properties != "-") {
      std::istringstream each(properties);
      for (std::string p; std::getline(each, p, ',');) {
        CAPTURE(p);
        const std::size_t eq = p.find('=');
        REQUIRE(eq != std::string::npos);
        const std::string key = p.substr(0, eq), value = p.substr(eq + 1);
        CHECK((key == "lock" || key == "sets" || key == "needs"));
        CHECK(!value.empty());
        CHECK(value.find_first_not_of("abcdefghijklmnopqrstuvwxyz-") == std::string::npos);
        if (key == "sets") CHECK(fixtures_set.insert(value).second);  // one test sets each fixture
        if (key == "needs") fixtures_needed.insert(value);
      }
    }
    CHECK(tests.count(line.substr(tab2 + 1)) == 1);
    ++entries;
  }
  CHECK(entries > 0);
  CHECK(fixtures_needed == fixtures_set);  // a fixture needed is set by a test, and one set is needed
}
