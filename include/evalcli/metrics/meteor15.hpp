#pragma once
// CMU METEOR 1.5 (Java, cmu-mtlab/meteor @57a9ec5) as specs/meteor.md §3
// describes it: normalisation (-norm/-lower/-noPunct), candidate matches from
// the exact/stem/synonym/paraphrase modules, beam-search alignment with its
// quirks, content/function word weighting, and a system score computed from
// summed statistics. Resources come from a folder in METEOR's layout.
//
// Statistics per segment (METEOR's own 23-value layout): test_len, ref_len,
// test_function_words, ref_function_words, then for each of 4 module slots
// test/ref content matches and test/ref function-word matches, then chunks
// (0 for a perfect segment: METEOR does not sum those), test_word_matches,
// ref_word_matches.
#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "evalcli/metrics/metric.hpp"
#include "evalcli/tokenize/pipeline.hpp"

namespace evalcli {

enum class Meteor15Normalization { none, lowercase, norm, norm_nopunct };
Meteor15Normalization parse_meteor15_normalization(std::string_view name);  // usage error if unknown

struct Meteor15Options {
  std::string language = "en";
  std::string tokenizer = "none";  // evalcli tokenizer run before METEOR's own processing
  std::vector<std::string> normalizers;
  Meteor15Normalization normalization = Meteor15Normalization::none;
  std::filesystem::path resources_dir;
  std::filesystem::path paraphrase_table;      // empty = no paraphrase module
  std::vector<std::string> modules;            // empty = the language's defaults
  std::optional<std::array<double, 4>> parameters;  // alpha beta gamma delta
  std::optional<std::vector<double>> weights;       // module weights
  int beam_size = 40;
  // The jar reads resources/function/english.words whatever -l says (its
  // configuration never updates the default list); true reads the language's
  // own list, as the jar does with -s LANG.words.
  bool language_function_words = false;
};

// One alignment's numbers, before any aggregation (for tests and reports).
struct Meteor15Segment {
  std::vector<std::u32string> test_words, ref_words;
  std::array<double, 23> stats{};
  double score = 0;
};

class Meteor15 : public Metric {
 public:
  static constexpr std::size_t kMaxModules = 4;
  static constexpr std::size_t kNumStats = 23;

  explicit Meteor15(Meteor15Options options);
  ~Meteor15() override;

  std::string name() const override { return "METEOR"; }
  std::vector<std::string> stat_names() const override;
  StatDomain stat_domain() const override;  // counts; matches at most the words matched among
  void segment_stats(std::u32string_view hyp, std::span<const std::u32string> refs,
                     Stat* out) const override;
  double score(std::span<const Stat> stats) const override;
  std::string signature() const override;
  nlohmann::json details(std::span<const Stat> stats) const override;

  // METEOR's own signature, e.g. meteor-1.5-wo-en-norm-0.85_0.2_0.6_0.75-ex_st_sy-1.0_0.6_0.8
  std::string eval_id() const;
  // Normalised words of one line (METEOR's normaliser, lowercasing, StringTokenizer split).
  std::vector<std::u32string> words(std::u32string_view line) const;
  // Aligns and scores one test line against one reference line.
  Meteor15Segment score_pair(std::u32string_view test, std::u32string_view ref) const;

  const Meteor15Options& options() const { return options_; }
  // The pipeline of --tokenize/--normalize, or null (METEOR's own word split only).
  const TextPipeline* text_pipeline() const { return pipeline_.get(); }
  // The stemmer: field ("snowball-german-libstemmer-2.2"), or nullopt without a stem stage.
  std::optional<std::string> stemmer_field() const;
  // The paraphrase table's file name, or nullopt without a paraphrase stage.
  std::optional<std::string> paraphrase_field() const;

  struct Resources;

 private:
  Meteor15Options options_;
  std::unique_ptr<TextPipeline> pipeline_;
  std::unique_ptr<Resources> resources_;
};

// METEOR 1.5 rebuilt from its signature (the eval id's parameters and weights) to
// score statistics summed elsewhere, as `evalcli merge` does; it cannot score text.
std::unique_ptr<StatsModel> meteor15_from_signature(const std::string& signature);


}  // namespace evalcli
