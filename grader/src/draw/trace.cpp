#include "draw/trace.hpp"

#include <nlohmann/json.hpp>

#include <sstream>
#include <stdexcept>

#include "kit/errors.hpp"

namespace grader {
namespace {

using json = nlohmann::json;

std::size_t count(const json& j) {
  if (!j.is_number_unsigned()) throw std::runtime_error("expected a count, found " + j.dump());
  return j.get<std::size_t>();
}

std::array<std::size_t, 3> triple(const json& j) {
  if (!j.is_array() || j.size() != 3) throw std::runtime_error("expected [x,y,z], found " + j.dump());
  return {count(j[0]), count(j[1]), count(j[2])};
}

char space(const json& j) {
  const std::string s = j.get<std::string>();
  if (s != "g" && s != "l" && s != "c") throw std::runtime_error("unknown memory \"" + s + "\"");
  return s[0];
}

// [phase, item, ops, "space", address, bytes, [["space", address], ...], more]
TraceEvent event(const json& e) {
  if (!e.is_array() || e.size() != 8) throw std::runtime_error("an event is not [phase, item, ops, space, address, bytes, reads, more]");
  TraceEvent t{count(e[0]), count(e[1]), count(e[2]), {space(e[3]), count(e[4])}, count(e[5]), {}, count(e[7])};
  for (const json& r : e[6]) {
    if (!r.is_array() || r.size() != 2) throw std::runtime_error("a slot read is not [space, address]");
    t.reads.push_back({space(r[0]), count(r[1])});
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
      LaunchTrace t{j.at("kernel").get<std::string>(), triple(j.at("global")), triple(j.at("local")), triple(j.at("group")),
                    count(j.at("items")),           count(j.at("phases")),   j.at("truncated").get<bool>(), {}, {}};
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
