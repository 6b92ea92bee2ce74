#include "isolation/devices.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <sstream>

#include "kit/errors.hpp"

namespace grader {

std::vector<kit::DeviceOptions> parse_devices(const std::string& list) {
  std::vector<kit::DeviceOptions> devices;
  std::stringstream items(list);
  for (std::string item; std::getline(items, item, ',');) {
    const std::size_t colon = item.find(':');
    kit::DeviceOptions d;
    d.platform = item.substr(0, colon);
    if (colon != std::string::npos) d.device = item.substr(colon + 1);
    if (d.platform.empty() || (colon != std::string::npos && d.device.empty()))
      throw kit::Error("--devices: '" + item + "' is not PLATFORM or PLATFORM:DEVICE (e.g. pocl,nvidia or 0:0,1:0)");
    devices.push_back(d);
  }
  if (devices.empty()) throw kit::Error("--devices: no device named in '" + list + "'");
  return devices;
}

std::string short_device_name(const std::string& summary) {
  const std::size_t on = summary.find(" on ");
  return on == std::string::npos ? summary : summary.substr(0, on);
}

bool is_cpu_device(const kit::DeviceOptions& d) {
  static std::mutex lock;
  static std::map<std::pair<std::string, std::string>, bool> known;
  std::lock_guard<std::mutex> hold(lock);
  const auto key = std::make_pair(d.platform, d.device);
  if (!known.count(key)) {
    const std::vector<kit::PlatformNames> machine = kit::describe_machine();
    const kit::Choice c = kit::choose_device(machine, d);
    known[key] = machine[c.platform].is_cpu[c.device];
  }
  return known[key];
}

std::vector<std::string> device_args(const kit::DeviceOptions& device) {
  std::vector<std::string> args;
  if (!device.platform.empty()) args.insert(args.end(), {"--platform", device.platform});
  if (!device.device.empty()) args.insert(args.end(), {"--device", device.device});
  return args;
}

namespace {

bool ran(const CaseResult& c) { return !not_run_on_device(c); }

// The case as graded on several devices.
CaseResult combine_case(const std::vector<const CaseResult*>& on, const std::vector<std::string>& names) {
  CaseResult c = *on[0];
  std::vector<std::size_t> counted;
  for (std::size_t d = 0; d < on.size(); ++d)
    if (ran(*on[d])) counted.push_back(d);
  if (counted.empty()) return c;  // no device could run it
  c = *on[counted[0]];
  for (std::size_t d : counted) {
    c.points = std::min(c.points, on[d]->points);
    c.max_points = std::max(c.max_points, on[d]->max_points);
    c.seconds = std::max(c.seconds, on[d]->seconds);
  }
  const bool agree = std::all_of(counted.begin(), counted.end(), [&](std::size_t d) {
    return on[d]->status == c.status && on[d]->message == c.message;
  });
  if (agree && counted.size() == on.size()) return c;
  std::string message, right, wrong, hint;
  for (std::size_t d = 0; d < on.size(); ++d) {
    const CaseResult& x = *on[d];
    message += (message.empty() ? "" : "; ") + std::string("on ") + names[d] + ": " + word(x.status) + (x.message.empty() ? "" : ", " + x.message);
    if (!ran(x)) continue;
    if (x.status == CaseStatus::Passed) right += (right.empty() ? "" : " and ") + names[d];
    else {
      wrong += (wrong.empty() ? "" : " and ") + names[d];
      if (hint.empty()) hint = x.hint, c.status = x.status;
    }
  }
  c.message = message;
  if (!right.empty() && !wrong.empty())
    c.hint = "right on " + right + ", wrong on " + wrong +
             ": a kernel that is right on one device and wrong on another almost always has a race (a missing barrier, "
             "a non-atomic update) or reads past an array, which one device's order of execution hides; the "
             "memory-safety checks (Oclgrind) name the line" + (hint.empty() ? "" : ". " + hint);
  else c.hint = hint;
  return c;
}

}  // namespace

LabResult combine_devices(const std::vector<LabResult>& per_device) {
  if (per_device.size() == 1) return per_device[0];
  std::vector<std::string> names;
  for (const LabResult& r : per_device) names.push_back(short_device_name(r.device));
  for (std::size_t d = 0; d < per_device.size(); ++d)
    if (per_device[d].status != LabStatus::Graded) {  // not built on one device: nothing runs there
      LabResult r = per_device[d];
      r.message = "on " + (names[d].empty() ? "device " + std::to_string(d + 1) : names[d]) + ": " + r.message;
      return r;
    }
  LabResult r = per_device[0];
  std::string all;
  for (const std::string& n : names) all += (all.empty() ? "" : " and ") + n;
  r.device = all;
  for (std::size_t i = 0; i < r.cases.size(); ++i) {
    std::vector<const CaseResult*> on;
    for (const LabResult& other : per_device) {
      const auto it = std::find_if(other.cases.begin(), other.cases.end(), [&](const CaseResult& c) { return c.name == r.cases[i].name; });
      if (it != other.cases.end()) on.push_back(&*it);
    }
    if (on.size() == per_device.size()) r.cases[i] = combine_case(on, names);
  }
  return r;
}

}  // namespace grader
