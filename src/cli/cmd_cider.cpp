// `evalcli cider`: CIDEr-D (pycocoevalcap's Cider) and the original CIDEr
// (vrama91/cider) over plain-text, JSONL or COCO JSON inputs (docs/cider.md).
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "cli/text_warnings.hpp"
#include "cli/common.hpp"
#include "cli/metric_command.hpp"
#include "evalcli/metrics/text_options.hpp"
#include "cli/presentations.hpp"
#include "cli/progress.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/core/format.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/core/worker_pool.hpp"
#include "evalcli/io/caption_inputs.hpp"
#include "evalcli/metrics/cider.hpp"
#include "evalcli/metrics/cider_corpus.hpp"

namespace evalcli::cli {
namespace {

struct CiderCommandOptions {
  InputOptions input;
  OutputOptions output;
  std::string jsonl;
  std::string coco_annotations;
  std::string coco_results;
  std::string tokenizer = "ptb";
  std::vector<std::string> normalizers;
  bool lowercase = false;
  TokenizerOptions tokenizer_options;
  std::string df_path;
  std::string save_df_path;
};

// Pass 1 over the inputs: plain text streamed (files or standard input),
// JSONL and COCO read whole.
// Every segment read is also counted into `scan` (the text warnings).
// Progress of a pass over `total` items (0: unknown); nothing when `progress` is off.
CiderCorpusRun::ItemProgress pass_progress(Progress& progress, const char* label, std::size_t total) {
  if (!progress.enabled()) return {};
  return [&progress, label, total](std::size_t done) { progress.update(label, done, total); };
}

constexpr const char* kPass1 = "document frequencies";
constexpr const char* kPass2 = "scoring images";

// What pass 1 read: the run, and for plain-text inputs their files (the test
// set a report or shard records) and the whole test set's segments under --shard.
struct CountedInputs {
  std::unique_ptr<CiderCorpusRun> run;
  std::optional<CorpusSpec> files;
  std::size_t whole_segments = 0;
};

// --shard K/N of plain-text inputs: the piece's segments, and one more read
// only as PTB's context of the piece's last caption (not after the last piece).
bool select_cider_shard(CorpusSpec& spec, OutputOptions& output, std::size_t& whole_segments) {
  whole_segments = select_shard(spec, output);
  if (!output.shard_position) return false;
  if (spec.first_segment + spec.segment_count >= whole_segments) return false;
  ++spec.segment_count;
  return true;
}

CountedInputs count_inputs(CiderCommandOptions& o, const CiderOptions& options, const TextPipeline& pipeline,
                           TextScan& scan, Progress& progress, Streams& io) {
  const bool plain = !o.input.refs.empty() || !o.input.positional_refs.empty();
  const bool coco = !o.coco_annotations.empty() || !o.coco_results.empty();
  const int modes = (plain ? 1 : 0) + (!o.jsonl.empty() ? 1 : 0) + (coco ? 1 : 0);
  if (modes == 0) throw usage_error("no references given: use -r FILE..., --jsonl FILE or --coco-annotations/--coco-results");
  if (modes > 1) throw usage_error("give references in one way only: -r FILE..., --jsonl FILE or --coco-annotations");
  if (!plain && !o.output.shard.empty()) {
    throw usage_error("--shard reads -r/-i files: JSONL and COCO inputs are read whole (split them instead)");
  }
  if (plain) {
    CountedInputs counted;
    CorpusSpec spec = make_corpus_spec(o.input, io.in);
    const bool context = select_cider_shard(spec, o.output, counted.whole_segments);
    scan_while_reading(spec, scan);
    // The total only on a terminal: counting reads the first hypothesis file once more.
    const std::size_t total = progress.enabled() && !spec.hyp_paths.empty() ? count_lines_for_progress(spec.hyp_paths[0]) : 0;
    counted.run = std::make_unique<CiderCorpusRun>(options, pipeline, spec, CiderCorpusRun::kBlockItems,
                                                   pass_progress(progress, kPass1, total), context);
    if (context) --spec.segment_count;  // the files of the piece itself
    counted.files = std::move(spec);
    return counted;
  }
  if (coco && (o.coco_annotations.empty() || o.coco_results.empty())) {
    throw usage_error("COCO input needs both --coco-annotations FILE and --coco-results FILE");
  }
  if (coco && !o.input.hyps.empty()) {
    throw usage_error("-i cannot be combined with COCO input: the results file holds the hypotheses");
  }
  io::CaptionSet set = coco ? io::read_coco_captions(o.coco_annotations, o.coco_results)
                            : io::read_jsonl_captions(o.jsonl, o.input.hyps);
  io::check_every_item_has_references(set, set.system_names.empty() ? "input" : set.system_names[0]);
  for (const auto& item : set.items) {
    for (std::size_t s = 0; s < item.hyps.size(); ++s) scan.add_hypothesis(s, item.hyps[s]);
    for (const auto& ref : item.refs) scan.add_line(ref);
  }
  const std::size_t items = set.items.size();
  CountedInputs counted;
  counted.run = std::make_unique<CiderCorpusRun>(options, pipeline, std::move(set), pass_progress(progress, kPass1, items));
  return counted;
}

// The command's options from the values of its definition's table (command
// line, or a --signature with the files and --df given on the command line).
CiderCommandOptions command_options(const MetricRun& run) {
  const OptionValues& values = run.values;
  CiderCommandOptions o;
  o.input = run.input;
  o.output = run.output;
  o.jsonl = values.text("jsonl");
  o.coco_annotations = values.text("coco-annotations");
  o.coco_results = values.text("coco-results");
  const PipelineOptions text = pipeline_options(values, "ptb");
  o.tokenizer = text.tokenizer;
  o.normalizers = text.normalizers;
  o.lowercase = text.lowercase;
  o.tokenizer_options = text.tokenizer_options;
  o.df_path = values.text("df");
  o.save_df_path = values.text("save-df");
  if (cider_signature_df(values) != "corpus" && o.df_path.empty()) {
    throw usage_error(fmt::format("the signature's df:{} names saved document frequencies: give them with --df FILE",
                                  cider_signature_df(values)));
  }
  return o;
}

// CIDEr's corpus scorer: document frequencies over all references, then every image's score.
void run_cider(MetricRun& run, Streams& io) {
  CiderCommandOptions o = command_options(run);
  o.output.accepts_shard = true;  // plain-text inputs with --df (below)
  check_outputs(o.output, {{"--save-df", o.save_df_path}});
  if (!o.output.shard.empty() && o.df_path.empty()) {
    throw Error(ExitCode::usage,
                "--shard needs --df FILE: CIDEr's document frequencies come from all references, not a piece's",
                "hint: count them once (evalcli cider -r ... -i ... --save-df FILE) and give every shard --df FILE");
  }
  if (!o.output.shard.empty() && !o.save_df_path.empty()) {
    throw usage_error("--shard and --save-df exclude each other: save the document frequencies of the whole test set");
  }
  const std::optional<RunSignature>& given = run.given;
  const CiderOptions options = cider_options(run.values);
  auto pipeline =
      std::make_unique<TextPipeline>(PipelineOptions{o.normalizers, o.lowercase, o.tokenizer, o.tokenizer_options});

  // A --df file is checked before the inputs are read, and used after pass 1
  // (its n-grams new to the corpus come last in a --save-df file).
  std::optional<CiderDocumentFrequencies> loaded_df;
  if (!o.df_path.empty()) {
    loaded_df = read_document_frequencies(o.df_path);
    check_document_frequencies_tokenizer(*loaded_df, pipeline->tokenizer().id(), o.df_path);
  }
  TextScan scan;
  Progress progress(io.err, o.output.quiet);
  CountedInputs counted = count_inputs(o, options, *pipeline, scan, progress, io);
  const std::unique_ptr<CiderCorpusRun>& inputs = counted.run;
  progress.finish();  // before the text warnings
  print_text_warnings(scan, text_checks(run.definition, run.values), inputs->system_names(), o.output.quiet, io.err);
  CiderCorpus& corpus = inputs->corpus();

  std::string df_field = "corpus";
  if (loaded_df) {
    corpus.use_document_frequencies(*loaded_df);
    df_field = cider_df_field(*loaded_df);
    loaded_df.reset();
  }
  // The statistics model of pass 2's per-image scores (it prints the signature).
  const Cider metric(options, std::move(pipeline), std::make_shared<CiderDocumentFrequencies>(), df_field);
  if (given) check_rebuilt_signature(*given, cider_display_name(options.variant), metric.signature());
  if (!o.save_df_path.empty()) {
    write_output(io, o.save_df_path,
                 serialize_document_frequencies(corpus.document_frequencies(metric.pipeline().tokenizer().id())));
  }

  // Pass 2: per-image scores, the statistics [score, 1] of each image. The
  // corpus score is numpy's mean of them (cider_presentation), the statistics
  // options work on them as on any metric's.
  WorkerPool pool(
      resolve_thread_count(static_cast<unsigned>(o.output.threads), inputs->ids().size(), kImagesPerDefaultThread));
  const std::vector<SystemStats> systems =
      inputs->system_stats(pass_progress(progress, kPass2, inputs->ids().size()), &pool);
  progress.finish();
  const auto presentation = cider_presentation(corpus.documents(), inputs->ids());
  const std::size_t nrefs = inputs->uniform_refs() > 0 ? inputs->uniform_refs() : kVariableRefs;
  if (counted.files) record_test_set(*counted.files, systems, counted.whole_segments, o.output);
  report_metric_results(metric, nrefs, systems, o.output, io, presentation.get());
}

}  // namespace

std::unique_ptr<Presentation> cider_presentation(std::optional<std::size_t> documents, std::vector<std::string> ids) {
  auto presentation = std::make_unique<Presentation>();
  presentation->default_width = 4;  // CIDEr is on a 0..10 scale
  presentation->json = [documents, ids = std::move(ids)](nlohmann::ordered_json& report, const SystemStats&,
                                                         std::size_t) {
    if (documents) report["documents"] = *documents;
    if (!report.contains("sentences") || report["sentences"].size() != ids.size()) return;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      nlohmann::ordered_json sentence;
      sentence["id"] = nlohmann::ordered_json::parse(ids[i]);  // ids are kept as JSON text: report the value
      for (auto it = report["sentences"][i].begin(); it != report["sentences"][i].end(); ++it) sentence[it.key()] = it.value();
      report["sentences"][i] = sentence;
    }
  };
  return presentation;
}

void add_cider_command(CLI::App& app, Streams& io) { add_metric_command(app, cider_definition(), io, run_cider); }

}  // namespace evalcli::cli
