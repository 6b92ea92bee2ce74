// `--draw`: the plugin's drawing trace of a real kernel under Oclgrind, the picture made of it
// (columns, phases, adds, idle work-items, races), and the notes when nothing can be drawn.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "draw/draw_lab.hpp"
#include "draw/render.hpp"
#include "kit/errors.hpp"
#include "kit/paths.hpp"
#include "spec/spec.hpp"
#include "support.hpp"

namespace {

const char* kLab03 = "grader/specs/03-array-mult-reduce.json";

grader::LabSpec lab03_spec() { return grader::load_spec(kit::root() / kLab03); }

// Lab 03's case at L = 8, one work-group, traced and drawn.
grader::DrawRun trace03(const std::filesystem::path& kernel, const test::TempDir& dir) {
  const grader::GradeSettings s{std::filesystem::path(KIT_BIN_DIR) / "grader", dir / "work"};
  const grader::json params = grader::json::parse(R"({"elements":8,"local":8,"data":"int","seed":12})");
  return grader::trace_kernel(lab03_spec(), s, kernel, "ArrayMultReduce.cl", params, dir / "trace");
}

// The (written, read) column pairs of one row's adds.
std::set<std::pair<std::size_t, std::size_t>> pairs(const grader::PictureRow& row) {
  std::set<std::pair<std::size_t, std::size_t>> out;
  for (const grader::PictureOp& op : row.ops)
    for (std::size_t from : op.from) out.insert({*op.to, from});
  return out;
}

}  // namespace

TEST_CASE("draw: lab 03's solution at L = 8 is 7 adds in 3 phases, each pair of the bitmask tree") {
  test::TempDir dir;
  const grader::DrawRun run = trace03(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl", dir);
  REQUIRE(run.failed.empty());
  REQUIRE(run.launches.size() == 1);
  CHECK(run.findings.empty());
  const grader::Picture p = grader::make_picture(run.launches[0], run.findings, "adds");
  CHECK(p.memory == "local memory");
  CHECK(p.slots == 8);
  // Phase 0 stores the 8 products (no add); each of the 3 levels is a phase of its own.
  std::vector<const grader::PictureRow*> adding;
  for (const grader::PictureRow& r : p.rows)
    if (r.adds) adding.push_back(&r);
  REQUIRE(adding.size() == 3);
  CHECK(p.work == 7);
  CHECK(p.span == 3);
  CHECK(p.busiest_item == 0);
  using P = std::set<std::pair<std::size_t, std::size_t>>;
  // Each add reads its own slot and the one `offset` to its right, and writes its own.
  CHECK(pairs(*adding[0]) == P{{0, 0}, {0, 1}, {2, 2}, {2, 3}, {4, 4}, {4, 5}, {6, 6}, {6, 7}});
  CHECK(pairs(*adding[1]) == P{{0, 0}, {0, 2}, {4, 4}, {4, 6}});
  CHECK(pairs(*adding[2]) == P{{0, 0}, {0, 4}});
  CHECK(p.rows[0].filled.size() == 8);
  const std::vector<std::string> facts = grader::picture_facts(p);
  CHECK(std::find(facts.begin(), facts.end(), "phase 1: 4 adds by work-items 0, 2, 4, 6; work-items 1, 3, 5, 7 idle") != facts.end());
  CHECK(std::find(facts.begin(), facts.end(), "phase 3: 1 add by work-item 0; work-items 1–7 idle") != facts.end());
  const std::string svg = grader::render_svg({{"solution", p}});
  CHECK(svg.rfind("<svg ", 0) == 0);
  CHECK(svg.find("</svg>") != std::string::npos);
  const std::string tikz = grader::render_tikz(p);
  CHECK(tikz.find("\\begin{tikzpicture}") != std::string::npos);
}

TEST_CASE("draw: a kernel without the loop's barrier draws its race in the phase where the adds race") {
  test::TempDir dir;
  std::string kernel = test::read(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl");
  kernel = test::replace_once(kernel, "barrier(CLK_LOCAL_MEM_FENCE);   // every value of the previous level is in prods", "");
  test::write(dir / "ArrayMultReduce.cl", kernel);
  const grader::DrawRun run = trace03(dir / "ArrayMultReduce.cl", dir);
  REQUIRE(run.failed.empty());
  REQUIRE(run.launches.size() == 1);
  const grader::Picture p = grader::make_picture(run.launches[0], run.findings, "adds");
  // With no barrier in the loop, the products and all three levels share phase 0.
  REQUIRE(!p.rows.empty());
  CHECK(p.rows[0].phase == 0);
  CHECK(p.rows[0].adds == 7);
  const auto race = std::find_if(p.marks.begin(), p.marks.end(), [](const grader::PictureMark& m) { return m.kind == grader::PictureMark::Race; });
  REQUIRE(race != p.marks.end());
  CHECK(race->row == 0);
  REQUIRE(race->columns.size() == 1);
  CHECK(race->text.find("race: work-items") == 0);
  const std::vector<std::string> facts = grader::picture_facts(p);
  CHECK(std::any_of(facts.begin(), facts.end(), [](const std::string& f) { return f.find("race: work-items") == 0 && f.find("in phase 0") != std::string::npos; }));
  CHECK(grader::render_svg({{"race", p}}).find("#d62728") != std::string::npos);
}

// Lab 03's solution with the level loop's counter never changing: an endless loop.
std::string endless03() {
  return test::replace_once(test::read(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl"),
                            "for (int offset = 1; offset < numItems; offset *= 2)", "for (int offset = 1; offset < numItems; offset *= 1)");
}

// KIT_OCLGRIND set for the life of this object (find_oclgrind reads it at every run).
struct OclgrindAs {
  explicit OclgrindAs(const std::string& program) { setenv("KIT_OCLGRIND", program.c_str(), 1); }
  ~OclgrindAs() { unsetenv("KIT_OCLGRIND"); }
};

TEST_CASE("draw: an endless loop, a crash of Oclgrind or an unreadable kernel gives a note naming the lab and kernel, and no picture") {
  test::TempDir dir;
  grader::LabSpec spec = lab03_spec();
  spec.safety->time_limit_s = 2;  // the loop never ends: 2 s show it as well as 5
  test::write(dir / "sub" / "ArrayMultReduce.cl", endless03());
  const grader::GradeSettings s{std::filesystem::path(KIT_BIN_DIR) / "grader", dir / "work"};
  grader::LabResult r;
  r.status = grader::LabStatus::Graded;
  r.kernel = "ArrayMultReduce.cl";
  const std::string why = grader::add_drawings(r, spec, s, dir / "sub", dir / "drawings");
  INFO(r.notes[0]);
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes[0] == "no drawing of lab 03-array-mult-reduce's ArrayMultReduce.cl: the run under Oclgrind ran past its 2 s time limit "
                      "and was stopped (an endless loop?)");
  CHECK(why == r.notes[0]);
  CHECK(!std::filesystem::exists(dir / "drawings"));

  // Oclgrind itself dying of a signal (here a stand-in that does only that): said with its signal.
  test::write(dir / "crashing-oclgrind", "#!/bin/sh\nkill -SEGV $$\n");
  std::filesystem::permissions(dir / "crashing-oclgrind", std::filesystem::perms::owner_all);
  test::write(dir / "fine" / "ArrayMultReduce.cl", test::read(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl"));
  grader::LabResult crashed = r;
  crashed.notes.clear();
  {
    const OclgrindAs fake((dir / "crashing-oclgrind").string());
    CHECK(grader::add_drawings(crashed, spec, s, dir / "fine", dir / "drawings") ==
          "no drawing of lab 03-array-mult-reduce's ArrayMultReduce.cl: Oclgrind, the checker, crashed with signal 11 (SIGSEGV, "
          "Segmentation fault)");
  }
  CHECK(crashed.notes.size() == 1);
  CHECK(!std::filesystem::exists(dir / "drawings"));

  grader::LabResult missing;
  missing.status = grader::LabStatus::Graded;
  missing.kernel = "gone.cl";
  CHECK(!grader::add_drawings(missing, spec, s, dir / "sub", dir / "drawings").empty());
  REQUIRE(missing.notes.size() == 1);
  CHECK(missing.notes[0].find("no drawing of lab 03-array-mult-reduce's gone.cl: ") == 0);
  CHECK(missing.notes[0].find("gone.cl") != std::string::npos);
}

TEST_CASE("draw: grader check 03 04 --draw with lab 03 looping forever grades both, draws 04, and says why 03 is not drawn") {
  // Lab 03's spec with 1 s limits (the loop shows at 1 s as at 5), lab 04's as it is.
  test::TempDir dir;
  grader::json spec03 = grader::json::parse(test::read(kit::root() / kLab03));
  spec03["time_limit_s"] = 1;
  spec03["safety"]["time_limit_s"] = 1;
  spec03["build_time_limit_s"] = 10;  // added to a case run again alone after a time-out: the loop pays it
  test::write(dir / "specs" / "03-array-mult-reduce.json", spec03.dump(2));
  std::filesystem::copy_file(kit::root() / "grader/specs/04-tree-reductions.json", dir / "specs" / "04-tree-reductions.json");
  test::write(dir / "D" / "03-array-mult-reduce" / "ArrayMultReduce.cl", endless03());
  test::write(dir / "D" / "04-tree-reductions" / "TreeReductions.cl", test::read(kit::root() / "solutions/04-tree-reductions/TreeReductions.cl"));
  const auto run = test::run_program("grader", "--specs '" + (dir / "specs").string() + "' check --dir '" + (dir / "D").string() +
                                                   "' 03 04 --draw '" + (dir / "OUT").string() + "'");
  INFO(run.output);
  const std::string why = "no drawing of lab 03-array-mult-reduce's ArrayMultReduce.cl: the run under Oclgrind ran past its 1 s time limit "
                          "and was stopped (an endless loop?)";
  CHECK(run.output.find("03-array-mult-reduce (ArrayMultReduce.cl)\n  note: " + why + "\n") != std::string::npos);  // the report
  CHECK(run.output.find("timeout: the case ran past its 1 s time limit") != std::string::npos);  // lab 03 graded
  CHECK(run.output.find("  15 / 15 points\n") != std::string::npos);                              // lab 04 graded
  CHECK(std::filesystem::exists(dir / "OUT" / "04-tree-reductions-reduce1_interleaved_mod.svg"));
  CHECK(!std::filesystem::exists(dir / "OUT" / "03-array-mult-reduce-ArrayMultReduce.svg"));
  CHECK(run.output.find("Drawings (" + (dir / "OUT").string() + "): 1 of 2 lab(s) drawn; not drawn:\n  " + why + "\n") != std::string::npos);
}

TEST_CASE("draw: a large work-group is folded to its first and last 16 slots, and the legend says so") {
  grader::LaunchTrace t;
  t.kernel = "k", t.items = 64, t.phases = 2;
  for (std::size_t i = 0; i < 32; ++i)  // one level of a tree over 64 ints: slot i += slot i + 32
    t.events.push_back({1, i, 1, {'l', 4 * i}, 4, {{'l', 4 * i}, {'l', 4 * (i + 32)}}, 0});
  const grader::Picture p = grader::make_picture(t, {}, "adds");
  CHECK(p.slots == 64);
  REQUIRE(p.columns.size() == 33);
  CHECK(!p.columns[16]);
  CHECK(*p.columns[17] == 48);
  CHECK(p.rows[0].adds == 32);
  CHECK(p.rows[0].ops.size() == 16);  // slots 16..31 are written out of sight
  CHECK(p.rows[0].ops[0].from == std::vector<std::size_t>{0});  // slot 32 is folded: a short arrow from above
  CHECK(p.rows[0].ops[0].other_reads == 1);
  CHECK(p.folded() == "slots 16–47 folded into …");
  const std::vector<std::string> facts = grader::picture_facts(p);
  CHECK(facts[0] == "phase 1: 32 adds by work-items 0–31; work-items 32–63 idle");
  CHECK(facts.back() == "slots 16–47 folded into …");
}

TEST_CASE("draw: the trace parses, and a malformed line names its number") {
  const std::string good = R"({"kernel":"k","global":[8,1,1],"local":[8,1,1],"group":[0,0,0],"items":8,"phases":2,"truncated":false,"signatures":[7],)"
                           R"("events":[[1,0,1,"l",100,4,[["l",100],["l",104]],0]]})";
  const auto launches = grader::parse_draw_trace(good + "\n\n");
  REQUIRE(launches.size() == 1);
  REQUIRE(launches[0].events.size() == 1);
  CHECK(launches[0].events[0].reads.size() == 2);
  CHECK(launches[0].events[0].write.address == 100);
  CHECK(launches[0].signatures == std::vector<std::uint64_t>{7});
  std::string bad = good;
  bad.replace(bad.find(R"("l",100,4)"), 9, R"("x",100,4)");
  CHECK_THROWS_WITH_AS(grader::parse_draw_trace(good + "\n" + bad), doctest::Contains("drawing trace line 2 is malformed"), kit::Error);
}

TEST_CASE("draw: grader check 03 --draw on the starter says why nothing is drawn, and on the solution names the picture") {
  test::TempDir dir;
  const auto starter = test::run_program("grader", "check 03 --draw '" + (dir / "starter").string() + "'");
  INFO(starter.output);
  CHECK(starter.output.find("note: no drawing of ArrayMultReduce: work-group 0 did no adds, so there is nothing to draw") !=
        std::string::npos);
  CHECK(!std::filesystem::exists(dir / "starter" / "03-array-mult-reduce-ArrayMultReduce.svg"));
  CHECK(starter.output.find("): 0 of 1 lab(s) drawn; not drawn:\n  lab 03-array-mult-reduce: no drawing of ArrayMultReduce: work-group 0 "
                            "did no adds") != std::string::npos);

  const auto solved = test::run_program("grader", "check 03 --dir " + (kit::root() / "solutions").string() + " --draw '" +
                                                      (dir / "solved").string() + "'");
  INFO(solved.output);
  const std::filesystem::path svg = dir / "solved" / "03-array-mult-reduce-ArrayMultReduce.svg";
  CHECK(std::filesystem::exists(svg));
  CHECK(std::filesystem::exists(dir / "solved" / "03-array-mult-reduce-ArrayMultReduce.tex"));
  CHECK(solved.output.find("note: drawing " + svg.string() + " (ArrayMultReduce, work-group 0 of 16 work-items): ") != std::string::npos);
  CHECK(solved.output.find("phase 4: 1 add by work-item 0; work-items 1–15 idle") != std::string::npos);
  // The solution checked is the course solution: no second panel beside it.
  CHECK(test::read(svg).find("the course solution") == std::string::npos);
}

TEST_CASE("draw: the first work-group that stored otherwise than the solution's is drawn too") {
  test::TempDir dir;
  std::string kernel = test::read(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl");
  kernel = test::replace_once(kernel, "if ((tnum & mask) == 0)", "if ((tnum & mask) == 0 && (wgNum != 2 || offset < 4))");  // group 2 stops after 2 levels
  test::write(dir / "ArrayMultReduce.cl", kernel);
  const grader::GradeSettings s{std::filesystem::path(KIT_BIN_DIR) / "grader", dir / "work"};
  const grader::Drawings d = grader::draw_lab(lab03_spec(), s, dir / "ArrayMultReduce.cl", "ArrayMultReduce.cl",
                                              grader::solution_kernel(lab03_spec()), dir / "out");
  INFO(d.notes.size());
  CHECK(std::filesystem::exists(dir / "out" / "03-array-mult-reduce-ArrayMultReduce.svg"));
  REQUIRE(std::filesystem::exists(dir / "out" / "03-array-mult-reduce-ArrayMultReduce-group2.svg"));
  CHECK(!std::filesystem::exists(dir / "out" / "03-array-mult-reduce-ArrayMultReduce-group1.svg"));
  const std::string svg = test::read(dir / "out" / "03-array-mult-reduce-ArrayMultReduce-group2.svg");
  CHECK(svg.find("the course solution (work-group 2)") != std::string::npos);
  REQUIRE(d.notes.size() == 2);
  CHECK(d.notes[1].find("(ArrayMultReduce, work-group 2 of 16 work-items, the first that stored otherwise than the course "
                        "solution's): phase 0: no adds") != std::string::npos);
  CHECK(d.notes[1].find("work 12 adds, span 2") != std::string::npos);
}

TEST_CASE("draw: a finding is marked only in the picture of the kernel it was found in") {
  // Lab 04 keeps five rungs in one file: an out-of-bounds read found in one rung's kernel must
  // not be drawn on the pictures of the others.
  test::TempDir dir;
  test::write(dir / "ArrayMultReduce.cl", test::read(kit::root() / "solutions/03-array-mult-reduce/ArrayMultReduce.cl"));
  const grader::DrawRun run = trace03(dir / "ArrayMultReduce.cl", dir);
  REQUIRE(run.failed.empty());
  REQUIRE(run.launches.size() == 1);
  grader::OclgrindFinding read;
  read.kind = "invalid-access";
  read.title = "Invalid read of size 4 at local memory";
  read.sites.push_back({"Global(0,0,0) Local(0,0,0) Group(0,0,0)", 14, 28, ""});
  const auto out_of_bounds = [&](const std::string& kernel) {
    read.kernel = kernel;
    const grader::Picture p = grader::make_picture(run.launches[0], {read}, "adds");
    return std::count_if(p.marks.begin(), p.marks.end(), [](const grader::PictureMark& m) { return m.kind == grader::PictureMark::OutOfBounds; });
  };
  CHECK(out_of_bounds("ArrayMultReduce") == 1);
  CHECK(out_of_bounds("reduce2_interleaved_strided") == 0);
}

TEST_CASE("draw: a kernel's drawing names its adds, not the loads its access-pattern check traces") {
  // Lab 06's DotCascade has a loads check (the access pattern) before its adds check (the cascade).
  const grader::LabSpec spec = grader::load_spec(kit::root() / "grader/specs/06-cascade-reduction.json");
  CHECK(grader::ops_word(spec, "DotCascade") == "adds");
  CHECK(grader::ops_word(spec, "SumPartials") == "adds");
  CHECK(grader::ops_word(spec, "no_such_kernel") == "operations");
}
