#include "evalcli/metrics/chrf.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <deque>
#include <unordered_map>

// AVX2 where the compiler can target it; used only if the CPU has it.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define EVALCLI_CHRF_AVX2 1
#include <immintrin.h>
#else
#define EVALCLI_CHRF_AVX2 0
#endif

#include "evalcli/core/detail/target_clones.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/core/numbers.hpp"
#include "evalcli/metrics/text_options.hpp"
#include "evalcli/text/detail/pair_interner.hpp"
#include "evalcli/text/detail/string_interner.hpp"
#include "evalcli/text/unicode.hpp"
#include "metrics/chrf_char_ngrams.hpp"

namespace evalcli {

namespace detail {

EVALCLI_CLONES_FOR_AVX2 std::uint32_t sum_of_minima(const std::uint32_t* a, const std::uint32_t* b,
                                                    std::size_t first, std::size_t end) {
  std::uint32_t sum = 0;
  for (std::size_t i = first; i < end; ++i) sum += std::min(a[i], b[i]);
  return sum;
}

namespace {

// text::is_space of the first 256 code points, one load each.
struct Latin1Spaces {
  bool space[256] = {};
  constexpr Latin1Spaces() {
    for (char32_t c = 0; c < 256; ++c) space[c] = text::is_space(c);
  }
};
constexpr Latin1Spaces kLatin1Spaces;

std::size_t copy_without_spaces_plain(const char32_t* text, std::size_t size, std::uint32_t* out) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < size; ++i) {  // every character written, kept or not: no branch on spaces
    const char32_t c = text[i];
    out[kept] = static_cast<std::uint32_t>(c);
    kept += (c < 256 ? kLatin1Spaces.space[c] : text::is_space(c)) ? 0 : 1;
  }
  return kept;
}

#if EVALCLI_CHRF_AVX2
// For each 8-bit mask of kept lanes, the lanes' indices in order (a byte
// each, unused ones 0): the permutation that moves the kept lanes to the front.
struct KeptLanes {
  std::uint64_t order[256] = {};
  constexpr KeptLanes() {
    for (unsigned mask = 0; mask < 256; ++mask) {
      unsigned at = 0;
      for (unsigned lane = 0; lane < 8; ++lane) {
        if ((mask >> lane & 1u) != 0) order[mask] |= std::uint64_t{lane} << (8 * at++);
      }
    }
  }
};
constexpr KeptLanes kKeptLanes;

// Lanes in [first, last] (unsigned), as all-ones lanes.
[[gnu::target("avx2")]] inline __m256i in_range(__m256i c, std::uint32_t first, std::uint32_t last) {
  const __m256i offset = _mm256_sub_epi32(c, _mm256_set1_epi32(static_cast<int>(first)));
  return _mm256_cmpeq_epi32(_mm256_min_epu32(offset, _mm256_set1_epi32(static_cast<int>(last - first))), offset);
}
[[gnu::target("avx2")]] inline __m256i equal(__m256i c, std::uint32_t value) {
  return _mm256_cmpeq_epi32(c, _mm256_set1_epi32(static_cast<int>(value)));
}

// text::is_space of eight code points (unicode.hpp's list), as all-ones lanes.
// Blocks of ASCII and Latin-1 letters only (most) take the first test.
[[gnu::target("avx2")]] inline __m256i space_lanes(__m256i c) {
  __m256i space = _mm256_or_si256(in_range(c, 0x09, 0x0D), in_range(c, 0x1C, 0x20));
  if (_mm256_testz_si256(_mm256_cmpgt_epi32(c, _mm256_set1_epi32(0x84)), _mm256_set1_epi32(-1)) != 0) return space;
  space = _mm256_or_si256(space, _mm256_or_si256(equal(c, 0x85), equal(c, 0xA0)));
  space = _mm256_or_si256(space, _mm256_or_si256(equal(c, 0x1680), in_range(c, 0x2000, 0x200A)));
  space = _mm256_or_si256(space, _mm256_or_si256(in_range(c, 0x2028, 0x2029), equal(c, 0x202F)));
  return _mm256_or_si256(space, _mm256_or_si256(equal(c, 0x205F), equal(c, 0x3000)));
}

[[gnu::target("avx2,popcnt")]] std::size_t copy_without_spaces_avx2(const char32_t* text, std::size_t size,
                                                                     std::uint32_t* out) {
  std::size_t kept = 0, i = 0;
  for (; i + 8 <= size; i += 8) {
    const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(text + i));
    const auto keep = static_cast<unsigned>(~_mm256_movemask_ps(_mm256_castsi256_ps(space_lanes(c)))) & 0xFFu;
    const __m256i order = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(static_cast<long long>(kKeptLanes.order[keep])));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + kept), _mm256_permutevar8x32_epi32(c, order));
    kept += static_cast<std::size_t>(__builtin_popcount(keep));
  }
  return kept + copy_without_spaces_plain(text + i, size - i, out + kept);
}
#endif

}  // namespace

std::size_t copy_without_spaces(const char32_t* text, std::size_t size, std::uint32_t* out) {
#if EVALCLI_CHRF_AVX2
  static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
  if (avx2) return copy_without_spaces_avx2(text, size, out);
#endif
  return copy_without_spaces_plain(text, size, out);
}

}  // namespace detail

std::u32string chrf_char_text(std::u32string_view line, bool keep_whitespace) {
  if (keep_whitespace) return std::u32string(line);
  std::vector<std::uint32_t> kept(line.size() + 8);  // copy_without_spaces' room
  kept.resize(detail::copy_without_spaces(line.data(), line.size(), kept.data()));
  return std::u32string(kept.begin(), kept.end());
}

std::vector<std::u32string_view> chrf_words(std::u32string_view line) {
  std::vector<std::u32string_view> words;
  for_each_chrf_word(line, [&](std::u32string_view word) { words.push_back(word); });
  return words;
}

namespace {

// Every distinct n-gram of the hypothesis gets a dense id from a PairInterner:
// (id of its first n-1 items, last item). Unigrams use a root "prefix" that no
// id can equal. Reference n-grams are only looked up: one the hypothesis lacks
// cannot match, nor can any longer n-gram starting with it.
constexpr std::uint32_t kCharRoot = 0xFFFFFFFFu;  // "previous id" of a character unigram
constexpr std::uint32_t kWordRoot = 0xFFFFFFFEu;  // ... of a word unigram

// N-gram ids of one side (hypothesis or one reference): ids[order] lists the
// ids of the n-grams of that order, in position order (for a reference, only
// of those the hypothesis has), totals[order] how many n-grams it has.
struct SideNgrams {
  std::vector<std::vector<std::uint32_t>> ids;
  std::vector<std::size_t> totals;
};

// Appends, for orders 1..max_order, the n-gram ids of `items`.
void extract_ngrams(std::span<const std::uint32_t> items, std::uint32_t root, int max_order,
                    text::PairInterner& interner, std::vector<std::vector<std::uint32_t>>& ids, std::size_t first_slot,
                    std::vector<std::uint32_t>& prefix) {
  prefix.assign(items.size(), root);  // prefix[i]: id of the (n-1)-gram starting at i
  interner.reserve(items.size() * static_cast<std::size_t>(max_order));
  for (int n = 1; n <= max_order; ++n) {
    auto& out = ids[first_slot + static_cast<std::size_t>(n - 1)];
    const std::size_t count = items.size() >= static_cast<std::size_t>(n) ? items.size() - n + 1 : 0;
    out.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
      prefix[i] = interner.id(prefix[i], items[i + n - 1]);
      out[i] = prefix[i];
    }
  }
}

// Like extract_ngrams, but only looks n-grams up (a reference): ids holds the
// ids of those found, totals the number of n-grams of each order.
void find_ngrams(std::span<const std::uint32_t> items, std::uint32_t root, int max_order,
                 const text::PairInterner& interner, SideNgrams& side, std::size_t first_slot,
                 std::vector<std::uint32_t>& prefix) {
  constexpr std::uint32_t kAbsent = text::PairInterner::kAbsent;
  prefix.resize(items.size());  // prefix[i]: id of the (n-1)-gram starting at i, or kAbsent
  for (int n = 1; n <= max_order; ++n) {
    const std::size_t slot = first_slot + static_cast<std::size_t>(n - 1);
    auto& out = side.ids[slot];
    const std::size_t count = items.size() >= static_cast<std::size_t>(n) ? items.size() - n + 1 : 0;
    side.totals[slot] = count;
    out.clear();
    for (std::size_t i = 0; i < count; ++i) {
      // (the root may equal kAbsent, so order 1 does not test the prefix)
      if (n > 1 && prefix[i] == kAbsent) continue;
      prefix[i] = interner.find(n == 1 ? root : prefix[i], items[i + n - 1]);
      if (prefix[i] != kAbsent) out.push_back(prefix[i]);
    }
  }
}

struct Workspace {
  text::PairInterner ngrams;
  detail::DenseCharNgrams dense_chars;
  std::vector<detail::NgramCounts> char_counts;  // [reference][order], from dense_chars
  // Word ids of the segment; keys view the input lines or strings in keep_alive
  // (a deque: its elements never move while the segment is processed).
  text::StringInterner words;
  std::deque<std::u32string> keep_alive;
  std::u32string_view hyp_line;
  std::vector<std::u32string_view> ref_lines;  // after the pipeline
  std::vector<std::uint32_t> hyp_chars, items, prefix;
  std::vector<std::vector<std::uint32_t>> ref_chars;  // character texts
  SideNgrams hyp, ref;
  std::vector<std::uint32_t> ref_counts;
  std::vector<Stat> stats;
};

}  // namespace

Chrf::Chrf(ChrfOptions options) : options_(std::move(options)) {
  if (options_.char_order < 0 || options_.word_order < 0 || options_.char_order + options_.word_order < 1) {
    throw usage_error("chrF needs a positive character or word n-gram order");
  }
  if (options_.beta < 0) throw usage_error("chrF beta must not be negative");
  PipelineOptions text;
  text.normalizers = options_.normalizers;
  text.lowercase = options_.lowercase;
  text.tokenizer = options_.tokenizer.empty() ? "none" : options_.tokenizer;
  text.tokenizer_options = options_.tokenizer_options;
  pipeline_ = std::make_unique<TextPipeline>(text);
}

std::string Chrf::name() const {
  return fmt::format("chrF{}{}", options_.beta, std::string(static_cast<std::size_t>(options_.word_order), '+'));
}

StatDomain Chrf::stat_domain() const {
  const auto orders = static_cast<std::size_t>(options_.char_order + options_.word_order);
  StatDomain domain{std::vector<StatKind>(3 * orders, StatKind::count), {}};
  for (std::size_t n = 0; n < orders; ++n) {
    domain.at_most.push_back({3 * n + 2, 3 * n});      // match <= hyp
    domain.at_most.push_back({3 * n + 2, 3 * n + 1});  // match <= ref
  }
  return domain;
}

std::vector<std::string> Chrf::stat_names() const {
  std::vector<std::string> names;
  for (int n = 1; n <= options_.char_order; ++n) {
    for (const char* what : {"hyp", "ref", "match"}) names.push_back(fmt::format("char{}_{}", n, what));
  }
  for (int n = 1; n <= options_.word_order; ++n) {
    for (const char* what : {"hyp", "ref", "match"}) names.push_back(fmt::format("word{}_{}", n, what));
  }
  return names;
}

namespace {

// The line chrF takes its n-grams from. With a tokenizer, the tokenizer's output
// text (tokens joined by one space), taken as SacreBLEU takes them from any text:
// the same numbers as `evalcli tokenize ... | sacrebleu -m chrf`.
std::u32string_view pipeline_line(std::u32string_view line, const ChrfOptions& options, const TextPipeline& pipeline,
                                  Workspace& ws) {
  if (!options.tokenizer.empty()) return ws.keep_alive.emplace_back(pipeline.process(line));
  if (pipeline.has_normalizers() || pipeline.lowercase()) return ws.keep_alive.emplace_back(pipeline.normalize(line));
  return line;
}

// The code points character n-grams are taken from: whitespace dropped unless kept.
void char_text(std::u32string_view line, bool keep_whitespace, std::vector<std::uint32_t>& out) {
  if (keep_whitespace) {
    out.assign(line.begin(), line.end());
    return;
  }
  out.resize(line.size() + 8);  // copy_without_spaces' room
  out.resize(detail::copy_without_spaces(line.data(), line.size(), out.data()));
}

// The hypothesis's n-gram ids from the PairInterner: the character orders when
// `with_chars` (segments DenseCharNgrams cannot take), then the word orders.
void intern_hypothesis(bool with_chars, const ChrfOptions& options, Workspace& ws) {
  const auto nc = static_cast<std::size_t>(options.char_order);
  ws.hyp.ids.resize(nc + static_cast<std::size_t>(options.word_order));
  ws.hyp.totals.resize(ws.hyp.ids.size());
  if (with_chars) extract_ngrams(ws.hyp_chars, kCharRoot, options.char_order, ws.ngrams, ws.hyp.ids, 0, ws.prefix);
  if (options.word_order == 0) return;
  ws.items.clear();
  for_each_chrf_word(ws.hyp_line, [&](std::u32string_view word) { ws.items.push_back(ws.words.id(word)); });
  extract_ngrams(ws.items, kWordRoot, options.word_order, ws.ngrams, ws.hyp.ids, nc, ws.prefix);
}

// The same for reference r, looking n-grams up only (into ws.ref).
void find_reference(std::size_t r, bool with_chars, const ChrfOptions& options, Workspace& ws) {
  const auto nc = static_cast<std::size_t>(options.char_order);
  ws.ref.ids.resize(ws.hyp.ids.size());
  ws.ref.totals.resize(ws.hyp.ids.size());
  if (with_chars) find_ngrams(ws.ref_chars[r], kCharRoot, options.char_order, ws.ngrams, ws.ref, 0, ws.prefix);
  if (options.word_order == 0) return;
  ws.items.clear();
  // A word the hypothesis lacks is kAbsent, which no hypothesis unigram has as its item.
  for_each_chrf_word(ws.ref_lines[r], [&](std::u32string_view word) { ws.items.push_back(ws.words.find(word)); });
  find_ngrams(ws.items, kWordRoot, options.word_order, ws.ngrams, ws.ref, nc, ws.prefix);
}

}  // namespace

namespace {

// The counts of one order from n-gram ids: sum over the distinct hypothesis
// n-grams of min(hyp count, ref count). `ref_counts` is all zero before and after.
detail::NgramCounts match_ids(std::span<const std::uint32_t> hyp_ids, std::span<const std::uint32_t> ref_ids,
                                  std::size_t ref_total, std::vector<std::uint32_t>& ref_counts) {
  for (auto id : ref_ids) ++ref_counts[id];
  std::size_t match = 0;
  for (auto id : hyp_ids) {  // without a branch: whether it matches is a coin toss
    const std::uint32_t left = ref_counts[id];
    const std::uint32_t matched = left > 0 ? 1 : 0;
    ref_counts[id] = left - matched;
    match += matched;
  }
  for (auto id : ref_ids) ref_counts[id] = 0;
  return {hyp_ids.size(), ref_total, match};
}

}  // namespace

void Chrf::segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs, Stat* out) const {
  thread_local Workspace ws;
  const std::size_t orders = num_orders();
  const auto nc = static_cast<std::size_t>(options_.char_order);
  ws.ngrams.clear();
  ws.words.clear();
  ws.keep_alive.clear();
  std::fill(out, out + 3 * orders, 0.0);
  if (refs.empty()) return;
  ws.hyp_line = pipeline_line(hyp, options_, *pipeline_, ws);
  char_text(ws.hyp_line, options_.whitespace, ws.hyp_chars);
  ws.ref_lines.resize(refs.size());
  ws.ref_chars.resize(refs.size());
  for (std::size_t r = 0; r < refs.size(); ++r) {
    ws.ref_lines[r] = pipeline_line(refs[r], options_, *pipeline_, ws);
    char_text(ws.ref_lines[r], options_.whitespace, ws.ref_chars[r]);
  }
  const bool chars_dense =
      nc > 0 && ws.dense_chars.count(ws.hyp_chars, std::span(ws.ref_chars.data(), refs.size()), nc, ws.char_counts);
  intern_hypothesis(!chars_dense, options_, ws);
  ws.stats.assign(3 * orders, 0.0);
  double best_f = -1.0;
  for (std::size_t r = 0; r < refs.size(); ++r) {
    find_reference(r, !chars_dense, options_, ws);
    if (ws.ref_counts.size() < ws.ngrams.next_id()) ws.ref_counts.resize(ws.ngrams.next_id(), 0);
    for (std::size_t k = 0; k < orders; ++k) {
      const detail::NgramCounts counts = k < nc && chars_dense
                                             ? ws.char_counts[r * nc + k]
                                             : match_ids(ws.hyp.ids[k], ws.ref.ids[k], ws.ref.totals[k], ws.ref_counts);
      // The hypothesis count is reported as 0 when the reference has no n-gram of this order.
      ws.stats[3 * k] = counts.ref == 0 ? 0.0 : static_cast<Stat>(counts.hyp);
      ws.stats[3 * k + 1] = static_cast<Stat>(counts.ref);
      ws.stats[3 * k + 2] = static_cast<Stat>(counts.match);
    }
    const double f = score(ws.stats);
    if (f > best_f) {  // ties keep the earlier reference
      best_f = f;
      std::copy(ws.stats.begin(), ws.stats.end(), out);
    }
  }
}

namespace {

// SacreBLEU's CHRF._compute_f_score, same operation order. `Count` is double
// for exact sums, float when reproducing SacreBLEU's float32 bootstrap (numpy
// divides two float32 counts in float32; everything after is double).
template <typename Count>
double chrf_f_score(std::span<const Count> stats, std::size_t orders, int beta, bool eps_smoothing) {
  constexpr double eps = 1e-16;
  const double factor = static_cast<double>(beta) * static_cast<double>(beta);
  double eps_score = 0.0, avg_prec = 0.0, avg_rec = 0.0;
  int effective_order = 0;
  for (std::size_t i = 0; i < orders; ++i) {
    const Count n_hyp = stats[3 * i], n_ref = stats[3 * i + 1], n_match = stats[3 * i + 2];
    const double prec = n_hyp > 0 ? static_cast<double>(n_match / n_hyp) : eps;
    const double rec = n_ref > 0 ? static_cast<double>(n_match / n_ref) : eps;
    const double denom = factor * prec + rec;
    eps_score += denom > 0 ? (1 + factor) * prec * rec / denom : eps;
    if (n_hyp > 0 && n_ref > 0) {
      avg_prec += prec;
      avg_rec += rec;
      ++effective_order;
    }
  }
  if (eps_smoothing) return 100 * eps_score / static_cast<double>(orders);
  if (effective_order == 0) {
    avg_prec = avg_rec = 0.0;
  } else {
    avg_prec /= effective_order;
    avg_rec /= effective_order;
  }
  if (avg_prec + avg_rec == 0) return 0.0;
  double f = (1 + factor) * avg_prec * avg_rec;
  f /= (factor * avg_prec) + avg_rec;
  return 100 * f;
}

}  // namespace

double Chrf::score(std::span<const Stat> stats) const {
  return chrf_f_score(stats, num_orders(), options_.beta, options_.eps_smoothing);
}

double Chrf::score_float32(std::span<const float> stats) const {
  return chrf_f_score(stats, num_orders(), options_.beta, options_.eps_smoothing);
}

std::vector<SacrebleuField> Chrf::sacrebleu_fields() const { return print_sacrebleu_fields(chrf_definition(), *this); }

std::string Chrf::signature() const { return print_signature(chrf_definition(), *this); }

// ---------------------------------------------------------------- definition

namespace {

constexpr const char* kTokenizedTextRead = "signature-ngrams-tok-text";

// "chrF2++" -> beta 2, word order 2 (SacreBLEU prints beta only in the name).
void apply_metric_name(const std::string& name, OptionValues& values) {
  if (name.rfind("chrF", 0) != 0) throw usage_error(fmt::format("signature is for {}, not chrF", name));
  const std::size_t digits = name.find_first_not_of("0123456789", 4) == std::string::npos
                                 ? name.size() - 4
                                 : name.find_first_not_of("0123456789", 4) - 4;
  const std::string plus = name.substr(4 + digits);
  if (plus.find_first_not_of('+') != std::string::npos) {
    throw usage_error(fmt::format("signature: unknown metric name '{}'", name));
  }
  // The name's numbers are checked as --chrf-beta and --chrf-word-order are.
  if (digits > 0) values.set("chrf-beta", std::to_string(integer_in_range("signature: chrF beta", name.substr(4, digits), 0, 1000)));
  if (plus.size() > 100) throw usage_error(fmt::format("signature: the word order of '{}' is outside 0..100", name));
  if (!plus.empty()) values.set("chrf-word-order", std::to_string(plus.size()));
}

// A field printed only when chrF scores tokenized text (--tokenize).
template <class Get>
FieldPrinter when_tokenized(Get get) {
  return field_printer<Chrf>([get](const Chrf& c) -> std::optional<std::string> {
    if (c.options().tokenizer.empty()) return std::nullopt;
    return get(c);
  });
}

std::unique_ptr<StatsModel> build_chrf(const OptionValues& values, const BuildContext&) {
  ChrfOptions chrf;
  chrf.char_order = values.integer("chrf-char-order", 6);
  chrf.word_order = values.integer("chrf-word-order", 0);
  chrf.beta = values.integer("chrf-beta", 2);
  chrf.lowercase = values.flag("lowercase");
  chrf.whitespace = values.flag("chrf-whitespace");
  chrf.eps_smoothing = values.flag("chrf-eps-smoothing");
  chrf.normalizers = values.list("normalize");
  chrf.tokenizer = values.text("tokenize");
  chrf.tokenizer_options = tokenizer_options(values);
  if (values.from_signature()) {
    if (!chrf.tokenizer.empty() && !values.has(kTokenizedTextRead)) {
      throw usage_error(fmt::format("signature has tok: without {}:{} (an older evalcli chrF that took the tokens "
                                    "as words); this evalcli cannot reproduce it",
                                    kChrfTokenizedField, kChrfTokenizedValue));
    }
    if (chrf.tokenizer.empty() && (values.has(kTokenizedTextRead) || has_signature_tokenizer_fields(values))) {
      throw usage_error("signature has tokenizer fields but no tok: field");
    }
  }
  auto metric = std::make_unique<Chrf>(chrf);
  if (!chrf.tokenizer.empty()) check_signature_tokenizer_fields(values, metric->pipeline().tokenizer());
  return metric;
}

MetricDefinition make_chrf_definition() {
  const TextOptionSpecs text{
      .tokenize_help =
          "tokenize first and score the tokens joined by spaces (default: the line as SacreBLEU scores it)",
      .language = true,  // -l picks nothing: SacreBLEU's chrF scores characters whatever the language
      .pipeline = pipeline_of<Chrf>()};
  MetricDefinition d;
  d.command = "chrf";
  d.summary = "chrF / chrF++ (SacreBLEU-compatible numbers)";
  d.names = {"chrF"};
  d.options = {
      {.name = "chrf-char-order",
       .kind = OptionKind::integer,
       .help = "character n-gram order (-cc)",
       .default_text = "6",
       .min = 0,
       .max = 100,
       .sacrebleu_alias = "-cc",
       .signature_key = "nc",
       .signature_short_key = "n",
       .print = field_printer<Chrf>([](const Chrf& c) { return std::to_string(c.options().char_order); })},
      {.name = "chrf-word-order",
       .kind = OptionKind::integer,
       .help = "word n-gram order (-cw; 2 = chrF++)",
       .default_text = "0",
       .min = 0,
       .max = 100,
       .sacrebleu_alias = "-cw",
       .signature_key = "nw",
       .print = field_printer<Chrf>([](const Chrf& c) { return std::to_string(c.options().word_order); })},
      {.name = "chrf-beta",
       .kind = OptionKind::integer,
       .help = "recall weight beta",
       .default_text = "2",
       .min = 0,
       .max = 1000,
       .signature_key = "beta",
       .print = field_printer<Chrf>([](const Chrf& c) { return std::to_string(c.options().beta); })},
      {.name = "chrf-whitespace",
       .kind = OptionKind::flag,
       .help = "keep whitespace in character n-grams",
       .signature_key = "space",
       .signature_short_key = "s",
       .print = field_printer<Chrf>([](const Chrf& c) { return flag_value(c.options().whitespace); })},
      {.name = "chrf-eps-smoothing",
       .kind = OptionKind::flag,
       .help = "chrF++.py/NLTK epsilon smoothing instead of effective-order averaging",
       .signature_key = "eff",
       .signature_short_key = "e",
       .flag_words = {"no", "yes"},
       .print = field_printer<Chrf>([](const Chrf& c) { return flag_value(c.options().eps_smoothing); })},
  };
  for (auto& spec : text_option_specs(text)) {
    if (spec.name == "lowercase") spec.aliases = {"--chrf-lowercase"};
    d.options.push_back(std::move(spec));
  }
  d.signature_keys = text_signature_keys(text);
  d.signature_keys.push_back({"metric", "", apply_metric_name});
  d.signature_keys.push_back({kChrfTokenizedField, "",
                              [](const std::string& value, OptionValues& values) {
                                if (value != kChrfTokenizedValue) {
                                  throw usage_error(
                                      fmt::format("signature: unknown {} value '{}'", kChrfTokenizedField, value));
                                }
                                values.set(kTokenizedTextRead, "yes");
                              },
                              when_tokenized([](const Chrf&) { return std::string(kChrfTokenizedValue); })});
  // tok: only when --tokenize is given (SacreBLEU's chrF has no tokenizer).
  d.find_signature_key("tok")->print = when_tokenized([](const Chrf& c) { return c.pipeline().tokenizer().id(); });
  d.signature_layout = {"case", "eff", "nc", "nw", "space", "beta", "tok", kChrfTokenizedField, "dict", "icu", "norm"};
  d.sacrebleu_layout = {{"case", "c"}, {"eff", "e"}, {"nc", "nc"}, {"nw", "nw"}, {"space", "s"}};
  d.build = build_chrf;
  return d;
}

}  // namespace

const MetricDefinition& chrf_definition() {
  static const MetricDefinition definition = make_chrf_definition();
  return definition;
}

}  // namespace evalcli
