// NLTK 3.8 meteor_score, step by step as specs/meteor.md §2 describes it.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <span>
#include <nlohmann/json.hpp>

#include "evalcli/core/error.hpp"
#include "evalcli/metrics/meteor.hpp"
#include "evalcli/text/detail/string_interner.hpp"
#include "evalcli/text/text_arena.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli {
namespace {

struct Word {
  std::size_t index;   // position in the original sentence
  std::uint32_t form;  // lexicon id of the lowercased form, later of its stem
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

void enumerate(const std::vector<std::uint32_t>& forms, Words& words) {
  words.clear();
  for (std::size_t i = 0; i < forms.size(); ++i) words.push_back({i, forms[i]});
}

}  // namespace

// Every string the matcher compares, interned once: tokens map to the id of
// their lowercased form, forms to the id of their Porter stem, stems to the
// sorted ids of NLTK's synonym set. Ids are equal exactly when the strings
// are, so matching compares integers, and each distinct word is lowercased,
// stemmed and looked up in WordNet once per run.
struct NltkMeteor::Lexicon {
  static constexpr std::uint32_t kUnknown = text::StringInterner::kAbsent;

  text::TextArena texts;
  text::StringInterner tokens;
  std::vector<std::uint32_t> token_form;  // token id -> form id

  text::StringInterner forms;
  std::vector<std::u32string_view> form_texts;  // form id -> text
  std::vector<std::uint32_t> stem;              // form id -> form id of its stem, or kUnknown
  // Synonym sets, one after the other: stem form id -> [begin, end) in `synonym_ids`.
  std::vector<std::uint32_t> synonym_ids;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> synonym_range;  // kUnknown: not looked up yet

  std::uint32_t form_id(std::u32string_view form) {
    const std::uint32_t id = forms.find(form);
    if (id != kUnknown) return id;
    form_texts.push_back(texts.store(form));
    stem.push_back(kUnknown);
    synonym_range.emplace_back(kUnknown, kUnknown);
    return forms.id(form_texts.back());
  }
  std::uint32_t lowercased_form_id(std::u32string_view token) {
    return lowercased_form_id(token, text::TextHash::of(token));
  }
  // The same, given the token's TextHash.
  std::uint32_t lowercased_form_id(std::u32string_view token, std::uint64_t hash) {
    const std::uint32_t id = tokens.find(token, hash);
    if (id != kUnknown) return token_form[id];
    tokens.id(texts.store(token), hash);
    token_form.push_back(form_id(text::lower(token)));
    return token_form.back();
  }
};

NltkMeteor::NltkMeteor(NltkMeteorOptions options)
    : options_(std::move(options)),
      pipeline_(std::make_unique<TextPipeline>(options_.text)),
      lexicon_(std::make_unique<Lexicon>()) {
  if (options_.synonyms) wordnet_ = std::make_unique<WordNet>(options_.wordnet_dir);
}

NltkMeteor::~NltkMeteor() = default;

std::vector<std::string> NltkMeteor::stat_names() const {
  return {"score_sum", "segments", "matches", "chunks", "hyp_len", "ref_len"};
}

// The pipeline's tokens of `line`, lowercased, as lexicon ids.
// With the `none` tokenizer alone, process() only joins split()'s words by
// single spaces, so the line is split as it is (no copy, no second split).
void NltkMeteor::lowercased_form_ids(std::u32string_view line, FormIds& ids) const {
  std::u32string processed;
  if (!pipeline_->squeezes_spaces_only()) {
    processed = pipeline_->process(line);
    line = processed;
  }
  ids.clear();
  std::lock_guard lock(lexicon_mutex_);
  text::for_each_split_hashed(line, [&](std::u32string_view token, std::uint64_t hash) {
    ids.push_back(lexicon_->lowercased_form_id(token, hash));
  });
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
  FormIds hyp, ref;
  {
    std::lock_guard lock(lexicon_mutex_);
    for (const auto& token : hyp_tokens) hyp.push_back(lexicon_->lowercased_form_id(token));
    for (const auto& token : ref_tokens) ref.push_back(lexicon_->lowercased_form_id(token));
  }
  return score_forms(hyp, ref, alignment);
}

double NltkMeteor::score_forms(const FormIds& hyp_forms, const FormIds& ref_forms, NltkAlignment* alignment) const {
  // Per-thread lists, reused from segment to segment (no allocation per segment).
  thread_local Words hyp, ref;
  thread_local MatchPairs matches;
  enumerate(hyp_forms, hyp);
  enumerate(ref_forms, ref);
  matches.clear();
  const auto same_form = [](const Word& h, const Word& r) { return h.form == r.form; };
  greedy_match(hyp, ref, matches, same_form);
  Lexicon& lexicon = *lexicon_;
  if (options_.stem) {
    // The stemmed forms stay in the lists for the synonym stage.
    std::lock_guard lock(lexicon_mutex_);
    for (Words* words : {&hyp, &ref}) {
      for (auto& word : *words) {
        if (lexicon.stem[word.form] == Lexicon::kUnknown) {
          const std::uint32_t stem = lexicon.form_id(stemmer_.stem(lexicon.form_texts[word.form]));
          lexicon.stem[word.form] = stem;
        }
        word.form = lexicon.stem[word.form];
      }
    }
    greedy_match(hyp, ref, matches, same_form);
  }
  if (options_.synonyms && !ref.empty()) {
    std::lock_guard lock(lexicon_mutex_);
    for (std::size_t i = hyp.size(); i-- > 0;) {
      const std::span<const std::uint32_t> synonyms = synonym_ids(hyp[i].form);  // valid until the next call
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
  if (alignment != nullptr) *alignment = {matches.size(), chunks, hyp_forms.size(), ref_forms.size()};
  return formula(static_cast<double>(matches.size()), static_cast<double>(chunks),
                 static_cast<double>(hyp_forms.size()), static_cast<double>(ref_forms.size()));
}

// NLTK's set of lemma names (without '_') of wordnet.synsets(stem), plus the
// stem itself, as sorted lexicon ids. Called with lexicon_mutex_ held.
std::span<const std::uint32_t> NltkMeteor::synonym_ids(std::uint32_t stem) const {
  Lexicon& lexicon = *lexicon_;
  if (lexicon.synonym_range[stem].first == Lexicon::kUnknown) {
    std::vector<std::uint32_t> ids{stem};
    std::u32string decoded;
    for (const auto& name : wordnet_->synonyms(utf8::encode(lexicon.form_texts[stem]))) {
      if (name.find('_') != std::string::npos) continue;
      decoded.clear();
      utf8::decode(name, decoded);
      ids.push_back(lexicon.form_id(decoded));
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    const auto begin = static_cast<std::uint32_t>(lexicon.synonym_ids.size());
    lexicon.synonym_ids.insert(lexicon.synonym_ids.end(), ids.begin(), ids.end());
    lexicon.synonym_range[stem] = {begin, static_cast<std::uint32_t>(lexicon.synonym_ids.size())};
  }
  const auto [begin, end] = lexicon.synonym_range[stem];
  return {lexicon.synonym_ids.data() + begin, end - begin};
}

void NltkMeteor::segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs, Stat* out) const {
  thread_local FormIds hyp_forms, ref_forms;  // reused from segment to segment
  lowercased_form_ids(hyp, hyp_forms);
  double best = 0;
  NltkAlignment best_alignment{0, 0, hyp_forms.size(), 0};
  bool first = true;
  for (const auto& ref : refs) {
    NltkAlignment alignment;
    lowercased_form_ids(ref, ref_forms);
    const double score = score_forms(hyp_forms, ref_forms, &alignment);
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

bool NltkMeteor::corpus_score_is_mean() const { return options_.aggregate == MeteorAggregate::mean; }

std::string NltkMeteor::signature() const { return print_signature(meteor_definition(), *this); }

std::string NltkMeteor::stages() const {
  std::string stages = "exact";
  if (options_.stem) stages += "+stem-" + stemmer_.id();
  if (options_.synonyms) stages += "+syn-wordnet-" + wordnet_->version();
  return stages;
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
