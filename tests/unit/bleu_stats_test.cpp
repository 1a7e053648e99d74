// BLEU's per-segment statistics against a plain count: every n-gram of the
// hypothesis and of each reference counted in a std::map, reference counts
// merged by maximum, then clipped (SacreBLEU's extract_all_ngrams and
// _compute_score_from_stats). Segments of up to 64 tokens take the bit-mask
// path, longer ones the n-gram id path: lengths 0-90 exercise both.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "evalcli/metrics/bleu.hpp"

using evalcli::Bleu;
using evalcli::BleuOptions;
using evalcli::Stat;

namespace {

using Words = std::vector<std::u32string>;
using Counts = std::map<Words, long long>;

Words split(const std::u32string& line) {
  Words words;
  std::u32string word;
  for (const char32_t c : line + U' ') {
    if (c == U' ') {
      if (!word.empty()) words.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  return words;
}

Counts ngrams(const Words& words, std::size_t n) {
  Counts counts;
  for (std::size_t i = 0; i + n <= words.size(); ++i) ++counts[Words(words.begin() + i, words.begin() + i + n)];
  return counts;
}

// [hyp_len, ref_len, correct_1..N, total_1..N]; ref_len the closest, ties to the shorter.
std::vector<Stat> plain_bleu_stats(const std::u32string& hyp, const std::vector<std::u32string>& refs,
                                   std::size_t max_order) {
  const Words hyp_words = split(hyp);
  std::vector<Words> ref_words;
  for (const auto& ref : refs) ref_words.push_back(split(ref));
  const auto hyp_len = static_cast<long long>(hyp_words.size());
  long long closest = -1;
  for (const auto& words : ref_words) {
    const auto len = static_cast<long long>(words.size());
    if (closest < 0 || std::llabs(hyp_len - len) < std::llabs(hyp_len - closest) ||
        (std::llabs(hyp_len - len) == std::llabs(hyp_len - closest) && len < closest)) {
      closest = len;
    }
  }
  std::vector<Stat> stats = {static_cast<Stat>(hyp_len), static_cast<Stat>(closest)};
  std::vector<Stat> totals;
  for (std::size_t n = 1; n <= max_order; ++n) {
    Counts best_ref;
    for (const auto& words : ref_words) {
      for (const auto& [gram, count] : ngrams(words, n)) best_ref[gram] = std::max(best_ref[gram], count);
    }
    long long correct = 0, total = 0;
    for (const auto& [gram, count] : ngrams(hyp_words, n)) {
      total += count;
      const auto found = best_ref.find(gram);
      if (found != best_ref.end()) correct += std::min(count, found->second);
    }
    stats.push_back(static_cast<Stat>(correct));
    totals.push_back(static_cast<Stat>(total));
  }
  stats.insert(stats.end(), totals.begin(), totals.end());
  return stats;
}

}  // namespace

TEST_CASE("BLEU statistics equal a plain n-gram count on random text, short and long segments", "[bleu]") {
  // Few distinct words, so n-grams repeat within and across lines; runs of one
  // word (bit masks full of ones) come from the weight on "a".
  const std::vector<std::u32string> vocabulary = {U"a", U"a", U"a", U"b", U"c", U"d", U"\u00e4", U"\u4e2d"};
  std::mt19937 random(20261206);
  std::uniform_int_distribution<std::size_t> pick(0, vocabulary.size() - 1);
  std::uniform_int_distribution<int> length(0, 90);
  std::uniform_int_distribution<int> ref_count(1, 4);
  auto line = [&] {
    std::u32string text;
    for (int k = length(random); k > 0; --k) text += vocabulary[pick(random)] + U" ";
    return text;
  };
  std::size_t short_segments = 0, long_segments = 0, short_with_one_reference = 0;
  for (const int max_order : {1, 2, 4, 7}) {
    BleuOptions options;
    options.text.tokenizer = "none";
    options.max_ngram_order = max_order;
    const Bleu bleu(options);
    for (int i = 0; i < 600; ++i) {
      const std::u32string hyp = line();
      std::vector<std::u32string> refs;
      for (int r = ref_count(random); r > 0; --r) refs.push_back(line());
      bool is_short = split(hyp).size() <= 64;
      for (const auto& ref : refs) is_short = is_short && split(ref).size() <= 64;
      ++(is_short ? short_segments : long_segments);
      short_with_one_reference += is_short && refs.size() == 1;
      std::vector<Stat> ours(bleu.num_stats());
      bleu.segment_stats(hyp, refs, ours.data());
      INFO("order " << max_order << ", segment " << i);
      REQUIRE(ours == plain_bleu_stats(hyp, refs, static_cast<std::size_t>(max_order)));
    }
  }
  // Both paths were taken, many times each.
  CHECK(short_segments > 500);
  CHECK(long_segments > 500);
  CHECK(short_with_one_reference > 100);  // the bit-mask path's single-reference loop
}

TEST_CASE("BLEU statistics at the 64-token boundary of the bit-mask path", "[bleu]") {
  BleuOptions options;
  options.text.tokenizer = "none";
  const Bleu bleu(options);
  for (const std::size_t hyp_length : {63, 64, 65}) {
    for (const std::size_t ref_length : {63, 64, 65}) {
      std::u32string hyp, ref;
      for (std::size_t i = 0; i < hyp_length; ++i) hyp += i % 3 == 0 ? U"x " : U"y ";
      for (std::size_t i = 0; i < ref_length; ++i) ref += i % 2 == 0 ? U"x " : U"y ";
      // One reference (its own path) and two.
      for (const std::vector<std::u32string>& refs : {std::vector<std::u32string>{ref},
                                                       std::vector<std::u32string>{ref, hyp.substr(2)}}) {
        std::vector<Stat> ours(bleu.num_stats());
        bleu.segment_stats(hyp, refs, ours.data());
        INFO(hyp_length << " hypothesis tokens, " << ref_length << " reference tokens, " << refs.size()
                        << " references");
        REQUIRE(ours == plain_bleu_stats(hyp, refs, 4));
      }
    }
  }
}
