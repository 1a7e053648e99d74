// The counting pieces both ROUGE modes share: n-gram overlap, LCS length,
// the LCS path marking both reference tools use, and union-LCS hits.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_map>

#include "evalcli/core/detail/target_clones.hpp"
#include "evalcli/metrics/rouge.hpp"

namespace evalcli {
namespace {

std::unordered_map<std::string, int> count_ngrams(const TokenIds& tokens, int n) {
  std::unordered_map<std::string, int> counts;
  if (static_cast<int>(tokens.size()) < n) return counts;
  counts.reserve(tokens.size());
  std::string key(static_cast<std::size_t>(n) * sizeof(int), '\0');
  for (std::size_t i = 0; i + n <= tokens.size(); ++i) {
    std::copy_n(reinterpret_cast<const char*>(&tokens[i]), key.size(), key.data());
    ++counts[key];
  }
  return counts;
}

// A DP cell of the plain LCS (length) and of ROUGE-1.5.5's weighted LCS
// (weighted length, and the length of the run of matches ending here).
struct LcsCell {
  int length = 0;
  double value() const { return length; }
};
struct WlcsCell {
  double weighted = 0;
  int run = 0;
  double value() const { return weighted; }
};

struct LcsStep {
  LcsCell diagonal(const LcsCell& d) const { return {d.length + 1}; }
  LcsCell carry(const LcsCell& c) const { return c; }
};
struct WlcsStep {
  double weight;
  WlcsCell diagonal(const WlcsCell& d) const {
    // As ROUGE-1.5.5: c + f(k+1) - f(k), evaluated left to right.
    return {d.weighted + std::pow(d.run + 1, weight) - std::pow(d.run, weight), d.run + 1};
  }
  WlcsCell carry(const WlcsCell& c) const { return {c.weighted, 0}; }
};

// Row i of the DP from row i-1: a match goes diagonal, else up when
// up >= left, else left (the tie-break both reference tools use).
template <class Cell, class Step>
void compute_row(const Cell* previous, Cell* current, int model_token, const TokenIds& peer, const Step& step) {
  current[0] = Cell{};
  for (std::size_t j = 1; j <= peer.size(); ++j) {
    if (model_token == peer[j - 1]) {
      current[j] = step.diagonal(previous[j - 1]);
    } else if (previous[j].value() >= current[j - 1].value()) {
      current[j] = step.carry(previous[j]);
    } else {
      current[j] = step.carry(current[j - 1]);
    }
  }
}

// Walks the path back from (i, j) while i > stop_row, marking matched model
// positions. `row(r)` returns row r of the table (rows stop_row..i present).
template <class Cell, class RowAt>
void backtrack(const TokenIds& model, const TokenIds& peer, std::size_t& i, std::size_t& j, std::size_t stop_row,
               RowAt row, std::vector<char>& mask) {
  while (i > stop_row && j > 0) {
    if (model[i - 1] == peer[j - 1]) {
      mask[i - 1] = 1;
      --i;
      --j;
    } else if (row(i - 1)[j].value() >= row(i)[j - 1].value()) {
      --i;
    } else {
      --j;
    }
  }
}

// Marks the path with memory O((m/K + K) * n): rows every K are kept from a
// first pass, then each block of K rows is recomputed while walking back.
template <class Cell, class Step>
void mark_path(const TokenIds& model, const TokenIds& peer, const Step& step, std::vector<char>& mask) {
  const std::size_t m = model.size(), n = peer.size();
  if (m == 0 || n == 0) return;
  const std::size_t width = n + 1;
  constexpr std::size_t kFullTableCells = std::size_t{1} << 20;
  if ((m + 1) * width <= kFullTableCells) {
    thread_local std::vector<Cell> table;  // reused: every cell read is written first
    if (table.size() < (m + 1) * width) table.resize((m + 1) * width);
    std::fill_n(table.begin(), width, Cell{});
    for (std::size_t i = 1; i <= m; ++i) compute_row(&table[(i - 1) * width], &table[i * width], model[i - 1], peer, step);
    std::size_t i = m, j = n;
    backtrack<Cell>(model, peer, i, j, 0, [&](std::size_t r) { return &table[r * width]; }, mask);
    return;
  }
  const std::size_t block = std::max<std::size_t>(32, static_cast<std::size_t>(std::sqrt(static_cast<double>(m))));
  std::vector<Cell> checkpoints((m / block + 1) * width);  // row b*block at index b
  {
    std::vector<Cell> previous(width), current(width);
    for (std::size_t i = 1; i <= m; ++i) {
      compute_row(previous.data(), current.data(), model[i - 1], peer, step);
      if (i % block == 0) std::copy(current.begin(), current.end(), checkpoints.begin() + (i / block) * width);
      std::swap(previous, current);
    }
  }
  std::vector<Cell> rows((block + 1) * width);
  std::size_t i = m, j = n;
  while (i > 0 && j > 0) {
    const std::size_t first = ((i - 1) / block) * block;  // block holds rows first..i
    std::copy_n(checkpoints.begin() + (first / block) * width, width, rows.begin());
    for (std::size_t r = first + 1; r <= i; ++r) {
      compute_row(&rows[(r - 1 - first) * width], &rows[(r - first) * width], model[r - 1], peer, step);
    }
    backtrack<Cell>(model, peer, i, j, first, [&](std::size_t r) { return &rows[(r - first) * width]; }, mask);
  }
}

}  // namespace

long ngram_overlap(const TokenIds& a, const TokenIds& b, int n) {
  const auto counts_a = count_ngrams(a, n);
  if (counts_a.empty()) return 0;
  const auto counts_b = count_ngrams(b, n);
  long overlap = 0;
  for (const auto& [gram, count] : counts_b) {
    const auto it = counts_a.find(gram);
    if (it != counts_a.end()) overlap += std::min(count, it->second);
  }
  return overlap;
}

long ngram_overlap(const TokenIds& a, const TokenIds& b, int n, std::size_t vocabulary) {
  // Flat count arrays indexed by id (n = 1) or id pair (n = 2); they are
  // zero between calls (entries touched are reset at the end).
  constexpr std::size_t kMaxCells = std::size_t{1} << 22;
  const std::size_t cells = n == 1 ? vocabulary : vocabulary * vocabulary;
  if (n > 2 || cells > kMaxCells) return ngram_overlap(a, b, n);
  thread_local std::vector<int> counts;
  if (counts.size() < cells) counts.resize(cells, 0);
  auto key = [&](const TokenIds& t, std::size_t i) {
    const auto first = static_cast<std::size_t>(t[i]);
    return n == 1 ? first : first * vocabulary + static_cast<std::size_t>(t[i + 1]);
  };
  const std::size_t grams_a = a.size() >= static_cast<std::size_t>(n) ? a.size() - n + 1 : 0;
  const std::size_t grams_b = b.size() >= static_cast<std::size_t>(n) ? b.size() - n + 1 : 0;
  for (std::size_t i = 0; i < grams_a; ++i) ++counts[key(a, i)];
  long overlap = 0;
  // Each gram of b is a hit while a still has an unused copy of it.
  for (std::size_t i = 0; i < grams_b; ++i) {
    int& c = counts[key(b, i)];
    if (c > 0) {
      --c;
      ++overlap;
    }
  }
  for (std::size_t i = 0; i < grams_a; ++i) counts[key(a, i)] = 0;
  return overlap;
}

namespace {

// Bit-parallel LCS length (Crochemore et al. 2001): bit j of V is 0 where
// the LCS grows along the shorter sequence; per token of the longer one
// V' = (V + (V & M)) | (V & ~M), M = positions of that token. Needs ids
// below `alphabet` (match masks are a flat table).
std::size_t lcs_length_bits(const TokenIds& shorter, const TokenIds& longer, std::size_t alphabet) {
  const std::size_t words = (shorter.size() + 63) / 64;
  thread_local std::vector<std::uint64_t> masks;
  if (masks.size() < alphabet * words) masks.resize(alphabet * words, 0);
  for (std::size_t j = 0; j < shorter.size(); ++j) {
    masks[static_cast<std::size_t>(shorter[j]) * words + j / 64] |= std::uint64_t{1} << (j % 64);
  }
  thread_local std::vector<std::uint64_t> v;
  v.assign(words, ~std::uint64_t{0});
  for (int token : longer) {
    const std::uint64_t* m = &masks[static_cast<std::size_t>(token) * words];
    std::uint64_t carry = 0;
    for (std::size_t w = 0; w < words; ++w) {
      const std::uint64_t u = v[w] & m[w];
      const std::uint64_t sum = v[w] + u + carry;
      carry = (sum < v[w] || (carry != 0 && sum == v[w])) ? 1 : 0;
      v[w] = sum | (v[w] & ~m[w]);
    }
  }
  std::size_t zeros = 0;
  for (std::size_t j = 0; j < shorter.size(); ++j) zeros += (v[j / 64] >> (j % 64) & 1) == 0 ? 1 : 0;
  for (int token : shorter) {
    std::fill_n(masks.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(token) * words),
                static_cast<std::ptrdiff_t>(words), 0);
  }
  return zeros;
}

}  // namespace

std::size_t lcs_length(const TokenIds& a, const TokenIds& b) {
  if (a.empty() || b.empty()) return 0;
  {
    const TokenIds& shorter = a.size() < b.size() ? a : b;
    const TokenIds& longer = a.size() < b.size() ? b : a;
    int lowest = 0, highest = 0;
    for (const auto* side : {&a, &b}) {
      for (int t : *side) {
        lowest = std::min(lowest, t);
        highest = std::max(highest, t);
      }
    }
    const std::size_t words = (shorter.size() + 63) / 64;
    const auto alphabet = static_cast<std::size_t>(highest) + 1;
    if (lowest >= 0 && alphabet * words <= (std::size_t{1} << 22)) return lcs_length_bits(shorter, longer, alphabet);
  }
  const TokenIds& shorter = a.size() < b.size() ? a : b;
  const TokenIds& longer = a.size() < b.size() ? b : a;
  std::vector<int> row(shorter.size() + 1, 0);
  for (int token : longer) {
    int diagonal = 0;  // row[j-1] of the previous row
    for (std::size_t j = 1; j <= shorter.size(); ++j) {
      const int up = row[j];
      row[j] = token == shorter[j - 1] ? diagonal + 1 : std::max(up, row[j - 1]);
      diagonal = up;
    }
  }
  return static_cast<std::size_t>(row.back());
}

namespace {

// mark_lcs with bit-parallel rows: row i of the DP is a bit vector over the
// peer positions (see lcs_length_bits) and t[i][j] = j - popcount(first j
// bits), so the walk back reads the exact table values from m * n/64 words.
// False when the ids do not suit flat mask tables (then the plain DP runs).
// The LCS table's value t[i][j] from row i's bits (see mark_lcs_bits).
[[gnu::always_inline]] inline std::size_t lcs_table_value(const std::uint64_t* rows, std::size_t words, std::size_t i,
                                                          std::size_t j) {
  const std::uint64_t* row = &rows[i * words];
  std::size_t ones = 0;
  for (std::size_t w = 0; w < j / 64; ++w) ones += static_cast<std::size_t>(__builtin_popcountll(row[w]));
  if (j % 64 != 0) ones += static_cast<std::size_t>(__builtin_popcountll(row[j / 64] & ((std::uint64_t{1} << (j % 64)) - 1)));
  return j - ones;
}

// mark_lcs_bits' walk back from (m, n), marking the model tokens on the path.
// Compiled twice, one picked when the program loads: with the POPCNT
// instruction where the processor has it (x86-64's baseline counts bits in a
// library call of a dozen instructions), else without.
EVALCLI_CLONES_FOR_POPCNT void walk_back_bits(const TokenIds& model, const TokenIds& peer, const std::uint64_t* rows,
                                              std::size_t words, std::vector<char>& mask) {
  std::size_t i = model.size(), j = peer.size();
  while (i > 0 && j > 0) {
    if (model[i - 1] == peer[j - 1]) {
      mask[i - 1] = 1;
      --i;
      --j;
    } else if (lcs_table_value(rows, words, i - 1, j) >= lcs_table_value(rows, words, i, j - 1)) {
      --i;
    } else {
      --j;
    }
  }
}

bool mark_lcs_bits(const TokenIds& model, const TokenIds& peer, std::vector<char>& mask) {
  const std::size_t m = model.size(), n = peer.size();
  const std::size_t words = (n + 63) / 64;
  int lowest = 0, highest = 0;
  for (const auto* side : {&model, &peer}) {
    for (int t : *side) {
      lowest = std::min(lowest, t);
      highest = std::max(highest, t);
    }
  }
  const auto alphabet = static_cast<std::size_t>(highest) + 1;
  constexpr std::size_t kMaxWords = std::size_t{1} << 22;
  if (lowest < 0 || alphabet * words > kMaxWords || (m + 1) * words > kMaxWords) return false;

  thread_local std::vector<std::uint64_t> masks, rows;
  if (masks.size() < alphabet * words) masks.resize(alphabet * words, 0);
  for (std::size_t j = 0; j < n; ++j) {
    masks[static_cast<std::size_t>(peer[j]) * words + j / 64] |= std::uint64_t{1} << (j % 64);
  }
  if (rows.size() < (m + 1) * words) rows.resize((m + 1) * words);
  std::fill_n(rows.begin(), words, ~std::uint64_t{0});
  for (std::size_t i = 1; i <= m; ++i) {
    const std::uint64_t* v = &rows[(i - 1) * words];
    std::uint64_t* next = &rows[i * words];
    const std::uint64_t* match = &masks[static_cast<std::size_t>(model[i - 1]) * words];
    std::uint64_t carry = 0;
    for (std::size_t w = 0; w < words; ++w) {
      const std::uint64_t u = v[w] & match[w];
      const std::uint64_t sum = v[w] + u + carry;
      carry = (sum < v[w] || (carry != 0 && sum == v[w])) ? 1 : 0;
      next[w] = sum | (v[w] & ~match[w]);
    }
  }
  for (int token : peer) {
    std::fill_n(masks.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(token) * words),
                static_cast<std::ptrdiff_t>(words), 0);
  }
  walk_back_bits(model, peer, rows.data(), words, mask);
  return true;
}

}  // namespace

void mark_lcs(const TokenIds& model, const TokenIds& peer, std::vector<char>& mask) {
  if (model.empty() || peer.empty()) return;
  if (mark_lcs_bits(model, peer, mask)) return;
  mark_path<LcsCell>(model, peer, LcsStep{}, mask);
}

// The plain DP walk, for tests of the bit-parallel one.
void mark_lcs_plain(const TokenIds& model, const TokenIds& peer, std::vector<char>& mask) {
  mark_path<LcsCell>(model, peer, LcsStep{}, mask);
}

void mark_wlcs(const TokenIds& model, const TokenIds& peer, double weight, std::vector<char>& mask) {
  mark_path<WlcsCell>(model, peer, WlcsStep{weight}, mask);
}

long union_lcs_hits(std::span<const TokenIds> model, std::span<const TokenIds> peer) {
  int max_id = -1;
  for (const auto* side : {&model, &peer}) {
    for (const auto& sentence : *side) {
      for (int t : sentence) max_id = std::max(max_id, t);
    }
  }
  // Per thread, so that a pair allocates nothing once they have grown.
  thread_local std::vector<int> model_counts, peer_counts;
  thread_local std::vector<char> mask;
  model_counts.assign(static_cast<std::size_t>(max_id + 1), 0);
  peer_counts.assign(static_cast<std::size_t>(max_id + 1), 0);
  for (const auto& s : model) {
    for (int t : s) ++model_counts[t];
  }
  for (const auto& s : peer) {
    for (int t : s) ++peer_counts[t];
  }
  long hits = 0;
  for (const auto& sentence : model) {
    mask.assign(sentence.size(), 0);
    for (const auto& peer_sentence : peer) mark_lcs(sentence, peer_sentence, mask);
    for (std::size_t p = 0; p < sentence.size(); ++p) {
      const int t = sentence[p];
      if (mask[p] && model_counts[t] > 0 && peer_counts[t] > 0) {
        ++hits;
        --model_counts[t];
        --peer_counts[t];
      }
    }
  }
  return hits;
}

}  // namespace evalcli
