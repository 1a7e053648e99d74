// `evalcli ppl`: perplexity of an ARPA n-gram model over text (KenLM `query`
// numbers, optionally its exact output) or of any LM's per-token log-probs.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <functional>
#include <ostream>

#include "cli/common.hpp"
#include "cli/presentations.hpp"
#include "cli/progress.hpp"
#include "cli/metric_command.hpp"
#include "cli/run_signature.hpp"
#include "evalcli/core/code_pages.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/core/format.hpp"
#include "evalcli/core/sha256.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/io/decompress.hpp"
#include "evalcli/io/line_reader.hpp"
#include "evalcli/metrics/ppl.hpp"
#include "evalcli/metrics/ppl_corpus.hpp"
#include "evalcli/metrics/ppl_metric.hpp"
#include "evalcli/stats/shard.hpp"
#include "evalcli/text/normalizer.hpp"
#include "evalcli/tokenize/pipeline.hpp"
#include "evalcli/tokenize/tokenizer.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli::cli {
namespace {

struct PplOptions {
  std::vector<std::string> lms;            // --lm: one model, or several on the same text (the systems)
  std::vector<std::string> logprob_files;  // --logprobs: one file, or several models' log-probs of the same documents
  std::string input = "-";
  bool null_context = false;
  bool kenlm_output = false;
  bool kenlm_final_line = false;
  std::vector<std::string> levels;
  std::string tokenizer = "none";
  std::vector<std::string> normalizers;
  bool lowercase = false;
  std::string logprob_base = "e";
  std::string format = "text";
  std::string json_out;
  bool per_doc = false;
  std::string signature;
  OptionValues values;   // the options of ppl_definition()'s table, as given
  OutputOptions output;  // the shared statistics options (--stats, --confidence, --stats-out, ...)
};

// The report options for the shared path (report_metric_results).
OutputOptions shared_output(const PplOptions& o) {
  OutputOptions output = o.output;
  output.format = o.format;
  output.json_out = o.json_out;
  output.width = 4;
  return output;  // sentence_level stays off: --per-doc is the presentation's
}

// Buffered writes to the output stream (per-word output can be large).
class OutputBuffer {
 public:
  explicit OutputBuffer(std::ostream& out) : out_(out) { buffer_.reserve(1 << 16); }
  ~OutputBuffer() { flush(); }
  void append(std::string_view text) {
    buffer_ += text;
    if (buffer_.size() >= (1 << 16)) flush();
  }
  void flush() {
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
  }

 private:
  std::ostream& out_;
  std::string buffer_;
};

void append_integer(std::string& out, std::uint64_t value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(digits, end);
}

std::string number_text(const nlohmann::json& value) {
  if (value.is_null()) return "n/a";
  return value.dump();
}

std::string report_text(const nlohmann::ordered_json& details, const std::string& signature) {
  std::string out;
  for (auto it = details.begin(); it != details.end(); ++it) {
    out += fmt::format("{} = {}\n", it.key(), number_text(it.value()));
  }
  out += fmt::format("signature = {}\n", signature);
  return out;
}

nlohmann::ordered_json make_ppl_report(const std::string& name, const std::string& system, const nlohmann::json& score,
                                       const std::string& signature, std::uint64_t segments,
                                       const nlohmann::ordered_json& stats, const nlohmann::ordered_json& details) {
  nlohmann::ordered_json report;
  report["schema"] = "evalcli-report/1";
  report["name"] = name;
  report["system"] = system;
  report["score"] = score;
  report["signature"] = signature;
  report["segments"] = segments;
  report["stats"] = stats;
  for (auto it = details.begin(); it != details.end(); ++it) report[it.key()] = it.value();
  return report;
}

// Counts lines that look tokenized already (a space before a final period or
// before a comma, split-off clitics): their bits per character and byte
// include the spaces a tokenizer inserted, which the raw text does not have.
class TokenizedLook {
 public:
  void add(std::string_view line) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.remove_suffix(1);
    if (line.empty()) return;
    ++lines_;
    const bool tokenized = line.ends_with(" .") || line.ends_with(" ?") || line.ends_with(" !") ||
                           line.find(" , ") != std::string_view::npos || line.find(" n't ") != std::string_view::npos ||
                           line.find(" 's ") != std::string_view::npos;
    tokenized_ += tokenized;
  }
  // A note for stderr when most lines look tokenized, else "".
  std::string note() const {
    if (lines_ == 0 || tokenized_ * 2 <= lines_) return "";
    return fmt::format("evalcli: note: {} of {} lines look tokenized (spaces before punctuation): bits per character "
                       "and byte count the input as given, the spaces a tokenizer inserted included; for the figure "
                       "of the raw text, score the untokenized text (with -tok 13a or the model's own tokenizer)\n",
                       tokenized_, lines_);
  }

 private:
  std::size_t lines_ = 0, tokenized_ = 0;
};

// Which of KenLM query's three output levels to print (query -v).
struct KenlmLevels {
  bool word = true, sentence = true, summary = true;
};

KenlmLevels parse_levels(const std::vector<std::string>& levels) {
  if (levels.empty()) return {};
  KenlmLevels out{false, false, false};
  for (const auto& level : levels) {
    if (level == "summary" || level == "0") {
      out.summary = true;
    } else if (level == "sentence") {
      out.sentence = true;
    } else if (level == "word") {
      out.word = true;
    } else if (level == "1") {  // legacy query -v 1: sentence + summary
      out.sentence = out.summary = true;
    } else if (level == "2") {  // legacy query -v 2: everything
      out = KenlmLevels{};
    } else {
      throw usage_error(fmt::format("--level must be summary, sentence or word (or 0, 1, 2), not '{}'", level));
    }
  }
  return out;
}

// KenLM query's line: "SURFACE=ID LENGTH LOG10P\t" per word, then "Total: T OOV: N".
// Built by hand: it is the hot path of --kenlm-output.
std::string kenlm_line_text(const ppl::ArpaLine& line, bool sentence_level) {
  std::string rendered;
  for (const auto& w : line.words) {
    rendered += w.surface;
    rendered += '=';
    append_integer(rendered, w.id);
    rendered += ' ';
    append_integer(rendered, w.score.ngram_length);
    rendered += ' ';
    ppl::append_kenlm_number(rendered, w.score.log10_prob);
    rendered += '\t';
  }
  if (sentence_level && !line.kenlm_unterminated) {
    rendered += fmt::format("Total: {} OOV: {}\n", ppl::kenlm_number(line.score.total), line.score.oovs);
  }
  return rendered;
}

// The --per-doc row of a --kenlm-output run (else the presentation reports the rows).
nlohmann::ordered_json kenlm_line_json(const ppl::ArpaLine& line) {
  const ppl::PplStats& stats = line.score.stats;
  nlohmann::ordered_json row;
  row["line"] = line.line_number;
  row["log10_total"] = line.score.total;
  row["ppl"] = stats.tokens == 0 ? nlohmann::json(nullptr) : nlohmann::json(stats.ppl_including_oovs());
  row["tokens"] = stats.tokens;
  row["oovs"] = line.score.oovs;
  row["chars"] = stats.chars;
  row["bytes"] = stats.bytes;
  return row;
}

// ---------------------------------------------------------------------------
// ARPA mode

struct ArpaSetup {
  std::unique_ptr<TextPipeline> pipeline;  // null: KenLM's raw byte tokens
  ppl::PplRun text;                        // the run's tokenization fields
};

ArpaSetup make_arpa_setup(const PplOptions& o) {
  ArpaSetup setup;
  setup.text.null_context = o.null_context;
  if (o.tokenizer == "none" && o.normalizers.empty() && !o.lowercase) return setup;  // tok:none
  PipelineOptions pipeline;
  pipeline.tokenizer = o.tokenizer;
  pipeline.normalizers = o.normalizers;
  pipeline.lowercase = o.lowercase;
  setup.pipeline = std::make_unique<TextPipeline>(pipeline);
  setup.text.tokenizer = setup.pipeline->tokenizer().id();
  setup.text.normalizers = setup.pipeline->normalizer_chain_id();
  setup.text.lowercase = o.lowercase;
  return setup;
}

// "scoring lines" over the lines of `path` (unknown for standard input); nothing when `progress` is off.
std::function<void(std::size_t)> line_progress(Progress& progress, const std::string& path) {
  if (!progress.enabled()) return {};
  return [&progress, total = count_lines_for_progress(path)](std::size_t done) {
    progress.update("scoring lines", done, total);
  };
}

// Signatures printed before scorer: existed read back where their rules give this run's numbers.
std::vector<FieldAddedLater> scorer_added_later(const ppl::NgramModel& model, const std::string& path) {
  return {{"scorer", ppl::why_unversioned_scorer_differs(model, path)}};
}

// The statistics model of a run of `model` (loaded from `path`): it prints the signature.
ppl::PplMetric arpa_metric(const ArpaSetup& setup, const std::string& path, const ppl::NgramModel& model) {
  ppl::PplRun run = setup.text;
  run.lm = std::filesystem::path(path).filename().string();
  run.lm_md5 = model.md5();
  run.order = model.order();
  return ppl::PplMetric(std::move(run));
}

ppl::ArpaCorpusOptions arpa_scoring(const PplOptions& o, const ArpaSetup& setup) {
  ppl::ArpaCorpusOptions scoring;
  scoring.mode = o.null_context ? ppl::ContextMode::null : ppl::ContextMode::sentence;
  scoring.pipeline = setup.pipeline.get();
  scoring.kenlm_final_line = o.kenlm_final_line;
  scoring.threads = static_cast<unsigned>(o.output.threads);
  return scoring;
}

// --kenlm-output: KenLM query's text for the one model.
void run_kenlm_output(const PplOptions& o, const RunSignature* given, Streams& io) {
  const ArpaSetup setup = make_arpa_setup(o);
  const std::string& lm = o.lms.front();
  // The MD5 (in the signature) is only computed if a signature is printed or checked.
  const bool needs_signature = !o.json_out.empty() || given != nullptr;
  auto model = ppl::NgramModel::load(lm, &io.err, needs_signature);
  const std::string metric_fields = arpa_metric(setup, lm, *model).signature();
  // The model given must be the signature's (name, MD5, order).
  if (given != nullptr) check_rebuilt_signature(*given, "PPL", metric_fields, scorer_added_later(*model, lm));
  const std::string signature = full_signature(0, metric_fields);
  const KenlmLevels levels = parse_levels(o.levels);

  ppl::TextInput input(o.input, io.in);
  OutputBuffer out(io.out);
  ppl::ArpaCorpusOptions scoring = arpa_scoring(o, setup);
  scoring.want_words = levels.word;
  // KenLM's per-line output on the same terminal would be written into the bar.
  Progress progress(io.err, o.output.quiet || ::isatty(STDOUT_FILENO) == 1);
  scoring.on_scored = line_progress(progress, o.input);
  nlohmann::ordered_json per_line = nlohmann::ordered_json::array();
  const auto print_kenlm_line = [&](const ppl::ArpaLine& line) {
    out.append(kenlm_line_text(line, levels.sentence));
    if (o.per_doc) per_line.push_back(kenlm_line_json(line));
  };
  memory::release_executable_pages();  // start-up is over: its code need not stay resident
  const ppl::ArpaCorpus scored = ppl::score_arpa_text(*model, input, scoring, print_kenlm_line);
  // Released before the summary is printed: the code that prints it, mapped
  // back after release_executable_pages, then does not add to the peak memory.
  model.reset();
  progress.finish();
  const ppl::PplStats& corpus = scored.totals;
  const nlohmann::ordered_json details = corpus.to_json();
  if (levels.summary) {
    out.append(fmt::format("Perplexity including OOVs:\t{}\nPerplexity excluding OOVs:\t{}\nOOVs:\t{}\nTokens:\t{}\n",
                           ppl::kenlm_number(corpus.ppl_including_oovs()),
                           ppl::kenlm_number(corpus.ppl_excluding_oovs()), corpus.oovs, corpus.tokens));
  }
  out.flush();
  if (!o.json_out.empty()) {
    auto report = make_ppl_report("PPL", input.name(), details["ppl_including_oovs"], signature, corpus.lines,
                                  ppl::arpa_stats_json(corpus), details);
    if (o.per_doc) report["sentences"] = per_line;
    write_output(io, o.json_out, report.dump(2) + "\n");
  }
}

// With several models: a note when their OOV counts differ (each OOV is one
// cheap <unk>, so perplexity including OOVs favours the smaller vocabulary).
std::string oov_note(const std::vector<SystemStats>& systems) {
  std::vector<std::string> counts;
  bool differ = false;
  const std::uint64_t first = ppl::arpa_stats(systems[0].totals).oovs;
  for (const auto& system : systems) {
    const ppl::PplStats totals = ppl::arpa_stats(system.totals);
    differ = differ || totals.oovs != first;
    counts.push_back(fmt::format("{} ({} of {} tokens)", system.system, totals.oovs, totals.tokens));
  }
  if (!differ) return "";
  return fmt::format("evalcli: note: the models' vocabularies differ: OOVs {}; each OOV costs one <unk>, so the "
                     "perplexity including OOVs favours the model with more of them: read a comparison next to the "
                     "OOV counts\n",
                     fmt::join(counts, ", "));
}

// --shard K/N over the input's `segments`: the piece to score; its position goes into `output`.
ppl::SegmentRange select_piece(const std::string& shard, std::size_t segments, OutputOptions& output) {
  if (shard.empty()) return {};
  const auto [index, count] = stats::parse_shard_option(shard);
  output.shard_position = stats::shard_position(index, count, segments);
  return {output.shard_position->first_line - 1, output.shard_position->lines};
}

// What a JSON report or a shard records of the scored input (as record_test_set does for -r/-i
// files): the whole input's segment count and, per system, the file it scored and its SHA-256
// (the text for every model of --lm; each --logprobs file). Standard input has no hash: nothing.
void record_inputs(const std::vector<std::string>& paths, std::size_t segments, OutputOptions& output) {
  const bool records = output.format == "json" || !output.json_out.empty() || !output.stats_out.empty();
  if (!records || std::find(paths.begin(), paths.end(), "-") != paths.end()) return;
  TestSetIdentity identity;
  identity.segments = segments;
  for (const auto& path : paths) identity.hypotheses.push_back({path, sha256_file_hex(path)});
  output.test_set = identity;
}

// --shard: the segments of the whole input, counted in a first reading.
std::size_t count_input(const std::string& path, bool documents, Streams& io) {
  ppl::TextInput input(path, io.in);
  const std::size_t segments = documents ? ppl::count_documents(input) : ppl::count_text_lines(input);
  if (segments == 0) {
    throw input_error(fmt::format("{}: empty input: no {} to score", input.name(), documents ? "documents" : "lines"));
  }
  return segments;
}

// The evalcli report: every model of --lm over the same text (read once per model).
void run_arpa(const PplOptions& o, const RunSignature* given, Streams& io) {
  if (o.kenlm_output) return run_kenlm_output(o, given, io);
  const ArpaSetup setup = make_arpa_setup(o);
  const bool several = o.lms.size() > 1;
  OutputOptions output = shared_output(o);
  const std::size_t whole = o.output.shard.empty() ? 0 : count_input(o.input, false, io);
  const ppl::SegmentRange piece = select_piece(o.output.shard, whole, output);
  std::vector<SystemStats> systems;
  std::vector<std::string> fields;
  ppl::PplRun first_run;  // the first model's: the statistics model of the report
  TokenizedLook tokenized_look;
  for (std::size_t m = 0; m < o.lms.size(); ++m) {
    const auto model = ppl::NgramModel::load(o.lms[m], &io.err);
    const ppl::PplMetric model_metric = arpa_metric(setup, o.lms[m], *model);
    if (m == 0) first_run = model_metric.run();
    fields.push_back(model_metric.signature());
    // The model given must be the signature's (name, MD5, order).
    if (given != nullptr) check_rebuilt_signature(*given, "PPL", fields.back(), scorer_added_later(*model, o.lms[m]));
    ppl::TextInput input(o.input, io.in);
    ppl::ArpaCorpusOptions scoring = arpa_scoring(o, setup);
    // Per-line rows only when reported (--per-doc, JSON, statistics options):
    // corpus scoring keeps constant memory whatever the number of lines.
    scoring.keep_rows = o.per_doc || needs_rows(output);
    scoring.range = piece;
    if (m == 0 && !o.output.quiet) scoring.on_line = [&](std::string_view line) { tokenized_look.add(line); };
    Progress progress(io.err, o.output.quiet);
    scoring.on_scored = line_progress(progress, o.input);
    if (m == 0) memory::release_executable_pages();  // start-up is over: its code need not stay resident
    ppl::ArpaCorpus scored = ppl::score_arpa_text(*model, input, scoring);
    progress.finish();
    // As every metric: nothing to score is an input error, not a report of n/a.
    if (scored.totals.lines == 0) throw input_error(fmt::format("{}: empty input: no lines to score", input.name()));
    if (several) scored.system.system = o.lms[m];  // the models are the systems
    systems.push_back(std::move(scored.system));
  }
  record_inputs(std::vector<std::string>(systems.size(), o.input), whole > 0 ? whole : systems[0].segments, output);
  const ppl::PplMetric metric(first_run);
  PplSystems shown;
  shown.fields = std::move(fields);
  shown.paired = o.output.paired_bs || o.output.paired_ar;
  const auto presentation = ppl_presentation(metric, o.per_doc, std::move(shown));
  report_metric_results(metric, 0, systems, output, io, presentation.get());
  if (several && !o.output.quiet) io.err << oov_note(systems);
  io.err << tokenized_look.note();
}

// ---------------------------------------------------------------------------
// Log-prob mode

// Several log-prob files are several models' scores of the same documents:
// the same number, and document by document the same text (characters, bytes,
// words) and id (where both have one). A paired test compares per-token
// perplexities, which only mean the same thing over the same tokens.
void check_same_documents(const std::vector<std::string>& files, const std::vector<SystemStats>& systems,
                          const PplSystems& shown, bool paired) {
  const auto where = [&](std::size_t s, std::size_t i) { return fmt::format("{}:{}", files[s], shown.line_numbers[s][i]); };
  for (std::size_t s = 1; s < systems.size(); ++s) {
    if (systems[s].rows.size() != systems[0].rows.size()) {
      throw input_error(fmt::format("{}: {} documents, but {} has {}: several --logprobs files must score the same "
                                    "documents",
                                    files[s], systems[s].rows.size(), files[0], systems[0].rows.size()));
    }
    for (std::size_t i = 0; i < systems[s].rows.size(); ++i) {
      const ppl::LogprobStats a = ppl::logprob_stats(systems[0].rows[i]);
      const ppl::LogprobStats b = ppl::logprob_stats(systems[s].rows[i]);
      if (a.chars != b.chars || a.bytes != b.bytes || a.words != b.words || a.docs_without_text != b.docs_without_text) {
        throw input_error(fmt::format("{}: not the text of {} ({} vs {} characters, {} vs {} bytes): several "
                                      "--logprobs files must score the same documents, in the same order",
                                      where(s, i), where(0, i), b.chars, a.chars, b.bytes, a.bytes));
      }
      const nlohmann::json& id_a = shown.ids[0][i];
      const nlohmann::json& id_b = shown.ids[s][i];
      if (!id_a.is_null() && !id_b.is_null() && id_a != id_b) {
        throw input_error(fmt::format("{}: id {} is not the id {} of {}: several --logprobs files must score the same "
                                      "documents, in the same order",
                                      where(s, i), id_b.dump(), id_a.dump(), where(0, i)));
      }
      if (paired && a.scored_tokens != b.scored_tokens) {
        throw input_error(fmt::format("{}: {} scored tokens, but {} has {}: per-token perplexities of different "
                                      "tokenizations are not comparable, so a paired test of them would mislead; "
                                      "compare the files' bits per byte (bpb) instead",
                                      where(s, i), b.scored_tokens, where(0, i), a.scored_tokens));
      }
    }
  }
}

// Without a paired test, a note when the files score different numbers of tokens.
std::string token_count_note(const std::vector<SystemStats>& systems) {
  const auto tokens = [](const SystemStats& system) { return ppl::logprob_stats(system.totals).scored_tokens; };
  for (const auto& system : systems) {
    if (tokens(system) != tokens(systems[0])) {
      return fmt::format("evalcli: note: {} scores {} tokens, {} scores {}: per-token perplexities of different "
                         "tokenizations are not comparable; bits per character and byte of the same text are\n",
                         systems[0].system, tokens(systems[0]), system.system, tokens(system));
    }
  }
  return "";
}

void run_logprobs(const PplOptions& o, const RunSignature* given, Streams& io) {
  const ppl::LogBase base = ppl::parse_log_base(o.logprob_base);
  ppl::PplRun run;
  run.mode = ppl::PplRun::Mode::logprobs;
  run.log_base = std::string(ppl::log_base_name(base));
  const ppl::PplMetric metric(run);
  if (given != nullptr) check_rebuilt_signature(*given, "PPL", metric.signature());
  const bool several = o.logprob_files.size() > 1;
  const bool paired = o.output.paired_bs || o.output.paired_ar;
  OutputOptions output = shared_output(o);
  // --shard: one file (several are refused with --stats-out), counted first.
  const std::size_t whole = o.output.shard.empty() ? 0 : count_input(o.logprob_files.front(), true, io);
  const ppl::SegmentRange piece = select_piece(o.output.shard, whole, output);
  // Rows are kept to check several files' documents against each other; else constant memory.
  const bool keep_rows = several || o.per_doc || needs_rows(output);
  std::vector<SystemStats> systems;
  PplSystems shown;
  shown.paired = paired;
  for (const auto& file : o.logprob_files) {
    ppl::TextInput input(file, io.in);
    std::size_t warnings = 0;
    const auto warn = [&](const std::string& warning) {
      if (++warnings <= 10) io.err << "evalcli: warning: " << warning << '\n';
    };
    Progress progress(io.err, o.output.quiet);
    ppl::LogprobCorpus scored = ppl::score_logprob_text(input, base, keep_rows, warn, line_progress(progress, file), piece);
    progress.finish();
    if (warnings > 10) io.err << fmt::format("evalcli: warning: {} more positive log-probabilities\n", warnings - 10);
    if (scored.system.segments == 0) throw input_error(fmt::format("{}: empty input: no documents to score", input.name()));
    systems.push_back(std::move(scored.system));
    shown.line_numbers.push_back(std::move(scored.line_numbers));
    shown.ids.push_back(std::move(scored.ids));
  }
  if (several) check_same_documents(o.logprob_files, systems, shown, paired);
  record_inputs(o.logprob_files, whole > 0 ? whole : systems[0].segments, output);
  const auto presentation = ppl_presentation(metric, o.per_doc, std::move(shown));
  report_metric_results(metric, 0, systems, output, io, presentation.get());
  if (several && !paired && !o.output.quiet) io.err << token_count_note(systems);
}

// --signature: the options a PPL signature records (context, tokenization,
// log base) set as the run had them; the model or log-prob file is given on
// the command line and checked against the signature's lm:/lm-md5:/order:.
std::optional<RunSignature> apply_signature(PplOptions& o, const CLI::App& cmd) {
  if (o.signature.empty()) return std::nullopt;
  const bool arpa = o.values.has("lm");
  RunSignature given = read_metric_signature(ppl::ppl_definition(), o.signature, std::nullopt, o.values, o.output, cmd);
  const std::string mode = find_field(given.metric_fields, "mode").value_or("");
  if (mode != (arpa ? "arpa" : "logprobs")) {
    throw usage_error(fmt::format("the signature is for mode:{}, but {} was given", mode.empty() ? "?" : mode,
                                  arpa ? "--lm" : "--logprobs"));
  }
  return given;
}

// The options of the run from the values of the definition's table.
void take_values(PplOptions& o) {
  const OptionValues& values = o.values;
  o.lms = values.list("lm");
  o.logprob_files = values.list("logprobs");
  o.input = values.text("input", "-");
  o.null_context = values.flag("null-context");
  o.kenlm_output = values.flag("kenlm-output");
  o.kenlm_final_line = values.flag("kenlm-final-line");
  o.levels = values.list("level");
  o.tokenizer = values.text("tokenize", "none");
  o.normalizers = values.list("normalize");
  o.lowercase = values.flag("lowercase");
  o.logprob_base = values.text("logprob-base", "e");
}

// Several models (several --lm or --logprobs files) are several systems: what
// cannot take more than one, and the paired tests that need more than one.
void check_systems(const PplOptions& o) {
  const bool arpa = !o.lms.empty();
  const std::size_t count = arpa ? o.lms.size() : o.logprob_files.size();
  const char* option = arpa ? "--lm" : "--logprobs";
  if (o.output.paired_bs || o.output.paired_ar) {
    if (count < 2) {
      throw usage_error(fmt::format("{}: a paired test compares models on the same text: give the baseline first and "
                                    "the others after it ({} BASELINE{} OTHER{}...)",
                                    o.output.paired_bs ? "--paired-bs" : "--paired-ar", option,
                                    arpa ? ".arpa" : ".jsonl", arpa ? ".arpa" : ".jsonl"));
    }
  }
  if (count < 2) return;
  if (!o.signature.empty()) {
    throw usage_error(fmt::format("--signature names one model: give one {} file with it", option));
  }
  if (o.kenlm_output) throw usage_error("--kenlm-output prints KenLM's text for one model: give one --lm");
  if (!o.output.stats_out.empty()) {
    throw usage_error(fmt::format("--stats-out writes one model's statistics: run each {} file on its own with "
                                  "--stats-out",
                                  option));
  }
  if (arpa && o.input == "-") {
    throw usage_error("several --lm models each read the text: give it with -i FILE (standard input can be read once)");
  }
  if (std::find(o.logprob_files.begin(), o.logprob_files.end(), "-") != o.logprob_files.end()) {
    throw usage_error("several --logprobs files: standard input (-) cannot be one of them");
  }
}

void run_ppl(PplOptions o, CLI::App* cmd, Streams& io) {
  o.output.accepts_shard = true;  // --shard K/N: a piece of the text's lines or of the JSONL documents
  check_outputs(shared_output(o));  // --json-out among them
  if (o.values.has("lm") == o.values.has("logprobs")) {
    throw usage_error("give exactly one of --lm MODEL.arpa and --logprobs FILE.jsonl (each may name several models)");
  }
  const std::optional<RunSignature> given = apply_signature(o, *cmd);
  take_values(o);
  const RunSignature* signature = given ? &*given : nullptr;
  if (o.kenlm_output && wants_statistics(o.output)) {
    throw usage_error("--kenlm-output prints KenLM's text only: the statistics options need the evalcli report");
  }
  check_systems(o);
  if (!o.output.shard.empty() && (o.lms.empty() ? o.logprob_files.front() : o.input) == "-") {
    throw usage_error(fmt::format("--shard needs the input as a file ({}): standard input cannot be read twice",
                                  o.lms.empty() ? "--logprobs FILE" : "-i FILE"));
  }
  if (!o.lms.empty()) {
    if (cmd->count("--logprob-base") > 0) throw usage_error("--logprob-base applies to --logprobs only");
    run_arpa(o, signature, io);
    return;
  }
  for (const char* arpa_only : {"--null-context", "--kenlm-output", "--level", "--tokenize", "--normalize", "--lowercase"}) {
    if (cmd->count(arpa_only) > 0) throw usage_error(fmt::format("{} applies to --lm (ARPA mode) only", arpa_only));
  }
  if (o.input != "-") throw usage_error("--input applies to --lm; with --logprobs the JSONL file is the input");
  run_logprobs(o, signature, io);
}

}  // namespace

namespace {

// A number of the report's details with 4 decimals, or "n/a" (null: nothing scored).
std::string detail_number(const nlohmann::ordered_json& details, const char* key) {
  const auto found = details.find(key);
  if (found == details.end() || !found->is_number()) return "n/a";
  return format_fixed(found->get<double>(), 4);
}

// The numbers people compare, first (the full key = value list follows).
// Perplexities of models with other vocabularies or tokenizers are not
// comparable; bits per character and per byte of the same text are.
std::string ppl_headline(const nlohmann::ordered_json& details, bool arpa) {
  if (!arpa) {
    return fmt::format("PPL (per token) = {} | {} bits/char, {} bits/byte of the documents' text\n",
                       detail_number(details, "ppl_token"), detail_number(details, "bpc"),
                       detail_number(details, "bpb"));
  }
  // null when nothing was scored (only empty lines in null-context mode)
  const auto rate = details.find("oov_rate");
  const double oov_rate = rate != details.end() && rate->is_number() ? rate->get<double>() : 0.0;
  std::string text = fmt::format(
      "PPL = {} (excluding OOVs: {}) | OOV rate {}% ({} of {} tokens) | {} bits/char, {} bits/byte of the input as "
      "given\n",
      detail_number(details, "ppl_including_oovs"), detail_number(details, "ppl_excluding_oovs"),
      format_fixed(100.0 * oov_rate, 2), details.value("oovs", 0), details.value("tokens", 0),
      detail_number(details, "bpc"), detail_number(details, "bpb"));
  if (oov_rate > 0.05) {
    text += fmt::format("note: {}% of the tokens are not in the model's vocabulary: perplexities of models with other "
                        "vocabularies are not comparable; bits per character or byte of the same text are\n",
                        format_fixed(100.0 * oov_rate, 1));
  }
  return text;
}

}  // namespace

namespace {

// The signature of system `s` when each system is its own model: the run's
// signature with the baseline model's fields replaced by the model's own.
std::string model_signature(const std::string& signature, const std::string& baseline_fields,
                            const std::vector<std::string>& fields, std::size_t s) {
  if (s == 0 || s >= fields.size()) return signature;
  const std::string from = "|" + baseline_fields + "|";
  const auto at = signature.find(from);
  if (at == std::string::npos) throw Error(ExitCode::internal, "ppl: the model's fields are not in the signature");
  return signature.substr(0, at) + "|" + fields[s] + "|" + signature.substr(at + from.size());
}

}  // namespace

std::unique_ptr<Presentation> ppl_presentation(const StatsModel& metric, bool per_doc, PplSystems systems) {
  const auto* ppl_metric = dynamic_cast<const ppl::PplMetric*>(&metric);
  if (ppl_metric == nullptr) throw Error(ExitCode::internal, "ppl_presentation needs a PPL metric");
  const bool arpa = ppl_metric->mode() == ppl::PplMetric::Mode::arpa;
  auto presentation = std::make_unique<Presentation>();
  presentation->default_width = 4;
  auto shown = std::make_shared<const PplSystems>(std::move(systems));
  auto line_of = [shown](std::size_t s, std::size_t i) {
    if (s < shown->line_numbers.size() && i < shown->line_numbers[s].size()) return shown->line_numbers[s][i];
    return i + 1;
  };
  auto signature_of = [shown, baseline = metric.signature()](const std::string& signature, std::size_t s) {
    return model_signature(signature, baseline, shown->fields, s);
  };
  // One line / document as evalcli ppl --per-doc reports it.
  auto row_json = [arpa, line_of, shown](const StatRow& row, std::size_t s, std::size_t i) {
    nlohmann::ordered_json out;
    out["line"] = line_of(s, i);
    if (arpa) {
      const ppl::PplStats st = ppl::arpa_stats(row);
      out["log10_total"] = st.log10_total;
      out["ppl"] = st.tokens == 0 ? nlohmann::json(nullptr) : nlohmann::json(st.ppl_including_oovs());
      out["tokens"] = st.tokens;
      out["oovs"] = st.oovs;
      out["chars"] = st.chars;
      out["bytes"] = st.bytes;
    } else {
      const bool known = s < shown->ids.size() && i < shown->ids[s].size();
      out["id"] = known ? shown->ids[s][i] : nlohmann::json(nullptr);
      const auto details = ppl::logprob_stats(row).to_json();
      for (auto it = details.begin(); it != details.end(); ++it) {
        if (it.key() != "docs") out[it.key()] = it.value();
      }
    }
    return out;
  };
  presentation->system_text = [arpa, per_doc, row_json, signature_of, shown, &metric](
                                  const std::string& signature, const std::vector<SystemStats>& systems,
                                  std::size_t s) {
    const SystemStats& system = systems[s];
    const nlohmann::ordered_json details = metric.details(system.totals);
    // Several models: each under its name (the baseline's named so), as other commands' "Baseline: " prefix.
    std::string text = systems.size() > 1 ? (s == 0 && shown->paired ? "Baseline: " : "") + system.system + "\n" : "";
    text += ppl_headline(details, arpa) + report_text(details, signature_of(signature, s));
    if (!arpa) {
      const auto without_text = ppl::logprob_stats(system.totals).docs_without_text;
      if (without_text > 0) {
        text += fmt::format("note: {} document(s) have neither text nor tokens: bpc/bpb/word perplexity not computed\n",
                            without_text);
      }
    }
    if (!per_doc) return text;
    for (std::size_t i = 0; i < system.rows.size(); ++i) {
      const auto row = row_json(system.rows[i], s, i);
      if (arpa) {
        text += fmt::format("line {}: ppl = {} log10_total = {} tokens = {} oovs = {}\n", number_text(row["line"]),
                            number_text(row["ppl"]), number_text(row["log10_total"]), number_text(row["tokens"]),
                            number_text(row["oovs"]));
      } else {
        text += fmt::format("line {}: id = {} scored_tokens = {} ppl_token = {} bpb = {}\n", number_text(row["line"]),
                            row["id"].dump(), number_text(row["scored_tokens"]), number_text(row["ppl_token"]),
                            number_text(row["bpb"]));
      }
    }
    return text;
  };
  presentation->json = [arpa, per_doc, row_json, signature_of](nlohmann::ordered_json& report,
                                                               const SystemStats& system, std::size_t s) {
    report["signature"] = signature_of(report["signature"].get<std::string>(), s);
    if (arpa) {
      const ppl::PplStats totals = ppl::arpa_stats(system.totals);
      report["segments"] = totals.lines;
      report["stats"] = ppl::arpa_stats_json(totals);
    } else {
      const ppl::LogprobStats totals = ppl::logprob_stats(system.totals);
      report["segments"] = totals.docs;
      report["stats"] = ppl::logprob_stats_json(totals);
    }
    if (!per_doc) return;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < system.rows.size(); ++i) rows.push_back(row_json(system.rows[i], s, i));
    report[arpa ? "sentences" : "documents"] = rows;
  };
  return presentation;
}

void add_ppl_command(CLI::App& app, Streams& io) {
  auto o = std::make_shared<PplOptions>();
  // Its own output options (KenLM's report, --per-doc): ppl is not scored against -r files.
  auto* cmd = app.add_subcommand("ppl", ppl::ppl_definition().summary);
  add_option_specs(cmd, ppl::ppl_definition().options, o->values);
  cmd->add_option("-f,--format", o->format, "report format")->check(CLI::IsMember({"text", "json"}));
  add_output_file_option(cmd, "--json-out", o->json_out, "also write the JSON report to FILE (atomically; - = stdout)");
  cmd->add_flag("--per-doc,--sentence-level", o->per_doc, "also report every line / document");
  // Paired tests compare several models on the same text (--lm A B, --logprobs A B): check_systems
  // refuses them with one. No reference tool to match: ties count in the p-value (a model compared with
  // itself gets p = 1), and each comparison says which model is better (lower perplexity).
  add_statistics_options(cmd, o->output, "--confidence,--ci", "--seed");
  o->output.paired_counts_ties = true;
  o->output.paired_verdict = true;
  add_signature_option(cmd, o->signature);
  cmd->callback([o, cmd, &io] { run_ppl(*o, cmd, io); });
}

}  // namespace evalcli::cli
