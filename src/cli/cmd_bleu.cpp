// `evalcli bleu`: corpus or sentence BLEU with SacreBLEU's numbers and an
// evalcli signature; `--signature` configures a run from a printed signature.
#include <fmt/format.h>

#include "evalcli/cli/common.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/metrics/bleu.hpp"

namespace evalcli::cli {
namespace {

struct BleuCommandOptions {
  InputOptions input;
  OutputOptions output;
  std::string tokenizer = "13a";
  std::vector<std::string> normalizers;
  bool lowercase = false;
  std::string smooth = "exp";
  std::optional<double> smooth_value;
  int max_order = 4;
  bool effective_order = false;
  bool force = false;
  std::string signature;
  TokenizerOptions tokenizer_options;
};

// Reads "floor[0.10]" / "add-k[1.00]" / "exp" into method and value.
void apply_smooth_field(const std::string& value, BleuOptions& bleu) {
  const auto bracket = value.find('[');
  bleu.smoothing = parse_bleu_smoothing(value.substr(0, bracket));
  if (bracket != std::string::npos) {
    if (value.back() != ']') throw usage_error(fmt::format("signature: bad smooth value '{}'", value));
    bleu.smooth_value = signature_double("smooth", value.substr(bracket + 1, value.size() - bracket - 2));
  }
}

// Configures BLEU from a SacreBLEU 1.x/2.x or evalcli signature.
// `tokenizer_options` supplies what a signature cannot carry (a --jieba-dict path);
// the tokenizer's own fields (dict:, icu:) must then match the signature's.
std::unique_ptr<Bleu> bleu_from_signature(const std::string& text, std::size_t given_refs,
                                          const TokenizerOptions& tokenizer_options, bool sentence_level) {
  BleuOptions bleu;
  std::unique_ptr<Tokenizer> tokenizer = make_tokenizer("13a");
  std::vector<std::unique_ptr<Normalizer>> normalizers;
  std::vector<std::pair<std::string, std::string>> tokenizer_fields;
  for (const auto& field : parse_signature(text)) {
    const auto& [key, value] = field;
    if (key == "metric") {
      if (value != "BLEU") throw usage_error(fmt::format("signature is for {}, not BLEU", value));
    } else if (key == "nrefs" || key == "#") {
      if (value != "var" && value != std::to_string(given_refs)) {
        throw usage_error(fmt::format("signature has nrefs:{} but {} reference(s) were given", value, given_refs));
      }
    } else if (key == "case" || key == "c") {
      if (value != "mixed" && value != "lc") throw usage_error(fmt::format("signature: unknown case '{}'", value));
      bleu.text.lowercase = value == "lc";
    } else if (key == "eff" || key == "e") {
      if (value != "yes" && value != "no") throw usage_error(fmt::format("signature: unknown eff '{}'", value));
      bleu.effective_order = value == "yes";
    } else if (key == "tok") {
      tokenizer = tokenizer_from_signature(value, tokenizer_options);
    } else if (key == "smooth" || key == "s") {
      apply_smooth_field(value, bleu);
    } else if (key == "order") {
      bleu.max_ngram_order = signature_int("order", value);
      if (bleu.max_ngram_order < 1 || bleu.max_ngram_order > 16) {
        throw usage_error(fmt::format("signature: order:{} is outside 1..16", value));
      }
    } else if (key == "norm") {
      if (value != "none") {
        std::size_t start = 0;
        while (start <= value.size()) {
          const auto plus = value.find('+', start);
          normalizers.push_back(normalizer_from_id(value.substr(start, plus - start)));
          if (plus == std::string::npos) break;
          start = plus + 1;
        }
      }
    } else if (is_tokenizer_field(key)) {
      tokenizer_fields.emplace_back(key, value);
    } else if (key == "version" || key == "v" || key == "test" || key == "t" || key == "lang" ||
               key == "l" || key == "origlang" || key == "o" || key == "subset" || key == "S") {
      // Informational: they do not change how given files are scored.
    } else {
      throw usage_error(fmt::format("signature field '{}:{}' is not a BLEU option evalcli knows", key, value));
    }
  }
  check_tokenizer_fields(*tokenizer, tokenizer_fields);
  bleu.text.tokenizer = tokenizer->name();
  // As SacreBLEU: effective order for sentence-level scores.
  if (sentence_level) bleu.effective_order = true;
  auto pipeline = std::make_unique<TextPipeline>(std::move(normalizers), bleu.text.lowercase, std::move(tokenizer));
  return std::make_unique<Bleu>(bleu, std::move(pipeline));
}

void run_bleu(BleuCommandOptions& o, CLI::App* cmd, Streams& io) {
  std::unique_ptr<Bleu> metric;
  if (!o.signature.empty()) {
    for (const char* conflicting : {"--tokenize", "--lowercase", "--smooth-method", "--smooth-value",
                                    "--max-ngram-order", "--normalize", "--jieba-hmm"}) {
      if (cmd->count(conflicting) > 0) {
        throw usage_error(fmt::format("--signature and {} cannot be combined: the signature sets it", conflicting));
      }
    }
    metric = bleu_from_signature(o.signature, count_refs(o.input), o.tokenizer_options, o.output.sentence_level);
  } else {
    BleuOptions bleu;
    bleu.text.tokenizer = o.tokenizer;
    bleu.text.lowercase = o.lowercase;
    bleu.text.normalizers = o.normalizers;
    bleu.text.tokenizer_options = o.tokenizer_options;
    bleu.smoothing = parse_bleu_smoothing(o.smooth);
    bleu.smooth_value = o.smooth_value;
    bleu.max_ngram_order = o.max_order;
    // As SacreBLEU: effective order for sentence-level scores.
    bleu.effective_order = o.effective_order || o.output.sentence_level;
    metric = std::make_unique<Bleu>(bleu);
  }
  run_metric_command(*metric, o.input, o.output, io);
}

}  // namespace

void add_bleu_command(CLI::App& app, Streams& io) {
  auto options = std::make_shared<BleuCommandOptions>();
  auto* cmd = app.add_subcommand("bleu", "BLEU (SacreBLEU-compatible numbers)");
  add_input_options(cmd, options->input);
  add_output_options(cmd, options->output);
  cmd->add_option("--tokenize", options->tokenizer, "tokenizer (-tok): 13a, intl, zh, char, none, ja-mecab, ...");
  cmd->add_option("--normalize", options->normalizers, "normalizers applied before tokenizing, in order");
  cmd->add_flag("--lowercase", options->lowercase, "lowercase before tokenizing (-lc)");
  add_tokenizer_options(cmd, options->tokenizer_options);
  cmd->add_option("-s,--smooth-method", options->smooth, "exp, floor, add-k or none");
  cmd->add_option("--smooth-value", options->smooth_value, "value for floor (0.1) and add-k (1) (-sv)");
  cmd->add_option("--max-ngram-order", options->max_order, "maximum n-gram order")->check(CLI::Range(1, 16));
  cmd->add_flag("--effective-order", options->effective_order, "stop at the highest order the hypothesis has");
  cmd->add_flag("--force", options->force, "accepted for SacreBLEU compatibility; changes nothing");
  cmd->add_option("--signature", options->signature, "configure from a SacreBLEU 1.x/2.x or evalcli signature");
  cmd->callback([options, cmd, &io] { run_bleu(*options, cmd, io); });
}

}  // namespace evalcli::cli
