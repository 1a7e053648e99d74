#!/usr/bin/env python3
"""Writes tests/data/sacrebleu_encodings/ (issue 19 item 5, `evalcli sacrebleu -e`): the single-byte
codecs evalcli decodes as Python's codecs do, checked against Python and against SacreBLEU itself.

- tables.json: for every codec of src/io/byte_codec.cpp, Python's decoding of each byte 0..255 alone
  (a code point, or null where bytes([b]).decode(codec) raises UnicodeDecodeError);
- names.json: encoding names and what codecs.lookup(name).name says (null: LookupError);
- REF.*/HYP.* and cases.json: short real texts in each codec's script, encoded with it, and SacreBLEU
  2.6.0's stdout and exit code for `-m bleu chrf ter -e NAME` (NAME spelt variously); a cp1252 file
  with the undefined byte 0x81 (SacreBLEU: UnicodeDecodeError traceback, exit 1); the ISO-8859-2
  hypotheses once more on standard input (`... REF -m bleu chrf ter -e NAME < HYP`).
SacreBLEU: a checkout of github.com/mjpost/sacrebleu tag v2.6.0 with sacrebleu/version.py written by
hand (`__version__ = "2.6.0"`); Debian python3-numpy, -regex, -tabulate, -portalocker, -lxml. Each
case runs in this folder as
  PYTHONPATH=<checkout> /usr/bin/python3 -m sacrebleu REF -i HYP -m bleu chrf ter -e NAME
Command: /usr/bin/python3 tests/data/make_sacrebleu_encodings.py SACREBLEU_CHECKOUT
--print-table prints the C++ table of src/io/byte_codec.cpp from Python's encodings package."""
import codecs, json, os, subprocess, sys, unicodedata
import encodings.aliases

MODULES = (["latin_1"] + ["iso8859_%d" % i for i in list(range(2, 12)) + [13, 14, 15]] +
           ["cp%d" % i for i in range(1250, 1259)] + ["cp874", "koi8_r", "koi8_u", "mac_roman"])
ICU = {**{"latin_1": "ISO-8859-1"}, **{"iso8859_%d" % i: "ISO-8859-%d" % i for i in range(2, 16)},
       **{"cp%d" % i: "windows-%d" % i for i in range(1250, 1259)},
       "cp874": "windows-874", "koi8_r": "KOI8-R", "koi8_u": "KOI8-U", "mac_roman": "macintosh"}


def undefined_bytes(module):
    out = []
    for b in range(256):
        try:
            bytes([b]).decode(module)
        except UnicodeDecodeError:
            out.append(b)
    return out


if sys.argv[1:] == ["--print-table"]:
    for m in MODULES:
        names = [m] + sorted(k for k, v in encodings.aliases.aliases.items() if v == m)
        print('      {"%s", "%s", {%s}, "%s"},' % (codecs.lookup(m).name, ICU[m], ", ".join('"%s"' % n for n in names),
                                                  "".join("\\x%02X" % b for b in undefined_bytes(m))))
    sys.exit(0)

checkout = sys.argv[1]
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sacrebleu_encodings")
os.makedirs(here, exist_ok=True)

tables = {}
for m in MODULES:
    row = []
    for b in range(256):
        try:
            row.append(ord(bytes([b]).decode(m)))
        except UnicodeDecodeError:
            row.append(None)
    tables[codecs.lookup(m).name] = row

NAMES = ["latin-1", "ISO-8859-2", "iso8859-2", "ISO_8859-2:1987", "iso 8859 2", "iso.8859.2", "latin2", "L2",
         "latin-2", "Latin 2", "iso8859.2", "windows-1250", "CP1250", "1250", "cp-1250", "koi8-r", "KOI8_U",
         "cskoi8r", "mac-roman", "macintosh", "MacRoman", "thai", "cp874", "windows-874", "greek8", "hebrew",
         "arabic", "cyrillic", "latin9", "L9", "iso-ir-199", "utf-16", "shift_jis", "cp437", "gbk", "bogus", ""]
names = []
for n in NAMES:
    try:
        names.append([n, codecs.lookup(n).name])
    except LookupError:
        names.append([n, None])

TEXTS = {  # codec name as given to -e: (module, reference lines)
    "ISO-8859-2": ("iso8859_2", ["Příliš žluťoučký kůň úpěl ďábelské ódy.", "Zażółć gęślą jaźń, a potem idź spać."]),
    "latin3": ("iso8859_3", ["Eĥoŝanĝo ĉiuĵaŭde estas bona.", "Ĝi estas ĉarma ŝipo."]),
    "iso8859-4": ("iso8859_4", ["Ģērbšanās kā ļoti gara čūska.", "Ąžuolas ėjo į mišką."]),
    "cyrillic": ("iso8859_5", ["Съешь же ещё этих мягких французских булок, да выпей чаю.", "Широкая электрификация южных губерний."]),
    "arabic": ("iso8859_6", ["نص حكيم له سر قاطع وذو شأن عظيم", "صف خلق خود كمثل الشمس إذ بزغت"]),
    "greek8": ("iso8859_7", ["Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.", "Γαζίες και μυρτιές δεν θα βρω."]),
    "hebrew": ("iso8859_8", ["דג סקרן שט בים מאוכזב ולפתע מצא חברה", "עטלף אבק נס דרך מזגן שהתפוצץ כי חם"]),
    "latin5": ("iso8859_9", ["Pijamalı hasta yağız şoföre çabucak güvendi.", "Öküz ile inek çayırda."]),
    "L6": ("iso8859_10", ["Kæmi ný öxi hér ykist þjófum nú bæði víl og ádrepa.", "Sámegiella ŋ ŧ đ."]),
    "thai": ("iso8859_11", ["เป็นมนุษย์สุดประเสริฐเลิศคุณค่า", "กว่าบรรดาฝูงสัตว์เดรัจฉาน"]),
    "latin7": ("iso8859_13", ["Įlinkdama fechtuotojo špaga sublykčiojusi.", "Ģērbšanās kā ļoti gara čūska."]),
    "iso-ir-199": ("iso8859_14", ["Parciais fy jac codi baw hud llawn dŵr ger tŷ Mabon.", "Ŵyn a ŷd."]),
    "latin9": ("iso8859_15", ["Voix ambiguë d'un cœur qui, au zéphyr, préfère les jattes de kiwis.", "Cela coûte 50 €."]),
    "windows-1250": ("cp1250", ["Příliš žluťoučký kůň úpěl ďábelské ódy.", "Zażółć gęślą jaźń, a potem idź spać."]),
    "1251": ("cp1251", ["Съешь же ещё этих мягких французских булок, да выпей чаю.", "Чуєш їх, доцю, га?"]),
    "cp1252": ("cp1252", ["Voix ambiguë d'un cœur qui, au zéphyr, préfère les jattes de kiwis.", "„Ça coûte 50 €“ – dit-il…"]),
    "CP1253": ("cp1253", ["Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.", "Ο καφές είναι «ζεστός»."]),
    "windows_1254": ("cp1254", ["Pijamalı hasta yağız şoföre çabucak güvendi.", "Öküz ile inek çayırda."]),
    "cp1255": ("cp1255", ["דג סקרן שט בים מאוכזב ולפתע מצא חברה", "עטלף אבק נס דרך מזגן שהתפוצץ כי חם"]),
    "cp1256": ("cp1256", ["نص حكيم له سر قاطع وذو شأن عظيم", "گچ پژوهش"]),
    "cp1257": ("cp1257", ["Įlinkdama fechtuotojo špaga sublykčiojusi.", "Ģērbšanās kā ļoti gara čūska."]),
    "cp1258": ("cp1258", ["Tôi yêu tiếng mẹ đẻ của tôi.", "Đường phố Hà Giang rất đẹp."]),
    "cp874": ("cp874", ["เป็นมนุษย์สุดประเสริฐเลิศคุณค่า", "กว่าบรรดาฝูงสัตว์เดรัจฉาน"]),
    "KOI8-R": ("koi8_r", ["Съешь же ещё этих мягких французских булок, да выпей чаю.", "Широкая электрификация южных губерний."]),
    "koi8-u": ("koi8_u", ["Чуєш їх, доцю, га? Кумедна ж ти, прощайся без ґольфів!", "Єхидна, ґава, їжак."]),
    "macintosh": ("mac_roman", ["Voix ambiguë d'un cœur qui, au zéphyr, préfère les jattes de kiwis.", "Ça coûte 50 € – ≈ 3π."]),
}


def encode(text, module):
    out = b""
    for c in text:  # cp1258 has Vietnamese tone marks as combining characters only
        decomposed = unicodedata.normalize("NFD", c)
        for k in range(len(decomposed), 0, -1):  # the longest precomposed head the codec has
            try:
                out += (unicodedata.normalize("NFC", decomposed[:k]) + decomposed[k:]).encode(module)
                break
            except UnicodeEncodeError:
                if k == 1:
                    raise
    return out


def hypothesis(line):  # a system output: the last two words swapped, the first one dropped
    words = line.split()
    return " ".join(words[1:-2] + words[-1:] + words[-2:-1]) if len(words) > 3 else " ".join(words[::-1])


cases = []
for index, (name, (module, refs)) in enumerate(TEXTS.items()):
    stem = "%02d.%s" % (index, codecs.lookup(module).name)
    with open(os.path.join(here, stem + ".ref"), "wb") as f:
        f.write(b"".join(encode(line, module) + b"\n" for line in refs))
    with open(os.path.join(here, stem + ".hyp"), "wb") as f:
        f.write(b"".join(encode(hypothesis(line), module) + b"\n" for line in refs))
    cases.append({"ref": stem + ".ref", "hyp": stem + ".hyp", "encoding": name})
with open(os.path.join(here, "undefined.cp1252"), "wb") as f:
    f.write(b"fine\nbad \x81 byte\n")
cases.append({"ref": "undefined.cp1252", "hyp": "undefined.cp1252", "encoding": "cp1252"})
cases.append(dict(cases[0], stdin=True))  # the hypotheses on standard input: decoded with -e too

env = dict(os.environ, PYTHONPATH=checkout)
for case in cases:
    stdin = case.get("stdin", False)
    args = [case["ref"]] + ([] if stdin else ["-i", case["hyp"]]) + ["-m", "bleu", "chrf", "ter", "-e", case["encoding"]]
    with open(os.path.join(here, case["hyp"]), "rb") as f:
        hyp_bytes = f.read()
    p = subprocess.run(["/usr/bin/python3", "-m", "sacrebleu"] + args, cwd=here, env=env, capture_output=True,
                       input=hyp_bytes if stdin else b"")
    case["args"] = args
    case["exit_code"] = p.returncode
    case["stdout"] = p.stdout.decode("utf-8")
    case["stderr_last_line"] = p.stderr.decode("utf-8").rstrip("\n").split("\n")[-1]

with open(os.path.join(here, "cases.json"), "w", encoding="utf-8") as f:
    json.dump({"tool": "SacreBLEU 2.6.0 (github.com/mjpost/sacrebleu v2.6.0), /usr/bin/python3 " + sys.version.split()[0],
               "tables": tables, "names": names, "cases": cases}, f, ensure_ascii=False, indent=1)
    f.write("\n")
