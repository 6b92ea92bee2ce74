#pragma once
// Executable READMEs: the fenced blocks of a README, the commands they show, the paths they name,
// and running those commands in the tree the README describes.
//
// The marking convention (one rule for every README of the kit and of the student release):
//   ```sh        commands, one a line (a trailing `\` continues it), run from the tree's root.
//                Each must exit 0, unless its comment says `exits N` (`# exits 1 until ...`).
//   ```synopsis  usage forms with placeholders (`DIR`, `OUT`, `[--jobs N]`, `...`): not run; the
//                program or grader subcommand is run with `--help`, which must name every flag shown.
//   ```text      output the ```sh block just above printed: its shape is checked against what the
//                block's commands print now (each quoted line, its digits masked, is a line of it).
//                After anything but a ```sh block, it quotes a measured log that the prose just
//                before it names (`slides/data/logs/...`): its shape is checked against that file.
//   anything else (``` plain, ```cmake, ```c, ```json): kernels, data, diagrams, never run. A plain
//                block holding a line that starts like a command (`make `, `build/bin/`, `scripts/`,
//                `cmake `, `ctest`, `./`, `sudo `, `apt`) is an error: it must be marked.
// A command whose comment starts with `the full sweep` takes minutes: it is not run, and the README
// must show a smaller form of the same program (or make target), which is.
// Some commands cannot run on a test machine (a GPU, a Slurm cluster, apt as root, the whole suite):
// `not_run_reason` names them and why; the tests still check their program and flags with --help.
#include <filesystem>
#include <string>
#include <vector>

namespace test::docs {

struct Block {
  std::string where;  // README:line of the opening fence
  std::string info;   // the fence's info string: sh, synopsis, text, cmake, "" ...
  std::vector<std::string> lines;
  std::string before;  // the prose between the previous block and this one
};

struct Shown {
  std::string where;     // README:line
  std::string command;   // without its comment
  std::string comment;   // after `#`, or ""
  int expected_exit = 0; // from `exits N` in the comment
  bool synopsis = false;
  std::size_t block = 0;                   // which fenced block of the README it is in
  std::vector<std::string> quoted_output;  // on a block's last command: the ```text block right after the block
};

std::vector<Block> blocks(const std::filesystem::path& readme, const std::string& shown_as);

// Every command of the README's ```sh and ```synopsis blocks, in order. Throws std::runtime_error
// naming README:line for an unmarked block that holds a command.
std::vector<Shown> commands(const std::filesystem::path& readme, const std::string& shown_as);

// A ```text block that quotes a measured log rather than a command's output.
struct QuotedLog {
  std::string where, log;  // README:line, and the log's path in the tree
  std::vector<std::string> lines;
};
// Throws std::runtime_error naming README:line for a quote whose prose names no log.
std::vector<QuotedLog> quoted_logs(const std::filesystem::path& readme, const std::string& shown_as);

// Paths the README names in `backticks` (outside fenced blocks) or as a link target: those that
// start with one of `tops` (`labs/`, `Makefile`, `build/bin/` ...), without placeholders (`<lab>`,
// `NN`, `09-name`, `{a,b}`, `...`). Globs (`*`) are kept, to be listed with `ls -d`. A link target
// relative to the README (`../../docs/...`, an image) is given as the absolute path it points to.
std::vector<std::string> named_paths(const std::filesystem::path& readme, const std::vector<std::string>& tops);

// Runs every command `commands()` finds in `readme`, from `tree`, under `env` (VAR=value ...),
// with doctest checks: the exit status the README gives, the quoted output's shape, and for what is
// not run, its program's --help naming every flag. `make` runs with its build and setup targets
// taken as done (`make -o build -o setup`): the tree's build/bin is the test's own build. A line
// another README of the same tree showed already is not run again (its first run counts); within one
// README every line runs (the walk-through reruns a command after a change). Prints what was not run.
// A line whose comment says `kit only` needs what the student release leaves out (solutions/, the
// speed case): in a release it is not run (its --help is checked); in the kit, `kit_only_lines`
// runs those lines alone (the labs' other lines run in the release).
enum class Scope { kit, kit_only_lines, release };
void run_commands(const std::filesystem::path& tree, const std::filesystem::path& readme, const std::string& shown_as,
                  const std::string& env, Scope scope);

// Why a command is not run here ("" when it is run).
std::string not_run_reason(const std::string& command);

// The program and grader subcommand of a command line, with `--help`: `build/bin/grader grade --help`.
std::string help_of(const std::string& command);
// The flags (`--jobs`, `-p`) a command line passes to its program.
std::vector<std::string> flags_of(const std::string& command);

// The shape of a line: its words joined by one space, each run of digits replaced by `#`
// ("2026-11-25 16:07" -> "#-#-# #:#", "01-array-mult,0,18" -> "#-array-mult,#,#").
std::string shape(const std::string& line);
// Quoted output lines whose shape is not the shape of any line of `output`.
std::vector<std::string> unmatched_quotes(const std::vector<std::string>& quoted, const std::string& output);

}  // namespace test::docs
