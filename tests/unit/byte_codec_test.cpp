// `evalcli sacrebleu -e`: the single-byte and UTF-16/32 codecs decoded as
// Python's codecs decode them (src/io/byte_codec.cpp), against Python's tables,
// names, line splitting and errors, and SacreBLEU 2.6.0's output on real text
// in each. Expected values: tests/data/make_sacrebleu_encodings.py (the
// commands are in its docstring).
#include <fmt/format.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <sstream>

#include "conformance/sacrebleu_golden.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/io/byte_codec.hpp"
#include "evalcli/io/decompress.hpp"
#include "evalcli/io/line_reader.hpp"
#include "evalcli/text/utf8.hpp"
#include "support/test_support.hpp"

namespace {

const std::filesystem::path kFolder = evalcli::test::source_dir() / "tests/data/sacrebleu_encodings";

const nlohmann::json& cases() {
  static const nlohmann::json data = evalcli::test::read_json(kFolder / "cases.json");
  return data;
}

std::vector<std::string> accepted_names() {
  auto names = evalcli::byte_codec_names();
  for (const auto& name : evalcli::unit_codec_names()) names.push_back(name);
  for (const auto& name : evalcli::multibyte_codec_names()) names.push_back(name);
  return names;
}

// The bytes of `units` in the codec's order, after a little-endian BOM for "utf-16"/"utf-32".
std::string unit_bytes(const evalcli::ByteCodec& codec, const std::vector<std::uint32_t>& units) {
  const std::size_t width = codec.unit == evalcli::CodeUnit::utf16 ? 2 : 4;
  std::string out;
  if (codec.order == evalcli::ByteOrder::from_bom) out = width == 2 ? "\xFF\xFE" : std::string("\xFF\xFE\0\0", 4);
  for (const std::uint32_t unit : units) {
    for (std::size_t k = 0; k < width; ++k) {
      const std::size_t shift = 8 * (codec.order == evalcli::ByteOrder::big ? width - 1 - k : k);
      out += static_cast<char>((unit >> shift) & 0xFF);
    }
  }
  return out;
}

// The whole input decoded to UTF-8, as the line reader's source sees it.
std::string decode_all(const evalcli::ByteCodec& codec, const std::string& bytes) {
  std::istringstream in(bytes);
  auto source = evalcli::decode_units_to_utf8(evalcli::io::open_stream_source(in, "units"), codec, "units", false);
  std::string out;
  char buffer[4096];
  while (const std::size_t got = source->read(buffer, sizeof buffer)) out.append(buffer, got);
  return out;
}

std::string fnv1a64(const std::string& bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : bytes) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return fmt::format("{:016x}", hash);
}

std::string unhex(const std::string& hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  return out;
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
  const auto names = accepted_names();
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
      // SacreBLEU dies of a UnicodeDecodeError (UnicodeError) traceback; evalcli names file, line and byte.
      static const std::map<std::string, std::string> errors = {
          {"cp1252", ":2:byte 5: byte 0x81 is undefined in cp1252"},
          {"utf-16", ":1:byte 1: UTF-16 stream does not start with BOM in utf-16"},
          {"utf-16-le", ":2:byte 9: illegal encoding: low surrogate 0xDC00 without a high one in utf-16-le"},
          {"gb18030", ":2:byte 4: illegal multibyte sequence in gb18030"},
          {"gbk", ":2:byte 8: illegal multibyte sequence in gbk"}};
      CHECK(result.out.empty());
      CHECK(result.err == "sacreBLEU: error: " + ref + errors.at(encoding) + "\n");
    }
    ++checked;
  }
  CHECK(checked == 47);
}

TEST_CASE("UTF-16/32 codecs: every code unit decoded as Python decodes it alone", "[io][sacrebleu]") {
  const auto& tables = cases()["unit_tables"];
  const auto names = evalcli::unit_codec_names();
  REQUIRE(names.size() == tables.size());
  for (const auto& name : names) {
    INFO(name);
    const auto codec = evalcli::find_byte_codec(name);
    REQUIRE(codec);
    CHECK(codec->name == name);
    for (const auto& run : tables.at(name)) {
      const auto first = run[0].get<std::uint32_t>(), last = run[1].get<std::uint32_t>();
      INFO("units " << first << ".." << last << " " << run[2]);
      if (run[2] == "self") {  // the whole run at once: each unit its code point
        std::vector<std::uint32_t> units;
        std::u32string expected;
        for (std::uint64_t unit = first; unit <= last; ++unit) {
          units.push_back(static_cast<std::uint32_t>(unit));
          expected.push_back(static_cast<char32_t>(unit));
        }
        CHECK(decode_all(*codec, unit_bytes(*codec, units)) == evalcli::utf8::encode(expected));
      } else {
        REQUIRE(run[2] == "error");
        std::size_t refused = 0;
        for (std::uint64_t unit = first; unit <= last; ++unit) {
          try {
            decode_all(*codec, unit_bytes(*codec, {static_cast<std::uint32_t>(unit)}));
          } catch (const evalcli::Error& e) {
            refused += e.code() == evalcli::ExitCode::input_data;
          }
        }
        CHECK(refused == last - first + 1);
      }
    }
  }
}

TEST_CASE("UTF-16 codecs: all 2^20 surrogate pairs decoded as Python decodes them", "[io][sacrebleu]") {
  for (const auto& [name, python] : cases()["unit_pairs"].items()) {
    INFO(name);
    const auto codec = evalcli::find_byte_codec(name);
    REQUIRE(codec);
    std::vector<std::uint32_t> units;
    for (std::uint32_t high = 0xD800; high < 0xDC00; ++high) {
      for (std::uint32_t low = 0xDC00; low < 0xE000; ++low) units.insert(units.end(), {high, low});
    }
    const std::string decoded = decode_all(*codec, unit_bytes(*codec, units));
    CHECK(decoded.size() == python["utf8_bytes"].get<std::size_t>());
    CHECK(fnv1a64(decoded) == python["fnv1a64"].get<std::string>());
  }
}

TEST_CASE("UTF-16/32 codecs: lines and errors of the edge cases as Python's open() and stdin give them",
          "[io][sacrebleu]") {
  std::size_t checked = 0;
  for (const auto& edge : cases()["unit_edges"]) {
    const auto codec = evalcli::find_byte_codec(edge["codec"].get<std::string>());
    REQUIRE(codec);
    for (const bool universal : {false, true}) {
      const auto& python = edge[universal ? "stdin" : "file"];
      INFO(edge["codec"] << " " << edge["label"] << (universal ? " (stdin)" : " (file)"));
      std::istringstream in(unhex(edge["hex"].get<std::string>()));
      evalcli::io::LineReader reader(in, "edge", universal);
      reader.decode_with(*codec);
      std::vector<std::string> lines;
      std::string error;
      try {
        std::u32string line;
        while (reader.next_unstripped(line)) lines.push_back(evalcli::utf8::encode(line));
      } catch (const evalcli::Error& e) {
        CHECK(e.code() == evalcli::ExitCode::input_data);
        error = e.what();
      }
      if (python.contains("lines")) {
        CHECK(error.empty());
        CHECK(lines == python["lines"].get<std::vector<std::string>>());
      } else {
        const std::string where = fmt::format("edge:{}:byte {}: ", python["line"].get<int>(), python["byte"].get<int>());
        // Python's reason first ("illegal encoding", "truncated data", ...), then which unit.
        CHECK(error.substr(0, where.size()) == where);
        CHECK(error.substr(where.size(), python["error"].get<std::string>().size()) == python["error"].get<std::string>());
      }
      ++checked;
    }
  }
  CHECK(checked == 2 * cases()["unit_edges"].size());
}

TEST_CASE("GB18030, cp932, gbk, cp949: every 1- and 2-byte string (GB18030: and 4-byte form) decoded or refused as Python does",
          "[io][sacrebleu]") {
  for (const auto& entry : cases()["multibyte"].items()) {
    // Named copies, not structured bindings: clang 14 cannot capture those in the lambda below.
    const std::string name = entry.key();
    const auto& python = entry.value();
    INFO(name);
    const auto codec = evalcli::find_byte_codec(name);
    REQUIRE(codec);
    REQUIRE(codec->unit == evalcli::CodeUnit::multibyte);
    // The script's digest: UTF-8 of each decoded string and LF, or FF LF where Python refuses it.
    std::string all;
    std::size_t strings = 0, decoded = 0;
    const auto add = [&](const std::string& bytes) {
      ++strings;
      try {
        all += evalcli::utf8::encode(evalcli::decode_multibyte_line(*codec, bytes, name)) + "\n";
        ++decoded;
      } catch (const evalcli::Error& e) {
        CHECK(e.code() == evalcli::ExitCode::input_data);
        all += "\xFF\n";
      }
    };
    for (int a = 0; a < 256; ++a) add(std::string(1, static_cast<char>(a)));
    for (int a = 0; a < 256; ++a) {
      for (int b = 0; b < 256; ++b) add({static_cast<char>(a), static_cast<char>(b)});
    }
    for (int a = 0x81; name == "gb18030" && a <= 0xFE; ++a) {
      for (int b = 0x30; b <= 0x39; ++b) {
        for (int c = 0x81; c <= 0xFE; ++c) {
          for (int d = 0x30; d <= 0x39; ++d) {
            add({static_cast<char>(a), static_cast<char>(b), static_cast<char>(c), static_cast<char>(d)});
          }
        }
      }
    }
    CHECK(strings == python["strings"].get<std::size_t>());
    CHECK(decoded == python["decoded"].get<std::size_t>());
    CHECK(fnv1a64(all) == python["fnv1a64"].get<std::string>());
  }
  // The two code points GB18030-2000 (Python) and -2005 (ICU) swap.
  const auto gb18030 = evalcli::find_byte_codec("GB18030");
  CHECK(evalcli::decode_multibyte_line(*gb18030, "\xA8\xBC", "x") == U"\uE7C7");
  CHECK(evalcli::decode_multibyte_line(*gb18030, "\x81\x35\xF4\x37", "x") == U"\u1E3F");
}
