// Executable READMEs: parsing a README's fenced blocks, commands and named paths (readme_docs.hpp).
#include "readme_docs.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace test::docs {

namespace {

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<std::string> lines_of(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Words of a shell line; quotes group, and are dropped.
std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::string word;
  char quote = 0;
  bool in_word = false;
  for (char c : line) {
    if (quote) {
      if (c == quote) quote = 0; else word += c;
    } else if (c == '\'' || c == '"') {
      quote = c, in_word = true;
    } else if (c == ' ' || c == '\t') {
      if (in_word) out.push_back(word), word.clear(), in_word = false;
    } else {
      word += c, in_word = true;
    }
  }
  if (in_word) out.push_back(word);
  return out;
}

// The position of a shell comment's `#` (after a space, outside quotes), or npos.
std::size_t comment_at(const std::string& line) {
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote) { if (c == quote) quote = 0; continue; }
    if (c == '\'' || c == '"') quote = c;
    else if (c == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) return i;
  }
  return std::string::npos;
}

bool looks_like_command(const std::string& line) {
  const std::string t = trim(line);
  for (const char* start : {"make ", "build/bin/", "scripts/", "cmake ", "ctest", "./", "sudo ", "apt"})
    if (t.rfind(start, 0) == 0) return true;
  return t == "make";
}

// The index of the program word: the first word that is not a VAR=value assignment.
std::size_t program_word(const std::vector<std::string>& w) {
  std::size_t i = 0;
  while (i < w.size() && w[i].find('=') != std::string::npos && w[i][0] != '-') ++i;
  return i;
}

}  // namespace

std::vector<Block> blocks(const fs::path& readme, const std::string& shown_as) {
  const auto lines = lines_of(readme);
  std::vector<Block> out;
  static const std::regex fence(R"(^(\s*)```\s*([A-Za-z0-9_+-]*)\s*$)");
  std::string prose;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (!std::regex_match(lines[i], m, fence)) {
      prose += lines[i] + "\n";
      continue;
    }
    Block b{shown_as + ":" + std::to_string(i + 1), m[2].str(), {}, prose};
    prose.clear();
    const std::size_t indent = m[1].length();
    std::size_t j = i + 1;
    for (; j < lines.size() && trim(lines[j]) != "```"; ++j)
      b.lines.push_back(lines[j].substr(std::min(indent, lines[j].find_first_not_of(' ') == std::string::npos ? lines[j].size()
                                                                                                               : lines[j].find_first_not_of(' '))));
    if (j == lines.size()) throw std::runtime_error(b.where + ": a fenced block that is never closed");
    out.push_back(std::move(b));
    i = j;
  }
  return out;
}

std::vector<Shown> commands(const fs::path& readme, const std::string& shown_as) {
  const auto all = blocks(readme, shown_as);
  std::vector<Shown> out;
  for (std::size_t k = 0; k < all.size(); ++k) {
    const Block& b = all[k];
    const bool sh = b.info == "sh", synopsis = b.info == "synopsis";
    if (!sh && !synopsis) {
      if (b.info.empty())
        for (const auto& line : b.lines)
          if (looks_like_command(line))
            throw std::runtime_error(b.where + ": a plain block holds the command `" + trim(line) +
                                     "`: mark the block ```sh (run by the tests) or ```synopsis (a usage form)");
      continue;
    }
    const std::size_t line0 = std::stoul(b.where.substr(b.where.rfind(':') + 1));
    std::string joined;
    std::size_t first = 0;  // the line a continued command starts on
    const std::size_t block_start = out.size();
    for (std::size_t i = 0; i < b.lines.size(); ++i) {
      if (joined.empty()) first = i;
      std::string line = b.lines[i];
      const std::size_t hash = comment_at(line);
      const std::string comment = hash == std::string::npos ? "" : trim(line.substr(hash + 1));
      std::string command = trim(hash == std::string::npos ? line : line.substr(0, hash));
      if (!command.empty() && command.back() == '\\') {
        joined += trim(command.substr(0, command.size() - 1)) + " ";
        continue;
      }
      command = trim(joined + command);
      joined.clear();
      if (command.empty()) continue;
      if (synopsis && line[0] == ' ' && out.size() > block_start) {  // a usage form's indented continuation
        out.back().command += " " + command;
        continue;
      }
      Shown s{shown_as + ":" + std::to_string(line0 + 1 + first), command, comment, 0, synopsis, k, {}};
      static const std::regex exits(R"(\bexits (\d+)\b)");
      std::smatch m;
      if (std::regex_search(comment, m, exits)) s.expected_exit = std::stoi(m[1].str());
      out.push_back(std::move(s));
    }
    if (sh && k + 1 < all.size() && all[k + 1].info == "text" && !out.empty()) out.back().quoted_output = all[k + 1].lines;
  }
  return out;
}

std::vector<QuotedLog> quoted_logs(const fs::path& readme, const std::string& shown_as) {
  const auto all = blocks(readme, shown_as);
  std::vector<QuotedLog> out;
  static const std::regex log(R"(`(slides/data/logs/[^`\s]+)`)");
  for (std::size_t k = 0; k < all.size(); ++k) {
    if (all[k].info != "text" || (k > 0 && all[k - 1].info == "sh")) continue;
    // The log the prose names last before the block: the one nearest to it.
    std::string named;
    for (std::sregex_iterator it(all[k].before.begin(), all[k].before.end(), log), end; it != end; ++it) named = (*it)[1].str();
    if (named.empty())
      throw std::runtime_error(all[k].where + ": a ```text block neither follows a ```sh block (the output of its last command) nor "
                                              "follows prose naming the log it quotes (`slides/data/logs/...`)");
    out.push_back({all[k].where, named, all[k].lines});
  }
  return out;
}

std::vector<std::string> named_paths(const fs::path& readme, const std::vector<std::string>& tops) {
  const auto lines = lines_of(readme);
  std::vector<std::string> spans;
  static const std::regex code(R"(`([^`]+)`)"), link(R"(\]\(([^)#\s]+))");
  bool fenced = false;
  for (const auto& line : lines) {
    if (trim(line).rfind("```", 0) == 0) { fenced = !fenced; continue; }
    if (fenced) continue;
    for (std::sregex_iterator it(line.begin(), line.end(), code), end; it != end; ++it)
      for (const auto& w : words((*it)[1].str())) spans.push_back(w);
    for (std::sregex_iterator it(line.begin(), line.end(), link), end; it != end; ++it) spans.push_back((*it)[1].str());
  }
  std::vector<std::string> out;
  for (std::string p : spans) {
    while (!p.empty() && std::string(".,;:)").find(p.back()) != std::string::npos) p.pop_back();
    if (p.rfind("../", 0) == 0 || p.rfind("./", 0) == 0) {  // a relative link (an image, a file): from the README's folder
      const std::string target = (readme.parent_path() / p).lexically_normal().string();
      if (std::find(out.begin(), out.end(), target) == out.end()) out.push_back(target);
      continue;
    }
    bool top = false;
    for (const auto& t : tops) top = top || p == t || (t.back() == '/' && p.rfind(t, 0) == 0) || p + "/" == t;
    if (!top) continue;
    bool placeholder = false;
    for (const char* mark : {"<", ">", "{", "NN", "-name", "...", "\xE2\x80\xA6", "$", "=", "XX", "**"}) placeholder = placeholder || p.find(mark) != std::string::npos;
    if (!placeholder && std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  }
  return out;
}

std::string not_run_reason(const std::string& command) {
  const auto w = words(command);
  auto has = [&](const std::string& s) { return command.find(s) != std::string::npos; };
  if (has("-p nvidia") || (has("--devices") && has("nvidia")) || has("measure-gpu"))
    return "needs an NVIDIA GPU and its OpenCL driver";
  if (has("grader slurm") && !has("--dry-run")) return "needs a Slurm cluster (tests/grader/test_slurm.cpp runs the grader on a one-node Slurm)";
  if (has("apt-get") || has("sudo ") || has("scripts/setup.sh") || command == "make setup") return "installs Debian packages as root";
  if (command == "make test") return "the whole test suite, of which this test is one";
  if (has("measure-build.sh")) return "builds a student release and the kit from clean with ccache off, minutes long";
  const std::string program = program_word(w) < w.size() ? w[program_word(w)] : "";
  if (program == "docker" || program == "podman" || has("scripts/check-container.sh"))
    return "needs a container engine and builds the kit's image (setup and the whole build): scripts/check-container.sh does it";
  if (has("grader mutants") && !has("--max-per-lab")) return "grades every mutant of the labs named, minutes long: the --max-per-lab form is run";
  (void)w;
  return "";
}

std::string help_of(const std::string& command) {
  const auto w = words(command);
  const std::size_t p = program_word(w);
  if (p >= w.size()) return "";
  std::string help = w[p];
  if (w[p].find("grader") != std::string::npos)
    for (std::size_t i = p + 1; i < w.size(); ++i) {
      if (w[i] == "--specs" || w[i] == "--references" || w[i] == "--pocl-threads") { ++i; continue; }
      if (w[i][0] != '-' && w[i][0] != '[') { help += " " + w[i]; break; }
    }
  return help + " --help";
}

std::vector<std::string> flags_of(const std::string& command) {
  std::vector<std::string> out;
  const auto w = words(command);
  for (std::size_t i = program_word(w) + 1; i < w.size(); ++i) {
    std::string f = w[i];
    f.erase(std::remove(f.begin(), f.end(), '['), f.end());
    f.erase(std::remove(f.begin(), f.end(), ']'), f.end());
    if (f.size() < 2 || f[0] != '-' || std::isdigit(static_cast<unsigned char>(f[1]))) continue;
    if (w[i - 1] == "--sbatch-arg" || w[i - 1] == "[--sbatch-arg") continue;  // sbatch's own flag, passed through
    if (const auto eq = f.find('='); eq != std::string::npos) f.resize(eq);
    out.push_back(f);
  }
  return out;
}

std::string shape(const std::string& line) {
  std::string out;
  std::istringstream in(line);
  for (std::string w; in >> w;) {
    if (!out.empty()) out += ' ';
    for (std::size_t i = 0; i < w.size(); ++i)
      if (!std::isdigit(static_cast<unsigned char>(w[i]))) out += w[i];
      else if (i == 0 || !std::isdigit(static_cast<unsigned char>(w[i - 1]))) out += '#';
  }
  return out;
}

std::vector<std::string> unmatched_quotes(const std::vector<std::string>& quoted, const std::string& output) {
  std::vector<std::string> shapes, missing;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) shapes.push_back(shape(line));
  for (const auto& q : quoted)
    if (!trim(q).empty() && std::find(shapes.begin(), shapes.end(), shape(q)) == shapes.end()) missing.push_back(q);
  return missing;
}

}  // namespace test::docs

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <iostream>
#include <map>

#include "support.hpp"

namespace test::docs {

namespace {

std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

bool names_flag(const std::string& help, const std::string& flag) {
  for (std::size_t at = help.find(flag); at != std::string::npos; at = help.find(flag, at + 1)) {
    const char after = at + flag.size() < help.size() ? help[at + flag.size()] : '\n';
    const char before = at == 0 ? ' ' : help[at - 1];
    if ((before == ' ' || before == ',' || before == '[') && !std::isalnum(static_cast<unsigned char>(after)) && after != '-') return true;
  }
  return false;
}

// What is not run is still checked: a make target exists, a script is there, a program's --help
// names every flag the line passes.
void check_not_run(const fs::path& tree, const Shown& s, const std::string& env) {
  const auto w = words(s.command);
  const std::string program = w[program_word(w)];
  if (program == "make") {
    const auto plan = run_command("cd " + shell_quoted(tree.string()) + " && make -n " + s.command.substr(s.command.find("make") + 4));
    CHECK_MESSAGE(plan.exit_code == 0, s.where << ": `" << s.command << "`: make has no such target here\n" << plan.output);
    return;
  }
  if (program == "docker" || program == "podman") {  // the image it builds or runs is the tree's Dockerfile's
    CHECK_MESSAGE(fs::exists(tree / "Dockerfile"), s.where << ": `" << s.command << "`: the tree has no Dockerfile");
    return;
  }
  if (program.rfind("scripts/", 0) == 0 || program == "sudo" || program == "apt-get") {
    if (program.rfind("scripts/", 0) == 0) CHECK_MESSAGE(fs::exists(tree / program), s.where << ": " << program << " is not in the tree");
    else CHECK_MESSAGE(fs::exists(tree / "scripts/setup.sh"), s.where << ": scripts/setup.sh, which installs the packages, is not in the tree");
    return;
  }
  const std::string help = help_of(s.command);
  const auto shown = run_command("cd " + shell_quoted(tree.string()) + " && " + env + " " + help);
  CHECK_MESSAGE(shown.exit_code == 0, s.where << ": `" << help << "` fails:\n" << shown.output);
  for (const auto& flag : flags_of(s.command))
    CHECK_MESSAGE(names_flag(shown.output, flag), s.where << ": `" << s.command << "` passes " << flag << ", which `" << help << "` does not name");
}

}  // namespace

void run_commands(const fs::path& tree, const fs::path& readme, const std::string& shown_as, const std::string& env, Scope scope) {
  static std::map<std::string, std::pair<std::string, Command>> done;  // tree + command -> the README that ran it, its run
  std::size_t block = SIZE_MAX;
  std::string block_output;  // what the current ```sh block's commands printed
  std::vector<Shown> shown;
  try {
    shown = commands(readme, shown_as);
  } catch (const std::exception& e) {
    FAIL_CHECK(std::string(e.what()));
    return;
  }
  try {
    for (const auto& quote : quoted_logs(readme, shown_as))
      for (const auto& missing : unmatched_quotes(quote.lines, read(tree / quote.log)))
        FAIL_CHECK(quote.where << ": the quoted line `" << missing << "` has no line of its shape in " << quote.log);
  } catch (const std::exception& e) {
    FAIL_CHECK(std::string(e.what()));
  }
  for (const Shown& s : shown) {
    const bool kit_only = s.comment.find("kit only") != std::string::npos;
    if (scope == Scope::kit_only_lines && !kit_only) continue;
    std::string why = s.synopsis ? "a usage form (```synopsis)" : not_run_reason(s.command);
    if (why.empty() && kit_only && scope == Scope::release) why = "kit only: needs what the student release leaves out";
    if (why.empty() && s.comment.rfind("the full sweep", 0) == 0) {
      why = "the full sweep, minutes long: the smaller form the README shows is run";
      const auto program = [](const std::string& line) {
        const auto w = words(line);
        const std::size_t p = program_word(w);
        return w[p] == "make" && p + 1 < w.size() ? "make " + w[p + 1] : w[p];
      };
      CHECK_MESSAGE(std::any_of(shown.begin(), shown.end(), [&](const Shown& o) {
                      return &o != &s && !o.synopsis && o.comment.rfind("the full sweep", 0) != 0 && program(o.command) == program(s.command);
                    }),
                    s.where << ": `" << s.command << "` is a full sweep, and the README shows no smaller form of it to run");
    }
    if (!why.empty()) {
      std::cout << "not run: " << s.where << ": " << s.command << "  (" << why << ")\n";
      // A kit-only command in the release: its options need what the release leaves out, and the
      // release's programs do not offer them (checked by the release's test).
      if (!(kit_only && scope == Scope::release)) check_not_run(tree, s, env);
      continue;
    }
    std::string line = s.command;
    const auto w = words(line);
    if (w[program_word(w)] == "make") line.replace(line.find("make"), 4, "make -o build -o setup");
    const std::string key = tree.string() + "\n" + line;
    auto it = done.find(key);
    if (it == done.end() || it->second.first == shown_as) {
      const auto start = std::chrono::steady_clock::now();
      Command ran = run_command("cd " + shell_quoted(tree.string()) + " && " + env + " timeout 900 bash -c " + shell_quoted(line) + " </dev/null");
      std::cout << "ran " << s.where << ": " << s.command << "  (exit " << ran.exit_code << ", "
                << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s)\n";
      it = done.insert_or_assign(key, std::make_pair(shown_as, std::move(ran))).first;
    }
    const Command& ran = it->second.second;
    if (s.block != block) block = s.block, block_output.clear();
    block_output += ran.output;
    CHECK_MESSAGE(ran.exit_code == s.expected_exit, s.where << ": `" << s.command << "` exits " << ran.exit_code << ", the README says "
                                                            << s.expected_exit << "\n" << ran.output.substr(ran.output.size() > 3000 ? ran.output.size() - 3000 : 0));
    if (s.expected_exit != 0) CHECK_MESSAGE(!ran.output.empty(), s.where << ": `" << s.command << "` fails without saying why");
    for (const auto& missing : unmatched_quotes(s.quoted_output, block_output))
      FAIL_CHECK(s.where << ": the quoted output line `" << missing << "` has no line of its shape in what its block printed:\n"
                         << block_output);
  }
}

}  // namespace test::docs
