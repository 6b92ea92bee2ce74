// The TikZ writer for the slides: the same picture as the SVG, drawn by TeX (no converter).
// A column is 3 mm wide and a phase 4.2 mm high: lab 04's folded work-groups (33 columns) fit a
// slide's width at their natural size, where the small type stays readable.
#include <sstream>

#include "draw/render.hpp"

namespace grader {

std::string render_tikz(const Picture& p) {
  std::ostringstream o;
  const std::size_t columns = p.columns.size();
  o << "% Drawn by grader check --draw from the traced work-group of " << p.kernel << "; not to be edited.\n"
    << "\\begin{tikzpicture}[x=3mm,y=-4.2mm,>={Stealth[length=1.2mm]},add/.style={->,draw=blue!70!black,line width=0.4pt},"
    << "busy/.style={->,draw=orange!90!black,line width=0.8pt},race/.style={draw=red,thick,rounded corners=1mm}]\n";
  for (std::size_t c = 0; c < columns; ++c) {
    if (!p.columns[c]) {
      o << "\\node at (" << c << ",0) {\\ldots};\n";
      continue;
    }
    o << "\\node[font=\\fontsize{3.5}{4}\\selectfont,gray] at (" << c << ",-0.5) {" << *p.columns[c] << "};\n"
      << "\\draw[gray] (" << c << ",0) circle (1.4pt);\n";
  }
  for (std::size_t r = 0; r < p.rows.size(); ++r) {
    const PictureRow& row = p.rows[r];
    const std::size_t y = r + 1;
    o << "\\node[anchor=east,font=\\tiny] at (-0.4," << y << ") {phase " << row.phase << "};\n";
    std::vector<bool> written(columns, false);
    for (std::size_t c : row.filled) written[c] = true, o << "\\fill[blue!30] (" << c << "," << y << ") circle (1.6pt);\n";
    for (const PictureOp& op : row.ops) {
      const bool busy = op.item == p.busiest_item;
      const double to = op.to ? double(*op.to) : double(columns) + 0.5;
      for (std::size_t from : op.from)
        o << "\\draw[" << (busy ? "busy" : "add") << "] (" << from << "," << r << ".2) -- (" << to << "," << y - 0.2 << ");\n";
      if (op.from.empty() || op.other_reads)  // from slots not drawn (the input in global memory)
        o << "\\draw[" << (busy ? "busy" : "add") << "] (" << to << "," << r << ".45) -- (" << to << "," << y - 0.2 << ");\n";
      if (op.to) written[*op.to] = true, o << "\\fill[" << (busy ? "orange!90!black" : "blue!70!black") << "] (" << to << "," << y << ") circle (1.6pt);\n";
    }
    for (std::size_t c = 0; c < columns; ++c)
      if (!written[c] && p.columns[c]) o << "\\fill[gray!50] (" << c << "," << y << ") circle (0.6pt);\n";
  }
  for (const PictureMark& m : p.marks) {
    for (std::size_t c : m.columns)
      o << "\\draw[race] (" << c - 0.35 << "," << m.row - 0.3 << ") rectangle (" << c + 0.35 << "," << m.row + 1.3 << ");\n";
    if (m.kind == PictureMark::OutOfBounds) o << "\\node[red] at (" << columns + 0.3 << "," << m.row + 1 << ") {$\\times$};\n";
    if (m.kind == PictureMark::Divergence)
      o << "\\draw[red,dashed,very thick] (-0.5," << m.row + 1.5 << ") -- (" << columns - 0.5 << "," << m.row + 1.5 << ");\n";
  }
  o << "\\end{tikzpicture}\n";
  return o.str();
}

}  // namespace grader
