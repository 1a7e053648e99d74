#pragma once
// Pieces of the METEOR 1.5 port shared by its source files (not public API).
#include <array>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "evalcli/metrics/metric.hpp"

namespace evalcli::meteor15 {

// Nonbreaking prefixes of METEOR's normaliser: prefix -> 1 (any) or 2 (numeric only).
using NonbreakingPrefixes = std::unordered_map<std::u32string, int>;
constexpr int kNonbreakingAny = 1;
constexpr int kNonbreakingNumericOnly = 2;

// METEOR's language ids that change the normaliser's behaviour.
enum class NormalizerLanguage { english, french, other_western, non_western };

// Normalizer.normalizeLine (Moses-derived tokenizer with METEOR's additions).
std::u32string normalize_line(std::u32string_view line, NormalizerLanguage language,
                              const NonbreakingPrefixes& prefixes, bool keep_punctuation);

// java.lang.String.hashCode() over the UTF-16 code units of `word`: METEOR
// compares words by these hashes, so collisions count as matches there too.
std::int32_t java_hash(std::u32string_view word);

// Java String.length(): UTF-16 code units.
std::size_t java_length(std::u32string_view word);

// java.util.StringTokenizer with its default delimiters " \t\n\r\f".
std::vector<std::u32string> string_tokenizer_split(std::u32string_view line);

// MeteorScorer.computeMetrics on (summed) statistics: parameters are alpha,
// beta, gamma, delta; one weight per module.
struct Numbers {
  double precision = 0, recall = 0, f1 = 0, fmean = 0, frag_penalty = 0, score = 0;
};
Numbers compute_numbers(std::span<const double> stats, const std::array<double, 4>& parameters,
                        const std::vector<double>& weights);

// The report details of a METEOR 1.5 score (one layout for a run and a merge).
nlohmann::json details(const Numbers& numbers, const std::string& eval_id);

// Numbers in METEOR's eval id (Java's Double.toString), joined by '_'.
std::string join_doubles(const std::vector<double>& values);

// METEOR's eval id read back: meteor-1.5-wo-LANG-NORM-ALPHA_BETA_GAMMA_DELTA-MODULES-WEIGHTS
// (usage error unless every number reads back as printed, one weight per module).
struct EvalId {
  std::string language;       // short name: "en"
  std::string normalization;  // "no_norm", "lc_only", "norm", "norm_nopunct"
  std::array<double, 4> parameters{};
  std::vector<std::string> modules;  // short names: "ex", "st", "sy", "pa"
  std::vector<double> weights;
};
EvalId parse_eval_id(const std::string& eval_id);
// The eval id's names as the meteor command's options spell them: "st" ->
// "stem" (--modules), "lc_only" -> "lower" (--norm); usage errors if unknown.
std::string module_name_of_eval_id(std::string_view short_name);
std::string normalization_of_eval_id(std::string_view name);

// METEOR 1.5's Snowball stemmers (the Java classes bundled in its jar) rebuilt
// on libstemmer 2.2, whose newer algorithms differ: Russian ё, Hungarian ő ű
// (õ û in the jar), German -nisse, French ë ï, Dutch R1 in UTF-8, Finnish
// (written out in full), Danish undoubling, Portuguese -logia/-ução, and Java's
// UTF-16 counting. Each is undone in meteor15_stemmer.cpp (docs/meteor.md).
class JarStemmer {
 public:
  explicit JarStemmer(const std::string& algorithm);  // libstemmer's name: "russian"
  ~JarStemmer();
  JarStemmer(const JarStemmer&) = delete;
  JarStemmer& operator=(const JarStemmer&) = delete;

  std::u32string stem(std::u32string_view word) const;

 private:
  struct sb_stemmer* stemmer_;
  std::string algorithm_;
  std::u32string inert_letters_;  // letters the jar's algorithm treats as consonants in no suffix
};

// The names of the 23 statistics (test_len, ref_len, ..., ref_word_matches).
std::vector<std::string> stat_names();
// Every statistic a count; each match count at most the words it matches among.
StatDomain stat_domain();

}  // namespace evalcli::meteor15
