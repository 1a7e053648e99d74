// `evalcli ppl`: perplexity of an ARPA n-gram model over text (KenLM `query`
// numbers, optionally its exact output) or of any LM's per-token log-probs.
#include <fmt/format.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "cli/common.hpp"
#include "cli/presentations.hpp"
#include "cli/metric_command.hpp"
#include "cli/run_signature.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/io/decompress.hpp"
#include "evalcli/io/line_reader.hpp"
#include "evalcli/metrics/ppl.hpp"
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

// Input text: a file or standard input, decompressed if gzip/bzip2/xz, split
// at LF only, as KenLM (a CR stays in the line: it is a token separator).
// Lines are views into a read buffer (no copy); longer lines than
// io::max_line_bytes() are an input error, so memory stays bounded.
class TextInput {
 public:
  TextInput(const std::string& path, std::istream& stdin_stream) {
    name_ = "<stdin>";
    if (path != "-") {
      io::check_readable_file(path);
      source_ = io::open_decompressed_file(path);
      name_ = path;
    } else {
      source_ = io::open_decompressed(stdin_stream, name_);
    }
    lines_ = std::make_unique<io::LineSplitter>(*source_, ppl::kReadBlock, io::max_line_bytes(), name_);
  }
  // Next line (valid until the next call); `terminated` is false for a final line without '\n'.
  bool next(std::string_view& line, bool& terminated) { return lines_->next(line, &terminated); }
  std::size_t line_number() const { return lines_->line_number(); }
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  std::unique_ptr<io::ByteSource> source_;
  std::unique_ptr<io::LineSplitter> lines_;
};

void append_integer(std::string& out, std::uint64_t value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(digits, end);
}

std::uint64_t count_code_points(std::string_view bytes) {
  std::uint64_t n = 0;
  for (const char c : bytes) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
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

void run_arpa(const PplOptions& o, const RunSignature* given, Streams& io) {
  const ArpaSetup setup = make_arpa_setup(o);
  // The MD5 (in the signature) is only computed if a signature is printed or checked.
  const bool needs_signature = !o.kenlm_output || !o.json_out.empty() || given != nullptr;
  const auto model = ppl::NgramModel::load(o.lm, &io.err, needs_signature);
  const ppl::ContextMode mode = o.null_context ? ppl::ContextMode::null : ppl::ContextMode::sentence;
  const std::string metric_fields =
      fmt::format("mode:arpa|lm:{}|lm-md5:{}|order:{}|ctx:{}|{}", std::filesystem::path(o.lm).filename().string(),
                  model->md5(), model->order(), o.null_context ? "null" : "sentence", setup.tok_field);
  // The model given must be the signature's (name, MD5, order).
  if (given != nullptr) check_rebuilt_signature(*given, "PPL", metric_fields);
  const std::string signature = full_signature(0, metric_fields);
  const KenlmLevels levels = parse_levels(o.levels);
  const bool want_words = o.kenlm_output && levels.word;

  TextInput input(o.input, io.in);
  OutputBuffer out(io.out);
  ppl::PplStats corpus;
  SystemStats system;
  system.totals.assign(8, 0.0);
  // Per-line rows only when reported (--per-doc, JSON, statistics options):
  // corpus scoring keeps constant memory whatever the number of lines.
  const bool keep_rows = o.per_doc || needs_rows(shared_output(o));
  nlohmann::ordered_json per_line = nlohmann::ordered_json::array();
  std::string_view line;
  std::string processed;
  std::vector<std::string_view> tokens;
  std::vector<ppl::ScoredWord> words;
  bool terminated = true;
  while (input.next(line, terminated)) {
    std::string_view text = line;
    if (setup.pipeline) {
      const std::u32string decoded = utf8::decode_or_throw(line, fmt::format("{}:{}", input.name(), input.line_number()));
      processed = utf8::encode(setup.pipeline->process(decoded));
      text = processed;
    }
    ppl::split_kenlm_tokens(text, tokens);
    words.clear();
    // KenLM's bug, on request: a last line without '\n' gets no </s>, and only its token
    // count and OOV log-probs reach the corpus sums (no total, no OOV count, no `Total:`).
    const bool kenlm_unterminated = !terminated && o.kenlm_final_line;
    ppl::LineScore scored = ppl::score_line(*model, tokens, mode, want_words ? &words : nullptr, !kenlm_unterminated);
    scored.stats.bytes = line.size() + (terminated ? 1 : 0);
    scored.stats.chars = count_code_points(line) + (terminated ? 1 : 0);
    if (kenlm_unterminated) {
      scored.stats.log10_total = 0;
      scored.stats.oovs = 0;
      scored.stats.lines = 0;
    }
    corpus += scored.stats;
    if (!o.kenlm_output) {
      StatRow row = ppl::to_row(scored.stats);
      add_stats(system.totals, row);  // in line order, as `corpus` sums them
      ++system.segments;
      if (keep_rows) system.rows.push_back(std::move(row));
    }
    if (o.kenlm_output) {
      std::string rendered;
      for (const auto& w : words) {  // "SURFACE=ID LENGTH LOG10P\t", built by hand: it is the hot path
        rendered += w.surface;
        rendered += '=';
        append_integer(rendered, w.id);
        rendered += ' ';
        append_integer(rendered, w.score.ngram_length);
        rendered += ' ';
        rendered += ppl::kenlm_number(w.score.log10_prob);
        rendered += '\t';
      }
      if (levels.sentence && !kenlm_unterminated) {
        rendered += fmt::format("Total: {} OOV: {}\n", ppl::kenlm_number(scored.total), scored.oovs);
      }
      out.append(rendered);
    }
    if (o.per_doc && o.kenlm_output) {  // else the presentation reports the rows
      nlohmann::ordered_json row;
      row["line"] = input.line_number();
      row["log10_total"] = scored.total;
      row["ppl"] = scored.stats.tokens == 0 ? nlohmann::json(nullptr) : nlohmann::json(scored.stats.ppl_including_oovs());
      row["tokens"] = scored.stats.tokens;
      row["oovs"] = scored.oovs;
      row["chars"] = scored.stats.chars;
      row["bytes"] = scored.stats.bytes;
      per_line.push_back(std::move(row));
    }
  }

  if (!o.kenlm_output) {
    out.flush();
    system.system = input.name();
    const ppl::PplMetric metric(ppl::PplMetric::Mode::arpa, metric_fields);
    const auto presentation = ppl_presentation(metric, o.per_doc);
    report_metric_results(metric, 0, {system}, shared_output(o), io, presentation.get());
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
  TextInput input(o.logprobs, io.in);
  SystemStats system;
  system.totals.assign(7, 0.0);
  const bool keep_rows = o.per_doc || needs_rows(shared_output(o));  // else constant memory
  std::vector<std::size_t> line_numbers;
  std::vector<nlohmann::json> ids;
  std::vector<std::string> warnings;
  std::size_t warned = 0;
  std::string_view line;
  bool terminated = true;
  while (input.next(line, terminated)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank lines carry no document
    const std::string where = fmt::format("{}:{}", input.name(), input.line_number());
    const ppl::DocumentScore doc = ppl::score_document(line, base, where, warnings);
    StatRow row = ppl::to_row(doc.stats);
    add_stats(system.totals, row);  // in file order, as LogprobStats += sums
    ++system.segments;
    if (keep_rows) {
      system.rows.push_back(std::move(row));
      line_numbers.push_back(input.line_number());
      ids.push_back(doc.id);
    }
    for (; warned < warnings.size(); ++warned) {
      if (warned < 10) io.err << "evalcli: warning: " << warnings[warned] << '\n';
    }
  }
  if (warned > 10) io.err << fmt::format("evalcli: warning: {} more positive log-probabilities\n", warned - 10);
  system.system = input.name();
  const ppl::PplMetric metric(ppl::PplMetric::Mode::logprobs, metric_fields);
  const auto presentation = ppl_presentation(metric, o.per_doc, line_numbers, ids);
  report_metric_results(metric, 0, {system}, shared_output(o), io, presentation.get());
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
    std::string text = report_text(metric.details(system.totals), signature);
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
  add_statistics_options(cmd, o->output);
  add_signature_option(cmd, o->signature);
  cmd->callback([o, cmd, &io] { run_ppl(*o, cmd, io); });
}

}  // namespace evalcli::cli
