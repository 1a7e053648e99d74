#pragma once
// A re-implementation of jieba 0.42.1's default segmentation (`jieba.cut`,
// accurate mode, with or without HMM) over its own data files, read at run
// time from Debian's python3-jieba (docs/segmentation.md). Nothing of jieba's
// data is compiled in.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace evalcli::jieba {

// Where Debian's python3-jieba keeps jieba (dict.txt, finalseg/prob_*.py, __init__.py).
inline constexpr const char* kDebianJiebaDir = "/usr/lib/python3/dist-packages/jieba";
inline constexpr const char* kDebianPackageHint = "hint: install the Debian package python3-jieba";

// jieba's prefix dictionary (Tokenizer.gen_pfdict): every word with its
// frequency, every prefix of a word present with frequency 0 unless it is a
// word itself, and the sum of all frequency fields (duplicates included).
//
// Stored as a trie split by first character: a small hash table maps a first
// character to its subtree, and each subtree keeps its edges in its own small
// open-addressing table. dict.txt is grouped by first character, so while
// loading (and while segmenting) the table in use stays in cache: loading the
// 349k entries takes a few tens of milliseconds.
class Dictionary {
 public:
  // Reads a dict.txt-format file ("word freq [tag]" per line). Throws
  // Error(missing_resource) if it cannot be opened and Error(input_data) naming
  // file:line for a line jieba itself would reject.
  static Dictionary load(const std::string& path);
  // Same from bytes already in memory (`name` appears in errors).
  static Dictionary parse(std::string_view bytes, const std::string& name);

  // A node is (subtree << 32 | id within the subtree); id 0 is the first character.
  using Node = std::uint64_t;
  static constexpr Node kNoNode = ~Node{0};
  static constexpr Node kRoot = ~Node{0} - 1;

  // The node reached from `node` by code point `c`, or kNoNode.
  Node child(Node node, char32_t c) const {
    if (node == kRoot) {
      const std::uint32_t subtree = find_subtree(c);
      return subtree == kNone ? kNoNode : Node{subtree} << 32;
    }
    const Subtree& tree = subtrees_[node >> 32];
    if (tree.edges.empty()) return kNoNode;
    const std::uint64_t key = edge_key(static_cast<std::uint32_t>(node), c);
    for (std::uint64_t slot = hash(key, tree.shift);; slot = (slot + 1) & tree.mask) {
      const Edge edge = tree.edges[slot];
      if ((edge >> kIdBits) == key) return (node & ~Node{0xFFFFFFFF}) | (edge & kIdMask);
      if (edge == 0) return kNoNode;
    }
  }
  // FREQ[word] (0 for a prefix-only entry) of an existing node.
  std::uint64_t frequency(Node node) const {
    return subtrees_[node >> 32].frequency[static_cast<std::uint32_t>(node)];
  }
  // FREQ.get(word) or 0 when `word` is absent.
  std::uint64_t lookup(std::u32string_view word) const;
  std::uint64_t total() const { return total_; }
  std::size_t size() const { return size_; }  // entries incl. prefixes (len(FREQ))

 private:
  static constexpr std::uint32_t kNone = 0xFFFFFFFF;
  // An edge is edge_key(parent id, c) << kIdBits | child id; 0 = empty slot.
  using Edge = std::uint64_t;
  static constexpr int kIdBits = 21;  // ids within a subtree (2M nodes per first character)
  static constexpr std::uint64_t kIdMask = (std::uint64_t{1} << kIdBits) - 1;
  struct Subtree {
    std::vector<Edge> edges;  // power-of-two size, load factor <= 3/4
    std::vector<std::uint64_t> frequency;  // by id
    std::uint64_t mask = 0;
    int shift = 64;
  };
  struct RootSlot {
    char32_t key = 0;  // code point + 1; 0 = empty
    std::uint32_t subtree = 0;
  };

  static std::uint64_t edge_key(std::uint32_t parent, char32_t c) {
    return ((std::uint64_t{parent} << 21) | c) + 1;  // < 2^42
  }
  static std::uint64_t hash(std::uint64_t key, int shift) { return (key * 0x9E3779B97F4A7C15ULL) >> shift; }

  std::uint32_t find_subtree(char32_t c) const {
    const std::uint64_t key = std::uint64_t{c} + 1;
    for (std::uint64_t slot = hash(key, root_shift_);; slot = (slot + 1) & root_mask_) {
      if (root_[slot].key == key) return root_[slot].subtree;
      if (root_[slot].key == 0) return kNone;
    }
  }
  Node add_child(Node node, char32_t c);
  std::uint32_t add_subtree(char32_t c);
  static void grow(Subtree& tree);
  void grow_root();

  std::vector<RootSlot> root_;
  std::uint64_t root_mask_ = 0;
  int root_shift_ = 64;
  std::vector<Subtree> subtrees_;
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
  double emit(int state, char32_t c) const;

 private:
  static constexpr char32_t kFirstHan = 0x4E00, kLastHan = 0x9FD5;
  std::array<double, 4> start_{};
  std::array<std::array<double, 4>, 4> trans_{};
  std::vector<std::array<double, 4>> emit_;  // by c - kFirstHan
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
