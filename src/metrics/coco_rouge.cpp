// ROUGE_L exactly as pycocoevalcap's rouge/rouge.py (docs/coco.md).
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "evalcli/core/error.hpp"
#include "evalcli/core/summation.hpp"
#include "evalcli/metrics/coco.hpp"
#include "evalcli/metrics/text_options.hpp"
#include "evalcli/text/detail/string_interner.hpp"
#include "metrics/coco_captions.hpp"

namespace evalcli {
namespace {

// rouge.py's beta ("updated based on discussion with Hovy"), squared as it squares it.
const double kBetaSquared = std::pow(1.2, 2);

// Python's str.split(" ") into `tokens`: every U+0020 separates, so "" is one
// empty token and two spaces make an empty token between them (NBSP stays
// inside a token).
void split_at_spaces(std::u32string_view line, std::vector<std::u32string_view>& tokens) {
  tokens.clear();
  std::size_t start = 0;
  for (;;) {
    const std::size_t space = line.find(U' ', start);
    if (space == std::u32string_view::npos) break;
    tokens.push_back(line.substr(start, space - start));
    start = space + 1;
  }
  tokens.push_back(line.substr(start));
}

// my_lcs(): the length of the longest common subsequence of two token id
// sequences, one DP row at a time (`row`: scratch).
std::size_t lcs_length(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b,
                       std::vector<std::size_t>& row) {
  row.assign(b.size() + 1, 0);
  for (const std::uint32_t token : a) {
    std::size_t diagonal = 0;  // the previous row's value left of j
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = token == b[j - 1] ? diagonal + 1 : std::max(above, row[j - 1]);
      diagonal = above;
    }
  }
  return row.back();
}

// my_lcs() against one candidate of at most 64 tokens, 64 cells of the DP row
// at a time (Hyyro's bit-parallel LCS length: the row as the positions where
// its value steps up, kept as zeros of `steps`). Tokens are ids below the
// vocabulary's size; a thread's buffer, all zero between candidates.
class CandidateMasks {
 public:
  static constexpr std::size_t kMaxTokens = 64;

  // Bit i of a token's mask: the candidate's token i is that token.
  void load(std::span<const std::uint32_t> candidate) {
    candidate_ = candidate;
    for (std::size_t i = 0; i < candidate.size(); ++i) {
      if (candidate[i] >= by_token_.size()) by_token_.resize(std::size_t{candidate[i]} + 1, 0);
      by_token_[candidate[i]] |= std::uint64_t{1} << i;
    }
  }
  void unload() {
    for (const std::uint32_t token : candidate_) by_token_[token] = 0;
  }
  std::size_t lcs_length(std::span<const std::uint32_t> reference) const {
    std::uint64_t steps = ~std::uint64_t{0};
    for (const std::uint32_t token : reference) {
      const std::uint64_t matches = steps & mask(token);
      steps = (steps + matches) | (steps - matches);
    }
    const std::size_t m = candidate_.size();
    const std::uint64_t in_candidate = m == kMaxTokens ? ~std::uint64_t{0} : (std::uint64_t{1} << m) - 1;
    return m - static_cast<std::size_t>(std::popcount(steps & in_candidate));
  }

 private:
  std::uint64_t mask(std::uint32_t token) const { return token < by_token_.size() ? by_token_[token] : 0; }
  std::vector<std::uint64_t> by_token_;
  std::span<const std::uint32_t> candidate_;
};

// A thread's buffers, reused from image to image: tokens as ids (equal ids
// for equal tokens of one image), so the LCS compares integers.
struct RougeScratch {
  text::StringInterner interner;  // views into the image's text
  std::vector<std::u32string_view> tokens;
  std::vector<std::uint32_t> candidate, reference;
  std::vector<std::size_t> row;

  void intern(std::u32string_view line, std::vector<std::uint32_t>& ids) {
    split_at_spaces(line, tokens);
    ids.clear();
    for (const auto token : tokens) ids.push_back(interner.id(token));
  }
};

}  // namespace

CocoRougeL::CocoRougeL(std::unique_ptr<TextPipeline> pipeline) : pipeline_(std::move(pipeline)) {}

namespace {

// calc_score(): the maxima over the references of the LCS's precision and
// recall, then F with beta 1.2. `reference(r)` gives reference r's tokens as
// ids, `lcs(tokens)` their LCS length with the candidate.
template <class Reference, class Lcs>
double rouge_l(std::size_t candidate_size, std::size_t refs, Reference reference, Lcs lcs) {
  double precision_max = 0, recall_max = 0;  // max() of the lists (every value is >= 0)
  for (std::size_t r = 0; r < refs; ++r) {
    const std::span<const std::uint32_t> tokens = reference(r);
    const auto common = static_cast<double>(lcs(tokens));
    precision_max = std::max(precision_max, common / static_cast<double>(candidate_size));
    recall_max = std::max(recall_max, common / static_cast<double>(tokens.size()));
  }
  if (precision_max == 0 || recall_max == 0) return 0.0;
  return ((1 + kBetaSquared) * precision_max * recall_max) / (recall_max + kBetaSquared * precision_max);
}

}  // namespace

double CocoRougeL::image_score(std::u32string_view hyp, std::span<const std::u32string> refs) {
  if (refs.empty()) throw input_error("ROUGE_L: an image has no references");
  thread_local RougeScratch scratch;
  scratch.interner.clear();
  scratch.intern(hyp, scratch.candidate);
  return rouge_l(
      scratch.candidate.size(), refs.size(),
      [&](std::size_t r) {
        scratch.intern(refs[r], scratch.reference);
        return std::span<const std::uint32_t>(scratch.reference);
      },
      [&](std::span<const std::uint32_t> tokens) { return lcs_length(tokens, scratch.candidate, scratch.row); });
}

double CocoRougeL::image_score(CaptionWords hyp, std::span<const CaptionWords> refs) {
  if (refs.empty()) throw input_error("ROUGE_L: an image has no references");
  const auto reference = [&](std::size_t r) { return refs[r]; };
  if (hyp.size() > CandidateMasks::kMaxTokens) {
    thread_local std::vector<std::size_t> row;
    return rouge_l(hyp.size(), refs.size(), reference,
                   [&](std::span<const std::uint32_t> tokens) { return lcs_length(tokens, hyp, row); });
  }
  thread_local CandidateMasks masks;
  masks.load(hyp);
  const double score = rouge_l(hyp.size(), refs.size(), reference,
                               [&](std::span<const std::uint32_t> tokens) { return masks.lcs_length(tokens); });
  masks.unload();
  return score;
}

void CocoRougeL::segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs, Stat* out) const {
  segment_stats_followed_by(hyp, refs, {}, out);  // one image alone: both texts end with it
}

void CocoRougeL::segment_stats_followed_by(std::u32string_view hyp, std::span<const std::u32string> refs,
                                           const FollowingCaptions& following, Stat* out) const {
  thread_local detail::TokenizedImage image;
  detail::tokenize_image(*pipeline_, hyp, refs, following, image);
  out[0] = image_score(image.hyp(), image.refs);
  out[1] = 1;
}

double CocoRougeL::score(std::span<const Stat> stats) const { return stats[1] > 0 ? stats[0] / stats[1] : 0.0; }

double CocoRougeL::corpus_score(const SystemStats& system) const {
  if (system.rows.empty()) return score(system.totals);
  std::vector<double> scores;
  scores.reserve(system.rows.size());
  for (const auto& row : system.rows) scores.push_back(row[0]);
  return stats::numpy_mean(scores);  // np.mean(np.array(score))
}

std::string CocoRougeL::signature() const { return print_signature(coco_rouge_definition(), *this); }

// ---------------------------------------------------------------- definition

namespace {

std::unique_ptr<StatsModel> build_coco_rouge(const OptionValues& values, const BuildContext&) {
  auto pipeline = std::make_unique<TextPipeline>(pipeline_options(values, "ptb"));
  check_signature_tokenizer_fields(values, pipeline->tokenizer());
  return std::make_unique<CocoRougeL>(std::move(pipeline));
}

MetricDefinition make_coco_rouge_definition() {
  const TextOptionSpecs text{.tokenize_help = "tokenizer (-tok): ptb (default, as pycocoevalcap), none, ...",
                             .pipeline = pipeline_of<CocoRougeL>(),
                             .case_when_mixed = false};
  MetricDefinition d;
  d.command = "coco-rouge";
  d.summary = "ROUGE_L of pycocoevalcap (COCO captions: LCS, beta 1.2, max precision and max recall)";
  d.names = {"ROUGE_L"};
  d.default_width = 4;
  d.score_scale = 1;
  d.options = text_option_specs(text);
  d.signature_keys = text_signature_keys(text);
  d.signature_keys.push_back(fixed_signature_key("ROUGE_L", "compat", "pycocoevalcap-1.2"));
  d.signature_keys.push_back(fixed_signature_key("ROUGE_L", "beta", "1.2"));
  d.signature_keys.push_back(fixed_signature_key("ROUGE_L", "metric", "ROUGE_L"));
  d.signature_layout = {"compat", "beta", "tok", "dict", "icu", "case", "norm"};
  d.build = build_coco_rouge;
  d.word_tokenizer = [](const OptionValues& values) { return chosen_tokenizer(values, "ptb"); };
  return d;
}

}  // namespace

const MetricDefinition& coco_rouge_definition() {
  static const MetricDefinition definition = make_coco_rouge_definition();
  return definition;
}

}  // namespace evalcli
