#pragma once
// A tokenized caption as the ids of its words (Python's str.split() words),
// equal ids for equal words across one run: `evalcli coco` interns every
// caption's words once and hands the same ids to Bleu, ROUGE_L and CIDEr.
#include <cstdint>
#include <span>

namespace evalcli {

using CaptionWords = std::span<const std::uint32_t>;

}  // namespace evalcli
