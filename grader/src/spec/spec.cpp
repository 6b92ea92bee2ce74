#include "spec/spec.hpp"

#include <algorithm>
#include <set>

#include "core/files.hpp"
#include "kit/errors.hpp"
#include "kit/tolerance.hpp"
#include "grader/lab/driver.hpp"

namespace grader {
namespace {

struct Reader {
  std::string where;  // "grader/specs/x.json: cases[2]"
  const json& node;

  [[noreturn]] void fail(const std::string& field, const std::string& problem) const {
    throw kit::Error(where + (field.empty() ? "" : "." + field) + ": " + problem);
  }
  const json& need(const std::string& field) const {
    if (!node.contains(field)) fail(field, "missing");
    return node.at(field);
  }
  std::string text(const std::string& field) const {
    const json& v = need(field);
    if (!v.is_string() || v.get<std::string>().empty()) fail(field, "must be a non-empty string");
    return v.get<std::string>();
  }
  double number(const std::string& field, double fallback, bool required = false) const {
    if (!node.contains(field)) {
      if (required) fail(field, "missing");
      return fallback;
    }
    const json& v = node.at(field);
    if (!v.is_number() || v.get<double>() <= 0) fail(field, "must be a positive number, not " + v.dump());
    return v.get<double>();
  }
  // A kernel argument's position: 0, 1, ...
  long position(const std::string& field) const {
    const json& v = need(field);
    if (!v.is_number_unsigned()) fail(field, "must be an argument position (0 for the first), not " + v.dump());
    return v.get<long>();
  }
};

}  // namespace

double LabSpec::max_points(bool visible_only, bool with_safety) const {
  double total = 0;
  for (const CaseSpec& c : cases)
    if (c.visible || !visible_only) total += c.points;
  if (speed && (speed->visible || !visible_only)) total += speed->points;
  if (safety && with_safety && (safety->visible || !visible_only))
    for (const auto& check : safety->checks) total += check.second;
  if (algorithm && with_safety && (algorithm->visible || !visible_only))
    for (const AlgorithmCheck& check : algorithm->checks) total += check.points;
  return total;
}

namespace {
// Throws kit::Error (from the case fields or the lab) unless `params` is a usable case of `spec`'s
// lab; a list of values (the safety case only) is checked value by value.
void validate_case(const LabSpec& spec, const LabDriver& driver, const json& params, bool safety) {
  check_case(spec.case_fields, params, "lab " + spec.lab.substr(0, 2), safety);
  for (const json& one : expand_variants(params)) driver.validate_case(one);
}

// Throws kit::Error unless every policy the lab's check applies (`applied`, its adapter's
// tolerance()) is named from the kit's one table.
void check_tolerance_names(const json& applied) {
  const auto name = [](const json& v) {
    if (!v.is_string()) throw kit::Error("a policy is named by a string, not " + v.dump());
    kit::tolerance_policy(v.get<std::string>());  // throws listing the table
  };
  if (applied.is_object())
    for (const auto& [kind, policy] : applied.items()) name(policy);
  else
    name(applied);
}

SafetySpec load_safety(const std::string& where, const json& node, const LabSpec& spec, const LabDriver& driver) {
  const Reader r{where + ": safety", node};
  if (!node.is_object()) r.fail("", "must be a JSON object");
  SafetySpec s;
  if (node.contains("case") == node.contains("cases")) r.fail("", "give one run as \"case\" or several as \"cases\", not both or neither");
  if (node.contains("case")) s.runs.push_back(node["case"]);
  else if (!node["cases"].is_array() || node["cases"].empty()) r.fail("cases", "must be a non-empty array of cases");
  else s.runs = node["cases"].get<std::vector<json>>();
  for (std::size_t i = 0; i < s.runs.size(); ++i) {
    const std::string field = node.contains("case") ? "case" : "cases[" + std::to_string(i) + "]";
    try {
      validate_case(spec, driver, s.runs[i], true);
    } catch (const kit::Error& e) {
      r.fail(field, e.what());
    }
  }
  s.time_limit_s = r.number("time_limit_s", 60);
  s.memory_limit_mb = std::size_t(r.number("memory_limit_mb", 2048));
  const std::string visibility = r.text("visibility");
  if (visibility != "visible" && visibility != "hidden") r.fail("visibility", "must be \"visible\" or \"hidden\"");
  s.visible = visibility == "visible";
  const json& checks = r.need("checks");
  if (!checks.is_object() || checks.empty()) r.fail("checks", "must be an object of kind: points");
  for (const std::string& kind : kSafetyKinds)
    if (checks.contains(kind)) s.checks.emplace_back(kind, Reader{where + ": safety.checks", checks}.number(kind, 0, true));
  for (const auto& [kind, points] : checks.items())
    if (std::find(kSafetyKinds.begin(), kSafetyKinds.end(), kind) == kSafetyKinds.end())
      r.fail("checks." + kind, "not a kind of finding (data-race, barrier-divergence, invalid-access, uninitialized)");
  if (node.contains("allow")) {
    if (!node["allow"].is_array()) r.fail("allow", "must be an array");
    for (std::size_t i = 0; i < node["allow"].size(); ++i) {
      const json& entry = node["allow"][i];
      const Reader a{where + ": safety.allow[" + std::to_string(i) + "]", entry};
      if (entry.contains("source_contains"))
        a.fail("source_contains", "a finding is allowed by what happened (kernel, argument, accesses), never by the text of a line");
      AllowedFinding f;
      f.kind = a.text("kind");
      f.why = a.text("why");
      if (entry.contains("kernel")) f.kernel = a.text("kernel");
      if (entry.contains("argument")) f.argument = a.position("argument");
      if (entry.contains("accesses")) {
        f.accesses = a.text("accesses");
        if (f.accesses != "read-write" && f.accesses != "write-write") a.fail("accesses", "must be \"read-write\" or \"write-write\"");
      }
      f.other_side_atomic = entry.value("other_side_atomic", false);
      if (entry.contains("read_after_atomic_on")) f.read_after_atomic_on = a.position("read_after_atomic_on");
      if (entry.contains("in_call")) {
        if (!entry["in_call"].is_array() || entry["in_call"].empty()) a.fail("in_call", "must be a non-empty array of builtin names");
        for (const json& n : entry["in_call"]) f.in_call.push_back(n.get<std::string>());
      }
      if (f.kernel.empty() && f.argument < 0 && f.in_call.empty())
        a.fail("", "allows too much: name the kernel, the buffer argument or the builtin call the finding must have");
      s.allow.push_back(f);
    }
  }
  return s;
}
AlgorithmSpec load_algorithm(const std::string& where, const json& node, const LabSpec& spec) {
  const Reader r{where + ": algorithm", node};
  if (!node.is_object()) r.fail("", "must be a JSON object");
  if (!spec.safety) r.fail("", "needs a safety case: the algorithm is measured in the safety run");
  AlgorithmSpec a;
  const std::string visibility = r.text("visibility");
  if (visibility != "visible" && visibility != "hidden") r.fail("visibility", "must be \"visible\" or \"hidden\"");
  a.visible = visibility == "visible";
  const json& checks = r.need("checks");
  if (!checks.is_array() || checks.empty()) r.fail("checks", "must be a non-empty array");
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const Reader c{where + ": algorithm.checks[" + std::to_string(i) + "]", checks[i]};
    if (!checks[i].is_object()) c.fail("", "must be a JSON object");
    AlgorithmCheck k;
    k.kernel = c.text("kernel");
    k.points = c.number("points", 0, true);
    k.expect = c.text("expect");
    k.ops = c.text("ops");
    if (checks[i].contains("span_at_most")) {  // absent: the span is measured and reported, not bounded
      const json& span = checks[i]["span_at_most"];
      const Reader sr{where + ": algorithm.checks[" + std::to_string(i) + "].span_at_most", span};
      if (!span.is_object()) c.fail("span_at_most", "must be {\"log2_local\": a, \"plus\": b}");
      const auto at_least_zero = [&](const std::string& field) {
        if (!span.contains(field) || !span[field].is_number() || span[field].get<double>() < 0) sr.fail(field, "must be a number >= 0");
        return span[field].get<double>();
      };
      k.span_bounded = true;
      k.span_log2 = at_least_zero("log2_local");
      k.span_plus = at_least_zero("plus");
    }
    if (checks[i].contains("hint")) k.hint = c.text("hint");
    k.busiest_share = c.number("busiest_share_at_most", 1);
    if (k.busiest_share > 1) c.fail("busiest_share_at_most", "must be at most 1");
    if (checks[i].contains("fences")) {
      const std::string at = where + ": algorithm.checks[" + std::to_string(i) + "].fences";
      const json& fences = checks[i]["fences"];
      if (!fences.is_object()) c.fail("fences", "must be {\"store\": {\"argument\": n, \"called\": word}, \"ticket\": {...}}");
      const auto role = [&](const char* name) {
        const Reader rr{at + "." + name, Reader{at, fences}.need(name)};
        return FenceRole{rr.position("argument"), rr.text("called")};
      };
      k.fences = FenceCheck{role("store"), role("ticket")};
    }
    if (checks[i].contains("access")) {
      const json& access = checks[i]["access"];
      const Reader ar{where + ": algorithm.checks[" + std::to_string(i) + "].access", access};
      if (!access.is_object() || !access.contains("arguments") || !access["arguments"].is_array() || access["arguments"].empty())
        c.fail("access", "must be {\"arguments\": [positions], \"step_at_most\": bytes, \"unless_defined\": option}");
      AccessCheck x;
      for (const json& p : access["arguments"]) {
        if (!p.is_number_unsigned()) ar.fail("arguments", "must be argument positions (0, 1, ...)");
        x.arguments.push_back(p.get<long>());
      }
      x.step_at_most = (long long)ar.number("step_at_most", 1, true);
      if (access.contains("unless_defined")) x.unless_defined = ar.text("unless_defined");
      k.access = x;
    }
    if (!k.fences && !k.access && !k.span_bounded && k.busiest_share >= 1)
      c.fail("", "checks nothing: give span_at_most, busiest_share_at_most below 1, or both (or fences, or access)");
    if (checks[i].contains("unit")) {
      k.unit = checks[i]["unit"];
      if (!k.unit.is_object()) c.fail("unit", "must be an object of case fields, e.g. {\"rung\": 3}");
      bool matched = false;
      for (const CaseSpec& cs : spec.cases) {
        bool all = true;
        for (const auto& [key, value] : k.unit.items()) all &= cs.params.contains(key) && cs.params.at(key) == value;
        matched |= all;
      }
      if (!matched) c.fail("unit", k.unit.dump() + " matches no case");
    }
    a.checks.push_back(k);
  }
  return a;
}

// The tolerance policy is stated once, by the lab's code: its check applies it, and its adapter's
// tolerance() names it. A spec that states one too is refused, so that the two cannot differ.
json load_tolerance(const Reader& top, const LabSpec& spec, const LabDriver& driver) {
  const json tolerance = driver.tolerance();
  if (top.node.contains("tolerance"))
    top.fail("tolerance", "a spec does not state the tolerance: lab " + spec.lab.substr(0, 2) + "'s check applies " +
                              tolerance.dump() + " (its adapter's tolerance(), labs/" + spec.lab + "/grading.cpp); remove the field");
  try {
    check_tolerance_names(tolerance);
  } catch (const kit::Error& e) {
    throw kit::Error(spec.file.string() + ": lab " + spec.lab.substr(0, 2) + "'s tolerance() (labs/" + spec.lab + "/grading.cpp): " + e.what());
  }
  return tolerance;
}

// The spec's graded cases, each checked against the case fields and the lab's own rules.
std::vector<CaseSpec> load_cases(const Reader& top, const LabSpec& spec, const LabDriver& driver, double default_time) {
  const json& cases = top.need("cases");
  if (!cases.is_array() || cases.empty()) top.fail("cases", "must be a non-empty array");
  std::vector<CaseSpec> loaded;
  std::set<std::string> names;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Reader r{spec.file.string() + ": cases[" + std::to_string(i) + "]", cases[i]};
    if (!cases[i].is_object()) r.fail("", "must be a JSON object");
    CaseSpec c;
    c.name = r.text("name");
    if (!names.insert(c.name).second) r.fail("name", "'" + c.name + "' is used by an earlier case");
    c.points = r.number("points", 0, true);
    const std::string visibility = r.text("visibility");
    if (visibility != "visible" && visibility != "hidden")
      r.fail("visibility", "must be \"visible\" or \"hidden\", not \"" + visibility + "\"");
    c.visible = visibility == "visible";
    c.time_limit_s = r.number("time_limit_s", default_time);
    c.params = cases[i];
    for (const char* key : {"name", "points", "visibility", "time_limit_s"}) c.params.erase(key);
    try {
      validate_case(spec, driver, c.params, false);
    } catch (const kit::Error& e) {
      r.fail("", e.what());
    }
    loaded.push_back(c);
  }
  return loaded;
}

// The speed case (lab 06): the kernel timed against the stored solution.
SpeedSpec load_speed(const Reader& r, const LabSpec& spec, const LabDriver& driver) {
  SpeedSpec s;
  s.params = r.need("case");
  try {
    validate_case(spec, driver, s.params, false);
  } catch (const kit::Error& e) {
    r.fail("case", e.what());
  }
  s.points = r.number("points", 0, true);
  s.full_at = r.number("full_at", 0.8);
  s.pairs = int(r.number("pairs", 15));
  s.time_limit_s = r.number("time_limit_s", 60);
  const std::string visibility = r.text("visibility");
  if (visibility != "visible" && visibility != "hidden") r.fail("visibility", "must be \"visible\" or \"hidden\"");
  s.visible = visibility == "visible";
  s.slow_hint = r.text("slow_hint");
  if (r.node.contains("estimate")) {
    const Reader e{r.where + ".estimate", r.node.at("estimate")};
    SpeedEstimate est{e.number("solution", 0, true), e.number("low", 0, true), e.number("high", 0, true),
                      int(e.number("runs", 0, true)), e.text("measured")};
    if (!(est.low <= est.solution && est.solution <= est.high))
      e.fail("solution", "must lie between low and high (" + std::to_string(est.low) + " .. " + std::to_string(est.high) + ")");
    s.estimate = est;
  }
  return s;
}

}  // namespace

LabSpec load_spec(const std::filesystem::path& file) {
  const std::string bytes = read_file(file);
  json doc;
  try {
    doc = json::parse(bytes);
  } catch (const json::parse_error& e) {
    throw kit::Error(file.string() + ": not valid JSON: " + e.what());
  }
  const Reader top{file.string(), doc};
  if (!doc.is_object()) top.fail("", "must be a JSON object");
  LabSpec spec;
  spec.file = file;
  spec.sha256 = sha256_hex(bytes);
  spec.lab = top.text("lab");
  spec.title = top.text("title");
  spec.kernel_file = top.text("kernel_file");
  spec.compare = top.text("compare");
  spec.points_policy = top.text("points_policy");
  if (std::find(kPointsPolicies.begin(), kPointsPolicies.end(), spec.points_policy) == kPointsPolicies.end())
    top.fail("points_policy", "must be \"earned-with-correctness\", not \"" + spec.points_policy + "\"");
  spec.build_time_limit_s = top.number("build_time_limit_s", 60);
  spec.memory_limit_mb = std::size_t(top.number("memory_limit_mb", 1024));
  const double default_time = top.number("time_limit_s", 10);
  spec.late_penalty_per_day = top.number("late_penalty_per_day", 0);
  if (spec.late_penalty_per_day > 1) top.fail("late_penalty_per_day", "is a fraction of the lab's points per day: at most 1");
  if (doc.contains("device_disagrees_share")) {
    const json& v = doc["device_disagrees_share"];
    if (!v.is_number() || v.get<double>() < 0 || v.get<double>() > 1)
      top.fail("device_disagrees_share", "is the share of a case's points that a case the device got wrong and Oclgrind computed right earns: a number from 0 to 1, not " + v.dump());
    spec.device_disagrees_share = v.get<double>();
  }
  if (spec.kernel_file.find('/') != std::string::npos) top.fail("kernel_file", "must be a file name without folders");

  const LabDriver& driver = lab_driver(spec.lab);  // throws naming the known labs
  spec.case_fields = load_case_fields(file.string(), top.need("case_fields"));
  spec.tolerance = load_tolerance(top, spec, driver);
  spec.cases = load_cases(top, spec, driver, default_time);
  if (doc.contains("safety")) spec.safety = load_safety(file.string(), doc["safety"], spec, driver);
  if (doc.contains("algorithm")) spec.algorithm = load_algorithm(file.string(), doc["algorithm"], spec);
  if (doc.contains("speed")) spec.speed = load_speed(Reader{file.string() + ": speed", doc["speed"]}, spec, driver);
  return spec;
}

std::vector<LabSpec> load_specs(const std::filesystem::path& dir, const std::vector<std::string>& only) {
  std::vector<std::filesystem::path> files;
  if (std::filesystem::is_directory(dir))
    for (const auto& entry : std::filesystem::directory_iterator(dir))
      if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<LabSpec> specs;
  std::set<std::string> matched;
  for (const auto& file : files) {
    const std::string lab = file.stem().string();
    bool wanted = only.empty();
    for (const std::string& name : only)
      if (lab == name || lab.rfind(name + "-", 0) == 0) {
        wanted = true;
        matched.insert(name);
      }
    if (!wanted) continue;
    LabSpec spec = load_spec(file);
    if (spec.lab != lab) throw kit::Error(file.string() + ": lab: \"" + spec.lab + "\" differs from the file name");
    specs.push_back(std::move(spec));
  }
  for (const std::string& name : only)
    if (!matched.count(name)) throw kit::Error("no grading spec for lab '" + name + "' in " + dir.string());
  if (specs.empty()) throw kit::Error("no grading specs in " + dir.string());
  return specs;
}

}  // namespace grader
