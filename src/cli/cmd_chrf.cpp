// `evalcli chrf`: corpus or sentence chrF / chrF++ with SacreBLEU's numbers and
// an evalcli signature; `--signature` configures a run from a printed signature.
#include <fmt/format.h>

#include "evalcli/cli/common.hpp"
#include "evalcli/cli/run_signature.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/metrics/chrf.hpp"

namespace evalcli::cli {
namespace {

struct ChrfCommandOptions {
  InputOptions input;
  OutputOptions output;
  ChrfOptions chrf;
  std::string signature;
};

void run_chrf(ChrfCommandOptions& o, CLI::App* cmd, Streams& io) {
  ChrfOptions chrf = o.chrf;
  std::optional<RunSignature> given;
  if (!o.signature.empty()) {
    refuse_options_set_by_signature(*cmd, {"--chrf-char-order", "--chrf-word-order", "--chrf-beta",
                                           "--lowercase", "--chrf-whitespace", "--chrf-eps-smoothing",
                                           "--tokenize", "--normalize", "--jieba-hmm"});
    given = read_run_signature(o.signature, count_refs(o.input), o.output, *cmd);
    chrf = chrf_options_from_signature(given->metric_text(), std::nullopt, o.chrf.tokenizer_options);
  }
  const Chrf metric(chrf);
  if (given) check_rebuilt_signature(*given, metric);
  run_metric_command(metric, o.input, o.output, io);
}

}  // namespace

void add_chrf_command(CLI::App& app, Streams& io) {
  auto options = std::make_shared<ChrfCommandOptions>();
  auto& chrf = options->chrf;
  auto* cmd = app.add_subcommand("chrf", "chrF / chrF++ (SacreBLEU-compatible numbers)");
  add_input_options(cmd, options->input);
  add_output_options(cmd, options->output);
  cmd->add_option("--chrf-char-order", chrf.char_order, "character n-gram order (-cc, default 6)")
      ->check(CLI::Range(0, 100));
  cmd->add_option("--chrf-word-order", chrf.word_order, "word n-gram order (-cw, default 0; 2 = chrF++)")
      ->check(CLI::Range(0, 100));
  cmd->add_option("--chrf-beta", chrf.beta, "recall weight beta (default 2)")->check(CLI::Range(0, 1000));
  cmd->add_flag("--lowercase,--chrf-lowercase", chrf.lowercase, "lowercase first (-lc)");
  cmd->add_flag("--chrf-whitespace", chrf.whitespace, "keep whitespace in character n-grams");
  cmd->add_flag("--chrf-eps-smoothing", chrf.eps_smoothing,
                "chrF++.py/NLTK epsilon smoothing instead of effective-order averaging");
  cmd->add_option("--tokenize", chrf.tokenizer,
                  "tokenize first and score the tokens joined by spaces (default: the line as SacreBLEU scores it)");
  add_tokenizer_options(cmd, chrf.tokenizer_options);
  cmd->add_option("--normalize", chrf.normalizers, "normalizers applied first, in order");
  add_signature_option(cmd, options->signature);
  cmd->callback([options, cmd, &io] { run_chrf(*options, cmd, io); });
}

}  // namespace evalcli::cli
