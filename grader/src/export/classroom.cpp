#include "export/classroom.hpp"

#include <openssl/evp.h>

#include <cmath>
#include <cstdlib>
#include <fstream>

#include "kit/errors.hpp"

namespace grader {

json classroom_result(const std::vector<LabResult>& results) {
  json tests = json::array();
  double max = 0, score = 0;
  bool error = false;
  for (const LabResult& r : results)
    for (const CaseResult& c : r.cases) {
      const bool pass = c.status == CaseStatus::Passed && c.points >= c.max_points;
      const bool grader_error = c.status == CaseStatus::Error;
      error |= grader_error;
      max += c.max_points;
      score += c.points;
      std::string message = pass ? "" : word(c.status) + ": " + c.message + (c.hint.empty() ? "" : "\nhint: " + c.hint);
      if (!pass && r.status != LabStatus::Graded) message = word(r.status) + ": " + r.message;
      tests.push_back({{"name", r.lab + ": " + c.name},
                       {"status", grader_error ? "error" : pass ? "pass" : "fail"},  // the reporter's own words
                       {"score", c.points},
                       {"max_score", c.max_points},
                       {"message", message},
                       {"line_no", nullptr},
                       {"execution_time", std::to_string(int(std::lround(c.seconds * 1000))) + "ms"},
                       {"test_code", "grader check " + r.lab.substr(0, 2)}});
    }
  return {{"version", 1},
          {"status", error ? "error" : score >= max ? "pass" : "fail"},
          {"max_score", max},
          {"tests", tests}};
}

std::string base64(const std::string& bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), reinterpret_cast<const unsigned char*>(bytes.data()),
                                int(bytes.size()));
  out.resize(std::size_t(n));
  return out;
}

std::string write_classroom_output(const json& result) {
  const std::string line = "result=" + base64(dump_json(result)) + "\n";
  const char* file = std::getenv("GITHUB_OUTPUT");
  if (!file || !*file) return line;
  std::ofstream out(file, std::ios::app);
  out << line;
  if (!out) throw kit::Error(std::string("cannot append the result to $GITHUB_OUTPUT (") + file + ")");
  return "";
}

}  // namespace grader
