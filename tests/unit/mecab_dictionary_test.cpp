// ja-mecab with another dictionary folder (--mecab-dict, EVALCLI_MECAB_DICDIR): named by
// content in the signature, checked when the signature is read back, and a
// folder without a dictionary is a missing resource (exit 4).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "support/scoped_env.hpp"
#include "support/test_support.hpp"

using evalcli::test::CliResult;
using evalcli::test::run_cli;
using evalcli::test::ScopedEnv;
using evalcli::test::TempFile;

namespace {


const char* kDebianDictionary = "/var/lib/mecab/dic/ipadic-utf8";

// A copy of Debian's dictionary in its own folder: the same words, another place.
std::filesystem::path copied_dictionary() {
  const auto folder = std::filesystem::temp_directory_path() / ("evalcli-mecab-dic-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  for (const auto& entry : std::filesystem::directory_iterator(kDebianDictionary)) {
    std::filesystem::copy_file(entry.path(), folder / entry.path().filename(),
                               std::filesystem::copy_options::overwrite_existing);
  }
  return folder;
}

}  // namespace

TEST_CASE("ja-mecab with EVALCLI_MECAB_DICDIR: dict: in the signature, checked on read-back", "[tokenize][mecab]") {
  const TempFile ref("今日は良い天気です。\n"), hyp("今日はいい天気です。\n");
  const CliResult plain = run_cli({"bleu", "-tok", "ja-mecab", "-r", ref.path(), "-i", hyp.path()});
  REQUIRE(plain.exit_code == 0);
  CHECK(plain.out.find("dict:") == std::string::npos);  // Debian's dictionary: SacreBLEU's signature
  const auto folder = copied_dictionary();
  std::string signature;
  {
    const ScopedEnv env("EVALCLI_MECAB_DICDIR", folder.string());
    const CliResult other = run_cli({"bleu", "-tok", "ja-mecab", "-r", ref.path(), "-i", hyp.path()});
    REQUIRE(other.exit_code == 0);
    CHECK(other.out.find("|dict:mecab-sha256.") != std::string::npos);
    signature = other.out.substr(0, other.out.find(" = "));
    // Same dictionary content: the same segmentation and score.
    CHECK(other.out.substr(other.out.find(" = ")) == plain.out.substr(plain.out.find(" = ")));
    CHECK(run_cli({"bleu", "-r", ref.path(), "-i", hyp.path(), "--signature", signature}).exit_code == 0);
  }
  // Read back without the folder: refused, naming the field.
  const CliResult refused = run_cli({"bleu", "-r", ref.path(), "-i", hyp.path(), "--signature", signature});
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("dict:mecab-sha256.") && Catch::Contains("EVALCLI_MECAB_DICDIR"));
  std::filesystem::remove_all(folder);
}

TEST_CASE("ja-mecab: EVALCLI_MECAB_DICDIR without a dictionary is a missing resource", "[tokenize][mecab]") {
  const TempFile ref("今日は良い天気です。\n");
  const ScopedEnv env("EVALCLI_MECAB_DICDIR", "/nonexistent/mecab-dic");
  const CliResult result = run_cli({"bleu", "-tok", "ja-mecab", "-r", ref.path(), "-i", ref.path()});
  CHECK(result.exit_code == 4);
  CHECK_THAT(result.err, Catch::Contains("EVALCLI_MECAB_DICDIR=/nonexistent/mecab-dic: no MeCab dictionary"));
}

TEST_CASE("ja-mecab: a corrupt dictionary is a missing resource with MeCab's own reason", "[tokenize][mecab][corrupt]") {
  const TempFile ref("今日は良い天気です。\n");
  const auto folder = copied_dictionary();
  std::filesystem::resize_file(folder / "sys.dic", 1000);  // cut short: its header promises more
  const ScopedEnv env("EVALCLI_MECAB_DICDIR", folder.string());
  const CliResult result = run_cli({"bleu", "-tok", "ja-mecab", "-r", ref.path(), "-i", ref.path()});
  CHECK(result.exit_code == 4);
  // MeCab's message names the broken file; before, the reason after "cannot start MeCab: " was empty.
  CHECK_THAT(result.err, Catch::Contains("cannot start MeCab: ") && Catch::Contains((folder / "sys.dic").string()));
  CHECK_THAT(result.err, !Catch::Contains("cannot start MeCab: \n"));
  std::filesystem::remove_all(folder);
}

TEST_CASE("ja-mecab with --mecab-dict: the folder chosen as jieba's dictionary is, named in the signature", "[tokenize][mecab]") {
  const TempFile ref("今日は良い天気です。\n"), hyp("今日はいい天気です。\n");
  const CliResult plain = run_cli({"bleu", "-tok", "ja-mecab", "-r", ref.path(), "-i", hyp.path()});
  REQUIRE(plain.exit_code == 0);
  const auto folder = copied_dictionary();
  const CliResult other =
      run_cli({"bleu", "-tok", "ja-mecab", "--mecab-dict", folder.string(), "-r", ref.path(), "-i", hyp.path()});
  REQUIRE(other.exit_code == 0);
  CHECK(other.out.find("|dict:mecab-sha256.") != std::string::npos);
  CHECK(other.out.substr(other.out.find(" = ")) == plain.out.substr(plain.out.find(" = ")));
  // The option wins over the environment variable.
  {
    const ScopedEnv env("EVALCLI_MECAB_DICDIR", "/nonexistent/mecab-dic");
    const CliResult both =
        run_cli({"bleu", "-tok", "ja-mecab", "--mecab-dict", folder.string(), "-r", ref.path(), "-i", hyp.path()});
    CHECK(both.exit_code == 0);
    CHECK(both.out == other.out);
  }
  // The signature read back needs the folder again (a resource), given with --mecab-dict.
  const std::string signature = other.out.substr(0, other.out.find(" = "));
  const CliResult again =
      run_cli({"bleu", "--mecab-dict", folder.string(), "-r", ref.path(), "-i", hyp.path(), "--signature", signature});
  CHECK(again.exit_code == 0);
  CHECK(again.out == other.out);
  // The same option in the tokenize command and in other metrics.
  const CliResult tokens = run_cli({"tokenize", "-tok", "ja-mecab", "--mecab-dict", folder.string(), "-i", hyp.path()});
  CHECK(tokens.exit_code == 0);
  CHECK(run_cli({"chrf", "--tokenize", "ja-mecab", "--mecab-dict", folder.string(), "-r", ref.path(), "-i", hyp.path()})
            .exit_code == 0);
  std::filesystem::remove_all(folder);
}

TEST_CASE("ja-mecab: --mecab-dict without a dictionary is a missing resource naming the option", "[tokenize][mecab]") {
  const TempFile ref("今日は良い天気です。\n");
  const CliResult result =
      run_cli({"bleu", "-tok", "ja-mecab", "--mecab-dict", "/nonexistent/mecab-dic", "-r", ref.path(), "-i", ref.path()});
  CHECK(result.exit_code == 4);
  CHECK_THAT(result.err, Catch::Contains("--mecab-dict /nonexistent/mecab-dic: no MeCab dictionary"));
}
