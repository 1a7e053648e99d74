#pragma once
// `evalcli sacrebleu --confidence` and `--paired-bs` / `--paired-ar`: SacreBLEU's
// bootstrap confidence intervals and paired significance tests with its exact
// output (../shared/specs/sacrebleu.md §7-9), computed by evalcli/stats.
#include <string>

#include "cli/sacrebleu_output.hpp"

namespace evalcli::cli {

// Single system with `--confidence`: like render_single_system plus
// " (μ = M ± C)" and the bs/seed signature fields.
std::string render_single_system_confidence(const SacrebleuRun& run);

// Several systems with a paired test: the table (or JSON list) of scores,
// p-values and bootstrap means/CIs; log lines go to io.err unless -q.
std::string render_paired_tests(const SacrebleuRun& run, Streams& io);

}  // namespace evalcli::cli
