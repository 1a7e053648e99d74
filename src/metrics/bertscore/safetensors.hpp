#pragma once
// A model.safetensors file read in place (mmap): an 8-byte little-endian header
// length, a JSON header naming every tensor's dtype, shape and byte range, then
// the raw little-endian tensor bytes. Float tensors are converted to float32
// when asked for (float16 and bfloat16 weights are widened exactly).
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "evalcli/io/mapped_file.hpp"

namespace evalcli::bertscore {

struct TensorInfo {
  std::string dtype;              // "F32", "F16", "BF16", "I64", ...
  std::vector<std::int64_t> shape;
  std::string_view bytes;         // inside the mapped file
  std::int64_t elements() const;
};

// A tensor's values as float32, read-only: a view into the mapped file when
// the file holds them as float32 (its pages are read in as they are used,
// and only those), or its own widened copy. Move-only: a view stays valid
// as long as the SafetensorsFile it came from.
class FloatTensor {
 public:
  FloatTensor() = default;
  explicit FloatTensor(std::vector<float> owned) : owned_(std::move(owned)), values_(owned_) {}
  explicit FloatTensor(std::span<const float> view) : values_(view) {}
  FloatTensor(FloatTensor&&) = default;  // a vector's buffer moves with it: values_ stays valid
  FloatTensor& operator=(FloatTensor&&) = default;
  FloatTensor(const FloatTensor&) = delete;
  FloatTensor& operator=(const FloatTensor&) = delete;

  const float* data() const { return values_.data(); }
  std::size_t size() const { return values_.size(); }
  float operator[](std::size_t i) const { return values_[i]; }
  const float* begin() const { return values_.data(); }
  const float* end() const { return values_.data() + values_.size(); }
  operator std::span<const float>() const { return values_; }
  bool is_view() const { return owned_.empty() && !values_.empty(); }

 private:
  std::vector<float> owned_;
  std::span<const float> values_;
};

class SafetensorsFile {
 public:
  // Maps and checks `path`; throws Error(missing_resource) naming it when it is
  // absent or malformed.
  explicit SafetensorsFile(const std::string& path);

  const std::map<std::string, TensorInfo>& tensors() const { return tensors_; }
  const TensorInfo* find(const std::string& name) const;
  // The tensor's values as float32 (F32, F16, BF16, F64); throws naming the tensor otherwise.
  std::vector<float> to_float32(const std::string& name) const;
  // The same values without a copy where the file holds float32 aligned for
  // float (the usual case); otherwise to_float32's copy. A view needs this
  // file kept open.
  FloatTensor float32_tensor(const std::string& name) const;
  const std::string& path() const { return path_; }
  // sha256sum of the whole file, read through the mapping (whose pages are then released).
  std::string content_sha256() const;

 private:
  std::string path_;
  io::MappedFile file_;
  std::map<std::string, TensorInfo> tensors_;
};

// IEEE half and bfloat16 bit patterns widened to float (exact).
float half_to_float(std::uint16_t bits);
float bfloat16_to_float(std::uint16_t bits);

}  // namespace evalcli::bertscore
