// `evalcli sacrebleu -e`: the single-byte codecs decoded as Python's codecs
// decode them (src/io/byte_codec.cpp), against Python's tables and names and
// SacreBLEU 2.6.0's output on real text in each. Expected values:
// tests/data/make_sacrebleu_encodings.py (the commands are in its docstring).
#include <filesystem>

#include "conformance/sacrebleu_golden.hpp"
#include "evalcli/io/byte_codec.hpp"
#include "support/test_support.hpp"

namespace {

const std::filesystem::path kFolder = evalcli::test::source_dir() / "tests/data/sacrebleu_encodings";

const nlohmann::json& cases() {
  static const nlohmann::json data = evalcli::test::read_json(kFolder / "cases.json");
  return data;
}

}  // namespace

TEST_CASE("byte codecs: every byte decoded as Python's codec decodes it alone", "[io][sacrebleu]") {
  const auto& tables = cases()["tables"];
  const auto names = evalcli::byte_codec_names();
  REQUIRE(names.size() == tables.size());
  for (const auto& name : names) {
    INFO(name);
    const auto codec = evalcli::find_byte_codec(name);
    REQUIRE(codec);
    CHECK(codec->name == name);
    const auto& expected = tables.at(name);
    for (int byte = 0; byte < 256; ++byte) {
      INFO("byte " << byte);
      const auto& python = expected[static_cast<std::size_t>(byte)];
      const char32_t ours = codec->table[static_cast<std::size_t>(byte)];
      CHECK((python.is_null() ? evalcli::kUndefinedByte : python.get<char32_t>()) == ours);
    }
  }
}

TEST_CASE("byte codecs: names found as codecs.lookup finds them", "[io][sacrebleu]") {
  const auto names = evalcli::byte_codec_names();
  for (const auto& row : cases()["names"]) {
    const std::string spelling = row[0];
    INFO(spelling);
    const auto codec = evalcli::find_byte_codec(spelling);
    const bool ours = !row[1].is_null() && std::find(names.begin(), names.end(), row[1].get<std::string>()) != names.end();
    REQUIRE(codec.has_value() == ours);
    if (ours) CHECK(codec->name == row[1].get<std::string>());
  }
}

TEST_CASE("evalcli sacrebleu -e CODEC: SacreBLEU 2.6.0's output on text in each single-byte codec", "[sacrebleu]") {
  std::size_t checked = 0;
  for (const auto& c : cases()["cases"]) {
    const std::string ref = (kFolder / c["ref"].get<std::string>()).string();
    const std::string hyp = (kFolder / c["hyp"].get<std::string>()).string();
    const std::string encoding = c["encoding"];
    INFO(ref << " -e " << encoding);
    const bool from_stdin = c.value("stdin", false);
    std::vector<std::string> args = {"sacrebleu", ref};
    if (!from_stdin) args.insert(args.end(), {"-i", hyp});
    args.insert(args.end(), {"-m", "bleu", "chrf", "ter", "-e", encoding});
    const auto result = from_stdin ? evalcli::test::run_cli(args, evalcli::test::read_file(hyp)) : evalcli::test::run_cli(args);
    CHECK(result.exit_code == c["exit_code"].get<int>());
    if (result.exit_code == 0) {
      CHECK(result.out == evalcli::test::with_evalcli_version(c["stdout"].get<std::string>()));
    } else {
      // SacreBLEU dies of a UnicodeDecodeError traceback; evalcli names file, line and byte.
      CHECK(result.out.empty());
      CHECK(result.err == "sacreBLEU: error: " + ref + ":2:byte 5: byte 0x81 is undefined in cp1252\n");
    }
    ++checked;
  }
  CHECK(checked == 28);
}
