// The statistics-shard reader of `evalcli merge` and `evalcli check --baseline`
// (docs/stats-format.md): the input bytes are a shard file, read with
// stats::read_shard (which rebuilds the metric from the signature to check the
// statistics' domain: an unusable signature is a usage error), then merged end to end (`evalcli merge SHARD SHARD`,
// which also rebuilds the metric from the shard's signature). Any input must
// give a score or a documented input/usage error, never a crash or exit 70.
#include <cstdint>
#include <cstdlib>

#include "evalcli/core/error.hpp"
#include "evalcli/stats/shard.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static evalcli::fuzz::ScratchFile shard_file("stats-shard.json");
  const std::string& path = shard_file.write(evalcli::fuzz::as_text(data, size));
  try {
    evalcli::stats::read_shard(path);
  } catch (const evalcli::Error& e) {
    if (e.code() != evalcli::ExitCode::input_data && e.code() != evalcli::ExitCode::usage) std::abort();
  }
  evalcli::fuzz::run_cli_checked({"merge", path, path});
  return 0;
}
