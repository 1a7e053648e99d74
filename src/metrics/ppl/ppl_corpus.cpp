#include "evalcli/metrics/ppl_corpus.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>

#include "evalcli/core/worker_pool.hpp"
#include "evalcli/io/line_reader.hpp"
#include "evalcli/metrics/ppl_metric.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli::ppl {
namespace {

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

namespace {

// Lines are read a batch at a time, scored, then added to the sums in line
// order: the result does not depend on the threads, and memory is bounded by
// the batches (a slot is some 200 bytes plus its line's copy). With several
// threads each has a batch of kBatchLines; one thread reads kSingleThreadLines.
constexpr std::size_t kBatchLines = 128;
constexpr std::size_t kSingleThreadLines = 32;  // one thread reads and scores in turn: a few lines do

// One line of a batch: a copy of its bytes (the reader's view lasts one line),
// and what scoring it made. Slots are reused, so their buffers keep capacity.
struct BatchLine {
  std::string text;       // as read
  std::string processed;  // after the pipeline, if any
  std::size_t line_number = 0;
  bool terminated = true;
  std::vector<ScoredWord> words;  // with want_words (their tokens view `text` or `processed`)
  LineScore score;
  bool kenlm_unterminated = false;
  // A scoring error (a tokenizer's UTF-8 check), raised when the lines before it are added.
  std::exception_ptr failure;
};

void score_batch_line(const NgramModel& model, const ArpaCorpusOptions& options, const std::string& input_name,
                      BatchLine& line) {
  line.failure = nullptr;
  std::string_view text = line.text;
  if (options.pipeline != nullptr) {
    const std::u32string decoded = utf8::decode_or_throw(line.text, fmt::format("{}:{}", input_name, line.line_number));
    line.processed = utf8::encode(options.pipeline->process(decoded));
    text = line.processed;
  }
  // Per thread, not per line: a batch of lines' token vectors would hold some
  // 16 bytes a token for the whole batch (0.8 MB of 1,024 tokenized lines).
  thread_local std::vector<std::string_view> tokens;
  split_kenlm_tokens(text, tokens);
  line.words.clear();
  line.kenlm_unterminated = !line.terminated && options.kenlm_final_line;
  line.score = score_line(model, tokens, options.mode, options.want_words ? &line.words : nullptr,
                          !line.kenlm_unterminated);
  PplStats& stats = line.score.stats;
  stats.bytes = line.text.size() + (line.terminated ? 1 : 0);
  stats.chars = utf8::count_code_points(line.text) + (line.terminated ? 1 : 0);
  if (line.kenlm_unterminated) {  // no total, no OOV count, no line
    stats.log10_total = 0;
    stats.oovs = 0;
    stats.lines = 0;
  }
}

// Reads up to batch.size() lines of the range into `batch`; returns how many.
// Sets `done` at the input's or the range's end, or at a reading error, which
// is kept in `read_error` so that the lines before it are scored first.
std::size_t read_line_batch(TextInput& input, const ArpaCorpusOptions& options, std::size_t& index,
                            std::vector<BatchLine>& batch, bool& done, std::exception_ptr& read_error) {
  std::size_t filled = 0;
  std::string_view line;
  bool terminated = true;
  while (filled < batch.size()) {
    try {
      if (!input.next(line, terminated)) {
        done = true;
        break;
      }
    } catch (...) {
      read_error = std::current_exception();
      done = true;
      break;
    }
    const InRange where = locate(index++, options.range);
    if (where == InRange::before) continue;
    if (where == InRange::after) {
      done = true;
      break;
    }
    if (options.on_line) options.on_line(line);
    BatchLine& slot = batch[filled++];
    slot.text.assign(line);
    slot.line_number = input.line_number();
    slot.terminated = terminated;
  }
  return filled;
}

}  // namespace

ArpaCorpus score_arpa_text(const NgramModel& model, TextInput& input, const ArpaCorpusOptions& options,
                           const std::function<void(const ArpaLine&)>& observe) {
  ArpaCorpus corpus;
  corpus.system.totals.assign(8, 0.0);
  WorkerPool pool(options.threads);
  // Each thread reads a batch in its turn, scores it itself, and adds it in
  // its turn (core/worker_pool.hpp, run_batches_in_turn).
  struct Slot {
    std::vector<BatchLine> batch;
    std::size_t filled = 0;
    std::exception_ptr read_error;
  };
  std::vector<Slot> slots(pool.size());
  for (Slot& slot : slots) slot.batch.resize(pool.size() > 1 ? kBatchLines : kSingleThreadLines);
  std::size_t index = 0;  // of the next line; read, like `done`, only in the reading turn
  bool done = false;
  InTurnBatchSteps steps;
  steps.read = [&](std::size_t s) {
    slots[s].read_error = nullptr;
    slots[s].filled = read_line_batch(input, options, index, slots[s].batch, done, slots[s].read_error);
    return !done;
  };
  steps.score = [&](std::size_t s) {
    for (std::size_t i = 0; i < slots[s].filled; ++i) {
      BatchLine& line = slots[s].batch[i];
      try {
        score_batch_line(model, options, input.name(), line);
      } catch (...) {
        line.failure = std::current_exception();
      }
    }
  };
  steps.add = [&](std::size_t s) {
    for (std::size_t i = 0; i < slots[s].filled; ++i) {
      const BatchLine& line = slots[s].batch[i];
      if (line.failure) std::rethrow_exception(line.failure);
      corpus.totals += line.score.stats;
      StatRow row = to_row(line.score.stats);
      add_stats(corpus.system.totals, row);  // in line order, as `totals` sums them
      ++corpus.system.segments;
      if (options.keep_rows) corpus.system.rows.push_back(std::move(row));
      if (observe) observe(ArpaLine{line.line_number, line.score, line.words, line.kenlm_unterminated});
      if (options.on_scored) options.on_scored(line.line_number);
    }
    if (slots[s].read_error) std::rethrow_exception(slots[s].read_error);  // after the lines read before it
  };
  run_batches_in_turn(pool, steps);
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
