// WordNet 3.0 reader with NLTK 3.8's lookup semantics (see the header).
#include "evalcli/metrics/wordnet.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <optional>

#include "evalcli/core/error.hpp"
#include "evalcli/io/mapped_file.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli {
namespace {

constexpr const char* kHint = "hint: install the Debian package wordnet-base (or pass --wordnet DIR)";
constexpr std::array<const char*, 4> kPosFileSuffix = {"noun", "verb", "adj", "adv"};

Error missing_file(const std::filesystem::path& path, const std::string& what) {
  return Error(ExitCode::missing_resource, fmt::format("{}: {}", path.string(), what), kHint);
}

// A line of a WordNet file that does not parse: the database is damaged.
Error corrupt_line(const std::filesystem::path& path, std::size_t line, const std::string& what) {
  return Error(ExitCode::missing_resource, fmt::format("{}:{}: {}", path.string(), line, what), kHint);
}

// A file of lines cut short ends without its line end: a truncated download or
// copy, whose missing lemmas or synsets would otherwise just be "not found".
void check_not_truncated(const std::filesystem::path& path, std::string_view bytes) {
  if (!bytes.empty() && bytes.back() != '\n') {
    throw missing_file(path, "truncated WordNet file: its last line has no line end");
  }
}

// A whole WordNet file mapped read-only (pages read when a look-up touches them).
io::MappedFile map_wordnet_file(const std::filesystem::path& path) {
  io::MappedFile file;
  switch (file.open(path.string(), io::MappedFile::Readahead::on_demand)) {
    case io::MappedFile::Status::mapped: check_not_truncated(path, file.bytes()); return file;
    case io::MappedFile::Status::cannot_open: throw missing_file(path, "cannot open WordNet file");
    case io::MappedFile::Status::cannot_stat: throw missing_file(path, "cannot read WordNet file");
    case io::MappedFile::Status::not_a_regular_file:  // a directory: mmap refuses it
    case io::MappedFile::Status::cannot_map: break;
  }
  throw missing_file(path, "cannot map WordNet file");
}

// Python's str.isspace() on the ASCII bytes of these files.
constexpr bool is_ascii_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1C && c <= 0x1F); }

// The whitespace-separated fields of one line, one at a time (Python's
// str.split() on these ASCII files), so a look-up reads only the fields it needs.
class FieldReader {
 public:
  explicit FieldReader(std::string_view line) : line_(line) {}
  // The next field, or an empty view at the end of the line.
  std::string_view next() {
    while (at_ < line_.size() && is_ascii_space(line_[at_])) ++at_;
    const std::size_t start = at_;
    while (at_ < line_.size() && !is_ascii_space(line_[at_])) ++at_;
    return line_.substr(start, at_ - start);
  }

 private:
  std::string_view line_;
  std::size_t at_ = 0;
};

// A decimal or hexadecimal field as a number; nullopt unless the whole field is one.
std::optional<std::uint64_t> parse_number(std::string_view field, int base = 10) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value, base);
  if (field.empty() || error != std::errc() || end != field.data() + field.size()) return std::nullopt;
  return value;
}

// The 1-based number of the line of `file` that `line` (a view into it) is.
std::size_t line_number_of(std::string_view file, std::string_view line) {
  const auto start = static_cast<std::size_t>(line.data() - file.data());
  return static_cast<std::size_t>(std::count(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(start), '\n')) + 1;
}

std::string_view line_at(std::string_view file, std::size_t start) {
  const std::size_t end = file.find('\n', start);
  return file.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

// Compares the first field of the line starting at `start` (up to the first
// ASCII whitespace, as Python's split() reads it) with `key`, bytewise: <0, 0
// or >0. The license header lines start with a space: their field is empty.
int compare_first_field(std::string_view file, std::size_t start, std::string_view key) {
  const auto* p = reinterpret_cast<const unsigned char*>(file.data() + start);
  const std::size_t available = file.size() - start;
  for (std::size_t i = 0; i < key.size(); ++i) {
    if (i == available || is_ascii_space(static_cast<char>(p[i]))) return -1;  // the field is a proper prefix
    const auto k = static_cast<unsigned char>(key[i]);
    if (p[i] != k) return p[i] < k ? -1 : 1;
  }
  return key.size() == available || is_ascii_space(static_cast<char>(p[key.size()])) ? 0 : 1;
}

// The start of the first line in [low, high) whose first field is not less
// than `key` (`high` if none), by bisecting bytes: `low` is a line start with
// only smaller lines before it, `high` a line start (or the end) with no
// smaller line from it on.
std::size_t lower_bound_line(std::string_view file, std::string_view key, std::size_t low, std::size_t high) {
  while (low < high) {
    const std::size_t mid = low + (high - low) / 2;
    std::size_t start = mid;  // lines are short: a byte loop beats memrchr()
    while (start > low && file[start - 1] != '\n') --start;
    if (compare_first_field(file, start, key) < 0) {
      const std::size_t end = file.find('\n', mid);
      low = end == std::string_view::npos ? file.size() : end + 1;
    } else {
      high = start;
    }
  }
  return low;
}

// The first 8 bytes of `text`, zero-padded, as a big-endian number: ordered as
// the strings are (a <= b implies prefix(a) <= prefix(b)).
std::uint64_t prefix_number(std::string_view text) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    value = (value << 8) | (i < text.size() ? static_cast<unsigned char>(text[i]) : 0u);
  }
  return value;
}

// A file whose lines are sorted bytewise by first field (index.* and *.exc
// are: WordNet's own library bin_search()es them), searched without parsing
// it. At load, the first-field prefix of one line every kSpacing bytes is
// sampled; a look-up bisects those samples, then the bytes of the small window
// between two of them.
class SortedLineFile {
 public:
  explicit SortedLineFile(const std::filesystem::path& path) : file_(map_wordnet_file(path)) {
    const std::string_view text = file_.bytes();
    for (std::size_t at = 0; at < text.size(); at += kSpacing) {
      std::size_t start = at;
      if (at > 0) {
        const std::size_t newline = text.find('\n', at - 1);
        if (newline == std::string_view::npos) break;
        start = newline + 1;
      }
      if (start >= text.size()) break;
      if (!starts_.empty() && starts_.back() >= start) continue;
      prefixes_.push_back(prefix_number(first_field(text, start)));
      starts_.push_back(start);
    }
  }

  std::string_view view() const { return file_.bytes(); }

  // The line whose first field is `key` (the last one if several: NLTK reads
  // the exception lists into a dict), or an empty view.
  std::string_view find(std::string_view key) const {
    if (key.empty()) return {};
    const std::string_view text = file_.bytes();
    const std::uint64_t prefix = prefix_number(key);
    // Samples with a smaller prefix are smaller lines, those with a larger one larger lines.
    const auto after_smaller = std::lower_bound(prefixes_.begin(), prefixes_.end(), prefix);
    const auto larger = std::upper_bound(after_smaller, prefixes_.end(), prefix);
    const std::size_t low = after_smaller == prefixes_.begin() ? 0 : starts_[after_smaller - prefixes_.begin() - 1];
    const std::size_t high = larger == prefixes_.end() ? text.size() : starts_[larger - prefixes_.begin()];
    std::size_t at = lower_bound_line(text, key, low, high);
    std::string_view found;
    while (at < text.size() && compare_first_field(text, at, key) == 0) {
      found = line_at(text, at);
      at += found.size() + 1;
    }
    return found;
  }

 private:
  static constexpr std::size_t kSpacing = 256;
  static std::string_view first_field(std::string_view text, std::size_t start) {
    std::size_t end = start;
    while (end < text.size() && !is_ascii_space(text[end])) ++end;
    return text.substr(start, end - start);
  }

  io::MappedFile file_;
  std::vector<std::uint64_t> prefixes_;  // prefix_number() of the sampled lines' first fields
  std::vector<std::size_t> starts_;      // their offsets
};

// The synset offsets of an index line:
// lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
// nullopt when the line is malformed (NLTK's reader refuses such a line too).
std::optional<std::vector<std::uint64_t>> parse_synset_offsets(std::string_view index_line) {
  FieldReader fields(index_line);
  fields.next();
  fields.next();
  const auto n_synsets = parse_number(fields.next());
  const auto n_pointers = parse_number(fields.next());
  if (!n_synsets || !n_pointers) return std::nullopt;
  for (std::uint64_t k = 0; k < *n_pointers + 2; ++k) {  // the pointer symbols, sense_cnt, tagsense_cnt
    if (fields.next().empty()) return std::nullopt;
  }
  std::vector<std::uint64_t> offsets;
  for (std::uint64_t k = 0; k < *n_synsets; ++k) {
    const auto offset = parse_number(fields.next());
    if (!offset) return std::nullopt;
    offsets.push_back(*offset);
  }
  return offsets;
}

// The whitespace-separated fields of a data.* line before its gloss ('|'),
// read in place from the line's offset without finding the line's end first.
class SynsetFieldReader {
 public:
  SynsetFieldReader(std::string_view data, std::size_t offset) : data_(data), at_(offset) {}
  // The next field, or an empty view at the '|' or the end of the line.
  std::string_view next() {
    while (at_ < data_.size() && data_[at_] != '\n' && is_ascii_space(data_[at_])) ++at_;
    const std::size_t start = at_;
    while (at_ < data_.size() && !is_ascii_space(data_[at_]) && data_[at_] != '|') ++at_;
    if (at_ < data_.size() && data_[at_] == '|') data_ = data_.substr(0, at_);  // nothing after the gloss mark
    return data_.substr(start, at_ - start);
  }

 private:
  std::string_view data_;
  std::size_t at_;
};

// NLTK's MORPHOLOGICAL_SUBSTITUTIONS, per part of speech.
struct Substitution {
  std::string_view old_suffix;
  std::string_view new_suffix;
};
const std::vector<Substitution>& substitutions(WordNet::Pos pos) {
  static const std::array<std::vector<Substitution>, 4> table = {{
      {{"s", ""}, {"ses", "s"}, {"ves", "f"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"}, {"shes", "sh"},
       {"men", "man"}, {"ies", "y"}},
      {{"s", ""}, {"ies", "y"}, {"es", "e"}, {"es", ""}, {"ed", "e"}, {"ed", ""}, {"ing", "e"}, {"ing", ""}},
      {{"er", ""}, {"est", ""}, {"er", "e"}, {"est", "e"}},
      {},
  }};
  return table[static_cast<int>(pos)];
}

}  // namespace

struct WordNet::Impl {
  struct PosFiles {
    std::unique_ptr<SortedLineFile> index;       // sorted by lemma
    std::unique_ptr<io::MappedFile> data;            // read at synset offsets
    std::unique_ptr<SortedLineFile> exceptions;  // "inflected base...", sorted by inflected form
    std::filesystem::path index_path, data_path;  // for errors
  };
  std::array<PosFiles, 4> files;

  // The offsets of an index line of `pos`; a malformed line is an error naming it.
  void append_synset_offsets(Pos pos, std::string_view index_line, std::vector<std::uint64_t>& offsets) const;

  // The index.<pos> line of `lemma`, or empty.
  std::string_view index_line(std::string_view lemma, Pos pos) const {
    return files[static_cast<int>(pos)].index->find(lemma);
  }

  // A base form found by morphy, with its index line.
  struct Base {
    std::string form;
    std::string_view index_line;
  };
  void morphy(std::string_view form, Pos pos, std::vector<Base>& bases) const;
  // The lemma names of the synset at `offset`; an offset that misses its synset line is an
  // error naming `lemma` and its `index_line` (when given).
  void append_lemma_names(Pos pos, std::uint64_t offset, std::vector<std::string>& names, std::string_view lemma = {},
                          std::string_view index_line = {}) const;
};

// NLTK's _morphy(form, pos); `bases` gets the results in NLTK's order.
void WordNet::Impl::morphy(std::string_view form, Pos pos, std::vector<Base>& bases) const {
  bases.clear();
  const auto& rules = substitutions(pos);
  // filter_forms(): the candidates that are lemmas of `pos`, first occurrences only.
  auto keep_lemma = [&](std::string_view candidate) {
    const std::string_view line = index_line(candidate, pos);
    if (line.empty()) return;
    for (const Base& base : bases) {
      if (base.form == candidate) return;
    }
    bases.push_back({std::string(candidate), line});
  };
  auto apply_rules = [&](const std::vector<std::string>& forms) {
    std::vector<std::string> out;
    for (const auto& word : forms) {
      for (const auto& [old_suffix, new_suffix] : rules) {
        if (word.size() >= old_suffix.size() && std::string_view(word).substr(word.size() - old_suffix.size()) == old_suffix) {
          std::string& rewritten = out.emplace_back(std::string_view(word).substr(0, word.size() - old_suffix.size()));
          rewritten += new_suffix;
        }
      }
    }
    return out;
  };

  // 0. The exception list decides alone when it knows the form.
  if (const std::string_view line = files[static_cast<int>(pos)].exceptions->find(form); !line.empty()) {
    FieldReader fields(line);
    fields.next();
    keep_lemma(form);
    for (std::string_view base = fields.next(); !base.empty(); base = fields.next()) keep_lemma(base);
    return;
  }
  // 1-2. One round of rules; the form itself counts too.
  std::vector<std::string> forms = apply_rules({std::string(form)});
  keep_lemma(form);
  for (const auto& candidate : forms) keep_lemma(candidate);
  if (!bases.empty()) return;
  // 3. Keep applying rules until some form is a lemma.
  while (!forms.empty()) {
    forms = apply_rules(forms);
    for (const auto& candidate : forms) keep_lemma(candidate);
    if (!bases.empty()) return;
  }
}

void WordNet::Impl::append_synset_offsets(Pos pos, std::string_view index_line, std::vector<std::uint64_t>& offsets) const {
  const PosFiles& f = files[static_cast<int>(pos)];
  const auto parsed = parse_synset_offsets(index_line);
  if (!parsed) {
    throw corrupt_line(f.index_path, line_number_of(f.index->view(), index_line),
                       "malformed index line (its counts and synset offsets do not add up)");
  }
  offsets.insert(offsets.end(), parsed->begin(), parsed->end());
}

void WordNet::Impl::append_lemma_names(Pos pos, std::uint64_t offset, std::vector<std::string>& names,
                                       std::string_view lemma, std::string_view index_line) const {
  const PosFiles& f = files[static_cast<int>(pos)];
  const std::string_view data = f.data->bytes();
  // As NLTK: the line at the offset must start with the offset itself (8 digits), else the
  // index and data files do not belong together (or one was cut short).
  const bool lands = offset < data.size() && (offset == 0 || data[offset - 1] == '\n') &&
                     FieldReader(line_at(data, offset)).next().size() == 8 &&
                     parse_number(data.substr(offset, 8)) == offset;
  if (!lands) {
    const std::string given = index_line.empty() ? std::string()
                                                 : fmt::format(" (given for '{}' at {}:{})", lemma, f.index_path.string(),
                                                               line_number_of(f.index->view(), index_line));
    throw missing_file(f.data_path, fmt::format("no synset line at byte offset {}{}: the index and data files do not "
                                                "match, or one is truncated",
                                                offset, given));
  }
  const auto malformed = [&] {
    return corrupt_line(f.data_path, line_number_of(data, data.substr(offset)),
                        "malformed synset line (its word count and words do not add up)");
  };
  // offset lex_filenum ss_type w_cnt(hex) [word lex_id]... (pointers follow: not read)
  SynsetFieldReader fields(data, offset);
  fields.next();
  fields.next();
  fields.next();
  const auto count = parse_number(fields.next(), 16);
  if (!count) throw malformed();
  for (std::uint64_t k = 0; k < *count; ++k) {
    std::string_view name = fields.next();
    if (name.empty() || fields.next().empty()) throw malformed();  // a word, then its lex_id
    // NLTK: re.match(r"(.*?)(\(.*\))?$") drops a trailing "(...)" syntactic marker.
    if (name.back() == ')') {
      const std::size_t paren = name.find('(');
      if (paren != std::string_view::npos && paren + 1 < name.size()) name = name.substr(0, paren);
    }
    names.emplace_back(name);
  }
}

WordNet::WordNet(const std::filesystem::path& dir) : impl_(std::make_unique<Impl>()) {
  if (!std::filesystem::is_directory(dir)) throw missing_file(dir, "WordNet directory not found");
  for (int p = 0; p < 4; ++p) {
    Impl::PosFiles& f = impl_->files[p];
    const std::string suffix = kPosFileSuffix[p];
    f.index_path = dir / ("index." + suffix);
    f.data_path = dir / ("data." + suffix);
    f.index = std::make_unique<SortedLineFile>(f.index_path);
    f.data = std::make_unique<io::MappedFile>(map_wordnet_file(f.data_path));
    f.exceptions = std::make_unique<SortedLineFile>(dir / (suffix + ".exc"));
  }
  // NLTK's get_version(): the number in "WordNet X.Y Copyright" of data.adj's header.
  const std::string_view adj = impl_->files[static_cast<int>(Pos::adj)].data->bytes();
  const std::string_view header = adj.substr(0, std::min<std::size_t>(adj.size(), 4096));
  const std::size_t at = header.find("WordNet ");
  if (at != std::string_view::npos) {
    const std::size_t end = header.find(' ', at + 8);
    version_ = std::string(header.substr(at + 8, end - at - 8));
  }
  if (version_.empty()) throw missing_file(dir / "data.adj", "not a WordNet data file (no version line)");
}

WordNet::~WordNet() = default;

std::vector<std::uint64_t> WordNet::synset_offsets(std::string_view lemma, Pos pos) const {
  std::vector<std::uint64_t> offsets;
  const std::string_view line = impl_->index_line(lemma, pos);
  if (!line.empty()) impl_->append_synset_offsets(pos, line, offsets);
  return offsets;
}

std::vector<std::string> WordNet::synset_lemma_names(Pos pos, std::uint64_t offset) const {
  std::vector<std::string> names;
  impl_->append_lemma_names(pos, offset, names);
  return names;
}

std::vector<std::string> WordNet::morphy(std::string_view form, Pos pos) const {
  std::vector<Impl::Base> bases;
  impl_->morphy(form, pos, bases);
  std::vector<std::string> forms;
  for (auto& base : bases) forms.push_back(std::move(base.form));
  return forms;
}

std::vector<std::string> WordNet::synonyms(std::string_view word) const {
  std::u32string decoded;
  utf8::decode(word, decoded);
  const std::string lemma = utf8::encode(text::lower(decoded));
  std::vector<std::string> names;
  std::vector<Impl::Base> bases;
  std::vector<std::uint64_t> offsets;
  for (int p = 0; p < 4; ++p) {
    const auto pos = static_cast<Pos>(p);
    impl_->morphy(lemma, pos, bases);
    for (const auto& base : bases) {
      offsets.clear();
      impl_->append_synset_offsets(pos, base.index_line, offsets);
      for (std::uint64_t offset : offsets) impl_->append_lemma_names(pos, offset, names, base.form, base.index_line);
    }
  }
  return names;
}

}  // namespace evalcli
