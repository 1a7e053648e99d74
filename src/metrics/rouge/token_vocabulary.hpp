#pragma once
// Distinct token strings -> dense ids, with each id's stem memoised, so a
// word is hashed once per occurrence and stemmed once per run (hot path of
// both ROUGE modes). Not thread-safe: use one per thread.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "evalcli/core/detail/probing_table.hpp"
#include "evalcli/metrics/rouge.hpp"

namespace evalcli {

class TokenVocabulary {
 public:
  int intern(std::string_view token);
  std::string_view text(int id) const;
  // Id of stem(text(id)), computed once per id for the stemming function
  // of `owner` (a number from next_stem_owner_id(); another owner starts a
  // fresh memo).
  template <class Stem>
  int stemmed(int id, std::uint64_t owner, const Stem& stem) {
    if (owner != memo_owner_) {
      std::fill(stems_.begin(), stems_.end(), -1);
      memo_owner_ = owner;
    }
    const auto i = static_cast<std::size_t>(id);
    if (stems_[i] < 0) {
      const int stem_id = intern(stem(text(id)));
      stems_[i] = stem_id;
    }
    return stems_[i];
  }
  std::size_t size() const { return offsets_.size(); }

 private:
  struct Slot {
    std::uint64_t key;
    int id;
  };
  void add(std::string_view token);  // as the next id

  // Tokens of up to 7 bytes (most words) are their own key: their bytes, the
  // length in bits 56-58 and bit 63 set (never 0); no text comparison.
  detail::ProbingTable<Slot> short_tokens_{50};
  // Longer tokens by their hash_bytes(), confirmed by the text.
  detail::ProbingTable<Slot> long_tokens_{50};
  std::string arena_;
  std::vector<std::uint32_t> offsets_, lengths_;
  std::vector<int> stems_;  // -1 = not computed
  std::uint64_t memo_owner_ = 0;
};

}  // namespace evalcli
