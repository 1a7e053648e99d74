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
// Stored as a trie whose edges live in one open-addressing hash table.
class Dictionary {
 public:
  // Reads a dict.txt-format file ("word freq [tag]" per line). Throws
  // Error(missing_resource) if it cannot be opened and Error(input_data) naming
  // file:line for a line jieba itself would reject.
  static Dictionary load(const std::string& path);
  // Same from bytes already in memory (`name` appears in errors).
  static Dictionary parse(std::string_view bytes, const std::string& name);

  static constexpr std::uint32_t kNoNode = 0xFFFFFFFF;
  static constexpr std::uint32_t kRoot = 0;

  // The node reached from `node` by code point `c`, or kNoNode.
  std::uint32_t child(std::uint32_t node, char32_t c) const;
  // FREQ[word] (0 for a prefix-only entry), meaningful for an existing node.
  std::uint64_t frequency(std::uint32_t node) const { return frequency_[node]; }
  // FREQ.get(word) or 0 when `word` is absent.
  std::uint64_t lookup(std::u32string_view word) const;
  std::uint64_t total() const { return total_; }
  std::size_t size() const { return frequency_.size() - 1; }  // entries incl. prefixes

 private:
  Dictionary();
  std::uint32_t add_child(std::uint32_t node, char32_t c);
  void grow();

  std::vector<std::uint64_t> frequency_;  // by node
  std::vector<std::uint64_t> edge_keys_;  // (parent << 21 | code point) + 1; 0 = empty slot
  std::vector<std::uint32_t> edge_nodes_;
  std::size_t edge_count_ = 0;
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
