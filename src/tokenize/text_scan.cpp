#include "evalcli/tokenize/text_scan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

// AVX2 where the compiler can target it; used only if the CPU has it.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define EVALCLI_SCAN_AVX2 1
#include <immintrin.h>
#else
#define EVALCLI_SCAN_AVX2 0
#endif

#include "evalcli/text/unicode.hpp"

namespace evalcli {
namespace {

// Code point ranges of the unspaced scripts (Unicode blocks).
UnspacedScript script_of(char32_t c) {
  if ((c >= 0x3040 && c <= 0x30FF) || (c >= 0x31F0 && c <= 0x31FF) || (c >= 0xFF66 && c <= 0xFF9F)) {
    return UnspacedScript::kana;  // hiragana, katakana, half-width katakana
  }
  if ((c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0xF900 && c <= 0xFAFF) ||
      (c >= 0x20000 && c <= 0x3FFFF)) {
    return UnspacedScript::han;
  }
  if (c >= 0x0E00 && c <= 0x0E7F) return UnspacedScript::thai;
  return UnspacedScript::none;
}

// Both ASCII counts of a character in one number, added with one load: 1 in
// the low half for letters and digits, 1 in the high half for characters
// other than white space (a line's counts stay far below 2^32).
constexpr int kNonSpaceShift = 32;
constexpr std::array<std::uint64_t, 128> kAsciiCounts = [] {
  std::array<std::uint64_t, 128> table{};
  for (char32_t c = 0; c < 128; ++c) {
    const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    table[c] = std::uint64_t{alnum} | (std::uint64_t{!text::is_space(c)} << kNonSpaceShift);
  }
  return table;
}();

bool is_letter_like(char32_t c) { return !text::is_space(c) && !text::is_punctuation(c) && !text::is_symbol(c); }

double percent(std::size_t part, std::size_t whole) {
  return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

}  // namespace

bool splits_words_at_spaces(std::string_view tokenizer) {
  static constexpr std::array<std::string_view, 8> kSpaceSplitters = {
      "13a", "intl", "none", "ptb", "nltk-word", "tercom", "rouge-score", "meteor-split"};
  return std::find(kSpaceSplitters.begin(), kSpaceSplitters.end(), tokenizer) != kSpaceSplitters.end();
}

std::string target_language(std::string_view language_pair) {
  const auto dash = language_pair.find('-');
  return std::string(dash == std::string_view::npos ? language_pair : language_pair.substr(dash + 1));
}

std::string sacrebleu_tokenizer_for_language(std::string_view language, std::string_view fallback) {
  if (language == "zh") return "zh";
  if (language == "ja") return "ja-mecab";
  if (language == "ko") return "ko-mecab";
  return std::string(fallback);
}

// One non-ASCII character of a line: counted by script.
void TextScan::add_non_ascii(char32_t c, LineCounts& counts) {
  // Latin letters (Latin-1's but for the signs x and /, Latin Extended-A and -B), most of the
  // non-ASCII characters of European text: letters of no unspaced script, without the Unicode
  // look-ups below (the unit test checks every code point to U+3100 both ways).
  if (c >= 0xC0 && c < 0x250 && c != 0xD7 && c != 0xF7) {
    ++counts.non_space, ++counts.non_ascii, ++counts.letters;
    return;
  }
  if (text::is_space(c)) return;
  ++counts.non_space, ++counts.non_ascii;
  if (!is_letter_like(c)) return;
  ++counts.letters;
  switch (script_of(c)) {
    case UnspacedScript::han: ++han_, ++counts.unspaced; break;
    case UnspacedScript::kana: ++kana_, ++counts.unspaced; break;
    case UnspacedScript::thai: ++thai_, ++counts.unspaced; break;
    case UnspacedScript::none: break;
  }
}

#if EVALCLI_SCAN_AVX2
namespace {

constexpr std::size_t kBlock = 8;                 // characters per AVX2 step
constexpr std::size_t kBlocksPerChunk = 32;       // one mask byte per block: 256 characters per chunk

// Lanes x in [first, first + count), as all-ones lanes, with one signed
// compare: x - first + 2^31 < 2^31 + count (code points are below 2^31).
[[gnu::target("avx2")]] inline __m256i in_range(__m256i x, std::uint32_t first, std::uint32_t count) {
  const __m256i shifted = _mm256_add_epi32(x, _mm256_set1_epi32(static_cast<int>(0x80000000u - first)));
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(0x80000000u + count)), shifted);
}

// Lanes x (bytes) in [first, first + count), as all-ones lanes: x - first - 128
// wraps below -128 + count exactly then.
[[gnu::target("avx2")]] inline __m256i in_range8(__m256i x, int first, int count) {
  const __m256i shifted = _mm256_add_epi8(x, _mm256_set1_epi8(static_cast<char>(-128 - first)));
  return _mm256_cmpgt_epi8(_mm256_set1_epi8(static_cast<char>(-128 + count)), shifted);
}

// ASCII letters and digits, and ASCII characters other than white space, of
// `blocks` blocks of 8 characters, added to the two counts; mask byte b gets
// a bit for each non-ASCII character of block b. Four blocks per step, their
// 32 code points packed into bytes (with saturation: every non-ASCII code
// point becomes a byte of 0x80 or more). No branch on the text and no call
// inside (a call would spill the vector registers on every step).
[[gnu::target("avx2,popcnt")]] void tally_ascii_blocks(const char32_t* text, std::size_t blocks, std::size_t& alnum,
                                                       std::size_t& non_space, std::uint8_t* other_masks) {
  const __m256i in_order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);  // undoes the packs' lane interleaving
  std::size_t b = 0;
  for (; b + 4 <= blocks; b += 4) {
    const auto* in = reinterpret_cast<const __m256i*>(text + b * kBlock);
    const __m256i low = _mm256_packs_epi32(_mm256_loadu_si256(in), _mm256_loadu_si256(in + 1));  // to int16
    const __m256i high = _mm256_packs_epi32(_mm256_loadu_si256(in + 2), _mm256_loadu_si256(in + 3));
    const __m256i bytes = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(low, high), in_order);
    const __m256i letter = in_range8(_mm256_or_si256(bytes, _mm256_set1_epi8(0x20)), 'a', 26);  // | 0x20 folds case
    const __m256i digit = in_range8(bytes, '0', 10);
    // White space: 0x09-0x0D and 0x1C-0x20.
    const __m256i space = _mm256_or_si256(in_range8(bytes, 0x09, 5), in_range8(bytes, 0x1C, 5));
    const auto non_ascii = static_cast<std::uint32_t>(_mm256_movemask_epi8(bytes));
    const auto spaces = static_cast<std::uint32_t>(_mm256_movemask_epi8(space));
    alnum += static_cast<std::size_t>(
        __builtin_popcount(static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_or_si256(letter, digit)))));
    non_space += static_cast<std::size_t>(__builtin_popcount(~(non_ascii | spaces)));
    std::memcpy(other_masks + b, &non_ascii, sizeof non_ascii);  // byte k: block b + k (little-endian)
  }
  for (; b < blocks; ++b) {  // the last 0-3 blocks, 8 code points at a time
    const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(text + b * kBlock));
    const __m256i ascii = _mm256_cmpgt_epi32(_mm256_set1_epi32(0x80), c);
    const __m256i letter = in_range(_mm256_or_si256(c, _mm256_set1_epi32(0x20)), 'a', 26);
    const __m256i digit = in_range(c, '0', 10);
    const __m256i space = _mm256_or_si256(in_range(c, 0x09, 5), in_range(c, 0x1C, 5));
    const __m256i counted = _mm256_or_si256(letter, digit);
    alnum += static_cast<std::size_t>(
        __builtin_popcount(static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(counted)))));
    non_space += static_cast<std::size_t>(__builtin_popcount(
        static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_andnot_si256(space, ascii))))));
    other_masks[b] = static_cast<std::uint8_t>(~_mm256_movemask_ps(_mm256_castsi256_ps(ascii)));
  }
}

bool cpu_has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}

}  // namespace

// Whole blocks of 8 characters, in chunks of 256: the ASCII ones counted by
// tally_ascii_blocks, then the chunk's non-ASCII ones (a few per line of
// Latin-script text) one by one from its mask bytes. Returns how many
// characters it took.
std::size_t TextScan::add_blocks(std::u32string_view line, LineCounts& counts) {
  if (!cpu_has_avx2()) return 0;
  const std::size_t blocks = line.size() / kBlock;
  std::uint8_t other_masks[kBlocksPerChunk];
  for (std::size_t first = 0; first < blocks; first += kBlocksPerChunk) {
    const std::size_t chunk = std::min(kBlocksPerChunk, blocks - first);
    const char32_t* const text = line.data() + first * kBlock;
    tally_ascii_blocks(text, chunk, counts.letters, counts.non_space, other_masks);
    std::fill(other_masks + chunk, other_masks + kBlocksPerChunk, std::uint8_t{0});
    // Eight mask bytes at a time: bit k of the group starting at block g is character 8g + k.
    for (std::size_t group = 0; group < chunk; group += 8) {
      std::uint64_t others = 0;
      std::memcpy(&others, other_masks + group, sizeof others);
      for (; others != 0; others &= others - 1) {
        add_non_ascii(text[group * kBlock + static_cast<std::size_t>(__builtin_ctzll(others))], counts);
      }
    }
  }
  return blocks * kBlock;
}
#else
std::size_t TextScan::add_blocks(std::u32string_view, LineCounts&) { return 0; }
#endif

void TextScan::add_line(std::u32string_view line) {
  LineCounts counts;
  std::uint64_t ascii_counts = 0;  // kAsciiCounts summed
  for (const char32_t c : line.substr(add_blocks(line, counts))) {
    if (c < 0x80) {  // the common case: a table, not a Unicode property look-up
      ascii_counts += kAsciiCounts[c];
    } else {
      add_non_ascii(c, counts);
    }
  }
  counts.letters += static_cast<std::size_t>(ascii_counts & 0xFFFFFFFFu);
  counts.non_space += static_cast<std::size_t>(ascii_counts >> kNonSpaceShift);
  ++lines_;
  letters_ += counts.letters;
  non_space_ += counts.non_space;
  non_ascii_ += counts.non_ascii;
  if (counts.unspaced * 2 > counts.letters) ++unspaced_lines_;
}

void TextScan::add_hypothesis(std::size_t system, std::u32string_view line) {
  add_line(line);
  if (tokenized_periods_.size() <= system) tokenized_periods_.resize(system + 1);
  if (line.ends_with(U" .")) ++tokenized_periods_[system];
  if (system == 0) ++segments_;
}

UnspacedScript TextScan::dominant_script() const {
  if (unspaced_letters() == 0) return UnspacedScript::none;
  if (kana_ > 0) return UnspacedScript::kana;
  return thai_ > han_ ? UnspacedScript::thai : UnspacedScript::han;
}

std::size_t TextScan::tokenized_periods(std::size_t system) const {
  return system < tokenized_periods_.size() ? tokenized_periods_[system] : 0;
}

std::string unspaced_text_warning(const TextScan& scan, std::string_view tokenizer) {
  if (!splits_words_at_spaces(tokenizer) || !scan.mostly_unspaced()) return {};
  std::string language, advice;
  switch (scan.dominant_script()) {
    case UnspacedScript::kana:
      language = "Japanese";
      advice = "give the language pair (-l SRC-ja) to segment Japanese, or --tokenize ja-mecab";
      break;
    case UnspacedScript::thai:
      language = "Thai";
      advice = "use --tokenize char (SacreBLEU has no Thai word tokenizer)";
      break;
    default:
      language = "Chinese";
      advice = "give the language pair (-l SRC-zh) to segment Chinese, or --tokenize zh";
  }
  return fmt::format(
      "evalcli: warning: the text is mostly {} ({} of {} lines, {:.0f}% of the characters), written without spaces "
      "between words, and tokenizer {} splits only at spaces: whole phrases count as single words, so the score "
      "is misleading.\n"
      "hint: {}; -q silences this\n",
      language, scan.unspaced_lines(), scan.lines(), percent(scan.unspaced_letters(), scan.letters()), tokenizer,
      advice);
}

}  // namespace evalcli
