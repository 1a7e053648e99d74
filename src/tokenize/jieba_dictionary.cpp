// jieba's prefix dictionary, built the way Tokenizer.gen_pfdict builds FREQ and
// total, but as a trie so that loading 349k entries takes milliseconds.
#include <fmt/format.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evalcli/core/error.hpp"
#include "evalcli/text/utf8.hpp"
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

Dictionary Dictionary::parse(std::string_view bytes, const std::string& name) {
  Dictionary dictionary;
  dictionary.grow_root();
  std::size_t line_number = 0;
  std::u32string word, previous;
  std::vector<Node> path;  // path[i]: node of previous[0..i]
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
    // dict.txt is nearly sorted: start from the prefix shared with the previous word.
    std::size_t shared = 0;
    while (shared < word.size() && shared < previous.size() && word[shared] == previous[shared]) ++shared;
    path.resize(shared);
    for (std::size_t i = shared; i < word.size(); ++i) {
      path.push_back(dictionary.add_child(i == 0 ? kRoot : path[i - 1], word[i]));
    }
    const Node node = path.back();
    dictionary.subtrees_[node >> 32].frequency[static_cast<std::uint32_t>(node)] = frequency;  // later duplicate wins
    dictionary.total_ += frequency;
    previous.swap(word);
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
