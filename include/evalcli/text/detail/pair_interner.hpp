#pragma once
// Dense integer ids for n-grams, built one item at a time: the id of an
// n-gram is the interned pair (id of its first n-1 items, id of its last
// item), so no n-gram is ever hashed or compared as a whole. Exact (the whole
// 64-bit pair is the key). clear() is O(1) through a generation stamp.
#include <cstdint>
#include <vector>

#include "evalcli/core/detail/probing_table.hpp"

namespace evalcli::text {

class PairInterner {
 public:
  static constexpr std::uint32_t kAbsent = 0xFFFFFFFFu;

  // Forgets every pair; ids start again at `first_id`.
  void clear(std::uint32_t first_id = 0) {
    table_.clear();
    next_id_ = first_id;
  }
  // Makes room for `count` more pairs, so id() never grows inside a hot loop.
  void reserve(std::size_t count) { table_.reserve(table_.size() + count); }
  // The next id id() would hand out.
  std::uint32_t next_id() const { return next_id_; }

  // The id of (prefix, item), inserting it if new.
  std::uint32_t id(std::uint32_t prefix, std::uint32_t item) {
    bool inserted = false;
    const std::uint32_t found = table_.find_or_insert(Slot{pack(prefix, item), next_id_, 0}, inserted).value;
    next_id_ += inserted;
    return found;
  }
  // The id of (prefix, item), or kAbsent; never inserts.
  std::uint32_t find(std::uint32_t prefix, std::uint32_t item) const {
    const Slot* slot = table_.find(pack(prefix, item));
    return slot == nullptr ? kAbsent : slot->value;
  }

 private:
  // One 16-byte slot: a probe touches a single cache line.
  struct Slot {
    std::uint64_t key;  // the whole pair: exact
    std::uint32_t value, stamp;
  };
  static std::uint64_t pack(std::uint32_t prefix, std::uint32_t item) {
    return (static_cast<std::uint64_t>(prefix) << 32) | item;
  }

  detail::ProbingTable<Slot> table_{50};
  std::uint32_t next_id_ = 0;
};

}  // namespace evalcli::text
