// Output files and standard output (issue 17 items 1-4, docs/errors.md "Output
// files"): only regular files and new paths are replaced (by an exclusive,
// unpredictable temporary file and a rename), devices, FIFOs and stdout are
// written directly, output paths are checked before any input is read, no
// temporary file outlives a SIGINT/SIGTERM, and a result that does not reach
// standard output is an error.
#include <fcntl.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "evalcli/io/output_file.hpp"
#include "io/temp_file_registry.hpp"
#include "support/process.hpp"
#include "support/test_support.hpp"

namespace fs = std::filesystem;
using evalcli::test::ChildOptions;
using evalcli::test::read_file;
using evalcli::test::run_binary;
using evalcli::test::run_cli;

namespace {

// A fresh folder with a reference and a hypothesis file, removed afterwards.
class Folder {
 public:
  Folder() {
    static int counter = 0;
    path_ = fs::temp_directory_path() / ("evalcli-output-test-" + std::to_string(::getpid()) + "-" +
                                         std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
    std::ofstream(path_ / "ref.txt") << "the cat sat on the mat\nhello world\n";
    std::ofstream(path_ / "hyp.txt") << "the cat sat on a mat\nhello there world\n";
  }
  ~Folder() { fs::remove_all(path_); }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  // Names in the folder other than the two inputs, sorted.
  std::vector<std::string> outputs() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(path_)) {
      const std::string name = entry.path().filename().string();
      if (name != "ref.txt" && name != "hyp.txt") names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  fs::path path_;
};

std::vector<std::string> bleu(const Folder& folder, std::vector<std::string> more) {
  std::vector<std::string> args = {"bleu", "-r", folder / "ref.txt", "-i", folder / "hyp.txt"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

bool is_bleu_report(const std::string& text) {
  const auto report = nlohmann::json::parse(text, nullptr, false);
  return !report.is_discarded() && report.value("schema", "") == "evalcli-report/1" && report.value("name", "") == "BLEU";
}

}  // namespace

TEST_CASE("output: a FIFO is written, not replaced by a regular file", "[output]") {
  Folder folder;
  const std::string fifo = folder / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string received;
  std::thread reader([&] { received = read_file(fifo); });
  const auto result = run_cli(bleu(folder, {"--json-out", fifo}));
  reader.join();
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(fs::is_fifo(fifo));
  CHECK(is_bleu_report(received));
  CHECK(folder.outputs() == std::vector<std::string>{"pipe"});
}

TEST_CASE("output: a character device behind a symlink is written, the link stays", "[output]") {
  Folder folder;
  const std::string link = folder / "null";
  fs::create_symlink("/dev/null", link);
  for (const char* option : {"--json-out", "--stats-out"}) {
    const auto result = run_cli(bleu(folder, {option, link}));
    INFO(result.err);
    CHECK(result.exit_code == 0);
    CHECK(fs::is_symlink(link));
    CHECK(fs::read_symlink(link) == "/dev/null");
    CHECK(fs::is_character_file("/dev/null"));
  }
  CHECK(folder.outputs() == std::vector<std::string>{"null"});
}

TEST_CASE("output: a symlink to a regular file keeps pointing at the new content", "[output]") {
  Folder folder;
  const std::string target = folder / "report.json";
  const std::string link = folder / "latest.json";
  std::ofstream(target) << "old";
  ::chmod(target.c_str(), 0640);
  fs::create_symlink("report.json", link);
  const auto result = run_cli(bleu(folder, {"--json-out", link}));
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(fs::is_symlink(link));
  CHECK(is_bleu_report(read_file(target)));
  // The replaced file's permissions are kept.
  CHECK((fs::status(target).permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
  CHECK(folder.outputs() == std::vector<std::string>{"latest.json", "report.json"});
}

TEST_CASE("output: '-' and a path naming standard output write to standard output", "[output]") {
  Folder folder;
  const auto dash = run_cli(bleu(folder, {"-b", "--json-out", "-"}));
  INFO(dash.err);
  REQUIRE(dash.exit_code == 0);
  // The JSON report, then the text result.
  const auto end_of_json = dash.out.rfind("}\n");
  REQUIRE(end_of_json != std::string::npos);
  CHECK(is_bleu_report(dash.out.substr(0, end_of_json + 2)));
  CHECK(dash.out.substr(end_of_json + 2) == "45.9\n");
  const auto shard = run_cli(bleu(folder, {"-b", "--stats-out", "-"}));
  CHECK(shard.exit_code == 0);
  CHECK(shard.out.find("\"schema\"") != std::string::npos);

  // The real binary: /dev/stdout is a symlink to the pipe the test reads.
  const auto child = run_binary(bleu(folder, {"-b", "--json-out", "/dev/stdout"}));
  INFO(child.err);
  CHECK(child.exit_code == 0);
  CHECK(child.out.find("\"schema\": \"evalcli-report/1\"") != std::string::npos);
  CHECK(child.out.substr(child.out.size() - 5) == "45.9\n");
  CHECK(folder.outputs().empty());
}

TEST_CASE("output: the temporary file is exclusive, a planted symlink is not followed", "[output]") {
  Folder folder;
  const std::string victim = folder / "victim.txt";
  std::ofstream(victim) << "precious";
  // The name evalcli used to write through: .NAME.tmp.PID.
  fs::create_symlink(victim, folder / (".out.json.tmp." + std::to_string(::getpid())));
  const auto result = run_cli(bleu(folder, {"--json-out", folder / "out.json"}));
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(read_file(victim) == "precious");
  CHECK(is_bleu_report(read_file(folder / "out.json")));
  CHECK(folder.outputs().size() == 3);  // out.json, victim.txt, the planted link: no temporary file left
}

TEST_CASE("output: targets that are not replaced or cannot be written fail before any input is read", "[output]") {
  Folder folder;
  // The hypothesis file does not exist: an error about the output proves it was checked first.
  const std::vector<std::string> missing_input = {"bleu", "-r", folder / "ref.txt", "-i", folder / "missing.txt"};
  const auto with = [&](std::vector<std::string> more) {
    auto args = missing_input;
    args.insert(args.end(), more.begin(), more.end());
    return run_cli(args);
  };
  const auto in_missing_folder = with({"--json-out", folder / "no/such/folder/out.json"});
  CHECK(in_missing_folder.exit_code == 3);
  CHECK(in_missing_folder.err.find("out.json: cannot write: folder") != std::string::npos);
  CHECK(in_missing_folder.err.find("does not exist") != std::string::npos);

  const auto directory = with({"--stats-out", folder / ""});
  CHECK(directory.exit_code == 3);
  CHECK(directory.err.find("is a directory") != std::string::npos);

  const std::string file = folder / "file";
  std::ofstream(file) << "x";
  const auto under_a_file = with({"--json-out", file + "/out.json"});
  CHECK(under_a_file.exit_code == 3);
  CHECK(under_a_file.err.find("out.json: cannot write: Not a directory") != std::string::npos);

  fs::create_symlink("loop", folder / "loop");
  const auto loop = with({"--json-out", folder / "loop"});
  CHECK(loop.exit_code == 3);
  CHECK(loop.err.find("Too many levels of symbolic links") != std::string::npos);

  const auto too_long = with({"--json-out", folder / std::string(300, 'x')});
  CHECK(too_long.exit_code == 3);
  CHECK(too_long.err.find("File name too long") != std::string::npos);

  fs::create_symlink("gone", folder / "dangling");
  const auto dangling = with({"--json-out", folder / "dangling"});
  CHECK(dangling.exit_code == 3);
  CHECK(dangling.err.find("a symbolic link to a missing file") != std::string::npos);
  CHECK(fs::is_symlink(folder / "dangling"));

  // cider's --save-df and ppl's --json-out are checked as early.
  const auto cider = run_cli({"cider", "-r", folder / "ref.txt", "-i", folder / "missing.txt", "--save-df",
                              folder / "no/df.txt"});
  CHECK(cider.exit_code == 3);
  CHECK(cider.err.find("df.txt: cannot write") != std::string::npos);
  const auto ppl = run_cli({"ppl", "--lm", folder / "missing.arpa", "--json-out", folder / "no/ppl.json"});
  CHECK(ppl.exit_code == 3);
  CHECK(ppl.err.find("ppl.json: cannot write") != std::string::npos);
  const auto merge = run_cli({"merge", folder / "missing.json", "--json-out", folder / "no/merged.json"});
  CHECK(merge.exit_code == 3);
  CHECK(merge.err.find("merged.json: cannot write") != std::string::npos);
}

TEST_CASE("output: two outputs naming the same file are refused", "[output]") {
  Folder folder;
  const std::string out = folder / "out.json";
  const auto same = run_cli(bleu(folder, {"--json-out", out, "--stats-out", out}));
  CHECK(same.exit_code == 2);
  CHECK(same.err.find("--json-out and --stats-out name the same output") != std::string::npos);
  // Another spelling of the same new path, an existing file through a link, standard output twice.
  const auto spelled = run_cli(bleu(folder, {"--json-out", out, "--stats-out", folder / "./out.json"}));
  CHECK(spelled.exit_code == 2);
  std::ofstream(out) << "old";
  fs::create_symlink(out, folder / "link.json");
  const auto linked = run_cli(bleu(folder, {"--json-out", out, "--stats-out", folder / "link.json"}));
  CHECK(linked.exit_code == 2);
  CHECK(read_file(out) == "old");
  const auto dashes = run_cli(bleu(folder, {"--json-out", "-", "--stats-out", "-"}));
  CHECK(dashes.exit_code == 2);
  const auto save_df = run_cli({"cider", "-r", folder / "ref.txt", "-i", folder / "hyp.txt", "--save-df", out,
                                "--json-out", out});
  CHECK(save_df.exit_code == 2);
  CHECK(save_df.err.find("--json-out and --save-df name the same output") != std::string::npos);
}

TEST_CASE("output: empty file names and other empty option values are usage errors", "[output]") {
  Folder folder;
  for (const auto& more : std::vector<std::vector<std::string>>{
           {"--json-out", ""}, {"--stats-out", ""}, {"--signature", ""}, {"--tokenize", ""}}) {
    const auto result = run_cli(bleu(folder, more));
    INFO(more[0] << ": " << result.err);
    CHECK(result.exit_code == 2);
  }
  const auto types = run_cli({"rouge", "-r", folder / "ref.txt", "-i", folder / "hyp.txt", "--types", ""});
  CHECK(types.exit_code == 2);
  const auto save_df = run_cli({"cider", "-r", folder / "ref.txt", "-i", folder / "hyp.txt", "--save-df", ""});
  CHECK(save_df.exit_code == 2);
  const auto ppl = run_cli({"ppl", "--lm", folder / "x.arpa", "--json-out", ""});
  CHECK(ppl.exit_code == 2);
  CHECK(folder.outputs().empty());
}

TEST_CASE("output: a pending temporary file is removed when SIGINT or SIGTERM kills the process", "[output]") {
  Folder folder;
  for (const int signal_number : {SIGINT, SIGTERM}) {
    const std::string temp = folder / ".out.json.pending.tmp";
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::signal(signal_number, SIG_DFL);
      std::ofstream(temp) << "half";
      evalcli::io::PendingTempFile pending(temp);
      ::raise(signal_number);
      ::_exit(0);  // not reached: the handler re-raises with the default action
    }
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == signal_number);
    CHECK_FALSE(fs::exists(temp));
  }
}

TEST_CASE("output: SIGINT while the binary writes --json-out leaves no temporary file", "[output]") {
  Folder folder;
  // Enough segments that the sentence-level report (some 60 MB) takes a while to write.
  {
    std::ofstream ref(folder / "big.ref"), hyp(folder / "big.hyp");
    for (int i = 0; i < 200000; ++i) {
      ref << "the cat sat on the mat number " << i << "\n";
      hyp << "the cat sat on a mat number " << i << "\n";
    }
  }
  const std::string out = folder / "out.json";
  const int watch = ::inotify_init1(IN_CLOEXEC);
  REQUIRE(watch >= 0);
  REQUIRE(::inotify_add_watch(watch, (folder / "").c_str(), IN_CREATE) >= 0);
  bool signalled = false;
  ChildOptions options;
  // SIGINT as soon as a temporary file for out.json appears.
  options.while_running = [&](pid_t pid) {
    alignas(inotify_event) char buffer[4096];
    while (!signalled) {
      const ssize_t n = ::read(watch, buffer, sizeof buffer);
      if (n <= 0) break;
      for (char* p = buffer; p < buffer + n;) {
        const auto* event = reinterpret_cast<const inotify_event*>(p);
        if (event->len > 0 && std::string(event->name).rfind(".out.json.", 0) == 0) {
          ::kill(pid, SIGINT);
          signalled = true;
        }
        p += sizeof(inotify_event) + event->len;
      }
    }
  };
  const auto result = run_binary({"bleu", "-q", "-r", folder / "big.ref", "-i", folder / "big.hyp", "--sentence-level",
                                  "-f", "json", "--json-out", out},
                                 options);
  ::close(watch);
  REQUIRE(signalled);
  INFO(result.err);
  // Killed by the signal (or, on a machine slow to deliver it, finished): never a temporary file left,
  // never a partial report.
  CHECK((result.signal == SIGINT || result.exit_code == 0));
  for (const auto& name : folder.outputs()) CHECK(name.find(".tmp") == std::string::npos);
  if (fs::exists(out)) CHECK(nlohmann::json::accept(read_file(out)));
  if (result.signal == SIGINT) CHECK_FALSE(fs::exists(out));
}

TEST_CASE("output: a result that does not reach standard output is an error", "[output]") {
  Folder folder;
  const auto full = run_binary(bleu(folder, {}), {.stdout_kind = ChildOptions::Stdout::file, .stdout_path = "/dev/full"});
  CHECK(full.exit_code == 3);
  CHECK(full.err == "evalcli: error: <stdout>: cannot write: No space left on device\n");

  const auto closed = run_binary(bleu(folder, {}), {.stdout_kind = ChildOptions::Stdout::closed});
  CHECK(closed.exit_code == 3);
  CHECK(closed.err == "evalcli: error: <stdout>: cannot write: Bad file descriptor\n");

  // A reader that went away: EPIPE, not a silent death by SIGPIPE.
  const auto broken = run_binary(bleu(folder, {}), {.stdout_kind = ChildOptions::Stdout::broken_pipe});
  CHECK(broken.signal == 0);
  CHECK(broken.exit_code == 3);
  CHECK(broken.err == "evalcli: error: <stdout>: cannot write: Broken pipe\n");

  // Streamed output stops at the first failed write.
  const auto tokenize = run_binary({"tokenize", "-i", folder / "hyp.txt"},
                                   {.stdout_kind = ChildOptions::Stdout::file, .stdout_path = "/dev/full"});
  CHECK(tokenize.exit_code == 3);

  // SacreBLEU (Python) exits 120 when flushing stdout fails, 1 when stdout is closed.
  const std::vector<std::string> sacrebleu = {"sacrebleu", folder / "ref.txt", "-i", folder / "hyp.txt"};
  const auto sacre_full =
      run_binary(sacrebleu, {.stdout_kind = ChildOptions::Stdout::file, .stdout_path = "/dev/full"});
  CHECK(sacre_full.exit_code == 120);
  CHECK(sacre_full.err == "sacreBLEU: error: <stdout>: cannot write: No space left on device\n");
  CHECK(run_binary(sacrebleu, {.stdout_kind = ChildOptions::Stdout::broken_pipe}).exit_code == 120);
  CHECK(run_binary(sacrebleu, {.stdout_kind = ChildOptions::Stdout::closed}).exit_code == 1);

  // A run that failed already keeps its code.
  const auto failed = run_binary({"bleu", "-r", folder / "ref.txt", "-i", folder / "missing.txt"},
                                 {.stdout_kind = ChildOptions::Stdout::file, .stdout_path = "/dev/full"});
  CHECK(failed.exit_code == 3);
  CHECK(failed.err.find("missing.txt: no such file") != std::string::npos);

  // In process: any stream that fails.
  struct FailingBuffer : std::streambuf {
    int_type overflow(int_type) override { return traits_type::eof(); }
  } failing;
  std::ostream out(&failing);
  std::istringstream in;
  std::ostringstream err;
  CHECK(evalcli::cli::run(bleu(folder, {}), {in, out, err}) == 3);
  CHECK(err.str() == "evalcli: error: <stdout>: cannot write: write error\n");
}
