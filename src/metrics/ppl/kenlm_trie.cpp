// KenLM trie binaries read in place (layout: kenlm_trie.hpp).
#include "kenlm_trie.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <utility>

#include "evalcli/core/error.hpp"

namespace evalcli::ppl {
namespace {

constexpr std::uint64_t kIndexMask = (std::uint64_t{1} << 58) - 1;

std::uint64_t load_u64(const unsigned char* p) {
  std::uint64_t value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

// A field of `length` <= 57 bits at bit `bit` (KenLM's little-endian packing).
std::uint64_t read_bits(const unsigned char* base, std::uint64_t bit, unsigned length) {
  return (load_u64(base + (bit >> 3)) >> (bit & 7)) & ((std::uint64_t{1} << length) - 1);
}

float float_from_bits(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// KenLM's unquantised fields: a probability stored without its sign bit
// (always set when read back), a back-off as all 32 bits.
float read_non_positive_float31(const unsigned char* base, std::uint64_t bit) {
  return float_from_bits(static_cast<std::uint32_t>(read_bits(base, bit, 31)) | 0x80000000u);
}
float read_float32(const unsigned char* base, std::uint64_t bit) {
  return float_from_bits(static_cast<std::uint32_t>(read_bits(base, bit, 32)));
}

// Bits to store 0 .. max_value (util/bit_packing.cc RequiredBits).
unsigned required_bits(std::uint64_t max_value) {
  unsigned bits = 0;
  for (; max_value != 0; max_value >>= 1) ++bits;
  return bits;
}

std::uint64_t align8(std::uint64_t offset) { return (offset + 7) / 8 * 8; }

// The bytes of `entries` + 1 packed entries of `total_bits`, with the 8 bytes
// of slack KenLM leaves so that a 64-bit load at any field stays inside.
std::uint64_t packed_size(std::uint64_t entries, unsigned total_bits) {
  return ((1 + entries) * total_bits + 7) / 8 + 8;
}

// Array-compressed pointers (lm/bhiksha.cc): how many low bits of the next
// pointers ("chop") go to the offsets array, the choice build_binary made
// from the file's configured maximum. The cost is in KenLM's wrapping
// unsigned arithmetic, read as signed.
unsigned chop_bits(std::uint64_t max_offset, std::uint64_t max_next, unsigned configured) {
  const unsigned required = required_bits(max_next);
  unsigned best = 0;
  std::int64_t lowest = std::numeric_limits<std::int64_t>::max();
  for (unsigned chop = 0; chop <= std::min(required, configured); ++chop) {
    const auto change = static_cast<std::int64_t>((max_next >> (required - chop)) * 64 - max_offset * chop);
    if (change < lowest) {
      lowest = change;
      best = chop;
    }
  }
  return best;
}

}  // namespace

KenlmTrieModel::KenlmTrieModel(io::MappedFile file, const KenlmHeader& header, const std::string& path)
    : file_(std::move(file)), order_(header.order), counts_(header.counts) {
  const auto fail = [&](const std::string& what) { throw input_error(fmt::format("{}: {}", path, what)); };
  const std::string_view bytes = file_.bytes();
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  if (header.search_version != 1) fail(fmt::format("a KenLM trie binary of search version {} (evalcli reads 1)", header.search_version));
  quantised_ = header.model_type == kKenlmQuantTrie || header.model_type == kKenlmQuantArrayTrie;
  const bool array_pointers = header.model_type == kKenlmArrayTrie || header.model_type == kKenlmQuantArrayTrie;
  for (std::size_t n = 0; n < counts_.size(); ++n) {
    // Every entry takes at least one bit: larger counts cannot fit (and would overflow the sizes below).
    if (counts_[n] > bytes.size() * 8) fail(fmt::format("the binary header announces {} {}-grams, more than the file can hold", counts_[n], n + 1));
  }
  if (counts_[0] == 0) fail("a KenLM trie binary without unigrams");

  // The sections in file order, each checked to lie inside the file before it is read.
  std::uint64_t offset = header.size;
  const auto take = [&](std::uint64_t size) {
    if (size > bytes.size() || offset > bytes.size() - size) {
      fail(fmt::format("the KenLM binary file has {} bytes but its header says it holds more (truncated?)", bytes.size()));
    }
    const std::uint64_t at = offset;
    offset += size;
    return at;
  };
  const std::uint64_t vocab = take(8 + 8 * counts_[0]);
  word_count_ = load_u64(data + vocab) + 1;
  if (word_count_ - 1 > counts_[0]) fail(fmt::format("the binary vocabulary says {} words, but there are {} unigrams", word_count_ - 1, counts_[0]));
  word_hashes_ = reinterpret_cast<const std::uint64_t*>(data + vocab + 8);  // 8-aligned in a page-aligned mapping
  if (word_count_ > std::numeric_limits<WordId>::max()) {
    fail(fmt::format("a KenLM binary vocabulary of {} words (evalcli reads fewer than 2^32)", word_count_ - 1));
  }
  index_word_hashes();

  const float* bins = nullptr;
  if (quantised_) {
    const std::uint64_t quant = take(8);
    if (data[quant] != 2) fail(fmt::format("a KenLM binary with quantisation version {} (evalcli reads 2)", data[quant]));
    prob_bits_ = data[quant + 1];
    backoff_bits_ = data[quant + 2];
    if (prob_bits_ < 1 || prob_bits_ > 25 || backoff_bits_ < 1 || backoff_bits_ > 25) {
      fail(fmt::format("a KenLM binary quantised to {} probability and {} back-off bits (KenLM allows 1 to 25)", prob_bits_, backoff_bits_));
    }
    const std::uint64_t tables = (static_cast<std::uint64_t>(order_ - 2) * ((1u << prob_bits_) + (1u << backoff_bits_)) + (1u << prob_bits_));
    bins = reinterpret_cast<const float*>(data + take(4 * tables));
  }
  unigrams_ = data + take(16 * (counts_[0] + 2));
  word_bits_ = required_bits(counts_[0]);
  unsigned configured_chop = 0;
  if (array_pointers && order_ > 2) {
    if (bytes.size() - offset < 2) fail("the KenLM binary file ends inside its trie's header (truncated?)");
    if (data[offset] != 0) fail(fmt::format("a KenLM binary with pointer compression version {} (evalcli reads 0)", data[offset]));
    configured_chop = data[offset + 1];
  }

  levels_.resize(static_cast<std::size_t>(order_) + 1);
  for (int n = 2; n <= order_; ++n) {
    Level& level = levels_[static_cast<std::size_t>(n)];
    level.entries = counts_[static_cast<std::size_t>(n - 1)];
    const bool longest = n == order_;
    if (quantised_) {
      level.prob_bins = bins;
      bins += std::uint64_t{1} << prob_bits_;
      if (!longest) {
        level.backoff_bins = bins;
        bins += std::uint64_t{1} << backoff_bits_;
      }
      level.weight_bits = longest ? prob_bits_ : prob_bits_ + backoff_bits_;
    } else {
      level.weight_bits = longest ? 31 : 63;
    }
    if (!longest) {
      const std::uint64_t max_next = counts_[static_cast<std::size_t>(n)];
      level.next_bits = required_bits(max_next);
      if (array_pointers) {
        const unsigned chop = chop_bits(level.entries + 1, max_next, configured_chop);
        level.next_bits -= chop;
        level.offset_count = (max_next >> level.next_bits) + 1;
        const std::uint64_t start = take(8 * (1 + level.offset_count) + 7);
        level.offsets = reinterpret_cast<const std::uint64_t*>(data + align8(start) + 8);
        if (level.offsets[0] != 0) fail(fmt::format("corrupt KenLM trie: the {}-grams' pointer offsets do not start at 0", n));
      }
    }
    level.total_bits = word_bits_ + level.weight_bits + level.next_bits;
    if (word_bits_ > 57 || level.next_bits > 57 || level.entries + 1 >= (std::uint64_t{1} << 57)) {
      fail(fmt::format("a KenLM trie whose {}-grams need more than 57-bit fields", n));
    }
    level.bits = data + take(packed_size(level.entries, level.total_bits));
  }
}

// The hashes are uniform over 64 bits, so a bucket of their top bits holds one
// or two of them: word_buckets_[b] is the first position whose hash's top bits
// are at least b, and a word is found by one look-up in the index and a scan of
// its bucket (KenLM's SortedVocabulary interpolates instead: two or three
// dependent probes, each a likely cache miss, and a division each).
void KenlmTrieModel::index_word_hashes() {
  const std::uint64_t words = word_count_ - 1;
  const int bucket_bits = std::max(1, static_cast<int>(std::bit_width(words)) - 1);
  bucket_shift_ = 64 - static_cast<unsigned>(bucket_bits);
  word_buckets_.assign((std::size_t{1} << bucket_bits) + 1, static_cast<std::uint32_t>(words));
  std::size_t next_bucket = 0;
  for (std::uint64_t i = 0; i < words; ++i) {
    // Monotone even over an unsorted (corrupt) table: a bucket only ever moves forward.
    for (const std::uint64_t bucket = word_hashes_[i] >> bucket_shift_; next_bucket <= bucket; ++next_bucket) {
      word_buckets_[next_bucket] = static_cast<std::uint32_t>(i);
    }
  }
}

void KenlmTrieModel::prefetch_word(std::uint64_t word_hash) const {
  __builtin_prefetch(word_buckets_.data() + (word_hash >> bucket_shift_));
}

WordId KenlmTrieModel::find_word(std::uint64_t word_hash) const {
  const std::uint64_t bucket = word_hash >> bucket_shift_;
  const std::uint32_t end = word_buckets_[bucket + 1];
  for (std::uint32_t at = word_buckets_[bucket]; at < end; ++at) {
    if (word_hashes_[at] == word_hash) return static_cast<WordId>(at + 1);  // ids start at 1: <unk> is 0 and not in the table
  }
  return kUnknownWord;
}

void KenlmTrieModel::child_range(const Level& level, std::uint64_t index, std::uint64_t& begin, std::uint64_t& end) const {
  const std::uint64_t bit = index * level.total_bits + word_bits_ + level.weight_bits;
  begin = read_bits(level.bits, bit, level.next_bits);
  end = read_bits(level.bits, bit + level.total_bits, level.next_bits);
  if (level.offsets == nullptr) return;
  // offsets[0] = 0 (checked at load), so some offset is at most index. The
  // end's high part is that one's or a little later: one search, then a scan
  // (as KenLM's ArrayBhiksha::ReadNext; two searches were a fifth of a -a run).
  const std::uint64_t* const offsets_end = level.offsets + level.offset_count;
  const std::uint64_t* high = std::upper_bound(level.offsets, offsets_end, index) - 1;
  begin |= static_cast<std::uint64_t>(high - level.offsets) << level.next_bits;
  while (high + 1 != offsets_end && high[1] <= index + 1) ++high;
  end |= static_cast<std::uint64_t>(high - level.offsets) << level.next_bits;
}

// The word ids under one context are sorted and spread over 0..counts[0] as
// evenly as the hashes that numbered them: interpolation search (as KenLM's
// BoundedSortedUniformFind) needs a probe or two where a binary search needs
// log2 of the range, most of them cache misses in a large model. The word, if
// present, is in [low, high); low_value < word <= high_value bound the values
// around it (only comparisons with `word` move them, so even a corrupt,
// unsorted range keeps every probe inside [low, high) and the loop finite).
std::uint64_t KenlmTrieModel::find_in(const Level& level, std::uint64_t begin, std::uint64_t end, WordId word) const {
  std::uint64_t low = begin, high = end;
  std::uint64_t low_value = 0, high_value = counts_[0];
  if (word > high_value) return kAbsent;  // no such word id: corrupt file
  while (low < high) {
    const std::uint64_t width = high - low;
    // (word - low_value) / (high_value - low_value + 1) < 1, so the probe is below high.
    // Word ids fit 32 bits: the product fits 64 bits unless the range is 2^32 entries or more.
    const std::uint64_t offset = word - low_value, span = high_value - low_value + 1;
    const std::uint64_t step = width >> 32 == 0 ? offset * width / span
                                                : static_cast<std::uint64_t>(static_cast<unsigned __int128>(offset) * width / span);
    const std::uint64_t probe = low + step;
    const std::uint64_t value = read_bits(level.bits, probe * level.total_bits, word_bits_);
    if (value < word) {
      low = probe + 1;
      low_value = value;
    } else if (value > word) {
      high = probe;
      high_value = value;
    } else {
      return probe;
    }
  }
  return kAbsent;
}

std::uint64_t KenlmTrieModel::fold(std::uint64_t key, WordId older) const {
  if (key == kAbsent) return kAbsent;
  const int n = static_cast<int>(key >> 58);
  const std::uint64_t index = key & kIndexMask;
  if (n >= order_) return kAbsent;
  std::uint64_t begin, end;
  if (n == 1) {
    begin = load_u64(unigram_entry(static_cast<WordId>(index)) + 8);
    end = load_u64(unigram_entry(static_cast<WordId>(index)) + 24);
  } else {
    child_range(levels_[static_cast<std::size_t>(n)], index, begin, end);
  }
  const Level& children = levels_[static_cast<std::size_t>(n) + 1];
  if (begin > end || end > children.entries) return kAbsent;  // only in a corrupt file: read as no children
  const std::uint64_t found = find_in(children, begin, end, older);
  return found == kAbsent ? kAbsent : make_key(n + 1, found);
}

ProbBackoff KenlmTrieModel::unigram(WordId word) const {
  ProbBackoff weights;
  std::memcpy(&weights, unigram_entry(word), sizeof weights);
  return weights;
}

bool KenlmTrieModel::find_middle(int n, std::uint64_t key, ProbBackoff& out) const {
  if (key == kAbsent || static_cast<int>(key >> 58) != n) return false;
  const Level& level = levels_[static_cast<std::size_t>(n)];
  const std::uint64_t bit = weight_offset(level, key & kIndexMask);
  if (quantised_) {  // back-off first, then probability
    out.backoff = level.backoff_bins[read_bits(level.bits, bit, backoff_bits_)];
    out.prob = level.prob_bins[read_bits(level.bits, bit + backoff_bits_, prob_bits_)];
  } else {
    out.prob = read_non_positive_float31(level.bits, bit);
    out.backoff = read_float32(level.bits, bit + 31);
  }
  return true;
}

bool KenlmTrieModel::find_longest(std::uint64_t key, float& prob) const {
  if (key == kAbsent || static_cast<int>(key >> 58) != order_) return false;
  const Level& level = levels_[static_cast<std::size_t>(order_)];
  const std::uint64_t bit = weight_offset(level, key & kIndexMask);
  prob = quantised_ ? level.prob_bins[read_bits(level.bits, bit, prob_bits_)] : read_non_positive_float31(level.bits, bit);
  return true;
}

}  // namespace evalcli::ppl
