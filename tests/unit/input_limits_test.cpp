// Whole-file readers are bounded (issue 17 item 6, docs/limits.md "Files read
// whole"), numeric options have domains (item 9), and the smaller input
// defects of item 10 (symlink loops and long names named, --jieba-dict
// directories and empty dictionaries, NUL bytes in JSON lines, nll -0.0).
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/process.hpp"
#include "support/test_support.hpp"

namespace fs = std::filesystem;
using evalcli::test::ChildOptions;
using evalcli::test::run_binary;
using evalcli::test::run_cli;
using evalcli::test::TempFile;

namespace {

constexpr rlim_t kOneGiB = rlim_t{1} << 30;

// Runs the binary with 1 GiB of address space (ulimit -v): a reader that
// tried to hold /dev/zero would die of it (exit 70 "out of memory").
evalcli::test::ChildResult bounded_run(const std::vector<std::string>& args,
                                       std::map<std::string, std::string> env = {}) {
  ChildOptions options;
  options.address_space = kOneGiB;
  options.env = std::move(env);
  return run_binary(args, options);
}

// Runs the binary with `env` added to the environment (no address-space bound:
// this runs under the sanitizers too, whose shadow memory needs terabytes of it).
evalcli::test::ChildResult run_with_env(const std::vector<std::string>& args, std::map<std::string, std::string> env) {
  ChildOptions options;
  options.env = std::move(env);
  return run_binary(args, options);
}

void check_too_large(const evalcli::test::ChildResult& result, const std::string& path, const std::string& limit) {
  INFO(result.err);
  CHECK(result.exit_code == 3);
  CHECK(result.err.find(path + ": larger than " + limit + " bytes, the limit for files read whole") !=
        std::string::npos);
  CHECK(result.err.find("EVALCLI_MAX_FILE_BYTES") != std::string::npos);
}

std::string bleu_shard(const std::string& ref, const std::string& hyp) {
  const TempFile shard("");
  const auto result = run_cli({"bleu", "-r", ref, "-i", hyp, "--stats-out", shard.path()});
  REQUIRE(result.exit_code == 0);
  return evalcli::test::read_file(shard.path());
}

}  // namespace

TEST_CASE("limits: /dev/zero given to a whole-file reader fails at the limit, in bounded memory", "[limits]") {
  const TempFile ref("a b c\n"), hyp("a b d\n");
  check_too_large(bounded_run({"merge", "/dev/zero"}), "/dev/zero", "268435456");
  check_too_large(bounded_run({"check", "--baseline", "/dev/zero", "--current", "/dev/zero"}), "/dev/zero",
                  "268435456");
  check_too_large(bounded_run({"cider", "--coco-annotations", "/dev/zero", "--coco-results", "/dev/zero"}),
                  "/dev/zero", "268435456");
  if (const auto parent = evalcli::test::shared_parent()) {
    const std::string data = (*parent / "shared/corpora/rouge155-data").string();
    check_too_large(bounded_run({"rouge", "--compat", "rouge155", "--rouge155-data", data, "--rouge155-config",
                                 "/dev/zero"}),
                    "/dev/zero", "268435456");
    check_too_large(bounded_run({"rouge", "--compat", "rouge155", "--rouge155-data", data, "--rouge155-flags",
                                 "-z SPL", "--rouge155-config", "/dev/zero"}),
                    "/dev/zero", "268435456");
    // The paraphrase table's own limit (2 GiB) would not fit in 1 GiB: the variable lowers it.
    const std::string meteor = (*parent / "shared/corpora/meteor15").string();
    check_too_large(bounded_run({"meteor", "--compat", "meteor15", "--meteor-resources", meteor, "-m",
                                 "exact paraphrase", "--paraphrase-table", "/dev/zero", "-r", ref.path(), "-i",
                                 hyp.path()},
                                {{"EVALCLI_MAX_FILE_BYTES", "100000000"}}),
                    "/dev/zero", "100000000");
  }
  // ppl --lm streams the model: the line limit stops a file without line ends.
  const auto lm = bounded_run({"ppl", "--lm", "/dev/zero", "-i", hyp.path()});
  INFO(lm.err);
  CHECK(lm.exit_code == 3);
  CHECK(lm.err.find("/dev/zero:1: line longer than 16777216 bytes") != std::string::npos);
}

TEST_CASE("limits: EVALCLI_MAX_FILE_BYTES sets the limit, bad values are usage errors", "[limits]") {
  const TempFile ref("a b c\n"), hyp("a b d\n");
  const TempFile shard(bleu_shard(ref.path(), hyp.path()));
  const auto size = std::to_string(fs::file_size(shard.path()));
  CHECK(run_with_env({"merge", shard.path()}, {{"EVALCLI_MAX_FILE_BYTES", size}}).exit_code == 0);
  const auto smaller = std::to_string(fs::file_size(shard.path()) - 1);
  check_too_large(run_with_env({"merge", shard.path()}, {{"EVALCLI_MAX_FILE_BYTES", smaller}}), shard.path(), smaller);
  check_too_large(run_with_env({"check", "--baseline", shard.path(), "-r", ref.path(), "-i", hyp.path()},
                              {{"EVALCLI_MAX_FILE_BYTES", smaller}}),
                  shard.path(), smaller);
  for (const char* bad : {"abc", "0", "-1", "", "1e9"}) {
    const auto result = run_with_env({"merge", shard.path()}, {{"EVALCLI_MAX_FILE_BYTES", bad}});
    INFO(bad << ": " << result.err);
    CHECK(result.exit_code == 2);
    CHECK(result.err.find("EVALCLI_MAX_FILE_BYTES: '") != std::string::npos);
  }
}

TEST_CASE("numbers: METEOR and BLEU parameters outside their domain, sacrebleu -w -1", "[limits][numbers]") {
  const TempFile ref("the cat sat on the mat\n"), hyp("the cat sat on a mat\n");
  const auto run = [&](std::vector<std::string> args) {
    args.insert(args.end(), {"-r", ref.path(), "-i", hyp.path()});
    return run_cli(args);
  };
  for (const auto& [option, value] : std::vector<std::pair<std::string, std::string>>{
           {"--beta", "-1"}, {"--alpha", "1.5"}, {"--alpha", "-0.1"}, {"--gamma", "2"}, {"--gamma", "-1"}}) {
    const auto result = run({"meteor", option, value});
    INFO(option << " " << value << ": " << result.err);
    CHECK(result.exit_code == 2);
    CHECK(result.err.find(option + ": '" + value + "' is not a number from") != std::string::npos);
  }
  CHECK(run({"meteor", "--beta", "0", "--gamma", "1", "--alpha", "0"}).exit_code == 0);
  const auto smooth = run({"bleu", "-s", "floor", "-sv", "-0.5"});
  CHECK(smooth.exit_code == 2);
  CHECK(smooth.err.find("--smooth-value: '-0.5' is not a number from 0") != std::string::npos);

  const auto width = run_cli({"sacrebleu", ref.path(), "-i", hyp.path(), "-w", "-1"});
  CHECK(width.exit_code == 1);
  CHECK(width.err == "sacreBLEU: -w -1: Format specifier missing precision\n");
}

TEST_CASE("paths: symlink loops and over-long names are named, not 'no such file'", "[limits][paths]") {
  const auto folder = fs::temp_directory_path() / ("evalcli-paths-" + std::to_string(::getpid()));
  fs::create_directories(folder);
  const std::string loop = (folder / "loop").string();
  fs::remove(loop);
  fs::create_symlink("loop", loop);
  const std::string too_long = (folder / std::string(300, 'x')).string();
  for (const auto& [path, reason] : std::vector<std::pair<std::string, std::string>>{
           {loop, "Too many levels of symbolic links"}, {too_long, "File name too long"}}) {
    const auto merge = run_cli({"merge", path});
    INFO(merge.err);
    CHECK(merge.exit_code == 3);
    CHECK(merge.err.find(path + ": cannot open: " + reason) != std::string::npos);
    const auto jieba = run_cli({"tokenize", "-tok", "zh-jieba", "--jieba-dict", path}, "x\n");
    CHECK(jieba.exit_code == 4);
    CHECK(jieba.err.find("--jieba-dict " + path + ": " + reason) != std::string::npos);
  }
  fs::remove_all(folder);
}

TEST_CASE("jieba: a directory, an empty or an all-zero dictionary is refused", "[limits][jieba]") {
  const auto dir = fs::temp_directory_path().string();
  const auto directory = run_cli({"tokenize", "-tok", "zh-jieba", "--jieba-dict", dir}, "x\n");
  CHECK(directory.exit_code == 4);
  CHECK(directory.err.find("is a directory, expected the dictionary file") != std::string::npos);
  for (const char* content : {"", "北京 0\n上海 0 ns\n"}) {
    const TempFile dictionary(content);
    const auto result = run_cli({"tokenize", "-tok", "zh-jieba", "--jieba-dict", dictionary.path()}, "北京\n");
    INFO(result.err);
    CHECK(result.exit_code == 3);
    CHECK(result.err.find(dictionary.path() + ": the jieba dictionary has no word with a frequency above 0") !=
          std::string::npos);
  }
}

TEST_CASE("JSON lines: bytes after a NUL are not ignored", "[limits][json]") {
  using namespace std::string_literals;
  const TempFile logprobs("{\"text\": \"a\", \"logprobs\": [-1]}\0garbage\n"s, ".jsonl");
  const auto ppl = run_cli({"ppl", "--logprobs", logprobs.path()});
  CHECK(ppl.exit_code == 3);
  CHECK(ppl.err.find(logprobs.path() + ":1: not valid JSON: NUL byte at byte 32") != std::string::npos);

  const TempFile captions("{\"refs\": [\"a b\"], \"hyp\": \"a b\"}\0{\n"s, ".jsonl");
  const auto cider = run_cli({"cider", "--jsonl", captions.path()});
  CHECK(cider.exit_code == 3);
  CHECK(cider.err.find(captions.path() + ":1: invalid JSON: NUL byte at byte 32") != std::string::npos);

  const TempFile ref("a b c\n"), hyp("a b d\n");
  const TempFile baseline(bleu_shard(ref.path(), hyp.path()) + "\0trailing"s);
  const auto check = run_cli({"check", "--baseline", baseline.path(), "--current", baseline.path()});
  CHECK(check.exit_code == 3);
  CHECK(check.err.find("baseline is not JSON (NUL byte at byte") != std::string::npos);
}

TEST_CASE("ppl: nothing scored gives nll 0, not -0", "[limits][ppl]") {
  const TempFile logprobs("{\"text\": \"\", \"logprobs\": []}\n", ".jsonl");
  const auto result = run_cli({"ppl", "--logprobs", logprobs.path(), "-f", "json"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.find("-0.0") == std::string::npos);
  CHECK(result.out.find("\"nll_sum_nats\": 0.0,") != std::string::npos);
}
