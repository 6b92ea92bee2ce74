#include "kit/local_size.hpp"

#include <vector>

#include "kit/errors.hpp"

namespace kit {
namespace {

std::string str(std::size_t v) { return std::to_string(v); }

bool is_power_of_two(std::size_t v) { return v != 0 && (v & (v - 1)) == 0; }

// "(32 and 64 are the nearest)" for 48: the powers of two on either side.
std::string nearest_powers(std::size_t v) {
  std::size_t below = 1;
  while (below <= v / 2) below *= 2;
  return "(" + str(below) + " and " + str(2 * below) + " are the nearest)";
}

std::string with_reason(const std::string& fact, const std::string& why) { return why.empty() ? fact : fact + ": " + why; }

}  // namespace

std::string local_size_problem(std::size_t local, const LocalSizeRule& rule) {
  if (local == 0) return "local size 0: a work-group needs at least one work-item";
  std::vector<std::string> broken;
  if (local < rule.least) broken.push_back(with_reason("is below " + str(rule.least), rule.least_why));
  if (rule.power_of_two && !is_power_of_two(local))
    broken.push_back(with_reason("is not a power of two " + nearest_powers(local), rule.power_why));
  if (rule.most != 0 && local > rule.most) broken.push_back(with_reason("is above " + str(rule.most), rule.most_why));
  if (rule.divides != 0 && rule.divides % local != 0)
    broken.push_back(with_reason("does not divide the element count " + str(rule.divides) + " (" + str(rule.divides) + " = " +
                                     str(rule.divides / local) + " x " + str(local) + " + " + str(rule.divides % local) + ")",
                                 rule.divides_why));
  if (broken.empty()) return "";
  std::string text = "local size " + str(local) + " " + broken[0];
  for (std::size_t i = 1; i < broken.size(); ++i) text += "; and it " + broken[i];
  return text;
}

void require_local_size(std::size_t local, const LocalSizeRule& rule) {
  if (const std::string problem = local_size_problem(local, rule); !problem.empty()) throw Error(problem);
}

}  // namespace kit
