// KenLM probing binaries read in place (layout: kenlm_binary.hpp).
#include "kenlm_binary.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <utility>

#include "evalcli/core/error.hpp"

namespace evalcli::ppl {
namespace {

constexpr std::string_view kMagicPrefix = "mmap lm http://kheafield.com/code";
constexpr std::string_view kMagicVersion5 = "mmap lm http://kheafield.com/code format version 5\n";
constexpr std::string_view kMagicIncomplete = "mmap lm http://kheafield.com/code incomplete\n";

// KenLM's "Sanity" block: the magic in 56 bytes (the version line, NULs
// after), then test values that fail if the file was written by a machine
// with another float format, word size or endianness.
constexpr std::size_t kSanitySize = 88;
std::array<unsigned char, kSanitySize> reference_sanity() {
  std::array<unsigned char, kSanitySize> bytes{};
  std::memcpy(bytes.data(), kMagicVersion5.data(), kMagicVersion5.size());
  const float floats[3] = {0.0f, 1.0f, -0.5f};
  std::memcpy(bytes.data() + 56, floats, sizeof floats);
  const std::uint32_t word_indices[3] = {1, std::numeric_limits<std::uint32_t>::max(), 0};
  std::memcpy(bytes.data() + 68, word_indices, sizeof word_indices);
  const std::uint64_t one = 1;
  std::memcpy(bytes.data() + 80, &one, sizeof one);
  return bytes;
}

// FixedWidthParameters, after the sanity block (x86-64 layout: 20 bytes):
// {uint8 order, float probing multiplier, uint32 model type, bool has
// vocabulary, uint32 search version}, each at its aligned offset.
constexpr std::size_t kFixedParametersSize = 20;

constexpr const char* kModelTypeNames[] = {"probing",
                                           "probing with rest costs",
                                           "trie",
                                           "trie with quantization",
                                           "trie with array-compressed pointers",
                                           "trie with quantization and array-compressed pointers"};

std::uint64_t align8(std::uint64_t size) { return (size + 7) / 8 * 8; }

// KenLM's bucket count for a table of `entries` (util/probing_hash_table.hh),
// with its float product.
std::uint64_t bucket_count(std::uint64_t entries, float multiplier) {
  return std::max(entries + 1, static_cast<std::uint64_t>(multiplier * static_cast<float>(entries)));
}

template <class T>
T read_at(std::string_view bytes, std::size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

// The 1-7 bytes at `p` as a little-endian number (MurmurHash64A's tail):
// two overlapping 4-byte loads, or three single bytes, never past the end.
std::uint64_t load_tail(const unsigned char* p, std::size_t n) {
  if (n >= 4) {
    std::uint32_t low, high;
    std::memcpy(&low, p, sizeof low);
    std::memcpy(&high, p + n - 4, sizeof high);
    return low | (static_cast<std::uint64_t>(high) << (8 * (n - 4)));  // the overlap has equal bytes
  }
  return static_cast<std::uint64_t>(p[0]) | (static_cast<std::uint64_t>(p[n / 2]) << (8 * (n / 2))) |
         (static_cast<std::uint64_t>(p[n - 1]) << (8 * (n - 1)));
}

}  // namespace

bool looks_like_kenlm_binary(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char start[kMagicPrefix.size()];
  if (!in.read(start, sizeof start)) return false;
  return std::string_view(start, sizeof start) == kMagicPrefix;
}

std::uint64_t murmur_hash64a(std::string_view bytes, std::uint64_t seed) {
  constexpr std::uint64_t m = 0xc6a4a7935bd1e995ULL;
  constexpr int r = 47;
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t length = bytes.size();
  std::uint64_t h = seed ^ (length * m);
  const std::size_t blocks = length / 8;
  for (std::size_t i = 0; i < blocks; ++i) {
    std::uint64_t k = kenlm_detail::load_u64(data + 8 * i);  // little-endian, as KenLM on x86
    k *= m;
    k ^= k >> r;
    k *= m;
    h ^= k;
    h *= m;
  }
  const std::size_t rest = length & 7;
  if (rest != 0) {
    h ^= load_tail(data + 8 * blocks, rest);
    h *= m;
  }
  h ^= h >> r;
  h *= m;
  h ^= h >> r;
  return h;
}

io::MappedFile map_kenlm_binary(const std::string& path) {
  io::MappedFile file;
  if (file.open(path, io::MappedFile::Readahead::on_demand) != io::MappedFile::Status::mapped) {
    throw Error(ExitCode::missing_resource, fmt::format("{}: cannot map the KenLM binary model", path));
  }
  return file;
}

KenlmHeader read_kenlm_header(std::string_view bytes, const std::string& path) {
  const auto fail = [&](const std::string& what) { throw input_error(fmt::format("{}: {}", path, what)); };
  if (bytes.substr(0, kMagicIncomplete.size()) == kMagicIncomplete) fail("this KenLM binary file did not finish building");
  if (bytes.size() < kSanitySize + kFixedParametersSize) fail("a KenLM binary header, but the file ends inside it");
  if (bytes.substr(0, kMagicVersion5.size()) != kMagicVersion5) {
    fail("a KenLM binary file of another format version (evalcli reads version 5); rebuild it with build_binary "
         "or give the ARPA file");
  }
  const auto sanity = reference_sanity();
  if (std::memcmp(bytes.data(), sanity.data(), kSanitySize) != 0) {
    fail("a KenLM binary file whose test values do not match this machine's (another architecture or compiler); "
         "rebuild it here with build_binary or give the ARPA file");
  }
  KenlmHeader header;
  header.order = read_at<unsigned char>(bytes, kSanitySize);
  header.probing_multiplier = read_at<float>(bytes, kSanitySize + 4);
  header.model_type = read_at<std::uint32_t>(bytes, kSanitySize + 8);
  header.search_version = read_at<std::uint32_t>(bytes, kSanitySize + 16);
  const bool readable_type = header.model_type == kKenlmProbing ||
                             (header.model_type >= kKenlmTrie && header.model_type <= kKenlmQuantArrayTrie);
  if (!readable_type) {
    const std::string type = header.model_type < std::size(kModelTypeNames) ? kModelTypeNames[header.model_type]
                                                                             : fmt::format("type {}", header.model_type);
    fail(fmt::format("a KenLM binary model of type \"{}\"; evalcli reads probing and trie binaries (build_binary "
                     "probing|trie MODEL.arpa MODEL.binary) or the ARPA file",
                     type));
  }
  if (header.order < 2 || header.order > kMaxOrder) {
    fail(fmt::format("the binary header gives order {} (evalcli reads 2 to {})", header.order, kMaxOrder));
  }
  const std::uint64_t counts_offset = kSanitySize + kFixedParametersSize;
  header.size = align8(counts_offset + 8 * static_cast<std::uint64_t>(header.order));
  if (bytes.size() < header.size) fail("a KenLM binary header, but the file ends inside it");
  for (int n = 0; n < header.order; ++n) header.counts.push_back(read_at<std::uint64_t>(bytes, counts_offset + 8 * n));
  return header;
}

KenlmProbingModel::KenlmProbingModel(io::MappedFile file, const KenlmHeader& header, const std::string& path)
    : file_(std::move(file)), path_(path), order_(header.order), counts_(header.counts) {
  const auto fail = [&](const std::string& what) { throw input_error(fmt::format("{}: {}", path, what)); };
  const std::string_view bytes = file_.bytes();
  if (header.search_version != 0) fail(fmt::format("a KenLM probing binary of search version {} (evalcli reads 0)", header.search_version));
  if (!(header.probing_multiplier >= 1.0f) || std::isinf(header.probing_multiplier)) {
    fail(fmt::format("the binary header gives probing multiplier {}, not a number >= 1", header.probing_multiplier));
  }
  for (std::size_t n = 0; n < counts_.size(); ++n) {
    // Every entry takes at least 8 bytes: larger counts cannot fit (and would overflow the sizes below).
    if (counts_[n] > bytes.size() / 8) fail(fmt::format("the binary header announces {} {}-grams, more than the file can hold", counts_[n], n + 1));
  }

  // The sections, in file order; each must lie inside the file.
  std::uint64_t offset = header.size;
  const float multiplier = header.probing_multiplier;
  // Each table must fit in what is left of the file; checked in floating point
  // first, since a huge multiplier makes KenLM's float product overflow uint64.
  const auto table_at = [&](std::uint64_t entries, std::size_t entry_size) {
    const std::uint64_t left = offset <= bytes.size() ? bytes.size() - offset : 0;
    if (!(multiplier * static_cast<float>(entries) <= static_cast<float>(left / entry_size)) || entries + 1 > left / entry_size) {
      fail(fmt::format("the binary header's {} entries at probing multiplier {} need more bytes than the file has left (truncated?)",
                       entries, multiplier));
    }
    Table table;
    table.begin = reinterpret_cast<const unsigned char*>(bytes.data()) + offset;
    table.entry_size = entry_size;
    table.bucket_of = detail::FastModulo(bucket_count(entries, multiplier));
    table.end = table.begin + table.buckets() * entry_size;
    offset += table.buckets() * entry_size;
    return table;
  };
  const std::uint64_t vocab_header = offset;
  offset += 8;
  vocab_ = table_at(counts_[0], 12);
  const std::uint64_t unigram_offset = offset;
  offset += (counts_[0] + 1) * sizeof(ProbBackoff);
  middle_.resize(static_cast<std::size_t>(order_));
  for (int n = 2; n < order_; ++n) middle_[static_cast<std::size_t>(n)] = table_at(counts_[static_cast<std::size_t>(n - 1)], 16);
  longest_ = table_at(counts_.back(), 12);
  if (offset > bytes.size()) {
    fail(fmt::format("the KenLM binary file has {} bytes but its header says it holds at least {} (truncated?)", bytes.size(), offset));
  }
  if (read_at<std::uint32_t>(bytes, vocab_header) != 0) fail("a KenLM binary whose probing vocabulary has a version other than 0");
  word_bound_ = read_at<std::uint32_t>(bytes, vocab_header + 4);
  if (word_bound_ == 0 || word_bound_ > counts_[0] + 1) fail(fmt::format("the binary vocabulary says {} words, but there are {} unigrams", word_bound_, counts_[0]));
  unigrams_ = reinterpret_cast<const float*>(bytes.data() + unigram_offset);
  check_vocabulary_ids();
}

// Every id in the vocabulary must index the unigrams: checked once here (a
// pass over the table, small next to the n-grams), so that look-ups need not.
void KenlmProbingModel::check_vocabulary_ids() const {
  for (std::uint64_t slot = 0; slot < vocab_.buckets(); ++slot) {
    const unsigned char* entry = vocab_.begin + slot * vocab_.entry_size;
    if (kenlm_detail::load_u64(entry) == 0) continue;
    std::uint32_t id;
    std::memcpy(&id, entry + 8, sizeof id);
    if (id >= word_bound_) {
      throw input_error(fmt::format("{}: corrupt KenLM binary: word id {} in the vocabulary, beyond its {} words", path_, id, word_bound_));
    }
  }
}

}  // namespace evalcli::ppl
