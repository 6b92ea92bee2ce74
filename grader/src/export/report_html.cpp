#include "export/report_html.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

#include "core/files.hpp"
#include "draw/render.hpp"

namespace grader {

std::string html_text(const std::string& text) {
  std::string out;
  for (char ch : xml_escape(text)) out += ch == '\n' ? std::string("<br>\n") : std::string(1, ch);
  return out;
}

namespace {

// `lab` as a part of an id: letters, digits, '-' and '_' kept, anything else '-'.
std::string id_of(std::string lab) {
  for (char& ch : lab)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '_') ch = '-';
  return lab;
}

// Whether the attributes of a tag (the text after its name) are name="value" pairs, none of them
// one that runs or fetches anything (on*, *href, style).
bool plain_attributes(const std::string& rest) {
  std::size_t at = 0;
  while (true) {
    at = rest.find_first_not_of(" \t\r\n", at);
    if (at == std::string::npos || rest.compare(at, std::string::npos, "/") == 0) return true;
    const std::size_t eq = rest.find('=', at);
    if (eq == std::string::npos || eq + 1 >= rest.size() || rest[eq + 1] != '"') return false;
    std::string name = rest.substr(at, eq - at);
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (name.find_first_of(" \t\r\n\"'") != std::string::npos || name.rfind("on", 0) == 0 || name.find("href") != std::string::npos ||
        name == "style")
      return false;
    const std::size_t close = rest.find('"', eq + 2);
    if (close == std::string::npos) return false;
    at = close + 1;
  }
}

// Whether `svg` is one <svg> element whose every tag is one the grader's SVG writer makes, with
// plain attributes: the file is read back from a folder, where anything may have replaced it.
bool only_drawing(const std::string& svg) {
  static const std::set<std::string> elements = {"svg", "defs", "marker", "path", "rect", "line", "circle", "text"};
  if (svg.rfind("<svg ", 0) != 0 || svg.size() < 6 || svg.compare(svg.size() - 6, 6, "</svg>") != 0) return false;
  for (std::size_t at = svg.find('<'); at != std::string::npos; at = svg.find('<', at + 1)) {
    const std::size_t end = svg.find('>', at);
    if (end == std::string::npos) return false;
    const bool closing = svg[at + 1] == '/';
    const std::string tag = svg.substr(at + 1 + closing, end - at - 1 - closing);
    const std::size_t name_end = std::min(tag.find_first_of(" \t\r\n/"), tag.size());
    if (!elements.count(tag.substr(0, name_end)) || !plain_attributes(tag.substr(name_end))) return false;
  }
  return true;
}

// `svg` with its id, and the ids inside it (and their url(#...) uses) prefixed with it.
std::string with_id(std::string svg, const std::string& id) {
  for (const auto& [from, to] : {std::pair<std::string, std::string>{" id=\"", " id=\"" + id + "-"}, {"url(#", "url(#" + id + "-"}})
    for (std::size_t at = svg.find(from); at != std::string::npos; at = svg.find(from, at + to.size())) svg.replace(at, from.size(), to);
  return svg.insert(4, " id=\"" + id + "\"");
}

// A drawing note: "drawing <path>.svg (<kernel>, ...): ..."; npos when `note` is none.
std::size_t drawing_path_end(const std::string& note) {
  const std::size_t end = note.find(".svg (");
  return note.rfind("drawing ", 0) == 0 && end != std::string::npos ? end + 4 : std::string::npos;
}

bool is_drawing_note(const std::string& note) { return drawing_path_end(note) != std::string::npos; }

// Each drawing folded under its lab's lines, its caption (the note) in the summary and above it.
// The summary is grey: a drawing's own colours (draw/svg.cpp) appear nowhere else on the page.
void drawings_html(std::ostream& o, const LabResult& r, const std::filesystem::path& folder) {
  for (const InlineDrawing& d : inline_drawings(r, folder)) {
    if (d.svg.empty()) {
      o << "<p class=\"note\">Drawing " << xml_escape(d.caption) << " not shown: " << xml_escape(d.why_not) << "</p>\n";
      continue;
    }
    // draw_lab puts the course solution's panel to the right of the kernel's: past a narrow page's edge.
    const bool beside = d.svg.find(">the course solution (") != std::string::npos;
    // The summary: what is drawn, "(<kernel>, work-group ...)" of the caption, and the file.
    const std::size_t open = d.caption.find(" ("), close = d.caption.find(')', open);
    const std::string what = open == std::string::npos || close == std::string::npos ? "" : d.caption.substr(open + 2, close - open - 2);
    o << "<details class=\"drawing\">\n<summary>Drawing" << (what.empty() ? "" : ": " + xml_escape(what)) << " (" << xml_escape(d.file)
      << ")</summary>\n<figure>\n<figcaption>"
      << xml_escape(d.caption)
      << (beside ? "<br>\nThe kernel, and to its right the course solution's drawing (scroll sideways where the page is narrower)." : "")
      << "</figcaption>\n" << d.svg << "</figure>\n</details>\n";
  }
}

// The lines that lost points, each with its message and hint: what a student reads first.
void lost_points_html(std::ostream& o, const std::vector<LabSpec>& specs, const ResultMap& results, const std::string& student) {
  std::ostringstream items;
  for (const LabSpec& s : specs) {
    std::string last_hint;  // a hint the line above gave is not repeated
    const auto it = results.find({student, s.lab});
    if (it == results.end()) continue;
    const LabResult& r = it->second;
    if (r.status != LabStatus::Graded)
      items << "<li>" << xml_escape(s.lab) << ": <strong>" << xml_escape(word(r.status))
            << "</strong>: " << html_text(r.message) << "</li>\n";
    for (const CaseResult& c : r.cases) {
      if (c.points >= c.max_points) continue;
      items << "<li>" << xml_escape(s.lab) << ": " << xml_escape(c.name)
            << (c.visible ? "" : " <em>(hidden)</em>") << ", " << format_points(c.points) << " / " << format_points(c.max_points) << " ("
            << xml_escape(word(c.status)) << ")";
      if (!c.message.empty()) items << ": " << html_text(c.message);
      if (!c.hint.empty())
        items << "<br>\n<span class=\"hint\">hint: " << (c.hint == last_hint ? std::string("as for the line above") : html_text(c.hint)) << "</span>";
      last_hint = c.hint;
      items << "</li>\n";
    }
  }
  const std::string all = items.str();
  o << "<h2>Lines that lost points</h2>\n";
  if (all.empty()) o << "<p>None: every line has its full points.</p>\n";
  else o << "<ul class=\"lost\">\n" << all << "</ul>\n";
}

void lines_html(std::ostream& o, const LabResult& r) {
  o << "<table>\n<thead><tr><th>line</th><th>result</th><th>points</th><th>details</th></tr></thead>\n<tbody>\n";
  for (const CaseResult& c : r.cases) {
    std::string label = check_label(c);
    std::transform(label.begin(), label.end(), label.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
    o << "<tr class=\"" << label << "\"><td>" << xml_escape(c.name) << (c.visible ? "" : " <em>(hidden)</em>") << "</td><td><span class=\"label\">"
      << check_label(c) << "</span> " << xml_escape(word(c.status)) << "</td><td class=\"points\">" << format_points(c.points) << " / "
      << format_points(c.max_points) << "</td><td>" << html_text(c.message);
    if (!c.hint.empty()) o << (c.message.empty() ? "" : "<br>\n") << "<span class=\"hint\">hint: " << html_text(c.hint) << "</span>";
    o << "</td></tr>\n";
  }
  o << "</tbody>\n</table>\n";
}

// One lab as report.md has it: its notes, with `lines` the table of its lines, then its drawings
// (from `folder`, none when empty).
void lab_html(std::ostream& o, const LabResult& r, const std::filesystem::path& folder, bool lines) {
  if (!r.kernel.empty()) o << "<p>Kernel file: <code>" << xml_escape(r.kernel) << "</code></p>\n";
  if (const std::string kinds = points_by_kind(r); !kinds.empty()) o << "<p>Points: " << xml_escape(kinds) << "</p>\n";
  if (const std::string late = late_penalty_line(r); !late.empty()) o << "<p>" << xml_escape(late) << "</p>\n";
  if (r.status != LabStatus::Graded) o << "<p><strong>" << xml_escape(word(r.status)) << "</strong>:</p>\n<pre>" << xml_escape(r.message) << "</pre>\n";
  std::ostringstream notes;  // a drawing's note is its caption, not repeated here
  for (const std::string& note : r.notes)
    if (!is_drawing_note(note) || folder.empty()) notes << "<li>Note: " << html_text(drawing_note_as_shown(note)) << "</li>\n";
  if (!notes.str().empty()) o << "<ul class=\"notes\">\n" << notes.str() << "</ul>\n";
  if (lines) lines_html(o, r);
  if (!folder.empty()) drawings_html(o, r, folder);
}

// The page's look: text in a column of 72em; a drawing as wide as the window allows, scrolled
// sideways beyond it (a kernel's panel and the course solution's side by side are wider than the text).
const char* const kStyle =
    "body{font-family:sans-serif;margin:1.5em;max-width:72em;color:#222;line-height:1.4}\n"
    "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}\n"
    "table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}\n"
    "td.points{white-space:nowrap}.label{font-weight:bold;padding:0 .3em;border-radius:3px}\n"
    ".pass .label{background:#d8f0d8;color:#1b5e20}.part .label{background:#fff3cd;color:#664d03}\n"
    ".fail .label{background:#f8d7da;color:#842029}.skip .label{background:#e2e3e5;color:#41464b}\n"
    ".hint{color:#555;font-size:.92em}pre{background:#f6f6f6;padding:.5em;overflow-x:auto}ul.notes{padding-left:1.2em}\n"
    "figure{margin:1em 0;width:max-content;max-width:calc(100vw - 3em);overflow-x:auto}figcaption{color:#555;font-size:.9em;margin-bottom:.5em}\n"
    "details.drawing{margin:.5em 0}details.drawing summary{cursor:pointer;color:#333;text-decoration:underline}ul.lost li{margin-bottom:.4em}\n";

}  // namespace

std::string drawing_note_as_shown(const std::string& note) {
  const std::size_t end = drawing_path_end(note);
  if (end == std::string::npos) return note;
  return "drawing " + std::filesystem::path(note.substr(8, end - 8)).filename().string() + note.substr(end);
}

std::vector<InlineDrawing> inline_drawings(const LabResult& r, const std::filesystem::path& folder) {
  std::vector<InlineDrawing> out;
  for (const std::string& note : r.notes) {
    const std::size_t end = drawing_path_end(note);
    if (end == std::string::npos) continue;
    InlineDrawing d;
    d.file = std::filesystem::path(note.substr(8, end - 8)).filename().string();
    d.caption = drawing_note_as_shown(note).substr(8);
    const std::filesystem::path file = folder / d.file;
    if (!std::filesystem::is_regular_file(file)) {
      d.why_not = "no file " + d.file + " beside the report";
    } else {
      std::string svg = read_file(file);
      while (!svg.empty() && (svg.back() == '\n' || svg.back() == '\r' || svg.back() == ' ')) svg.pop_back();
      if (only_drawing(svg)) d.svg = with_id(svg, "drawing-" + id_of(r.lab) + "-" + std::to_string(out.size() + 1)) + "\n";
      else d.why_not = d.file + " holds more than a drawing of the grader's";
    }
    out.push_back(d);
  }
  return out;
}

std::string student_report_html(const std::string& student, const std::vector<LabSpec>& specs, const ResultMap& results,
                                 const std::filesystem::path& folder) {
  const std::string head = xml_escape(student_headline(student, specs, results));
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" << head << "</title>\n<style>\n"
    << kStyle << "</style>\n</head>\n<body>\n<h1>" << head << "</h1>\n";
  // First what a student reads first: the points of each lab, then the lines that lost points.
  o << "<table class=\"labs\">\n<thead><tr><th>lab</th><th>points</th></tr></thead>\n<tbody>\n";
  for (const LabSpec& s : specs) {
    const auto it = results.find({student, s.lab});
    o << "<tr><td>" << xml_escape(s.lab + " — " + s.title) << "</td><td class=\"points\">"
      << (it == results.end() ? std::string("not graded")
                              : format_points(it->second.points()) + " / " + format_points(it->second.max_points()) +
                                    (it->second.status == LabStatus::Graded ? "" : " (" + word(it->second.status) + ")"))
      << "</td></tr>\n";
  }
  o << "</tbody>\n</table>\n";
  lost_points_html(o, specs, results, student);
  for (const LabSpec& s : specs) {
    const auto it = results.find({student, s.lab});
    o << "<section id=\"lab-" << id_of(s.lab) << "\">\n<h2>" << xml_escape(s.lab + " — " + s.title) << ": ";
    if (it == results.end()) {
      o << "not graded</h2>\n</section>\n";
      continue;
    }
    const LabResult& r = it->second;
    o << format_points(r.points()) << " / " << format_points(r.max_points()) << "</h2>\n";
    lab_html(o, r, folder, true);
    o << "</section>\n";
  }
  o << "</body>\n</html>\n";
  return o.str();
}

std::string gradescope_output_html(const std::vector<LabResult>& results, const std::string& before,
                                   const std::filesystem::path& drawings) {
  std::ostringstream o;
  if (!before.empty()) o << "<p>" << html_text(before) << "</p>\n";
  for (const LabResult& r : results) {
    o << "<h3>" << xml_escape(r.lab) << ": " << format_points(r.points()) << " / " << format_points(r.max_points()) << "</h3>\n";
    lab_html(o, r, drawings, false);
  }
  return o.str();
}

}  // namespace grader
