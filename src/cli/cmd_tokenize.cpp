// `evalcli tokenize`: shows what a tokenizer (and normalizer chain) does,
// one output line per input line, tokens joined by one space.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "cli/common.hpp"
#include "evalcli/io/line_reader.hpp"
#include "evalcli/tokenize/pipeline.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli::cli {
namespace {

struct TokenizeOptions {
  std::string tokenizer = "13a";
  std::vector<std::string> normalizers;
  bool lowercase = false;
  std::string input = "-";
  TokenizerOptions tokenizer_options;
};

// Writes one line's tokens; false when standard output is gone (cli::run
// reports it, the rest is not read).
bool write_tokens(std::u32string_view tokens, std::string& out, Streams& io) {
  out.clear();
  utf8::append(out, tokens);
  out.push_back('\n');
  io.out << out;
  return static_cast<bool>(io.out);
}

void run_tokenize(const TokenizeOptions& o, Streams& io) {
  const TextPipeline pipeline(PipelineOptions{o.normalizers, o.lowercase, o.tokenizer, o.tokenizer_options});
  auto reader = o.input == "-" ? io::LineReader(io.in, "<stdin>", true) : io::LineReader(o.input);
  std::string out;
  if (!pipeline.looks_past_line_end()) {  // each line is written as soon as it is read
    std::u32string line;
    while (reader.next(line)) {
      if (!write_tokens(pipeline.process(line), out, io)) return;
    }
    return;
  }
  // ptb: a line's tokens can depend on the next line (pycocoevalcap runs
  // PTBTokenizer on all captions as one text), so each line waits for the next.
  std::vector<std::u32string> current(1);  // process_lines works on vectors
  std::u32string following;
  bool more = reader.next(current.front());
  while (more) {
    more = reader.next(following);
    pipeline.process_lines(current, more ? &following : nullptr);
    if (!write_tokens(current.front(), out, io)) return;
    current.front().swap(following);
  }
}

}  // namespace

void add_tokenize_command(CLI::App& app, Streams& io) {
  auto options = std::make_shared<TokenizeOptions>();
  auto* cmd = app.add_subcommand("tokenize", "print each line's tokens joined by one space");
  cmd->add_option("--tokenize", options->tokenizer,
                  fmt::format("tokenizer (-tok): {}", fmt::join(tokenizer_names(), ", ")));
  cmd->add_option("--normalize", options->normalizers,
                  fmt::format("normalizers applied first, in order (repeatable): {}",
                              fmt::join(normalizer_names(), ", ")));
  cmd->add_flag("--lowercase", options->lowercase, "lowercase before tokenizing (-lc)");
  cmd->add_option("-i,--input", options->input, "input file (default stdin)");
  add_tokenizer_options(cmd, options->tokenizer_options);
  cmd->callback([options, &io] { run_tokenize(*options, io); });
}

}  // namespace evalcli::cli
