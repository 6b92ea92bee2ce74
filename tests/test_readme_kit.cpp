// Executable documents in the full kit: every command README.md, the documents under docs/ (the
// instructors' "A term, start to end" walk-through included) and slides/README.md show runs from
// the kit's root as they say, and every path any of them names is there. The marking convention (```sh run,
// ```synopsis --help only, ```text quoted output, `# exits N`) is in readme_docs.hpp; what cannot
// run here (a GPU, a Slurm cluster, apt as root, the suite itself) is printed as not run, with why,
// and its program's --help is checked to name every flag shown.
//
// The labs' READMEs are shipped unchanged in the student release, and their commands are run there,
// on the starters as students get them (test_readme_release.cpp); here their paths are checked, and
// the lines marked `kit only` (which need the solutions or the speed case) are run.
// The walk-through writes only under build/term/, which it starts by removing.
//
// Shown to fail: `build/bin/grader grade --labs 03 --submisions build/term/class --out build/term/out`
// in the walk-through (exits 106, the document says 0) and `grader/examples/class/roster.csv` named
// in grader/README.md each made this test fail, naming the document's line; both were reverted.
#include <doctest/doctest.h>

#include <algorithm>
#include <iostream>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "kit/paths.hpp"
#include "readme_docs.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

std::vector<std::string> entries(const fs::path& dir, bool skip_build) {
  std::vector<std::string> tops;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (skip_build && (name == "build" || name[0] == '.' || name.rfind("build-", 0) == 0)) continue;
    tops.push_back(e.is_directory() ? name + "/" : name);
  }
  return tops;
}

// Paths from the kit's root (`labs/...`), and for a README in a folder, paths from that folder
// (slides/README.md's `data/logs/`).
void check_paths(const fs::path& readme, const std::string& shown_as) {
  auto tops = entries(kit::root(), true);
  tops.push_back("build/bin/");
  auto named = test::docs::named_paths(readme, tops);
  std::size_t checked = 0;
  for (const auto& path : named) {
    const auto listed = test::run_command("cd " + test::kit_path("") + " && ls -d " + path);
    CHECK_MESSAGE(listed.exit_code == 0, shown_as << " names " << path << ", which the kit lacks");
    ++checked;
  }
  const fs::path folder = readme.parent_path();
  if (fs::equivalent(folder, kit::root())) return;
  std::vector<std::string> local;
  for (const auto& e : entries(folder, false))
    if (std::find(tops.begin(), tops.end(), e) == tops.end()) local.push_back(e);
  for (const auto& path : test::docs::named_paths(readme, local)) {
    const auto listed = test::run_command("cd '" + folder.string() + "' && ls -d " + path);
    CHECK_MESSAGE(listed.exit_code == 0, shown_as << " names " << path << " (from its folder), which the kit lacks");
    ++checked;
  }
  std::cout << shown_as << ": " << checked << " paths named, each checked\n";
}

}  // namespace

// The documents of the full kit: the READMEs and every Markdown file under docs/ (counted from the
// tree, so a new document is checked without being listed here).
std::vector<std::string> kit_documents() {
  std::vector<std::string> docs{"README.md", "grader/README.md", "grader/src/README.md", "slides/README.md"};
  std::vector<std::string> under_docs;
  for (const auto& e : fs::recursive_directory_iterator(kit::root() / "docs"))
    if (e.is_regular_file() && e.path().extension() == ".md") under_docs.push_back(fs::relative(e.path(), kit::root()).generic_string());
  std::sort(under_docs.begin(), under_docs.end());
  docs.insert(docs.end(), under_docs.begin(), under_docs.end());
  return docs;
}

TEST_CASE("the kit's documents: every path they name is in the kit") {
  const auto docs = kit_documents();
  CHECK(std::find(docs.begin(), docs.end(), "docs/instructors.md") != docs.end());
  for (const std::string& doc : docs) check_paths(kit::root() / doc, doc);
  // Every lab folder (labs/NN-name/, counted from the tree) has a README, and each is checked.
  const auto labs = test::kit_labs();
  REQUIRE_FALSE(labs.empty());
  for (const std::string& lab : labs) {
    CHECK_MESSAGE(fs::exists(kit::root() / "labs" / lab / "README.md"), "labs/" << lab << " has no README.md");
    if (fs::exists(kit::root() / "labs" / lab / "README.md")) check_paths(kit::root() / "labs" / lab / "README.md", "labs/" + lab + "/README.md");
  }
}

TEST_CASE("the kit's documents: every command README.md, docs/ and slides/README.md show runs as they say (and the labs' kit-only lines)") {
  // The commands use build/bin/ and make from the kit's root, so the kit's build must be there.
  REQUIRE_MESSAGE(fs::equivalent(fs::path(KIT_BIN_DIR), kit::root() / "build" / "bin"),
                  "the documents' commands run build/bin/ from the kit's root; this build is in " << KIT_BIN_DIR);
  fs::remove_all(kit::root() / "build" / "term");
  for (const std::string& doc : kit_documents()) {
    // docs/students.md is the student release's README: its commands run there (test_readme_release.cpp).
    if (doc == "docs/students.md") continue;
    test::docs::run_commands(kit::root(), kit::root() / doc, doc, "", test::docs::Scope::kit);
  }
  for (const auto& lab : fs::directory_iterator(kit::root() / "labs"))
    if (fs::exists(lab.path() / "README.md"))
      test::docs::run_commands(kit::root(), lab.path() / "README.md", "labs/" + lab.path().filename().string() + "/README.md", "",
                               test::docs::Scope::kit_only_lines);
  fs::remove_all(kit::root() / "build" / "term");
}

TEST_CASE("README.md's labs table lists every lab folder, and only those") {
  const std::string readme = test::read(kit::root() / "README.md");
  std::vector<std::string> listed;
  static const std::regex row(R"(\n\| \[`(\d\d-[a-z0-9-]+)`\]\(labs/(\d\d-[a-z0-9-]+)/README\.md\) \|)");
  for (std::sregex_iterator it(readme.begin(), readme.end(), row), end; it != end; ++it) {
    CHECK_MESSAGE((*it)[1] == (*it)[2], "README.md's row for " << (*it)[1] << " links labs/" << (*it)[2]);
    listed.push_back((*it)[1]);
  }
  CHECK(listed == test::kit_labs());
}

TEST_CASE("the documents' claims about shipped files: the graphs README.md names are those in slides/figures") {
  // README.md names the devices whose graphs ship; each graph's file name starts with its device.
  const std::string readme = test::read(kit::root() / "README.md");
  const std::size_t at = readme.find("The measured graphs that");
  REQUIRE(at != std::string::npos);
  const std::string claim = readme.substr(at, readme.find("\n\n", at) - at);
  std::set<std::string> devices;
  for (const auto& e : fs::directory_iterator(kit::root() / "slides" / "figures")) {
    const std::string name = e.path().filename().string();
    if (name.rfind("NVIDIA-", 0) == 0) devices.insert("NVIDIA " + name.substr(7, name.find('-', 7) - 7));
    else if (name.rfind("pthread-", 0) == 0) devices.insert("PoCL");
    else FAIL_CHECK("slides/figures holds " << name << ", of no device README.md knows");
  }
  REQUIRE_FALSE(devices.empty());
  for (const std::string& device : devices) CHECK_MESSAGE(claim.find(device) != std::string::npos, "README.md does not name " << device << ": " << claim);
  for (const char* card : {"H100", "H200", "A100"})
    if (claim.find(card) != std::string::npos)
      CHECK_MESSAGE(devices.count(std::string("NVIDIA ") + card), "README.md names " << card << " graphs, which slides/figures lacks");
}

TEST_CASE("docs/reference/grader-commands.md has every grader subcommand, and docs/instructors.md the example class as EXPECTED.json grades it") {
  const std::string reference = test::read(kit::root() / "docs" / "reference" / "grader-commands.md");
  const auto help = test::run_program("grader", "--help");
  REQUIRE(help.exit_code == 0);
  const std::string listed = help.output.substr(help.output.find("Subcommands:"));
  static const std::regex sub(R"(\n  ([a-z-]+) )");
  std::size_t subcommands = 0;
  for (std::sregex_iterator it(listed.begin(), listed.end(), sub), end; it != end; ++it, ++subcommands)
    CHECK_MESSAGE(reference.find("build/bin/grader " + (*it)[1].str() + " --help") != std::string::npos,
                  "docs/reference/grader-commands.md lacks grader " << (*it)[1] << ": run scripts/write-grader-reference.sh");
  CHECK(subcommands >= 10);
  // The example class's totals, as the table shows them, are EXPECTED.json's.
  const std::string doc = test::read(kit::root() / "docs" / "instructors.md");
  const json expected = json::parse(test::read(kit::root() / "grader" / "examples" / "class" / "EXPECTED.json"));
  for (const auto& [student, e] : expected.at("students").items()) {
    CAPTURE(student);
    static const std::regex total(R"(\| ([0-9.]+) \|)");
    const std::size_t at = doc.find("\n| " + student + " |");
    REQUIRE(at != std::string::npos);
    const std::string row = doc.substr(at + 1, doc.find('\n', at + 1) - at - 1);
    std::smatch m;
    REQUIRE(std::regex_search(row, m, std::regex(R"(\| ([0-9.]+) \|$)")));
    REQUIRE(e.at("points").is_number());
    CHECK(std::stod(m[1]) == doctest::Approx(e.at("points").get<double>()));
  }
}

TEST_CASE("the README parser: a plain block holding a command is refused, `exits N` and a quoted output's shape are read") {
  test::TempDir dir;
  test::write(dir / "a.md", "x\n```\nmake demo\n```\n");
  CHECK_THROWS_WITH_AS(test::docs::commands(dir / "a.md", "a.md"), doctest::Contains("a.md:2: a plain block holds the command `make demo`"),
                       std::runtime_error);
  test::write(dir / "b.md", "```sh\nbuild/bin/grader check 03   # exits 1 until it passes\nmake \\\n  check\n```\n```text\nlab 03: 2 / 10 points\n```\n");
  const auto shown = test::docs::commands(dir / "b.md", "b.md");
  REQUIRE(shown.size() == 2);
  CHECK(shown[0].expected_exit == 1);
  CHECK(shown[0].command == "build/bin/grader check 03");
  CHECK(shown[1].command == "make check");
  CHECK(shown[1].where == "b.md:3");
  REQUIRE(shown[1].quoted_output.size() == 1);
  CHECK(test::docs::unmatched_quotes(shown[1].quoted_output, "header\nlab 03: 7 / 10 points\n").empty());
  CHECK(test::docs::unmatched_quotes(shown[1].quoted_output, "lab 03: 7 of 10 points\n").size() == 1);
  CHECK(test::docs::help_of("GITHUB_OUTPUT=x build/bin/grader --specs s check 03 --classroom") == "build/bin/grader check --help");
  CHECK(test::docs::flags_of("build/bin/grader grade [--jobs N] --labs=03 -p nvidia -1") ==
        std::vector<std::string>{"--jobs", "--labs", "-p"});
  // A link relative to the README (an image two folders up) is named by the path it points to, so
  // a picture missing from a tree (the student release) is found.
  test::write(dir / "labs" / "03" / "c.md", "![a drawing](../../docs/figures/x.svg) and `labs/03/c.md`\n");
  const auto named = test::docs::named_paths(dir / "labs" / "03" / "c.md", {"labs/"});
  CHECK(named == std::vector<std::string>{"labs/03/c.md", (dir / "docs" / "figures" / "x.svg").string()});
}

TEST_CASE("the README runner: a container engine's commands are not run, and say why") {
  // The image's build runs scripts/setup.sh as root and takes the whole build: scripts/check-container.sh does it.
  for (const char* command : {"docker build -t reduction-kit .", "docker run --rm reduction-kit", "podman build -t reduction-kit .",
                              "scripts/check-container.sh"})
    CHECK_MESSAGE(test::docs::not_run_reason(command).find("container") != std::string::npos, std::string(command));
  CHECK(test::docs::not_run_reason("build/bin/grader check 03").empty());
  CHECK(test::docs::not_run_reason("scripts/compare-verdicts.sh diff a b").empty());
}
