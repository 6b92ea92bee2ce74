// Kernel files as students' editors save them: a UTF-8 byte-order mark, CRLF or old-Mac CR line
// ends, tabs and no final newline build and grade as a plain file does; UTF-16 is refused by name.
#include <doctest/doctest.h>

#include "kit/paths.hpp"
#include "kit/program.hpp"
#include "oclgrind/oclgrind.hpp"
#include "solution_check.hpp"
#include "support.hpp"

namespace {

const std::string kBom = "\xEF\xBB\xBF";

// `text` with every "\n" replaced by `line_end`.
std::string with_line_ends(const std::string& text, const std::string& line_end) {
  std::string out;
  for (char c : text) out += c == '\n' ? line_end : std::string(1, c);
  return out;
}

// `text` as a Windows editor may save it: a byte-order mark, a tab for each leading four spaces,
// CRLF line ends and no newline after the last line.
std::string windows_style(const std::string& text) {
  std::string tabbed;
  bool leading = true;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (leading && text.compare(i, 4, "    ") == 0) {
      tabbed += '\t';
      i += 3;
      continue;
    }
    leading = text[i] == '\n';
    tabbed += text[i];
  }
  while (!tabbed.empty() && tabbed.back() == '\n') tabbed.pop_back();
  return kBom + with_line_ends(tabbed, "\r\n");
}

// The build log of `text` saved as k.cl, or "built" when it compiles.
std::string build_log(const std::string& text) {
  test::TempDir dir;
  test::write(dir / "k.cl", text);
  try {
    kit::build_program(test::runtime().context, test::runtime().device, dir / "k.cl", "", "k.cl");
  } catch (const kit::BuildError& e) {
    return e.log;
  }
  return "built";
}

}  // namespace

TEST_CASE("every lab's solution saved with a BOM, CRLF, tabs and no final newline passes check") {
  test::TempDir labs;
  int kernels = 0;
  for (const auto& lab : std::filesystem::directory_iterator(kit::root() / "solutions"))
    for (const auto& file : std::filesystem::directory_iterator(lab.path()))
      if (file.path().extension() == ".cl") {
        const std::string text = windows_style(test::read(file.path()));
        REQUIRE(text.find('\t') != std::string::npos);  // the solution's indentation became tabs
        test::write(labs / lab.path().filename().string() / file.path().filename().string(), text);
        ++kernels;
      }
  // One kernel file per lab (every lab's solution is one .cl file), the labs counted from the tree.
  CHECK(kernels == int(test::kit_labs(true).size()));
  const auto before = test::snapshot(labs.path);
  const auto run = test::run_program("grader", "check --dir " + labs.path.string());
  test::check_solution_passes(run);  // lab 06's speed estimate below full on a busy machine aside (solution_check.hpp)
  CHECK(test::snapshot(labs.path) == before);  // graded from a private copy, the files untouched
}

TEST_CASE("a build error after a BOM points at the line and column the editor shows") {
  // broken_syntax.cl misses a ';' at the end of line 5, "    prods[tnum] = dA[tnum] * dB[tnum]".
  const std::string plain = test::read(test::data("broken_syntax.cl"));
  REQUIRE(build_log(plain).find("k.cl:5:38: error: expected ';'") != std::string::npos);
  const std::string crlf = kBom + with_line_ends(plain, "\r\n");
  CHECK(build_log(crlf).find("k.cl:5:38: error: expected ';'") != std::string::npos);
  CHECK(build_log(crlf.substr(0, crlf.size() - 2)).find("k.cl:5:38: error: expected ';'") != std::string::npos);  // no final newline
  CHECK(build_log(kBom + with_line_ends(plain, "\r")).find("k.cl:5:38: error: expected ';'") != std::string::npos);  // old Mac
  // A tab is one column, as the compiler counts (and editors do when they count characters).
  CHECK(build_log(windows_style(plain)).find("k.cl:5:35: error: expected ';'") != std::string::npos);
  CHECK(build_log(kBom + plain).find(":1:") == std::string::npos);  // the mark itself is no error
}

TEST_CASE("a kernel saved as UTF-16 is refused with what to change") {
  std::string utf16 = "\xFF\xFE";
  for (char c : test::read(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl")) utf16 += std::string{c, '\0'};
  test::TempDir dir;
  test::write(dir / "ArrayMultReduce.cl", utf16);
  CHECK_THROWS_WITH_AS(kit::build_program(test::runtime().context, test::runtime().device, dir / "ArrayMultReduce.cl", "",
                                          "ArrayMultReduce.cl"),
                       "ArrayMultReduce.cl: saved as UTF-16: save it as UTF-8", kit::Error);
  CHECK(kit::encoding_problem(utf16.substr(2), "k.cl") == "k.cl: saved as UTF-16: save it as UTF-8");  // no byte-order mark
  CHECK(kit::encoding_problem(std::string("\xFE\xFF\0k", 4), "k.cl") == "k.cl: saved as UTF-16: save it as UTF-8");
  CHECK(kit::encoding_problem(std::string("\xFF\xFE\0\0", 4), "k.cl") == "k.cl: saved as UTF-32: save it as UTF-8");
  CHECK(kit::encoding_problem(kBom + "kernel", "k.cl").empty());
  test::write(dir / "03-array-mult-reduce" / "ArrayMultReduce.cl", utf16);
  const auto run = test::run_program("grader", "check 03 --dir " + dir.path.string());
  CHECK(run.exit_code == 1);
  CHECK(run.output.find("ArrayMultReduce.cl: saved as UTF-16: save it as UTF-8") != std::string::npos);
}

TEST_CASE("editor text drops a BOM and makes lone CRs line ends, and Oclgrind's quoted lines count the same") {
  CHECK(kit::editor_text(kBom + "a\r\nb\rc\r") == "a\r\nb\nc\n");
  CHECK(kit::editor_text("a" + kBom) == "a" + kBom);  // only a leading mark is one
  CHECK(grader::source_line(kBom + "first\rsecond\r\n\tthird", 1) == "first");
  CHECK(grader::source_line(kBom + "first\rsecond\r\n\tthird", 2) == "second");
  CHECK(grader::source_line(kBom + "first\rsecond\r\n\tthird", 3) == "third");
}
