// WordNet 3.0 reader with NLTK 3.8's lookup semantics (see the header).
#include "evalcli/text/wordnet.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "evalcli/core/error.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli {
namespace {

constexpr const char* kHint = "hint: install the Debian package wordnet-base (or pass --wordnet DIR)";
constexpr std::array<const char*, 4> kPosFileSuffix = {"noun", "verb", "adj", "adv"};

Error missing_file(const std::filesystem::path& path, const std::string& what) {
  return Error(ExitCode::missing_resource, fmt::format("{}: {}", path.string(), what), kHint);
}

// A whole file mapped read-only; the mapping lives as long as the object.
class MappedFile {
 public:
  explicit MappedFile(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw missing_file(path, "cannot open WordNet file");
    struct stat info {};
    if (::fstat(fd, &info) != 0) {
      ::close(fd);
      throw missing_file(path, "cannot read WordNet file");
    }
    size_ = static_cast<std::size_t>(info.st_size);
    if (size_ > 0) {
      void* data = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (data == MAP_FAILED) {
        ::close(fd);
        throw missing_file(path, "cannot map WordNet file");
      }
      data_ = static_cast<const char*>(data);
    }
    ::close(fd);
  }
  ~MappedFile() {
    if (data_ != nullptr) ::munmap(const_cast<char*>(data_), size_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::string_view view() const { return {data_, size_}; }

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

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

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  FieldReader reader(line);
  for (std::string_view field = reader.next(); !field.empty(); field = reader.next()) fields.push_back(field);
  return fields;
}

// A decimal or hexadecimal field as a number; malformed data reads as 0.
std::uint64_t parse_number(std::string_view field, int base = 10) {
  std::uint64_t value = 0;
  std::from_chars(field.data(), field.data() + field.size(), value, base);
  return value;
}

std::string_view line_at(std::string_view file, std::size_t start) {
  const std::size_t end = file.find('\n', start);
  return file.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

// The first field of the line starting at `start`, without finding the line's
// end first (index lines are long; a binary search only needs the lemma).
std::string_view key_at(std::string_view file, std::size_t start) {
  std::size_t end = start;
  while (end < file.size() && file[end] != ' ' && file[end] != '\n') ++end;
  return file.substr(start, end - start);
}

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
    std::unique_ptr<MappedFile> index;
    std::unique_ptr<MappedFile> data;
    std::vector<std::uint32_t> line_starts;  // index lines holding lemmas, sorted by lemma
    std::unordered_map<std::string, std::vector<std::string>> exceptions;
  };
  std::array<PosFiles, 4> files;

  // The index.<pos> line of `lemma`, or empty.
  std::string_view index_line(std::string_view lemma, Pos pos) const {
    const PosFiles& f = files[static_cast<int>(pos)];
    const std::string_view text = f.index->view();
    auto it = std::lower_bound(f.line_starts.begin(), f.line_starts.end(), lemma,
                               [&](std::uint32_t start, std::string_view key) {
                                 return key_at(text, start) < key;
                               });
    if (it == f.line_starts.end()) return {};
    return key_at(text, *it) == lemma ? line_at(text, *it) : std::string_view{};
  }

  bool is_lemma(std::string_view form, Pos pos) const { return !index_line(form, pos).empty(); }
};

WordNet::WordNet(const std::filesystem::path& dir) : impl_(std::make_unique<Impl>()) {
  if (!std::filesystem::is_directory(dir)) throw missing_file(dir, "WordNet directory not found");
  for (int p = 0; p < 4; ++p) {
    Impl::PosFiles& f = impl_->files[p];
    const std::string suffix = kPosFileSuffix[p];
    f.index = std::make_unique<MappedFile>(dir / ("index." + suffix));
    f.data = std::make_unique<MappedFile>(dir / ("data." + suffix));
    // Lines starting with a space are the license header (NLTK skips them too).
    const std::string_view text = f.index->view();
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      if (end > start && text[start] != ' ') f.line_starts.push_back(static_cast<std::uint32_t>(start));
      start = end + 1;
    }
    // Exception lists: "inflected base..."; a later line for the same form wins (a dict).
    const MappedFile exc(dir / (suffix + ".exc"));
    const std::string_view exc_text = exc.view();
    start = 0;
    while (start < exc_text.size()) {
      std::size_t end = exc_text.find('\n', start);
      if (end == std::string_view::npos) end = exc_text.size();
      const auto fields = split_fields(exc_text.substr(start, end - start));
      if (!fields.empty()) {
        std::vector<std::string> bases(fields.begin() + 1, fields.end());
        f.exceptions[std::string(fields[0])] = std::move(bases);
      }
      start = end + 1;
    }
  }
  // NLTK's get_version(): the number in "WordNet X.Y Copyright" of data.adj's header.
  const std::string_view adj = impl_->files[static_cast<int>(Pos::adj)].data->view();
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
  const std::string_view line = impl_->index_line(lemma, pos);
  std::vector<std::uint64_t> offsets;
  if (line.empty()) return offsets;
  // lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
  FieldReader fields(line);
  fields.next();
  fields.next();
  const std::uint64_t n_synsets = parse_number(fields.next());
  const std::string_view pointers = fields.next();
  if (pointers.empty()) return offsets;
  const std::uint64_t skip = parse_number(pointers) + 2;  // the pointer symbols, sense_cnt, tagsense_cnt
  for (std::uint64_t k = 0; k < skip; ++k) fields.next();
  for (std::uint64_t k = 0; k < n_synsets; ++k) {
    const std::string_view field = fields.next();
    if (field.empty()) break;
    offsets.push_back(parse_number(field));
  }
  return offsets;
}

std::vector<std::string> WordNet::synset_lemma_names(Pos pos, std::uint64_t offset) const {
  const std::string_view data = impl_->files[static_cast<int>(pos)].data->view();
  std::vector<std::string> names;
  if (offset >= data.size()) return names;
  std::string_view line = line_at(data, offset);
  line = line.substr(0, line.find('|'));
  // offset lex_filenum ss_type w_cnt(hex) [word lex_id]... (pointers follow: not read)
  FieldReader fields(line);
  fields.next();
  fields.next();
  fields.next();
  const std::uint64_t count = parse_number(fields.next(), 16);
  for (std::uint64_t k = 0; k < count; ++k) {
    std::string_view name = fields.next();
    if (name.empty()) break;
    fields.next();  // lex_id
    // NLTK: re.match(r"(.*?)(\(.*\))?$") drops a trailing "(...)" syntactic marker.
    if (name.back() == ')') {
      const std::size_t paren = name.find('(');
      if (paren != std::string_view::npos && paren + 1 < name.size()) name = name.substr(0, paren);
    }
    names.emplace_back(name);
  }
  return names;
}

std::vector<std::string> WordNet::morphy(std::string_view form, Pos pos) const {
  const Impl::PosFiles& f = impl_->files[static_cast<int>(pos)];
  const auto& rules = substitutions(pos);

  auto apply_rules = [&](const std::vector<std::string>& forms) {
    std::vector<std::string> out;
    for (const auto& word : forms) {
      for (const auto& [old_suffix, new_suffix] : rules) {
        if (word.size() >= old_suffix.size() && std::string_view(word).substr(word.size() - old_suffix.size()) == old_suffix) {
          out.push_back(word.substr(0, word.size() - old_suffix.size()) + std::string(new_suffix));
        }
      }
    }
    return out;
  };
  auto filter_forms = [&](const std::vector<std::string>& forms) {
    std::vector<std::string> result;
    for (const auto& candidate : forms) {
      if (impl_->is_lemma(candidate, pos) &&
          std::find(result.begin(), result.end(), candidate) == result.end()) {
        result.push_back(candidate);
      }
    }
    return result;
  };

  const std::string word(form);
  // 0. The exception list decides alone when it knows the form.
  if (auto it = f.exceptions.find(word); it != f.exceptions.end()) {
    std::vector<std::string> candidates = {word};
    candidates.insert(candidates.end(), it->second.begin(), it->second.end());
    return filter_forms(candidates);
  }
  // 1-2. One round of rules; the form itself counts too.
  std::vector<std::string> forms = apply_rules({word});
  std::vector<std::string> first_round = {word};
  first_round.insert(first_round.end(), forms.begin(), forms.end());
  if (auto results = filter_forms(first_round); !results.empty()) return results;
  // 3. Keep applying rules until some form is a lemma.
  while (!forms.empty()) {
    forms = apply_rules(forms);
    if (auto results = filter_forms(forms); !results.empty()) return results;
  }
  return {};
}

std::vector<std::string> WordNet::synonyms(std::string_view word) const {
  std::u32string decoded;
  utf8::decode(word, decoded);
  const std::string lemma = utf8::encode(text::lower(decoded));
  std::vector<std::string> names;
  for (int p = 0; p < 4; ++p) {
    const auto pos = static_cast<Pos>(p);
    for (const auto& base : morphy(lemma, pos)) {
      for (std::uint64_t offset : synset_offsets(base, pos)) {
        auto lemma_names = synset_lemma_names(pos, offset);
        names.insert(names.end(), std::make_move_iterator(lemma_names.begin()),
                     std::make_move_iterator(lemma_names.end()));
      }
    }
  }
  return names;
}

}  // namespace evalcli
