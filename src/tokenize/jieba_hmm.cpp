// finalseg's HMM tables, read from the Python-literal files Debian ships
// (prob_start.py, prob_trans.py, prob_emit.py: `P={'B': ..., ...}`), which are
// the ones CPython's jieba imports (the .p pickles are only used on Jython).
#include <fmt/format.h>

#include <charconv>

#include "evalcli/core/error.hpp"
#include "evalcli/io/mapped_file.hpp"
#include "evalcli/text/utf8.hpp"
#include "tokenize/jieba.hpp"

namespace evalcli::jieba {
namespace {

// Just enough of Python's literal syntax for these files: dicts whose keys
// are one-character strings and whose values are floats or such dicts.
class LiteralReader {
 public:
  LiteralReader(std::string_view text, std::string name) : text_(text), name_(std::move(name)) {}

  // Positions after the `P=` assignment.
  void skip_to_assignment() {
    std::size_t at = text_.substr(0, 1) == "P" ? 0 : text_.find("\nP");
    if (at == std::string_view::npos) fail("no 'P = {...}' assignment");
    pos_ = at + (at == 0 ? 1 : 2);
    skip_space();
    expect('=');
  }

  // Reads `{key: <value read by on_entry(key)>, ...}`.
  template <typename OnEntry>
  void read_dict(const OnEntry& on_entry) {
    expect('{');
    skip_space();
    while (peek() != '}') {
      const char32_t key = read_char_key();
      expect(':');
      on_entry(key);
      skip_space();
      if (peek() == ',') {
        ++pos_;
        skip_space();
      } else if (peek() != '}') {
        fail("expected ',' or '}'");
      }
    }
    ++pos_;
  }

  double read_number() {
    skip_space();
    double value = 0;
    const char* first = text_.data() + pos_;
    auto [end, error] = std::from_chars(first, text_.data() + text_.size(), value);
    if (error != std::errc()) fail("expected a number");
    pos_ += static_cast<std::size_t>(end - first);
    return value;
  }

  [[noreturn]] void fail(const std::string& what) const {
    const auto line = 1 + std::count(text_.begin(), text_.begin() + static_cast<std::ptrdiff_t>(pos_), '\n');
    throw Error(ExitCode::input_data, fmt::format("{}:{}: {} (jieba HMM table)", name_, line, what),
                kDebianPackageHint);
  }

 private:
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  void expect(char c) {
    skip_space();
    if (peek() != c) fail(fmt::format("expected '{}'", c));
    ++pos_;
  }

  std::uint32_t read_hex(std::size_t digits) {
    std::uint32_t value = 0;
    const char* first = text_.data() + pos_;
    auto [end, error] = std::from_chars(first, first + digits, value, 16);
    if (error != std::errc() || end != first + digits || pos_ + digits > text_.size()) fail("bad escape");
    pos_ += digits;
    return value;
  }

  // A string literal of exactly one code point: 'X', '\uXXXX', '\UXXXXXXXX', '\xXX', '\\'.
  char32_t read_char_key() {
    skip_space();
    const char quote = peek();
    if (quote != '\'' && quote != '"') fail("expected a string key");
    ++pos_;
    char32_t c = 0;
    if (peek() == '\\') {
      ++pos_;
      const char kind = peek();
      ++pos_;
      if (kind == 'u') {
        c = read_hex(4);
      } else if (kind == 'U') {
        c = read_hex(8);
      } else if (kind == 'x') {
        c = read_hex(2);
      } else if (kind == '\\' || kind == '\'' || kind == '"') {
        c = static_cast<unsigned char>(kind);
      } else {
        fail("unsupported escape in key");
      }
    } else {
      std::u32string decoded;
      std::size_t length = 1;
      const auto lead = static_cast<unsigned char>(peek());
      if (lead >= 0xF0) length = 4;
      else if (lead >= 0xE0) length = 3;
      else if (lead >= 0xC0) length = 2;
      if (utf8::decode(text_.substr(pos_, length), decoded) != utf8::npos || decoded.size() != 1) {
        fail("bad UTF-8 in key");
      }
      c = decoded[0];
      pos_ += length;
    }
    if (peek() != quote) fail("expected a one-character key");
    ++pos_;
    return c;
  }

  std::string_view text_;
  std::string name_;
  std::size_t pos_ = 0;
};

int state_index(char32_t name, const LiteralReader& reader) {
  switch (name) {
    case U'B': return HmmModel::B;
    case U'M': return HmmModel::M;
    case U'E': return HmmModel::E;
    case U'S': return HmmModel::S;
  }
  reader.fail("unknown HMM state");
}

void map_table(const std::string& path, io::MappedFile& file) {
  if (file.open(path, io::MappedFile::Readahead::whole_file) != io::MappedFile::Status::mapped) {
    throw Error(ExitCode::missing_resource, fmt::format("{}: cannot open jieba's HMM table", path),
                kDebianPackageHint);
  }
}

}  // namespace

HmmModel HmmModel::load(const std::string& dir) {
  HmmModel model;
  for (auto& row : model.trans_) row.fill(kMinFloat);  // trans_p[y0].get(y, MIN_FLOAT)
  model.start_.fill(kMinFloat);
  model.emit_.grow(4 * (kLastHan - kFirstHan + 1));  // all MIN_FLOAT

  const std::string start_path = dir + "/prob_start.py";
  io::MappedFile start_file;
  map_table(start_path, start_file);
  LiteralReader start(start_file.bytes(), start_path);
  start.skip_to_assignment();
  start.read_dict([&](char32_t state) { model.start_[state_index(state, start)] = start.read_number(); });

  const std::string trans_path = dir + "/prob_trans.py";
  io::MappedFile trans_file;
  map_table(trans_path, trans_file);
  LiteralReader trans(trans_file.bytes(), trans_path);
  trans.skip_to_assignment();
  trans.read_dict([&](char32_t from) {
    const int row = state_index(from, trans);
    trans.read_dict([&](char32_t to) { model.trans_[row][state_index(to, trans)] = trans.read_number(); });
  });

  const std::string emit_path = dir + "/prob_emit.py";
  io::MappedFile emit_file;
  map_table(emit_path, emit_file);
  LiteralReader emit(emit_file.bytes(), emit_path);
  emit.skip_to_assignment();
  emit.read_dict([&](char32_t state) {
    const int column = state_index(state, emit);
    emit.read_dict([&](char32_t c) {
      const double p = emit.read_number();
      // Only Han runs (U+4E00..U+9FD5) reach the HMM: other keys can never be looked up.
      if (c >= kFirstHan && c <= kLastHan) {
        model.emit_[4 * (c - kFirstHan) + column] = std::bit_cast<std::uint64_t>(p) ^ min_float_bits();
      }
    });
  });
  return model;
}

}  // namespace evalcli::jieba
