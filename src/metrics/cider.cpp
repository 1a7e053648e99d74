// CIDEr-D / CIDEr scoring (../shared/specs/cider.md §2). Every floating-point
// operation happens in the reference tools' order so results are bit-identical.
#include "evalcli/metrics/cider.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "evalcli/core/error.hpp"
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

double numpy_pairwise_sum(const double* a, std::size_t n) {
  if (n < 8) {
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) sum += a[i];
    return sum;
  }
  if (n <= 128) {
    double r[8];
    for (std::size_t j = 0; j < 8; ++j) r[j] = a[j];
    std::size_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (std::size_t j = 0; j < 8; ++j) r[j] += a[i + j];
    }
    double sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) sum += a[i];
    return sum;
  }
  std::size_t half = n / 2;
  half -= half % 8;
  return numpy_pairwise_sum(a, half) + numpy_pairwise_sum(a + half, n - half);
}

std::vector<std::u32string> cider_words(std::u32string_view tokenized) {
  std::vector<std::u32string> words;
  for (auto word : text::split(tokenized)) words.emplace_back(word);
  return words;
}

namespace {

constexpr std::uint32_t kNoPrefix = 0xFFFFFFFFu;
// pycocoevalcap writes `np.e ** x`, i.e. C pow() with this base (not exp()).
constexpr double kE = 2.718281828459045;

// N-gram counts of one sentence: ids in first-occurrence order, order-major
// (all 1-grams left to right, then 2-grams, ...), as pycocoevalcap's dicts.
struct CountedSentence {
  std::vector<std::uint32_t> ids;
  std::vector<std::uint32_t> counts;
  std::vector<std::uint32_t> order_begin;  // max_n + 1 offsets into ids
  long bigrams = 0;                        // pycocoevalcap's "length": Σ tf of 2-grams
};

// tf-idf vector of one sentence.
struct WeightedSentence {
  std::vector<std::uint32_t> ids;
  std::vector<double> weights;
  std::vector<std::uint32_t> order_begin;
  std::vector<double> norms;
  long bigrams = 0;
};

// Interns words and n-grams (an n-gram = its (n-1)-gram prefix id + last word id).
class NgramTable {
 public:
  std::uint32_t word_id(const std::u32string& word) {
    auto [it, inserted] = words_.try_emplace(word, static_cast<std::uint32_t>(word_text_.size()));
    if (inserted) word_text_.push_back(word);
    return it->second;
  }
  std::uint32_t ngram_id(std::uint32_t prefix, std::uint32_t word) {
    const std::uint64_t key = (static_cast<std::uint64_t>(prefix) << 32) | word;
    auto [it, inserted] = ngrams_.try_emplace(key, static_cast<std::uint32_t>(prefix_.size()));
    if (inserted) {
      prefix_.push_back(prefix);
      last_word_.push_back(word);
    }
    return it->second;
  }
  std::size_t size() const { return prefix_.size(); }
  std::u32string text(std::uint32_t id) const {
    std::vector<std::uint32_t> chain;
    for (std::uint32_t at = id; at != kNoPrefix; at = prefix_[at]) chain.push_back(last_word_[at]);
    std::u32string out;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      if (!out.empty()) out += U' ';
      out += word_text_[*it];
    }
    return out;
  }

 private:
  std::unordered_map<std::u32string, std::uint32_t> words_;
  std::vector<std::u32string> word_text_;
  std::unordered_map<std::uint64_t, std::uint32_t> ngrams_;
  std::vector<std::uint32_t> prefix_;
  std::vector<std::uint32_t> last_word_;
};

// Counts n-grams of a sentence with a stamp-indexed slot table (no per-sentence maps).
class SentenceCounter {
 public:
  CountedSentence count(NgramTable& table, const std::vector<std::u32string>& words, int max_n) {
    CountedSentence out;
    ++stamp_;
    std::vector<std::uint32_t> chain(words.size());
    for (std::size_t i = 0; i < words.size(); ++i) chain[i] = kNoPrefix;
    std::vector<std::uint32_t> word_ids(words.size());
    for (std::size_t i = 0; i < words.size(); ++i) word_ids[i] = table.word_id(words[i]);
    for (int k = 1; k <= max_n; ++k) {
      out.order_begin.push_back(static_cast<std::uint32_t>(out.ids.size()));
      if (words.size() < static_cast<std::size_t>(k)) continue;
      const std::size_t count = words.size() - static_cast<std::size_t>(k) + 1;
      for (std::size_t i = 0; i < count; ++i) {
        chain[i] = table.ngram_id(chain[i], word_ids[i + static_cast<std::size_t>(k) - 1]);
        add(chain[i], out);
      }
      if (k == 2) out.bigrams = static_cast<long>(count);
    }
    out.order_begin.push_back(static_cast<std::uint32_t>(out.ids.size()));
    return out;
  }

 private:
  void add(std::uint32_t id, CountedSentence& out) {
    if (id >= slot_stamp_.size()) {
      slot_stamp_.resize(static_cast<std::size_t>(id) * 2 + 1024, 0);
      slot_index_.resize(slot_stamp_.size(), 0);
    }
    if (slot_stamp_[id] == stamp_) {
      ++out.counts[slot_index_[id]];
    } else {
      slot_stamp_[id] = stamp_;
      slot_index_[id] = static_cast<std::uint32_t>(out.ids.size());
      out.ids.push_back(id);
      out.counts.push_back(1);
    }
  }
  std::uint64_t stamp_ = 0;
  std::vector<std::uint64_t> slot_stamp_;
  std::vector<std::uint32_t> slot_index_;
};

WeightedSentence weigh(const CountedSentence& counted, const std::vector<double>& idf, int max_n) {
  WeightedSentence out;
  out.ids = counted.ids;
  out.order_begin = counted.order_begin;
  out.bigrams = counted.bigrams;
  out.weights.resize(counted.ids.size());
  out.norms.assign(static_cast<std::size_t>(max_n), 0.0);
  for (int k = 0; k < max_n; ++k) {
    double norm = 0.0;
    for (std::uint32_t i = counted.order_begin[k]; i < counted.order_begin[k + 1]; ++i) {
      const double weight = static_cast<double>(counted.counts[i]) * idf[counted.ids[i]];
      out.weights[i] = weight;
      norm += weight * weight;
    }
    out.norms[static_cast<std::size_t>(k)] = std::sqrt(norm);
  }
  return out;
}

// One image: mean over references and n-gram orders of the (clipped, penalised)
// cosine similarities, times 10. `scratch` is a zeroed array indexed by n-gram id.
double score_item(const WeightedSentence& hyp, const std::vector<WeightedSentence>& refs,
                  const CiderOptions& options, std::vector<double>& scratch) {
  const auto max_n = static_cast<std::size_t>(options.max_n);
  std::vector<double> acc(max_n, 0.0);
  const double two_sigma_squared = 2.0 * (options.sigma * options.sigma);
  for (const auto& ref : refs) {
    for (std::size_t i = 0; i < ref.ids.size(); ++i) scratch[ref.ids[i]] = ref.weights[i];
    const double delta = static_cast<double>(hyp.bigrams - ref.bigrams);
    const double penalty = std::pow(kE, -(delta * delta) / two_sigma_squared);
    for (std::size_t k = 0; k < max_n; ++k) {
      double val = 0.0;
      for (std::uint32_t i = hyp.order_begin[k]; i < hyp.order_begin[k + 1]; ++i) {
        const double ref_weight = scratch[hyp.ids[i]];
        if (ref_weight == 0.0) continue;  // adds +0.0 in the reference tools
        const double hyp_weight = hyp.weights[i];
        if (options.variant == CiderVariant::cider_d) {
          val += std::min(hyp_weight, ref_weight) * ref_weight;
        } else {
          val += hyp_weight * ref_weight;
        }
      }
      if (hyp.norms[k] != 0.0 && ref.norms[k] != 0.0) val /= (hyp.norms[k] * ref.norms[k]);
      if (options.variant == CiderVariant::cider_d) val *= penalty;
      acc[k] += val;
    }
    for (std::uint32_t id : ref.ids) scratch[id] = 0.0;
  }
  double score = numpy_pairwise_sum(acc.data(), acc.size()) / static_cast<double>(max_n);
  score /= static_cast<double>(refs.size());
  score *= 10.0;
  return score;
}

// idf[id] = log(N) - log(max(1, df[id])), with logs of equal df values computed once.
std::vector<double> inverse_document_frequencies(const std::vector<std::uint32_t>& df, std::size_t n_ngrams,
                                                 std::size_t documents) {
  const double log_n = std::log(static_cast<double>(documents));
  std::vector<double> log_cache;
  std::vector<double> idf(n_ngrams);
  for (std::size_t id = 0; id < n_ngrams; ++id) {
    const std::uint32_t count = id < df.size() ? df[id] : 0;
    if (count >= log_cache.size()) {
      const std::size_t old = log_cache.size();
      log_cache.resize(static_cast<std::size_t>(count) + 1);
      for (std::size_t c = old; c < log_cache.size(); ++c) {
        log_cache[c] = log_n - std::log(std::max(1.0, static_cast<double>(c)));
      }
    }
    idf[id] = log_cache[count];
  }
  return idf;
}

void check_options(const CiderOptions& options) {
  if (options.max_n < 1 || options.max_n > 16) throw usage_error("CIDEr n-gram order must be in 1..16");
  if (!(options.sigma > 0.0)) throw usage_error("CIDEr-D sigma must be positive");
}

}  // namespace

struct CiderCorpus::Impl {
  CiderOptions options;
  NgramTable table;
  SentenceCounter counter;
  struct Document {
    std::vector<CountedSentence> refs;
    std::vector<CountedSentence> hyps;
  };
  std::vector<Document> documents;
  std::vector<std::uint32_t> counted_df;
  std::vector<std::uint64_t> df_stamp;
  std::optional<std::vector<std::uint32_t>> loaded_df;
  std::size_t loaded_documents = 0;

  void count_document_frequencies(const Document& doc) {
    const std::uint64_t stamp = documents.size();
    for (const auto& ref : doc.refs) {
      for (std::uint32_t id : ref.ids) {
        if (id >= counted_df.size()) {
          counted_df.resize(static_cast<std::size_t>(id) * 2 + 1024, 0);
          df_stamp.resize(counted_df.size(), 0);
        }
        if (df_stamp[id] != stamp) {
          df_stamp[id] = stamp;
          ++counted_df[id];
        }
      }
    }
  }

  std::vector<std::u32string> split_words(const std::u32string& line) { return cider_words(line); }
};

CiderCorpus::CiderCorpus(CiderOptions options) : impl_(std::make_unique<Impl>()) {
  check_options(options);
  impl_->options = options;
}

CiderCorpus::~CiderCorpus() = default;

void CiderCorpus::add_document(const std::vector<std::u32string>& tokenized_refs,
                               const std::vector<std::u32string>& tokenized_hyps) {
  Impl& d = *impl_;
  Impl::Document doc;
  for (const auto& ref : tokenized_refs) {
    doc.refs.push_back(d.counter.count(d.table, d.split_words(ref), d.options.max_n));
  }
  for (const auto& hyp : tokenized_hyps) {
    doc.hyps.push_back(d.counter.count(d.table, d.split_words(hyp), d.options.max_n));
  }
  // Stamps are document index + 1 so that the zero-initialised table means "unseen".
  d.documents.push_back(Impl::Document{});
  d.count_document_frequencies(doc);
  d.documents.back() = std::move(doc);
}

std::size_t CiderCorpus::documents() const { return impl_->documents.size(); }

void CiderCorpus::use_document_frequencies(const CiderDocumentFrequencies& df) {
  Impl& d = *impl_;
  if (df.max_n < d.options.max_n) {
    throw usage_error(fmt::format("the df file holds n-grams up to n={}, but n={} is asked for", df.max_n,
                                  d.options.max_n));
  }
  std::vector<std::uint32_t> loaded;
  for (const auto& [ngram, count] : df.counts) {
    std::uint32_t id = kNoPrefix;
    for (auto word : text::split(ngram)) id = d.table.ngram_id(id, d.table.word_id(std::u32string(word)));
    if (id == kNoPrefix) continue;
    if (id >= loaded.size()) loaded.resize(static_cast<std::size_t>(id) + 1, 0);
    loaded[id] = count;
  }
  d.loaded_df = std::move(loaded);
  d.loaded_documents = df.documents;
}

CiderDocumentFrequencies CiderCorpus::document_frequencies(const std::string& tokenizer_id) const {
  const Impl& d = *impl_;
  CiderDocumentFrequencies out;
  out.max_n = d.options.max_n;
  out.tokenizer_id = tokenizer_id;
  const auto& df = d.loaded_df ? *d.loaded_df : d.counted_df;
  out.documents = d.loaded_df ? d.loaded_documents : d.documents.size();
  for (std::size_t id = 0; id < df.size() && id < d.table.size(); ++id) {
    if (df[id] > 0) out.counts.emplace_back(d.table.text(static_cast<std::uint32_t>(id)), df[id]);
  }
  return out;
}

std::vector<double> CiderCorpus::score_all(std::size_t system) const {
  const Impl& d = *impl_;
  const auto& df = d.loaded_df ? *d.loaded_df : d.counted_df;
  const std::size_t n_docs = d.loaded_df ? d.loaded_documents : d.documents.size();
  const std::vector<double> idf = inverse_document_frequencies(df, d.table.size(), n_docs);
  std::vector<double> scratch(d.table.size(), 0.0);
  std::vector<double> scores;
  scores.reserve(d.documents.size());
  std::vector<WeightedSentence> refs;
  for (const auto& doc : d.documents) {
    if (system >= doc.hyps.size()) throw Error(ExitCode::internal, "CIDEr: document without hypothesis");
    refs.clear();
    for (const auto& ref : doc.refs) refs.push_back(weigh(ref, idf, d.options.max_n));
    const WeightedSentence hyp = weigh(doc.hyps[system], idf, d.options.max_n);
    scores.push_back(score_item(hyp, refs, d.options, scratch));
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
  // A private table per call keeps this const and thread-safe; the batch path
  // (CiderCorpus) is the fast one.
  NgramTable table;
  SentenceCounter counter;
  const CountedSentence hyp_counts = counter.count(table, cider_words(tokenize(hyp)), options_.max_n);
  std::vector<CountedSentence> ref_counts;
  for (const auto& ref : refs) ref_counts.push_back(counter.count(table, cider_words(tokenize(ref)), options_.max_n));
  std::vector<std::uint32_t> df(table.size(), 0);
  for (std::size_t id = 0; id < table.size(); ++id) {
    auto it = df_lookup_.find(table.text(static_cast<std::uint32_t>(id)));
    if (it != df_lookup_.end()) df[id] = it->second;
  }
  const std::vector<double> idf = inverse_document_frequencies(df, table.size(), df_->documents);
  std::vector<WeightedSentence> weighted_refs;
  for (const auto& ref : ref_counts) weighted_refs.push_back(weigh(ref, idf, options_.max_n));
  std::vector<double> scratch(table.size(), 0.0);
  out[0] = score_item(weigh(hyp_counts, idf, options_.max_n), weighted_refs, options_, scratch);
  out[1] = 1.0;
}

double Cider::score(std::span<const Stat> stats) const { return stats[1] > 0 ? stats[0] / stats[1] : 0.0; }

std::string Cider::signature() const { return cider_signature_fields(options_, *pipeline_, df_field_); }

std::string cider_signature_fields(const CiderOptions& options, const TextPipeline& pipeline,
                                   const std::string& df_field) {
  std::string sig = fmt::format("variant:{}|n:{}", cider_variant_name(options.variant), options.max_n);
  if (options.variant == CiderVariant::cider_d) sig += fmt::format("|sigma:{}", options.sigma);
  sig += fmt::format("|df:{}|tok:{}", df_field, pipeline.tokenizer().id());
  if (pipeline.lowercase()) sig += "|case:lc";
  if (pipeline.has_normalizers()) sig += "|norm:" + pipeline.normalizer_chain_id();
  return sig;
}

}  // namespace evalcli
