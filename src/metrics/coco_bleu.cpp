// Bleu_1..4 exactly as pycocoevalcap's bleu/bleu_scorer.py (docs/coco.md).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string_view>

#include "evalcli/core/detail/probing_table.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/metrics/cider.hpp"
#include "evalcli/metrics/coco.hpp"
#include "evalcli/metrics/text_options.hpp"
#include "evalcli/text/detail/string_interner.hpp"
#include "evalcli/text/unicode.hpp"
#include "metrics/coco_captions.hpp"

namespace evalcli {
namespace {

constexpr int kOrders = CocoBleu::kMaxOrder;
// compute_score's constants: tiny keeps a zero match count from a zero product's
// log, small keeps a zero guess count from dividing by zero.
constexpr double kTiny = 1e-15;
constexpr double kSmall = 1e-9;

// Statistic positions: [testlen, reflen, guess_1..4, correct_1..4].
constexpr std::size_t kTestLen = 0;
constexpr std::size_t kRefLen = 1;
constexpr std::size_t kGuess = 2;
constexpr std::size_t kCorrect = kGuess + kOrders;
constexpr std::size_t kNumStats = kCorrect + kOrders;

// The words of an image's sentences (Python's str.split()) as ids, and the
// counts of their n-grams: a thread's scratch, reused from image to image, so
// counting allocates nothing once the buffers have grown (O(1) clears).
//
// An n-gram is interned as its (n-1)-gram's id and its last word's id, so
// equal ids mean equal n-grams (of the same order); the orders are counted
// one after the other, each from the ids of the one before.
class ImageCounter {
 public:
  // Splits `text` into words and interns them; returns the sentence's index.
  std::size_t add_sentence(std::u32string_view text) {
    if (starts_.empty()) starts_.push_back(0);
    text::for_each_split(text, [&](std::u32string_view word) { words_.push_back(word_ids_.id(word)); });
    return end_sentence();
  }
  // The same for a sentence given as word ids (equal ids for equal words).
  std::size_t add_sentence(CaptionWords words) {
    if (starts_.empty()) starts_.push_back(0);
    words_.insert(words_.end(), words.begin(), words.end());
    return end_sentence();
  }
  std::size_t length(std::size_t sentence) const { return starts_[sentence + 1] - starts_[sentence]; }

  // Counts the order-`order` n-grams of reference sentence `sentence` (the
  // `ref`-th, from 1) toward the largest count per reference (cook_refs).
  // Every sentence's order - 1 n-grams must have been visited before.
  void count_reference(std::size_t sentence, std::size_t order, std::uint32_t ref) {
    for_each_ngram(sentence, order, [&](Counts& counts) {
      if (counts.ref != ref) {
        counts.ref = ref;
        counts.ref_count = 0;
      }
      counts.max_ref_count = std::max(counts.max_ref_count, ++counts.ref_count);
    });
  }
  // cook_test()'s clipped matches of the order-`order` n-grams of `sentence`:
  // per distinct n-gram min(test count, largest reference count).
  int clipped_matches(std::size_t sentence, std::size_t order) {
    int correct = 0;
    for_each_ngram(sentence, order, [&](Counts& counts) {
      if (++counts.test_count <= counts.max_ref_count) ++correct;
    });
    return correct;
  }
  // Forgets the image (words, sentences and n-grams).
  void clear() {
    word_ids_.clear();
    ngram_ids_.clear();
    counts_.clear();
    words_.clear();
    prefixes_.clear();
    starts_.clear();
  }

 private:
  struct Counts {
    std::uint32_t max_ref_count = 0, ref_count = 0, ref = 0, test_count = 0;
  };
  struct NgramSlot {
    std::uint64_t key;  // (prefix id + 1) << 32 | last word id; a 1-gram's prefix id + 1 is 0
    std::uint32_t id;
    std::uint32_t stamp;  // the table's: a slot of an earlier image is empty
  };

  // Visits the counts of each order-`order` n-gram of `sentence`, left to
  // right; prefixes_[i] goes from the id of the (order - 1)-gram at word i to
  // that of the order-gram.
  std::size_t end_sentence() {
    starts_.push_back(words_.size());
    prefixes_.resize(words_.size());
    return starts_.size() - 2;
  }

  template <class Visit>
  void for_each_ngram(std::size_t sentence, std::size_t order, Visit visit) {
    const std::size_t first = starts_[sentence], last = starts_[sentence + 1];
    for (std::size_t i = first; i + order <= last; ++i) {
      const std::uint64_t prefix = order == 1 ? 0 : std::uint64_t{prefixes_[i]} + 1;
      const NgramSlot fresh{prefix << 32 | words_[i + order - 1], static_cast<std::uint32_t>(counts_.size()), 0};
      bool inserted = false;
      const std::uint32_t id = ngram_ids_.find_or_insert(fresh, inserted).id;
      if (inserted) counts_.emplace_back();
      prefixes_[i] = id;
      visit(counts_[id]);
    }
  }

  text::StringInterner word_ids_;  // views into the caller's text, valid for one image
  detail::ProbingTable<NgramSlot> ngram_ids_{50};
  std::vector<Counts> counts_;           // by n-gram id
  std::vector<std::uint32_t> words_;     // word ids of every sentence, one after the other
  std::vector<std::uint32_t> prefixes_;  // by word position, see for_each_ngram()
  std::vector<std::size_t> starts_;      // sentence s is words_[starts_[s], starts_[s + 1])
};

// cook_test()'s "closest": the reference length nearest the test length, the
// shorter on a tie (min over (abs(l - testlen), l)); `length(r)` is reference r's.
template <class Length>
std::size_t closest_length(Length length, std::size_t refs, std::size_t testlen) {
  auto distance = [testlen](std::size_t l) { return l > testlen ? l - testlen : testlen - l; };
  std::size_t best = length(0);
  for (std::size_t r = 0; r < refs; ++r) {
    const std::size_t l = length(r);
    if (distance(l) < distance(best) || (distance(l) == distance(best) && l < best)) best = l;
  }
  return best;
}

// The largest count of each n-gram in any one reference of an image (cook_refs's
// maxcounts), by id of CiderCorpus's n-gram table: a thread's scratch, all zero
// between images (only the image's own ids are written, then zeroed again). A
// byte per id keeps the array in the cache: 255 stands for 255 or more, told
// apart by `exact_maximum` in the rare case that the test count is larger.
class ReferenceMaxima {
 public:
  // Every order at once: an id is never shared by two orders.
  void add(const CiderCorpus::CaptionNgrams& ngrams) {
    for (std::size_t i = 0; i < ngrams.size(); ++i) {
      std::uint8_t& most = by_id_[ngrams.id(i)];
      most = std::max(most, saturated(ngrams.count(i)));
    }
  }
  // cook_test()'s clipped matches: per distinct n-gram min(test count, largest
  // reference count); `exact_maximum(id)` is the largest reference count of id.
  template <class ExactMaximum>
  std::uint32_t clipped_matches(const CiderCorpus::CaptionNgrams& test, int order, ExactMaximum exact_maximum) const {
    std::uint32_t correct = 0;
    for (std::size_t i = test.begin(order); i < test.end(order); ++i) {
      const std::uint32_t count = test.count(i), most = by_id_[test.id(i)];
      const bool exact = most < kSaturated || count <= most;  // else the largest count is needed
      correct += std::min(count, exact ? most : exact_maximum(test.id(i)));
    }
    return correct;
  }
  void forget(const CiderCorpus::CaptionNgrams& ngrams) {
    for (std::size_t i = 0; i < ngrams.size(); ++i) by_id_[ngrams.id(i)] = 0;
  }
  void cover(std::size_t ids) {
    if (by_id_.size() < ids) by_id_.resize(ids, 0);
  }

 private:
  static constexpr std::uint8_t kSaturated = 255;
  static std::uint8_t saturated(std::uint32_t count) {
    return static_cast<std::uint8_t>(std::min<std::uint32_t>(count, kSaturated));
  }
  std::vector<std::uint8_t> by_id_;
};

// The largest count of n-gram `id` in any of the references.
std::uint32_t largest_reference_count(std::span<const CiderCorpus::CaptionNgrams> refs, std::uint32_t id) {
  std::uint32_t most = 0;
  for (const auto& ngrams : refs) {
    for (std::size_t i = 0; i < ngrams.size(); ++i) {
      if (ngrams.id(i) == id) most = std::max(most, ngrams.count(i));
    }
  }
  return most;
}

}  // namespace

CocoBleu::CocoBleu(int max_order, std::unique_ptr<TextPipeline> pipeline)
    : max_order_(max_order), pipeline_(std::move(pipeline)) {
  if (max_order_ < 1 || max_order_ > kMaxOrder) throw usage_error("Bleu: n-gram order must be 1 to 4");
}

std::string CocoBleu::name() const { return fmt::format("Bleu_{}", max_order_); }

std::vector<std::string> CocoBleu::stat_names() const {
  std::vector<std::string> names = {"testlen", "reflen"};
  for (int k = 1; k <= kOrders; ++k) names.push_back(fmt::format("guess_{}", k));
  for (int k = 1; k <= kOrders; ++k) names.push_back(fmt::format("correct_{}", k));
  return names;
}

StatDomain CocoBleu::stat_domain() const {
  StatDomain domain{std::vector<StatKind>(kNumStats, StatKind::count), {}};
  for (std::size_t k = 0; k < kOrders; ++k) domain.at_most.emplace_back(kCorrect + k, kGuess + k);
  return domain;
}

void CocoBleu::segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs, Stat* out) const {
  segment_stats_followed_by(hyp, refs, {}, out);  // one image alone: both texts end with it
}

void CocoBleu::segment_stats_followed_by(std::u32string_view hyp, std::span<const std::u32string> refs,
                                         const FollowingCaptions& following, Stat* out) const {
  thread_local detail::TokenizedImage image;
  detail::tokenize_image(*pipeline_, hyp, refs, following, image);
  tokenized_stats(image.hyp(), image.refs, out);
}

namespace {

// cook_refs() and cook_test() of one image whose sentences `counter` holds:
// references 0 .. refs - 1, then the test sentence.
void image_stats(ImageCounter& counter, std::size_t refs, Stat* out) {
  const std::size_t test = refs;
  const std::size_t testlen = counter.length(test);
  out[kTestLen] = static_cast<Stat>(testlen);
  out[kRefLen] = static_cast<Stat>(closest_length([&](std::size_t r) { return counter.length(r); }, refs, testlen));
  for (std::size_t k = 0; k < kOrders; ++k) {
    for (std::size_t r = 0; r < refs; ++r) counter.count_reference(r, k + 1, static_cast<std::uint32_t>(r + 1));
    out[kGuess + k] = testlen >= k + 1 ? static_cast<Stat>(testlen - k) : 0.0;
    out[kCorrect + k] = counter.clipped_matches(test, k + 1);
  }
}

}  // namespace

void CocoBleu::tokenized_stats(std::u32string_view hyp, std::span<const std::u32string> refs, Stat* out) const {
  if (refs.empty()) throw input_error("Bleu: an image has no references");
  thread_local ImageCounter counter;
  counter.clear();
  for (const auto& ref : refs) counter.add_sentence(ref);
  counter.add_sentence(hyp);
  image_stats(counter, refs.size(), out);
}

void CocoBleu::word_stats(CaptionWords hyp, std::span<const CaptionWords> refs, Stat* out) const {
  if (refs.empty()) throw input_error("Bleu: an image has no references");
  thread_local ImageCounter counter;
  counter.clear();
  for (const auto ref : refs) counter.add_sentence(ref);
  counter.add_sentence(hyp);
  image_stats(counter, refs.size(), out);
}

void CocoBleu::counted_stats(const CiderCorpus& corpus, std::size_t document, std::size_t hyp_caption,
                             CaptionWords hyp, std::span<const CaptionWords> refs, Stat* out) const {
  if (refs.empty()) throw input_error("Bleu: an image has no references");
  thread_local ReferenceMaxima maxima;
  thread_local std::vector<CiderCorpus::CaptionNgrams> ref_ngrams;
  maxima.cover(corpus.ngram_count());
  ref_ngrams.clear();
  for (std::size_t r = 0; r < refs.size(); ++r) ref_ngrams.push_back(corpus.caption_ngrams(document, r));
  const auto test = corpus.caption_ngrams(document, hyp_caption);
  if (test.orders() < kOrders) throw Error(ExitCode::internal, "Bleu: CIDEr counted fewer than 4 n-gram orders");
  for (const auto& ngrams : ref_ngrams) maxima.add(ngrams);
  const std::size_t testlen = hyp.size();
  out[kTestLen] = static_cast<Stat>(testlen);
  out[kRefLen] = static_cast<Stat>(closest_length([&](std::size_t r) { return refs[r].size(); }, refs.size(), testlen));
  for (std::size_t k = 0; k < kOrders; ++k) {
    out[kGuess + k] = testlen >= k + 1 ? static_cast<Stat>(testlen - k) : 0.0;
    out[kCorrect + k] = maxima.clipped_matches(test, static_cast<int>(k + 1), [&](std::uint32_t id) {
      return largest_reference_count(ref_ngrams, id);
    });
  }
  for (const auto& ngrams : ref_ngrams) maxima.forget(ngrams);
}

std::vector<double> CocoBleu::scores(std::span<const Stat> stats) const {
  // compute_score(): the running product of the precisions, its k-th root, and
  // the brevity penalty when the test is shorter than the references.
  std::vector<double> bleus;
  double product = 1.0;
  for (int k = 0; k < max_order_; ++k) {
    product *= (stats[kCorrect + k] + kTiny) / (stats[kGuess + k] + kSmall);
    bleus.push_back(std::pow(product, 1.0 / (k + 1)));
  }
  const double ratio = (stats[kTestLen] + kTiny) / (stats[kRefLen] + kSmall);
  if (ratio < 1) {
    for (double& bleu : bleus) bleu *= std::exp(1 - 1 / ratio);
  }
  return bleus;
}

double CocoBleu::score(std::span<const Stat> stats) const { return scores(stats).back(); }

std::string CocoBleu::signature() const { return print_signature(coco_bleu_definition(), *this); }

nlohmann::json CocoBleu::details(std::span<const Stat> stats) const {
  nlohmann::json out = nlohmann::json::object();
  const std::vector<double> bleus = scores(stats);
  for (std::size_t k = 0; k < bleus.size(); ++k) out[fmt::format("Bleu_{}", k + 1)] = bleus[k];
  out["testlen"] = stats[kTestLen];
  out["reflen"] = stats[kRefLen];
  return out;
}

// ---------------------------------------------------------------- definition

namespace {

std::unique_ptr<StatsModel> build_coco_bleu(const OptionValues& values, const BuildContext&) {
  auto pipeline = std::make_unique<TextPipeline>(pipeline_options(values, "ptb"));
  check_signature_tokenizer_fields(values, pipeline->tokenizer());
  return std::make_unique<CocoBleu>(values.integer("bleu-order", CocoBleu::kMaxOrder), std::move(pipeline));
}

MetricDefinition make_coco_bleu_definition() {
  const TextOptionSpecs text{.tokenize_help = "tokenizer (-tok): ptb (default, as pycocoevalcap), none, ...",
                             .pipeline = pipeline_of<CocoBleu>(),
                             .case_when_mixed = false};
  MetricDefinition d;
  d.command = "coco-bleu";
  d.summary = "Bleu_1..4 of pycocoevalcap (COCO captions; not SacreBLEU's BLEU)";
  d.names = {"Bleu_"};
  d.default_width = 4;
  d.score_scale = 1;
  d.options = {{.name = "bleu-order",
                .kind = OptionKind::integer,
                .help = "the score is Bleu_N (Bleu_1..N in the JSON report)",
                .default_text = "4",
                .min = 1,
                .max = CocoBleu::kMaxOrder,
                .signature_key = "n",
                .print = field_printer<CocoBleu>([](const CocoBleu& b) { return std::to_string(b.max_order()); })}};
  const auto shared = text_option_specs(text);
  d.options.insert(d.options.end(), shared.begin(), shared.end());
  d.signature_keys = text_signature_keys(text);
  d.signature_keys.push_back(fixed_signature_key("Bleu", "compat", "pycocoevalcap-1.2"));
  d.signature_keys.push_back(fixed_signature_key("Bleu", "reflen", "closest"));
  d.signature_keys.push_back({"metric", "", [](const std::string& value, OptionValues&) {
                                if (value.rfind("Bleu_", 0) != 0) {
                                  throw usage_error(fmt::format("signature is for {}, not pycocoevalcap's Bleu", value));
                                }
                              }});
  d.signature_layout = {"compat", "n", "reflen", "tok", "dict", "icu", "case", "norm"};
  d.build = build_coco_bleu;
  d.word_tokenizer = [](const OptionValues& values) { return chosen_tokenizer(values, "ptb"); };
  return d;
}

}  // namespace

const MetricDefinition& coco_bleu_definition() {
  static const MetricDefinition definition = make_coco_bleu_definition();
  return definition;
}

}  // namespace evalcli
