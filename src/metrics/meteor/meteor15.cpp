// CMU METEOR 1.5 (see the header and specs/meteor.md §3): configuration,
// resources, candidate matching, beam-search alignment and scoring, following
// cmu-mtlab/meteor@57a9ec5 (MeteorConfiguration, Aligner, MeteorScorer).
#include "evalcli/metrics/meteor15.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <unordered_set>

#include "evalcli/core/error.hpp"
#include "evalcli/core/format.hpp"
#include "evalcli/core/numbers.hpp"
#include "evalcli/io/read_file.hpp"
#include "evalcli/metrics/definition.hpp"
#include "evalcli/metrics/meteor.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"
#include "meteor15_internal.hpp"

namespace evalcli {
namespace {

using meteor15::java_hash;

enum Module { kExact = 0, kStem = 1, kSynonym = 2, kParaphrase = 3 };

// METEOR's language table (Constants.java): names, ids and rank-task defaults.
struct Language {
  std::string name;        // "english": resource file names
  std::string short_name;  // "en": Eval ID
  std::string snowball;    // libstemmer algorithm ("" = none)
  bool supported;          // has a normaliser and rank-task parameters
  std::array<double, 4> parameters;
  std::vector<double> weights;  // sized to the default modules
  std::vector<int> modules;
};

const Language& find_language(std::string_view code) {
  static const std::array<double, 4> li = {0.75, 1.40, 0.70, 0.50};
  static const std::vector<Language> languages = {
      {"english", "en", "english", true, {0.85, 0.20, 0.60, 0.75}, {1.0, 0.6, 0.8, 0.6}, {kExact, kStem, kSynonym, kParaphrase}},
      {"czech", "cz", "", true, {0.95, 0.20, 0.60, 0.80}, {1.0, 0.4}, {kExact, kParaphrase}},
      {"french", "fr", "french", true, {0.90, 1.40, 0.60, 0.65}, {1.0, 0.2, 0.4}, {kExact, kStem, kParaphrase}},
      {"spanish", "es", "spanish", true, {0.65, 1.30, 0.50, 0.80}, {1.0, 0.8, 0.6}, {kExact, kStem, kParaphrase}},
      {"german", "de", "german", true, {0.95, 1.00, 0.55, 0.55}, {1.0, 0.8, 0.2}, {kExact, kStem, kParaphrase}},
      {"russian", "ru", "russian", true, {0.75, 1.40, 0.70, 0.50}, {1.0, 0.5, 0.5}, {kExact, kStem, kParaphrase}},
      {"portuguese", "pt", "portuguese", false, li, {1.0, 0.5}, {kExact, kStem}},
      {"danish", "da", "danish", false, li, {1.0, 0.5}, {kExact, kStem}},
      {"romanian", "ro", "romanian", false, li, {1.0, 0.5}, {kExact, kStem}},
      {"hungarian", "hu", "hungarian", false, li, {1.0, 0.5}, {kExact, kStem}},
      {"turkish", "tr", "turkish", false, li, {1.0, 0.5}, {kExact, kStem}},
      {"finnish", "fi", "finnish", false, li, {1.0, 0.5}, {kExact, kStem}},
      {"dutch", "nl", "dutch", false, li, {1.0, 0.5}, {kExact, kStem}},
      {"italian", "it", "italian", false, li, {1.0, 0.5}, {kExact, kStem}},
      {"norwegian", "no", "norwegian", false, li, {1.0, 0.5}, {kExact, kStem}},
      {"swedish", "se", "swedish", false, li, {1.0, 0.5}, {kExact, kStem}},
      {"other", "other", "", false, li, {1.0}, {kExact}},
  };
  std::string lower;
  for (char c : code) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  static const std::map<std::string, std::string> aliases = {{"cs", "cz"}, {"sv", "se"}, {"xx", "other"}};
  if (auto it = aliases.find(lower); it != aliases.end()) lower = it->second;
  for (const auto& language : languages) {
    if (lower == language.name || lower == language.short_name) return language;
  }
  throw usage_error(fmt::format("METEOR 1.5 does not know language '{}' (known: en cz fr es de ru pt da ro hu tr fi nl it no se other)", code));
}

int parse_module(const std::string& name) {
  std::string lower;
  for (char c : name) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (lower == "exact") return kExact;
  if (lower == "stem") return kStem;
  if (lower == "synonym") return kSynonym;
  if (lower == "paraphrase") return kParaphrase;
  throw usage_error(fmt::format("unknown METEOR 1.5 module '{}' (known: exact stem synonym paraphrase)", name));
}

constexpr std::array<std::string_view, 4> kModuleShortNames = {"ex", "st", "sy", "pa"};
constexpr std::array<const char*, 4> kModuleLongNames = {"exact", "stem", "synonym", "paraphrase"};
constexpr std::array<std::string_view, 4> kNormNames = {"no_norm", "lc_only", "norm", "norm_nopunct"};

constexpr const char* kResourcesHint =
    "hint: pass --meteor-resources DIR with METEOR 1.5's resources/ layout (function/, nonbreaking/, synonym/)";

Error resource_error(const std::filesystem::path& path, const std::string& what) {
  return Error(ExitCode::missing_resource, fmt::format("{}: {}", path.string(), what), kResourcesHint);
}

// An id on line `line` (1-based) of a .synsets file: a Java int, as Integer.parseInt reads it.
int synset_id(const std::filesystem::path& path, std::size_t line, const std::string& text) {
  int id = 0;
  if (parse_integer(text, id) != NumberProblem::ok) {
    throw Error(ExitCode::missing_resource,
                fmt::format("{}:{}: synset id '{}' is not a whole number from {} to {}", path.string(), line, text,
                            std::numeric_limits<int>::min(), std::numeric_limits<int>::max()),
                kResourcesHint);
  }
  return id;
}

// `whole_lines`: a last line without its line end is refused as a file cut
// short (the synonym files, whose last id or form could be partial).
std::vector<std::string> read_lines(const std::filesystem::path& path, bool required, bool whole_lines = false) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) throw resource_error(path, "a folder, not a METEOR resource file");
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (required) throw resource_error(path, "cannot open METEOR resource file");
    return {};
  }
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (whole_lines && in.eof()) throw resource_error(path, "truncated METEOR resource file: its last line has no line end");
    if (!line.empty() && line.back() == '\r') line.pop_back();  // Java readLine
    lines.push_back(std::move(line));
  }
  if (in.bad()) throw resource_error(path, "read error");
  return lines;
}

// Files of line pairs (word, then its synset ids; base form, then its
// inflected forms): an odd count means the file lost its last line.
void check_line_pairs(const std::filesystem::path& path, const std::vector<std::string>& lines, const char* second) {
  if (lines.size() % 2 != 0) {
    throw Error(ExitCode::missing_resource,
                fmt::format("{}:{}: '{}' has no {} line after it: a truncated file?", path.string(), lines.size(),
                            lines.back(), second),
                kResourcesHint);
  }
}

std::u32string decode(std::string_view bytes) {
  std::u32string out;
  utf8::decode(bytes, out);
  return out;
}

std::u32string java_lower(std::u32string_view s) { return text::lower(s); }

// Snowball stemmer as METEOR's jar has it (meteor15::JarStemmer), cached by word.
class SnowballStemmer {
 public:
  explicit SnowballStemmer(const std::string& algorithm) : stemmer_(algorithm) {}

  std::int32_t stem_hash(const std::u32string& word) const {
    std::lock_guard lock(mutex_);
    auto it = cache_.find(word);
    if (it != cache_.end()) return it->second;
    const std::int32_t hash = java_hash(stemmer_.stem(word));
    cache_.emplace(word, hash);
    return hash;
  }

 private:
  meteor15::JarStemmer stemmer_;
  mutable std::mutex mutex_;
  mutable std::unordered_map<std::u32string, std::int32_t> cache_;
};

// SynonymDictionary: WordNet-derived synset ids, exception bases, suffix morphology.
class SynonymDictionary {
 public:
  explicit SynonymDictionary(const std::filesystem::path& dir, const std::string& language) {
    const auto exceptions_file = dir / (language + ".exceptions");
    const auto exc = read_lines(exceptions_file, true, true);
    check_line_pairs(exceptions_file, exc, "inflected forms");
    for (std::size_t i = 0; i + 1 < exc.size(); i += 2) {
      const std::u32string base = decode(exc[i]);
      for (auto& form : meteor15::string_tokenizer_split(decode(exc[i + 1]))) bases_[form].push_back(base);
    }
    const auto synsets_file = dir / (language + ".synsets");
    const auto syn = read_lines(synsets_file, true, true);
    check_line_pairs(synsets_file, syn, "synset ids");
    for (std::size_t i = 0; i + 1 < syn.size(); i += 2) {
      std::vector<int> ids;
      for (auto& id : meteor15::string_tokenizer_split(decode(syn[i + 1]))) {
        ids.push_back(synset_id(synsets_file, i + 2, utf8::encode(id)));
      }
      std::sort(ids.begin(), ids.end());
      ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
      synsets_[decode(syn[i])] = std::move(ids);
    }
  }

  // getSynSets(word) ∪ getStemSynSets(word), sorted.
  std::vector<int> all_synsets(const std::u32string& word) const {
    std::vector<int> ids = synsets(word);
    if (auto it = bases_.find(word); it != bases_.end()) {
      for (const auto& base : it->second) {
        const auto& more = synsets(base);
        ids.insert(ids.end(), more.begin(), more.end());
      }
    } else {
      const auto& more = synsets(morph(word));
      ids.insert(ids.end(), more.begin(), more.end());
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
  }

 private:
  const std::vector<int>& synsets(const std::u32string& word) const {
    static const std::vector<int> none;
    auto it = synsets_.find(word);
    return it == synsets_.end() ? none : it->second;
  }

  // SynonymDictionary.morph (WordNet 3 suffix rules): the first rewrite that is a known word.
  std::u32string morph(const std::u32string& word) const {
    static const std::array<std::pair<std::u32string_view, std::u32string_view>, 20> rules = {{
        {U"s", U""}, {U"ses", U"s"}, {U"xes", U"x"}, {U"zes", U"z"}, {U"ches", U"ch"}, {U"shes", U"sh"},
        {U"men", U"man"}, {U"ies", U"y"}, {U"s", U""}, {U"ies", U"y"}, {U"es", U"e"}, {U"es", U""},
        {U"ed", U"e"}, {U"ed", U""}, {U"ing", U"e"}, {U"ing", U""}, {U"er", U""}, {U"est", U""},
        {U"er", U"e"}, {U"est", U"e"},
    }};
    const std::u32string_view w(word);
    if ((w.size() >= 2 && w.substr(w.size() - 2) == U"ss") || meteor15::java_length(w) <= 2) return word;
    for (const auto& [suffix, ending] : rules) {
      if (w.size() >= suffix.size() && w.substr(w.size() - suffix.size()) == suffix) {
        std::u32string candidate(w.substr(0, w.size() - suffix.size()));
        candidate += ending;
        if (synsets_.count(candidate) != 0) return candidate;
      }
    }
    return U"";
  }

  std::unordered_map<std::u32string, std::vector<std::u32string>> bases_;
  std::unordered_map<std::u32string, std::vector<int>> synsets_;
};

// The decompressed table is held whole: bounded, so /dev/zero cannot take all
// memory, with more room than other whole files (EVALCLI_MAX_FILE_BYTES overrides).
constexpr std::size_t kMaxParaphraseTableBytes = std::size_t{2} << 30;

// ParaphraseTransducer: a trie over reference-side phrases of the table.
class ParaphraseTable {
 public:
  explicit ParaphraseTable(const std::filesystem::path& path) {
    const std::string content = read_table(path);
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start < content.size()) {
      std::size_t end = content.find('\n', start);
      if (end == std::string::npos) end = content.size();
      std::string_view line(content.data() + start, end - start);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      lines.push_back(line);
      start = end + 1;
    }
    // Entries of three lines: probability, reference phrase, paraphrase.
    check_entries(path, lines);
    nodes_.emplace_back();
    for (std::size_t i = 0; i + 2 < lines.size(); i += 3) {
      std::vector<int> ref, par;
      for (auto& w : meteor15::string_tokenizer_split(decode(lines[i + 1]))) ref.push_back(map(w));
      for (auto& w : meteor15::string_tokenizer_split(decode(lines[i + 2]))) par.push_back(map(w));
      std::size_t node = 0;
      for (int w : ref) {
        auto it = nodes_[node].next.find(w);
        if (it == nodes_[node].next.end()) {
          nodes_.emplace_back();
          it = nodes_[node].next.emplace(w, nodes_.size() - 1).first;
        }
        node = it->second;
      }
      nodes_[node].emit.push_back(static_cast<int>(paraphrases_.size()));
      paraphrases_.push_back(std::move(par));
    }
  }

  // The table's text, decompressed when it is gzip (zlib reads plain text as
  // it is). A folder, a read error or damaged gzip data is refused: read as
  // far as it goes, it would be a smaller table and other scores.
  static std::string read_table(const std::filesystem::path& path) {
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) throw resource_error(path, "a folder, not a paraphrase table");
    gzFile file = gzopen(path.c_str(), "rb");
    if (file == nullptr) throw resource_error(path, "cannot open paraphrase table");
    std::string content;
    char buffer[1 << 16];
    int n;
    const std::size_t limit = io::max_file_bytes(kMaxParaphraseTableBytes);
    while ((n = gzread(file, buffer, sizeof buffer)) > 0) {
      content.append(buffer, static_cast<std::size_t>(n));
      if (content.size() > limit) {
        gzclose(file);
        io::throw_file_too_large(path.string(), limit);
      }
    }
    int code = Z_OK;
    const char* message = gzerror(file, &code);
    // Z_BUF_ERROR: the gzip stream ends early (gzread reports it as the end of the data).
    const bool failed = n < 0 || (code != Z_OK && code != Z_STREAM_END);
    const std::string reason = code == Z_ERRNO ? std::strerror(errno) : std::string(message != nullptr ? message : "");
    gzclose(file);
    if (failed) throw resource_error(path, fmt::format("cannot read the paraphrase table: {}", reason));
    if (content.empty()) throw resource_error(path, "empty paraphrase table");
    return content;
  }

  // Each entry: a probability (a number, as METEOR's Double.parseDouble reads it), then two
  // lines of words; the last entry complete. Random bytes or a cut table fail here.
  static void check_entries(const std::filesystem::path& path, const std::vector<std::string_view>& lines) {
    const auto fail = [&](std::size_t line, const std::string& what) {
      throw Error(ExitCode::missing_resource, fmt::format("{}:{}: {}", path.string(), line, what), kResourcesHint);
    };
    for (std::size_t i = 0; i < lines.size(); i += 3) {
      std::string_view probability = lines[i];
      while (!probability.empty() && static_cast<unsigned char>(probability.front()) <= ' ') probability.remove_prefix(1);
      while (!probability.empty() && static_cast<unsigned char>(probability.back()) <= ' ') probability.remove_suffix(1);
      double value = 0;
      if (parse_finite_double(probability, value) != NumberProblem::ok) {
        fail(i + 1, "not a paraphrase table: a probability was expected (entries are a probability, a phrase and its "
                    "paraphrase, one line each)");
      }
      if (i + 2 >= lines.size()) fail(i + 1, "the last entry has no phrase or paraphrase line: a truncated table?");
      for (std::size_t k = i + 1; k <= i + 2; ++k) {
        std::u32string decoded;
        if (utf8::decode(lines[k], decoded) != utf8::npos) fail(k + 1, "not a paraphrase table: invalid UTF-8");
      }
    }
  }

  int translate(const std::u32string& word) const {
    auto it = vocabulary_.find(word);
    return it == vocabulary_.end() ? -1 : it->second;
  }

  // (phrase length, paraphrase index) of every table phrase starting at words[start].
  std::vector<std::pair<int, int>> paths(const std::vector<int>& words, std::size_t start) const {
    std::vector<std::pair<int, int>> out;
    std::size_t node = 0;
    for (std::size_t i = 0; start + i < words.size(); ++i) {
      auto it = nodes_[node].next.find(words[start + i]);
      if (it == nodes_[node].next.end()) break;
      node = it->second;
      for (int e : nodes_[node].emit) out.emplace_back(static_cast<int>(i + 1), e);
    }
    return out;
  }
  const std::vector<int>& paraphrase(int index) const { return paraphrases_[static_cast<std::size_t>(index)]; }

 private:
  int map(const std::u32string& word) {
    auto it = vocabulary_.find(word);
    if (it != vocabulary_.end()) return it->second;
    const int id = static_cast<int>(vocabulary_.size());
    vocabulary_.emplace(word, id);
    return id;
  }
  struct Node {
    std::unordered_map<int, std::size_t> next;
    std::vector<int> emit;
  };
  std::vector<Node> nodes_;
  std::vector<std::vector<int>> paraphrases_;
  std::unordered_map<std::u32string, int> vocabulary_;
};

struct Match {
  int start = 0;         // reference (line 2) position
  int length = 0;        // reference words
  int match_start = 0;   // test (line 1) position
  int match_length = 0;  // test words
  int module = 0;        // stage index
};

// Candidate matches by reference start position, with coverage counts (Stage.java).
struct Stage {
  std::vector<std::int32_t> keys1, keys2;
  std::vector<std::vector<Match>> matches;
  std::vector<int> coverage1, coverage2;

  Stage(const std::vector<std::u32string>& words1, const std::vector<std::u32string>& words2)
      : matches(words2.size()), coverage1(words1.size()), coverage2(words2.size()) {
    for (const auto& w : words1) keys1.push_back(java_hash(w));
    for (const auto& w : words2) keys2.push_back(java_hash(w));
  }
  void add(int stage, int i, int j, int length1 = 1, int length2 = 1) {
    matches[static_cast<std::size_t>(j)].push_back({j, length2, i, length1, stage});
    for (int k = 0; k < length1; ++k) ++coverage1[static_cast<std::size_t>(i + k)];
    for (int k = 0; k < length2; ++k) ++coverage2[static_cast<std::size_t>(j + k)];
  }
};

// PartialAlignment (search state). `matches1`/`matches2` are Java ints that
// accumulate `length * weight` with truncation.
struct Path {
  std::vector<const Match*> matches;
  int match_count = 0, matches1 = 0, matches2 = 0, all_matches1 = 0, all_matches2 = 0;
  int chunks = 0, idx = 0, last_match_end = -1, distance = 0;
  std::vector<char> used1, used2;

  bool is_used(const Match& m) const {
    for (int i = 0; i < m.length; ++i) {
      if (used2[static_cast<std::size_t>(m.start + i)]) return true;
    }
    for (int i = 0; i < m.match_length; ++i) {
      if (used1[static_cast<std::size_t>(m.match_start + i)]) return true;
    }
    return false;
  }
  void set_used(const Match& m) {
    for (int i = 0; i < m.length; ++i) used2[static_cast<std::size_t>(m.start + i)] = 1;
    for (int i = 0; i < m.match_length; ++i) used1[static_cast<std::size_t>(m.match_start + i)] = 1;
  }
};

// The fields Constants.PARTIAL_COMPARE_TOTAL sorts paths by.
struct PathKey {
  int weighted_matches = 0, chunks = 0, distance = 0;
};
PathKey key_of(const Path& path) { return {path.matches1 + path.matches2, path.chunks, path.distance}; }

// PARTIAL_COMPARE_TOTAL: more weighted matches, then fewer chunks, then less distance.
bool key_before(const PathKey& x, const PathKey& y) {
  if (x.weighted_matches != y.weighted_matches) return x.weighted_matches > y.weighted_matches;
  if (x.chunks != y.chunks) return x.chunks < y.chunks;
  return x.distance < y.distance;
}

// Java's `int += double` (implicit narrowing: truncation toward zero).
void java_int_add(int& target, double value) { target = static_cast<int>(static_cast<double>(target) + value); }

}  // namespace

struct Meteor15::Resources {
  const Language* language = nullptr;
  std::vector<int> modules;
  std::vector<double> weights;           // scoring weights
  std::vector<double> alignment_weights;  // exact 1.0, others 0.5 (MeteorScorer)
  std::array<double, 4> parameters{};
  meteor15::NormalizerLanguage normalizer_language = meteor15::NormalizerLanguage::other_western;
  meteor15::NonbreakingPrefixes prefixes;
  std::unordered_set<std::u32string> function_words;
  std::unique_ptr<SnowballStemmer> stemmer;
  std::unique_ptr<SynonymDictionary> synonyms;
  std::unique_ptr<ParaphraseTable> paraphrases;
  bool custom_task = false;
};

Meteor15Normalization parse_meteor15_normalization(std::string_view name) {
  if (name == "none") return Meteor15Normalization::none;
  if (name == "lower") return Meteor15Normalization::lowercase;
  if (name == "norm") return Meteor15Normalization::norm;
  if (name == "norm-nopunct") return Meteor15Normalization::norm_nopunct;
  throw usage_error(fmt::format("unknown --norm '{}' (known: none, lower, norm, norm-nopunct)", name));
}

Meteor15::Meteor15(Meteor15Options options)
    : options_(std::move(options)), resources_(std::make_unique<Resources>()) {
  Resources& r = *resources_;
  r.language = &find_language(options_.language);
  const Language& lang = *r.language;
  if (options_.beam_size < 1) throw usage_error("METEOR 1.5 beam size must be positive");

  // Configuration as MeteorConfiguration(Properties): task defaults, then -p, -w, -m.
  r.parameters = lang.parameters;
  r.modules = lang.modules;
  r.weights = lang.weights;
  if (options_.parameters) {
    r.parameters = *options_.parameters;
    r.custom_task = true;
  }
  if (options_.weights) {
    r.weights = *options_.weights;
    r.custom_task = true;
  }
  if (!options_.modules.empty()) {
    r.modules.clear();
    for (const auto& name : options_.modules) r.modules.push_back(parse_module(name));
    std::vector<double> sized;
    for (std::size_t i = 0; i < r.modules.size(); ++i) sized.push_back(i < r.weights.size() ? r.weights[i] : 0.0);
    r.weights = sized;
    r.custom_task = true;
  }
  if (r.modules.empty() || r.modules.size() > kMaxModules) throw usage_error("METEOR 1.5 takes 1 to 4 modules");
  if (r.weights.size() > r.modules.size()) {
    throw usage_error("METEOR 1.5: more module weights than modules");
  }
  for (int module : r.modules) r.alignment_weights.push_back(module == kExact ? 1.0 : 0.5);

  const bool normalizing = options_.normalization == Meteor15Normalization::norm ||
                           options_.normalization == Meteor15Normalization::norm_nopunct;
  if (normalizing && !lang.supported) {
    throw usage_error(fmt::format("METEOR 1.5 has no normaliser for language '{}': pre-process and use --norm lower or none",
                                  lang.name));
  }
  r.normalizer_language = lang.name == "english"  ? meteor15::NormalizerLanguage::english
                          : lang.name == "french" ? meteor15::NormalizerLanguage::french
                                                  : meteor15::NormalizerLanguage::other_western;

  const auto& dir = options_.resources_dir;
  if (!std::filesystem::is_directory(dir)) throw resource_error(dir, "METEOR resources folder not found");
  const std::string function_list = options_.language_function_words ? lang.name : "english";
  for (const auto& line : read_lines(dir / "function" / (function_list + ".words"), true)) {
    r.function_words.insert(decode(line));
  }
  if (normalizing) {
    for (const auto& line : read_lines(dir / "nonbreaking" / (lang.name + ".prefixes"), true)) {
      const auto tokens = meteor15::string_tokenizer_split(decode(line));
      if (tokens.empty() || tokens[0][0] == U'#') continue;
      const bool numeric = tokens.size() > 1 && tokens[1] == U"#NUMERIC_ONLY#";
      r.prefixes[tokens[0]] = numeric ? meteor15::kNonbreakingNumericOnly : meteor15::kNonbreakingAny;
    }
  }
  for (int module : r.modules) {
    if (module == kStem && !r.stemmer) {
      if (lang.snowball.empty()) throw usage_error(fmt::format("METEOR 1.5 has no stemmer for '{}'", lang.name));
      r.stemmer = std::make_unique<SnowballStemmer>(lang.snowball);
    } else if (module == kSynonym && !r.synonyms) {
      r.synonyms = std::make_unique<SynonymDictionary>(dir / "synonym", lang.name);
    } else if (module == kParaphrase && !r.paraphrases) {
      if (options_.paraphrase_table.empty()) {
        throw Error(ExitCode::missing_resource, "the paraphrase module needs --paraphrase-table FILE",
                    "hint: METEOR 1.5's data/paraphrase-LANG.gz is not distributed here; pass a table in its format "
                    "or leave 'paraphrase' out of --modules");
      }
      r.paraphrases = std::make_unique<ParaphraseTable>(options_.paraphrase_table);
    }
  }
  if (options_.tokenizer != "none" || !options_.normalizers.empty()) {
    PipelineOptions text;
    text.tokenizer = options_.tokenizer;
    text.normalizers = options_.normalizers;
    pipeline_ = std::make_unique<TextPipeline>(text);
  }
}

Meteor15::~Meteor15() = default;

std::vector<std::string> Meteor15::stat_names() const { return meteor15::stat_names(); }

StatDomain Meteor15::stat_domain() const { return meteor15::stat_domain(); }

std::string Meteor15::eval_id() const {
  const Resources& r = *resources_;
  std::vector<std::string> modules;
  for (int m : r.modules) modules.emplace_back(kModuleShortNames[static_cast<std::size_t>(m)]);
  return fmt::format("meteor-1.5-wo-{}-{}-{}-{}-{}", r.language->short_name,
                     kNormNames[static_cast<std::size_t>(options_.normalization)],
                     meteor15::join_doubles({r.parameters.begin(), r.parameters.end()}), fmt::join(modules, "_"),
                     meteor15::join_doubles(r.weights));
}

std::vector<std::u32string> Meteor15::words(std::u32string_view line) const {
  std::u32string text = pipeline_ ? pipeline_->process(line) : std::u32string(line);
  const Resources& r = *resources_;
  switch (options_.normalization) {
    case Meteor15Normalization::norm:
    case Meteor15Normalization::norm_nopunct:
      text = meteor15::normalize_line(text, r.normalizer_language, r.prefixes,
                                      options_.normalization == Meteor15Normalization::norm);
      text = java_lower(text);
      break;
    case Meteor15Normalization::lowercase:
      text = java_lower(text);
      break;
    case Meteor15Normalization::none:
      break;
  }
  return meteor15::string_tokenizer_split(text);
}

namespace {

// The paths of one beam-search step that the next step can use. METEOR keeps
// every extension of every path, stable-sorts them all and then reads only the
// first beam-size; keeping just those (by the same order: the sort key, then
// the order the paths were made in) gives the same search with memory
// O(beam * (n + m)) instead of growing with the number of candidate matches
// (quadratic on long repetitive lines; docs/limits.md).
class Beam {
 public:
  explicit Beam(std::size_t capacity) : capacity_(capacity) {}

  // Whether a path with this key would be kept now: asked before copying one.
  // A later path that ties with the worst kept one sorts after it: not kept.
  bool would_keep(const PathKey& key) const {
    return kept_.size() < capacity_ || key_before(key, key_of(kept_.front().path));
  }
  void add(Path path) {
    if (!would_keep(key_of(path))) return;
    if (kept_.size() == capacity_) {
      std::pop_heap(kept_.begin(), kept_.end(), ranked_before);
      kept_.pop_back();
    }
    kept_.push_back({std::move(path), next_order_++});
    std::push_heap(kept_.begin(), kept_.end(), ranked_before);
  }
  bool empty() const { return kept_.empty(); }
  // The kept paths, best first (Collections.sort's order), emptying the beam.
  std::vector<Path> take_sorted() {
    std::sort_heap(kept_.begin(), kept_.end(), ranked_before);
    std::vector<Path> paths;
    paths.reserve(kept_.size());
    for (auto& ranked : kept_) paths.push_back(std::move(ranked.path));
    kept_.clear();
    return paths;
  }

 private:
  struct Ranked {
    Path path;
    std::size_t order;  // when it was made: the stable sort's tie-break
  };
  static bool ranked_before(const Ranked& a, const Ranked& b) {
    const PathKey ka = key_of(a.path), kb = key_of(b.path);
    if (key_before(ka, kb)) return true;
    if (key_before(kb, ka)) return false;
    return a.order < b.order;
  }

  std::vector<Ranked> kept_;  // a max-heap under ranked_before: the worst kept path on top
  std::size_t capacity_;
  std::size_t next_order_ = 0;
};

// Adds match `m` to `path`'s counts (the distance is the caller's: see resolve).
void add_match(Path& path, const Match& m, const std::vector<double>& weights) {
  ++path.match_count;
  java_int_add(path.matches1, m.match_length * weights[static_cast<std::size_t>(m.module)]);
  java_int_add(path.matches2, m.length * weights[static_cast<std::size_t>(m.module)]);
  path.all_matches1 += m.match_length;
  path.all_matches2 += m.length;
  if (path.last_match_end != -1 && m.match_start != path.last_match_end) ++path.chunks;
  path.idx = m.start + m.length;
  path.last_match_end = m.match_start + m.match_length;
}

// The key `path` would have after add_match(path, m): decided before copying it.
PathKey key_with_match(const Path& path, const Match& m, const std::vector<double>& weights) {
  int matches1 = path.matches1, matches2 = path.matches2;
  java_int_add(matches1, m.match_length * weights[static_cast<std::size_t>(m.module)]);
  java_int_add(matches2, m.length * weights[static_cast<std::size_t>(m.module)]);
  const bool new_chunk = path.last_match_end != -1 && m.match_start != path.last_match_end;
  return {matches1 + matches2, path.chunks + (new_chunk ? 1 : 0), path.distance};
}

// Aligner.resolve: beam search left to right over reference positions.
Path resolve(const Stage& s, const Path& start, const std::vector<double>& weights, int beam_size) {
  const auto capacity = static_cast<std::size_t>(beam_size);
  Beam next(capacity);
  next.add(start);
  const std::size_t n = s.matches.size();
  for (std::size_t current = 0; current <= n; ++current) {
    std::vector<Path> paths = next.take_sorted();  // at most beam-size, best first
    for (Path& path : paths) {
      if (current == n) {
        if (path.last_match_end != -1) ++path.chunks;
        next.add(std::move(path));
        continue;
      }
      if (path.used2[current]) {
        if (static_cast<int>(current) < path.idx) {
          next.add(std::move(path));
        } else if (const Match* m = path.matches[static_cast<std::size_t>(path.idx)]) {
          path.distance += std::abs(m->start - m->match_start);
          add_match(path, *m, weights);
          next.add(std::move(path));
        }
        continue;
      }
      for (const Match& m : s.matches[current]) {
        if (path.is_used(m)) continue;
        if (next.would_keep(key_with_match(path, m, weights))) {
          Path extended = path;
          extended.set_used(m);
          extended.matches[current] = &m;
          add_match(extended, m, weights);
          next.add(std::move(extended));
        }
        // METEOR's quirk: the distance goes to the path being extended, so it
        // reaches later extensions and the skip path, not this one.
        path.distance += std::abs(m.start - m.match_start);
      }
      if (path.last_match_end != -1) {
        ++path.chunks;
        path.last_match_end = -1;
      }
      ++path.idx;
      next.add(std::move(path));
    }
    if (next.empty()) next.add(paths[0]);  // METEOR warns and keeps the best
  }
  return next.take_sorted()[0];
}

}  // namespace

Meteor15Segment Meteor15::score_pair(std::u32string_view test, std::u32string_view ref) const {
  const Resources& r = *resources_;
  Meteor15Segment seg;
  seg.test_words = words(test);
  seg.ref_words = words(ref);
  const auto& w1 = seg.test_words;
  const auto& w2 = seg.ref_words;
  Stage s(w1, w2);

  // Identical sentences only need the first module (avoids beam search errors).
  const std::size_t modules_used = (w1.size() == w2.size() && s.keys1 == s.keys2) ? 1 : r.modules.size();
  for (std::size_t stage = 0; stage < modules_used; ++stage) {
    const int st = static_cast<int>(stage);
    switch (r.modules[stage]) {
      case kExact:
        for (std::size_t j = 0; j < w2.size(); ++j) {
          for (std::size_t i = 0; i < w1.size(); ++i) {
            if (s.keys1[i] == s.keys2[j]) s.add(st, static_cast<int>(i), static_cast<int>(j));
          }
        }
        break;
      case kStem: {
        std::vector<std::int32_t> stems1, stems2;
        for (const auto& w : w1) stems1.push_back(r.stemmer->stem_hash(w));
        for (const auto& w : w2) stems2.push_back(r.stemmer->stem_hash(w));
        for (std::size_t j = 0; j < w2.size(); ++j) {
          for (std::size_t i = 0; i < w1.size(); ++i) {
            if (stems1[i] == stems2[j] && s.keys1[i] != s.keys2[j]) s.add(st, static_cast<int>(i), static_cast<int>(j));
          }
        }
        break;
      }
      case kSynonym: {
        std::vector<std::vector<int>> sets1, sets2;
        for (const auto& w : w1) sets1.push_back(r.synonyms->all_synsets(w));
        for (const auto& w : w2) sets2.push_back(r.synonyms->all_synsets(w));
        for (std::size_t j = 0; j < w2.size(); ++j) {
          for (std::size_t i = 0; i < w1.size(); ++i) {
            const auto& a = sets1[i];
            const auto& b = sets2[j];
            bool shared = false;
            for (std::size_t x = 0, y = 0; x < a.size() && y < b.size();) {
              if (a[x] == b[y]) {
                shared = true;
                break;
              }
              a[x] < b[y] ? ++x : ++y;
            }
            if (shared && s.keys1[i] != s.keys2[j]) s.add(st, static_cast<int>(i), static_cast<int>(j));
          }
        }
        break;
      }
      case kParaphrase: {
        std::vector<int> line1, line2;
        for (const auto& w : w1) line1.push_back(r.paraphrases->translate(w));
        for (const auto& w : w2) line2.push_back(r.paraphrases->translate(w));
        // Reference phrases whose paraphrase occurs in the test, then the other way round.
        for (std::size_t j = 0; j < line2.size(); ++j) {
          for (const auto& [len, index] : r.paraphrases->paths(line2, j)) {
            const auto& phrase = r.paraphrases->paraphrase(index);
            for (std::size_t i = 0; i < line1.size(); ++i) {
              bool match = true;
              for (std::size_t k = 0; k < phrase.size(); ++k) {
                if (i + k == line1.size() || line1[i + k] != phrase[k]) {
                  match = false;
                  break;
                }
              }
              if (match) s.add(st, static_cast<int>(i), static_cast<int>(j), static_cast<int>(phrase.size()), len);
            }
          }
        }
        for (std::size_t i = 0; i < line1.size(); ++i) {
          for (const auto& [len, index] : r.paraphrases->paths(line1, i)) {
            const auto& phrase = r.paraphrases->paraphrase(index);
            for (std::size_t j = 0; j < line2.size(); ++j) {
              bool match = true;
              for (std::size_t k = 0; k < phrase.size(); ++k) {
                if (j + k == line2.size() || line2[j + k] != phrase[k]) {
                  match = false;
                  break;
                }
              }
              if (match) s.add(st, static_cast<int>(i), static_cast<int>(j), len, static_cast<int>(phrase.size()));
            }
          }
        }
        break;
      }
    }
  }

  // One-to-one matches that nothing else covers are fixed before the search.
  Path start;
  start.matches.assign(w2.size(), nullptr);
  start.used1.assign(w1.size(), 0);
  start.used2.assign(w2.size(), 0);
  for (std::size_t i = 0; i < s.matches.size(); ++i) {
    if (s.matches[i].size() != 1) continue;
    const Match& m = s.matches[i][0];
    bool overlap = false;
    for (int k = 0; k < m.length; ++k) overlap = overlap || s.coverage2[i + static_cast<std::size_t>(k)] != 1;
    for (int k = 0; k < m.match_length; ++k) overlap = overlap || s.coverage1[static_cast<std::size_t>(m.match_start + k)] != 1;
    if (!overlap) {
      start.matches[i] = &m;
      start.set_used(m);
    }
  }
  const Path best = resolve(s, start, r.alignment_weights, options_.beam_size);

  // Content/function word matches per module, on both sides.
  auto is_function = [&](const std::u32string& w) { return r.function_words.count(java_lower(w)) != 0; };
  std::vector<char> function1(w1.size()), function2(w2.size());
  double function_count1 = 0, function_count2 = 0;
  for (std::size_t i = 0; i < w1.size(); ++i) function_count1 += (function1[i] = is_function(w1[i]) ? 1 : 0);
  for (std::size_t i = 0; i < w2.size(); ++i) function_count2 += (function2[i] = is_function(w2[i]) ? 1 : 0);
  std::array<double, kNumStats>& st = seg.stats;
  st.fill(0);
  st[0] = static_cast<double>(w1.size());
  st[1] = static_cast<double>(w2.size());
  st[2] = function_count1;
  st[3] = function_count2;
  int matched1 = 0, matched2 = 0, chunks = 0, last_match_end = -1;
  for (const Match* m : best.matches) {
    if (m == nullptr) continue;
    const std::size_t base = 4 + 4 * static_cast<std::size_t>(m->module);
    for (int k = 0; k < m->match_length; ++k) st[base + (function1[static_cast<std::size_t>(m->match_start + k)] ? 2 : 0)] += 1;
    for (int k = 0; k < m->length; ++k) st[base + 1 + (function2[static_cast<std::size_t>(m->start + k)] ? 2 : 0)] += 1;
  }
  // Aligner.getCountAndChunks over the final alignment.
  for (std::size_t idx = 0; idx < best.matches.size();) {
    const Match* m = best.matches[idx];
    if (m == nullptr) {
      if (last_match_end != -1) {
        ++chunks;
        last_match_end = -1;
      }
      ++idx;
    } else {
      matched1 += m->match_length;
      matched2 += m->length;
      if (last_match_end != -1 && m->match_start != last_match_end) ++chunks;
      idx = static_cast<std::size_t>(m->start + m->length);
      last_match_end = m->match_start + m->match_length;
    }
  }
  if (last_match_end != -1) ++chunks;
  st[kNumStats - 2] = matched1;
  st[kNumStats - 1] = matched2;
  const bool perfect = matched1 == static_cast<int>(w1.size()) && matched2 == static_cast<int>(w2.size()) && chunks == 1;
  // METEOR leaves a perfect segment's chunk out of system sums; its own score is the same with 0.
  st[kNumStats - 3] = perfect ? 0 : chunks;
  seg.score = score(st);
  return seg;
}

void Meteor15::segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs, Stat* out) const {
  double best_score = -1;
  std::array<double, kNumStats> best{};
  for (const auto& ref : refs) {
    const Meteor15Segment seg = score_pair(hyp, ref);
    if (seg.score > best_score) {  // the first reference wins ties
      best_score = seg.score;
      best = seg.stats;
    }
  }
  std::copy(best.begin(), best.end(), out);
}

double Meteor15::score(std::span<const Stat> stats) const {
  return meteor15::compute_numbers(stats, resources_->parameters, resources_->weights).score;
}

namespace meteor15 {

std::string module_name_of_eval_id(std::string_view short_name) {
  const auto at = std::find(kModuleShortNames.begin(), kModuleShortNames.end(), short_name);
  if (at == kModuleShortNames.end()) throw usage_error(fmt::format("signature: unknown METEOR 1.5 module '{}'", short_name));
  return kModuleLongNames[static_cast<std::size_t>(at - kModuleShortNames.begin())];
}

std::string normalization_of_eval_id(std::string_view name) {
  static constexpr std::array<const char*, 4> kOptionNames = {"none", "lower", "norm", "norm-nopunct"};  // --norm
  const auto at = std::find(kNormNames.begin(), kNormNames.end(), name);
  if (at == kNormNames.end()) throw usage_error(fmt::format("signature: unknown METEOR 1.5 normalisation '{}'", name));
  return kOptionNames[static_cast<std::size_t>(at - kNormNames.begin())];
}

}  // namespace meteor15

std::string Meteor15::signature() const { return print_signature(meteor_definition(), *this); }

std::optional<std::string> Meteor15::stemmer_field() const {
  if (!resources_->stemmer) return std::nullopt;
  return fmt::format("snowball-{}-meteor15-v2", resources_->language->snowball);  // v2: fr nl fi, Java's UTF-16 counting
}

std::optional<std::string> Meteor15::paraphrase_field() const {
  if (!resources_->paraphrases) return std::nullopt;
  return options_.paraphrase_table.filename().string();
}

nlohmann::json Meteor15::details(std::span<const Stat> stats) const {
  return meteor15::details(meteor15::compute_numbers(stats, resources_->parameters, resources_->weights), eval_id());
}

}  // namespace evalcli
