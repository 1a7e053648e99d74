// Corrupt resources are refused, not read as fewer synonyms (issue 17 item 7):
// WordNet files cut short or with offsets that miss their synset line, METEOR
// 1.5 synonym files cut short, paraphrase tables that are folders, random
// bytes or broken gzip. Each is a missing resource (exit 4) naming the file.
#include <fmt/format.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "evalcli/core/error.hpp"
#include "evalcli/metrics/wordnet.hpp"
#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using evalcli::WordNet;
using evalcli::test::run_cli;
using evalcli::test::TempFile;

// A folder removed when the object goes away.
class TempDir {
 public:
  explicit TempDir(const std::string& name) {
    static int counter = 0;
    path_ = fs::temp_directory_path() /
            ("evalcli-corrupt-" + name + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  void write(const std::string& name, const std::string& text) const {
    fs::create_directories((path_ / name).parent_path());
    std::ofstream(path_ / name, std::ios::binary) << text;
  }

 private:
  fs::path path_;
};

const std::string kHeader = "  1 This software and database is being provided\n";

// A tiny WordNet in Princeton's format: the noun synsets {dog, hound} and
// {cat}, each data line starting with its own byte offset (8 digits), as the
// index lines point at them.
struct CraftedWordNet {
  std::string data_noun, index_noun;
  std::size_t dog_offset = 0, cat_offset = 0;

  CraftedWordNet() {
    data_noun = kHeader;
    dog_offset = data_noun.size();
    data_noun += fmt::format("{:08} 05 n 02 dog 0 hound 0 000 | a domestic animal\n", dog_offset);
    cat_offset = data_noun.size();
    data_noun += fmt::format("{:08} 05 n 01 cat 0 000 | a feline\n", cat_offset);
    index_noun = kHeader + index_line("cat", cat_offset) + index_line("dog", dog_offset) + index_line("hound", dog_offset);
  }
  static std::string index_line(const std::string& lemma, std::size_t offset) {
    return fmt::format("{} n 1 0 1 0 {:08}  \n", lemma, offset);
  }
  void write(const TempDir& dir) const {
    for (const char* pos : {"verb", "adj", "adv"}) {
      dir.write(std::string("index.") + pos, kHeader);
      dir.write(std::string("data.") + pos, std::string(pos) == "adj" ? "  1 WordNet 3.0 Copyright 2006 by Princeton University.\n" : kHeader);
      dir.write(std::string(pos) + ".exc", "");
    }
    dir.write("noun.exc", "");
    dir.write("index.noun", index_noun);
    dir.write("data.noun", data_noun);
  }
};

// What an Error thrown by `action` says, with its exit code.
template <typename Action>
std::pair<evalcli::ExitCode, std::string> error_of(Action action) {
  try {
    action();
  } catch (const evalcli::Error& e) {
    return {e.code(), e.what()};
  }
  return {evalcli::ExitCode::ok, ""};
}

}  // namespace

TEST_CASE("WordNet: the crafted database reads as written", "[wordnet][corrupt]") {
  const TempDir dir("wordnet");
  CraftedWordNet().write(dir);
  const WordNet wordnet(dir.path());
  CHECK(wordnet.synonyms("dog") == std::vector<std::string>{"dog", "hound"});
  CHECK(wordnet.synonyms("cats") == std::vector<std::string>{"cat"});
}

TEST_CASE("WordNet: an index offset that does not land on its synset line is refused", "[wordnet][corrupt]") {
  const TempDir dir("wordnet");
  CraftedWordNet crafted;
  SECTION("inside another line") {
    crafted.index_noun = kHeader + CraftedWordNet::index_line("cat", crafted.cat_offset) +
                         CraftedWordNet::index_line("dog", crafted.dog_offset + 3);
  }
  SECTION("a line that carries another offset (a stale index)") {
    crafted.data_noun.replace(crafted.dog_offset, 8, fmt::format("{:08}", crafted.dog_offset + 1));
  }
  SECTION("beyond the end of data.noun (a truncated data file)") {
    crafted.index_noun = kHeader + CraftedWordNet::index_line("cat", crafted.cat_offset) +
                         CraftedWordNet::index_line("dog", crafted.data_noun.size() + 100);
  }
  crafted.write(dir);
  const WordNet wordnet(dir.path());
  const auto [code, message] = error_of([&] { (void)wordnet.synonyms("dog"); });
  CHECK(code == evalcli::ExitCode::missing_resource);
  CHECK_THAT(message, Catch::Contains((dir.path() / "data.noun").string()));
  CHECK_THAT(message, Catch::Contains("'dog'"));
  CHECK_THAT(message, Catch::Contains("index.noun:3"));
  // cat's own link is intact.
  CHECK(wordnet.synonyms("cat") == std::vector<std::string>{"cat"});
}

TEST_CASE("WordNet: a file cut mid-line is refused when opened", "[wordnet][corrupt]") {
  for (const std::string file : {"index.noun", "data.noun", "noun.exc"}) {
    INFO(file);
    const TempDir dir("wordnet");
    CraftedWordNet crafted;
    crafted.write(dir);
    if (file == "noun.exc") {
      dir.write(file, "mice mouse\ngeese goo");
    } else {
      const std::string whole = file == "index.noun" ? crafted.index_noun : crafted.data_noun;
      dir.write(file, whole.substr(0, whole.size() - 5));
    }
    const auto [code, message] = error_of([&] { const WordNet wordnet(dir.path()); });
    CHECK(code == evalcli::ExitCode::missing_resource);
    CHECK_THAT(message, Catch::Contains((dir.path() / file).string()));
    CHECK_THAT(message, Catch::Contains("truncated"));
  }
}

TEST_CASE("WordNet: malformed index and data lines are refused with file and line", "[wordnet][corrupt]") {
  const TempDir dir("wordnet");
  CraftedWordNet crafted;
  std::string expected;
  SECTION("fewer offsets than synset_cnt") {
    crafted.index_noun = kHeader + CraftedWordNet::index_line("cat", crafted.cat_offset) +
                         fmt::format("dog n 2 0 2 0 {:08}  \n", crafted.dog_offset);
    expected = "index.noun:3";
  }
  SECTION("a count that is not a number") {
    crafted.index_noun = kHeader + CraftedWordNet::index_line("cat", crafted.cat_offset) +
                         fmt::format("dog n x 0 1 0 {:08}  \n", crafted.dog_offset);
    expected = "index.noun:3";
  }
  SECTION("an offset that is not a number") {
    crafted.index_noun = kHeader + CraftedWordNet::index_line("cat", crafted.cat_offset) + "dog n 1 0 1 0 0000z052  \n";
    expected = "index.noun:3";
  }
  SECTION("a word count (hex) that is not a number") {
    crafted.data_noun.replace(crafted.dog_offset + 14, 2, "zz");
    expected = "data.noun:2";
  }
  SECTION("fewer words than the word count") {
    crafted.data_noun.replace(crafted.dog_offset + 14, 2, "09");
    expected = "data.noun:2";
  }
  crafted.write(dir);
  const WordNet wordnet(dir.path());
  const auto [code, message] = error_of([&] { (void)wordnet.synonyms("dog"); });
  CHECK(code == evalcli::ExitCode::missing_resource);
  CHECK_THAT(message, Catch::Contains((dir.path() / expected).string()));
}

TEST_CASE("evalcli meteor: a corrupt WordNet is exit 4 naming the file, not a lower score", "[wordnet][corrupt][cli]") {
  const TempDir dir("wordnet");
  CraftedWordNet crafted;
  crafted.data_noun.replace(crafted.dog_offset, 8, fmt::format("{:08}", crafted.dog_offset + 1));
  crafted.write(dir);
  const TempFile hyp("the hound\n"), ref("the dog\n");
  const auto result = run_cli({"meteor", "-r", ref.path(), "-i", hyp.path(), "--wordnet", dir.path().string()});
  CHECK(result.exit_code == 4);
  CHECK_THAT(result.err, Catch::Contains((dir.path() / "data.noun").string()));
  CHECK(result.out.empty());
}

namespace {

// A METEOR 1.5 resources folder with English function words, prefixes and the given synonym files.
void write_meteor_resources(const TempDir& dir, const std::string& synsets, const std::string& exceptions) {
  dir.write("function/english.words", "the\na\n");
  dir.write("nonbreaking/english.prefixes", "Mr\n");
  dir.write("synonym/english.synsets", synsets);
  dir.write("synonym/english.exceptions", exceptions);
}

evalcli::test::CliResult run_meteor15(const TempDir& resources, const std::vector<std::string>& extra) {
  static const TempFile hyp("the hound ran\n"), ref("the dog ran\n");
  std::vector<std::string> args = {"meteor", "--compat", "meteor15", "--meteor-resources", resources.path().string(),
                                   "-r", ref.path(), "-i", hyp.path()};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_cli(args);
}

}  // namespace

TEST_CASE("METEOR 1.5: synonym files cut short or unreadable are refused", "[meteor15][corrupt]") {
  const std::string synsets = "dog\n1 2\nhound\n2\n", exceptions = "mouse\nmice\n";
  {
    const TempDir dir("meteor15");
    write_meteor_resources(dir, synsets, exceptions);
    const auto good = run_meteor15(dir, {"-m", "exact synonym"});
    INFO(good.err);
    REQUIRE(good.exit_code == 0);  // the crafted folder itself is fine
  }
  struct Case {
    std::string name, synsets, exceptions, file, where;
  };
  const std::vector<Case> cases = {
      {"a word without its synset line", "dog\n1 2\nhound\n", exceptions, "english.synsets", ":3:"},
      {"synsets cut mid-line", "dog\n1 2\nhound\n2", exceptions, "english.synsets", "truncated"},
      {"a non-numeric synset id", "dog\n1 2\nhound\nabc\n", exceptions, "english.synsets", ":4: synset id 'abc'"},
      {"a base without its forms", synsets, "mouse\nmice\ngoose\n", "english.exceptions", ":3:"},
      {"exceptions cut mid-line", synsets, "mouse\nmi", "english.exceptions", "truncated"},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    const TempDir dir("meteor15");
    write_meteor_resources(dir, c.synsets, c.exceptions);
    const auto result = run_meteor15(dir, {"-m", "exact synonym"});
    CHECK(result.exit_code == 4);
    CHECK_THAT(result.err, Catch::Contains((dir.path() / "synonym" / c.file).string()));
    CHECK_THAT(result.err, Catch::Contains(c.where));
  }
  SECTION("a folder where the synsets file should be") {
    const TempDir dir("meteor15");
    write_meteor_resources(dir, synsets, exceptions);
    fs::remove(dir.path() / "synonym/english.synsets");
    fs::create_directories(dir.path() / "synonym/english.synsets");
    const auto result = run_meteor15(dir, {"-m", "exact synonym"});
    CHECK(result.exit_code == 4);
    CHECK_THAT(result.err, Catch::Contains("english.synsets"));
  }
}

namespace {

std::string gzip(const std::string& text) {
  const TempFile file("", ".gz");
  gzFile out = gzopen(file.path().c_str(), "wb");
  REQUIRE(out != nullptr);
  REQUIRE(gzwrite(out, text.data(), static_cast<unsigned>(text.size())) == static_cast<int>(text.size()));
  REQUIRE(gzclose(out) == Z_OK);
  return evalcli::test::read_file(file.path());
}

const std::string kTable = "0.5\nthe dog\nthe hound\n0.25\nran\nsprinted\n";

}  // namespace

TEST_CASE("METEOR 1.5: paraphrase tables that are folders, random bytes or broken gzip are refused",
          "[meteor15][corrupt]") {
  const TempDir resources("meteor15");
  write_meteor_resources(resources, "dog\n1\n", "");
  const auto run_with_table = [&](const std::string& table) {
    return run_meteor15(resources, {"-m", "exact paraphrase", "--paraphrase-table", table});
  };
  const TempFile plain(kTable), zipped(gzip(kTable), ".gz");
  {
    const auto good = run_with_table(plain.path());
    INFO(good.err);
    REQUIRE(good.exit_code == 0);
    const auto score = [](const std::string& out) { return out.substr(out.rfind(" = ")); };
    REQUIRE(score(run_with_table(zipped.path()).out) == score(good.out));  // the same table, gzipped
  }
  std::string broken = gzip(kTable);
  SECTION("a folder") {
    const TempDir folder("table");
    const auto result = run_with_table(folder.path().string());
    CHECK(result.exit_code == 4);
    CHECK_THAT(result.err, Catch::Contains(folder.path().string()));
  }
  SECTION("random bytes") {
    std::mt19937 random(17);
    std::string bytes(4096, '\0');
    for (auto& byte : bytes) byte = static_cast<char>(random() & 0xFF);
    bytes[0] = 'x';  // not a gzip magic by chance
    const TempFile garbage(bytes, ".gz");
    const auto result = run_with_table(garbage.path());
    CHECK(result.exit_code == 4);
    CHECK_THAT(result.err, Catch::Contains(garbage.path()));
  }
  SECTION("gzip with a damaged body") {
    for (std::size_t i = 12; i + 8 < broken.size(); ++i) broken[i] = static_cast<char>(broken[i] ^ 0x5A);
    const TempFile file(broken, ".gz");
    const auto result = run_with_table(file.path());
    CHECK(result.exit_code == 4);
    CHECK_THAT(result.err, Catch::Contains(file.path()));
  }
  SECTION("gzip cut short") {
    const TempFile file(broken.substr(0, broken.size() - 6), ".gz");
    const auto result = run_with_table(file.path());
    CHECK(result.exit_code == 4);
    CHECK_THAT(result.err, Catch::Contains(file.path()));
  }
  SECTION("a probability that is not a number") {
    const TempFile file("0.5\nthe dog\nthe hound\nhigh\nran\nsprinted\n");
    const auto result = run_with_table(file.path());
    CHECK(result.exit_code == 4);
    CHECK_THAT(result.err, Catch::Contains(file.path() + ":4:"));
  }
  SECTION("an entry cut short") {
    const TempFile file("0.5\nthe dog\nthe hound\n0.25\nran\n");
    const auto result = run_with_table(file.path());
    CHECK(result.exit_code == 4);
    CHECK_THAT(result.err, Catch::Contains(file.path() + ":4:"));
  }
}
