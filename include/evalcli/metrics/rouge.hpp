#pragma once
// ROUGE in two compatibility modes (docs/rouge.md, shared/specs/rouge.md):
//
//  * rouge-score 0.1.2 (Google Research; what HF `evaluate` reports): ASCII
//    tokenizer, optional NLTK Porter stemmer, rougeN / rougeL / rougeLsum,
//    per-pair P/R/F, max-F over references, plain mean over pairs, optional
//    BootstrapAggregator (numpy legacy MT19937 stream).
//  * ROUGE-1.5.5.pl: its byte-level tokenizer, original Porter + WordNet
//    exceptions (-m), stop words (-s), ROUGE-N/L/W/S/SU, -f A|B, alpha, -t,
//    length limits, per-document 5-decimal strings and its drand48 bootstrap.
//
// One Metric object per mode carries every requested ROUGE type as its
// statistics, because the corpus numbers of all types come from the same
// per-pair tokenization (tokenize once, score many).
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "evalcli/metrics/definition.hpp"
#include "evalcli/metrics/metric.hpp"
#include "evalcli/tokenize/pipeline.hpp"
#include "evalcli/text/porter_stemmer.hpp"

namespace evalcli {

// ------------------------------------------------------------------ pieces

using RougeTokens = std::vector<std::string>;

// rouge-score's default tokenizer: Python lower(), runs outside [a-z0-9] are
// separators, tokens longer than 3 characters stemmed when `stemmer` is set.
RougeTokens rouge_score_tokenize(std::u32string_view text, const text::PorterStemmer* stemmer);

// ROUGE's rule for the tokens of a shared-pipeline tokenizer (--tokenize), the
// same in both modes (docs/rouge.md, signature "+words-v2"): each token of
// `tokenized` (space-separated tokenizer output) lowercased as Python's
// str.lower(), kept iff it has a letter, a digit or a Han character (Script=Han:
// the Kangxi and CJK supplement radicals too).
RougeTokens rouge_pipeline_words(std::u32string_view tokenized);
// The signature suffix of that rule after the tokenizer's id ("zh-char-v1+words-v2").
inline constexpr const char* kRougeWordsRule = "+words-v2";

// Tokens as integer ids (equal ids = equal tokens) for the algorithms below.
using TokenIds = std::vector<int>;

// Token strings -> dense ids with a stem memo (src/metrics/rouge/token_vocabulary.hpp).
class TokenVocabulary;
// A process-wide unique number for a stemming function's owner (one per metric object).
std::uint64_t next_stem_owner_id();

// Global ids -> small dense ids 0..size()-1 for the tokens of one pair, so
// counts live in flat arrays indexed by id.
class LocalIds {
 public:
  void reset() {
    ++generation_;
    size_ = 0;
  }
  int operator()(int global) {
    const auto g = static_cast<std::size_t>(global);
    if (g >= stamp_.size()) {
      stamp_.resize(std::max(g + 1, 2 * stamp_.size()), 0);
      local_.resize(stamp_.size(), 0);
    }
    if (stamp_[g] != generation_) {
      stamp_[g] = generation_;
      local_[g] = size_++;
    }
    return local_[g];
  }
  int size() const { return size_; }

 private:
  std::vector<unsigned> stamp_;
  std::vector<int> local_;
  unsigned generation_ = 0;
  int size_ = 0;
};

// Overlap of n-grams: sum over distinct n-grams of min(count a, count b).
long ngram_overlap(const TokenIds& a, const TokenIds& b, int n);
// The same when every id is below `vocabulary` (flat count arrays for n <= 2).
long ngram_overlap(const TokenIds& a, const TokenIds& b, int n, std::size_t vocabulary);
// Plain LCS length, linear memory.
std::size_t lcs_length(const TokenIds& a, const TokenIds& b);
// Marks in `mask` (size of `model`) the model positions on the LCS path that
// ROUGE-1.5.5 and rouge-score take (backtrack from the end: diagonal on equal
// tokens, else up when up >= left, else left). Memory O(sqrt(|model|)*|peer|).
void mark_lcs(const TokenIds& model, const TokenIds& peer, std::vector<char>& mask);
// mark_lcs always through the table DP (the oracle of mark_lcs's bit-parallel path in tests).
void mark_lcs_plain(const TokenIds& model, const TokenIds& peer, std::vector<char>& mask);
// The same for ROUGE-1.5.5's weighted LCS (run-length DP with f(k) = k^weight).
void mark_wlcs(const TokenIds& model, const TokenIds& peer, double weight, std::vector<char>& mask);

// Union-LCS hits (rouge-score rougeLsum, ROUGE-1.5.5 ROUGE-L): sentences of
// reference (model) and hypothesis (peer).
long union_lcs_hits(std::span<const TokenIds> model, std::span<const TokenIds> peer);
inline long union_lcs_hits(const std::vector<TokenIds>& model, const std::vector<TokenIds>& peer) {
  return union_lcs_hits(std::span<const TokenIds>(model), std::span<const TokenIds>(peer));
}

// ------------------------------------------------------------ rouge-score

struct RougeScoreType {
  enum Kind { ngram, lcs, lcs_summary } kind = ngram;
  int n = 1;
  std::string name() const;  // "rouge1", "rougeL", "rougeLsum"
};
// Parses "rouge1".."rouge9", "rougeL", "rougeLsum"; throws a usage error otherwise.
RougeScoreType parse_rouge_score_type(const std::string& name);

struct PRF {
  double precision = 0, recall = 0, fmeasure = 0;
};

struct RougeScoreOptions {
  std::vector<RougeScoreType> types;  // default: rouge1, rouge2, rougeL, rougeLsum
  bool stem = false;
  // Sentence separator inside a line ("\n" after replacement), for rougeLsum.
  std::u32string sentence_separator;        // empty = none
  std::string sentence_separator_label = "none";
  // A shared-pipeline tokenizer instead of rouge-score's ASCII one (then no stemming).
  std::string tokenizer;  // empty = rouge-score default
  TokenizerOptions tokenizer_options;  // --jieba-hmm, --jieba-dict
  std::vector<std::string> normalizers;
};

class RougeScoreMetric : public Metric {
 public:
  explicit RougeScoreMetric(RougeScoreOptions options);
  std::string name() const override { return "ROUGE"; }
  // P, R and F of each pair lie in 0..1: their sums never exceed the pairs (a count).
  StatDomain stat_domain() const override;
  // Per type: precision, recall, fmeasure; then "pairs".
  std::vector<std::string> stat_names() const override;
  void segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs, Stat* out) const override;
  // Mean fmeasure of the first type.
  double score(std::span<const Stat> stats) const override;
  // The first type's F-measure as math.fsum(scores) / n: from the rows when
  // all are kept (whatever summed a shard's totals), else from the totals.
  double corpus_score(const SystemStats& system) const override;
  // rouge-score's means are math.fsum(scores) / n: totals are exact sums, so
  // the plain corpus score needs no per-pair rows (constant memory).
  bool exact_totals() const override { return true; }
  bool corpus_score_is_mean() const override { return true; }
  std::string signature() const override;
  nlohmann::json details(std::span<const Stat> stats) const override;
  // One component per type ("rouge1", "rougeL"): its mean F-measure.
  std::vector<std::string> score_components() const override;
  std::unique_ptr<StatsModel> score_component(std::size_t k) const override;

  const RougeScoreOptions& options() const { return options_; }
  const TextPipeline& pipeline() const { return *pipeline_; }
  // The stem: field: the stemmer's id, or "no".
  std::string stemmer_id() const;
  // Scores of one (reference, hypothesis) pair for every type.
  std::vector<PRF> score_pair(std::u32string_view ref, std::u32string_view hyp) const;
  bool uses_ascii_tokenizer() const { return !pipeline_tokenizer_; }

 private:
  // score_pair() into `scores` (content replaced), reusing per-thread buffers.
  void score_pair_into(std::u32string_view ref, std::u32string_view hyp, std::vector<PRF>& scores) const;
  std::vector<RougeTokens> sentences(std::u32string_view text) const;
  RougeTokens tokenize(std::u32string_view text) const;
  // tokenize() as ids of `vocabulary`, appended to `out`.
  void token_ids(std::u32string_view text, TokenVocabulary& vocabulary, TokenIds& out) const;

  RougeScoreOptions options_;
  std::unique_ptr<text::PorterStemmer> stemmer_;
  std::unique_ptr<TextPipeline> pipeline_;  // normalizers (+ tokenizer if chosen)
  bool pipeline_tokenizer_ = false;
  std::uint64_t stem_owner_ = next_stem_owner_id();
};

// rouge-score BootstrapAggregator: rows[type][pair] -> low/mid/high per type.
struct RougeInterval {
  PRF low, mid, high;
};
std::vector<RougeInterval> rouge_score_bootstrap(const std::vector<std::vector<PRF>>& rows_by_type,
                                                 unsigned seed, int n_samples, double confidence);

// Python math.fsum: the correctly rounded sum.
double exact_sum(std::span<const double> values);

// ----------------------------------------------------------- ROUGE-1.5.5

struct Rouge155Options {
  int max_ngram = 0;          // -n (0 = no ROUGE-N)
  bool lcs = true;            // !-x
  std::optional<std::string> wlcs_weight;  // -w as given ("1.2")
  std::optional<int> skip_distance;         // -2
  bool skip_unigram = false;  // -u
  bool skip_both = false;     // -U
  bool stem = false;          // -m
  bool stem_models = false;   // -M: stem the models (references) only
  bool stopwords = false;     // -s
  char scoring = 'A';         // -f
  double alpha = 0.5;         // -p
  int counting = 0;           // -t 0|1|2
  int word_limit = 0;         // -l
  int byte_limit = 0;         // -b
  int resamples = 1000;       // -r
  double confidence = 95;     // -c
  bool per_doc = false;       // -d (only changes the text report)
  // How a settings file (--rouge155-config) is read; neither changes a number.
  bool all_peers = false;         // -a: every peer of the settings file
  std::string file_list_format;   // -z SEE|SPL|ISI: the file is a file list
  std::string data_dir;       // --rouge155-data / ROUGE_EVAL_HOME
  // Sentence separator inside a line (SPL: one sentence per line).
  std::u32string sentence_separator;
  std::string sentence_separator_label = "none";
  // A shared-pipeline tokenizer: tokens mapped to hex ids (spec section 4).
  std::string tokenizer;
  TokenizerOptions tokenizer_options;  // --jieba-hmm, --jieba-dict
  std::vector<std::string> normalizers;
};

// Parses ROUGE-1.5.5.pl command-line flags ("-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a -m").
void parse_rouge155_flags(const std::string& flags, Rouge155Options& options);

struct Rouge155Measure {
  enum Kind { ngram, lcs, wlcs, skip } kind;
  int n = 0;                 // ngram order
  bool unigrams = false;     // SU
  std::string label;         // "ROUGE-1", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-SU4"
};

class Rouge155Metric : public Metric {
 public:
  explicit Rouge155Metric(Rouge155Options options);
  std::string name() const override { return "ROUGE-1.5.5"; }
  // Per-document scores in 0..1 summed (at most the documents), or with -t 1/2 match counts.
  StatDomain stat_domain() const override;
  // Per measure: R, P, F strings as numbers (or M, P, H counts with -t 1|2).
  std::vector<std::string> stat_names() const override;
  void segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs, Stat* out) const override;
  double score(std::span<const Stat> stats) const override;
  // ROUGE-1.5.5 averages the per-document scores, except with -t 1|2 (summed counts).
  bool corpus_score_is_mean() const override;
  std::string signature() const override;
  // One component per measure ("ROUGE-1", "ROUGE-SU4"): its F, as score() of the first.
  std::vector<std::string> score_components() const override;
  std::unique_ptr<StatsModel> score_component(std::size_t k) const override;

  // One document given as sentences (bytes as ROUGE reads them from its
  // summary files, not yet lowercased): the peer's and each model's, in the
  // models' order. segment_stats splits its lines into such sentences.
  void document_stats(std::vector<std::string> peer_sentences, std::vector<std::vector<std::string>> model_sentences,
                      Stat* out) const;
  // One sentence after --normalize / --tokenize (hex ids), as bytes; an empty
  // result is no sentence. Without them: the UTF-8 bytes of `piece`.
  std::string sentence_bytes(std::u32string_view piece) const;
  // True when --normalize or --tokenize change the text (sentence_bytes is
  // then needed, and file bytes must be UTF-8).
  bool transforms_text() const;

  const std::vector<Rouge155Measure>& measures() const { return measures_; }
  const Rouge155Options& options() const { return options_; }
  const TextPipeline& pipeline() const { return *pipeline_; }
  // The stem: field: "<stemmer>+wordnet2.0-exc" with -m/-M, or "no".
  std::string stemmer_id() const;

  // -m: the WordNet exception's base form, else the original Porter stem.
  std::string morph_stem(const std::string& token) const;

  // What the command warns about, counted over every document scored so far.
  // With ROUGE-1.5.5's own byte tokenizer: non-space characters and how many were
  // non-ASCII (UTF-8 lead bytes; the tokenizer drops them all).
  bool uses_byte_tokenizer() const { return !pipeline_tokenizer_; }
  std::size_t chars_seen() const { return chars_seen_.load(); }
  std::size_t non_ascii_seen() const { return non_ascii_seen_.load(); }
  // Documents where ROUGE-1.5.5.pl dies ("Illegal division by zero"): under -w,
  // a model without tokens (ROUGE-W divides by its weighted length, 0).
  std::size_t fatal_in_rouge155() const { return fatal_documents_.load(); }

 private:
  void count_characters(const std::vector<std::string>& sentences) const;

  Rouge155Options options_;
  std::vector<Rouge155Measure> measures_;
  double weight_ = 1.2;
  std::unordered_set<std::string> stopwords_;
  std::unordered_map<std::string, std::string> exceptions_;
  std::uint64_t stem_owner_ = next_stem_owner_id();  // memo of morph_stem per token id
  text::PorterStemmer stemmer_{text::PorterVariant::rouge155};
  std::unique_ptr<TextPipeline> pipeline_;
  bool pipeline_tokenizer_ = false;
  mutable std::atomic<std::size_t> chars_seen_{0};
  mutable std::atomic<std::size_t> non_ascii_seen_{0};
  mutable std::atomic<std::size_t> fatal_documents_{0};
};

// One printed ROUGE-1.5.5 average: value strings "%7.5f".
struct Rouge155Average {
  std::string avg[3], low[3], high[3];  // R, P, F
  long counts[3] = {0, 0, 0};            // -t 2: M, P, H totals
};
// Its bootstrap over per-document rows [doc][R,P,F] (or counts with -t 1).
Rouge155Average rouge155_average(const std::vector<std::array<double, 3>>& rows, const Rouge155Options& options);

// Perl sprintf("%7.5f", x).
std::string perl_fixed5(double x);

// ROUGE (rouge-score and ROUGE-1.5.5) declared once (src/metrics/rouge/rouge_definition.cpp),
// and the options of either implementation that option values stand for.
const MetricDefinition& rouge_definition();
RougeScoreOptions rouge_score_options(const OptionValues& values);
Rouge155Options rouge155_options(const OptionValues& values);  // data folder: --rouge155-data, else $ROUGE_EVAL_HOME

}  // namespace evalcli
