// ROUGE-1.5.5.pl compatibility (shared/specs/rouge.md section 2). Every
// per-document number is the 5-decimal string the Perl script computes.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <limits>
#include <sstream>

#include "evalcli/core/error.hpp"
#include "evalcli/core/numbers.hpp"
#include "evalcli/metrics/rouge.hpp"
#include "metrics/rouge/token_vocabulary.hpp"
#include "evalcli/metrics/rouge155_setup.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli {
namespace {

bool perl_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Perl split(/\s+/, s): a leading empty field is kept, trailing ones dropped.
std::vector<std::string> perl_split(const std::string& s) {
  std::vector<std::string> fields;
  std::size_t i = 0;
  if (!s.empty() && perl_space(s[0])) {
    fields.emplace_back();
    while (i < s.size() && perl_space(s[i])) ++i;
  }
  while (i < s.size()) {
    std::size_t j = i;
    while (j < s.size() && !perl_space(s[j])) ++j;
    fields.push_back(s.substr(i, j - i));
    while (j < s.size() && perl_space(s[j])) ++j;
    i = j;
  }
  return fields;
}

std::string join_first(const std::vector<std::string>& words, std::size_t count) {
  std::string out;
  for (std::size_t k = 0; k < count; ++k) {
    if (k > 0) out += ' ';
    if (k < words.size()) out += words[k];  // Perl: undef past the end
  }
  return out;
}

// s/-/ - /g; s/[^A-Za-z0-9\-]/ /g; trim; squeeze -> split on spaces.
std::vector<std::string> perl_words(const std::string& text) {
  std::vector<std::string> words;
  std::string current;
  auto flush = [&] {
    if (!current.empty()) words.push_back(std::move(current));
    current.clear();
  };
  for (unsigned char c : text) {
    if (c == '-') {
      flush();
      words.emplace_back("-");
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
      current.push_back(static_cast<char>(c));
    } else {
      flush();
    }
  }
  flush();
  return words;
}

std::string to_hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

double pow_weight(double r, double w) { return std::pow(r, w); }

struct Counts {
  double model = 0, peer = 0, hit = 0;
};

}  // namespace

std::string perl_fixed5(double x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%7.5f", x);
  return buffer;
}

namespace {

double rounded5(double x) { return std::strtod(perl_fixed5(x).c_str(), nullptr); }

// The per-document (R, P, F) strings from totals, as computeNGramScore & co.
std::array<double, 3> document_scores(const Counts& c, double alpha, double inverse_weight) {
  const double r = c.model != 0 ? rounded5(inverse_weight == 1 ? c.hit / c.model
                                                               : std::pow(c.hit / c.model, inverse_weight))
                                : 0.0;
  const double p = c.peer != 0 ? rounded5(inverse_weight == 1 ? c.hit / c.peer
                                                              : std::pow(c.hit / c.peer, inverse_weight))
                               : 0.0;
  const double denominator = (1 - alpha) * p + alpha * r;
  const double f = denominator > 0 ? rounded5((p * r) / denominator) : 0.0;
  return {r, p, f};
}

// Grams as 64-bit keys: two 32-bit ids for bigrams and skip-bigrams, a
// marked id for unigrams; longer n-grams hash their ids into a string.
using GramCounts = std::unordered_map<std::string, int>;
using PairCounts = std::unordered_map<std::uint64_t, int>;

std::uint64_t pair_key(int a, int b) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
}
std::uint64_t unigram_key(int a) { return (std::uint64_t{1} << 63) | static_cast<std::uint32_t>(a); }

PairCounts pair_counts(const TokenIds& tokens, int n, int skip, bool unigrams, bool skip_bigrams, long& total) {
  PairCounts counts;
  total = 0;
  const long length = static_cast<long>(tokens.size());
  if (!skip_bigrams) {
    for (long i = 0; i + n <= length; ++i) {
      ++counts[n == 1 ? unigram_key(tokens[i]) : pair_key(tokens[i], tokens[i + 1])];
      ++total;
    }
    return counts;
  }
  for (long i = 0; i < length - 1; ++i) {
    if (unigrams) {
      ++counts[unigram_key(tokens[i])];
      ++total;
    }
    for (long j = i + 1; j < length && (skip < 0 || j <= i + skip + 1); ++j) {
      ++counts[pair_key(tokens[i], tokens[j])];
      ++total;
    }
  }
  return counts;
}

GramCounts long_gram_counts(const TokenIds& tokens, int n, long& total) {
  GramCounts counts;
  total = 0;
  for (long i = 0; i + n <= static_cast<long>(tokens.size()); ++i) {
    ++counts[std::string(reinterpret_cast<const char*>(&tokens[i]), sizeof(int) * n)];
    ++total;
  }
  return counts;
}

template <class Counts>
long clipped_hits(const Counts& model, const Counts& peer) {
  long hits = 0;
  for (const auto& [gram, count] : model) {
    const auto it = peer.find(gram);
    if (it != peer.end()) hits += std::min(count, it->second);
  }
  return hits;
}

// Visits the grams of `tokens` as dense keys over the document's vocabulary
// size V: a*V+b for bigrams and skip-bigrams, V*V+a for unigrams. Same loops
// as pair_counts (incl. ROUGE-SU's unigram loop stopping before the last token).
template <class Visit>
void for_each_pair_key(const TokenIds& tokens, int n, int skip, bool unigrams, bool skip_bigrams, std::size_t V,
                       Visit visit) {
  const long length = static_cast<long>(tokens.size());
  const std::size_t unigram_base = V * V;
  auto at = [&](long i) { return static_cast<std::size_t>(tokens[static_cast<std::size_t>(i)]); };
  if (!skip_bigrams) {
    for (long i = 0; i + n <= length; ++i) visit(n == 1 ? unigram_base + at(i) : at(i) * V + at(i + 1));
    return;
  }
  for (long i = 0; i < length - 1; ++i) {
    if (unigrams) visit(unigram_base + at(i));
    const std::size_t row = at(i) * V;
    const long last = skip < 0 ? length - 1 : std::min(length - 1, i + skip + 1);
    for (long j = i + 1; j <= last; ++j) visit(row + at(j));
  }
}

// Largest dense table (V*V+V ints) used before falling back to hashing.
constexpr std::size_t kDenseGramCells = std::size_t{1} << 22;

// Clipped hits of a peer against each model with a dense count table: the
// peer's grams are counted once; a model's gram is a hit while the peer has
// an unused copy left (sum over grams of min(model, peer) counts).
struct DensePairScorer {
  std::vector<int> table;  // all zero between documents
  std::vector<std::size_t> consumed;

  template <class Enumerate>
  long count_peer(Enumerate grams, std::size_t cells) {
    if (table.size() < cells) table.resize(cells, 0);
    long total = 0;
    grams([&](std::size_t key) {
      ++table[key];
      ++total;
    });
    return total;
  }
  template <class Enumerate>
  long hits_of_model(Enumerate grams, long& model_total) {
    consumed.clear();
    long hits = 0;
    model_total = 0;
    grams([&](std::size_t key) {
      ++model_total;
      if (table[key] > 0) {
        --table[key];
        ++hits;
        consumed.push_back(key);
      }
    });
    for (std::size_t key : consumed) ++table[key];
    return hits;
  }
  template <class Enumerate>
  void clear_peer(Enumerate grams) {
    grams([&](std::size_t key) { table[key] = 0; });
  }
};

}  // namespace

// One side (peer or a model) of a document, tokenized both ways ROUGE reads it.
struct Side {
  TokenIds tokens;                  // readText: whole summary (N, S, unigram clipping)
  std::vector<TokenIds> sentences;  // readText_LCS: per sentence (L, W)
  // -M on a model: ROUGE-1.5.5 stems it only where it sets $opt_m around the
  // call: skip-bigrams, LCS tokens and the L/W clipping unigrams (not ROUGE-N,
  // not the WLCS tokens). Empty unless -M.
  TokenIds stemmed_tokens;
  std::vector<TokenIds> stemmed_sentences;
  bool has_stemmed = false;
  const TokenIds& tokens_for_skip_and_clipping() const { return has_stemmed ? stemmed_tokens : tokens; }
  const std::vector<TokenIds>& sentences_for_lcs() const { return has_stemmed ? stemmed_sentences : sentences; }
};

namespace {

// A flag's value, named in errors as "--rouge155-flags -n" with the allowed range.
int flag_int(const std::string& flag, const std::string& value, int min = std::numeric_limits<int>::min(),
             int max = std::numeric_limits<int>::max()) {
  return static_cast<int>(integer_in_range("--rouge155-flags " + flag, value, min, max));
}

double flag_double(const std::string& flag, const std::string& value, double min, double max) {
  return double_in_range("--rouge155-flags " + flag, value, min, max);
}

constexpr int kMaxInt = std::numeric_limits<int>::max();
constexpr int kMaxNgram = 9;  // as --max-ngram, the same option spelt long

}  // namespace

void parse_rouge155_flags(const std::string& flags, Rouge155Options& o) {
  std::istringstream in(flags);
  std::vector<std::string> args;
  for (std::string a; in >> a;) args.push_back(a);
  auto value = [&](std::size_t& i, const std::string& flag) -> std::string {
    if (i + 1 >= args.size()) throw usage_error(fmt::format("--rouge155-flags: {} needs a value", flag));
    return args[++i];
  };
  bool n_given = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() != 2 || a[0] != '-') throw usage_error(fmt::format("--rouge155-flags: unknown argument '{}'", a));
    switch (a[1]) {
      case 'a': o.all_peers = true; break;
      case 'v': break;  // verbose: nothing to change
      case 'z': {
        // Checked here, where a bad value is a usage error (the script dies at the first read).
        const std::string format = value(i, a);
        try {
          o.file_list_format = rouge155_input_format(format, "--rouge155-flags -z");
        } catch (const Error& e) {
          throw usage_error(e.what());
        }
        break;
      }
      case 'c': o.confidence = flag_double(a, value(i, a), 0, 100); break;
      case 'd': o.per_doc = true; break;
      case 'e': o.data_dir = value(i, a); break;
      case 'f': o.scoring = value(i, a) == "B" ? 'B' : 'A'; break;
      case 'l': o.word_limit = flag_int(a, value(i, a), 0, kMaxInt); break;
      case 'b': o.byte_limit = flag_int(a, value(i, a), 0, kMaxInt); break;
      case 'm': o.stem = true; break;
      case 'M': o.stem_models = true; break;
      case 'n': o.max_ngram = flag_int(a, value(i, a), 0, kMaxNgram); n_given = true; break;
      case 'p': o.alpha = flag_double(a, value(i, a), 0, 1); break;
      case 's': o.stopwords = true; break;
      case 't': o.counting = flag_int(a, value(i, a)); break;  // other than 1 or 2: plain counts, as ROUGE
      case 'r': o.resamples = flag_int(a, value(i, a), 1, kMaxInt); break;
      case '2': o.skip_distance = flag_int(a, value(i, a)); break;  // negative: any distance
      case 'u': o.skip_unigram = true; break;
      case 'U': o.skip_both = true; break;
      case 'w': o.wlcs_weight = value(i, a); break;
      case 'x': o.lcs = false; break;
      default: throw usage_error(fmt::format("--rouge155-flags: option {} is not supported", a));
    }
  }
  if (!n_given) o.max_ngram = 0;
}

Rouge155Metric::Rouge155Metric(Rouge155Options options) : options_(std::move(options)) {
  auto& o = options_;
  if (o.word_limit != 0 && o.byte_limit != 0) throw usage_error("ROUGE-1.5.5: give a word limit or a byte limit, not both");
  // Written so that NaN fails too.
  if (!(o.confidence >= 0 && o.confidence <= 100)) throw usage_error("ROUGE-1.5.5: confidence must be within 0 and 100");
  if (!(o.alpha >= 0 && o.alpha <= 1)) throw usage_error("ROUGE-1.5.5: alpha must be between 0 and 1");
  if (o.counting != 1 && o.counting != 2) o.counting = 0;
  if (o.resamples < 1) throw usage_error("ROUGE-1.5.5: the number of resamples must be positive");
  // ROUGE-1.5.5 with both sets $opt_m back to undef after the first model it
  // reads, so only the first peer read is stemmed: refuse rather than mimic.
  if (o.stem && o.stem_models) throw usage_error("ROUGE-1.5.5: give -m (stem all) or -M (stem models only), not both");
  if (o.wlcs_weight) {
    if (parse_finite_double(*o.wlcs_weight, weight_) != NumberProblem::ok || !(weight_ > 0)) {
      throw usage_error(fmt::format("ROUGE-1.5.5: ROUGE-W weight factor '{}' must be a number greater than 0", *o.wlcs_weight));
    }
  }
  for (int n = 1; n <= o.max_ngram; ++n) measures_.push_back({Rouge155Measure::ngram, n, false, fmt::format("ROUGE-{}", n)});
  if (o.lcs) measures_.push_back({Rouge155Measure::lcs, 0, false, "ROUGE-L"});
  if (o.wlcs_weight) measures_.push_back({Rouge155Measure::wlcs, 0, false, "ROUGE-W-" + *o.wlcs_weight});
  if (o.skip_distance) {
    const std::string d = *o.skip_distance >= 0 ? std::to_string(*o.skip_distance) : "*";
    if (o.skip_unigram) {
      measures_.push_back({Rouge155Measure::skip, 0, true, "ROUGE-SU" + d});
    } else {
      measures_.push_back({Rouge155Measure::skip, 0, false, "ROUGE-S" + d});
      if (o.skip_both) measures_.push_back({Rouge155Measure::skip, 0, true, "ROUGE-SU" + d});
    }
  }
  if (measures_.empty()) throw usage_error("ROUGE-1.5.5: nothing to compute (-x without -n, -w or -2)");

  // Data files: ROUGE reads the stop words always and the exception DB always.
  if (o.data_dir.empty()) {
    throw Error(ExitCode::missing_resource,
                "ROUGE-1.5.5 mode needs its data folder: pass --rouge155-data DIR or set ROUGE_EVAL_HOME",
                "the folder holds smart_common_words.txt and WordNet-2.0-exceptions.tsv (docs/rouge.md)");
  }
  const std::string stop_path = o.data_dir + "/smart_common_words.txt";
  const std::string exc_path = o.data_dir + "/WordNet-2.0-exceptions.tsv";
  std::ifstream stop_file(stop_path), exc_file(exc_path);
  if (!stop_file) throw Error(ExitCode::missing_resource, fmt::format("{}: cannot open the ROUGE stop-word list", stop_path));
  if (!exc_file) throw Error(ExitCode::missing_resource, fmt::format("{}: cannot open the WordNet exception list", exc_path));
  for (std::string line; std::getline(stop_file, line);) stopwords_.insert(line);
  std::size_t line_number = 0;
  for (std::string line; std::getline(exc_file, line);) {
    ++line_number;
    const auto tab = line.find('\t');
    if (tab == std::string::npos) throw input_error(fmt::format("{}:{}: expected inflected<TAB>base", exc_path, line_number));
    exceptions_.emplace(line.substr(0, tab), line.substr(tab + 1));
  }
  pipeline_tokenizer_ = !o.tokenizer.empty();
  PipelineOptions pipeline;
  pipeline.normalizers = o.normalizers;
  pipeline.tokenizer = pipeline_tokenizer_ ? o.tokenizer : "none";
  pipeline.tokenizer_options = o.tokenizer_options;
  pipeline_ = std::make_unique<TextPipeline>(pipeline);
}

std::vector<std::string> Rouge155Metric::stat_names() const {
  std::vector<std::string> names;
  const bool counts = options_.counting != 0;
  for (const auto& m : measures_) {
    for (const char* f : counts ? std::array{"M", "P", "H"} : std::array{"R", "P", "F"}) names.push_back(m.label + "_" + f);
  }
  names.push_back("documents");
  return names;
}

StatDomain Rouge155Metric::stat_domain() const {
  const std::size_t scores = 3 * measures_.size();
  const bool counts = options_.counting != 0;  // -t 1/2: summed match, peer and model counts
  StatDomain domain{std::vector<StatKind>(scores, StatKind::nonnegative), {}};
  domain.kinds.push_back(StatKind::count);
  if (!counts) {
    for (std::size_t k = 0; k < scores; ++k) domain.at_most.emplace_back(k, scores);
  }
  return domain;
}

std::string Rouge155Metric::morph_stem(const std::string& token) const {
  const auto it = exceptions_.find(token);
  if (it != exceptions_.end()) return it->second;
  thread_local std::unordered_map<std::string, std::string> cache;
  auto found = cache.find(token);
  if (found == cache.end()) {
    if (cache.size() > 1'000'000) cache.clear();
    found = cache.emplace(token, stemmer_.stem(std::string_view(token))).first;
  }
  return found->second;
}

namespace {

struct Reader {
  const Rouge155Options& o;
  const std::unordered_set<std::string>& stopwords;
  const Rouge155Metric& metric;
  std::uint64_t stem_owner;
  TokenVocabulary& vocabulary;
  LocalIds& ids;
  bool stem = false;  // -m, or -M while reading a model

  // createNGram / tokenizeText: stop words, first-character filter, stemming.
  TokenIds tokens_of(const std::vector<std::string>& words) const {
    TokenIds out;
    for (const auto& w : words) {
      if (o.stopwords && stopwords.count(w) != 0) continue;
      const char c = w[0];
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '$')) continue;
      int id = vocabulary.intern(w);
      if (stem && w.size() > 3) {
        id = vocabulary.stemmed(id, stem_owner, [this](std::string_view t) { return metric.morph_stem(std::string(t)); });
      }
      out.push_back(ids(id));
    }
    return out;
  }

  // readText: sentences joined (with the length limits), then tokenized.
  TokenIds whole(const std::vector<std::string>& sentences) const {
    std::string text;
    if (o.word_limit == 0 && o.byte_limit == 0) {
      for (std::size_t k = 0; k < sentences.size(); ++k) {
        if (k > 0) text += ' ';
        text += sentences[k];
      }
    } else if (o.word_limit != 0) {
      std::size_t length = 0;
      for (const auto& s : sentences) {
        const auto words = perl_split(s);
        if (static_cast<long>(length + words.size()) < o.word_limit) {
          if (length != 0) text += ' ';
          text += s;
          length += words.size();
        } else {
          if (length > 0) text += " ";
          text += join_first(words, static_cast<std::size_t>(o.word_limit) - length);
          break;
        }
      }
    } else {
      std::size_t length = 0;
      for (const auto& s : sentences) {
        if (static_cast<long>(length + s.size()) < o.byte_limit) {
          if (length != 0) text += ' ';
          text += s;
          length += s.size();
        } else {
          if (length > 0) text += " ";
          text += s.substr(0, static_cast<std::size_t>(o.byte_limit) - length);
          break;
        }
      }
    }
    return tokens_of(perl_words(text));
  }

  // readText_LCS: sentences kept apart (limits as the Perl code applies them).
  std::vector<TokenIds> split_sentences(const std::vector<std::string>& sentences) const {
    std::vector<std::string> kept;
    if (o.word_limit == 0 && o.byte_limit == 0) {
      kept = sentences;
    } else if (o.word_limit != 0) {
      std::size_t length = 0;
      for (const auto& s : sentences) {
        const auto words = perl_split(s);
        if (static_cast<long>(length + words.size()) < o.word_limit) {
          length += words.size();
          kept.push_back(s);
        } else {
          kept.push_back(join_first(words, static_cast<std::size_t>(o.word_limit) - length));
          break;
        }
      }
    } else {
      // The Perl byte-limit branch never advances its running length.
      for (const auto& s : sentences) {
        if (static_cast<long>(s.size()) < o.byte_limit) {
          kept.push_back(s);
        } else {
          kept.push_back(s.substr(0, static_cast<std::size_t>(o.byte_limit)));
          break;
        }
      }
    }
    std::vector<TokenIds> out;
    for (const auto& s : kept) out.push_back(tokens_of(perl_words(s)));
    return out;
  }
};

}  // namespace

std::string Rouge155Metric::sentence_bytes(std::u32string_view piece) const {
  if (pipeline_tokenizer_) {
    // Non-Latin text: ROUGE's words of the chosen tokenizer as hex ids (spec section 4).
    std::string bytes;
    for (const auto& word : rouge_pipeline_words(pipeline_->process(piece))) {
      if (!bytes.empty()) bytes += ' ';
      bytes += to_hex(word);
    }
    return bytes;
  }
  return utf8::encode(pipeline_->has_normalizers() ? pipeline_->normalize(piece) : std::u32string(piece));
}

bool Rouge155Metric::transforms_text() const { return pipeline_tokenizer_ || pipeline_->has_normalizers(); }

void Rouge155Metric::segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs, Stat* out) const {
  const auto& o = options_;
  // Lines -> SPL sentences: split at the separator, empty pieces skipped.
  auto spl = [&](std::u32string_view line) {
    std::vector<std::string> sentences;
    auto add = [&](std::u32string_view piece) {
      std::string bytes = sentence_bytes(piece);
      if (!bytes.empty()) sentences.push_back(std::move(bytes));
    };
    if (o.sentence_separator.empty()) {
      add(line);
    } else {
      std::size_t start = 0, found;
      while ((found = line.find(o.sentence_separator, start)) != std::u32string_view::npos) {
        add(line.substr(start, found - start));
        start = found + o.sentence_separator.size();
      }
      add(line.substr(start));
    }
    return sentences;
  };
  std::vector<std::vector<std::string>> models;
  for (const auto& ref : refs) models.push_back(spl(ref));
  document_stats(spl(hyp), models, out);
}

void Rouge155Metric::count_characters(const std::vector<std::string>& sentences) const {
  std::size_t chars = 0, non_ascii = 0;
  for (const auto& sentence : sentences) {
    for (const char c : sentence) {
      const auto b = static_cast<unsigned char>(c);
      if (b == ' ' || (b >= '\t' && b <= '\r') || (b & 0xC0) == 0x80) continue;  // spaces, UTF-8 continuations
      ++chars;
      if (b >= 0x80) ++non_ascii;
    }
  }
  chars_seen_ += chars;
  non_ascii_seen_ += non_ascii;
}

void Rouge155Metric::document_stats(std::vector<std::string> peer_sentences,
                                    std::vector<std::vector<std::string>> model_sentences, Stat* out) const {
  const auto& o = options_;
  if (!pipeline_tokenizer_) {
    count_characters(peer_sentences);
    for (const auto& m : model_sentences) count_characters(m);
  }
  // tr/A-Z/a-z/ on the bytes of every sentence.
  auto lowercase = [](std::vector<std::string>& sentences) {
    for (auto& s : sentences) {
      for (auto& c : s) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
      }
    }
  };
  lowercase(peer_sentences);
  for (auto& m : model_sentences) lowercase(m);

  thread_local TokenVocabulary vocabulary;
  thread_local LocalIds ids;
  if (vocabulary.size() > (std::size_t{1} << 24)) vocabulary = TokenVocabulary();  // bound memory
  ids.reset();
  Reader reader{o, stopwords_, *this, stem_owner_, vocabulary, ids};
  const bool need_sentences = o.lcs || o.wlcs_weight.has_value();
  auto read_side = [&](const std::vector<std::string>& sentences) {
    Side side;
    side.tokens = reader.whole(sentences);
    if (need_sentences) side.sentences = reader.split_sentences(sentences);
    return side;
  };
  reader.stem = o.stem;
  const Side peer = read_side(peer_sentences);
  std::vector<Side> models;
  for (const auto& ref : model_sentences) {
    Side model = read_side(ref);
    if (o.stem_models) {
      reader.stem = true;
      Side stemmed = read_side(ref);
      reader.stem = false;
      model.stemmed_tokens = std::move(stemmed.tokens);
      model.stemmed_sentences = std::move(stemmed.sentences);
      model.has_stemmed = true;
    }
    models.push_back(std::move(model));
  }
  const int vocabulary_size = ids.size();

  auto unigram_counts = [&](const TokenIds& tokens) {
    std::vector<int> counts(static_cast<std::size_t>(vocabulary_size), 0);
    for (int t : tokens) ++counts[t];
    return counts;
  };

  std::size_t slot = 0;
  bool fatal = false;  // where ROUGE-1.5.5.pl would have died
  for (const auto& measure : measures_) {
    Counts total;
    double best = -1;
    auto combine = [&](const Counts& c, double model_score) {
      if (o.scoring == 'B') {
        if (model_score > best) {
          best = model_score;
          total = c;
        }
      } else {
        total.model += c.model;
        total.peer += c.peer;
        total.hit += c.hit;
      }
    };
    double inverse_weight = 1;
    if (measure.kind == Rouge155Measure::ngram || measure.kind == Rouge155Measure::skip) {
      const bool skip = measure.kind == Rouge155Measure::skip;
      const int d = o.skip_distance.value_or(-1);
      long peer_total = 0;
      auto score_models = [&](auto make_counts) {
        const auto peer_grams = make_counts(peer.tokens, peer_total);
        for (const auto& model : models) {
          long model_total = 0;
          const auto model_grams = make_counts(skip ? model.tokens_for_skip_and_clipping() : model.tokens, model_total);
          const long hit = clipped_hits(model_grams, peer_grams);
          // -f B compares the "%07.5f" recall of each model (0 when it has no grams).
          const double recall = model_total != 0 ? rounded5(static_cast<double>(hit) / model_total) : 0.0;
          combine({static_cast<double>(model_total), static_cast<double>(peer_total), static_cast<double>(hit)},
                  recall);
        }
      };
      const std::size_t V = static_cast<std::size_t>(vocabulary_size);
      if ((skip || measure.n <= 2) && V * V + V <= kDenseGramCells) {
        thread_local DensePairScorer dense;
        auto grams_of = [&](const TokenIds& tokens) {
          return [&, tokens_ptr = &tokens](auto visit) {
            for_each_pair_key(*tokens_ptr, measure.n, d, measure.unigrams, skip, V, visit);
          };
        };
        peer_total = dense.count_peer(grams_of(peer.tokens), V * V + V);
        for (const auto& model : models) {
          long model_total = 0;
          const long hit = dense.hits_of_model(grams_of(skip ? model.tokens_for_skip_and_clipping() : model.tokens),
                                               model_total);
          const double recall = model_total != 0 ? rounded5(static_cast<double>(hit) / model_total) : 0.0;
          combine({static_cast<double>(model_total), static_cast<double>(peer_total), static_cast<double>(hit)},
                  recall);
        }
        dense.clear_peer(grams_of(peer.tokens));
      } else if (skip || measure.n <= 2) {
        score_models([&](const TokenIds& tokens, long& total) {
          return pair_counts(tokens, measure.n, d, measure.unigrams, skip, total);
        });
      } else {
        score_models([&](const TokenIds& tokens, long& total) { return long_gram_counts(tokens, measure.n, total); });
      }
    } else {
      const bool weighted = measure.kind == Rouge155Measure::wlcs;
      const auto peer_counts = unigram_counts(peer.tokens);
      const double peer_size = static_cast<double>(peer.tokens.size());
      for (const auto& model : models) {
        auto model_counts = unigram_counts(model.tokens_for_skip_and_clipping());
        auto peer_left = peer_counts;
        double hit = 0, base = 0;
        std::vector<char> mask;
        for (const auto& sentence : weighted ? model.sentences : model.sentences_for_lcs()) {
          mask.assign(sentence.size(), 0);
          base += weighted ? pow_weight(static_cast<double>(sentence.size()), weight_) : static_cast<double>(sentence.size());
          for (const auto& peer_sentence : peer.sentences) {
            if (sentence.empty()) break;
            if (weighted) {
              mark_wlcs(sentence, peer_sentence, weight_, mask);
            } else {
              mark_lcs(sentence, peer_sentence, mask);
            }
          }
          int run = 0;
          for (std::size_t j = 0; j < sentence.size(); ++j) {
            const int t = sentence[j];
            if (!mask[j] || model_counts[t] <= 0 || peer_left[t] <= 0) continue;
            if (weighted) {
              // A run is flushed only at a passing position whose next
              // position is unmarked, or at the sentence end.
              ++run;
              if ((j + 1 < sentence.size() && !mask[j + 1]) || j + 1 == sentence.size()) {
                hit += pow_weight(run, weight_);
                run = 0;
              }
            } else {
              hit += 1;
            }
            --model_counts[t];
            --peer_left[t];
          }
        }
        if (weighted) {
          // ROUGE-1.5.5 dies dividing by a zero base; evalcli scores such a model 0 (and says so).
          if (base == 0) fatal = true;
          const double score = base > 0 ? std::pow(hit / base, 1 / weight_) : 0.0;
          combine({pow_weight(base, weight_), pow_weight(peer_size, weight_), hit}, score);
        } else {
          combine({base, peer_size, hit}, base > 0 ? hit / base : 0.0);
        }
      }
      if (weighted) inverse_weight = 1 / weight_;
    }
    if (o.counting != 0) {
      out[slot] = total.model;
      out[slot + 1] = total.peer;
      out[slot + 2] = total.hit;
    } else {
      const auto scores = document_scores(total, o.alpha, inverse_weight);
      std::copy(scores.begin(), scores.end(), out + slot);
    }
    slot += 3;
  }
  out[slot] = 1;
  if (fatal) ++fatal_documents_;
}

namespace {

// Measure k's F from summed statistics: the mean of the per-document F, or with
// -t 1|2 the F of the summed counts.
double measure_score(std::span<const Stat> stats, std::size_t k, std::size_t measures, const Rouge155Options& options) {
  const double documents = stats[3 * measures];
  if (options.counting != 0) {
    return document_scores({stats[3 * k], stats[3 * k + 1], stats[3 * k + 2]}, options.alpha, 1)[2];
  }
  return documents > 0 ? stats[3 * k + 2] / documents : 0.0;
}

}  // namespace

double Rouge155Metric::score(std::span<const Stat> stats) const {
  return measure_score(stats, 0, measures_.size(), options_);
}

std::vector<std::string> Rouge155Metric::score_components() const {
  std::vector<std::string> labels;
  for (const auto& measure : measures_) labels.push_back(measure.label);
  return labels;
}

std::unique_ptr<StatsModel> Rouge155Metric::score_component(std::size_t k) const {
  const std::size_t measures = measures_.size();
  const Rouge155Options& options = options_;
  return std::make_unique<ComponentModel>(*this, measures_.at(k).label, [k, measures, &options](std::span<const Stat> stats) {
    return measure_score(stats, k, measures, options);
  });
}

bool Rouge155Metric::corpus_score_is_mean() const { return options_.counting == 0; }

std::string Rouge155Metric::signature() const { return print_signature(rouge_definition(), *this); }

std::string Rouge155Metric::stemmer_id() const {
  return options_.stem || options_.stem_models ? stemmer_.id() + "+wordnet2.0-exc" : "no";
}

Rouge155Average rouge155_average(const std::vector<std::array<double, 3>>& rows, const Rouge155Options& o) {
  Rouge155Average result;
  const std::size_t n = rows.size();
  if (o.counting == 2) {
    double sums[3] = {0, 0, 0};
    for (const auto& row : rows) {
      for (int c = 0; c < 3; ++c) sums[c] += row[c];
    }
    for (int c = 0; c < 3; ++c) result.counts[c] = static_cast<long>(sums[c]);
    return result;
  }
  const int samples = o.resamples;
  std::vector<double> columns[3];
  for (auto& column : columns) column.reserve(static_cast<std::size_t>(samples));
  for (int s = 0; s < samples; ++s) {
    // Perl's srand(s) + rand(): drand48.
    std::uint64_t state = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(s)) << 16) + 0x330E;
    double sample[3] = {0, 0, 0};
    for (std::size_t i = 0; i < n; ++i) {
      state = (state * 0x5DEECE66DULL + 0xB) & ((std::uint64_t{1} << 48) - 1);
      const double unit = std::ldexp(static_cast<double>(state), -48);
      const auto index = static_cast<std::size_t>(static_cast<double>(n) * unit);
      for (int c = 0; c < 3; ++c) sample[c] += rows[index][c];
    }
    if (o.counting == 0) {
      for (auto& v : sample) v = n > 0 ? v / static_cast<double>(n) : 0.0;
    } else {
      const double r = sample[0] > 0 ? sample[2] / sample[0] : 0.0;
      const double p = sample[1] > 0 ? sample[2] / sample[1] : 0.0;
      const double denominator = (1 - o.alpha) * p + o.alpha * r;
      const double f = denominator > 0 ? (r * p) / denominator : 0.0;
      sample[0] = r;
      sample[1] = p;
      sample[2] = f;
    }
    for (int c = 0; c < 3; ++c) columns[c].push_back(sample[c]);
  }
  const double delta = samples * ((100 - o.confidence) / 2.0) / 100.0;
  const auto upper = static_cast<long>(samples - delta - 1);
  const auto lower = static_cast<long>(delta);
  const double ratio = samples - delta - 1 - static_cast<double>(upper);
  for (int c = 0; c < 3; ++c) {
    auto& s = columns[c];
    std::sort(s.begin(), s.end());
    double total = 0;
    for (double v : s) total += v;
    result.avg[c] = perl_fixed5(total / static_cast<double>(s.size()));
    // Perl reads past the end as undef = 0.
    auto at = [&s](long k) { return k >= 0 && k < static_cast<long>(s.size()) ? s[static_cast<std::size_t>(k)] : 0.0; };
    result.low[c] = perl_fixed5(at(lower) + (at(lower + 1) - at(lower)) * ratio);
    result.high[c] = perl_fixed5(at(upper) + (at(upper + 1) - at(upper)) * ratio);
  }
  return result;
}

}  // namespace evalcli
