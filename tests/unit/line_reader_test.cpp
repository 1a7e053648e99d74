// LineReader: SacreBLEU's line rules, chunked reading across buffer borders,
// and the line-length limit.
#include <sstream>

#include "evalcli/core/error.hpp"
#include "evalcli/io/line_reader.hpp"
#include "evalcli/text/utf8.hpp"
#include "support/test_support.hpp"

using evalcli::io::LineReader;

namespace {

std::vector<std::string> raw_lines(const std::string& bytes, bool universal_newlines) {
  std::istringstream in(bytes);
  LineReader reader(in, "test", universal_newlines);
  std::vector<std::string> lines;
  std::string line;
  while (reader.next_bytes(line)) lines.push_back(line);
  CHECK(reader.line_number() == lines.size());
  return lines;
}

using Lines = std::vector<std::string>;

}  // namespace

TEST_CASE("files: only LF ends a line, a last line without LF counts", "[line_reader]") {
  CHECK(raw_lines("", false).empty());
  CHECK(raw_lines("\n", false) == Lines{""});
  CHECK(raw_lines("a\nb", false) == Lines{"a", "b"});
  CHECK(raw_lines("a\nb\n", false) == Lines{"a", "b"});
  CHECK(raw_lines("a\r\nb\rc\n", false) == Lines{"a\r", "b\rc"});
  CHECK(raw_lines("\n\n\n", false) == Lines{"", "", ""});
  CHECK(raw_lines(std::string("a\0b\n", 4), false) == Lines{std::string("a\0b", 3)});
}

TEST_CASE("stdin: universal newlines", "[line_reader]") {
  CHECK(raw_lines("a\r\nb\rc\n", true) == Lines{"a", "b", "c"});
  // As Python's io.TextIOWrapper splits them:
  CHECK(raw_lines("a\r", true) == Lines{"a"});
  CHECK(raw_lines("a\r\r", true) == Lines{"a", ""});
  CHECK(raw_lines("\r\n\r", true) == Lines{"", ""});
  CHECK(raw_lines("x\ry", true) == Lines{"x", "y"});
}

TEST_CASE("lines longer than the read chunk come back whole", "[line_reader]") {
  for (std::size_t length : {65534u, 65535u, 65536u, 65537u, 200000u}) {
    const std::string line(length, 'x');
    CHECK(raw_lines(line + "\n" + line, false) == Lines{line, line});
    CHECK(raw_lines(line + "\n", false) == Lines{line});
  }
}

TEST_CASE("rstrip and UTF-8 errors name line and byte", "[line_reader]") {
  std::istringstream in("caf\xc3\xa9 \t\r\nx\xe2\x82\n");
  LineReader reader(in, "in.txt", false);
  std::u32string line;
  REQUIRE(reader.next(line));
  CHECK(line == U"caf\u00e9");
  CHECK_THROWS_WITH(reader.next(line), "in.txt:2:byte 2: invalid UTF-8 (byte 0xE2)");
}

TEST_CASE("a line over the limit is an input error", "[line_reader]") {
  REQUIRE(evalcli::io::max_line_bytes() == (std::size_t{16} << 20));  // EVALCLI_MAX_LINE_BYTES unset
  std::istringstream in("short\n" + std::string(evalcli::io::max_line_bytes() + 1, 'a') + "\n");
  LineReader reader(in, "big.txt", false);
  std::string line;
  REQUIRE(reader.next_bytes(line));
  try {
    reader.next_bytes(line);
    FAIL("no error");
  } catch (const evalcli::Error& e) {
    CHECK(e.code() == evalcli::ExitCode::input_data);
    CHECK(std::string(e.what()).rfind("big.txt:2: line longer than 16777216 bytes", 0) == 0);
  }
  std::istringstream exact(std::string(evalcli::io::max_line_bytes(), 'a'));
  LineReader at_limit(exact, "exact.txt", false);
  CHECK(at_limit.next_bytes(line));
  CHECK(line.size() == evalcli::io::max_line_bytes());
}
