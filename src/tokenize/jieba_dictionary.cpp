// jieba's prefix dictionary, built the way Tokenizer.gen_pfdict builds FREQ and
// total, but as a trie so that loading 349k entries takes milliseconds.
#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "evalcli/core/error.hpp"
#include "evalcli/text/utf8.hpp"
#include "evalcli/tokenize/jieba.hpp"

namespace evalcli::jieba {
namespace {

constexpr std::uint64_t edge_key(std::uint32_t node, char32_t c) {
  return ((static_cast<std::uint64_t>(node) << 21) | c) + 1;  // +1: 0 marks an empty slot
}

inline std::size_t slot_of(std::uint64_t key, std::size_t mask) {
  return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> 20) & mask;
}

// Python bytes.strip(): ASCII whitespace.
constexpr bool is_ascii_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

std::string_view strip_ascii(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return s;
}

// Python int() on a frequency field: optional sign, digits with single
// underscores between them, surrounding whitespace. Negative values (on which
// jieba fails later, in log()) and non-ASCII digits are rejected.
bool parse_frequency(std::string_view text, std::uint64_t& value) {
  text = strip_ascii(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty() || text.front() == '_' || text.back() == '_') return false;
  value = 0;
  char previous = 0;
  for (char c : text) {
    if (c == '_') {
      if (previous == '_') return false;
    } else if (c >= '0' && c <= '9') {
      const std::uint64_t next = value * 10 + static_cast<std::uint64_t>(c - '0');
      if (next / 10 != value) return false;  // overflow
      value = next;
    } else {
      return false;
    }
    previous = c;
  }
  return true;
}

}  // namespace

Dictionary::Dictionary() : frequency_(1, 0), edge_keys_(1 << 16, 0), edge_nodes_(1 << 16, 0) {}

std::uint32_t Dictionary::child(std::uint32_t node, char32_t c) const {
  const std::uint64_t key = edge_key(node, c);
  const std::size_t mask = edge_keys_.size() - 1;
  for (std::size_t slot = slot_of(key, mask);; slot = (slot + 1) & mask) {
    if (edge_keys_[slot] == key) return edge_nodes_[slot];
    if (edge_keys_[slot] == 0) return kNoNode;
  }
}

void Dictionary::grow() {
  std::vector<std::uint64_t> old_keys(edge_keys_.size() * 2, 0);
  std::vector<std::uint32_t> old_nodes(edge_nodes_.size() * 2, 0);
  old_keys.swap(edge_keys_);
  old_nodes.swap(edge_nodes_);
  const std::size_t mask = edge_keys_.size() - 1;
  for (std::size_t i = 0; i < old_keys.size(); ++i) {
    if (old_keys[i] == 0) continue;
    std::size_t slot = slot_of(old_keys[i], mask);
    while (edge_keys_[slot] != 0) slot = (slot + 1) & mask;
    edge_keys_[slot] = old_keys[i];
    edge_nodes_[slot] = old_nodes[i];
  }
}

std::uint32_t Dictionary::add_child(std::uint32_t node, char32_t c) {
  if ((edge_count_ + 1) * 2 > edge_keys_.size()) grow();  // load factor <= 1/2
  const std::uint64_t key = edge_key(node, c);
  const std::size_t mask = edge_keys_.size() - 1;
  std::size_t slot = slot_of(key, mask);
  for (; edge_keys_[slot] != 0; slot = (slot + 1) & mask) {
    if (edge_keys_[slot] == key) return edge_nodes_[slot];
  }
  const auto created = static_cast<std::uint32_t>(frequency_.size());
  frequency_.push_back(0);  // a new prefix: FREQ[wfrag] = 0
  edge_keys_[slot] = key;
  edge_nodes_[slot] = created;
  ++edge_count_;
  return created;
}

std::uint64_t Dictionary::lookup(std::u32string_view word) const {
  std::uint32_t node = kRoot;
  for (char32_t c : word) {
    node = child(node, c);
    if (node == kNoNode) return 0;
  }
  return node == kRoot ? 0 : frequency_[node];
}

Dictionary Dictionary::parse(std::string_view bytes, const std::string& name) {
  Dictionary dictionary;
  // jieba's dict.txt has about one trie edge per 6 bytes: size the table once
  // (load factor about 0.4) instead of rehashing while reading.
  while (dictionary.edge_keys_.size() < bytes.size() / 4) dictionary.grow();
  std::size_t line_number = 0;
  std::u32string word;
  while (!bytes.empty()) {
    // Lines as Python iterates a binary file: up to and including each LF.
    const std::size_t lf = bytes.find('\n');
    const std::string_view raw = bytes.substr(0, lf == std::string_view::npos ? bytes.size() : lf + 1);
    bytes.remove_prefix(raw.size());
    ++line_number;
    const std::string_view line = strip_ascii(raw);
    // word, freq = line.split(' ')[:2]
    const std::size_t space = line.find(' ');
    const std::string_view freq_field =
        space == std::string_view::npos ? std::string_view{} : line.substr(space + 1, line.find(' ', space + 1) - space - 1);
    std::uint64_t frequency = 0;
    word.clear();
    if (space == std::string_view::npos || !parse_frequency(freq_field, frequency) ||
        utf8::decode(line.substr(0, space), word) != utf8::npos) {
      throw Error(ExitCode::input_data,
                  fmt::format("{}:{}: invalid jieba dictionary entry (want 'word frequency [tag]')", name,
                              line_number));
    }
    std::uint32_t node = kRoot;
    for (char32_t c : word) node = dictionary.add_child(node, c);
    if (node != kRoot) dictionary.frequency_[node] = frequency;  // a later duplicate wins
    dictionary.total_ += frequency;
  }
  return dictionary;
}

Dictionary Dictionary::load(const std::string& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!file) {
    throw Error(ExitCode::missing_resource, fmt::format("{}: cannot open the jieba dictionary", path),
                kDebianPackageHint);
  }
  std::string bytes;
  char buffer[1 << 16];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file.get())) > 0;) bytes.append(buffer, n);
  return parse(bytes, path);
}

}  // namespace evalcli::jieba
