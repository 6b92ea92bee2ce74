#pragma once
// One word per value of an enum, read both ways: the table behind each status enum's JSON
// (to_json / from_json) and its text in reports and messages.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "kit/errors.hpp"

namespace grader {

template <class E>
using Word = std::pair<E, std::string_view>;

// Whether `table` lists the values of E in their order from 0 to `last`, each with a word of its
// own (checked at compile time next to each table).
template <class E, std::size_t N>
constexpr bool one_word_each(const Word<E> (&table)[N], E last) {
  if (N != std::size_t(last) + 1) return false;
  for (std::size_t i = 0; i < N; ++i) {
    if (std::size_t(table[i].first) != i || table[i].second.empty()) return false;
    for (std::size_t k = 0; k < i; ++k)
      if (table[k].second == table[i].second) return false;
  }
  return true;
}

template <class E, std::size_t N>
std::string word_in(const Word<E> (&table)[N], E value) {
  return std::string(table[std::size_t(value)].second);
}

// The value whose word is `word`, or none.
template <class E, std::size_t N>
std::optional<E> find_word(const Word<E> (&table)[N], std::string_view word) {
  for (const auto& [value, w] : table)
    if (w == word) return value;
  return std::nullopt;
}

// The value whose word is `word`; throws kit::Error naming `what` for a word not in the table.
template <class E, std::size_t N>
E value_of(const Word<E> (&table)[N], const std::string& word, const char* what) {
  if (const std::optional<E> value = find_word(table, word)) return *value;
  throw kit::Error("'" + word + "' is not a " + what);
}

}  // namespace grader
