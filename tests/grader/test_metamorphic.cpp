// Metamorphic variants (grader/src/tools/metamorphic.hpp): exact renames and a re-layout on small
// kernels, every solution and starter still building on PoCL both ways, and `grader mutants
// --metamorphic` on every lab, where a kernel renamed or re-laid must earn the points it earned as
// made, line by line.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

#include "kit/paths.hpp"
#include "kit/program.hpp"
#include "support.hpp"
#include "tools/line_differences.hpp"
#include "tools/metamorphic.hpp"

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {


// The words of `source` outside comments, string literals and preprocessor lines, in order.
std::vector<std::string> code_words(const std::string& source) {
  static const std::regex skip(R"(//[^\n]*|/\*[\s\S]*?\*/|"(\\.|[^"\\])*"|(^|\n)[ \t]*#[^\n]*)");
  const std::string code = std::regex_replace(source, skip, " ");
  static const std::regex word(R"([A-Za-z_]\w*|\d[\w.]*|\S)");
  std::vector<std::string> words;
  for (auto it = std::sregex_iterator(code.begin(), code.end(), word); it != std::sregex_iterator(); ++it) words.push_back(it->str());
  return words;
}

// `words` without braces.
std::vector<std::string> unbraced(std::vector<std::string> words) {
  words.erase(std::remove_if(words.begin(), words.end(), [](const std::string& w) { return w == "{" || w == "}"; }), words.end());
  return words;
}

const std::string kRenameKernel = R"(// v1_ is taken: the fresh names skip it. A comment keeps i, n and tmp.
#define AT(k) tmp[k]
#define TWICE(x) ((x) * 2)
typedef struct { float f; int n; } pair_t;
constant float bias = 0.5f;

float helper(const float4 v, pair_t p, global const pair_t *q)
{
    float i = v.x + p.f + q->f + bias;
    return TWICE(i) + p.n;
}

kernel void k(global float *out, local float *tmp, const int n)
{
    float b = bias;
    int i = get_local_id(0), j[2] = {1, 2};
    float bias = 2.0f;
    pair_t p = {1.0f, n};
    AT(i) = helper((float4)(b), p, 0) * bias;
    for (int s = 1; s < WG_SIZE; s *= 2) { barrier(CLK_LOCAL_MEM_FENCE); }
    for (int s = 0; s < j[1]; ++s)
        out[s] = tmp[i] + vload4(0, out).s0;  /* i in a comment */
    printf("i = %d\n", i);
}
)";

}  // namespace

TEST_CASE("rename_locals: parameters, locals and loop variables get fresh names, and fields, builtins, macros, types and comments keep theirs") {
  // helper's v, p, q, i are v2_ .. v5_ (v1_ is in the comment); k's i is a name of its own (v9_):
  // the same name in two functions. tmp keeps its name: the macro AT uses it. bias is the
  // file-scope constant until k declares its own, then v11_. WG_SIZE, which the host defines with
  // -D, and every field (.f, ->f, .n, .x, .s0) keep theirs; the two loops' s share one fresh name.
  const std::string expected = R"(// v1_ is taken: the fresh names skip it. A comment keeps i, n and tmp.
#define AT(k) tmp[k]
#define TWICE(x) ((x) * 2)
typedef struct { float f; int n; } pair_t;
constant float bias = 0.5f;

float helper(const float4 v2_, pair_t v3_, global const pair_t *v4_)
{
    float v5_ = v2_.x + v3_.f + v4_->f + bias;
    return TWICE(v5_) + v3_.n;
}

kernel void k(global float *v6_, local float *tmp, const int v7_)
{
    float v8_ = bias;
    int v9_ = get_local_id(0), v10_[2] = {1, 2};
    float v11_ = 2.0f;
    pair_t v12_ = {1.0f, v7_};
    AT(v9_) = helper((float4)(v8_), v12_, 0) * v11_;
    for (int v13_ = 1; v13_ < WG_SIZE; v13_ *= 2) { barrier(CLK_LOCAL_MEM_FENCE); }
    for (int v13_ = 0; v13_ < v10_[1]; ++v13_)
        v6_[v13_] = tmp[v9_] + vload4(0, v6_).s0;  /* i in a comment */
    printf("i = %d\n", v9_);
}
)";
  CHECK(grader::rename_locals(kRenameKernel) == expected);
  CHECK(test::build_error(kRenameKernel, "-D WG_SIZE=64") == "");
  CHECK(test::build_error(expected, "-D WG_SIZE=64") == "");
}

TEST_CASE("rename_locals: an anonymous union's variables, pointer declarators after a comma, a cast and a #define's own parameter") {
  const std::string kernel = R"(#define KEEP(x) ((x) > 0)
void add(volatile global float *total, const float value)
{
    union { uint u; float f; } seen, sum;
    global const float *a = 0, *b = a;
    do {
        seen.f = *total;
        sum.f = seen.f + value;
    } while (atomic_cmpxchg((volatile global uint *)total, seen.u, sum.u) != seen.u);
}
kernel void k(global const int *in, global float *total)
{
    int x = in[get_global_id(0)];
    if (KEEP(x)) add(total, 1.0f);
}
)";
  const std::string expected = R"(#define KEEP(x) ((x) > 0)
void add(volatile global float *v1_, const float v2_)
{
    union { uint u; float f; } v3_, v4_;
    global const float *v5_ = 0, *v6_ = v5_;
    do {
        v3_.f = *v1_;
        v4_.f = v3_.f + v2_;
    } while (atomic_cmpxchg((volatile global uint *)v1_, v3_.u, v4_.u) != v3_.u);
}
kernel void k(global const int *v7_, global float *v8_)
{
    int v9_ = v7_[get_global_id(0)];
    if (KEEP(v9_)) add(v8_, 1.0f);
}
)";
  CHECK(grader::rename_locals(kernel) == expected);
  CHECK(test::build_error(expected, "") == "");
}

TEST_CASE("relayout: comments go, braces go on lines of their own and around single-statement bodies, directives stay whole lines") {
  const std::string kernel = R"(// A comment that goes.
#define N 4 // and its comment
kernel void
k(global float *out,   /* the output */
  const int n)
{
    int i = get_global_id(0);
    if (i >= n) return;
    float acc = 0.0f;
    for (int k = 0; k < N; ++k)
        if (k % 2 == 0) acc += -out[i]; else acc -= *out;


    while (acc > 1.0f) acc /= 2.0f;
    do acc++; while (acc < 0.0f);
#ifdef TWICE
    if (n > 1)
        acc *= 2.0f;
#endif
    out[i] = acc; out[0] = (float)(i);
}
)";
  const std::string expected = R"(#define N 4
kernel void k(global float *out, const int n)
{
    int i = get_global_id(0);
    if (i >= n)
    {
        return;
    }
    float acc = 0.0f;
    for (int k = 0; k < N; ++k)
    {
        if (k % 2 == 0)
        {
            acc += -out[i];
        }
        else
        {
            acc -= *out;
        }
    }
    while (acc > 1.0f)
    {
        acc /= 2.0f;
    }
    do
    {
        acc++;
    }
    while (acc < 0.0f);
#ifdef TWICE
    if (n > 1)
    {
        acc *= 2.0f;
    }
#endif
    out[i] = acc;
    out[0] = (float)(i);
}
)";
  CHECK(grader::relayout(kernel) == expected);
  for (const std::string options : {"", "-D TWICE"}) {
    CHECK(test::build_error(kernel, options) == "");
    CHECK(test::build_error(expected, options) == "");
  }
  // A body with a directive inside keeps its layout's meaning: no brace is added around it.
  const std::string split = "kernel void k(global int *o)\n{\n    if (o[0] > 0)\n#ifdef A\n        o[0] = 1;\n#else\n        o[0] = 2;\n#endif\n}\n";
  CHECK(grader::relayout(split) == "kernel void k(global int *o)\n{\n    if (o[0] > 0)\n#ifdef A\n    o[0] = 1;\n#else\n    o[0] = 2;\n#endif\n}\n");
}

TEST_CASE("metamorphic: every solution and starter, renamed and re-laid, builds on PoCL wherever it built as written") {
  // The build options the labs' hosts use (each lab's README and host code): both branches of a
  // file with #ifdef, and lab 05's operators.
  const std::map<std::string, std::vector<std::string>> options = {
      {"04-tree-reductions", {"-D WG_SIZE=64"}},
      {"05-multipass-reductions", {"-D \"OP(a,b)=((a)+(b))\" -D IDENTITY=0.0f", "-D \"OP(a,b)=fmax((a),(b))\" -D IDENTITY=(-INFINITY)"}},
      {"06-cascade-reduction", {"", "-D CONTIGUOUS"}},
      {"07-image-max-pyramid", {"", "-D MIN_INSTEAD"}},
      {"08-atomics-and-scan", {"", "-D CONTIGUOUS"}}};
  std::vector<fs::path> files;  // solutions/<lab>/*.cl and labs/<lab>/*.cl
  for (const std::string top : {"solutions", "labs"})
    for (const auto& lab : fs::directory_iterator(kit::root() / top))
      if (lab.is_directory())
        for (const auto& file : fs::directory_iterator(lab.path()))
          if (file.path().extension() == ".cl") files.push_back(file.path());
  const auto labs = test::kit_labs(true);  // counted from the tree: each lab has one starter and one solution file
  REQUIRE(files.size() == 2 * labs.size());
  std::size_t built = 0, expected_builds = 0;  // solutions built as written, renamed and re-laid; of each, one a set of options
  for (const std::string& lab : labs) expected_builds += options.count(lab) ? options.at(lab).size() : 1;
  for (const fs::path& file : files) {
    const std::string name = file.parent_path().filename().string();
    const std::string source = test::read(file);
    const std::string renamed = grader::rename_locals(source), relaid = grader::relayout(source);
    CAPTURE(file.string());
    CHECK(renamed != source);
    CHECK(relaid != source);
    CHECK(relaid.find("//") == std::string::npos);
    CHECK(relaid.find("/*") == std::string::npos);
    // The re-laid file is the same code but for the braces it adds.
    CHECK(unbraced(code_words(source)) == unbraced(code_words(relaid)));
    for (const std::string& o : options.count(name) ? options.at(name) : std::vector<std::string>{""}) {
      CAPTURE(o);
      if (!test::build_error(source, o).empty()) {  // a starter that does not build as handed out: nothing to keep
        CHECK(file.string().find("/solutions/") == std::string::npos);
        continue;
      }
      CHECK_MESSAGE(test::build_error(renamed, o) == "", renamed);
      CHECK_MESSAGE(test::build_error(relaid, o) == "", relaid);
      CHECK_MESSAGE(test::build_error(grader::relayout(renamed), o) == "", "renamed, then re-laid");
      built += file.string().find("/solutions/") != std::string::npos;
    }
  }
  CHECK(built == expected_builds);  // every solution, built with each set of options (labs 05 to 08 have two)
}

TEST_CASE("line_differences: a line whose status or points differ, a line only one grading has, and the lab's status") {
  grader::LabResult made, variant;
  made.status = variant.status = grader::LabStatus::Graded;
  const auto line = [](const std::string& name, double points, double max, grader::CaseStatus status, const std::string& message) {
    grader::CaseResult c;
    c.name = name, c.points = points, c.max_points = max, c.status = status, c.message = message;
    return c;
  };
  made.cases = {line("case a", 2, 2, grader::CaseStatus::Passed, "ok"), line("case b", 3, 3, grader::CaseStatus::Passed, "ok")};
  variant.cases = {line("case a", 2, 2, grader::CaseStatus::Passed, "ok, said otherwise"),
                   line("case b", 0, 3, grader::CaseStatus::Wrong, "wrong sum"), line("case c", 1, 1, grader::CaseStatus::Passed, "ok")};
  const auto found = grader::line_differences(made, variant);
  REQUIRE(found.size() == 2);  // a message alone is no difference
  CHECK(found[0].line == "case b");
  CHECK(found[0].status_before == "passed");
  CHECK(found[0].status_after == "wrong");
  CHECK(found[0].points_before == 3);
  CHECK(found[0].points_after == 0);
  CHECK(found[0].message_after == "wrong sum");
  CHECK(found[1].line == "case c");
  CHECK(found[1].status_before == "");
  CHECK(grader::line_differences(made, made).empty());
  variant = made;
  variant.status = grader::LabStatus::BuildError;
  variant.cases.clear();
  const auto unbuilt = grader::line_differences(made, variant);
  REQUIRE(unbuilt.size() == 3);
  CHECK(unbuilt[0].line == "(lab)");
  CHECK(unbuilt[0].status_after == "build-error");
  CHECK(unbuilt[1].status_after == "");
}

TEST_CASE("line_differences: two speed lines differ only where the quartile ranges of their measurements do not overlap") {
  grader::LabResult made, variant;
  made.status = variant.status = grader::LabStatus::Graded;
  const auto speed = [](double points, grader::CaseStatus status, double low, double median, double high) {
    grader::CaseResult c;
    c.name = "speed against the solution", c.kind = grader::CaseKind::Speed, c.points = points, c.max_points = 4, c.status = status;
    c.ratio_low = low, c.ratio = median, c.ratio_high = high;
    return c;
  };
  // The metamorphic test's line on a loaded machine: 0.72 of the solution's speed, full points from 0.80.
  made.cases = {speed(4, grader::CaseStatus::Passed, 0.78, 0.86, 0.95)};
  variant.cases = {speed(3.62, grader::CaseStatus::Slow, 0.61, 0.72, 0.81)};
  CHECK(grader::line_differences(made, variant).empty());  // the runs cannot tell the two speeds apart
  variant.cases = {speed(2.5, grader::CaseStatus::Slow, 0.41, 0.50, 0.60)};
  CHECK(grader::line_differences(made, variant).size() == 1);  // they can
  variant.cases = {speed(3.62, grader::CaseStatus::Slow, -1, 0.72, -1)};
  CHECK(grader::line_differences(made, variant).size() == 1);  // no spread measured: points decide
  variant.cases = {speed(0, grader::CaseStatus::Wrong, 0.61, 0.72, 0.81)};
  CHECK(grader::line_differences(made, variant).size() == 1);  // a wrong result is no speed
}

namespace {

// One of the suite's two metamorphic runs (tests below): `grader mutants --metamorphic` on the labs
// of variant `v`'s half, one mutant per lab (the first the generator makes) and the control (the
// solution), each graded as made and as the variant, with the safety and algorithm checks:
// `rewritten` (renamed, built-ins inlined, for as while, int indices, * 2 as << 1, a global fence
// added, braces added) on the labs of even place in the kit's list (01, 03, ...),
// `rewritten-relaid` (built-ins hoisted, size_t indices, << 1 as * 2, re-laid with the braces of
// one-statement bodies removed) on the others. A fixed split, not a draw: every lab keeps a
// rewritten grading in every run, each variant runs on half the labs, and each kernel is graded
// twice instead of three times; the two halves are two tests, so that ctest runs them side by
// side. Every variant on every lab, and each rewrite alone: `grader mutants --metamorphic`
// (docs/lab-authors.md), the run before a release.
void metamorphic_half(std::size_t v) {
  const auto labs = test::kit_labs(true);  // counted from the tree: labs/NN-name/ with a spec
  const std::vector<std::string> variants = {"rewritten", "rewritten-relaid"};
  std::map<std::string, std::string> variant_of;
  std::vector<std::string> numbers(2);  // each variant's labs, as grader mutants takes them
  for (std::size_t i = 0; i < labs.size(); ++i) variant_of[labs[i]] = variants[i % 2], numbers[i % 2] += " " + labs[i].substr(0, 2);
  REQUIRE(!numbers[v].empty());
  std::string differences;
  std::size_t graded_labs = 0;
  test::TempDir out;
  const auto start = std::chrono::steady_clock::now();
  const auto run = test::run_program("grader", "mutants" + numbers[v] + " --metamorphic --variants " + variants[v] + " --max-per-lab 1 --out " +
                                                   out.path.string());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE("grader mutants" << numbers[v] << " --metamorphic --variants " << variants[v] << ": " << seconds << " s");
  REQUIRE_MESSAGE(fs::exists(out / "mutants.json"), run.output);
  const json report = json::parse(test::read(out / "mutants.json"));
  CHECK(report["safety"] == true);
  for (const json& lab : report["labs"]) {
    const std::string name = lab["lab"];
    CAPTURE(name);
    REQUIRE(variant_of.count(name) == 1);
    CHECK(variant_of[name] == variants[v]);  // only the labs asked for
    ++graded_labs;
    CHECK(lab["control_points"] == lab["full_points"]);
    // Counted from the records: the control and each mutant, graded as the variant.
    std::size_t mutants = 0;
    for (const json& m : report["mutants"]) mutants += m["lab"] == name;
    CHECK(mutants == 1);
    std::map<std::string, std::size_t> per_variant;
    for (const json& g : report["metamorphic"]) {
      if (g["lab"] != name) continue;
      ++per_variant[g["variant"].get<std::string>()];
      CHECK(g["lines_made"].get<std::size_t>() > 0);
      if (g["id"] == "control") CHECK(g["status_made"] == "graded");
    }
    CHECK(per_variant.size() == 1);  // no variant but the one asked for
    CHECK(per_variant[variants[v]] == mutants + 1);  // renaming and re-laying change every kernel
    std::size_t records = 0;
    for (const json& w : report["rewrites"])
      if (w["lab"] == name && w["variant"] == variants[v]) {
        ++records;
        CHECK(w["kernels"] == mutants + 1);
        CHECK(w["rewritten"] == mutants + 1);
        // rewritten: the rename and at least one rewrite in each kernel; rewritten-relaid: at least one
        CHECK(w["places"].get<std::size_t>() >= (variants[v] == "rewritten" ? 2 : 1) * (mutants + 1));
      }
    CHECK(records == 1);
  }
  CHECK(run.output.find("  " + variants[v] + " ") != std::string::npos);  // the summary says how many kernels it rewrote
  // Points are compared line by line. A line the device gets wrong where Oclgrind computes it right
  // with no findings (status "device-disagrees") keeps its points, so only its status may differ.
  for (const json& d : report["differences"]) {
    if (d["points_before"] == d["points_after"] && d["status_after"] == "device-disagrees") continue;
    differences += d["lab"].get<std::string>() + " " + d["id"].get<std::string>() + " " + d["variant"].get<std::string>() + ": " +
                   d["line"].get<std::string>() + ": " + d["status_before"].get<std::string>() + " " + d["points_before"].dump() + " -> " +
                   d["status_after"].get<std::string>() + " " + d["points_after"].dump() + " (" + d["message_after"].get<std::string>() + ")\n";
  }
  CHECK_MESSAGE(run.exit_code == (report["differences"].empty() ? 0 : 1), run.output);
  // Every lab of this half: the two halves together are every lab.
  CHECK(graded_labs == (labs.size() + 1 - v) / 2);
  CHECK_MESSAGE(differences.empty(), differences);
}

}  // namespace

TEST_CASE("grader mutants --metamorphic, rewritten: on the labs of even place, the control and a mutant earn the same points rewritten, line by line") {
  metamorphic_half(0);
}

TEST_CASE("grader mutants --metamorphic, rewritten-relaid: on the other labs, the control and a mutant earn the same points re-laid, line by line") {
  metamorphic_half(1);
}
