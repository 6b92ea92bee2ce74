#pragma once
// Kernels written the way real students and public repositories write them, each one lab's
// solution with one fault (or one allowed choice) written in: the warp-synchronous tail, barriers
// inside `if (tid < s)`, a sum stored at out[get_local_size(0)], the first tree without its check
// against n, lab 01 indexed by get_local_id, lab 06 with a local array fixed at 256 floats, and
// lab 06's contiguous split by elements (correct: its last run falls inside a work-group). The tests that hold `grader check` and `grader grade` to one verdict per case, and the
// messages to the fault they name, grade these.
#include <string>
#include <vector>

#include "kit/paths.hpp"
#include "support.hpp"

namespace test {

struct EvidenceKernel {
  std::string name;  // what it is, as a student folder name
  std::string lab;
  std::string kernel_file;
  std::string source;
  std::string fault;      // words every line it loses names its fault with, in its message or hint
  std::string no_points;  // the cases whose name starts with this earn nothing ("" for none)
};

inline std::string solution_of(const std::string& lab, const std::string& file) { return read(kit::root() / "solutions" / lab / file); }

// Rung 5's last six levels, each with its barrier, as the solution writes them.
inline const char* kRung5LastLevels =
    "    if (WG_SIZE >=   64) { if (tid <   32) scratch[tid] += scratch[tid +   32]; barrier(CLK_LOCAL_MEM_FENCE); }\n"
    "    if (WG_SIZE >=   32) { if (tid <   16) scratch[tid] += scratch[tid +   16]; barrier(CLK_LOCAL_MEM_FENCE); }\n"
    "    if (WG_SIZE >=   16) { if (tid <    8) scratch[tid] += scratch[tid +    8]; barrier(CLK_LOCAL_MEM_FENCE); }\n"
    "    if (WG_SIZE >=    8) { if (tid <    4) scratch[tid] += scratch[tid +    4]; barrier(CLK_LOCAL_MEM_FENCE); }\n"
    "    if (WG_SIZE >=    4) { if (tid <    2) scratch[tid] += scratch[tid +    2]; barrier(CLK_LOCAL_MEM_FENCE); }\n"
    "    if (WG_SIZE >=    2) { if (tid <    1) scratch[tid] += scratch[tid +    1]; barrier(CLK_LOCAL_MEM_FENCE); }\n";

inline std::vector<EvidenceKernel> evidence_kernels() {
  const std::string tree = solution_of("04-tree-reductions", "TreeReductions.cl");
  std::vector<EvidenceKernel> k;
  // The classic warp-synchronous tail: levels down to 64 with barriers, then six adds under one
  // `if (tid < 32)` through a volatile pointer, with no barrier.
  k.push_back({"warp-tail", "04-tree-reductions", "TreeReductions.cl",
               replace_once(tree, kRung5LastLevels,
                            "    if (tid < 32) {\n"
                            "        volatile local int *v = scratch;\n"
                            "        v[tid] += v[tid + 32];\n"
                            "        v[tid] += v[tid + 16];\n"
                            "        v[tid] += v[tid + 8];\n"
                            "        v[tid] += v[tid + 4];\n"
                            "        v[tid] += v[tid + 2];\n"
                            "        v[tid] += v[tid + 1];\n"
                            "    }\n"),
               "data race in local memory", "rung 5"});
  // Rung 5 as a loop whose barrier sits inside `if (tid < s)`: only the active work-items reach it.
  {
    const std::size_t from = tree.find("    if (WG_SIZE >= 4096)"), to = tree.find("    // student-end", from);
    std::string s = tree;
    s.replace(from, to - from,
              "    for (uint s = L / 2; s > 0; s >>= 1) {\n"
              "        if (tid < s) {\n"
              "            scratch[tid] += scratch[tid + s];\n"
              "            barrier(CLK_LOCAL_MEM_FENCE);\n"
              "        }\n"
              "    }\n");
    k.push_back({"barrier-in-if", "04-tree-reductions", "TreeReductions.cl", s, "a barrier that not every work-item reaches", "rung 5"});
  }
  // Every rung's sum stored at out[get_local_size(0)], past the end of out for most launches.
  {
    std::string s = tree;
    for (std::size_t at = s.find("out[get_group_id(0)] = scratch[0];"); at != std::string::npos; at = s.find("out[get_group_id(0)] = scratch[0];"))
      s.replace(at, std::string("out[get_group_id(0)] = scratch[0];").size(), "out[get_local_size(0)] = scratch[0];");
    k.push_back({"output-index", "04-tree-reductions", "TreeReductions.cl", s, "out[get_local_size(0)]", ""});
  }
  // The first rung without its check against n: it reads past the input where N is not a multiple of L.
  k.push_back({"no-bound-check", "04-tree-reductions", "TreeReductions.cl",
               replace_once(tree, "    scratch[tid] = (gid < n) ? in[gid] : 0;     // past the end: 0, the identity of +",
                            "    scratch[tid] = in[gid];"),
               "invalid read of size 4 at global memory", ""});
  // Lab 01 indexed by the local id: the work-groups all store to elements 0 .. L-1.
  k.push_back({"local-id-index", "01-array-mult", "ArrayMult.cl",
               replace_once(solution_of("01-array-mult", "ArrayMult.cl"), "    int gid = get_global_id(0);   // this work-item's element",
                            "    int gid = get_local_id(0);"),
               "get_local_id", ""});
  // Lab 06 with its own local array of 256 floats, which the contract's L up to 1024 overruns.
  k.push_back({"local-array-256", "06-cascade-reduction", "CascadeDot.cl",
               replace_once(solution_of("06-cascade-reduction", "CascadeDot.cl"),
                            "    scratch[tid] = sum;\n    barrier(CLK_LOCAL_MEM_FENCE);               // every work-item's sum is in scratch\n\n"
                            "    tree_sum(scratch, tid, L);           // your lab 04 tree (TODO 0)\n\n"
                            "    if (tid == 0)\n        partials[get_group_id(0)] = scratch[0];",
                            "    local float lsum[256];\n    lsum[tid] = sum;\n    barrier(CLK_LOCAL_MEM_FENCE);\n\n"
                            "    tree_sum(lsum, tid, L);\n\n"
                            "    if (tid == 0)\n        partials[get_group_id(0)] = lsum[0];"),
               "lsum", ""});
  return k;
}

// Lab 06's CPU branch split by elements: each work-item sums its own ceil(n / (G*L)) elements one
// by one (the tail included), right for every N; the last non-empty run falls inside a work-group,
// whose first work-item then does most of that group's adds.
inline std::string lab06_split_by_elements() {
  const std::string solution = solution_of("06-cascade-reduction", "CascadeDot.cl");
  const std::size_t from = solution.find("    uint chunks = n / 4, per_item"), to = solution.find("    // student-end", from);
  std::string s = solution;
  s.replace(from, to - from,
            "    uint per_item = (n + get_global_size(0) - 1) / get_global_size(0);\n"
            "    uint i = min(gid * per_item, n), end = min(i + per_item, n);\n"
            "    float own = 0.0f;\n"
            "    for (; i < end; ++i)\n"
            "        own += dA[i] * dB[i];\n"
            "    acc.x = own;\n");
  // The split covers the last n % 4 elements too: the scalar tail is the GPU branch's only.
  return replace_once(s, "    for (uint k = gid; k < n % 4; k += get_global_size(0))\n        sum += dA[4 * (n / 4) + k] * dB[4 * (n / 4) + k];",
                      "#ifndef CONTIGUOUS\n    for (uint k = gid; k < n % 4; k += get_global_size(0))\n        sum += dA[4 * (n / 4) + k] * dB[4 * (n / 4) + k];\n#endif");
}

}  // namespace test
