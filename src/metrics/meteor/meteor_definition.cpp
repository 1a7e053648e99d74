// The `meteor` metric declared once (evalcli/metrics/definition.hpp): NLTK 3.8
// meteor_score (--compat nltk, default) and CMU METEOR 1.5 (--compat meteor15)
// share one option table; the signature's meteor: field says which one a run was.
#include <fmt/format.h>

#include <sstream>

#include "evalcli/core/error.hpp"
#include "evalcli/core/numbers.hpp"
#include "evalcli/metrics/meteor.hpp"
#include "evalcli/metrics/meteor15.hpp"
#include "evalcli/metrics/text_options.hpp"
#include "evalcli/metrics/wordnet.hpp"
#include "evalcli/tokenize/tokenizer.hpp"
#include "meteor15_internal.hpp"

namespace evalcli {
namespace {

// Options that only METEOR 1.5 reads.
constexpr const char* kMeteor15Only[] = {"meteor-resources", "norm", "paraphrase-table", "weights", "beam", "delta",
                                         "function-words"};
constexpr const char* kParaphraseFileRead = "signature-paraphrase-file";

std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// --lang, else the target of -l, else English.
std::string meteor_language(const OptionValues& values) {
  if (values.has("lang")) return values.text("lang");
  const std::string target = target_language(values);
  return target.empty() ? "en" : target;
}

// NLTK's alpha/beta/gamma as Python prints a float's shortest form ("0.9").
template <class Get>
FieldPrinter nltk_parameter(Get get) {
  return field_printer<NltkMeteor>([get](const NltkMeteor& m) { return fmt::format("{}", get(m.options())); });
}

std::unique_ptr<StatsModel> build_nltk(const OptionValues& values) {
  for (const char* option : kMeteor15Only) {
    if (values.has(option)) throw usage_error(fmt::format("--{} applies to --compat meteor15 only", option));
  }
  NltkMeteorOptions options;
  options.text.tokenizer = chosen_tokenizer(values, "none");
  options.text.normalizers = values.list("normalize");
  options.alpha = values.real("alpha", options.alpha);
  options.beta = values.real("beta", options.beta);
  options.gamma = values.real("gamma", options.gamma);
  // WordNet is English: other languages get the exact and stem stages only.
  options.synonyms = meteor_language(values) == "en";
  if (values.has("modules")) {
    const auto modules = split_words(values.text("modules"));
    if (modules.empty() || modules[0] != "exact") {
      throw usage_error("NLTK METEOR modules must start with 'exact' (known: exact stem synonym)");
    }
    options.stem = options.synonyms = false;
    for (std::size_t i = 1; i < modules.size(); ++i) {
      if (modules[i] == "stem") {
        options.stem = true;
      } else if (modules[i] == "synonym") {
        options.synonyms = true;
      } else {
        throw usage_error(fmt::format("unknown NLTK METEOR module '{}' (known: exact stem synonym)", modules[i]));
      }
    }
  }
  options.wordnet_dir = values.text("wordnet", WordNet::default_dir().string());
  options.aggregate = values.text("aggregate", "mean") == "mean" ? MeteorAggregate::mean : MeteorAggregate::summed_stats;
  return std::make_unique<NltkMeteor>(options);
}

std::unique_ptr<StatsModel> build_meteor15(const OptionValues& values) {
  if (values.has("wordnet")) throw usage_error("--wordnet applies to --compat nltk only (METEOR 1.5 has its own synonyms)");
  if (values.text("aggregate", "mean") != "mean") {
    throw usage_error("--aggregate applies to --compat nltk only (METEOR 1.5 always sums statistics)");
  }
  Meteor15Options options;
  options.language = meteor_language(values);
  options.tokenizer = chosen_tokenizer(values, "none");
  options.normalizers = values.list("normalize");
  options.normalization = parse_meteor15_normalization(values.text("norm", "none"));
  if (!values.has("meteor-resources")) {
    throw Error(ExitCode::missing_resource, "--compat meteor15 needs --meteor-resources DIR",
                "hint: point it at METEOR 1.5's resources/ folder (function/, nonbreaking/, synonym/)");
  }
  options.resources_dir = values.text("meteor-resources");
  if (values.has(kParaphraseFileRead) && !values.has("paraphrase-table")) {
    throw Error(ExitCode::missing_resource, fmt::format("the signature's paraphrase:{} needs --paraphrase-table FILE",
                                                        values.text(kParaphraseFileRead)));
  }
  options.paraphrase_table = values.text("paraphrase-table");
  if (values.has("modules")) options.modules = split_words(values.text("modules"));
  const bool any_parameter = values.has("alpha") || values.has("beta") || values.has("gamma") || values.has("delta");
  if (any_parameter) {
    if (!(values.has("alpha") && values.has("beta") && values.has("gamma") && values.has("delta"))) {
      throw usage_error("METEOR 1.5 parameters come together: give --alpha, --beta, --gamma and --delta");
    }
    options.parameters = std::array<double, 4>{values.real("alpha", 0), values.real("beta", 0), values.real("gamma", 0),
                                               values.real("delta", 0)};
  }
  if (values.has("weights")) {
    std::vector<double> weights;
    for (const auto& w : split_words(values.text("weights"))) weights.push_back(double_in_range("--weights", w));
    options.weights = weights;
  }
  options.beam_size = values.integer("beam", 40);
  options.language_function_words = values.text("function-words", "english") == "language";
  return std::make_unique<Meteor15>(options);
}

std::unique_ptr<StatsModel> build_meteor(const OptionValues& values, const BuildContext&) {
  const std::string compat = values.text("compat", "nltk");
  if (compat == "nltk") return build_nltk(values);
  if (compat == "meteor15") return build_meteor15(values);
  throw usage_error(fmt::format("unknown --compat '{}' (known: nltk, meteor15)", compat));
}

// "exact+stem-porter-nltk38-v1+syn-wordnet-3.0": the stages, whose component
// versions are checked when the rebuilt metric prints its signature.
void apply_stages(const std::string& value, OptionValues& values) {
  std::string modules;
  for (std::size_t start = 0, plus = 0; plus != std::string::npos; start = plus + 1) {
    plus = value.find('+', start);
    const std::string stage = value.substr(start, plus == std::string::npos ? plus : plus - start);
    if (stage == "exact") {
      modules += "exact";
    } else if (stage.starts_with("stem-")) {
      modules += " stem";
    } else if (stage.starts_with("syn-")) {
      modules += " synonym";
    } else {
      throw usage_error(fmt::format("signature: unknown METEOR stage '{}'", stage));
    }
  }
  values.set("modules", modules);
}

// meteor-1.5-wo-LANG-NORM-ALPHA_BETA_GAMMA_DELTA-MODULES-WEIGHTS: the options it stands for.
void apply_eval_id(const std::string& value, OptionValues& values) {
  const meteor15::EvalId id = meteor15::parse_eval_id(value);
  values.set("lang", id.language);
  values.set("norm", meteor15::normalization_of_eval_id(id.normalization));
  const char* names[4] = {"alpha", "beta", "gamma", "delta"};
  for (int i = 0; i < 4; ++i) values.set(names[i], fmt::format("{}", id.parameters[static_cast<std::size_t>(i)]));
  std::string modules, weights;
  for (std::size_t i = 0; i < id.modules.size(); ++i) {
    // Appended piece by piece: `"" + std::string` trips GCC 12's -Wstringop-overflow false positive.
    if (i > 0) {
      modules += ' ';
      weights += ' ';
    }
    modules += meteor15::module_name_of_eval_id(id.modules[i]);
    weights += fmt::format("{}", id.weights[i]);
  }
  values.set("modules", modules);
  values.set("weights", weights);
}

void apply_implementation(const std::string& value, OptionValues& values) {
  if (value == "nltk-3.8") {
    values.set("compat", "nltk");
  } else if (value == "cmu-1.5") {
    values.set("compat", "meteor15");
  } else {
    throw usage_error(fmt::format("signature: unknown METEOR implementation '{}'", value));
  }
}

// tok: an evalcli tokenizer id, or METEOR 1.5's own word split.
void apply_tok(const std::string& value, OptionValues& values) {
  if (value == "meteor-stringtokenizer") return;
  values.set("tokenize", tokenizer_from_signature(value)->name());
}

// What merge and check need of a run: METEOR 1.5's system score needs only
// the eval id's parameters and weights, not the resources that align text.
std::unique_ptr<StatsModel> statistics_model(const std::string& signature) {
  if (find_field(parse_signature(signature), "meteor").value_or("").starts_with("cmu-")) {
    return meteor15_from_signature(signature);
  }
  return build_nltk(option_values_from_signature(meteor_definition(), parse_signature(signature)));
}

MetricDefinition make_meteor_definition() {
  const TextOptionSpecs text{
      .tokenize_help = "tokenizer before matching (default none = whitespace split; 13a, zh, nltk-word, ...)",
      .lowercase = false,
      .tok_key = false,
      .jieba = false,
      .language = true,
      .pipeline = [](const StatsModel& model) -> const TextPipeline* {
        if (const auto* m = dynamic_cast<const NltkMeteor*>(&model)) return &m->pipeline();
        if (const auto* m = dynamic_cast<const Meteor15*>(&model)) return m->text_pipeline();
        return nullptr;
      }};
  MetricDefinition d;
  d.command = "meteor";
  d.default_width = 4;  // a 0..1 score
  d.score_scale = 1;
  d.summary = "METEOR: NLTK 3.8 meteor_score (default) or CMU METEOR 1.5";
  d.names = {"METEOR"};
  d.options = {
      {.name = "compat",
       .help = "nltk (NLTK 3.8 meteor_score, default) or meteor15 (CMU METEOR 1.5)",
       .choices = {"nltk", "meteor15"}},
  };
  const auto shared = text_option_specs(text);
  d.options.insert(d.options.end(), shared.begin(), shared.end());
  d.options.push_back(refused_lowercase(
      "NLTK's meteor_score lowercases every text (str.lower); METEOR 1.5's case is chosen with --norm"));
  d.options.insert(
      d.options.end(),
      {
          {.name = "lang", .help = "language: en (default; WordNet/synonyms), or e.g. de, zh"},
          // The parameters' domains: alpha weighs precision against recall, gamma is
          // the largest fragmentation penalty (above 1 the score turns negative),
          // beta its exponent; delta weighs content against function words.
          {.name = "alpha",
           .kind = OptionKind::real,
           .help = "alpha (nltk default 0.9; meteor15: per language)",
           .min = 0,
           .max = 1,
           .signature_key = "alpha",
           .print = nltk_parameter([](const NltkMeteorOptions& o) { return o.alpha; })},
          {.name = "beta",
           .kind = OptionKind::real,
           .help = "beta (nltk default 3); >= 0",
           .min = 0,
           .signature_key = "beta",
           .print = nltk_parameter([](const NltkMeteorOptions& o) { return o.beta; })},
          {.name = "gamma",
           .kind = OptionKind::real,
           .help = "gamma (nltk default 0.5)",
           .min = 0,
           .max = 1,
           .signature_key = "gamma",
           .print = nltk_parameter([](const NltkMeteorOptions& o) { return o.gamma; })},
          {.name = "delta",
           .kind = OptionKind::real,
           .help = "delta: content/function word weight (meteor15 only)",
           .min = 0,
           .max = 1},
          {.name = "modules", .help = "matching stages, e.g. 'exact stem synonym'", .short_flag = "-m"},
          {.name = "wordnet",
           .help = "WordNet 3.0 dict directory (nltk; default /usr/share/wordnet)",
           .role = OptionRole::resource},
          {.name = "aggregate",
           .help = "nltk corpus score: mean (of segment scores, default) or summed-stats (evalcli extension)",
           .choices = {"mean", "summed-stats"},
           .signature_key = "agg",
           .print = field_printer<NltkMeteor>([](const NltkMeteor& m) {
             return std::string(m.options().aggregate == MeteorAggregate::mean ? "mean" : "summed-stats");
           })},
          {.name = "meteor-resources",
           .help = "METEOR 1.5 resources folder (function/, nonbreaking/, synonym/)",
           .role = OptionRole::resource},
          {.name = "norm", .help = "METEOR 1.5 normalisation: none, lower, norm (-norm), norm-nopunct"},
          {.name = "paraphrase-table",
           .help = "METEOR 1.5 paraphrase table (its paraphrase-LANG format, gzip or plain)",
           .role = OptionRole::resource},
          {.name = "weights", .help = "METEOR 1.5 module weights, e.g. '1.0 0.6 0.8'"},
          {.name = "beam",
           .kind = OptionKind::integer,
           .help = "METEOR 1.5 alignment beam size",
           .min = 1,
           .max = 1000000,
           .signature_key = "beam",
           .print = field_printer<Meteor15>([](const Meteor15& m) -> std::optional<std::string> {
             if (m.options().beam_size == 40) return std::nullopt;  // the jar's default, not printed
             return std::to_string(m.options().beam_size);
           })},
          // The jar's -l never changes its function-word list (a configuration bug
          // that published scores carry); "language" is the jar with -s LANG.words.
          {.name = "function-words",
           .help = "METEOR 1.5 function words: english (the jar's list for every language, default) or language "
                   "(function/LANG.words, the jar's -s)",
           .choices = {"english", "language"},
           .signature_key = "fw",
           .print = field_printer<Meteor15>([](const Meteor15& m) -> std::optional<std::string> {
             if (!m.options().language_function_words) return std::nullopt;  // the jar's default, not printed
             return "language";
           })},
      });
  d.signature_keys = text_signature_keys(text);
  d.signature_keys.push_back({"meteor", "", apply_implementation, [](const StatsModel& model) -> std::optional<std::string> {
                                if (dynamic_cast<const NltkMeteor*>(&model) != nullptr) return "nltk-3.8";
                                if (dynamic_cast<const Meteor15*>(&model) != nullptr) return "cmu-1.5";
                                return std::nullopt;
                              }});
  d.signature_keys.push_back({"tok", "", apply_tok, [](const StatsModel& model) -> std::optional<std::string> {
                                if (const auto* m = dynamic_cast<const NltkMeteor*>(&model)) return m->pipeline().tokenizer().id();
                                if (const auto* m = dynamic_cast<const Meteor15*>(&model)) {
                                  return m->text_pipeline() ? m->text_pipeline()->tokenizer().id() : "meteor-stringtokenizer";
                                }
                                return std::nullopt;
                              }});
  d.signature_keys.push_back({"stages", "", apply_stages, field_printer<NltkMeteor>([](const NltkMeteor& m) { return m.stages(); })});
  d.signature_keys.push_back({"eval-id", "", apply_eval_id, field_printer<Meteor15>([](const Meteor15& m) { return m.eval_id(); })});
  // NLTK and METEOR 1.5 split words at spaces unless a tokenizer is chosen.
  d.word_tokenizer = [](const OptionValues& values) { return chosen_tokenizer(values, "none"); };
  // Both follow from the language and --paraphrase-table; the rebuilt signature must show the same.
  d.signature_keys.push_back({"stemmer", "", [](const std::string&, OptionValues&) {},
                              field_printer<Meteor15>([](const Meteor15& m) { return m.stemmer_field(); })});
  d.signature_keys.push_back({"paraphrase", "",
                              [](const std::string& value, OptionValues& values) { values.set(kParaphraseFileRead, value); },
                              field_printer<Meteor15>([](const Meteor15& m) { return m.paraphrase_field(); })});
  d.signature_layout = {"meteor", "eval-id", "tok",  "alpha",   "beta",       "gamma", "stages",
                        "agg",    "norm",    "stemmer", "paraphrase", "beam", "fw"};
  d.build = build_meteor;
  d.statistics_model = statistics_model;
  return d;
}

}  // namespace

const MetricDefinition& meteor_definition() {
  static const MetricDefinition definition = make_meteor_definition();
  return definition;
}

}  // namespace evalcli
