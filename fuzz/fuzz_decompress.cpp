// gzip / bzip2 / xz detection and decompression (io::open_decompressed) with
// the line splitter on top: corrupt or truncated data must be an input error.
// Output is read up to 16 MiB, so a decompression bomb is not a finding.
#include <cstdint>
#include <cstdlib>
#include <sstream>

#include "evalcli/core/error.hpp"
#include "evalcli/io/decompress.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream raw{std::string(evalcli::fuzz::as_text(data, size))};
  try {
    auto source = evalcli::io::open_decompressed(raw, "fuzz.gz");
    evalcli::io::LineSplitter lines(*source);
    std::string_view line;
    std::size_t total = 0;
    while (total < (std::size_t{16} << 20) && lines.next(line)) total += line.size() + 1;
  } catch (const evalcli::Error& e) {
    if (e.code() != evalcli::ExitCode::input_data) std::abort();
  }
  return 0;
}
