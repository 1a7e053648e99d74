#pragma once
// `--signature SIG` on every metric command (docs/signatures.md): the parts of
// a printed signature that describe the run rather than the metric (nrefs,
// bs:/ar:/seed: of the resampling, version, a pasted " = SCORE"), read once
// here for every command; each metric reads its own fields.
#include <optional>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "cli/common.hpp"
#include "evalcli/core/signature.hpp"
#include "evalcli/metrics/metric.hpp"

namespace evalcli::cli {

struct RunSignature {
  std::vector<SignatureField> metric_fields;  // the metric's own fields, in the order given
  bool evalcli_form = false;                  // version:evalcli-...: fields must read back exactly
  // "key:value|..." of metric_fields (with a leading "metric:NAME" if one was given).
  std::string metric_text() const;
  // Removes the field `key` from metric_fields and returns its value, if given
  // (a command's own fields that are not the metric's: ROUGE's boot:, ci:).
  std::optional<std::string> take(const std::string& key);
};

// Adds `--signature SIG` to a metric command.
void add_signature_option(CLI::App* cmd, std::string& signature);

// Reads `text` for a metric command. Refuses duplicate keys (also a long and a
// short key of one field: case/c, nrefs/#, ...); checks nrefs against the
// references given (nullopt: not checked); sets what bs:/ar:/seed: say in
// `output` as the printing run had it (bs: a confidence interval, or the
// paired bootstrap when --paired-bs is given; ar: the paired randomisation
// test) and refuses an option of the command line that contradicts them; a
// score pasted after " = " becomes output.expected_score.
RunSignature read_run_signature(const std::string& text, std::optional<std::size_t> given_refs,
                                OutputOptions& output, const CLI::App& cmd);

// For evalcli's own signatures: the metric rebuilt from `given` must print the
// same fields (in any order), else a usage error naming the first that differs
// (a value this evalcli does not print so, or a field it does not know).
void check_rebuilt_signature(const RunSignature& given, const StatsModel& metric);
// The same for a metric's fields printed before the metric exists (`name`: for messages).
void check_rebuilt_signature(const RunSignature& given, const std::string& name, const std::string& fields);

// A field a metric began to print after signatures without it were printed
// (PPL's scorer:): a signature that lacks it still reproduces this run unless
// `why_absent_differs` says why not (then that is the usage error's reason).
struct FieldAddedLater {
  std::string key;
  std::optional<std::string> why_absent_differs;
};
void check_rebuilt_signature(const RunSignature& given, const std::string& name, const std::string& fields,
                             const std::vector<FieldAddedLater>& added_later);


}  // namespace evalcli::cli
