#pragma once
// Dense integer ids for n-grams, built one item at a time: the id of an
// n-gram is the interned pair (id of its first n-1 items, id of its last
// item), so no n-gram is ever hashed or compared as a whole. Exact (the whole
// 64-bit pair is the key). clear() is O(1) through a generation stamp.
#include <cstdint>
#include <vector>

namespace evalcli::text {

class PairInterner {
 public:
  static constexpr std::uint32_t kAbsent = 0xFFFFFFFFu;

  // Forgets every pair; ids start again at `first_id`.
  void clear(std::uint32_t first_id = 0) {
    size_ = 0;
    next_id_ = first_id;
    if (++stamp_ == 0) {  // wrapped: really clear
      for (Slot& slot : slots_) slot.stamp = 0;
      stamp_ = 1;
    }
  }
  // Makes room for `count` more pairs, so id() never grows inside a hot loop.
  void reserve(std::size_t count) {
    while ((size_ + count) * 2 > slots_.size()) grow();
  }
  // The next id id() would hand out.
  std::uint32_t next_id() const { return next_id_; }

  // The id of (prefix, item), inserting it if new; the caller reserved room.
  std::uint32_t id(std::uint32_t prefix, std::uint32_t item) {
    const std::uint64_t key = pack(prefix, item);
    for (std::size_t at = hash(key) & mask_;; at = (at + 1) & mask_) {
      Slot& slot = slots_[at];
      if (slot.stamp != stamp_) {
        slot = Slot{key, next_id_, stamp_};
        ++size_;
        return next_id_++;
      }
      if (slot.key == key) return slot.value;
    }
  }
  // The id of (prefix, item), or kAbsent; never inserts.
  std::uint32_t find(std::uint32_t prefix, std::uint32_t item) const {
    if (slots_.empty()) return kAbsent;
    const std::uint64_t key = pack(prefix, item);
    for (std::size_t at = hash(key) & mask_;; at = (at + 1) & mask_) {
      const Slot& slot = slots_[at];
      if (slot.stamp != stamp_) return kAbsent;
      if (slot.key == key) return slot.value;
    }
  }

 private:
  // One 16-byte slot: a probe touches a single cache line.
  struct Slot {
    std::uint64_t key = 0;
    std::uint32_t value = 0, stamp = 0;
  };
  static std::uint64_t pack(std::uint32_t prefix, std::uint32_t item) {
    return (static_cast<std::uint64_t>(prefix) << 32) | item;
  }
  // Fibonacci hashing: one multiply; the well-mixed high bits select the slot.
  static std::size_t hash(std::uint64_t key) { return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> 32); }
  void grow() {
    std::vector<Slot> old(slots_.empty() ? 1024 : slots_.size() * 2);
    old.swap(slots_);
    mask_ = slots_.size() - 1;
    for (const Slot& slot : old) {
      if (slot.stamp != stamp_) continue;
      std::size_t at = hash(slot.key) & mask_;
      while (slots_[at].stamp == stamp_) at = (at + 1) & mask_;
      slots_[at] = slot;
    }
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
  std::uint32_t next_id_ = 0;
  std::uint32_t stamp_ = 1;
};

}  // namespace evalcli::text
