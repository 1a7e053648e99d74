#pragma once
// A metric's subcommand made from its definition (evalcli/metrics/definition.hpp):
// the shared input/output/statistics options, the metric's own options from its
// table, --signature, and the one scoring flow. A metric with a corpus scorer
// of its own (ROUGE settings files, CIDEr, perplexity) gives `run`.
#include <functional>
#include <memory>
#include <optional>

#include "cli/common.hpp"
#include "cli/run_signature.hpp"
#include "evalcli/metrics/definition.hpp"

namespace evalcli::cli {

// CLI11 options for `specs`, writing into `values` (validated as given: ranges,
// finite numbers, choices) and the SacreBLEU single-dash aliases they declare.
// With a `flag_prefix` ("rouge", for `evalcli report`), each option has the one
// flag prefixed_flag(prefix, name) instead, and no short flag or alias.
void add_option_specs(CLI::App* cmd, const std::vector<OptionSpec>& specs, OptionValues& values,
                      const std::string& flag_prefix = "");
// "--rouge-types" for ("rouge", "types"); a name that starts with the prefix
// keeps it once ("--chrf-char-order" for ("chrf", "chrf-char-order")).
std::string prefixed_flag(const std::string& prefix, const std::string& name);

// --signature and options the signature sets (role metric) exclude each other.
void refuse_metric_options(const CLI::App& cmd, const std::vector<OptionSpec>& specs);

// What a metric command has once its options are parsed.
struct MetricRun {
  const MetricDefinition& definition;
  OptionValues values;                // from the command line or the signature (+ resources)
  std::optional<RunSignature> given;  // the --signature read, if one was given
  InputOptions input;
  OutputOptions output;
  CLI::App* cmd;
};

// Reads --signature `text` for `definition`: refuses the options it sets,
// applies its run fields (nrefs, bs:/ar:/seed:, a pasted score) to `output`,
// and replaces `values` by the option values it stands for, keeping the
// resources and no-effect options of the command line.
RunSignature read_metric_signature(const MetricDefinition& definition, const std::string& text,
                                   std::optional<std::size_t> given_refs, OptionValues& values, OutputOptions& output,
                                   const CLI::App& cmd);

// Reads --signature into run.values (if given): refuses the options it sets,
// applies its run fields to run.output.
void apply_run_signature(MetricRun& run, const std::string& signature);

// Builds the metric of `run`, checks it against a given signature, and scores
// the -r/-i files segment by segment.
void run_segment_metric(MetricRun& run, Streams& io);

// Adds `definition.command`. `run` (default run_segment_metric) scores and reports.
void add_metric_command(CLI::App& app, const MetricDefinition& definition, Streams& io,
                        std::function<void(MetricRun&, Streams&)> run = run_segment_metric,
                        bool statistics = true);

}  // namespace evalcli::cli
