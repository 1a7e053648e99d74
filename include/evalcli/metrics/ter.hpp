#pragma once
// TER exactly as SacreBLEU 2.x (../shared/specs/sacrebleu.md §5): Tercom-style
// greedy block shifts plus a banded ("beam") Levenshtein distance.
// Statistics per segment: [edits (min over references), average reference length].
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "evalcli/metrics/definition.hpp"
#include "evalcli/metrics/metric.hpp"
#include "evalcli/tokenize/pipeline.hpp"
#include "evalcli/tokenize/tercom.hpp"

namespace evalcli {

struct TerOptions {
  TercomOptions tercom;                  // SacreBLEU's --ter-* options
  std::vector<std::string> normalizers;  // evalcli: applied before tokenizing (--normalize)
  std::string tokenizer;                 // evalcli: empty = tercom; else a registry tokenizer (--tokenize)
};

// Number of edits (shifts + final edit distance) turning `hyp` into `ref`, both
// given as word ids; SacreBLEU's translation_edit_rate(). An empty `ref` gives |hyp|.
std::int64_t ter_edits(std::span<const std::uint32_t> hyp, std::span<const std::uint32_t> ref);

// SacreBLEU's _perform_shift: moves words[start, start+length) to `target`
// (Python slice semantics, including its "within the block" case).
void ter_perform_shift(std::span<const std::uint32_t> words, std::size_t start, std::size_t length,
                       std::size_t target, std::vector<std::uint32_t>& out);

// TER declared once: options, signature fields, build (evalcli/metrics/definition.hpp).
const MetricDefinition& ter_definition();

class Ter : public Metric {
 public:
  explicit Ter(TerOptions options);

  std::string name() const override { return "TER"; }
  std::vector<std::string> stat_names() const override { return {"edits", "ref_len"}; }
  // Edits and the (average) reference length: non-negative, not always whole.
  StatDomain stat_domain() const override { return {{StatKind::nonnegative, StatKind::nonnegative}, {}}; }
  void segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs,
                     Stat* out) const override;
  double score(std::span<const Stat> stats) const override;
  double score_float32(std::span<const float> stats) const override;
  std::string signature() const override;
  std::vector<SacrebleuField> sacrebleu_fields() const override;
  nlohmann::json details(std::span<const Stat> stats) const override;

  const TerOptions& options() const { return options_; }
  // The pipeline of --normalize/--tokenize, or null (Tercom's own tokenization only).
  const TextPipeline* text_pipeline() const { return pipeline_.get(); }
  const TercomTokenizer& tercom() const { return tercom_; }
  // The words TER compares for one input line (tokenized, lowercased unless case-sensitive).
  std::u32string tokenize(std::u32string_view line) const;
  // The words of a reference line: tokenize() applied twice for tercom-v2 (SacreBLEU).
  std::u32string tokenize_reference(std::u32string_view line) const;

 private:
  TerOptions options_;
  std::unique_ptr<TextPipeline> pipeline_;  // only when --normalize or --tokenize is used
  TercomTokenizer tercom_;
};

}  // namespace evalcli
