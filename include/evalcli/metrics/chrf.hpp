#pragma once
// chrF / chrF++ exactly as SacreBLEU 2.x (../shared/specs/sacrebleu.md §4).
// Statistics per segment: for each order (character orders 1..nc, then word
// orders 1..nw) [hyp_count, ref_count, match_count], taken from the reference
// with the best sentence-level F.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "evalcli/metrics/definition.hpp"
#include "evalcli/metrics/metric.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/tokenize/pipeline.hpp"

namespace evalcli {

struct ChrfOptions {
  int char_order = 6;          // -cc / --chrf-char-order
  int word_order = 0;          // -cw / --chrf-word-order (2 = chrF++)
  int beta = 2;                // --chrf-beta
  bool lowercase = false;      // --chrf-lowercase
  bool whitespace = false;     // --chrf-whitespace: keep whitespace in character n-grams
  bool eps_smoothing = false;  // --chrf-eps-smoothing (chrF++.py style); default = effective order
  std::vector<std::string> normalizers;  // evalcli: applied first (--normalize)
  // evalcli: empty = SacreBLEU's chrF on the (normalized) line. Otherwise the line goes
  // through this registry tokenizer first and chrF scores its output text (tokens joined
  // by one space) exactly as SacreBLEU would score that text (docs/chrf-ter.md).
  std::string tokenizer;
  TokenizerOptions tokenizer_options;  // --jieba-hmm, --jieba-dict
};

// Signature field (evalcli) saying how chrF uses `--tokenize`; a signature with `tok:`
// but without this field comes from an evalcli whose chrF used the tokens directly as
// words and is refused.
inline constexpr const char* kChrfTokenizedField = "ngrams";
inline constexpr const char* kChrfTokenizedValue = "tok-text-v1";

// The string character n-grams are taken from: all whitespace removed unless `keep_whitespace`.
std::u32string chrf_char_text(std::u32string_view line, bool keep_whitespace);
// SacreBLEU's word split for chrF++: whitespace split, then one leading or
// trailing ASCII punctuation character split off words longer than one character.
std::vector<std::u32string_view> chrf_words(std::u32string_view line);
// The same words handed to `visit` one by one (nothing allocated).
template <class Visit>
void for_each_chrf_word(std::u32string_view line, Visit&& visit) {
  text::for_each_split(line, [&](std::u32string_view word) {
    if (word.size() > 1 && text::is_ascii_punct(word.back())) {
      visit(word.substr(0, word.size() - 1));
      visit(word.substr(word.size() - 1));
    } else if (word.size() > 1 && text::is_ascii_punct(word.front())) {
      visit(word.substr(0, 1));
      visit(word.substr(1));
    } else {
      visit(word);
    }
  });
}

// chrF declared once: options, signature fields, build (evalcli/metrics/definition.hpp).
const MetricDefinition& chrf_definition();

class Chrf : public Metric {
 public:
  explicit Chrf(ChrfOptions options);

  // "chrF2", "chrF2++", "chrF1+++"
  std::string name() const override;
  std::vector<std::string> stat_names() const override;
  StatDomain stat_domain() const override;  // counts; matches <= hyp and ref n-grams
  void segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs,
                     Stat* out) const override;
  double score(std::span<const Stat> stats) const override;
  double score_float32(std::span<const float> stats) const override;
  std::string signature() const override;
  std::vector<SacrebleuField> sacrebleu_fields() const override;
  const TextPipeline& pipeline() const { return *pipeline_; }

  const ChrfOptions& options() const { return options_; }
  std::size_t num_orders() const { return static_cast<std::size_t>(options_.char_order + options_.word_order); }

 private:
  ChrfOptions options_;
  std::unique_ptr<TextPipeline> pipeline_;  // normalizers, lowercase, optional tokenizer
};

}  // namespace evalcli
