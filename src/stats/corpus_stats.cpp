#include "evalcli/stats/corpus_stats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>

#include "evalcli/core/summation.hpp"
#include "evalcli/core/worker_pool.hpp"

namespace evalcli {
namespace {

// Segments read and scored together: the threads score a batch (while the
// next one is read), then its rows are added to the totals in segment order.
// Bounded, so memory stays flat whatever the corpus size. Each slot of a batch
// keeps the capacity of the longest line it ever held, so a batch holds a few
// chunks per thread and no more (BLEU on 20,370 lines with 2 threads: 1,478
// page faults with 512 segments a batch, 742 with 128). One thread reads and
// scores in turn (no batch to overlap, so a few segments do).
constexpr std::size_t kSegmentsPerTask = 16;  // enough work per claim to make claiming cheap
constexpr std::size_t kTasksPerThread = 4;    // so that a slow chunk does not hold the others up
constexpr std::size_t kMaxBatchSegments = 512;
constexpr std::size_t kSingleThreadBatch = 64;

std::size_t batch_capacity_for(unsigned threads) {
  if (threads <= 1) return kSingleThreadBatch;
  return std::min(kMaxBatchSegments, kSegmentsPerTask * kTasksPerThread * threads);
}

struct Batch {
  std::vector<std::vector<std::u32string>> hyps;  // [segment][system]
  std::vector<std::vector<std::u32string>> refs;  // [segment][reference]
  std::vector<std::size_t> segments_read;         // the reader's count after each segment (progress)
  std::size_t size = 0;
};

// Reads the next batch of the segments to score. A reading error is kept in
// `read_error`, so that the segments before it are scored first (as one loop
// over segments would have done, meeting their errors first).
void read_batch(ParallelReader& reader, const CorpusSpec& spec, std::size_t capacity, Batch& batch, bool& done,
                std::exception_ptr& read_error) {
  batch.size = 0;
  if (batch.hyps.size() < capacity) {
    batch.hyps.resize(capacity);
    batch.refs.resize(capacity);
    batch.segments_read.resize(capacity);
  }
  try {
    while (batch.size < capacity) {
      if (!reader.next(batch.hyps[batch.size], batch.refs[batch.size])) {
        done = true;
        return;
      }
      const std::size_t index = reader.segments_read() - 1;  // 0-based
      if (index < spec.first_segment) continue;
      if (index - spec.first_segment >= spec.segment_count) {  // a shard's end: the rest is not scored
        done = true;
        return;
      }
      batch.segments_read[batch.size++] = reader.segments_read();
    }
  } catch (...) {
    read_error = std::current_exception();
    done = true;
  }
}

}  // namespace

std::vector<std::vector<SystemStats>> compute_corpus_stats(const std::vector<const Metric*>& metrics,
                                                           const CorpusSpec& spec, bool keep_rows,
                                                           const std::function<void(std::size_t)>& on_segment,
                                                           unsigned threads) {
  ParallelReader reader(spec);
  const std::size_t systems = reader.system_names().size();
  std::vector<std::vector<SystemStats>> results(metrics.size());
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    for (const auto& name : reader.system_names()) {
      SystemStats stats;
      stats.system = name;
      stats.totals.assign(metrics[m]->num_stats(), 0.0);
      results[m].push_back(std::move(stats));
    }
  }
  std::vector<std::size_t> stat_counts;
  for (const Metric* metric : metrics) stat_counts.push_back(metric->num_stats());
  // [metric][system][stat] running exact sums, for metrics with exact_totals().
  std::vector<std::vector<std::vector<stats::ExactSum>>> exact(metrics.size());
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    if (metrics[m]->exact_totals()) exact[m].assign(systems, std::vector<stats::ExactSum>(stat_counts[m]));
  }
  // [metric]: the batch's rows, segment by segment, system by system.
  std::vector<std::vector<double>> rows(metrics.size());
  // Metrics that do not scale with threads (a shared locked cache: NLTK METEOR)
  // score a whole batch as one task, beside the others' chunks of segments:
  // one thread for them, every thread for the rest (evalcli report mixes both).
  std::vector<std::size_t> chunked, whole_batch;
  for (std::size_t m = 0; m < metrics.size(); ++m) (metrics[m]->scales_with_threads() ? chunked : whole_batch).push_back(m);
  WorkerPool pool(chunked.empty() && whole_batch.size() <= 1 ? 1 : threads);
  // Two batches: with several threads the next one is read while this one is
  // scored, as one more task of the same call (the first claimed): one
  // hand-off to the workers per batch, where a reading thread of its own made
  // two (each a futex wake and a sleep, dear on a paravirtualised VM).
  Batch batches[2];
  std::size_t current = 0;
  bool done = false, next_done = false;
  std::exception_ptr read_error, next_error;
  const std::size_t batch_capacity = batch_capacity_for(pool.size());
  read_batch(reader, spec, batch_capacity, batches[current], done, read_error);
  while (batches[current].size > 0) {
    Batch& batch = batches[current];
    Batch* const next = &batches[1 - current];
    next->size = 0;
    next_done = done;
    next_error = nullptr;
    const auto read_next = [&, next] { read_batch(reader, spec, batch_capacity, *next, next_done, next_error); };
    const bool read_alongside = !done && pool.size() > 1;
    if (!done && !read_alongside) read_next();
    for (std::size_t m = 0; m < metrics.size(); ++m) rows[m].assign(batch.size * systems * stat_counts[m], 0.0);
    // Metric by metric over a range of segments: each metric's tables stay in cache.
    const auto score_range = [&](std::size_t m, std::size_t first, std::size_t end) {
      for (std::size_t i = first; i < end; ++i) {
        for (std::size_t s = 0; s < systems; ++s) {
          metrics[m]->segment_stats(batch.hyps[i][s], batch.refs[i], &rows[m][(i * systems + s) * stat_counts[m]]);
        }
      }
    };
    // Tasks: the read of the next batch (if alongside), one per whole-batch
    // metric, then the chunks of the others.
    const std::size_t reads = read_alongside ? 1 : 0;
    const std::size_t chunks = chunked.empty() ? 0 : (batch.size + kSegmentsPerTask - 1) / kSegmentsPerTask;
    pool.for_each(reads + whole_batch.size() + chunks, [&](std::size_t task) {
      if (task < reads) return read_next();
      task -= reads;
      if (task < whole_batch.size()) return score_range(whole_batch[task], 0, batch.size);
      const std::size_t chunk = task - whole_batch.size();
      const std::size_t end = std::min(batch.size, (chunk + 1) * kSegmentsPerTask);
      for (const std::size_t m : chunked) score_range(m, chunk * kSegmentsPerTask, end);
    });
    // In segment order, as a single loop would add them: the totals do not depend on the threads.
    for (std::size_t i = 0; i < batch.size; ++i) {
      for (std::size_t m = 0; m < metrics.size(); ++m) {
        for (std::size_t s = 0; s < systems; ++s) {
          const double* row = &rows[m][(i * systems + s) * stat_counts[m]];
          SystemStats& target = results[m][s];
          if (exact[m].empty()) {
            add_stats(target.totals, std::span<const Stat>(row, stat_counts[m]));
          } else {
            for (std::size_t k = 0; k < stat_counts[m]; ++k) exact[m][s][k].add(row[k]);
          }
          ++target.segments;
          if (keep_rows) target.rows.emplace_back(row, row + stat_counts[m]);
        }
      }
      if (on_segment) on_segment(batch.segments_read[i]);
    }
    done = next_done;
    if (next_error) read_error = next_error;
    current = 1 - current;
  }
  if (read_error) std::rethrow_exception(read_error);
  if (reader.segments_read() == 0) {
    throw EmptyInput(fmt::format("{}: empty input: no hypothesis lines",
                                     spec.hyp_paths.empty() ? "<stdin>" : spec.hyp_paths[0]));
  }
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    for (std::size_t s = 0; s < exact[m].size(); ++s) {
      for (std::size_t k = 0; k < stat_counts[m]; ++k) results[m][s].totals[k] = exact[m][s][k].value();
    }
  }
  return results;
}

}  // namespace evalcli
