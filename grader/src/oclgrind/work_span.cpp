#include "oclgrind/work_span.hpp"

#include <nlohmann/json.hpp>

#include <sstream>
#include <stdexcept>

#include "kit/errors.hpp"

namespace grader {

using json = nlohmann::json;

namespace {
// A count: a non-negative integer (json's get<std::size_t> would wrap a negative one).
std::size_t count(const json& j) {
  if (!j.is_number_unsigned()) throw std::runtime_error("expected a count, found " + j.dump());
  return j.get<std::size_t>();
}

// [x,y,z] of three counts.
std::array<std::size_t, 3> triple(const json& j) {
  if (!j.is_array() || j.size() != 3) throw std::runtime_error("expected [x,y,z], found " + j.dump());
  return {count(j[0]), count(j[1]), count(j[2])};
}

// One group's record: every field must be there.
GroupWork group_work(const json& g) {
  return {triple(g.at("group")), count(g.at("items")),        count(g.at("work")),       count(g.at("span")),
          count(g.at("phases")), count(g.at("busiest_item")), count(g.at("busiest_ops"))};
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
      KernelWork k{j.at("kernel").get<std::string>(), triple(j.at("global")), triple(j.at("local")), {}};
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
