// evalcli as a library (evalcli/cli/library.hpp): a metric command's scoring
// flow on text in memory, with the command's numbers, signature and shard.
#include "evalcli/cli/library.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "cli/sacrebleu.hpp"
#include "cli/sacrebleu_output.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/core/format.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/core/summation.hpp"
#include "evalcli/io/caption_inputs.hpp"
#include "evalcli/io/output_file.hpp"
#include "evalcli/metrics/cider.hpp"
#include "evalcli/metrics/cider_corpus.hpp"
#include "evalcli/metrics/registry.hpp"
#include "evalcli/metrics/text_options.hpp"
#include "evalcli/stats/shard.hpp"

namespace evalcli::cli {
namespace {

const MetricDefinition& definition_of(const std::string& command) {
  if (const MetricDefinition* definition = find_metric_definition_by_command(command)) return *definition;
  std::vector<std::string> commands;
  for (const MetricDefinition* definition : metric_definitions()) commands.push_back(definition->command);
  throw usage_error(fmt::format("unknown metric '{}' (one of {})", command, fmt::join(commands, ", ")));
}

// The value of one option checked as the command line checks it.
void set_given_option(const MetricDefinition& definition, const GivenOption& option, OptionValues& values) {
  const OptionSpec* spec = definition.find_option(option.name);
  const std::string where = "--" + option.name;
  if (spec == nullptr) throw usage_error(fmt::format("evalcli {} has no option {}", definition.command, where));
  if (!spec->refusal.empty()) {
    throw usage_error(fmt::format("evalcli {} has no {}: {}", definition.command, where, spec->refusal));
  }
  if (spec->kind != OptionKind::list && option.values.size() != 1) {
    throw usage_error(fmt::format("{}: one value expected, got {}", where, option.values.size()));
  }
  switch (spec->kind) {
    case OptionKind::flag: {
      const std::string& value = option.values.front();
      if (value != "true" && value != "false") throw usage_error(fmt::format("{}: true or false, not '{}'", where, value));
      values.set_flag(spec->name, value == "true");
      break;
    }
    case OptionKind::list:
      for (const auto& value : option.values) {
        if (value.empty()) throw usage_error(fmt::format("{}: an empty value", where));
        check_option_value(*spec, value, where);
      }
      values.set_list(spec->name, option.values);
      break;
    default:
      if (option.values.front().empty()) throw usage_error(fmt::format("{}: an empty value", where));
      check_option_value(*spec, option.values.front(), where);
      values.set(spec->name, option.values.front());
  }
}

ScoreLine score_line_of(const StatsModel& model, const StatsModel& sentence_model, const SystemStats& system,
                        bool details) {
  ScoreLine line;
  line.name = model.name();
  line.score = model.corpus_score(system);
  if (!details) return line;
  line.sentence_scores.reserve(system.rows.size());
  for (const auto& row : system.rows) line.sentence_scores.push_back(sentence_model.score(row));
  return line;
}

// Everything a program is given back of one system's statistics.
MetricResult result_of(const StatsModel& model, const StatsModel& sentence_model, std::size_t nrefs,
                       SystemStats system, bool details = true) {
  MetricResult result;
  result.name = model.name();
  result.signature = full_signature(nrefs, model.signature());
  result.nrefs = nrefs;
  result.stat_names = model.stat_names();
  result.scores.push_back(score_line_of(model, sentence_model, system, details));
  const auto components = score_component_models(model);
  const auto sentence_components = score_component_models(sentence_model);
  for (std::size_t k = 0; k < components.size(); ++k) {
    result.scores.push_back(score_line_of(*components[k], *sentence_components.at(k), system, details));
  }
  result.details_json = model.details(system.totals).dump();
  if (details) result.shard_json = stats::shard_json(model, result.signature, nrefs, {system});
  if (!model.sacrebleu_fields().empty()) {
    result.sacrebleu_signature = sacrebleu_signature(model, nrefs, false);
    result.sacrebleu_short_signature = sacrebleu_signature(model, nrefs, true);
  }
  result.stats = std::move(system);
  return result;
}

// The captions after segment i's: segment i + 1's first reference and its hypothesis.
FollowingCaptions following_captions(const SegmentTexts& texts, std::size_t i) {
  if (i + 1 >= texts.hyps.size()) return {};
  return FollowingCaptions::of_segment(texts.refs[i + 1], &texts.hyps[i + 1]);
}

}  // namespace

MetricSession::MetricSession(const std::string& command, const std::vector<GivenOption>& options,
                             const std::string& signature)
    : definition_(definition_of(command)) {
  for (const auto& option : options) set_given_option(definition_, option, values_);
  if (!signature.empty()) {
    for (const auto& option : options) {
      if (definition_.find_option(option.name)->role == OptionRole::metric) {
        throw usage_error(fmt::format("a signature and --{} cannot be combined: the signature sets it", option.name));
      }
    }
    const auto fields = parse_signature(signature);
    OptionValues read = option_values_from_signature(definition_, fields);
    read.merge_role(values_, definition_.options, OptionRole::resource);
    read.merge_role(values_, definition_.options, OptionRole::no_effect);
    values_ = std::move(read);
    signature_nrefs_ = find_field(fields, "nrefs");
  }
  if (definition_.segments_alone) {
    model_ = definition_.build(values_, BuildContext{});
    if (dynamic_cast<const Metric*>(model_.get()) == nullptr) {
      throw usage_error(fmt::format("evalcli {} with these options cannot score text in memory", command));
    }
    sentence_model_ = definition_.build(values_, BuildContext{.sentence_level = true});
    num_stats_ = model_->num_stats();
  } else if (command != "cider") {
    throw usage_error(fmt::format("evalcli {} cannot score text in memory", command));
  }
}

MetricSession::~MetricSession() = default;

MetricResult MetricSession::score(const SegmentTexts& texts, bool details) const {
  Run run(*this, details);
  run.add(texts);
  return run.finish();
}

MetricSession::SegmentScores MetricSession::score_segments(const SegmentTexts& texts) const {
  if (!model_) throw usage_error(fmt::format("{} scores need the whole corpus", definition_.command));
  if (texts.hyps.size() != texts.refs.size()) {
    throw input_error(fmt::format("{} hypotheses but references for {} segments", texts.hyps.size(), texts.refs.size()));
  }
  const auto& metric = dynamic_cast<const Metric&>(*model_);
  SegmentScores scores;
  for (std::size_t i = 0; i < texts.hyps.size(); ++i) {
    if (texts.refs[i].empty()) throw input_error(fmt::format("segment {} has no reference", i + 1));
    StatRow row(metric.num_stats(), 0.0);
    metric.segment_stats_followed_by(texts.hyps[i], texts.refs[i], following_captions(texts, i), row.data());
    scores.sentence_scores.push_back(sentence_model_->score(row));
    scores.rows.push_back(std::move(row));
  }
  return scores;
}

void MetricSession::segment_row(std::u32string_view hyp, std::span<const std::u32string> refs, StatRow& row) const {
  if (!model_) throw usage_error(fmt::format("{} scores need the whole corpus", definition_.command));
  if (refs.empty()) throw input_error("the segment has no reference");
  row.assign(num_stats_, 0.0);
  static_cast<const Metric&>(*model_).segment_stats(hyp, refs, row.data());  // a Metric: checked when built
}

void MetricSession::check_nrefs(std::size_t nrefs) const {
  if (signature_nrefs_) {
    check_signature_nrefs(*signature_nrefs_, nrefs == kVariableRefs ? std::nullopt : std::optional(nrefs));
  }
}

MetricSession::Run::Run(const MetricSession& session, bool details, ConfidenceRequest confidence)
    : session_(session),
      details_(details),
      confidence_(std::move(confidence)),
      keep_rows_(details || confidence_.samples > 0 || (session.model_ && session.model_->corpus_score_needs_rows())) {
  if (!session_.model_) return;  // CIDEr keeps the texts
  const std::size_t stats = session_.model_->num_stats();
  system_.system = "hyp";
  system_.totals.assign(stats, 0.0);
  if (session_.model_->exact_totals()) exact_.resize(stats);
  row_.resize(stats);
}

void MetricSession::Run::add(const SegmentTexts& block) {
  if (block.hyps.size() != block.refs.size()) {
    throw input_error(fmt::format("{} hypotheses but references for {} segments", block.hyps.size(), block.refs.size()));
  }
  if (!session_.model_) {
    all_.hyps.insert(all_.hyps.end(), block.hyps.begin(), block.hyps.end());
    all_.refs.insert(all_.refs.end(), block.refs.begin(), block.refs.end());
    return;
  }
  const auto& metric = dynamic_cast<const Metric&>(*session_.model_);
  const bool reads_following = metric.reads_following_captions();
  for (std::size_t i = 0; i < block.hyps.size(); ++i) {
    const auto& refs = block.refs[i];
    if (refs.empty()) {
      throw input_error(fmt::format("segment {} has no reference", system_.segments + held_.hyps.size() + 1));
    }
    if (!reads_following) {
      add_segment(block.hyps[i], refs, {});
      continue;
    }
    // The last block's last segment is followed by this block's first one.
    if (!held_.hyps.empty()) {
      add_segment(held_.hyps.front(), held_.refs.front(), FollowingCaptions::of_segment(refs, &block.hyps[i]));
      held_ = {};
    }
    if (i + 1 < block.hyps.size()) {
      add_segment(block.hyps[i], refs, following_captions(block, i));
    } else {  // followed by the next block's first segment, or by nothing: known at add() or finish()
      held_.hyps.push_back(block.hyps[i]);
      held_.refs.push_back(refs);
    }
  }
}

void MetricSession::Run::add_segment(std::u32string_view hyp, std::span<const std::u32string> refs,
                                     const FollowingCaptions& following) {
  const auto& metric = static_cast<const Metric&>(*session_.model_);  // a Metric: checked when built
  if (!nrefs_) nrefs_ = refs.size();
  uniform_refs_ = uniform_refs_ && refs.size() == *nrefs_;
  row_.assign(row_.size(), 0.0);
  metric.segment_stats_followed_by(hyp, refs, following, row_.data());
  if (exact_.empty()) {
    add_stats(system_.totals, row_);
  } else {
    for (std::size_t k = 0; k < row_.size(); ++k) exact_[k].add(row_[k]);
  }
  if (keep_rows_) system_.rows.push_back(row_);
  ++system_.segments;
}

MetricResult MetricSession::Run::finish() {
  if (!session_.model_) return session_.score_cider(all_, details_);
  if (!held_.hyps.empty()) add_segment(held_.hyps.front(), held_.refs.front(), {});  // the texts end with it
  held_ = {};
  if (system_.segments == 0) throw input_error("no segments to score");
  // Segments with different numbers of references: "nrefs:var".
  const std::size_t nrefs = uniform_refs_ ? *nrefs_ : kVariableRefs;
  session_.check_nrefs(nrefs);
  for (std::size_t k = 0; k < exact_.size(); ++k) system_.totals[k] = exact_[k].value();
  if (confidence_.samples == 0) return result_of(*session_.model_, *session_.sentence_model_, nrefs, std::move(system_), details_);
  // As `evalcli sacrebleu --confidence`: the interval, and bs:/seed: in SacreBLEU's signature.
  const stats::Seed seed = stats::resolve_seed(confidence_.seed.empty() ? std::nullopt : std::optional(confidence_.seed));
  const stats::StatMatrix matrix(system_.rows, session_.model_->num_stats());
  const stats::Interval interval = stats::bootstrap_confidence(*session_.model_, matrix, confidence_.samples, seed);
  MetricResult result = result_of(*session_.model_, *session_.sentence_model_, nrefs, std::move(system_), details_);
  result.confidence = interval;
  if (!result.sacrebleu_signature.empty()) {
    const std::vector<SacrebleuField> extra = {{"bs", "bs", std::to_string(confidence_.samples)}, {"seed", "rs", seed.text}};
    result.sacrebleu_signature = sacrebleu_signature(*session_.model_, nrefs, false, extra);
    result.sacrebleu_short_signature = sacrebleu_signature(*session_.model_, nrefs, true, extra);
  }
  return result;
}

// CIDEr's two passes (as `evalcli cider`): document frequencies over every
// segment's references, or the --df file's; then every segment's score.
MetricResult MetricSession::score_cider(const SegmentTexts& texts, bool details) const {
  if (texts.hyps.empty()) throw input_error("no segments to score");
  if (texts.hyps.size() != texts.refs.size()) {
    throw input_error(fmt::format("{} hypotheses but references for {} segments", texts.hyps.size(), texts.refs.size()));
  }
  const CiderOptions options = cider_options(values_);
  auto pipeline = std::make_unique<TextPipeline>(pipeline_options(values_, "ptb"));
  const std::string df_path = values_.text("df");
  if (cider_signature_df(values_) != "corpus" && df_path.empty()) {
    throw usage_error(fmt::format("the signature's df:{} names saved document frequencies: give them with df=FILE",
                                  cider_signature_df(values_)));
  }
  std::optional<CiderDocumentFrequencies> loaded_df;
  if (!df_path.empty()) {
    loaded_df = read_document_frequencies(df_path);
    check_document_frequencies_tokenizer(*loaded_df, pipeline->tokenizer().id(), df_path);
  }
  io::CaptionSet set;
  set.system_names = {"hyp"};
  for (std::size_t i = 0; i < texts.hyps.size(); ++i) {
    set.items.push_back({std::to_string(i + 1), texts.refs[i], {texts.hyps[i]}});
  }
  io::check_every_item_has_references(set, "input");
  CiderCorpusRun run(options, *pipeline, std::move(set));
  std::string df_field = "corpus";
  if (loaded_df) {
    run.corpus().use_document_frequencies(*loaded_df);
    df_field = cider_df_field(*loaded_df);
  }
  if (const std::string save = values_.text("save-df"); !save.empty()) {
    io::write_output_file(save, serialize_document_frequencies(run.corpus().document_frequencies(pipeline->tokenizer().id())));
  }
  const std::size_t nrefs = run.uniform_refs() > 0 ? run.uniform_refs() : kVariableRefs;
  check_nrefs(nrefs);
  std::vector<SystemStats> systems = run.system_stats();
  const Cider metric(options, std::move(pipeline), std::make_shared<CiderDocumentFrequencies>(), df_field);
  return result_of(metric, metric, nrefs, std::move(systems.front()), details);
}

std::string MetricSession::sacrebleu_format(std::span<const Stat> totals, int width, bool score_only,
                                            const std::string& signature, bool is_json,
                                            std::optional<std::pair<double, double>> confidence) const {
  if (!model_) throw usage_error(fmt::format("{} has no SacreBLEU score format", definition_.command));
  if (totals.size() != model_->num_stats()) {
    throw usage_error(fmt::format("{} statistics given, {} has {}", totals.size(), model_->name(), model_->num_stats()));
  }
  if (width < 0) throw usage_error(fmt::format("width {}: Format specifier missing precision", width));
  std::optional<PrintedConfidence> printed;  // SacreBLEU prints it only for a positive mean
  if (confidence && confidence->first > 0) {
    printed = PrintedConfidence{format_fixed(confidence->first, width), format_fixed(confidence->second, width)};
  }
  return is_json ? score_json(*model_, totals, signature, width, printed)
                 : score_line(*model_, totals, signature, width, score_only, printed);
}

MetricResult merge_shard_texts(const std::vector<std::string>& texts, const std::vector<std::string>& names) {
  std::vector<stats::Shard> shards;
  for (std::size_t i = 0; i < texts.size(); ++i) shards.push_back(stats::parse_shard(texts[i], names.at(i)));
  stats::Shard merged = stats::merge_shards(shards);
  if (shards.size() > 1) {
    if (const std::string problem = shard_merge_problem(merged.metric, merged.signature); !problem.empty()) {
      throw usage_error(fmt::format("{}: {}", merged.path, problem));
    }
  }
  const auto metric = metric_from_signature(merged.metric, merged.signature);
  const std::string rebuilt = full_signature(merged.nrefs, metric->signature());
  if (rebuilt != merged.signature || metric->name() != merged.metric || metric->stat_names() != merged.stat_names) {
    throw usage_error(fmt::format("{}: this evalcli cannot rebuild the metric that wrote the shard exactly", merged.path));
  }
  if (metric->exact_totals()) stats::total_rows_exactly(merged);
  if (merged.systems.size() != 1) {
    throw usage_error(fmt::format("{}: the shards hold {} systems; merge them with `evalcli merge`", merged.path,
                                  merged.systems.size()));
  }
  return result_of(*metric, *metric, merged.nrefs, std::move(merged.systems.front()));
}

}  // namespace evalcli::cli
