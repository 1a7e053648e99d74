// `evalcli coco`: the table pycocoevalcap's COCOEvalCap prints (docs/coco.md):
// Bleu_1..4, METEOR, ROUGE_L, CIDEr from one read of the captions, tokenized
// once (ptb by default, as COCOEvalCap's PTBTokenizer), and with -f json the
// same dict ("eval") plus the per-image scores ("evalImgs").
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/cli.hpp"
#include "cli/common.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/core/summation.hpp"
#include "evalcli/io/caption_inputs.hpp"
#include "evalcli/metrics/cider.hpp"
#include "evalcli/metrics/coco.hpp"
#include "evalcli/metrics/meteor15.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli::cli {
namespace {

constexpr const char* kSpiceNote =
    "SPICE left out: it needs Stanford CoreNLP and a scene-graph parser (Java), which are not packaged";
constexpr const char* kNoParaphraseNote =
    "METEOR without paraphrases: METEOR 1.5's paraphrase table is not packaged (give --paraphrase-table FILE)";
constexpr const char* kNoMeteorNote =
    "METEOR left out: give --meteor-resources DIR (METEOR 1.5's resources folder)";

struct CocoOptions {
  InputOptions input;
  std::string jsonl, coco_annotations, coco_results;
  std::string tokenizer = "ptb";
  TokenizerOptions tokenizer_options;
  std::string meteor_resources, paraphrase_table;
  std::string format = "text";
  int width = 3;  // COCOEvalCap prints "%0.3f"
};

io::CaptionSet read_captions(const CocoOptions& o, Streams& io) {
  const bool plain = !o.input.refs.empty() || !o.input.positional_refs.empty();
  const bool coco = !o.coco_annotations.empty() || !o.coco_results.empty();
  const int modes = (plain ? 1 : 0) + (!o.jsonl.empty() ? 1 : 0) + (coco ? 1 : 0);
  if (modes == 0) throw usage_error("no references given: use -r FILE..., --jsonl FILE or --coco-annotations/--coco-results");
  if (modes > 1) throw usage_error("give references in one way only: -r FILE..., --jsonl FILE or --coco-annotations");
  if (coco && (o.coco_annotations.empty() || o.coco_results.empty())) {
    throw usage_error("COCO input needs both --coco-annotations FILE and --coco-results FILE");
  }
  if (coco && !o.input.hyps.empty()) {
    throw usage_error("-i cannot be combined with COCO input: the results file holds the hypotheses");
  }
  io::CaptionSet set = plain  ? io::read_plain_captions(make_corpus_spec(o.input, io.in))
                       : coco ? io::read_coco_captions(o.coco_annotations, o.coco_results)
                              : io::read_jsonl_captions(o.jsonl, o.input.hyps);
  io::check_every_item_has_references(set, set.system_names.empty() ? "input" : set.system_names[0]);
  return set;
}

// Whether `line` is already split() joined by single spaces (what `none`
// makes of it): no whitespace but single U+0020 between words.
bool is_squeezed(std::u32string_view line) {
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (!text::is_space(line[i])) continue;
    if (line[i] != U' ' || i == 0 || i + 1 == line.size() || text::is_space(line[i + 1])) return false;
  }
  return true;
}

// Every caption through the pipeline, in place (what every scorer reads).
// `none` without normalizers leaves a caption that is already squeezed as it
// is (pre-tokenized input: no copy of every caption).
void tokenize_all(io::CaptionSet& set, const TextPipeline& pipeline) {
  const bool squeeze_only =
      pipeline.tokenizer().name() == "none" && !pipeline.has_normalizers() && !pipeline.lowercase();
  auto process = [&](std::u32string& line) {
    if (!(squeeze_only && is_squeezed(line))) line = pipeline.process(line);
  };
  for (auto& item : set.items) {
    for (auto& ref : item.refs) process(ref);
    for (auto& hyp : item.hyps) process(hyp);
  }
}

// One metric's corpus score and per-image scores for one system.
struct MetricScores {
  std::string name;
  double score = 0;
  std::vector<double> images;
};

std::vector<MetricScores> bleu_scores(const io::CaptionSet& set, std::size_t system) {
  const CocoBleu bleu(CocoBleu::kMaxOrder, std::make_unique<TextPipeline>(PipelineOptions{.tokenizer = "none"}));
  std::vector<MetricScores> out(CocoBleu::kMaxOrder);
  for (int k = 0; k < CocoBleu::kMaxOrder; ++k) out[k].name = fmt::format("Bleu_{}", k + 1);
  std::vector<Stat> totals(bleu.num_stats(), 0.0), row(bleu.num_stats());
  for (const auto& item : set.items) {
    bleu.tokenized_stats(item.hyps[system], item.refs, row.data());
    add_stats(totals, row);
    const auto scores = bleu.scores(row);
    for (int k = 0; k < CocoBleu::kMaxOrder; ++k) out[k].images.push_back(scores[k]);
  }
  const auto corpus = bleu.scores(totals);
  for (int k = 0; k < CocoBleu::kMaxOrder; ++k) out[k].score = corpus[k];
  return out;
}

MetricScores rouge_scores(const io::CaptionSet& set, std::size_t system) {
  MetricScores out{"ROUGE_L", 0, {}};
  for (const auto& item : set.items) out.images.push_back(CocoRougeL::image_score(item.hyps[system], item.refs));
  out.score = stats::numpy_mean(out.images);
  return out;
}

// Captions of the set (references and hypotheses) and an estimate of their
// words (spaces + 1: the captions are tokenized), to pre-size CIDEr's tables.
std::size_t caption_count(const io::CaptionSet& set) {
  std::size_t captions = 0;
  for (const auto& item : set.items) captions += item.refs.size() + item.hyps.size();
  return captions;
}
std::size_t word_estimate(const io::CaptionSet& set) {
  std::size_t words = 0;
  auto add = [&](const std::u32string& caption) {
    words += static_cast<std::size_t>(std::count(caption.begin(), caption.end(), U' ')) + 1;
  };
  for (const auto& item : set.items) {
    std::for_each(item.refs.begin(), item.refs.end(), add);
    std::for_each(item.hyps.begin(), item.hyps.end(), add);
  }
  return words;
}

// Cider() of COCOEvalCap: CIDEr-D, document frequencies over all references.
std::vector<MetricScores> cider_scores(const io::CaptionSet& set) {
  CiderCorpus corpus{CiderOptions{}};
  corpus.reserve(set.items.size(), caption_count(set), word_estimate(set));  // no growth of its tables on the way
  for (const auto& item : set.items) corpus.add_document(item.refs, item.hyps);
  std::vector<MetricScores> out;
  for (std::size_t s = 0; s < set.system_names.size(); ++s) {
    MetricScores scores{"CIDEr", 0, corpus.score_all(s)};
    scores.score = stats::numpy_mean(scores.images);
    out.push_back(std::move(scores));
  }
  return out;
}

// Meteor() of COCOEvalCap: METEOR 1.5 -l en -norm, one SCORE line per image
// (the hypothesis without "|||" and with "  " made " ", as its _stat does),
// the aggregate from the summed statistics (its EVAL line).
MetricScores meteor_scores(const io::CaptionSet& set, std::size_t system, const Meteor15& meteor) {
  MetricScores out{"METEOR", 0, {}};
  std::vector<Stat> totals(meteor.num_stats(), 0.0), row(meteor.num_stats());
  for (const auto& item : set.items) {
    std::u32string hyp = item.hyps[system];
    for (std::size_t at; (at = hyp.find(U"|||")) != std::u32string::npos;) hyp.erase(at, 3);
    std::u32string squeezed;  // str.replace('  ', ' '): each pair of spaces once, left to right
    for (std::size_t i = 0; i < hyp.size(); ++i) {
      squeezed += hyp[i];
      if (hyp[i] == U' ' && i + 1 < hyp.size() && hyp[i + 1] == U' ') ++i;
    }
    meteor.segment_stats(squeezed, item.refs, row.data());
    add_stats(totals, row);
    out.images.push_back(meteor.score(row));
  }
  out.score = meteor.score(totals);
  return out;
}

nlohmann::ordered_json image_id(const std::string& id) {
  try {
    return nlohmann::ordered_json::parse(id);
  } catch (const nlohmann::json::exception&) {
    return id;
  }
}

void run_coco(const CocoOptions& o, Streams& io) {
  if (o.format != "text" && o.format != "json") throw usage_error(fmt::format("-f: unknown format '{}'", o.format));
  std::unique_ptr<Meteor15> meteor;
  if (!o.meteor_resources.empty()) {
    Meteor15Options options;
    options.normalization = Meteor15Normalization::norm;
    options.resources_dir = o.meteor_resources;
    options.paraphrase_table = o.paraphrase_table;
    // METEOR 1.5's English modules; without the table, the paraphrase module is left out.
    if (o.paraphrase_table.empty()) options.modules = {"exact", "stem", "synonym"};
    meteor = std::make_unique<Meteor15>(options);
  } else if (!o.paraphrase_table.empty()) {
    throw usage_error("--paraphrase-table needs --meteor-resources DIR");
  }
  io::CaptionSet set = read_captions(o, io);
  const TextPipeline pipeline(PipelineOptions{{}, false, o.tokenizer, o.tokenizer_options});
  tokenize_all(set, pipeline);

  std::vector<std::string> notes;
  if (!meteor) notes.push_back(kNoMeteorNote);
  if (meteor && o.paraphrase_table.empty()) notes.push_back(kNoParaphraseNote);
  notes.push_back(kSpiceNote);

  const auto cider = cider_scores(set);
  nlohmann::ordered_json systems = nlohmann::ordered_json::array();
  std::string text;
  for (std::size_t s = 0; s < set.system_names.size(); ++s) {
    std::vector<MetricScores> table = bleu_scores(set, s);
    if (meteor) table.push_back(meteor_scores(set, s, *meteor));
    table.push_back(rouge_scores(set, s));
    table.push_back(cider[s]);

    if (set.system_names.size() > 1) text += set.system_names[s] + "\n";
    nlohmann::ordered_json eval = nlohmann::ordered_json::object();
    for (const auto& metric : table) {
      eval[metric.name] = metric.score;
      text += fmt::format("{}: {:.{}f}\n", metric.name, metric.score, o.width);
    }
    nlohmann::ordered_json images = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < set.items.size(); ++i) {
      nlohmann::ordered_json image;
      image["image_id"] = image_id(set.items[i].id);
      for (const auto& metric : table) image[metric.name] = metric.images[i];
      images.push_back(std::move(image));
    }
    systems.push_back({{"system", set.system_names[s]}, {"eval", eval}, {"evalImgs", images}});
  }
  for (const auto& note : notes) text += "# " + note + "\n";
  if (o.format == "json") {
    nlohmann::ordered_json report;
    report["schema"] = "evalcli-coco/1";
    report["tokenizer"] = pipeline.tokenizer().id();
    if (meteor) report["meteor"] = meteor->eval_id();
    report["notes"] = notes;
    if (systems.size() == 1) {
      report["eval"] = systems[0]["eval"];
      report["evalImgs"] = systems[0]["evalImgs"];
    } else {
      report["systems"] = systems;
    }
    io.out << report.dump(2) << "\n";
  } else {
    io.out << text;
  }
}

}  // namespace

void add_coco_command(CLI::App& app, Streams& io) {
  auto options = std::make_shared<CocoOptions>();
  auto* cmd = app.add_subcommand(
      "coco", "COCOEvalCap's table: Bleu_1..4, METEOR, ROUGE_L, CIDEr (pycocoevalcap, bit for bit; no SPICE)");
  add_input_options(cmd, options->input);
  cmd->add_option("--jsonl", options->jsonl, "JSONL items {\"id\", \"refs\": [...], \"hyp\"} (hyp optional with -i)");
  cmd->add_option("--coco-annotations", options->coco_annotations, "COCO captions annotation file (references)");
  cmd->add_option("--coco-results", options->coco_results, "COCO results file [{\"image_id\", \"caption\"}]");
  cmd->add_option("--tokenize", options->tokenizer,
                  "tokenizer (-tok): ptb (default, as COCOEvalCap's PTBTokenizer), none for tokenized text, ...");
  add_tokenizer_options(cmd, options->tokenizer_options);
  cmd->add_option("--meteor-resources", options->meteor_resources,
                  "METEOR 1.5 resources folder (function/, nonbreaking/, synonym/); without it no METEOR");
  cmd->add_option("--paraphrase-table", options->paraphrase_table,
                  "METEOR 1.5 paraphrase table (paraphrase-en.gz; not packaged: without it METEOR has no paraphrases)");
  cmd->add_option("-f,--format", options->format, "text (COCOEvalCap's lines) or json (eval and evalImgs)")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("-w,--width", options->width, "decimals of printed scores (default 3, as COCOEvalCap)")
      ->check(CLI::Range(0, 17));
  cmd->callback([options, &io] { run_coco(*options, io); });
}

}  // namespace evalcli::cli
