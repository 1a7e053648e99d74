#include "evalcli/metrics/ter.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "evalcli/core/error.hpp"
#include "evalcli/core/strings.hpp"
#include "evalcli/metrics/text_options.hpp"
#include "evalcli/text/detail/string_interner.hpp"
#include "evalcli/text/unicode.hpp"

namespace evalcli {

namespace {

// Interns the space-separated words of tokenized lines into small integers,
// in order of first appearance; only equality matters to TER. The table is
// cleared in O(1) per segment, so a segment allocates nothing here.
class WordInterner {
 public:
  void clear() { words_.clear(); }
  void add_line(std::u32string_view line, std::vector<std::uint32_t>& out) {
    out.clear();
    std::size_t i = 0;
    while (i < line.size()) {
      const std::size_t end = find_code_point(line, U' ', i);
      if (end > i) {
        out.push_back(words_.id(line.substr(i, end - i)));
      }
      i = end + 1;
    }
  }

 private:
  text::StringInterner words_;  // views into the segment's tokenized lines
};

}  // namespace

Ter::Ter(TerOptions options) : options_(std::move(options)), tercom_(options_.tercom) {
  const auto& t = options_.tercom;
  if (!options_.tokenizer.empty()) {
    if (t.normalized || t.no_punct || t.asian_support) {
      throw usage_error("--tokenize replaces the TER (tercom) tokenizer: it cannot be combined with "
                        "--ter-normalized, --ter-no-punct or --ter-asian-support");
    }
    PipelineOptions text;
    text.normalizers = options_.normalizers;
    text.lowercase = !t.case_sensitive;
    text.tokenizer = options_.tokenizer;
    pipeline_ = std::make_unique<TextPipeline>(text);
  } else if (!options_.normalizers.empty()) {
    PipelineOptions text;  // normalizers only; tercom lowercases and tokenizes
    text.normalizers = options_.normalizers;
    text.tokenizer = "none";
    pipeline_ = std::make_unique<TextPipeline>(text);
  }
}

std::u32string Ter::tokenize(std::u32string_view line) const {
  line = text::rstrip(line);
  if (!pipeline_) return tercom_.tokenize(line);
  if (!options_.tokenizer.empty()) return pipeline_->process(line);
  return tercom_.tokenize(text::rstrip(pipeline_->normalize(line)));
}

// SacreBLEU 2.x tokenizes each reference twice (metrics/base.py _cache_references,
// then metrics/ter.py _extract_reference_info, each through _preprocess_segment);
// Tercom normalisation is not idempotent ("donald's ," -> "donald 's ,"). tercom-v1
// tokenized once. The second pass is the Tercom tokenizer alone, as in SacreBLEU.
std::u32string Ter::tokenize_reference(std::u32string_view line) const {
  std::u32string once = tokenize(line);
  if (!options_.tokenizer.empty() || options_.tercom.version < 2) return once;
  return tercom_.tokenize(text::rstrip(once));
}

void Ter::segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs, Stat* out) const {
  thread_local WordInterner interner;
  thread_local std::vector<std::uint32_t> hyp_words, ref_words;
  const std::u32string hyp_text = tokenize(hyp);
  std::vector<std::u32string> ref_texts;
  ref_texts.reserve(refs.size());
  for (const auto& ref : refs) ref_texts.push_back(tokenize_reference(ref));

  interner.clear();
  interner.add_line(hyp_text, hyp_words);
  std::int64_t best_edits = 0;
  std::int64_t ref_lengths = 0;
  for (std::size_t r = 0; r < ref_texts.size(); ++r) {
    interner.add_line(ref_texts[r], ref_words);
    const std::int64_t edits = ter_edits(hyp_words, ref_words);
    ref_lengths += static_cast<std::int64_t>(ref_words.size());
    if (r == 0 || edits < best_edits) best_edits = edits;
  }
  out[0] = static_cast<Stat>(best_edits);
  // Python: ref_lengths / len(refs), a true division.
  out[1] = refs.empty() ? 0.0 : static_cast<double>(ref_lengths) / static_cast<double>(refs.size());
}

double Ter::score(std::span<const Stat> stats) const {
  const double edits = stats[0], ref_length = stats[1];
  if (ref_length > 0) return 100 * (edits / ref_length);
  return edits > 0 ? 100.0 : 0.0;  // empty references: 100 if anything was hypothesised
}

// SacreBLEU's bootstrap divides two float32 sums in float32, then multiplies by 100 in double.
double Ter::score_float32(std::span<const float> stats) const {
  const float edits = stats[0], ref_length = stats[1];
  if (ref_length > 0) return 100 * static_cast<double>(edits / ref_length);
  return edits > 0 ? 100.0 : 0.0;
}

std::vector<SacrebleuField> Ter::sacrebleu_fields() const { return print_sacrebleu_fields(ter_definition(), *this); }

std::string Ter::signature() const { return print_signature(ter_definition(), *this); }

nlohmann::json Ter::details(std::span<const Stat> stats) const {
  return {{"num_edits", static_cast<std::int64_t>(stats[0])}, {"ref_length", stats[1]}};
}

// ---------------------------------------------------------------- definition

namespace {

// SacreBLEU 1.x: tok.tercom-nonorm-punct-noasian-uncased. 1.5.1's TER.corpus_score tokenized
// each reference once (sacrebleu/metrics/ter.py:143), as tercom-v1 does.
void apply_legacy_tok(const std::string& value, OptionValues& values) {
  values.set("tercom-version", "1");
  std::size_t start = value.find('-') + 1;
  for (std::size_t dash = 0; dash != std::string::npos; start = dash + 1) {
    dash = value.find('-', start);
    const std::string part = value.substr(start, dash == std::string::npos ? dash : dash - start);
    if (part == "norm" || part == "nonorm") {
      values.set_flag("ter-normalized", part == "norm");
    } else if (part == "punct" || part == "nopunct") {
      values.set_flag("ter-no-punct", part == "nopunct");
    } else if (part == "asian" || part == "noasian") {
      values.set_flag("ter-asian-support", part == "asian");
    } else if (part == "cased" || part == "uncased") {
      values.set_flag("ter-case-sensitive", part == "cased");
    } else {
      throw usage_error(fmt::format("signature: unknown TER tokenizer part '{}' in '{}'", part, value));
    }
  }
}

// tok: tercom (SacreBLEU 2.x), tercom-v1/-v2 (evalcli), tercom-... (1.x), or an evalcli tokenizer id.
void apply_tok_field(const std::string& value, OptionValues& values) {
  // The tercom options come in their own fields. SacreBLEU's "tercom" is the double pass (v2).
  if (value == "tercom" || value == "tercom-v2") return;
  if (value == "tercom-v1") return values.set("tercom-version", "1");
  if (value.rfind("tercom-", 0) == 0) return apply_legacy_tok(value, values);
  const std::string name = value.substr(0, value.rfind("-v"));
  if (make_tokenizer(name)->id() != value) {
    throw usage_error(fmt::format("signature names tokenizer '{}', which this evalcli cannot reproduce", value));
  }
  values.set("tokenize", name);
}

// --ter-asian-support, or -l with a Chinese or Japanese target (TER's own
// treatment of CJK characters; SacreBLEU's TER has no language default).
bool asian_support(const OptionValues& values) {
  const std::string language = target_language(values);
  return values.flag("ter-asian-support") || language == "zh" || language == "ja";
}

// A Tercom option's field: printed with Tercom's tokenization, not with --tokenize's.
template <class Get>
FieldPrinter tercom_field(Get get) {
  return field_printer<Ter>([get](const Ter& t) -> std::optional<std::string> {
    if (!t.options().tokenizer.empty()) return std::nullopt;
    return flag_value(get(t.options().tercom));
  });
}

std::unique_ptr<StatsModel> build_ter(const OptionValues& values, const BuildContext&) {
  TerOptions ter;
  ter.tercom.case_sensitive = values.flag("ter-case-sensitive");
  ter.tercom.normalized = values.flag("ter-normalized");
  ter.tercom.no_punct = values.flag("ter-no-punct");
  ter.tercom.asian_support = asian_support(values);
  ter.tercom.version = values.integer("tercom-version", 2);  // only a signature sets it
  ter.tokenizer = values.text("tokenize");
  ter.normalizers = values.list("normalize");
  return std::make_unique<Ter>(ter);
}

MetricDefinition make_ter_definition() {
  const TextOptionSpecs text{.tokenize_help = "use this tokenizer instead of Tercom's (evalcli extension)",
                             .lowercase = false,
                             .norm_key = "prenorm",
                             .tok_key = false,
                             .jieba = false,
                             .language = true,
                             .pipeline = [](const StatsModel& model) -> const TextPipeline* {
                               const auto* ter = dynamic_cast<const Ter*>(&model);
                               return ter == nullptr ? nullptr : ter->text_pipeline();
                             }};
  MetricDefinition d;
  d.command = "ter";
  d.summary = "TER (SacreBLEU-compatible numbers)";
  d.names = {"TER"};
  d.higher_is_better = false;
  d.options = {
      {.name = "ter-case-sensitive",
       .kind = OptionKind::flag,
       .help = "do not lowercase (TER lowercases by default)",
       .signature_key = "case",
       .signature_short_key = "c",
       .flag_words = {"mixed", "lc"},
       .print = field_printer<Ter>([](const Ter& t) { return flag_value(t.options().tercom.case_sensitive); })},
      {.name = "ter-normalized",
       .kind = OptionKind::flag,
       .help = "Tercom normalisation (punctuation tokenization, entities)",
       .signature_key = "norm",
       .signature_short_key = "nr",
       .print = tercom_field([](const TercomOptions& t) { return t.normalized; })},
      {.name = "ter-no-punct",
       .kind = OptionKind::flag,
       .help = "remove punctuation",
       .signature_key = "punct",
       .signature_short_key = "pn",
       .flag_words = {"no", "yes"},
       .print = tercom_field([](const TercomOptions& t) { return t.no_punct; })},
      {.name = "ter-asian-support",
       .kind = OptionKind::flag,
       .help = "Asian-language tokenization (CJK characters split, as SacreBLEU's --ter-asian-support)",
       .signature_key = "asian",
       .signature_short_key = "as",
       .print = tercom_field([](const TercomOptions& t) { return t.asian_support; })},
  };
  const auto shared = text_option_specs(text);
  d.options.insert(d.options.end(), shared.begin(), shared.end());
  d.options.push_back(refused_lowercase("TER lowercases by default (SacreBLEU's case:lc); --ter-case-sensitive compares case"));
  d.signature_keys = text_signature_keys(text);
  d.signature_keys.push_back({"tok", "t", apply_tok_field, field_printer<Ter>([](const Ter& t) {
                                return t.options().tokenizer.empty() ? t.tercom().id() : t.text_pipeline()->tokenizer().id();
                              })});
  // "norm" is taken by SacreBLEU's --ter-normalized: the normalizer chain is "prenorm".
  d.signature_layout = {"case", "tok", "norm", "punct", "asian", "prenorm"};
  d.sacrebleu_layout = {{"case", "c"},
                        {"tok", "t", fixed_value("tercom")},
                        {"norm", "nr"},
                        {"punct", "pn"},
                        {"asian", "as"}};
  d.signature_keys.push_back({"metric", "", [](const std::string& value, OptionValues&) {
                                if (value != "TER") throw usage_error(fmt::format("signature is for {}, not TER", value));
                              }});
  d.build = build_ter;
  d.word_tokenizer = [](const OptionValues& values) -> std::string {
    if (asian_support(values)) return "";  // CJK characters are split
    return values.text("tokenize", "tercom");
  };
  return d;
}

}  // namespace

const MetricDefinition& ter_definition() {
  static const MetricDefinition definition = make_ter_definition();
  return definition;
}

}  // namespace evalcli
