#include "evalcli/metrics/cider_corpus.hpp"

#include <algorithm>
#include <span>

#include "evalcli/core/sha256.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"

namespace evalcli {
namespace {

// Tokenizes every caption the way the reference tools do, in place (each
// line's old text is freed as its tokenized form arrives, so the memory is
// reused): PTB sees the captions of one batch (all references, then all
// hypotheses of a system) as consecutive lines, which matters for its
// look-ahead rules.
void tokenize_batch(const TextPipeline& pipeline, std::vector<std::u32string>& lines) {
  const bool normalize = pipeline.has_normalizers() || pipeline.lowercase();
  // `none` = join(split(line)); the scorer splits on the same whitespace itself.
  if (pipeline.tokenizer().name() == "none" && !normalize) return;
  if (normalize) {
    for (auto& line : lines) line = pipeline.normalize(line);
  }
  if (pipeline.tokenizer().name() == "ptb") {
    lines = tokenizers::ptb_tokenize_batch(lines);
    return;
  }
  for (auto& line : lines) line = pipeline.tokenizer().tokenize(line);
}

}  // namespace

std::unique_ptr<CiderCorpus> build_cider_corpus(const CiderOptions& options, const TextPipeline& pipeline,
                                                io::CaptionSet& set) {
  // Tokenize, then count document frequencies over the references. The
  // captions move out of `set` (only their counts are used later).
  std::vector<std::u32string> tokenized_refs;
  std::size_t ref_count = 0;
  for (const auto& item : set.items) ref_count += item.refs.size();
  tokenized_refs.reserve(ref_count);
  for (auto& item : set.items) {
    for (auto& ref : item.refs) tokenized_refs.push_back(std::move(ref));
  }
  tokenize_batch(pipeline, tokenized_refs);
  std::vector<std::vector<std::u32string>> tokenized_hyps(set.system_names.size());
  for (std::size_t s = 0; s < set.system_names.size(); ++s) {
    auto& hyps = tokenized_hyps[s];
    hyps.reserve(set.items.size());
    for (auto& item : set.items) hyps.push_back(std::move(item.hyps[s]));
    tokenize_batch(pipeline, hyps);
  }
  auto corpus = std::make_unique<CiderCorpus>(options);
  {
    std::size_t words = 0, sentences = tokenized_refs.size();
    auto count_words = [&words](const std::u32string& line) {  // an estimate when not tokenized
      words += static_cast<std::size_t>(std::count(line.begin(), line.end(), U' ')) + (line.empty() ? 0 : 1);
    };
    for (const auto& line : tokenized_refs) count_words(line);
    for (const auto& system : tokenized_hyps) {
      sentences += system.size();
      for (const auto& line : system) count_words(line);
    }
    corpus->reserve(set.items.size(), sentences, words);
  }
  std::size_t ref_at = 0;
  std::vector<std::u32string> hyps;
  for (std::size_t i = 0; i < set.items.size(); ++i) {
    const std::span<const std::u32string> refs(tokenized_refs.data() + ref_at, set.items[i].refs.size());
    ref_at += set.items[i].refs.size();
    if (tokenized_hyps.size() == 1) {
      corpus->add_document(refs, std::span<const std::u32string>(&tokenized_hyps[0][i], 1));
      continue;
    }
    hyps.clear();
    for (const auto& system : tokenized_hyps) hyps.push_back(system[i]);
    corpus->add_document(refs, hyps);
  }
  return corpus;
}

std::vector<SystemStats> cider_system_stats(const CiderCorpus& corpus, const io::CaptionSet& set) {
  std::vector<SystemStats> systems;
  for (std::size_t s = 0; s < set.system_names.size(); ++s) {
    SystemStats system;
    system.system = set.system_names[s];
    system.totals.assign(2, 0.0);
    for (double score : corpus.score_all(s)) {
      system.rows.push_back({score, 1.0});
      add_stats(system.totals, system.rows.back());
    }
    system.segments = system.rows.size();
    systems.push_back(std::move(system));
  }
  return systems;
}

std::string cider_df_field(const CiderDocumentFrequencies& df) {
  return "sha256." + sha256_hex(serialize_document_frequencies(df)).substr(0, 16);
}

}  // namespace evalcli
