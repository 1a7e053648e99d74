#pragma once
// `evalcli ppl`: perplexity of a back-off n-gram model (ARPA, bit-compatible
// with KenLM `query`) and of any LM's per-token log-probabilities (JSONL).
// Both reduce every line/document to additive statistics (PplStats,
// LogprobStats); the reported numbers are computed from summed statistics.
// Semantics: docs/ppl.md and the shared spec (specs/ppl.md).
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace evalcli::ppl {

using WordId = std::uint32_t;
constexpr WordId kUnknownWord = 0;  // <unk>, and every out-of-vocabulary token
constexpr int kMaxOrder = 32;       // highest n-gram order evalcli loads
// Read block for the model and the text (buffers grow for longer lines). 64 KiB, not more: the
// block is paged in whole, and peak memory on a small model is a target (loads no slower than 256 KiB).
constexpr std::size_t kReadBlock = std::size_t{1} << 16;

// ---------------------------------------------------------------------------
// The ARPA back-off model.

struct WordScore {
  float log10_prob;             // float32, KenLM's value
  unsigned ngram_length;        // KenLM's printed n-gram length (blank n-grams count)
};

class NgramModel {
 public:
  // Loads an ARPA file (plain, gzip, bzip2 or xz, detected by magic bytes),
  // or a KenLM probing or trie binary (build_binary probing|trie), used in place by mmap.
  // Throws evalcli::Error (input_data) for malformed files, naming the line;
  // warnings (missing <unk>) go to `warnings` if not null. `identify` = false
  // skips the MD5 of the text (md5() is then empty): KenLM-style output, which
  // prints no signature, need not pay for hashing every byte of the model.
  static std::unique_ptr<NgramModel> load(const std::string& path, std::ostream* warnings, bool identify = true);

  ~NgramModel();
  NgramModel(const NgramModel&) = delete;
  NgramModel& operator=(const NgramModel&) = delete;

  int order() const { return static_cast<int>(counts_.size()); }
  // Number of n-grams per order as announced by \data\ (index 0 = unigrams).
  const std::vector<std::uint64_t>& counts() const { return counts_; }
  // MD5 of the uncompressed ARPA text, or of a binary's file bytes (hex): the model in signatures
  // (empty if loaded with identify = false).
  const std::string& md5() const { return md5_; }
  bool has_unknown() const { return has_unknown_; }
  // ARPA: the line of the first entry that repeats an earlier n-gram or word
  // (<unk> entries aside), 0 if none. The first is kept, as in KenLM; before
  // scorer kenlm-v2 evalcli kept the last (ppl_metric.hpp, kArpaScorer).
  std::size_t first_duplicate_line() const { return first_duplicate_line_; }

  // KenLM's vocabulary id: <unk>=0, others by first appearance in \1-grams.
  WordId index(std::string_view word) const;
  // index() of every word, appended to `out` (the look-ups overlap their cache misses).
  void index_all(std::span<const std::string_view> words, std::vector<WordId>& out) const;
  WordId begin_sentence() const { return begin_sentence_; }
  WordId end_sentence() const { return end_sentence_; }

  // log10 p(word | history), history[0] the most recent word; only the first
  // order()-1 entries are used. The ARPA back-off rule in float32, in KenLM's
  // order of additions (matched probability, then back-offs shortest first).
  WordScore score(std::span<const WordId> history, WordId word) const;

  // The same computation carried along a sentence, as KenLM's State: the
  // longest history suffix that can still extend, with its back-off weights
  // (found while matching the previous word, so they are not looked up again).
  struct State {
    WordId words[kMaxOrder];    // words[0] the most recent
    float backoffs[kMaxOrder];  // backoffs[m-1] = back-off of the context words[0..m)
    std::size_t length = 0;
  };
  State begin_sentence_state() const;  // (<s>)
  State null_context_state() const { return {}; }
  WordScore score(const State& in, WordId word, State& out) const;
  // score() of ids[first], ids[first + 1], ... in turn, from `start` (the state
  // after ids[0..first)): scores[k] for ids[first + k]. The n-gram slots of a
  // word are prefetched a few words before it is scored, so that the cache
  // misses of several words overlap.
  void score_words(std::span<const WordId> ids, std::size_t first, const State& start,
                   std::vector<WordScore>& scores) const;

  class Impl;

 private:
  NgramModel();
  static std::unique_ptr<NgramModel> load_kenlm_binary(const std::string& path, bool identify);
  // Calls function(search) with the model's look-ups (KenLM binary or ARPA tables).
  template <class Function>
  decltype(auto) with_search(Function&& function) const;
  std::unique_ptr<Impl> impl_;
  std::vector<std::uint64_t> counts_;
  std::string md5_;
  bool has_unknown_ = true;
  std::size_t first_duplicate_line_ = 0;
  WordId begin_sentence_ = 0;
  WordId end_sentence_ = 0;
};

// ---------------------------------------------------------------------------
// Additive statistics of ARPA-mode scoring (one line of text, or a corpus).

struct PplStats {
  double log10_total = 0;      // sum over lines of the float32 line totals
  double oov_log10_total = 0;  // sum over OOV tokens of their log10 probability
  std::uint64_t tokens = 0;    // scored tokens (words + one </s> per line with sentence context)
  std::uint64_t oovs = 0;
  std::uint64_t words = 0;     // input tokens (no </s>)
  std::uint64_t lines = 0;
  std::uint64_t chars = 0;     // code points of the raw text, line ends included
  std::uint64_t bytes = 0;     // bytes of the raw text, line ends included

  PplStats& operator+=(const PplStats& other);
  double ppl_including_oovs() const;  // KenLM's formulas (pow in double)
  double ppl_excluding_oovs() const;
  // Named numbers derived from the stats (NLL, BPC, BPB, OOV rate...).
  nlohmann::ordered_json to_json() const;
};

enum class ContextMode { sentence, null };

// Result of scoring one line: per-word values (if asked) and the line's stats.
struct ScoredWord {
  std::string_view surface;  // "</s>" for the end of sentence
  WordId id;
  WordScore score;
};
struct LineScore {
  float total = 0;  // float32 running sum, as KenLM's `Total:`
  std::uint64_t oovs = 0;
  PplStats stats;   // stats of this line (chars/bytes are filled by the caller)
};

// Scores the tokens of one line (already split) with KenLM's query rules.
// If `words` is not null the per-word results are appended to it.
// `score_end` = false skips the </s> of sentence mode (KenLM's unterminated last line).
LineScore score_line(const NgramModel& model, std::span<const std::string_view> tokens, ContextMode mode,
                     std::vector<ScoredWord>* words, bool score_end = true);

// KenLM `query`'s tokenisation: maximal runs of bytes other than
// SPACE \t \n \v \f \r (bytes are compared raw, no Unicode handling).
void split_kenlm_tokens(std::string_view line, std::vector<std::string_view>& out);
// The same, one byte at a time (the plain definition, kept for tests).
void split_kenlm_tokens_bytewise(std::string_view line, std::vector<std::string_view>& out);

// KenLM's number formatting (double-conversion ToShortest): shortest
// round-trip digits, plain decimal for 1e-6 <= |x| < 1e21, "NaN", "inf".
std::string kenlm_number(float value);
std::string kenlm_number(double value);
// The same appended to `out` (the hot path of --kenlm-output).
void append_kenlm_number(std::string& out, float value);
void append_kenlm_number(std::string& out, double value);

// MD5 (RFC 1321), incremental; used for the model's identity in signatures.
class Md5 {
 public:
  Md5();
  void update(std::string_view data);
  std::string hex_digest();  // finishes the hash

 private:
  void block(const unsigned char* data);
  std::uint32_t state_[4];
  std::uint64_t length_ = 0;
  unsigned char buffer_[64];
  std::size_t buffered_ = 0;
};

// ---------------------------------------------------------------------------
// Log-probability mode (JSONL: {"text", "tokens"?, "logprobs"}).

struct LogprobStats {
  double logprob_sum = 0;      // natural log, per-document sums added in file order
  std::uint64_t docs = 0;
  std::uint64_t scored_tokens = 0;
  std::uint64_t chars = 0;     // code points of `text`
  std::uint64_t bytes = 0;     // UTF-8 bytes of `text`
  std::uint64_t words = 0;     // lm-evaluation-harness word count: len(re.split(r"\s+", text))
  std::uint64_t docs_without_text = 0;

  LogprobStats& operator+=(const LogprobStats& other);
  nlohmann::ordered_json to_json() const;  // ppl_token, bpc, bpb, ... (lm-eval formulas)
};

enum class LogBase { e, ten, two };
LogBase parse_log_base(std::string_view text);  // "e" | "10" | "2"; usage error otherwise
std::string_view log_base_name(LogBase base);

struct DocumentScore {
  nlohmann::json id;  // null if absent
  LogprobStats stats;
};

// Parses and validates one JSONL line (`where` = "file:line" for messages).
// Throws input_error naming the line and field; appends warnings (positive
// log-probabilities) to `warnings`.
DocumentScore score_document(std::string_view json_line, LogBase base, const std::string& where,
                             std::vector<std::string>& warnings);

// lm-eval word count of a UTF-8 text: 1 + number of maximal runs of Python whitespace.
std::uint64_t lm_eval_word_count(std::u32string_view text);

}  // namespace evalcli::ppl
