#pragma once
// pycocoevalcap's caption metrics besides CIDEr (docs/coco.md), bit for bit:
//   Bleu_1..4  bleu/bleu_scorer.py: "closest" reference length, its n-gram
//              counts, its tiny/small constants; additive statistics, so the
//              corpus score is the score of the summed statistics.
//   ROUGE_L    rouge/rouge.py: token LCS, per image the maximum precision and
//              the maximum recall over the references, F with beta 1.2; the
//              corpus score is numpy's mean of the per-image scores.
// Both read text through the shared pipeline (default ptb: pycocoevalcap's
// PTB tokenization, as `evalcli cider`).
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "evalcli/metrics/caption_words.hpp"
#include "evalcli/metrics/cider.hpp"
#include "evalcli/metrics/definition.hpp"
#include "evalcli/metrics/metric.hpp"
#include "evalcli/tokenize/pipeline.hpp"

namespace evalcli {

// ------------------------------------------------------------------ Bleu

// Statistics of one image (or their sums): [testlen, reflen, guess_1..4, correct_1..4].
// reflen is the reference length closest to testlen (the shorter on a tie).
class CocoBleu : public Metric {
 public:
  static constexpr int kMaxOrder = 4;  // bleu_scorer.py always cooks 4 orders

  CocoBleu(int max_order, std::unique_ptr<TextPipeline> pipeline);

  std::string name() const override;  // "Bleu_4"
  std::vector<std::string> stat_names() const override;
  StatDomain stat_domain() const override;
  void segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs, Stat* out) const override;
  bool reads_following_captions() const override { return pipeline_->looks_past_line_end(); }
  void segment_stats_followed_by(std::u32string_view hyp, std::span<const std::u32string> refs,
                                 const FollowingCaptions& following, Stat* out) const override;
  double score(std::span<const Stat> stats) const override;  // Bleu_<max_order>
  std::string signature() const override;
  nlohmann::json details(std::span<const Stat> stats) const override;  // {"Bleu_1": ..., ...}

  // Bleu_1..Bleu_<max_order> of the statistics, as compute_score computes them
  // for one image and for the corpus totals alike.
  std::vector<double> scores(std::span<const Stat> stats) const;
  // Statistics of already tokenized text (words split as Python's str.split()).
  void tokenized_stats(std::u32string_view hyp, std::span<const std::u32string> refs, Stat* out) const;
  // The same from the captions' word ids (bit for bit what tokenized_stats() gives their text).
  void word_stats(CaptionWords hyp, std::span<const CaptionWords> refs, Stat* out) const;
  // The same from the n-grams `corpus` counted for its document `document`
  // (references, then hypotheses; `hyp` is its caption `hyp_caption`): no
  // n-gram is counted again. The captions' words give only their lengths.
  void counted_stats(const CiderCorpus& corpus, std::size_t document, std::size_t hyp_caption, CaptionWords hyp,
                     std::span<const CaptionWords> refs, Stat* out) const;

  int max_order() const { return max_order_; }
  const TextPipeline& pipeline() const { return *pipeline_; }

 private:
  int max_order_;
  std::unique_ptr<TextPipeline> pipeline_;
};

// ------------------------------------------------------------------ ROUGE_L

// Statistics of one image: [score_sum, images] (the image's ROUGE_L and 1).
class CocoRougeL : public Metric {
 public:
  explicit CocoRougeL(std::unique_ptr<TextPipeline> pipeline);

  std::string name() const override { return "ROUGE_L"; }
  std::vector<std::string> stat_names() const override { return {"score_sum", "images"}; }
  StatDomain stat_domain() const override { return {{StatKind::nonnegative, StatKind::count}, {}}; }
  void segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs, Stat* out) const override;
  bool reads_following_captions() const override { return pipeline_->looks_past_line_end(); }
  void segment_stats_followed_by(std::u32string_view hyp, std::span<const std::u32string> refs,
                                 const FollowingCaptions& following, Stat* out) const override;
  double score(std::span<const Stat> stats) const override;  // mean, summed left to right
  double corpus_score(const SystemStats& system) const override;  // np.mean of the rows
  bool corpus_score_needs_rows() const override { return true; }
  std::string signature() const override;

  // ROUGE_L of one image from already tokenized text (tokens split at U+0020 only).
  static double image_score(std::u32string_view hyp, std::span<const std::u32string> refs);
  // The same from the captions' word ids, where each caption's str.split(" ")
  // tokens are its str.split() words (non-empty, single U+0020 between words).
  static double image_score(CaptionWords hyp, std::span<const CaptionWords> refs);

  const TextPipeline& pipeline() const { return *pipeline_; }

 private:
  std::unique_ptr<TextPipeline> pipeline_;
};

// The definitions (src/metrics/coco_bleu.cpp, src/metrics/coco_rouge.cpp).
const MetricDefinition& coco_bleu_definition();
const MetricDefinition& coco_rouge_definition();

}  // namespace evalcli
