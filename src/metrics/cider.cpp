// CIDEr-D / CIDEr scoring (../shared/specs/cider.md §2). Every floating-point
// operation happens in the reference tools' order so results are bit-identical.
#include "evalcli/metrics/cider.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <unordered_map>
#include <utility>
#include <nlohmann/json.hpp>

#include "evalcli/core/detail/probing_table.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/core/worker_pool.hpp"
#include "evalcli/metrics/text_options.hpp"
#include "evalcli/core/huge_pages.hpp"
#include "evalcli/core/summation.hpp"
#include "evalcli/text/detail/string_interner.hpp"
#include "evalcli/text/text_arena.hpp"
#include "evalcli/text/unicode.hpp"

namespace evalcli {

CiderVariant parse_cider_variant(std::string_view name) {
  if (name == "cider-d" || name == "ciderD" || name == "CIDEr-D") return CiderVariant::cider_d;
  if (name == "cider" || name == "CIDEr") return CiderVariant::cider;
  throw usage_error(fmt::format("unknown CIDEr variant '{}' (known: cider-d, cider)", name));
}

std::string cider_variant_name(CiderVariant variant) {
  return variant == CiderVariant::cider_d ? "cider-d" : "cider";
}

std::string cider_display_name(CiderVariant variant) {
  return variant == CiderVariant::cider_d ? "CIDEr-D" : "CIDEr";
}

std::vector<std::u32string> cider_words(std::u32string_view tokenized) {
  std::vector<std::u32string> words;
  text::for_each_split(tokenized, [&](std::u32string_view word) { words.emplace_back(word); });
  return words;
}

namespace {

constexpr std::uint32_t kNoPrefix = 0xFFFFFFFFu;
// pycocoevalcap writes `np.e ** x`, i.e. C pow() with this base (not exp()).
constexpr double kE = 2.718281828459045;

// Large tables (the n-gram hash table, the per-occurrence arrays: several MB
// for a COCO-sized corpus) come from memory::map_zeroed_huge (huge pages
// advised: fewer page faults and TLB misses on the random look-ups).
using memory::kHugePage;
using memory::map_zeroed_huge;
using memory::unmap_zeroed_huge;

// std::allocator, except that blocks of 2 MiB and more come from map_zeroed_huge().
template <typename T>
struct LargeTableAllocator {
  using value_type = T;
  LargeTableAllocator() = default;
  template <typename U>
  LargeTableAllocator(const LargeTableAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    if (n * sizeof(T) < kHugePage) return std::allocator<T>().allocate(n);
    return static_cast<T*>(map_zeroed_huge(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < kHugePage) {
      std::allocator<T>().deallocate(p, n);
    } else {
      unmap_zeroed_huge(p, n * sizeof(T));
    }
  }
  template <typename U>
  bool operator==(const LargeTableAllocator<U>&) const noexcept {
    return true;
  }
};
template <typename T>
using LargeVector = std::vector<T, LargeTableAllocator<T>>;

// A slot of the word and n-gram tables: key 0 = empty (see the keys below).
// Packed to 12 bytes: the n-gram table is the largest block CIDEr touches
// (first-touched pages cost their zeroing), and x86 loads unaligned keys at
// full speed.
struct __attribute__((packed, aligned(4))) IdSlot {
  std::uint64_t key;
  std::uint32_t id;
};
static_assert(sizeof(IdSlot) == 12);

// Interns words and n-grams (an n-gram = its (n-1)-gram prefix id + last word id).
class NgramTable {
 public:
  std::uint32_t word_id(std::u32string_view word) { return word_id(word, text::TextHash::of(word)); }
  // The same, given the word's TextHash.
  std::uint32_t word_id(std::u32string_view word, std::uint64_t hash) {
    // Keyed by the word's hash (never 0), confirmed by its text: equal ids
    // always mean equal words (compared as bytes: memcmp, not a loop per
    // character that mispredicts its exit).
    const IdSlot fresh{hash | 1, static_cast<std::uint32_t>(word_text_.size())};
    const auto same_text = [&](const IdSlot& slot) {
      const std::u32string_view known = word_text_[slot.id];
      return known.size() == word.size() && std::memcmp(known.data(), word.data(), word.size() * sizeof(char32_t)) == 0;
    };
    bool inserted = false;
    const std::uint32_t id = words_.find_or_insert(fresh, same_text, inserted).id;
    if (inserted) word_text_.push_back(word_arena_.store(word));
    return id;
  }
  // The id of the n-gram `prefix` + `word`, inserting it if new.
  std::uint32_t ngram_id(std::uint32_t prefix, std::uint32_t word) {
    bool inserted = false;
    const std::uint32_t id = unranked_ngram_id(prefix, word, inserted);
    if (inserted) assign_rank(id);
    return id;
  }
  // The same, except that a new n-gram's rank is left for assign_rank().
  std::uint32_t unranked_ngram_id(std::uint32_t prefix, std::uint32_t word, bool& inserted) {
    const IdSlot fresh{ngram_key(prefix, word), static_cast<std::uint32_t>(ngram_count_)};
    const std::uint32_t id = ngrams_.find_or_insert(fresh, inserted).id;
    if (inserted) {
      ++ngram_count_;
      if (keeps_texts_) ngrams_info_.push_back({prefix, word, 0});
    }
    return id;
  }
  // Ranks say in which order the n-grams were met, counting sentence by
  // sentence, order by order, left to right, whatever order ids were handed
  // out in (the df file lists n-grams in this first-seen order).
  void assign_rank(std::uint32_t id) {
    if (keeps_texts_) ngrams_info_[id].rank = next_rank_++;
  }
  // Every id, in rank order.
  std::vector<std::uint32_t> ids_by_rank() const {
    std::vector<std::uint32_t> ids(ngrams_info_.size());
    for (std::uint32_t id = 0; id < ngrams_info_.size(); ++id) ids[ngrams_info_[id].rank] = id;
    return ids;
  }
  std::size_t size() const { return ngram_count_; }
  // The n-grams the table holds before it grows (reserve() makes room for at least as many).
  std::size_t capacity() const { return std::max(ngrams_.room(), ngram_count_); }
  // From now on (call it before the first n-gram), the n-grams' texts and
  // ranks are not kept: text() and ids_by_rank() have nothing to say, and a
  // run that needs neither (no df file saved or loaded) touches 12 bytes less
  // per n-gram.
  void forget_texts() { keeps_texts_ = false; }
  bool keeps_texts() const { return keeps_texts_; }
  [[gnu::always_inline]] void prefetch(std::uint32_t prefix, std::uint32_t word) const {
    ngrams_.prefetch(ngram_key(prefix, word));
  }
  void reserve(std::size_t ngrams) {
    ngrams_.reserve(ngrams);
    if (keeps_texts_) ngrams_info_.reserve(capacity());  // as many as the table holds before it grows
  }
  std::u32string text(std::uint32_t id) const {
    if (!keeps_texts_) throw Error(ExitCode::internal, "CIDEr: n-gram texts asked for after forget_texts()");
    std::vector<std::uint32_t> chain;
    for (std::uint32_t at = id; at != kNoPrefix; at = ngrams_info_[at].prefix) chain.push_back(ngrams_info_[at].last_word);
    std::u32string out;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      if (!out.empty()) out += U' ';
      out += word_text_[*it];
    }
    return out;
  }

 private:
  // The pair (prefix, word) complemented, so that no key is 0 (word ids stay
  // below 2^32 - 1, so no pair is all ones).
  static std::uint64_t ngram_key(std::uint32_t prefix, std::uint32_t word) {
    return ~((static_cast<std::uint64_t>(prefix) << 32) | word);
  }
  // The n-gram table is the hot path: a few million look-ups for a COCO-sized
  // corpus; both tables grow at 75% load.
  detail::ProbingTable<IdSlot> words_{75};
  text::TextArena word_arena_;
  std::vector<std::u32string_view> word_text_;  // by word id, in word_arena_
  detail::ProbingTable<IdSlot> ngrams_{75};
  struct NgramInfo {
    std::uint32_t prefix;     // id of the (n-1)-gram, kNoPrefix for a word
    std::uint32_t last_word;  // word id
    std::uint32_t rank;       // see assign_rank()
  };
  LargeVector<NgramInfo> ngrams_info_;  // by id (empty once forget_texts())
  std::size_t ngram_count_ = 0;
  bool keeps_texts_ = true;
  std::uint32_t next_rank_ = 0;
};

// N-gram counts of many sentences in flat arrays. Per sentence: n-gram ids in
// first-occurrence order, order-major (all 1-grams left to right, then 2-grams,
// ...) as pycocoevalcap's dicts, their counts, and max_n + 1 order offsets.
class SentenceStore {
 public:
  explicit SentenceStore(int max_n) : max_n_(static_cast<std::size_t>(max_n)) {}

  // Adds the sentences of one batch (an image's references and hypotheses)
  // and returns the index of the first. The n-grams of one order are looked up
  // for every sentence of the batch together, so that the cache misses of the
  // n-gram table overlap across sentences (order k needs the ids of order
  // k - 1). The table ranks the n-grams new to the batch afterwards in the
  // order sentence-by-sentence adding meets them.
  //
  // The first `counted` sentences (an image's references) also count toward
  // the document frequencies, once per n-gram and batch: their df entries are
  // prefetched as the ids become known and updated once every order is looked up.
  //
  // Given a `record`, the sentences are appended to it (record_batch()) and
  // not kept (the index returned is then the next one).
  std::uint32_t add_batch(std::span<const std::u32string_view> texts, std::size_t counted = 0,
                          std::string* record = nullptr) {
    word_ids_.clear();
    word_start_.assign(1, 0);
    for (const auto text : texts) {
      add_words(text);
      word_start_.push_back(word_ids_.size());
    }
    return add_batch_words(counted, record);
  }
  // The same for sentences given as word ids of `table`.
  std::uint32_t add_batch(std::span<const CaptionWords> sentences, std::size_t counted) {
    word_ids_.clear();
    word_start_.assign(1, 0);
    for (const auto words : sentences) {
      word_ids_.insert(word_ids_.end(), words.begin(), words.end());
      word_start_.push_back(word_ids_.size());
    }
    return add_batch_words(counted, nullptr);
  }

  std::size_t max_n() const { return max_n_; }
  // Drops the sentences from `first` on (the n-gram table and the document
  // frequencies stay): a document is no longer needed once counted or scored.
  void truncate(std::uint32_t first) {
    if (first >= sentences_.size()) return;
    const std::uint32_t offsets_at = sentences_[first].offsets;
    ids_.resize(offsets_[offsets_at]);
    counts_.resize(offsets_[offsets_at]);
    std::erase_if(large_counts_, [size = counts_.size()](const auto& entry) { return entry.first >= size; });
    offsets_.resize(offsets_at);
    sentences_.resize(first);
  }
  // Adds `count` sentences recorded by record_batch() from `in` (advanced
  // past them) and returns the index of the first.
  std::uint32_t load_sentences(std::uint32_t count, std::string_view& in) {
    const auto first = static_cast<std::uint32_t>(sentences_.size());
    for (std::uint32_t s = 0; s < count; ++s) {
      Sentence sentence;
      sentence.offsets = static_cast<std::uint32_t>(offsets_.size());
      sentence.bigrams = static_cast<long>(take<std::int64_t>(in));
      for (std::size_t k = 0; k < max_n_; ++k) {
        const std::size_t at = ids_.size();
        offsets_.push_back(static_cast<std::uint32_t>(at));
        const auto n = take<std::uint32_t>(in);
        const std::size_t bytes = n * (sizeof(std::uint32_t) + 1);
        if (in.size() < bytes) throw Error(ExitCode::internal, "CIDEr: truncated saved document");
        if (n > 0) {  // (memcpy of nothing from or to an empty vector's null data() is undefined)
          ids_.resize(at + n);
          counts_.resize(at + n);
          std::memcpy(ids_.data() + at, in.data(), n * sizeof(std::uint32_t));
          std::memcpy(counts_.data() + at, in.data() + n * sizeof(std::uint32_t), n);
        }
        in.remove_prefix(bytes);
        for (std::size_t pos = at; pos < at + n; ++pos) {
          if (counts_[pos] == kLargeCount) large_counts_.emplace(pos, take<std::uint32_t>(in));
        }
      }
      offsets_.push_back(static_cast<std::uint32_t>(ids_.size()));
      sentences_.push_back(sentence);
    }
    return first;
  }

  // Pre-sizes the arrays for `sentences` kept sentences (0: sentences are
  // dropped after use) of `words` words in total.
  void reserve(std::size_t sentences, std::size_t words) {
    const std::size_t ngrams = words * max_n_;
    if (sentences > 0) {
      ids_.reserve(ngrams);
      counts_.reserve(ngrams);
      offsets_.reserve(sentences * (max_n_ + 1));
      sentences_.reserve(sentences);
    }
    table.reserve(ngrams / 4);  // distinct n-grams: about a quarter of the occurrences in captions
    df_.reserve(table.capacity());  // as many as the table holds: neither grows before the other
  }
  // [first, last) positions of sentence `s`'s order-k n-grams (k from 0).
  std::uint32_t begin(std::uint32_t s, std::size_t k) const { return offsets_[sentences_[s].offsets + k]; }
  std::uint32_t end(std::uint32_t s, std::size_t k) const { return offsets_[sentences_[s].offsets + k + 1]; }
  long bigrams(std::uint32_t s) const { return sentences_[s].bigrams; }
  std::uint32_t id(std::uint32_t pos) const { return ids_[pos]; }
  // Sentence s's order offsets: max_n + 1 positions, begin(s, 0) .. end(s, max_n - 1).
  const std::uint32_t* offsets_of(std::uint32_t s) const { return offsets_.data() + sentences_[s].offsets; }
  // The ids and byte counts (see append_count()) from position `pos` on.
  const std::uint32_t* ids_from(std::uint32_t pos) const { return ids_.data() + pos; }
  const std::uint8_t* small_counts_from(std::uint32_t pos) const { return counts_.data() + pos; }
  std::uint32_t count(std::uint32_t pos) const {
    const std::uint8_t small = counts_[pos];
    return small != kLargeCount ? small : large_counts_.at(pos);
  }
  // The document frequency of n-gram `id` counted by add_batch().
  std::uint32_t df_count(std::size_t id) const { return id < df_.size() ? df_[id].count : 0u; }
  // The largest df_count().
  std::uint32_t most_df_count() const { return most_df_; }
  // Document frequencies counted by add_batch() (ids never counted may be missing).
  std::vector<std::uint32_t> document_frequencies() const {
    std::vector<std::uint32_t> df(df_.size());
    for (std::size_t i = 0; i < df.size(); ++i) df[i] = df_[i].count;
    return df;
  }

  NgramTable table;

 private:
  template <typename T>
  static void append(std::string& out, T value) {
    out.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  template <typename T>
  static T take(std::string_view& in) {
    if (in.size() < sizeof(T)) throw Error(ExitCode::internal, "CIDEr: truncated saved document");
    T value;
    std::memcpy(&value, in.data(), sizeof value);
    in.remove_prefix(sizeof value);
    return value;
  }

  // Counts of n-grams in one sentence: a byte each (mostly 1 in captions),
  // and the rare count of kLargeCount or more in large_counts_ by position.
  static constexpr std::uint8_t kLargeCount = CiderCorpus::CaptionNgrams::kCountKeptAside;
  void append_count(std::uint32_t value) {
    if (value >= kLargeCount) large_counts_.emplace(counts_.size(), value);
    counts_.push_back(static_cast<std::uint8_t>(std::min<std::uint32_t>(value, kLargeCount)));
  }

  struct Sentence {
    std::uint32_t offsets = 0;
    long bigrams = 0;  // pycocoevalcap's "length": Σ tf of 2-grams
  };

  struct DfEntry {
    std::uint32_t count = 0;
    std::uint32_t last_batch = 0;  // 1-based; 0 = never seen
  };
  void count_document(std::size_t start, std::size_t size, std::uint32_t stamp) {
    for (std::size_t pos = start; pos < start + size; ++pos) {
      const std::uint32_t id = region_ids_[pos];
      if (id >= df_.size()) {
        // Within the reserved capacity at once; beyond it, geometrically.
        df_.resize(std::max({table.size(), df_.size() * 3 / 2, std::min(df_.capacity(), table.capacity())}));
      }
      DfEntry& entry = df_[id];
      if (entry.last_batch != stamp) {
        entry.last_batch = stamp;
        most_df_ = std::max(most_df_, ++entry.count);
      }
    }
  }

  // Appends the ids of `text`'s words (text::split()'s) to word_ids_, each
  // word hashed as it is found.
  void add_words(std::u32string_view text) {
    text::for_each_split_hashed(text, [this](std::u32string_view word, std::uint64_t hash) {
      word_ids_.push_back(table.word_id(word, hash));
    });
  }


  // add_batch() once the batch's words are in word_ids_ (sentence s is
  // [word_start_[s], word_start_[s + 1])).
  std::uint32_t add_batch_words(std::size_t counted, std::string* record) {
    look_up_batch(counted);
    const auto first = static_cast<std::uint32_t>(sentences_.size());
    const auto stamp = static_cast<std::uint32_t>(++batches_);
    // Ranks and df in sentence, order, position order.
    for (std::size_t s = 0; s + 1 < word_start_.size(); ++s) {
      for (std::size_t k = 1; k <= max_n_; ++k) {
        const std::size_t region = s * max_n_ + k - 1;
        const std::size_t start = region_start_[region];
        for (std::size_t m = 0; m < region_new_size_[region]; ++m) table.assign_rank(region_new_[start + m]);
        if (s < counted) count_document(start, region_size_[region], stamp);
      }
    }
    if (record) {
      record_batch(*record);
    } else {
      keep_batch();
    }
    return first;
  }

  // Looks up every n-gram of the batch into its (sentence, order) region.
  void look_up_batch(std::size_t counted) {
    const std::size_t n = word_start_.size() - 1;
    chain_.assign(word_ids_.size(), kNoPrefix);
    repeated_.resize(word_ids_.size());  // written by order 1, read from order 2 on
    // A scratch region per (sentence, order), room for each of its positions.
    region_start_.resize(n * max_n_ + 1);
    std::size_t total = 0;
    for (std::size_t s = 0; s < n; ++s) {
      for (std::size_t k = 1; k <= max_n_; ++k) {
        region_start_[s * max_n_ + k - 1] = total;
        total += positions(s, k);
      }
    }
    region_start_[n * max_n_] = total;
    region_ids_.resize(total);
    region_counts_.resize(total);
    region_new_.resize(total);
    region_size_.assign(n * max_n_, 0);
    region_new_size_.assign(n * max_n_, 0);
    batch_has_large_count_ = false;
    // Order 1's slots are prefetched here, every higher order's as its
    // prefix's id becomes known (look_up_order()).
    for (std::size_t i = 0; i < word_ids_.size(); ++i) table.prefetch(kNoPrefix, word_ids_[i]);
    word_ids_.push_back(0);  // the spare word look_up_order() may read
    for (std::size_t k = 1; k <= max_n_; ++k) {
      for (std::size_t s = 0; s < n; ++s) look_up_order(s, k, s < counted);
    }
  }

  // Keeps the looked-up batch: sentence-major, in the flat arrays.
  void keep_batch() {
    for (std::size_t s = 0; s + 1 < word_start_.size(); ++s) {
      Sentence sentence;
      sentence.offsets = static_cast<std::uint32_t>(offsets_.size());
      for (std::size_t k = 1; k <= max_n_; ++k) {
        const std::size_t region = s * max_n_ + k - 1;
        const auto from = region_ids_.begin() + static_cast<std::ptrdiff_t>(region_start_[region]);
        offsets_.push_back(static_cast<std::uint32_t>(ids_.size()));
        ids_.insert(ids_.end(), from, from + static_cast<std::ptrdiff_t>(region_size_[region]));
        for (std::size_t m = 0; m < region_size_[region]; ++m) append_count(region_counts_[region_start_[region] + m]);
      }
      if (max_n_ >= 2) sentence.bigrams = static_cast<long>(positions(s, 2));
      offsets_.push_back(static_cast<std::uint32_t>(ids_.size()));
      sentences_.push_back(sentence);
    }
  }

  // Appends the looked-up batch to `record`, in native byte order: per
  // sentence its 2-gram count (8 bytes), then per order the number of n-grams
  // (4), their ids (4 each), their counts as append_count() keeps them (a
  // byte each), and the counts of kLargeCount or more (4 each). In one resize
  // and plain copies; 5 bytes per n-gram, as in memory.
  void record_batch(std::string& record) const {
    const std::size_t n = word_start_.size() - 1;
    std::size_t bytes = n * sizeof(std::int64_t) + n * max_n_ * sizeof(std::uint32_t);
    for (std::size_t region = 0; region < n * max_n_; ++region) {
      bytes += region_size_[region] * (sizeof(std::uint32_t) + 1);
      if (!batch_has_large_count_) continue;
      const std::size_t start = region_start_[region];
      for (std::size_t m = start; m < start + region_size_[region]; ++m) {
        if (region_counts_[m] >= kLargeCount) bytes += sizeof(std::uint32_t);
      }
    }
    const std::size_t old_size = record.size();
    record.resize(old_size + bytes);
    char* out = record.data() + old_size;
    const auto put = [&out](auto value) {
      std::memcpy(out, &value, sizeof value);
      out += sizeof value;
    };
    for (std::size_t s = 0; s < n; ++s) {
      put(static_cast<std::int64_t>(max_n_ >= 2 ? positions(s, 2) : 0));
      for (std::size_t k = 1; k <= max_n_; ++k) {
        const std::size_t region = s * max_n_ + k - 1;
        const std::size_t start = region_start_[region];
        const std::size_t size = region_size_[region];
        put(static_cast<std::uint32_t>(size));
        if (size > 0) std::memcpy(out, region_ids_.data() + start, size * sizeof(std::uint32_t));  // data() may be null
        out += size * sizeof(std::uint32_t);
        for (std::size_t m = start; m < start + size; ++m) {
          *out++ = static_cast<char>(std::min<std::uint32_t>(region_counts_[m], kLargeCount));
        }
        for (std::size_t m = start; batch_has_large_count_ && m < start + size; ++m) {
          if (region_counts_[m] >= kLargeCount) put(region_counts_[m]);
        }
      }
    }
  }

  // Order-k n-grams of batch sentence s: one per start position.
  std::size_t positions(std::size_t s, std::size_t k) const {
    const std::size_t words = word_start_[s + 1] - word_start_[s];
    return words >= k ? words - k + 1 : 0;
  }

  // Where word `word` is among the sentence's 1-grams, if it occurred before
  // in it (each sentence's order 1 is looked up under a new sentence_stamp_),
  // else `size` (its position, recorded). A per-word array in cache instead of
  // a search: most 1-grams are not new to the table but new to the sentence,
  // and a search would run through the whole region and mispredict its exit.
  std::size_t unigram_position(std::uint32_t word, std::size_t size) {
    if (word >= word_seen_.size()) word_seen_.resize(std::max<std::size_t>(word + 1, word_seen_.size() * 2));
    WordSeen& seen = word_seen_[word];
    if (seen.stamp == sentence_stamp_) return seen.position;
    seen = {sentence_stamp_, static_cast<std::uint32_t>(size)};
    return size;
  }

  // Looks up batch sentence s's order-k n-grams, left to right (the ids of
  // order k - 1 in chain_ become those of order k), and counts each in the
  // sentence's region for order k: its distinct n-grams in first-occurrence
  // order, their counts, and which were new to the table. A word's earlier
  // occurrence comes from unigram_position(); an n-gram of a higher order can
  // occur earlier in its sentence only if it is not new to the table and its
  // prefix did (repeated_, set by order k - 1): only those few are searched
  // for among the region's n-grams (a search mispredicts its exit). Works on local
  // pointers and sizes: stores through the scratch vectors' elements would
  // otherwise make the compiler reload every member after each one.
  void look_up_order(std::size_t s, std::size_t k, bool counted) {
    if (k == 1 && ++sentence_stamp_ == 0) {  // wrapped: old stamps could match
      std::fill(word_seen_.begin(), word_seen_.end(), WordSeen{});
      sentence_stamp_ = 1;
    }
    const std::size_t region = s * max_n_ + k - 1;
    const std::size_t start = region_start_[region];
    std::uint32_t* const ids = region_ids_.data() + start;
    std::uint32_t* const counts = region_counts_.data() + start;
    std::uint32_t* const fresh = region_new_.data() + start;
    std::uint32_t* const chain = chain_.data() + word_start_[s];
    std::uint8_t* const repeated = repeated_.data() + word_start_[s];
    const std::uint32_t* const last_words = word_ids_.data() + word_start_[s] + k - 1;
    const std::size_t df_size = counted ? df_.size() : 0;  // df_ grows only in count_document()
    const std::size_t n = positions(s, k);
    const bool prefetch_next = k < max_n_;
    std::size_t size = 0, fresh_size = 0;
    for (std::size_t i = 0; i < n; ++i) {
      bool inserted = false;
      const std::uint32_t id = table.unranked_ngram_id(chain[i], last_words[i], inserted);
      chain[i] = id;
      // The order-(k + 1) n-gram at i (past the sentence's last one: a
      // harmless prefetch of another slot; word_ids_ ends in a spare word).
      if (prefetch_next) table.prefetch(id, last_words[i + 1]);
      if (inserted) fresh[fresh_size++] = id;
      if (id < df_size) __builtin_prefetch(&df_[id]);
      std::size_t at = size;
      if (k == 1) {
        at = unigram_position(last_words[i], size);
      } else if (repeated[i] && !inserted) {
        // Captions are short: a linear search among the region's n-grams beats any table.
        at = 0;
        while (at < size && ids[at] != id) ++at;
      }
      repeated[i] = at != size;
      if (at == size) {
        ids[size++] = id;
        counts[at] = 1;
      } else {
        if (++counts[at] == kLargeCount) batch_has_large_count_ = true;
      }
    }
    region_size_[region] = size;
    region_new_size_[region] = fresh_size;
  }

  std::size_t max_n_;
  LargeVector<std::uint32_t> ids_;
  LargeVector<std::uint8_t> counts_;  // see append_count()
  std::unordered_map<std::size_t, std::uint32_t> large_counts_;
  std::vector<std::uint32_t> offsets_;
  std::vector<Sentence> sentences_;
  // Scratch of add_batch().
  std::vector<std::uint32_t> word_ids_, chain_;
  std::vector<std::uint8_t> repeated_;  // by batch word position: see look_up_order()
  std::vector<std::size_t> word_start_, region_start_, region_size_, region_new_size_;
  std::vector<std::uint32_t> region_ids_, region_counts_, region_new_;
  bool batch_has_large_count_ = false;
  struct WordSeen {
    std::uint32_t stamp = 0, position = 0;
  };
  std::vector<WordSeen> word_seen_;  // by word id: see unigram_position()
  std::uint32_t sentence_stamp_ = 0;  // a region count reached kLargeCount (rare: record_batch() checks)
  LargeVector<DfEntry> df_;
  std::uint32_t most_df_ = 0;
  std::size_t batches_ = 0;
};

// tf-idf weights and per-order norms of one stored sentence (buffers reused).
struct WeightedSentence {
  std::uint32_t sentence = 0;
  std::vector<double> weights;  // aligned with the store's positions of the sentence
  std::vector<double> norms;
};

// `idf[id]`: an n-gram's idf (a LargeVector<double>, or CountedIdf).
template <class Idf>
void weigh(const SentenceStore& store, std::uint32_t sentence, const Idf& idf, WeightedSentence& out) {
  const std::size_t max_n = store.max_n();
  const std::uint32_t first = store.begin(sentence, 0);
  out.sentence = sentence;
  out.weights.resize(store.end(sentence, max_n - 1) - first);
  out.norms.assign(max_n, 0.0);
  for (std::size_t k = 0; k < max_n; ++k) {
    double norm = 0.0;
    for (std::uint32_t pos = store.begin(sentence, k); pos < store.end(sentence, k); ++pos) {
      const double weight = static_cast<double>(store.count(pos)) * idf[store.id(pos)];
      out.weights[pos - first] = weight;
      norm += weight * weight;
    }
    out.norms[k] = std::sqrt(norm);
  }
}

// Reusable buffers for scoring.
struct ScoringScratch {
  // By n-gram id, 1 + its position in the loaded reference (0: not in it;
  // all 0 between references). Half the bytes of the weights themselves: the
  // array is as long as the n-gram table, and its first touch costs page zeroing.
  LargeVector<std::uint32_t> ref_position_by_id;
  // CIDEr-D's length penalty by |hyp bigrams - ref bigrams| (NaN: not computed
  // yet): lengths repeat, and pow() is the costliest call per reference.
  std::vector<double> penalty_by_distance;
  WeightedSentence hyp, ref;
  std::vector<double> acc;
};

// np.e ** (-(delta ** 2) / (2 * sigma ** 2)), memoised by |delta| (small
// integers); the same pow() call on the same operands, so the same value.
double length_penalty(double delta, double two_sigma_squared, std::vector<double>& memo) {
  constexpr std::size_t kMemoized = 4096;
  const double distance = std::fabs(delta);
  if (!(distance < static_cast<double>(kMemoized))) return std::pow(kE, -(delta * delta) / two_sigma_squared);
  const auto at = static_cast<std::size_t>(distance);
  if (at >= memo.size()) memo.resize(at + 1, std::numeric_limits<double>::quiet_NaN());
  if (std::isnan(memo[at])) memo[at] = std::pow(kE, -(delta * delta) / two_sigma_squared);
  return memo[at];
}

// One image: mean over references and n-gram orders of the (clipped, penalised)
// cosine similarities, times 10, in the reference tools' operation order.
// `idf` as for weigh(), for every id below `ids`.
template <class Idf>
double score_item(const SentenceStore& store, std::uint32_t hyp, std::uint32_t first_ref, std::uint32_t ref_count,
                  const Idf& idf, std::size_t ids, const CiderOptions& options, ScoringScratch& scratch) {
  const std::size_t max_n = store.max_n();
  auto& by_id = scratch.ref_position_by_id;
  if (by_id.size() < ids) by_id.resize(ids, 0);
  weigh(store, hyp, idf, scratch.hyp);
  const std::uint32_t hyp_first = store.begin(hyp, 0);
  scratch.acc.assign(max_n, 0.0);
  const double two_sigma_squared = 2.0 * (options.sigma * options.sigma);
  const bool clipped = options.variant == CiderVariant::cider_d;
  for (std::uint32_t r = first_ref; r < first_ref + ref_count; ++r) {
    weigh(store, r, idf, scratch.ref);
    const std::uint32_t ref_first = store.begin(r, 0);
    const std::uint32_t ref_last = store.end(r, max_n - 1);
    for (std::uint32_t pos = ref_first; pos < ref_last; ++pos) by_id[store.id(pos)] = pos - ref_first + 1;
    const double delta = static_cast<double>(store.bigrams(hyp) - store.bigrams(r));
    const double penalty = length_penalty(delta, two_sigma_squared, scratch.penalty_by_distance);
    for (std::size_t k = 0; k < max_n; ++k) {
      double val = 0.0;
      for (std::uint32_t pos = store.begin(hyp, k); pos < store.end(hyp, k); ++pos) {
        const std::uint32_t in_ref = by_id[store.id(pos)];
        if (in_ref == 0) continue;
        const double ref_weight = scratch.ref.weights[in_ref - 1];
        if (ref_weight == 0.0) continue;  // the reference tools add +0.0 here
        const double hyp_weight = scratch.hyp.weights[pos - hyp_first];
        val += (clipped ? std::min(hyp_weight, ref_weight) : hyp_weight) * ref_weight;
      }
      const double hyp_norm = scratch.hyp.norms[k];
      const double ref_norm = scratch.ref.norms[k];
      if (hyp_norm != 0.0 && ref_norm != 0.0) val /= (hyp_norm * ref_norm);
      if (clipped) val *= penalty;
      scratch.acc[k] += val;
    }
    for (std::uint32_t pos = ref_first; pos < ref_last; ++pos) by_id[store.id(pos)] = 0;
  }
  double score = stats::numpy_mean(scratch.acc);  // np.mean over the n-gram orders
  score /= static_cast<double>(ref_count);
  score *= 10.0;
  return score;
}

// idf[id] = log(N) - log(max(1, df(id))), with logs of equal df values computed
// once. `df` is called with every id below n_ngrams (no copy of the counts).
template <typename DocumentFrequency>
LargeVector<double> inverse_document_frequencies(const DocumentFrequency& df, std::size_t n_ngrams,
                                                 std::size_t documents) {
  const double log_n = std::log(static_cast<double>(documents));
  std::vector<double> log_cache;
  LargeVector<double> idf;
  idf.reserve(n_ngrams);  // each element written once (no zero fill first)
  for (std::size_t id = 0; id < n_ngrams; ++id) {
    const std::uint32_t count = df(id);
    if (count >= log_cache.size()) {
      const std::size_t old = log_cache.size();
      log_cache.resize(static_cast<std::size_t>(count) + 1);
      for (std::size_t c = old; c < log_cache.size(); ++c) {
        log_cache[c] = log_n - std::log(std::max(1.0, static_cast<double>(c)));
      }
    }
    idf.push_back(log_cache[count]);
  }
  return idf;
}

// The idf of every n-gram from the document frequencies the store counted, as
// inverse_document_frequencies() computes it (log(N) - log(max(1, df)), the
// same operations), looked up through a table by df: no array as long as the
// n-gram table to fill and first-touch.
class CountedIdf {
 public:
  CountedIdf(const SentenceStore& store, std::size_t documents) : store_(store) {
    const double log_n = std::log(static_cast<double>(documents));
    log_by_df_.resize(static_cast<std::size_t>(store.most_df_count()) + 1);
    for (std::size_t c = 0; c < log_by_df_.size(); ++c) {
      log_by_df_[c] = log_n - std::log(std::max(1.0, static_cast<double>(c)));
    }
  }
  double operator[](std::uint32_t id) const { return log_by_df_[store_.df_count(id)]; }

 private:
  const SentenceStore& store_;
  std::vector<double> log_by_df_;
};

void check_options(const CiderOptions& options) {
  if (options.max_n < 1 || options.max_n > 16) throw usage_error("CIDEr n-gram order must be in 1..16");
  if (!(options.sigma > 0.0)) throw usage_error("CIDEr-D sigma must be positive");
}

// Scores each hypothesis of the document whose sentences start at `first_ref`
// in `store` against its references, then drops the document.
void score_stored_document(SentenceStore& store, std::uint32_t first_ref, std::uint32_t refs, std::uint32_t hyps,
                           const LargeVector<double>& idf, const CiderOptions& options, ScoringScratch& scratch,
                           std::vector<double>& scores) {
  if (refs == 0) throw Error(ExitCode::internal, "CIDEr: document without references");
  scores.clear();
  for (std::uint32_t s = 0; s < hyps; ++s) {
    scores.push_back(score_item(store, first_ref + refs + s, first_ref, refs, idf, idf.size(), options, scratch));
  }
  store.truncate(first_ref);
}

// One thread's buffers for scoring the records count_document() saved: the
// sentences of the record being scored (a store of its own: the corpus's
// n-gram table is only needed through the ids the record holds) and scratch.
class SavedDocumentScorer {
 public:
  explicit SavedDocumentScorer(int max_n) : store_(max_n) {}

  void score(std::string_view saved, const LargeVector<double>& idf, const CiderOptions& options,
             std::vector<double>& scores) {
    std::uint32_t counts[2] = {0, 0};  // references, hypotheses
    if (saved.size() < sizeof counts) throw Error(ExitCode::internal, "CIDEr: truncated saved document");
    std::memcpy(counts, saved.data(), sizeof counts);
    saved.remove_prefix(sizeof counts);
    const std::uint32_t first_ref = store_.load_sentences(counts[0] + counts[1], saved);
    score_stored_document(store_, first_ref, counts[0], counts[1], idf, options, scratch_, scores);
  }

 private:
  SentenceStore store_;
  ScoringScratch scratch_;
};

}  // namespace

struct CiderCorpus::Impl {
  explicit Impl(CiderOptions o) : options(o), store(o.max_n) {}
  CiderOptions options;
  SentenceStore store;
  struct Document {
    std::uint32_t first_ref = 0, ref_count = 0, first_hyp = 0, hyp_count = 0;
  };
  std::vector<Document> documents;
  std::size_t dropped_documents = 0;  // counted by count_document(), not kept
  std::vector<std::u32string_view> batch_texts;  // scratch of add_document()
  std::vector<CaptionWords> batch_words;         // scratch of add_document_words()
  std::string unsaved_record;                    // count_document()'s record when not asked for
  std::optional<std::vector<std::uint32_t>> loaded_df;
  std::size_t loaded_documents = 0;
  std::optional<LargeVector<double>> idf;  // pass 2's weights, made once the df are final
  ScoringScratch scratch;                  // score_document()'s buffers
  std::vector<std::unique_ptr<SavedDocumentScorer>> saved_scorers;  // score_saved_documents()'s, one per piece

  std::vector<std::uint32_t> df_in_effect() const { return loaded_df ? *loaded_df : store.document_frequencies(); }
  std::size_t document_count() const { return documents.size() + dropped_documents; }
  // N of log(N): the loaded file's documents, or the documents counted.
  std::size_t idf_documents() const { return loaded_df ? loaded_documents : document_count(); }
  // Adds one document's captions to the store as one batch (its references
  // counted toward the df); returns the index of its first reference.
  std::uint32_t add_batch(std::span<const std::u32string> refs, std::span<const std::u32string> hyps,
                          bool count_df, std::string* record = nullptr) {
    batch_texts.assign(refs.begin(), refs.end());
    batch_texts.insert(batch_texts.end(), hyps.begin(), hyps.end());
    return store.add_batch(batch_texts, count_df ? refs.size() : 0, record);
  }
  // The idf of pass 2. A counted document brings no new n-gram; any other
  // gets idf log(N) for its new ones, as in score_all().
  const LargeVector<double>& pass2_idf() {
    if (!idf || idf->size() < store.table.size()) idf = inverse_frequencies();
    return *idf;
  }
  // score_all()'s scores of `system` into `scores` (one per document), with
  // `idf` as for weigh() for every id below `ids`.
  template <class Idf>
  void score_documents(std::size_t system, const Idf& idf, std::size_t ids, WorkerPool* pool,
                       std::vector<double>& scores) const {
    // One contiguous piece of the documents per thread, each with its own scratch.
    const std::size_t pieces = pool ? std::clamp<std::size_t>((scores.size() + 255) / 256, 1, pool->size()) : 1;
    const auto score_piece = [&](std::size_t piece) {
      ScoringScratch scratch;
      const std::size_t end = scores.size() * (piece + 1) / pieces;
      for (std::size_t i = scores.size() * piece / pieces; i < end; ++i) {
        const auto& doc = documents[i];
        scores[i] = score_item(store, doc.first_hyp + static_cast<std::uint32_t>(system), doc.first_ref,
                               doc.ref_count, idf, ids, options, scratch);
      }
    };
    if (pieces <= 1) {
      score_piece(0);
    } else {
      pool->for_each(pieces, score_piece);
    }
  }
  // idf of every n-gram id, from the document frequencies in effect.
  LargeVector<double> inverse_frequencies() const {
    const std::size_t n_ngrams = store.table.size();
    if (loaded_df) {
      return inverse_document_frequencies(
          [&loaded = *loaded_df](std::size_t id) { return id < loaded.size() ? loaded[id] : 0u; }, n_ngrams,
          idf_documents());
    }
    return inverse_document_frequencies([this](std::size_t id) { return store.df_count(id); }, n_ngrams,
                                        idf_documents());
  }
};

CiderCorpus::CiderCorpus(CiderOptions options) {
  check_options(options);
  impl_ = std::make_unique<Impl>(options);
}

CiderCorpus::~CiderCorpus() = default;

void CiderCorpus::add_document(std::span<const std::u32string> tokenized_refs,
                               std::span<const std::u32string> tokenized_hyps) {
  Impl& d = *impl_;
  Impl::Document doc;
  doc.ref_count = static_cast<std::uint32_t>(tokenized_refs.size());
  doc.hyp_count = static_cast<std::uint32_t>(tokenized_hyps.size());
  doc.first_ref = d.add_batch(tokenized_refs, tokenized_hyps, true);  // df: once per image, from its references
  doc.first_hyp = doc.first_ref + doc.ref_count;
  d.documents.push_back(doc);
  d.idf.reset();
}

std::uint32_t CiderCorpus::word_id(std::u32string_view word) { return impl_->store.table.word_id(word); }

void CiderCorpus::add_document_words(std::span<const CaptionWords> refs, std::span<const CaptionWords> hyps) {
  Impl& d = *impl_;
  Impl::Document doc;
  doc.ref_count = static_cast<std::uint32_t>(refs.size());
  doc.hyp_count = static_cast<std::uint32_t>(hyps.size());
  d.batch_words.assign(refs.begin(), refs.end());
  d.batch_words.insert(d.batch_words.end(), hyps.begin(), hyps.end());
  doc.first_ref = d.store.add_batch(std::span<const CaptionWords>(d.batch_words), refs.size());
  doc.first_hyp = doc.first_ref + doc.ref_count;
  d.documents.push_back(doc);
  d.idf.reset();
}

void CiderCorpus::count_document(std::span<const std::u32string> tokenized_refs,
                                 std::span<const std::u32string> tokenized_hyps, std::string* saved) {
  Impl& d = *impl_;
  // The same batch as add_document() (same ids, ranks and counts), recorded
  // instead of kept.
  std::string& record = saved ? *saved : d.unsaved_record;
  const auto refs = static_cast<std::uint32_t>(tokenized_refs.size());
  const auto hyps = static_cast<std::uint32_t>(tokenized_hyps.size());
  record.append(reinterpret_cast<const char*>(&refs), sizeof refs);
  record.append(reinterpret_cast<const char*>(&hyps), sizeof hyps);
  d.add_batch(tokenized_refs, tokenized_hyps, true, &record);
  d.unsaved_record.clear();
  ++d.dropped_documents;
  d.idf.reset();
}

void CiderCorpus::score_saved_document(std::string_view saved, std::vector<double>& scores) {
  score_saved_documents(std::span<const std::string_view>(&saved, 1), std::span<std::vector<double>>(&scores, 1));
}

void CiderCorpus::score_saved_documents(std::span<const std::string_view> saved, std::span<std::vector<double>> scores,
                                        WorkerPool* pool) {
  Impl& d = *impl_;
  if (scores.size() != saved.size()) throw Error(ExitCode::internal, "CIDEr: one score list per saved document");
  const LargeVector<double>& idf = d.pass2_idf();
  // One contiguous piece of the records per thread, each with its own buffers
  // (kept for the next call: the per-id weights are as long as the n-gram table).
  constexpr std::size_t kRecordsPerPiece = 64;
  const std::size_t pieces =
      pool ? std::clamp<std::size_t>((saved.size() + kRecordsPerPiece - 1) / kRecordsPerPiece, 1, pool->size()) : 1;
  while (d.saved_scorers.size() < pieces) d.saved_scorers.push_back(std::make_unique<SavedDocumentScorer>(d.options.max_n));
  const auto score_piece = [&](std::size_t piece) {
    SavedDocumentScorer& scorer = *d.saved_scorers[piece];
    const std::size_t end = saved.size() * (piece + 1) / pieces;
    for (std::size_t i = saved.size() * piece / pieces; i < end; ++i) scorer.score(saved[i], idf, d.options, scores[i]);
  };
  if (pieces <= 1) {
    score_piece(0);
  } else {
    pool->for_each(pieces, score_piece);
  }
}

void CiderCorpus::score_document(std::span<const std::u32string> tokenized_refs,
                                 std::span<const std::u32string> tokenized_hyps, std::vector<double>& scores) {
  Impl& d = *impl_;
  if (tokenized_refs.empty()) throw Error(ExitCode::internal, "CIDEr: document without references");
  const std::uint32_t first_ref = d.add_batch(tokenized_refs, tokenized_hyps, false);
  const LargeVector<double>& idf = d.pass2_idf();
  score_stored_document(d.store, first_ref, static_cast<std::uint32_t>(tokenized_refs.size()),
                        static_cast<std::uint32_t>(tokenized_hyps.size()), idf, d.options, d.scratch, scores);
}

std::size_t CiderCorpus::documents() const { return impl_->document_count(); }

CiderCorpus::CaptionNgrams CiderCorpus::caption_ngrams(std::size_t document, std::size_t caption) const {
  const Impl& d = *impl_;
  const auto sentence = static_cast<std::uint32_t>(d.documents[document].first_ref + caption);
  CaptionNgrams ngrams;
  ngrams.corpus_ = this;
  ngrams.orders_ = d.options.max_n;
  ngrams.offsets_ = d.store.offsets_of(sentence);
  ngrams.ids_ = d.store.ids_from(ngrams.offsets_[0]);
  ngrams.counts_ = d.store.small_counts_from(ngrams.offsets_[0]);
  return ngrams;
}

std::uint32_t CiderCorpus::CaptionNgrams::kept_aside(std::size_t i) const {
  return corpus_->impl_->store.count(offsets_[0] + static_cast<std::uint32_t>(i));
}

std::size_t CiderCorpus::ngram_count() const { return impl_->store.table.size(); }

void CiderCorpus::reserve(std::size_t documents, std::size_t sentences, std::size_t words) {
  impl_->documents.reserve(documents);
  impl_->store.reserve(sentences, words);
}

void CiderCorpus::forget_ngram_texts() {
  if (impl_->store.table.size() > 0) throw Error(ExitCode::internal, "CIDEr: forget_ngram_texts() after the first document");
  impl_->store.table.forget_texts();
}

void CiderCorpus::use_document_frequencies(const CiderDocumentFrequencies& df) {
  Impl& d = *impl_;
  if (!d.store.table.keeps_texts()) throw Error(ExitCode::internal, "CIDEr: df file used after forget_ngram_texts()");
  if (df.max_n < d.options.max_n) {
    throw usage_error(fmt::format("the df file holds n-grams up to n={}, but n={} is asked for", df.max_n,
                                  d.options.max_n));
  }
  std::vector<std::uint32_t> loaded;
  for (const auto& [ngram, count] : df.counts) {
    std::uint32_t id = kNoPrefix;
    text::for_each_split(ngram, [&](std::u32string_view word) {
      id = d.store.table.ngram_id(id, d.store.table.word_id(word));
    });
    if (id == kNoPrefix) continue;
    if (id >= loaded.size()) loaded.resize(static_cast<std::size_t>(id) + 1, 0);
    loaded[id] = count;
  }
  d.loaded_df = std::move(loaded);
  d.loaded_documents = df.documents;
  d.idf.reset();
}

CiderDocumentFrequencies CiderCorpus::document_frequencies(const std::string& tokenizer_id) const {
  const Impl& d = *impl_;
  if (!d.store.table.keeps_texts()) throw Error(ExitCode::internal, "CIDEr: df asked for after forget_ngram_texts()");
  CiderDocumentFrequencies out;
  out.max_n = d.options.max_n;
  out.tokenizer_id = tokenizer_id;
  const auto df = d.df_in_effect();
  out.documents = d.idf_documents();
  for (const std::uint32_t id : d.store.table.ids_by_rank()) {
    if (id < df.size() && df[id] > 0) out.counts.emplace_back(d.store.table.text(id), df[id]);
  }
  return out;
}

std::vector<double> CiderCorpus::score_all(std::size_t system, WorkerPool* pool) const {
  const Impl& d = *impl_;
  for (const auto& doc : d.documents) {
    if (system >= doc.hyp_count) throw Error(ExitCode::internal, "CIDEr: document without hypothesis");
  }
  std::vector<double> scores(d.documents.size());
  // Counted document frequencies need no idf array (CountedIdf); loaded ones do.
  const std::size_t ids = d.store.table.size();
  if (d.loaded_df) {
    d.score_documents(system, d.inverse_frequencies(), ids, pool, scores);
  } else {
    d.score_documents(system, CountedIdf(d.store, d.idf_documents()), ids, pool, scores);
  }
  return scores;
}

// ---- Metric adapter ---------------------------------------------------------

Cider::Cider(CiderOptions options, std::unique_ptr<TextPipeline> pipeline,
             std::shared_ptr<const CiderDocumentFrequencies> df, std::string df_field)
    : options_(options), pipeline_(std::move(pipeline)), df_(std::move(df)), df_field_(std::move(df_field)) {
  check_options(options_);
  for (const auto& [ngram, count] : df_->counts) df_lookup_.emplace(ngram, count);
}

std::u32string Cider::tokenize(std::u32string_view line) const { return pipeline_->process(line); }

void Cider::segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs, Stat* out) const {
  if (refs.empty()) throw input_error("CIDEr: an item has no references");
  // A private store per call keeps this const and thread-safe; the batch path
  // (CiderCorpus) is the fast one.
  SentenceStore store(options_.max_n);
  std::vector<std::u32string> tokenized;
  for (const auto& ref : refs) tokenized.push_back(tokenize(ref));
  tokenized.push_back(tokenize(hyp));
  const std::vector<std::u32string_view> texts(tokenized.begin(), tokenized.end());
  const std::uint32_t first_ref = store.add_batch(texts);
  const auto hyp_sentence = static_cast<std::uint32_t>(first_ref + refs.size());
  std::vector<std::uint32_t> df(store.table.size(), 0);
  for (std::size_t id = 0; id < store.table.size(); ++id) {
    auto it = df_lookup_.find(store.table.text(static_cast<std::uint32_t>(id)));
    if (it != df_lookup_.end()) df[id] = it->second;
  }
  const LargeVector<double> idf =
      inverse_document_frequencies([&df](std::size_t id) { return df[id]; }, store.table.size(), df_->documents);
  ScoringScratch scratch;
  out[0] = score_item(store, hyp_sentence, first_ref, static_cast<std::uint32_t>(refs.size()), idf, idf.size(),
                      options_, scratch);
  out[1] = 1.0;
}

double Cider::score(std::span<const Stat> stats) const { return stats[1] > 0 ? stats[0] / stats[1] : 0.0; }

double Cider::corpus_score(const SystemStats& system) const {
  if (system.rows.empty()) return score(system.totals);
  std::vector<double> scores;
  scores.reserve(system.rows.size());
  for (const auto& row : system.rows) scores.push_back(row[0]);
  return numpy_mean(scores);
}

// "variant:cider-d|n:4|sigma:6|df:corpus|tok:ptb-v2[|case:lc][|norm:...]"
std::string Cider::signature() const { return print_signature(cider_definition(), *this); }

// ---------------------------------------------------------------- definition

namespace {

constexpr const char* kDfRead = "signature-df";

// CIDEr's document frequencies come from all references: statistics of
// shards that each counted their own (df:corpus) are not parts of one run.
std::string cider_shard_problem(const std::string& signature) {
  if (find_field(parse_signature(signature), "df").value_or("corpus") != "corpus") return "";
  return "CIDEr shards scored with document frequencies of their own references (df:corpus) cannot be merged: "
         "count them once over all references (evalcli cider ... --save-df DF) and score every shard with --df DF";
}

// The statistics model of a run (merge, check): its per-image scores are
// computed by the corpus scorer (`evalcli cider`), which needs every
// reference; the document frequencies are identified by the df: field.
std::unique_ptr<StatsModel> build_cider(const OptionValues& values, const BuildContext&) {
  auto pipeline = std::make_unique<TextPipeline>(pipeline_options(values, "ptb"));
  check_signature_tokenizer_fields(values, pipeline->tokenizer());
  return std::make_unique<Cider>(cider_options(values), std::move(pipeline),
                                 std::make_shared<CiderDocumentFrequencies>(), values.text(kDfRead, "corpus"));
}

MetricDefinition make_cider_definition() {
  const TextOptionSpecs text{.tokenize_help = "tokenizer (-tok): ptb (default, as pycocoevalcap), none, zh, char, ja-mecab, ...",
                             .language = true,
                             .language_alias = "--lang",
                             .pipeline = pipeline_of<Cider>(),
                             .case_when_mixed = false};
  MetricDefinition d;
  d.command = "cider";
  d.summary = "CIDEr-D (pycocoevalcap) and original CIDEr (vrama91/cider)";
  d.names = {"CIDEr"};
  d.default_width = 4;
  d.score_scale = 10;
  d.options = {
      {.name = "jsonl",
       .help = "JSONL items {\"id\", \"refs\": [...], \"hyp\"} (hyp optional with -i)",
       .role = OptionRole::resource},
      {.name = "coco-annotations", .help = "COCO captions annotation file (references)", .role = OptionRole::resource},
      {.name = "coco-results", .help = "COCO results file [{\"image_id\", \"caption\"}]", .role = OptionRole::resource},
  };
  const auto shared = text_option_specs(text);
  d.options.insert(d.options.end(), shared.begin(), shared.end());
  d.options.insert(d.options.end(),
                   {
                       {.name = "variant",
                        .help = "cider-d (pycocoevalcap, default) or cider (original, vrama91)",
                        .choices = {"cider-d", "cider"},
                        .signature_key = "variant",
                        .print = field_printer<Cider>([](const Cider& c) { return std::string(cider_variant_name(c.options().variant)); })},
                       {.name = "ngram-order",
                        .kind = OptionKind::integer,
                        .help = "n-gram orders 1..N",
                        .default_text = "4",
                        .min = 1,
                        .max = 16,
                        .signature_key = "n",
                        .print = field_printer<Cider>([](const Cider& c) { return std::to_string(c.options().max_n); })},
                       {.name = "sigma",
                        .kind = OptionKind::real,
                        .help = "CIDEr-D length-penalty sigma",
                        .default_text = "6",
                        .signature_key = "sigma",
                        .print = field_printer<Cider>([](const Cider& c) -> std::optional<std::string> {
                          if (c.options().variant != CiderVariant::cider_d) return std::nullopt;  // CIDEr-D's only
                          return fmt::format("{}", c.options().sigma);
                        })},
                       {.name = "df",
                        .help = "document frequencies from FILE (written by --save-df) instead of the references",
                        .role = OptionRole::resource},
                       {.name = "save-df",
                        .help = "write the document frequencies in effect to FILE (atomically)",
                        .role = OptionRole::no_effect},
                   });
  d.signature_keys = text_signature_keys(text);
  d.signature_keys.push_back({"df", "", [](const std::string& value, OptionValues& values) { values.set(kDfRead, value); },
                              field_printer<Cider>([](const Cider& c) { return c.df_field(); })});
  d.signature_layout = {"variant", "n", "sigma", "df", "tok", "dict", "icu", "case", "norm"};
  d.build = build_cider;
  d.word_tokenizer = [](const OptionValues& values) { return chosen_tokenizer(values, "ptb"); };
  d.shard_problem = cider_shard_problem;
  d.segments_alone = false;
  return d;
}

}  // namespace

CiderOptions cider_options(const OptionValues& values) {
  CiderOptions options;
  options.variant = parse_cider_variant(values.text("variant", "cider-d"));
  options.max_n = values.integer("ngram-order", options.max_n);
  options.sigma = values.real("sigma", options.sigma);
  return options;
}

std::string cider_signature_df(const OptionValues& values) { return values.text(kDfRead, "corpus"); }

const MetricDefinition& cider_definition() {
  static const MetricDefinition definition = make_cider_definition();
  return definition;
}

}  // namespace evalcli
