#include "kit/evidence_hint.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <regex>

#include "kit/kernel_code.hpp"

namespace kit {

namespace {

// Whether the store at `line` indexes its array with get_local_id, or with a name assigned from it.
bool indexed_by_local_id(const std::string& source, int line) {
  static const std::regex store(R"(\[([^\]]+)\]\s*=[^=])"), word(R"([A-Za-z_]\w*)");
  const std::string text = source_line(source, line);
  std::smatch m;
  if (!std::regex_search(text, m, store)) return false;
  const std::string index = m[1].str();
  if (index.find("get_local_id") != std::string::npos) return true;
  const std::string code = code_without_comments(source);
  for (auto it = std::sregex_iterator(index.begin(), index.end(), word); it != std::sregex_iterator(); ++it)
    if (std::regex_search(code, std::regex("\\b" + it->str() + R"(\s*=\s*(\(\s*\w+\s*\)\s*)?get_local_id)"))) return true;
  return false;
}

}  // namespace

const OclgrindFinding* first_finding(const std::vector<OclgrindFinding>& findings) {
  for (const char* kind : {"invalid-access", "data-race", "barrier-divergence", "other", "uninitialized"})
    for (const OclgrindFinding& f : findings)
      if (f.kind == kind) return &f;
  return nullptr;
}

std::string evidence_sentence(const OclgrindFinding& f, const std::string& where, const std::string& source,
                              const std::string& shown_as) {
  std::string text = "Oclgrind, on " + where + ": " + describe(f, source, shown_as) + ".";
  static const std::regex group(R"(Group\((\d+,\d+,\d+)\))"), atomic(R"(\b(atomic|atom)_\w+\s*\()");
  std::smatch a, b;
  const bool across_groups = f.kind == "data-race" && f.sites.size() >= 2 && std::regex_search(f.sites[0].work_item, a, group) &&
                             std::regex_search(f.sites[1].work_item, b, group) && a[1] != b[1];
  if (!across_groups) return text;
  const bool any_atomic = std::any_of(f.sites.begin(), f.sites.end(), [&](const OclgrindSite& s) {
    return std::regex_search(source_line(source, s.line), atomic);
  });
  const bool write_write = f.title.find("rite-write") != std::string::npos;
  if (!any_atomic && write_write)
    // Plain stores of many work-groups to one element: the index, not the atomicity, is at fault.
    text += " Work-items of different work-groups store to the same element at " + shown_as + ":" + std::to_string(f.sites[0].line) +
            ": each work-item must write an element of its own" +
            (indexed_by_local_id(source, f.sites[0].line)
                 ? std::string(", and an index built from get_local_id repeats in every work-group (get_global_id numbers the work-items of "
                               "the whole launch)")
                 : std::string());
  else if (!any_atomic)
    text += " The update at " + shown_as + ":" + std::to_string(f.sites[0].line) +
            " is not atomic: work-groups that run at the same time each read the old value and write their own, and no "
            "barrier orders work-groups; make it one atomic update";
  else
    text += " One of these lines is an atomic update and the other a plain access of the same element: every access "
            "that another work-group's update can come between must be part of the atomic update (or retried when a "
            "compare-and-swap finds the value changed)";
  return text + (text.back() == '.' ? "" : ".");
}


std::vector<const OclgrindFinding*> findings_to_name(const std::vector<OclgrindFinding>& findings) {
  std::vector<const OclgrindFinding*> named;
  for (const char* kind : {"invalid-access", "other", "data-race", "barrier-divergence"}) {
    const auto f = std::find_if(findings.begin(), findings.end(), [&](const OclgrindFinding& x) { return x.kind == kind; });
    if (f != findings.end()) named.push_back(&*f);
  }
  if (named.empty())
    for (const OclgrindFinding& f : findings)
      if (f.kind == "uninitialized") return {&f};
  return named;
}

bool decides_result(const OclgrindFinding& f) { return f.kind != "uninitialized"; }

namespace {

bool across_groups(const OclgrindFinding& f) {
  static const std::regex group(R"(Group\((\d+,\d+,\d+)\))");
  std::smatch a, b;
  return f.sites.size() >= 2 && std::regex_search(f.sites[0].work_item, a, group) && std::regex_search(f.sites[1].work_item, b, group) &&
         a[1] != b[1];
}

// Offsets of the kernel code (comments blanked, lines kept) that the analysis below walks.
std::size_t line_start(const std::string& code, int line) {
  std::size_t at = 0;
  for (int l = 1; l < line && at != std::string::npos; ++l) {
    at = code.find('\n', at);
    if (at != std::string::npos) ++at;
  }
  return at == std::string::npos ? code.size() : at;
}

std::size_t line_end(const std::string& code, int line) {
  const std::size_t at = code.find('\n', line_start(code, line));
  return at == std::string::npos ? code.size() : at;
}

int line_of(const std::string& code, std::size_t offset) {
  return 1 + int(std::count(code.begin(), code.begin() + std::ptrdiff_t(std::min(offset, code.size())), '\n'));
}

// The '{' of the innermost block that holds `offset`, or npos.
std::size_t enclosing_brace(const std::string& code, std::size_t offset) {
  int depth = 0;
  for (std::size_t i = std::min(offset, code.size()); i-- > 0;) {
    if (code[i] == '}') ++depth;
    else if (code[i] == '{' && depth-- == 0) return i;
  }
  return std::string::npos;
}

// The '}' that closes the block opened at `open`, or npos.
std::size_t closing_brace(const std::string& code, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < code.size(); ++i) {
    if (code[i] == '{') ++depth;
    else if (code[i] == '}' && --depth == 0) return i;
  }
  return std::string::npos;
}

// What stands before a block's '{': `word (inside)` (an if, a loop or a function), where `word`
// starts at `at`.
struct Header {
  std::string word, inside;
  std::size_t at = std::string::npos;
};

std::optional<Header> header_before(const std::string& code, std::size_t end) {
  std::size_t i = end;
  while (i > 0 && std::isspace(static_cast<unsigned char>(code[i - 1]))) --i;
  if (i == 0 || code[i - 1] != ')') return std::nullopt;
  const std::size_t close = i - 1;
  int depth = 0;
  std::size_t open = std::string::npos;
  for (std::size_t k = close + 1; k-- > 0;) {
    if (code[k] == ')') ++depth;
    else if (code[k] == '(' && --depth == 0) {
      open = k;
      break;
    }
  }
  if (open == std::string::npos) return std::nullopt;
  std::size_t w = open;
  while (w > 0 && std::isspace(static_cast<unsigned char>(code[w - 1]))) --w;
  std::size_t start = w;
  while (start > 0 && (std::isalnum(static_cast<unsigned char>(code[start - 1])) || code[start - 1] == '_')) --start;
  return Header{code.substr(start, w - start), code.substr(open + 1, close - open - 1), start};
}

bool has_barrier(const std::string& text) {
  static const std::regex barrier(R"(\b(work_group_)?barrier\s*\()");
  return std::regex_search(text, barrier);
}

// A test that picks some work-items by their number: `tid < 32`, `lid < 16`.
bool picks_work_items(const std::string& condition) { return condition.find('<') != std::string::npos; }

struct Tail {
  std::string condition;
  int line = 0;
  bool is_volatile = false;
};

// The `if (COND)` on a statement at `offset` (`if (tid < 32) warp_sum(s, tid);`) or around its block.
std::optional<Tail> guarding_if(const std::string& code, std::size_t offset) {
  static const std::regex inline_if(R"(\bif\s*\(([^;{}]*)\)\s*$)");
  const std::size_t begin = line_start(code, line_of(code, offset));
  const std::string before = code.substr(begin, offset - begin);
  std::smatch m;
  if (std::regex_search(before, m, inline_if) && picks_work_items(m[1].str())) return Tail{m[1].str(), line_of(code, offset), false};
  const std::size_t brace = enclosing_brace(code, offset);
  if (brace == std::string::npos) return std::nullopt;
  const std::optional<Header> h = header_before(code, brace);
  if (h && h->word == "if" && picks_work_items(h->inside) && !has_barrier(code.substr(brace, offset - brace)))
    return Tail{h->inside, line_of(code, h->at), false};
  return std::nullopt;
}

}  // namespace

std::string unbarriered_tail(const OclgrindFinding& race, const std::string& source, const std::string& shown_as) {
  if (race.kind != "data-race" || race.sites.size() < 2 || across_groups(race) || race.sites[0].line <= 0 || race.sites[1].line <= 0)
    return "";
  const std::string code = code_without_comments(source);
  const int first = std::min(race.sites[0].line, race.sites[1].line), last = std::max(race.sites[0].line, race.sites[1].line);
  const std::size_t last_end = line_end(code, last);
  std::optional<Tail> tail;
  // Outward from the first line to its function: the blocks that hold both lines; the first `if`
  // among them that picks work-items, with no barrier from it to the later line, and no loop
  // around it (a loop's race is the tree loop's missing barrier, which the lab tells).
  for (std::size_t brace = enclosing_brace(code, line_start(code, first)); brace != std::string::npos;
       brace = enclosing_brace(code, brace)) {
    const std::size_t close = closing_brace(code, brace);
    if (close == std::string::npos || close < last_end) return "";  // the lines are not in one block
    const std::optional<Header> h = header_before(code, brace);
    if (!h) return "";
    const bool is_volatile = code.substr(brace, last_end - brace).find("volatile") != std::string::npos;
    if (h->word == "if") {
      if (!tail && picks_work_items(h->inside) && !has_barrier(code.substr(brace, last_end - brace)))
        tail = Tail{h->inside, line_of(code, h->at), is_volatile};
    } else if (h->word == "for" || h->word == "while" || h->word == "switch") {
      return "";
    } else if (tail) {
      break;  // the function that holds the `if`
    } else {
      if (has_barrier(code.substr(brace, last_end - brace))) return "";
      // A function's body: the lines race when every call of it stands under one such `if`.
      const std::regex call("\\b" + h->word + R"(\s*\()");
      std::optional<Tail> under;
      std::size_t calls = 0;
      for (auto it = std::sregex_iterator(code.begin(), code.end(), call); it != std::sregex_iterator(); ++it) {
        const std::size_t at = std::size_t(it->position(0));
        if (at == h->at) continue;  // the definition
        ++calls;
        under = guarding_if(code, at);
        if (!under) return "";
      }
      if (calls == 0 || !under) return "";
      const bool volatile_params = code.substr(h->at, brace - h->at).find("volatile") != std::string::npos;
      tail = Tail{under->condition, under->line, is_volatile || volatile_params};
      break;
    }
  }
  if (!tail) return "";
  std::string text = "OpenCL promises no lock-step between work-items, not even within a warp or a wavefront: the adds after `if (" +
                     tail->condition + ")` (" + shown_as + ":" + std::to_string(tail->line) + ") race without barriers";
  if (tail->is_volatile) text += ", and volatile does not order work-items either";
  return text + ". Give each of these levels its own barrier(CLK_LOCAL_MEM_FENCE), outside the if, where every work-item of the "
                "work-group reaches it, as the levels above do";
}

std::string result_stored_past_end(const OclgrindFinding& write, const std::string& source, const std::string& shown_as) {
  if (write.kind != "invalid-access" || write.sites.empty() || write.sites[0].line <= 0) return "";
  if (write.title.find("write") == std::string::npos || write.title.find("global") == std::string::npos) return "";
  const std::string code = code_without_comments(source);
  const int line = write.sites[0].line;
  const std::string text = code.substr(line_start(code, line), line_end(code, line) - line_start(code, line));
  static const std::regex store(R"(\b([A-Za-z_]\w*)\s*\[([^\]]+)\]\s*=[^=])");
  std::smatch m;
  if (!std::regex_search(text, m, store)) return "";
  const std::string array = m[1].str(), index = m[2].str();
  if (index.find("get_group_id") != std::string::npos) return "";
  static const std::regex word(R"([A-Za-z_]\w*)");
  for (auto it = std::sregex_iterator(index.begin(), index.end(), word); it != std::sregex_iterator(); ++it)
    if (std::regex_search(code, std::regex("\\b" + it->str() + R"(\s*=\s*(\(\s*\w+\s*\)\s*)?get_group_id)"))) return "";
  // Once per work-group: under a test that the local id is 0, on its line, the line before, or around its block.
  static const std::regex only_first(R"(\bif\s*\([^;{}]*(==\s*0\b|\b0\s*==|!\s*[A-Za-z_]))");
  const std::size_t at = line_start(code, line);
  const std::size_t previous = line > 1 ? line_start(code, line - 1) : at;
  bool once = std::regex_search(code.substr(previous, line_end(code, line) - previous), only_first);
  if (const std::size_t brace = enclosing_brace(code, at); !once && brace != std::string::npos)
    if (const std::optional<Header> h = header_before(code, brace); h && h->word == "if")
      once = std::regex_search("if (" + h->inside + ")", only_first);
  if (!once) return "";
  return "The store at " + shown_as + ":" + std::to_string(line) + " runs once per work-group and writes " + array + "[" + index +
         "], past the end of " + array + ": each work-group's result belongs in its own element, " + array + "[get_group_id(0)]";
}

std::string race_in_unbarriered_loop(const OclgrindFinding& race, const std::string& source, const std::string& shown_as) {
  if (race.kind != "data-race" || race.sites.size() < 2 || across_groups(race) || race.sites[0].line <= 0 || race.sites[1].line <= 0)
    return "";
  const std::string code = code_without_comments(source);
  const int first = std::min(race.sites[0].line, race.sites[1].line), last = std::max(race.sites[0].line, race.sites[1].line);
  for (std::size_t brace = enclosing_brace(code, line_start(code, first)); brace != std::string::npos; brace = enclosing_brace(code, brace)) {
    const std::size_t close = closing_brace(code, brace);
    if (close == std::string::npos || close < line_end(code, last)) return "";  // the lines are not in one block
    const std::optional<Header> h = header_before(code, brace);
    if (!h) return "";
    if (h->word != "for" && h->word != "while") continue;
    if (has_barrier(code.substr(brace, close - brace))) return "";
    return "The race is inside the loop at " + shown_as + ":" + std::to_string(line_of(code, h->at)) + " (`" + h->word + " (" + h->inside +
           ")`), which holds no barrier: each pass reads what other work-items wrote in the pass before, so put "
           "barrier(CLK_LOCAL_MEM_FENCE) inside the loop, after each pass, where every work-item of the work-group reaches it";
  }
  return "";
}

namespace {

bool agrees(const std::string& lab_hint, const std::vector<const OclgrindFinding*>& named) {
  for (const OclgrindFinding* f : named) {
    if (f->kind == "data-race" && across_groups(*f) && lab_hint.find("atomic") != std::string::npos) return true;
    if (f->kind == "data-race" && !across_groups(*f) && lab_hint.find("barrier") != std::string::npos) return true;
    if (f->kind == "barrier-divergence" && lab_hint.find("barrier") != std::string::npos) return true;
    if (f->kind == "invalid-access")
      for (const char* words : {"past", "bounds", "index"})  // an element read or written past an array's end, an index
        if (lab_hint.find(words) != std::string::npos) return true;
  }
  return false;
}

std::string with_stop(std::string s) { return s.empty() || s.back() == '.' ? s : s + "."; }

}  // namespace

std::string hint_with_evidence(const std::string& lab_hint, const std::vector<OclgrindFinding>& findings, const std::string& where,
                               const std::string& source, const std::string& shown_as) {
  const std::vector<const OclgrindFinding*> named = findings_to_name(findings);
  if (named.empty()) return lab_hint;
  std::string evidence;
  bool explained = false;  // the code around a finding's lines told what it shows
  for (std::size_t i = 0; i < named.size(); ++i) {
    std::string sentence = evidence_sentence(*named[i], where, source, shown_as);
    if (i > 0) sentence = "It also found: " + sentence.substr(("Oclgrind, on " + where + ": ").size());
    evidence += (evidence.empty() ? "" : " ") + sentence;
    for (const std::string& more : {unbarriered_tail(*named[i], source, shown_as), result_stored_past_end(*named[i], source, shown_as)})
      if (!more.empty()) {
        evidence += " " + with_stop(more);
        explained = true;
      }
  }
  const bool decisive = std::any_of(named.begin(), named.end(), [](const OclgrindFinding* f) { return decides_result(*f); });
  if (!decisive) return lab_hint.empty() ? evidence : with_stop(lab_hint) + " " + evidence;
  // The lab's hint reads the cause from the result; the compiler's warnings stay whatever it says.
  const std::string warned = "The compiler warned about your code: ";
  const std::size_t w = lab_hint.find(warned);
  std::string guess = lab_hint.substr(0, w), warnings = w == std::string::npos ? "" : lab_hint.substr(w);
  while (!guess.empty() && guess.back() == ' ') guess.pop_back();
  std::string text = evidence;
  // A race inside a loop that holds no barrier: the tree loop's missing barrier, told where the lab
  // has no guess of its own to say it (a result the device got right by chance).
  std::string loop;
  for (const OclgrindFinding* f : named)
    if (loop.empty()) loop = race_in_unbarriered_loop(*f, source, shown_as);
  if (!explained && !loop.empty() && (guess.empty() || !agrees(guess, named))) {
    text += " " + with_stop(loop);
    explained = true;
  }
  if (!guess.empty() && !explained && agrees(guess, named)) {
    // A sentence starts upper case, unless it starts with a name of the code (reduce4_first_add's).
    const std::string first_word = guess.substr(0, guess.find_first_of(" '("));
    if (std::all_of(first_word.begin(), first_word.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); }))
      guess[0] = char(std::toupper(static_cast<unsigned char>(guess[0])));
    text += " " + with_stop(guess);
  } else if (!guess.empty() && !explained)
    text += " Such a fault leaves the result undefined, so no other cause is read from it: fix this first, then check again.";
  return warnings.empty() ? text : text + " " + warnings;
}

}  // namespace kit
