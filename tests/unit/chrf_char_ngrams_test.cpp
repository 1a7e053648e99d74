#include "metrics/chrf_char_ngrams.hpp"

#include <catch2/catch.hpp>

#include "evalcli/text/unicode.hpp"

#include <map>
#include <random>

using evalcli::detail::DenseCharNgrams;
using evalcli::detail::NgramCounts;

namespace {

using Chars = std::vector<std::uint32_t>;

// The straightforward count: every n-gram as a vector in a std::map.
std::map<Chars, std::size_t> plain_ngrams(const Chars& chars, std::size_t n) {
  std::map<Chars, std::size_t> counts;
  for (std::size_t i = 0; i + n <= chars.size(); ++i) ++counts[Chars(chars.begin() + i, chars.begin() + i + n)];
  return counts;
}

NgramCounts plain_counts(const Chars& hyp, const Chars& ref, std::size_t n) {
  const auto hyp_ngrams = plain_ngrams(hyp, n), ref_ngrams = plain_ngrams(ref, n);
  NgramCounts counts;
  for (const auto& [ngram, count] : hyp_ngrams) {
    counts.hyp += count;
    const auto found = ref_ngrams.find(ngram);
    if (found != ref_ngrams.end()) counts.match += std::min(count, found->second);
  }
  for (const auto& entry : ref_ngrams) counts.ref += entry.second;
  return counts;
}

}  // namespace

TEST_CASE("DenseCharNgrams counts as a std::map counter on random lines", "[chrf]") {
  // Few distinct characters, so n-grams repeat; BMP, non-ASCII and astral code points.
  const Chars alphabet = {'a', 'b', 'c', ' ', 0xE4, 0x4E2D, 0xFFFF, 0x10000, 0x1F600, 0x20000};
  std::mt19937 random(20261204);
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::uniform_int_distribution<int> length(0, 40);
  std::uniform_int_distribution<int> ref_count(1, 4);
  auto line = [&] {
    Chars chars;
    for (int k = length(random); k > 0; --k) chars.push_back(alphabet[pick(random)]);
    return chars;
  };
  DenseCharNgrams dense;  // one object for every segment: it must forget each one
  std::vector<NgramCounts> out;
  for (int segment = 0; segment < 3000; ++segment) {
    const Chars hyp = line();
    std::vector<Chars> refs;
    for (int r = ref_count(random); r > 0; --r) refs.push_back(line());
    const std::size_t max_order = 1 + static_cast<std::size_t>(segment % 8);
    REQUIRE(dense.count(hyp, refs, max_order, out));
    REQUIRE(out.size() == refs.size() * max_order);
    for (std::size_t r = 0; r < refs.size(); ++r) {
      for (std::size_t n = 1; n <= max_order; ++n) {
        INFO("segment " << segment << ", reference " << r << ", order " << n);
        REQUIRE(out[r * max_order + n - 1] == plain_counts(hyp, refs[r], n));
      }
    }
  }
}

TEST_CASE("DenseCharNgrams refuses a segment whose table would be too large, then goes on", "[chrf]") {
  Chars many;  // 2,100 distinct characters in 2,100 positions: 2,101 x 2,101 slots
  for (std::uint32_t c = 0; c < 2100; ++c) many.push_back(0x4E00 + c);
  DenseCharNgrams dense;
  std::vector<NgramCounts> out;
  REQUIRE_FALSE(dense.count(many, std::vector<Chars>{many}, 6, out));
  const Chars hyp = {'a', 'b', 'a', 'b'}, ref = {'a', 'b', 'x', 0x4E00};
  REQUIRE(dense.count(hyp, std::vector<Chars>{ref}, 2, out));
  REQUIRE(out == std::vector<NgramCounts>{plain_counts(hyp, ref, 1), plain_counts(hyp, ref, 2)});
  REQUIRE(out[1] == NgramCounts{3, 3, 1});
}

namespace {

// copy_without_spaces() of `text`, with the room it asks for.
std::u32string without_spaces(const std::u32string& text) {
  std::vector<std::uint32_t> out(text.size() + 8);
  out.resize(evalcli::detail::copy_without_spaces(text.data(), text.size(), out.data()));
  return std::u32string(out.begin(), out.end());
}

std::u32string without_spaces_plain(const std::u32string& text) {
  std::u32string out;
  for (const char32_t c : text) {
    if (!evalcli::text::is_space(c)) out.push_back(c);
  }
  return out;
}

}  // namespace

TEST_CASE("copy_without_spaces drops exactly text::is_space's code points", "[chrf]") {
  // Every code point up to U+3100 (each white space and its neighbours) and a
  // stretch of astral ones, in texts of 1-40 code points: eight-lane blocks
  // at every offset, and the tails after them.
  std::u32string all;
  for (char32_t c = 0; c <= 0x3100; ++c) all.push_back(c);
  for (char32_t c = 0x1F5F0; c <= 0x1F610; ++c) all.push_back(c);
  std::size_t texts = 0;
  for (std::size_t length = 1; length <= 40; ++length) {
    for (std::size_t start = 0; start + length <= all.size(); start += length) {
      const std::u32string text = all.substr(start, length);
      INFO("code points from U+" << std::hex << static_cast<std::uint32_t>(text.front()) << ", length " << std::dec
                                 << length);
      REQUIRE(without_spaces(text) == without_spaces_plain(text));
      ++texts;
    }
  }
  CHECK(texts > 10000);
  // Random texts, mostly white space of every kind, a few letters between.
  const std::u32string alphabet = U"ab \t\n\v\f\r\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2005\u200a\u200b\u2028\u2029"
                                  U"\u202f\u205f\u3000\u3001\u00e4\U0001F600";
  std::mt19937 random(20261207);
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1), length(0, 100);
  for (int i = 0; i < 2000; ++i) {
    std::u32string text(length(random), U' ');
    for (char32_t& c : text) c = alphabet[pick(random)];
    REQUIRE(without_spaces(text) == without_spaces_plain(text));
  }
  CHECK(without_spaces(U"a\u00a0b \u3000c\u200bd\te") == U"abc\u200bde");
}
