// rouge-score 0.1.2 compatibility (shared/specs/rouge.md section 1).
#include <fmt/format.h>

#include <array>
#include <cmath>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "evalcli/core/error.hpp"
#include "evalcli/core/strings.hpp"
#include "evalcli/metrics/rouge.hpp"
#include "metrics/rouge/token_vocabulary.hpp"
#include "evalcli/core/summation.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli {
namespace {

bool is_ascii_alnum(char32_t c) { return (c >= U'a' && c <= U'z') || (c >= U'0' && c <= U'9'); }

// What rouge-score's tokenizer keeps of each ASCII character: [a-z0-9] after
// lower(), so A-Z lowered; 0 for every other one (a separator). One load per
// character instead of a case test and four range tests.
constexpr std::array<char, 128> kAsciiTokenChars = [] {
  std::array<char, 128> chars{};
  for (int c = 0; c < 128; ++c) {
    const int lowered = c >= 'A' && c <= 'Z' ? c + 32 : c;
    if ((lowered >= 'a' && lowered <= 'z') || (lowered >= '0' && lowered <= '9')) chars[c] = static_cast<char>(lowered);
  }
  return chars;
}();

// Stemming dominates tokenization time and words repeat: cache per thread.
const std::string& cached_stem(const text::PorterStemmer& stemmer, const std::string& token) {
  thread_local std::unordered_map<std::string, std::string> cache[2];
  auto& table = cache[stemmer.variant() == text::PorterVariant::nltk ? 0 : 1];
  auto it = table.find(token);
  if (it == table.end()) {
    if (table.size() > 1'000'000) table.clear();
    it = table.emplace(token, stemmer.stem(std::string_view(token))).first;
  }
  return it->second;
}

PRF make_prf(double hits, double hyp_count, double ref_count) {
  PRF s;
  s.precision = hits / std::max(hyp_count, 1.0);
  s.recall = hits / std::max(ref_count, 1.0);
  s.fmeasure = s.precision + s.recall > 0 ? 2 * s.precision * s.recall / (s.precision + s.recall) : 0.0;
  return s;
}

}  // namespace

RougeTokens rouge_score_tokenize(std::u32string_view text, const text::PorterStemmer* stemmer) {
  bool ascii = true;
  for (char32_t c : text) ascii = ascii && c < 0x80;
  // Constructed, not assign()ed: GCC 12 warns falsely (-Wrestrict) on assign here.
  std::u32string lowered = ascii ? std::u32string(text) : text::lower(text);  // U+0130 -> "i̇", U+212A -> "k", as Python
  if (ascii) {
    for (auto& c : lowered) {
      if (c >= U'A' && c <= U'Z') c += 32;
    }
  }
  RougeTokens tokens;
  std::string current;
  auto flush = [&] {
    if (current.empty()) return;
    if (stemmer != nullptr && current.size() > 3) {
      tokens.push_back(cached_stem(*stemmer, current));
    } else {
      tokens.push_back(current);
    }
    current.clear();
  };
  for (char32_t c : lowered) {
    if (is_ascii_alnum(c)) {
      current.push_back(static_cast<char>(c));
    } else {
      flush();
    }
  }
  flush();
  return tokens;
}

std::string RougeScoreType::name() const {
  if (kind == lcs) return "rougeL";
  if (kind == lcs_summary) return "rougeLsum";
  return "rouge" + std::to_string(n);
}

RougeScoreType parse_rouge_score_type(const std::string& name) {
  if (name == "rougeL") return {RougeScoreType::lcs, 0};
  if (name == "rougeLsum") return {RougeScoreType::lcs_summary, 0};
  // As rouge-score: "rouge" + one digit 1..9.
  if (name.size() == 6 && name.starts_with("rouge") && name[5] >= '1' && name[5] <= '9') {
    return {RougeScoreType::ngram, name[5] - '0'};
  }
  throw usage_error(fmt::format("unknown rouge-score type '{}' (rouge1..rouge9, rougeL, rougeLsum)", name));
}

RougeScoreMetric::RougeScoreMetric(RougeScoreOptions options) : options_(std::move(options)) {
  if (options_.types.empty()) {
    options_.types = {{RougeScoreType::ngram, 1}, {RougeScoreType::ngram, 2}, {RougeScoreType::lcs, 0},
                      {RougeScoreType::lcs_summary, 0}};
  }
  pipeline_tokenizer_ = !options_.tokenizer.empty();
  // rouge-score ignores the stemmer when a tokenizer object is given.
  if (options_.stem && !pipeline_tokenizer_) stemmer_ = std::make_unique<text::PorterStemmer>();
  PipelineOptions pipeline;
  pipeline.normalizers = options_.normalizers;
  pipeline.tokenizer = pipeline_tokenizer_ ? options_.tokenizer : "none";
  pipeline.tokenizer_options = options_.tokenizer_options;
  pipeline_ = std::make_unique<TextPipeline>(pipeline);
}

std::vector<std::string> RougeScoreMetric::stat_names() const {
  std::vector<std::string> names;
  for (const auto& type : options_.types) {
    for (const char* field : {"precision", "recall", "fmeasure"}) names.push_back(type.name() + "_" + field);
  }
  names.push_back("pairs");
  return names;
}

StatDomain RougeScoreMetric::stat_domain() const {
  const std::size_t pairs = 3 * options_.types.size();
  StatDomain domain{std::vector<StatKind>(pairs, StatKind::nonnegative), {}};
  domain.kinds.push_back(StatKind::count);
  for (std::size_t k = 0; k < pairs; ++k) domain.at_most.emplace_back(k, pairs);
  return domain;
}

RougeTokens RougeScoreMetric::tokenize(std::u32string_view text) const {
  if (!pipeline_tokenizer_) {
    if (!pipeline_->has_normalizers()) return rouge_score_tokenize(text, stemmer_.get());
    return rouge_score_tokenize(pipeline_->normalize(text), stemmer_.get());
  }
  return rouge_pipeline_words(pipeline_->process(text));
}

std::vector<RougeTokens> RougeScoreMetric::sentences(std::u32string_view text) const {
  std::vector<RougeTokens> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(U'\n', start);
    if (end == std::u32string_view::npos) end = text.size();
    if (end > start) out.push_back(tokenize(text.substr(start, end - start)));
    start = end + 1;
  }
  return out;
}

void RougeScoreMetric::token_ids(std::u32string_view text, TokenVocabulary& vocabulary, TokenIds& out) const {
  if (pipeline_tokenizer_ || pipeline_->has_normalizers()) {
    for (const auto& token : tokenize(text)) out.push_back(vocabulary.intern(token));
    return;
  }
  // rouge_score_tokenize straight to ids, no string per token. Python's
  // lower() maps only two non-ASCII characters to [a-z0-9]: U+0130 to "i"
  // + U+0307 (a separator) and U+212A to "k"; every other one separates.
  char token[64];
  std::string long_token;
  std::size_t length = 0;
  auto flush = [&] {
    if (length == 0) return;
    const std::string_view word =
        length <= sizeof token ? std::string_view(token, length) : std::string_view(long_token);
    int id = vocabulary.intern(word);
    if (stemmer_ != nullptr && length > 3) {
      id = vocabulary.stemmed(id, stem_owner_, [this](std::string_view w) { return stemmer_->stem(w); });
    }
    out.push_back(id);
    length = 0;
  };
  auto append = [&](char b) {
    if (length < sizeof token) {
      token[length] = b;
    } else {
      if (length == sizeof token) long_token.assign(token, length);
      long_token.push_back(b);
    }
    ++length;
  };
  for (char32_t c : text) {
    if (c >= 0x80) {
      if (c == 0x212A) {
        append('k');
      } else if (c == 0x130) {
        append('i');
        flush();
      } else {
        flush();
      }
      continue;
    }
    const char b = kAsciiTokenChars[c];
    if (b != 0) {
      append(b);
    } else {
      flush();
    }
  }
  flush();
}

namespace {

// One pair's token ids, kept per thread so that scoring a pair allocates
// nothing once the buffers have grown (rougeLsum's sentences reuse their
// vectors: only the first `used` of `sentences` hold this pair's).
struct PairTokens {
  struct Side {
    TokenIds all;
    std::vector<TokenIds> sentences;
    std::size_t used = 0;
    void clear() {
      all.clear();
      used = 0;
    }
    void add_sentence(const TokenIds& ids) {
      if (used == sentences.size()) sentences.emplace_back();
      sentences[used++].assign(ids.begin(), ids.end());
    }
    std::span<const TokenIds> sentence_list() const { return std::span(sentences.data(), used); }
  };
  Side ref, hyp;
  TokenIds scratch;
  std::u32string ref_text, hyp_text;  // only with a sentence separator
};

// `text` with every `separator` replaced by '\n', into `out`.
std::u32string_view replace_separator(std::u32string_view text, std::u32string_view separator, std::u32string& out) {
  out.clear();
  std::size_t start = 0, found;
  while ((found = text.find(separator, start)) != std::u32string_view::npos) {
    out.append(text, start, found - start).push_back(U'\n');
    start = found + separator.size();
  }
  out.append(text, start);
  return out;
}

}  // namespace

std::vector<PRF> RougeScoreMetric::score_pair(std::u32string_view ref_line, std::u32string_view hyp_line) const {
  std::vector<PRF> scores;
  score_pair_into(ref_line, hyp_line, scores);
  return scores;
}

void RougeScoreMetric::score_pair_into(std::u32string_view ref, std::u32string_view hyp,
                                       std::vector<PRF>& scores) const {
  thread_local PairTokens pair;
  if (!options_.sentence_separator.empty()) {
    ref = replace_separator(ref, options_.sentence_separator, pair.ref_text);
    hyp = replace_separator(hyp, options_.sentence_separator, pair.hyp_text);
  }
  bool need_sentences = false;
  for (const auto& type : options_.types) need_sentences = need_sentences || type.kind == RougeScoreType::lcs_summary;

  // Tokens as per-thread vocabulary ids, then as small ids local to the pair.
  thread_local TokenVocabulary vocabulary;
  thread_local LocalIds local;
  if (vocabulary.size() > (std::size_t{1} << 24)) vocabulary = TokenVocabulary();  // bound memory
  local.reset();
  // Newlines are separators for every tokenizer, so the whole-text tokens
  // are the tokens of its non-empty lines (rougeLsum's sentences) concatenated.
  auto read = [&](std::u32string_view text, PairTokens::Side& side) {
    side.clear();
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t end = find_code_point(text, U'\n', start);
      if (end > start) {
        pair.scratch.clear();
        token_ids(text.substr(start, end - start), vocabulary, pair.scratch);
        for (int& id : pair.scratch) id = local(id);
        side.all.insert(side.all.end(), pair.scratch.begin(), pair.scratch.end());
        if (need_sentences) side.add_sentence(pair.scratch);
      }
      start = end + 1;
    }
  };
  read(ref, pair.ref);
  read(hyp, pair.hyp);
  const TokenIds& ref_all = pair.ref.all;
  const TokenIds& hyp_all = pair.hyp.all;
  const auto vocabulary_size = static_cast<std::size_t>(local.size());

  scores.clear();
  for (const auto& type : options_.types) {
    switch (type.kind) {
      case RougeScoreType::ngram: {
        const double ref_count = std::max<double>(static_cast<double>(ref_all.size()) - type.n + 1, 0);
        const double hyp_count = std::max<double>(static_cast<double>(hyp_all.size()) - type.n + 1, 0);
        const long hits = ngram_overlap(ref_all, hyp_all, type.n, vocabulary_size);
        scores.push_back(make_prf(static_cast<double>(hits), hyp_count, ref_count));
        break;
      }
      case RougeScoreType::lcs:
        if (ref_all.empty() || hyp_all.empty()) {
          scores.push_back({});
        } else {
          const double l = static_cast<double>(lcs_length(ref_all, hyp_all));
          scores.push_back(make_prf(l, static_cast<double>(hyp_all.size()), static_cast<double>(ref_all.size())));
        }
        break;
      case RougeScoreType::lcs_summary:
        if (ref_all.empty() || hyp_all.empty()) {
          scores.push_back({});
        } else {
          const double hits =
              static_cast<double>(union_lcs_hits(pair.ref.sentence_list(), pair.hyp.sentence_list()));
          scores.push_back(make_prf(hits, static_cast<double>(hyp_all.size()), static_cast<double>(ref_all.size())));
        }
        break;
    }
  }
}

void RougeScoreMetric::segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs, Stat* out) const {
  // score_multi: per type, the reference with the highest F (first on ties).
  thread_local std::vector<PRF> scores, best;
  best.clear();
  for (const auto& ref : refs) {
    score_pair_into(ref, hyp, scores);
    if (best.empty()) {
      best = scores;
      continue;
    }
    for (std::size_t t = 0; t < scores.size(); ++t) {
      if (scores[t].fmeasure > best[t].fmeasure) best[t] = scores[t];
    }
  }
  if (best.empty()) best.assign(options_.types.size(), PRF{});
  for (std::size_t t = 0; t < best.size(); ++t) {
    out[3 * t] = best[t].precision;
    out[3 * t + 1] = best[t].recall;
    out[3 * t + 2] = best[t].fmeasure;
  }
  out[3 * best.size()] = 1;
}

double RougeScoreMetric::score(std::span<const Stat> stats) const {
  const double pairs = stats[3 * options_.types.size()];
  return pairs > 0 ? stats[2] / pairs : 0.0;
}

namespace {

// rouge-score's mean of column `column` (a type's F-measure): math.fsum of the
// rows / n when all are kept (whatever summed a shard's totals), else the
// exactly summed total / n.
double fsum_mean(const SystemStats& system, std::size_t column) {
  const auto n = static_cast<double>(system.segments);
  if (system.rows.empty() || system.rows.size() != system.segments) return system.totals[column] / n;
  std::vector<double> values;
  values.reserve(system.rows.size());
  for (const auto& row : system.rows) values.push_back(row[column]);
  return exact_sum(values) / n;
}

}  // namespace

double RougeScoreMetric::corpus_score(const SystemStats& system) const {
  if (options_.types.empty()) return 0.0;
  return fsum_mean(system, 2);
}

std::vector<std::string> RougeScoreMetric::score_components() const {
  std::vector<std::string> labels;
  for (const auto& type : options_.types) labels.push_back(type.name());
  return labels;
}

std::unique_ptr<StatsModel> RougeScoreMetric::score_component(std::size_t k) const {
  const std::size_t column = 3 * k + 2, pairs = 3 * options_.types.size();
  return std::make_unique<ComponentModel>(
      *this, options_.types.at(k).name(),
      [column, pairs](std::span<const Stat> stats) { return stats[pairs] > 0 ? stats[column] / stats[pairs] : 0.0; },
      [column](const SystemStats& system) { return fsum_mean(system, column); });
}

std::string RougeScoreMetric::signature() const { return print_signature(rouge_definition(), *this); }

std::string RougeScoreMetric::stemmer_id() const { return stemmer_ ? stemmer_->id() : "no"; }

nlohmann::json RougeScoreMetric::details(std::span<const Stat> stats) const {
  nlohmann::json out = nlohmann::json::object();
  const double pairs = stats[3 * options_.types.size()];
  for (std::size_t t = 0; t < options_.types.size(); ++t) {
    auto& entry = out["types"][options_.types[t].name()];
    entry["precision"] = pairs > 0 ? stats[3 * t] / pairs : 0.0;
    entry["recall"] = pairs > 0 ? stats[3 * t + 1] / pairs : 0.0;
    entry["fmeasure"] = pairs > 0 ? stats[3 * t + 2] / pairs : 0.0;
  }
  return out;
}

double exact_sum(std::span<const double> values) {
  stats::ExactSum sum;
  for (double x : values) sum.add(x);
  return sum.value();
}

}  // namespace evalcli
