#pragma once
// ROUGE-1.5.5.pl evaluation setups (docs/rouge.md, shared/specs/rouge.md 2.1):
// the XML settings file pyrouge writes (`<ROUGE-EVAL>` with one `<EVAL>` per
// document) and the `-z FORMAT` file list ("peer model1 model2 ..." per line),
// plus the readers of the summary files they name (SEE, SPL, ISI).
//
// The XML reader is a strict minimal one for exactly the elements ROUGE reads
// (no Debian XML library needed): anything else is an input error naming the
// file and line, so a setup is either read as ROUGE-1.5.5.pl reads it or refused.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "evalcli/metrics/metric.hpp"
#include "evalcli/metrics/rouge.hpp"

namespace evalcli {

// A summary file named in a setup: its ID (P or M ID) and path as ROUGE opens it.
struct Rouge155SetupFile {
  std::string id;
  std::string path;       // PEER-ROOT / MODEL-ROOT + "/" + name (file lists: as given)
  std::size_t line = 0;   // where the setup names it
};

// One <EVAL> (or one file-list line).
struct Rouge155Eval {
  std::string id;
  std::size_t line = 0;
  std::string format;  // "SEE", "SPL" or "ISI" (upper case)
  std::vector<Rouge155SetupFile> peers;   // document order
  std::vector<Rouge155SetupFile> models;  // document order (-f B: first best wins)
};

struct Rouge155Setup {
  std::string source;  // the settings file's name, for messages
  std::vector<Rouge155Eval> evals;  // document order
};

// Parses a ROUGE-1.5.5 XML settings file. `name` is used in error messages
// ("name:line: what", exit code 3).
Rouge155Setup parse_rouge155_settings(std::string_view xml, const std::string& name);

// Parses a -z file list: lines "peer model1 model2 ..."; lines starting with
// '#' and blank lines are skipped; EVAL IDs are 1, 2, ... in line order, the
// peer ID is `peer_id` (ROUGE's default "X"), model IDs "M.1", "M.2", ...
Rouge155Setup parse_rouge155_file_list(std::string_view text, const std::string& name, const std::string& format,
                                       const std::string& peer_id);

// "SEE", "SPL" or "ISI" for a format name given in any case; throws (with
// `where` in the message) for SIMPLE (ROUGE's BE format) and anything else.
std::string rouge155_input_format(const std::string& type, const std::string& where);

// One sentence of a summary file as ROUGE-1.5.5 reads it (bytes, not yet lowercased).
struct Rouge155Sentence {
  std::string text;
  std::size_t line = 0;
  std::size_t offset = 0;  // of its first byte in the line (0-based), for messages
};
// The sentences of a summary file's content in `format`:
//  SEE: lines starting `<a name="N">[N]</a> <a href="#N" id=N>` (or with a
//       `size="N"` first attribute); the sentence is everything up to the
//       next `<` (pyrouge's HTML);
//  SPL: every line without its "\n", empty lines skipped;
//  ISI: lines `<S SNTNO="...">sentence</S>`.
std::vector<Rouge155Sentence> read_rouge155_sentences(std::string_view content, const std::string& format);

// ROUGE-1.5.5's by_evalID order of "EVALID.PEERID" keys for -d lines:
// numerically by their leading digits when both have some, else as strings.
bool rouge155_eval_key_before(const std::string& a, const std::string& b);

// What scoring a setup gives: one system per peer ROUGE-1.5.5.pl scores (-z:
// the file list's; -a: every peer, sorted; else `system_id`), its rows one per
// EVAL in the script's order ("EVALID.PEERID" as Perl strings), the EVAL ids of
// those rows, the largest number of models of an EVAL, and warnings (a peer
// missing from EVALs).
struct Rouge155SetupScores {
  std::vector<SystemStats> systems;
  std::vector<std::vector<std::string>> eval_ids;
  std::size_t nrefs = 0;
  std::vector<std::string> warnings;
};
Rouge155SetupScores score_rouge155_setup(const Rouge155Metric& metric, const Rouge155Setup& setup,
                                         const std::string& system_id);

}  // namespace evalcli
