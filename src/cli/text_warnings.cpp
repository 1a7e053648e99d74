#include "cli/text_warnings.hpp"

#include <fmt/format.h>

namespace evalcli::cli {

TextChecks text_checks(const MetricDefinition& definition, const OptionValues& values) {
  TextChecks checks;
  if (definition.word_tokenizer) checks.word_tokenizer = definition.word_tokenizer(values);
  checks.tokenized_periods = definition.tokenized_period_warning && !values.flag("force");
  checks.ascii_only_tokenizer = definition.ascii_only_tokenizer && definition.ascii_only_tokenizer(values);
  return checks;
}

void scan_while_reading(CorpusSpec& spec, TextScan& scan) {
  spec.on_segment = [&scan](const std::vector<std::u32string>& hyps, const std::vector<std::u32string>& refs) {
    for (std::size_t s = 0; s < hyps.size(); ++s) scan.add_hypothesis(s, hyps[s]);
    for (const auto& ref : refs) scan.add_line(ref);
  };
}

void print_text_warnings(const TextScan& scan, const TextChecks& checks, const std::vector<std::string>& system_names,
                         bool quiet, std::ostream& err) {
  if (quiet) return;
  if (!checks.word_tokenizer.empty()) err << unspaced_text_warning(scan, checks.word_tokenizer);
  if (checks.ascii_only_tokenizer) err << rouge_ascii_warning(scan.non_space_characters(), scan.non_ascii_characters());
  if (!checks.tokenized_periods) return;
  for (std::size_t s = 0; s < system_names.size(); ++s) {
    const std::size_t periods = scan.tokenized_periods(s);
    if (periods < kTokenizedPeriodWarningLines) continue;
    err << fmt::format(
        "evalcli: warning: {}{} of {} hypotheses end in a tokenized period (' .'), SacreBLEU's sign that the text "
        "was not detokenized, which may hurt the score.\n"
        "hint: score detokenized text; --force silences this warning\n",
        system_names.size() > 1 ? system_names[s] + ": " : "", periods, scan.segments());
  }
}

std::string rouge_ascii_warning(std::size_t chars, std::size_t non_ascii) {
  if (chars == 0 || non_ascii * 2 <= chars) return "";
  return fmt::format(
      "evalcli: warning: {:.0f}% of the non-space characters are non-ASCII, and the default ROUGE tokenizer keeps "
      "only ASCII letters and digits: scores would be near 0 and meaningless.\n"
      "hint: give the language (--lang zh, --lang ja) or use --tokenize zh-char (Chinese characters), zh-jieba "
      "(Chinese words), ja-mecab, intl or char; -q silences this\n",
      100.0 * static_cast<double>(non_ascii) / static_cast<double>(chars));
}

}  // namespace evalcli::cli
