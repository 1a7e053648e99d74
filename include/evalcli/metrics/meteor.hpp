#pragma once
// METEOR: two different metrics share the name (specs/meteor.md), and the
// signature always says which one is computed:
//
//  * NltkMeteor: NLTK 3.8 `meteor_score` (greedy exact/Porter-stem/WordNet
//    synonym matching, alpha 0.9 beta 3 gamma 0.5). NLTK only scores
//    sentences; the corpus score is the mean of the segment scores, and an
//    evalcli extension computes the same formula from summed statistics.
//  * Meteor15 (metrics/meteor15.hpp): CMU METEOR 1.5 (Java).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "evalcli/metrics/definition.hpp"
#include "evalcli/metrics/metric.hpp"
#include "evalcli/tokenize/pipeline.hpp"
#include "evalcli/text/porter_stemmer.hpp"
#include "evalcli/metrics/wordnet.hpp"

namespace evalcli {

// How per-segment statistics become one corpus score.
enum class MeteorAggregate {
  mean,          // mean of segment scores (what NLTK users report)
  summed_stats,  // evalcli extension: the NLTK formula on summed matches/chunks/lengths
};

struct NltkMeteorOptions {
  PipelineOptions text{{}, false, "none", {}};  // tokens = whitespace split, like pre-tokenized input
  double alpha = 0.9;
  double beta = 3.0;
  double gamma = 0.5;
  bool stem = true;                          // Porter stage
  bool synonyms = true;                      // WordNet stage (English only)
  std::filesystem::path wordnet_dir = WordNet::default_dir();
  MeteorAggregate aggregate = MeteorAggregate::mean;
};

// The matching of one hypothesis against one reference.
struct NltkAlignment {
  std::size_t matches = 0;
  std::size_t chunks = 0;
  std::size_t hyp_len = 0;
  std::size_t ref_len = 0;
};

class NltkMeteor : public Metric {
 public:
  // Loads WordNet when the synonym stage is on (throws Error(missing_resource)).
  explicit NltkMeteor(NltkMeteorOptions options);
  ~NltkMeteor() override;

  std::string name() const override { return "METEOR"; }
  // [score_sum, segments, matches, chunks, hyp_len, ref_len]: the first two give
  // the mean; the others (of the best reference) the summed-statistics score.
  std::vector<std::string> stat_names() const override;
  // Non-negative sums; segments a count.
  StatDomain stat_domain() const override {
    constexpr StatKind nonnegative = StatKind::nonnegative;
    return {{nonnegative, StatKind::count, nonnegative, nonnegative, nonnegative, nonnegative}, {}};
  }
  // The lexicon, the stems and the synonym sets are shared and grow under one lock.
  bool scales_with_threads() const override { return false; }
  void segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs,
                     Stat* out) const override;
  double score(std::span<const Stat> stats) const override;
  bool corpus_score_is_mean() const override;
  std::string signature() const override;
  nlohmann::json details(std::span<const Stat> stats) const override;

  // NLTK's single_meteor_score on already tokenized words (lowercased here).
  double sentence_score(const std::vector<std::u32string>& hyp, const std::vector<std::u32string>& ref,
                        NltkAlignment* alignment = nullptr) const;
  // The NLTK formula on match counts (0 where NLTK hits a ZeroDivisionError).
  double formula(double matches, double chunks, double hyp_len, double ref_len) const;
  double mean_score(std::span<const Stat> stats) const;
  double summed_stats_score(std::span<const Stat> stats) const;

  const NltkMeteorOptions& options() const { return options_; }
  const TextPipeline& pipeline() const { return *pipeline_; }
  // The stages: field with its components' versions ("exact+stem-porter-nltk38-v1+syn-wordnet-3.0").
  std::string stages() const;

 private:
  // Word forms interned to ids (equal ids <=> equal strings), with their
  // memoised stems and synonym sets; defined in nltk_meteor.cpp.
  struct Lexicon;
  using FormIds = std::vector<std::uint32_t>;

  void lowercased_form_ids(std::u32string_view line, FormIds& ids) const;
  double score_forms(const FormIds& hyp, const FormIds& ref, NltkAlignment* alignment) const;
  std::span<const std::uint32_t> synonym_ids(std::uint32_t stem) const;

  NltkMeteorOptions options_;
  std::unique_ptr<TextPipeline> pipeline_;
  text::PorterStemmer stemmer_{text::PorterVariant::nltk};
  std::unique_ptr<WordNet> wordnet_;
  // segment_stats must stay thread-safe: the lexicon grows under this lock.
  mutable std::mutex lexicon_mutex_;
  std::unique_ptr<Lexicon> lexicon_;
};

// METEOR (NLTK and METEOR 1.5) declared once (src/metrics/meteor/meteor_definition.cpp).
const MetricDefinition& meteor_definition();

}  // namespace evalcli
