// `evalcli meteor`: NLTK 3.8 meteor_score (default, --compat nltk) or CMU
// METEOR 1.5 (--compat meteor15). The signature always names which one.
#include <fmt/format.h>

#include <sstream>

#include "evalcli/cli/common.hpp"
#include "evalcli/cli/run_signature.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/metrics/signature_factories.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/core/numbers.hpp"
#include "evalcli/metrics/meteor.hpp"
#include "evalcli/metrics/meteor15.hpp"

namespace evalcli::cli {
namespace {

struct MeteorCommandOptions {
  InputOptions input;
  OutputOptions output;
  std::string compat = "nltk";
  std::string tokenizer;  // default: none (nltk); METEOR 1.5's own splitting (meteor15)
  std::vector<std::string> normalizers;
  std::optional<double> alpha, beta, gamma, delta;
  std::string modules;  // "exact stem synonym [paraphrase]"
  std::string wordnet_dir = WordNet::default_dir().string();
  std::string aggregate = "mean";
  std::string lang = "en";
  // METEOR 1.5
  std::string resources_dir;
  std::string norm = "none";
  std::string paraphrase_table;
  std::string weights;
  int beam = 40;
  std::string signature;
};

std::filesystem::path meteor15_resources(const MeteorCommandOptions& o) {
  if (o.resources_dir.empty()) {
    throw Error(ExitCode::missing_resource, "--compat meteor15 needs --meteor-resources DIR",
                "hint: point it at METEOR 1.5's resources/ folder (function/, nonbreaking/, synonym/)");
  }
  return o.resources_dir;
}

std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

void reject_meteor15_options(const MeteorCommandOptions&, CLI::App* cmd) {
  for (const char* option : {"--meteor-resources", "--norm", "--paraphrase-table", "--weights", "--beam", "--delta"}) {
    if (cmd->count(option) > 0) {
      throw usage_error(fmt::format("{} applies to --compat meteor15 only", option));
    }
  }
}

std::unique_ptr<Metric> make_nltk_metric(const MeteorCommandOptions& o, CLI::App* cmd) {
  reject_meteor15_options(o, cmd);
  NltkMeteorOptions options;
  if (!o.tokenizer.empty()) options.text.tokenizer = o.tokenizer;
  options.text.normalizers = o.normalizers;
  if (o.alpha) options.alpha = *o.alpha;
  if (o.beta) options.beta = *o.beta;
  if (o.gamma) options.gamma = *o.gamma;
  // WordNet is English: other languages get the exact and stem stages only.
  options.synonyms = o.lang == "en";
  if (!o.modules.empty()) {
    const auto modules = split_words(o.modules);
    if (modules.empty() || modules[0] != "exact") {
      throw usage_error("NLTK METEOR modules must start with 'exact' (known: exact stem synonym)");
    }
    options.stem = false;
    options.synonyms = false;
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
  options.wordnet_dir = o.wordnet_dir;
  if (o.aggregate == "mean") {
    options.aggregate = MeteorAggregate::mean;
  } else if (o.aggregate == "summed-stats") {
    options.aggregate = MeteorAggregate::summed_stats;
  } else {
    throw usage_error(fmt::format("unknown --aggregate '{}' (known: mean, summed-stats)", o.aggregate));
  }
  return std::make_unique<NltkMeteor>(options);
}

std::unique_ptr<Metric> make_meteor15_metric(const MeteorCommandOptions& o, CLI::App* cmd) {
  if (cmd->count("--wordnet") > 0) throw usage_error("--wordnet applies to --compat nltk only (METEOR 1.5 has its own synonyms)");
  if (o.aggregate != "mean" && cmd->count("--aggregate") > 0) {
    throw usage_error("--aggregate applies to --compat nltk only (METEOR 1.5 always sums statistics)");
  }
  Meteor15Options options;
  options.language = o.lang;
  options.tokenizer = o.tokenizer.empty() ? "none" : o.tokenizer;
  options.normalizers = o.normalizers;
  options.normalization = parse_meteor15_normalization(o.norm);
  options.resources_dir = meteor15_resources(o);
  options.paraphrase_table = o.paraphrase_table;
  if (!o.modules.empty()) options.modules = split_words(o.modules);
  if (o.alpha || o.beta || o.gamma || o.delta) {
    if (!(o.alpha && o.beta && o.gamma && o.delta)) {
      throw usage_error("METEOR 1.5 parameters come together: give --alpha, --beta, --gamma and --delta");
    }
    options.parameters = std::array<double, 4>{*o.alpha, *o.beta, *o.gamma, *o.delta};
  }
  if (!o.weights.empty()) {
    std::vector<double> weights;
    for (const auto& w : split_words(o.weights)) weights.push_back(double_in_range("--weights", w));
    options.weights = weights;
  }
  options.beam_size = o.beam;
  return std::make_unique<Meteor15>(options);
}

// --signature: NLTK METEOR or METEOR 1.5 as the signature's meteor: field says;
// the resources (WordNet, METEOR 1.5's folder, a paraphrase table) come from
// the command line.
std::unique_ptr<Metric> metric_from_signature(MeteorCommandOptions& o, CLI::App* cmd) {
  refuse_options_set_by_signature(*cmd, {"--compat", "--tokenize", "--normalize", "--lang", "--alpha", "--beta",
                                         "--gamma", "--delta", "--modules", "--aggregate", "--norm", "--weights",
                                         "--beam"});
  const RunSignature given = read_run_signature(o.signature, count_refs(o.input), o.output, *cmd);
  const std::string fields = given.metric_text();
  std::unique_ptr<Metric> metric;
  if (find_field(parse_signature(fields), "meteor").value_or("").starts_with("cmu-")) {
    if (cmd->count("--wordnet") > 0) throw usage_error("--wordnet applies to NLTK METEOR, not to this METEOR 1.5 signature");
    Meteor15Signature read = meteor15_options_from_signature(fields);
    read.options.resources_dir = meteor15_resources(o);
    if (!read.paraphrase_file.empty()) {
      if (o.paraphrase_table.empty()) {
        throw Error(ExitCode::missing_resource,
                    fmt::format("the signature's paraphrase:{} needs --paraphrase-table FILE", read.paraphrase_file));
      }
      read.options.paraphrase_table = o.paraphrase_table;
    }
    metric = std::make_unique<Meteor15>(read.options);
  } else {
    reject_meteor15_options(o, cmd);
    NltkMeteorOptions options = nltk_meteor_options_from_signature(fields);
    options.wordnet_dir = o.wordnet_dir;
    metric = std::make_unique<NltkMeteor>(options);
  }
  check_rebuilt_signature(given, *metric);
  return metric;
}

void run_meteor(MeteorCommandOptions& o, CLI::App* cmd, Streams& io) {
  std::unique_ptr<Metric> metric;
  if (!o.signature.empty()) {
    metric = metric_from_signature(o, cmd);
  } else if (o.compat == "nltk") {
    metric = make_nltk_metric(o, cmd);
  } else if (o.compat == "meteor15") {
    metric = make_meteor15_metric(o, cmd);
  } else {
    throw usage_error(fmt::format("unknown --compat '{}' (known: nltk, meteor15)", o.compat));
  }
  run_metric_command(*metric, o.input, o.output, io);
}

}  // namespace

void add_meteor_command(CLI::App& app, Streams& io) {
  auto options = std::make_shared<MeteorCommandOptions>();
  auto* cmd = app.add_subcommand("meteor", "METEOR: NLTK 3.8 meteor_score (default) or CMU METEOR 1.5");
  add_input_options(cmd, options->input);
  add_output_options(cmd, options->output);
  cmd->add_option("--compat", options->compat, "nltk (NLTK 3.8 meteor_score, default) or meteor15 (CMU METEOR 1.5)");
  cmd->add_option("--tokenize", options->tokenizer,
                  "tokenizer before matching (default none = whitespace split; 13a, zh, nltk-word, ...)");
  cmd->add_option("--normalize", options->normalizers, "normalizers applied before tokenizing, in order");
  cmd->add_option("--lang", options->lang, "language: en (default; WordNet/synonyms), or e.g. de, zh");
  cmd->add_option("--alpha", options->alpha, "alpha (nltk default 0.9; meteor15: per language)");
  cmd->add_option("--beta", options->beta, "beta (nltk default 3)");
  cmd->add_option("--gamma", options->gamma, "gamma (nltk default 0.5)");
  cmd->add_option("--delta", options->delta, "delta: content/function word weight (meteor15 only)");
  cmd->add_option("-m,--modules", options->modules, "matching stages, e.g. 'exact stem synonym'");
  cmd->add_option("--wordnet", options->wordnet_dir, "WordNet 3.0 dict directory (nltk; default /usr/share/wordnet)");
  cmd->add_option("--aggregate", options->aggregate,
                  "nltk corpus score: mean (of segment scores, default) or summed-stats (evalcli extension)");
  cmd->add_option("--meteor-resources", options->resources_dir,
                  "METEOR 1.5 resources folder (function/, nonbreaking/, synonym/)");
  cmd->add_option("--norm", options->norm, "METEOR 1.5 normalisation: none, lower, norm (-norm), norm-nopunct");
  cmd->add_option("--paraphrase-table", options->paraphrase_table,
                  "METEOR 1.5 paraphrase table (its paraphrase-LANG format, gzip or plain)");
  cmd->add_option("--weights", options->weights, "METEOR 1.5 module weights, e.g. '1.0 0.6 0.8'");
  cmd->add_option("--beam", options->beam, "METEOR 1.5 alignment beam size")->check(CLI::PositiveNumber);
  add_signature_option(cmd, options->signature);
  cmd->callback([options, cmd, &io] { run_meteor(*options, cmd, io); });
}

}  // namespace evalcli::cli
