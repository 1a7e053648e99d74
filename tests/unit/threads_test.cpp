// -j/--threads: segments are scored by a worker pool and added up in segment
// order, so every printed byte is the same for any thread count. Checked for
// every registered segment metric (and ROUGE, CIDEr), in text, JSON,
// sentence-level, bootstrap and paired-test output, on more segments than one
// scoring batch holds (256 per thread, 64 with one thread; up to 512 shared by
// the threads when METEOR is scored beside others), with 1, 2 and 7 threads;
// CIDEr's corpus scorer also with loaded document frequencies and shards.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <stdexcept>
#include <thread>

#include "evalcli/core/worker_pool.hpp"
#include "support/registered_metrics.hpp"
#include "support/test_support.hpp"

using evalcli::test::run_cli;
using evalcli::test::TempFile;

namespace {

// Lines of words from a small vocabulary, so that n-grams of every order match
// now and then; `seed` makes each file differ.
std::string random_lines(std::size_t lines, unsigned seed) {
  static const std::vector<std::string> words = {"the", "cat", "sat", "on", "a", "mat", "dog", "ran", "to",
                                                 "park", "and", "it", "was", "very", "happy", "today", "."};
  std::mt19937 rng(seed);
  std::string text;
  for (std::size_t i = 0; i < lines; ++i) {
    const std::size_t length = 3 + rng() % 12;
    for (std::size_t w = 0; w < length; ++w) text += (w ? " " : "") + words[rng() % words.size()];
    text += '\n';
  }
  return text;
}

// Runs `args` with -j 1, 2 and 7 and checks that all three print the same (non-empty) bytes.
void check_same_output_for_thread_counts(const std::vector<std::string>& args) {
  std::string first_output;
  for (const std::string threads : {"1", "2", "7"}) {
    std::vector<std::string> with_threads = args;
    with_threads.insert(with_threads.end(), {"-j", threads});
    INFO(fmt::format("{}", fmt::join(with_threads, " ")));
    const auto result = run_cli(with_threads);
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    if (threads == "1") {
      first_output = result.out;
      CHECK(!first_output.empty());
    } else {
      CHECK(result.out == first_output);
    }
  }
}

// `text` with an invalid UTF-8 byte at the start of (1-based) line `line`.
std::string with_bad_byte_at_line(std::string text, int line) {
  std::size_t offset = 0;
  for (int l = 1; l < line; ++l) offset = text.find('\n', offset) + 1;
  return text.insert(offset, "\xff");
}

}  // namespace

TEST_CASE("worker pool: every task runs once, the lowest failing task's exception is rethrown", "[threads]") {
  for (const unsigned threads : {1u, 2u, 7u}) {
    evalcli::WorkerPool pool(threads);
    CHECK(pool.size() == threads);
    for (int round = 0; round < 3; ++round) {  // the pool is reused across calls
      std::vector<std::atomic<int>> runs(1000);
      pool.for_each(runs.size(), [&](std::size_t i) { ++runs[i]; });
      for (const auto& count : runs) CHECK(count == 1);
    }
    const auto failing = [&] {
      pool.for_each(500, [](std::size_t i) {
        if (i == 123 || i == 321 || i == 499) throw std::runtime_error(fmt::format("task {}", i));
      });
    };
    CHECK_THROWS_WITH(failing(), "task 123");
    pool.for_each(0, [](std::size_t) { FAIL("no task to run"); });
  }
  CHECK(evalcli::resolve_thread_count(0) == evalcli::available_cores());
  // Sized by the work: one thread per 100 items, up to the cores; an explicit count as given.
  CHECK(evalcli::resolve_thread_count(3, 10, 100) == 3);
  CHECK(evalcli::resolve_thread_count(0, 0, 100) == 1);
  CHECK(evalcli::resolve_thread_count(0, 199, 100) == 1);
  CHECK(evalcli::resolve_thread_count(0, 200, 100) == std::min(2u, evalcli::available_cores()));
  CHECK(evalcli::resolve_thread_count(0, 1'000'000, 100) == evalcli::available_cores());
  CHECK(evalcli::available_cores() >= 1);
}

namespace {

// run_batches_in_turn over the numbers [0, items) in batches of 10: each
// thread's slot holds the batch it read; adds record their numbers in order.
// `fail_score_at` / `fail_add_at` / `fail_read_at`: the batch whose score or
// add throws, or whose read keeps an error for its add (none: -1).
struct TurnRun {
  std::vector<int> added;
  std::size_t reads = 0;
  std::string error;
};
TurnRun run_turns(unsigned threads, int items, int fail_score_at = -1, int fail_add_at = -1, int fail_read_at = -1) {
  evalcli::WorkerPool pool(threads);
  struct Slot {
    std::vector<int> batch;
    int number = 0;
    bool read_error = false;
  };
  std::vector<Slot> slots(pool.size());
  int next = 0, batches = 0;
  TurnRun run;
  evalcli::InTurnBatchSteps steps;
  steps.read = [&](std::size_t s) {
    ++run.reads;
    slots[s].number = batches++;
    slots[s].batch.clear();
    while (next < items && slots[s].batch.size() < 10) slots[s].batch.push_back(next++);
    slots[s].read_error = slots[s].number == fail_read_at;
    return next < items && !slots[s].read_error;
  };
  steps.score = [&](std::size_t s) {
    for (int& item : slots[s].batch) item *= 2;
    if (slots[s].number == fail_score_at) throw std::runtime_error(fmt::format("score {}", slots[s].number));
  };
  steps.add = [&](std::size_t s) {
    if (slots[s].number == fail_add_at) throw std::runtime_error(fmt::format("add {}", slots[s].number));
    run.added.insert(run.added.end(), slots[s].batch.begin(), slots[s].batch.end());
    if (slots[s].read_error) throw std::runtime_error(fmt::format("read {}", slots[s].number));
  };
  try {
    evalcli::run_batches_in_turn(pool, steps);
  } catch (const std::runtime_error& e) {
    run.error = e.what();
  }
  return run;
}

}  // namespace

TEST_CASE("worker pool: batches read, scored and added in turn, in read order, the first failure rethrown",
          "[threads]") {
  std::vector<int> doubled;
  for (int i = 0; i < 995; ++i) doubled.push_back(2 * i);
  for (const unsigned threads : {1u, 2u, 7u}) {
    INFO(threads << " threads");
    const TurnRun whole = run_turns(threads, 995);
    CHECK(whole.error.empty());
    CHECK(whole.added == doubled);  // every item once, in order, scored
    CHECK(whole.reads == 100);      // no read after the input ended
    CHECK(run_turns(threads, 0).added.empty());
    // The earliest failing batch wins, whichever step failed; nothing after it is added.
    const TurnRun score_first = run_turns(threads, 995, 30, 40);
    CHECK(score_first.error == "score 30");
    CHECK(score_first.added == std::vector<int>(doubled.begin(), doubled.begin() + 300));
    CHECK(run_turns(threads, 995, 40, 30).error == "add 30");
    // A reading error is raised after the items read before it are added.
    const TurnRun read_error = run_turns(threads, 995, -1, -1, 12);
    CHECK(read_error.error == "read 12");
    CHECK(read_error.added == std::vector<int>(doubled.begin(), doubled.begin() + 130));
  }
}

TEST_CASE("threads: -j 1, 2 and 7 print the same bytes for every metric and statistic", "[threads]") {
  constexpr std::size_t kLines = 2100;  // several batches of each size, the last one partial
  TempFile ref(random_lines(kLines, 1));
  TempFile hyp1(random_lines(kLines, 2));
  TempFile hyp2(random_lines(kLines, 3));
  std::vector<std::string> commands = evalcli::test::with_registered_commands({"bleu", "chrf", "ter", "rouge", "cider"});
  for (const auto& command : commands) {
    const std::vector<std::vector<std::string>> variants = {
        {"-i", hyp1.path()},
        {"-i", hyp1.path(), "-f", "json"},
        {"-i", hyp1.path(), "--sentence-level"},
        {"-i", hyp1.path(), "--confidence", "--confidence-n", "100"},
        {"-i", hyp1.path(), hyp2.path(), "--paired-bs", "--paired-bs-n", "100", "-f", "json"},
    };
    for (const auto& variant : variants) {
      std::vector<std::string> args = {command, "-r", ref.path()};
      args.insert(args.end(), variant.begin(), variant.end());
      check_same_output_for_thread_counts(args);
    }
  }
}

TEST_CASE("threads: report scores METEOR (one thread) beside metrics that take every thread, same bytes",
          "[threads]") {
  constexpr std::size_t kLines = 1200;  // more than one batch of 512
  TempFile ref(random_lines(kLines, 21));
  TempFile hyp(random_lines(kLines, 22));
  check_same_output_for_thread_counts({"report", "-r", ref.path(), "-i", hyp.path(), "-m", "bleu", "meteor", "chrf"});
  // (Text, not JSON: report's JSON names the command line, -j included.)
  check_same_output_for_thread_counts(
      {"report", "-r", ref.path(), "-i", hyp.path(), "-m", "bleu", "meteor", "--stats", "--confidence"});
}

TEST_CASE("threads: cider's corpus scorer prints the same bytes with -j 1, 2 and 7, with --df and --shard",
          "[threads][cider]") {
  // More images than one scoring block holds (1,024), the last block partial; two references each.
  constexpr std::size_t kLines = 2100;
  TempFile ref1(random_lines(kLines, 11));
  TempFile ref2(random_lines(kLines, 12));
  TempFile hyp1(random_lines(kLines, 13));
  TempFile hyp2(random_lines(kLines, 14));
  TempFile df("", ".df");
  const std::vector<std::string> inputs = {"cider", "-r", ref1.path(), "-r", ref2.path(), "-i", hyp1.path()};
  std::vector<std::string> save = inputs;
  save.insert(save.end(), {"--save-df", df.path(), "-q"});
  REQUIRE(run_cli(save).exit_code == 0);
  const std::vector<std::vector<std::string>> variants = {
      {},
      {"--variant", "cider", "-f", "json"},
      {"--sentence-level"},
      {"--confidence", "--confidence-n", "100"},
      {"--df", df.path(), "-f", "json", "--sentence-level"},
      {"--df", df.path(), "--shard", "2/3", "--stats-out", "-"},
  };
  for (const auto& variant : variants) {
    std::vector<std::string> args = inputs;
    args.insert(args.end(), variant.begin(), variant.end());
    check_same_output_for_thread_counts(args);
  }
  // Two systems, each image's scores of both from one record.
  check_same_output_for_thread_counts({"cider", "-r", ref1.path(), "-i", hyp1.path(), hyp2.path(), "-f", "json"});
}

TEST_CASE("threads: a bad segment's error is the one a single thread meets first", "[threads]") {
  // Line 2,500 and line 3,000 (in a later batch, read by another thread) both
  // hold invalid UTF-8; every thread count names 2,500.
  TempFile bad(with_bad_byte_at_line(random_lines(3000, 4), 2500));
  TempFile ref(random_lines(3000, 5));
  for (const std::string threads : {"1", "2", "7"}) {
    const auto result = run_cli({"bleu", "-r", ref.path(), "-i", bad.path(), "-j", threads});
    CHECK(result.exit_code == 3);
    CHECK_THAT(result.err, Catch::Contains(bad.path() + ":2500:"));
  }
}

namespace {

// An ARPA bigram model over random_lines()' words (with "zz" left out: an OOV), `seed` picking its numbers.
std::string small_arpa(unsigned seed) {
  const std::vector<std::string> words = {"<s>", "</s>", "<unk>", "the", "cat", "sat", "on", "a", "mat",
                                          "dog", "ran", "to", "park", "and", "it", "was", "very", "happy", "."};
  const std::vector<std::string> bigrams = {"<s> the", "the cat", "cat sat", "sat on", "on a", "a mat",
                                            "mat .", ". </s>", "the dog", "dog ran", "ran to", "it was"};
  std::mt19937 rng(seed);
  const auto log_prob = [&] { return fmt::format("-{}.{}", rng() % 3, rng() % 1000); };
  std::string arpa = fmt::format("\\data\\\nngram 1={}\nngram 2={}\n\n\\1-grams:\n", words.size(), bigrams.size());
  for (const auto& word : words) arpa += fmt::format("{}\t{}\t{}\n", log_prob(), word, log_prob());
  arpa += "\n\\2-grams:\n";
  for (const auto& bigram : bigrams) arpa += fmt::format("{}\t{}\n", log_prob(), bigram);
  return arpa + "\n\\end\\\n";
}

}  // namespace

TEST_CASE("threads: ppl prints the same bytes with -j 1, 2 and 7", "[threads][ppl]") {
  TempFile model(small_arpa(1), ".arpa");
  TempFile other(small_arpa(2), ".arpa");
  // Several batches of 1,024 lines, the last one partial, and no final newline.
  std::string lines = random_lines(2500, 6) + "the zz cat";
  TempFile text(lines);
  const std::vector<std::vector<std::string>> variants = {
      {"--lm", model.path()},
      {"--lm", model.path(), "-f", "json", "--per-doc"},
      {"--lm", model.path(), "--kenlm-output"},
      {"--lm", model.path(), "--kenlm-output", "--kenlm-final-line", "-n"},
      {"--lm", model.path(), "--tokenize", "13a", "--stats", "--confidence", "--confidence-n", "100"},
      {"--lm", model.path(), other.path(), "--paired-bs", "--paired-bs-n", "100", "-f", "json"},
      {"--lm", model.path(), "--shard", "2/3", "--stats-out", "-"},
  };
  for (const auto& variant : variants) {
    std::vector<std::string> args = {"ppl", "-i", text.path(), "-q"};
    args.insert(args.end(), variant.begin(), variant.end());
    check_same_output_for_thread_counts(args);
  }
}

TEST_CASE("threads: ppl stops at the first bad line, the lines before it printed", "[threads][ppl]") {
  TempFile model(small_arpa(1), ".arpa");
  // Invalid UTF-8 on line 1,500 (the second batch) and 2,000: every thread count prints lines 1..1,499, names 1,500.
  TempFile bad(with_bad_byte_at_line(with_bad_byte_at_line(random_lines(2100, 7), 2000), 1500));
  for (const std::string threads : {"1", "2", "7"}) {
    const auto result = run_cli({"ppl", "--lm", model.path(), "-i", bad.path(), "--tokenize", "13a", "--kenlm-output",
                                 "-v", "sentence", "-j", threads});
    CHECK(result.exit_code == 3);
    CHECK_THAT(result.err, Catch::Contains(bad.path() + ":1500:"));
    CHECK(std::count(result.out.begin(), result.out.end(), '\n') == 1499);
  }
}
