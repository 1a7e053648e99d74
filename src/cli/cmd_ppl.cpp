// `evalcli ppl`: perplexity of an ARPA n-gram model over text (KenLM `query`
// numbers, optionally its exact output) or of any LM's per-token log-probs.
#include <fmt/format.h>
#include <unistd.h>

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
#include "evalcli/core/error.hpp"
#include "evalcli/core/format.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/io/decompress.hpp"
#include "evalcli/io/line_reader.hpp"
#include "evalcli/metrics/ppl.hpp"
#include "evalcli/metrics/ppl_corpus.hpp"
#include "evalcli/metrics/ppl_metric.hpp"
#include "evalcli/text/normalizer.hpp"
#include "evalcli/tokenize/pipeline.hpp"
#include "evalcli/tokenize/tokenizer.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli::cli {
namespace {

struct PplOptions {
  std::string lm;
  std::string logprobs;
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
    rendered += ppl::kenlm_number(w.score.log10_prob);
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
  std::string tok_field;
};

ArpaSetup make_arpa_setup(const PplOptions& o) {
  ArpaSetup setup;
  if (o.tokenizer == "none" && o.normalizers.empty() && !o.lowercase) {
    setup.tok_field = "tok:none";
    return setup;
  }
  PipelineOptions pipeline;
  pipeline.tokenizer = o.tokenizer;
  pipeline.normalizers = o.normalizers;
  pipeline.lowercase = o.lowercase;
  setup.pipeline = std::make_unique<TextPipeline>(pipeline);
  setup.tok_field = fmt::format("tok:{}|norm:{}|case:{}", setup.pipeline->tokenizer().id(),
                                setup.pipeline->normalizer_chain_id(), o.lowercase ? "lc" : "mixed");
  return setup;
}

// "scoring lines" over the lines of `path` (unknown for standard input); nothing when `progress` is off.
std::function<void(std::size_t)> line_progress(Progress& progress, const std::string& path) {
  if (!progress.enabled()) return {};
  return [&progress, total = count_lines_for_progress(path)](std::size_t done) {
    progress.update("scoring lines", done, total);
  };
}

void run_arpa(const PplOptions& o, const RunSignature* given, Streams& io) {
  const ArpaSetup setup = make_arpa_setup(o);
  // The MD5 (in the signature) is only computed if a signature is printed or checked.
  const bool needs_signature = !o.kenlm_output || !o.json_out.empty() || given != nullptr;
  const auto model = ppl::NgramModel::load(o.lm, &io.err, needs_signature);
  const std::string metric_fields =
      fmt::format("mode:arpa|lm:{}|lm-md5:{}|order:{}|ctx:{}|{}", std::filesystem::path(o.lm).filename().string(),
                  model->md5(), model->order(), o.null_context ? "null" : "sentence", setup.tok_field);
  // The model given must be the signature's (name, MD5, order).
  if (given != nullptr) check_rebuilt_signature(*given, "PPL", metric_fields);
  const std::string signature = full_signature(0, metric_fields);
  const KenlmLevels levels = parse_levels(o.levels);

  ppl::TextInput input(o.input, io.in);
  OutputBuffer out(io.out);
  ppl::ArpaCorpusOptions scoring;
  scoring.mode = o.null_context ? ppl::ContextMode::null : ppl::ContextMode::sentence;
  scoring.pipeline = setup.pipeline.get();
  scoring.kenlm_final_line = o.kenlm_final_line;
  // Per-line rows only when reported (--per-doc, JSON, statistics options):
  // corpus scoring keeps constant memory whatever the number of lines.
  scoring.keep_rows = !o.kenlm_output && (o.per_doc || needs_rows(shared_output(o)));
  scoring.want_words = o.kenlm_output && levels.word;
  TokenizedLook tokenized_look;
  if (!o.kenlm_output && !o.output.quiet) scoring.on_line = [&](std::string_view line) { tokenized_look.add(line); };
  // KenLM's per-line output on the same terminal would be written into the bar.
  Progress progress(io.err, o.output.quiet || (o.kenlm_output && ::isatty(STDOUT_FILENO) == 1));
  scoring.on_scored = line_progress(progress, o.input);
  nlohmann::ordered_json per_line = nlohmann::ordered_json::array();
  std::function<void(const ppl::ArpaLine&)> print_kenlm_line;
  if (o.kenlm_output) {
    print_kenlm_line = [&](const ppl::ArpaLine& line) {
      out.append(kenlm_line_text(line, levels.sentence));
      if (o.per_doc) per_line.push_back(kenlm_line_json(line));
    };
  }
  const ppl::ArpaCorpus scored = ppl::score_arpa_text(*model, input, scoring, print_kenlm_line);
  progress.finish();
  const ppl::PplStats& corpus = scored.totals;

  if (!o.kenlm_output) {
    out.flush();
    // As every metric: nothing to score is an input error, not a report of n/a (KenLM's output mode prints its summary).
    if (corpus.lines == 0) throw input_error(fmt::format("{}: empty input: no lines to score", input.name()));
    const ppl::PplMetric metric(ppl::PplMetric::Mode::arpa, metric_fields);
    const auto presentation = ppl_presentation(metric, o.per_doc);
    report_metric_results(metric, 0, {scored.system}, shared_output(o), io, presentation.get());
    io.err << tokenized_look.note();
    return;
  }
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

// ---------------------------------------------------------------------------
// Log-prob mode

void run_logprobs(const PplOptions& o, const RunSignature* given, Streams& io) {
  const ppl::LogBase base = ppl::parse_log_base(o.logprob_base);
  const std::string metric_fields = fmt::format("mode:logprobs|base:{}|count:text", ppl::log_base_name(base));
  if (given != nullptr) check_rebuilt_signature(*given, "PPL", metric_fields);
  ppl::TextInput input(o.logprobs, io.in);
  const bool keep_rows = o.per_doc || needs_rows(shared_output(o));  // else constant memory
  std::size_t warnings = 0;
  const auto warn = [&](const std::string& warning) {
    if (++warnings <= 10) io.err << "evalcli: warning: " << warning << '\n';
  };
  Progress progress(io.err, o.output.quiet);
  ppl::LogprobCorpus scored = ppl::score_logprob_text(input, base, keep_rows, warn, line_progress(progress, o.logprobs));
  progress.finish();
  if (warnings > 10) io.err << fmt::format("evalcli: warning: {} more positive log-probabilities\n", warnings - 10);
  if (scored.system.segments == 0) throw input_error(fmt::format("{}: empty input: no documents to score", input.name()));
  const ppl::PplMetric metric(ppl::PplMetric::Mode::logprobs, metric_fields);
  const auto presentation = ppl_presentation(metric, o.per_doc, std::move(scored.line_numbers), std::move(scored.ids));
  report_metric_results(metric, 0, {scored.system}, shared_output(o), io, presentation.get());
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
  o.lm = values.text("lm");
  o.logprobs = values.text("logprobs");
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

void run_ppl(PplOptions o, CLI::App* cmd, Streams& io) {
  check_outputs(o.output, {{"--json-out", o.json_out}});
  if (o.values.has("lm") == o.values.has("logprobs")) {
    throw usage_error("give exactly one of --lm MODEL.arpa and --logprobs FILE.jsonl");
  }
  const std::optional<RunSignature> given = apply_signature(o, *cmd);
  take_values(o);
  const RunSignature* signature = given ? &*given : nullptr;
  if (o.kenlm_output && wants_statistics(o.output)) {
    throw usage_error("--kenlm-output prints KenLM's text only: the statistics options need the evalcli report");
  }
  if (!o.lm.empty()) {
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

std::unique_ptr<Presentation> ppl_presentation(const StatsModel& metric, bool per_doc, std::vector<std::size_t> line_numbers,
                                               std::vector<nlohmann::json> ids) {
  const auto* ppl_metric = dynamic_cast<const ppl::PplMetric*>(&metric);
  if (ppl_metric == nullptr) throw Error(ExitCode::internal, "ppl_presentation needs a PPL metric");
  const bool arpa = ppl_metric->mode() == ppl::PplMetric::Mode::arpa;
  auto presentation = std::make_unique<Presentation>();
  presentation->default_width = 4;
  auto line_of = [line_numbers](std::size_t i) { return i < line_numbers.size() ? line_numbers[i] : i + 1; };
  // One line / document as evalcli ppl --per-doc reports it.
  auto row_json = [arpa, line_of, ids](const StatRow& row, std::size_t i) {
    nlohmann::ordered_json out;
    out["line"] = line_of(i);
    if (arpa) {
      const ppl::PplStats s = ppl::arpa_stats(row);
      out["log10_total"] = s.log10_total;
      out["ppl"] = s.tokens == 0 ? nlohmann::json(nullptr) : nlohmann::json(s.ppl_including_oovs());
      out["tokens"] = s.tokens;
      out["oovs"] = s.oovs;
      out["chars"] = s.chars;
      out["bytes"] = s.bytes;
    } else {
      out["id"] = i < ids.size() ? ids[i] : nlohmann::json(nullptr);
      const auto details = ppl::logprob_stats(row).to_json();
      for (auto it = details.begin(); it != details.end(); ++it) {
        if (it.key() != "docs") out[it.key()] = it.value();
      }
    }
    return out;
  };
  presentation->system_text = [arpa, per_doc, row_json, &metric](const std::string& signature,
                                                                 const std::vector<SystemStats>& systems,
                                                                 std::size_t s) {
    const SystemStats& system = systems[s];
    const nlohmann::ordered_json details = metric.details(system.totals);
    std::string text = ppl_headline(details, arpa) + report_text(details, signature);
    if (!arpa) {
      const auto without_text = ppl::logprob_stats(system.totals).docs_without_text;
      if (without_text > 0) {
        text += fmt::format("note: {} document(s) have neither text nor tokens: bpc/bpb/word perplexity not computed\n",
                            without_text);
      }
    }
    if (!per_doc) return text;
    for (std::size_t i = 0; i < system.rows.size(); ++i) {
      const auto row = row_json(system.rows[i], i);
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
  presentation->json = [arpa, per_doc, row_json](nlohmann::ordered_json& report, const SystemStats& system,
                                                 std::size_t) {
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
    for (std::size_t i = 0; i < system.rows.size(); ++i) rows.push_back(row_json(system.rows[i], i));
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
  // One model and one text are one system: paired tests cannot run (comparing two models is not offered yet).
  add_statistics_options(cmd, o->output, "--confidence,--ci", "--seed", /*paired_tests=*/false);
  add_signature_option(cmd, o->signature);
  cmd->callback([o, cmd, &io] { run_ppl(*o, cmd, io); });
}

}  // namespace evalcli::cli
