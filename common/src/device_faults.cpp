#include "kit/device_faults.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>

#include "kit/device.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"

namespace kit {
namespace {

const json& field(const json& entry, const std::string& where, const char* name) {
  if (!entry.is_object() || !entry.contains(name)) throw Error(where + ": no \"" + name + "\"");
  return entry.at(name);
}

std::string text(const json& entry, const std::string& where, const char* name) {
  const json& v = field(entry, where, name);
  if (!v.is_string() || v.get<std::string>().empty()) throw Error(where + ": \"" + name + "\" must be a non-empty string");
  return v.get<std::string>();
}

std::vector<std::string> versions(const json& entry, const std::string& where, const char* name) {
  const json& v = field(entry, where, name);
  if (!v.is_array()) throw Error(where + ": \"" + name + "\" must be a list of versions such as \"3.1\"");
  std::vector<std::string> all;
  for (const json& one : v) {
    if (!one.is_string() || pocl_version(one.get<std::string>()) != one.get<std::string>())
      throw Error(where + ": \"" + name + "\" holds " + one.dump() + ", not a version such as \"3.1\"");
    all.push_back(one.get<std::string>());
  }
  return all;
}

FaultKernel fault_kernel(const json& entry, const std::string& where) {
  FaultKernel k;
  k.file = text(entry, where, "file");
  for (const auto& [name, value] : {std::pair{"global", &k.global}, std::pair{"local", &k.local}}) {
    const json& v = field(entry, where, name);
    if (!v.is_number_integer() || v.get<long long>() <= 0) throw Error(where + ": \"" + name + "\" must be a positive whole number");
    *value = v.get<std::size_t>();
  }
  if (k.global % k.local != 0) throw Error(where + ": \"global\" must be a multiple of \"local\"");
  const json& e = field(entry, where, "expected");
  if (!e.is_number_integer() || e.get<long long>() < 0) throw Error(where + ": \"expected\" must be a whole number");
  k.expected = e.get<unsigned>();
  return k;
}

}  // namespace

std::vector<DeviceFault> device_faults_from_json(const json& table) {
  const json& all = field(table, "the table of known device faults", "faults");
  if (!all.is_array()) throw Error("the table of known device faults: \"faults\" must be a list");
  std::vector<DeviceFault> faults;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const json& entry = all[i];
    std::string where = "fault " + std::to_string(i);
    DeviceFault f;
    f.id = text(entry, where, "id");
    where = "fault \"" + f.id + "\"";
    f.platform = text(entry, where, "platform");
    if (f.platform != "PoCL") throw Error(where + ": \"platform\" is \"" + f.platform + "\"; only \"PoCL\" is known");
    f.description = text(entry, where, "description");
    f.rewrite = text(entry, where, "rewrite");
    f.faulty = versions(entry, where, "faulty");
    f.right = versions(entry, where, "right");
    f.not_measured = versions(entry, where, "not_measured");
    std::vector<std::string> every = f.faulty;
    every.insert(every.end(), f.right.begin(), f.right.end());
    every.insert(every.end(), f.not_measured.begin(), f.not_measured.end());
    std::sort(every.begin(), every.end());
    if (const auto twice = std::adjacent_find(every.begin(), every.end()); twice != every.end())
      throw Error(where + ": version " + *twice + " is listed twice among \"faulty\", \"right\" and \"not_measured\"");
    const json& reproducers = field(entry, where, "reproducers");
    if (!reproducers.is_array() || reproducers.empty()) throw Error(where + ": \"reproducers\" must be a non-empty list");
    for (std::size_t r = 0; r < reproducers.size(); ++r)
      f.reproducers.push_back(fault_kernel(reproducers[r], where + ", reproducer " + std::to_string(r)));
    f.rewritten = fault_kernel(field(entry, where, "rewritten"), where + ", \"rewritten\"");
    faults.push_back(std::move(f));
  }
  return faults;
}

std::filesystem::path device_faults_file() { return root() / "common" / "data" / "known_device_faults.json"; }

std::vector<DeviceFault> known_device_faults() {
  const std::filesystem::path file = device_faults_file();
  std::ifstream in(file);
  if (!in) throw Error("cannot read " + file.string());
  try {
    return device_faults_from_json(json::parse(in));
  } catch (const json::exception& e) {
    throw Error(file.string() + ": not valid JSON: " + e.what());
  } catch (const Error& e) {
    throw Error(file.string() + ": " + e.what());
  }
}

std::string pocl_version(const std::string& driver_version) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t from = i;
    while (i < driver_version.size() && std::isdigit(static_cast<unsigned char>(driver_version[i]))) ++i;
    return i > from;
  };
  if (!digits() || i >= driver_version.size() || driver_version[i] != '.') return "";
  ++i;
  if (!digits()) return "";
  return driver_version.substr(0, i);
}

std::vector<std::string> device_fault_notes(const std::vector<DeviceFault>& faults, const std::string& platform_name,
                                            const std::string& driver_version) {
  std::vector<std::string> notes;
  if (!is_pocl(platform_name)) return notes;
  const std::string version = pocl_version(driver_version);
  for (const DeviceFault& f : faults)
    if (std::find(f.faulty.begin(), f.faulty.end(), version) != f.faulty.end())
      notes.push_back("PoCL " + version + " has a known compiler fault (" + f.id + "): " + f.description + "; rewrite: " + f.rewrite);
  return notes;
}

std::vector<std::string> device_fault_notes_for_summary(const std::vector<DeviceFault>& faults, const std::string& summary) {
  const std::size_t on = summary.rfind(" on ");
  const std::size_t driver = summary.rfind(", driver ");
  if (on == std::string::npos || driver == std::string::npos || driver < on) return {};
  const std::size_t open = summary.find(" (", on + 4);
  if (open == std::string::npos) return {};
  return device_fault_notes(faults, summary.substr(on + 4, open - (on + 4)), summary.substr(driver + 9));
}

}  // namespace kit
