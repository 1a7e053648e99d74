#include "evalcli/metrics/ppl_metric.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "evalcli/core/error.hpp"
#include "evalcli/core/numbers.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/metrics/text_options.hpp"
#include "evalcli/tokenize/tokenizer.hpp"

namespace evalcli::ppl {
namespace {

std::uint64_t count(double value) { return static_cast<std::uint64_t>(value); }

}  // namespace

StatRow to_row(const PplStats& s) {
  return {s.log10_total, s.oov_log10_total, static_cast<double>(s.tokens), static_cast<double>(s.oovs),
          static_cast<double>(s.words), static_cast<double>(s.lines), static_cast<double>(s.chars),
          static_cast<double>(s.bytes)};
}

PplStats arpa_stats(std::span<const Stat> r) {
  PplStats s;
  s.log10_total = r[0];
  s.oov_log10_total = r[1];
  s.tokens = count(r[2]);
  s.oovs = count(r[3]);
  s.words = count(r[4]);
  s.lines = count(r[5]);
  s.chars = count(r[6]);
  s.bytes = count(r[7]);
  return s;
}

StatRow to_row(const LogprobStats& s) {
  return {s.logprob_sum, static_cast<double>(s.docs), static_cast<double>(s.scored_tokens),
          static_cast<double>(s.chars), static_cast<double>(s.bytes), static_cast<double>(s.words),
          static_cast<double>(s.docs_without_text)};
}

LogprobStats logprob_stats(std::span<const Stat> r) {
  LogprobStats s;
  s.logprob_sum = r[0];
  s.docs = count(r[1]);
  s.scored_tokens = count(r[2]);
  s.chars = count(r[3]);
  s.bytes = count(r[4]);
  s.words = count(r[5]);
  s.docs_without_text = count(r[6]);
  return s;
}

nlohmann::ordered_json arpa_stats_json(const PplStats& corpus) {
  nlohmann::ordered_json stats;
  stats["log10_total"] = corpus.log10_total;
  stats["oov_log10_total"] = corpus.oov_log10_total;
  stats["tokens"] = corpus.tokens;
  stats["oovs"] = corpus.oovs;
  stats["words"] = corpus.words;
  stats["lines"] = corpus.lines;
  stats["chars"] = corpus.chars;
  stats["bytes"] = corpus.bytes;
  return stats;
}

nlohmann::ordered_json logprob_stats_json(const LogprobStats& corpus) {
  nlohmann::ordered_json stats;
  stats["logprob_sum_nats"] = corpus.logprob_sum;
  stats["docs"] = corpus.docs;
  stats["scored_tokens"] = corpus.scored_tokens;
  stats["chars"] = corpus.chars;
  stats["bytes"] = corpus.bytes;
  stats["words_lm_eval"] = corpus.words;
  stats["docs_without_text"] = corpus.docs_without_text;
  return stats;
}

std::vector<std::string> PplMetric::stat_names() const {
  if (run_.mode == Mode::arpa) return {"log10_total", "oov_log10_total", "tokens", "oovs", "words", "lines", "chars", "bytes"};
  return {"logprob_sum_nats", "docs", "scored_tokens", "chars", "bytes", "words_lm_eval", "docs_without_text"};
}

StatDomain PplMetric::stat_domain() const {
  constexpr StatKind real = StatKind::real, count = StatKind::count;
  if (run_.mode == Mode::arpa) return {{real, real, count, count, count, count, count, count}, {{3, 2}}};  // oovs <= tokens
  return {{real, count, count, count, count, count, count}, {{6, 1}}};  // docs_without_text <= docs
}

nlohmann::json PplMetric::details(std::span<const Stat> stats) const {
  return run_.mode == Mode::arpa ? nlohmann::json(arpa_stats(stats).to_json()) : nlohmann::json(logprob_stats(stats).to_json());
}

double PplMetric::score(std::span<const Stat> stats) const {
  if (run_.mode == Mode::arpa) {
    const PplStats s = arpa_stats(stats);
    return s.tokens == 0 ? std::numeric_limits<double>::quiet_NaN() : s.ppl_including_oovs();
  }
  // to_json()'s ppl_token, without building the JSON (resampling scores this thousands of times)
  const LogprobStats s = logprob_stats(stats);
  if (s.scored_tokens == 0) return std::numeric_limits<double>::quiet_NaN();
  return std::exp(-(s.logprob_sum / static_cast<double>(s.scored_tokens)));
}

std::optional<std::string> why_unversioned_scorer_differs(const NgramModel& model, const std::string& path) {
  if (model.first_duplicate_line() == 0) return std::nullopt;
  return fmt::format(
      "{} repeats an entry (first at line {}): evalcli before scorer {} kept the last of duplicate entries, this "
      "one keeps the first as KenLM does, so a signature without scorer: may name other numbers (with scorer:{} "
      "added, it names this evalcli's)",
      path, model.first_duplicate_line(), kArpaScorer, kArpaScorer);
}

std::string PplMetric::signature() const { return print_signature(ppl_definition(), *this); }

std::unique_ptr<StatsModel> ppl_from_signature(const std::string& signature) {
  // The fields are what `evalcli ppl` wrote; the model itself is not needed to
  // combine statistics, and its md5 stays in the signature.
  PplRun run;
  run.scorer.clear();  // as given: statistics of either scorer version combine alike
  std::optional<std::string> mode;
  for (const auto& [key, value] : parse_signature(signature)) {
    if (key == "nrefs" || key == "version") continue;  // the front end's
    if (key == "mode") {
      mode = value;
    } else if (key == "lm") {
      run.lm = value;
    } else if (key == "lm-md5") {
      run.lm_md5 = value;
    } else if (key == "order") {
      run.order = static_cast<int>(integer_in_range("signature field order", value, 1, 1000));
    } else if (key == "ctx") {
      run.null_context = value == "null";
    } else if (key == "tok") {
      run.tokenizer = value;
    } else if (key == "norm") {
      run.normalizers = value;
    } else if (key == "case") {
      run.lowercase = value == "lc";
    } else if (key == "base") {
      run.log_base = value;
    } else if (key == "scorer") {
      run.scorer = value;
    } else if (key != "count") {
      throw usage_error(fmt::format("signature field '{}:{}' is not a PPL field evalcli knows", key, value));
    }
  }
  if (!mode || (*mode != "arpa" && *mode != "logprobs")) throw usage_error("signature: PPL needs mode:arpa or mode:logprobs");
  run.mode = *mode == "arpa" ? PplRun::Mode::arpa : PplRun::Mode::logprobs;
  return std::make_unique<PplMetric>(std::move(run));
}

// ---------------------------------------------------------------- definition

namespace {

// tok: "none" (KenLM's own split on ASCII whitespace) or an evalcli tokenizer id.
void apply_tok(const std::string& value, OptionValues& values) {
  values.set("tokenize", value == "none" ? "none" : tokenizer_from_signature(value)->name());
}

// Fields that name the run's model or count rule: checked against the run's own.
void checked_against_the_run(const std::string&, OptionValues&) {}

void apply_scorer(const std::string& value, OptionValues&) {
  if (value != kArpaScorer) {
    throw usage_error(fmt::format("signature names PPL scorer '{}', which this evalcli cannot reproduce (it has {})",
                                  value, kArpaScorer));
  }
}

// A field of one mode's runs only.
template <class Get>
FieldPrinter in_mode(PplRun::Mode mode, Get get) {
  return field_printer<PplMetric>([mode, get](const PplMetric& m) -> std::optional<std::string> {
    if (m.mode() != mode) return std::nullopt;
    return get(m.run());
  });
}

// The text fields that follow tok: when a pipeline split the text (not with tok:none).
template <class Get>
FieldPrinter with_pipeline(Get get) {
  return in_mode(PplRun::Mode::arpa, [get](const PplRun& run) -> std::optional<std::string> {
    if (run.tokenizer == "none") return std::nullopt;
    return get(run);
  });
}

// A PPL run's statistics need its model (or log-prob file): a signature alone
// rebuilds only the statistics model (statistics_model), for merge and check.
std::unique_ptr<StatsModel> build_ppl(const OptionValues&, const BuildContext&) {
  throw Error(ExitCode::missing_resource, "perplexity is scored by `evalcli ppl` with its --lm model or --logprobs file");
}

MetricDefinition make_ppl_definition() {
  const TextOptionSpecs text{
      .tokenize_help = "tokenizer applied before scoring: none = KenLM's split on ASCII whitespace (default), 13a, zh, char, ...",
      .tok_key = false,
      .jieba = false};
  MetricDefinition d;
  d.command = "ppl";
  d.summary =
      "Perplexity: ARPA n-gram model over text (KenLM query's numbers), or any LM's per-token log-probs (JSONL).\n"
      "Perplexity is only comparable between models with the same tokenization and vocabulary; BPC/BPB are\n"
      "normalised by the text and comparable - but a closed-vocabulary model gets <unk> cheaply, so read them\n"
      "next to the OOV count.";
  d.names = {"PPL"};
  d.higher_is_better = false;
  d.default_width = 4;
  d.score_scale = 0;  // perplexity is unbounded
  d.options = {
      {.name = "lm",
       .kind = OptionKind::list,
       .help = "ARPA model (plain, .gz, .bz2, .xz; detected by content) or KenLM probing binary (build_binary "
               "probing); several = several models on the same text, the first the baseline of --paired-bs/--paired-ar",
       .role = OptionRole::resource},
      {.name = "logprobs",
       .kind = OptionKind::list,
       .help = "JSONL file: {\"text\", \"tokens\"?, \"logprobs\"} per line (\"-\" = stdin); several = several "
               "models' log-probs of the same documents, the first the baseline of --paired-bs/--paired-ar",
       .role = OptionRole::resource},
      {.name = "input",
       .help = "text to score with --lm (default stdin; may be compressed)",
       .short_flag = "-i",
       .role = OptionRole::resource},
      {.name = "null-context",
       .kind = OptionKind::flag,
       .help = "no <s> context and no </s> (KenLM query -n)",
       .short_flag = "-n",
       .signature_key = "ctx",
       .flag_words = {"null", "sentence"},
       .print = in_mode(PplRun::Mode::arpa, [](const PplRun& run) { return flag_value(run.null_context); })},
      {.name = "kenlm-output",
       .kind = OptionKind::flag,
       .help = "print exactly what KenLM query prints (see --level)",
       .role = OptionRole::no_effect},
      // How the input's last line is read (not in the signature: default and KenLM agree on files ending in '\n').
      {.name = "kenlm-final-line",
       .kind = OptionKind::flag,
       .help = "reproduce KenLM's handling of a last line without newline (its words count as tokens, "
               "its probabilities are dropped); default: scored like any line",
       .role = OptionRole::resource},
      {.name = "level",
       .kind = OptionKind::list,
       .help = "with --kenlm-output: summary, sentence, word (repeatable; default all)",
       .short_flag = "-v",
       .role = OptionRole::no_effect},
  };
  const auto shared = text_option_specs(text);
  d.options.insert(d.options.end(), shared.begin(), shared.end());
  d.options.push_back({.name = "logprob-base",
                       .help = "base of the log-probabilities in --logprobs: e (default), 10, 2",
                       .choices = {"e", "10", "2"},
                       .signature_key = "base",
                       .print = in_mode(PplRun::Mode::logprobs, [](const PplRun& run) { return run.log_base; })});
  for (auto& spec : d.options) {
    if (spec.name == "lowercase") spec.print = with_pipeline([](const PplRun& run) { return flag_value(run.lowercase); });
  }
  d.signature_keys = text_signature_keys(text);
  d.find_signature_key("norm")->print = with_pipeline([](const PplRun& run) { return run.normalizers; });
  d.signature_keys.push_back({"tok", "", apply_tok, in_mode(PplRun::Mode::arpa, [](const PplRun& run) { return run.tokenizer; })});
  const auto arpa_field = [](std::string PplRun::*member) {
    return in_mode(PplRun::Mode::arpa, [member](const PplRun& run) { return run.*member; });
  };
  d.signature_keys.push_back({"mode", "", checked_against_the_run, field_printer<PplMetric>([](const PplMetric& m) {
                                return std::string(m.mode() == PplRun::Mode::arpa ? "arpa" : "logprobs");
                              })});
  d.signature_keys.push_back({"lm", "", checked_against_the_run, arpa_field(&PplRun::lm)});
  d.signature_keys.push_back({"lm-md5", "", checked_against_the_run, arpa_field(&PplRun::lm_md5)});
  d.signature_keys.push_back({"order", "", checked_against_the_run,
                              in_mode(PplRun::Mode::arpa, [](const PplRun& run) { return std::to_string(run.order); })});
  d.signature_keys.push_back({"scorer", "", apply_scorer,
                              in_mode(PplRun::Mode::arpa, [](const PplRun& run) -> std::optional<std::string> {
                                if (run.scorer.empty()) return std::nullopt;
                                return run.scorer;
                              })});
  d.signature_keys.push_back({"count", "", checked_against_the_run,
                              in_mode(PplRun::Mode::logprobs, [](const PplRun&) { return std::string("text"); })});
  d.signature_layout = {"mode", "lm", "lm-md5", "order", "scorer", "ctx", "tok", "norm", "case", "base", "count"};
  d.build = build_ppl;
  d.statistics_model = ppl_from_signature;
  return d;
}

}  // namespace

const MetricDefinition& ppl_definition() {
  static const MetricDefinition definition = make_ppl_definition();
  return definition;
}

}  // namespace evalcli::ppl
