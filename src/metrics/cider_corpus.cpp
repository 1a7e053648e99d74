#include "evalcli/metrics/cider_corpus.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <span>

#include "evalcli/core/error.hpp"
#include "evalcli/core/sha256.hpp"
#include "evalcli/core/worker_pool.hpp"
#include "evalcli/io/decompress.hpp"
#include "evalcli/io/parallel_reader.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"

namespace evalcli {
namespace {

constexpr std::size_t kOneThreadBlockItems = 64;  // pass 2's blocks with one thread

// Tokenizes every caption the way the reference tools do, in place (each
// line's old text is freed as its tokenized form arrives, so the memory is
// reused): PTB sees the captions of one batch (all references, then all
// hypotheses of a system) as consecutive lines, which matters for its
// look-ahead rules.
//
// A piece of a batch: PTB reads each caption with the next one as its only
// context, so the piece followed by the batch's next caption (`context`,
// none at the end) tokenizes exactly as within the whole batch.
void tokenize_batch(const TextPipeline& pipeline, std::vector<std::u32string>& lines,
                    const std::u32string* context = nullptr) {
  // `none` = join(split(line)); the scorer splits on the same whitespace itself.
  if (pipeline.squeezes_spaces_only()) return;
  pipeline.process_lines(lines, context);
}

// Words of a caption (an estimate when not tokenized), to pre-size the n-gram table.
std::size_t count_words(const std::u32string& line) {
  return static_cast<std::size_t>(std::count(line.begin(), line.end(), U' ')) + (line.empty() ? 0 : 1);
}

// A size for pass 1's tables from the files' sizes, so that they do not grow
// on a typical corpus: each doubling rehashes every n-gram and zeroes fresh
// pages (COCO's 5 x 5,000 captions: 9 MB more, about 8% of the run). Given as
// the words CiderCorpus::reserve() takes (it makes room for a quarter of their
// 4-grams' count of distinct n-grams): one per 7.5 bytes. That sizes COCO's
// tables as they end (299,711 distinct n-grams, one per 5.1 bytes) and leaves
// repetitive text's (bounded_memory_test's corpus: one per 12 bytes) at their
// final size too, not twice it. 0 (no reserve) when the sizes say nothing:
// standard input, a compressed or special file, a --shard piece. Capped, as
// an n-gram table touches every page it spans however few n-grams fill it.
std::size_t pass1_reserve_words(const CorpusSpec& spec) {
  constexpr std::size_t kBytesPerWordTimesTwo = 15;
  constexpr std::size_t kMaxWords = std::size_t{4} << 20;
  if (spec.hyp_paths.empty() || spec.first_segment != 0 || spec.segment_count != static_cast<std::size_t>(-1)) return 0;
  std::size_t bytes = 0;
  for (const auto* paths : {&spec.ref_paths, &spec.hyp_paths}) {
    for (const auto& path : *paths) {
      std::error_code error;
      if (io::compression_from_name(path) != io::Compression::none || !std::filesystem::is_regular_file(path, error)) {
        return 0;
      }
      const auto size = std::filesystem::file_size(path, error);
      if (error) return 0;
      bytes += static_cast<std::size_t>(size);
    }
  }
  return std::min(bytes * 2 / kBytesPerWordTimesTwo, kMaxWords);
}

}  // namespace

// Every document's record (its n-gram vectors, CiderCorpus::count_document),
// written in pass 1 and read back in order in pass 2. A record is its length
// (8 bytes, native order) and its bytes. The records stay in memory up to
// `held_bytes` (kHeldBytes: COCO's 30,000 captions take 5.8 MB; one block
// reserved, never moved), then all go to an unnamed
// temporary file ($TMPDIR, else /tmp; gone when closed, however the process
// ends), so memory stays bounded on any corpus. In memory, a small corpus
// saves the file's writes and reads (about 5% of a COCO-sized run).
class CiderCorpusRun::Spill {
 public:
  explicit Spill(std::size_t held_bytes) : held_bytes_(held_bytes) {}
  ~Spill() {
    if (file_) std::fclose(file_);
  }
  Spill(const Spill&) = delete;
  Spill& operator=(const Spill&) = delete;

  // The record being written: count_document() appends to it (pass 2 reads
  // blocks of records into the same buffer).
  std::string& record() { return record_; }
  void write_record() {
    const std::uint64_t size = record_.size();
    if (!file_ && held_.size() + sizeof size + record_.size() > held_bytes_) move_to_file();
    if (!file_) {
      if (held_.capacity() < held_bytes_) held_.reserve(held_bytes_);  // never moved: pages are touched as filled
      held_.append(reinterpret_cast<const char*>(&size), sizeof size).append(record_);
      record_.clear();
      return;
    }
    if (std::fwrite(&size, sizeof size, 1, file_) != 1 || std::fwrite(record_.data(), 1, size, file_) != size) {
      fail("cannot write");
    }
    record_.clear();
  }
  void rewind() {
    held_at_ = 0;
    if (file_ && (std::fflush(file_) != 0 || std::fseek(file_, 0, SEEK_SET) != 0)) fail("cannot write");
  }
  // The next `count` records, in `records` (valid until the next call).
  void read_records(std::size_t count, std::vector<std::string_view>& records) {
    records.clear();
    if (!file_) {
      for (std::size_t i = 0; i < count; ++i) records.push_back(next_held_record());
      return;
    }
    record_.clear();
    ends_.clear();
    for (std::size_t i = 0; i < count; ++i) {
      std::uint64_t size = 0;
      if (std::fread(&size, sizeof size, 1, file_) != 1) fail("cannot read");
      const std::size_t start = record_.size();
      record_.resize(start + size);
      if (std::fread(record_.data() + start, 1, size, file_) != size) fail("cannot read");
      ends_.push_back(record_.size());
    }
    std::size_t start = 0;
    for (const std::size_t end : ends_) {
      records.emplace_back(record_.data() + start, end - start);
      start = end;
    }
  }

 private:
  // Opens the temporary file and writes the records held so far to it.
  void move_to_file() {
    const char* env = std::getenv("TMPDIR");
    dir_ = env && *env ? env : "/tmp";
    int fd = ::open(dir_.c_str(), O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
      std::string path = dir_ + "/evalcli-cider-XXXXXX";  // no O_TMPFILE here: a private name, unlinked at once
      fd = ::mkostemp(path.data(), O_CLOEXEC);
      if (fd >= 0) ::unlink(path.c_str());
    }
    if (fd < 0) fail("cannot create");
    file_ = ::fdopen(fd, "w+b");
    if (!file_) {
      ::close(fd);
      fail("cannot open");
    }
    if (std::fwrite(held_.data(), 1, held_.size(), file_) != held_.size()) fail("cannot write");
    std::string().swap(held_);  // its memory back
  }
  std::string_view next_held_record() {
    std::uint64_t size = 0;
    std::memcpy(&size, held_.data() + held_at_, sizeof size);
    const std::string_view record(held_.data() + held_at_ + sizeof size, size);
    held_at_ += sizeof size + size;
    return record;
  }
  [[noreturn]] void fail(const char* what) const {
    throw input_error(fmt::format("{}: {} the temporary file of CIDEr's second pass: {}", dir_, what,
                                  std::strerror(errno ? errno : EIO)));
  }
  std::size_t held_bytes_;    // at most, before the file
  std::string held_;          // the records, while no file is open
  std::size_t held_at_ = 0;   // where the next record to read begins in held_
  std::string dir_;           // of the temporary file
  std::FILE* file_ = nullptr;
  std::string record_;
  std::vector<std::size_t> ends_;  // of each record read into record_
};

CiderCorpusRun::CiderCorpusRun(const CiderOptions& options, const TextPipeline& pipeline, io::CaptionSet set,
                               const ItemProgress& on_items)
    : corpus_(std::make_unique<CiderCorpus>(options)), spill_(std::make_unique<Spill>(kHeldBytes)) {
  system_names_ = set.system_names;
  uniform_refs_ = set.uniform_refs();
  // Tokenize all references as one batch and each system's hypotheses as
  // another (moved out of the items and back).
  std::vector<std::u32string> lines;
  for (auto& item : set.items) {
    for (auto& ref : item.refs) lines.push_back(std::move(ref));
  }
  tokenize_batch(pipeline, lines);
  std::size_t at = 0, words = 0;
  for (auto& item : set.items) {
    for (auto& ref : item.refs) {
      words += count_words(lines[at]);
      ref = std::move(lines[at++]);
    }
  }
  for (std::size_t s = 0; s < system_names_.size(); ++s) {
    lines.clear();
    for (auto& item : set.items) lines.push_back(std::move(item.hyps[s]));
    tokenize_batch(pipeline, lines);
    for (std::size_t i = 0; i < set.items.size(); ++i) {
      words += count_words(lines[i]);
      set.items[i].hyps[s] = std::move(lines[i]);
    }
  }
  corpus_->reserve(set.items.size(), 0, words);
  for (auto& item : set.items) {
    corpus_->count_document(item.refs, item.hyps, &spill_->record());
    spill_->write_record();
    ids_.push_back(std::move(item.id));
    if (on_items) on_items(ids_.size());
  }
  spill_->rewind();
}

CiderCorpusRun::CiderCorpusRun(const CiderOptions& options, const TextPipeline& pipeline, const CorpusSpec& spec,
                               std::size_t block_items, const ItemProgress& on_items, bool last_is_context,
                               std::size_t held_bytes)
    : corpus_(std::make_unique<CiderCorpus>(options)), spill_(std::make_unique<Spill>(held_bytes)) {
  ParallelReader reader(spec);
  system_names_ = reader.system_names();
  uniform_refs_ = reader.num_refs();
  const std::size_t systems = reader.num_systems();
  if (const std::size_t words = pass1_reserve_words(spec); words > 0) corpus_->reserve(0, 0, words);
  // Items of the block being read, plus one: the next block's first item is
  // the PTB context of the block's last caption of each batch.
  std::vector<std::vector<std::u32string>> refs, hyps;
  std::vector<std::u32string> item_refs, item_hyps, lines;
  // The next item of the piece the spec selects (--shard: earlier ones are read past).
  const auto next_item = [&] {
    while (reader.next(item_hyps, item_refs)) {
      const std::size_t index = reader.segments_read() - 1;  // 0-based
      if (index < spec.first_segment) continue;
      return index - spec.first_segment < spec.segment_count;
    }
    return false;
  };
  bool more = true;
  while (more) {
    while (refs.size() < block_items + 1 && (more = next_item())) {
      refs.push_back(std::move(item_refs));  // the reader refills moved-from vectors
      hyps.push_back(std::move(item_hyps));
    }
    // At the end of a piece with context, its last item read is only the context.
    const std::size_t items = refs.size() - (!more && last_is_context && !refs.empty() ? 1 : 0);
    const std::size_t count = std::min(items, block_items);
    const bool has_next = refs.size() > count;
    lines.clear();
    for (std::size_t i = 0; i < count; ++i) {
      for (auto& ref : refs[i]) lines.push_back(std::move(ref));
    }
    tokenize_batch(pipeline, lines, has_next && !refs[count].empty() ? &refs[count].front() : nullptr);
    for (std::size_t i = 0, at = 0; i < count; ++i) {
      for (auto& ref : refs[i]) ref = std::move(lines[at++]);
    }
    for (std::size_t s = 0; s < systems; ++s) {
      lines.clear();
      for (std::size_t i = 0; i < count; ++i) lines.push_back(std::move(hyps[i][s]));
      tokenize_batch(pipeline, lines, has_next ? &hyps[count][s] : nullptr);
      for (std::size_t i = 0; i < count; ++i) hyps[i][s] = std::move(lines[i]);
    }
    for (std::size_t i = 0; i < count; ++i) {
      corpus_->count_document(refs[i], hyps[i], &spill_->record());
      spill_->write_record();
      ids_.push_back(std::to_string(spec.first_segment + ids_.size() + 1));
    }
    if (on_items) on_items(ids_.size());
    refs.erase(refs.begin(), refs.begin() + static_cast<std::ptrdiff_t>(count));
    hyps.erase(hyps.begin(), hyps.begin() + static_cast<std::ptrdiff_t>(count));
  }
  if (ids_.empty()) {
    throw input_error(fmt::format("{}: empty input: no hypothesis lines",
                                  spec.hyp_paths.empty() ? "<stdin>" : spec.hyp_paths[0]));
  }
  spill_->rewind();
}

CiderCorpusRun::~CiderCorpusRun() = default;

std::vector<SystemStats> CiderCorpusRun::system_stats(const ItemProgress& on_items, WorkerPool* pool) {
  std::vector<SystemStats> systems(system_names_.size());
  for (std::size_t s = 0; s < systems.size(); ++s) {
    systems[s].system = system_names_[s];
    systems[s].totals.assign(2, 0.0);
    systems[s].rows.reserve(ids_.size());
  }
  // Blocks of records: read in order, scored on the threads, added in order.
  // One thread needs no block to share out: it keeps few records in memory.
  const std::size_t block_items = pool && pool->size() > 1 ? kScoringBlockItems : kOneThreadBlockItems;
  std::vector<std::string_view> records;
  std::vector<std::vector<double>> scores;
  for (std::size_t done = 0; done < ids_.size();) {
    const std::size_t count = std::min(block_items, ids_.size() - done);
    spill_->read_records(count, records);
    scores.resize(count);
    corpus_->score_saved_documents(records, scores, pool);
    for (const auto& image : scores) {
      for (std::size_t s = 0; s < systems.size(); ++s) {
        systems[s].rows.push_back({image[s], 1.0});
        add_stats(systems[s].totals, systems[s].rows.back());
      }
    }
    done += count;
    if (on_items) on_items(done);
  }
  for (auto& system : systems) system.segments = system.rows.size();
  return systems;
}

std::string cider_df_field(const CiderDocumentFrequencies& df) {
  return "sha256." + sha256_hex(serialize_document_frequencies(df)).substr(0, 16);
}

}  // namespace evalcli
