#include "draw/picture.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

namespace grader {
namespace {

// Where the columns are: one memory, a base address and a slot size.
struct Columns {
  char space = 'l';
  std::size_t base = 0, size = 4, slots = 0;
  std::optional<std::size_t> slot(const TraceSlot& s) const {
    if (s.space != space || s.address < base || (s.address - base) % size || (s.address - base) / size >= slots) return std::nullopt;
    return (s.address - base) / size;
  }
};

Columns columns_of(const LaunchTrace& t) {
  Columns c;
  c.space = std::any_of(t.events.begin(), t.events.end(), [](const TraceEvent& e) { return e.write.space == 'l'; }) ? 'l' : 'g';
  std::size_t low = SIZE_MAX, high = 0, size = SIZE_MAX;
  for (const TraceEvent& e : t.events)
    if (e.write.space == c.space) low = std::min(low, e.write.address), high = std::max(high, e.write.address), size = std::min(size, e.bytes);
  if (low == SIZE_MAX) return c;
  c.size = std::max<std::size_t>(size, 1);
  // The slots read near those written count too (a tree reads the upper half before writing it;
  // a pass over global memory reads its partners in the same buffer). Other buffers lie far away.
  for (const TraceEvent& e : t.events)
    for (const TraceSlot& r : e.reads)
      if (r.space == c.space && r.address >= low - std::min(low, c.size * 4096) && r.address <= high + c.size * 4096)
          low = std::min(low, r.address), high = std::max(high, r.address);
  c.base = low;
  c.slots = (high - low) / c.size + 1;
  return c;
}

// The drawn column of slot `s`: none when it is folded away.
std::optional<std::size_t> drawn(std::optional<std::size_t> s, std::size_t slots) {
  if (!s) return std::nullopt;
  if (slots <= 2 * kFoldKeep + 1 || *s < kFoldKeep) return s;
  if (*s >= slots - kFoldKeep) return *s - (slots - kFoldKeep) + kFoldKeep + 1;
  return std::nullopt;
}

// Local ids of a site's work-item in work-group `group` ("Local(3,0,0) Group(0,0,0)"), or none.
std::optional<std::size_t> local_id(const OclgrindSite& site, std::size_t group) {
  static const std::regex ids(R"(Local\((\d+),0,0\) Group\((\d+),0,0\))");
  std::smatch m;
  if (!std::regex_search(site.work_item, m, ids) || std::stoul(m[2]) != group) return std::nullopt;
  return std::stoul(m[1]);
}

// The row in which the race between work-items a and b on `slot` happened: one writes it and the
// other touches it in that phase; else the first phase two work-items touch it; else the last.
std::size_t race_row(const LaunchTrace& t, const Columns& c, const std::vector<std::size_t>& phases, std::size_t slot,
                     std::optional<std::size_t> a, std::optional<std::size_t> b) {
  std::optional<std::size_t> shared;
  for (std::size_t row = 0; row < phases.size(); ++row) {
    std::set<std::size_t> wrote, touched;
    for (const TraceEvent& e : t.events) {
      if (e.phase != phases[row]) continue;
      if (c.slot(e.write) == slot) wrote.insert(e.item), touched.insert(e.item);
      for (const TraceSlot& r : e.reads)
        if (c.slot(r) == slot) touched.insert(e.item);
    }
    if (a && b && ((wrote.count(*a) && touched.count(*b)) || (wrote.count(*b) && touched.count(*a)))) return row;
    if (!shared && !wrote.empty() && touched.size() > 1) shared = row;
  }
  return shared ? *shared : phases.empty() ? 0 : phases.size() - 1;
}

std::string line_of(const OclgrindSite& s) { return s.line > 0 ? "line " + std::to_string(s.line) : "an unknown line"; }

void add_marks(Picture& p, const LaunchTrace& t, const Columns& c, const std::vector<std::size_t>& phases,
               const std::vector<OclgrindFinding>& findings) {
  const std::size_t last = phases.empty() ? 0 : phases.size() - 1;
  for (const OclgrindFinding& f : findings) {
    if (!f.kernel.empty() && f.kernel != t.kernel) continue;  // another kernel's finding: its own picture shows it
    PictureMark m;
    m.row = last;
    if (f.kind == "data-race" && f.sites.size() >= 2) {
      const auto a = local_id(f.sites[0], t.group[0]), b = local_id(f.sites[1], t.group[0]);
      if (!a || !b) continue;  // another work-group's race: its own picture would show it
      m.kind = PictureMark::Race;
      m.text = "race: work-items " + std::to_string(*a) + " (" + line_of(f.sites[0]) + ") and " + std::to_string(*b) + " (" +
               line_of(f.sites[1]) + ")";
      const bool in_columns = (f.title.find("local") != std::string::npos) == (c.space == 'l');
      if (const auto slot = in_columns ? c.slot({c.space, f.address}) : std::nullopt) {
        m.row = race_row(t, c, phases, *slot, a, b);
        if (const auto col = drawn(slot, c.slots)) m.columns.push_back(*col);
        m.text += " on slot " + std::to_string(*slot);
      }
    } else if (f.kind == "invalid-access" && !f.sites.empty()) {
      m.kind = PictureMark::OutOfBounds;
      const auto a = local_id(f.sites[0], t.group[0]);
      if (!a) continue;
      for (std::size_t row = 0; row < phases.size(); ++row)
        for (const TraceEvent& e : t.events)
          if (e.phase == phases[row] && e.item == *a) m.row = row;
      m.text = "out of bounds: work-item " + std::to_string(*a) + " (" + line_of(f.sites[0]) + ")";
    } else if (f.kind == "barrier-divergence") {
      // Oclgrind names the barrier, not the phase: it is the one after the first phase in which
      // only some work-items worked (a barrier inside their `if`).
      m.kind = PictureMark::Divergence;
      for (std::size_t row = p.rows.size(); row-- > 0;)
        if (!p.rows[row].working.empty() && p.rows[row].working.size() < p.items) m.row = row;
      m.text = "barrier divergence (" + (f.sites.empty() ? std::string("an unknown line") : line_of(f.sites[0])) +
               "): not every work-item reached the barrier" +
               (p.rows.empty() ? std::string() : " that ends phase " + std::to_string(p.rows[m.row].phase));
    } else {
      continue;
    }
    p.marks.push_back(m);
  }
}

}  // namespace

std::string Picture::folded() const {
  if (slots <= 2 * kFoldKeep + 1) return "";
  return "slots " + std::to_string(kFoldKeep) + "–" + std::to_string(slots - kFoldKeep - 1) + " folded into …";
}

std::string ranges(const std::vector<std::size_t>& n, std::size_t most) {
  std::string out;
  std::size_t parts = 0;
  for (std::size_t i = 0; i < n.size();) {
    std::size_t j = i;
    while (j + 1 < n.size() && n[j + 1] == n[j] + 1) ++j;
    if (parts++ == most) return out + ", …";
    out += (out.empty() ? "" : ", ") + std::to_string(n[i]) + (j > i ? (j == i + 1 ? ", " : "–") + std::to_string(n[j]) : "");
    i = j + 1;
  }
  return out;
}

Picture make_picture(const LaunchTrace& t, const std::vector<OclgrindFinding>& findings, const std::string& ops_word) {
  Picture p;
  p.kernel = t.kernel, p.ops_word = ops_word, p.items = t.items, p.truncated = t.truncated;
  const Columns c = columns_of(t);
  p.memory = c.space == 'l' ? "local memory" : "global memory";
  p.slots = c.slots;
  for (std::size_t s = 0; s < c.slots; ++s)
    if (const auto d = drawn(s, c.slots)) p.columns.resize(*d + 1), p.columns[*d] = s;
  if (c.slots > 2 * kFoldKeep + 1) p.columns[kFoldKeep] = std::nullopt;
  std::vector<std::size_t> phases;
  for (const TraceEvent& e : t.events)
    if (std::find(phases.begin(), phases.end(), e.phase) == phases.end()) phases.push_back(e.phase);
  std::sort(phases.begin(), phases.end());
  std::map<std::size_t, std::size_t> per_item;
  for (std::size_t phase : phases) {
    PictureRow row;
    row.phase = phase;
    std::map<std::size_t, std::size_t> here;  // work-item -> operations in this phase
    for (const TraceEvent& e : t.events) {
      if (e.phase != phase) continue;
      const auto slot = c.slot(e.write);
      if (e.ops == 0) {
        if (!slot) ++row.out;
        else if (const auto d = drawn(slot, c.slots)) row.filled.push_back(*d), ++row.stores;
        else ++row.stores;
        continue;
      }
      row.adds += e.ops, here[e.item] += e.ops, per_item[e.item] += e.ops;
      if (slot && !drawn(slot, c.slots)) continue;  // folded away: counted, not drawn
      PictureOp op{e.item, e.ops, drawn(slot, c.slots), {}, e.more_reads};
      for (const TraceSlot& r : e.reads)
        if (const auto d = drawn(c.slot(r), c.slots)) op.from.push_back(*d);
        else ++op.other_reads;  // folded, or in another buffer: drawn as a short arrow from above
      row.ops.push_back(op);
    }
    std::size_t most = 0;
    for (const auto& [item, n] : here) row.working.push_back(item), most = std::max(most, n);
    p.span += most, p.work += row.adds;
    p.rows.push_back(row);
  }
  for (const auto& [item, n] : per_item)
    if (n > p.busiest_ops) p.busiest_item = item, p.busiest_ops = n;
  add_marks(p, t, c, phases, findings);
  return p;
}

std::vector<std::string> picture_facts(const Picture& p) {
  std::vector<std::string> lines;
  for (const PictureRow& r : p.rows) {
    std::string line = "phase " + std::to_string(r.phase) + ": ";
    if (r.adds > 0) {
      std::vector<std::size_t> idle;
      for (std::size_t i = 0; i < p.items; ++i)
        if (!std::binary_search(r.working.begin(), r.working.end(), i)) idle.push_back(i);
      const std::string word = r.adds == 1 && p.ops_word.back() == 's' ? p.ops_word.substr(0, p.ops_word.size() - 1) : p.ops_word;
      line += std::to_string(r.adds) + " " + word + " by work-item" + (r.working.size() > 1 ? "s " : " ") + ranges(r.working);
      line += idle.empty() ? "; no work-item idle" : "; work-item" + std::string(idle.size() > 1 ? "s " : " ") + ranges(idle) + " idle";
    } else {
      line += "no " + p.ops_word;
    }
    if (r.stores) line += "; " + std::to_string(r.stores) + " value(s) stored into " + p.memory + " with no operation";
    if (r.out) line += "; " + std::to_string(r.out) + " value(s) stored out of the drawn memory";
    lines.push_back(line);
  }
  lines.push_back("work " + std::to_string(p.work) + " " + p.ops_word + ", span " + std::to_string(p.span) +
                  " (the busiest work-item of each phase, added up); busiest work-item " + std::to_string(p.busiest_item) + " with " +
                  std::to_string(p.busiest_ops) + " " + p.ops_word);
  for (const PictureMark& m : p.marks)
    lines.push_back(m.text + (p.rows.empty() || m.kind == PictureMark::Divergence ? "" : " in phase " + std::to_string(p.rows[m.row].phase)));
  if (!p.folded().empty()) lines.push_back(p.folded());
  if (p.truncated) lines.push_back("the trace stopped at its bound: later stores are not drawn");
  return lines;
}

}  // namespace grader
