#include "evalcli/metrics/bleu.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <nlohmann/json.hpp>

#include "evalcli/core/detail/target_clones.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/metrics/text_options.hpp"
#include "evalcli/text/detail/prefix_pair_interner.hpp"
#include "evalcli/text/detail/string_interner.hpp"
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

StatDomain Bleu::stat_domain() const {
  const auto order = static_cast<std::size_t>(options_.max_ngram_order);
  StatDomain domain{std::vector<StatKind>(2 + 2 * order, StatKind::count), {}};
  for (std::size_t n = 0; n < order; ++n) domain.at_most.push_back({2 + n, 2 + order + n});
  return domain;
}

std::vector<std::string> Bleu::stat_names() const {
  std::vector<std::string> names = {"hyp_len", "ref_len"};
  for (int n = 1; n <= options_.max_ngram_order; ++n) names.push_back(fmt::format("correct_{}", n));
  for (int n = 1; n <= options_.max_ngram_order; ++n) names.push_back(fmt::format("total_{}", n));
  return names;
}

namespace {

constexpr std::uint32_t kAbsent = text::PrefixPairInterner::kAbsent;
static_assert(kAbsent == text::StringInterner::kAbsent);

// Clipped matches of a segment whose hypothesis and references have at most
// 64 tokens each (nearly every sentence), by bit masks instead of n-gram ids.
// With tokens as dense ids, masks[i] has bit j set where reference token j
// equals hypothesis token i; an n-gram at i matches the reference n-gram at j
// where the (n-1)-gram did and token i+n-1 equals token j+n-1, so order n is
// masks[i] &= unigram_masks[i+n-1] >> (n-1), and the n-gram's count in the
// reference is the mask's population count. The hypothesis against itself
// gives its own counts, and which position is an n-gram's first (no lower
// bit). A few word operations per position and order, with no branch on the
// text: the hash-based NgramMatcher below mispredicts on which n-grams repeat.
class ShortSegmentMatcher {
 public:
  static constexpr std::size_t kMaxTokens = 64;

  // Starts a segment: `hyp_tokens` are the hypothesis' token ids, below
  // `distinct`; reference tokens absent from the hypothesis will be `distinct`.
  void start(const std::vector<std::uint32_t>& hyp_tokens, std::uint32_t distinct, std::size_t max_order) {
    length_ = hyp_tokens.size();
    max_order_ = max_order;
    masks_by_token_.assign(distinct + 1, 0);
    for (std::size_t i = 0; i < length_; ++i) masks_by_token_[hyp_tokens[i]] |= bit(i);
    hyp_unigrams_.resize(length_);
    for (std::size_t i = 0; i < length_; ++i) hyp_unigrams_[i] = masks_by_token_[hyp_tokens[i]];
    best_ref_counts_.clear();
  }

  // One reference (`ref_tokens` as hypothesis ids, `distinct` where absent):
  // each hypothesis n-gram's count in it, kept where it is the highest so far.
  void add_reference(const std::vector<std::uint32_t>& hyp_tokens, const std::vector<std::uint32_t>& ref_tokens) {
    if (best_ref_counts_.empty()) best_ref_counts_.assign(max_order_ * length_, 0);
    set_ref_unigrams(hyp_tokens, ref_tokens);
    matches_.assign(ref_unigrams_.begin(), ref_unigrams_.end());
    keep_highest_counts(ref_unigrams_.data(), matches_.data(), length_, max_order_, best_ref_counts_.data());
  }

  // correct[n-1]: the clipped matches of order n, for n = 1..max_order.
  void finish(std::vector<long long>& correct) {
    matches_.assign(hyp_unigrams_.begin(), hyp_unigrams_.end());
    correct.assign(max_order_, 0);
    clipped_matches(hyp_unigrams_.data(), matches_.data(), length_, max_order_, best_ref_counts_.data(),
                    correct.data());
  }

  // add_reference() and finish() for a segment's only reference (the common
  // case): the reference's counts are not kept, but read as they are made.
  void finish_with_only_reference(const std::vector<std::uint32_t>& hyp_tokens,
                                  const std::vector<std::uint32_t>& ref_tokens, std::vector<long long>& correct) {
    set_ref_unigrams(hyp_tokens, ref_tokens);
    correct.assign(max_order_, 0);
    clipped_matches_of_one_reference(hyp_unigrams_.data(), ref_unigrams_.data(), length_, max_order_, correct.data());
  }

 private:
  static std::uint64_t bit(std::size_t i) { return std::uint64_t{1} << i; }

  void set_ref_unigrams(const std::vector<std::uint32_t>& hyp_tokens, const std::vector<std::uint32_t>& ref_tokens) {
    std::fill(masks_by_token_.begin(), masks_by_token_.end(), 0);
    for (std::size_t j = 0; j < ref_tokens.size(); ++j) masks_by_token_[ref_tokens[j]] |= bit(j);
    ref_unigrams_.resize(length_);
    for (std::size_t i = 0; i < length_; ++i) ref_unigrams_[i] = masks_by_token_[hyp_tokens[i]];
  }

  // matches[i] holds unigram masks on entry and is narrowed order by order.
  EVALCLI_CLONES_FOR_POPCNT static void keep_highest_counts(const std::uint64_t* unigrams, std::uint64_t* matches,
                                                            std::size_t length, std::size_t max_order,
                                                            std::uint32_t* best) {
    for (std::size_t n = 1; n <= max_order && n <= length; ++n, best += length) {
      for (std::size_t i = 0; i + n <= length; ++i) {
        if (n > 1) matches[i] &= unigrams[i + n - 1] >> (n - 1);
        best[i] = std::max(best[i], static_cast<std::uint32_t>(std::popcount(matches[i])));
      }
    }
  }
  EVALCLI_CLONES_FOR_POPCNT static void clipped_matches(const std::uint64_t* unigrams, std::uint64_t* matches,
                                                        std::size_t length, std::size_t max_order,
                                                        const std::uint32_t* best, long long* correct) {
    for (std::size_t n = 1; n <= max_order && n <= length; ++n, best += length) {
      long long sum = 0;
      for (std::size_t i = 0; i + n <= length; ++i) {
        if (n > 1) matches[i] &= unigrams[i + n - 1] >> (n - 1);
        sum += occurrences_before(matches[i], i) < best[i];
      }
      correct[n - 1] = sum;
    }
  }
  // The same with one reference, whose n-gram masks are narrowed alongside:
  // position by position, each position's masks held in registers through
  // the orders of the n-grams starting there.
  EVALCLI_CLONES_FOR_POPCNT static void clipped_matches_of_one_reference(const std::uint64_t* hyp_unigrams,
                                                                         const std::uint64_t* ref_unigrams,
                                                                         std::size_t length, std::size_t max_order,
                                                                         long long* correct) {
    std::size_t i = 0;
    if (max_order == 4 && length >= 4) {  // BLEU's order: the sums in registers, the orders unrolled
      long long sums[4] = {};
      for (; i + 4 <= length; ++i) {
        std::uint64_t in_hyp = ~std::uint64_t{0}, in_ref = ~std::uint64_t{0};
        for (std::size_t n = 1; n <= 4; ++n) {
          in_hyp &= hyp_unigrams[i + n - 1] >> (n - 1);
          in_ref &= ref_unigrams[i + n - 1] >> (n - 1);
          sums[n - 1] += occurrences_before(in_hyp, i) < static_cast<unsigned>(std::popcount(in_ref));
        }
      }
      for (std::size_t n = 0; n < 4; ++n) correct[n] += sums[n];
    }
    for (; i < length; ++i) {
      std::uint64_t in_hyp = ~std::uint64_t{0}, in_ref = ~std::uint64_t{0};
      const std::size_t orders = std::min(max_order, length - i);
      for (std::size_t n = 1; n <= orders; ++n) {
        in_hyp &= hyp_unigrams[i + n - 1] >> (n - 1);
        in_ref &= ref_unigrams[i + n - 1] >> (n - 1);
        correct[n - 1] += occurrences_before(in_hyp, i) < static_cast<unsigned>(std::popcount(in_ref));
      }
    }
  }
  // An n-gram occurring k times in the hypothesis and r times in the
  // reference matches min(k, r) times: its j-th occurrence (j from 0) counts
  // when j < r. j is the number of occurrences before position i.
  [[gnu::always_inline]] static unsigned occurrences_before(std::uint64_t occurrences, std::size_t i) {
    return static_cast<unsigned>(std::popcount(occurrences & (bit(i) - 1)));
  }

  std::size_t length_ = 0, max_order_ = 0;
  std::vector<std::uint64_t> masks_by_token_, hyp_unigrams_, ref_unigrams_, matches_;
  // [n-1][i]: the highest count, in one reference, of the hypothesis n-gram at i.
  std::vector<std::uint32_t> best_ref_counts_;
};

// Clipped n-gram matches of one segment. Every distinct hypothesis token gets
// a dense id from a StringInterner. Short segments go to ShortSegmentMatcher;
// longer ones give every hypothesis n-gram of order n >= 2 an id from a
// PrefixPairInterner as (id of the first n-1 tokens, id of the last
// token). Reference n-grams are only looked up: one absent from the
// hypothesis cannot match, nor can any longer n-gram starting with it. Every
// absent one gets the sink id, after all the others, whose counts are never
// read: counting is then plain array indexing, with no branch on whether a
// reference n-gram was found (a coin toss for the branch predictor).
class NgramMatcher {
 public:
  // Sets correct[n-1] to the clipped match count of order n, for n = 1..max_order.
  void match(const TokenizedText& hyp, const std::vector<TokenizedText>& refs, std::size_t num_refs,
             std::size_t max_order, std::vector<long long>& correct) {
    intern_hyp_tokens(hyp);
    bool short_segment = hyp.size() <= ShortSegmentMatcher::kMaxTokens;
    for (std::size_t r = 0; r < num_refs; ++r) short_segment &= refs[r].size() <= ShortSegmentMatcher::kMaxTokens;
    if (short_segment) {
      short_.start(hyp_tokens_, tokens_.size(), max_order);
      if (num_refs == 1) {
        find_ref_tokens(refs[0], tokens_.size());
        short_.finish_with_only_reference(hyp_tokens_, ref_tokens_, correct);
        return;
      }
      for (std::size_t r = 0; r < num_refs; ++r) {
        find_ref_tokens(refs[r], tokens_.size());
        short_.add_reference(hyp_tokens_, ref_tokens_);
      }
      short_.finish(correct);
      return;
    }
    order_end_.assign(max_order + 1, 0);
    intern_hyp_ngrams(max_order);
    for (std::size_t r = 0; r < num_refs; ++r) add_reference(refs[r], max_order);
    correct.assign(max_order, 0);
    for (std::size_t n = 1; n <= max_order; ++n) {
      for (std::uint32_t id = order_end_[n - 1]; id < order_end_[n]; ++id) {
        correct[n - 1] += std::min(counts_[id].hyp, counts_[id].ref_max);
      }
    }
  }

 private:
  // Per n-gram id: its count in the hypothesis, its highest count in one
  // reference so far, and its count in the reference being read.
  struct Counts {
    std::uint32_t hyp = 0, ref_max = 0, ref = 0;
  };

  void intern_hyp_tokens(const TokenizedText& hyp) {
    tokens_.clear();
    hyp_tokens_.resize(hyp.size());
    for (std::size_t i = 0; i < hyp.size(); ++i) hyp_tokens_[i] = tokens_.id(hyp.token(i), hyp.tokens[i].hash);
  }
  // ref_tokens_: the reference's tokens as hypothesis token ids, `absent` where none.
  void find_ref_tokens(const TokenizedText& ref, std::uint32_t absent) {
    ref_tokens_.resize(ref.size());
    for (std::size_t i = 0; i < ref.size(); ++i) {
      const std::uint32_t id = tokens_.find(ref.token(i), ref.tokens[i].hash);
      ref_tokens_[i] = id == kAbsent ? absent : id;
    }
  }

  // Ids of every hypothesis n-gram, order by order (ids of order n are the
  // contiguous range [order_end_[n-1], order_end_[n])), counted as they come.
  void intern_hyp_ngrams(std::size_t max_order) {
    const std::size_t length = hyp_tokens_.size();
    order_end_[1] = tokens_.size();
    const std::size_t max_pairs = length * (max_order - 1);
    sink_ = static_cast<std::uint32_t>(tokens_.size() + max_pairs);
    // N-gram ids follow the token ids; the sink may be looked up as a prefix too.
    ngrams_.clear(tokens_.size(), max_pairs + 1);
    counts_.assign(sink_ + 1, Counts{});
    for (std::uint32_t id : hyp_tokens_) ++counts_[id].hyp;
    current_.assign(hyp_tokens_.begin(), hyp_tokens_.end());
    for (std::size_t n = 2; n <= max_order; ++n) {
      for (std::size_t i = 0; i + n <= length; ++i) {
        current_[i] = ngrams_.id(current_[i], hyp_tokens_[i + n - 1]);
        ++counts_[current_[i]].hyp;
      }
      order_end_[n] = ngrams_.next_id();
    }
  }

  void add_reference(const TokenizedText& ref, std::size_t max_order) {
    find_ref_tokens(ref, sink_);
    for (std::uint32_t id : ref_tokens_) ++counts_[id].ref;
    // A prefix or last token that is the sink is never found: the n-gram is the sink.
    current_.assign(ref_tokens_.begin(), ref_tokens_.end());
    for (std::size_t n = 2; n <= max_order; ++n) {
      for (std::size_t i = 0; i + n <= ref.size(); ++i) {
        current_[i] = or_sink(ngrams_.find(current_[i], ref_tokens_[i + n - 1]));
        ++counts_[current_[i]].ref;
      }
    }
    for (std::uint32_t id = 0; id < order_end_[max_order]; ++id) {
      counts_[id].ref_max = std::max(counts_[id].ref_max, counts_[id].ref);
      counts_[id].ref = 0;
    }
  }
  std::uint32_t or_sink(std::uint32_t id) const { return id == kAbsent ? sink_ : id; }

  text::StringInterner tokens_;
  text::PrefixPairInterner ngrams_;
  ShortSegmentMatcher short_;
  std::vector<std::uint32_t> order_end_;
  std::vector<std::uint32_t> hyp_tokens_, ref_tokens_, current_;
  std::vector<Counts> counts_;
  std::uint32_t sink_ = 0;  // the id of every reference n-gram absent from the hypothesis
};

// Per-thread scratch space, so segment_stats stays const and thread-safe.
struct BleuScratch {
  // The tokenizer's output with each token's place and TextHash.
  TokenizedText hyp;
  std::vector<TokenizedText> refs;
  NgramMatcher matcher;
  std::vector<long long> correct;
};

}  // namespace

void Bleu::segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs,
                         Stat* out) const {
  thread_local BleuScratch scratch;
  const auto max_order = static_cast<std::size_t>(options_.max_ngram_order);
  pipeline_->process_into(text::rstrip(hyp), scratch.hyp);
  if (scratch.refs.size() < refs.size()) scratch.refs.resize(refs.size());
  for (std::size_t r = 0; r < refs.size(); ++r) pipeline_->process_into(text::rstrip(refs[r]), scratch.refs[r]);

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

  // Reference counts are merged across references by maximum, then clipped.
  scratch.matcher.match(scratch.hyp, scratch.refs, refs.size(), max_order, scratch.correct);
  for (std::size_t n = 1; n <= max_order; ++n) {
    out[1 + n] = static_cast<Stat>(scratch.correct[n - 1]);
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

std::string Bleu::signature() const { return print_signature(bleu_definition(), *this); }

std::vector<SacrebleuField> Bleu::sacrebleu_fields() const { return print_sacrebleu_fields(bleu_definition(), *this); }

nlohmann::json Bleu::details(std::span<const Stat> stats) const {
  const BleuScore s = compute(stats);
  return {{"counts", s.counts}, {"totals", s.totals}, {"precisions", s.precisions},
          {"bp", s.bp},         {"sys_len", s.sys_len}, {"ref_len", s.ref_len},
          {"ratio", s.ratio()}, {"verbose_score", s.verbose()}};
}

// ---------------------------------------------------------------- definition

namespace {

// "floor[0.10]" / "add-k[1.00]" / "exp": the method and its value.
void apply_smooth_field(const std::string& value, OptionValues& values) {
  const auto bracket = value.find('[');
  values.set("smooth-method", value.substr(0, bracket));
  if (bracket == std::string::npos) return;
  if (value.back() != ']') throw usage_error(fmt::format("signature: bad smooth value '{}'", value));
  const std::string number = value.substr(bracket + 1, value.size() - bracket - 2);
  signature_double("smooth", number);  // a finite number, else a usage error naming the field
  values.set("smooth-value", number);
}

// "exp", or the method with its value in effect: "floor[0.10]".
std::string smooth_field(const Bleu& bleu) {
  std::string smooth = bleu_smoothing_name(bleu.options().smoothing);
  const BleuSmoothing method = bleu.options().smoothing;
  if (method == BleuSmoothing::floor || method == BleuSmoothing::add_k) smooth += fmt::format("[{:.2f}]", bleu.smooth_value());
  return smooth;
}

std::unique_ptr<StatsModel> build_bleu(const OptionValues& values, const BuildContext& context) {
  BleuOptions bleu;
  bleu.text = pipeline_options(values, "13a");
  bleu.smoothing = parse_bleu_smoothing(values.text("smooth-method", "exp"));
  bleu.smooth_value = values.optional_real("smooth-value");
  bleu.max_ngram_order = values.integer("max-ngram-order", 4);
  // As SacreBLEU: effective order for sentence-level scores.
  bleu.effective_order = values.flag("effective-order") || context.sentence_level;
  auto metric = std::make_unique<Bleu>(bleu);
  check_signature_tokenizer_fields(values, metric->pipeline().tokenizer());
  return metric;
}

MetricDefinition make_bleu_definition() {
  const TextOptionSpecs text{.tokenize_help = "tokenizer (-tok): 13a, intl, zh, char, none, ja-mecab, ...; default 13a",
                             .language = true,
                             .pipeline = pipeline_of<Bleu>()};
  MetricDefinition d;
  d.command = "bleu";
  d.summary = "BLEU (SacreBLEU-compatible numbers)";
  d.names = {"BLEU"};
  d.options = text_option_specs(text);
  d.options.insert(d.options.end(),
                   {
                       {.name = "smooth-method",
                        .help = "exp, floor, add-k or none",
                        .default_text = "exp",
                        .short_flag = "-s"},
                       {.name = "smooth-value",
                        .kind = OptionKind::real,
                        .help = "value for floor (0.1) and add-k (1) (-sv); >= 0",
                        .min = 0,
                        .sacrebleu_alias = "-sv"},
                       {.name = "max-ngram-order",
                        .kind = OptionKind::integer,
                        .help = "maximum n-gram order",
                        .default_text = "4",
                        .min = 1,
                        .max = 16,
                        .signature_key = "order",
                        .print = field_printer<Bleu>([](const Bleu& b) -> std::optional<std::string> {
                          if (b.options().max_ngram_order == 4) return std::nullopt;  // SacreBLEU's, not printed
                          return std::to_string(b.options().max_ngram_order);
                        })},
                       {.name = "effective-order",
                        .kind = OptionKind::flag,
                        .help = "stop at the highest order the hypothesis has",
                        .signature_key = "eff",
                        .signature_short_key = "e",
                        .print = field_printer<Bleu>([](const Bleu& b) { return flag_value(b.options().effective_order); })},
                       {.name = "force",
                        .kind = OptionKind::flag,
                        .help = "no warning about hypotheses ending in a tokenized period (as SacreBLEU's)",
                        .role = OptionRole::no_effect},
                   });
  d.signature_keys = text_signature_keys(text);
  d.signature_keys.push_back({"smooth", "s", apply_smooth_field, field_printer<Bleu>(smooth_field)});
  d.signature_keys.push_back({"metric", "", [](const std::string& value, OptionValues&) {
                                if (value != "BLEU") throw usage_error(fmt::format("signature is for {}, not BLEU", value));
                              }});
  d.signature_layout = {"case", "eff", "tok", "smooth", "order", "norm", "dict", "icu"};
  d.sacrebleu_layout = {{"case", "c"},
                        {"eff", "e"},
                        {"tok", "tok", field_printer<Bleu>([](const Bleu& b) {
                           const Tokenizer& tok = b.pipeline().tokenizer();
                           return tok.sacrebleu_name().empty() ? tok.id() : tok.sacrebleu_name();
                         })},
                        {"smooth", "s"}};
  d.build = build_bleu;
  d.word_tokenizer = [](const OptionValues& values) { return chosen_tokenizer(values, "13a"); };
  d.tokenized_period_warning = true;
  return d;
}

}  // namespace

const MetricDefinition& bleu_definition() {
  static const MetricDefinition definition = make_bleu_definition();
  return definition;
}

}  // namespace evalcli
