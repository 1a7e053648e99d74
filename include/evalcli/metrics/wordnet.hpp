#pragma once
// Read-only WordNet 3.0 database in Princeton's text format (Debian package
// wordnet-base, /usr/share/wordnet), queried the way NLTK 3.8's
// WordNetCorpusReader does (specs/meteor.md §2): `synsets(word)` goes through
// NLTK's morphy for the parts of speech n, v, a, r in that order.
//
// Loading only maps the files: nothing is parsed up front. index.* and *.exc
// lines are found by bisecting the bytes of the file (their lines are sorted
// by first field, as WordNet's own library requires), data.* lines are read at
// their byte offsets on demand.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace evalcli {

class WordNet {
 public:
  // Parts of speech in NLTK's POS_LIST order.
  enum class Pos { noun = 0, verb = 1, adj = 2, adv = 3 };

  // Opens the database in `dir`; throws Error(missing_resource) naming the
  // missing file, with a hint to install wordnet-base.
  explicit WordNet(const std::filesystem::path& dir);
  ~WordNet();
  WordNet(const WordNet&) = delete;
  WordNet& operator=(const WordNet&) = delete;

  static std::filesystem::path default_dir() { return "/usr/share/wordnet"; }

  // "3.0", from the copyright line of data.adj (as NLTK's get_version()).
  const std::string& version() const { return version_; }

  // NLTK's _morphy(form, pos): the base forms of `form` that are index lemmas.
  std::vector<std::string> morphy(std::string_view form, Pos pos) const;

  // Synset offsets of `lemma` in index.<pos> (empty if not a lemma).
  std::vector<std::uint64_t> synset_offsets(std::string_view lemma, Pos pos) const;

  // Lemma names of the synset at `offset` in data.<pos>, in file order, with
  // NLTK's treatment: adjective markers "(a)" "(p)" "(ip)" removed, case kept.
  std::vector<std::string> synset_lemma_names(Pos pos, std::uint64_t offset) const;

  // Every lemma name of every synset of NLTK's `wordnet.synsets(word)`, in
  // order (duplicates kept). `word` is lowercased first, as NLTK does.
  std::vector<std::string> synonyms(std::string_view word) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string version_;
};

}  // namespace evalcli
