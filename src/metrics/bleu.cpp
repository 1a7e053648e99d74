#include "evalcli/metrics/bleu.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

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

// A tokenized line: the tokenizer output (tokens joined by one space) with
// each token's position and hash, so n-grams can be hashed and compared
// without building strings.
struct TokenizedLine {
  std::u32string text;
  std::vector<std::uint32_t> starts, lengths;
  std::vector<std::uint64_t> hashes;

  void assign(std::u32string tokenized) {
    text = std::move(tokenized);
    starts.clear();
    lengths.clear();
    hashes.clear();
    std::size_t i = 0;
    while (i < text.size()) {
      const std::size_t start = i;
      std::uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a over code points
      while (i < text.size() && text[i] != U' ') {
        hash = (hash ^ text[i]) * 0x100000001b3ULL;
        ++i;
      }
      starts.push_back(static_cast<std::uint32_t>(start));
      lengths.push_back(static_cast<std::uint32_t>(i - start));
      hashes.push_back(hash);
      ++i;
    }
  }
  std::size_t size() const { return starts.size(); }
  bool same_token(std::size_t i, const TokenizedLine& other, std::size_t j) const {
    return hashes[i] == other.hashes[j] && lengths[i] == other.lengths[j] &&
           std::char_traits<char32_t>::compare(text.data() + starts[i], other.text.data() + other.starts[j],
                                               lengths[i]) == 0;
  }
  std::uint64_t ngram_hash(std::size_t first, std::size_t n) const {
    std::uint64_t hash = n;
    for (std::size_t k = 0; k < n; ++k) hash = (hash ^ hashes[first + k]) * 0x9E3779B97F4A7C15ULL + (hash >> 29);
    return hash;
  }
};

// Open-addressing table of the hypothesis n-grams of one order, with the
// clipped reference counts gathered reference by reference. Reused across
// segments (no allocation in the steady state).
class NgramMatcher {
 public:
  void reset(const TokenizedLine& hyp, std::size_t n) {
    hyp_ = &hyp;
    n_ = n;
    const std::size_t count = hyp.size() >= n ? hyp.size() - n + 1 : 0;
    std::size_t capacity = 16;
    while (capacity < 2 * count) capacity *= 2;
    if (slots_.size() < capacity) slots_.resize(capacity);
    mask_ = capacity - 1;
    ++generation_;
    used_.clear();
    for (std::size_t i = 0; i < count; ++i) {
      Slot& slot = find_or_insert(hyp, i);
      ++slot.hyp_count;
    }
    reference_ = 0;
  }

  // Counts one reference's n-grams against the hypothesis n-grams.
  void add_reference(const TokenizedLine& ref) {
    ++reference_;
    if (ref.size() < n_) return;
    for (std::size_t i = 0; i + n_ <= ref.size(); ++i) {
      Slot* slot = find(ref, i);
      if (slot == nullptr) continue;
      if (slot->reference != reference_) {
        slot->reference = reference_;
        slot->current = 0;
      }
      if (++slot->current > slot->max_ref) slot->max_ref = slot->current;
    }
  }

  // Sum over distinct hypothesis n-grams of min(hyp count, max ref count).
  long long clipped_matches() const {
    long long total = 0;
    for (const std::size_t index : used_) total += std::min(slots_[index].hyp_count, slots_[index].max_ref);
    return total;
  }

 private:
  struct Slot {
    std::uint64_t generation = 0;
    std::uint64_t hash = 0;
    std::uint32_t first = 0;  // first token of the n-gram in the hypothesis
    int hyp_count = 0, max_ref = 0, current = 0;
    std::uint32_t reference = 0;
  };

  bool matches(const Slot& slot, const TokenizedLine& line, std::size_t first) const {
    for (std::size_t k = 0; k < n_; ++k) {
      if (!hyp_->same_token(slot.first + k, line, first + k)) return false;
    }
    return true;
  }

  Slot& find_or_insert(const TokenizedLine& line, std::size_t first) {
    const std::uint64_t hash = line.ngram_hash(first, n_);
    for (std::size_t i = hash & mask_;; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (slot.generation != generation_) {
        slot = Slot{generation_, hash, static_cast<std::uint32_t>(first), 0, 0, 0, 0};
        used_.push_back(i);
        return slot;
      }
      if (slot.hash == hash && matches(slot, line, first)) return slot;
    }
  }

  Slot* find(const TokenizedLine& line, std::size_t first) {
    const std::uint64_t hash = line.ngram_hash(first, n_);
    for (std::size_t i = hash & mask_;; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (slot.generation != generation_) return nullptr;
      if (slot.hash == hash && matches(slot, line, first)) return &slot;
    }
  }

  const TokenizedLine* hyp_ = nullptr;
  std::size_t n_ = 1;
  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::uint64_t generation_ = 0;
  std::vector<std::size_t> used_;
  std::uint32_t reference_ = 0;
};

// Per-thread scratch space, so segment_stats stays const and thread-safe.
struct BleuScratch {
  TokenizedLine hyp;
  std::vector<TokenizedLine> refs;
  NgramMatcher matcher;
};

}  // namespace

void Bleu::segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs,
                         Stat* out) const {
  thread_local BleuScratch scratch;
  const auto max_order = static_cast<std::size_t>(options_.max_ngram_order);
  scratch.hyp.assign(pipeline_->process(text::rstrip(hyp)));
  if (scratch.refs.size() < refs.size()) scratch.refs.resize(refs.size());
  for (std::size_t r = 0; r < refs.size(); ++r) scratch.refs[r].assign(pipeline_->process(text::rstrip(refs[r])));

  // Closest reference length; ties go to the shorter reference.
  const auto hyp_len = static_cast<long long>(scratch.hyp.size());
  long long closest_diff = -1, closest_len = -1;
  for (std::size_t r = 0; r < refs.size(); ++r) {
    const auto len = static_cast<long long>(scratch.refs[r].size());
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

  for (std::size_t n = 1; n <= max_order; ++n) {
    // Reference counts are merged across references by maximum, then clipped.
    scratch.matcher.reset(scratch.hyp, n);
    for (std::size_t r = 0; r < refs.size(); ++r) scratch.matcher.add_reference(scratch.refs[r]);
    out[1 + n] = static_cast<Stat>(scratch.matcher.clipped_matches());
    out[1 + max_order + n] =
        static_cast<Stat>(hyp_len >= static_cast<long long>(n) ? hyp_len - static_cast<long long>(n) + 1 : 0);
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
  if (const std::string extra = tok.signature_fields(); !extra.empty()) sig += "|" + extra;  // dict:, icu:
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
