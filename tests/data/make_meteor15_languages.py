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
where STEM_WORDS_CLASSPATH holds StemWords.class (the source is printed by --stem-words-source)."""
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

if sys.argv[1:] == ["--stem-words-source"]:
    print(STEM_WORDS)
    sys.exit(0)

jar, resources, classpath = sys.argv[1:4]
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "meteor15_languages")

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
    out = subprocess.run(["java", "-cp", jar + os.pathsep + classpath, "StemWords", algorithm],
                         input="\n".join(words) + "\n", capture_output=True, text=True, check=True).stdout
    return out.split("\n")[:-1]


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
