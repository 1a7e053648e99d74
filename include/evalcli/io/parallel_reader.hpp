#pragma once
// Reading hypotheses and references in lockstep (the corpus statistics over them
// are in evalcli/stats/corpus_stats.hpp).
#include <functional>
#include <istream>
#include <memory>
#include <string>
#include <vector>

#include "evalcli/core/error.hpp"
#include "evalcli/io/line_reader.hpp"

namespace evalcli {

struct CorpusSpec {
  std::vector<std::string> ref_paths;
  // -nr N: the single reference file holds N tab-separated references (0 = off).
  int tab_separated_refs = 0;
  // Hypothesis files, one per system; empty = standard input, where
  // tab-separated fields are several systems (SacreBLEU's convention).
  std::vector<std::string> hyp_paths;
  std::istream* stdin_stream = nullptr;  // defaults to std::cin
  const ByteCodec* codec = nullptr;      // every stream in this single-byte codec, not UTF-8 (evalcli sacrebleu -e)
  // Sees every segment as read (hypotheses by system, then references), for
  // checks of the text itself: mostly-CJK text, tokenized periods.
  std::function<void(const std::vector<std::u32string>& hyps, const std::vector<std::u32string>& refs)> on_segment;
  // Score only the segments first_segment + 1 .. first_segment + segment_count
  // (--shard K/N); the others are read past, not scored.
  std::size_t first_segment = 0;
  std::size_t segment_count = static_cast<std::size_t>(-1);
};

// Thrown when streams differ in length; the sacrebleu front end prints its own
// text, which depends on the lengths (an empty system is reported first).
class LineCountMismatch : public Error {
 public:
  LineCountMismatch(std::string message, std::vector<std::size_t> hyp_lines, std::vector<std::size_t> ref_lines)
      : Error(ExitCode::input_data, std::move(message)), hyp_lines(std::move(hyp_lines)), ref_lines(std::move(ref_lines)) {}
  std::vector<std::size_t> hyp_lines;  // per hypothesis stream (stdin with tab-separated systems: one)
  std::vector<std::size_t> ref_lines;  // per reference stream
};
// Thrown for tab-field count problems (stdin systems, -nr); SacreBLEU exits 17 there.
class TabFieldMismatch : public Error {
 public:
  TabFieldMismatch(std::string message, std::size_t line, std::size_t expected, std::size_t found)
      : Error(ExitCode::input_data, std::move(message)), line(line), expected(expected), found(found) {}
  std::size_t line;      // 1-based line of the stream
  std::size_t expected;  // fields wanted (systems of the first stdin line, or -nr)
  std::size_t found;     // fields on that line (-nr: at most -nr, the last keeps its tabs)
};
// Thrown when every stream is empty (no segment at all).
class EmptyInput : public Error {
 public:
  explicit EmptyInput(std::string message) : Error(ExitCode::input_data, std::move(message)) {}
};

// Yields, segment by segment, one hypothesis per system and all references.
class ParallelReader {
 public:
  explicit ParallelReader(const CorpusSpec& spec);
  ~ParallelReader();

  std::size_t num_systems() const { return num_systems_; }
  std::size_t num_refs() const { return num_refs_; }
  const std::vector<std::string>& system_names() const { return system_names_; }

  // False after the last segment; throws LineCountMismatch / input errors.
  bool next(std::vector<std::u32string>& hyps, std::vector<std::u32string>& refs);
  std::size_t segments_read() const { return segments_; }

 private:
  bool read_hyps(std::vector<std::u32string>& hyps);
  bool read_refs(std::vector<std::u32string>& refs);
  [[noreturn]] void throw_length_mismatch(bool hyps_ended);

  std::vector<io::LineReader> hyp_readers_;
  std::vector<io::LineReader> ref_readers_;
  bool from_stdin_ = false;
  int tab_refs_ = 0;
  std::size_t num_systems_ = 0;
  std::size_t num_refs_ = 0;
  std::vector<std::string> system_names_;
  std::vector<std::u32string> first_stdin_fields_;
  std::u32string stdin_line_;  // the last line read from stdin (its buffer reused)
  bool first_line_pending_ = false;
  std::size_t segments_ = 0;
  std::function<void(const std::vector<std::u32string>&, const std::vector<std::u32string>&)> on_segment_;
};

}  // namespace evalcli
