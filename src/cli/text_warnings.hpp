#pragma once
// Warnings about the text being scored (issue 18), printed on stderr unless -q:
// mostly Chinese/Japanese/Thai text met by a tokenizer that splits only at
// spaces, and hypotheses ending in a tokenized period (SacreBLEU's BLEU warning).
#include <ostream>
#include <string>
#include <vector>

#include "evalcli/io/parallel_reader.hpp"
#include "evalcli/metrics/definition.hpp"
#include "evalcli/tokenize/text_scan.hpp"

namespace evalcli::cli {

struct TextChecks {
  std::string word_tokenizer;      // the tokenizer splitting words ("" = no unspaced-text check)
  bool tokenized_periods = false;  // BLEU without --force
  bool ascii_only_tokenizer = false;  // ROUGE's own tokenizers: warn about mostly non-ASCII text
};

// What to check for a metric run with these option values.
TextChecks text_checks(const MetricDefinition& definition, const OptionValues& values);

// Makes `spec`'s reader count every segment into `scan` (which must outlive the reading).
void scan_while_reading(CorpusSpec& spec, TextScan& scan);

// evalcli's own warnings for what `scan` saw; nothing when `quiet`.
void print_text_warnings(const TextScan& scan, const TextChecks& checks, const std::vector<std::string>& system_names,
                         bool quiet, std::ostream& err);

// ROUGE's default tokenizer keeps only ASCII letters and digits: the warning
// when most of the `chars` non-space characters seen are not ASCII ("" otherwise).
std::string rouge_ascii_warning(std::size_t chars, std::size_t non_ascii);

}  // namespace evalcli::cli
