#pragma once
// The class gradebook's columns and its status file. The columns are the class's whole record,
// whichever labs a run grades (`grade --labs`, `merge --labs`): every lab of the specs folder that
// is graded now or has a result in the journal, in lab order, and every lab the journal holds a
// result for whose spec is no longer in the folder (its column marked "(spec removed)").
// OUT/gradebook-status.csv has the gradebook's rows and columns, each cell a short phrase saying
// why the points are what they are (status_phrase); an LMS import reads only gradebook.csv.
#include <string>
#include <vector>

#include "export/reports.hpp"
#include "spec/spec.hpp"

namespace grader {

// The labs the outputs cover: `graded` (the specs a run loaded) with the other specs of their
// folder that `results` holds a result for, and a removed_spec() for each lab of `results` with
// no spec there; in lab order. Throws kit::Error when such a spec no longer loads.
std::vector<LabSpec> gradebook_labs(const std::vector<LabSpec>& graded, const ResultMap& results);

// A stand-in for a lab whose spec was removed: its results' largest max_points as one case.
LabSpec removed_spec(const std::string& lab, const ResultMap& results);
bool spec_removed(const LabSpec& spec);

// A column's heading: the lab's name, "(spec removed)" added for a removed spec.
std::string column_name(const LabSpec& spec);

// One short phrase for a student x lab: "graded", "missing (no ArrayMultReduce.cl)",
// "rejected: <first line of why>", "build error: <first line of the log>", "late (2 days, -20%)",
// "timed out (3 of 10 cases)", "error (graded again next run)", "not graded yet" (no result).
// Phrases that apply together are joined with "; ".
std::string status_phrase(const LabResult* result, const LabSpec& spec);

// OUT/gradebook-status.csv's text: the rows and columns of gradebook_csv, a status_phrase each.
std::string gradebook_status_csv(const std::vector<std::string>& students, const std::vector<LabSpec>& specs,
                                 const ResultMap& results);

// The run's closing line on the cases the device got wrong and Oclgrind computed right, counted
// from gradebook-status.csv's text (status_phrase's "device disagrees on N cases"): how many, in
// how many student-labs, and where to review them; empty when there are none.
std::string device_disagrees_summary(const std::string& status_csv);

}  // namespace grader
