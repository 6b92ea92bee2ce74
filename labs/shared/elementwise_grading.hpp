#pragma once
// The grader's adapter for the element-wise labs (01 and 02): one driver, the lab's data decides.
#include <memory>

#include "elementwise.hpp"
#include "grader/lab/driver.hpp"

namespace grader {

std::unique_ptr<LabDriver> make_elementwise_driver(const elementwise::Lab& lab);

}  // namespace grader
