#pragma once
// Dense integer ids for the distinct strings of one segment, so n-gram code
// can compare integers. Exact: a hash match is confirmed by comparing the
// text. The interned texts are views: they must outlive the next clear().
#include <bit>
#include <cstdint>
#include <string_view>
#include <vector>

#include "evalcli/core/detail/probing_table.hpp"
#include "evalcli/text/unicode.hpp"

namespace evalcli::text {

// The hash StringInterner uses, fed one code point at a time, so that a caller
// can hash a token while it looks for the token's end. Each code point's
// product with an odd constant is xored into the state rotated by 5 bits:
// three instructions per character, and no multiply waits for the previous
// one (a chained hash such as FNV-1a costs a multiply's latency per
// character); value() mixes the state with one more multiply.
class TextHash {
 public:
  void add(char32_t c) { state_ = std::rotl(state_, 5) ^ (c * 0xD6E8FEB86659FD93ULL); }
  std::uint64_t value() const { return (state_ * 0x9E3779B97F4A7C15ULL) >> 16; }

  static std::uint64_t of(std::u32string_view text) {
    TextHash hash;
    for (char32_t c : text) hash.add(c);
    return hash.value();
  }

 private:
  std::uint64_t state_ = 0x243F6A8885A308D3ULL;  // not 0, so that a leading U+0000 still changes it
};

// text::split()'s words of `s` (runs between text::is_space characters), each
// visited with its TextHash, computed as its end is looked for: visit(word, hash).
template <class Visit>
void for_each_split_hashed(std::u32string_view s, Visit&& visit) {
  const char32_t* at = s.data();
  const char32_t* const end = at + s.size();
  for (;;) {
    while (at != end && is_space(*at)) ++at;
    if (at == end) return;
    const char32_t* const start = at;
    TextHash hash;
    for (; at != end && !is_space(*at); ++at) hash.add(*at);
    visit(std::u32string_view(start, static_cast<std::size_t>(at - start)), hash.value());
  }
}

class StringInterner {
 public:
  static constexpr std::uint32_t kAbsent = 0xFFFFFFFFu;

  // Forgets every string in O(1) (the table's stamped slots).
  void clear() {
    texts_.clear();
    table_.clear();
  }
  std::uint32_t size() const { return static_cast<std::uint32_t>(texts_.size()); }

  // The id of `text`, giving it the next id if it is new.
  std::uint32_t id(std::u32string_view text) { return id(text, TextHash::of(text)); }
  // The same, with `hash` = TextHash::of(text) computed by the caller.
  std::uint32_t id(std::u32string_view text, std::uint64_t hash) {
    bool inserted = false;
    const std::uint32_t found = table_.find_or_insert(Slot{hash, size(), 0}, same_text(text), inserted).id;
    if (inserted) texts_.push_back(text);
    return found;
  }
  // The id of `text`, or kAbsent; never inserts.
  std::uint32_t find(std::u32string_view text) const { return find(text, TextHash::of(text)); }
  std::uint32_t find(std::u32string_view text, std::uint64_t hash) const {
    const Slot* slot = table_.find(hash, same_text(text));
    return slot == nullptr ? kAbsent : slot->id;
  }

 private:
  struct Slot {
    std::uint64_t key;  // TextHash of the text
    std::uint32_t id, stamp;
  };
  // A hash match is confirmed by the text. Tokens are short: a loop beats a call to memcmp.
  struct SameText {
    const std::vector<std::u32string_view>& texts;
    std::u32string_view text;
    bool operator()(const Slot& slot) const {
      const std::u32string_view known = texts[slot.id];
      if (known.size() != text.size()) return false;
      for (std::size_t i = 0; i < text.size(); ++i) {
        if (known[i] != text[i]) return false;
      }
      return true;
    }
  };
  SameText same_text(std::u32string_view text) const { return SameText{texts_, text}; }

  detail::ProbingTable<Slot> table_{50};
  std::vector<std::u32string_view> texts_;
};

}  // namespace evalcli::text
