#pragma once
// KenLM's binary "probing" model (build_binary probing), read in place from a
// read-only mapping: the same back-off model as the ARPA it was built from,
// in KenLM's own tables, so loading costs what KenLM's does (pages are read
// when a look-up touches them). Only the layout is KenLM's; the look-up rules
// are evalcli's (arpa_model.cpp), shared with the ARPA path.
//
// Layout (lm/binary_format.*, lm/vocab.*, lm/search_hashed.*, all 8-byte aligned sections):
//   header   magic, test values, {order, probing multiplier, model type,
//            has vocabulary, search version}, n-gram counts per order
//   vocab    {version, bound}, then a probing table of {MurmurHash64A(word), id}
//   unigrams (counts[0] + 1) x {prob, backoff}, by word id
//   middle   per order 2 .. N-1: probing table of {key, prob, backoff}
//   longest  probing table of {key, prob}
//   words    optional "<unk>\0word\0..." (not needed to score)
// Probing tables: bucket = key % buckets, linear probing, key 0 = empty.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "evalcli/core/detail/fast_modulo.hpp"
#include "evalcli/io/mapped_file.hpp"
#include "evalcli/metrics/ppl.hpp"

namespace evalcli::ppl {

// Loads from the mapped file, whose entries are packed (12-byte entries leave
// keys unaligned). Not `detail`: that name would hide evalcli::detail here.
namespace kenlm_detail {
inline std::uint64_t load_u64(const unsigned char* p) {
  std::uint64_t value;
  std::memcpy(&value, p, sizeof value);
  return value;
}
inline float load_float(const unsigned char* p) {
  float value;
  std::memcpy(&value, p, sizeof value);
  return value;
}
}  // namespace kenlm_detail

// True if `path` starts with KenLM's binary magic (any version, complete or not).
bool looks_like_kenlm_binary(const std::string& path);

// 64-bit MurmurHash64A (Austin Appleby's, seed 0): KenLM's vocabulary hash on 64-bit machines.
std::uint64_t murmur_hash64a(std::string_view bytes, std::uint64_t seed = 0);

struct ProbBackoff {
  float prob;
  float backoff;
};

// KenLM's model types (lm/model_type.hh), as the header stores them.
enum KenlmModelType : std::uint32_t {
  kKenlmProbing = 0,
  kKenlmRestProbing = 1,
  kKenlmTrie = 2,
  kKenlmQuantTrie = 3,
  kKenlmArrayTrie = 4,
  kKenlmQuantArrayTrie = 5,
};

// The header every KenLM binary starts with (lm/binary_format.*): its checks
// are shared by the model types evalcli reads.
struct KenlmHeader {
  std::uint32_t model_type = 0;
  std::uint32_t search_version = 0;
  float probing_multiplier = 0;
  int order = 0;
  std::vector<std::uint64_t> counts;  // n-grams per order, counts[0] = unigrams
  std::uint64_t size = 0;             // the first section's offset (8-aligned)
};

// Maps a KenLM binary read-only, pages read when touched.
io::MappedFile map_kenlm_binary(const std::string& path);
// Checks the magic, version, test values, order and model type (probing or
// one of the tries: others are refused by name). Throws input_error naming `path`.
KenlmHeader read_kenlm_header(std::string_view bytes, const std::string& path);

class KenlmProbingModel {
 public:
  // Maps and checks the file: exactly KenLM's layout for a probing model of
  // this machine's format, every section inside the file. Throws input_error
  // naming the file and what is wrong (another model type, a truncated file...).
  KenlmProbingModel(io::MappedFile file, const KenlmHeader& header, const std::string& path);

  int order() const { return order_; }
  const std::vector<std::uint64_t>& counts() const { return counts_; }
  std::string_view file_bytes() const { return file_.bytes(); }

  static std::uint64_t hash_word(std::string_view word) { return murmur_hash64a(word); }
  // KenLM's n-gram keys: a unigram's key is its id; each older word folds in.
  static std::uint64_t start_key(WordId word) { return word; }
  static std::uint64_t fold(std::uint64_t key, WordId word) {
    return (key * 8978948897894561157ULL) ^ ((static_cast<std::uint64_t>(word) + 1) * 17894857484156487943ULL);
  }

  // The look-ups below are defined here, in the header, so that the scoring
  // loop (arpa_model.cpp) inlines them: a word costs several of them.
  //
  // Every prefetch helper is always_inline: GCC takes a function whose only
  // effect is __builtin_prefetch for one without effects and drops the calls
  // to it that it does not inline (this dropped every n-gram table prefetch of
  // the scoring loop until session 30; objdump shows them now).

  // The id of a word's hash, or kUnknownWord (always below the unigrams' count: checked at load).
  WordId find_word(std::uint64_t word_hash) const {
    const unsigned char* entry = vocab_.find(word_hash);
    if (entry == nullptr) return kUnknownWord;
    std::uint32_t id;
    std::memcpy(&id, entry + 8, sizeof id);
    return id;  // below word_bound_ (check_vocabulary_ids)
  }
  [[gnu::always_inline]] void prefetch_word(std::uint64_t word_hash) const { vocab_.prefetch(word_hash); }

  // The weights as KenLM reads them: probabilities with their sign bit set
  // (it marks "does not extend left" in the file).
  ProbBackoff unigram(WordId word) const {
    const float* weights = unigrams_ + 2 * static_cast<std::size_t>(word);
    return {std::copysign(weights[0], -1.0f), weights[1]};
  }
  [[gnu::always_inline]] void prefetch_unigram(WordId word) const {
    __builtin_prefetch(unigrams_ + 2 * static_cast<std::size_t>(word));
  }
  // n = 2 .. order - 1; false if absent.
  bool find_middle(int n, std::uint64_t key, ProbBackoff& out) const {
    const unsigned char* entry = middle_[static_cast<std::size_t>(n)].find(key);
    if (entry == nullptr) return false;
    out = {std::copysign(kenlm_detail::load_float(entry + 8), -1.0f), kenlm_detail::load_float(entry + 12)};
    return true;
  }
  bool find_longest(std::uint64_t key, float& prob) const {
    const unsigned char* entry = longest_.find(key);
    if (entry == nullptr) return false;
    prob = kenlm_detail::load_float(entry + 8);  // stored with its sign bit set: a longest n-gram never extends left
    return true;
  }
  [[gnu::always_inline]] void prefetch(int n, std::uint64_t key) const {
    if (n == order_) {
      longest_.prefetch(key);
    } else {
      middle_[static_cast<std::size_t>(n)].prefetch(key);
    }
  }

 private:
  // One probing table in the mapping: `buckets()` entries of `entry_size`
  // bytes, each a 64-bit key followed by floats.
  struct Table {
    const unsigned char* begin = nullptr;
    const unsigned char* end = nullptr;  // begin + buckets() * entry_size
    std::size_t entry_size = 0;
    detail::FastModulo bucket_of;  // key % buckets, without a divide
    std::uint64_t buckets() const { return bucket_of.divisor(); }
    // The entry with `key`, or null (a scan that meets no empty slot in a
    // whole round, which only a corrupt file has, also gives null).
    const unsigned char* find(std::uint64_t key) const {
      const unsigned char* entry = begin + bucket_of(key) * entry_size;
      for (std::uint64_t probes = buckets(); probes != 0; --probes) {  // a pointer walk: no multiply per probe
        const std::uint64_t got = kenlm_detail::load_u64(entry);
        if (got == key) return entry;
        if (got == 0) return nullptr;
        entry += entry_size;
        if (entry == end) entry = begin;
      }
      return nullptr;
    }
    [[gnu::always_inline]] void prefetch(std::uint64_t key) const {
      __builtin_prefetch(begin + bucket_of(key) * entry_size);
    }
  };

  void check_vocabulary_ids() const;

  io::MappedFile file_;
  std::string path_;
  int order_ = 0;
  std::vector<std::uint64_t> counts_;
  Table vocab_;
  WordId word_bound_ = 0;  // unigram entries: ids below it are valid
  const float* unigrams_ = nullptr;
  std::vector<Table> middle_;  // middle_[n] for 2 <= n < order
  Table longest_;
};

}  // namespace evalcli::ppl
