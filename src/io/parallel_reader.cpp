#include "evalcli/io/parallel_reader.hpp"

#include <fmt/format.h>

#include <iostream>

#include "evalcli/core/strings.hpp"
#include "evalcli/text/unicode.hpp"

namespace evalcli {

ParallelReader::ParallelReader(const CorpusSpec& spec)
    : tab_refs_(spec.tab_separated_refs), on_segment_(spec.on_segment) {
  if (spec.ref_paths.empty()) throw usage_error("no reference file given (use -r FILE)");
  if (tab_refs_ > 1 && spec.ref_paths.size() > 1) {
    throw usage_error("-nr/--num-refs needs exactly one reference file holding tab-separated references");
  }
  // Open everything first so that a missing file is reported before any work.
  for (const auto& path : spec.ref_paths) io::check_readable_file(path);
  for (const auto& path : spec.hyp_paths) io::check_readable_file(path);
  for (const auto& path : spec.ref_paths) {
    ref_readers_.emplace_back(path);
    if (spec.codec) ref_readers_.back().decode_with(*spec.codec);
  }
  num_refs_ = tab_refs_ > 1 ? static_cast<std::size_t>(tab_refs_) : ref_readers_.size();

  if (spec.hyp_paths.empty()) {
    from_stdin_ = true;
    std::istream& in = spec.stdin_stream ? *spec.stdin_stream : std::cin;
    hyp_readers_.emplace_back(in, "<stdin>", true);
    if (spec.codec) hyp_readers_.back().decode_with(*spec.codec);
    // The first line's tab-separated fields decide the number of systems.
    std::u32string first;
    if (hyp_readers_[0].next(first)) {
      const auto fields = split(first, U'\t');
      first_stdin_fields_.assign(fields.begin(), fields.end());
      first_line_pending_ = true;
    } else {
      first_stdin_fields_.assign(1, U"");
    }
    num_systems_ = first_stdin_fields_.size();
    for (std::size_t i = 0; i < num_systems_; ++i) system_names_.push_back(fmt::format("System {}", i + 1));
  } else {
    for (const auto& path : spec.hyp_paths) {
      hyp_readers_.emplace_back(path);
      if (spec.codec) hyp_readers_.back().decode_with(*spec.codec);
      system_names_.push_back(path);
    }
    num_systems_ = hyp_readers_.size();
  }
}

ParallelReader::~ParallelReader() = default;

bool ParallelReader::read_hyps(std::vector<std::u32string>& hyps) {
  hyps.resize(num_systems_);
  if (from_stdin_) {
    if (first_line_pending_) {
      first_line_pending_ = false;
      hyps = first_stdin_fields_;
      return true;
    }
    std::u32string& line = stdin_line_;
    if (!hyp_readers_[0].next(line)) return false;
    if (num_systems_ == 1 && find_code_point(line, U'\t') == line.size()) {
      hyps[0].swap(line);  // the whole line, rstripped by next(); both buffers are kept for reuse
      return true;
    }
    const auto fields = split(line, U'\t');
    if (fields.size() != num_systems_) {
      throw TabFieldMismatch(fmt::format("<stdin>:{}: {} tab-separated systems, but the first line has {}",
                                         hyp_readers_[0].line_number(), fields.size(), num_systems_),
                             hyp_readers_[0].line_number(), num_systems_, fields.size());
    }
    for (std::size_t s = 0; s < num_systems_; ++s) {
      hyps[s].assign(text::rstrip(fields[s]));
    }
    return true;
  }
  std::size_t ended = 0;
  for (std::size_t s = 0; s < num_systems_; ++s) {
    if (!hyp_readers_[s].next(hyps[s])) ++ended;
  }
  if (ended == 0) return true;
  if (ended == num_systems_) return false;
  throw_length_mismatch(true);
}

bool ParallelReader::read_refs(std::vector<std::u32string>& refs) {
  if (tab_refs_ > 1) {
    std::u32string line;
    if (!ref_readers_[0].next(line)) return false;
    const auto fields = split(line, U'\t', static_cast<std::size_t>(tab_refs_ - 1));
    refs.assign(fields.begin(), fields.end());
    if (refs.size() != static_cast<std::size_t>(tab_refs_)) {
      throw TabFieldMismatch(fmt::format("{}:{}: expected {} tab-separated references, found {}",
                                         ref_readers_[0].name(), ref_readers_[0].line_number(), tab_refs_,
                                         refs.size()),
                             ref_readers_[0].line_number(), static_cast<std::size_t>(tab_refs_), refs.size());
    }
    return true;
  }
  refs.resize(ref_readers_.size());
  std::size_t ended = 0;
  for (std::size_t r = 0; r < ref_readers_.size(); ++r) {
    if (!ref_readers_[r].next(refs[r])) ++ended;
  }
  if (ended == 0) return true;
  if (ended == ref_readers_.size()) return false;
  throw_length_mismatch(false);
}

// "1 line", "2 lines": the count as the message reads it.
static std::string line_count_phrase(std::size_t count) {
  return fmt::format("{} line{}", count, count == 1 ? "" : "s");
}

void ParallelReader::throw_length_mismatch(bool) {
  // Count every stream to the end so the message can give all lengths.
  std::vector<std::string> parts;
  std::vector<std::size_t> hyp_lines, ref_lines;
  for (auto& reader : hyp_readers_) {
    hyp_lines.push_back(reader.count_total_lines());
    parts.push_back(fmt::format("{} has {}", reader.name(), line_count_phrase(hyp_lines.back())));
  }
  for (auto& reader : ref_readers_) {
    ref_lines.push_back(reader.count_total_lines());
    parts.push_back(fmt::format("{} has {}", reader.name(), line_count_phrase(ref_lines.back())));
  }
  throw LineCountMismatch(fmt::format("line counts differ: {}", fmt::join(parts, ", ")), std::move(hyp_lines),
                          std::move(ref_lines));
}

bool ParallelReader::next(std::vector<std::u32string>& hyps, std::vector<std::u32string>& refs) {
  const bool have_hyps = read_hyps(hyps);
  const bool have_refs = read_refs(refs);
  if (have_hyps != have_refs) throw_length_mismatch(!have_hyps);
  if (!have_hyps) return false;
  ++segments_;
  if (on_segment_) on_segment_(hyps, refs);
  return true;
}

}  // namespace evalcli
