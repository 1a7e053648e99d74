#include "evalcli/metrics/chrf.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <deque>
#include <unordered_map>

#include "evalcli/core/error.hpp"
#include "evalcli/core/numbers.hpp"
#include "evalcli/metrics/text_options.hpp"
#include "evalcli/text/detail/pair_interner.hpp"
#include "evalcli/text/detail/string_interner.hpp"
#include "evalcli/text/unicode.hpp"

namespace evalcli {

std::u32string chrf_char_text(std::u32string_view line, bool keep_whitespace) {
  if (keep_whitespace) return std::u32string(line);
  std::u32string out;
  out.reserve(line.size());
  for (char32_t c : line) {
    if (!text::is_space(c)) out.push_back(c);
  }
  return out;
}

std::vector<std::u32string_view> chrf_words(std::u32string_view line) {
  std::vector<std::u32string_view> words;
  for (const auto word : text::split(line)) {
    if (word.size() > 1 && text::is_ascii_punct(word.back())) {
      words.push_back(word.substr(0, word.size() - 1));
      words.push_back(word.substr(word.size() - 1));
    } else if (word.size() > 1 && text::is_ascii_punct(word.front())) {
      words.push_back(word.substr(0, 1));
      words.push_back(word.substr(1));
    } else {
      words.push_back(word);
    }
  }
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

// Character n-gram ids of one segment without hashing. The hypothesis's
// distinct characters get dense ids 0..width-1; the id of an n-gram is then
// table[(id of its first n-1 characters) * width + id of its last character]
// (ids start at 1; a unigram's id is its character's number + 1, and 0
// marks an empty slot or an n-gram the hypothesis lacks), a plain array read. The
// table holds (1 + ngrams) * width slots, so a segment whose table would be too
// large falls back to the PairInterner. Only the slots a segment set are
// cleared afterwards.
class DenseCharNgrams {
 public:
  static constexpr std::uint32_t kAbsent = 0xFFFFFFFFu;  // a character the hypothesis lacks
  static constexpr std::size_t kMaxSlots = std::size_t{1} << 22;

  DenseCharNgrams() : direct_(kDirect, 0) {}

  // Replaces each code point of the hypothesis by its dense id, numbering new ones;
  // false (and nothing kept) when the table for `char_order` would exceed kMaxSlots.
  bool number_hypothesis(std::vector<std::uint32_t>& items, int char_order) {
    for (auto& c : items) {
      std::uint32_t& slot = slot_of(c);
      if (slot == 0) {
        chars_.push_back(c);
        slot = static_cast<std::uint32_t>(chars_.size());
      }
      c = slot - 1;
    }
    width_ = chars_.size();
    const std::size_t slots = (1 + items.size() * static_cast<std::size_t>(char_order)) * width_;
    if (slots > kMaxSlots) {
      for (auto& c : items) c = chars_[c];  // the code points again
      clear();
      return false;
    }
    if (table_.size() < slots) table_.resize(slots, 0);
    return true;
  }
  // Replaces each code point of a reference by its dense id, or kAbsent.
  void number_reference(std::vector<std::uint32_t>& items) {
    for (auto& c : items) c = c < kDirect ? direct_[c] - 1 : find_other(c);  // 0 - 1 = kAbsent
  }

  // The ids of the hypothesis's n-grams of orders 1..max_order (items numbered).
  // Without branches (whether an n-gram is new is a coin toss at low orders):
  // every slot read is written back, and the new-id counter moves by 0 or 1.
  void extract(std::span<const std::uint32_t> items, int max_order, std::vector<std::vector<std::uint32_t>>& ids,
               std::vector<std::uint32_t>& prefix) {
    // Unigrams need no table: characters are numbered in order of first
    // occurrence, which is the order unigram ids are handed out in, so a
    // character's unigram id is its number + 1.
    prefix.resize(items.size());
    ids[0].resize(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) prefix[i] = ids[0][i] = items[i] + 1;
    touched_.resize(items.size() * static_cast<std::size_t>(max_order));
    std::uint32_t* const table = table_.data();
    std::size_t* const touched = touched_.data();
    const std::size_t width = width_;
    std::uint32_t next_id = static_cast<std::uint32_t>(width_) + 1;
    std::size_t touched_count = 0;
    for (int n = 2; n <= max_order; ++n) {
      auto& out = ids[static_cast<std::size_t>(n - 1)];
      const std::size_t count = items.size() >= static_cast<std::size_t>(n) ? items.size() - n + 1 : 0;
      out.resize(count);
      if (count == 0) continue;  // (and `items` may be empty: no pointer arithmetic on its null data())
      std::uint32_t* const out_ids = out.data();
      const std::uint32_t* const last = items.data() + (n - 1);
      for (std::size_t i = 0; i < count; ++i) {
        const std::size_t at = prefix[i] * width + last[i];
        const std::uint32_t found = table[at];
        const std::uint32_t is_new = found == 0 ? 1 : 0;
        const std::uint32_t id = is_new ? next_id : found;
        table[at] = id;
        touched[touched_count] = at;
        touched_count += is_new;
        next_id += is_new;
        prefix[i] = id;
        out_ids[i] = id;
      }
    }
    touched_.resize(touched_count);
    next_id_ = next_id;
  }
  // Like extract for a reference (items numbered): ids of the n-grams the
  // hypothesis has, totals of all n-grams per order. Also without branches:
  // a missing n-gram reads slot 0 and is masked to id 0 ("absent").
  void find(std::span<const std::uint32_t> items, int max_order, std::vector<std::vector<std::uint32_t>>& ids,
            std::vector<std::size_t>& totals, std::vector<std::uint32_t>& prefix) const {
    prefix.assign(items.size(), 0);  // 0 = the root for order 1, then "absent"
    for (int n = 1; n <= max_order; ++n) {
      auto& out = ids[static_cast<std::size_t>(n - 1)];
      const std::size_t count = items.size() >= static_cast<std::size_t>(n) ? items.size() - n + 1 : 0;
      totals[static_cast<std::size_t>(n - 1)] = count;
      out.resize(count);
      if (width_ == 0 || count == 0) {  // an empty hypothesis (the table may be empty) or no n-gram of this order
        out.clear();
        continue;
      }
      const std::uint32_t* const table = table_.data();
      const std::size_t width = width_;
      std::uint32_t* const out_ids = out.data();
      const std::uint32_t* const last = items.data() + (n - 1);
      std::size_t found_count = 0;
      for (std::size_t i = 0; i < count; ++i) {
        const std::uint32_t c = last[i];
        if (n == 1) {  // the unigram id (see extract); kAbsent + 1 wraps to 0
          prefix[i] = c + 1;
          out_ids[found_count] = c + 1;
          found_count += c != kAbsent ? 1 : 0;
          continue;
        }
        const bool known = prefix[i] != 0 && c != kAbsent;
        const std::size_t at = known ? prefix[i] * width + c : 0;
        const std::uint32_t id = known ? table[at] : 0;
        prefix[i] = id;
        out_ids[found_count] = id;
        found_count += id != 0 ? 1 : 0;
      }
      out.resize(found_count);
    }
  }

  // One past the largest n-gram id handed out.
  std::uint32_t next_id() const { return next_id_; }

  // Forgets the segment: the table and the character ids are all zero again.
  void clear() {
    for (const std::size_t at : touched_) table_[at] = 0;
    touched_.clear();
    for (const std::uint32_t c : chars_) slot_of(c) = 0;
    chars_.clear();
    other_.clear();
    next_id_ = 1;
  }

 private:
  static constexpr std::uint32_t kDirect = 0x10000;  // code points with a direct id slot

  std::uint32_t& slot_of(std::uint32_t c) {
    return c < kDirect ? direct_[c] : other_[c];
  }
  std::uint32_t find_other(std::uint32_t c) const {
    const auto found = other_.find(c);
    return found == other_.end() ? kAbsent : found->second - 1;
  }

  std::vector<std::uint32_t> direct_;                    // code point -> dense id + 1 (0: none)
  std::unordered_map<std::uint32_t, std::uint32_t> other_;  // the same above U+FFFF
  std::vector<std::uint32_t> chars_;                     // the segment's characters, in id order
  std::vector<std::uint32_t> table_;
  std::vector<std::size_t> touched_;
  std::size_t width_ = 0;
  std::uint32_t next_id_ = 1;
};

struct Workspace {
  text::PairInterner ngrams;
  DenseCharNgrams dense_chars;
  bool chars_dense = false;  // this segment's character n-grams use dense_chars
  // Word ids of the segment; keys view the input lines or strings in keep_alive
  // (a deque: its elements never move while the segment is processed).
  text::StringInterner words;
  std::deque<std::u32string> keep_alive;
  std::vector<std::uint32_t> items, prefix;
  SideNgrams hyp, ref;
  std::vector<std::uint32_t> ref_counts;
  std::vector<Stat> stats, best;
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

// N-gram ids of one line, all character orders then all word orders. With a
// tokenizer, the n-grams are those of the tokenizer's output text (tokens joined by
// one space), taken as SacreBLEU takes them from any text: the same numbers as
// `evalcli tokenize ... | sacrebleu -m chrf`.
// The hypothesis (`is_hyp`) interns its n-grams, a reference looks them up.
void line_ngrams(std::u32string_view line, bool is_hyp, const ChrfOptions& options, const TextPipeline& pipeline,
                 Workspace& ws, SideNgrams& side) {
  const auto nc = static_cast<std::size_t>(options.char_order);
  side.ids.resize(nc + static_cast<std::size_t>(options.word_order));
  side.totals.resize(side.ids.size());
  if (!options.tokenizer.empty()) {
    line = ws.keep_alive.emplace_back(pipeline.process(line));
  } else if (pipeline.has_normalizers() || pipeline.lowercase()) {
    line = ws.keep_alive.emplace_back(pipeline.normalize(line));
  }
  ws.items.clear();
  for (char32_t c : line) {
    if (options.whitespace || !text::is_space(c)) ws.items.push_back(static_cast<std::uint32_t>(c));
  }
  if (is_hyp) {
    ws.chars_dense = options.char_order > 0 && ws.dense_chars.number_hypothesis(ws.items, options.char_order);
    if (ws.chars_dense) {
      ws.dense_chars.extract(ws.items, options.char_order, side.ids, ws.prefix);
      ws.ngrams.clear(ws.dense_chars.next_id());  // word n-gram ids follow the character ones
    } else {
      extract_ngrams(ws.items, kCharRoot, options.char_order, ws.ngrams, side.ids, 0, ws.prefix);
    }
  } else if (ws.chars_dense) {
    ws.dense_chars.number_reference(ws.items);
    ws.dense_chars.find(ws.items, options.char_order, side.ids, side.totals, ws.prefix);
  } else {
    find_ngrams(ws.items, kCharRoot, options.char_order, ws.ngrams, side, 0, ws.prefix);
  }
  if (options.word_order == 0) return;

  ws.items.clear();
  if (is_hyp) {
    for (const auto word : chrf_words(line)) ws.items.push_back(ws.words.id(word));
    extract_ngrams(ws.items, kWordRoot, options.word_order, ws.ngrams, side.ids, nc, ws.prefix);
  } else {
    // A word the hypothesis lacks is kAbsent, which no hypothesis unigram has as its item.
    for (const auto word : chrf_words(line)) ws.items.push_back(ws.words.find(word));
    find_ngrams(ws.items, kWordRoot, options.word_order, ws.ngrams, side, nc, ws.prefix);
  }
}

}  // namespace

void Chrf::segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs, Stat* out) const {
  thread_local Workspace ws;
  const std::size_t orders = num_orders();
  ws.ngrams.clear();
  ws.dense_chars.clear();
  ws.words.clear();
  ws.keep_alive.clear();
  std::fill(out, out + 3 * orders, 0.0);
  if (refs.empty()) return;
  line_ngrams(hyp, true, options_, *pipeline_, ws, ws.hyp);
  ws.stats.assign(3 * orders, 0.0);
  double best_f = -1.0;
  for (const auto& ref : refs) {
    line_ngrams(ref, false, options_, *pipeline_, ws, ws.ref);
    // Every entry is zero between uses (the loop below resets what it counts).
    if (ws.ref_counts.size() < ws.ngrams.next_id()) ws.ref_counts.resize(ws.ngrams.next_id(), 0);
    for (std::size_t k = 0; k < orders; ++k) {
      const auto& ref_ids = ws.ref.ids[k];
      const auto& hyp_ids = ws.hyp.ids[k];
      for (auto id : ref_ids) ++ws.ref_counts[id];
      // sum over distinct hyp n-grams of min(hyp count, ref count)
      std::size_t match = 0;
      for (auto id : hyp_ids) {  // without a branch: whether it matches is a coin toss
        const std::uint32_t left = ws.ref_counts[id];
        const std::uint32_t matched = left > 0 ? 1 : 0;
        ws.ref_counts[id] = left - matched;
        match += matched;
      }
      for (auto id : ref_ids) ws.ref_counts[id] = 0;
      // The hypothesis count is reported as 0 when the reference has no n-gram of this order.
      const std::size_t ref_total = ws.ref.totals[k];
      ws.stats[3 * k] = ref_total == 0 ? 0.0 : static_cast<Stat>(hyp_ids.size());
      ws.stats[3 * k + 1] = static_cast<Stat>(ref_total);
      ws.stats[3 * k + 2] = static_cast<Stat>(match);
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
