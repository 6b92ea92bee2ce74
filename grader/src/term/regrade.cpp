#include "term/regrade.hpp"

#include <algorithm>
#include <ctime>

#include "kit/errors.hpp"

namespace grader {
namespace {

std::string now_text() {
  const std::time_t t = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
  return text;
}

}  // namespace

ResultMap take_out_regraded(ResultMap& results, const std::vector<std::string>& regrade, const std::vector<std::string>& students,
                            const std::vector<LabSpec>& specs, const std::filesystem::path& folder) {
  ResultMap earlier;
  for (const std::string& name : regrade) {
    if (std::find(students.begin(), students.end(), name) == students.end())
      throw kit::Error("--regrade: no submission in " + folder.string() + " for '" + name + "'");
    for (const LabSpec& spec : specs)
      if (const auto it = results.find({name, spec.lab}); it != results.end()) {
        earlier[it->first] = it->second;
        results.erase(it);
      }
  }
  return earlier;
}

void add_regrade_history(const LabResult& earlier, const std::string& reason, LabResult& r) {
  for (const std::string& n : earlier.notes)
    if (n.rfind("regraded ", 0) == 0) r.notes.push_back(n);  // the history goes on
  r.notes.push_back("regraded " + now_text() + (reason.empty() ? "" : " (" + reason + ")") + ": " + format_points(earlier.points()) +
                    " -> " + format_points(r.points()) + " points");
}

}  // namespace grader
