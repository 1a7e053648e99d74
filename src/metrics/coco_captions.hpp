#pragma once
// An image's captions tokenized as COCOEvalCap tokenizes them (docs/coco.md):
// PTBTokenizer reads all references in one text, image by image, and each
// system's hypotheses in another, so a caption's tokens can depend on the
// caption after it (ptb's look-ahead). Shared by coco-bleu and coco-rouge.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "evalcli/metrics/metric.hpp"
#include "evalcli/tokenize/pipeline.hpp"

namespace evalcli::detail {

struct TokenizedImage {
  std::vector<std::u32string> refs;
  std::vector<std::u32string> hyp_line;  // the hypothesis (process_lines works on vectors)
  const std::u32string& hyp() const { return hyp_line.front(); }
};

// The references as consecutive lines followed by `following.ref`, the
// hypothesis followed by `following.hyp` (each null where the text ends), into
// `out` (its buffers reused).
void tokenize_image(const TextPipeline& pipeline, std::u32string_view hyp, std::span<const std::u32string> refs,
                    const FollowingCaptions& following, TokenizedImage& out);

}  // namespace evalcli::detail
