#include "metrics/coco_captions.hpp"

namespace evalcli::detail {

void tokenize_image(const TextPipeline& pipeline, std::u32string_view hyp, std::span<const std::u32string> refs,
                    const FollowingCaptions& following, TokenizedImage& out) {
  out.refs.resize(refs.size());
  for (std::size_t r = 0; r < refs.size(); ++r) out.refs[r].assign(refs[r]);
  pipeline.process_lines(out.refs, following.ref);
  out.hyp_line.resize(1);
  out.hyp_line.front().assign(hyp);
  pipeline.process_lines(out.hyp_line, following.hyp);
}

}  // namespace evalcli::detail
