#include "term/roster.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include "core/files.hpp"
#include "export/gradebook.hpp"
#include "kit/errors.hpp"

namespace grader {

std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') fields.back() += '"', ++i;
      else if (c == '"') quoted = false;
      else fields.back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  if (quoted) throw kit::Error("a quoted field is not closed");
  return fields;
}

std::vector<RosterEntry> load_roster(const std::filesystem::path& file) {
  if (!std::filesystem::is_regular_file(file)) throw kit::Error("roster " + file.string() + " does not exist");
  std::istringstream lines(read_file(file));
  std::vector<RosterEntry> roster;
  std::set<std::string> seen;
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (number == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);  // a spreadsheet's byte order mark
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::vector<std::string> f;
    try {
      f = csv_fields(line);
    } catch (const kit::Error& e) {
      throw kit::Error(file.string() + ":" + std::to_string(number) + ": " + e.what());
    }
    if (number == 1) continue;  // the header
    if (f.size() != 4 || f[0].empty())
      throw kit::Error(file.string() + ":" + std::to_string(number) + ": expected 4 fields (submission, name, student id, email) with a submission name, got " +
                       std::to_string(f.size()) + ": " + line);
    if (!seen.insert(f[0]).second)
      throw kit::Error(file.string() + ":" + std::to_string(number) + ": submission '" + f[0] + "' is on the roster twice");
    roster.push_back({f[0], f[1], f[2], f[3]});
  }
  if (roster.empty()) throw kit::Error("roster " + file.string() + " has no student below its header row");
  return roster;
}

std::string write_lms_import(const std::filesystem::path& out, const std::vector<RosterEntry>& roster,
                             const std::vector<std::string>& submitted, const std::vector<LabSpec>& specs,
                             const ResultMap& results, const std::map<std::string, std::string>& canvas_ids) {
  std::string table = "Student,ID,SIS User ID,SIS Login ID,Section";
  std::string possible = "Points Possible,,,,";
  for (const LabSpec& spec : specs) {
    const double max = spec.max_points(false, true);
    table += "," + csv_field(column_name(spec));
    possible += "," + format_points(max);
  }
  table += "\n" + possible + "\n";
  std::string check;
  for (const RosterEntry& e : roster) {
    const bool handed_in = std::find(submitted.begin(), submitted.end(), e.student) != submitted.end();
    const auto canvas_id = canvas_ids.find(e.student);
    table += csv_field(e.name) + "," + (canvas_id == canvas_ids.end() ? "" : csv_field(canvas_id->second)) + "," + csv_field(e.id) + "," +
             csv_field(e.email) + ",";
    for (const LabSpec& spec : specs) {
      const auto it = results.find({e.student, spec.lab});
      table += "," + format_points(it == results.end() ? 0 : it->second.points());
    }
    table += "\n";
    if (!handed_in) check += "no submission: " + e.student + " (" + e.name + "): 0 points in every lab\n";
  }
  const auto graded = [&](const std::string& s) {
    return std::any_of(specs.begin(), specs.end(), [&](const LabSpec& spec) { return results.count({s, spec.lab}) > 0; });
  };
  for (const std::string& s : submitted)
    if (std::none_of(roster.begin(), roster.end(), [&](const RosterEntry& e) { return e.student == s; }))
      check += "not on the roster: " + s + " (" + (graded(s) ? "graded" : "not graded yet") + ", in gradebook.csv, not in lms-import.csv)\n";
  write_file_atomically(out / "lms-import.csv", table);
  write_file_atomically(out / "roster-check.txt", check.empty() ? "every roster student submitted, every submission is on the roster\n" : check);
  return check;
}

}  // namespace grader
