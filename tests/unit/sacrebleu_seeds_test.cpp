// SACREBLEU_SEED values SacreBLEU 2.6.0 accepts beyond ASCII digits (issue 19
// item 5): Unicode decimal digits, Python whitespace, '_' between digits, '-0',
// and seeds of 2^64 and more, which numpy's default_rng takes as SeedSequence
// entropy words. Expected: SacreBLEU's own standard output for each seed with
// --confidence, --paired-bs and --paired-ar (tests/data/make_sacrebleu_seeds.py);
// the seeds it refuses (int() or numpy's ValueError) exit 1 here too.
#include <cstdlib>

#include "conformance/sacrebleu_golden.hpp"
#include "evalcli/core/version.hpp"
#include "support/test_support.hpp"

namespace {

const std::filesystem::path kSeeds = evalcli::test::source_dir() / "tests" / "data" / "sacrebleu_seeds";

class InSeedsFolder {
 public:
  InSeedsFolder() : previous_(std::filesystem::current_path()) { std::filesystem::current_path(kSeeds); }
  ~InSeedsFolder() { std::filesystem::current_path(previous_); }
  InSeedsFolder(const InSeedsFolder&) = delete;
  InSeedsFolder& operator=(const InSeedsFolder&) = delete;

 private:
  std::filesystem::path previous_;
};

}  // namespace

TEST_CASE("evalcli sacrebleu: SACREBLEU_SEED with Unicode digits and beyond 2^64 as SacreBLEU 2.6.0", "[sacrebleu][stats]") {
  const auto cases = evalcli::test::read_json(kSeeds / "cases.json")["cases"];
  REQUIRE(cases.size() == 48);
  const InSeedsFolder here;
  std::size_t equal = 0;
  for (const auto& c : cases) {
    std::vector<std::string> args = {"sacrebleu"};
    for (const auto& arg : c["args"]) args.push_back(arg.get<std::string>());
    const std::string seed = c["seed"];
    ::setenv("SACREBLEU_SEED", seed.c_str(), 1);
    const auto result = evalcli::test::run_cli(args);
    ::unsetenv("SACREBLEU_SEED");
    const bool same = result.exit_code == c["exit_code"].get<int>() &&
                      (c["stdout"].is_null() ? result.out.empty()
                                             : result.out == evalcli::test::with_evalcli_version(c["stdout"].get<std::string>()));
    if (same) {
      ++equal;
    } else {
      UNSCOPED_INFO("seed '" << seed << "' " << args[5] << " " << args.back() << ": exit " << result.exit_code << "\n"
                             << result.out << result.err);
    }
  }
  CHECK(equal == cases.size());
}
