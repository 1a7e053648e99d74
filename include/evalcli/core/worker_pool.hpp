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

}  // namespace evalcli
