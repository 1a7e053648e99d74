// The `nltk-word` tokenizer: NLTK 3.8 `word_tokenize(line, preserve_line=True)`,
// i.e. NLTKWordTokenizer's regex substitutions (no sentence splitting), as
// used by Hugging Face's METEOR. The substitutions are NLTK's patterns run on
// ICU's regex engine, in NLTK's order; tokens are the Python str.split() of
// the result.
#include <unicode/regex.h>
#include <unicode/unistr.h>

#include <mutex>

#include "evalcli/core/error.hpp"
#include "evalcli/text/unicode.hpp"
#include "evalcli/tokenize/builtin_tokenizers.hpp"

namespace evalcli::tokenizers {
namespace {

struct Substitution {
  std::unique_ptr<icu::RegexPattern> pattern;
  icu::UnicodeString replacement;
};

Substitution compile(const char16_t* pattern, const char16_t* replacement) {
  UErrorCode status = U_ZERO_ERROR;
  UParseError parse_error;
  Substitution s;
  s.pattern.reset(icu::RegexPattern::compile(icu::UnicodeString(pattern), 0, parse_error, status));
  if (U_FAILURE(status)) throw Error(ExitCode::internal, "nltk-word tokenizer: bad built-in regex");
  s.replacement = icu::UnicodeString(replacement);
  return s;
}

// NLTKWordTokenizer's lists (nltk/tokenize/destructive.py, NLTK 3.8) with
// Python's \1 / \g<0> written as ICU's $1 / $0.
struct Rules {
  std::vector<Substitution> before_padding;  // starting quotes, punctuation, brackets, dashes
  std::vector<Substitution> after_padding;   // ending quotes, contractions

  Rules() {
    for (auto [p, r] : std::initializer_list<std::pair<const char16_t*, const char16_t*>>{
             // STARTING_QUOTES
             {u"([«“‘„]|[`]+)", u" $1 "},
             {u"^\"", u"``"},
             {u"(``)", u" $1 "},
             {u"([ \\(\\[{<])(\"|\\'{2})", u"$1 `` "},
             {u"(?i)(\\')(?!re|ve|ll|m|t|s|d|n)(\\w)\\b", u"$1 $2"},
             // PUNCTUATION
             {u"([^\\.])(\\.)([\\]\\)}>\"\\'»”’ ]*)\\s*$", u"$1 $2 $3 "},
             {u"([:,])([^\\d])", u" $1 $2"},
             {u"([:,])$", u" $1 "},
             {u"\\.{2,}", u" $0 "},
             {u"[;@#$%&]", u" $0 "},
             {u"([^\\.])(\\.)([\\]\\)}>\"\\']*)\\s*$", u"$1 $2$3 "},
             {u"[?!]", u" $0 "},
             {u"([^'])' ", u"$1 ' "},
             {u"[*]", u" $0 "},
             // PARENS_BRACKETS, DOUBLE_DASHES
             {u"[\\]\\[\\(\\)\\{\\}\\<\\>]", u" $0 "},
             {u"--", u" -- "},
         }) {
      before_padding.push_back(compile(p, r));
    }
    for (auto [p, r] : std::initializer_list<std::pair<const char16_t*, const char16_t*>>{
             // ENDING_QUOTES
             {u"([»”’])", u" $1 "},
             {u"''", u" '' "},
             {u"\"", u" '' "},
             {u"([^' ])('[sS]|'[mM]|'[dD]|') ", u"$1 $2 "},
             {u"([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ", u"$1 $2 "},
             // CONTRACTIONS2, CONTRACTIONS3
             {u"(?i)\\b(can)(not)\\b", u" $1 $2 "},
             {u"(?i)\\b(d)('ye)\\b", u" $1 $2 "},
             {u"(?i)\\b(gim)(me)\\b", u" $1 $2 "},
             {u"(?i)\\b(gon)(na)\\b", u" $1 $2 "},
             {u"(?i)\\b(got)(ta)\\b", u" $1 $2 "},
             {u"(?i)\\b(lem)(me)\\b", u" $1 $2 "},
             {u"(?i)\\b(more)('n)\\b", u" $1 $2 "},
             {u"(?i)\\b(wan)(na)(?=\\s)", u" $1 $2 "},
             {u"(?i) ('t)(is)\\b", u" $1 $2 "},
             {u"(?i) ('t)(was)\\b", u" $1 $2 "},
         }) {
      after_padding.push_back(compile(p, r));
    }
  }
};

const Rules& rules() {
  static const Rules instance;
  return instance;
}

icu::UnicodeString substitute(const std::vector<Substitution>& list, icu::UnicodeString text) {
  for (const auto& s : list) {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::RegexMatcher> matcher(s.pattern->matcher(text, status));
    icu::UnicodeString replaced = matcher->replaceAll(s.replacement, status);
    if (U_FAILURE(status)) throw Error(ExitCode::internal, "nltk-word tokenizer: regex substitution failed");
    text = replaced;
  }
  return text;
}

class TokenizerNltkWord : public Tokenizer {
 public:
  std::string name() const override { return "nltk-word"; }

  std::u32string tokenize(std::u32string_view line) const override {
    icu::UnicodeString text = icu::UnicodeString::fromUTF32(reinterpret_cast<const UChar32*>(line.data()),
                                                           static_cast<int32_t>(line.size()));
    text = substitute(rules().before_padding, text);
    text = icu::UnicodeString(u" ") + text + icu::UnicodeString(u" ");
    text = substitute(rules().after_padding, text);
    std::u32string out(static_cast<std::size_t>(text.countChar32()), U'\0');
    UErrorCode status = U_ZERO_ERROR;
    text.toUTF32(reinterpret_cast<UChar32*>(out.data()), static_cast<int32_t>(out.size()), status);
    return text::squeeze_spaces(out);
  }
};

}  // namespace

std::unique_ptr<Tokenizer> make_nltk_word() { return std::make_unique<TokenizerNltkWord>(); }

}  // namespace evalcli::tokenizers
