#include "evalcli/metrics/ppl_corpus.hpp"

#include <fmt/format.h>

#include "evalcli/io/line_reader.hpp"
#include "evalcli/metrics/ppl_metric.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli::ppl {
namespace {

std::uint64_t count_code_points(std::string_view bytes) {
  std::uint64_t n = 0;
  for (const char c : bytes) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

bool blank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string::npos; }

// Where segment `index` (0-based) stands against `range`: before it, in it, or after it.
enum class InRange { before, inside, after };
InRange locate(std::size_t index, const SegmentRange& range) {
  if (index < range.first) return InRange::before;
  return index - range.first < range.count ? InRange::inside : InRange::after;
}

}  // namespace

TextInput::TextInput(const std::string& path, std::istream& stdin_stream) {
  name_ = "<stdin>";
  if (path != "-") {
    io::check_readable_file(path);
    source_ = io::open_decompressed_file(path);
    name_ = path;
  } else {
    source_ = io::open_decompressed(stdin_stream, name_);
  }
  lines_ = std::make_unique<io::LineSplitter>(*source_, kReadBlock, io::max_line_bytes(), name_);
}

std::size_t count_text_lines(TextInput& input) {
  std::string_view line;
  bool terminated = true;
  std::size_t lines = 0;
  while (input.next(line, terminated)) ++lines;
  return lines;
}

std::size_t count_documents(TextInput& input) {
  std::string_view line;
  bool terminated = true;
  std::size_t documents = 0;
  while (input.next(line, terminated)) documents += !blank(line);
  return documents;
}

ArpaCorpus score_arpa_text(const NgramModel& model, TextInput& input, const ArpaCorpusOptions& options,
                           const std::function<void(const ArpaLine&)>& observe) {
  ArpaCorpus corpus;
  corpus.system.totals.assign(8, 0.0);
  std::string_view line;
  std::string processed;
  std::vector<std::string_view> tokens;
  std::vector<ScoredWord> words;
  bool terminated = true;
  for (std::size_t index = 0; input.next(line, terminated); ++index) {
    const InRange where = locate(index, options.range);
    if (where == InRange::before) continue;
    if (where == InRange::after) break;
    if (options.on_line) options.on_line(line);
    std::string_view text = line;
    if (options.pipeline != nullptr) {
      const std::u32string decoded = utf8::decode_or_throw(line, fmt::format("{}:{}", input.name(), input.line_number()));
      processed = utf8::encode(options.pipeline->process(decoded));
      text = processed;
    }
    split_kenlm_tokens(text, tokens);
    words.clear();
    const bool kenlm_unterminated = !terminated && options.kenlm_final_line;
    LineScore scored = score_line(model, tokens, options.mode, options.want_words ? &words : nullptr, !kenlm_unterminated);
    scored.stats.bytes = line.size() + (terminated ? 1 : 0);
    scored.stats.chars = count_code_points(line) + (terminated ? 1 : 0);
    if (kenlm_unterminated) {  // no total, no OOV count, no line
      scored.stats.log10_total = 0;
      scored.stats.oovs = 0;
      scored.stats.lines = 0;
    }
    corpus.totals += scored.stats;
    StatRow row = to_row(scored.stats);
    add_stats(corpus.system.totals, row);  // in line order, as `totals` sums them
    ++corpus.system.segments;
    if (options.keep_rows) corpus.system.rows.push_back(std::move(row));
    if (observe) observe(ArpaLine{input.line_number(), scored, words, kenlm_unterminated});
    if (options.on_scored) options.on_scored(input.line_number());
  }
  corpus.system.system = input.name();
  return corpus;
}

LogprobCorpus score_logprob_text(TextInput& input, LogBase base, bool keep_rows,
                                 const std::function<void(const std::string&)>& warn,
                                 const std::function<void(std::size_t lines_done)>& on_scored,
                                 const SegmentRange& range) {
  LogprobCorpus corpus;
  corpus.system.totals.assign(7, 0.0);
  std::vector<std::string> warnings;
  std::size_t warned = 0;
  std::string_view line;
  bool terminated = true;
  std::size_t index = 0;  // of the document
  while (input.next(line, terminated)) {
    if (on_scored && input.line_number() > 1) on_scored(input.line_number() - 1);  // the lines before this one
    if (blank(line)) continue;
    const InRange in_range = locate(index++, range);
    if (in_range == InRange::before) continue;
    if (in_range == InRange::after) break;
    const std::string where = fmt::format("{}:{}", input.name(), input.line_number());
    const DocumentScore doc = score_document(line, base, where, warnings);
    StatRow row = to_row(doc.stats);
    add_stats(corpus.system.totals, row);  // in file order, as LogprobStats += sums
    ++corpus.system.segments;
    if (keep_rows) {
      corpus.system.rows.push_back(std::move(row));
      corpus.line_numbers.push_back(input.line_number());
      corpus.ids.push_back(doc.id);
    }
    for (; warned < warnings.size(); ++warned) warn(warnings[warned]);
  }
  if (on_scored) on_scored(input.line_number());
  corpus.system.system = input.name();
  return corpus;
}

}  // namespace evalcli::ppl
