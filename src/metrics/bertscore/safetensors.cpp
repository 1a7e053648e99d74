#include "metrics/bertscore/safetensors.hpp"

#include <fmt/format.h>

#include <sys/mman.h>
#include <unistd.h>

#include <bit>
#include <cstring>
#include <nlohmann/json.hpp>

#include "evalcli/core/error.hpp"
#include "evalcli/core/sha256.hpp"

namespace evalcli::bertscore {
namespace {

Error bad_file(const std::string& path, const std::string& what) {
  return Error(ExitCode::missing_resource, fmt::format("{}: {}", path, what));
}

std::size_t dtype_size(const std::string& dtype) {
  if (dtype == "F64" || dtype == "I64" || dtype == "U64") return 8;
  if (dtype == "F32" || dtype == "I32" || dtype == "U32") return 4;
  if (dtype == "F16" || dtype == "BF16" || dtype == "I16" || dtype == "U16") return 2;
  if (dtype == "I8" || dtype == "U8" || dtype == "BOOL") return 1;
  return 0;
}

// The file's pages of `bytes`, read once into a copy, leave the resident set
// (they are read again from the page cache if ever touched): the peak memory of
// a model load is then the float32 copies, not the copies plus the file.
void release_pages(std::string_view bytes) {
  static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(bytes.data()) & ~(page - 1);
  const auto end = reinterpret_cast<std::uintptr_t>(bytes.data() + bytes.size());
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

template <typename T>
T load_le(const char* p) {
  T value;
  std::memcpy(&value, p, sizeof value);  // x86-64 and every platform Debian builds evalcli on are little-endian
  return value;
}

}  // namespace

std::int64_t TensorInfo::elements() const {
  std::int64_t n = 1;
  for (const auto d : shape) n *= d;
  return n;
}

float half_to_float(std::uint16_t bits) {
  const std::uint32_t sign = (bits & 0x8000u) << 16;
  std::uint32_t exponent = (bits >> 10) & 0x1f;
  std::uint32_t mantissa = bits & 0x3ffu;
  std::uint32_t out;
  if (exponent == 0x1f) {
    out = sign | 0x7f800000u | (mantissa << 13);  // inf, NaN
  } else if (exponent != 0) {
    out = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    out = sign;
  } else {  // subnormal half: normalise
    exponent = 113;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      --exponent;
    }
    out = sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13);
  }
  return std::bit_cast<float>(out);
}

float bfloat16_to_float(std::uint16_t bits) { return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16); }

SafetensorsFile::SafetensorsFile(const std::string& path) : path_(path) {
  if (file_.open(path, io::MappedFile::Readahead::on_demand) != io::MappedFile::Status::mapped) {
    throw bad_file(path, "cannot read the weights file");
  }
  const std::string_view bytes = file_.bytes();
  if (bytes.size() < 8) throw bad_file(path, "not a safetensors file (shorter than its header length)");
  const auto header_size = load_le<std::uint64_t>(bytes.data());
  if (header_size > bytes.size() - 8) throw bad_file(path, "not a safetensors file (header longer than the file)");
  const std::string_view data = bytes.substr(8 + header_size);
  nlohmann::json header;
  try {
    header = nlohmann::json::parse(bytes.substr(8, header_size));
  } catch (const nlohmann::json::exception& e) {
    throw bad_file(path, fmt::format("not a safetensors file (its JSON header: {})", e.what()));
  }
  if (!header.is_object()) throw bad_file(path, "not a safetensors file (its header is not a JSON object)");
  for (const auto& [name, entry] : header.items()) {
    if (name == "__metadata__") continue;
    try {
      TensorInfo info;
      info.dtype = entry.at("dtype").get<std::string>();
      info.shape = entry.at("shape").get<std::vector<std::int64_t>>();
      const auto offsets = entry.at("data_offsets").get<std::vector<std::uint64_t>>();
      const std::size_t size = dtype_size(info.dtype);
      if (offsets.size() != 2 || offsets[0] > offsets[1] || offsets[1] > data.size() || size == 0 ||
          offsets[1] - offsets[0] != static_cast<std::uint64_t>(info.elements()) * size) {
        throw bad_file(path, fmt::format("tensor {}: its byte range does not fit its dtype, shape or the file", name));
      }
      info.bytes = data.substr(offsets[0], offsets[1] - offsets[0]);
      tensors_.emplace(name, std::move(info));
    } catch (const nlohmann::json::exception& e) {
      throw bad_file(path, fmt::format("tensor {}: {}", name, e.what()));
    }
  }
}

const TensorInfo* SafetensorsFile::find(const std::string& name) const {
  const auto it = tensors_.find(name);
  return it == tensors_.end() ? nullptr : &it->second;
}

std::string SafetensorsFile::content_sha256() const {
  const std::string hex = sha256_hex(file_.bytes());
  release_pages(file_.bytes());
  return hex;
}

FloatTensor SafetensorsFile::float32_tensor(const std::string& name) const {
  const TensorInfo* info = find(name);
  if (info != nullptr && info->dtype == "F32" && std::endian::native == std::endian::little &&
      reinterpret_cast<std::uintptr_t>(info->bytes.data()) % alignof(float) == 0) {
    return FloatTensor(std::span<const float>(reinterpret_cast<const float*>(info->bytes.data()), info->bytes.size() / 4));
  }
  return FloatTensor(to_float32(name));
}

std::vector<float> SafetensorsFile::to_float32(const std::string& name) const {
  const TensorInfo* info = find(name);
  if (info == nullptr) throw bad_file(path_, fmt::format("no tensor {}", name));
  const std::size_t n = static_cast<std::size_t>(info->elements());
  std::vector<float> out(n);
  const char* p = info->bytes.data();
  if (info->dtype == "F32") {
    std::memcpy(out.data(), p, n * 4);
  } else if (info->dtype == "F16") {
    for (std::size_t i = 0; i < n; ++i) out[i] = half_to_float(load_le<std::uint16_t>(p + 2 * i));
  } else if (info->dtype == "BF16") {
    for (std::size_t i = 0; i < n; ++i) out[i] = bfloat16_to_float(load_le<std::uint16_t>(p + 2 * i));
  } else if (info->dtype == "F64") {
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<float>(load_le<double>(p + 8 * i));
  } else {
    throw bad_file(path_, fmt::format("tensor {} has dtype {}, not a float type", name, info->dtype));
  }
  release_pages(info->bytes);
  return out;
}

}  // namespace evalcli::bertscore
