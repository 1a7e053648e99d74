// jieba's prefix dictionary, built the way Tokenizer.gen_pfdict builds FREQ and
// total, but as a trie so that loading 349k entries takes milliseconds.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "evalcli/core/error.hpp"
#include "evalcli/tokenize/jieba.hpp"

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

namespace {

// A table of 2^bits slots: its mask and Fibonacci-hash shift.
template <typename Slot>
void resize_table(std::vector<Slot>& slots, std::uint64_t& mask, int& shift, std::size_t size) {
  slots.assign(size, Slot{});
  mask = size - 1;
  shift = 64;
  for (std::size_t s = size; s > 1; s >>= 1) --shift;
}

}  // namespace

void Dictionary::grow(Subtree& tree) {
  std::vector<Edge> old;
  old.swap(tree.edges);
  resize_table(tree.edges, tree.mask, tree.shift, old.empty() ? 8 : old.size() * 2);
  for (const Edge edge : old) {
    if (edge == 0) continue;
    std::uint64_t slot = hash(edge >> kIdBits, tree.shift);
    while (tree.edges[slot] != 0) slot = (slot + 1) & tree.mask;
    tree.edges[slot] = edge;
  }
}

void Dictionary::grow_root() {
  std::vector<RootSlot> old;
  old.swap(root_);
  resize_table(root_, root_mask_, root_shift_, old.empty() ? 1024 : old.size() * 2);
  for (const RootSlot& entry : old) {
    if (entry.key == 0) continue;
    std::uint64_t slot = hash(entry.key, root_shift_);
    while (root_[slot].key != 0) slot = (slot + 1) & root_mask_;
    root_[slot] = entry;
  }
}

std::uint32_t Dictionary::add_subtree(char32_t c) {
  if (const std::uint32_t existing = find_subtree(c); existing != kNone) return existing;
  if ((subtrees_.size() + 1) * 2 > root_.size()) grow_root();
  const std::uint64_t key = std::uint64_t{c} + 1;
  std::uint64_t slot = hash(key, root_shift_);
  while (root_[slot].key != 0) slot = (slot + 1) & root_mask_;
  root_[slot] = {static_cast<char32_t>(key), static_cast<std::uint32_t>(subtrees_.size())};
  subtrees_.emplace_back();
  subtrees_.back().frequency.push_back(0);  // a new prefix: FREQ[c] = 0
  ++size_;
  return static_cast<std::uint32_t>(subtrees_.size() - 1);
}

Dictionary::Node Dictionary::add_child(Node node, char32_t c) {
  if (node == kRoot) return Node{add_subtree(c)} << 32;
  Subtree& tree = subtrees_[node >> 32];
  if (tree.frequency.size() * 4 > tree.edges.size() * 3) grow(tree);  // edges = ids - 1
  const std::uint64_t key = edge_key(static_cast<std::uint32_t>(node), c);
  std::uint64_t slot = hash(key, tree.shift);
  for (; tree.edges[slot] != 0; slot = (slot + 1) & tree.mask) {
    if ((tree.edges[slot] >> kIdBits) == key) return (node & ~Node{0xFFFFFFFF}) | (tree.edges[slot] & kIdMask);
  }
  const std::uint64_t id = tree.frequency.size();
  if (id > kIdMask) {
    throw Error(ExitCode::input_data, "jieba dictionary: more than 2 million prefixes share a first character");
  }
  tree.edges[slot] = key << kIdBits | id;
  tree.frequency.push_back(0);  // a new prefix: FREQ[wfrag] = 0
  ++size_;
  return (node & ~Node{0xFFFFFFFF}) | id;
}

std::uint64_t Dictionary::lookup(std::u32string_view word) const {
  if (word.empty()) return 0;
  Node node = kRoot;
  for (char32_t c : word) {
    node = child(node, c);
    if (node == kNoNode) return 0;
  }
  return frequency(node);
}

namespace {

constexpr bool is_continuation(char byte) { return (static_cast<unsigned char>(byte) & 0xC0) == 0x80; }

// One code point of `bytes` at `at`, validated as Python's UTF-8 decoder does
// (no overlongs, surrogates or values above U+10FFFF): its length in bytes, or
// 0 if the bytes there are not valid UTF-8.
int decode_one(std::string_view bytes, std::size_t at, char32_t& c) {
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

// The usual line, "word digits[ tag]" (`line`: without its LF, no ASCII
// whitespace at either end, so strip() changes nothing): the word and its
// frequency, or false for any other line (the general parser decides). The
// word's own UTF-8 is checked while it is inserted.
bool parse_plain_line(std::string_view line, Entry& entry) {
  if (line.empty() || is_ascii_space(line.front()) || is_ascii_space(line.back())) return false;
  const char* const first = line.data();
  const char* const last = first + line.size();
  const char* space = static_cast<const char*>(std::memchr(first, ' ', line.size()));
  if (space == nullptr || space == first) return false;
  const char* p = space + 1;
  std::uint64_t value = 0;
  while (p < last && static_cast<unsigned>(*p - '0') < 10) value = value * 10 + static_cast<unsigned>(*p++ - '0');
  if (p == space + 1 || p - (space + 1) > 18) return false;  // 18 digits cannot overflow
  if (p < last) {  // the tag: ignored by jieba, but the line must be UTF-8
    if (*p != ' ') return false;
    bool ascii = true;
    for (const char* t = p; t < last; ++t) ascii &= static_cast<unsigned char>(*t) < 0x80;
    if (!ascii && !is_valid_utf8(std::string_view(p, static_cast<std::size_t>(last - p)))) return false;
  }
  entry.word = std::string_view(first, static_cast<std::size_t>(space - first));
  entry.frequency = value;
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

Dictionary Dictionary::parse(std::string_view bytes, const std::string& name) {
  Dictionary dictionary;
  dictionary.grow_root();
  std::size_t line_number = 0;
  std::string_view previous;  // the previous line's word (bytes of the mapped file)
  std::vector<Node> node_at;  // node_at[b]: node of previous[0..b), b a character boundary
  const auto invalid = [&] {
    return Error(ExitCode::input_data,
                 fmt::format("{}:{}: invalid jieba dictionary entry (want 'word frequency [tag]')", name, line_number));
  };
  Entry entry;
  for (std::size_t at = 0; at < bytes.size();) {
    ++line_number;
    // Lines as Python iterates a binary file: up to and including each LF.
    const void* lf = std::memchr(bytes.data() + at, '\n', bytes.size() - at);
    const std::size_t line_end =
        lf == nullptr ? bytes.size() : static_cast<std::size_t>(static_cast<const char*>(lf) - bytes.data());
    const std::string_view line = bytes.substr(at, line_end - at);
    at = line_end + 1;
    if (!parse_plain_line(line, entry) && !parse_general_line(line, entry)) throw invalid();
    const std::string_view word = entry.word;
    // dict.txt is nearly sorted: start from the bytes shared with the previous
    // word, backed off to a character boundary of the previous (valid) word; the
    // rest of this word is decoded, and so checked, below.
    std::size_t shared = common_prefix(word, previous);
    while (shared > 0 && shared < previous.size() && is_continuation(previous[shared])) --shared;
    if (node_at.size() <= word.size()) node_at.resize(word.size() + 1);
    Node node = shared == 0 ? kRoot : node_at[shared];
    char32_t c = 0;
    for (std::size_t b = shared; b < word.size();) {
      const int length = decode_one(word, b, c);
      if (length == 0) throw invalid();
      node = dictionary.add_child(node, c);
      b += static_cast<std::size_t>(length);
      node_at[b] = node;
    }
    dictionary.subtrees_[node >> 32].frequency[static_cast<std::uint32_t>(node)] = entry.frequency;  // later duplicate wins
    dictionary.total_ += entry.frequency;
    previous = word;
  }
  return dictionary;
}

Dictionary Dictionary::load(const std::string& path) {
  // Mapped rather than read: no copy of the 5 MB file, no buffer growth.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat info {};
  if (fd < 0 || ::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    if (fd >= 0) ::close(fd);
    throw Error(ExitCode::missing_resource, fmt::format("{}: cannot open the jieba dictionary", path),
                kDebianPackageHint);
  }
  const auto size = static_cast<std::size_t>(info.st_size);
  if (size == 0) {
    ::close(fd);
    return parse({}, path);
  }
  void* mapped = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  ::close(fd);
  if (mapped == MAP_FAILED) {
    throw Error(ExitCode::missing_resource, fmt::format("{}: cannot read the jieba dictionary", path));
  }
  struct Unmap {
    void* address;
    std::size_t size;
    ~Unmap() { ::munmap(address, size); }
  } unmap{mapped, size};
  return parse(std::string_view(static_cast<const char*>(mapped), size), path);
}

}  // namespace evalcli::jieba
