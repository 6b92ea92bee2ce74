#include "oclgrind/work_span.hpp"

#include <nlohmann/json.hpp>

#include <sstream>
#include <vector>
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

long signed_number(const json& j) {
  if (!j.is_number_integer()) throw std::runtime_error("expected an integer, found " + j.dump());
  return j.get<long>();
}

// The access trace's records, when the line has them (drawing runs' lines may not).
void read_access(const json& j, KernelWork& k) {
  if (j.contains("options")) k.options = j.at("options").get<std::string>();
  if (j.contains("address_bits")) k.address_bits = unsigned(record_count(j.at("address_bits")));
  if (j.contains("args"))
    for (const json& a : j.at("args")) k.args.emplace_back(unsigned(record_count(a.at(0))), record_count(a.at(1)));
  if (j.contains("loads"))
    for (const json& l : j.at("loads")) {
      LoadPattern p{int(record_count(l.at("line"))), signed_number(l.at("arg")), record_count(l.at("size")), record_count(l.at("pairs")), {}};
      for (const json& s : l.at("steps")) p.steps.emplace_back(s.at(0).get<long long>(), record_count(s.at(1)));
      k.loads.push_back(std::move(p));
    }
  if (j.contains("order")) {
    k.has_order = true;
    k.order_cut_short = j.value("order_cut_short", false);
    for (const json& g : j.at("order")) {
      GroupOrder o{record_count(g.at(0)), {}};
      for (const json& e : g.at(1)) {
        const std::string kind = e.at(2).get<std::string>();
        if (kind.size() != 1 || std::string("SLAFWR").find(kind[0]) == std::string::npos)
          throw std::runtime_error("unknown access kind " + e.at(2).dump());
        o.events.push_back({record_count(e.at(0)), record_count(e.at(1)), kind[0], signed_number(e.at(3)),
                            int(record_count(e.at(4))), record_count(e.at(5))});
      }
      k.order.push_back(std::move(o));
    }
  }
}
}  // namespace

long KernelWork::arg_at(std::size_t address) const {
  if (address_bits == 0 || address_bits >= 64) return -1;
  for (const auto& [position, buffer] : args)
    if ((address >> address_bits) == buffer) return long(position);
  return -1;
}

bool KernelWork::defines(const std::string& option) const {
  std::istringstream words(options);
  std::vector<std::string> w;
  for (std::string x; words >> x;) w.push_back(x);
  for (std::size_t i = 0; i < w.size(); ++i) {
    std::string name;
    if (w[i] == "-D" && i + 1 < w.size()) name = w[i + 1];
    else if (w[i].rfind("-D", 0) == 0) name = w[i].substr(2);
    if (name.substr(0, name.find('=')) == option) return true;
  }
  return false;
}

PluginLog parse_plugin_log(const std::string& log_text) {
  PluginLog log;
  std::istringstream lines(log_text);
  std::string line;
  for (std::size_t number = 1; std::getline(lines, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      const json j = json::parse(line);
      if (j.contains("message")) {
        log.messages.push_back({j.value("case", std::string()), j.value("launch", std::size_t(0)), j.at("message").get<std::string>()});
        continue;
      }
      KernelWork k;
      k.kernel = j.at("kernel").get<std::string>();
      k.global = record_triple(j.at("global"));
      k.local = record_triple(j.at("local"));
      if (!j.at("groups").is_array()) throw std::runtime_error("\"groups\" is not an array");
      for (const json& g : j.at("groups")) k.groups.push_back(group_work(g));
      read_access(j, k);
      k.step = j.value("case", std::string());
      k.launch = j.value("launch", std::size_t(0));
      k.measured = j.value("measured", true);
      if (j.contains("messages"))
        for (const json& m : j.at("messages")) k.messages.emplace_back(m.at("text").get<std::string>(), record_count(m.at("count")));
      if (j.contains("messages_dropped")) k.messages_dropped = record_count(j.at("messages_dropped"));
      log.launches.push_back(std::move(k));
    } catch (const std::exception& e) {  // json's own errors and the shape checks above
      throw kit::Error("work-span log line " + std::to_string(number) + " is malformed: " + e.what());
    }
  }
  return log;
}

std::vector<KernelWork> parse_work_span(const std::string& log_text) { return parse_plugin_log(log_text).launches; }

}  // namespace grader
