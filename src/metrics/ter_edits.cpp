// SacreBLEU's translation_edit_rate() (lib_ter.py) over interned word ids,
// built for speed without changing a single result:
//  * words are integers, the DP works on int32 rows reused across calls;
//  * the current hypothesis' DP is stored once per shift round, band cells only;
//  * a shift candidate shares its first min(start, target) words with the
//    current hypothesis, so its DP starts from that stored row. SacreBLEU's
//    prefix-trie row cache exploits the same fact: rows depend only on the
//    hypothesis prefix (the band depends on i and on the constant length ratio).
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "evalcli/core/error.hpp"
#include "evalcli/metrics/ter.hpp"
#include "metrics/ter_row.hpp"

namespace evalcli {
namespace {

constexpr int kMaxShiftSize = 10;            // _MAX_SHIFT_SIZE
constexpr int kMaxShiftDist = 50;            // _MAX_SHIFT_DIST
constexpr int kBeamWidth = 25;               // _BEAM_WIDTH
constexpr long kMaxShiftCandidates = 1000;   // _MAX_SHIFT_CANDIDATES
// SacreBLEU uses 10^16 for cells outside the band; any value far above every
// real distance behaves the same (INF+1 is never smaller than INF).
constexpr std::int32_t kInf = 1 << 29;

// The moves of metrics/ter_row.hpp.
constexpr std::uint8_t kUndefined = detail::kTerUndefined, kNop = detail::kTerNop, kSub = detail::kTerSub,
                       kIns = detail::kTerIns, kDel = detail::kTerDel;

class TerAligner {
 public:
  std::int64_t run(std::span<const std::uint32_t> hyp, std::span<const std::uint32_t> ref);

 private:
  void set_band();
  std::int32_t base_distance();  // DP of hyp_ with ops, band cells stored per row
  void alignment_from_trace();
  std::int32_t shifted_distance(std::size_t shared_rows);  // DP of shifted_
  void compute_row(std::size_t i, const std::int32_t* prev, std::int32_t* cur, std::uint8_t* ops,
                   std::span<const std::uint32_t> words) const;
  std::int32_t stored_cost(std::size_t i, std::size_t j) const;

  struct Best {
    bool found = false;
    std::int64_t gain = 0;
    std::size_t length = 0, start = 0, target = 0;
    // SacreBLEU ranks candidates by (gain, length, -start, -target); first seen wins ties.
    bool beaten_by(std::int64_t g, std::size_t len, std::size_t s, std::size_t t) const {
      if (!found) return true;
      if (g != gain) return g > gain;
      if (len != length) return len > length;
      if (s != start) return s < start;
      return t < target;
    }
  };
  Best find_best_shift(std::int32_t current_distance, long& checked);

  std::span<const std::uint32_t> ref_;
  std::vector<std::uint32_t> hyp_, shifted_;
  std::size_t n_ = 0, m_ = 0;
  std::vector<std::size_t> lo_, hi_, offset_;  // band [lo, hi) of each row, storage offset
  std::vector<std::int32_t> cost_;             // stored band cells of hyp_'s DP
  std::vector<std::uint8_t> op_;
  std::vector<std::int32_t> row_a_, row_b_, row0_;
  std::vector<std::uint8_t> trace_;
  std::vector<long> align_;                    // ref position -> hyp position (-1 possible)
  std::vector<std::uint8_t> ref_err_, hyp_err_;
};

void TerAligner::set_band() {
  const double ratio = n_ > 0 ? static_cast<double>(m_) / static_cast<double>(n_) : 1.0;
  long beam = kBeamWidth;
  if (kBeamWidth < ratio / 2) beam = static_cast<long>(std::ceil(ratio / 2 + kBeamWidth));
  lo_.assign(n_ + 1, 0);
  hi_.assign(n_ + 1, m_ + 1);
  offset_.assign(n_ + 2, 0);
  offset_[1] = m_ + 1;
  for (std::size_t i = 1; i <= n_; ++i) {
    const auto diag = static_cast<long>(std::floor(static_cast<double>(i) * ratio));
    lo_[i] = static_cast<std::size_t>(std::max(0L, diag - beam));
    if (i < n_) hi_[i] = static_cast<std::size_t>(std::min(static_cast<long>(m_ + 1), diag + beam));
    offset_[i + 1] = offset_[i] + (hi_[i] - lo_[i]);
  }
  row0_.resize(m_ + 1);
  for (std::size_t j = 0; j <= m_; ++j) row0_[j] = static_cast<std::int32_t>(j);
  row_a_.resize(m_ + 2);
  row_b_.resize(m_ + 2);
}

// Row i into `cur` (full width) from row i-1 in `prev`. Cells of `prev` that
// row i reads outside row i-1's band hold kInf (see the fill at the end).
inline void TerAligner::compute_row(std::size_t i, const std::int32_t* prev, std::int32_t* cur,
                                    std::uint8_t* ops, std::span<const std::uint32_t> words) const {
  const std::size_t lo = lo_[i], hi = hi_[i];
  const std::uint32_t word = words[i - 1];
  const std::uint32_t* ref = ref_.data();
  std::size_t j = lo;
  if (j == 0) {
    cur[0] = prev[0] + 1;
    if (ops) ops[0] = kDel;
    j = 1;
  } else {
    cur[j - 1] = kInf;
  }
  std::int32_t left = cur[j - 1];
  if (ops) {
    // ops holds the band's cells: cell j at ops[j - lo].
    if (j < hi) detail::edit_row_costs_and_ops(prev, cur, ops - lo, ref, word, j, hi, left, kInf);
  } else if (j < hi) {
    detail::edit_row_costs(prev, cur, ref, word, j, hi, left, kInf);
  }
  // The next row reads up to its own band end: make those cells "outside".
  const std::size_t next_hi = i < n_ ? hi_[i + 1] : hi;
  for (std::size_t k = hi; k < next_hi; ++k) cur[k] = kInf;
}

std::int32_t TerAligner::stored_cost(std::size_t i, std::size_t j) const {
  if (j < lo_[i] || j >= hi_[i]) return kInf;
  return cost_[offset_[i] + (j - lo_[i])];
}

std::int32_t TerAligner::base_distance() {
  cost_.resize(offset_[n_ + 1]);
  op_.resize(offset_[n_ + 1]);
  std::copy(row0_.begin(), row0_.end(), cost_.begin());
  std::fill(op_.begin(), op_.begin() + static_cast<long>(m_ + 1), kIns);
  const std::int32_t* prev = row0_.data();
  std::int32_t* cur = row_a_.data();
  for (std::size_t i = 1; i <= n_; ++i) {
    compute_row(i, prev, cur, op_.data() + offset_[i], hyp_);
    std::copy(cur + lo_[i], cur + hi_[i], cost_.begin() + static_cast<long>(offset_[i]));
    prev = cur;
    cur = cur == row_a_.data() ? row_b_.data() : row_a_.data();
  }
  return n_ == 0 ? row0_[m_] : prev[m_];
}

std::int32_t TerAligner::shifted_distance(std::size_t shared_rows) {
  const std::size_t p = shared_rows;
  const std::int32_t* prev = row0_.data();
  std::int32_t* cur = row_a_.data();
  if (p > 0) {
    // Row p of the current hypothesis, laid out full width where row p+1 reads it.
    const std::size_t from = lo_[p + 1] > 0 ? lo_[p + 1] - 1 : 0;
    for (std::size_t j = from; j < hi_[p + 1]; ++j) row_b_[j] = stored_cost(p, j);
    prev = row_b_.data();
  }
  for (std::size_t i = p + 1; i <= n_; ++i) {
    compute_row(i, prev, cur, nullptr, shifted_);
    prev = cur;
    cur = cur == row_a_.data() ? row_b_.data() : row_a_.data();
  }
  return prev[m_];
}

// Trace read back from (n, m), insertions and deletions flipped ("rewrite the
// reference into the hypothesis"), turned into alignment and error flags.
void TerAligner::alignment_from_trace() {
  trace_.clear();
  std::size_t i = n_, j = m_;
  while (i > 0 || j > 0) {
    const std::uint8_t op = (j >= lo_[i] && j < hi_[i]) ? op_[offset_[i] + (j - lo_[i])] : static_cast<std::uint8_t>(kUndefined);
    trace_.push_back(op);
    if (op == kNop || op == kSub) {
      --i, --j;
    } else if (op == kIns) {
      --j;
    } else if (op == kDel) {
      --i;
    } else {
      throw Error(ExitCode::internal, "TER: edit distance trace reached an uncomputed cell");
    }
  }
  align_.assign(m_, -1);
  ref_err_.clear();
  hyp_err_.clear();
  long pos_hyp = -1, pos_ref = -1;
  for (auto it = trace_.rbegin(); it != trace_.rend(); ++it) {
    switch (*it) {
      case kNop:
      case kSub:
        ++pos_hyp, ++pos_ref;
        align_[static_cast<std::size_t>(pos_ref)] = pos_hyp;
        hyp_err_.push_back(*it == kSub);
        ref_err_.push_back(*it == kSub);
        break;
      case kDel:  // flipped to an insertion: a hypothesis-only word
        ++pos_hyp;
        hyp_err_.push_back(1);
        break;
      case kIns:  // flipped to a deletion: a reference-only word
        ++pos_ref;
        align_[static_cast<std::size_t>(pos_ref)] = pos_hyp;
        ref_err_.push_back(1);
        break;
      default:
        break;
    }
  }
}

TerAligner::Best TerAligner::find_best_shift(std::int32_t current_distance, long& checked) {
  Best best;
  auto any_error = [](const std::vector<std::uint8_t>& err, std::size_t from, std::size_t len) {
    for (std::size_t k = from; k < from + len; ++k) {
      if (err[k]) return true;
    }
    return false;
  };
  for (std::size_t start_h = 0; start_h < n_; ++start_h) {
    const std::size_t r_from = start_h > kMaxShiftDist ? start_h - kMaxShiftDist : 0;
    const std::size_t r_to = std::min(m_, start_h + kMaxShiftDist + 1);
    for (std::size_t start_r = r_from; start_r < r_to; ++start_r) {
      for (std::size_t length = 1;
           length <= kMaxShiftSize && hyp_[start_h + length - 1] == ref_[start_r + length - 1]; ++length) {
        // Shift only words that are wrong where they are, to where the reference is not matched.
        const long aligned = align_[start_r];
        const bool worth_trying = any_error(hyp_err_, start_h, length) && any_error(ref_err_, start_r, length) &&
                                  !(static_cast<long>(start_h) <= aligned &&
                                    aligned < static_cast<long>(start_h + length));
        if (worth_trying) {
          long prev_target = -1;
          for (long offset = -1; offset < static_cast<long>(length); ++offset) {
            const long r = static_cast<long>(start_r) + offset;
            const long target = r == -1 ? 0 : align_[static_cast<std::size_t>(r)] + 1;
            if (target == prev_target) continue;
            prev_target = target;
            const auto t = static_cast<std::size_t>(target);
            ter_perform_shift(hyp_, start_h, length, t, shifted_);
            const std::int64_t gain = current_distance - shifted_distance(std::min(start_h, t));
            ++checked;
            if (best.beaten_by(gain, length, start_h, t)) best = {true, gain, length, start_h, t};
          }
          if (checked >= kMaxShiftCandidates) return best;
        }
        if (start_h + length == n_ || start_r + length == m_) break;
      }
    }
  }
  return best;
}

std::int64_t TerAligner::run(std::span<const std::uint32_t> hyp, std::span<const std::uint32_t> ref) {
  if (ref.empty()) return static_cast<std::int64_t>(hyp.size());
  ref_ = ref;
  hyp_.assign(hyp.begin(), hyp.end());
  n_ = hyp.size();
  m_ = ref.size();
  set_band();
  std::int64_t shifts = 0;
  long checked = 0;
  while (true) {
    const std::int32_t distance = base_distance();
    alignment_from_trace();
    const Best best = find_best_shift(distance, checked);
    // At the candidate cap the round's best shift is dropped (SacreBLEU quirk).
    if (checked >= kMaxShiftCandidates || !best.found || best.gain <= 0) return shifts + distance;
    ter_perform_shift(hyp_, best.start, best.length, best.target, shifted_);
    hyp_.swap(shifted_);
    ++shifts;
  }
}

}  // namespace

void ter_perform_shift(std::span<const std::uint32_t> words, std::size_t start, std::size_t length,
                       std::size_t target, std::vector<std::uint32_t>& out) {
  const std::size_t n = words.size();
  auto slice = [&](std::size_t from, std::size_t to) {  // words[from:to], Python clamping
    from = std::min(from, n);
    to = std::min(to, n);
    if (from < to) out.insert(out.end(), words.begin() + static_cast<long>(from), words.begin() + static_cast<long>(to));
  };
  out.clear();
  if (target < start) {
    slice(0, target);
    slice(start, start + length);
    slice(target, start);
    slice(start + length, n);
  } else if (target > start + length) {
    slice(0, start);
    slice(start + length, target);
    slice(start, start + length);
    slice(target, n);
  } else {  // within the block: moves it right by target - start
    slice(0, start);
    slice(start + length, length + target);
    slice(start, start + length);
    slice(length + target, n);
  }
}

std::int64_t ter_edits(std::span<const std::uint32_t> hyp, std::span<const std::uint32_t> ref) {
  thread_local TerAligner aligner;
  return aligner.run(hyp, ref);
}

}  // namespace evalcli
