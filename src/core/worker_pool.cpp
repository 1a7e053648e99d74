#include "evalcli/core/worker_pool.hpp"

#include <sched.h>

#include <algorithm>
#include <atomic>

namespace evalcli {

unsigned available_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return static_cast<unsigned>(std::max(1, CPU_COUNT(&set)));
  return std::max(1u, std::thread::hardware_concurrency());
}

unsigned resolve_thread_count(unsigned requested) { return requested == 0 ? available_cores() : requested; }

unsigned resolve_thread_count(unsigned requested, std::size_t items, std::size_t items_per_thread) {
  if (requested != 0) return requested;
  const std::size_t useful = std::max<std::size_t>(1, items / std::max<std::size_t>(1, items_per_thread));
  return static_cast<unsigned>(std::min<std::size_t>(available_cores(), useful));
}

WorkerPool::WorkerPool(unsigned threads) {
  const unsigned total = resolve_thread_count(threads);
  for (unsigned i = 1; i < total; ++i) workers_.emplace_back([this] { work_loop(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& worker : workers_) worker.join();
}

// Claims task indices one at a time until none is left (or one failed below them).
void WorkerPool::run_tasks() {
  std::unique_lock lock(mutex_);
  while (next_ < count_ && !(failure_ && next_ > failed_index_)) {
    const std::size_t index = next_++;
    const auto* task = task_;
    lock.unlock();
    try {
      (*task)(index);
      lock.lock();
    } catch (...) {
      lock.lock();
      if (!failure_ || index < failed_index_) {
        failure_ = std::current_exception();
        failed_index_ = index;
      }
    }
  }
}

void WorkerPool::work_loop() {
  std::size_t seen = 0;
  while (true) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      ++busy_;
    }
    run_tasks();
    {
      std::lock_guard lock(mutex_);
      --busy_;
    }
    finished_.notify_all();
  }
}

void WorkerPool::for_each(std::size_t count, const std::function<void(std::size_t)>& task) {
  if (count == 0) return;
  if (workers_.empty() || count == 1) {
    for (std::size_t i = 0; i < count; ++i) task(i);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    task_ = &task;
    count_ = count;
    next_ = 0;
    failure_ = nullptr;
    ++generation_;
  }
  wake_.notify_all();
  run_tasks();
  std::exception_ptr failure;
  {
    std::unique_lock lock(mutex_);
    // Every index is claimed; wait for the workers still running theirs.
    finished_.wait(lock, [&] { return busy_ == 0; });
    task_ = nullptr;
    count_ = 0;
    failure = failure_;
    failure_ = nullptr;
  }
  if (failure) std::rethrow_exception(failure);
}

namespace {

// The shared state of run_batches_in_turn(): whose turn it is to read and to add.
class BatchTurns {
 public:
  explicit BatchTurns(const InTurnBatchSteps& steps) : steps_(steps) {}

  // One thread's loop: read a batch in turn, score it, add it in turn.
  void work(std::size_t slot) {
    while (true) {
      std::size_t number = 0;
      std::exception_ptr error;
      {
        std::lock_guard lock(read_mutex_);
        if (input_ended_ || stopped_.load()) return;
        number = batches_read_++;
        try {
          input_ended_ = !steps_.read(slot);
        } catch (...) {
          error = std::current_exception();
          input_ended_ = true;
        }
      }
      if (!error) {
        try {
          steps_.score(slot);
        } catch (...) {
          error = std::current_exception();
        }
      }
      std::unique_lock lock(add_mutex_);
      add_turn_.wait(lock, [&] { return batches_added_ == number || failure_; });
      if (failure_) return;  // an earlier batch failed: this one is not added
      if (!error) {
        try {
          steps_.add(slot);
        } catch (...) {
          error = std::current_exception();
        }
      }
      if (error) {
        failure_ = error;
        stopped_.store(true);
      }
      ++batches_added_;
      add_turn_.notify_all();
    }
  }
  std::exception_ptr failure() const { return failure_; }

 private:
  const InTurnBatchSteps& steps_;
  std::mutex read_mutex_;  // read(), input_ended_, batches_read_
  bool input_ended_ = false;
  std::size_t batches_read_ = 0;
  std::mutex add_mutex_;  // add(), batches_added_, failure_
  std::condition_variable add_turn_;
  std::size_t batches_added_ = 0;
  std::exception_ptr failure_;
  std::atomic<bool> stopped_{false};  // failure_ is set: read no more
};

}  // namespace

void run_batches_in_turn(WorkerPool& pool, const InTurnBatchSteps& steps) {
  BatchTurns turns(steps);
  // One task per thread; a thread that finds no batch left returns at once
  // (and one thread running both tasks in turn is correct too, only slower).
  pool.for_each(pool.size(), [&](std::size_t slot) { turns.work(slot); });
  if (turns.failure()) std::rethrow_exception(turns.failure());
}

}  // namespace evalcli
