#include "evalcli/metrics/bleu.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "evalcli/core/error.hpp"
#include "evalcli/text/unicode.hpp"

namespace evalcli {

BleuSmoothing parse_bleu_smoothing(std::string_view name) {
  if (name == "exp") return BleuSmoothing::exp;
  if (name == "floor") return BleuSmoothing::floor;
  if (name == "add-k") return BleuSmoothing::add_k;
  if (name == "none") return BleuSmoothing::none;
  throw usage_error(fmt::format("unknown BLEU smoothing '{}' (known: exp, floor, add-k, none)", name));
}

std::string bleu_smoothing_name(BleuSmoothing method) {
  switch (method) {
    case BleuSmoothing::exp: return "exp";
    case BleuSmoothing::floor: return "floor";
    case BleuSmoothing::add_k: return "add-k";
    case BleuSmoothing::none: return "none";
  }
  return "?";
}

std::string BleuScore::verbose() const {
  std::string out;
  for (std::size_t n = 0; n < precisions.size(); ++n) {
    if (n > 0) out += '/';
    out += fmt::format("{:.1f}", precisions[n]);
  }
  out += fmt::format(" (BP = {:.3f} ratio = {:.3f} hyp_len = {:d} ref_len = {:d})", bp, ratio(),
                     static_cast<long long>(sys_len), static_cast<long long>(ref_len));
  return out;
}

Bleu::Bleu(BleuOptions options)
    : Bleu(options, std::make_unique<TextPipeline>(options.text)) {}

Bleu::Bleu(BleuOptions options, std::unique_ptr<TextPipeline> pipeline)
    : options_(std::move(options)), pipeline_(std::move(pipeline)) {
  if (options_.max_ngram_order < 1) throw usage_error("BLEU max n-gram order must be at least 1");
}

double Bleu::smooth_value() const {
  if (options_.smooth_value) return *options_.smooth_value;
  return options_.smoothing == BleuSmoothing::floor ? 0.1 : 1.0;
}

std::vector<std::string> Bleu::stat_names() const {
  std::vector<std::string> names = {"hyp_len", "ref_len"};
  for (int n = 1; n <= options_.max_ngram_order; ++n) names.push_back(fmt::format("correct_{}", n));
  for (int n = 1; n <= options_.max_ngram_order; ++n) names.push_back(fmt::format("total_{}", n));
  return names;
}

namespace {

// Tokens are the space-separated pieces of the tokenizer output, so an n-gram
// is the substring spanning n consecutive tokens: an exact, allocation-free key.
struct TokenizedLine {
  std::u32string text;
  std::vector<std::uint32_t> starts;  // start offset of each token
  std::vector<std::uint32_t> ends;

  explicit TokenizedLine(std::u32string tokenized) : text(std::move(tokenized)) {
    std::size_t i = 0;
    while (i < text.size()) {
      starts.push_back(static_cast<std::uint32_t>(i));
      while (i < text.size() && text[i] != U' ') ++i;
      ends.push_back(static_cast<std::uint32_t>(i));
      ++i;
    }
  }
  std::size_t size() const { return starts.size(); }
  std::u32string_view ngram(std::size_t first, std::size_t n) const {
    return std::u32string_view(text).substr(starts[first], ends[first + n - 1] - starts[first]);
  }
};

using NgramCounts = std::unordered_map<std::u32string_view, int>;

void count_ngrams(const TokenizedLine& line, std::size_t n, NgramCounts& counts) {
  counts.clear();
  if (line.size() < n) return;
  for (std::size_t i = 0; i + n <= line.size(); ++i) ++counts[line.ngram(i, n)];
}

}  // namespace

void Bleu::segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs,
                         Stat* out) const {
  const auto max_order = static_cast<std::size_t>(options_.max_ngram_order);
  const TokenizedLine hyp_tokens(pipeline_->process(text::rstrip(hyp)));
  std::vector<TokenizedLine> ref_tokens;
  ref_tokens.reserve(refs.size());
  for (const auto& ref : refs) ref_tokens.emplace_back(pipeline_->process(text::rstrip(ref)));

  // Closest reference length; ties go to the shorter reference.
  const auto hyp_len = static_cast<long long>(hyp_tokens.size());
  long long closest_diff = -1, closest_len = -1;
  for (const auto& ref : ref_tokens) {
    const auto len = static_cast<long long>(ref.size());
    const long long diff = std::llabs(hyp_len - len);
    if (closest_diff == -1 || diff < closest_diff) {
      closest_diff = diff;
      closest_len = len;
    } else if (diff == closest_diff && len < closest_len) {
      closest_len = len;
    }
  }
  out[0] = static_cast<Stat>(hyp_len);
  out[1] = static_cast<Stat>(closest_len < 0 ? 0 : closest_len);

  NgramCounts hyp_counts, max_ref_counts, ref_counts;
  for (std::size_t n = 1; n <= max_order; ++n) {
    count_ngrams(hyp_tokens, n, hyp_counts);
    // Reference counts merged across references by maximum.
    max_ref_counts.clear();
    for (const auto& ref : ref_tokens) {
      count_ngrams(ref, n, ref_counts);
      for (const auto& [gram, count] : ref_counts) {
        int& best = max_ref_counts[gram];
        if (count > best) best = count;
      }
    }
    long long correct = 0;
    for (const auto& [gram, count] : hyp_counts) {
      auto it = max_ref_counts.find(gram);
      if (it != max_ref_counts.end()) correct += std::min(count, it->second);
    }
    out[1 + n] = static_cast<Stat>(correct);
    out[1 + max_order + n] = static_cast<Stat>(hyp_len >= static_cast<long long>(n) ? hyp_len - n + 1 : 0);
  }
}

BleuScore Bleu::compute(std::span<const Stat> stats) const {
  const auto max_order = static_cast<std::size_t>(options_.max_ngram_order);
  BleuScore result;
  result.sys_len = stats[0];
  result.ref_len = stats[1];
  result.counts.assign(stats.begin() + 2, stats.begin() + 2 + max_order);
  result.totals.assign(stats.begin() + 2 + max_order, stats.begin() + 2 + 2 * max_order);
  result.precisions.assign(max_order, 0.0);

  result.bp = 1.0;
  if (result.sys_len < result.ref_len) {
    result.bp = result.sys_len > 0 ? std::exp(1 - result.ref_len / result.sys_len) : 0.0;
  }
  bool any_correct = false;
  for (double c : result.counts) any_correct = any_correct || c != 0;
  if (!any_correct) return result;  // score 0 before any smoothing (SacreBLEU #141)

  const double k = smooth_value();
  double smooth_mteval = 1.0;
  std::size_t eff_order = max_order;
  for (std::size_t n = 1; n <= max_order; ++n) {
    double& correct = result.counts[n - 1];
    double& total = result.totals[n - 1];
    if (options_.smoothing == BleuSmoothing::add_k && n > 1) {
      correct += k;
      total += k;
    }
    if (total == 0) break;
    if (options_.effective_order) eff_order = n;
    if (correct == 0) {
      if (options_.smoothing == BleuSmoothing::exp) {
        smooth_mteval *= 2;
        result.precisions[n - 1] = 100.0 / (smooth_mteval * total);
      } else if (options_.smoothing == BleuSmoothing::floor) {
        result.precisions[n - 1] = 100.0 * k / total;
      }
    } else {
      result.precisions[n - 1] = 100.0 * correct / total;
    }
  }
  double log_sum = 0.0;
  for (std::size_t n = 0; n < eff_order; ++n) {
    const double p = result.precisions[n];
    log_sum += p == 0.0 ? -9999999999.0 : std::log(p);
  }
  result.score = result.bp * std::exp(log_sum / static_cast<double>(eff_order));
  return result;
}

std::string Bleu::signature() const {
  const auto& tok = pipeline_->tokenizer();
  std::string smooth = bleu_smoothing_name(options_.smoothing);
  if (options_.smoothing == BleuSmoothing::floor || options_.smoothing == BleuSmoothing::add_k) {
    smooth += fmt::format("[{:.2f}]", smooth_value());
  }
  std::string sig = fmt::format("case:{}|eff:{}|tok:{}|smooth:{}", options_.text.lowercase ? "lc" : "mixed",
                                options_.effective_order ? "yes" : "no", tok.id(), smooth);
  if (options_.max_ngram_order != 4) sig += fmt::format("|order:{}", options_.max_ngram_order);
  if (pipeline_->has_normalizers()) sig += "|norm:" + pipeline_->normalizer_chain_id();
  return sig;
}

std::vector<SacrebleuField> Bleu::sacrebleu_fields() const {
  const auto& tok = pipeline_->tokenizer();
  std::string smooth = bleu_smoothing_name(options_.smoothing);
  if (options_.smoothing == BleuSmoothing::floor || options_.smoothing == BleuSmoothing::add_k) {
    smooth += fmt::format("[{:.2f}]", smooth_value());
  }
  const std::string tok_name = tok.sacrebleu_name().empty() ? tok.id() : tok.sacrebleu_name();
  return {{"case", "c", options_.text.lowercase ? "lc" : "mixed"},
          {"eff", "e", options_.effective_order ? "yes" : "no"},
          {"tok", "tok", tok_name},
          {"smooth", "s", smooth}};
}

nlohmann::json Bleu::details(std::span<const Stat> stats) const {
  const BleuScore s = compute(stats);
  return {{"counts", s.counts}, {"totals", s.totals}, {"precisions", s.precisions},
          {"bp", s.bp},         {"sys_len", s.sys_len}, {"ref_len", s.ref_len},
          {"ratio", s.ratio()}, {"verbose_score", s.verbose()}};
}

}  // namespace evalcli
