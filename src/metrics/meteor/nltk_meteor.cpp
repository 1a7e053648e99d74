// NLTK 3.8 meteor_score, step by step as specs/meteor.md §2 describes it.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "evalcli/core/error.hpp"
#include "evalcli/metrics/meteor.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli {
namespace {

struct Word {
  std::size_t index;    // position in the original sentence
  std::u32string form;  // lowercased, later stemmed
};
using Words = std::vector<Word>;
using MatchPairs = std::vector<std::pair<std::size_t, std::size_t>>;  // (hyp index, ref index)

// NLTK's _match_enums: each hypothesis word, last first, takes the last
// still-unmatched reference word it is `equal` to; both leave their lists.
template <typename Equal>
void greedy_match(Words& hyp, Words& ref, MatchPairs& matches, Equal equal) {
  for (std::size_t i = hyp.size(); i-- > 0;) {
    for (std::size_t j = ref.size(); j-- > 0;) {
      if (equal(hyp[i], ref[j])) {
        matches.emplace_back(hyp[i].index, ref[j].index);
        hyp.erase(hyp.begin() + static_cast<std::ptrdiff_t>(i));
        ref.erase(ref.begin() + static_cast<std::ptrdiff_t>(j));
        break;
      }
    }
  }
}

// NLTK's _count_chunks over matches sorted by hypothesis index.
std::size_t count_chunks(const MatchPairs& matches) {
  std::size_t chunks = 1;
  for (std::size_t i = 0; i + 1 < matches.size(); ++i) {
    const bool adjacent = matches[i + 1].first == matches[i].first + 1 && matches[i + 1].second == matches[i].second + 1;
    if (!adjacent) ++chunks;
  }
  return chunks;
}

Words enumerate_lowercased(const std::vector<std::u32string>& tokens) {
  Words words;
  words.reserve(tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i) words.push_back({i, text::lower(tokens[i])});
  return words;
}

std::string format_param(double value) { return fmt::format("{}", value); }

}  // namespace

NltkMeteor::NltkMeteor(NltkMeteorOptions options)
    : options_(std::move(options)), pipeline_(std::make_unique<TextPipeline>(options_.text)) {
  if (options_.synonyms) wordnet_ = std::make_unique<WordNet>(options_.wordnet_dir);
}

NltkMeteor::~NltkMeteor() = default;

std::vector<std::string> NltkMeteor::stat_names() const {
  return {"score_sum", "segments", "matches", "chunks", "hyp_len", "ref_len"};
}

std::vector<std::u32string> NltkMeteor::tokens(std::u32string_view line) const {
  const std::u32string processed = pipeline_->process(line);
  std::vector<std::u32string> out;
  for (auto token : text::split(processed)) out.emplace_back(token);
  return out;
}

const std::u32string& NltkMeteor::cached_stem(const std::u32string& word) const {
  std::lock_guard lock(cache_mutex_);
  auto it = stem_cache_.find(word);
  if (it == stem_cache_.end()) it = stem_cache_.emplace(word, stemmer_.stem(std::u32string_view(word))).first;
  return it->second;
}

// NLTK's set of lemma names (without '_') of wordnet.synsets(stem), plus the stem itself; sorted.
const std::vector<std::u32string>& NltkMeteor::cached_synonyms(const std::u32string& stem) const {
  std::lock_guard lock(cache_mutex_);
  auto it = synonym_cache_.find(stem);
  if (it != synonym_cache_.end()) return it->second;
  std::vector<std::u32string> names{stem};
  for (const auto& name : wordnet_->synonyms(utf8::encode(stem))) {
    if (name.find('_') != std::string::npos) continue;
    std::u32string decoded;
    utf8::decode(name, decoded);
    names.push_back(std::move(decoded));
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return synonym_cache_.emplace(stem, std::move(names)).first->second;
}

double NltkMeteor::formula(double matches, double chunks, double hyp_len, double ref_len) const {
  const double alpha = options_.alpha;
  if (matches == 0 || hyp_len == 0 || ref_len == 0) return 0.0;
  const double precision = matches / hyp_len;
  const double recall = matches / ref_len;
  const double denominator = alpha * precision + (1 - alpha) * recall;
  if (denominator == 0) return 0.0;  // Python raises ZeroDivisionError; NLTK returns 0
  const double fmean = (precision * recall) / denominator;
  const double fragmentation = chunks / matches;
  const double penalty = options_.gamma * std::pow(fragmentation, options_.beta);
  return (1 - penalty) * fmean;
}

double NltkMeteor::sentence_score(const std::vector<std::u32string>& hyp_tokens,
                                  const std::vector<std::u32string>& ref_tokens, NltkAlignment* alignment) const {
  Words hyp = enumerate_lowercased(hyp_tokens);
  Words ref = enumerate_lowercased(ref_tokens);
  MatchPairs matches;
  const auto same_form = [](const Word& h, const Word& r) { return h.form == r.form; };
  greedy_match(hyp, ref, matches, same_form);
  if (options_.stem) {
    // The stemmed forms stay in the lists for the synonym stage.
    for (auto& word : hyp) word.form = cached_stem(word.form);
    for (auto& word : ref) word.form = cached_stem(word.form);
    greedy_match(hyp, ref, matches, same_form);
  }
  if (options_.synonyms) {
    for (std::size_t i = hyp.size(); i-- > 0;) {
      const auto& synonyms = cached_synonyms(hyp[i].form);
      for (std::size_t j = ref.size(); j-- > 0;) {
        if (std::binary_search(synonyms.begin(), synonyms.end(), ref[j].form)) {
          matches.emplace_back(hyp[i].index, ref[j].index);
          hyp.erase(hyp.begin() + static_cast<std::ptrdiff_t>(i));
          ref.erase(ref.begin() + static_cast<std::ptrdiff_t>(j));
          break;
        }
      }
    }
  }
  std::sort(matches.begin(), matches.end());
  const std::size_t chunks = matches.empty() ? 0 : count_chunks(matches);
  if (alignment != nullptr) *alignment = {matches.size(), chunks, hyp_tokens.size(), ref_tokens.size()};
  return formula(static_cast<double>(matches.size()), static_cast<double>(chunks),
                 static_cast<double>(hyp_tokens.size()), static_cast<double>(ref_tokens.size()));
}

void NltkMeteor::segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs, Stat* out) const {
  const auto hyp_tokens = tokens(hyp);
  double best = 0;
  NltkAlignment best_alignment{0, 0, hyp_tokens.size(), 0};
  bool first = true;
  for (const auto& ref : refs) {
    NltkAlignment alignment;
    const double score = sentence_score(hyp_tokens, tokens(ref), &alignment);
    if (first || score > best) {  // Python max(): the first maximum wins
      best = score;
      best_alignment = alignment;
      first = false;
    }
  }
  out[0] = best;
  out[1] = 1;
  out[2] = static_cast<Stat>(best_alignment.matches);
  out[3] = static_cast<Stat>(best_alignment.chunks);
  out[4] = static_cast<Stat>(best_alignment.hyp_len);
  out[5] = static_cast<Stat>(best_alignment.ref_len);
}

double NltkMeteor::mean_score(std::span<const Stat> stats) const {
  return stats[1] > 0 ? stats[0] / stats[1] : 0.0;
}

double NltkMeteor::summed_stats_score(std::span<const Stat> stats) const {
  return formula(stats[2], stats[3], stats[4], stats[5]);
}

double NltkMeteor::score(std::span<const Stat> stats) const {
  return options_.aggregate == MeteorAggregate::mean ? mean_score(stats) : summed_stats_score(stats);
}

std::string NltkMeteor::signature() const {
  std::string stages = "exact";
  if (options_.stem) stages += "+stem-" + stemmer_.id();
  if (options_.synonyms) stages += "+syn-wordnet-" + wordnet_->version();
  std::string sig = fmt::format("meteor:nltk-3.8|tok:{}|alpha:{}|beta:{}|gamma:{}|stages:{}|agg:{}",
                                pipeline_->tokenizer().id(), format_param(options_.alpha),
                                format_param(options_.beta), format_param(options_.gamma), stages,
                                options_.aggregate == MeteorAggregate::mean ? "mean" : "summed-stats");
  if (pipeline_->has_normalizers()) sig += "|norm:" + pipeline_->normalizer_chain_id();
  return sig;
}

nlohmann::json NltkMeteor::details(std::span<const Stat> stats) const {
  return {
      {"compat", "nltk"},
      {"aggregate", options_.aggregate == MeteorAggregate::mean
                        ? "mean of segment scores (NLTK has no corpus METEOR)"
                        : "evalcli extension: NLTK formula on summed matches, chunks and lengths"},
      {"mean_of_segment_scores", mean_score(stats)},
      {"summed_stats_score", summed_stats_score(stats)},
      {"alpha", options_.alpha},
      {"beta", options_.beta},
      {"gamma", options_.gamma},
  };
}

}  // namespace evalcli
