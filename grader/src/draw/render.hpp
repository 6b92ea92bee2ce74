#pragma once
// Pictures written out: SVG for people (a browser shows it; one file may hold two panels side by
// side, the kernel's and the course solution's), TikZ for the slides (TeX draws it natively).
#include <string>
#include <utility>
#include <vector>

#include "draw/picture.hpp"

namespace grader {

// One SVG document with each picture as a panel under its title, left to right.
std::string render_svg(const std::vector<std::pair<std::string, Picture>>& panels);

// A tikzpicture of one picture (no title, no words beside the rows: the slide has its own).
std::string render_tikz(const Picture& p);

// Text made safe for XML.
std::string xml_escape(const std::string& text);

}  // namespace grader
