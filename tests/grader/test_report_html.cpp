// report.html and Gradescope's HTML output: the grade and the drawing in one page. Shown in a real
// headless browser (Debian's chromium, which `scripts/setup.sh test` installs): the drawing must be
// in the page's DOM under its id and painted, its arrows' colours covering a box of a drawing's size.
#include <doctest/doctest.h>

#include <cstdio>
#include <sstream>

#include "export/report_html.hpp"
#include "export/reports.hpp"
#include "kit/paths.hpp"
#include "support.hpp"

namespace fs = std::filesystem;

namespace {

// Chromium, or a failed check saying how to install it: a run without it must not pass unseen.
std::string chromium() {
  for (const char* name : {"chromium", "chromium-browser"}) {
    const auto found = test::run_command(std::string("command -v ") + name);
    if (found.exit_code == 0) return found.output.substr(0, found.output.find('\n'));
  }
  FAIL("chromium is not installed: these checks need a real browser (Debian's chromium package; scripts/setup.sh test installs it)");
  return "";
}

// `text` quoted for the shell, whatever it holds.
std::string sh(const std::string& text) {
  std::string out = "'";
  for (char ch : text) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

std::string browser(const fs::path& html, const fs::path& profile, const std::string& what) {
  return sh(chromium()) + " --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir=" + sh(profile.string()) + " " +
         what + " " + sh("file://" + html.string());
}

// What the browser painted in the colours of a drawing (draw/svg.cpp: the operations' blue, the
// busiest work-item's orange, the light blue of a slot stored): how many pixels, and their box.
struct Painted {
  int width = 0, height = 0, pixels = 0, x0 = 0, y0 = 0, x1 = -1, y1 = -1;
  bool a_drawing() const { return pixels >= 300 && x1 - x0 >= 200 && y1 - y0 >= 100; }  // a drawing's size, not a stray dot
};

// The window is tall enough for a whole report: report.html leads with the points and the lines that
// lost points, so a lab's drawings lie some thousands of pixels down (about 3100 for the student below).
Painted screenshot(const fs::path& html, const fs::path& png, const fs::path& profile) {
  const auto shot = test::run_command(browser(html, profile, "--window-size=1280,6000 --screenshot=" + sh(png.string())));
  REQUIRE_MESSAGE(fs::exists(png), shot.output);
  const auto read = test::run_command("python3 " + test::kit_path("tests/grader/png_colour_box.py") + " " + sh(png.string()) + " 1f77b4 e6550d 9ecae1");
  REQUIRE_MESSAGE(read.exit_code == 0, read.output);
  Painted p;
  std::istringstream(read.output) >> p.width >> p.height >> p.pixels >> p.x0 >> p.y0 >> p.x1 >> p.y1;
  INFO(read.output);
  CHECK(p.width == 1280);
  return p;
}

// `html` without its <svg> elements: the page a report would be without its drawings.
std::string without_svg(std::string html) {
  for (std::size_t at = html.find("<svg "); at != std::string::npos; at = html.find("<svg ", at))
    html.erase(at, html.find("</svg>", at) + 6 - at);
  return html;
}

// A student of lab 03 whose loop lost its barrier (the example class's ben): drawn, beside the
// course solution, with the race marked. The folder's name holds what HTML must escape.
const std::string kStudent = "ben <b>&\"o'";

fs::path class_of_one(const test::TempDir& dir) {
  fs::create_directories(dir / "class" / kStudent);
  fs::copy_file(kit::root() / "grader/examples/class/ben-missing-barrier/ArrayMultReduce.cl", dir / "class" / kStudent / "ArrayMultReduce.cl");
  return dir / "class";
}

}  // namespace

TEST_CASE("report.html: grade --draw writes it beside report.md with the lines and the drawing inline, and a browser paints it") {
  test::TempDir dir;
  const auto run = test::run_program("grader", "grade --labs 03 --draw --submissions " + sh(class_of_one(dir).string()) + " --out " +
                                                   sh((dir / "out").string()));
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const fs::path report = dir / "out" / kStudent / "report.html";
  REQUIRE(fs::exists(dir / "out" / kStudent / "report.md"));
  REQUIRE(fs::exists(report));
  const std::string html = test::read(report);
  // The lines as report.md has them, with the check's labels; the student's name escaped.
  CHECK(html.find("<h1>ben &lt;b&gt;&amp;&quot;o': ") != std::string::npos);
  CHECK(html.find("<b>&") == std::string::npos);
  CHECK(html.find("<span class=\"label\">PASS</span> passed") != std::string::npos);
  CHECK(html.find("<span class=\"label\">FAIL</span> unsafe") != std::string::npos);
  CHECK(html.find("hint: ") != std::string::npos);
  // Self-contained: the drawing inline, nothing fetched.
  CHECK(html.find("<svg id=\"drawing-03-array-mult-reduce-1\"") != std::string::npos);
  for (const char* fetch : {"<img", "<link", "<script", "src=", "href="}) CHECK_MESSAGE(html.find(fetch) == std::string::npos, fetch);

  // The drawing folded under the lab's lines, its caption above it, and no path of the grading machine.
  CHECK(html.find("<details class=\"drawing\">") < html.find("<svg id=\"drawing-03-array-mult-reduce-1\""));
  CHECK(html.find("<figcaption>") < html.find("<svg id=\"drawing-03-array-mult-reduce-1\""));
  CHECK(html.find("Lines that lost points") < html.find("<section id=\"lab-03-array-mult-reduce\">"));
  CHECK(html.find((dir / "out").string()) == std::string::npos);

  const auto dom = test::run_command(browser(report, dir / "profile", "--dump-dom"));
  CHECK_MESSAGE(dom.output.find("<svg id=\"drawing-03-array-mult-reduce-1\"") != std::string::npos, dom.output.substr(0, 2000));
  // Folded, the drawing is not painted; unfolded (as a click on its summary does), it is.
  const Painted folded = screenshot(report, dir / "folded.png", dir / "profile");
  CHECK_FALSE(folded.a_drawing());
  test::write(dir / "out" / kStudent / "unfolded.html", test::replace_once(html, "<details class=\"drawing\">", "<details class=\"drawing\" open>"));
  const Painted shown = screenshot(dir / "out" / kStudent / "unfolded.html", dir / "report.png", dir / "profile");
  CHECK_MESSAGE(shown.a_drawing(), shown.pixels, " pixels in ", shown.x0, ",", shown.y0, " to ", shown.x1, ",", shown.y1);
  // The same page without its <svg>: the check sees no drawing.
  test::write(dir / "bare.html", without_svg(test::read(dir / "out" / kStudent / "unfolded.html")));
  const Painted bare = screenshot(dir / "bare.html", dir / "bare.png", dir / "profile");
  CHECK_FALSE(bare.a_drawing());
  CHECK(bare.pixels == 0);
}

TEST_CASE("gradescope --draw: results.json's HTML output carries the drawing, and a browser paints a page made of it") {
  test::TempDir dir;
  const auto run = test::run_program("grader", "gradescope --labs 03 --submission " + sh((class_of_one(dir) / kStudent).string()) +
                                                   " --results " + sh((dir / "results.json").string()) + " --draw " + sh((dir / "draw").string()));
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  const grader::json r = grader::json::parse(test::read(dir / "results.json"));
  CHECK(r["output_format"] == "html");
  CHECK(r["test_output_format"] == "html");
  const std::string output = r["output"];
  CHECK(output.find("<svg id=\"drawing-03-array-mult-reduce-1\"") != std::string::npos);
  CHECK(output.find("<script") == std::string::npos);
  // A page as Gradescope shows it: the output, then each test's name and output.
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>results.json</title></head><body>\n" + output;
  for (const grader::json& t : r["tests"])
    page += "<h4>" + t["name"].get<std::string>() + " (" + grader::format_points(t["score"]) + " / " +
            grader::format_points(t["max_score"]) + ")</h4>\n<div>" + t["output"].get<std::string>() + "</div>\n";
  page = test::replace_once(page, "<details class=\"drawing\">", "<details class=\"drawing\" open>");  // unfolded, as a click does
  test::write(dir / "gradescope.html", page + "</body></html>\n");
  const Painted shown = screenshot(dir / "gradescope.html", dir / "gradescope.png", dir / "profile");
  CHECK_MESSAGE(shown.a_drawing(), shown.pixels, " pixels in ", shown.x0, ",", shown.y0, " to ", shown.x1, ",", shown.y1);
  test::write(dir / "bare.html", without_svg(page));
  CHECK_FALSE(screenshot(dir / "bare.html", dir / "bare.png", dir / "profile").a_drawing());
  // Without --draw, no drawing and no word of one.
  const auto plain = test::run_program("grader", "gradescope --labs 03 --submission " + sh((dir / "class" / kStudent).string()) +
                                                     " --results " + sh((dir / "plain.json").string()));
  REQUIRE_MESSAGE(plain.exit_code == 0, plain.output);
  CHECK(grader::json::parse(test::read(dir / "plain.json"))["output"].get<std::string>().find("<svg") == std::string::npos);
}

TEST_CASE("report.html escapes what students and kernels write, and inlines only the grader's own drawings") {
  test::TempDir dir;
  grader::LabResult r;
  r.student = "<script>alert(1)</script>";
  r.lab = "03-array-mult-reduce";
  r.kernel = "a<b>&\"c'.cl";
  r.status = grader::LabStatus::BuildError;
  r.message = "error: expected ';' </pre><script>x</script> & \"q\"";
  r.cases = {{"one work-group of <8>", true, 0, 1, grader::CaseStatus::Wrong, "got <0> & \"1\"", "look at a < b & c"}};
  const std::string svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><defs><marker id=\"heada\"><path d=\"M0,0\"/></marker></defs>"
      "<line x1=\"0\" y1=\"0\" x2=\"5\" y2=\"5\" marker-end=\"url(#heada)\"/><text x=\"1\" y=\"1\">a &lt; b</text></svg>\n";
  test::write(dir / "03-array-mult-reduce-good.svg", svg);
  test::write(dir / "03-array-mult-reduce-script.svg", test::replace_once(svg, "<defs>", "<script>alert(1)</script><defs>"));
  test::write(dir / "03-array-mult-reduce-onload.svg", test::replace_once(svg, "width=", "onload=\"alert(1)\" width="));
  test::write(dir / "03-array-mult-reduce-link.svg", test::replace_once(svg, "<line ", "<line href=\"http://x\" "));
  test::write(dir / "03-array-mult-reduce-stale.svg", svg);  // named by no note: an earlier run's
  for (const char* name : {"good", "script", "onload", "link", "absent"})
    r.notes.push_back("drawing /elsewhere/03-array-mult-reduce-" + std::string(name) + ".svg (ArrayMultReduce, work-group 0): phase 0: 1 add");

  const auto drawings = grader::inline_drawings(r, dir.path);
  REQUIRE(drawings.size() == 5);
  CHECK(drawings[0].svg.rfind("<svg id=\"drawing-03-array-mult-reduce-1\" xmlns=", 0) == 0);
  CHECK(drawings[0].svg.find("<marker id=\"drawing-03-array-mult-reduce-1-heada\">") != std::string::npos);
  CHECK(drawings[0].svg.find("marker-end=\"url(#drawing-03-array-mult-reduce-1-heada)\"") != std::string::npos);
  for (std::size_t i = 1; i < 5; ++i) {
    CHECK(drawings[i].svg.empty());
    CHECK(!drawings[i].why_not.empty());
  }
  CHECK(drawings[4].why_not == "no file 03-array-mult-reduce-absent.svg beside the report");
  CHECK(drawings[0].file == "03-array-mult-reduce-good.svg");
  CHECK(drawings[0].caption == "03-array-mult-reduce-good.svg (ArrayMultReduce, work-group 0): phase 0: 1 add");

  grader::ResultMap results;
  results[{r.student, r.lab}] = r;
  const grader::LabSpec spec = grader::load_spec(kit::root() / "grader/specs/03-array-mult-reduce.json");
  for (const std::string& html : {grader::student_report_html(r.student, {spec}, results, dir.path),
                                  grader::gradescope_results({r}, grader::json(), dir.path)["output"].get<std::string>(),
                                  grader::gradescope_results({r})["tests"][0]["output"].get<std::string>()}) {
    INFO(html);
    CHECK(html.find("<script") == std::string::npos);
    CHECK(html.find("</pre><") == std::string::npos);
    CHECK(html.find("onload=") == std::string::npos);
    CHECK(html.find("http://x") == std::string::npos);
    CHECK(html.find("<0>") == std::string::npos);
    CHECK(html.find("<8>") == std::string::npos);
  }
  const std::string page = grader::student_report_html(r.student, {spec}, results, dir.path);
  CHECK(page.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
  CHECK(page.find("<code>a&lt;b&gt;&amp;&quot;c'.cl</code>") != std::string::npos);
  CHECK(page.find("one work-group of &lt;8&gt;") != std::string::npos);
  CHECK(page.find("hint: look at a &lt; b &amp; c") != std::string::npos);
  CHECK(page.find("03-array-mult-reduce-stale.svg") == std::string::npos);
  CHECK(page.find("holds more than a drawing") != std::string::npos);
  CHECK(page.find("/elsewhere/") == std::string::npos);  // the grading machine's path of a drawing is never shown
}

TEST_CASE("report.html leads with each lab's points and the lines that lost points, and folds each drawing under its lab with its caption above it") {
  test::TempDir dir;
  grader::LabResult r;
  r.student = "ada";
  r.lab = "03-array-mult-reduce";
  r.kernel = "ArrayMultReduce.cl";
  r.status = grader::LabStatus::Graded;
  r.cases = {{"one work-group of 8", true, 1, 1, grader::CaseStatus::Passed, "", ""},
             {"two work-groups of 64", true, 0, 2, grader::CaseStatus::Wrong, "work-group 1: expected 6, got 3", "add every product"},
             {"four work-groups of 64", true, 0, 2, grader::CaseStatus::Wrong, "work-group 2: expected 6, got 3", "add every product"}};
  const std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><line x1=\"0\" y1=\"0\" x2=\"5\" y2=\"5\"/></svg>\n";
  test::write(dir / "03-array-mult-reduce-ArrayMultReduce.svg", svg);
  test::write(dir / "03-array-mult-reduce-ArrayMultReduce-group1.svg", svg);
  r.notes = {"drawing " + (dir / "03-array-mult-reduce-ArrayMultReduce.svg").string() + " (ArrayMultReduce, work-group 0): phase 0: 8 adds",
             "drawing " + (dir / "03-array-mult-reduce-ArrayMultReduce-group1.svg").string() + " (ArrayMultReduce, work-group 1): phase 0: 8 adds",
             "also found old/ArrayMultReduce.cl (not graded; ArrayMultReduce.cl was)"};
  grader::ResultMap results;
  results[{r.student, r.lab}] = r;
  const grader::LabSpec spec = grader::load_spec(kit::root() / "grader/specs/03-array-mult-reduce.json");
  const std::string page = grader::student_report_html(r.student, {spec}, results, dir.path);
  INFO(page);
  // First the points per lab, then the lines that lost points with their hints, then the lab.
  const std::size_t points = page.find("<table class=\"labs\">"), lost = page.find("<h2>Lines that lost points</h2>"),
                    section = page.find("<section id=\"lab-03-array-mult-reduce\">");
  REQUIRE(points != std::string::npos);
  REQUIRE(lost != std::string::npos);
  REQUIRE(section != std::string::npos);
  CHECK(points < lost);
  CHECK(lost < section);
  CHECK(page.find("<td class=\"points\">1 / ", points) < lost);
  const std::size_t wrong = page.find("two work-groups of 64, 0 / 2 (wrong): work-group 1: expected 6, got 3", lost);
  CHECK(wrong < section);
  CHECK(page.find("hint: add every product", lost) < section);
  CHECK(page.find("one work-group of 8", lost) > section);  // a line with its full points is not among them
  // The same hint on the next line is not repeated there.
  const std::size_t four = page.find("four work-groups of 64, 0 / 2 (wrong)", lost);
  CHECK(four < section);
  CHECK(page.find("hint: as for the line above", four) < page.find("</li>", four));
  // Each drawing folded under the lab's lines, its caption (the note, by file name) above it.
  const std::size_t table = page.find("<table>\n<thead><tr><th>line</th>", section);
  REQUIRE(table != std::string::npos);
  std::size_t at = table;
  for (const std::string file : {"03-array-mult-reduce-ArrayMultReduce.svg", "03-array-mult-reduce-ArrayMultReduce-group1.svg"}) {
    CAPTURE(file);
    const std::string group = file.find("group1") == std::string::npos ? "0" : "1";
    const std::size_t details =
        page.find("<details class=\"drawing\">\n<summary>Drawing: ArrayMultReduce, work-group " + group + " (" + file + ")</summary>", at);
    REQUIRE(details != std::string::npos);
    const std::size_t caption = page.find("<figcaption>" + file + " (ArrayMultReduce, work-group ", details);
    const std::size_t drawing = page.find("<svg id=", details);
    CHECK(caption < drawing);
    CHECK(drawing < page.find("</details>", details));
    at = page.find("</details>", details);
  }
  CHECK(page.find(dir.path.string()) == std::string::npos);  // no path of the grading machine
  CHECK(page.find("<li>Note: also found old/ArrayMultReduce.cl") != std::string::npos);
  CHECK(page.find("<li>Note: drawing ") == std::string::npos);  // a drawing's note is its caption

  // Every line full: the list says so.
  grader::LabResult full = r;
  full.cases.resize(1);
  results[{r.student, r.lab}] = full;
  CHECK(grader::student_report_html(r.student, {spec}, results, dir.path).find("<p>None: every line has its full points.</p>") != std::string::npos);
}
