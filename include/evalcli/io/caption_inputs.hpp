#pragma once
// Captioning inputs for `evalcli cider` (docs/cider.md): items with a variable
// number of references and one hypothesis per system, read from
//   - plain text: one caption per line, one file per reference (-r) and per system (-i);
//   - JSONL: {"id": ..., "refs": [...], "hyp": ...} per line (hyp optional when -i is given);
//   - COCO: a captions annotation file + a results file, ordered as pycocoevalcap does.
// Errors name the file and the line (JSONL) or array element (COCO).
#include <string>
#include <vector>

#include "evalcli/io/parallel_reader.hpp"

namespace evalcli::io {

struct CaptionItem {
  std::string id;  // JSON text of the id ("391895", "\"Scene1.png\""), or the line number
  std::vector<std::u32string> refs;
  std::vector<std::u32string> hyps;  // one per system
};

struct CaptionSet {
  std::vector<CaptionItem> items;
  std::vector<std::string> system_names;
  // Reference count per item when all items have the same, else 0 ("var").
  std::size_t uniform_refs() const;
};

// Plain-text files through ParallelReader (line counts must agree).
CaptionSet read_plain_captions(const CorpusSpec& spec);

// JSONL; when `hyp_paths` is not empty the hypotheses come from those files
// (one line per JSONL item) instead of the "hyp" field.
CaptionSet read_jsonl_captions(const std::string& path, const std::vector<std::string>& hyp_paths);

// COCO captions annotations ({"images": [...], "annotations": [{"image_id", "caption"}]})
// and results ([{"image_id", "caption"}]). Images are in the annotation file's
// "images" order restricted to those with a result (pycocotools' loadRes).
CaptionSet read_coco_captions(const std::string& annotations_path, const std::string& results_path);

// Throws input_error naming the item if any item has no reference.
void check_every_item_has_references(const CaptionSet& set, const std::string& source);

}  // namespace evalcli::io
