#include "oclgrind/work_span.hpp"

#include <nlohmann/json.hpp>

#include <sstream>
#include <stdexcept>

#include "kit/errors.hpp"
#include "oclgrind/plugin_record.hpp"

namespace grader {

using json = nlohmann::json;

namespace {
// One group's record: every field must be there.
GroupWork group_work(const json& g) {
  return {record_triple(g.at("group")), record_count(g.at("items")),        record_count(g.at("work")),       record_count(g.at("span")),
          record_count(g.at("phases")), record_count(g.at("busiest_item")), record_count(g.at("busiest_ops"))};
}
}  // namespace

std::vector<KernelWork> parse_work_span(const std::string& log_text) {
  std::vector<KernelWork> kernels;
  std::istringstream lines(log_text);
  std::string line;
  for (std::size_t number = 1; std::getline(lines, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      const json j = json::parse(line);
      KernelWork k{j.at("kernel").get<std::string>(), record_triple(j.at("global")), record_triple(j.at("local")), {}};
      if (!j.at("groups").is_array()) throw std::runtime_error("\"groups\" is not an array");
      for (const json& g : j.at("groups")) k.groups.push_back(group_work(g));
      kernels.push_back(std::move(k));
    } catch (const std::exception& e) {  // json's own errors and the shape checks above
      throw kit::Error("work-span log line " + std::to_string(number) + " is malformed: " + e.what());
    }
  }
  return kernels;
}

}  // namespace grader
