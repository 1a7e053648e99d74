#pragma once
// A re-implementation of jieba 0.42.1's default segmentation (`jieba.cut`,
// accurate mode, with or without HMM) over its own data files, read at run
// time from Debian's python3-jieba (docs/segmentation.md). Nothing of jieba's
// data is compiled in.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "evalcli/core/huge_pages.hpp"

namespace evalcli::jieba {

// Where Debian's python3-jieba keeps jieba (dict.txt, finalseg/prob_*.py, __init__.py).
inline constexpr const char* kDebianJiebaDir = "/usr/lib/python3/dist-packages/jieba";
inline constexpr const char* kDebianPackageHint = "hint: install the Debian package python3-jieba";

// A growable array of 64-bit words that start at zero, always in its own
// anonymous mapping (memory::ZeroedBuffer of whole 2 MiB pages): fresh pages
// are zero already (no memset), growth is an mremap (no copy), and the kernel
// may back it with 2 MB pages, which spares most of the ~2,000 page faults
// that filling jieba's 8.5 MB slot array would take.
class ZeroedArray {
 public:
  ZeroedArray() = default;
  ZeroedArray(ZeroedArray&& other) noexcept { swap(other); }
  ZeroedArray& operator=(ZeroedArray&& other) noexcept {
    swap(other);
    return *this;
  }

  std::uint64_t* data() { return static_cast<std::uint64_t*>(buffer_.data()); }
  const std::uint64_t* data() const { return static_cast<const std::uint64_t*>(buffer_.data()); }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return buffer_.size() / sizeof(std::uint64_t); }
  std::uint64_t& operator[](std::size_t i) { return data()[i]; }
  // Room for `capacity` words without moving.
  void reserve(std::size_t capacity);
  // Appends `count` zero words.
  void grow(std::size_t count) {
    if (size_ + count > capacity()) reserve(std::max(size_ + count, capacity() * 2));
    size_ += count;
  }

 private:
  void swap(ZeroedArray& other) noexcept {
    std::swap(buffer_, other.buffer_);
    std::swap(size_, other.size_);
  }
  memory::ZeroedBuffer buffer_;
  std::size_t size_ = 0;
};

// jieba's prefix dictionary (Tokenizer.gen_pfdict): every word with its
// frequency, every prefix of a word present with frequency 0 unless it is a
// word itself, and the sum of all frequency fields (duplicates included).
//
// Stored as a trie split by first character. The first character indexes a
// two-level table of subtrees; each subtree keeps its nodes in one
// open-addressing table, a slice of a single array shared by all subtrees.
// A node is its slot (+1; 0 is the first character itself), and the slot holds
// the edge (parent node, character) and the node's frequency in 8 bytes, so a
// step of the DAG walk reads one slot. dict.txt is grouped by first character
// and nearly sorted: each group's table is sized once, from an upper bound on
// its new nodes (the characters past the prefix shared with the previous word),
// and is filled while it stays in cache (docs/segmentation.md).
class Dictionary {
 public:
  // Reads a dict.txt-format file ("word freq [tag]" per line). Throws
  // Error(missing_resource) if it cannot be opened and Error(input_data) naming
  // file:line for a line jieba itself would reject.
  static Dictionary load(const std::string& path);
  // Same from bytes already in memory (`name` appears in errors).
  static Dictionary parse(std::string_view bytes, const std::string& name);

  // The words starting with one character.
  struct Subtree {
    std::uint64_t frequency = 0;  // FREQ[c]
    std::uint32_t table = 0;      // first slot in edges_; 0 = no word starts with c
    std::uint32_t size = 0;       // slots: a power of two, always more than the nodes in it
    std::uint32_t used = 0;       // nodes (other than c itself)
  };
  // A node within a subtree: 0 is the first character, n > 0 the node in slot n - 1.
  using Node = std::uint32_t;
  static constexpr Node kNoNode = ~Node{0};

  // The subtree of the words starting with `c`, or null if `c` is not in FREQ.
  const Subtree* first(char32_t c) const {
    if (c >= kPages * kPageSize) return nullptr;
    const auto& page = pages_[c / kPageSize];
    if (!page) return nullptr;
    const Subtree& tree = page[c % kPageSize];
    return tree.table == 0 ? nullptr : &tree;
  }
  // The node reached from `parent` by `c` and its FREQ, or kNoNode.
  Node next(const Subtree& tree, Node parent, char32_t c, std::uint64_t& frequency) const {
    const std::uint64_t key = edge_key(parent, c);
    const Edge* table = edges_.data() + tree.table;
    for (std::uint32_t slot = hash(key, tree.size);;) {
      const Edge edge = table[slot];
      if ((edge & kKeyMask) == key) {
        frequency = edge >> kKeyBits;
        if (frequency == kBigFrequency) frequency = big_frequency(tree.table + slot);
        return slot + 1;
      }
      if (edge == 0) return kNoNode;
      slot = (slot + 1) & (tree.size - 1);
    }
  }
  // FREQ.get(word) or 0 when `word` is absent.
  std::uint64_t lookup(std::u32string_view word) const;
  std::uint64_t total() const { return total_; }
  std::size_t size() const { return size_; }  // entries incl. prefixes (len(FREQ))

 private:
  // A slot: bits 0-20 c + 1 (0 = empty slot), 21-42 the parent node, 43-63 the
  // frequency, or kBigFrequency if it is kept in big_frequencies_ instead.
  using Edge = std::uint64_t;
  static constexpr int kCharBits = 21, kNodeBits = 22, kKeyBits = kCharBits + kNodeBits;
  static constexpr std::uint64_t kKeyMask = (std::uint64_t{1} << kKeyBits) - 1;
  static constexpr std::uint64_t kBigFrequency = (std::uint64_t{1} << (64 - kKeyBits)) - 1;
  static constexpr std::uint32_t kMaxSlots = (std::uint32_t{1} << kNodeBits) - 2;  // nodes fit kNodeBits
  static constexpr std::uint32_t kPageSize = 256, kPages = 0x110000 / kPageSize;

  static std::uint64_t edge_key(Node parent, char32_t c) {
    return (std::uint64_t{parent} << kCharBits) | (std::uint64_t{c} + 1);
  }
  // Fibonacci hashing onto a power-of-two table (a mask is shorter on the
  // dependency chain of a walk than a range reduction by multiplication).
  static std::uint32_t hash(std::uint64_t key, std::uint32_t size) {
    return static_cast<std::uint32_t>((key * 0x9E3779B97F4A7C15ULL) >> 32) & (size - 1);
  }
  std::uint64_t big_frequency(std::size_t slot) const;

  Subtree& add_subtree(char32_t c);
  void reserve(Subtree& tree, std::size_t new_nodes);
  Node add_child(Subtree& tree, Node parent, char32_t c);
  void set_frequency(Subtree& tree, Node node, std::uint64_t frequency);

  std::vector<std::unique_ptr<Subtree[]>> pages_;  // by c / kPageSize, allocated when used
  ZeroedArray edges_;  // all subtrees' tables; edges_[0] unused so that table 0 means none
  std::unordered_map<std::size_t, std::uint64_t> big_frequencies_;  // by slot in edges_; rare
  std::size_t size_ = 0;
  std::uint64_t total_ = 0;
};

// finalseg's HMM (states B, M, E, S): start, transition and emission log
// probabilities as in prob_start.py / prob_trans.py / prob_emit.py.
class HmmModel {
 public:
  // Reads the three Python-literal tables from `finalseg_dir`. Throws
  // Error(missing_resource) if a file is missing, Error(input_data) if unparsable.
  static HmmModel load(const std::string& finalseg_dir);

  enum State : int { B = 0, M = 1, E = 2, S = 3 };
  static constexpr double kMinFloat = -3.14e100;  // finalseg.MIN_FLOAT

  double start(int state) const { return start_[state]; }
  double trans(int from, int to) const { return trans_[from][to]; }
  // emit_p[state].get(c, MIN_FLOAT); only Han characters U+4E00..U+9FD5 ever reach it.
  double emit(int state, char32_t c) const {
    if (c < kFirstHan || c > kLastHan) return kMinFloat;
    return std::bit_cast<double>(emit_.data()[4 * (c - kFirstHan) + state] ^ min_float_bits());
  }

 private:
  static constexpr char32_t kFirstHan = 0x4E00, kLastHan = 0x9FD5;
  std::array<double, 4> start_{};
  std::array<std::array<double, 4>, 4> trans_{};
  // emit_[4 * (c - kFirstHan) + state]: the double's bits XOR kMinFloat's, so
  // that the zero words of a fresh array read as MIN_FLOAT (no fill, no faults
  // for the characters prob_emit.py lacks).
  ZeroedArray emit_;
  static std::uint64_t min_float_bits() { return std::bit_cast<std::uint64_t>(kMinFloat); }
};

// A token is the half-open code point range [first, second) of the sentence.
using Span = std::pair<std::size_t, std::size_t>;

// jieba.cut(sentence, cut_all=False, HMM=hmm) as spans; whitespace tokens
// (which jieba yields) are left out. `hmm_model` may be null when !hmm.
void cut(std::u32string_view sentence, const Dictionary& dictionary, const HmmModel* hmm_model,
         std::vector<Span>& tokens);

// finalseg.cut(text) alone (the HMM segmentation of an unknown run), as spans.
void hmm_cut(std::u32string_view text, const HmmModel& model, std::size_t offset, std::vector<Span>& tokens);

}  // namespace evalcli::jieba
