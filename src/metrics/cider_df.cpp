// The CIDEr document-frequency file written by --save-df and read by --df:
//   evalcli-cider-df/1<TAB>documents=N<TAB>n=4<TAB>tok=ptb-v2
//   <count><TAB><n-gram words joined by one space>
// One n-gram per line, in first-seen order (docs/cider.md).
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "evalcli/core/error.hpp"
#include "evalcli/io/line_reader.hpp"
#include "evalcli/metrics/cider.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli {
namespace {

constexpr std::string_view kMagic = "evalcli-cider-df/1";

std::size_t parse_count(std::string_view text, const std::string& where) {
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    throw input_error(fmt::format("{}: '{}' is not a count", where, text));
  }
  return value;
}

}  // namespace

std::string serialize_document_frequencies(const CiderDocumentFrequencies& df) {
  std::string out = fmt::format("{}\tdocuments={}\tn={}\ttok={}\n", kMagic, df.documents, df.max_n,
                                df.tokenizer_id.empty() ? "unknown" : df.tokenizer_id);
  for (const auto& [ngram, count] : df.counts) {
    out += std::to_string(count);
    out += '\t';
    out += utf8::encode(ngram);
    out += '\n';
  }
  return out;
}

namespace {

// The header line: documents=N (positive), n=K (1..16), tok=ID.
void parse_header(std::string_view line, const std::string& where, CiderDocumentFrequencies& df) {
  if (line.substr(0, kMagic.size()) != kMagic) {
    throw input_error(fmt::format("{}: not an evalcli CIDEr df file (expected '{}' header)", where, kMagic));
  }
  bool have_documents = false;
  std::size_t field_start = kMagic.size();
  while (field_start < line.size()) {
    std::size_t field_end = line.find('\t', field_start + 1);
    if (field_end == std::string_view::npos) field_end = line.size();
    std::string_view field = line.substr(field_start, field_end - field_start);
    if (!field.empty() && field[0] == '\t') field.remove_prefix(1);
    field_start = field_end;
    const auto eq = field.find('=');
    if (eq == std::string_view::npos) continue;
    const auto key = field.substr(0, eq);
    const auto value = field.substr(eq + 1);
    if (key == "documents") {
      df.documents = parse_count(value, where);
      have_documents = true;
    } else if (key == "n") {
      const std::size_t n = parse_count(value, where);
      if (n < 1 || n > 16) throw input_error(fmt::format("{}: n={} is not an n-gram order from 1 to 16", where, value));
      df.max_n = static_cast<int>(n);
    } else if (key == "tok") {
      df.tokenizer_id = std::string(value);
    }
  }
  if (!have_documents || df.documents == 0) {
    throw input_error(fmt::format("{}: header lacks a positive documents=N", where));
  }
}

}  // namespace

CiderDocumentFrequencies parse_document_frequencies(std::string_view content, const std::string& path) {
  if (content.empty()) throw input_error(fmt::format("{}: empty df file", path));
  if (content.back() != '\n') {
    const auto lines = static_cast<std::size_t>(std::count(content.begin(), content.end(), '\n')) + 1;
    throw input_error(
        fmt::format("{}:{}: the file ends inside a line (no newline at the end): cut short?", path, lines));
  }
  CiderDocumentFrequencies df;
  std::unordered_map<std::u32string, std::size_t> line_of;  // n-gram (words joined by one space) -> its line
  std::size_t line_number = 0;
  std::size_t start = 0;
  while (start < content.size()) {
    const std::size_t end = content.find('\n', start);
    const std::string_view line = content.substr(start, end - start);
    start = end + 1;
    ++line_number;
    const std::string where = fmt::format("{}:{}", path, line_number);
    if (line_number == 1) {
      parse_header(line, where, df);
      continue;
    }
    if (line.empty()) continue;
    const auto tab = line.find('\t');
    if (tab == std::string_view::npos) throw input_error(fmt::format("{}: expected '<count><TAB><n-gram>'", where));
    const std::size_t count = parse_count(line.substr(0, tab), where);
    if (count == 0 || count > df.documents) {
      throw input_error(fmt::format("{}: count {} is not from 1 to the header's documents={}", where, count,
                                    df.documents));
    }
    std::u32string ngram = utf8::decode_or_throw(line.substr(tab + 1), where);
    const std::size_t words = text::split(ngram).size();
    if (words == 0) throw input_error(fmt::format("{}: empty n-gram", where));
    if (words > static_cast<std::size_t>(df.max_n)) {
      throw input_error(fmt::format("{}: a {}-gram, but the header says n={}", where, words, df.max_n));
    }
    const auto [seen, inserted] = line_of.emplace(text::squeeze_spaces(ngram), line_number);
    if (!inserted) {
      throw input_error(fmt::format("{}: duplicate n-gram '{}' (first on line {})", where, utf8::encode(seen->first),
                                    seen->second));
    }
    df.counts.emplace_back(std::move(ngram), static_cast<std::uint32_t>(count));
  }
  return df;
}

void check_document_frequencies_tokenizer(const CiderDocumentFrequencies& df, const std::string& tokenizer_id,
                                          const std::string& path) {
  if (df.tokenizer_id == tokenizer_id) return;
  if (df.tokenizer_id.empty()) {
    throw input_error(fmt::format("{}:1: the header has no tok= field; this run tokenizes with {}", path,
                                  tokenizer_id));
  }
  throw input_error(fmt::format(
      "{}:1: tok={} in the header, but this run tokenizes with {}: document frequencies count the n-grams of one "
      "tokenizer (give -tok {} or count them again with --save-df)",
      path, df.tokenizer_id, tokenizer_id, df.tokenizer_id.substr(0, df.tokenizer_id.rfind("-v"))));
}

CiderDocumentFrequencies read_document_frequencies(const std::string& path) {
  io::check_readable_file(path);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return parse_document_frequencies(buffer.str(), path);
}

}  // namespace evalcli
