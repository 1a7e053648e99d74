#pragma once
// CIDEr's corpus scorer (what `evalcli cider` runs): every caption tokenized
// as the reference tools batch them, document frequencies over all references
// (or loaded ones), then every image's score as the rows [score, 1] of the
// statistics model (Cider).
#include <memory>
#include <string>
#include <vector>

#include "evalcli/metrics/metric.hpp"
#include "evalcli/io/caption_inputs.hpp"
#include "evalcli/metrics/cider.hpp"
#include "evalcli/tokenize/pipeline.hpp"

namespace evalcli {

// Pass 1 over `set`, whose captions move into the corpus (the set keeps its
// ids, system names and reference counts).
std::unique_ptr<CiderCorpus> build_cider_corpus(const CiderOptions& options, const TextPipeline& pipeline,
                                                io::CaptionSet& set);

// Pass 2: per system of `set` (in order), the rows [score, 1] of its images.
std::vector<SystemStats> cider_system_stats(const CiderCorpus& corpus, const io::CaptionSet& set);

// The df: signature field of document frequencies loaded from a file: "sha256.<16 hex>".
std::string cider_df_field(const CiderDocumentFrequencies& df);

}  // namespace evalcli
