#pragma once
// The corpus scorers of `evalcli ppl`: a text scored with an n-gram model
// (KenLM query's rules), and a JSONL file of any LM's per-token log-probs.
// Both stream their input, so memory stays constant unless per-line rows are kept.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <istream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "evalcli/io/decompress.hpp"
#include "evalcli/metrics/metric.hpp"
#include "evalcli/metrics/ppl.hpp"
#include "evalcli/tokenize/pipeline.hpp"

namespace evalcli::ppl {

// Input text: a file or standard input ("-"), decompressed if gzip/bzip2/xz,
// split at LF only, as KenLM (a CR stays in the line: it is a token
// separator). Lines are views into a read buffer (no copy); a line longer
// than io::max_line_bytes() is an input error.
class TextInput {
 public:
  TextInput(const std::string& path, std::istream& stdin_stream);
  // Next line (valid until the next call); `terminated` is false for a final line without '\n'.
  bool next(std::string_view& line, bool& terminated) { return lines_->next(line, &terminated); }
  std::size_t line_number() const { return lines_->line_number(); }
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  std::unique_ptr<io::ByteSource> source_;
  std::unique_ptr<io::LineSplitter> lines_;
};

// The segments a `--shard K/N` piece scores (0-based first, count): lines of
// an ARPA-mode text, documents (non-blank lines) of a log-prob file. The
// others are read past, not scored (nor validated).
struct SegmentRange {
  std::size_t first = 0;
  std::size_t count = static_cast<std::size_t>(-1);
};

// The segments of an input, read through without scoring: its lines (ARPA
// mode, as score_arpa_text reads them) or its documents (non-blank lines).
std::size_t count_text_lines(TextInput& input);
std::size_t count_documents(TextInput& input);

struct ArpaCorpusOptions {
  ContextMode mode = ContextMode::sentence;
  const TextPipeline* pipeline = nullptr;  // null: KenLM's raw byte tokens
  // KenLM's bug, on request: a last line without '\n' gets no </s>, and only its
  // token count and OOV log-probs reach the corpus sums.
  bool kenlm_final_line = false;
  bool keep_rows = false;   // per-line statistics rows in the result
  bool want_words = false;  // per-token scores for the observer
  SegmentRange range;       // the lines scored (default: all)
  unsigned threads = 1;     // that score lines (0 = every core); the result is the same for any number
  // Sees every input line as read, before any tokenizer (the text checks).
  std::function<void(std::string_view line)> on_line;
  // Called after each line is scored with the lines done so far (a progress display).
  std::function<void(std::size_t lines_done)> on_scored;
};

// One scored line, shown to the caller's observer (KenLM's per-line output).
struct ArpaLine {
  std::size_t line_number = 0;
  const LineScore& score;
  const std::vector<ScoredWord>& words;  // empty unless want_words
  bool kenlm_unterminated = false;       // the final-line bug applied to this line
};

struct ArpaCorpus {
  PplStats totals;     // KenLM's corpus sums
  SystemStats system;  // the same sums as statistics rows (system = the input's name)
};

ArpaCorpus score_arpa_text(const NgramModel& model, TextInput& input, const ArpaCorpusOptions& options,
                           const std::function<void(const ArpaLine&)>& observe = {});

struct LogprobCorpus {
  SystemStats system;
  // Per kept row (keep_rows): its line in the file and its document "id" (or null).
  std::vector<std::size_t> line_numbers;
  std::vector<nlohmann::json> ids;
};

// Blank lines carry no document. `warn` receives each warning (positive log-probabilities);
// `on_scored`, if given, the lines read so far after each line (a progress display).
// `range`: the documents scored (default: all).
LogprobCorpus score_logprob_text(TextInput& input, LogBase base, bool keep_rows,
                                 const std::function<void(const std::string&)>& warn,
                                 const std::function<void(std::size_t lines_done)>& on_scored = {},
                                 const SegmentRange& range = {});

}  // namespace evalcli::ppl
