// Stored references: regenerating gives byte-identical files; edited or stale ones are refused.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "kit/paths.hpp"
#include "support.hpp"

using json = nlohmann::json;

namespace {
const std::filesystem::path kStored = kit::root() / "grader" / "reference";
}

TEST_CASE("regenerating the references reproduces the committed files byte for byte, but for the manifest line naming the platform that made them") {
  test::TempDir a, b;
  for (const test::TempDir* dir : {&a, &b}) {
    const auto run = test::run_program("grader", "--references " + dir->path.string() + " reference");
    REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  }
  CHECK(test::snapshot(a.path) == test::snapshot(b.path));
  // MANIFEST.json names the OpenCL platform and driver that made the files ("device"): the
  // committed ones were made on PoCL 3.1 (Debian 12). Every other byte is the same on another PoCL:
  // the references are the host's (the labs' C++ code, no OpenCL) and each case's
  // solution_sha256 is the checksum of the solution's outputs, which PoCL 6.0 (Debian 13, LLVM 18,
  // GCC 14) reproduces bit for bit. So the manifest is compared with its device line set aside,
  // and that line must name this machine's platform.
  auto made = test::snapshot(a.path), stored = test::snapshot(kStored);
  REQUIRE(made.count("MANIFEST.json") == 1);
  REQUIRE(stored.count("MANIFEST.json") == 1);
  json made_manifest = json::parse(made["MANIFEST.json"]), stored_manifest = json::parse(stored["MANIFEST.json"]);
  const auto list = test::run_program("03-array-mult-reduce", "--list");
  REQUIRE_MESSAGE(list.exit_code == 0, list.output);
  // "Portable Computing Language 6.0+debian, CPU device": the driver's version is the last word before the comma.
  std::string device = made_manifest.at("device").get<std::string>();
  device = device.substr(0, device.rfind(", "));
  CHECK_MESSAGE(list.output.find("driver " + device.substr(device.rfind(' ') + 1)) != std::string::npos, device << "\n" << list.output);
  made_manifest.erase("device");
  stored_manifest.erase("device");
  CHECK(made_manifest == stored_manifest);
  made.erase("MANIFEST.json");
  stored.erase("MANIFEST.json");
  CHECK(made == stored);
}

TEST_CASE("an edited reference file or a changed spec is refused with how to regenerate") {
  test::TempDir refs, specs;
  std::filesystem::copy(kStored, refs.path, std::filesystem::copy_options::recursive);
  std::string bytes = test::read(refs / "03-array-mult-reduce.json");
  const auto at = bytes.find("\"partials\":[");
  REQUIRE(at != std::string::npos);
  char& digit = bytes[at + 12];  // the first character of the first stored number
  digit = digit == '9' ? '8' : '9';  // change it, whatever it was
  test::write(refs / "03-array-mult-reduce.json", bytes);
  const auto edited = test::run_program("grader", "--references " + refs.path.string() + " check 03");
  CHECK(edited.exit_code == 1);
  CHECK(edited.output.find("does not match its checksum") != std::string::npos);
  CHECK(edited.output.find("grader reference") != std::string::npos);

  // A case's parameters decide its output: a spec whose case asks for other parameters than its
  // reference was made with is refused, naming the case and both sets.
  json spec = json::parse(test::read(kit::root() / "grader" / "specs" / "03-array-mult-reduce.json"));
  const std::string name = spec["cases"][0]["name"];
  spec["cases"][0]["seed"] = spec["cases"][0]["seed"].get<int>() + 1;
  test::write(specs / "03-array-mult-reduce.json", spec.dump(2));
  const auto stale = test::run_program("grader", "--specs " + specs.path.string() + " check 03");
  CHECK(stale.exit_code == 1);
  CHECK(stale.output.find("case '" + name + "' has parameters") != std::string::npos);
  CHECK(stale.output.find("but its reference in") != std::string::npos);
  CHECK(stale.output.find("grader reference") != std::string::npos);
}

TEST_CASE("policy is not an output: points, limits and a late penalty change without regenerating the references") {
  test::TempDir specs;
  json spec = json::parse(test::read(kit::root() / "grader" / "specs" / "03-array-mult-reduce.json"));
  spec["late_penalty_per_day"] = 0.25;
  spec["cases"][0]["points"] = spec["cases"][0]["points"].get<double>() + 1;
  spec["time_limit_s"] = spec["time_limit_s"].get<double>() + 1;
  test::write(specs / "03-array-mult-reduce.json", spec.dump(2));
  const auto run = test::run_program("grader", "--specs " + specs.path.string() + " check 03 --dir " + test::kit_path("solutions"));
  CHECK_MESSAGE(run.exit_code == 0, run.output);
  CHECK(run.output.find("All visible cases pass") != std::string::npos);
}
