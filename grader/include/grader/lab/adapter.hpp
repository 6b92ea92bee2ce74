#pragma once
// The LabDriver of every lab, written once: a lab's grading.cpp says only what is its own, in a
// small struct `Lab` that this template adapts:
//   using Case = ...;  read from a case's parameters by the lab's from_json and written back by its
//                      to_json (labs/NN-name/*_json.hpp): a field the to_json does not write is one
//                      the lab does not read, and a case giving it is refused
//   std::string id() const;  std::vector<kit::KernelSignature> kernels() const;  json tolerance() const;
//   void validate(const Case&) const;                          throws kit::Error naming the value
//   json run(const Kernel&, const Case&) const;                the graded outputs of one run
//   json reference(const Case&) const;                         what grader/reference/ stores
//   kit::Verdict check(const Case&, const json& reference, const json& outputs) const;
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "grader/lab/digest.hpp"
#include "kit/errors.hpp"
#include "grader/lab/driver.hpp"

namespace grader {

// The kernel file a case runs: built once already, so PoCL's cache has it.
struct Kernel {
  const kit::Runtime& rt;
  const std::filesystem::path& file;
  const std::string& shown_as;  // the file's name in messages
};

// The SHA-256 of the values' bytes as they come from the device: how a long output is stored and
// compared.
template <class T>
std::string digest(const std::vector<T>& values) {
  return sha256_hex(std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)));
}

template <class Lab>
class LabAdapter : public LabDriver {
 public:
  explicit LabAdapter(Lab lab = {}) : lab_(std::move(lab)) {}

  std::string id() const override { return lab_.id(); }
  std::vector<kit::KernelSignature> kernels() const override { return lab_.kernels(); }
  void validate_case(const json& params) const override { lab_.validate(case_of(params)); }
  json read_case(const json& params) const override { return json(case_of(params)); }
  json tolerance() const override { return lab_.tolerance(); }

  json run_case(const kit::Runtime& rt, const std::filesystem::path& kernel, const std::string& shown_as,
                const json& params) const override {
    return lab_.run(Kernel{rt, kernel, shown_as}, case_of(params));
  }

  json reference(const json& params) const override { return lab_.reference(case_of(params)); }

  // The lab's check implements the policies tolerance() names, which the spec loader takes as the
  // spec's; a policy other than those cannot reach the check.
  kit::Verdict compare(const json& params, const json& policy, const json& reference, const json& outputs) const override {
    if (policy != tolerance())
      throw kit::Error("lab " + id() + "'s check applies " + tolerance().dump() + " (kit/tolerance.hpp), not " + policy.dump());
    return lab_.check(case_of(params), reference, outputs);
  }

 protected:
  // The lab's Case of a case's parameters. Refused, with kit::Error, when the lab's from_json cannot
  // read them (a field missing or of another type) or when they hold a field the lab's to_json does
  // not write back: one the reader does not consume, which would otherwise be dropped unseen.
  static typename Lab::Case case_of(const json& params) {
    typename Lab::Case c{};
    try {
      c = params.get<typename Lab::Case>();
    } catch (const json::exception& e) {
      throw kit::Error(std::string("the lab cannot read the case: ") + e.what());
    }
    const json written = c;
    for (const auto& [key, value] : params.items())
      if (!written.contains(key)) {
        std::string read;
        for (const auto& [field, v] : written.items()) read += (read.empty() ? "" : ", ") + field;
        throw kit::Error(key + ": not a field the lab reads (" + read + ")");
      }
    return c;
  }

  Lab lab_;
};

}  // namespace grader
