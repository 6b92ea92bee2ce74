#pragma once
// The kit's tolerance policies: one table for every lab. Each lab's grader adapter names, for each
// kind of output the lab compares, the policy that compares it (its tolerance(): {"int": "exact",
// "real": "depth-bound"}); the lab's check() implements the policies its outputs need.
#include <string>
#include <vector>

namespace kit {

struct TolerancePolicy {
  std::string name;
  std::string meaning;  // for people: what "right" means under this policy
};

// Every policy, in the order the grader's README lists them.
const std::vector<TolerancePolicy>& tolerance_policies();

// The policy of that name; throws kit::Error naming it and listing every policy with its meaning.
const TolerancePolicy& tolerance_policy(const std::string& name);

}  // namespace kit
