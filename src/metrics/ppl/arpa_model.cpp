// ARPA back-off model: strict parsing with KenLM's rules (lm/read_arpa.*),
// n-grams in open-addressing hash tables keyed by a 64-bit hash of their
// word ids (as KenLM's probing structure), and the back-off rule in float32.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <ostream>
#include <optional>
#include <utility>

#include "evalcli/core/detail/probing_table.hpp"
#include "evalcli/core/detail/string_hash.hpp"
#include "evalcli/core/error.hpp"
#include "evalcli/io/decompress.hpp"
#include "evalcli/io/line_reader.hpp"
#include "evalcli/metrics/ppl.hpp"
#include "kenlm_binary.hpp"
#include "kenlm_trie.hpp"

namespace evalcli::ppl {
namespace {

// Hash of an n-gram folded from its LAST word backwards, so that lookups can
// extend a key to the left (older history) one word at a time. The form of
// KenLM's probing hash (lm/model.hh CombineWordHash): the two products are
// independent, so a walk through the orders is a short dependency chain.
inline std::uint64_t fold(std::uint64_t h, WordId id) {
  return ((h * 0x7C9B2E4A9F1D5B63ULL) ^ ((static_cast<std::uint64_t>(id) + 1) * 0xF8D5A3C1E6B7940FULL)) | 1;  // 0 = empty slot
}
inline std::uint64_t start_key(WordId id) { return fold(0x2545F4914F6CDD1DULL, id); }

// Words are identified by their 64-bit hash alone (as KenLM's probing
// vocabulary does with MurmurHash64A).
inline std::uint64_t hash_word(std::string_view word) { return detail::hash_bytes(word); }

// Slots of the hash tables: a 64-bit key (0 = empty) and the payload, packed
// (unaligned loads are free on the targets we build for) to keep the model small.
struct MiddleEntry {  // orders 2 .. N-1
  std::uint64_t key;
  float prob;     // NaN = blank: a missing suffix of a longer n-gram (KenLM inserts these)
  float backoff;
};
struct __attribute__((packed)) LongestEntry {  // order N: no back-off
  std::uint64_t key;
  float prob;
};
struct __attribute__((packed)) VocabEntry {
  std::uint64_t key;  // hash_word(word)
  WordId id;
};
static_assert(sizeof(MiddleEntry) == 16 && sizeof(LongestEntry) == 12 && sizeof(VocabEntry) == 12);

bool is_blank(float prob) { return std::isnan(prob); }

// KenLM's signed zeros (lm/value.hh, lm/blank.hh), which decide whether a zero
// prints "-0" or "0": every probability is read back with its sign bit set,
// and a zero back-off is -0 ("no extension") unless the n-gram is the context
// of another entry, then +0. Adding -0 changes no sum, so the extra zeros
// evalcli's longer states add leave every result as KenLM's.
inline float with_sign_bit(float prob) { return std::copysign(prob, -1.0f); }
inline float unextended(float backoff) { return backoff == 0.0f ? -0.0f : backoff; }
inline void mark_extended(float& backoff) {
  if (backoff == 0.0f) backoff = 0.0f;
}

// `prob` (of the longest real n-gram matched, of order real_length) plus the
// back-offs of the contexts of orders real_length .. last, shortest first;
// backoffs[m - 1] is that of the context of order m. A blank of order
// any_length > real_length stands for the sum up to its own order, which
// KenLM computes at load and stores like any probability (sign bit set).
inline float add_backoffs(float prob, const float* backoffs, std::size_t real_length, std::size_t any_length,
                          std::size_t last) {
  std::size_t m = real_length;
  if (any_length > real_length) {
    for (; m < any_length && m <= last; ++m) prob += backoffs[m - 1];
    prob = with_sign_bit(prob);
  }
  for (; m <= last; ++m) prob += backoffs[m - 1];
  return prob;
}

// The n-gram and vocabulary tables, sized from the ARPA header counts (80%
// load when full) so they are filled once; blanks (KenLM's missing suffixes)
// may fill them to 92% before one grows.
template <class Entry>
class ProbingTable : public detail::ProbingTable<Entry, detail::TableShape::sized_lookup> {
  using Base = detail::ProbingTable<Entry, detail::TableShape::sized_lookup>;

 public:
  ProbingTable() : Base(92) {}
  void reserve(std::size_t count) { Base::reserve(count * 92 / 80); }
  using Base::find;
  Entry* find(std::uint64_t key) { return const_cast<Entry*>(std::as_const(*this).find(key)); }
};

struct Weights {
  float prob;
  float backoff;
};

// Word -> id by the word's 64-bit hash (no strings kept).
class Vocabulary {
 public:
  void reserve(std::size_t count) { table_.reserve(count); }
  std::optional<WordId> find(std::string_view word) const { return find_hash(hash_word(word)); }
  std::optional<WordId> find_hash(std::uint64_t hash) const {
    const VocabEntry* e = table_.find(hash);
    if (e == nullptr) return std::nullopt;
    return e->id;
  }
  [[gnu::always_inline]] void prefetch(std::uint64_t hash) const { table_.prefetch(hash); }
  // Adds `word` (which must be absent).
  void insert(std::string_view word, WordId id) {
    bool inserted;
    table_.find_or_insert(VocabEntry{hash_word(word), id}, inserted);
  }

 private:
  ProbingTable<VocabEntry> table_;
};

// Character classes of KenLM's readers.
inline bool is_c_space(char c) {  // isspace() in the C locale
  return c == ' ' || (c >= '\t' && c <= '\r');
}
inline bool is_arpa_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool entirely_white(std::string_view line) {
  return std::all_of(line.begin(), line.end(), is_c_space);
}

}  // namespace

class NgramModel::Impl {
 public:
  Vocabulary vocab;
  std::vector<Weights> unigrams;                // by word id
  std::vector<ProbingTable<MiddleEntry>> middle;  // middle[n] for orders 2 <= n < order (0, 1 unused)
  ProbingTable<LongestEntry> longest;           // the highest order
  int order = 0;
  // Set for a KenLM binary (one of them): its tables in the file, the members above unused.
  std::unique_ptr<KenlmProbingModel> binary;
  std::unique_ptr<KenlmTrieModel> trie;

  [[gnu::always_inline]] void prefetch(int n, std::uint64_t key) const {
    if (n == order) {
      longest.prefetch(key);
    } else {
      middle[static_cast<std::size_t>(n)].prefetch(key);
    }
  }
};

namespace {

// Parses the ARPA text line by line, raising KenLM's errors with a line number.
class ArpaParser {
 public:
  // `max_entries`: an upper bound of the entries the file can hold (from its
  // size), so that a header announcing absurd counts costs no absurd allocation.
  ArpaParser(io::LineSplitter& lines, std::string name, NgramModel::Impl& model, std::uint64_t max_entries)
      : lines_(lines), name_(std::move(name)), model_(model), max_entries_(max_entries) {}

  std::vector<std::uint64_t> read_counts();
  void read_unigrams(std::uint64_t count, std::ostream* warnings, bool& has_unknown);
  void read_ngrams(int n, std::uint64_t count);
  void read_end();
  std::size_t first_duplicate_line() const { return first_duplicate_line_; }

 private:
  void note_duplicate(std::size_t line_number) {
    if (first_duplicate_line_ == 0) first_duplicate_line_ = line_number;
  }
  [[noreturn]] void fail(const std::string& what) const { fail_at(lines_.line_number(), what); }
  [[noreturn]] void fail_at(std::size_t line_number, const std::string& what) const {
    throw input_error(fmt::format("{}:{}: {}", name_, line_number, what));
  }
  [[noreturn]] void too_few_entries(int n, std::uint64_t seen, std::uint64_t count) const {
    fail(fmt::format("the \\{}-grams: section has {} entries but \\data\\ announced {}", n, seen, count));
  }
  bool next(std::string_view& line) {
    bool terminated = true;
    if (!lines_.next(line, &terminated)) return false;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // KenLM's ReadLine strips a CR
    return true;
  }
  std::string_view next_or_fail(const char* expecting) {
    std::string_view line;
    if (!next(line)) {
      throw input_error(fmt::format("{}:{}: End of file while expecting {}", name_, lines_.line_number() + 1, expecting));
    }
    return line;
  }
  std::string_view next_non_blank(const char* expecting) {
    std::string_view line;
    do {
      line = next_or_fail(expecting);
    } while (entirely_white(line));
    return line;
  }
  // The next non-blank line of the n-gram section (the hot path: no message built unless it fails).
  std::string_view next_entry(int n) {
    std::string_view line;
    do {
      if (!next(line)) next_or_fail(fmt::format("a {}-gram entry", n).c_str());
    } while (line.empty() || (is_c_space(line[0]) && entirely_white(line)));
    return line;
  }
  // A float as KenLM's ReadFloat: leading spaces skipped, trailing junk left.
  float read_float(std::string_view line, std::size_t& pos, const char* what) const;
  // The probability column of an n-gram entry: refused when positive or NaN, stored with its sign bit set.
  float read_probability(std::string_view line, std::size_t& pos, int n) const;
  void read_header(int n);
  // Parses the words of an n-gram entry into ids_ (checked against the vocabulary).
  void read_words(std::string_view line, std::size_t& pos, int n);
  // Reads the optional back-off column; returns 0 if absent.
  float read_backoff(std::string_view line, std::size_t pos, bool highest, int n);
  // An n-gram entry parsed but not yet in the tables (see read_ngrams).
  struct PendingNgram {
    std::size_t line_number;
    float prob;
    float backoff;
    std::uint64_t context;  // key of the first n-1 words (n > 2)
    WordId context_last;    // the word before the last
  };
  void insert_blank_suffixes(int n, const PendingNgram& pending, const std::uint64_t* suffix_keys);
  void mark_context_extended(std::size_t order, std::uint64_t key, WordId word);
  // Parses the next entry of the n-gram section into `pending` and `suffix_keys`
  // (2n + 1 slots: [m] = key of the last m words; [n + 1 + j] = of the context's last j).
  void parse_ngram(int n, bool highest, std::uint64_t index, std::uint64_t count, PendingNgram& pending,
                   std::uint64_t* suffix_keys);
  void add_ngram(int n, bool highest, const PendingNgram& pending, const std::uint64_t* suffix_keys);

  io::LineSplitter& lines_;
  std::string name_;
  NgramModel::Impl& model_;
  std::uint64_t max_entries_;
  std::vector<WordId> ids_;
  std::size_t first_duplicate_line_ = 0;
};

// Exact float32 parse of the common ARPA number shapes ([-]digits[.digits][e[+-]digits]),
// equal to std::from_chars on them; false for anything else (the caller then
// takes the general path). The decimal is first rounded to double, exactly by
// Clinger's fast path (significand <= 2^53, |exponent| <= 22), then to float;
// that double rounding is wrong only if the double lands exactly halfway
// between two floats, and that case is sent to the general path too.
bool parse_float_fast(const char*& cursor, const char* end, float& out) {
  static constexpr double kPowers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const char* p = cursor;
  const bool negative = p < end && *p == '-';
  if (negative) ++p;
  std::uint64_t significand = 0;
  int significant_digits = 0;
  int exponent = 0;
  bool any_digit = false;
  for (; p < end && static_cast<unsigned char>(*p - '0') < 10; ++p) {
    any_digit = true;
    if (significand != 0 || *p != '0') {
      significand = significand * 10 + static_cast<unsigned>(*p - '0');
      ++significant_digits;
    }
  }
  if (p < end && *p == '.') {
    for (++p; p < end && static_cast<unsigned char>(*p - '0') < 10; ++p) {
      any_digit = true;
      --exponent;
      if (significand != 0 || *p != '0') {
        significand = significand * 10 + static_cast<unsigned>(*p - '0');
        ++significant_digits;
      }
    }
  }
  if (!any_digit || significant_digits > 19) return false;
  if (p < end && (*p == 'e' || *p == 'E')) {
    const char* q = p + 1;
    const bool negative_exponent = q < end && *q == '-';
    if (q < end && (*q == '-' || *q == '+')) ++q;
    if (q == end || static_cast<unsigned char>(*q - '0') >= 10) return false;  // from_chars stops before the 'e'
    int value = 0;
    for (; q < end && static_cast<unsigned char>(*q - '0') < 10; ++q) {
      if (value > 10000) return false;
      value = value * 10 + (*q - '0');
    }
    exponent += negative_exponent ? -value : value;
    p = q;
  }
  double magnitude;
  if (significand == 0) {
    magnitude = 0;
  } else {
    if (significand > (std::uint64_t{1} << 53) || exponent < -22 || exponent > 22) return false;
    const double w = static_cast<double>(significand);
    magnitude = exponent < 0 ? w / kPowers[-exponent] : w * kPowers[exponent];
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(magnitude);
    if ((bits & 0x1FFFFFFF) == 0x10000000) return false;  // exactly between two floats
  }
  const float value = static_cast<float>(magnitude);
  out = negative ? -value : value;
  cursor = p;
  return true;
}

float ArpaParser::read_float(std::string_view line, std::size_t& pos, const char* what) const {
  while (pos < line.size() && is_c_space(line[pos])) ++pos;
  {
    const char* cursor = line.data() + pos;
    float fast;
    if (parse_float_fast(cursor, line.data() + line.size(), fast)) {
      pos = static_cast<std::size_t>(cursor - line.data());
      return fast;
    }
  }
  std::size_t end = pos;
  while (end < line.size() && !is_c_space(line[end])) ++end;
  const char* first = line.data() + pos;
  if (first != line.data() + end && *first == '+') ++first;  // double-conversion accepts a leading '+'
  float value = 0;
  const auto [ptr, ec] = std::from_chars(first, line.data() + end, value);
  if (ec == std::errc::result_out_of_range) {
    // strtof semantics: overflow gives +-inf, underflow 0 (from_chars leaves value unset).
    value = std::strtof(std::string(first, line.data() + end).c_str(), nullptr);
  } else if (ec != std::errc() || ptr == first) {
    fail(fmt::format("Could not parse \"{}\" into a float ({})", line.substr(pos, end - pos), what));
  }
  pos = static_cast<std::size_t>((ec == std::errc() ? ptr : line.data() + end) - line.data());
  return value;
}

float ArpaParser::read_probability(std::string_view line, std::size_t& pos, int n) const {
  const std::size_t start = pos;
  const float prob = read_float(line, pos, "probability");
  if (!(prob <= 0.0f)) [[unlikely]] {
    if (std::isnan(prob)) {
      const std::string_view text = line.substr(start, pos - start);
      fail(fmt::format("Could not parse \"{}\" into a float: a NaN log probability in the {}-gram (KenLM refuses it too)",
                       text.substr(std::min(text.find_first_not_of(" \t\v\f\r"), text.size())), n));
    }
    fail(fmt::format("Positive log probability {} in the model (an IRSTLM bug; KenLM refuses it too) in the {}-gram",
                     kenlm_number(prob), n));
  }
  return with_sign_bit(prob);
}

std::vector<std::uint64_t> ArpaParser::read_counts() {
  std::string_view line;
  do {
    if (!next(line)) fail("End of file before \\data\\ (is this an ARPA file?)");
  } while (entirely_white(line) || line.starts_with("#"));
  if (line != "\\data\\") {
    if (line.size() >= 2 && static_cast<unsigned char>(line[0]) == 0x1f && static_cast<unsigned char>(line[1]) == 0x8b) {
      fail("looks like a gzip file inside a compressed file; decompress it first");
    }
    if (line.starts_with("mmap lm http://kheafield.com/code")) {
      // An uncompressed binary goes to KenlmProbingModel before the ARPA parser; this one was compressed.
      fail("a compressed KenLM binary model: decompress it first (evalcli maps KenLM probing binaries in place)");
    }
    if (line.starts_with("blmt")) fail("This looks like an IRSTLM binary file.  Did you forget to pass --text yes to compile-lm?");
    if (line == "iARPA") fail("This looks like an IRSTLM iARPA file.  You need an ARPA file (compile-lm --text yes)");
    const std::string shown(line.substr(0, 200));
    fail(fmt::format("first non-empty line was \"{}\" not \\data\\.", shown));
  }
  std::vector<std::uint64_t> counts;
  while (!entirely_white(line = next_or_fail("the blank line after the \\data\\ counts"))) {
    if (!line.starts_with("ngram ")) fail(fmt::format("count line \"{}\" doesn't begin with \"ngram \"", line));
    const char* p = line.data() + 6;
    const char* end = line.data() + line.size();
    while (p < end && is_c_space(*p)) ++p;  // strtol skips leading spaces
    unsigned length = 0;
    const auto [after_length, ec1] = std::from_chars(p, end, length);
    if (ec1 != std::errc() || length != counts.size() + 1) {
      fail(fmt::format("ngram count lengths should be consecutive starting with 1: {}", line));
    }
    if (after_length == end || *after_length != '=') {
      fail(fmt::format("Expected = immediately following the first number in the count line {}", line));
    }
    const char* q = after_length + 1;
    while (q < end && is_c_space(*q)) ++q;
    std::uint64_t count = 0;
    const auto [after_count, ec2] = std::from_chars(q, end, count);
    if (ec2 != std::errc()) fail(fmt::format("Bad count {}", std::string_view(after_length + 1, end)));
    (void)after_count;
    counts.push_back(count);
  }
  if (counts.empty()) fail("the \\data\\ section lists no n-gram counts");
  return counts;
}

void ArpaParser::read_header(int n) {
  const std::string expected = fmt::format("\\{}-grams:", n);
  const std::string_view line = next_non_blank(expected.c_str());
  if (line != expected) {
    fail(fmt::format("Was expecting n-gram header {} but got {} instead{}", expected, line.substr(0, 200),
                     n >= 2 || !line.starts_with("\\") ? " (does the section before have more entries than \\data\\ announced?)" : ""));
  }
}

float ArpaParser::read_backoff(std::string_view line, std::size_t pos, bool highest, int n) {
  const auto in_entry = [n](const std::string& what) { return fmt::format("{} in the {}-gram", what, n); };
  if (pos == line.size() || (line[pos] == '\r' && pos + 1 == line.size())) return -0.0f;  // see unextended()
  if (line[pos] != '\t') fail(in_entry("Expected tab or newline for backoff"));
  ++pos;
  const float backoff = read_float(line, pos, "backoff");
  if (highest) {
    if (backoff != 0.0f) {
      fail(in_entry(fmt::format("Non-zero backoff {} provided for an n-gram that should have no backoff",
                                kenlm_number(backoff))));
    }
  } else if (!std::isfinite(backoff)) {
    fail(in_entry(fmt::format("Bad backoff {}", kenlm_number(backoff))));
  }
  if (pos < line.size() && !(line[pos] == '\r' && pos + 1 == line.size())) {
    fail(in_entry(fmt::format("Expected newline after backoffs, got '{}'", line[pos])));
  }
  return highest ? 0.0f : unextended(backoff);
}

void ArpaParser::read_unigrams(std::uint64_t count, std::ostream* warnings, bool& has_unknown) {
  read_header(1);
  const std::size_t expected = static_cast<std::size_t>(std::min(count, max_entries_));
  model_.unigrams.reserve(expected + 1);
  model_.unigrams.push_back({0, 0});  // <unk>, filled below or by its entry
  model_.vocab.reserve(expected + 2);
  model_.vocab.insert("<unk>", kUnknownWord);
  model_.vocab.insert("<UNK>", kUnknownWord);
  has_unknown = false;
  const bool highest = model_.order == 1;
  for (std::uint64_t i = 0; i < count; ++i) {
    std::string_view line = next_entry(1);
    if (line[0] == '\\') too_few_entries(1, i, count);
    std::size_t pos = 0;
    const float prob = read_probability(line, pos, 1);
    if (pos >= line.size() || line[pos] != '\t') fail("Expected tab after probability in the 1-gram");
    ++pos;
    while (pos < line.size() && is_arpa_space(line[pos])) ++pos;
    std::size_t end = pos;
    while (end < line.size() && !is_arpa_space(line[end])) ++end;
    const std::string_view word = line.substr(pos, end - pos);
    if (word.empty()) fail("missing word in the 1-gram");
    const float backoff = read_backoff(line, end, highest, 1);
    const auto found = model_.vocab.find(word);
    if (found == kUnknownWord) {  // <unk> and <UNK> are id 0: the last entry wins
      has_unknown = true;
      model_.unigrams[kUnknownWord] = {prob, backoff};
      continue;
    }
    // A repeated word takes the next id, as in KenLM, but look-ups keep finding the first.
    if (found) {
      note_duplicate(lines_.line_number());
    } else {
      model_.vocab.insert(word, static_cast<WordId>(model_.unigrams.size()));
    }
    model_.unigrams.push_back({prob, backoff});
  }
  if (!has_unknown) {
    model_.unigrams[kUnknownWord] = {-100.0f, 0.0f};
    if (warnings != nullptr) *warnings << "The ARPA file is missing <unk>.  Substituting log10 probability -100.\n";
  }
}

void ArpaParser::read_words(std::string_view line, std::size_t& pos, int n) {
  ids_.clear();
  const char* p = line.data() + pos;
  const char* const end = line.data() + line.size();
  for (int i = 0; i < n; ++i) {
    while (p < end && is_arpa_space(*p)) ++p;
    const char* word_end = p;
    while (word_end < end && !is_arpa_space(*word_end)) ++word_end;
    const std::string_view word(p, static_cast<std::size_t>(word_end - p));
    if (word.empty()) fail(fmt::format("the {}-gram has fewer than {} words", n, n));
    const auto found = model_.vocab.find(word);
    if (!found) {
      fail(fmt::format("Word {} was not seen in the unigrams (which are supposed to list the entire vocabulary) "
                       "but appears in the {}-gram",
                       word, n));
    }
    ids_.push_back(*found);
    p = word_end;
  }
  pos = static_cast<std::size_t>(p - line.data());
}

// KenLM inserts "blank" entries for missing suffixes of an n-gram (SRILM-style
// pruning): they make the longest-match walk continue and count in the printed
// n-gram length; their probability is the back-off estimate (computed at query time).
// suffix_keys[m] is the key of the n-gram's last m words.
void ArpaParser::insert_blank_suffixes(int n, const PendingNgram& pending, const std::uint64_t* suffix_keys) {
  const std::uint64_t* context_keys = suffix_keys + n + 1;
  for (int m = n - 1; m >= 2; --m) {
    bool inserted = false;
    model_.middle[static_cast<std::size_t>(m)].find_or_insert(
        MiddleEntry{suffix_keys[m], std::numeric_limits<float>::quiet_NaN(), -0.0f}, inserted);
    if (!inserted) return;  // present: its own suffixes were handled when it was added
    // The blank's context (the last m-1 words of the n-gram's context) is extended, as KenLM's AdjustLower marks it.
    mark_context_extended(static_cast<std::size_t>(m - 1), context_keys[m - 1], pending.context_last);
  }
}

// The (order)-gram with `key` (order >= 2) or the unigram `word` (order 1) is the
// context of an entry: a zero back-off becomes +0 (KenLM's SetExtension).
void ArpaParser::mark_context_extended(std::size_t order, std::uint64_t key, WordId word) {
  if (order == 1) return mark_extended(model_.unigrams[word].backoff);
  if (MiddleEntry* e = model_.middle[order].find(key); e != nullptr) mark_extended(e->backoff);
}

void ArpaParser::parse_ngram(int n, bool highest, std::uint64_t index, std::uint64_t count, PendingNgram& pending,
                             std::uint64_t* suffix_keys) {
  std::string_view line = next_entry(n);
  if (line[0] == '\\') too_few_entries(n, index, count);
  pending.line_number = lines_.line_number();
  std::size_t pos = 0;
  pending.prob = read_probability(line, pos, n);
  read_words(line, pos, n);
  pending.backoff = read_backoff(line, pos, highest, n);
  // Keys of the context's suffixes (its last j words), the whole context last.
  std::uint64_t* context_keys = suffix_keys + n + 1;
  pending.context_last = ids_[n - 2];
  context_keys[1] = start_key(ids_[n - 2]);
  for (int j = 2; j <= n - 1; ++j) context_keys[j] = fold(context_keys[j - 1], ids_[n - 1 - j]);
  pending.context = context_keys[n - 1];
  if (n > 2) model_.middle[static_cast<std::size_t>(n - 1)].prefetch(pending.context);
  // Keys of the suffixes (last m words), the whole n-gram last.
  suffix_keys[1] = start_key(ids_[n - 1]);
  for (int m = 2; m <= n; ++m) suffix_keys[m] = fold(suffix_keys[m - 1], ids_[n - m]);
  if (highest) {
    model_.longest.prefetch(suffix_keys[n]);
  } else {
    model_.middle[static_cast<std::size_t>(n)].prefetch(suffix_keys[n]);
  }
  if (n > 2) model_.middle[static_cast<std::size_t>(n - 1)].prefetch(suffix_keys[n - 1]);
}

void ArpaParser::add_ngram(int n, bool highest, const PendingNgram& pending, const std::uint64_t* suffix_keys) {
  // The context (first n-1 words) must be an (n-1)-gram of the model (valid
  // until middle[n - 1] grows, which only the blanks below can make it do).
  MiddleEntry* context = nullptr;
  if (n > 2) {
    context = model_.middle[static_cast<std::size_t>(n - 1)].find(pending.context);
    if (context == nullptr) {
      fail_at(pending.line_number, fmt::format("The context of every {}-gram should appear as a {}-gram", n, n - 1));
    }
  }
  // Of duplicate entries the first is kept: KenLM's probing tables insert the
  // repeat after it, where no look-up reaches.
  bool inserted = false;
  if (highest) {
    model_.longest.find_or_insert(LongestEntry{suffix_keys[n], pending.prob}, inserted);
  } else {
    model_.middle[static_cast<std::size_t>(n)].find_or_insert(MiddleEntry{suffix_keys[n], pending.prob, pending.backoff},
                                                              inserted);
  }
  if (!inserted) return note_duplicate(pending.line_number);
  mark_extended(context != nullptr ? context->backoff : model_.unigrams[pending.context_last].backoff);
  insert_blank_suffixes(n, pending, suffix_keys);
}

// Entries are parsed a batch at a time, their table slots prefetched, then
// checked and inserted in file order: the random accesses to the (large)
// tables overlap instead of stalling one after another. The result, and the
// first error reported, are those of one-by-one processing.
void ArpaParser::read_ngrams(int n, std::uint64_t count) {
  read_header(n);
  const bool highest = n == model_.order;
  const std::size_t expected = static_cast<std::size_t>(std::min(count, max_entries_));
  if (highest) {
    model_.longest.reserve(expected);
  } else {
    model_.middle[static_cast<std::size_t>(n)].reserve(expected);
  }
  constexpr std::size_t kBatch = 32;
  const std::size_t stride = 2 * static_cast<std::size_t>(n) + 1;
  PendingNgram pending[kBatch];
  std::vector<std::uint64_t> keys(kBatch * stride);
  for (std::uint64_t done = 0; done < count;) {
    const std::size_t batch = static_cast<std::size_t>(std::min<std::uint64_t>(kBatch, count - done));
    std::size_t parsed = 0;
    try {
      for (; parsed < batch; ++parsed) parse_ngram(n, highest, done + parsed, count, pending[parsed], &keys[parsed * stride]);
    } catch (...) {
      // Entries before the bad line come first (their own errors are reported first).
      for (std::size_t i = 0; i < parsed; ++i) add_ngram(n, highest, pending[i], &keys[i * stride]);
      throw;
    }
    for (std::size_t i = 0; i < batch; ++i) add_ngram(n, highest, pending[i], &keys[i * stride]);
    done += batch;
  }
}

void ArpaParser::read_end() {
  const std::string_view line = next_non_blank("\\end\\");
  if (line != "\\end\\") {
    fail(fmt::format("Expected \\end\\ but the ARPA file has {} (does the last section have more entries than "
                     "\\data\\ announced?)",
                     line.substr(0, 200)));
  }
  std::string_view rest;
  while (next(rest)) {
    if (!entirely_white(rest)) fail(fmt::format("Trailing line {}", rest.substr(0, 200)));
  }
}

// Hashes every byte read (the model's identity in signatures) on its way to the parser.
class Md5Source : public io::ByteSource {
 public:
  Md5Source(std::unique_ptr<io::ByteSource> inner, bool enabled) : inner_(std::move(inner)), enabled_(enabled) {}
  std::size_t read(char* out, std::size_t size) override {
    const std::size_t n = inner_->read(out, size);
    if (enabled_) md5_.update(std::string_view(out, n));
    return n;
  }
  io::Compression compression() const override { return inner_->compression(); }
  std::string hex_digest() { return md5_.hex_digest(); }

 private:
  std::unique_ptr<io::ByteSource> inner_;
  bool enabled_;
  Md5 md5_;
};

}  // namespace

NgramModel::NgramModel() : impl_(std::make_unique<Impl>()) {}
NgramModel::~NgramModel() = default;

std::unique_ptr<NgramModel> NgramModel::load(const std::string& path, std::ostream* warnings, bool identify) {
  if (looks_like_kenlm_binary(path)) return load_kenlm_binary(path, identify);
  Md5Source source(io::open_decompressed_file(path), identify);
  // The line limit (EVALCLI_MAX_LINE_BYTES) bounds memory on a file without line ends (/dev/zero).
  io::LineSplitter lines(source, kReadBlock, io::max_line_bytes(), path);
  std::unique_ptr<NgramModel> model(new NgramModel());
  Impl& impl = *model->impl_;
  // An entry line has at least 4 bytes ("0\tw\n"); compressed files are
  // allowed far more than gzip's maximum ratio (~1032:1). Only the initial
  // sizes are capped: a table that fills up grows.
  std::error_code size_error;
  const std::uint64_t file_size = std::filesystem::file_size(path, size_error);
  const std::uint64_t max_entries =
      size_error ? std::numeric_limits<std::uint64_t>::max()
                 : (source.compression() == io::Compression::none ? file_size : file_size * 1100) / 4 + 16;
  ArpaParser parser(lines, path, impl, max_entries);
  model->counts_ = parser.read_counts();
  impl.order = static_cast<int>(model->counts_.size());
  if (impl.order < 2) {
    throw input_error(fmt::format("{}: This ngram implementation assumes at least a bigram model "
                                  "(KenLM refuses unigram-only ARPA files, and so does evalcli)",
                                  path));
  }
  if (impl.order > kMaxOrder) {
    throw input_error(fmt::format("{}: order {} is higher than the {} evalcli supports", path, impl.order, kMaxOrder));
  }
  impl.middle.resize(static_cast<std::size_t>(impl.order));
  parser.read_unigrams(model->counts_[0], warnings, model->has_unknown_);
  for (int n = 2; n <= impl.order; ++n) parser.read_ngrams(n, model->counts_[static_cast<std::size_t>(n - 1)]);
  parser.read_end();
  model->first_duplicate_line_ = parser.first_duplicate_line();
  if (identify) model->md5_ = source.hex_digest();
  for (const char* marker : {"<s>", "</s>"}) {
    if (!impl.vocab.find(marker)) {
      throw input_error(fmt::format("{}: The ARPA file is missing {} and the model is configured to reject these models.",
                                    path, marker));
    }
  }
  model->begin_sentence_ = *impl.vocab.find("<s>");
  model->end_sentence_ = *impl.vocab.find("</s>");
  return model;
}

namespace {

// The look-ups the back-off rule needs, over the tables an ARPA file was read
// into (KenlmProbingModel offers the same over a KenLM binary's tables).
class ArpaSearch {
 public:
  explicit ArpaSearch(const NgramModel::Impl& impl) : impl_(impl) {}
  int order() const { return impl_.order; }
  static std::uint64_t hash_word(std::string_view word) { return ppl::hash_word(word); }
  static std::uint64_t start_key(WordId word) { return ppl::start_key(word); }
  static std::uint64_t fold(std::uint64_t key, WordId word) { return ppl::fold(key, word); }
  WordId find_word(std::uint64_t hash) const { return impl_.vocab.find_hash(hash).value_or(kUnknownWord); }
  [[gnu::always_inline]] void prefetch_word(std::uint64_t hash) const { impl_.vocab.prefetch(hash); }
  ProbBackoff unigram(WordId word) const {
    const Weights& w = impl_.unigrams[word];
    return {w.prob, w.backoff};
  }
  [[gnu::always_inline]] void prefetch_unigram(WordId word) const { __builtin_prefetch(impl_.unigrams.data() + word); }
  bool find_middle(int n, std::uint64_t key, ProbBackoff& out) const {
    const MiddleEntry* e = impl_.middle[static_cast<std::size_t>(n)].find(key);
    if (e == nullptr) return false;
    out = {e->prob, e->backoff};
    return true;
  }
  bool find_longest(std::uint64_t key, float& prob) const {
    const LongestEntry* e = impl_.longest.find(key);
    if (e == nullptr) return false;
    prob = e->prob;
    return true;
  }
  [[gnu::always_inline]] void prefetch(int n, std::uint64_t key) const { impl_.prefetch(n, key); }

 private:
  const NgramModel::Impl& impl_;
};

// The n-gram (n >= 2) with `key` in either search; the highest order has back-off 0.
template <class Search>
bool find_ngram(const Search& search, int n, std::uint64_t key, float& prob, float& backoff) {
  if (n == search.order()) {
    backoff = 0.0f;
    return search.find_longest(key, prob);
  }
  ProbBackoff found;
  if (!search.find_middle(n, key, found)) return false;
  prob = found.prob;
  backoff = found.backoff;
  return true;
}

template <class Search>
void index_words(const Search& search, std::span<const std::string_view> words, std::vector<WordId>& out) {
  std::uint64_t hashes[32];
  for (std::size_t begin = 0; begin < words.size(); begin += 32) {
    const std::size_t n = std::min<std::size_t>(32, words.size() - begin);
    for (std::size_t i = 0; i < n; ++i) {
      hashes[i] = search.hash_word(words[begin + i]);
      search.prefetch_word(hashes[i]);
    }
    for (std::size_t i = 0; i < n; ++i) out.push_back(search.find_word(hashes[i]));
  }
}

// Hash keys of the n-grams that end with a word and extend to the left over
// the words before it (at most order()-1 of them): keys[i] is the key of the
// (i+2)-gram. prepare_keys() prefetches their table slots, so that the word's
// score_state() a little later finds them in the cache.
struct NgramKeys {
  std::uint64_t keys[kMaxOrder];
  // The longest state the word can leave, where the look-ups tell (a trie
  // walk stops at the first n-gram absent): the next word's prepare_keys()
  // needs no longer history. kMaxOrder when unknown (hashed keys are not looked up).
  std::size_t next_context_limit = kMaxOrder;
};

// `context_limit`: the previous word's next_context_limit. As KenLM's walk,
// which stops at the end of its state: past it the n-gram cannot exist,
// and a trie would search for it in vain.
template <class Search>
void prepare_keys(const Search& search, std::span<const WordId> words, NgramKeys& keys,
                  std::size_t context_limit) {
  keys.next_context_limit = kMaxOrder;
  if (words.empty()) return;
  const std::size_t history =
      std::min({words.size() - 1, static_cast<std::size_t>(search.order() - 1), context_limit});
  const WordId* last = words.data() + words.size() - 1;
  search.prefetch_unigram(*last);  // read first by score()
  std::uint64_t key = search.start_key(*last);
  std::size_t i = 0;
  for (; i < history; ++i) {
    key = search.fold(key, last[-1 - static_cast<std::ptrdiff_t>(i)]);
    keys.keys[i] = key;
    if constexpr (requires { Search::kAbsent; }) {  // a trie walk: nothing longer past an absent n-gram
      if (key == Search::kAbsent) break;
    }
    search.prefetch(static_cast<int>(i) + 2, key);
  }
  // The state after this word holds at most the word and the i context words found.
  if constexpr (requires { Search::kAbsent; }) keys.next_context_limit = i + 1;
}

template <class Search>
WordScore score_history(const Search& search, std::span<const WordId> history, WordId word) {
  const std::size_t k = std::min(history.size(), static_cast<std::size_t>(search.order() - 1));
  float prob = search.unigram(word).prob;
  std::size_t real_length = 1;  // longest n-gram with a probability
  std::size_t any_length = 1;   // longest n-gram including blanks (KenLM's ngram_length)
  std::uint64_t key = search.start_key(word);
  for (std::size_t i = 0; i < k; ++i) {
    key = search.fold(key, history[i]);
    float p, b;
    if (!find_ngram(search, static_cast<int>(i + 2), key, p, b)) break;  // blanks fill every gap, so nothing longer exists
    any_length = i + 2;
    if (!is_blank(p)) {
      prob = p;
      real_length = i + 2;
    }
  }
  // Back off through the contexts longer than the matched one, shortest first.
  float backoffs[kMaxOrder];
  std::size_t contexts = 0;  // contexts of orders 1 .. contexts are in the model
  if (k >= 1) {
    backoffs[contexts++] = search.unigram(history[0]).backoff;
    std::uint64_t context = search.start_key(history[0]);
    for (std::size_t m = 2; m <= k; ++m) {
      context = search.fold(context, history[m - 1]);
      float p;
      if (!find_ngram(search, static_cast<int>(m), context, p, backoffs[contexts])) break;
      ++contexts;
    }
  }
  prob = add_backoffs(prob, backoffs, real_length, any_length, contexts);
  return {prob, static_cast<unsigned>(any_length)};
}

template <class Search>
NgramModel::State begin_state(const Search& search, WordId begin_sentence) {
  NgramModel::State state;
  state.words[0] = begin_sentence;
  state.backoffs[0] = search.unigram(begin_sentence).backoff;
  state.length = 1;
  return state;
}

template <class Search>
void fold_state_keys(const Search& search, const NgramModel::State& in, WordId word, NgramKeys& keys) {
  std::uint64_t key = search.start_key(word);
  for (std::size_t i = 0; i < in.length; ++i) keys.keys[i] = key = search.fold(key, in.words[i]);
}

template <class Search>
[[gnu::always_inline]] inline WordScore score_state(const Search& search, const NgramModel::State& in, WordId word,
                                                    const NgramKeys& ngram_keys, NgramModel::State& out) {
  const std::size_t keep = static_cast<std::size_t>(search.order() - 1);
  const ProbBackoff unigram = search.unigram(word);
  float prob = unigram.prob;
  std::size_t real_length = 1;
  std::size_t any_length = 1;
  out.words[0] = word;
  out.backoffs[0] = unigram.backoff;
  // Only n-grams whose context is in the state can exist (every n-gram's
  // context is an n-gram, blanks included), so the walk stops at in.length.
  const std::size_t length = in.length;
  const std::uint64_t* keys = ngram_keys.keys;
  std::size_t i = 0;
  for (; i < length && i + 1 < keep; ++i) {  // orders 2 .. N-1
    ProbBackoff found;
    if (!search.find_middle(static_cast<int>(i + 2), keys[i], found)) break;
    any_length = i + 2;
    out.words[i + 1] = in.words[i];
    out.backoffs[i + 1] = found.backoff;
    if (!is_blank(found.prob)) {
      prob = found.prob;
      real_length = i + 2;
    }
  }
  if (i == keep - 1 && i < length) {  // every lower order matched: the highest order
    if (float p; search.find_longest(keys[i], p)) {
      any_length = i + 2;
      prob = p;
      real_length = i + 2;
    }
  }
  prob = add_backoffs(prob, in.backoffs, real_length, any_length, length);
  out.length = std::min(any_length, keep);
  return {prob, static_cast<unsigned>(any_length)};
}

// NgramModel::score_words() with one model's look-ups, all inlined.
template <class Search>
void score_words_with(const Search& search, std::span<const WordId> ids, std::size_t first,
                      const NgramModel::State& start, std::vector<WordScore>& scores) {
  scores.resize(ids.size() - first);
  // Keys of the word being scored and of the next kAhead ones, in a ring:
  // their table slots are prefetched kAhead words before they are read (one
  // word ahead is shorter than a cache miss on this path).
  constexpr std::size_t kAhead = 3;
  constexpr std::size_t kRing = 4;  // > kAhead, a power of two
  NgramKeys keys[kRing];
  // Each word's history is bounded by what the previous word's keys found (prepared just before it).
  const auto prepare = [&](std::size_t j) {
    const std::size_t limit = j == first ? kMaxOrder : keys[(j - 1 - first) % kRing].next_context_limit;
    prepare_keys(search, ids.first(j + 1), keys[(j - first) % kRing], limit);
  };
  for (std::size_t j = first; j < std::min(first + kAhead, ids.size()); ++j) prepare(j);
  // Two states used in turn (a State is a few hundred bytes: not copied per word).
  NgramModel::State states[2];
  states[0] = start;
  int current = 0;
  for (std::size_t j = first; j < ids.size(); ++j) {
    if (j + kAhead < ids.size()) prepare(j + kAhead);
    scores[j - first] = score_state(search, states[current], ids[j], keys[(j - first) % kRing], states[current ^ 1]);
    current ^= 1;
  }
}

}  // namespace

// Every look-up goes to the binary's tables or to the ARPA's: one branch per
// call, the same code for both.
template <class Function>
decltype(auto) NgramModel::with_search(Function&& function) const {
  if (impl_->binary) return function(*impl_->binary);
  if (impl_->trie) return function(*impl_->trie);
  return function(ArpaSearch(*impl_));
}

// A KenLM binary (probing or trie): its tables are used where they are in the file.
std::unique_ptr<NgramModel> NgramModel::load_kenlm_binary(const std::string& path, bool identify) {
  std::unique_ptr<NgramModel> model(new NgramModel());
  io::MappedFile file = map_kenlm_binary(path);
  const KenlmHeader header = read_kenlm_header(file.bytes(), path);
  const auto adopt = [&](auto& binary) {
    model->counts_ = binary->counts();
    // Each marker looked up once; checked before the MD5 pass over the whole file.
    const auto marker_id = [&](const char* marker) {
      const WordId id = binary->find_word(binary->hash_word(marker));
      if (id == kUnknownWord) {
        throw input_error(fmt::format("{}: The binary model is missing {} and evalcli refuses such models.", path, marker));
      }
      return id;
    };
    model->begin_sentence_ = marker_id("<s>");
    model->end_sentence_ = marker_id("</s>");
    if (identify) {
      Md5 md5;
      md5.update(binary->file_bytes());
      model->md5_ = md5.hex_digest();
    }
    model->impl_->order = binary->order();
  };
  if (header.model_type == kKenlmProbing) {
    model->impl_->binary = std::make_unique<KenlmProbingModel>(std::move(file), header, path);
    adopt(model->impl_->binary);
  } else {
    model->impl_->trie = std::make_unique<KenlmTrieModel>(std::move(file), header, path);
    adopt(model->impl_->trie);
  }
  return model;
}

WordId NgramModel::index(std::string_view word) const {
  return with_search([&](const auto& search) { return search.find_word(search.hash_word(word)); });
}

void NgramModel::index_all(std::span<const std::string_view> words, std::vector<WordId>& out) const {
  with_search([&](const auto& search) { index_words(search, words, out); });
}

WordScore NgramModel::score(std::span<const WordId> history, WordId word) const {
  return with_search([&](const auto& search) { return score_history(search, history, word); });
}

NgramModel::State NgramModel::begin_sentence_state() const {
  return with_search([&](const auto& search) { return begin_state(search, begin_sentence_); });
}

WordScore NgramModel::score(const State& in, WordId word, State& out) const {
  return with_search([&](const auto& search) {
    NgramKeys keys;
    fold_state_keys(search, in, word, keys);
    return score_state(search, in, word, keys, out);
  });
}

void NgramModel::score_words(std::span<const WordId> ids, std::size_t first, const State& start,
                             std::vector<WordScore>& scores) const {
  with_search([&](const auto& search) { score_words_with(search, ids, first, start, scores); });
}

}  // namespace evalcli::ppl
