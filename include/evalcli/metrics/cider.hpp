#pragma once
// CIDEr-D exactly as pycocoevalcap's Cider (= vrama91/cider's CiderD) and the
// original CIDEr of vrama91/cider (../shared/specs/cider.md, docs/cider.md).
//
// CIDEr is not additive per segment: the tf-idf weights use document
// frequencies over the whole reference set. Scoring is therefore two passes:
//   pass 1  CiderCorpus::add_document() for every item (refs -> df; N items),
//           or count_document() to keep only the n-gram table and df
//   pass 2  CiderCorpus::score_all() (or score_document() per counted item,
//           or Cider::segment_stats() per item)
// Once the document frequencies are fixed (computed or loaded with --df) the
// per-image scores are independent, and [score_sum, images] is additive.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "evalcli/metrics/caption_words.hpp"
#include "evalcli/metrics/definition.hpp"
#include "evalcli/metrics/metric.hpp"
#include "evalcli/core/summation.hpp"
#include "evalcli/tokenize/pipeline.hpp"

namespace evalcli {

class WorkerPool;

enum class CiderVariant { cider_d, cider };

struct CiderOptions {
  CiderVariant variant = CiderVariant::cider_d;
  int max_n = 4;       // n-gram orders 1..max_n
  double sigma = 6.0;  // Gaussian length penalty (CIDEr-D only)
};

CiderVariant parse_cider_variant(std::string_view name);  // "cider-d" | "cider"; usage error otherwise
std::string cider_variant_name(CiderVariant variant);      // "cider-d" | "cider"
std::string cider_display_name(CiderVariant variant);      // "CIDEr-D" | "CIDEr"

// pycocoevalcap's np.mean of the per-image scores (src/cli/cmd_cider.cpp calls
// it unqualified; the one implementation is in stats/summation).
using stats::numpy_mean;

// Splits tokenizer output into words as Python's str.split() does (pycocoevalcap
// splits the PTB output this way, so "2<NBSP>1/2" becomes two words).
std::vector<std::u32string> cider_words(std::u32string_view tokenized);

// Document frequencies: n-gram -> number of documents whose references contain it,
// and the number of documents N. Words of an n-gram are joined by one space.
struct CiderDocumentFrequencies {
  std::size_t documents = 0;
  int max_n = 4;
  std::string tokenizer_id;  // what the references were tokenized with (informational)
  std::vector<std::pair<std::u32string, std::uint32_t>> counts;  // in first-seen order
};

// Text form of a df file ("evalcli-cider-df/1" header, then "count<TAB>n-gram" lines).
std::string serialize_document_frequencies(const CiderDocumentFrequencies& df);
CiderDocumentFrequencies parse_document_frequencies(std::string_view content, const std::string& path);
// Parsing refuses (exit 3, naming file and line) what --save-df cannot have
// written: counts outside 1..documents, n-grams longer than the header's n or
// empty, the same n-gram twice, a last line without its newline.
CiderDocumentFrequencies read_document_frequencies(const std::string& path);
// Refuses (exit 3) document frequencies counted with another tokenizer than
// `tokenizer_id` (the run's), or whose header names none.
void check_document_frequencies_tokenizer(const CiderDocumentFrequencies& df, const std::string& tokenizer_id,
                                          const std::string& path);

// The whole scorer: interns words and n-grams, counts document frequencies and
// scores items. Items are added in order; the order of n-gram summation is the
// reference tools' (first occurrence, order-major) so results are bit-identical.
class CiderCorpus {
 public:
  explicit CiderCorpus(CiderOptions options);
  ~CiderCorpus();
  CiderCorpus(const CiderCorpus&) = delete;
  CiderCorpus& operator=(const CiderCorpus&) = delete;

  // Pass 1: one document = the tokenized references of one item and its hypotheses
  // (one per system). `hyps` may be empty when only document frequencies are wanted.
  void add_document(std::span<const std::u32string> tokenized_refs, std::span<const std::u32string> tokenized_hyps);
  void add_document(const std::vector<std::u32string>& tokenized_refs,
                    const std::vector<std::u32string>& tokenized_hyps) {
    add_document(std::span<const std::u32string>(tokenized_refs), std::span<const std::u32string>(tokenized_hyps));
  }
  // The id of `word` in the scorer's vocabulary (new words get the next id).
  std::uint32_t word_id(std::u32string_view word);
  // add_document() of captions given as ids from word_id() (the same scores:
  // a caller that interns the words once can share the ids with other metrics).
  void add_document_words(std::span<const CaptionWords> refs, std::span<const CaptionWords> hyps);
  // Pass 1 without keeping the document (memory then stays at the n-gram table
  // and document frequencies): the same counts, n-gram ids and first-seen
  // order as add_document(). Score it later with score_document(), or with
  // score_saved_document() on what is appended to `saved` (its n-gram
  // vectors, an opaque record to keep outside memory until pass 2).
  void count_document(std::span<const std::u32string> tokenized_refs, std::span<const std::u32string> tokenized_hyps,
                      std::string* saved = nullptr);
  std::size_t documents() const;  // added or counted
  // Optional: pre-sizes the tables (`words` = total words of all sentences;
  // `sentences` = 0 when documents are counted, not added).
  void reserve(std::size_t documents, std::size_t sentences, std::size_t words);
  // Optional, before the first document: the n-grams' texts are not kept, so
  // neither document_frequencies() nor use_document_frequencies() can be
  // called; the same scores from less memory (evalcli coco saves no df).
  void forget_ngram_texts();

  // Replaces the document frequencies counted from the references by `df`
  // (scores then use df.documents as N).
  void use_document_frequencies(const CiderDocumentFrequencies& df);
  // The document frequencies in effect (counted or loaded).
  CiderDocumentFrequencies document_frequencies(const std::string& tokenizer_id) const;

  // Pass 2: per-document scores of system `system`, in document order (on
  // `pool`'s threads when given: each score is its own, so the same scores).
  std::vector<double> score_all(std::size_t system, WorkerPool* pool = nullptr) const;
  // Pass 2 for one document given again (after every count_document()): its
  // score for each hypothesis, bit for bit what score_all() gives it.
  void score_document(std::span<const std::u32string> tokenized_refs, std::span<const std::u32string> tokenized_hyps,
                      std::vector<double>& scores);
  // The same for one record that count_document() saved (no re-tokenizing or look-ups).
  void score_saved_document(std::string_view saved, std::vector<double>& scores);
  // score_saved_document() for many records, on `pool`'s threads when given:
  // scores[i] are record i's, the same numbers whatever the thread count.
  void score_saved_documents(std::span<const std::string_view> saved, std::span<std::vector<double>> scores,
                             WorkerPool* pool = nullptr);

  // One added caption's distinct n-grams, order after order, each order in
  // first-occurrence order: ids of the corpus's n-gram table (equal ids for
  // equal n-grams; an id is never shared by two orders) and how often each
  // occurs in the caption. Valid until the next document is added.
  class CaptionNgrams {
   public:
    int orders() const { return orders_; }
    // The order-`order` n-grams (1..orders()) are [begin(order), end(order)).
    std::size_t begin(int order) const { return offsets_[order - 1] - offsets_[0]; }
    std::size_t end(int order) const { return offsets_[order] - offsets_[0]; }
    std::size_t size() const { return end(orders_); }
    std::uint32_t id(std::size_t i) const { return ids_[i]; }
    std::uint32_t count(std::size_t i) const { return counts_[i] != kCountKeptAside ? counts_[i] : kept_aside(i); }

    // Counts are a byte each; this one says the count (255 or more, which
    // captions never reach) is kept aside by position.
    static constexpr std::uint8_t kCountKeptAside = 255;

   private:
    friend class CiderCorpus;
    std::uint32_t kept_aside(std::size_t i) const;
    const CiderCorpus* corpus_ = nullptr;
    const std::uint32_t* offsets_ = nullptr;  // the store's positions where each order starts, and the end
    const std::uint32_t* ids_ = nullptr;
    const std::uint8_t* counts_ = nullptr;
    int orders_ = 0;
  };
  // The n-grams of caption `caption` of added document `document` (its
  // references, then its hypotheses): the counts CIDEr made, for other
  // metrics of the same captions (coco's Bleu).
  CaptionNgrams caption_ngrams(std::size_t document, std::size_t caption) const;
  // The number of distinct n-grams so far (ids are below it).
  std::size_t ngram_count() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The Metric view of CIDEr: statistics [score_sum, images] once the document
// frequencies are known. segment_stats() tokenizes with the pipeline and scores
// one item against the fixed document frequencies.
class Cider : public Metric {
 public:
  Cider(CiderOptions options, std::unique_ptr<TextPipeline> pipeline,
        std::shared_ptr<const CiderDocumentFrequencies> df, std::string df_field);

  std::string name() const override { return cider_display_name(options_.variant); }
  std::vector<std::string> stat_names() const override { return {"score_sum", "images"}; }
  StatDomain stat_domain() const override { return {{StatKind::nonnegative, StatKind::count}, {}}; }
  void segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs,
                     Stat* out) const override;
  // Mean of the per-image scores (summed left to right; the corpus score that
  // `evalcli cider` prints uses numpy's pairwise order instead).
  double score(std::span<const Stat> stats) const override;
  // As pycocoevalcap: np.mean of the per-image scores (when the rows are kept).
  double corpus_score(const SystemStats& system) const override;
  bool corpus_score_needs_rows() const override { return true; }
  bool corpus_score_is_mean() const override { return true; }
  std::string signature() const override;

  const CiderOptions& options() const { return options_; }
  const TextPipeline& pipeline() const { return *pipeline_; }
  // The df: field: "corpus", or the --df file's identity.
  const std::string& df_field() const { return df_field_; }
  // Tokenized words of one line, as the scorer sees them.
  std::u32string tokenize(std::u32string_view line) const;

 private:
  CiderOptions options_;
  std::unique_ptr<TextPipeline> pipeline_;
  std::shared_ptr<const CiderDocumentFrequencies> df_;
  std::unordered_map<std::u32string, std::uint32_t> df_lookup_;
  std::string df_field_;
};

// CIDEr declared once (src/metrics/cider.cpp): its options, signature fields,
// and the statistics model of a run; `evalcli cider` is its corpus scorer.
const MetricDefinition& cider_definition();
// The CIDEr options the values stand for, and the df: field a signature gave ("corpus" if none).
CiderOptions cider_options(const OptionValues& values);
std::string cider_signature_df(const OptionValues& values);

}  // namespace evalcli
