// `evalcli sacrebleu`: a drop-in replacement for the `sacrebleu` command
// (SacreBLEU 2.x): same options, byte-identical stdout and exit codes, except
// that signatures name evalcli's version. Messages for SacreBLEU's own errors
// are reproduced; where SacreBLEU crashes with a traceback (invalid UTF-8,
// missing file) evalcli prints one clear line and exits 1 like SacreBLEU.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <ostream>

#include "cli/cli.hpp"
#include "cli/sacrebleu.hpp"
#include "cli/sacrebleu_output.hpp"
#include "cli/sacrebleu_significance.hpp"
#include "cli/text_warnings.hpp"
#include "evalcli/stats/corpus_stats.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/core/format.hpp"
#include "evalcli/core/version.hpp"
#include "evalcli/io/byte_codec.hpp"
#include "evalcli/metrics/bleu.hpp"
#include "evalcli/metrics/chrf.hpp"
#include "evalcli/metrics/ter.hpp"
#include "evalcli/tokenize/text_scan.hpp"

namespace evalcli::cli {

std::unique_ptr<Metric> make_sacrebleu_metric(const std::string& name, const SacrebleuArgs& args) {
  if (name == "bleu") {
    BleuOptions bleu;
    // SacreBLEU picks the tokenizer from the target language when -tok is not given.
    const std::string tokenizer =
        args.tokenize ? *args.tokenize
                      : sacrebleu_tokenizer_for_language(args.langpair ? target_language(*args.langpair) : "", "13a");
    if (tokenizer == "ko-mecab") {
      // SacreBLEU dies with a RuntimeError here when its Korean extras are missing.
      throw RawExit(1, "sacreBLEU: error: Korean tokenization (ko-mecab) is not available in this evalcli; choose "
                       "another tokenizer with --tokenize\n");
    }
    bleu.text.tokenizer = tokenizer;
    bleu.text.lowercase = args.lowercase;
    bleu.smoothing = parse_bleu_smoothing(args.smooth_method);
    bleu.smooth_value = args.smooth_value;
    bleu.effective_order = args.sentence_level;
    return std::make_unique<Bleu>(bleu);
  }
  if (name == "chrf") {
    ChrfOptions chrf;
    chrf.char_order = args.chrf_char_order;
    chrf.word_order = args.chrf_word_order;
    chrf.beta = args.chrf_beta;
    chrf.lowercase = args.chrf_lowercase;
    chrf.whitespace = args.chrf_whitespace;
    chrf.eps_smoothing = args.chrf_eps_smoothing;
    return std::make_unique<Chrf>(chrf);
  }
  if (name == "ter") {
    TerOptions ter;
    ter.tercom.case_sensitive = args.ter_case_sensitive;
    ter.tercom.normalized = args.ter_normalized;
    ter.tercom.no_punct = args.ter_no_punct;
    ter.tercom.asian_support = args.ter_asian_support;
    return std::make_unique<Ter>(ter);
  }
  throw RawExit(1, fmt::format("sacreBLEU: metric '{}' is not available in this evalcli yet\n", name));
}

namespace {

// SacreBLEU's --tokenize choices that this evalcli can run, in SacreBLEU's
// order (ko-mecab, spm, flores101, flores200, spBLEU-1K are not available).
const std::vector<std::string>& runnable_tokenizers() {
  static const std::vector<std::string> names = {"none", "zh", "13a", "intl", "char", "ja-mecab"};
  return names;
}

// SacreBLEU 2.6.0's argparse usage, as its console script `sacrebleu` prints it
// at argparse's default width of 80 columns (COLUMNS unset, no terminal).
constexpr const char* kSacrebleuUsage = R"(usage: sacrebleu [-h] [--citation] [--list] [--test-set TEST_SET]
                 [--language-pair LANGPAIR] [--origlang ORIGLANG]
                 [--subset SUBSET] [--download DOWNLOAD]
                 [--echo ECHO [ECHO ...]] [--input [INPUT ...]]
                 [--num-refs NUM_REFS] [--encoding ENCODING]
                 [--metrics {bleu,chrf,ter} [{bleu,chrf,ter} ...]]
                 [--sentence-level] [--smooth-method {none,floor,add-k,exp}]
                 [--smooth-value BLEU_SMOOTH_VALUE]
                 [--tokenize {none,zh,13a,intl,char,ja-mecab,ko-mecab,spm,flores101,flores200,spBLEU-1K}]
                 [--lowercase] [--force] [--chrf-char-order CHRF_CHAR_ORDER]
                 [--chrf-word-order CHRF_WORD_ORDER] [--chrf-beta CHRF_BETA]
                 [--chrf-whitespace] [--chrf-lowercase] [--chrf-eps-smoothing]
                 [--ter-case-sensitive] [--ter-asian-support] [--ter-no-punct]
                 [--ter-normalized] [--confidence]
                 [--confidence-n CONFIDENCE_N] [--paired-ar | --paired-bs]
                 [--paired-ar-n PAIRED_AR_N] [--paired-bs-n PAIRED_BS_N]
                 [--paired-jobs PAIRED_JOBS] [--quiet] [--short]
                 [--score-only] [--width WIDTH] [--detail] [--no-color]
                 [--format {json,text,latex}] [--version]
                 [refs ...]
)";

// Whether Python's codecs.lookup() finds UTF-8 for `name` (the single-byte and
// UTF-16/32 codecs are found by find_byte_codec): its normalised name is an alias of utf_8.
bool python_utf8(const std::string& name) {
  static const std::vector<std::string> utf_8 = {"utf_8", "u8", "utf", "utf8", "utf8_ucs2", "utf8_ucs4", "cp65001"};
  return std::find(utf_8.begin(), utf_8.end(), normalize_python_encoding(name)) != utf_8.end();
}

// argparse's error: the usage, then "PROG: error: MESSAGE", exit 2.
[[noreturn]] void argparse_error(const std::string& message) {
  throw RawExit(2, std::string(kSacrebleuUsage) + "sacrebleu: error: " + message + "\n");
}

// argparse's refusal of a --tokenize value, as SacreBLEU's usage error (exit 2).
void check_tokenize_choice(const std::optional<std::string>& tokenize) {
  if (!tokenize) return;
  const auto& names = runnable_tokenizers();
  if (std::find(names.begin(), names.end(), *tokenize) != names.end()) return;
  std::string choices;
  for (const auto& name : names) choices += (choices.empty() ? "'" : ", '") + name + "'";
  argparse_error(fmt::format("argument --tokenize/-tok: invalid choice: '{}' (choose from {})", *tokenize, choices));
}

// SacreBLEU's BLEU.__init__ hint when -l names a target whose tokenizer is not the one given.
std::string tokenizer_hint(const SacrebleuArgs& args) {
  if (!args.langpair || !args.tokenize) return {};
  const std::string target = target_language(*args.langpair);
  const std::string& tokenizer = *args.tokenize;
  if (target == "zh" && tokenizer != "zh") return "Consider using the 'zh' or 'spm' tokenizer for Chinese.";
  if (target == "ja" && tokenizer != "ja-mecab") {
    return "Consider using the 'ja-mecab' or 'spm' tokenizer for Japanese.";
  }
  if (target == "ko" && tokenizer != "ko-mecab") return "Consider using the 'ko-mecab' or 'spm' tokenizer for Korean.";
  return {};
}

// SacreBLEU prints metrics in this order whatever the order given to -m.
std::vector<std::string> sorted_metric_names(const std::vector<std::string>& requested) {
  std::vector<std::string> names;
  for (const char* name : {"bleu", "chrf", "ter"}) {
    for (const auto& r : requested) {
      if (r == name) {
        names.push_back(name);
        break;
      }
    }
  }
  return names;
}

// sacrebleu.py's sanity checks, system by system: an empty system, then
// lengths that differ from a reference's. `prefix`: "sacreBLEU: " unless -q.
std::string no_sentence_message(const std::string& prefix) { return prefix + "Test set None contains no sentence\n"; }
std::string length_mismatch_message(const LineCountMismatch& e, const std::string& prefix) {
  for (const std::size_t lines : e.hyp_lines) {
    if (lines == 0) return no_sentence_message(prefix);
    if (std::any_of(e.ref_lines.begin(), e.ref_lines.end(), [&](std::size_t r) { return r != lines; })) break;
  }
  return prefix + "System and reference streams have different lengths.\n";
}

void check_arguments(const SacrebleuArgs& args, std::size_t num_systems) {
  const bool paired = args.paired_bs || args.paired_ar;
  if (args.sentence_level) {
    if (num_systems > 1) throw RawExit(1, "sacreBLEU: Only one system can be evaluated in sentence-level mode.\n");
    if (args.confidence || paired) {
      throw RawExit(1, "sacreBLEU: Statistical tests are unavailable in sentence-level mode.\n");
    }
  }
  if (paired && num_systems == 1) {
    throw RawExit(1, "sacreBLEU: Paired tests require multiple input systems given to --input (-i).\n");
  }
  if (num_systems > 1 && args.confidence) {
    throw RawExit(1, "sacreBLEU: Use paired tests (--paired) for multiple systems.\n");
  }
}

void run_sacrebleu(SacrebleuArgs& args, Streams& io) {
  if (const char* env = std::getenv("SACREBLEU_FORMAT")) {
    std::string value = env;
    for (auto& c : value) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (value == "json" || value == "text" || value == "latex") args.format = value;
  }
  if (args.paired_bs && args.paired_ar) {
    // argparse names the one of the exclusive pair that came second.
    const bool bs_first = args.first_paired_test == "--paired-bs";
    argparse_error(fmt::format("argument {}: not allowed with argument {}", bs_first ? "--paired-ar/-par" : "--paired-bs/-pbs",
                               bs_first ? "--paired-bs/-pbs" : "--paired-ar/-par"));
  }
  check_tokenize_choice(args.tokenize);
  // sacrebleu.py main(), before anything is read; counted before duplicates go (-m bleu bleu).
  // Under -q no logging handler is set up and Python's last-resort handler prints the bare message.
  if (args.sentence_level && args.metrics.size() > 1) {
    throw RawExit(1, std::string(args.quiet ? "" : "sacreBLEU: ") + "Only one metric can be used in sentence-level mode.\n");
  }
  if (args.num_refs != 1 && args.refs.size() > 1) {
    const std::string prefix = args.quiet ? "" : "sacreBLEU: ";
    throw RawExit(1, prefix + "The --num-refs argument allows you to provide any number of tab-delimited references "
                              "in a single file.\n" +
                         prefix + "You can only use it with externally provided references, however (i.e., not "
                                  "with `-t`),\n" +
                         prefix + "and you cannot then provide multiple reference files.\n");
  }
  std::optional<ByteCodec> codec;
  if (!python_utf8(args.encoding)) {
    codec = find_byte_codec(args.encoding);
    if (!codec) {
      throw RawExit(1, fmt::format("sacreBLEU: evalcli reads UTF-8 and the codecs of docs/errors.md only "
                                   "(got -e {})\n",
                                   args.encoding));
    }
  }
  if (args.refs.empty()) {
    throw RawExit(1, "sacreBLEU: I need either a predefined test set (-t) or a list of references\n");
  }
  // Python's f"{score:.{width}f}" refuses a negative width: SacreBLEU dies of this ValueError (exit 1).
  if (args.width < 0) throw RawExit(1, fmt::format("sacreBLEU: -w {}: Format specifier missing precision\n", args.width));

  std::vector<std::unique_ptr<Metric>> metrics;
  std::vector<const Metric*> metric_ptrs;
  const auto names = sorted_metric_names(args.metrics);
  try {
    for (const auto& name : names) {
      metrics.push_back(make_sacrebleu_metric(name, args));
      metric_ptrs.push_back(metrics.back().get());
    }
  } catch (const RawExit&) {
    throw;
  } catch (const Error& e) {
    // A tokenizer that cannot start (MeCab's dictionary): SacreBLEU fails with exit 1 there too.
    throw RawExit(1, fmt::format("sacreBLEU: error: {}\n", e.what()));
  }
  const bool bleu = std::find(names.begin(), names.end(), "bleu") != names.end();

  CorpusSpec spec;
  spec.ref_paths = args.refs;
  spec.tab_separated_refs = args.num_refs > 1 ? args.num_refs : 0;
  if (args.inputs) spec.hyp_paths = *args.inputs;
  spec.stdin_stream = &io.in;
  spec.codec = codec ? &*codec : nullptr;
  TextScan scan;  // BLEU's tokenized-period count (metrics/base.py)
  if (bleu && !args.force && !args.sentence_level) scan_while_reading(spec, scan);

  // Repeated system names: an error, except a repeat of the baseline in paired mode.
  const bool paired = args.paired_bs || args.paired_ar;
  if (args.inputs) {
    std::vector<std::string> unique;
    for (const auto& path : *args.inputs) {
      if (std::find(unique.begin(), unique.end(), path) != unique.end()) {
        if (paired && path == unique.front()) {
          if (!args.quiet) io.err << fmt::format("sacreBLEU: Ignoring {} as it was also given as the baseline.\n", python_repr(path));
          continue;
        }
        const std::string prefix = args.quiet ? "" : "sacreBLEU: ";
        throw RawExit(1, fmt::format("{}{} already used to name a system.\n{}Make sure to have a different basename "
                                     "for each system.\n", prefix, python_repr(path), prefix));
      }
      unique.push_back(path);
    }
    spec.hyp_paths = unique;
  }

  const bool need_rows = args.sentence_level || args.confidence || paired;
  std::vector<std::vector<SystemStats>> results;
  try {
    results = compute_corpus_stats(metric_ptrs, spec, need_rows, {}, /*threads: every core*/ 0);
  } catch (const LineCountMismatch& e) {
    throw RawExit(1, length_mismatch_message(e, args.quiet ? "" : "sacreBLEU: "));
  } catch (const EmptyInput&) {
    throw RawExit(1, no_sentence_message(args.quiet ? "" : "sacreBLEU: "));
  } catch (const TabFieldMismatch& e) {
    if (spec.hyp_paths.empty() && std::string(e.what()).rfind("<stdin>", 0) == 0) {
      throw RawExit(17, "sacreBLEU: FATAL: the number of tab-delimited fields in the input stream differ across lines.\n");
    }
    throw RawExit(17, fmt::format("{}FATAL: line {}: expected {} fields, but found {}.\n", args.quiet ? "" : "sacreBLEU: ",
                                  e.line, e.expected, e.found));
  } catch (const RawExit&) {
    throw;
  } catch (const Error& e) {
    // SacreBLEU dies with a Python traceback here; give one clear line instead.
    throw RawExit(1, fmt::format("sacreBLEU: error: {}\n", e.what()));
  }
  const std::size_t num_systems = results.empty() ? 0 : results[0].size();
  check_arguments(args, num_systems);
  const std::size_t nrefs = spec.tab_separated_refs > 1 ? static_cast<std::size_t>(spec.tab_separated_refs)
                                                        : spec.ref_paths.size();
  SacrebleuRun run{args, metric_ptrs, results, nrefs};
  if (scan.segments() > 0) {
    for (std::size_t s = 0; s < num_systems; ++s) run.tokenized_periods.push_back(scan.tokenized_periods(s));
  }
  if (bleu) {
    if (const std::string hint = tokenizer_hint(args); !hint.empty()) io.err << sacrebleu_warning(hint, args.quiet);
  }

  if (args.sentence_level) {
    io.out << render_sentence_level(run);
  } else if (num_systems == 1) {
    io.err << tokenized_period_warning(run, 0);
    // As SacreBLEU: n_bootstrap = -cin if --confidence, and only n > 1 resamples.
    io.out << (args.confidence && args.confidence_n > 1 ? render_single_system_confidence(run)
                                                        : render_single_system(run));
  } else {
    if (!args.quiet) io.err << fmt::format("sacreBLEU: Found {} systems.\n", num_systems);
    if (!paired) {
      for (std::size_t s = 0; s < num_systems; ++s) io.err << tokenized_period_warning(run, s);
    }
    io.out << (paired ? render_paired_tests(run, io) : render_multi_system(run, io));
  }
}

}  // namespace

std::string sacrebleu_signature(const StatsModel& metric, std::size_t nrefs, bool short_form,
                                const std::vector<SacrebleuField>& extra) {
  // SacreBLEU prints nrefs:var when segments have different numbers of references.
  std::vector<SacrebleuField> fields = {{"nrefs", "#", nrefs == kVariableRefs ? "var" : std::to_string(nrefs)}};
  fields.insert(fields.end(), extra.begin(), extra.end());
  for (auto& field : metric.sacrebleu_fields()) fields.push_back(field);
  fields.push_back({"version", "v", evalcli_version_tag()});
  std::string out;
  for (const auto& field : fields) {
    if (!out.empty()) out += '|';
    out += (short_form ? field.short_key : field.key) + ":" + field.value;
  }
  return out;
}

void add_sacrebleu_command(CLI::App& app, Streams& io) {
  auto a = std::make_shared<SacrebleuArgs>();
  auto* cmd = app.add_subcommand("sacrebleu", "SacreBLEU 2.x command line, byte-identical output");
  cmd->add_option("refs", a->refs, "reference files");
  cmd->add_option("-i,--input", a->inputs, "system output files")->expected(0, -1);
  cmd->add_option("-m,--metrics", a->metrics, "bleu chrf ter")->expected(1, -1)
      ->check(CLI::IsMember({"bleu", "chrf", "ter"}));
  cmd->add_option("-f,--format", a->format)->check(CLI::IsMember({"json", "text", "latex"}));
  cmd->add_option("-w,--width", a->width);
  cmd->add_flag("-b,--score-only", a->score_only);
  cmd->add_flag("--short", a->short_signature);
  cmd->add_flag("--sentence-level", a->sentence_level);
  cmd->add_option("--num-refs", a->num_refs);
  cmd->add_option("-e,--encoding", a->encoding);
  cmd->add_flag("-q,--quiet", a->quiet);
  cmd->add_flag("--no-color");
  cmd->add_option("-l,--language-pair", a->langpair);
  cmd->add_option("--tokenize", a->tokenize, "none, zh, 13a, intl, char or ja-mecab");  // checked as argparse does
  cmd->add_flag("--lowercase", a->lowercase);
  cmd->add_option("-s,--smooth-method", a->smooth_method)->check(CLI::IsMember({"exp", "floor", "add-k", "none"}));
  cmd->add_option("--smooth-value", a->smooth_value);
  cmd->add_flag("--force", a->force);
  cmd->add_option("--chrf-char-order", a->chrf_char_order);
  cmd->add_option("--chrf-word-order", a->chrf_word_order);
  cmd->add_option("--chrf-beta", a->chrf_beta);
  cmd->add_flag("--chrf-lowercase", a->chrf_lowercase);
  cmd->add_flag("--chrf-whitespace", a->chrf_whitespace);
  cmd->add_flag("--chrf-eps-smoothing", a->chrf_eps_smoothing);
  cmd->add_flag("--ter-case-sensitive", a->ter_case_sensitive);
  cmd->add_flag("--ter-normalized", a->ter_normalized);
  cmd->add_flag("--ter-no-punct", a->ter_no_punct);
  cmd->add_flag("--ter-asian-support", a->ter_asian_support);
  cmd->add_flag("--confidence", a->confidence);
  cmd->add_option("--confidence-n", a->confidence_n);
  cmd->add_flag("--paired-bs", a->paired_bs);
  cmd->add_option("--paired-bs-n", a->paired_bs_n);
  cmd->add_flag("--paired-ar", a->paired_ar);
  cmd->add_option("--paired-ar-n", a->paired_ar_n);
  cmd->add_option("-j,--paired-jobs", a->paired_jobs);
  cmd->callback([a, &io, cmd] {
    for (const CLI::Option* option : cmd->parse_order()) {
      if (option->get_name() == "--paired-bs" || option->get_name() == "--paired-ar") {
        a->first_paired_test = option->get_name();
        break;
      }
    }
    run_sacrebleu(*a, io);
  });
}

}  // namespace evalcli::cli
