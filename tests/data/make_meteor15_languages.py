#!/usr/bin/env python3
"""Writes tests/data/meteor15_languages/goldens.json and stems.tsv (issue 19 item 2): METEOR 1.5
outside English, as its jar computes it.

The jar: github.com/cmu-mtlab/meteor commit 57a9ec5 (METEOR 1.5), built with
  mkdir build && javac --release 8 -encoding UTF-8 -d build $(find src -name '*.java') &&
  jar cfe meteor-1.5.jar Meteor -C build . -C resources .
(java 17). Per case it runs
  java -Xmx2G -jar meteor-1.5.jar hyp.LANG ref.LANG -l LANG -norm -m MODULES [-s resources/function/NAME.words]
and keeps the segment scores and the final score (Java's Double.toString, read back as doubles).
Without -s the jar uses english.words for every language (MeteorConfiguration.setLanguage never
updates the word list); with -s it is the language's own list (evalcli --function-words language).
The paraphrase tables are not available, so the modules are exact (+ stem where METEOR has a stemmer).

stems.tsv: algorithm, word, the jar's stem (Constants.newStemmer(lang).stem(word), run by the
StemWords class below), for the words where libstemmer 2.2 and the jar's classes disagreed on the
WMT22 en-de/en-ru references and systems and on 200,000 random words per language, plus words where
they agree. Regenerate with:
  /usr/bin/python3 tests/data/make_meteor15_languages.py METEOR_JAR RESOURCES_DIR STEM_WORDS_CLASSPATH
where STEM_WORDS_CLASSPATH holds StemWords.class (the source is printed by --stem-words-source).
Only stems.tsv (goldens.json untouched; the jar's classes suffice):
  /usr/bin/python3 tests/data/make_meteor15_languages.py --stems-only CLASSPATH
with CLASSPATH holding the jar's classes and StemWords.class (e.g. build:. from the commands above).

Random words (the 200,000 per language of docs/meteor.md "Stemming"):
  /usr/bin/python3 tests/data/make_meteor15_languages.py --random-words LANG N SEED [EXTRA_LETTERS] > LANG.words
half of them 1-14 random letters (70% a-z, 30% accented Latin letters and EXTRA_LETTERS), half up to 8
such letters followed by 1-3 suffixes of the jar's LANG class (METEOR_SRC, default /tmp/meteor/src), a tenth
of those capitalised or upper-cased. Issue 19's leftovers were checked with seeds 19 (no extra letters) and
2026 (EXTRA_LETTERS "ŁłœŒжЖ中文😀𝔘\u0085\u0092×0123456789"), then
  java -cp CLASSPATH StemWords LANG < LANG.words > LANG.jar
  ./stem_words LANG < LANG.words | cmp - LANG.jar
where stem_words is evalcli's JarStemmer on stdin (source: --stem-harness-source; build:
  g++ -std=c++20 -O2 -Iinclude -Isrc -Isrc/metrics/meteor stem_words.cpp src/metrics/meteor/meteor15_stemmer.cpp
      src/text/utf8.cpp -lstemmer -lfmt -o stem_words)."""
import json, os, subprocess, sys

STEM_WORDS = r'''
import java.io.*;
import java.nio.charset.StandardCharsets;
public class StemWords {
  public static void main(String[] a) throws Exception {
    edu.cmu.meteor.aligner.Stemmer s = edu.cmu.meteor.util.Constants.newStemmer(
        edu.cmu.meteor.util.Constants.normLanguageName(a[0]));
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, "UTF-8");
    for (String w; (w = in.readLine()) != null;) out.println(s.stem(w));
    out.flush();
  }
}
'''

STEM_HARNESS = r'''
#include <iostream>
#include <string>
#include "evalcli/text/utf8.hpp"
#include "meteor15_internal.hpp"
int main(int, char** argv) {
  evalcli::meteor15::JarStemmer stemmer(argv[1]);
  std::string line;
  while (std::getline(std::cin, line)) {
    std::u32string word;
    evalcli::utf8::decode(line, word);
    std::cout << evalcli::utf8::encode(stemmer.stem(word)) << '\n';
  }
}
'''


def random_words(lang, n, seed, extra):
    import random, re
    rng = random.Random(seed)
    letters, accents = "abcdefghijklmnopqrstuvwxyz", "àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿœß" + extra
    source = os.path.join(os.environ.get("METEOR_SRC", "/tmp/meteor/src"), "org/tartarus/snowball/ext", lang + "Stemmer.java")
    with open(source, encoding="utf-8") as f:
        suffixes = sorted({re.sub(r"\\u([0-9A-Fa-f]{4})", lambda m: chr(int(m.group(1), 16)), s)
                           for s in re.findall(r'new Among \( "([^"]*)"', f.read())} - {""})
    letter = lambda: rng.choice(letters) if rng.random() < 0.7 else rng.choice(accents)
    words = []
    for i in range(n):
        if i % 2 == 0:
            word = "".join(letter() for _ in range(rng.randint(1, 14)))
        else:
            word = "".join(letter() for _ in range(rng.randint(0, 8)))
            for _ in range(rng.randint(1, 3)):
                word += rng.choice(suffixes)
            if rng.random() < 0.1:
                word = word.upper() if rng.random() < 0.5 else word.capitalize()
        words.append(word)
    return words


if sys.argv[1:] == ["--stem-words-source"]:
    print(STEM_WORDS)
    sys.exit(0)
if sys.argv[1:] == ["--stem-harness-source"]:
    print(STEM_HARNESS)
    sys.exit(0)
if sys.argv[1:2] == ["--random-words"]:
    import re  # \uXXXX in EXTRA_LETTERS is that character
    extra = re.sub(r"\\u([0-9A-Fa-f]{4})", lambda m: chr(int(m.group(1), 16)), sys.argv[5]) if len(sys.argv) > 5 else ""
    sys.stdout.write("\n".join(random_words(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), extra)) + "\n")
    sys.exit(0)

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "meteor15_languages")
stems_only = sys.argv[1:2] == ["--stems-only"]
if stems_only:
    jar, classpath = sys.argv[2], ""
else:
    jar, resources, classpath = sys.argv[1:4]

CASES = [  # file suffix, -l, modules, own function-word list (or None)
    ("de", "de", "exact stem", None), ("de", "de", "exact stem", "german"),
    ("fr", "fr", "exact stem", None), ("fr", "fr", "exact stem", "french"),
    ("cs", "cz", "exact", None), ("cs", "cz", "exact", "czech"),
    ("ru", "ru", "exact stem", None), ("ru", "ru", "exact stem", "russian"),
]


def run_jar(suffix, lang, modules, words):
    args = ["java", "-Xmx2G", "-jar", jar, "hyp." + suffix, "ref." + suffix, "-l", lang, "-norm", "-m", modules]
    shown = "java -Xmx2G -jar meteor-1.5.jar hyp.{} ref.{} -l {} -norm -m '{}'".format(suffix, suffix, lang, modules)
    if words:
        args += ["-s", os.path.join(resources, "function", words + ".words")]
        shown += " -s resources/function/{}.words".format(words)
    out = subprocess.run(args, cwd=here, capture_output=True, text=True, check=True).stdout
    segments, final, eval_id = [], None, None
    for line in out.splitlines():
        if line.startswith("Segment ") and " score:" in line:
            segments.append(float(line.split("\t")[-1]))
        elif line.startswith("Final score:"):
            final = float(line.split()[-1])
        elif line.startswith("Eval ID:"):
            eval_id = line.split()[-1]
    return {"command": shown, "hyp": "hyp." + suffix, "ref": "ref." + suffix, "lang": lang, "modules": modules,
            "function_words": "language" if words else "english", "eval_id": eval_id,
            "segments": segments, "final": final}


def stems(algorithm, words):
    out = subprocess.run(["java", "-cp", jar + (os.pathsep + classpath if classpath else ""), "StemWords", algorithm],
                         input="\n".join(words) + "\n", capture_output=True, text=True, check=True).stdout
    return out.split("\n")[:-1]


if not stems_only:
    goldens = {"tool": "METEOR 1.5 jar, cmu-mtlab/meteor@57a9ec5, javac --release 8, java 17",
               "cases": [run_jar(*c) for c in CASES]}
    with open(os.path.join(here, "goldens.json"), "w", encoding="utf-8") as f:
        json.dump(goldens, f, ensure_ascii=False, indent=1)
        f.write("\n")

with open(os.path.join(here, "stem_words.txt"), encoding="utf-8") as f:
    rows = [line.rstrip("\n").split("\t") for line in f if line.strip() and not line.startswith("#")]
by_algorithm = {}
for algorithm, word in rows:
    by_algorithm.setdefault(algorithm, []).append(word)
with open(os.path.join(here, "stems.tsv"), "w", encoding="utf-8") as f:
    f.write("# algorithm<TAB>word<TAB>stem by METEOR 1.5's jar (tests/data/make_meteor15_languages.py)\n")
    for algorithm, words in by_algorithm.items():
        for word, stem in zip(words, stems(algorithm, words)):
            f.write("{}\t{}\t{}\n".format(algorithm, word, stem))
