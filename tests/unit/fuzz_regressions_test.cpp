// Fuzz regressions: every input of a fuzz target's committed seed corpus
// (fuzz/corpus/<name>/) and every crash input a fuzz run found
// (tests/data/fuzz-regressions/<name>/) replayed through the target's own
// entry code. fuzz/fuzz_<name>.cpp is compiled into this binary with its
// LLVMFuzzerTestOneInput renamed evalcli_fuzz_entry_<name> (tests/CMakeLists.txt),
// so the normal build, the gcc one and the sanitizer one all run exactly the
// checks the fuzzer ran. A target aborts on a finding, so a regression fails
// its test case here (Catch names the input file). fuzz/README.md says how a
// crash becomes such a file.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "support/test_support.hpp"

#define EVALCLI_FUZZ_TARGET(name) extern "C" int evalcli_fuzz_entry_##name(const uint8_t* data, size_t size);
#include "fuzz_targets.inc"
#undef EVALCLI_FUZZ_TARGET

namespace {

namespace fs = std::filesystem;
using FuzzEntry = int (*)(const uint8_t*, size_t);

const fs::path& seeds_root() {
  static const fs::path root = evalcli::test::source_dir() / "fuzz" / "corpus";
  return root;
}
const fs::path& regressions_root() {
  static const fs::path root = evalcli::test::source_dir() / "tests" / "data" / "fuzz-regressions";
  return root;
}

// Regular files directly in `dir` (none when it does not exist), sorted.
std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> files;
  if (!fs::is_directory(dir)) return files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void replay_inputs(const std::vector<fs::path>& inputs, FuzzEntry entry) {
  for (const auto& input : inputs) {
    INFO("fuzz input " << input.string());
    const std::string bytes = read_bytes(input);
    // libFuzzer never passes a null pointer, even for an empty input.
    CHECK(entry(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()) == 0);
  }
}

// Every target has seeds (the fuzz step in .ci/run starts from them), so this
// always asserts something even before any crash was ever found.
void replay_target(const std::string& name, FuzzEntry entry) {
  const auto seeds = files_in(seeds_root() / name);
  REQUIRE_FALSE(seeds.empty());
  replay_inputs(seeds, entry);
  replay_inputs(files_in(regressions_root() / name), entry);
}

const std::set<std::string>& target_names() {
  static const std::set<std::string> names = {
#define EVALCLI_FUZZ_TARGET(name) #name,
#include "fuzz_targets.inc"
#undef EVALCLI_FUZZ_TARGET
  };
  return names;
}

}  // namespace

// One test case per target: fuzz_targets.inc is generated from fuzz/fuzz_*.cpp.
#define EVALCLI_FUZZ_TARGET(name)                                                             \
  TEST_CASE("fuzz regressions: " #name " replays its seeds and committed crash inputs", "[fuzz]") { \
    replay_target(#name, &evalcli_fuzz_entry_##name);                                        \
  }
#include "fuzz_targets.inc"
#undef EVALCLI_FUZZ_TARGET

TEST_CASE("fuzz regressions: every seed and crash-input folder belongs to a fuzz target", "[fuzz]") {
  REQUIRE(target_names().size() >= 9);
  for (const auto& root : {seeds_root(), regressions_root()}) {
    if (!fs::is_directory(root)) continue;
    for (const auto& entry : fs::directory_iterator(root)) {
      if (!entry.is_directory()) continue;
      INFO("folder " << entry.path().string());
      CHECK(target_names().count(entry.path().filename().string()) == 1);
    }
  }
  for (const auto& name : target_names()) {
    INFO("fuzz target " << name);
    CHECK(fs::is_directory(seeds_root() / name));
  }
}
