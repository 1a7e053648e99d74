#include "cli/cli.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <map>
#include <string_view>
#include <utility>

#include "cli/common.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/core/huge_pages.hpp"
#include "evalcli/core/version.hpp"
#include "evalcli/io/standard_output.hpp"
#include "cli/metric_command.hpp"
#include "evalcli/metrics/definition.hpp"

namespace evalcli::cli {

namespace {

// A SacreBLEU-style alias the option table of the command's metric declares
// (OptionSpec::sacrebleu_alias); other metrics' tables are not built.
std::string metric_option_alias(const MetricDefinition* definition, const std::string& arg) {
  if (definition == nullptr || arg.size() < 2 || arg[0] != '-' || arg[1] == '-') return arg;
  for (const auto& spec : definition->options) {
    if (spec.sacrebleu_alias == arg) return "--" + spec.name;
  }
  return arg;
}

}  // namespace

std::vector<std::string> expand_single_dash_aliases(const std::vector<std::string>& args) {
  static const std::map<std::string, std::string> aliases = {
      {"-tok", "--tokenize"},        {"-lc", "--lowercase"},        {"-sv", "--smooth-value"},
      {"-nr", "--num-refs"},         {"-sl", "--sentence-level"},   {"-sh", "--short"},
      {"-cc", "--chrf-char-order"},  {"-cw", "--chrf-word-order"},  {"-ci", "--confidence"},
      {"-cin", "--confidence-n"},    {"-pbsn", "--paired-bs-n"},    {"-parn", "--paired-ar-n"},
      {"-pbs", "--paired-bs"},       {"-par", "--paired-ar"},       {"-nc", "--no-color"},
  };
  const MetricDefinition* metric = args.empty() ? nullptr : find_metric_definition_by_command(args.front());
  std::vector<std::string> out;
  out.reserve(args.size());
  for (const auto& arg : args) {
    auto it = aliases.find(arg);
    out.push_back(it == aliases.end() ? metric_option_alias(metric, arg) : it->second);
  }
  return out;
}

namespace {

// The text on one line whatever it quotes (a --signature value or a file name
// with newlines in it): control characters are written as \n, \r, \t, \xHH.
// Found by fuzz_signature (tests/data/fuzz-regressions/signature/).
std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      out += fmt::format("\\x{:02x}", byte);
    } else {
      out += c;
    }
  }
  return out;
}

void print_error(std::ostream& err, const std::string& message, const std::string& hint) {
  err << "evalcli: error: " << one_line(message) << '\n';
  if (!hint.empty()) err << one_line(hint) << '\n';
}

using AddCommand = void (*)(CLI::App&, Streams&);

// Commands with a flow of their own: metrics with a corpus scorer (which still
// take their options from their definition) and the commands that are not a
// metric's, in help order; the other metrics of the registry get
// add_metric_command. Each command's
// options, validators and callbacks cost heap and code pages at start.
constexpr std::pair<std::string_view, AddCommand> kOwnCommands[] = {
    {"rouge", add_rouge_command},       {"cider", add_cider_command},
    {"ppl", add_ppl_command},           {"tokenize", add_tokenize_command},
    {"sacrebleu", add_sacrebleu_command}, {"merge", add_merge_command}, {"check", add_check_command},
    {"coco", add_coco_command},         {"bertscore", add_bertscore_command},
    {"report", add_report_command},
};

// `evalcli NAME ...` builds only NAME's subcommand (evalcli ppl's memory target counts every page the
// process touches); anything else (--help, --version, a typo) builds all of them for help and errors.
AddCommand own_command(std::string_view name) {
  for (const auto& [own, add] : kOwnCommands) {
    if (own == name) return add;
  }
  return nullptr;
}

void add_command(CLI::App& app, Streams& io, const MetricDefinition& definition) {
  if (AddCommand add = own_command(definition.command)) return add(app, io);
  add_metric_command(app, definition, io);
}

void add_subcommands(CLI::App& app, Streams& io, std::string_view first_arg) {
  if (const MetricDefinition* definition = find_metric_definition_by_command(first_arg)) {
    return add_command(app, io, *definition);
  }
  if (AddCommand add = own_command(first_arg)) return add(app, io);
  for (const MetricDefinition* definition : metric_definitions()) add_command(app, io, *definition);
  for (const auto& [name, add] : kOwnCommands) {
    if (find_metric_definition_by_command(name) == nullptr) add(app, io);
  }
}

}  // namespace

namespace {

int parse_and_run(const std::vector<std::string>& raw_args, Streams& io) {
  CLI::App app{"evalcli: reproducible text-generation metrics (BLEU, chrF, TER, ROUGE, METEOR, CIDEr, PPL)",
               "evalcli"};
  app.set_version_flag("-V,--version", std::string("evalcli ") + evalcli_version());
  app.require_subcommand(1);
  app.fallthrough(false);
  add_subcommands(app, io, raw_args.empty() ? std::string_view{} : std::string_view{raw_args.front()});
  refuse_bad_numbers(app);

  std::vector<std::string> args = expand_single_dash_aliases(raw_args);
  std::reverse(args.begin(), args.end());  // CLI11 takes arguments in reverse order
  try {
    app.parse(args);
    io.out.flush();
    return 0;
  } catch (const CLI::CallForHelp&) {
    io.out << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    io.out << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion& e) {
    io.out << e.what() << '\n';
    return 0;
  } catch (const CLI::ParseError& e) {
    print_error(io.err, e.what(), "hint: run 'evalcli SUBCOMMAND --help' for usage");
    return static_cast<int>(ExitCode::usage);
  } catch (const RawExit& e) {
    io.out.flush();
    io.err << e.what();
    return static_cast<int>(e.code());
  } catch (const Error& e) {
    io.out.flush();
    print_error(io.err, e.what(), e.hint());
    return static_cast<int>(e.code());
  } catch (const std::bad_alloc&) {
    print_error(io.err, "out of memory", "");
    return static_cast<int>(ExitCode::internal);
  } catch (const std::exception& e) {
    print_error(io.err, fmt::format("internal error: {}", e.what()),
                "hint: this is a bug in evalcli; please report it with the command line");
    return static_cast<int>(ExitCode::internal);
  }
}

// Whether text written to standard output was lost, and why (errno; 0 when
// unknown). main()'s StandardOutputBuffer knows the errno and is closed here,
// so that an error close reports is seen too.
struct OutputLoss {
  bool lost = false;
  int error_number = 0;
};

OutputLoss standard_output_loss(std::ostream& out) {
  out.flush();
  auto* buffer = dynamic_cast<io::StandardOutputBuffer*>(out.rdbuf());
  if (buffer != nullptr && !buffer->close()) return {true, buffer->error()};
  return {!out, 0};
}

// A result that did not reach standard output is an error even when the run
// succeeded: exit 3 (`evalcli sacrebleu`: Python's 120 when flushing stdout
// fails, 1 when stdout was closed, as SacreBLEU). A run that failed already
// keeps its own code.
int finish_standard_output(int code, Streams& io, bool sacrebleu) {
  const OutputLoss loss = standard_output_loss(io.out);
  if (!loss.lost || code != 0) return code;
  const std::string what =
      "<stdout>: cannot write: " + std::string(loss.error_number != 0 ? std::strerror(loss.error_number) : "write error");
  if (!sacrebleu) {
    print_error(io.err, what, "");
    return static_cast<int>(ExitCode::input_data);
  }
  io.err << "sacreBLEU: error: " << what << '\n';
  return loss.error_number == EBADF ? 1 : 120;
}

}  // namespace

namespace {
thread_local std::vector<std::string> running_args;
}  // namespace

const std::vector<std::string>& command_line_args() { return running_args; }

int run(const std::vector<std::string>& raw_args, Streams io) {
  running_args = raw_args;
  // Small-page faults are dear (some 15 us each on a paravirtualised VM):
  // bleu on 20,370 lines 490 -> 210 faults, rouge 920 -> 210 (13% less CPU),
  // coco 950 -> 220, cider on COCO's files 6,750 -> 240 (docs/performance.md).
  // Not for ppl, whose model is mapped from its file and whose peak RSS is
  // held to KenLM query's: a huge page of heap would add up to 2 MB to it.
  if (raw_args.empty() || raw_args.front() != "ppl") memory::back_malloc_heap_with_huge_pages();
  const int code = parse_and_run(raw_args, io);
  return finish_standard_output(code, io, !raw_args.empty() && raw_args.front() == "sacrebleu");
}

}  // namespace evalcli::cli
