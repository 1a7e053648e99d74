// Scoring a ROUGE-1.5.5 setup (settings file or -z file list) as
// ROUGE-1.5.5.pl does: the peers it scores, each EVAL's summary files read as
// its INPUT-FORMAT says, EVALs in the script's order.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "evalcli/core/error.hpp"
#include "evalcli/io/read_file.hpp"
#include "evalcli/metrics/rouge155_setup.hpp"
#include "evalcli/text/utf8.hpp"

namespace evalcli {
namespace {

// The peers ROUGE-1.5.5.pl scores: -z: the system ID (default "X"); -a: every
// peer ID of the file, sorted; else the system ID argument.
std::vector<std::string> peers_to_score(const Rouge155Setup& setup, const Rouge155Options& options,
                                        const std::string& system) {
  if (!options.file_list_format.empty()) return {setup.evals.front().peers.front().id};
  if (options.all_peers) {
    std::set<std::string> ids;
    for (const auto& eval : setup.evals) {
      for (const auto& peer : eval.peers) ids.insert(peer.id);
    }
    if (ids.empty()) throw input_error(fmt::format("{}: no <P> (peer) in any EVAL", setup.source));
    return {ids.begin(), ids.end()};
  }
  if (system.empty()) {
    throw usage_error(
        "give the peer to score with --rouge155-system ID, or -a in --rouge155-flags for every peer (as ROUGE-1.5.5.pl)");
  }
  return {system};
}

// One summary file's sentences, as the metric takes them.
std::vector<std::string> summary_sentences(const Rouge155Metric& metric, const Rouge155Setup& setup,
                                           const Rouge155SetupFile& file, const std::string& format) {
  std::string content;
  try {
    content = io::read_whole_file(file.path);
  } catch (const Error& e) {
    throw Error(e.code(), fmt::format("{}:{}: {}", setup.source, file.line, e.what()), e.hint());
  }
  std::vector<std::string> sentences;
  for (auto& sentence : read_rouge155_sentences(content, format)) {
    if (!metric.transforms_text()) {
      sentences.push_back(std::move(sentence.text));
      continue;
    }
    // --normalize/--tokenize work on text: the file must be UTF-8 there.
    std::u32string decoded;
    if (const std::size_t bad = utf8::decode(sentence.text, decoded); bad != utf8::npos) {
      throw input_error(fmt::format("{}:{}:byte {}: invalid UTF-8 (byte 0x{:02X})", file.path, sentence.line,
                                    sentence.offset + bad + 1, static_cast<unsigned char>(sentence.text[bad])));
    }
    std::string bytes = metric.sentence_bytes(decoded);
    if (!bytes.empty()) sentences.push_back(std::move(bytes));
  }
  return sentences;
}

}  // namespace

Rouge155SetupScores score_rouge155_setup(const Rouge155Metric& metric, const Rouge155Setup& setup,
                                         const std::string& system_id) {
  std::map<std::size_t, std::vector<std::vector<std::string>>> models_of_eval;  // read once per EVAL
  Rouge155SetupScores scores;
  const std::size_t width = metric.num_stats();
  for (const auto& peer : peers_to_score(setup, metric.options(), system_id)) {
    // Evaluations in Perl string order of "EVALID.PEERID" (its bootstrap order).
    std::vector<std::pair<std::string, std::size_t>> keys;
    std::vector<std::string> missing;
    for (std::size_t e = 0; e < setup.evals.size(); ++e) {
      const auto& eval = setup.evals[e];
      const bool has_peer = std::any_of(eval.peers.begin(), eval.peers.end(), [&](const auto& p) { return p.id == peer; });
      if (has_peer) {
        keys.emplace_back(eval.id + "." + peer, e);
      } else {
        missing.push_back(eval.id);
      }
    }
    if (keys.empty()) {
      scores.warnings.push_back(fmt::format("{}: peer {} is in none of the {} EVALs; ROUGE-1.5.5 reports 0 for it",
                                            setup.source, peer, setup.evals.size()));
    } else if (!missing.empty()) {
      scores.warnings.push_back(fmt::format(
          "{}: peer {} is missing from {} of {} EVALs (first: {}); ROUGE-1.5.5 averages it over the other {}",
          setup.source, peer, missing.size(), setup.evals.size(), missing.front(), keys.size()));
    }
    std::sort(keys.begin(), keys.end());
    SystemStats system;
    system.system = peer;
    system.totals.assign(width, 0.0);
    std::vector<std::string> ids;
    for (const auto& [key, e] : keys) {
      const auto& eval = setup.evals[e];
      auto found = models_of_eval.find(e);
      if (found == models_of_eval.end()) {
        std::vector<std::vector<std::string>> models;
        for (const auto& model : eval.models) models.push_back(summary_sentences(metric, setup, model, eval.format));
        found = models_of_eval.emplace(e, std::move(models)).first;
      }
      const auto& peer_file = *std::find_if(eval.peers.begin(), eval.peers.end(), [&](const auto& p) { return p.id == peer; });
      StatRow row(width, 0.0);
      metric.document_stats(summary_sentences(metric, setup, peer_file, eval.format), found->second, row.data());
      for (std::size_t k = 0; k < width; ++k) system.totals[k] += row[k];
      system.rows.push_back(std::move(row));
      ids.push_back(eval.id);
      scores.nrefs = std::max(scores.nrefs, eval.models.size());
    }
    system.segments = system.rows.size();
    scores.systems.push_back(std::move(system));
    scores.eval_ids.push_back(std::move(ids));
  }
  return scores;
}

}  // namespace evalcli
