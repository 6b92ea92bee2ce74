#pragma once
// Where a child that gave up root (isolation/child_user.hpp) works. The grader's folders often lie
// in root's own folders (a 0700 scratch folder in /tmp), where that user cannot go, and beside what
// the child must not touch (reports, journal, gradebook). So the child gets a folder of its own,
// under a folder of root's that others may enter but not list (0711, in the system's temp folder,
// one per grader run, removed when it ends):
//   kit-grader-children-XXXXXX/     root, 0711
//     child-XXXXXX/                 root, 0711: the child cannot rename or replace what is in it
//       work/                       the user's, 0700: the child's working folder, HOME and TMPDIR
//       in/                         root, 0711: read-only copies of the files it could not read
//     pocl-XXXXXX/                  the user's, 0700: stands for one PoCL cache of the grader's
// While the child runs, its working folder of the grader's is a link to work/, so the grader
// follows what the child writes where it always did; after it, the regular files it wrote there
// are copied back (links and anything else it made are not) and its folder is removed.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "isolation/child_user.hpp"

namespace grader {

class ChildFolder {
 public:
  // A folder for the child that would work in `workdir`, holding a copy of what is there now.
  ChildFolder(const ChildUser& user, const std::filesystem::path& workdir);
  ~ChildFolder();  // bring_back(), if not done
  ChildFolder(const ChildFolder&) = delete;
  ChildFolder& operator=(const ChildFolder&) = delete;

  // `arg` as the child must see it: a path in `workdir` moved to its folder, a file the user cannot
  // read (the kernel's copy, the baseline, the grader itself) a read-only copy it can.
  std::string seen(const std::string& arg);
  const std::filesystem::path& work() const { return work_; }
  // Copies back the regular files the child wrote into `workdir` and removes its folder.
  void bring_back();

 private:
  ChildUser user_;
  std::filesystem::path workdir_, box_, work_, in_;
  int staged_ = 0;
  bool done_ = false;
};

// The PoCL cache kept from one grader run to the next where $KIT_POCL_CACHE names a folder (the
// test suite sets it to a folder of its build, tests/main.cpp), or nothing. PoCL keys its cache by
// the program's source, build options and device, so only identical programs meet there, as in a
// batch worker's cache (GradeSettings::shared_pocl_cache); it is never emptied by the grader.
inline constexpr const char* kPoclCacheVariable = "KIT_POCL_CACHE";
std::optional<std::filesystem::path> kept_pocl_cache();

// The folder of the user's that stands for the grader's PoCL cache `cache`: the same one each time,
// so that the children of one kernel and a batch worker's build service share it; removed once
// `cache` itself is gone.
std::filesystem::path pocl_cache_for(const ChildUser& user, const std::filesystem::path& cache);

// Where the children's PoCL cache `cache` really is (the folder above, or `cache` itself when the
// children run as the grader's own user), and emptying it for them to go on writing into.
std::filesystem::path pocl_cache_in_use(const std::filesystem::path& cache);
void empty_pocl_cache(const std::filesystem::path& cache);

}  // namespace grader
