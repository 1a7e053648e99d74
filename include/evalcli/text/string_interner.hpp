#pragma once
// Dense integer ids for the distinct strings of one segment, so n-gram code
// can compare integers. Exact: a hash match is confirmed by comparing the
// text. The interned texts are views: they must outlive the next clear().
#include <cstdint>
#include <string_view>
#include <vector>

namespace evalcli::text {

// The hash StringInterner uses, fed one code point at a time, so that a caller
// can hash a token while it looks for the token's end. A sum of products with
// per-position multipliers: no multiply waits for the previous one (a chained
// hash such as FNV-1a costs a multiply's latency per character).
class TextHash {
 public:
  void add(char32_t c) { sum_ += c * kMultipliers[length_++ & 15]; }
  std::uint64_t value() const { return ((sum_ ^ length_) * 0x9E3779B97F4A7C15ULL) >> 16; }

  static std::uint64_t of(std::u32string_view text) {
    TextHash hash;
    for (char32_t c : text) hash.add(c);
    return hash.value();
  }

 private:
  static constexpr std::uint64_t kMultipliers[16] = {
      0x4A6F188A424E617BULL, 0xE8D79F49AF6D114DULL, 0xCD502D42AF1FFE0DULL, 0xE3D6E4B9D96E182DULL,
      0xA6EA1C0D2F8B9E9DULL, 0xAA8B230F3B05E393ULL, 0xDE85EB9025AC45A1ULL, 0xA415C4C839A44721ULL,
      0x2FF7C0FCBBE8F88DULL, 0x1221B5A22155A41DULL, 0xD885BBAC88043E5FULL, 0xBEA4256E36C2A4C7ULL,
      0x07AC5FED4B6EA011ULL, 0x2054FA816E7C0C6BULL, 0xAF2529CAD670A839ULL, 0xFF7D5EC09BC03E21ULL};
  std::uint64_t sum_ = 0;
  std::uint64_t length_ = 0;
};

class StringInterner {
 public:
  static constexpr std::uint32_t kAbsent = 0xFFFFFFFFu;

  // Forgets every string in O(1) (a generation stamp marks the live slots).
  void clear() {
    texts_.clear();
    if (++stamp_ == 0) {  // wrapped: really clear
      for (Slot& slot : slots_) slot.stamp = 0;
      stamp_ = 1;
    }
  }
  std::uint32_t size() const { return static_cast<std::uint32_t>(texts_.size()); }

  // The id of `text`, giving it the next id if it is new.
  std::uint32_t id(std::u32string_view text) { return id(text, TextHash::of(text)); }
  // The same, with `hash` = TextHash::of(text) computed by the caller.
  std::uint32_t id(std::u32string_view text, std::uint64_t hash) {
    if ((texts_.size() + 1) * 2 > slots_.size()) grow();
    for (std::size_t at = hash & mask_;; at = (at + 1) & mask_) {
      Slot& slot = slots_[at];
      if (slot.stamp != stamp_) {
        slot = Slot{hash, size(), stamp_};
        texts_.push_back(text);
        return slot.id;
      }
      if (slot.hash == hash && same(texts_[slot.id], text)) return slot.id;
    }
  }
  // The id of `text`, or kAbsent; never inserts.
  std::uint32_t find(std::u32string_view text) const { return find(text, TextHash::of(text)); }
  std::uint32_t find(std::u32string_view text, std::uint64_t hash) const {
    if (slots_.empty()) return kAbsent;
    for (std::size_t at = hash & mask_;; at = (at + 1) & mask_) {
      const Slot& slot = slots_[at];
      if (slot.stamp != stamp_) return kAbsent;
      if (slot.hash == hash && same(texts_[slot.id], text)) return slot.id;
    }
  }

 private:
  struct Slot {
    std::uint64_t hash = 0;
    std::uint32_t id = 0, stamp = 0;
  };
  // Tokens are short: a loop beats a call to memcmp.
  static bool same(std::u32string_view a, std::u32string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i] != b[i]) return false;
    }
    return true;
  }
  void grow() {
    std::vector<Slot> old(slots_.empty() ? 256 : slots_.size() * 2);
    old.swap(slots_);
    mask_ = slots_.size() - 1;
    for (const Slot& slot : old) {
      if (slot.stamp != stamp_) continue;
      std::size_t at = slot.hash & mask_;
      while (slots_[at].stamp == stamp_) at = (at + 1) & mask_;
      slots_[at] = slot;
    }
  }

  std::vector<Slot> slots_;
  std::vector<std::u32string_view> texts_;
  std::size_t mask_ = 0;
  std::uint32_t stamp_ = 1;
};

}  // namespace evalcli::text
