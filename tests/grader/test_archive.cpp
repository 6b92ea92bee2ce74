// Submission archive extraction: good archives extract to the exact bytes, hostile ones are refused
// and leave nothing behind. The archives are built here with libarchive's write API.
#include <archive.h>
#include <archive_entry.h>
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "intake/archive.hpp"
#include "kit/errors.hpp"

namespace fs = std::filesystem;

namespace {

// A fresh folder under the system temp folder, removed with everything in it at the end.
struct TempDir {
  fs::path path;
  TempDir() {
    std::random_device random;
    do path = fs::temp_directory_path() / ("grader-archive-test-" + std::to_string(random()));
    while (!fs::create_directory(path));
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

enum class Kind { File, Dir, Symlink, Hardlink, CharDevice, BlockDevice, Fifo };
enum class Format { Zip, TarGz, Tar };
using Named = std::pair<Format, std::string>;  // an archive format and a file name for it

struct Entry {
  std::string name;
  Kind kind = Kind::File;
  std::string data;  // a file's bytes, or a link's target
  int mode = 0644;
};

Entry file(const std::string& name, const std::string& data) { return {name, Kind::File, data}; }
Entry dir(const std::string& name) { return {name, Kind::Dir, "", 0755}; }

void write_archive(const fs::path& path, Format format, const std::vector<Entry>& entries) {
  struct archive* a = archive_write_new();
  if (format == Format::Zip) {
    archive_write_set_format_zip(a);
  } else {
    archive_write_set_format_pax_restricted(a);
    if (format == Format::TarGz) archive_write_add_filter_gzip(a);
  }
  REQUIRE(archive_write_open_filename(a, path.c_str()) == ARCHIVE_OK);
  for (const Entry& e : entries) {
    struct archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, e.name.c_str());
    archive_entry_set_perm(entry, static_cast<mode_t>(e.mode));
    archive_entry_set_size(entry, 0);
    switch (e.kind) {
      case Kind::File:
        archive_entry_set_filetype(entry, AE_IFREG);
        archive_entry_set_size(entry, static_cast<la_int64_t>(e.data.size()));
        break;
      case Kind::Dir:
        archive_entry_set_filetype(entry, AE_IFDIR);
        break;
      case Kind::Symlink:
        archive_entry_set_filetype(entry, AE_IFLNK);
        archive_entry_set_symlink(entry, e.data.c_str());
        break;
      case Kind::Hardlink:
        archive_entry_set_filetype(entry, AE_IFREG);
        archive_entry_set_hardlink(entry, e.data.c_str());
        break;
      case Kind::CharDevice:
      case Kind::BlockDevice:
        archive_entry_set_filetype(entry, e.kind == Kind::CharDevice ? AE_IFCHR : AE_IFBLK);
        archive_entry_set_rdevmajor(entry, 1);
        archive_entry_set_rdevminor(entry, 3);
        break;
      case Kind::Fifo:
        archive_entry_set_filetype(entry, AE_IFIFO);
        break;
    }
    INFO("writing entry ", e.name, ": ", archive_error_string(a) ? archive_error_string(a) : "");
    REQUIRE(archive_write_header(a, entry) == ARCHIVE_OK);
    if (e.kind == Kind::File && !e.data.empty())
      REQUIRE(archive_write_data(a, e.data.data(), e.data.size()) == static_cast<la_ssize_t>(e.data.size()));
    archive_entry_free(entry);
  }
  REQUIRE(archive_write_close(a) == ARCHIVE_OK);
  archive_write_free(a);
}

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// Deterministic bytes, every value 0..255 possible (NULs included).
std::string random_bytes(std::size_t count, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_int_distribution<int> byte(0, 255);
  std::string bytes(count, '\0');
  for (char& c : bytes) c = static_cast<char>(byte(engine));
  return bytes;
}

// Every file (its bytes) and folder ("<dir>") under `root`, by relative path.
std::map<std::string, std::string> tree(const fs::path& root) {
  std::map<std::string, std::string> found;
  for (const auto& item : fs::recursive_directory_iterator(root)) {
    const std::string name = item.path().lexically_relative(root).generic_string();
    found[name] = item.is_directory() ? "<dir>" : read_bytes(item.path());
  }
  return found;
}

// The kit::Error message extract_archive throws, or "" when it does not throw.
std::string refusal(const fs::path& archive, const fs::path& target, const grader::ExtractLimits& limits = {}) {
  try {
    grader::extract_archive(archive, target, limits);
  } catch (const kit::Error& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::uint32_t get_le32(const std::string& bytes, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
  return v;
}
void put_le32(std::string& bytes, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

// Rewrites a 32-bit field, at `offset` after every zip record with `signature`, from `from` to
// `to`; returns how many it changed.
int patch_zip(const fs::path& path, const std::string& signature, std::size_t offset, std::uint32_t from,
              std::uint32_t to) {
  std::string bytes = read_bytes(path);
  int patched = 0;
  for (std::size_t at = bytes.find(signature); at != std::string::npos; at = bytes.find(signature, at + 1)) {
    if (at + offset + 4 <= bytes.size() && get_le32(bytes, at + offset) == from) {
      put_le32(bytes, at + offset, to);
      ++patched;
    }
  }
  write_bytes(path, bytes);
  return patched;
}
const std::string kLocalHeader("PK\3\4", 4), kCentralHeader("PK\1\2", 4), kDataDescriptor("PK\7\x08", 4);

const std::string kKernel = "__kernel void k(__global float* x) { x[0] = 1.0f; }\n";

// A small submission with nested folders, a leading "./", an empty file and binary data.
std::vector<Entry> good_entries() {
  return {dir("lab03/"),
          file("lab03/ArrayMultReduce.cl", kKernel),
          file("./lab03/notes/README.txt", "no notes\n"),
          file("deep/a/b/c/data.bin", random_bytes(5000, 1)),
          file("empty.txt", ""),
          dir("./empty-dir/")};
}

std::map<std::string, std::string> good_tree() {
  return {{"lab03", "<dir>"},
          {"lab03/ArrayMultReduce.cl", kKernel},
          {"lab03/notes", "<dir>"},
          {"lab03/notes/README.txt", "no notes\n"},
          {"deep", "<dir>"},
          {"deep/a", "<dir>"},
          {"deep/a/b", "<dir>"},
          {"deep/a/b/c", "<dir>"},
          {"deep/a/b/c/data.bin", random_bytes(5000, 1)},
          {"empty.txt", ""},
          {"empty-dir", "<dir>"}};
}

void check_good_archive(Format format, const std::string& name) {
  TempDir tmp;
  const fs::path archive = tmp.path / name;
  write_archive(archive, format, good_entries());
  const fs::path target = tmp.path / "out" / "alice";  // parents are created too
  grader::extract_archive(archive, target);
  CHECK(tree(target) == good_tree());
}

// Builds an archive of a few good files followed by `bad`, extracts it, and checks the refusal names
// the archive and the entry and says `why`, and that nothing was left behind.
void check_refused(Format format, const std::string& archive_name, const Entry& bad, const std::string& why) {
  TempDir tmp;
  const fs::path archive = tmp.path / archive_name;
  write_archive(archive, format, {dir("src/"), file("src/ok.cl", kKernel), file("ok.txt", "fine"), bad});
  const fs::path target = tmp.path / "alice";
  const std::string message = refusal(archive, target);
  INFO("message: ", message);
  CHECK(contains(message, archive_name + ": "));
  CHECK(contains(message, "'" + bad.name + "'"));
  CHECK(contains(message, why));
  CHECK_FALSE(fs::exists(target));
}

}  // namespace

TEST_CASE("is_archive knows zip, tar.gz, tgz and tar in any case") {
  CHECK(grader::is_archive("alice.zip"));
  CHECK(grader::is_archive("subs/bob.tar.gz"));
  CHECK(grader::is_archive("carol.tgz"));
  CHECK(grader::is_archive("dave.tar"));
  CHECK(grader::is_archive("ERIN.ZIP"));
  CHECK(grader::is_archive("Frank.Tar.Gz"));
  CHECK_FALSE(grader::is_archive("kernel.cl"));
  CHECK_FALSE(grader::is_archive("notes.gz"));
  CHECK_FALSE(grader::is_archive("alice.zip.txt"));
  CHECK_FALSE(grader::is_archive("zip"));
  CHECK_FALSE(grader::is_archive("folder.zip/kernel.cl"));
}

TEST_CASE("archive_stem drops the whole archive suffix") {
  CHECK(grader::archive_stem("alice.tar.gz") == "alice");
  CHECK(grader::archive_stem("bob.zip") == "bob");
  CHECK(grader::archive_stem("carol.tgz") == "carol");
  CHECK(grader::archive_stem("subs/dave.tar") == "dave");
  CHECK(grader::archive_stem("Erin.Smith.TAR.GZ") == "Erin.Smith");
  CHECK(grader::archive_stem("kernel.cl") == "kernel");
}

TEST_CASE("a good zip extracts to the exact bytes") { check_good_archive(Format::Zip, "alice.zip"); }
TEST_CASE("a good tar.gz extracts to the exact bytes") { check_good_archive(Format::TarGz, "alice.tar.gz"); }
TEST_CASE("a good tgz extracts to the exact bytes") { check_good_archive(Format::TarGz, "alice.tgz"); }
TEST_CASE("a good tar extracts to the exact bytes") { check_good_archive(Format::Tar, "alice.tar"); }

TEST_CASE("extracted files are 0644 and folders 0755 whatever the archive says") {
  TempDir tmp;
  // With no umask, a file or folder created without setting its mode would be 0666 or 0777.
  struct NoUmask {
    mode_t saved = umask(0);
    ~NoUmask() { umask(saved); }
  } no_umask;
  for (const auto& [format, name] : {Named{Format::Zip, "m.zip"}, Named{Format::TarGz, "m.tar.gz"}}) {
    CAPTURE(name);
    const fs::path archive = tmp.path / name;
    write_archive(archive, format,
                  {{"secret/", Kind::Dir, "", 0700},
                   {"secret/run.sh", Kind::File, "#!/bin/sh\n", 04777},
                   {"locked.txt", Kind::File, "x", 0000}});
    const fs::path target = tmp.path / ("out-" + name);
    grader::extract_archive(archive, target);
    const auto mode = [](const fs::path& p) { return static_cast<int>(fs::status(p).permissions() & fs::perms::mask); };
    CHECK(mode(target) == 0755);
    CHECK(mode(target / "secret") == 0755);
    CHECK(mode(target / "secret" / "run.sh") == 0644);
    CHECK(mode(target / "locked.txt") == 0644);
    CHECK(read_bytes(target / "secret" / "run.sh") == "#!/bin/sh\n");
  }
}

TEST_CASE("paths that leave the extraction folder are refused") {
  for (const auto& [format, name] : {Named{Format::Zip, "alice.zip"}, Named{Format::TarGz, "alice.tar.gz"}}) {
    CAPTURE(name);
    check_refused(format, name, file("../evil.cl", "x"), "leaves the extraction folder; refused");
    check_refused(format, name, file("a/../../x.cl", "x"), "leaves the extraction folder; refused");
    check_refused(format, name, file("src/../ok2.cl", "x"), "leaves the extraction folder; refused");  // any ".."
    check_refused(format, name, file("./..", "x"), "leaves the extraction folder; refused");
    check_refused(format, name, dir("../up/"), "leaves the extraction folder; refused");
    check_refused(format, name, file("/abs/evil.cl", "x"), "is an absolute path; refused");
    check_refused(format, name, file("/etc/passwd", "x"), "is an absolute path; refused");
  }
}

TEST_CASE("links are refused") {
  const std::string symlink = "is a symbolic link; links are refused", hardlink = "is a hard link; links are refused";
  check_refused(Format::Zip, "bob.zip", {"link.cl", Kind::Symlink, "/etc/passwd"}, symlink);
  check_refused(Format::TarGz, "bob.tar.gz", {"link.cl", Kind::Symlink, "src/ok.cl"}, symlink);
  check_refused(Format::Tar, "bob.tar", {"dirlink", Kind::Symlink, "/tmp"}, symlink);
  check_refused(Format::TarGz, "bob.tar.gz", {"hard.cl", Kind::Hardlink, "src/ok.cl"}, hardlink);
  check_refused(Format::Tar, "bob.tar", {"hard.cl", Kind::Hardlink, "/etc/passwd"}, hardlink);
}

TEST_CASE("devices and FIFOs are refused") {
  check_refused(Format::TarGz, "carol.tar.gz", {"null", Kind::CharDevice, ""}, "is a device file; refused");
  check_refused(Format::Tar, "carol.tar", {"disk", Kind::BlockDevice, ""}, "is a device file; refused");
  check_refused(Format::TarGz, "carol.tar.gz", {"pipe", Kind::Fifo, ""}, "is a FIFO; refused");
}

TEST_CASE("a socket is refused") {
  // Neither tar nor libarchive's zip writer stores sockets, so a regular zip entry gets the socket
  // type in its central-directory Unix mode (external attributes, upper 16 bits).
  TempDir tmp;
  const fs::path archive = tmp.path / "dan.zip";
  write_archive(archive, Format::Zip, {{"ok.cl", Kind::File, kKernel, 0600}, file("sock", "")});
  REQUIRE(patch_zip(archive, kCentralHeader, 38, 0100644u << 16, 0140644u << 16) == 1);
  const fs::path target = tmp.path / "dan";
  const std::string message = refusal(archive, target);
  INFO("message: ", message);
  CHECK(contains(message, "dan.zip: entry 'sock' is a socket; refused"));
  CHECK_FALSE(fs::exists(target));
}

TEST_CASE("a refusal leaves an existing empty target empty") {
  TempDir tmp;
  const fs::path archive = tmp.path / "eve.tar.gz";
  write_archive(archive, Format::TarGz, {file("a/b/c.cl", kKernel), file("d.txt", "d"), file("../e.cl", "e")});
  const fs::path target = tmp.path / "eve";
  fs::create_directory(target);
  CHECK(contains(refusal(archive, target), "eve.tar.gz: entry '../e.cl' leaves the extraction folder; refused"));
  REQUIRE(fs::is_directory(target));
  CHECK(fs::is_empty(target));
}

TEST_CASE("a target that is not an empty folder is refused and left alone") {
  TempDir tmp;
  const fs::path archive = tmp.path / "fay.zip";
  write_archive(archive, Format::Zip, good_entries());
  const fs::path target = tmp.path / "fay";
  fs::create_directory(target);
  write_bytes(target / "earlier.txt", "keep me");
  CHECK(contains(refusal(archive, target), "is not an empty folder; refused"));
  CHECK(tree(target) == std::map<std::string, std::string>{{"earlier.txt", "keep me"}});

  const fs::path file_target = tmp.path / "plain-file";
  write_bytes(file_target, "keep me too");
  CHECK(contains(refusal(archive, file_target), "fay.zip: target"));
  CHECK(read_bytes(file_target) == "keep me too");
}

TEST_CASE("the per-file size cap counts the bytes actually read") {
  grader::ExtractLimits limits;
  limits.max_file_bytes = 1000;
  TempDir tmp;
  for (const auto& [format, name] : {Named{Format::Zip, "gus.zip"}, Named{Format::TarGz, "gus.tar.gz"}}) {
    CAPTURE(name);
    const fs::path archive = tmp.path / name;
    write_archive(archive, format, {file("fits.bin", random_bytes(1000, 2))});
    const fs::path fits = tmp.path / ("fits-" + name);
    grader::extract_archive(archive, fits, limits);  // exactly the cap is fine
    CHECK(read_bytes(fits / "fits.bin") == random_bytes(1000, 2));

    write_archive(archive, format, {file("ok.cl", kKernel), file("big.bin", random_bytes(1001, 3))});
    const fs::path target = tmp.path / ("big-" + name);
    const std::string message = refusal(archive, target, limits);
    CHECK(message == name + ": more than 1000 bytes in entry 'big.bin'; refused");
    CHECK_FALSE(fs::exists(target));
  }
}

TEST_CASE("the total size cap spans all files") {
  grader::ExtractLimits limits;
  limits.max_total_bytes = 1000;
  TempDir tmp;
  const fs::path archive = tmp.path / "hana.tar.gz";
  write_archive(archive, Format::TarGz,
                {file("a.bin", std::string(400, 'a')), file("b.bin", std::string(400, 'b')),
                 file("c.bin", std::string(400, 'c'))});
  const fs::path target = tmp.path / "hana";
  const std::string message = refusal(archive, target, limits);
  CHECK(message == "hana.tar.gz: more than 1000 bytes in all (at entry 'c.bin'); refused");
  CHECK_FALSE(fs::exists(target));

  limits.max_total_bytes = 1200;  // exactly the total is fine
  grader::extract_archive(archive, target, limits);
  CHECK(fs::file_size(target / "c.bin") == 400);
}

TEST_CASE("a zip bomb is stopped by the caps, not by its header") {
  TempDir tmp;
  grader::ExtractLimits limits;
  limits.max_file_bytes = 1000;
  limits.max_total_bytes = 1000;

  SUBCASE("a megabyte of zeros compresses to almost nothing") {
    const fs::path archive = tmp.path / "ivy.zip";
    write_archive(archive, Format::Zip, {file("zeros.bin", std::string(1 << 20, '\0'))});
    REQUIRE(fs::file_size(archive) < 5000);
    const fs::path target = tmp.path / "ivy";
    CHECK(refusal(archive, target, limits) == "ivy.zip: more than 1000 bytes in entry 'zeros.bin'; refused");
    CHECK_FALSE(fs::exists(target));
  }
  SUBCASE("a header that claims 100 bytes for a megabyte") {
    // libarchive only compares the real size with the header at the end of the entry (a small
    // entry fails there with its own message); the cap must stop a big one long before that.
    const fs::path archive = tmp.path / "jon.zip";
    const std::uint32_t real = 1 << 20;
    write_archive(archive, Format::Zip, {file("liar.bin", std::string(real, 'x'))});
    // The uncompressed size lives in the local header (+22), the data descriptor (+12) and the
    // central directory (+24); libarchive writes it in at least the last two for deflated data.
    const int patched = patch_zip(archive, kLocalHeader, 22, real, 100) +
                        patch_zip(archive, kDataDescriptor, 12, real, 100) +
                        patch_zip(archive, kCentralHeader, 24, real, 100);
    REQUIRE(patched >= 2);
    const fs::path target = tmp.path / "jon";
    CHECK(refusal(archive, target, limits) == "jon.zip: more than 1000 bytes in entry 'liar.bin'; refused");
    CHECK_FALSE(fs::exists(target));
  }
}

TEST_CASE("the entry count is capped") {
  grader::ExtractLimits limits;
  limits.max_entries = 3;
  TempDir tmp;
  const fs::path archive = tmp.path / "kim.zip";
  write_archive(archive, Format::Zip, {dir("d/"), file("d/1", "1"), file("d/2", "2"), file("d/3", "3")});
  const fs::path target = tmp.path / "kim";
  CHECK(refusal(archive, target, limits) == "kim.zip: more than 3 entries (at entry 'd/3'); refused");
  CHECK_FALSE(fs::exists(target));

  limits.max_entries = 4;
  grader::extract_archive(archive, target, limits);
  CHECK(read_bytes(target / "d" / "3") == "3");
}

TEST_CASE("corrupt and unreadable archives are refused with libarchive's reason") {
  TempDir tmp;
  const fs::path target = tmp.path / "out";

  const fs::path noise = tmp.path / "leo.zip";
  write_bytes(noise, random_bytes(4096, 4));
  std::string message = refusal(noise, target);
  INFO("message: ", message);
  CHECK(contains(message, "leo.zip: "));
  CHECK(contains(message, "Unrecognized archive format"));
  CHECK_FALSE(fs::exists(target));

  const fs::path missing = tmp.path / "nobody.tar.gz";
  message = refusal(missing, target);
  CHECK(contains(message, "nobody.tar.gz: cannot read the archive: "));
  CHECK_FALSE(fs::exists(target));

  // Cut off after 1.bin was written: the half-extracted submission must go too. (Big enough that
  // libarchive's read-ahead at open does not already reach the cut.)
  const fs::path cut = tmp.path / "mia.tar.gz";
  write_archive(cut, Format::TarGz, {file("1.bin", random_bytes(400000, 5)), file("2.bin", random_bytes(400000, 6))});
  const std::string whole = read_bytes(cut);
  write_bytes(cut, whole.substr(0, whole.size() * 3 / 4));
  message = refusal(cut, target);
  CHECK(contains(message, "mia.tar.gz: corrupt data in entry '2.bin': "));
  CHECK_FALSE(fs::exists(target));

  // A damaged second tar header: libarchive answers ARCHIVE_RETRY, which is no reason to go on.
  const fs::path damaged = tmp.path / "pia.tar";
  write_archive(damaged, Format::Tar, {file("1.txt", "one"), file("2.txt", "two")});
  std::string tar_bytes = read_bytes(damaged);
  const std::size_t second = tar_bytes.find("2.txt");
  REQUIRE(second != std::string::npos);
  tar_bytes.replace(second + 100, 8, "garbage!");  // the mode field: breaks the header checksum
  write_bytes(damaged, tar_bytes);
  message = refusal(damaged, target);
  CHECK(contains(message, "pia.tar: corrupt or unreadable archive: "));
  CHECK_FALSE(fs::exists(target));

  const fs::path broken_zip = tmp.path / "ned.zip";
  write_archive(broken_zip, Format::Zip,
                {file("1.bin", random_bytes(20000, 7)), file("2.bin", random_bytes(20000, 8))});
  std::string zip_bytes = read_bytes(broken_zip);
  for (std::size_t i = 25000; i < 26000; ++i) zip_bytes[i] = static_cast<char>(~zip_bytes[i]);  // inside 2.bin's data
  write_bytes(broken_zip, zip_bytes);
  message = refusal(broken_zip, target);
  CHECK(contains(message, "ned.zip: corrupt data in entry '2.bin': "));
  CHECK_FALSE(fs::exists(target));
}

TEST_CASE("a file where a folder must go is refused") {
  TempDir tmp;
  const fs::path archive = tmp.path / "olga.tar";
  write_archive(archive, Format::Tar, {file("a", "i am a file"), file("a/b.cl", kKernel)});
  const fs::path target = tmp.path / "olga";
  const std::string message = refusal(archive, target);
  INFO("message: ", message);
  CHECK(contains(message, "olga.tar: cannot extract entry 'a/b.cl'"));
  CHECK_FALSE(fs::exists(target));
}
