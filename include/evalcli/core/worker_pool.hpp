#pragma once
// A fixed set of threads that run the tasks of one call at a time, the
// calling thread among them. Scoring uses it for work whose pieces are
// independent (segments, resamples) and whose results are combined in a
// fixed order afterwards, so that output never depends on the thread count.
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace evalcli {

// The CPUs this process may run on (its affinity mask; at least 1).
unsigned available_cores();

// `requested` threads, with 0 meaning available_cores().
unsigned resolve_thread_count(unsigned requested);

// The same for work of `items` pieces too small to repay a thread each: 0
// means one thread per `items_per_thread` items (at least one), up to
// available_cores(). An explicit count is taken as given.
unsigned resolve_thread_count(unsigned requested, std::size_t items, std::size_t items_per_thread);

class WorkerPool {
 public:
  // `threads` in all, the caller's included (0 = available_cores()); 1 runs
  // every task on the calling thread.
  explicit WorkerPool(unsigned threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }

  // task(i) for every i in [0, count), spread over the threads; returns when
  // all have run. If tasks throw, the exception of the lowest i is rethrown
  // (the one a loop in order would have met first); tasks above a failed
  // one may be skipped.
  void for_each(std::size_t count, const std::function<void(std::size_t)>& task);

 private:
  void work_loop();
  void run_tasks();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;      // a new call, or the end
  std::condition_variable finished_;  // a worker left the current call
  std::size_t generation_ = 0;        // counts calls, so a worker joins each once
  bool stopping_ = false;
  unsigned busy_ = 0;                 // workers inside the current call
  // The current call (guarded by mutex_, except next_ which is claimed under it too).
  const std::function<void(std::size_t)>* task_ = nullptr;
  std::size_t count_ = 0;
  std::size_t next_ = 0;
  std::size_t failed_index_ = 0;
  std::exception_ptr failure_;
};

// Input read in batches, in order, each scored and then added in order (to
// sums whose value must not depend on the threads). Every thread of the pool
// reads a batch in its turn, scores it itself and adds it in its turn, so a
// batch never moves between cores: handing a batch read on one core to others
// to score made each line cross between cores twice, which cost more CPU than
// the scoring it shared out (BLEU: 2 threads 43% above one, now 6%). `slot`
// names the calling thread's own batch storage, in [0, pool.size()).
struct InTurnBatchSteps {
  // Fills the slot's batch with the next input; returns false once the input
  // has ended (this batch may hold its last items, or none). One call at a
  // time, in batch order. Keeps a reading error for `add` to raise (after the
  // batch's items read before it), rather than throwing.
  std::function<bool(std::size_t slot)> read;
  // Scores the slot's batch; threads run it at the same time on their own slots.
  std::function<void(std::size_t slot)> score;
  // Adds the slot's batch; one call at a time, in batch order.
  std::function<void(std::size_t slot)> add;
};

// Runs the steps on every thread of `pool` until the input ends. The earliest
// failing batch's exception (from its score, else from its add) is rethrown
// once every thread has stopped; no later batch is added.
void run_batches_in_turn(WorkerPool& pool, const InTurnBatchSteps& steps);

}  // namespace evalcli
