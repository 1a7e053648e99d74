#pragma once
// A PairInterner for n-grams of one sentence, whose prefixes are dense ids
// below a bound known in advance. Within a sentence almost every prefix has a
// single continuation, so the first continuation of each prefix sits in a
// flat array indexed by the prefix (one load, no hashing, no probing); only
// further continuations of the same prefix go to a hash table. Same ids and
// the same answers as a PairInterner (tests/unit/interner_test.cpp).
#include <cstdint>
#include <vector>

#include "evalcli/core/detail/probing_table.hpp"

namespace evalcli::text {

class PrefixPairInterner {
 public:
  static constexpr std::uint32_t kAbsent = 0xFFFFFFFFu;

  // Forgets every pair; ids start again at `first_id`. Prefixes given later
  // must be below `first_id + max_pairs` (the ids this interner can hand out).
  void clear(std::uint32_t first_id, std::size_t max_pairs) {
    next_id_ = first_id;
    first_.assign(first_id + max_pairs, Continuation{});
    others_.clear();
  }
  // The next id id() would hand out.
  std::uint32_t next_id() const { return next_id_; }

  // The id of (prefix, item), inserting it if new. `item` is never kAbsent.
  std::uint32_t id(std::uint32_t prefix, std::uint32_t item) {
    Continuation& first = first_[prefix];
    if (first.item == item) return first.id;
    if (first.item == kAbsent) {
      first = {item, next_id_, false};
      return next_id_++;
    }
    first.has_others = true;
    bool inserted = false;
    const std::uint32_t found = others_.find_or_insert(Slot{pack(prefix, item), next_id_, 0}, inserted).value;
    next_id_ += inserted;
    return found;
  }
  // The id of (prefix, item), or kAbsent; never inserts.
  std::uint32_t find(std::uint32_t prefix, std::uint32_t item) const {
    const Continuation& first = first_[prefix];
    if (first.item == item) return first.id;
    if (!first.has_others) return kAbsent;
    const Slot* slot = others_.find(pack(prefix, item));
    return slot == nullptr ? kAbsent : slot->value;
  }

 private:
  struct Continuation {
    std::uint32_t item = kAbsent;  // kAbsent: the prefix has no continuation yet
    std::uint32_t id = kAbsent;
    bool has_others = false;  // more continuations are in `others_`
  };
  struct Slot {
    std::uint64_t key;  // the whole pair: exact
    std::uint32_t value, stamp;
  };
  static std::uint64_t pack(std::uint32_t prefix, std::uint32_t item) {
    return (static_cast<std::uint64_t>(prefix) << 32) | item;
  }

  std::vector<Continuation> first_;  // by prefix id
  detail::ProbingTable<Slot> others_{50};
  std::uint32_t next_id_ = 0;
};

}  // namespace evalcli::text
