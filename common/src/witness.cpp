#include "kit/witness.hpp"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "kit/device_faults.hpp"
#include "kit/errors.hpp"
#include "kit/evidence_hint.hpp"
#include "kit/oclgrind_report.hpp"
#include "kit/kernel_code.hpp"
#include "kit/starters.hpp"

namespace kit {
namespace {

// $KIT_OCLGRIND, else /usr/bin or /usr/local/bin: the grader's choice too (grader/src/oclgrind/checks.hpp).
std::string oclgrind_path() {
  if (const char* set = std::getenv("KIT_OCLGRIND"); set && *set) return set;
  for (const char* dir : {"/usr/bin", "/usr/local/bin"})
    if (std::filesystem::exists(std::filesystem::path(dir) / "oclgrind")) return std::string(dir) + "/oclgrind";
  return "";
}

std::string quoted(const std::string& a) {
  if (!a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,/:+") == std::string::npos)
    return a;
  std::string q = "'";
  for (const char ch : a) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

std::string slurp(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The arguments of this run less the options named in `drop` (each with its value, in any of the
// forms CLI11 takes: "-n 5", "-n5", "--elements 5", "--elements=5").
std::vector<std::string> without(int argc, char** argv, const std::vector<std::pair<std::string, std::string>>& drop) {
  std::vector<std::string> kept;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    bool dropped = false;
    for (const auto& [short_name, long_name] : drop) {
      if (a == short_name || a == long_name) {
        ++i;  // its value
        dropped = true;
      } else if ((!long_name.empty() && a.rfind(long_name + "=", 0) == 0) ||
                 (short_name.size() == 2 && a.size() > 2 && a.rfind(short_name, 0) == 0 && a[1] != '-')) {
        dropped = true;
      }
      if (dropped) break;
    }
    if (!dropped) kept.push_back(a);
  }
  return kept;
}


}  // namespace

std::string known_device_fault_rewrite(const std::string& source, const std::string& device) {
  // The code each fault of the table is known by (common/data/known_device_faults.json): for
  // barrier-loop-size-bound, a loop whose condition calls a size builtin (a while's condition read
  // up to its body, so that a cast in it, `while (s < (int)get_local_size(0))`, is seen).
  static const std::regex size_bound(R"(\b(for\s*\([^;]*;[^;]*|while\s*\([^;{]*)\bget_(local_size|global_size|num_groups)\s*\()");
  if (!std::regex_search(code_without_comments(source), size_bound)) return "";
  std::vector<DeviceFault> faults;
  try {
    for (DeviceFault& f : known_device_faults())
      if (f.id == "barrier-loop-size-bound") faults.push_back(std::move(f));
  } catch (const Error&) {
    return "";  // no table: no fault to name
  }
  const std::vector<std::string> notes = device_fault_notes_for_summary(faults, device);
  return notes.empty() ? "" : notes.front();
}

std::string witness_oclgrind_checks(const WitnessPlan& plan) {
  std::string checks;
  for (const char* check : {"--data-races", "--uniform-writes", "--uninitialized"}) {
    bool blind = false;
    for (const WitnessBlindSpot& b : plan.blind) blind = blind || b.check == check;
    if (!blind) checks += std::string(checks.empty() ? "" : " ") + check;
  }
  return checks + " --build-options -O0";
}

int witness_failed_check(int argc, char** argv, const WitnessPlan& plan, const std::vector<std::size_t>& values,
                         const std::string& kernel_file, const std::string& device, int status) {
  if (values.size() != plan.sizes.size())
    throw Error("witness: " + std::to_string(values.size()) + " values for the plan's " + std::to_string(plan.sizes.size()) + " size options");
  const char* preload = std::getenv("LD_PRELOAD");
  if (std::getenv("KIT_WITNESS_RUN") || (preload && std::string(preload).find("oclgrind") != std::string::npos)) return status;
  const std::string oclgrind = oclgrind_path();
  if (oclgrind.empty()) return status;
  // The starter as handed out computes nothing yet: a witness would only say so, after seconds to minutes.
  if (std::filesystem::exists(kernel_file) && is_handed_out_starter(slurp(kernel_file))) {
    std::printf("No witness under Oclgrind: %s is the lab's starter as handed out; fill in its TODOs, then --check again.\n",
                kernel_file.c_str());
    return status;
  }

  std::vector<std::pair<std::string, std::string>> drop = {{"-p", "--platform"}, {"-d", "--device"}, {"", "--warmup"}, {"", "--repeats"}};
  std::string capped;  // the caps applied, in words
  std::vector<std::string> added = {"--warmup", "0", "--repeats", "1"};
  for (std::size_t k = 0; k < plan.sizes.size(); ++k) {
    const WitnessSize& c = plan.sizes[k];
    if (values[k] <= c.at_most) continue;
    drop.push_back({c.short_name, c.long_name});
    added.insert(added.end(), {c.long_name, std::to_string(c.at_most)});
    capped += (capped.empty() ? "" : ", ") + c.long_name + " " + std::to_string(c.at_most);
  }
  std::vector<std::string> args = without(argc, argv, drop);
  args.insert(args.end(), added.begin(), added.end());
  // The same smaller check on the device (the device choice kept).
  std::vector<std::string> on_device = without(argc, argv, std::vector<std::pair<std::string, std::string>>(drop.begin() + 2, drop.end()));
  on_device.insert(on_device.end(), added.begin(), added.end());

  std::string checks = witness_oclgrind_checks(plan) + " --max-wgsize 4096";
  // The kit's plugin beside the program reports an integer division by zero, which Oclgrind
  // itself computes as 0 in silence, and its record of each launch is the proof that the run
  // happened on Oclgrind's device: an oclgrind whose runtime library is not loaded runs the
  // program on the ordinary platform, in silence.
  std::error_code no_exe;
  const std::filesystem::path plugin = std::filesystem::read_symlink("/proc/self/exe", no_exe).parent_path() / "libkit-work-span.so";
  if (no_exe || !std::filesystem::exists(plugin)) {
    std::printf("No witness under Oclgrind: the kit's Oclgrind plugin %s is missing, and without it nothing would show that "
                "Oclgrind ran the check; build the kit (make build).\n",
                plugin.c_str());
    return status;
  }
  checks += " --plugins " + quoted(plugin.string());
  char folder_template[] = "/tmp/kit-witness-XXXXXX";
  const char* made = mkdtemp(folder_template);
  if (!made) return status;
  const std::filesystem::path folder = made, log = folder / "oclgrind.log", out = folder / "output.txt", record = folder / "plugin.jsonl";
  std::string command = "KIT_WITNESS_RUN=1 KIT_DIVISIONS_ONLY=1 KIT_WORK_SPAN_LOG=" + quoted(record.string()) + " timeout 300 " +
                        quoted(oclgrind) + " " + checks + " --log " + quoted(log.string()) + " " + quoted(argv[0]);
  std::string shown = "oclgrind " + witness_oclgrind_checks(plan) + " " + quoted(argv[0]);
  std::string blind;  // what Oclgrind cannot see in this lab, said after every outcome
  bool clears = true;  // whether a right result with no finding under Oclgrind clears the kernel
  for (const WitnessBlindSpot& b : plan.blind) {
    if (b.check.empty()) clears = false, blind += "  Oclgrind cannot tell in this lab: " + b.why + ".\n";
    else blind += "  (Oclgrind's " + b.check + " is left out in this lab: " + b.why + ")\n";
  }
  const auto say_blind = [&] { std::printf("%s", blind.c_str()); };
  for (const std::string& a : args) command += " " + quoted(a), shown += " " + quoted(a);
  command += " > " + quoted(out.string()) + " 2>&1";
  std::printf("Witness: running the same check under Oclgrind, an independent OpenCL implementation%s ...\n",
              capped.empty() ? "" : (" (smaller, to take seconds: " + capped + ")").c_str());
  std::fflush(stdout);
  const int raw = std::system(command.c_str());
  const int code = raw != -1 && WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  const std::string findings = std::filesystem::exists(log) ? slurp(log) : "";
  const std::string output = std::filesystem::exists(out) ? slurp(out) : "";
  const bool recorded = std::filesystem::exists(record) && slurp(record).find("\"kernel\"") != std::string::npos;
  std::error_code ignored;
  std::filesystem::remove_all(folder, ignored);
  if (!recorded && code != 124) {  // fail closed: no verdict from a run that did not happen on Oclgrind
    const std::size_t preload = output.find("cannot be preloaded");
    std::printf("  no witness: nothing shows that Oclgrind ran the check (the kit's plugin recorded no launch%s); run "
                "grader doctor, which says what to fix\n",
                preload == std::string::npos ? "" : ": Oclgrind's runtime library was not loaded");
    return status;
  }
  std::string source;
  if (std::filesystem::exists(kernel_file)) source = slurp(kernel_file);
  const std::string shown_as = std::filesystem::path(kernel_file).filename().string();
  const std::vector<OclgrindFinding> found = parse_oclgrind(findings);
  const bool clean = found.empty();
  if (code == 124) {
    std::printf("  it ran past 300 s under Oclgrind, so it shows nothing; to run it yourself:\n  %s\n", shown.c_str());
    say_blind();
    return status;
  }
  if (code != 0 || !clean) {
    std::string failed;
    static const std::regex check_line(R"((CHECK FAILED[^\n]*))");
    std::smatch m;
    if (std::regex_search(output, m, check_line)) failed = m[1].str();
    if (code != 0) std::printf("  under Oclgrind too, the check fails%s\n", failed.empty() ? "" : (": " + failed).c_str());
    else std::printf("  under Oclgrind the result is right, but Oclgrind found a fault in the kernel:\n");
    // The words `grader check` gives the same finding (kit/evidence_hint.hpp): the fault, its line, what it shows.
    if (!clean) std::printf("  hint: %s\n", hint_with_evidence("", found, "the same check", source, shown_as).c_str());
    std::printf("  so the kernel is at fault, not the device. To run it yourself:\n  %s\n", shown.c_str());
    say_blind();
    return status;
  }
  const std::string rewrite = known_device_fault_rewrite(source, device);
  if (!capped.empty()) {
    // The witness ran a smaller check: the device runs that one too, and only where it gets it
    // wrong as well do the device and Oclgrind disagree on the same check.
    std::string device_command = "KIT_WITNESS_RUN=1 timeout 300 " + quoted(argv[0]);
    for (const std::string& a : on_device) device_command += " " + quoted(a);
    device_command += " > /dev/null 2>&1";
    const int device_raw = std::system(device_command.c_str());
    const int device_code = device_raw != -1 && WIFEXITED(device_raw) ? WEXITSTATUS(device_raw) : -1;
    if (device_code != 1) {
      std::printf("  under Oclgrind the smaller check passes and Oclgrind found nothing, and the device passes it too: the "
                  "kernel goes wrong on the device only at your size, which Oclgrind cannot run in seconds. `grader check` runs "
                  "each failing case itself under Oclgrind and says whether the device or the kernel is at fault.\n");
      if (!rewrite.empty()) std::printf("  hint: %s.\n", rewrite.c_str());
      say_blind();
      return status;
    }
  }
  if (!capped.empty()) std::printf("  the device gets the smaller check wrong too.\n");
  if (!clears) {
    std::printf("  under Oclgrind the %s check computed the right result and Oclgrind found nothing, which does not clear the "
                "kernel here.\n", capped.empty() ? "same" : "smaller");
    if (!rewrite.empty()) std::printf("  hint: %s.\n", rewrite.c_str());
    say_blind();
    return status;
  }
  // What Oclgrind looked for: invalid accesses and barrier divergence always, the rest as the plan has them.
  const std::string run_checks = witness_oclgrind_checks(plan);
  std::vector<std::string> looked_for = {"invalid access"};
  if (run_checks.find("--data-races") != std::string::npos) looked_for.push_back("data race");
  looked_for.push_back("barrier divergence");
  if (run_checks.find("--uninitialized") != std::string::npos) looked_for.push_back("uninitialized value");
  std::string found_none;
  for (std::size_t k = 0; k < looked_for.size(); ++k)
    found_none += (k == 0 ? "" : k + 1 == looked_for.size() ? " or " : ", ") + looked_for[k];
  std::printf("DEVICE: the check fails on the device, but under Oclgrind the %s check computed the right result and Oclgrind "
              "found no %s: the device got it wrong, not your "
              "kernel (the grader gives such a case its points, as device-disagrees).\n",
              capped.empty() ? "same" : "smaller", found_none.c_str());
  if (!rewrite.empty()) std::printf("  hint: %s.\n", rewrite.c_str());
  say_blind();
  return 0;
}

}  // namespace kit
