// `evalcli bleu`: corpus or sentence BLEU with SacreBLEU's numbers and an
// evalcli signature; `--signature` configures a run from a printed signature.
#include <fmt/format.h>

#include "evalcli/cli/common.hpp"
#include "evalcli/cli/run_signature.hpp"
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

void run_bleu(BleuCommandOptions& o, CLI::App* cmd, Streams& io) {
  std::unique_ptr<Bleu> metric;
  if (!o.signature.empty()) {
    refuse_options_set_by_signature(*cmd, {"--tokenize", "--lowercase", "--smooth-method", "--smooth-value",
                                           "--max-ngram-order", "--normalize", "--jieba-hmm"});
    const RunSignature given = read_run_signature(o.signature, count_refs(o.input), o.output, *cmd);
    metric = bleu_from_signature(given.metric_text(), std::nullopt, o.tokenizer_options, o.output.sentence_level);
    if (!o.output.sentence_level) check_rebuilt_signature(given, *metric);
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
  add_signature_option(cmd, options->signature);
  cmd->callback([options, cmd, &io] { run_bleu(*options, cmd, io); });
}

}  // namespace evalcli::cli
