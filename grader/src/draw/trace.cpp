#include "draw/trace.hpp"

#include <nlohmann/json.hpp>

#include <sstream>
#include <stdexcept>

#include "kit/errors.hpp"
#include "oclgrind/plugin_record.hpp"

namespace grader {
namespace {

using json = nlohmann::json;

char space(const json& j) {
  const std::string s = j.get<std::string>();
  if (s != "g" && s != "l" && s != "c") throw std::runtime_error("unknown memory \"" + s + "\"");
  return s[0];
}

// [phase, item, ops, "space", address, bytes, [["space", address], ...], more]
TraceEvent event(const json& e) {
  if (!e.is_array() || e.size() != 8) throw std::runtime_error("an event is not [phase, item, ops, space, address, bytes, reads, more]");
  TraceEvent t{record_count(e[0]), record_count(e[1]), record_count(e[2]), {space(e[3]), record_count(e[4])}, record_count(e[5]), {}, record_count(e[7])};
  for (const json& r : e[6]) {
    if (!r.is_array() || r.size() != 2) throw std::runtime_error("a slot read is not [space, address]");
    t.reads.push_back({space(r[0]), record_count(r[1])});
  }
  return t;
}

}  // namespace

std::vector<LaunchTrace> parse_draw_trace(const std::string& text) {
  std::vector<LaunchTrace> launches;
  std::istringstream lines(text);
  std::string line;
  for (std::size_t number = 1; std::getline(lines, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      const json j = json::parse(line);
      LaunchTrace t{j.at("kernel").get<std::string>(), record_triple(j.at("global")), record_triple(j.at("local")), record_triple(j.at("group")),
                    record_count(j.at("items")),           record_count(j.at("phases")),   j.at("truncated").get<bool>(), {}, {}};
      for (const json& g : j.at("signatures")) t.signatures.push_back(g.get<std::uint64_t>());
      for (const json& e : j.at("events")) t.events.push_back(event(e));
      launches.push_back(std::move(t));
    } catch (const std::exception& e) {
      throw kit::Error("drawing trace line " + std::to_string(number) + " is malformed: " + e.what());
    }
  }
  return launches;
}

}  // namespace grader
