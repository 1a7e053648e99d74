#include "cli/metric_command.hpp"

#include <fmt/format.h>

#include <cmath>

#include "cli/text_warnings.hpp"
#include "evalcli/core/error.hpp"

namespace evalcli::cli {
namespace {

std::string flag_names(const OptionSpec& spec) {
  std::string names = spec.short_flag.empty() ? "" : spec.short_flag + ",";
  names += "--" + spec.name;
  for (const auto& alias : spec.aliases) names += "," + alias;
  return names;
}

std::string help_text(const OptionSpec& spec) {
  std::string help = spec.help;
  if (!spec.sacrebleu_alias.empty() && help.find(spec.sacrebleu_alias) == std::string::npos) {
    help += " (" + spec.sacrebleu_alias + ")";
  }
  if (!spec.default_text.empty()) help += "; default " + spec.default_text;
  if (std::isfinite(spec.min) && std::isfinite(spec.max)) help += fmt::format("; {}..{}", spec.min, spec.max);
  if (!spec.choices.empty()) help += fmt::format(" ({})", fmt::join(spec.choices, ", "));
  return help;
}

std::string type_name(const OptionSpec& spec) {
  switch (spec.kind) {
    case OptionKind::integer: return "INT";
    case OptionKind::real: return "FLOAT";
    case OptionKind::list: return "TEXT";
    default: return "TEXT";
  }
}

}  // namespace

std::string prefixed_flag(const std::string& prefix, const std::string& name) {
  return name.rfind(prefix + "-", 0) == 0 ? "--" + name : "--" + prefix + "-" + name;
}

namespace {

// Every value of a table option, checked as given: an empty text ("--types ''",
// "--save-df ''") is a usage error, not the option left out.
void check_given_value(const OptionSpec& spec, const std::string& value, const std::string& where) {
  if (value.empty()) throw usage_error(fmt::format("{}: an empty value", where));
  check_option_value(spec, value, where);
}

}  // namespace

void add_option_specs(CLI::App* cmd, const std::vector<OptionSpec>& specs, OptionValues& values,
                      const std::string& flag_prefix) {
  for (const auto& spec : specs) {
    const std::string flags = flag_prefix.empty() ? flag_names(spec) : prefixed_flag(flag_prefix, spec.name);
    const std::string where = flag_prefix.empty() ? "--" + spec.name : flags;
    if (!spec.refusal.empty()) {
      const std::string alias = spec.sacrebleu_alias.empty() ? "" : " (" + spec.sacrebleu_alias + ")";
      cmd->add_flag_callback(flags, [message = fmt::format("evalcli {} has no {}{}: {}", cmd->get_name(), where, alias,
                                                           spec.refusal)] { throw usage_error(message); })
          ->group("");
      continue;
    }
    switch (spec.kind) {
      case OptionKind::flag:
        cmd->add_flag_callback(flags, [&values, name = spec.name] { values.set_flag(name, true); }, help_text(spec));
        break;
      case OptionKind::list:
        cmd->add_option_function<std::vector<std::string>>(
            flags,
            [&values, spec, where](const std::vector<std::string>& given) {
              for (const auto& value : given) check_given_value(spec, value, where);
              values.set_list(spec.name, given);
            },
            help_text(spec))
            ->type_name(type_name(spec));
        break;
      default:
        cmd->add_option_function<std::string>(
            flags,
            [&values, spec, where](const std::string& value) {
              check_given_value(spec, value, where);
              values.set(spec.name, value);
            },
            help_text(spec))
            ->type_name(type_name(spec));
    }
  }
}

void refuse_metric_options(const CLI::App& cmd, const std::vector<OptionSpec>& specs) {
  for (const auto& spec : specs) {
    if (spec.role == OptionRole::metric && cmd.count("--" + spec.name) > 0) {
      throw usage_error(fmt::format("--signature and --{} cannot be combined: the signature sets it", spec.name));
    }
  }
}

RunSignature read_metric_signature(const MetricDefinition& definition, const std::string& text,
                                   std::optional<std::size_t> given_refs, OptionValues& values, OutputOptions& output,
                                   const CLI::App& cmd) {
  refuse_metric_options(cmd, definition.options);
  RunSignature given = read_run_signature(text, given_refs, output, cmd);
  OptionValues read = option_values_from_signature(definition, given.metric_fields);
  // What the signature does not set stays as the command line gave it.
  read.merge_role(values, definition.options, OptionRole::resource);
  read.merge_role(values, definition.options, OptionRole::no_effect);
  values = std::move(read);
  return given;
}

void apply_run_signature(MetricRun& run, const std::string& signature) {
  if (signature.empty()) return;
  run.given = read_metric_signature(run.definition, signature, count_refs(run.input), run.values, run.output, *run.cmd);
}

void run_segment_metric(MetricRun& run, Streams& io) {
  run.output.accepts_shard = true;  // run_metric_command scores one piece with --shard K/N
  check_outputs(run.output);  // before the metric's resources and the inputs are read
  const auto model = run.definition.build(run.values, BuildContext{});
  if (run.given) check_rebuilt_signature(*run.given, *model);
  const auto* metric = dynamic_cast<const Metric*>(model.get());
  if (metric == nullptr) throw Error(ExitCode::internal, run.definition.command + " has no segment scorer");
  // Sentence scores may use other options, as the reference tool's (SacreBLEU's
  // effective order for sentence BLEU); the corpus score in the same report does not change.
  std::unique_ptr<StatsModel> sentence_model;
  if (run.output.sentence_level) sentence_model = run.definition.build(run.values, BuildContext{.sentence_level = true});
  const TextChecks checks = text_checks(run.definition, run.values);
  run_metric_command(*metric, run.input, run.output, io, nullptr, sentence_model.get(), &checks);
}

void add_metric_command(CLI::App& app, const MetricDefinition& definition, Streams& io,
                        std::function<void(MetricRun&, Streams&)> run, bool statistics) {
  struct State {
    OptionValues values;
    InputOptions input;
    OutputOptions output;
    std::string signature;
  };
  auto state = std::make_shared<State>();
  state->output.width = definition.default_width;
  auto* cmd = app.add_subcommand(definition.command, definition.summary);
  add_input_options(cmd, state->input);
  add_output_options(cmd, state->output, statistics);
  add_option_specs(cmd, definition.options, state->values);
  add_signature_option(cmd, state->signature);
  cmd->callback([state, cmd, &definition, &io, run] {
    MetricRun metric_run{definition, state->values, std::nullopt, state->input, state->output, cmd};
    apply_run_signature(metric_run, state->signature);
    run(metric_run, io);
  });
}

}  // namespace evalcli::cli
