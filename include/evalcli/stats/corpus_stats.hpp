#pragma once
// Turning the segments of a ParallelReader into per-system summed statistics
// (and per-segment rows when asked for). Memory stays constant in the corpus
// size unless rows are kept.
#include <functional>
#include <string>
#include <vector>

#include "evalcli/io/parallel_reader.hpp"
#include "evalcli/metrics/metric.hpp"

namespace evalcli {

// Runs every metric over every system in one pass over the files.
// Result: [metric][system]. Throws on empty systems and mismatched lengths.
// `on_segment(segments_done)`, if given, is called after each segment (progress display).
// Segments are scored by `threads` threads (0 = every available core) in
// batches and added up in segment order: the result is the same for any count.
std::vector<std::vector<SystemStats>> compute_corpus_stats(
    const std::vector<const Metric*>& metrics, const CorpusSpec& spec, bool keep_rows,
    const std::function<void(std::size_t)>& on_segment = {}, unsigned threads = 1);

}  // namespace evalcli
