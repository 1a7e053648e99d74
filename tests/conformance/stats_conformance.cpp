// Replays the statistics goldens of shared/golden/cli/: numpy's random streams
// (rng_numpy_default_rng), bootstrap confidence intervals (confidence_*) and
// paired significance tests (paired_bs_*, paired_ar_*).
#include <numeric>

#include "evalcli/stats/numpy_rng.hpp"
#include "support/sha256.hpp"
#include "support/test_support.hpp"

namespace evalcli::test {
namespace {

template <typename T>
void check_prefix(const std::vector<T>& values, std::size_t offset, const nlohmann::json& expected) {
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("position " << offset + i);
    CHECK(static_cast<long long>(values[offset + i]) == expected[i].get<long long>());
  }
}

}  // namespace

TEST_CASE("numpy default_rng streams match golden rng_numpy_default_rng", "[stats][conformance]") {
  const auto parent = shared_parent();
  if (!parent) return;
  const auto golden = read_json(*parent / "shared/golden/cli/rng_numpy_default_rng.json");
  int cases = 0;
  for (const auto& c : golden["expected"]["cases"]) {
    const auto seed = c["seed"].get<std::uint64_t>();
    const auto n = c["N"].get<std::size_t>();
    INFO(c["kind"].get<std::string>() << " seed " << seed << " N " << n);
    stats::Pcg64 rng(seed);
    if (c["kind"] == "bootstrap_choice") {
      const auto rows = c["n_samples"].get<std::size_t>();
      const auto indices = stats::bootstrap_indices(rng, rows, n);
      check_prefix(indices, 0, c["first_row_first_40"]);
      check_prefix(indices, n, c["second_row_first_10"]);
      check_prefix(indices, rows * n - c["last_row_last_10"].size(), c["last_row_last_10"]);
      CHECK(std::accumulate(indices.begin(), indices.end(), std::uint64_t{0}) == c["sum_all"].get<std::uint64_t>());
      CHECK(sha256_of_int64(indices) == c["sha256"].get<std::string>());
    } else {
      REQUIRE(c["kind"] == "ar_bool_mask");
      const auto trials = c["n_trials"].get<std::size_t>();
      const auto masks = stats::randomization_masks(rng, trials, n);
      check_prefix(masks, 0, c["first_row_first_64"]);
      CHECK(std::accumulate(masks.begin(), masks.end(), std::uint64_t{0}) == c["sum_all"].get<std::uint64_t>());
      CHECK(sha256_of_int64(masks) == c["sha256"].get<std::string>());
    }
    ++cases;
  }
  CHECK(cases == 10);
}

}  // namespace evalcli::test
