// Scoring text with an ARPA model exactly as KenLM `query` (lm/ngram_query.hh):
// float32 per-word and per-line values, double corpus sums.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "evalcli/metrics/ppl.hpp"

namespace evalcli::ppl {
namespace {

// KenLM's kSpaces for reading text: bytes 9-13 and 32, as a table (one load per byte).
constexpr auto kQuerySpace = [] {
  std::array<bool, 256> table{};
  for (const unsigned char c : {' ', '\t', '\n', '\v', '\f', '\r'}) table[c] = true;
  return table;
}();
inline bool is_query_space(char c) { return kQuerySpace[static_cast<unsigned char>(c)]; }

// Bit i set if byte i of the 16 at `p` is one of KenLM's spaces.
inline std::uint32_t space_bits16(const char* p) {
#if defined(__SSE2__)
  const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i from_tab = _mm_sub_epi8(bytes, _mm_set1_epi8(9));  // 9..13 -> 0..4
  const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(from_tab, _mm_set1_epi8(4)), from_tab);
  const __m128i blank = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(' '));
  return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_or_si128(control, blank)));
#else
  std::uint32_t bits = 0;
  for (int i = 0; i < 16; ++i) bits |= static_cast<std::uint32_t>(is_query_space(p[i])) << i;
  return bits;
#endif
}

// Space bits of the (up to) 64 bytes at `p`; bytes past `size` count as spaces.
inline std::uint64_t space_bits64(const char* p, std::size_t size) {
  std::uint64_t bits = 0;
  std::size_t i = 0;
  for (; i < 64 && i + 16 <= size; i += 16) bits |= static_cast<std::uint64_t>(space_bits16(p + i)) << i;
  if (i < 64 && i < size) {  // a partial chunk, read from a copy: never past the line's memory
    char tail[16];
    std::memset(tail, ' ', sizeof tail);
    std::memcpy(tail, p + i, size - i);
    bits |= static_cast<std::uint64_t>(space_bits16(tail)) << i;
    i += 16;
  }
  if (i < 64) bits |= ~std::uint64_t{0} << i;
  return bits;
}

}  // namespace

void split_kenlm_tokens_bytewise(std::string_view line, std::vector<std::string_view>& out) {
  out.clear();
  const char* p = line.data();
  const char* const end = p + line.size();
  while (true) {
    while (p != end && is_query_space(*p)) ++p;
    if (p == end) return;
    const char* start = p;
    while (p != end && !is_query_space(*p)) ++p;
    out.emplace_back(start, static_cast<std::size_t>(p - start));
  }
}

// 64 bytes at a time: a bit mask of the token bytes, whose changes from the
// previous byte are the token boundaries (no branch per byte).
void split_kenlm_tokens(std::string_view line, std::vector<std::string_view>& out) {
  out.clear();
  const char* const data = line.data();
  const std::size_t size = line.size();
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::size_t open_token = kNone;  // start of the token whose end is not found yet
  std::uint64_t carry = 0;         // 1 if the byte before the block is a token byte
  for (std::size_t base = 0; base < size; base += 64) {
    const std::uint64_t word = ~space_bits64(data + base, size - base);
    std::uint64_t changes = word ^ ((word << 1) | carry);
    carry = word >> 63;
    while (changes != 0) {  // starts and ends alternate, a start first
      const std::size_t at = base + static_cast<std::size_t>(std::countr_zero(changes));
      changes &= changes - 1;
      if (open_token == kNone) {
        open_token = at;
      } else {
        out.emplace_back(data + open_token, at - open_token);
        open_token = kNone;
      }
    }
  }
  if (open_token != kNone) out.emplace_back(data + open_token, size - open_token);  // ends at a block's end
}

LineScore score_line(const NgramModel& model, std::span<const std::string_view> tokens, ContextMode mode,
                     std::vector<ScoredWord>* words, bool score_end) {
  LineScore line;
  // The line's word ids, with <s> before and </s> after in sentence mode: all
  // vocabulary look-ups first, then the words scored in turn (score_words()
  // overlaps their cache misses).
  thread_local std::vector<WordId> ids;
  ids.clear();
  const bool sentence = mode == ContextMode::sentence;
  const bool with_end = sentence && score_end;
  if (sentence) ids.push_back(model.begin_sentence());
  const std::size_t first = ids.size();
  model.index_all(tokens, ids);
  if (with_end) ids.push_back(model.end_sentence());
  thread_local std::vector<WordScore> scores;
  model.score_words(ids, first, sentence ? model.begin_sentence_state() : model.null_context_state(), scores);
  for (std::size_t j = first; j < ids.size(); ++j) {
    const WordId id = ids[j];
    const WordScore score = scores[j - first];
    line.total += score.log10_prob;
    ++line.stats.tokens;
    const bool is_end = with_end && j + 1 == ids.size();
    if (words != nullptr) words->push_back({is_end ? std::string_view("</s>") : tokens[j - first], id, score});
    if (!is_end) {
      ++line.stats.words;
      if (id == kUnknownWord) {
        ++line.oovs;
        line.stats.oov_log10_total += static_cast<double>(score.log10_prob);
      }
    }
  }
  line.stats.oovs = line.oovs;
  line.stats.lines = 1;
  line.stats.log10_total = static_cast<double>(line.total);
  return line;
}

PplStats& PplStats::operator+=(const PplStats& other) {
  log10_total += other.log10_total;
  oov_log10_total += other.oov_log10_total;
  tokens += other.tokens;
  oovs += other.oovs;
  words += other.words;
  lines += other.lines;
  chars += other.chars;
  bytes += other.bytes;
  return *this;
}

double PplStats::ppl_including_oovs() const {
  return std::pow(10.0, -(log10_total / static_cast<double>(tokens)));
}

double PplStats::ppl_excluding_oovs() const {
  return std::pow(10.0, -((log10_total - oov_log10_total) / static_cast<double>(tokens - oovs)));
}

nlohmann::ordered_json PplStats::to_json() const {
  const double ln10 = std::log(10.0);
  const double ln2 = std::log(2.0);
  const double nats = log10_total * ln10;  // log-likelihood in nats (negative)
  const auto ratio_or_null = [](double a, double b) -> nlohmann::json {
    if (b == 0) return nullptr;
    return a / b;
  };
  nlohmann::ordered_json j;
  j["ppl_including_oovs"] = tokens == 0 ? nlohmann::json(nullptr) : nlohmann::json(ppl_including_oovs());
  j["ppl_excluding_oovs"] = tokens == oovs ? nlohmann::json(nullptr) : nlohmann::json(ppl_excluding_oovs());
  j["oovs"] = oovs;
  j["oov_rate"] = ratio_or_null(static_cast<double>(oovs), static_cast<double>(tokens));
  j["tokens"] = tokens;
  j["words"] = words;
  j["lines"] = lines;
  j["chars"] = chars;
  j["bytes"] = bytes;
  j["log10_total"] = log10_total;
  j["oov_log10_total"] = oov_log10_total;
  // 0.0 - nats, not -nats: a zero log-likelihood gives 0, not -0.0 (the same values otherwise: negation is exact).
  const double nll = 0.0 - nats;
  j["nll_nats"] = nll;
  j["nll_per_token_nats"] = tokens == 0 ? nlohmann::json(nullptr) : nlohmann::json(nll / static_cast<double>(tokens));
  j["bits_per_token"] = tokens == 0 ? nlohmann::json(nullptr) : nlohmann::json(nll / static_cast<double>(tokens) / ln2);
  j["bpc"] = chars == 0 ? nlohmann::json(nullptr) : nlohmann::json(nll / static_cast<double>(chars) / ln2);
  j["bpb"] = bytes == 0 ? nlohmann::json(nullptr) : nlohmann::json(nll / static_cast<double>(bytes) / ln2);
  // The same quantities under the names of log-prob mode (docs/ppl.md), so that
  // reports of both modes compare field for field.
  const auto exp_or_null = [&](std::uint64_t count) -> nlohmann::json {
    if (count == 0) return nullptr;
    return std::exp(-(nats / static_cast<double>(count)));
  };
  j["ppl_token"] = j["ppl_including_oovs"];
  j["nll_sum_nats"] = j["nll_nats"];
  j["scored_tokens"] = tokens;
  j["char_perplexity"] = exp_or_null(chars);
  j["byte_perplexity"] = exp_or_null(bytes);
  j["word_perplexity"] = exp_or_null(words);
  return j;
}

}  // namespace evalcli::ppl
