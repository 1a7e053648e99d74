#pragma once
// CIDEr's corpus scorer (what `evalcli cider` runs): every caption tokenized
// as the reference tools batch them, document frequencies over all references
// (or loaded ones), then every image's score as the rows [score, 1] of the
// statistics model (Cider).
//
// Memory is the n-gram table and the document frequencies, not the n-gram
// vectors of every caption: pass 1 counts each document and keeps its n-gram
// vectors (in memory up to kHeldBytes, beyond that in an unnamed temporary
// file), pass 2 reads them back and scores them a block of documents at a time. Plain text (files or standard input) is streamed in
// blocks; captions read whole (JSONL, COCO) are freed after pass 1.
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "evalcli/io/caption_inputs.hpp"
#include "evalcli/metrics/cider.hpp"
#include "evalcli/metrics/metric.hpp"
#include "evalcli/tokenize/pipeline.hpp"

namespace evalcli {

class CiderCorpusRun {
 public:
  // Called with the number of items done so far (a progress display).
  using ItemProgress = std::function<void(std::size_t items_done)>;

  // Pass 1 over captions read whole (tokenized in place, then freed).
  CiderCorpusRun(const CiderOptions& options, const TextPipeline& pipeline, io::CaptionSet set,
                 const ItemProgress& on_items = {});
  // Pass 1 over plain text read once, in blocks; `block_items` = items tokenized together.
  // `last_is_context`: the spec's last segment is not scored, only read as the
  // PTB context of the one before it (a --shard piece followed by the next
  // piece's first segment tokenizes as within the whole test set). Items are
  // numbered from the spec's first segment. `held_bytes`: see kHeldBytes.
  CiderCorpusRun(const CiderOptions& options, const TextPipeline& pipeline, const CorpusSpec& spec,
                 std::size_t block_items = kBlockItems, const ItemProgress& on_items = {},
                 bool last_is_context = false, std::size_t held_bytes = kHeldBytes);
  ~CiderCorpusRun();
  CiderCorpusRun(const CiderCorpusRun&) = delete;
  CiderCorpusRun& operator=(const CiderCorpusRun&) = delete;

  static constexpr std::size_t kBlockItems = 4096;
  // Pass 1's n-gram vectors kept in memory up to this size, then all moved to
  // a temporary file ($TMPDIR, else /tmp) that pass 2 reads back.
  static constexpr std::size_t kHeldBytes = std::size_t{16} << 20;

  // The document frequencies (replace them with --df before pass 2).
  CiderCorpus& corpus() { return *corpus_; }
  const std::vector<std::string>& system_names() const { return system_names_; }
  // Each item's id as JSON text (`"x.jpg"` with its quotes, `391895`), or the line number, in order.
  const std::vector<std::string>& ids() const { return ids_; }
  // References per item when all items have the same number, else 0 ("var").
  std::size_t uniform_refs() const { return uniform_refs_; }

  // Pass 2 (once): per system, the rows [score, 1] of its images. The spilled
  // documents are read back in blocks and each block is scored on `pool`'s
  // threads when given (the same rows for any thread count).
  std::vector<SystemStats> system_stats(const ItemProgress& on_items = {}, WorkerPool* pool = nullptr);
  static constexpr std::size_t kScoringBlockItems = 1024;

 private:
  class Spill;
  std::unique_ptr<CiderCorpus> corpus_;
  std::vector<std::string> system_names_, ids_;
  std::size_t uniform_refs_ = 0;
  std::unique_ptr<Spill> spill_;  // every document's n-gram vectors, for pass 2
};

// The df: signature field of document frequencies loaded from a file: "sha256.<16 hex>".
std::string cider_df_field(const CiderDocumentFrequencies& df);

}  // namespace evalcli
