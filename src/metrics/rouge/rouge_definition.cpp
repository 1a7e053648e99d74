// The `rouge` metric declared once (evalcli/metrics/definition.hpp):
// rouge-score 0.1.2 (--compat rouge-score, default) and ROUGE-1.5.5.pl
// (--compat rouge155) share one option table; the signature's compat: field
// says which one a run was.
#include <fmt/format.h>

#include <cstdlib>
#include <type_traits>

#include "evalcli/core/error.hpp"
#include "evalcli/core/strings.hpp"
#include "evalcli/metrics/rouge.hpp"
#include "evalcli/metrics/text_options.hpp"
#include "evalcli/text/utf8.hpp"
#include "evalcli/tokenize/tokenizer.hpp"

namespace evalcli {
namespace {

// pyrouge's flags, used when --rouge155-flags is not given.
constexpr const char* kPyrougeFlags = "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a";

// "tab" -> TAB, "newline" -> "\n", "none"/"" -> none, anything else literally.
std::pair<std::u32string, std::string> sentence_separator(const std::string& value) {
  if (value.empty() || value == "none") return {U"", "none"};
  if (value == "tab") return {U"\t", "tab"};
  if (value == "newline") return {U"\n", "newline"};
  return {utf8::decode_or_throw(value, "--sentence-sep"), "lit[" + value + "]"};
}

// --types rouge1,rougeL (repeatable): the types in order.
std::vector<RougeScoreType> score_types(const OptionValues& values) {
  std::vector<RougeScoreType> types;
  for (const auto& list : values.list("types")) {
    for (const auto name : split(list, ',')) {
      if (!name.empty()) types.push_back(parse_rouge_score_type(std::string(name)));
    }
  }
  return types;
}

// tok: rouge-score's or ROUGE-1.5.5's own tokenization, or an evalcli
// tokenizer with ROUGE's token rule ("zh-char-v1+words-v2"; ROUGE-1.5.5 then
// maps the tokens to hex ids: "zh-char-v1+words-v2+hexids").
void apply_tok(const std::string& value, OptionValues& values) {
  if (value == "rouge-ascii-v1" || value == "rouge155-bytes-v1") return;
  std::string id = value.ends_with("+hexids") ? value.substr(0, value.size() - 7) : value;
  if (!id.ends_with(kRougeWordsRule)) {
    // Earlier evalcli printed no rule: rouge-score mode dropped Han radicals,
    // ROUGE-1.5.5 mode kept every token unchanged (punctuation, upper case).
    const bool older = id.find("+words-") == std::string::npos;
    throw usage_error(fmt::format("signature: 'tok:{}' is ROUGE with the token rule {}, which this evalcli does not "
                                  "reproduce (it has {}: docs/rouge.md)",
                                  value, older ? "words-v1 (an older evalcli)" : id.substr(id.find("+words-") + 1),
                                  std::string(kRougeWordsRule).substr(1)));
  }
  id.resize(id.size() - std::string_view(kRougeWordsRule).size());
  values.set("tokenize", tokenizer_from_signature(id, tokenizer_options(values))->name());
}

// sent: none / tab / newline / lit[<text>] as printed.
void apply_sent(const std::string& value, OptionValues& values) {
  if (value == "none" || value == "tab" || value == "newline") return values.set("sentence-sep", value == "none" ? "" : value);
  if (value.starts_with("lit[") && value.ends_with("]")) return values.set("sentence-sep", value.substr(4, value.size() - 5));
  throw usage_error(fmt::format("signature: unknown sentence separator 'sent:{}'", value));
}

// ROUGE-1.5.5's flags in a canonical form: "-c 95 -r 1000 -n 4 -w 1.2 -U".
std::string rouge155_flags_field(const Rouge155Options& o) {
  std::string flags = fmt::format("-c {} -r {}", o.confidence, o.resamples);
  if (o.max_ngram > 0) flags += fmt::format(" -n {}", o.max_ngram);
  if (!o.lcs) flags += " -x";
  if (o.wlcs_weight) flags += " -w " + *o.wlcs_weight;
  if (o.skip_distance) flags += fmt::format(" -2 {}", *o.skip_distance);
  if (o.skip_unigram) flags += " -u";
  if (o.skip_both) flags += " -U";
  if (o.stem) flags += " -m";
  if (o.stem_models) flags += " -M";
  if (o.stopwords) flags += " -s";
  if (o.scoring != 'A') flags += " -f B";
  if (o.alpha != 0.5) flags += fmt::format(" -p {}", o.alpha);
  if (o.counting != 0) flags += fmt::format(" -t {}", o.counting);
  if (o.word_limit != 0) flags += fmt::format(" -l {}", o.word_limit);
  if (o.byte_limit != 0) flags += fmt::format(" -b {}", o.byte_limit);
  return flags;
}

// A field printed the same for both modes, from either metric class.
template <class Get>
FieldPrinter either_mode(Get get) {
  return [get](const StatsModel& model) -> std::optional<std::string> {
    if (const auto* m = dynamic_cast<const RougeScoreMetric*>(&model)) return get(*m);
    if (const auto* m = dynamic_cast<const Rouge155Metric*>(&model)) return get(*m);
    return std::nullopt;
  };
}

// tok: the shared tokenizer with ROUGE's token rule (ROUGE-1.5.5 then maps tokens to hex ids), or the mode's own.
std::string tok_field(const RougeScoreMetric& m) {
  return m.uses_ascii_tokenizer() ? "rouge-ascii-v1" : m.pipeline().tokenizer().id() + kRougeWordsRule;
}
std::string tok_field(const Rouge155Metric& m) {
  return m.uses_byte_tokenizer() ? "rouge155-bytes-v1" : m.pipeline().tokenizer().id() + kRougeWordsRule + "+hexids";
}

std::string types_field(const RougeScoreMetric& m) {
  std::string types;
  // Appended piece by piece: `"+" + name()` trips GCC 12's -Wstringop-overflow false positive.
  for (const auto& type : m.options().types) {
    if (!types.empty()) types += '+';
    types += type.name();
  }
  return types;
}

void apply_compat(const std::string& value, OptionValues& values) {
  if (value == "rouge-score-0.1.2") return values.set("compat", "rouge-score");
  if (value == "rouge155") return values.set("compat", "rouge155");
  throw usage_error(fmt::format("signature: unknown ROUGE compat '{}'", value));
}

std::unique_ptr<StatsModel> build_rouge(const OptionValues& values, const BuildContext&) {
  if (values.text("compat", "rouge-score") == "rouge155") return std::make_unique<Rouge155Metric>(rouge155_options(values));
  return std::make_unique<RougeScoreMetric>(rouge_score_options(values));
}

std::vector<OptionSpec> rouge155_option_specs() {
  return {
      {.name = "rouge155-data",
       .help = "ROUGE-1.5.5 data folder (WordNet exceptions, smart_common_words.txt; default $ROUGE_EVAL_HOME)",
       .role = OptionRole::resource},
      {.name = "rouge155-flags",
       .help = "ROUGE-1.5.5.pl flags as given to the script (default pyrouge's: " + std::string(kPyrougeFlags) + ")"},
      {.name = "rouge155-config",
       .help = "score a ROUGE-1.5.5 / pyrouge XML settings file (or a -z file list) as the script does",
       .role = OptionRole::resource},
      {.name = "rouge155-system",
       .help = "with --rouge155-config: the peer ID to score (the script's systemID argument)",
       .role = OptionRole::resource},
      {.name = "rouge155-output",
       .kind = OptionKind::flag,
       .help = "print ROUGE-1.5.5's text report byte for byte",
       .role = OptionRole::no_effect},
      {.name = "max-ngram", .kind = OptionKind::integer, .help = "ROUGE-1.5.5 -n", .min = 0, .max = 9},
      {.name = "no-lcs", .kind = OptionKind::flag, .help = "ROUGE-1.5.5 -x"},
      {.name = "wlcs-weight", .help = "ROUGE-1.5.5 -w"},
      {.name = "skip-distance", .kind = OptionKind::integer, .help = "ROUGE-1.5.5 -2 (negative = unlimited)"},
      {.name = "stopwords", .kind = OptionKind::flag, .help = "ROUGE-1.5.5 -s"},
      {.name = "scoring", .help = "ROUGE-1.5.5 -f A|B", .choices = {"A", "B"}},
      {.name = "alpha", .kind = OptionKind::real, .help = "ROUGE-1.5.5 -p", .min = 0, .max = 1},
      {.name = "counting", .kind = OptionKind::integer, .help = "ROUGE-1.5.5 -t 0|1|2", .min = 0, .max = 2},
      {.name = "word-limit", .kind = OptionKind::integer, .help = "ROUGE-1.5.5 -l", .min = 0},
      {.name = "byte-limit", .kind = OptionKind::integer, .help = "ROUGE-1.5.5 -b", .min = 0},
      {.name = "resamples", .kind = OptionKind::integer, .help = "ROUGE-1.5.5 -r", .min = 1},
      {.name = "per-doc",
       .kind = OptionKind::flag,
       .help = "ROUGE-1.5.5 -d (per-document lines in the report)",
       .role = OptionRole::no_effect},
  };
}

MetricDefinition make_rouge_definition() {
  const TextOptionSpecs text{
      .tokenize_help = "a shared-pipeline tokenizer instead of the ASCII one: zh-char, zh-jieba, ja-mecab, intl, char, ...",
      .lowercase = false,
      .tok_key = false,
      .language = true,
      .language_alias = "--lang",
      .pipeline = [](const StatsModel& model) -> const TextPipeline* {
        if (const auto* m = dynamic_cast<const RougeScoreMetric*>(&model)) return &m->pipeline();
        if (const auto* m = dynamic_cast<const Rouge155Metric*>(&model)) return &m->pipeline();
        return nullptr;
      },
      .norm_when_none = true};
  MetricDefinition d;
  d.command = "rouge";
  d.summary = "ROUGE (rouge-score 0.1.2 or ROUGE-1.5.5 numbers)";
  d.names = {"ROUGE"};
  d.default_width = 5;
  d.score_scale = 1;
  d.options = {
      {.name = "compat",
       .help = "rouge-score (default, HF evaluate numbers) or rouge155 (ROUGE-1.5.5.pl)",
       .choices = {"rouge-score", "rouge155"}},
      {.name = "types",
       .kind = OptionKind::list,
       .help = "rouge-score types, comma-separated: rouge1..rouge9, rougeL, rougeLsum"},
      {.name = "stem", .kind = OptionKind::flag, .help = "Porter stemming (rouge-score: NLTK variant; rouge155: -m)"},
      {.name = "sentence-sep",
       .help = "sentence separator inside a line for rougeLsum / ROUGE-1.5.5 sentences: tab, newline, none or a "
               "literal such as <n>"},
  };
  const auto shared = text_option_specs(text);
  d.options.insert(d.options.end(), shared.begin(), shared.end());
  // rouge-score's BootstrapAggregator (HF evaluate's confidence level and --seed N);
  // the shared bootstrap interval of every metric is --confidence (-ci, --ci).
  d.options.insert(d.options.end(),
                   {
                       {.name = "bootstrap",
                        .kind = OptionKind::integer,
                        .help = "rouge-score BootstrapAggregator samples (0 = off; HF uses 1000)",
                        .min = 0,
                        .signature_key = "boot"},
                       {.name = "seed",
                        .kind = OptionKind::integer,
                        .help = "bootstrap seed (numpy.random.seed)",
                        .min = 0,
                        .max = 4294967295.0},
                       {.name = "bootstrap-confidence",
                        .kind = OptionKind::real,
                        .help = "confidence level of --bootstrap's interval (rouge-score's, HF evaluate's confidence_level)",
                        .min = 0,
                        .max = 1,
                        .signature_key = "ci"},
                   });
  const auto rouge155 = rouge155_option_specs();
  d.options.insert(d.options.end(), rouge155.begin(), rouge155.end());
  d.options.push_back(refused_lowercase("rouge-score and ROUGE-1.5.5 lowercase every text themselves"));
  d.signature_keys = text_signature_keys(text);
  d.signature_keys.insert(d.signature_keys.end(),
                          {
                              {"compat", "", apply_compat, either_mode([](const auto& m) {
                                 using Mode = std::decay_t<decltype(m)>;
                                 return std::string(std::is_same_v<Mode, Rouge155Metric> ? "rouge155" : "rouge-score-0.1.2");
                               })},
                              {"types", "",
                               [](const std::string& value, OptionValues& values) {
                                 std::string list = value;
                                 std::replace(list.begin(), list.end(), '+', ',');
                                 values.set_list("types", {list});
                               },
                               field_printer<RougeScoreMetric>(types_field)},
                              {"tok", "", apply_tok, either_mode([](const auto& m) { return tok_field(m); })},
                              {"stem", "",
                               [](const std::string& value, OptionValues& values) {
                                 // The stemmer's version is checked when the rebuilt signature is printed.
                                 values.set_flag("stem", value != "no");
                               },
                               either_mode([](const auto& m) { return m.stemmer_id(); })},
                              {"sent", "", apply_sent,
                               either_mode([](const auto& m) { return m.options().sentence_separator_label; })},
                              {"multiref", "",
                               [](const std::string& value, OptionValues&) {
                                 if (value != "max-f") throw usage_error(fmt::format("signature: unknown multiref '{}'", value));
                               },
                               field_printer<RougeScoreMetric>([](const RougeScoreMetric&) { return std::string("max-f"); })},
                              {"flags", "",
                               [](const std::string& value, OptionValues& values) { values.set("rouge155-flags", value); },
                               field_printer<Rouge155Metric>([](const Rouge155Metric& m) {
                                 return rouge155_flags_field(m.options());
                               })},
                          });
  d.signature_layout = {"compat", "types", "flags", "tok", "dict", "icu", "stem", "sent", "norm", "multiref"};
  d.build = build_rouge;
  // rouge-score's and ROUGE-1.5.5's own tokenizers keep ASCII letters and digits only.
  d.ascii_only_tokenizer = [](const OptionValues& values) { return chosen_tokenizer(values, "").empty(); };
  return d;
}

}  // namespace

RougeScoreOptions rouge_score_options(const OptionValues& values) {
  RougeScoreOptions options;
  options.types = score_types(values);
  options.stem = values.flag("stem");
  std::tie(options.sentence_separator, options.sentence_separator_label) = sentence_separator(values.text("sentence-sep"));
  options.tokenizer = chosen_tokenizer(values, "");  // "": ROUGE's own
  options.tokenizer_options = tokenizer_options(values);
  options.normalizers = values.list("normalize");
  return options;
}

Rouge155Options rouge155_options(const OptionValues& values) {
  Rouge155Options options;
  // The flags (pyrouge's without --rouge155-flags), then the long options over them.
  parse_rouge155_flags(values.text("rouge155-flags", kPyrougeFlags), options);
  if (values.has("max-ngram")) options.max_ngram = values.integer("max-ngram", 0);
  if (values.flag("no-lcs")) options.lcs = false;
  if (values.has("wlcs-weight")) options.wlcs_weight = values.text("wlcs-weight");
  if (values.has("skip-distance")) options.skip_distance = values.integer("skip-distance", -1);
  if (values.flag("stopwords")) options.stopwords = true;
  if (values.flag("stem")) options.stem = true;
  if (values.has("scoring")) options.scoring = values.text("scoring") == "B" ? 'B' : 'A';
  if (values.has("alpha")) options.alpha = values.real("alpha", options.alpha);
  if (values.has("counting")) options.counting = values.integer("counting", 0);
  if (values.has("word-limit")) options.word_limit = values.integer("word-limit", 0);
  if (values.has("byte-limit")) options.byte_limit = values.integer("byte-limit", 0);
  if (values.has("resamples")) options.resamples = values.integer("resamples", options.resamples);
  if (values.flag("per-doc")) options.per_doc = true;
  // The data folder: --rouge155-data, else ROUGE_EVAL_HOME.
  if (values.has("rouge155-data")) {
    options.data_dir = values.text("rouge155-data");
  } else if (const char* home = std::getenv("ROUGE_EVAL_HOME"); home != nullptr && options.data_dir.empty()) {
    options.data_dir = home;
  }
  std::tie(options.sentence_separator, options.sentence_separator_label) = sentence_separator(values.text("sentence-sep"));
  options.tokenizer = chosen_tokenizer(values, "");  // "": ROUGE's own
  options.tokenizer_options = tokenizer_options(values);
  options.normalizers = values.list("normalize");
  return options;
}

const MetricDefinition& rouge_definition() {
  static const MetricDefinition definition = make_rouge_definition();
  return definition;
}

}  // namespace evalcli
