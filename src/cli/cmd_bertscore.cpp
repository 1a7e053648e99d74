// `evalcli bertscore`: BERTScore from a local model folder (docs/bertscore.md).
// A corpus scorer of its own: idf weights come from all references and
// bert_score's results depend on how pairs are batched, so every segment is
// read (as token ids) before any is scored; each system's rows are then
// [P, R, F, 1] for the shared statistics.
#include <fmt/format.h>

#include <vector>

#include "cli/common.hpp"
#include "cli/metric_command.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/io/parallel_reader.hpp"
#include "evalcli/metrics/bertscore.hpp"

namespace evalcli::cli {
namespace {

BertScoreOptions bertscore_options(const OptionValues& values) {
  BertScoreOptions options;
  options.model_dir = values.text("model");
  if (options.model_dir.empty()) throw usage_error("--model DIR is required (a Hugging Face model folder)");
  options.num_layers = values.has("num-layers") ? values.integer("num-layers", -1) : -1;
  options.lang = values.text("lang");
  options.idf = values.flag("idf");
  options.baseline_path = values.text("baseline");
  options.batch_size = static_cast<std::size_t>(values.integer("batch-size", 64));
  options.encoder = values.text("encoder", "v2");
  return options;
}

// Every segment's token ids: hypotheses per system, references per segment.
struct TokenizedCorpus {
  std::vector<std::string> system_names;
  std::vector<std::vector<std::vector<int>>> hyps;  // [system][segment]
  std::vector<std::vector<std::vector<int>>> refs;  // [segment][reference]
  std::size_t nrefs = 0;
};

TokenizedCorpus tokenize_corpus(const BertScoreScorer& scorer, const InputOptions& input, Streams& io) {
  const CorpusSpec spec = make_corpus_spec(input, io.in);
  ParallelReader reader(spec);
  TokenizedCorpus corpus;
  corpus.system_names = reader.system_names();
  corpus.nrefs = reader.num_refs();
  corpus.hyps.resize(reader.num_systems());
  std::vector<std::u32string> hyps, refs;
  while (reader.next(hyps, refs)) {
    for (std::size_t s = 0; s < hyps.size(); ++s) corpus.hyps[s].push_back(scorer.encode(hyps[s]));
    std::vector<std::vector<int>> segment_refs;
    for (const auto& ref : refs) segment_refs.push_back(scorer.encode(ref));
    corpus.refs.push_back(std::move(segment_refs));
  }
  return corpus;
}

void run_bertscore(MetricRun& run, Streams& io) {
  check_outputs(run.output, {});  // before the model loads; --shard is refused (not implemented)
  const BertScoreScorer scorer(bertscore_options(run.values));
  const BertScore metric(scorer.identity());
  if (!run.output.quiet) {
    for (const std::string& note : scorer.notes()) io.err << note << '\n';
  }
  if (run.given) check_rebuilt_signature(*run.given, metric);
  const TokenizedCorpus corpus = tokenize_corpus(scorer, run.input, io);
  std::vector<SystemStats> systems;
  std::vector<std::string> warnings;
  for (std::size_t s = 0; s < corpus.hyps.size(); ++s) {
    SystemStats system;
    system.system = corpus.system_names.at(s);
    system.totals.assign(4, 0.0);
    for (const BertScorePrf& prf : scorer.score(corpus.hyps[s], corpus.refs, warnings)) {
      StatRow row = {prf[0], prf[1], prf[2], 1.0};
      add_stats(system.totals, row);
      system.rows.push_back(std::move(row));
    }
    system.segments = system.rows.size();
    systems.push_back(std::move(system));
  }
  for (std::size_t i = 0; i < warnings.size(); ++i) {
    if (std::find(warnings.begin(), warnings.begin() + i, warnings[i]) == warnings.begin() + i) io.err << warnings[i] << '\n';
  }
  if (!run.output.quiet) io.err << "bert_score hash: " << bert_score_hash(scorer.identity()) << '\n';
  report_metric_results(metric, corpus.nrefs, systems, run.output, io);
}

}  // namespace

void add_bertscore_command(CLI::App& app, Streams& io) { add_metric_command(app, bertscore_definition(), io, run_bertscore); }

}  // namespace evalcli::cli
