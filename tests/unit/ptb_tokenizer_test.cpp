// The `ptb` tokenizer: pycocoevalcap's PTBTokenizer (CoreNLP 3.4.1 PTBLexer,
// -lowerCase, punctuation tokens removed). The 30 golden strings are in the
// conformance test; these pin individual rules.
#include <catch2/catch.hpp>

#include "evalcli/text/utf8.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"
#include "evalcli/tokenize/tokenizer.hpp"
#include "tokenize/tok_ptb_detail.hpp"

#include <random>
#include <string>
#include <vector>

namespace {
std::string ptb(const std::string& line) {
  static const auto tokenizer = evalcli::make_tokenizer("ptb");
  return evalcli::utf8::encode(tokenizer->tokenize(evalcli::utf8::decode_or_throw(line, "test")));
}
}  // namespace

TEST_CASE("ptb: clitics and assimilations", "[tokenizer][ptb]") {
  CHECK(ptb("It's the dog's ball, isn't it?") == "it 's the dog 's ball is n't it");
  CHECK(ptb("They're gonna win, I'd say") == "they 're gon na win i 'd say");
  CHECK(ptb("We'll see; you've won") == "we 'll see you 've won");
  CHECK(ptb("DON'T STOP") == "do n't stop");
  CHECK(ptb("a tree'd forest") == "a tree 'd forest");
}

TEST_CASE("ptb: periods, abbreviations and acronyms", "[tokenizer][ptb]") {
  CHECK(ptb("A fork.A pipe on the table.") == "a fork.a pipe on the table");
  CHECK(ptb("A new T.V on top") == "a new t.v on top");
  CHECK(ptb("Jan. 5 in Washington D.C. today") == "jan. 5 in washington d.c. today");
  CHECK(ptb("the U.S. The end") == "the u.s. the end");  // acronym before a sentence starter
  CHECK(ptb("Plan B. The end") == "plan b the end");     // one-letter acronym loses its period
  CHECK(ptb("see fig. 3") == "see fig. 3");
  CHECK(ptb("apples, pears etc. and more") == "apples pears etc. and more");
}

TEST_CASE("ptb: brackets, quotes, dashes and symbols", "[tokenizer][ptb]") {
  CHECK(ptb("a (red) [big] {car}") == "a -lrb- red -rrb- -lsb- big -rsb- -lcb- car -rcb-");
  CHECK(ptb("\"hi\" 'there' `x`") == "hi there x");
  CHECK(ptb("a - b -- c --- d") == "a b c d");
  CHECK(ptb("wow!!! really?!") == "wow !!! really ?!");
  CHECK(ptb("<|endoftext|>A man") == "< | endoftext | > a man");
  CHECK(ptb("price: 5% & $3") == "price 5 % & $ 3");
  CHECK(ptb("a <b>bold</b> word") == "a <b> bold </b> word");
}

TEST_CASE("ptb: numbers, fractions and hyphenated words", "[tokenizer][ptb]") {
  CHECK(ptb("3:30 1,000.5 -7") == "3:30 1,000.5 -7");
  CHECK(ptb("2 1/2 cups") == "2\u00a01/2 cups");
  CHECK(ptb("¾ cup") == "3/4 cup");
  CHECK(ptb("a 12/25/2014 date") == "a 12/25/2014 date");
  CHECK(ptb("a start_of_text marker") == "a start_of_text marker");
  CHECK(ptb("x-ray of a mother-in-law") == "x-ray of a mother-in-law");
}

TEST_CASE("ptb: whitespace, empty and untokenizable input", "[tokenizer][ptb]") {
  CHECK(ptb("") == "");
  CHECK(ptb("   ") == "");
  CHECK(ptb("a\u200bb") == "a b");
  CHECK(ptb("smile \U0001F600 now") == "smile now");
  CHECK(ptb("two\nlines") == "two lines");  // pycocoevalcap replaces '\n' by a space
}

TEST_CASE("ptb batch: the next caption is look-ahead context", "[tokenizer][ptb]") {
  using evalcli::tokenizers::ptb_tokenize_batch;
  const auto out = ptb_tokenize_batch({U"the new nintendo wii U.", U"A man plays"});
  REQUIRE(out.size() == 2);
  CHECK(out[0] == U"the new nintendo wii u");  // "U." + newline + "A " ends a sentence
  CHECK(out[1] == U"a man plays");
  CHECK(ptb("the new nintendo wii U.") == "the new nintendo wii u.");  // end of input: kept
}

TEST_CASE("ptb batch: the plain-word shortcut gives what trying every rule gives", "[tokenizer][ptb]") {
  // Runs of letters (abbreviations, contractions, URL and entity starts among them)
  // followed by every kind of character a rule could continue with, alone, at a
  // caption's start and end, and in random sequences.
  const std::vector<std::u32string> words = {
      U"a",     U"i",     U"x",      U"y",      U"n",     U"s",       U"c",      U"d",     U"o",    U"l",
      U"u",     U"co",    U"st",     U"mr",     U"no",    U"nos",     U"inc",    U"pro",   U"anti", U"www",
      U"http",  U"com",   U"cannot", U"cannots", U"gonna", U"gonnas", U"gotta",  U"lemme", U"gimme", U"wanna",
      U"wannabe", U"twas", U"cap",   U"dunkin", U"ol",    U"canada",  U"sino",   U"non",   U"fig",  U"bldg",
      U"jan",   U"sept",  U"etc",    U"vs",     U"ph",    U"pte",     U"ltd",    U"man",   U"the",  U"xd",
      U"nt",    U"em",    U"til",    U"amp",    U"quot",  U"nbsp",    U"mdash",  U"apos",  U"A",    U"I",
      U"X",     U"C",     U"S",      U"Mr",     U"MRS",   U"St",      U"Co",     U"Inc",   U"US",   U"USA",
      U"AT",    U"Cannot", U"GONNA", U"Wanna",  U"Miss",  U"Mfg",     U"Mtg",    U"Pa",    U"Tex",  U"Wash",
      U"The",   U"He",    U"DR",     U"HTTP",   U"WWW",   U"Cap",     U"Jan",    U"SEPT",  U"Ph",   U"ABC",
      // Letters beyond ASCII: accented, symbols that are letters too (µ, º, ℂ, ⁿ, NKo's U+07FA, also
      // a full stop), combining marks, and a soft hyphen (WORD's token drops it: not a plain word).
      U"über",  U"Müller", U"ß",     U"µm",     U"µ",     U"º",       U"ℂ",      U"ⁿ",     U"кот",  U"中文",
      U"e\u0301", U"\u0300", U"\u07fa", U"ab\u00adcd", U"\u00ad", U"İ",     U"ǅ",      U"wänna", U"ελλάδα", U"ไทย"};
  const std::vector<std::u32string> nexts = {
      U" ",  U"  ",  U" .",  U".",   U",",    U" ,",   U"-",   U" -",   U"'",      U" '",    U"'s",  U"n't",
      U"/",  U"@",   U"#",   U"$",   U"&",    U"_",    U":",   U";",    U"!",      U"?",     U" A",  U" The",
      U"\t", U"\u00a0", U"\u2019", U" 5", U"5", U" (", U")",   U" \"",  U"\"",     U" x",    U" u.s.", U".com",
      U"'d", U"-u.s", U" ltd", U"++", U" &amp;", U"...", U" ...", U"\u00ad", U" \u3000", U"<", U" <b>",
      U"\u0589", U"\u07fa", U"\u3002", U"\u00b2", U"\u20ac"};
  std::vector<std::u32string> lines;
  for (const auto& w : words) {
    for (const auto& next : nexts) {
      lines.push_back(w + next + U" end");
      lines.push_back(U"start " + w + next);
      lines.push_back(w + next);
    }
  }
  // Each run as a caption's last word before its final period, with each of
  // these as the next caption's start (the look-ahead of ABBREV1, ABBREV3 and
  // co./pte./pty. before ltd): the word-before-final-period shortcut.
  const std::vector<std::u32string> next_starts = {U"ltd x", U"Ltd", U"lim", U"5 dogs", U" 7", U"A man", U"Smith",
                                                   U"the", U"x", U"<b>", U"\"Hi\"", U"(a)", U"...", U".com", U""};
  for (const auto& w : words) {
    for (const auto& start : next_starts) {
      lines.push_back(w + U".");
      lines.push_back(start);
      lines.push_back(U"a " + w + U".");
      lines.push_back(start);
    }
    lines.push_back(w + U". x.");
    lines.push_back(w + U"..");
    lines.push_back(U"x " + w + U".");  // the batch's last caption: its period before the end of the text
  }
  std::mt19937 random(20261207);
  std::uniform_int_distribution<std::size_t> word(0, words.size() - 1), next(0, nexts.size() - 1), length(1, 10);
  for (int i = 0; i < 3000; ++i) {
    std::u32string line;
    for (std::size_t k = length(random); k > 0; --k) line += words[word(random)] + nexts[next(random)];
    lines.push_back(line);
  }
  const auto fast = evalcli::tokenizers::ptb_tokenize_batch(lines);
  const auto every_rule = evalcli::tokenizers::detail::ptb_tokenize_batch_trying_every_rule(lines);
  REQUIRE(fast.size() == lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    INFO("caption " << i << ": " << evalcli::utf8::encode(lines[i]));
    REQUIRE(evalcli::utf8::encode(fast[i]) == evalcli::utf8::encode(every_rule[i]));
  }
  // The shortcuts' cases: a contraction split, a soft hyphen dropped, an abbreviation kept whole.
  CHECK(fast[0] == U"a end");
  CHECK(evalcli::tokenizers::ptb_tokenize_batch({U"ab\u00adcd x", U"x"})[0] == U"abcd x");
  CHECK(evalcli::tokenizers::ptb_tokenize_batch({U"you cannot see", U"x"})[0] == U"you can not see");
  CHECK(evalcli::tokenizers::ptb_tokenize_batch({U"a dog.", U"x"})[0] == U"a dog");
  CHECK(evalcli::tokenizers::ptb_tokenize_batch({U"see fig.", U"5 x"})[0] == U"see fig.");
  CHECK(evalcli::tokenizers::ptb_tokenize_batch({U"smith co.", U"ltd x"})[0] == U"smith co.");
}
