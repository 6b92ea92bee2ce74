#include "support.hpp"

#include "kit/paths.hpp"
#include "kit/program.hpp"

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <stdexcept>

namespace test {

const kit::Runtime& runtime() {
  static const kit::Runtime rt = kit::Runtime::open({});
  return rt;
}

std::filesystem::path data(const std::string& name) { return std::filesystem::path(KIT_TEST_DATA) / name; }

Command run_program(const std::string& program, const std::string& args) {
  return run_command("'" + std::string(KIT_BIN_DIR) + "/" + program + "' " + args);
}

std::string kit_path(const std::string& relative) { return "'" + (kit::root() / relative).string() + "'"; }

Command run_command(const std::string& command) {
  const std::string cmd = command + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run " + cmd);
  Command result{0, ""};
  std::array<char, 4096> buffer;
  while (std::size_t n = fread(buffer.data(), 1, buffer.size(), pipe)) result.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

}  // namespace test

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace test {

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "kit-test-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  path = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
}

void open_to_children(const TempDir& dir) {
  std::filesystem::permissions(dir.path, std::filesystem::perms::all);
}

std::map<std::string, std::string> snapshot(const std::filesystem::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    files[std::filesystem::relative(e.path(), dir).string()] = e.is_regular_file() ? read(e.path()) : "<dir>";
  return files;
}

std::string read(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write(const std::filesystem::path& file, const std::string& content) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << content;
}

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  if (at == std::string::npos || text.find(from, at + 1) != std::string::npos)
    throw std::logic_error("'" + from + "' must occur exactly once in the text to change");
  return text.replace(at, from.size(), to);
}

std::string replace_slide_region(const std::string& text, const std::string& name, const std::string& body) {
  const std::string start = "// slide: " + name + "\n", end = "// slide-end\n";
  const auto open = text.find(start);
  const auto close = open == std::string::npos ? open : text.find(end, open);
  if (close == std::string::npos) throw std::logic_error("no region '" + name + "' to replace");
  const auto line_start = text.rfind('\n', open) + 1, after = close + end.size();
  return text.substr(0, line_start) + body + text.substr(after);
}

std::string lab01_with_late_penalty(const std::filesystem::path& dir, double per_day) {
  std::string spec = read(kit::root() / "grader/specs/01-array-mult.json");
  const auto open = spec.find('{');
  if (open == std::string::npos) throw std::logic_error("lab 01's spec is not a JSON object");
  spec.insert(open + 1, "\n  \"late_penalty_per_day\": " + std::to_string(per_day) + ",");
  write(dir / "specs" / "01-array-mult.json", spec);
  return " --specs " + (dir / "specs").string() + " --references " + (kit::root() / "grader" / "reference").string();
}

std::string lab_with_number(const std::filesystem::path& dir, const std::string& lab, const std::string& key, double value) {
  const std::filesystem::path copy = dir / "specs" / (lab + ".json");  // a field set before is kept
  const std::string spec = read(std::filesystem::exists(copy) ? copy : kit::root() / "grader/specs" / (lab + ".json"));
  const std::string field = "\"" + key + "\": ";
  const auto at = spec.find(field);
  if (at == std::string::npos || spec.find(field, at + 1) != std::string::npos)
    throw std::logic_error(lab + "'s spec has no single " + key + " to set");
  const auto end = spec.find_first_of(",\n}", at);
  std::ostringstream number;
  number << value;
  write(copy, spec.substr(0, at + field.size()) + number.str() + spec.substr(end));
  return " --specs " + (dir / "specs").string() + " --references " + (kit::root() / "grader" / "reference").string();
}

std::string lab_with_build_limit(const std::filesystem::path& dir, const std::string& lab, double seconds) {
  return lab_with_number(dir, lab, "build_time_limit_s", seconds);
}

std::string build_error(const std::string& source, const std::string& options) {
  TempDir dir;
  write(dir / "k.cl", source);
  try {
    kit::build_program(runtime().context, runtime().device, dir / "k.cl", options);
    return "";
  } catch (const std::exception& e) {
    return std::string(e.what()).empty() ? "failed" : e.what();
  }
}

}  // namespace test

namespace test {

std::vector<std::string> kit_labs(bool with_spec) {
  std::vector<std::string> labs;
  for (const auto& e : std::filesystem::directory_iterator(kit::root() / "labs")) {
    const std::string name = e.path().filename().string();
    const bool lab_name = name.size() > 3 && std::isdigit(static_cast<unsigned char>(name[0])) &&
                          std::isdigit(static_cast<unsigned char>(name[1])) && name[2] == '-';
    if (!e.is_directory() || !lab_name) continue;
    if (with_spec && !std::filesystem::exists(kit::root() / "grader" / "specs" / (name + ".json"))) continue;
    labs.push_back(name);
  }
  std::sort(labs.begin(), labs.end());
  return labs;
}

}  // namespace test

namespace test {

void copy_kit(const std::filesystem::path& dest) {
  std::filesystem::create_directories(dest);
  const std::string to = "'" + dest.string() + "'";
  const Command copied = run_command("cd " + kit_path("") + " && git ls-files -z | xargs -0 cp --parents -p -t " + to + " 2>&1");
  if (copied.exit_code != 0) throw std::runtime_error("copying the kit's tracked files to " + dest.string() + " failed:\n" + copied.output);
  const Command committed = run_command("cd " + to + " && git init -q . && git add -A && git -c user.name=kit -c user.email=kit@localhost "
                                        "commit -q -m 'the kit, copied' 2>&1");
  if (committed.exit_code != 0) throw std::runtime_error("committing the kit's copy in " + dest.string() + " failed:\n" + committed.output);
}

}  // namespace test
