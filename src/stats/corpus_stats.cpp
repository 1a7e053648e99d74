#include "evalcli/stats/corpus_stats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>

#include "evalcli/core/summation.hpp"
#include "evalcli/core/worker_pool.hpp"

namespace evalcli {
namespace {

// Segments read and scored together, then added to the totals in segment
// order. Bounded, so memory stays flat whatever the corpus size. Each slot of
// a batch keeps the capacity of the longest line it ever held.
//
// Several threads (every metric scaling with threads): each thread reads a
// batch in its turn, scores it itself and adds its rows in its turn
// (run_batches_in_turn, core/worker_pool.hpp, says why).
//
// Metrics that do not scale with threads (a shared locked cache: NLTK METEOR)
// beside others (evalcli report): a batch is read while the one before is
// scored, the slow metric's whole batch as one task beside the others'
// chunks of segments.
constexpr std::size_t kSegmentsPerTask = 16;  // enough work per claim to make claiming cheap
constexpr std::size_t kTasksPerThread = 4;    // so that a slow chunk does not hold the others up
constexpr std::size_t kMaxBatchSegments = 512;
constexpr std::size_t kSingleThreadBatch = 64;   // one thread reads and scores in turn: a few segments do
constexpr std::size_t kBatchPerThread = 128;     // as fast as 256 on BLEU, 3 MB less memory

std::size_t chunked_batch_capacity(unsigned threads) {
  return std::min(kMaxBatchSegments, kSegmentsPerTask * kTasksPerThread * threads);
}

struct Batch {
  std::vector<std::vector<std::u32string>> hyps;  // [segment][system]
  std::vector<std::vector<std::u32string>> refs;  // [segment][reference]
  std::vector<std::size_t> segments_read;         // the reader's count after each segment (progress)
  std::size_t size = 0;
  // The segment after the batch's last one (read when a metric reads the
  // captions that follow a segment's: Metric::reads_following_captions).
  std::vector<std::u32string> next_hyps, next_refs;
  bool has_next = false;
};

// The reader, with one segment read ahead when asked: a batch's last segment
// then knows the segment after it, which is handed to the next batch.
class SegmentSource {
 public:
  SegmentSource(ParallelReader& reader, bool read_ahead) : reader_(reader), read_ahead_(read_ahead) {}

  // The next segment and the count of segments read up to it; false at the end.
  bool next(std::vector<std::u32string>& hyps, std::vector<std::u32string>& refs, std::size_t& count) {
    if (pending_) {
      pending_ = false;
      hyps.swap(pending_hyps_);
      refs.swap(pending_refs_);
      count = pending_count_;
      return true;
    }
    if (!reader_.next(hyps, refs)) return false;
    count = reader_.segments_read();
    return true;
  }
  // Reads the segment after the batch (kept for the next batch) and copies it
  // into batch.next_hyps/next_refs; nothing unless reading ahead.
  void read_next_of(Batch& batch) {
    if (!read_ahead_ || pending_) return;
    if (!reader_.next(pending_hyps_, pending_refs_)) return;
    pending_ = true;
    pending_count_ = reader_.segments_read();
    keep_as_next(pending_hyps_, pending_refs_, batch);
  }
  bool read_ahead() const { return read_ahead_; }

  static void keep_as_next(const std::vector<std::u32string>& hyps, const std::vector<std::u32string>& refs,
                           Batch& batch) {
    batch.next_hyps = hyps;
    batch.next_refs = refs;
    batch.has_next = true;
  }

 private:
  ParallelReader& reader_;
  bool read_ahead_;
  bool pending_ = false;
  std::vector<std::u32string> pending_hyps_, pending_refs_;
  std::size_t pending_count_ = 0;
};

// Reads the next batch of the segments to score. A reading error is kept in
// `read_error`, so that the segments before it are scored first (as one loop
// over segments would have done, meeting their errors first).
void read_batch(SegmentSource& source, const CorpusSpec& spec, std::size_t capacity, Batch& batch, bool& done,
                std::exception_ptr& read_error) {
  batch.size = 0;
  batch.has_next = false;
  if (batch.hyps.size() < capacity) {
    batch.hyps.resize(capacity);
    batch.refs.resize(capacity);
    batch.segments_read.resize(capacity);
  }
  try {
    std::size_t count = 0;
    while (batch.size < capacity) {
      if (!source.next(batch.hyps[batch.size], batch.refs[batch.size], count)) {
        done = true;
        return;
      }
      const std::size_t index = count - 1;  // 0-based
      if (index < spec.first_segment) continue;
      if (index - spec.first_segment >= spec.segment_count) {  // a shard's end: the rest is not scored
        // ... but follows the shard's last segment, as in the whole corpus.
        if (source.read_ahead()) SegmentSource::keep_as_next(batch.hyps[batch.size], batch.refs[batch.size], batch);
        done = true;
        return;
      }
      batch.segments_read[batch.size++] = count;
    }
    source.read_next_of(batch);
  } catch (...) {
    read_error = std::current_exception();
    done = true;
  }
}

// The captions after segment i's (system s) in the reference tool's texts.
FollowingCaptions following_captions(const Batch& batch, std::size_t i, std::size_t s) {
  const bool last = i + 1 == batch.size;
  if (last && !batch.has_next) return {};
  const auto& next_hyps = last ? batch.next_hyps : batch.hyps[i + 1];
  const auto& next_refs = last ? batch.next_refs : batch.refs[i + 1];
  return FollowingCaptions::of_segment(next_refs, s < next_hyps.size() ? &next_hyps[s] : nullptr);
}

// The metrics' totals over a corpus, fed batch by batch in segment order.
class CorpusTotals {
 public:
  CorpusTotals(const std::vector<const Metric*>& metrics, const std::vector<std::string>& system_names, bool keep_rows,
               const std::function<void(std::size_t)>& on_segment)
      : metrics_(metrics), systems_(system_names.size()), keep_rows_(keep_rows), on_segment_(on_segment) {
    results_.resize(metrics.size());
    exact_.resize(metrics.size());
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      stat_counts_.push_back(metrics[m]->num_stats());
      for (const auto& name : system_names) {
        SystemStats stats;
        stats.system = name;
        stats.totals.assign(stat_counts_[m], 0.0);
        results_[m].push_back(std::move(stats));
      }
      // Running exact sums [system][stat] for metrics with exact_totals().
      if (metrics[m]->exact_totals()) exact_[m].assign(systems_, std::vector<stats::ExactSum>(stat_counts_[m]));
    }
  }

  // rows[m]: the batch's rows of metric m, segment by segment, system by system.
  void size_rows(const Batch& batch, std::vector<std::vector<double>>& rows) const {
    rows.resize(metrics_.size());
    for (std::size_t m = 0; m < metrics_.size(); ++m) rows[m].assign(batch.size * systems_ * stat_counts_[m], 0.0);
  }
  // Metric m's rows of segments [first, end) of the batch. Metric by metric
  // over a range: each metric's tables stay in cache.
  void score(std::size_t m, const Batch& batch, std::size_t first, std::size_t end,
             std::vector<std::vector<double>>& rows) const {
    const Metric& metric = *metrics_[m];
    const bool with_following = metric.reads_following_captions();
    for (std::size_t i = first; i < end; ++i) {
      for (std::size_t s = 0; s < systems_; ++s) {
        Stat* const row = &rows[m][(i * systems_ + s) * stat_counts_[m]];
        if (with_following) {
          metric.segment_stats_followed_by(batch.hyps[i][s], batch.refs[i], following_captions(batch, i, s), row);
        } else {
          metric.segment_stats(batch.hyps[i][s], batch.refs[i], row);
        }
      }
    }
  }
  // Adds the batch's rows in segment order, as a single loop would: the
  // totals do not depend on the threads.
  void add(const Batch& batch, const std::vector<std::vector<double>>& rows) {
    for (std::size_t i = 0; i < batch.size; ++i) {
      for (std::size_t m = 0; m < metrics_.size(); ++m) {
        for (std::size_t s = 0; s < systems_; ++s) {
          const double* row = &rows[m][(i * systems_ + s) * stat_counts_[m]];
          SystemStats& target = results_[m][s];
          if (exact_[m].empty()) {
            add_stats(target.totals, std::span<const Stat>(row, stat_counts_[m]));
          } else {
            for (std::size_t k = 0; k < stat_counts_[m]; ++k) exact_[m][s][k].add(row[k]);
          }
          ++target.segments;
          if (keep_rows_) target.rows.emplace_back(row, row + stat_counts_[m]);
        }
      }
      if (on_segment_) on_segment_(batch.segments_read[i]);
    }
  }
  std::vector<std::vector<SystemStats>> results() {
    for (std::size_t m = 0; m < metrics_.size(); ++m) {
      for (std::size_t s = 0; s < exact_[m].size(); ++s) {
        for (std::size_t k = 0; k < stat_counts_[m]; ++k) results_[m][s].totals[k] = exact_[m][s][k].value();
      }
    }
    return std::move(results_);
  }

 private:
  const std::vector<const Metric*>& metrics_;
  std::size_t systems_;
  bool keep_rows_;
  const std::function<void(std::size_t)>& on_segment_;
  std::vector<std::size_t> stat_counts_;
  std::vector<std::vector<SystemStats>> results_;              // [metric][system]
  std::vector<std::vector<std::vector<stats::ExactSum>>> exact_;  // [metric][system][stat]
};

// Batches in turn (see the top of this file); one thread reads a few
// segments, scores them, adds them.
void score_batch_per_thread(SegmentSource& source, const CorpusSpec& spec, CorpusTotals& totals,
                            std::size_t metrics, WorkerPool& pool) {
  struct Slot {
    Batch batch;
    std::vector<std::vector<double>> rows;
    std::exception_ptr read_error;
  };
  std::vector<Slot> slots(pool.size());
  const std::size_t capacity = pool.size() > 1 ? kBatchPerThread : kSingleThreadBatch;
  bool done = false;  // read only in the reading turn
  InTurnBatchSteps steps;
  steps.read = [&](std::size_t s) {
    slots[s].read_error = nullptr;
    read_batch(source, spec, capacity, slots[s].batch, done, slots[s].read_error);
    return !done;
  };
  steps.score = [&](std::size_t s) {
    totals.size_rows(slots[s].batch, slots[s].rows);
    for (std::size_t m = 0; m < metrics; ++m) totals.score(m, slots[s].batch, 0, slots[s].batch.size, slots[s].rows);
  };
  steps.add = [&](std::size_t s) {
    totals.add(slots[s].batch, slots[s].rows);
    if (slots[s].read_error) std::rethrow_exception(slots[s].read_error);  // after the segments read before it
  };
  run_batches_in_turn(pool, steps);
}

// Reading overlaps scoring: a batch is read as one task while the batch before
// is scored (whole-batch metrics as one task each, the others in chunks).
void score_in_chunks(SegmentSource& source, const CorpusSpec& spec, CorpusTotals& totals,
                     const std::vector<const Metric*>& metrics, WorkerPool& pool) {
  std::vector<std::size_t> chunked, whole_batch;
  for (std::size_t m = 0; m < metrics.size(); ++m) (metrics[m]->scales_with_threads() ? chunked : whole_batch).push_back(m);
  // Two batches, the next one read as one more task of the same call (the
  // first claimed): one hand-off to the workers per batch.
  Batch batches[2];
  std::vector<std::vector<double>> rows;
  std::size_t current = 0;
  bool done = false, next_done = false;
  std::exception_ptr read_error, next_error;
  const std::size_t capacity = chunked_batch_capacity(pool.size());
  read_batch(source, spec, capacity, batches[current], done, read_error);
  while (batches[current].size > 0) {
    Batch& batch = batches[current];
    Batch* const next = &batches[1 - current];
    next->size = 0;
    next_done = done;
    next_error = nullptr;
    const auto read_next = [&, next] { read_batch(source, spec, capacity, *next, next_done, next_error); };
    totals.size_rows(batch, rows);
    const std::size_t reads = done ? 0 : 1;
    const std::size_t chunks = chunked.empty() ? 0 : (batch.size + kSegmentsPerTask - 1) / kSegmentsPerTask;
    pool.for_each(reads + whole_batch.size() + chunks, [&](std::size_t task) {
      if (task < reads) return read_next();
      task -= reads;
      if (task < whole_batch.size()) return totals.score(whole_batch[task], batch, 0, batch.size, rows);
      const std::size_t chunk = task - whole_batch.size();
      const std::size_t end = std::min(batch.size, (chunk + 1) * kSegmentsPerTask);
      for (const std::size_t m : chunked) totals.score(m, batch, chunk * kSegmentsPerTask, end, rows);
    });
    totals.add(batch, rows);
    done = next_done;
    if (next_error) read_error = next_error;
    current = 1 - current;
  }
  if (read_error) std::rethrow_exception(read_error);
}

}  // namespace

std::vector<std::vector<SystemStats>> compute_corpus_stats(const std::vector<const Metric*>& metrics,
                                                           const CorpusSpec& spec, bool keep_rows,
                                                           const std::function<void(std::size_t)>& on_segment,
                                                           unsigned threads) {
  ParallelReader reader(spec);
  CorpusTotals totals(metrics, reader.system_names(), keep_rows, on_segment);
  const bool all_scale = std::all_of(metrics.begin(), metrics.end(), [](const Metric* m) { return m->scales_with_threads(); });
  const bool read_ahead =
      std::any_of(metrics.begin(), metrics.end(), [](const Metric* m) { return m->reads_following_captions(); });
  SegmentSource source(reader, read_ahead);
  WorkerPool pool(!all_scale && metrics.size() <= 1 ? 1 : threads);
  if (pool.size() == 1 || all_scale) {
    score_batch_per_thread(source, spec, totals, metrics.size(), pool);
  } else {
    score_in_chunks(source, spec, totals, metrics, pool);
  }
  if (reader.segments_read() == 0) {
    throw EmptyInput(fmt::format("{}: empty input: no hypothesis lines",
                                 spec.hyp_paths.empty() ? "<stdin>" : spec.hyp_paths[0]));
  }
  return totals.results();
}

}  // namespace evalcli
