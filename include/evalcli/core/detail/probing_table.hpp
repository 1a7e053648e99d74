#pragma once
// The one hash table of evalcli: open addressing with linear probing over an
// array of caller-defined slots, in one of two shapes (TableShape):
//   - interning (the default): power-of-two capacity, grown as keys come;
//     mostly hits and insertions (the interners, CIDEr's n-gram table,
//     ROUGE's vocabulary);
//   - sized_lookup: any capacity (sized from a file's header, so a power of
//     two would waste up to half) and Robin Hood placement (an entry never
//     sits further from its home slot than an entry it passed, so a look-up of
//     an absent key stops after a couple of slots even at 80% load: the end of
//     every n-gram walk in a language model is such a miss). Robin Hood costs
//     the interning tables about 3% of CIDEr's time for misses they rarely see.
//
// A slot is a trivially copyable struct whose first member is
// `std::uint64_t key`, plus its payload. Keys are integers the caller makes:
// a packed pair of ids, or a string's hash (then a `same` predicate confirms
// the string, so colliding hashes are told apart). Two kinds of slot:
//   - plain: key 0 marks an empty slot (callers keep 0 out of their keys);
//     all-zero memory is an empty table, so large tables cost no memset;
//   - stamped (a `std::uint32_t stamp` member): a slot is live when its stamp
//     is the table's, so clear() is O(1) (the per-segment interners clear
//     once per sentence) and every key, 0 included, is allowed.
// The home slot: interning tables use Fibonacci hashing (the top bits of
// key * 2^64/phi: one multiply and a shift), so packed ids spread; the keys of
// sized_lookup tables are hashes already, scaled onto the capacity.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "evalcli/core/huge_pages.hpp"

namespace evalcli::detail {

template <class Slot>
concept StampedSlot = requires(Slot slot) {
  { slot.stamp } -> std::convertible_to<std::uint32_t>;
};

enum class TableShape { interning, sized_lookup };

template <class Slot, TableShape kShape = TableShape::interning>
class ProbingTable {
  static_assert(std::is_trivially_copyable_v<Slot>);
  static constexpr bool kAnyCapacity = kShape == TableShape::sized_lookup;
  static constexpr bool kRobinHood = kShape == TableShape::sized_lookup;

 public:
  // Grows before more than `max_load_percent` of the slots are in use.
  explicit ProbingTable(unsigned max_load_percent = 50) : max_load_percent_(max_load_percent) {}
  ProbingTable(ProbingTable&& other) noexcept { swap(other); }
  ProbingTable& operator=(ProbingTable&& other) noexcept {
    swap(other);
    return *this;
  }

  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  // The keys the table holds before an insertion grows it.
  std::size_t room() const { return room_; }

  // Room for `count` keys in all, so no insertion of those grows the table.
  void reserve(std::size_t count) {
    const std::size_t needed = count * 100 / max_load_percent_ + 1;
    if (needed > capacity_) rebuild(needed);
  }

  // Forgets every key. Stamped slots: O(1); plain slots: zeroes the array.
  void clear() {
    size_ = 0;
    if constexpr (StampedSlot<Slot>) {
      if (++stamp_ == 0) {  // wrapped: old stamps could read as live
        std::memset(slots(), 0, capacity_ * sizeof(Slot));
        stamp_ = 1;
      }
    } else if (capacity_ != 0) {
      std::memset(slots(), 0, capacity_ * sizeof(Slot));
    }
  }

  // Starts loading the home slot of `key` into the cache: look-ups are
  // memory bound, and issuing a sentence's look-ups first overlaps the misses.
  // always_inline, as every prefetch helper: GCC drops calls it does not
  // inline to a function whose only effect is a prefetch.
  [[gnu::always_inline]] void prefetch(std::uint64_t key) const {
    if (capacity_ != 0) __builtin_prefetch(slots() + home(key));
  }

  // The live slot with `key` for which `same(slot)` holds, or nullptr.
  template <class Same>
  const Slot* find(std::uint64_t key, Same same) const {
    if (capacity_ == 0) return nullptr;
    std::size_t at = home(key);
    for (std::size_t distance = 0;; ++distance) {
      const Slot& slot = slots()[at];
      if (!live(slot)) return nullptr;
      if (slot.key == key && same(slot)) return &slot;
      if (kRobinHood && distance_from_home(at, slot.key) < distance) return nullptr;  // it would be here
      at = next(at);
    }
  }
  const Slot* find(std::uint64_t key) const { return find(key, any_slot); }

  // The live slot with `fresh.key` for which `same(slot)` holds, or `fresh`
  // inserted (`inserted` says which). The reference is valid until the next
  // insertion (Robin Hood placement moves entries).
  template <class Same>
  Slot& find_or_insert(const Slot& fresh, Same same, bool& inserted) {
    if (size_ >= room_) rebuild(capacity_ < 8 ? 16 : capacity_ * 2);
    std::size_t at = home(fresh.key);
    std::size_t distance = 0;
    for (;; ++distance, at = next(at)) {
      Slot& slot = slots()[at];
      if (!live(slot)) break;
      if (slot.key == fresh.key && same(slot)) {
        inserted = false;
        return slot;
      }
      if (kRobinHood && distance_from_home(at, slot.key) < distance) break;  // absent: it would be here
    }
    inserted = true;
    return place_at(at, distance, fresh);
  }
  Slot& find_or_insert(const Slot& fresh, bool& inserted) { return find_or_insert(fresh, any_slot, inserted); }

 private:
  void swap(ProbingTable& other) noexcept {
    std::swap(memory_, other.memory_);
    std::swap(capacity_, other.capacity_);
    std::swap(size_, other.size_);
    std::swap(room_, other.room_);
    std::swap(shift_, other.shift_);
    std::swap(max_load_percent_, other.max_load_percent_);
    std::swap(stamp_, other.stamp_);
  }
  static bool any_slot(const Slot&) { return true; }

  Slot* slots() const { return static_cast<Slot*>(memory_.data()); }
  bool live(const Slot& slot) const {
    if constexpr (StampedSlot<Slot>) {
      return slot.stamp == stamp_;
    } else {
      return slot.key != 0;
    }
  }
  std::size_t home(std::uint64_t key) const {
    if constexpr (kAnyCapacity) {
      return static_cast<std::size_t>((static_cast<unsigned __int128>(key) * capacity_) >> 64);
    } else {
      return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> shift_);
    }
  }
  std::size_t next(std::size_t at) const {
    if constexpr (kAnyCapacity) {
      return at + 1 == capacity_ ? 0 : at + 1;
    } else {
      return (at + 1) & (capacity_ - 1);
    }
  }
  std::size_t distance_from_home(std::size_t at, std::uint64_t key) const {
    const std::size_t from = home(key);
    if constexpr (kAnyCapacity) {
      return at >= from ? at - from : at + capacity_ - from;
    } else {
      return (at - from) & (capacity_ - 1);
    }
  }

  // Puts `fresh` at `at`, `distance` from its home, where a probe for it
  // stopped (an empty slot, or one nearer its own home); the entry it takes
  // the place of moves on, and so on (Robin Hood). Returns `fresh`'s slot.
  Slot& place_at(std::size_t at, std::size_t distance, Slot fresh) {
    if constexpr (StampedSlot<Slot>) fresh.stamp = stamp_;
    ++size_;
    Slot& placed = slots()[at];
    if (!kRobinHood || !live(placed)) {  // linear probing stops at empty slots only
      placed = fresh;
      return placed;
    }
    Slot moving = placed;
    placed = fresh;
    distance = distance_from_home(at, moving.key);
    for (at = next(at), ++distance;; at = next(at), ++distance) {
      Slot& slot = slots()[at];
      if (!live(slot)) {
        slot = moving;
        return placed;
      }
      const std::size_t theirs = distance_from_home(at, slot.key);
      if (theirs < distance) {  // the entry nearer its home moves on
        std::swap(slot, moving);
        distance = theirs;
      }
    }
  }
  // Inserts `slot`, known absent (growth).
  void insert_absent(const Slot& slot) {
    std::size_t at = home(slot.key);
    std::size_t distance = 0;
    while (live(slots()[at]) && (!kRobinHood || distance_from_home(at, slots()[at].key) >= distance)) {
      at = next(at);
      ++distance;
    }
    place_at(at, distance, slot);
  }

  void rebuild(std::size_t capacity) {
    if constexpr (!kAnyCapacity) {
      capacity = std::bit_ceil(std::max<std::size_t>(capacity, 16));
      shift_ = 64 - std::countr_zero(capacity);
    }
    memory::ZeroedBuffer old_memory = std::move(memory_);
    const Slot* old = static_cast<const Slot*>(old_memory.data());
    const std::size_t old_capacity = capacity_;
    memory_ = memory::ZeroedBuffer(capacity * sizeof(Slot));  // all zero: empty (stamps start at 1)
    capacity_ = capacity;
    room_ = capacity * max_load_percent_ / 100;
    size_ = 0;
    for (std::size_t i = 0; i < old_capacity; ++i) {
      if (live(old[i])) insert_absent(old[i]);
    }
  }

  memory::ZeroedBuffer memory_;  // calloc, or its own (huge-page) mapping when large
  std::size_t capacity_ = 0;
  std::size_t size_ = 0;
  std::size_t room_ = 0;  // room(): computed once per capacity, not per insertion
  int shift_ = 64;  // powers of two: 64 - log2(capacity)
  unsigned max_load_percent_ = 50;
  std::uint32_t stamp_ = 1;
};

}  // namespace evalcli::detail
