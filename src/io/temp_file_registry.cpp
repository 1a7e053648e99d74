#include "io/temp_file_registry.hpp"

#include <fmt/format.h>
#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstring>

#include "evalcli/core/error.hpp"

namespace evalcli::io {
namespace {

// A slot is free, being filled (the handler skips it) or holds a path.
enum SlotState : int { kFree, kFilling, kPending };

struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX] = {};
};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads the slots' state");

// Outputs are written one after the other; a few slots leave room for threads.
std::array<Slot, 8> slots;

constexpr std::array<int, 3> kCleanedSignals = {SIGINT, SIGTERM, SIGHUP};

extern "C" void remove_pending_temp_files(int signal_number) {
  for (Slot& slot : slots) {
    if (slot.state.load() == kPending) ::unlink(slot.path);
  }
  // SA_RESETHAND restored the default action: die of the same signal.
  ::raise(signal_number);
}

// Checked at every registration (a few system calls per output file): a
// signal whose action is the default gets the handler; one ignored since the
// start (nohup, background jobs) or handled by someone else stays so.
void install_handlers() {
  struct sigaction action {};
  action.sa_handler = remove_pending_temp_files;
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  for (const int signal_number : kCleanedSignals) {
    struct sigaction previous {};
    if (::sigaction(signal_number, nullptr, &previous) == 0 && previous.sa_handler == SIG_DFL) {
      ::sigaction(signal_number, &action, nullptr);
    }
  }
}

}  // namespace

PendingTempFile::PendingTempFile(const std::string& path) : path_(path) {
  install_handlers();
  if (path.size() >= PATH_MAX) throw input_error(fmt::format("{}: file name too long", path));
  for (std::size_t i = 0; i < slots.size(); ++i) {
    int expected = kFree;
    if (!slots[i].state.compare_exchange_strong(expected, kFilling)) continue;
    std::memcpy(slots[i].path, path.c_str(), path.size() + 1);
    slots[i].state.store(kPending);
    slot_ = static_cast<int>(i);
    return;
  }
  throw Error(ExitCode::internal, "too many output files written at once");
}

void PendingTempFile::release() {
  if (slot_ >= 0) slots[static_cast<std::size_t>(slot_)].state.store(kFree);
  slot_ = -1;
}

PendingTempFile::~PendingTempFile() {
  if (slot_ < 0) return;
  ::unlink(path_.c_str());
  release();
}

}  // namespace evalcli::io
