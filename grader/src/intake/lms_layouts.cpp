// Recognising an LMS's bulk download in a submissions folder and gathering each person's entries
// into one Student: Canvas and Moodle flat files, Moodle folders, GitHub Classroom clones.
#include "intake/lms_layouts.hpp"

#include <algorithm>
#include <map>
#include <regex>

#include "intake/archive.hpp"

namespace grader {
namespace {

namespace fs = std::filesystem;

// Latin letters with accents and their ASCII base letters (lower case), by code point range.
struct Fold {
  char32_t first, last;
  const char* ascii;
};
constexpr Fold kFolds[] = {
    {0xC0, 0xC5, "a"},   {0xC6, 0xC6, "ae"},  {0xC7, 0xC7, "c"},   {0xC8, 0xCB, "e"},   {0xCC, 0xCF, "i"},
    {0xD0, 0xD0, "d"},   {0xD1, 0xD1, "n"},   {0xD2, 0xD6, "o"},   {0xD8, 0xD8, "o"},   {0xD9, 0xDC, "u"},
    {0xDD, 0xDD, "y"},   {0xDE, 0xDE, "th"},  {0xDF, 0xDF, "ss"},  {0xE0, 0xE5, "a"},   {0xE6, 0xE6, "ae"},
    {0xE7, 0xE7, "c"},   {0xE8, 0xEB, "e"},   {0xEC, 0xEF, "i"},   {0xF0, 0xF0, "d"},   {0xF1, 0xF1, "n"},
    {0xF2, 0xF6, "o"},   {0xF8, 0xF8, "o"},   {0xF9, 0xFC, "u"},   {0xFD, 0xFD, "y"},   {0xFE, 0xFE, "th"},
    {0xFF, 0xFF, "y"},   {0x100, 0x105, "a"}, {0x106, 0x10D, "c"}, {0x10E, 0x111, "d"}, {0x112, 0x11B, "e"},
    {0x11C, 0x123, "g"}, {0x124, 0x127, "h"}, {0x128, 0x131, "i"}, {0x132, 0x133, "ij"}, {0x134, 0x135, "j"},
    {0x136, 0x138, "k"}, {0x139, 0x142, "l"}, {0x143, 0x14B, "n"}, {0x14C, 0x151, "o"}, {0x152, 0x153, "oe"},
    {0x154, 0x159, "r"}, {0x15A, 0x161, "s"}, {0x162, 0x167, "t"}, {0x168, 0x173, "u"}, {0x174, 0x175, "w"},
    {0x176, 0x178, "y"}, {0x179, 0x17E, "z"}, {0x17F, 0x17F, "s"},
};

// The code point starting at s[i] and its length in bytes; length 0 for a byte that does not start
// valid UTF-8.
std::pair<char32_t, std::size_t> decode(const std::string& s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return {0, 0};
  char32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) >> 6) != 0x2) return {0, 0};
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  const char32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {0, 0};  // overlong, surrogate
  return {cp, n};
}

// Scripts whose characters are kept as they are in a student name: Greek to Latin Extended
// Additional, kana to Hangul, CJK compatibility and extension ideographs (their few spaces aside).
bool kept_letter(char32_t cp) {
  if (cp == 0x1680 || cp == 0x180E) return false;  // Ogham space mark, Mongolian vowel separator
  return (cp >= 0x370 && cp <= 0x1FFF) || (cp >= 0x3040 && cp <= 0xD7AF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
         (cp >= 0x20000 && cp <= 0x2FA1F);
}

// Students that come out with the same name get their LMS id added: "ann-lee-4211".
void name_apart(std::vector<Student>& students) {
  std::map<std::string, int> count;
  for (const Student& s : students) ++count[s.student];
  for (Student& s : students)
    if (count[s.student] > 1) s.student += "-" + s.lms_id;
  std::sort(students.begin(), students.end(), [](const Student& a, const Student& b) { return a.student < b.student; });
}

// "12" < "345" as numbers, however long.
bool number_less(const std::string& a, const std::string& b) {
  return a.size() != b.size() ? a.size() < b.size() : a < b;
}

StudentListing read_canvas(const std::vector<fs::directory_entry>& entries) {
  StudentListing listing{kCanvasLayout, {}, {}};
  struct Person {
    std::string login;
    bool late = false;
    std::vector<std::pair<CanvasName, fs::path>> files;
  };
  std::map<std::string, Person, decltype(&number_less)> people(&number_less);  // by Canvas user id
  for (const fs::directory_entry& e : entries) {
    const std::string file = e.path().filename().string();
    const std::optional<CanvasName> c = e.is_regular_file() && !e.is_symlink() ? parse_canvas_name(file) : std::nullopt;
    if (!c) {
      listing.skipped.push_back(file + (e.is_symlink() ? ": a symbolic link; a Canvas download holds plain files"
                                                       : ": not a Canvas submission file (<login>_<userid>_<submissionid>_<file>)"));
      continue;
    }
    Person& p = people[c->user_id];
    if (p.login.empty()) p.login = c->login;
    p.late = p.late || c->late;
    p.files.emplace_back(*c, e.path());
  }
  for (auto& [id, p] : people) {
    Student s;
    s.student = student_identifier(p.login);
    if (s.student.empty()) s.student = "student-" + id;
    s.lms_id = id;
    if (p.late) s.notes.push_back(kCanvasLateNote);
    // The versions of each file: Canvas renames a file handed in again <file>-1, -2, ...; the highest counts.
    std::map<std::string, std::vector<std::pair<int, const std::pair<CanvasName, fs::path>*>>> versions;
    for (const auto& f : p.files) {
      const auto [name, copy] = canvas_copy(f.first.file);
      versions[name].emplace_back(copy, &f);
    }
    for (auto& [name, all] : versions) {
      std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : number_less(a.second->first.submission_id, b.second->first.submission_id);
      });
      const fs::path& newest = all.back().second->second;
      s.files.push_back({newest, name});
      if (all.size() > 1) {
        std::string older;
        for (std::size_t i = 0; i + 1 < all.size(); ++i) older += (older.empty() ? "" : ", ") + all[i].second->second.filename().string();
        s.notes.push_back(name + " was handed in " + std::to_string(all.size()) + " times: the newest, " +
                          newest.filename().string() + ", is graded as " + name + " (older: " + older + ")");
      }
    }
    s.entry = s.files.front().source;
    listing.students.push_back(std::move(s));
  }
  name_apart(listing.students);
  return listing;
}

StudentListing read_moodle(const std::vector<fs::directory_entry>& entries) {
  StudentListing listing{"Moodle download", {}, {}};
  struct Person {
    std::string full_name;
    std::vector<SubmittedFile> sources;
  };
  std::map<std::string, Person, decltype(&number_less)> people(&number_less);  // by Moodle participant id
  for (const fs::directory_entry& e : entries) {
    const std::string file = e.path().filename().string();
    const bool usable = !e.is_symlink() && (e.is_regular_file() || e.is_directory());
    const std::optional<MoodleName> m = usable ? parse_moodle_name(file) : std::nullopt;
    if (!m || (m->file.empty() && !e.is_directory())) {
      listing.skipped.push_back(file + (e.is_symlink() ? ": a symbolic link; a Moodle download holds plain files and folders"
                                                       : ": not a Moodle submission (<Full Name>_<id>_assignsubmission_file_...)"));
      continue;
    }
    Person& p = people[m->id];
    if (p.full_name.empty()) p.full_name = m->full_name;
    p.sources.push_back({e.path(), m->file});
  }
  for (auto& [id, p] : people) {
    Student s;
    s.student = student_identifier(p.full_name);
    if (s.student.empty()) s.student = "student-" + id;
    s.lms_id = id;
    s.entry = p.sources.front().source;
    // One submission folder is graded where it is; anything else is gathered into one submission.
    if (!(p.sources.size() == 1 && p.sources[0].name.empty())) s.files = p.sources;
    listing.students.push_back(std::move(s));
  }
  name_apart(listing.students);
  return listing;
}

std::optional<StudentListing> read_classroom(const std::vector<fs::directory_entry>& entries) {
  std::vector<fs::path> folders;
  std::vector<std::string> skipped;
  for (const fs::directory_entry& e : entries) {
    const std::string file = e.path().filename().string();
    if (e.is_directory() && !e.is_symlink()) folders.push_back(e.path());
    else if (e.is_regular_file() && is_archive(e.path())) return std::nullopt;  // a folder-or-archive class
    else skipped.push_back(file);
  }
  if (folders.size() < 2) return std::nullopt;
  std::string prefix = folders[0].filename().string();
  for (const fs::path& f : folders) {
    const std::string name = f.filename().string();
    std::size_t n = 0;
    while (n < prefix.size() && n < name.size() && prefix[n] == name[n]) ++n;
    prefix.resize(n);
  }
  const std::size_t dash = prefix.rfind('-');
  if (dash == std::string::npos || dash == 0) return std::nullopt;
  prefix.resize(dash + 1);
  static const std::regex version(R"(v[0-9]{1,4})");
  bool all_versions = true, any_labs = false;
  for (const fs::path& f : folders) {
    const std::string rest = f.filename().string().substr(prefix.size());
    if (rest.empty()) return std::nullopt;  // the bare assignment name is no one's clone
    all_versions = all_versions && std::regex_match(rest, version);
    any_labs = any_labs || fs::is_directory(f / "labs");
  }
  if (all_versions || !any_labs) return std::nullopt;  // ann-v2/, ann-v3/: versions of one student
  StudentListing listing{"GitHub Classroom clones of " + prefix, {}, {}};
  for (const std::string& s : skipped)
    listing.skipped.push_back(s + ": not a folder; GitHub Classroom clones are " + prefix + "<username>/ folders");
  for (const fs::path& f : folders) {
    Student s;
    s.student = f.filename().string().substr(prefix.size());
    s.entry = f;
    listing.students.push_back(std::move(s));
  }
  return listing;
}

}  // namespace

std::string student_identifier(const std::string& full_name) {
  std::string out;
  bool gap = false;  // a separator is owed before the next kept character
  const auto add = [&](const std::string& text) {
    if (gap && !out.empty()) out += '-';
    gap = false;
    out += text;
  };
  for (std::size_t i = 0; i < full_name.size();) {
    const auto [cp, n] = decode(full_name, i);
    if (n == 0) {  // not UTF-8: a separator
      gap = true;
      ++i;
      continue;
    }
    const std::string bytes = full_name.substr(i, n);
    i += n;
    if (cp < 0x80) {
      const char c = static_cast<char>(cp);
      if (c >= 'A' && c <= 'Z') add(std::string(1, char(c - 'A' + 'a')));
      else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) add(bytes);
      else gap = true;
      continue;
    }
    if (cp >= 0x300 && cp <= 0x36F) continue;  // a combining accent: e + U+0301 is e
    const auto fold = std::find_if(std::begin(kFolds), std::end(kFolds), [&](const Fold& f) { return cp >= f.first && cp <= f.last; });
    if (fold != std::end(kFolds)) add(fold->ascii);
    else if (kept_letter(cp)) add(bytes);
    else gap = true;
  }
  return out;
}

std::pair<std::string, int> canvas_copy(const std::string& file) {
  static const std::regex copy(R"((.+)-([0-9]{1,4}))");
  const std::size_t dot = file.rfind('.');
  const std::string stem = dot == std::string::npos || dot == 0 ? file : file.substr(0, dot);
  const std::string extension = file.substr(stem.size());
  std::smatch m;
  if (std::regex_match(stem, m, copy)) return {m[1].str() + extension, std::stoi(m[2])};
  return {file, 0};
}

std::optional<CanvasName> parse_canvas_name(const std::string& entry) {
  static const std::regex canvas(R"(([^_]+)_(?:([Ll][Aa][Tt][Ee])_)?([0-9]+)_([0-9]+)_(.+))");
  std::smatch m;
  if (!std::regex_match(entry, m, canvas)) return std::nullopt;
  return CanvasName{m[1], m[3], m[4], m[5], m[2].matched};
}

std::optional<MoodleName> parse_moodle_name(const std::string& entry) {
  static const std::regex moodle(R"((.+?)_([0-9]+)_assignsubmission_([A-Za-z0-9]+)_(.*))");
  std::smatch m;
  if (!std::regex_match(entry, m, moodle)) return std::nullopt;
  return MoodleName{m[1], m[2], m[3], m[4]};
}

std::optional<StudentListing> read_lms_layout(const std::vector<fs::directory_entry>& entries) {
  std::size_t canvas = 0, moodle = 0, plain = 0;
  for (const fs::directory_entry& e : entries) {
    if (e.is_symlink()) continue;
    const std::string name = e.path().filename().string();
    const bool file = e.is_regular_file(), folder = e.is_directory();
    if (file && parse_canvas_name(name)) ++canvas;
    else if ((file || folder) && parse_moodle_name(name)) ++moodle;
    else if (folder || (file && is_archive(e.path()))) ++plain;
  }
  const std::size_t lms = std::max(canvas, moodle);
  if (lms == 0 || plain > lms) return read_classroom(entries);
  return moodle >= canvas ? read_moodle(entries) : read_canvas(entries);
}

}  // namespace grader
