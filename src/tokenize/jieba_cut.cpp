// jieba.cut(sentence, cut_all=False, HMM=...) step by step, with the same
// double arithmetic and the same tie-breaking as jieba 0.42.1's Python code:
//   Tokenizer.cut        -> split into re_han_default runs and the rest
//   __cut_DAG[_NO_HMM]   -> get_DAG + calc (maximum probability route)
//   finalseg.cut/viterbi -> HMM for runs of single characters unknown as a whole
#include <cmath>
#include <memory>

#include "evalcli/text/unicode.hpp"
#include "tokenize/jieba.hpp"

namespace evalcli::jieba {
namespace {

constexpr bool is_ascii_alnum(char32_t c) {
  return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z') || (c >= U'0' && c <= U'9');
}
constexpr bool is_ascii_digit(char32_t c) { return c >= U'0' && c <= U'9'; }

// finalseg's re_han: [\u4E00-\u9FD5]
constexpr bool is_han(char32_t c) { return c >= 0x4E00 && c <= 0x9FD5; }

// re_han_default: [\u4E00-\u9FD5a-zA-Z0-9+#&\._%\-]
constexpr bool is_han_default(char32_t c) {
  return is_han(c) || is_ascii_alnum(c) || c == U'+' || c == U'#' || c == U'&' || c == U'.' || c == U'_' ||
         c == U'%' || c == U'-';
}

struct RouteStep {
  double log_probability;
  std::size_t end;  // index of the last character of the word starting here
};

// std::log(frequency) through a direct-mapped cache per thread: the same few
// thousand dictionary words (and so frequencies) come back all the time, and a
// hit returns the double the same std::log call gave. dict.txt has 5,087
// distinct frequencies: 16,384 slots keep conflicts rare (4,096 slots made the
// 20,000-line bench ~10 % slower).
double log_frequency(std::uint64_t frequency) {
  struct Slot {
    std::uint64_t frequency;  // 0 = empty (frequencies here are >= 1)
    double log;
  };
  constexpr int kBits = 14;
  thread_local const auto cache = std::make_unique<Slot[]>(std::size_t{1} << kBits);
  Slot& slot = cache[(frequency * 0x9E3779B97F4A7C15ULL) >> (64 - kBits)];
  if (slot.frequency != frequency) slot = {frequency, std::log(static_cast<double>(frequency))};
  return slot.log;
}

// get_DAG + calc: route[idx] = max over words sentence[idx..x] of
//   (log(FREQ.get(word) or 1) - logtotal + route[x + 1].log_probability, x)
// Python compares these tuples: the larger probability wins, then the larger x.
void best_route(std::u32string_view block, const Dictionary& dictionary, std::vector<RouteStep>& route) {
  const std::size_t n = block.size();
  route.assign(n + 1, RouteStep{0.0, 0});
  const double log_total = std::log(static_cast<double>(dictionary.total()));
  for (std::size_t idx = n; idx-- > 0;) {
    bool found = false;
    RouteStep best{0.0, 0};
    auto consider = [&](std::size_t x, std::uint64_t frequency) {
      const double p = log_frequency(frequency == 0 ? 1 : frequency) - log_total +
                       route[x + 1].log_probability;
      if (!found || p > best.log_probability || (p == best.log_probability && x > best.end)) {
        best = {p, x};
        found = true;
      }
    };
    // DAG[idx]: ends x of dictionary words (frequency > 0) starting at idx,
    // walking while sentence[idx..x] is in FREQ (a word or a word's prefix).
    const Dictionary::Subtree* tree = dictionary.first(block[idx]);
    if (tree != nullptr) {
      std::uint64_t frequency = tree->frequency;
      if (frequency > 0) consider(idx, frequency);
      Dictionary::Node node = 0;
      for (std::size_t x = idx + 1; x < n; ++x) {
        node = dictionary.next(*tree, node, block[x], frequency);
        if (node == Dictionary::kNoNode) break;
        if (frequency > 0) consider(x, frequency);
      }
    }
    if (!found) {  // no word starts here: the character alone, FREQ.get(c) or 1
      consider(idx, tree == nullptr ? 0 : tree->frequency);
    }
    route[idx] = best;
  }
}

// finalseg.viterbi(obs, 'BMES', ...) then finalseg.__cut: the words of one Han run.
void viterbi_cut(std::u32string_view obs, const HmmModel& model, std::size_t offset, std::vector<Span>& tokens) {
  constexpr int kStates[4] = {HmmModel::B, HmmModel::M, HmmModel::E, HmmModel::S};
  constexpr char kStateNames[4] = {'B', 'M', 'E', 'S'};
  // PrevStatus: B <- E,S; M <- M,B; E <- B,M; S <- S,E (in that order).
  constexpr int kPrevious[4][2] = {{HmmModel::E, HmmModel::S},
                                   {HmmModel::M, HmmModel::B},
                                   {HmmModel::B, HmmModel::M},
                                   {HmmModel::S, HmmModel::E}};
  const std::size_t n = obs.size();
  std::vector<std::array<std::uint8_t, 4>> back(n);
  std::array<double, 4> v{}, next{};
  for (int y : kStates) v[y] = model.start(y) + model.emit(y, obs[0]);
  for (std::size_t t = 1; t < n; ++t) {
    for (int y : kStates) {
      const double em = model.emit(y, obs[t]);
      // max((V[t-1][y0] + trans_p[y0][y] + em_p, y0) for y0 in PrevStatus[y]):
      // ties go to the state whose letter sorts last.
      int best_state = -1;
      double best = 0;
      for (int y0 : kPrevious[y]) {
        const double p = v[y0] + model.trans(y0, y) + em;
        if (best_state < 0 || p > best || (p == best && kStateNames[y0] > kStateNames[best_state])) {
          best = p;
          best_state = y0;
        }
      }
      next[y] = best;
      back[t][y] = static_cast<std::uint8_t>(best_state);
    }
    v = next;
  }
  // max((V[-1][y], y) for y in 'ES'): S wins ties.
  int state = v[HmmModel::S] >= v[HmmModel::E] ? HmmModel::S : HmmModel::E;
  std::vector<std::uint8_t> path(n);
  for (std::size_t t = n; t-- > 0;) {
    path[t] = static_cast<std::uint8_t>(state);
    if (t > 0) state = back[t][state];
  }
  std::size_t begin = 0, next_index = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (path[i] == HmmModel::B) {
      begin = i;
    } else if (path[i] == HmmModel::E) {
      tokens.emplace_back(offset + begin, offset + i + 1);
      next_index = i + 1;
    } else if (path[i] == HmmModel::S) {
      tokens.emplace_back(offset + i, offset + i + 1);
      next_index = i + 1;
    }
  }
  if (next_index < n) tokens.emplace_back(offset + next_index, offset + n);
}

// finalseg's re_skip.split on a non-Han piece: ([a-zA-Z0-9]+(?:\.\d+)?%?) matches
// and the (non-empty) text between them are the tokens.
void split_non_han(std::u32string_view text, std::size_t offset, std::vector<Span>& tokens) {
  std::size_t pending = 0;  // start of the text not yet matched
  std::size_t i = 0;
  while (i < text.size()) {
    if (!is_ascii_alnum(text[i])) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && is_ascii_alnum(text[end])) ++end;
    if (end + 1 < text.size() && text[end] == U'.' && is_ascii_digit(text[end + 1])) {
      end += 2;
      while (end < text.size() && is_ascii_digit(text[end])) ++end;
    }
    if (end < text.size() && text[end] == U'%') ++end;
    if (i > pending) tokens.emplace_back(offset + pending, offset + i);
    tokens.emplace_back(offset + i, offset + end);
    pending = i = end;
  }
  if (pending < text.size()) tokens.emplace_back(offset + pending, offset + text.size());
}

// __cut_DAG's handling of `buf`, a run of single-character route steps.
void flush_buffer(std::u32string_view block, std::size_t start, std::size_t end, const Dictionary& dictionary,
                  const HmmModel& model, std::size_t offset, std::vector<Span>& tokens) {
  if (end - start == 1) {
    tokens.emplace_back(offset + start, offset + end);
  } else if (dictionary.lookup(block.substr(start, end - start)) == 0) {
    hmm_cut(block.substr(start, end - start), model, offset + start, tokens);
  } else {
    for (std::size_t i = start; i < end; ++i) tokens.emplace_back(offset + i, offset + i + 1);
  }
}

void cut_block_hmm(std::u32string_view block, const Dictionary& dictionary, const HmmModel& model,
                   std::size_t offset, std::vector<Span>& tokens, std::vector<RouteStep>& route) {
  best_route(block, dictionary, route);
  std::size_t buffer_start = 0;
  bool buffering = false;
  for (std::size_t x = 0; x < block.size();) {
    const std::size_t y = route[x].end + 1;
    if (y - x == 1) {
      if (!buffering) buffer_start = x;
      buffering = true;
    } else {
      if (buffering) flush_buffer(block, buffer_start, x, dictionary, model, offset, tokens);
      buffering = false;
      tokens.emplace_back(offset + x, offset + y);
    }
    x = y;
  }
  if (buffering) flush_buffer(block, buffer_start, block.size(), dictionary, model, offset, tokens);
}

// __cut_DAG_NO_HMM: single ASCII letters/digits on the route are glued together.
void cut_block_no_hmm(std::u32string_view block, const Dictionary& dictionary, std::size_t offset,
                      std::vector<Span>& tokens, std::vector<RouteStep>& route) {
  best_route(block, dictionary, route);
  std::size_t buffer_start = 0;
  bool buffering = false;
  for (std::size_t x = 0; x < block.size();) {
    const std::size_t y = route[x].end + 1;
    if (y - x == 1 && is_ascii_alnum(block[x])) {
      if (!buffering) buffer_start = x;
      buffering = true;
    } else {
      if (buffering) tokens.emplace_back(offset + buffer_start, offset + x);
      buffering = false;
      tokens.emplace_back(offset + x, offset + y);
    }
    x = y;
  }
  if (buffering) tokens.emplace_back(offset + buffer_start, offset + block.size());
}

}  // namespace

void hmm_cut(std::u32string_view text, const HmmModel& model, std::size_t offset, std::vector<Span>& tokens) {
  // finalseg.cut: re_han.split into Han runs (Viterbi) and the rest (re_skip).
  for (std::size_t start = 0; start < text.size();) {
    const bool han = is_han(text[start]);
    std::size_t end = start;
    while (end < text.size() && is_han(text[end]) == han) ++end;
    const std::u32string_view piece = text.substr(start, end - start);
    if (han) {
      viterbi_cut(piece, model, offset + start, tokens);
    } else {
      split_non_han(piece, offset + start, tokens);
    }
    start = end;
  }
}

void cut(std::u32string_view sentence, const Dictionary& dictionary, const HmmModel* hmm_model,
         std::vector<Span>& tokens) {
  thread_local std::vector<RouteStep> route;
  for (std::size_t start = 0; start < sentence.size();) {
    std::size_t end = start;
    if (is_han_default(sentence[start])) {
      while (end < sentence.size() && is_han_default(sentence[end])) ++end;
      const std::u32string_view block = sentence.substr(start, end - start);
      if (hmm_model != nullptr) {
        cut_block_hmm(block, dictionary, *hmm_model, start, tokens, route);
      } else {
        cut_block_no_hmm(block, dictionary, start, tokens, route);
      }
    } else {
      // Other text: re_skip_default (\r\n|\s) pieces are whitespace tokens
      // (dropped here); every other character is a token of its own.
      while (end < sentence.size() && !is_han_default(sentence[end])) {
        if (!text::is_space(sentence[end])) tokens.emplace_back(end, end + 1);
        ++end;
      }
    }
    start = end;
  }
}

}  // namespace evalcli::jieba
