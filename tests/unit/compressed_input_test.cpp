// Compressed hypotheses and references (.gz, .bz2, .xz) for every command, and
// the hint for a compressed file named otherwise (issue 18.3). Data and how it
// was made: tests/data/compressed/README.md.
#include "evalcli/core/error.hpp"
#include "evalcli/io/decompress.hpp"
#include "evalcli/io/line_reader.hpp"
#include "support/test_support.hpp"

using evalcli::test::run_cli;

namespace {

std::string data(const std::string& name) {
  return (evalcli::test::source_dir() / "tests/data/compressed" / name).string();
}

std::vector<std::string> scoring_command(const std::string& command, const std::string& ref, const std::string& hyp) {
  if (command == "sacrebleu") return {"sacrebleu", ref, "-i", hyp, "-m", "bleu", "chrf", "ter"};
  return {command, "-r", ref, "-i", hyp};
}

}  // namespace

TEST_CASE("every scoring command reads .gz, .bz2 and .xz inputs as the plain text", "[compressed]") {
  for (const std::string command : {"bleu", "chrf", "ter", "rouge", "meteor", "cider", "sacrebleu"}) {
    const auto plain = run_cli(scoring_command(command, data("ref.txt"), data("hyp.txt")));
    INFO(command << ": " << plain.err);
    REQUIRE(plain.exit_code == 0);
    for (const std::string suffix : {".gz", ".bz2", ".xz"}) {
      INFO(suffix);
      const auto packed = run_cli(scoring_command(command, data("ref.txt" + suffix), data("hyp.txt" + suffix)));
      CHECK(packed.err == plain.err);
      CHECK(packed.exit_code == 0);
      CHECK(packed.out == plain.out);
    }
  }
}

TEST_CASE("tokenize reads a compressed file", "[compressed]") {
  const auto plain = run_cli({"tokenize", "-i", data("hyp.txt")});
  REQUIRE(plain.exit_code == 0);
  CHECK(run_cli({"tokenize", "-i", data("hyp.txt.xz")}).out == plain.out);
}

TEST_CASE("a compressed file named otherwise gets a hint, not only the bad byte", "[compressed]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"hyp-gzip-named.txt", "gzip"}, {"hyp-bzip2-named.txt", "bzip2"}, {"hyp-xz-named.txt", "xz"}};
  for (const auto& [file, format] : cases) {
    const auto result = run_cli({"bleu", "-r", data("ref.txt"), "-i", data(file)});
    INFO(result.err);
    CHECK(result.exit_code == 3);
    const std::string suffix(evalcli::io::compression_suffix(evalcli::io::compressed_file_signature(
        evalcli::test::read_file(data(file)))));
    CHECK(result.err.find(data(file) + ":1:byte ") != std::string::npos);
    CHECK(result.err.find("invalid UTF-8: the input is " + format + "-compressed, but its name does not end in " +
                          suffix) != std::string::npos);
    CHECK(result.err.find("\nhint: rename it " + data(file) + suffix + " to read it compressed, or decompress it\n") !=
          std::string::npos);
  }
}

TEST_CASE("compressed data on standard input gets a hint", "[compressed]") {
  const auto result = run_cli({"bleu", "-r", data("ref.txt")}, evalcli::test::read_file(data("hyp.txt.gz")));
  CHECK(result.exit_code == 3);
  CHECK(result.err ==
        "evalcli: error: <stdin>:1:byte 2: invalid UTF-8: the input is gzip-compressed, but its name does not end in "
        ".gz\nhint: decompress it first, or give the file with -i NAME.gz\n");
}

TEST_CASE("a file named .gz must hold gzip data, an empty one is no lines", "[compressed]") {
  const auto result = run_cli({"bleu", "-r", data("ref.txt"), "-i", data("not-gzip.txt.gz")});
  CHECK(result.exit_code == 3);
  CHECK(result.err == "evalcli: error: " + data("not-gzip.txt.gz") + ": not gzip data, though the name ends in .gz\n");
  evalcli::test::TempFile empty("", ".txt.gz");
  evalcli::io::LineReader reader(empty.path());
  std::string line;
  CHECK_FALSE(reader.next_bytes(line));
}

TEST_CASE("plain text starting like a bzip2 header is read as text", "[compressed]") {
  evalcli::test::TempFile text("BZh91AY&SY is a line\n", ".txt");
  evalcli::io::LineReader reader(text.path());
  std::u32string line;
  REQUIRE(reader.next(line));
  CHECK(line == U"BZh91AY&SY is a line");
  CHECK(evalcli::io::compressed_file_signature("BZh is text") == evalcli::io::Compression::none);
  CHECK(evalcli::io::compressed_file_signature(evalcli::test::read_file(data("hyp.txt.bz2"))) ==
        evalcli::io::Compression::bzip2);
}

TEST_CASE("a truncated .gz is an input error naming the file", "[compressed]") {
  const std::string whole = evalcli::test::read_file(data("hyp.txt.gz"));
  evalcli::test::TempFile cut(whole.substr(0, whole.size() / 2), ".txt.gz");
  const auto result = run_cli({"bleu", "-r", data("ref.txt"), "-i", cut.path()});
  CHECK(result.exit_code == 3);
  CHECK(result.err == "evalcli: error: " + cut.path() + ": truncated gzip data\n");
}
