// Memory bounds of issue #17 (items 11 and 12), checked on the built binary
// under `ulimit -v`: the runs below needed hundreds of MB before (the n x N
// resample matrix; CIDEr's n-gram vectors of every caption) and now fit in a
// limit that is a small multiple of a plain run's.
#include <sys/resource.h>
#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include "support/test_support.hpp"

namespace {

using evalcli::test::TempFile;

// A corpus of `lines` distinct lines of a few words.
std::string corpus(std::size_t lines, std::size_t variant) {
  static const char* const words[] = {"the", "cat", "sat", "on", "a", "mat", "dog", "ran", "in", "park", "red", "big"};
  std::string text;
  for (std::size_t i = 0; i < lines; ++i) {
    for (std::size_t w = 0; w < 9; ++w) text += std::string(words[(i * 7 + w * (3 + variant) + i / 12) % 12]) + " ";
    text += "line" + std::to_string(i) + "\n";
  }
  return text;
}

// Exit code of the evalcli command line `args` run with at most `kib` KiB of address space.
int exit_code_within(std::size_t kib, const std::string& args) {
  const std::string command =
      "ulimit -v " + std::to_string(kib) + " && exec '" + std::string(EVALCLI_BINARY) + "' " + args + " >/dev/null";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

constexpr std::size_t kLimitKib = 120 * 1024;  // a plain run of these corpora needs about 60 MB

}  // namespace

TEST_CASE("resampling memory does not grow with the resample count", "[stats][resampling][memory]") {
  // 50 segments: a matrix of 10^6 resamples x 50 indices was 200 MB (exit 70 here).
  TempFile ref(corpus(50, 0)), base(corpus(50, 1)), system(corpus(50, 2));
  const std::string files = "-r " + ref.path() + " -i " + base.path() + " " + system.path() + " -b";
  CHECK(exit_code_within(kLimitKib, "bleu " + files) == 0);
  CHECK(exit_code_within(kLimitKib, "bleu " + files + " --confidence --confidence-n 1000000") == 0);
  CHECK(exit_code_within(kLimitKib, "bleu " + files + " --paired-bs --paired-bs-n 1000000") == 0);
  CHECK(exit_code_within(kLimitKib, "bleu " + files + " --paired-ar --paired-ar-n 4000000") == 0);
  CHECK(exit_code_within(kLimitKib, "sacrebleu " + ref.path() + " -i " + base.path() +
                                        " --confidence --confidence-n 1000000") == 0);
}

// The largest peak resident set (KiB) of any child process waited for so far.
long largest_child_peak_kib() {
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  return usage.ru_maxrss;
}

TEST_CASE("CIDEr memory is its n-gram table, not every caption's n-gram vectors", "[cider][memory]") {
  // 60,000 distinct lines: the kept n-gram vectors and captions went past the limit. Checked on the
  // peak resident set (about 72 MB today), not under `ulimit -v`: the address space of this run sat
  // within 1 MB of 120 MB (thread stacks, malloc's per-thread reservations, mappings that fall back
  // when refused), so whether it passed depended on the order the threads asked for memory.
  constexpr long kResidentLimitKib = 100 * 1024;
  TempFile ref(corpus(60000, 0)), hyp(corpus(60000, 1));
  CHECK(exit_code_within(1024 * 1024, "cider -r " + ref.path() + " -i " + hyp.path() + " -b") == 0);
  CHECK(largest_child_peak_kib() < kResidentLimitKib);
  CHECK(exit_code_within(1024 * 1024, "cider -r " + ref.path() + " -b < " + hyp.path()) == 0);  // spilled too
  CHECK(largest_child_peak_kib() < kResidentLimitKib);
}
