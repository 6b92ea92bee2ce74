#include "kit/tolerance.hpp"

#include "kit/errors.hpp"

namespace kit {

const std::vector<TolerancePolicy>& tolerance_policies() {
  static const std::vector<TolerancePolicy> all = {
      {"exact", "equal, bit for bit: integers, min and max, and results the host computes with the same one rounding"},
      {"exact-whole-below-2^24",
       "whole numbers whose every partial sum stays below 2^24 add exactly in float, in any order: compared exactly; "
       "beyond that, the depth bound"},
      {"depth-bound",
       "|got - exact| <= gamma_k * sum|x| (Higham), k the longest chain of float roundings the lab's algorithm makes, "
       "plus the host reference's own double rounding"},
      {"digest", "equal, bit for bit, compared through the SHA-256 of the output's bytes (long outputs are not stored)"},
      {"per-method-bound",
       "each summation method within its own depth bound, the naive sum bit for bit with the host's in-order float sum, "
       "and Kahan's worst error far below naive's"},
  };
  return all;
}

const TolerancePolicy& tolerance_policy(const std::string& name) {
  std::string known;
  for (const TolerancePolicy& p : tolerance_policies()) {
    if (p.name == name) return p;
    known += "\n  " + p.name + ": " + p.meaning;
  }
  throw Error("'" + name + "' is not a tolerance policy of the kit; they are:" + known);
}

}  // namespace kit
