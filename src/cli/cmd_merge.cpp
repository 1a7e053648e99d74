// `evalcli merge SHARD...`: combines statistics shards written with --stats-out
// (docs/stats-format.md, docs/sharding.md) into exactly the result one run over
// all the data gives, printed as the metric's own command prints it.
#include <fmt/format.h>

#include "cli/cli.hpp"
#include "cli/common.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/metrics/registry.hpp"
#include "evalcli/stats/shard.hpp"

namespace evalcli::cli {
namespace {

struct MergeOptions {
  std::vector<std::string> shards;
  OutputOptions output;
};

void run_merge(MergeOptions options, CLI::App* cmd, Streams& io) {
  check_outputs(options.output);
  std::vector<stats::Shard> shards;
  for (const auto& path : options.shards) shards.push_back(stats::read_shard(path));
  stats::Shard merged = stats::merge_shards(shards);
  if (shards.size() > 1) {
    if (const std::string problem = shard_merge_problem(merged.metric, merged.signature); !problem.empty()) {
      throw usage_error(fmt::format("{}: {}", merged.path, problem));
    }
  }
  const auto metric = metric_from_signature(merged.metric, merged.signature);
  // The rebuilt metric must be the one that wrote the shards, down to the version.
  const std::string rebuilt = metric_signature(*metric, merged.nrefs);
  if (rebuilt != merged.signature || metric->name() != merged.metric || metric->stat_names() != merged.stat_names) {
    throw usage_error(fmt::format("{}: this evalcli cannot rebuild the metric that wrote the shard exactly ({})",
                                  merged.path,
                                  rebuilt != merged.signature
                                      ? "signatures differ in " + stats::signature_difference(merged.signature, rebuilt)
                                      : std::string("metric name or statistics differ")));
  }
  // Pieces of one --shard split: the report records the whole test set, as the one run's does.
  if (!merged.test_set.empty()) options.output.test_set = test_set_from_shard(merged.test_set);
  // Totals as one run sums them: exactly for such metrics (rouge-score), else in order.
  if (metric->exact_totals()) stats::total_rows_exactly(merged);
  // Printed as the metric's own command prints it (ROUGE's table, CIDEr's mean,
  // METEOR's 4 decimals, ...).
  if (cmd->count("--width") == 0) {
    if (const MetricDefinition* definition = metric_definition_for_name(merged.metric)) {
      options.output.width = definition->default_width;
    }
  }
  auto presentation = presentation_for(*metric, options.output);
  if (presentation && presentation->default_width && cmd->count("--width") == 0) {
    options.output.width = *presentation->default_width;
    presentation = presentation_for(*metric, options.output);
  }
  report_metric_results(*metric, merged.nrefs, merged.systems, options.output, io, presentation.get());
}

}  // namespace

void add_merge_command(CLI::App& app, Streams& io) {
  auto options = std::make_shared<MergeOptions>();
  auto* cmd = app.add_subcommand("merge", "combine statistics shards (--stats-out) into the score of one run");
  cmd->add_option("shards", options->shards, "shards in corpus order")->required();
  add_output_options(cmd, options->output);
  cmd->callback([options, cmd, &io] { run_merge(*options, cmd, io); });
}

}  // namespace evalcli::cli
