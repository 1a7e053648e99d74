// `evalcli coco`: the table pycocoevalcap's COCOEvalCap prints (docs/coco.md):
// Bleu_1..4, METEOR, ROUGE_L, CIDEr from one read of the captions, tokenized
// once (ptb by default, as COCOEvalCap's PTBTokenizer), and with -f json the
// same dict ("eval") plus the per-image scores ("evalImgs").
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "cli/cli.hpp"
#include "cli/common.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/core/summation.hpp"
#include "evalcli/core/worker_pool.hpp"
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
  int threads = 0;  // -j: every available core
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

// Every caption through the pipeline, in place (what every scorer reads), as
// COCOEvalCap tokenizes them: all references in one text, item by item, and
// each system's hypotheses in another, so that PTB's look-ahead sees the
// caption that follows in that text (`evalcli cider` reads them the same way).
void tokenize_all(io::CaptionSet& set, const TextPipeline& pipeline) {
  std::vector<std::u32string> lines;
  for (auto& item : set.items) {
    for (auto& ref : item.refs) lines.push_back(std::move(ref));
  }
  pipeline.process_lines(lines);
  std::size_t at = 0;
  for (auto& item : set.items) {
    for (auto& ref : item.refs) ref = std::move(lines[at++]);
  }
  std::size_t systems = 0;
  for (const auto& item : set.items) systems = std::max(systems, item.hyps.size());
  for (std::size_t s = 0; s < systems; ++s) {
    lines.clear();
    for (auto& item : set.items) {
      if (s < item.hyps.size()) lines.push_back(std::move(item.hyps[s]));
    }
    pipeline.process_lines(lines);
    at = 0;
    for (auto& item : set.items) {
      if (s < item.hyps.size()) item.hyps[s] = std::move(lines[at++]);
    }
  }
}

// Every caption's words (str.split()) as ids of CIDEr's vocabulary, interned
// once and shared by Bleu, ROUGE_L and CIDEr. Captions are numbered item by
// item, references first, then one hypothesis per system.
class CaptionIds {
 public:
  CaptionIds(const io::CaptionSet& set, CiderCorpus& vocabulary) {
    // Room for the most words the captions can have (a word and a space per
    // two characters): the arrays never move, and pages never written cost nothing.
    std::size_t captions = 0, most_words = 0;
    for (const auto& item : set.items) {
      captions += item.refs.size() + item.hyps.size();
      for (const auto& ref : item.refs) most_words += (ref.size() + 1) / 2;
      for (const auto& hyp : item.hyps) most_words += (hyp.size() + 1) / 2;
    }
    words_.reserve(most_words);
    starts_.reserve(captions + 1);
    single_spaced_.reserve(captions);
    item_first_.reserve(set.items.size());
    starts_.push_back(0);
    for (const auto& item : set.items) {
      item_first_.push_back(starts_.size() - 1);
      for (const auto& ref : item.refs) add(ref, vocabulary);
      for (const auto& hyp : item.hyps) add(hyp, vocabulary);
    }
  }
  CaptionWords caption(std::size_t c) const {
    return CaptionWords(words_).subspan(starts_[c], starts_[c + 1] - starts_[c]);
  }
  std::size_t first_caption(std::size_t item) const { return item_first_[item]; }
  // Whether caption c's str.split(" ") tokens (ROUGE_L's) are its words:
  // words separated by single U+0020, nothing before or after.
  bool single_spaced(std::size_t c) const { return single_spaced_[c] != 0; }
  std::size_t words() const { return words_.size(); }

  // Caption c's text rewritten with the same words: its spacing seen again.
  void respaced(std::size_t c, std::u32string_view caption) {
    single_spaced_[c] = split_single_spaced(caption, [](std::u32string_view) {});
  }

 private:
  void add(std::u32string_view caption, CiderCorpus& vocabulary) {
    single_spaced_.push_back(
        split_single_spaced(caption, [&](std::u32string_view word) { words_.push_back(vocabulary.word_id(word)); }));
    starts_.push_back(words_.size());
  }
  // Visits the caption's split() words; returns whether it is single-spaced
  // (see single_spaced()).
  template <class Visit>
  static bool split_single_spaced(std::u32string_view caption, Visit visit) {
    std::size_t letters = 0, count = 0;
    bool spaces = true;  // every gap between words is a U+0020
    text::for_each_split(caption, [&](std::u32string_view word) {
      if (word.data() != caption.data()) spaces = spaces && word.data()[-1] == U' ';
      letters += word.size();
      ++count;
      visit(word);
    });
    // n words and n - 1 other characters: single gaps, none at either end.
    return count > 0 && spaces && letters + count - 1 == caption.size();
  }

  std::vector<std::uint32_t> words_;
  std::vector<std::size_t> starts_;      // caption c is words_[starts_[c], starts_[c + 1])
  std::vector<std::size_t> item_first_;  // by item, its first caption
  std::vector<std::uint8_t> single_spaced_;
};

// Every caption through the pipeline, in place, and its word ids. `none`
// alone (squeeze_spaces(): split()'s words joined by single spaces) keeps the
// words, so their ids come from the text as read, and only a caption not
// single-spaced already is rewritten (the text ROUGE_L's fallback and METEOR
// read): no other pass over every caption's characters.
CaptionIds tokenized_caption_ids(io::CaptionSet& set, const TextPipeline& pipeline, CiderCorpus& vocabulary) {
  if (!pipeline.squeezes_spaces_only()) {
    tokenize_all(set, pipeline);
    return CaptionIds(set, vocabulary);
  }
  CaptionIds ids(set, vocabulary);
  std::size_t c = 0;  // CaptionIds' numbering
  const auto squeeze = [&](std::u32string& caption) {
    if (!ids.single_spaced(c)) {
      caption = pipeline.process(caption);
      ids.respaced(c, caption);
    }
    ++c;
  };
  for (auto& item : set.items) {
    for (auto& ref : item.refs) squeeze(ref);
    for (auto& hyp : item.hyps) squeeze(hyp);
  }
  return ids;
}

// One image's captions as word ids (`refs` reused from image to image).
struct ImageWords {
  std::vector<CaptionWords> refs;
  CaptionWords hyp;
  bool single_spaced = true;  // every caption (see CaptionIds::single_spaced)

  void load(const CaptionIds& ids, std::size_t item, std::size_t references, std::size_t system) {
    const std::size_t first = ids.first_caption(item);
    refs.clear();
    single_spaced = ids.single_spaced(first + references + system);
    for (std::size_t r = 0; r < references; ++r) {
      refs.push_back(ids.caption(first + r));
      single_spaced = single_spaced && ids.single_spaced(first + r);
    }
    hyp = ids.caption(first + references + system);
  }
};

// One metric's corpus score and per-image scores for one system.
struct MetricScores {
  std::string name;
  double score = 0;
  std::vector<double> images;
};

// score(i) for every image i on the pool, in pieces of images; each image's
// result is its own, so the thread count changes nothing.
void for_each_image(WorkerPool& pool, std::size_t images, const std::function<void(std::size_t)>& score) {
  constexpr std::size_t kImagesPerTask = 256;
  pool.for_each((images + kImagesPerTask - 1) / kImagesPerTask, [&](std::size_t task) {
    const std::size_t end = std::min(images, (task + 1) * kImagesPerTask);
    for (std::size_t i = task * kImagesPerTask; i < end; ++i) score(i);
  });
}

// Bleu_1..4 from the n-grams CIDEr counted (`corpus` holds every image's captions).
std::vector<MetricScores> bleu_scores(const io::CaptionSet& set, const CaptionIds& ids, const CiderCorpus& corpus,
                                      std::size_t system, WorkerPool& pool) {
  const CocoBleu bleu(CocoBleu::kMaxOrder, std::make_unique<TextPipeline>(PipelineOptions{.tokenizer = "none"}));
  std::vector<MetricScores> out(CocoBleu::kMaxOrder);
  for (int k = 0; k < CocoBleu::kMaxOrder; ++k) out[k].name = fmt::format("Bleu_{}", k + 1);
  const std::size_t width = bleu.num_stats();
  std::vector<Stat> rows(set.items.size() * width);
  for_each_image(pool, set.items.size(), [&](std::size_t i) {
    thread_local ImageWords image;
    const std::size_t references = set.items[i].refs.size();
    image.load(ids, i, references, system);
    bleu.counted_stats(corpus, i, references + system, image.hyp, image.refs, &rows[i * width]);
  });
  std::vector<Stat> totals(width, 0.0);
  for (std::size_t i = 0; i < set.items.size(); ++i) {  // summed in image order
    const std::span<const Stat> row(&rows[i * width], width);
    add_stats(totals, row);
    const auto scores = bleu.scores(row);
    for (int k = 0; k < CocoBleu::kMaxOrder; ++k) out[k].images.push_back(scores[k]);
  }
  const auto overall = bleu.scores(totals);
  for (int k = 0; k < CocoBleu::kMaxOrder; ++k) out[k].score = overall[k];
  return out;
}

// ROUGE_L from the shared word ids, or from the text for an image whose
// captions ROUGE_L's split(" ") cuts otherwise (an empty caption, NBSP).
MetricScores rouge_scores(const io::CaptionSet& set, const CaptionIds& ids, std::size_t system, WorkerPool& pool) {
  MetricScores out{"ROUGE_L", 0, std::vector<double>(set.items.size())};
  for_each_image(pool, set.items.size(), [&](std::size_t i) {
    thread_local ImageWords image;
    const auto& item = set.items[i];
    image.load(ids, i, item.refs.size(), system);
    out.images[i] = image.single_spaced ? CocoRougeL::image_score(image.hyp, image.refs)
                                        : CocoRougeL::image_score(item.hyps[system], item.refs);
  });
  out.score = stats::numpy_mean(out.images);
  return out;
}

std::size_t caption_count(const io::CaptionSet& set) {
  std::size_t captions = 0;
  for (const auto& item : set.items) captions += item.refs.size() + item.hyps.size();
  return captions;
}

// Cider() of COCOEvalCap: CIDEr-D, document frequencies over all references,
// from the word ids `corpus` handed out to `ids`.
std::vector<MetricScores> cider_scores(const io::CaptionSet& set, const CaptionIds& ids, CiderCorpus& corpus,
                                       WorkerPool& pool) {
  std::vector<CaptionWords> refs, hyps;
  for (std::size_t i = 0; i < set.items.size(); ++i) {
    const std::size_t first = ids.first_caption(i), references = set.items[i].refs.size();
    refs.clear();
    hyps.clear();
    for (std::size_t r = 0; r < references; ++r) refs.push_back(ids.caption(first + r));
    for (std::size_t h = 0; h < set.items[i].hyps.size(); ++h) hyps.push_back(ids.caption(first + references + h));
    corpus.add_document_words(refs, hyps);
  }
  std::vector<MetricScores> out;
  for (std::size_t s = 0; s < set.system_names.size(); ++s) {
    MetricScores scores{"CIDEr", 0, corpus.score_all(s, &pool)};
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

// A double as nlohmann's dump() writes it (its Grisu2 digits; null unless finite).
void append_json_number(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  std::array<char, 64> buffer;
  const char* end = nlohmann::detail::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  out.append(buffer.data(), static_cast<std::size_t>(end - buffer.data()));
}

// evalImgs of one system as report.dump(2) writes the array whose key sits at
// `indent` spaces, without a JSON value per image (most of the report), written
// to `out` an image at a time (the report is never whole in memory).
void write_images_json(std::ostream& out, const std::vector<std::string>& ids, const std::vector<MetricScores>& table,
                       std::size_t indent) {
  if (ids.empty()) {
    out << "[]";
    return;
  }
  const std::string image_indent(indent + 2, ' '), field_indent(indent + 4, ' ');
  std::string image;  // one image's object, reused
  out << "[\n";
  for (std::size_t i = 0; i < ids.size(); ++i) {
    image.clear();
    image += image_indent + "{\n" + field_indent + "\"image_id\": " + ids[i];
    for (const auto& metric : table) {
      image += ",\n" + field_indent + "\"" + metric.name + "\": ";  // the names need no escaping
      append_json_number(image, metric.images[i]);
    }
    image += "\n" + image_indent + (i + 1 < ids.size() ? "},\n" : "}\n");
    out << image;
  }
  out << std::string(indent, ' ') << "]";
}

// Writes the report's text with each system's "evalImgs": "<placeholder s>"
// line's value replaced by its array (the placeholders: see run_coco). Every
// placeholder is found before anything is written.
void write_with_images(std::ostream& out, const std::string& dumped, const std::vector<std::string>& ids,
                       const std::vector<std::vector<MetricScores>>& tables) {
  struct Placeholder {
    std::size_t begin, end, indent;  // the value's bytes in `dumped`; its key's indentation
  };
  std::vector<Placeholder> placeholders;
  for (std::size_t s = 0; s < tables.size(); ++s) {
    // A line of its own: no string in the dump holds a raw newline.
    const std::string value = fmt::format("\"\\u0001evalImgs {}\"", s);
    const std::size_t from = placeholders.empty() ? 0 : placeholders.back().end;
    const std::size_t at = dumped.find("\"evalImgs\": " + value, from);
    const std::size_t line = at == std::string::npos ? 0 : dumped.rfind('\n', at) + 1;
    if (line == 0 || dumped.find_first_not_of(' ', line) != at) {
      throw Error(ExitCode::internal, "coco: the JSON report lost its evalImgs");
    }
    const std::size_t value_at = at + std::string("\"evalImgs\": ").size();
    placeholders.push_back({value_at, value_at + value.size(), at - line});
  }
  std::size_t written = 0;  // dumped[0, written) is out
  for (std::size_t s = 0; s < placeholders.size(); ++s) {
    out.write(dumped.data() + written, static_cast<std::streamsize>(placeholders[s].begin - written));
    write_images_json(out, ids, tables[s], placeholders[s].indent);
    written = placeholders[s].end;
  }
  out.write(dumped.data() + written, static_cast<std::streamsize>(dumped.size() - written));
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

  std::vector<std::string> notes;
  if (!meteor) notes.push_back(kNoMeteorNote);
  if (meteor && o.paraphrase_table.empty()) notes.push_back(kNoParaphraseNote);
  notes.push_back(kSpiceNote);

  CiderCorpus corpus{CiderOptions{}};
  corpus.forget_ngram_texts();  // coco neither saves nor loads a df file
  const CaptionIds ids = tokenized_caption_ids(set, pipeline, corpus);
  corpus.reserve(set.items.size(), caption_count(set), ids.words());  // no growth of its tables on the way
  WorkerPool pool(resolve_thread_count(static_cast<unsigned>(o.threads), set.items.size(), kImagesPerDefaultThread));
  const auto cider = cider_scores(set, ids, corpus, pool);
  nlohmann::ordered_json systems = nlohmann::ordered_json::array();
  std::vector<std::vector<MetricScores>> tables;
  std::string text;
  for (std::size_t s = 0; s < set.system_names.size(); ++s) {
    std::vector<MetricScores> table = bleu_scores(set, ids, corpus, s, pool);
    if (meteor) table.push_back(meteor_scores(set, s, *meteor));
    table.push_back(rouge_scores(set, ids, s, pool));
    table.push_back(cider[s]);

    if (set.system_names.size() > 1) text += set.system_names[s] + "\n";
    nlohmann::ordered_json eval = nlohmann::ordered_json::object();
    for (const auto& metric : table) {
      eval[metric.name] = metric.score;
      text += fmt::format("{}: {:.{}f}\n", metric.name, metric.score, o.width);
    }
    tables.push_back(std::move(table));
    if (o.format != "json") continue;
    nlohmann::ordered_json system = nlohmann::ordered_json::object();
    system["system"] = set.system_names[s];
    system["eval"] = std::move(eval);
    system["evalImgs"] = fmt::format("\u0001evalImgs {}", s);  // written by write_with_images()
    systems.push_back(std::move(system));
  }
  for (const auto& note : notes) text += "# " + note + "\n";
  if (o.format == "json") {
    nlohmann::ordered_json report;
    report["schema"] = "evalcli-coco/1";
    report["tokenizer"] = pipeline.tokenizer().id();
    if (meteor) report["meteor"] = meteor->eval_id();
    report["notes"] = notes;
    if (systems.size() == 1) {
      report["eval"] = std::move(systems[0]["eval"]);
      report["evalImgs"] = std::move(systems[0]["evalImgs"]);
    } else {
      report["systems"] = std::move(systems);
    }
    std::vector<std::string> image_ids;  // as JSON text
    image_ids.reserve(set.items.size());
    for (const auto& item : set.items) image_ids.push_back(image_id(item.id).dump());
    write_with_images(io.out, report.dump(2), image_ids, tables);
    io.out << "\n";
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
  cmd->add_option("-j,--threads", options->threads,
                  "threads that score the images (default 0 = one per 10,000 images, up to every available core); "
                  "the output is the same for any number")
      ->check(CLI::NonNegativeNumber);
  cmd->callback([options, &io] { run_coco(*options, io); });
}

}  // namespace evalcli::cli
