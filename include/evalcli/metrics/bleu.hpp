#pragma once
// BLEU exactly as SacreBLEU 2.x (../shared/specs/sacrebleu.md §3).
// Statistics per segment: [hyp_len, ref_len, correct_1..N, total_1..N].
#include <optional>
#include <string>

#include "evalcli/metrics/definition.hpp"
#include "evalcli/metrics/metric.hpp"
#include "evalcli/tokenize/pipeline.hpp"

namespace evalcli {

enum class BleuSmoothing { exp, floor, add_k, none };

struct BleuOptions {
  PipelineOptions text;  // tokenizer default 13a, lowercase = -lc
  BleuSmoothing smoothing = BleuSmoothing::exp;
  std::optional<double> smooth_value;  // default 0.1 (floor), 1 (add-k)
  int max_ngram_order = 4;
  bool effective_order = false;
};

BleuSmoothing parse_bleu_smoothing(std::string_view name);  // throws usage error
std::string bleu_smoothing_name(BleuSmoothing method);

// The verbose numbers of a BLEU score (SacreBLEU's BLEUScore).
struct BleuScore {
  double score = 0;
  std::vector<double> counts, totals, precisions;
  double bp = 0, sys_len = 0, ref_len = 0;
  double ratio() const { return ref_len != 0 ? sys_len / ref_len : 0.0; }
  // "66.9/44.1/31.6/23.3 (BP = 1.000 ratio = 1.005 hyp_len = 39114 ref_len = 38914)"
  std::string verbose() const;
};

class Bleu : public Metric {
 public:
  explicit Bleu(BleuOptions options);
  Bleu(BleuOptions options, std::unique_ptr<TextPipeline> pipeline);

  std::string name() const override { return "BLEU"; }
  std::vector<std::string> stat_names() const override;
  StatDomain stat_domain() const override;  // counts; correct_n <= total_n
  void segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs,
                     Stat* out) const override;
  double score(std::span<const Stat> stats) const override { return compute(stats).score; }
  std::string signature() const override;
  std::vector<SacrebleuField> sacrebleu_fields() const override;
  nlohmann::json details(std::span<const Stat> stats) const override;

  BleuScore compute(std::span<const Stat> stats) const;
  const BleuOptions& options() const { return options_; }
  const TextPipeline& pipeline() const { return *pipeline_; }
  // The smoothing value in effect (defaults filled in).
  double smooth_value() const;

 private:
  BleuOptions options_;
  std::unique_ptr<TextPipeline> pipeline_;
};

// BLEU declared once: options, signature fields, build (evalcli/metrics/definition.hpp).
const MetricDefinition& bleu_definition();

}  // namespace evalcli
