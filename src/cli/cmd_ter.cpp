// `evalcli ter`: corpus or sentence TER with SacreBLEU's numbers (and much less
// CPU) and an evalcli signature; `--signature` configures a run from a printed signature.
#include <fmt/format.h>

#include "evalcli/cli/common.hpp"
#include "evalcli/cli/run_signature.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/metrics/ter.hpp"

namespace evalcli::cli {
namespace {

struct TerCommandOptions {
  InputOptions input;
  OutputOptions output;
  TerOptions ter;
  std::string signature;
};

void run_ter(TerCommandOptions& o, CLI::App* cmd, Streams& io) {
  TerOptions ter = o.ter;
  std::optional<RunSignature> given;
  if (!o.signature.empty()) {
    refuse_options_set_by_signature(*cmd, {"--ter-case-sensitive", "--ter-normalized", "--ter-no-punct",
                                           "--ter-asian-support", "--tokenize", "--normalize"});
    given = read_run_signature(o.signature, count_refs(o.input), o.output, *cmd);
    ter = ter_options_from_signature(given->metric_text(), std::nullopt);
  }
  const Ter metric(ter);
  if (given) check_rebuilt_signature(*given, metric);
  run_metric_command(metric, o.input, o.output, io);
}

}  // namespace

void add_ter_command(CLI::App& app, Streams& io) {
  auto options = std::make_shared<TerCommandOptions>();
  auto& ter = options->ter;
  auto* cmd = app.add_subcommand("ter", "TER (SacreBLEU-compatible numbers)");
  add_input_options(cmd, options->input);
  add_output_options(cmd, options->output);
  cmd->add_flag("--ter-case-sensitive", ter.tercom.case_sensitive, "do not lowercase (TER lowercases by default)");
  cmd->add_flag("--ter-normalized", ter.tercom.normalized, "Tercom normalisation (punctuation tokenization, entities)");
  cmd->add_flag("--ter-no-punct", ter.tercom.no_punct, "remove punctuation");
  cmd->add_flag("--ter-asian-support", ter.tercom.asian_support,
                "CJK handling (only with --ter-normalized and/or --ter-no-punct)");
  cmd->add_option("--tokenize", ter.tokenizer, "use this tokenizer instead of Tercom's (evalcli extension)");
  cmd->add_option("--normalize", ter.normalizers, "normalizers applied first, in order");
  add_signature_option(cmd, options->signature);
  cmd->callback([options, cmd, &io] { run_ter(*options, cmd, io); });
}

}  // namespace evalcli::cli
