#pragma once
// Dense integer ids for the distinct strings of one segment, so n-gram code
// can compare integers. Exact: a hash match is confirmed by comparing the
// text. The interned texts are views: they must outlive the next clear().
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace evalcli::text {

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
  std::uint32_t id(std::u32string_view text) {
    if ((texts_.size() + 1) * 2 > slots_.size()) grow();
    const std::uint64_t hash = hash_text(text);
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
  std::uint32_t find(std::u32string_view text) const {
    if (slots_.empty()) return kAbsent;
    const std::uint64_t hash = hash_text(text);
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
  static std::uint64_t hash_text(std::u32string_view text) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a over code points, then mixed
    for (char32_t c : text) hash = (hash ^ c) * 0x100000001b3ULL;
    return (hash * 0x9E3779B97F4A7C15ULL) >> 16;
  }
  static bool same(std::u32string_view a, std::u32string_view b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(char32_t)) == 0;
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
