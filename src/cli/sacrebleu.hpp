#pragma once
// `evalcli sacrebleu`: SacreBLEU 2.x's command line with byte-identical stdout
// (only the signature's version differs). Shared between the front end and
// the significance tests that plug into it.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "evalcli/metrics/metric.hpp"

namespace evalcli::cli {

// Every SacreBLEU option evalcli understands, after parsing.
struct SacrebleuArgs {
  std::vector<std::string> refs;
  std::optional<std::vector<std::string>> inputs;  // -i; none = stdin
  std::vector<std::string> metrics = {"bleu"};
  std::string format = "json";
  int width = 1;
  bool score_only = false;
  bool short_signature = false;
  bool sentence_level = false;
  int num_refs = 1;
  std::string encoding = "utf-8";
  bool quiet = false;
  std::optional<std::string> langpair;  // -l SRC-TRG
  // BLEU
  std::optional<std::string> tokenize;
  bool lowercase = false;
  std::string smooth_method = "exp";
  std::optional<double> smooth_value;
  bool force = false;
  // chrF
  int chrf_char_order = 6;
  int chrf_word_order = 0;
  int chrf_beta = 2;
  bool chrf_lowercase = false;
  bool chrf_whitespace = false;
  bool chrf_eps_smoothing = false;
  // TER
  bool ter_case_sensitive = false;
  bool ter_normalized = false;
  bool ter_no_punct = false;
  bool ter_asian_support = false;
  // Statistics
  bool confidence = false;
  int confidence_n = 1000;
  bool paired_bs = false;
  int paired_bs_n = 1000;
  bool paired_ar = false;
  int paired_ar_n = 10000;
  int paired_jobs = 1;
  std::string first_paired_test;  // "--paired-bs" or "--paired-ar", whichever was given first
};

// Builds the metric SacreBLEU calls `name` ("bleu", "chrf", "ter") from the
// arguments; `sentence_level` turns on BLEU's effective order as SacreBLEU does.
std::unique_ptr<Metric> make_sacrebleu_metric(const std::string& name, const SacrebleuArgs& args);

// "nrefs:1|case:mixed|...|version:evalcli-X" (or the short form), with
// `extra` fields (bs/ar/seed) after nrefs as SacreBLEU orders them.
std::string sacrebleu_signature(const StatsModel& metric, std::size_t nrefs, bool short_form,
                                const std::vector<SacrebleuField>& extra = {});

}  // namespace evalcli::cli
