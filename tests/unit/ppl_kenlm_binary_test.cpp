// KenLM probing and trie binaries (build_binary probing|trie): evalcli's
// output on the binary is query's on the same binary, byte for byte, and a
// probing binary scores as the ARPA it was built from. The binaries and query's outputs in
// tests/data/kenlm_binary/ were made by its make_goldens.sh (KenLM 4cb443e).
#include <algorithm>
#include <fmt/format.h>

#include <cstring>
#include <regex>

#include "evalcli/metrics/ppl.hpp"
#include "metrics/ppl/kenlm_binary.hpp"
#include "support/test_support.hpp"

using evalcli::test::read_file;
using evalcli::test::run_cli;
using evalcli::test::source_dir;
using evalcli::test::TempFile;

namespace {

std::string data(const std::string& name) { return (source_dir() / "tests/data/kenlm_binary" / name).string(); }

evalcli::test::CliResult kenlm_output(const std::string& model, const std::string& input, bool null_context) {
  std::vector<std::string> args = {"ppl", "--kenlm-output", "--lm", model, "-i", input};
  if (null_context) args.push_back("-n");
  return run_cli(args);
}

// The binary's bytes with `count` bytes at `offset` replaced, in a temporary file.
std::string patched(const std::string& bytes, std::size_t offset, const std::string& replacement) {
  std::string out = bytes;
  out.replace(offset, replacement.size(), replacement);
  return out;
}

}  // namespace

TEST_CASE("KenLM probing binary: evalcli prints what query prints on the same file", "[ppl][kenlm-binary]") {
  struct Case {
    std::string model, input, golden;
    bool null_context;
  };
  const std::vector<Case> cases = {
      {"toy.o3.probing", "toy.test.en.tok", "toy.o3.toy-test.query.txt", false},
      {"toy.o3.probing", "toy.test.en.tok", "toy.o3.toy-test.null.query.txt", true},
      {"toy.o5.probing", "toy.test.en.tok", "toy.o5.toy-test.query.txt", false},
      {"toy.o5.probing", "toy.test.en.tok", "toy.o5.toy-test.null.query.txt", true},
      {"edge.probing", "edge.in", "edge.edge.query.txt", false},
      {"edge.probing", "literal_markers.in", "edge.literal.query.txt", false},
      {"nounk.probing", "edge.in", "nounk.edge.query.txt", false},
      {"nounk.probing", "literal_markers.in", "nounk.literal.query.txt", false},
      {"zeros.probing", "zeros.in", "zeros.query.txt", false},  // -0 and 0 as query prints them
      {"zeros.probing", "zeros.in", "zeros.null.query.txt", true},
  };
  for (const auto& c : cases) {
    INFO(c.model << " on " << c.input << (c.null_context ? " -n" : ""));
    const auto result = kenlm_output(data(c.model), data(c.input), c.null_context);
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    CHECK(result.out == read_file(data(c.golden)));
  }
}

// The trie kinds and their file suffixes in tests/data/kenlm_binary (make_goldens.sh):
// plain, quantised (-q 8 -b 8), array-compressed pointers (-a 22) and both.
const std::vector<std::string> kTrieKinds = {"trie", "qtrie", "atrie", "qatrie"};

TEST_CASE("KenLM trie binaries: evalcli prints what query prints on the same file", "[ppl][kenlm-binary]") {
  struct Case {
    std::string model, input, golden;  // golden: query's output is MODEL.KIND.GOLDEN
    bool null_context;
  };
  const std::vector<Case> cases = {
      {"toy.o3", "toy.test.en.tok", "toy-test.query.txt", false},
      {"toy.o3", "toy.test.en.tok", "toy-test.null.query.txt", true},
      {"toy.o5", "toy.test.en.tok", "toy-test.query.txt", false},
      {"toy.o5", "toy.test.en.tok", "toy-test.null.query.txt", true},
      {"edge", "edge.in", "edge.query.txt", false},
      {"edge", "literal_markers.in", "literal.query.txt", false},
      {"nounk", "edge.in", "edge.query.txt", false},
      {"nounk", "literal_markers.in", "literal.query.txt", false},
      {"zeros", "zeros.in", "query.txt", false},  // the trie's zeros: 0 where the probing binary has -0
      {"zeros", "zeros.in", "null.query.txt", true},
  };
  for (const auto& kind : kTrieKinds) {
    for (const auto& c : cases) {
      const std::string model = c.model + "." + kind;
      INFO(model << " on " << c.input << (c.null_context ? " -n" : ""));
      const auto result = kenlm_output(data(model), data(c.input), c.null_context);
      INFO(result.err);
      REQUIRE(result.exit_code == 0);
      CHECK(result.out == read_file(data(model + "." + c.golden)));
    }
  }
}

TEST_CASE("KenLM trie binaries: the plain trie scores as the ARPA it was built from", "[ppl][kenlm-binary]") {
  const auto report = [](const std::string& model) {
    const auto r = run_cli({"ppl", "--lm", data(model), "-i", data("toy.test.en.tok"), "-f", "json"});
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out);
  };
  for (const std::string model : {"toy.o3", "toy.o5"}) {
    INFO(model);
    auto trie = report(model + ".trie");
    auto arpa = report(model + ".arpa");
    CHECK(trie["score"] == arpa["score"]);
    CHECK(trie["stats"] == arpa["stats"]);
  }
}

TEST_CASE("KenLM trie binaries: damaged files are refused, naming the file", "[ppl][kenlm-binary]") {
  const auto load_error = [](const std::string& bytes) {
    TempFile file(bytes, ".binary");
    const auto r = run_cli({"ppl", "--lm", file.path()}, "a b\n");
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::Contains(file.path() + ": "));
    return r.err;
  };
  for (const auto& kind : kTrieKinds) {
    INFO(kind);
    const std::string trie = read_file(data("toy.o3." + kind));
    CHECK_THAT(load_error(trie.substr(0, trie.size() / 2)), Catch::Contains("(truncated?)"));
    CHECK_THAT(load_error(trie.substr(0, 200)), Catch::Contains("(truncated?)"));
    CHECK_THAT(load_error(patched(trie, 104, std::string("\x02\0\0\0", 4))), Catch::Contains("search version 2"));
  }
  // The first section after the 136-byte header of an order-3 model: the vocabulary's word count.
  const std::string trie = read_file(data("toy.o3.trie"));
  const std::uint64_t too_many = 1000000;
  CHECK_THAT(load_error(patched(trie, 136, std::string(reinterpret_cast<const char*>(&too_many), 8))),
             Catch::Contains("the binary vocabulary says 1000000 words"));
  // The quantiser's version byte, after the vocabulary (8 + 8 x 702 bytes).
  std::uint64_t unigrams;
  std::memcpy(&unigrams, trie.data() + 108, 8);
  const std::string quantised = read_file(data("toy.o3.qtrie"));
  CHECK_THAT(load_error(patched(quantised, 136 + 8 + 8 * unigrams, "\x01")), Catch::Contains("quantisation version 1"));
}

// The vocabulary's hashes out of order (a damaged file KenLM does not check
// either): the bucket index over them stays inside the table, so words are
// merely not found. Reversed, <s> is among them and the model is refused; with
// two hashes swapped, the run ends normally or refuses it, never worse (and is
// clean under ASan).
TEST_CASE("KenLM trie binaries: an unsorted vocabulary is read safely", "[ppl][kenlm-binary]") {
  const std::string trie = read_file(data("toy.o3.trie"));
  std::uint64_t words;
  std::memcpy(&words, trie.data() + 136, 8);
  REQUIRE(words > 2);
  const auto run_with = [&](auto rearrange) {
    std::vector<std::uint64_t> hashes(words);
    std::memcpy(hashes.data(), trie.data() + 144, 8 * words);
    rearrange(hashes);
    std::string damaged = trie;
    std::memcpy(damaged.data() + 144, hashes.data(), 8 * words);
    TempFile file(damaged, ".binary");
    return run_cli({"ppl", "--lm", file.path(), "--kenlm-output"}, "the cat sat on the mat\n");
  };
  const auto reversed = run_with([](auto& hashes) { std::reverse(hashes.begin(), hashes.end()); });
  CHECK(reversed.exit_code == 3);
  CHECK_THAT(reversed.err, Catch::Contains(".binary: The binary model is missing <s>"));
  const auto swapped = run_with([](auto& hashes) { std::swap(hashes[1], hashes[hashes.size() - 2]); });
  INFO(swapped.err);
  CHECK((swapped.exit_code == 0 || swapped.exit_code == 3));
}

TEST_CASE("KenLM probing binary: scores as the ARPA it was built from", "[ppl][kenlm-binary]") {
  for (const std::string model : {"toy.o3", "toy.o5", "edge", "nounk"}) {
    INFO(model);
    for (const bool null_context : {false, true}) {
      const auto from_binary = kenlm_output(data(model + ".probing"), data("toy.test.en.tok"), null_context);
      const auto from_arpa = kenlm_output(data(model + ".arpa"), data("toy.test.en.tok"), null_context);
      REQUIRE(from_binary.exit_code == 0);
      REQUIRE(from_arpa.exit_code == 0);
      CHECK(from_binary.out == from_arpa.out);
    }
  }
  // evalcli's own report: the same numbers; the signature names the file it read.
  const auto report = [](const std::string& model) {
    const auto r = run_cli({"ppl", "--lm", data(model), "-i", data("toy.test.en.tok"), "-f", "json"});
    REQUIRE(r.exit_code == 0);
    auto json = nlohmann::json::parse(r.out);
    return json;
  };
  auto binary = report("toy.o3.probing");
  auto arpa = report("toy.o3.arpa");
  CHECK(binary["score"] == arpa["score"]);
  CHECK(binary["stats"] == arpa["stats"]);
  const std::string signature = binary["signature"];
  CHECK_THAT(signature, Catch::Contains("mode:arpa|lm:toy.o3.probing|lm-md5:"));
  CHECK(signature != arpa["signature"].get<std::string>());
}

TEST_CASE("KenLM probing binary: the signature's md5 is the file's, and read back it must match", "[ppl][kenlm-binary]") {
  const std::string bytes = read_file(data("toy.o3.probing"));
  evalcli::ppl::Md5 md5;
  md5.update(bytes);
  const std::string expected_md5 = md5.hex_digest();
  const auto r = run_cli({"ppl", "--lm", data("toy.o3.probing"), "-i", data("toy.test.en.tok"), "-f", "json"});
  REQUIRE(r.exit_code == 0);
  const std::string signature = nlohmann::json::parse(r.out)["signature"];
  CHECK_THAT(signature, Catch::Contains("lm-md5:" + expected_md5));
  const auto again = run_cli({"ppl", "--lm", data("toy.o3.probing"), "-i", data("toy.test.en.tok"), "--signature", signature});
  INFO(again.err);
  CHECK(again.exit_code == 0);
  // The same name with other bytes: refused.
  TempFile other(patched(bytes, bytes.size() - 1, "\x01"), "");
  const std::filesystem::path renamed = std::filesystem::path(other.path()).parent_path() / "toy.o3.probing";
  std::filesystem::copy_file(other.path(), renamed, std::filesystem::copy_options::overwrite_existing);
  const auto wrong = run_cli({"ppl", "--lm", renamed.string(), "-i", data("toy.test.en.tok"), "--signature", signature});
  std::filesystem::remove(renamed);
  CHECK(wrong.exit_code == 2);
  CHECK_THAT(wrong.err, Catch::Contains("lm-md5"));
}

TEST_CASE("KenLM binary: other model types, versions and damaged files are refused, naming the file", "[ppl][kenlm-binary]") {
  const std::string probing = read_file(data("toy.o3.probing"));
  const auto load_error = [](const std::string& bytes) {
    TempFile file(bytes, ".binary");
    const auto r = run_cli({"ppl", "--lm", file.path()}, "a b\n");
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::Contains(file.path() + ": "));
    return r.err;
  };
  CHECK_THAT(load_error(patched(probing, 96, std::string("\x01\0\0\0", 4))),
             Catch::Contains("a KenLM binary model of type \"probing with rest costs\"; evalcli reads probing and trie binaries"));
  CHECK_THAT(load_error(patched(probing, 96, std::string("\x09\0\0\0", 4))), Catch::Contains("type \"type 9\""));
  CHECK_THAT(load_error(patched(probing, 50, "4")), Catch::Contains("another format version"));
  CHECK_THAT(load_error("mmap lm http://kheafield.com/code incomplete\n" + std::string(100, '\0')),
             Catch::Contains("did not finish building"));
  CHECK_THAT(load_error(patched(probing, 60, std::string("\0\0\0\0", 4))), Catch::Contains("test values do not match"));
  CHECK_THAT(load_error(probing.substr(0, 100)), Catch::Contains("ends inside it"));
  CHECK_THAT(load_error(probing.substr(0, probing.size() / 2)), Catch::Contains("(truncated?)"));
  CHECK_THAT(load_error(patched(probing, 88, "\x01")), Catch::Contains("order 1"));
  const float half = 0.5f;
  CHECK_THAT(load_error(patched(probing, 92, std::string(reinterpret_cast<const char*>(&half), 4))),
             Catch::Contains("probing multiplier 0.5"));
  // A multiplier so large that KenLM's bucket count (a float product) would not fit in 64 bits.
  const float enormous = 1e30f;
  CHECK_THAT(load_error(patched(probing, 92, std::string(reinterpret_cast<const char*>(&enormous), 4))),
             Catch::Contains("need more bytes than the file has left"));
  // An n-gram count beyond what the file can hold (the sizes would overflow).
  const std::uint64_t huge = std::uint64_t{1} << 62;
  CHECK_THAT(load_error(patched(probing, 108 + 8, std::string(reinterpret_cast<const char*>(&huge), 8))),
             Catch::Contains("more than the file can hold"));
}

TEST_CASE("KenLM binary: a vocabulary id beyond the unigrams is an input error at load, not a read past them",
          "[ppl][kenlm-binary]") {
  // The vocabulary table starts at the 8-aligned header end + 8; every
  // non-empty slot's id is overwritten with one far beyond the 702 words.
  std::string bytes = read_file(data("toy.o3.probing"));
  const std::size_t header = (88 + 20 + 8 * 3 + 7) / 8 * 8;
  const std::size_t table = header + 8;
  std::uint64_t counts0;
  std::memcpy(&counts0, bytes.data() + 108, 8);
  const float multiplier = 1.5f;  // build_binary's default, as the file says
  float stored;
  std::memcpy(&stored, bytes.data() + 92, 4);
  REQUIRE(stored == multiplier);
  const std::uint64_t buckets = std::max(counts0 + 1, static_cast<std::uint64_t>(multiplier * static_cast<float>(counts0)));
  for (std::uint64_t slot = 0; slot < buckets; ++slot) {
    char* entry = bytes.data() + table + 12 * slot;
    std::uint64_t key;
    std::memcpy(&key, entry, 8);
    if (key == 0) continue;
    const std::uint32_t id = 1000000;
    std::memcpy(entry + 8, &id, 4);
  }
  TempFile file(bytes, ".binary");
  CHECK_THROWS_WITH(evalcli::ppl::NgramModel::load(file.path(), nullptr), Catch::Contains("corrupt KenLM binary: word id 1000000"));
  const auto r = run_cli({"ppl", "--lm", file.path()}, "the\n");
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains("corrupt KenLM binary: word id 1000000"));
}

TEST_CASE("murmur_hash64a gives KenLM's vocabulary hashes", "[ppl][kenlm-binary]") {
  // KenLM's util::MurmurHash64A(word, strlen(word), 0), printed by a program
  // built against its util/murmur_hash.cc (kpu/kenlm):
  //   g++ -O2 -I$KENLM -o mh mh.cc $KENLM/util/murmur_hash.cc
  // where mh.cc prints the hash of each argument. Every tail length 0-7, with and without whole blocks.
  const std::vector<std::pair<std::string, std::uint64_t>> expected = {
      {"", 0x0000000000000000ULL},
      {"a", 0x071717d2d36b6b11ULL},
      {"ab", 0x62be85b2fe53d1f8ULL},
      {"abc", 0x9cc9c33498a95efbULL},
      {"abcd", 0xec1044c45cc5097aULL},
      {"abcde", 0x1182974836d6dbb7ULL},
      {"abcdef", 0xb78e3425fc996779ULL},
      {"abcdefg", 0x241aa52b0a62005dULL},
      {"abcdefgh", 0xafdb0257ff41aa98ULL},
      {"abcdefghi", 0xc9b9d84356146ac2ULL},
      {"abcdefghijklmno", 0xfdaac8a629dcd46aULL},
      {"abcdefghijklmnop", 0xd41a085973d213baULL},
      {"Stra\xc3\x9f" "e", 0xd43ba3cfa693fb53ULL},
      {"</s>", 0x6be0737df1f76c0aULL},
      {"<unk>", 0xea91e7561f5b392bULL},
      {"word-with-hyphens", 0x80c0a0fcb5cc6247ULL},
  };
  for (const auto& [word, hash] : expected) {
    INFO("word: " << word);
    CHECK(evalcli::ppl::murmur_hash64a(word) == hash);
  }
}
