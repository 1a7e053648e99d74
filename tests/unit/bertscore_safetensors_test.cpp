// The safetensors reader: header checks and float16/bfloat16 widening.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <string>

#include "evalcli/core/error.hpp"
#include "metrics/bertscore/safetensors.hpp"
#include "support/test_support.hpp"

using evalcli::bertscore::SafetensorsFile;

namespace {

// A safetensors file of one tensor "t" with these raw bytes.
std::string one_tensor_file(const std::string& dtype, const std::string& shape, const std::string& bytes) {
  const std::string header = R"({"t":{"dtype":")" + dtype + R"(","shape":)" + shape + R"(,"data_offsets":[0,)" +
                             std::to_string(bytes.size()) + "]}}";
  std::string file(8, '\0');
  const std::uint64_t size = header.size();
  std::memcpy(file.data(), &size, 8);
  return file + header + bytes;
}

std::string u16_bytes(std::initializer_list<std::uint16_t> values) {
  std::string out;
  for (const std::uint16_t v : values) out.append(reinterpret_cast<const char*>(&v), 2);
  return out;
}

}  // namespace

TEST_CASE("half and bfloat16 bit patterns widen exactly", "[bertscore][safetensors]") {
  using evalcli::bertscore::bfloat16_to_float;
  using evalcli::bertscore::half_to_float;
  CHECK(half_to_float(0x3c00) == 1.0f);
  CHECK(half_to_float(0xc000) == -2.0f);
  CHECK(half_to_float(0x3555) == Approx(0.33325195f).epsilon(0));
  CHECK(half_to_float(0x0001) == 5.9604645e-8f);  // the smallest subnormal
  CHECK(half_to_float(0x7bff) == 65504.0f);
  CHECK(std::isinf(half_to_float(0x7c00)));
  CHECK(bfloat16_to_float(0x3f80) == 1.0f);
  CHECK(bfloat16_to_float(0xc0a0) == -5.0f);
}

TEST_CASE("float16 and bfloat16 tensors load as float32", "[bertscore][safetensors]") {
  const evalcli::test::TempFile f16(one_tensor_file("F16", "[3]", u16_bytes({0x3c00, 0xc000, 0x3800})), ".safetensors");
  CHECK(SafetensorsFile(f16.path()).to_float32("t") == std::vector<float>{1.0f, -2.0f, 0.5f});
  const evalcli::test::TempFile bf16(one_tensor_file("BF16", "[2]", u16_bytes({0x3f80, 0x4040})), ".safetensors");
  CHECK(SafetensorsFile(bf16.path()).to_float32("t") == std::vector<float>{1.0f, 3.0f});
}

TEST_CASE("a malformed safetensors file is a missing resource naming it", "[bertscore][safetensors]") {
  const auto code_of = [](const std::string& content) {
    const evalcli::test::TempFile file(content, ".safetensors");
    try {
      SafetensorsFile{file.path()};
    } catch (const evalcli::Error& e) {
      CHECK(std::string(e.what()).find(file.path()) != std::string::npos);
      return static_cast<int>(e.code());
    }
    return 0;
  };
  CHECK(code_of("abc") == 4);                                            // shorter than the length field
  CHECK(code_of(std::string("\xff\0\0\0\0\0\0\0", 8) + "{}") == 4);      // header longer than the file
  CHECK(code_of(one_tensor_file("F32", "[2]", "abcd")) == 4);            // 2 floats need 8 bytes
  CHECK(code_of(one_tensor_file("F32", "[1]", "abcd")) == 0);
}
