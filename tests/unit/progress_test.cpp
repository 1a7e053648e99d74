// The progress line (src/cli/progress.cpp): its text as a pure function, and
// the contract that it is drawn on a terminal only, never in pipes or with -q.
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "cli/progress.hpp"
#include "support/test_support.hpp"

using evalcli::cli::format_duration;
using evalcli::cli::Progress;
using evalcli::cli::progress_line;
using evalcli::test::TempFile;
using std::chrono::duration;
using std::chrono::seconds;

TEST_CASE("progress line with a total: bar, count, percent, ETA", "[cli][progress]") {
  // 5120 of 20000 in 2.4 s: 5120*30/20000 = 7.68 -> 7 of 30 marks; 25.6% -> 26%;
  // the other 14880 at 5120/2.4 s take 6.975 s -> 0:07.
  CHECK(progress_line("scoring segments", 5120, 20000, duration<double>(2.4)) ==
        "scoring segments [#######                       ] 5120/20000 26% ETA 0:07");
  // Nothing done yet: no rate to extrapolate from.
  CHECK(progress_line("pass 1", 0, 10, duration<double>(3.0)) == "pass 1 [                              ] 0/10 0% ETA --:--");
  // Done: a full bar, 100%, nothing left.
  CHECK(progress_line("pass 2", 10, 10, duration<double>(3.0)) == "pass 2 [##############################] 10/10 100% ETA 0:00");
  // 1999 of 2000 rounds to 100%, but 100% means done.
  CHECK_THAT(progress_line("x", 1999, 2000, duration<double>(1.0)), Catch::Contains(" 1999/2000 99% "));
  // 4 of 1000 rounds to 0%, 5 to 1%.
  CHECK_THAT(progress_line("x", 4, 1000, duration<double>(1.0)), Catch::Contains(" 4/1000 0% "));
  CHECK_THAT(progress_line("x", 5, 1000, duration<double>(1.0)), Catch::Contains(" 5/1000 1% "));
  // 1 of 3 in 1000 s: 2000 s left = 33 min 20 s.
  CHECK_THAT(progress_line("x", 1, 3, duration<double>(1000.0)), Catch::EndsWith("ETA 33:20"));
}

TEST_CASE("progress line without a total: count and rate", "[cli][progress]") {
  CHECK(progress_line("scoring segments", 300, 0, duration<double>(1.5)) == "scoring segments: 300 (200/s)");
  CHECK(progress_line("scoring segments", 3, 0, duration<double>(2.0)) == "scoring segments: 3 (1.5/s)");
  // No time has passed yet: no rate.
  CHECK(progress_line("scoring segments", 3, 0, duration<double>(0.0)) == "scoring segments: 3");
  // A total that was a guess and turned out too small is dropped, not drawn past 100%.
  CHECK(progress_line("scoring segments", 11, 10, duration<double>(1.0)) == "scoring segments: 11 (11/s)");
}

TEST_CASE("progress durations: m:ss, h:mm:ss", "[cli][progress]") {
  CHECK(format_duration(seconds(0)) == "0:00");
  CHECK(format_duration(duration<double>(0.4)) == "0:00");
  CHECK(format_duration(duration<double>(59.6)) == "1:00");
  CHECK(format_duration(seconds(754)) == "12:34");
  CHECK(format_duration(seconds(3723)) == "1:02:03");
}

TEST_CASE("progress: nothing written to a stream that is not the terminal's stderr", "[cli][progress]") {
  std::ostringstream err;
  {
    Progress progress(err, false);
    CHECK_FALSE(progress.enabled());
    progress.update("scoring segments", 1, 2);
    progress.update("scoring segments", 2, 2);
    progress.finish();
  }
  CHECK(err.str().empty());
  // std::cerr with -q: off, whatever fd 2 is.
  CHECK_FALSE(Progress(std::cerr, true).enabled());
  // std::cerr without -q: on exactly when fd 2 is a terminal (under ctest it is a pipe).
  CHECK(Progress(std::cerr, false).enabled() == (::isatty(STDERR_FILENO) == 1));
}

namespace {

struct TerminalRun {
  int exit_code = -1;
  std::string terminal;  // what the program wrote on its stderr, a pseudo-terminal
};

// Runs evalcli with stderr on a new pseudo-terminal (stdout to /dev/null):
// what a user at a terminal sees while the output goes to a file.
TerminalRun run_on_terminal(const std::vector<std::string>& args, const std::string& stdin_path = "/dev/null") {
  TerminalRun run;
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  REQUIRE(master >= 0);
  REQUIRE(::grantpt(master) == 0);
  REQUIRE(::unlockpt(master) == 0);
  const std::string slave_name = ::ptsname(master);
  winsize size{};
  size.ws_col = 200;  // wide enough that no line is cut to the width
  size.ws_row = 24;
  ::ioctl(master, TIOCSWINSZ, &size);
  std::string binary = EVALCLI_BINARY;
  std::vector<std::string> copies = args;
  std::vector<char*> argv = {binary.data()};
  for (auto& arg : copies) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int slave = ::open(slave_name.c_str(), O_RDWR | O_NOCTTY);
    ::dup2(::open(stdin_path.c_str(), O_RDONLY), STDIN_FILENO);
    ::dup2(::open("/dev/null", O_WRONLY), STDOUT_FILENO);
    ::dup2(slave, STDERR_FILENO);
    for (int fd = 3; fd < 256; ++fd) ::close(fd);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  // Read until the child's end of the terminal is closed (EIO on Linux).
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(master, buffer, sizeof buffer);
    if (n > 0) {
      run.terminal.append(buffer, static_cast<std::size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;
    }
  }
  ::close(master);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
  return run;
}

std::string numbered_lines(std::size_t count, const std::string& words) {
  std::string text;
  for (std::size_t i = 0; i < count; ++i) text += words + " " + std::to_string(i % 7) + "\n";
  return text;
}

const char* const kClear = "\r\x1b[K";

}  // namespace

TEST_CASE("progress on a terminal: bleu, chrf, ter, rouge, cider show a bar with the total", "[cli][progress]") {
  const TempFile hyp(numbered_lines(300, "the cat sat on the mat")), ref(numbered_lines(300, "a cat sat on a mat"));
  for (const std::string metric : {"bleu", "chrf", "ter", "rouge", "cider"}) {
    INFO(metric);
    const TerminalRun run = run_on_terminal({metric, "-r", ref.path(), "-i", hyp.path()});
    CHECK(run.exit_code == 0);
    // The total is the hypothesis file's 300 lines; the last segment always draws 100%.
    CHECK_THAT(run.terminal, Catch::Contains("] 300/300 100% ETA 0:00"));
    CHECK_THAT(run.terminal, Catch::Contains(" ["));
    // The line is cleared at the end: the terminal is left as it was.
    CHECK_THAT(run.terminal, Catch::EndsWith(kClear));
    // -q: nothing at all.
    const TerminalRun quiet = run_on_terminal({metric, "-q", "-r", ref.path(), "-i", hyp.path()});
    CHECK(quiet.exit_code == 0);
    CHECK(quiet.terminal.empty());
  }
}

TEST_CASE("progress on a terminal: cider shows both passes", "[cli][progress][cider]") {
  const TempFile hyp(numbered_lines(50, "a dog runs")), ref(numbered_lines(50, "the dog runs"));
  const TerminalRun run = run_on_terminal({"cider", "-r", ref.path(), "-i", hyp.path()});
  CHECK(run.exit_code == 0);
  CHECK_THAT(run.terminal, Catch::Contains("document frequencies [##############################] 50/50 100%"));
  CHECK_THAT(run.terminal, Catch::Contains("scoring images [##############################] 50/50 100%"));
}

TEST_CASE("progress on a terminal: standard input has no known total, a --shard counts its own lines",
          "[cli][progress]") {
  const TempFile hyp(numbered_lines(40, "x y z")), ref(numbered_lines(40, "x y w"));
  const TerminalRun piped = run_on_terminal({"bleu", "-r", ref.path()}, hyp.path());
  CHECK(piped.exit_code == 0);
  CHECK_THAT(piped.terminal, Catch::Contains("scoring segments: "));
  CHECK_THAT(piped.terminal, !Catch::Contains(" ETA "));
  const TempFile shard("", ".json");
  // Lines 11-20 of 40: the bar counts the 10 lines of the piece.
  const TerminalRun piece = run_on_terminal({"bleu", "-r", ref.path(), "-i", hyp.path(), "--shard", "2/4",
                                             "--stats-out", shard.path()});
  CHECK(piece.exit_code == 0);
  CHECK_THAT(piece.terminal, Catch::Contains("] 10/10 100%"));
}

TEST_CASE("progress on a terminal: ppl counts the lines of its input", "[cli][progress][ppl]") {
  const TempFile model(
      "\\data\\\nngram 1=4\nngram 2=1\n\n\\1-grams:\n-1\t<unk>\n-99\t<s>\t-0.5\n-0.5\t</s>\n-0.5\ta\t-0.3\n\n"
      "\\2-grams:\n-0.2\t<s> a\n\n\\end\\\n",
      ".arpa");
  const TempFile text(numbered_lines(25, "a a"));
  const TerminalRun arpa = run_on_terminal({"ppl", "--lm", model.path(), "-i", text.path()});
  CHECK(arpa.exit_code == 0);
  CHECK_THAT(arpa.terminal, Catch::Contains("] 25/25 100%"));
  std::string documents;
  for (int i = 0; i < 12; ++i) documents += "{\"text\": \"ab\", \"logprobs\": [-1, -1]}\n";
  const TempFile logprobs(documents, ".jsonl");
  const TerminalRun jsonl = run_on_terminal({"ppl", "--logprobs", logprobs.path()});
  CHECK(jsonl.exit_code == 0);
  CHECK_THAT(jsonl.terminal, Catch::Contains("] 12/12 100%"));
  const TerminalRun quiet = run_on_terminal({"ppl", "-q", "--logprobs", logprobs.path()});
  CHECK(quiet.terminal.empty());
}

TEST_CASE("progress on a terminal: bootstrap and paired tests", "[cli][progress][stats]") {
  const TempFile hyp(numbered_lines(30, "the cat sat")), other(numbered_lines(30, "a cat sat")),
      ref(numbered_lines(30, "a cat sat on"));
  const TerminalRun run = run_on_terminal({"bleu", "-r", ref.path(), "-i", hyp.path(), other.path(), "--paired-bs",
                                           "--paired-bs-n", "100"});
  CHECK(run.exit_code == 0);
  CHECK_THAT(run.terminal, Catch::Contains("paired test (systems) ["));
}
