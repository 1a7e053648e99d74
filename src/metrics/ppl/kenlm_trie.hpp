#pragma once
// KenLM's binary "trie" models (build_binary trie, with -q/-b quantisation
// and/or -a array-compressed pointers), read in place from a read-only
// mapping like the probing binaries (kenlm_binary.hpp), behind the same
// look-ups, so the back-off rule (arpa_model.cpp) is the one of every model.
//
// Layout after the header (lm/search_trie.*, lm/trie.*, lm/vocab.*, lm/quantize.*, lm/bhiksha.*):
//   vocab     {uint64 n}, then counts[0] uint64 slots, the first n the sorted
//             MurmurHash64A of the words but <unk>: a word's id is its rank + 1
//   quant     quantised kinds only: {version 2, prob bits, backoff bits}, 5 bytes
//             of padding, then per order 2 .. N-1 a prob and a backoff table
//             (2^bits floats each), then the highest order's prob table
//   unigrams  (counts[0] + 2) x {float prob, float backoff, uint64 next}, by id
//   middle    per order n = 2 .. N-1: array-compressed kinds first put
//             {version 0, chop bits}, 8-aligned uint64 high parts of the next
//             pointers; then counts[n-1] + 1 bit-packed entries
//             {word id, weights, next} (the extra one ends the last range)
//   longest   counts[N-1] + 1 bit-packed entries {word id, prob}
// An n-gram's entry holds its OLDEST word: the children of an entry, the
// range [next(i), next(i + 1)) of the order above sorted by word id, are its
// extensions one word further into the past. Bit fields are read as KenLM
// writes them on little-endian machines: a field at bit b is in the 64-bit
// word at byte b / 8, shifted by b % 8.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kenlm_binary.hpp"

namespace evalcli::ppl {

class KenlmTrieModel {
 public:
  // Checks that every section of the trie lies inside the file. Throws
  // input_error naming the file and what is wrong.
  KenlmTrieModel(io::MappedFile file, const KenlmHeader& header, const std::string& path);

  int order() const { return order_; }
  const std::vector<std::uint64_t>& counts() const { return counts_; }
  std::string_view file_bytes() const { return file_.bytes(); }

  static std::uint64_t hash_word(std::string_view word) { return murmur_hash64a(word); }
  WordId find_word(std::uint64_t word_hash) const;
  void prefetch_word(std::uint64_t word_hash) const;

  // An n-gram's key is where its entry is: the order in the top bits, the
  // entry's index below. Extending a key to an older word is the trie walk
  // (a search in the entry's children); kAbsent once a word is not found.
  static constexpr std::uint64_t kAbsent = ~std::uint64_t{0};
  static std::uint64_t start_key(WordId word) { return make_key(1, word); }
  std::uint64_t fold(std::uint64_t key, WordId older) const;

  // The weights as KenLM's trie returns them (unigrams as stored: query
  // prints 0 where the probing binary prints -0).
  ProbBackoff unigram(WordId word) const;
  [[gnu::always_inline]] void prefetch_unigram(WordId word) const { __builtin_prefetch(unigram_entry(word)); }
  bool find_middle(int n, std::uint64_t key, ProbBackoff& out) const;
  bool find_longest(std::uint64_t key, float& prob) const;
  void prefetch(int, std::uint64_t) const {}

 private:
  // One order's bit-packed entries.
  struct Level {
    const unsigned char* bits = nullptr;  // the packed entries
    std::uint64_t entries = 0;            // real entries (one more is stored)
    unsigned total_bits = 0;              // bits per entry
    unsigned weight_bits = 0;             // after the word id
    unsigned next_bits = 0;               // next pointer bits stored inline (0 for the longest)
    // Array-compressed pointers: the high part of next(i) is the number of
    // offsets[1 ..] at most i (offsets[0] = 0); null otherwise.
    const std::uint64_t* offsets = nullptr;
    std::uint64_t offset_count = 0;
    const float* prob_bins = nullptr;  // quantised kinds
    const float* backoff_bins = nullptr;
  };

  static std::uint64_t make_key(int n, std::uint64_t index) { return (static_cast<std::uint64_t>(n) << 58) | index; }
  const unsigned char* unigram_entry(WordId word) const { return unigrams_ + 16 * static_cast<std::size_t>(word); }
  // The children of entry `index` of `level`: [begin, end) of the order above.
  void child_range(const Level& level, std::uint64_t index, std::uint64_t& begin, std::uint64_t& end) const;
  // Fills word_buckets_ from the vocabulary's sorted hashes.
  void index_word_hashes();
  // The entry of `word` among [begin, end) of `level`, or kAbsent.
  std::uint64_t find_in(const Level& level, std::uint64_t begin, std::uint64_t end, WordId word) const;
  std::uint64_t weight_offset(const Level& level, std::uint64_t index) const {
    return index * level.total_bits + word_bits_;
  }

  io::MappedFile file_;
  int order_ = 0;
  std::vector<std::uint64_t> counts_;
  const std::uint64_t* word_hashes_ = nullptr;  // sorted, word_count_ - 1 of them
  std::uint64_t word_count_ = 0;                // ids 0 .. word_count_ - 1 (0 = <unk>)
  std::vector<std::uint32_t> word_buckets_;     // see index_word_hashes()
  unsigned bucket_shift_ = 63;
  const unsigned char* unigrams_ = nullptr;
  unsigned word_bits_ = 0;
  bool quantised_ = false;
  unsigned prob_bits_ = 0, backoff_bits_ = 0;
  std::vector<Level> levels_;  // levels_[n] for 2 <= n <= order
};

}  // namespace evalcli::ppl
