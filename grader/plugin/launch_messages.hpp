#pragma once
// What Oclgrind reported during one kernel launch, as the plugin's log() hears it (the same text
// its own log file gets). Reports that differ only in addresses and work-item numbers are kept
// once, with a count, so that a racy kernel's thousands of reports stay a few lines; at most
// kMostKept distinct reports are kept per launch, and the rest are counted.
#include <cctype>
#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

namespace kit_messages {

// A JSON string literal of `text`.
inline std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static const char* hex = "0123456789abcdef";
          out += "\\u00";
          out += hex[(c >> 4) & 0xf];
          out += hex[c & 0xf];
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

class LaunchMessages {
 public:
  static constexpr std::size_t kMostKept = 64;

  // Counts `text`; true when it is the first of its kind in this launch (and kept).
  bool add(const std::string& text) {
    const std::string k = key(text);
    const auto found = index_.find(k);
    if (found != index_.end()) {
      ++kept_[found->second].second;
      return false;
    }
    if (kept_.size() >= kMostKept) {
      ++dropped_;
      return false;
    }
    index_.emplace(k, kept_.size());
    kept_.emplace_back(text, 1);
    return true;
  }

  bool empty() const { return kept_.empty() && dropped_ == 0; }

  void clear() {
    kept_.clear();
    index_.clear();
    dropped_ = 0;
  }

  // ",\"messages\":[{\"text\":...,\"count\":n},...],\"messages_dropped\":n" (always present).
  std::string json() const {
    std::string out = ",\"messages\":[";
    for (std::size_t i = 0; i < kept_.size(); ++i)
      out += std::string(i ? "," : "") + "{\"text\":" + quoted(kept_[i].first) + ",\"count\":" + std::to_string(kept_[i].second) + "}";
    return out + "],\"messages_dropped\":" + std::to_string(dropped_);
  }

 private:
  // The text less what changes from one work-item or address to the next: hexadecimal addresses
  // and the (x,y,z) numbers of work-items and work-groups.
  static std::string key(const std::string& text) {
    std::string k;
    k.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
      if (text.compare(i, 2, "0x") == 0) {
        i += 2;
        while (i < text.size() && std::isxdigit(static_cast<unsigned char>(text[i]))) ++i;
        k += "0x";
        continue;
      }
      if (text[i] == '(') {
        std::size_t j = i + 1;
        while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == ',')) ++j;
        if (j < text.size() && text[j] == ')' && j > i + 1 && text.find(',', i) < j) {
          k += "()";
          i = j + 1;
          continue;
        }
      }
      k += text[i++];
    }
    return k;
  }

  std::vector<std::pair<std::string, std::size_t>> kept_;
  std::unordered_map<std::string, std::size_t> index_;
  std::size_t dropped_ = 0;
};

}  // namespace kit_messages
