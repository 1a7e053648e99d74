#pragma once
// chrF's character n-gram matches of one segment without hashing, one order at
// a time so that the table stays in L1. The hypothesis's distinct characters
// are numbered 1..W (0: a reference character the hypothesis lacks). Order 1's
// ids are those numbers; the id of an order-n n-gram is
// table[(id of its first n-1 characters) * (W + 1) + number of its last one],
// handed out 1, 2, ... as the hypothesis's n-grams of that order come. Row 0
// and column 0 are never written, so an n-gram the hypothesis lacks reads id 0
// and so does every longer one starting with it: no branch. The table holds
// the rows of one order only (at most one per hypothesis position) and is
// cleared, slot by slot, before the next order.
// A segment whose table would exceed kMaxSlots makes count() return false; it
// takes the general path (chrf.cpp).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace evalcli::detail {

// One order's n-grams: of the hypothesis, of the reference, and matched (the sum
// over the distinct hypothesis n-grams of min(hyp count, ref count)).
struct NgramCounts {
  std::size_t hyp = 0, ref = 0, match = 0;

  bool operator==(const NgramCounts&) const = default;
};

// The sum of min(a[i], b[i]) over i in [first, end): a vector loop, with
// AVX2's eight lanes where the CPU has it (defined in chrf.cpp: a function
// with target clones must have one definition in the program).
std::uint32_t sum_of_minima(const std::uint32_t* a, const std::uint32_t* b, std::size_t first, std::size_t end);

// Copies the code points of text[0, size) that are not text::is_space to
// `out`, in order, and returns how many it copied. `out` needs room for
// size + 8: with AVX2, eight code points are looked at and stored per step,
// the kept ones moved to the front of the store (defined in chrf.cpp).
std::size_t copy_without_spaces(const char32_t* text, std::size_t size, std::uint32_t* out);

class DenseCharNgrams {
 public:
  static constexpr std::size_t kMaxSlots = std::size_t{1} << 22;

  DenseCharNgrams() : direct_(kDirect, 0) {}

  // The counts of orders 1..max_order of the character texts `hyp` and each of
  // `refs` into out[r * max_order + n - 1]. False (out untouched) when too large.
  bool count(std::span<const std::uint32_t> hyp, std::span<const std::vector<std::uint32_t>> refs,
             std::size_t max_order, std::vector<NgramCounts>& out) {
    number_characters(hyp, refs);
    const std::size_t stride = chars_.size() + 1;
    if ((hyp.size() + 1) * stride > kMaxSlots) {
      forget_characters();
      return false;
    }
    if (table_.size() < (hyp.size() + 1) * stride) table_.resize((hyp.size() + 1) * stride, 0);
    out.assign(refs.size() * max_order, NgramCounts{});
    hyp_ids_ = hyp_numbers_;  // order 1: an n-gram's id is its character's number
    std::uint32_t distinct = static_cast<std::uint32_t>(chars_.size());
    for (std::size_t n = 1; n <= max_order; ++n) {
      if (n > 1) {
        distinct = extend_hypothesis(n, stride);
      } else {
        hyp_counts_.assign(distinct + std::size_t{1}, 0);
        for (const std::uint32_t id : hyp_ids_) ++hyp_counts_[id];
      }
      for (std::size_t r = 0; r < refs.size(); ++r) {
        count_reference(ref_ids_[r], ref_numbers_[r], n, stride, distinct);
        out[r * max_order + n - 1] = match(ref_ids_[r].size(), distinct);
      }
      clear_table();
    }
    forget_characters();
    return true;
  }

 private:
  static constexpr std::uint32_t kDirect = 0x10000;  // code points with a direct number slot

  // Numbers the hypothesis's distinct characters 1..W in order of first
  // appearance; the references' characters get those numbers or 0.
  void number_characters(std::span<const std::uint32_t> hyp, std::span<const std::vector<std::uint32_t>> refs) {
    hyp_numbers_.resize(hyp.size());
    for (std::size_t i = 0; i < hyp.size(); ++i) {
      std::uint32_t& number = number_slot(hyp[i]);
      if (number == 0) {
        chars_.push_back(hyp[i]);
        number = static_cast<std::uint32_t>(chars_.size());
      }
      hyp_numbers_[i] = number;
    }
    ref_numbers_.resize(refs.size());
    ref_ids_.resize(refs.size());
    for (std::size_t r = 0; r < refs.size(); ++r) {
      ref_numbers_[r].resize(refs[r].size());
      for (std::size_t i = 0; i < refs[r].size(); ++i) ref_numbers_[r][i] = number_of(refs[r][i]);
      ref_ids_[r] = ref_numbers_[r];
    }
  }
  std::uint32_t& number_slot(std::uint32_t c) { return c < kDirect ? direct_[c] : other_[c]; }
  std::uint32_t number_of(std::uint32_t c) const {
    if (c < kDirect) return direct_[c];
    const auto found = other_.find(c);
    return found == other_.end() ? 0 : found->second;
  }
  void forget_characters() {
    for (const std::uint32_t c : chars_) number_slot(c) = 0;
    chars_.clear();
    other_.clear();
  }

  // hyp_ids_[i]: the id of the order-(n-1) n-gram at i becomes that of the
  // order-n one, counted in hyp_counts_. Without branches (whether an n-gram
  // is new is a coin toss at low orders): every slot read is written back,
  // the counter moves by 0 or 1. Returns how many distinct n-grams of order n
  // the hypothesis has.
  std::uint32_t extend_hypothesis(std::size_t n, std::size_t stride) {
    const std::size_t count = hyp_numbers_.size() >= n ? hyp_numbers_.size() - n + 1 : 0;
    hyp_ids_.resize(count);
    hyp_counts_.assign(count + 1, 0);
    if (touched_.size() < count) touched_.resize(count);  // only grows: no zero-filling per order
    std::uint32_t* const table = table_.data();
    std::uint32_t next_id = 1;
    std::size_t touched = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t at = hyp_ids_[i] * stride + hyp_numbers_[i + n - 1];
      const std::uint32_t found = table[at];
      const std::uint32_t is_new = found == 0 ? 1 : 0;
      const std::uint32_t id = is_new ? next_id : found;
      table[at] = id;
      touched_[touched] = at;
      touched += is_new;
      next_id += is_new;
      hyp_ids_[i] = id;
      ++hyp_counts_[id];
    }
    touched_count_ = touched;
    return next_id - 1;
  }
  // The same for a reference, only reading the table (0: the hypothesis lacks
  // it), and its n-grams counted by id into ref_counts_ (ids 1..distinct).
  // Order 1's ids are the character numbers already.
  void count_reference(std::vector<std::uint32_t>& ids, const std::vector<std::uint32_t>& numbers, std::size_t n,
                       std::size_t stride, std::uint32_t distinct) {
    ref_counts_.assign(distinct + std::size_t{1}, 0);
    const std::size_t count = numbers.size() >= n ? numbers.size() - n + 1 : 0;
    ids.resize(count);
    std::uint32_t* const counts = ref_counts_.data();
    if (n == 1) {
      for (const std::uint32_t id : ids) ++counts[id];
    } else {
      for (std::size_t i = 0; i < count; ++i) {
        const std::uint32_t id = table_[ids[i] * stride + numbers[i + n - 1]];
        ids[i] = id;
        ++counts[id];
      }
    }
    counts[0] = 0;
  }
  // The counts of one order from hyp_counts_ and ref_counts_ (a reference of
  // `ref_ngrams` n-grams of this order): each of the `distinct` hypothesis
  // n-grams matches as often as it occurs in both: a loop over ids, not
  // positions, with no branch and no store.
  NgramCounts match(std::size_t ref_ngrams, std::uint32_t distinct) const {
    const std::uint32_t matched = sum_of_minima(hyp_counts_.data(), ref_counts_.data(), 1, distinct + std::size_t{1});
    return {hyp_ids_.size(), ref_ngrams, matched};
  }
  void clear_table() {
    for (std::size_t i = 0; i < touched_count_; ++i) table_[touched_[i]] = 0;
    touched_count_ = 0;
  }

  std::vector<std::uint32_t> direct_;                       // code point -> number (0: none)
  std::unordered_map<std::uint32_t, std::uint32_t> other_;  // the same above U+FFFF
  std::vector<std::uint32_t> chars_;                        // the hypothesis's characters, by number - 1
  std::vector<std::uint32_t> hyp_numbers_, hyp_ids_;
  std::vector<std::vector<std::uint32_t>> ref_numbers_, ref_ids_;
  std::vector<std::uint32_t> table_, ref_counts_;
  std::vector<std::uint32_t> hyp_counts_;  // by id: the current order's count in the hypothesis
  std::vector<std::size_t> touched_;  // the first touched_count_ are the slots written this order
  std::size_t touched_count_ = 0;
};

}  // namespace evalcli::detail
