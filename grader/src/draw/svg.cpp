// The SVG writer: plain text, no library. Coordinates in pixels.
#include <algorithm>
#include <sstream>

#include "draw/render.hpp"

namespace grader {
namespace {

constexpr int kColumn = 28, kRow = 56, kLeft = 70, kTop = 56, kChar = 6;
const char* const kAdd = "#1f77b4";
const char* const kBusiest = "#e6550d";
const char* const kFill = "#9ecae1";
const char* const kRed = "#d62728";

struct Panel {
  const Picture& p;
  int x0 = 0;  // left edge
  int x(std::size_t column) const { return x0 + kLeft + int(column) * kColumn + kColumn / 2; }
  int y(std::size_t row_plus_one) const { return kTop + int(row_plus_one) * kRow; }  // 0: the slots before phase 0
  int right() const { return x0 + kLeft + int(p.columns.size()) * kColumn; }
  int width() const {
    std::size_t text = 0;
    for (const std::string& line : picture_facts(p)) text = std::max(text, line.size());
    return kLeft + int(p.columns.size()) * kColumn + 40 + int(std::min<std::size_t>(text, 150)) * kChar;
  }
  int height() const { return y(p.rows.size()) + 40 + 16 * int(p.marks.size() + 5); }
};

void text(std::ostream& o, int x, int y, const std::string& s, int size = 11, const char* fill = "#222", const char* anchor = "start") {
  o << "<text x=\"" << x << "\" y=\"" << y << "\" font-size=\"" << size << "\" fill=\"" << fill << "\" text-anchor=\"" << anchor
    << "\">" << xml_escape(s) << "</text>\n";
}

void arrow(std::ostream& o, int x1, int y1, int x2, int y2, const char* colour, double width) {
  o << "<line x1=\"" << x1 << "\" y1=\"" << y1 << "\" x2=\"" << x2 << "\" y2=\"" << y2 << "\" stroke=\"" << colour
    << "\" stroke-width=\"" << width << "\" marker-end=\"url(#head" << (colour == kBusiest ? "b" : "a") << ")\"/>\n";
}

void node(std::ostream& o, int x, int y, int r, const char* fill, const char* stroke = "none") {
  o << "<circle cx=\"" << x << "\" cy=\"" << y << "\" r=\"" << r << "\" fill=\"" << fill << "\" stroke=\"" << stroke << "\"/>\n";
}

// The slot numbers and the slots as they were before the first phase.
void header(std::ostream& o, const Panel& d, const std::string& title) {
  text(o, d.x0 + 8, 18, title, 13);
  text(o, d.x0 + 8, 34, d.p.kernel + ": " + std::to_string(d.p.items) + " work-items, one column per slot of " + d.p.memory, 10, "#555");
  for (std::size_t c = 0; c < d.p.columns.size(); ++c) {
    if (!d.p.columns[c]) {
      text(o, d.x(c), d.y(0) + 4, "…", 14, "#555", "middle");
      continue;
    }
    text(o, d.x(c), d.y(0) - 10, std::to_string(*d.p.columns[c]), 8, "#555", "middle");
    node(o, d.x(c), d.y(0), 4, "#fff", "#777");
  }
}

void row(std::ostream& o, const Panel& d, std::size_t r, const std::string& facts) {
  const PictureRow& row = d.p.rows[r];
  const int y = d.y(r + 1), up = d.y(r);
  text(o, d.x0 + 8, y + 4, "phase " + std::to_string(row.phase), 11);
  std::vector<bool> written(d.p.columns.size(), false), labelled(d.p.columns.size(), false);
  for (std::size_t c : row.filled) written[c] = true, node(o, d.x(c), y, 5, kFill);
  for (const PictureOp& op : row.ops) {
    const bool busiest = op.item == d.p.busiest_item;
    const char* colour = busiest ? kBusiest : kAdd;
    const int to_x = op.to ? d.x(*op.to) : d.right() + 14;
    for (std::size_t from : op.from) arrow(o, d.x(from), up + 6, to_x, y - 7, colour, busiest ? 2 : 1.2);
    if (op.from.empty() || op.other_reads) arrow(o, to_x, up + kRow / 3, to_x, y - 7, colour, 1);  // from inputs not drawn
    if (op.to) written[*op.to] = true, node(o, to_x, y, 5, colour);
    else text(o, to_x, y + 4, "→ out", 9, colour);
    const std::size_t at = op.to ? *op.to : d.p.columns.size();
    if (op.to && !labelled[at] && row.ops.size() <= d.p.columns.size())
      labelled[at] = true, text(o, to_x + 6, y + 13, "w" + std::to_string(op.item), 8, colour);
  }
  for (std::size_t c = 0; c < d.p.columns.size(); ++c)
    if (!written[c] && d.p.columns[c]) node(o, d.x(c), y, 2, "#bbb");
  text(o, d.right() + 30, y + 4, facts.substr(facts.find(':') + 2), 10, "#333");
}

void marks(std::ostream& o, const Panel& d) {
  for (const PictureMark& m : d.p.marks) {
    const int y = d.y(m.row + 1), up = d.y(m.row);
    if (m.kind == PictureMark::Race)
      for (std::size_t c : m.columns)
        o << "<rect x=\"" << d.x(c) - 9 << "\" y=\"" << up - 9 << "\" width=\"18\" height=\"" << (y - up) + 18
          << "\" rx=\"8\" fill=\"none\" stroke=\"" << kRed << "\" stroke-width=\"2\"/>\n",
            node(o, d.x(c), up, 3, kRed), node(o, d.x(c), y, 3, kRed);
    if (m.kind == PictureMark::OutOfBounds) text(o, d.right() + 8, y + 5, "✕", 14, kRed, "middle");
    if (m.kind == PictureMark::Divergence)
      o << "<line x1=\"" << d.x0 + kLeft << "\" y1=\"" << y + kRow / 2 << "\" x2=\"" << d.right() << "\" y2=\"" << y + kRow / 2
        << "\" stroke=\"" << kRed << "\" stroke-dasharray=\"6 4\" stroke-width=\"2\"/>\n";
  }
}

void legend(std::ostream& o, const Panel& d, const std::vector<std::string>& facts) {
  int y = d.y(d.p.rows.size()) + 36;
  const auto line = [&](const std::string& s, const char* colour = "#333") { text(o, d.x0 + 8, y, s, 10, colour), y += 16; };
  line("arrow: one of the " + d.p.ops_word + ", from each slot read into the slot written (wN: the work-item)");
  line("short arrow: from a slot not drawn (folded, or the input); light dot: stored with no operation; grey dot: unchanged");
  line("orange: the busiest work-item, " + std::to_string(d.p.busiest_item) + "; " + facts[d.p.rows.size()], kBusiest);
  for (std::size_t i = d.p.rows.size() + 1; i < facts.size(); ++i) line(facts[i], i <= d.p.rows.size() + d.p.marks.size() ? kRed : "#333");
}

}  // namespace

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char ch : s) out += ch == '<' ? "&lt;" : ch == '>' ? "&gt;" : ch == '&' ? "&amp;" : ch == '"' ? "&quot;" : std::string(1, ch);
  return out;
}

std::string render_svg(const std::vector<std::pair<std::string, Picture>>& panels) {
  std::ostringstream body;
  int x0 = 0, height = 0;
  for (const auto& [title, picture] : panels) {
    const Panel d{picture, x0};
    const std::vector<std::string> facts = picture_facts(picture);
    header(body, d, title);
    for (std::size_t r = 0; r < picture.rows.size(); ++r) row(body, d, r, facts[r]);
    marks(body, d);
    legend(body, d, facts);
    x0 += d.width() + 30;
    height = std::max(height, d.height());
  }
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << x0 << "\" height=\"" << height << "\" viewBox=\"0 0 " << x0 << " "
    << height << "\" font-family=\"DejaVu Sans, Helvetica, sans-serif\">\n<defs>\n";
  for (const auto& [id, colour] : {std::pair{"a", kAdd}, std::pair{"b", kBusiest}})
    o << "<marker id=\"head" << id << "\" markerWidth=\"8\" markerHeight=\"8\" refX=\"7\" refY=\"4\" orient=\"auto\" "
      << "markerUnits=\"userSpaceOnUse\">"
      << "<path d=\"M0,0 L8,4 L0,8 z\" fill=\"" << colour << "\"/></marker>\n";
  o << "</defs>\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n" << body.str() << "</svg>\n";
  return o.str();
}

}  // namespace grader
