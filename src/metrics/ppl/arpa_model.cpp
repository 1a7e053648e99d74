// ARPA back-off model: strict parsing with KenLM's rules (lm/read_arpa.*),
// n-grams in open-addressing hash tables keyed by a 64-bit hash of their
// word ids (as KenLM's probing structure), and the back-off rule in float32.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <ostream>
#include <optional>

#include "evalcli/core/error.hpp"
#include "evalcli/io/decompress.hpp"
#include "evalcli/metrics/ppl.hpp"

namespace evalcli::ppl {
namespace {

// Hash of an n-gram folded from its LAST word backwards, so that lookups can
// extend a key to the left (older history) one word at a time.
inline std::uint64_t fold(std::uint64_t h, WordId id) {
  std::uint64_t x = (h ^ (static_cast<std::uint64_t>(id) + 0x9E3779B97F4A7C15ULL)) * 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 31;
  x *= 0x94D049BB133111EBULL;
  x ^= x >> 29;
  return x | 1;  // 0 marks an empty slot
}
inline std::uint64_t start_key(WordId id) { return fold(0x2545F4914F6CDD1DULL, id); }

struct Entry {
  std::uint64_t key;
  float prob;     // NaN = blank: a missing suffix of a longer n-gram (KenLM inserts these)
  float backoff;
};

bool is_blank(const Entry& e) { return std::isnan(e.prob); }

// Open addressing with linear probing.
class NgramTable {
 public:
  void reserve(std::size_t count) { rebuild(std::max<std::size_t>(16, count + count / 2 + 16)); }

  const Entry* find(std::uint64_t key) const {
    std::size_t i = slot(key);
    while (true) {
      const Entry& e = slots_[i];
      if (e.key == key) return &e;
      if (e.key == 0) return nullptr;
      if (++i == slots_.size()) i = 0;
    }
  }
  // Returns the entry for `key`, inserting `fresh` if absent.
  Entry& find_or_insert(const Entry& fresh, bool& inserted) {
    if ((size_ + 1) * 10 > slots_.size() * 9) rebuild(slots_.size() * 2);
    std::size_t i = slot(fresh.key);
    while (true) {
      Entry& e = slots_[i];
      if (e.key == fresh.key) {
        inserted = false;
        return e;
      }
      if (e.key == 0) {
        e = fresh;
        ++size_;
        inserted = true;
        return e;
      }
      if (++i == slots_.size()) i = 0;
    }
  }

 private:
  std::size_t slot(std::uint64_t key) const {
    return static_cast<std::size_t>((static_cast<unsigned __int128>(key) * slots_.size()) >> 64);
  }
  void rebuild(std::size_t capacity) {
    std::vector<Entry> old = std::move(slots_);
    slots_.assign(capacity, Entry{0, 0, 0});
    size_ = 0;
    bool inserted;
    for (const Entry& e : old) {
      if (e.key != 0) find_or_insert(e, inserted);
    }
  }
  std::vector<Entry> slots_;
  std::size_t size_ = 0;
};

struct Weights {
  float prob;
  float backoff;
};

// Word -> id, open addressing over 64-bit string hashes; the words live in one arena.
class Vocabulary {
 public:
  void reserve(std::size_t count) { rebuild(std::max<std::size_t>(64, count * 2)); }
  std::optional<WordId> find(std::string_view word) const {
    const std::uint64_t hash = hash_of(word);
    for (std::size_t i = slot(hash);; i = i + 1 == slots_.size() ? 0 : i + 1) {
      const Slot& s = slots_[i];
      if (s.hash == 0) return std::nullopt;
      if (s.hash == hash && s.length == word.size() && std::memcmp(arena_.data() + s.offset, word.data(), word.size()) == 0) {
        return s.id;
      }
    }
  }
  // Adds `word` (which must be absent).
  void insert(std::string_view word, WordId id) {
    if ((size_ + 1) * 10 > slots_.size() * 7) rebuild(slots_.size() * 2);
    place(Slot{hash_of(word), id, static_cast<std::uint32_t>(word.size()), arena_.size()});
    arena_.append(word);
    ++size_;
  }

 private:
  struct Slot {
    std::uint64_t hash;  // 0 = empty
    WordId id;
    std::uint32_t length;
    std::size_t offset;  // in arena_
  };
  static std::uint64_t hash_of(std::string_view word) { return std::hash<std::string_view>{}(word) | 1; }
  std::size_t slot(std::uint64_t hash) const {
    return static_cast<std::size_t>((static_cast<unsigned __int128>(hash * 0x9E3779B97F4A7C15ULL) * slots_.size()) >> 64);
  }
  void place(const Slot& fresh) {
    std::size_t i = slot(fresh.hash);
    while (slots_[i].hash != 0) i = i + 1 == slots_.size() ? 0 : i + 1;
    slots_[i] = fresh;
  }
  void rebuild(std::size_t capacity) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot{0, 0, 0, 0});
    for (const Slot& s : old) {
      if (s.hash != 0) place(s);
    }
  }
  std::vector<Slot> slots_ = std::vector<Slot>(64, Slot{0, 0, 0, 0});
  std::string arena_;
  std::size_t size_ = 0;
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
  std::vector<Weights> unigrams;        // by word id
  std::vector<NgramTable> tables;       // tables[n] for n-grams of order n >= 2 (0, 1 unused)
  int order = 0;
};

namespace {

// Parses the ARPA text line by line, raising KenLM's errors with a line number.
class ArpaParser {
 public:
  ArpaParser(io::LineSplitter& lines, std::string name, NgramModel::Impl& model, Md5& md5)
      : lines_(lines), name_(std::move(name)), model_(model), md5_(md5) {}

  std::vector<std::uint64_t> read_counts();
  void read_unigrams(std::uint64_t count, std::ostream* warnings, bool& has_unknown);
  void read_ngrams(int n, std::uint64_t count);
  void read_end();

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw input_error(fmt::format("{}:{}: {}", name_, lines_.line_number(), what));
  }
  [[noreturn]] void too_few_entries(int n, std::uint64_t seen, std::uint64_t count) const {
    fail(fmt::format("the \\{}-grams: section has {} entries but \\data\\ announced {}", n, seen, count));
  }
  bool next(std::string_view& line) {
    bool terminated = true;
    if (!lines_.next(line, &terminated)) return false;
    md5_.update(line);
    if (terminated) md5_.update("\n");
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
  // A float as KenLM's ReadFloat: leading spaces skipped, trailing junk left.
  float read_float(std::string_view line, std::size_t& pos, const char* what) const;
  void read_header(int n);
  // Parses the words of an n-gram entry into ids_ (checked against the vocabulary).
  void read_words(std::string_view line, std::size_t& pos, int n);
  // Reads the optional back-off column; returns 0 if absent.
  float read_backoff(std::string_view line, std::size_t pos, bool highest, int n);
  void insert_blank_suffixes(int n);

  io::LineSplitter& lines_;
  std::string name_;
  NgramModel::Impl& model_;
  Md5& md5_;
  std::vector<WordId> ids_;
};

float ArpaParser::read_float(std::string_view line, std::size_t& pos, const char* what) const {
  while (pos < line.size() && is_c_space(line[pos])) ++pos;
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
      fail("this is a KenLM binary model, which evalcli does not read: pass the ARPA file it was built from "
           "(KenLM binaries are memory images tied to KenLM's build; see docs/ppl.md)");
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
  if (pos == line.size() || (line[pos] == '\r' && pos + 1 == line.size())) return 0.0f;
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
  return highest ? 0.0f : backoff;
}

void ArpaParser::read_unigrams(std::uint64_t count, std::ostream* warnings, bool& has_unknown) {
  read_header(1);
  model_.unigrams.reserve(count + 1);
  model_.unigrams.push_back({0, 0});  // <unk>, filled below or by its entry
  model_.vocab.reserve(count + 2);
  model_.vocab.insert("<unk>", kUnknownWord);
  model_.vocab.insert("<UNK>", kUnknownWord);
  has_unknown = false;
  const bool highest = model_.order == 1;
  for (std::uint64_t i = 0; i < count; ++i) {
    std::string_view line = next_non_blank("a 1-gram entry");
    if (line.starts_with("\\")) too_few_entries(1, i, count);
    std::size_t pos = 0;
    float prob = read_float(line, pos, "probability");
    if (prob > 0.0f) {
      fail(fmt::format("Positive log probability {} in the model (an IRSTLM bug; KenLM refuses it too) in the 1-gram",
                       kenlm_number(prob)));
    }
    if (pos >= line.size() || line[pos] != '\t') fail("Expected tab after probability in the 1-gram");
    ++pos;
    while (pos < line.size() && is_arpa_space(line[pos])) ++pos;
    std::size_t end = pos;
    while (end < line.size() && !is_arpa_space(line[end])) ++end;
    const std::string_view word = line.substr(pos, end - pos);
    if (word.empty()) fail("missing word in the 1-gram");
    const float backoff = read_backoff(line, end, highest, 1);
    WordId id;
    const auto found = model_.vocab.find(word);
    if (found) {
      id = *found;  // <unk>/<UNK> (or a duplicate entry: the last one wins)
      if (id == kUnknownWord) has_unknown = true;
    } else {
      id = static_cast<WordId>(model_.unigrams.size());
      model_.vocab.insert(word, id);
      model_.unigrams.push_back({0, 0});
    }
    model_.unigrams[id] = {prob, backoff};
  }
  if (!has_unknown) {
    model_.unigrams[kUnknownWord] = {-100.0f, 0.0f};
    if (warnings != nullptr) *warnings << "The ARPA file is missing <unk>.  Substituting log10 probability -100.\n";
  }
}

void ArpaParser::read_words(std::string_view line, std::size_t& pos, int n) {
  ids_.clear();
  for (int i = 0; i < n; ++i) {
    while (pos < line.size() && is_arpa_space(line[pos])) ++pos;
    std::size_t end = pos;
    while (end < line.size() && !is_arpa_space(line[end])) ++end;
    const std::string_view word = line.substr(pos, end - pos);
    if (word.empty()) fail(fmt::format("the {}-gram has fewer than {} words", n, n));
    const auto found = model_.vocab.find(word);
    if (!found) {
      fail(fmt::format("Word {} was not seen in the unigrams (which are supposed to list the entire vocabulary) "
                       "but appears in the {}-gram",
                       word, n));
    }
    ids_.push_back(*found);
    pos = end;
  }
}

// KenLM inserts "blank" entries for missing suffixes of an n-gram (SRILM-style
// pruning): they make the longest-match walk continue and count in the printed
// n-gram length; their probability is the back-off estimate (computed at query time).
void ArpaParser::insert_blank_suffixes(int n) {
  for (int m = n - 1; m >= 2; --m) {
    // Suffix of length m: the last m words of ids_.
    std::uint64_t key = start_key(ids_[n - 1]);
    for (int i = n - 2; i >= n - m; --i) key = fold(key, ids_[i]);
    bool inserted = false;
    model_.tables[m].find_or_insert(Entry{key, std::numeric_limits<float>::quiet_NaN(), 0.0f}, inserted);
    if (!inserted) return;  // present: its own suffixes were handled when it was added
  }
}

void ArpaParser::read_ngrams(int n, std::uint64_t count) {
  read_header(n);
  NgramTable& table = model_.tables[n];
  table.reserve(count);
  const bool highest = n == model_.order;
  for (std::uint64_t i = 0; i < count; ++i) {
    std::string_view line = next_non_blank(fmt::format("a {}-gram entry", n).c_str());
    if (line.starts_with("\\")) too_few_entries(n, i, count);
    std::size_t pos = 0;
    const float prob = read_float(line, pos, "probability");
    if (prob > 0.0f) {
      fail(fmt::format("Positive log probability {} in the model (an IRSTLM bug; KenLM refuses it too) in the {}-gram",
                       kenlm_number(prob), n));
    }
    read_words(line, pos, n);
    const float backoff = read_backoff(line, pos, highest, n);
    // The context (first n-1 words) must be an (n-1)-gram of the model.
    if (n > 2) {
      std::uint64_t context = start_key(ids_[n - 2]);
      for (int k = n - 3; k >= 0; --k) context = fold(context, ids_[k]);
      if (model_.tables[n - 1].find(context) == nullptr) {
        fail(fmt::format("The context of every {}-gram should appear as a {}-gram", n, n - 1));
      }
    }
    std::uint64_t key = start_key(ids_[n - 1]);
    for (int k = n - 2; k >= 0; --k) key = fold(key, ids_[k]);
    bool inserted = false;
    Entry& entry = table.find_or_insert(Entry{key, prob, backoff}, inserted);
    entry.prob = prob;  // also turns an earlier blank into a real entry
    entry.backoff = backoff;
    if (inserted) insert_blank_suffixes(n);
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

}  // namespace

NgramModel::NgramModel() : impl_(std::make_unique<Impl>()) {}
NgramModel::~NgramModel() = default;

std::unique_ptr<NgramModel> NgramModel::load(const std::string& path, std::ostream* warnings) {
  auto source = io::open_decompressed_file(path);
  io::LineSplitter lines(*source);
  std::unique_ptr<NgramModel> model(new NgramModel());
  Impl& impl = *model->impl_;
  Md5 md5;
  ArpaParser parser(lines, path, impl, md5);
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
  impl.tables.resize(static_cast<std::size_t>(impl.order) + 1);
  parser.read_unigrams(model->counts_[0], warnings, model->has_unknown_);
  for (int n = 2; n <= impl.order; ++n) parser.read_ngrams(n, model->counts_[static_cast<std::size_t>(n - 1)]);
  parser.read_end();
  model->md5_ = md5.hex_digest();
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

WordId NgramModel::index(std::string_view word) const {
  return impl_->vocab.find(word).value_or(kUnknownWord);
}

WordScore NgramModel::score(std::span<const WordId> history, WordId word) const {
  const Impl& impl = *impl_;
  const std::size_t k = std::min(history.size(), static_cast<std::size_t>(impl.order - 1));
  float prob = impl.unigrams[word].prob;
  std::size_t real_length = 1;  // longest n-gram with a probability
  std::size_t any_length = 1;   // longest n-gram including blanks (KenLM's ngram_length)
  std::uint64_t key = start_key(word);
  for (std::size_t i = 0; i < k; ++i) {
    key = fold(key, history[i]);
    const Entry* e = impl.tables[i + 2].find(key);
    if (e == nullptr) break;  // blanks fill every gap, so nothing longer exists
    any_length = i + 2;
    if (!is_blank(*e)) {
      prob = e->prob;
      real_length = i + 2;
    }
  }
  // Back off through the contexts longer than the matched one, shortest first.
  if (k >= real_length) {
    std::uint64_t context = start_key(history[0]);
    for (std::size_t m = 1; m <= k; ++m) {
      float backoff;
      if (m == 1) {
        backoff = impl.unigrams[history[0]].backoff;
      } else {
        context = fold(context, history[m - 1]);
        const Entry* e = impl.tables[m].find(context);
        if (e == nullptr) break;
        backoff = e->backoff;
      }
      if (m >= real_length) prob += backoff;
    }
  }
  return {prob, static_cast<unsigned>(any_length)};
}

NgramModel::State NgramModel::begin_sentence_state() const {
  State state;
  state.words[0] = begin_sentence_;
  state.backoffs[0] = impl_->unigrams[begin_sentence_].backoff;
  state.length = 1;
  return state;
}

WordScore NgramModel::score(const State& in, WordId word, State& out) const {
  const Impl& impl = *impl_;
  const std::size_t keep = static_cast<std::size_t>(impl.order - 1);
  float prob = impl.unigrams[word].prob;
  std::size_t real_length = 1;
  std::size_t any_length = 1;
  out.words[0] = word;
  out.backoffs[0] = impl.unigrams[word].backoff;
  // Only n-grams whose context is in the state can exist (every n-gram's
  // context is an n-gram, blanks included), so the walk stops at in.length.
  std::uint64_t key = start_key(word);
  for (std::size_t i = 0; i < in.length; ++i) {
    key = fold(key, in.words[i]);
    const Entry* e = impl.tables[i + 2].find(key);
    if (e == nullptr) break;
    any_length = i + 2;
    if (i + 1 < keep) {
      out.words[i + 1] = in.words[i];
      out.backoffs[i + 1] = e->backoff;
    }
    if (!is_blank(*e)) {
      prob = e->prob;
      real_length = i + 2;
    }
  }
  for (std::size_t m = real_length; m <= in.length; ++m) prob += in.backoffs[m - 1];
  out.length = std::min(any_length, keep);
  return {prob, static_cast<unsigned>(any_length)};
}

}  // namespace evalcli::ppl
