// jieba's prefix dictionary, built the way Tokenizer.gen_pfdict builds FREQ and
// total, but as a trie so that loading 349k entries takes milliseconds.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>

#include "evalcli/core/error.hpp"
#include "evalcli/core/huge_pages.hpp"
#include "evalcli/io/mapped_file.hpp"
#include "tokenize/jieba.hpp"

namespace evalcli::jieba {
namespace {

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

void ZeroedArray::reserve(std::size_t capacity) {
  if (capacity <= this->capacity()) return;
  using memory::kHugePage;
  const std::size_t bytes = (capacity * sizeof(std::uint64_t) + kHugePage - 1) / kHugePage * kHugePage;
  buffer_.grow(bytes);
}

std::uint64_t Dictionary::big_frequency(std::size_t slot) const { return big_frequencies_.at(slot); }

Dictionary::Subtree& Dictionary::add_subtree(char32_t c) {
  auto& page = pages_[c / kPageSize];
  if (!page) page = std::make_unique<Subtree[]>(kPageSize);
  Subtree& tree = page[c % kPageSize];
  if (tree.table == 0) ++size_;  // a new first character: FREQ[c] = 0 (reserve() gives it a table)
  return tree;
}

// Makes room for `new_nodes` more nodes at a load of at most 2/3 (at least one
// slot stays empty, which ends every probe), moving the table to the end of
// edges_ if it is too small. A node is its slot, so moving
// renumbers nodes: each is placed after its parent, whose new number is in its key.
void Dictionary::reserve(Subtree& tree, std::size_t new_nodes) {
  const std::size_t nodes = tree.used + new_nodes;
  if (tree.table != 0 && nodes * 3 <= std::size_t{tree.size} * 2 && nodes < tree.size) return;
  const std::size_t size = std::bit_ceil(std::max(nodes * 3 / 2 + 1, tree.used == 0 ? 0 : std::size_t{tree.size} * 2));
  if (size > kMaxSlots || edges_.size() + size > 0xFFFFFFFFu) {
    throw Error(ExitCode::input_data, "jieba dictionary: more than a million prefixes share a first character");
  }
  std::vector<Edge> old;
  if (tree.used > 0) old.assign(edges_.data() + tree.table, edges_.data() + tree.table + tree.size);
  const std::uint32_t old_table = tree.table;
  tree.table = static_cast<std::uint32_t>(edges_.size());
  tree.size = static_cast<std::uint32_t>(size);
  edges_.grow(size);
  if (tree.used == 0) return;
  std::vector<Node> renumbered(old.size() + 1, kNoNode);
  renumbered[0] = 0;
  const auto place = [&](const auto& self, Node node) -> Node {
    if (renumbered[node] != kNoNode) return renumbered[node];
    const Edge edge = old[node - 1];
    const Node parent = self(self, static_cast<Node>((edge & kKeyMask) >> kCharBits));
    const std::uint64_t key = (std::uint64_t{parent} << kCharBits) | (edge & ((std::uint64_t{1} << kCharBits) - 1));
    std::uint32_t slot = hash(key, tree.size);
    while (edges_[tree.table + slot] != 0) slot = (slot + 1) & (tree.size - 1);
    edges_[tree.table + slot] = key | (edge & ~kKeyMask);
    if ((edge >> kKeyBits) == kBigFrequency) {
      const auto big = big_frequencies_.extract(old_table + node - 1);
      big_frequencies_.emplace(tree.table + slot, big.mapped());
    }
    return renumbered[node] = slot + 1;
  };
  for (Node node = 1; node <= old.size(); ++node) {
    if (old[node - 1] != 0) place(place, node);
  }
}

// The child of `parent` by `c`, added (with frequency 0, a mere prefix) if new;
// reserve() has made room for it.
Dictionary::Node Dictionary::add_child(Subtree& tree, Node parent, char32_t c) {
  const std::uint64_t key = edge_key(parent, c);
  Edge* const table = edges_.data() + tree.table;
  for (std::uint32_t slot = hash(key, tree.size);;) {
    if (table[slot] == 0) {
      table[slot] = key;
      ++tree.used;
      ++size_;
      return slot + 1;
    }
    if ((table[slot] & kKeyMask) == key) return slot + 1;
    slot = (slot + 1) & (tree.size - 1);
  }
}

inline void Dictionary::set_frequency(Subtree& tree, Node node, std::uint64_t frequency) {
  if (node == 0) {
    tree.frequency = frequency;
    return;
  }
  const std::size_t slot = tree.table + node - 1;
  Edge& edge = edges_[slot];
  if (frequency < kBigFrequency && (edge >> kKeyBits) != kBigFrequency) {  // the usual case
    edge = (edge & kKeyMask) | (frequency << kKeyBits);
    return;
  }
  if ((edge >> kKeyBits) == kBigFrequency) big_frequencies_.erase(slot);
  if (frequency >= kBigFrequency) big_frequencies_[slot] = frequency;
  edge = (edge & kKeyMask) | (std::min(frequency, kBigFrequency) << kKeyBits);
}

std::uint64_t Dictionary::lookup(std::u32string_view word) const {
  if (word.empty()) return 0;
  const Subtree* tree = first(word[0]);
  if (tree == nullptr) return 0;
  std::uint64_t frequency = tree->frequency;
  Node node = 0;
  for (std::size_t i = 1; i < word.size(); ++i) {
    node = next(*tree, node, word[i], frequency);
    if (node == kNoNode) return 0;
  }
  return frequency;
}

namespace {

constexpr bool is_continuation(char byte) { return (static_cast<unsigned char>(byte) & 0xC0) == 0x80; }

// One code point of `bytes` at `at`, validated as Python's UTF-8 decoder does
// (no overlongs, surrogates or values above U+10FFFF): its length in bytes, or
// 0 if the bytes there are not valid UTF-8.
[[gnu::always_inline]] inline int decode_one(std::string_view bytes, std::size_t at, char32_t& c) {
  const auto byte = [&](std::size_t i) -> unsigned { return static_cast<unsigned char>(bytes[at + i]); };
  const auto continued = [&](std::size_t i) { return at + i < bytes.size() && is_continuation(bytes[at + i]); };
  const unsigned lead = byte(0);
  if (lead < 0x80) {
    c = lead;
    return 1;
  }
  if (lead < 0xC2) return 0;
  if (lead < 0xE0) {
    if (!continued(1)) return 0;
    c = ((lead & 0x1F) << 6) | (byte(1) & 0x3F);
    return 2;
  }
  if (lead < 0xF0) {
    if (!continued(1) || !continued(2)) return 0;
    c = ((lead & 0x0F) << 12) | ((byte(1) & 0x3F) << 6) | (byte(2) & 0x3F);
    return c < 0x800 || (c >= 0xD800 && c <= 0xDFFF) ? 0 : 3;
  }
  if (lead < 0xF5) {
    if (!continued(1) || !continued(2) || !continued(3)) return 0;
    c = ((lead & 0x07) << 18) | ((byte(1) & 0x3F) << 12) | ((byte(2) & 0x3F) << 6) | (byte(3) & 0x3F);
    return c < 0x10000 || c > 0x10FFFF ? 0 : 4;
  }
  return 0;
}

bool is_valid_utf8(std::string_view bytes) {
  char32_t c = 0;
  for (std::size_t at = 0; at < bytes.size();) {
    const int length = decode_one(bytes, at, c);
    if (length == 0) return false;
    at += static_cast<std::size_t>(length);
  }
  return true;
}

// One dictionary line: the word's bytes and its frequency.
struct Entry {
  std::string_view word;
  std::uint64_t frequency = 0;
};

// SWAR: a word with the high bit set in each byte of `x` equal to `byte`; the
// lowest flagged byte is always a true match (borrows only flag bytes above one).
constexpr std::uint64_t kOnes = 0x0101010101010101ULL, kHighs = 0x8080808080808080ULL;
constexpr std::uint64_t match_byte(std::uint64_t x, unsigned char byte) {
  x ^= kOnes * byte;
  return (x - kOnes) & ~x & kHighs;
}

std::uint64_t load8(const char* p) {
  std::uint64_t x = 0;
  std::memcpy(&x, p, 8);
  return x;  // little-endian: byte i in bits 8i..8i+7
}

// The first space or LF in [p, end), or end.
const char* find_space_or_lf(const char* p, const char* end) {
  for (; end - p >= 8; p += 8) {
    const std::uint64_t x = load8(p);
    if (const std::uint64_t m = match_byte(x, ' ') | match_byte(x, '\n'); m != 0) return p + std::countr_zero(m) / 8;
  }
  while (p < end && *p != ' ' && *p != '\n') ++p;
  return p;
}

// The first LF in [p, end), or end; `ascii` cleared if a byte before it is not ASCII.
const char* find_lf(const char* p, const char* end, bool& ascii) {
  std::uint64_t high = 0;
  for (; end - p >= 8; p += 8) {
    const std::uint64_t x = load8(p);
    if (const std::uint64_t m = match_byte(x, '\n'); m != 0) {
      const int n = std::countr_zero(m) / 8;
      high |= n == 0 ? 0 : x & (~std::uint64_t{0} >> (64 - 8 * n));
      ascii = (high & kHighs) == 0;
      return p + n;
    }
    high |= x;
  }
  for (; p < end && *p != '\n'; ++p) high |= static_cast<unsigned char>(*p);
  ascii = (high & kHighs) == 0;
  return p;
}

// The usual line, "word digits[ tag]" followed by LF or the end of the file,
// with no ASCII whitespace at either end (so strip() changes nothing), read in
// one pass from `p`: the word, its frequency and the line's end. False for any
// other line (the general parser decides). The word's own UTF-8 is checked
// while it is inserted.
bool scan_plain_line(const char* p, const char* end, Entry& entry, const char*& line_end) {
  const char* const first = p;
  if (p == end || is_ascii_space(*p)) return false;
  const char* const space = find_space_or_lf(p, end);
  if (space == end || *space != ' ') return false;
  p = space + 1;
  std::uint64_t value = 0;
  while (p < end && static_cast<unsigned>(*p - '0') < 10) value = value * 10 + static_cast<unsigned>(*p++ - '0');
  if (p == space + 1 || p - (space + 1) > 18) return false;  // 18 digits cannot overflow
  if (p < end && *p == ' ') {  // the tag: ignored by jieba, but the line must be UTF-8
    const char* const tag = p;
    bool ascii = true;
    p = find_lf(p, end, ascii);
    if (is_ascii_space(p[-1])) return false;
    if (!ascii && !is_valid_utf8(std::string_view(tag, static_cast<std::size_t>(p - tag)))) return false;
  } else if (p < end && *p != '\n') {
    return false;
  }
  entry.word = std::string_view(first, static_cast<std::size_t>(space - first));
  entry.frequency = value;
  line_end = p;
  return true;
}

// Any line, as gen_pfdict reads it: `word, freq = line.strip().decode('utf-8').split(' ')[:2]`,
// `int(freq)`. Returns false where jieba raises ValueError (the word's own UTF-8 is
// checked while it is inserted).
bool parse_general_line(std::string_view raw, Entry& entry) {
  const std::string_view line = strip_ascii(raw);
  const std::size_t space = line.find(' ');
  if (space == std::string_view::npos || !is_valid_utf8(line.substr(space))) return false;
  const std::size_t freq_end = line.find(' ', space + 1);
  entry.word = line.substr(0, space);
  return parse_frequency(line.substr(space + 1, freq_end - space - 1), entry.frequency);
}

// Length of the common prefix of `a` and `b`, eight bytes at a time.
std::size_t common_prefix(std::string_view a, std::string_view b) {
  const std::size_t limit = std::min(a.size(), b.size());
  std::size_t i = 0;
  for (; i + 8 <= limit; i += 8) {
    std::uint64_t x = 0, y = 0;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) return i + static_cast<std::size_t>(std::countr_zero(x ^ y) / 8);  // little-endian
  }
  while (i < limit && a[i] == b[i]) ++i;
  return i;
}

}  // namespace

namespace {

// Bytes of the UTF-8 sequence a lead byte starts (1 for bytes that cannot
// start one: decoding rejects them later).
std::size_t sequence_length(char lead) {
  const auto byte = static_cast<unsigned char>(lead);
  return byte < 0xC0 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4;
}

std::size_t count_characters(std::string_view bytes) {
  std::size_t count = 0;
  for (const char b : bytes) count += !is_continuation(b);
  return count;
}

// One dictionary line of a group, parsed, with what inserting it needs.
struct GroupLine {
  std::string_view word;
  std::uint64_t frequency;
  std::size_t shared;  // bytes shared with the previous word of the group, at a character boundary
  std::size_t line_number;
};

}  // namespace

Dictionary Dictionary::parse(std::string_view bytes, const std::string& name) {
  Dictionary dictionary;
  dictionary.pages_.resize(kPages);
  dictionary.edges_.reserve(bytes.size() / 4 + 16);  // dict.txt: 5.1 MB, 1.06 M slots
  dictionary.edges_.grow(1);
  const auto invalid = [&](std::size_t line_number) {
    return Error(ExitCode::input_data,
                 fmt::format("{}:{}: invalid jieba dictionary entry (want 'word frequency [tag]')", name, line_number));
  };
  std::vector<GroupLine> group;  // consecutive lines whose words start with the same character
  std::vector<Node> node_at;     // node_at[b]: node of previous word[0..b), b a character boundary
  std::size_t line_number = 0;
  for (std::size_t at = 0; at < bytes.size();) {
    // Collect the group (lines as Python iterates a binary file: up to and
    // including each LF) and an upper bound on the nodes it adds: the
    // characters past the first and past those shared with the previous word.
    group.clear();
    std::string_view lead, previous;
    std::size_t new_nodes = 0;
    bool bad_line = false;
    while (at < bytes.size()) {
      Entry entry;
      const char* line_end = nullptr;
      if (!scan_plain_line(bytes.data() + at, bytes.data() + bytes.size(), entry, line_end)) {
        const void* lf = std::memchr(bytes.data() + at, '\n', bytes.size() - at);
        line_end = lf == nullptr ? bytes.data() + bytes.size() : static_cast<const char*>(lf);
        if (!parse_general_line(std::string_view(bytes.data() + at, static_cast<std::size_t>(line_end - (bytes.data() + at))), entry)) {
          bad_line = true;  // reported once the lines before it are in (their errors come first)
          break;
        }
      }
      std::size_t shared = common_prefix(entry.word, previous);
      if (group.empty()) {
        lead = entry.word.substr(0, sequence_length(entry.word[0]));
      } else if (shared < lead.size()) {  // another first character: the next group
        break;
      }
      at = static_cast<std::size_t>(line_end - bytes.data()) + 1;
      ++line_number;
      while (shared > 0 && shared < previous.size() && is_continuation(previous[shared])) --shared;
      new_nodes += count_characters(entry.word.substr(std::max(shared, lead.size())));
      group.push_back({entry.word, entry.frequency, shared, line_number});
      previous = entry.word;
    }
    if (!group.empty()) {
      char32_t c = 0;
      if (decode_one(group[0].word, 0, c) == 0) throw invalid(group[0].line_number);
      Subtree& tree = dictionary.add_subtree(c);
      dictionary.reserve(tree, new_nodes);
      for (const GroupLine& line : group) {
        const std::string_view word = line.word;
        if (node_at.size() <= word.size()) node_at.resize(word.size() + 1);
        std::size_t b = line.shared == 0 ? lead.size() : line.shared;
        Node node = line.shared == 0 ? 0 : node_at[line.shared];
        node_at[b] = node;
        while (b < word.size()) {
          const int length = decode_one(word, b, c);
          if (length == 0) throw invalid(line.line_number);
          node = dictionary.add_child(tree, node, c);
          b += static_cast<std::size_t>(length);
          node_at[b] = node;
        }
        dictionary.set_frequency(tree, node, line.frequency);  // a later duplicate wins
        dictionary.total_ += line.frequency;
      }
    }
    if (bad_line) throw invalid(line_number + 1);
  }
  // jieba takes log(total frequency) (and fails on an empty dictionary): no word to segment by.
  if (dictionary.total_ == 0) {
    throw Error(ExitCode::input_data,
                fmt::format("{}: the jieba dictionary has no word with a frequency above 0", name));
  }
  return dictionary;
}

Dictionary Dictionary::load(const std::string& path) {
  // Mapped rather than read: no copy of the 5 MB file, no buffer growth.
  io::MappedFile file;
  if (file.open(path, io::MappedFile::Readahead::whole_file) != io::MappedFile::Status::mapped) {
    throw Error(ExitCode::missing_resource, fmt::format("{}: cannot open the jieba dictionary", path),
                kDebianPackageHint);
  }
  return parse(file.bytes(), path);
}

}  // namespace evalcli::jieba
