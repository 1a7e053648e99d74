#!/usr/bin/env python3
"""Writes tests/data/sacrebleu_encodings/ (issue 19 item 5, `evalcli sacrebleu -e`): the codecs evalcli
decodes as Python's codecs do (src/io/byte_codec.cpp), checked against Python and against SacreBLEU itself.

cases.json holds:
- tables: for every single-byte codec, Python's decoding of each byte 0..255 alone (a code point, or
  null where bytes([b]).decode(codec) raises UnicodeDecodeError);
- names: encoding names and what codecs.lookup(name).name says (null: LookupError);
- unit_tables: for UTF-16/32 (-le, -be), Python's decoding of each code unit alone (after a BOM for
  "utf-16"/"utf-32"), as runs [first, last, "self" | "error"]; UTF-32: up to U+10FFFF and 5 beyond;
- unit_pairs: every high surrogate followed by every low one, decoded by Python: FNV-1a 64 of the UTF-8;
- unit_edges: edge inputs (BOMs, surrogates, truncation, CR/LF) with the lines Python's open(...,
  newline="\n") (file) and io.TextIOWrapper (stdin: universal newlines) give, or the error's reason,
  line and byte within that line;
- multibyte: gb18030, cp932, gbk and cp949, every 1- and 2-byte string (gb18030: and every 4-byte form) decoded by
  bytes.decode: the count decoded and FNV-1a 64 of UTF-8(text) + LF, or FF LF where Python refuses;
- cases: short real texts (pangrams; WMT22 lines from ../shared/corpora for cp437, cp866, the UTF-16/32
  codecs, gb18030, cp932, gbk; ../shared/corpora/edge for cp949), encoded with each codec, REF.*/HYP.*, and SacreBLEU 2.6.0's stdout, exit
  code and last stderr line for `-m bleu chrf ter -e NAME` (NAME spelt variously); files Python refuses
  (cp1252's undefined 0x81, UTF-16 without BOM, a lone surrogate, an illegal GB18030 sequence, GBK's 0x80); the
  ISO-8859-2 and a CRLF UTF-16 hypothesis file once more on standard input (`... REF -m ... -e NAME < HYP`).
SacreBLEU: a checkout of github.com/mjpost/sacrebleu tag v2.6.0 with sacrebleu/version.py written by
hand (`__version__ = "2.6.0"`); Debian python3-numpy, -regex, -tabulate, -portalocker, -lxml. Each
case runs in this folder as
  PYTHONPATH=<checkout> /usr/bin/python3 -m sacrebleu REF -i HYP -m bleu chrf ter -e NAME
Command: /usr/bin/python3 tests/data/make_sacrebleu_encodings.py SACREBLEU_CHECKOUT
--print-table prints the single-byte rows of src/io/byte_codec.cpp from Python's encodings package
(cp437/cp866's overrides of ICU's code points are added by hand: docs/errors.md)."""
import codecs, io, json, os, re, subprocess, sys, unicodedata
import encodings.aliases

MODULES = (["latin_1"] + ["iso8859_%d" % i for i in list(range(2, 12)) + [13, 14, 15]] +
           ["cp%d" % i for i in range(1250, 1259)] + ["cp874", "koi8_r", "koi8_u", "mac_roman", "cp437", "cp866"])
UNIT_MODULES = ["utf_16", "utf_16_le", "utf_16_be", "utf_32", "utf_32_le", "utf_32_be"]
ICU = {**{"latin_1": "ISO-8859-1"}, **{"iso8859_%d" % i: "ISO-8859-%d" % i for i in range(2, 16)},
       **{"cp%d" % i: "windows-%d" % i for i in range(1250, 1259)},
       "cp874": "windows-874", "koi8_r": "KOI8-R", "koi8_u": "KOI8-U", "mac_roman": "macintosh",
       "cp437": "IBM437", "cp866": "IBM866"}


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
         "arabic", "cyrillic", "latin9", "L9", "iso-ir-199", "utf-16", "shift_jis", "cp437", "gbk", "bogus", "",
         "UTF-16", "utf16", "U16", "utf_16", "utf-16le", "UTF-16-LE", "utf_16_be", "UTF-16BE", "unicodelittleunmarked",
         "UnicodeBigUnmarked", "utf-32", "UTF32", "u32", "utf-32le", "UTF-32-BE", "utf_32be", "utf.16", "utf-16-sig",
         "utf-7", "ucs-2", "IBM437", "437", "cp866", "ibm866", "866", "csIBM866", "cp850", "cp932", "euc_jp", "big5",
         "gb18030", "GB18030-2000", "gb-18030", "GB_18030", "MS932", "ms-kanji", "windows-31j", "932", "shift_jis",
         "GBK", "cp936", "936", "MS936", "CP949", "uhc", "ms949", "949", "euc-kr", "ks_c_5601-1987"]
names = []
for n in NAMES:
    try:
        names.append([n, codecs.lookup(n).name])
    except LookupError:
        names.append([n, None])

def unit_runs(module, width, limit):
    """Python's decoding of each code unit alone ("utf-16"/"utf-32": after a little-endian BOM, as a file
    needs one): runs [first, last, kind], kind "self" (the unit's code point) or "error" (UnicodeDecodeError)."""
    order = "big" if module.endswith("_be") else "little"
    bom = b"" if module.endswith(("_le", "_be")) else (codecs.BOM_UTF16_LE if width == 2 else codecs.BOM_UTF32_LE)
    runs = []
    for unit in list(range(limit)) + ([0x110000, 0x10FFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF] if width == 4 else []):
        try:
            text = (bom + unit.to_bytes(width, order)).decode(module)
            kind = "self" if text == chr(unit) else ("empty" if text == "" else "other")
        except UnicodeDecodeError:
            kind = "error"
        if runs and runs[-1][2] == kind and runs[-1][1] == unit - 1:
            runs[-1][1] = unit
        else:
            runs.append([unit, unit, kind])
    return runs


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def all_surrogate_pairs(module):
    """Every high surrogate followed by every low one, in the codec's byte order (utf-16: no BOM, so
    little-endian): Python's decoding as UTF-8, by its length and FNV-1a 64 hash."""
    order = "big" if module.endswith("_be") else "little"
    data = b"".join(hi.to_bytes(2, order) + lo.to_bytes(2, order)
                    for hi in range(0xD800, 0xDC00) for lo in range(0xDC00, 0xE000))
    text = data.decode(module).encode("utf-8")
    return {"bytes": len(data), "utf8_bytes": len(text), "fnv1a64": fnv1a64(text)}


def multibyte_strings(module):
    """Every 1- and 2-byte string, then (gb18030) every 4-byte form 81-FE 30-39 81-FE 30-39."""
    yield from (bytes([a]) for a in range(256))
    yield from (bytes([a, b]) for a in range(256) for b in range(256))
    if module == "gb18030":
        yield from (bytes([a, b, c, d]) for a in range(0x81, 0xFF) for b in range(0x30, 0x3A)
                    for c in range(0x81, 0xFF) for d in range(0x30, 0x3A))


def multibyte_digest(module):
    """Python's decoding of each multibyte_strings() string, as FNV-1a 64 of the concatenation of
    UTF-8(text) + LF, or FF LF where bytes.decode raises UnicodeDecodeError."""
    out, decoded, total = bytearray(), 0, 0
    for data in multibyte_strings(module):
        total += 1
        try:
            out += data.decode(module).encode("utf-8") + b"\n"
            decoded += 1
        except UnicodeDecodeError:
            out += b"\xff\n"
    return {"strings": total, "decoded": decoded, "fnv1a64": fnv1a64(out)}


UNIT_EDGES = [  # text with line ends; then raw byte strings built per codec below
    "plain\nsecond line\n", "no final newline", "crlf\r\nline\r\n", "cr\ronly\rhere", "mixed\r\n\r\n\n\rend",
    "\ufeffBOM kept by -le/-be, dropped by utf-16/utf-32\n", "twice \ufeff\ufeff\n", "\ufffe reversed BOM\n",
    "nul \x00 and U+2028 \u2028 and NEL \x85 are no line ends\n", "emoji \U0001F600 and \U00010348\n", "",
    "\n\n", "trailing space \u3000\n", "\u65e5\u672c\u8a9e\n",
]


def unit_edge_bytes(module):
    """(label, bytes) pairs: UNIT_EDGES encoded (after a little-endian BOM for "utf-16"/"utf-32", which
    need one), then BOM variants and bytes Python refuses."""
    width = 2 if "16" in module else 4
    from_bom = not module.endswith(("_le", "_be"))
    fixed = module + "_le" if from_bom else module
    order = "big" if module.endswith("_be") else "little"
    boms = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE) if width == 2 else (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)
    start = boms[0] if from_bom else b""
    unit = lambda u: u.to_bytes(width, order)
    enc = lambda text: text.encode(fixed)
    out = [("text %d" % i, start + enc(text)) for i, text in enumerate(UNIT_EDGES)]
    out += [("no BOM", enc("no\nBOM\n")), ("empty", b""), ("le BOM", boms[0] + "le\n".encode(module[:6] + "_le")),
            ("be BOM", boms[1] + "be\n".encode(module[:6] + "_be")), ("BOM only", boms[0]), ("be BOM only", boms[1]),
            ("one byte", b"a"), ("odd tail", start + enc("ab\n") + b"c"),
            ("error on line 3", start + enc("one\ntwo\nthr") + unit(0xDC00) + enc("ee\n")),
            ("error after CR", start + enc("one\rtwo\r\nthr") + unit(0xDC00)),
            ("be BOM then error", boms[1] + "x\ny".encode(module[:6] + "_be") + (0xDC00).to_bytes(width, "big"))]
    if width == 2:
        out += [("lone high", start + unit(0xD800) + enc("a\n")), ("lone low", start + unit(0xDC00) + enc("a\n")),
                ("reversed pair", start + unit(0xDC00) + unit(0xD800)),
                ("high high low", start + unit(0xD800) + unit(0xD800) + unit(0xDC00)),
                ("high at end", start + enc("a") + unit(0xDBFF)), ("high then 1 byte", start + unit(0xD800) + b"x"),
                ("high then newline", start + unit(0xD83D) + enc("\n")),
                ("pair", start + unit(0xDBFF) + unit(0xDFFF) + enc("\n"))]
    else:
        out += [("surrogate", start + unit(0xD800)), ("past U+10FFFF", start + enc("a\n") + unit(0x110000)),
                ("top bit", start + unit(0xFFFFFFFF)), ("two bytes", start + b"a\x00"),
                ("three bytes", start + enc("a") + b"b\x00\x00"), ("max", start + unit(0x10FFFF) + enc("\n"))]
    return out


def python_lines(data, module, universal):
    """The lines SacreBLEU reads (open(..., newline="\n") for files, universal newlines for stdin), without
    their ends; or, where Python raises, where: the error's line and its byte within that line's raw bytes."""
    try:
        stream = io.TextIOWrapper(io.BytesIO(data), encoding=module, newline=None if universal else "\n")
        return {"lines": [line[:-1] if line.endswith("\n") else line for line in stream]}
    except UnicodeDecodeError:
        pass
    except UnicodeError as e:  # encodings/utf_16.py, utf_32.py: "UTF-16 stream does not start with BOM"
        return {"error": str(e), "line": 1, "byte": 1}
    try:
        data.decode(module)
        raise AssertionError("the stream failed but not the whole bytes")
    except UnicodeDecodeError as e:
        start, reason = e.start, e.reason
    prefix = codecs.getincrementaldecoder(module)().decode(data[:start])
    ends = [m.end() for m in re.finditer("\r\n|\r|\n" if universal else "\n", prefix)]
    line = len(ends) + 1
    line_start_text = prefix[:ends[-1]] if ends else ""
    # The raw bytes before that line: its text re-encoded, plus the BOM "utf-16"/"utf-32" dropped.
    fixed, bom = module, 0
    if module in ("utf_16", "utf_32"):
        boms = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE) if module == "utf_16" else (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)
        head = data[:len(boms[0])]
        bom = len(head) if head in boms else 0
        fixed = module + ("_be" if head == boms[1] else "_le")
    raw_before = bom + len(line_start_text.encode(fixed)) if ends else 0
    return {"error": reason, "line": line, "byte": start - raw_before + 1}


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

# Real text (WMT22 references and one system's output, the first 8 lines both of which the codec can
# encode) for cp437, cp866 and the UTF-16/32 codecs; "utf-16"/"utf-32" files get Python's BOM.
CORPORA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "corpora", "wmt22")
REAL = [  # -e NAME, module, reference, hypothesis
    ("IBM437", "cp437", "en-de/ref.A.de", "en-de/hyp.Online-B.de"),
    ("866", "cp866", "en-ru/ref.A.ru", "en-ru/hyp.Online-B.ru"),
    ("UTF-16", "utf_16", "en-ja/ref.A.ja", "en-ja/hyp.NT5.ja"),
    ("utf-16le", "utf_16_le", "en-zh/ref.A.zh", "en-zh/hyp.Online-B.zh"),
    ("UnicodeBigUnmarked", "utf_16_be", "en-ru/ref.A.ru", "en-ru/hyp.PROMT.ru"),
    ("u32", "utf_32", "en-de/ref.A.de", "en-de/hyp.PROMT.de"),
    ("UTF-32LE", "utf_32_le", "en-ja/ref.A.ja", "en-ja/hyp.KYB.ja"),
    ("utf_32_be", "utf_32_be", "en-zh/ref.A.zh", "en-zh/hyp.HuaweiTSC.zh"),
    ("GB18030", "gb18030", "en-zh/ref.A.zh", "en-zh/hyp.LanguageX.zh"),
    ("ms_kanji", "cp932", "en-ja/ref.A.ja", "en-ja/hyp.Online-B.ja"),
    ("CP936", "gbk", "en-zh/ref.B.zh", "en-zh/hyp.Online-G.zh"),
    ("uhc", "cp949", "../edge/edge.ref.A", "../edge/edge.hyp"),
]


def encodable_pairs(module, ref_path, hyp_path, count=8):
    with open(os.path.join(CORPORA, ref_path), encoding="utf-8") as f:
        refs = f.read().split("\n")
    with open(os.path.join(CORPORA, hyp_path), encoding="utf-8") as f:
        hyps = f.read().split("\n")
    pairs = []
    for ref, hyp in zip(refs, hyps):
        try:
            ref.encode(module), hyp.encode(module)
        except UnicodeEncodeError:
            continue
        pairs.append((ref, hyp))
        if len(pairs) == count:
            break
    return pairs


def encode_lines(lines, module, end="\n"):
    text = "".join(line + end for line in lines)
    return text.encode(module)  # "utf-16"/"utf-32": one BOM first


for index, (name, module, ref_path, hyp_path) in enumerate(REAL, len(TEXTS)):
    stem = "%02d.%s" % (index, codecs.lookup(module).name)
    pairs = encodable_pairs(module, ref_path, hyp_path)
    with open(os.path.join(here, stem + ".ref"), "wb") as f:
        f.write(encode_lines([r for r, _ in pairs], module))
    with open(os.path.join(here, stem + ".hyp"), "wb") as f:
        f.write(encode_lines([h for _, h in pairs], module))
    cases.append({"ref": stem + ".ref", "hyp": stem + ".hyp", "encoding": name, "source": "wmt22/" + ref_path + ", " + hyp_path})
# UTF-16 with CRLF line ends: in a file the CR stays (removed by rstrip), on standard input it ends the line.
utf16_crlf = "%02d.utf-16.crlf" % (len(TEXTS) + len(REAL))
pairs = encodable_pairs("utf_16", "de-en/ref.A.en", "de-en/hyp.LT22.en")
with open(os.path.join(here, utf16_crlf + ".ref"), "wb") as f:
    f.write(encode_lines([r for r, _ in pairs], "utf_16", "\r\n"))
with open(os.path.join(here, utf16_crlf + ".hyp"), "wb") as f:
    f.write(encode_lines([h for _, h in pairs], "utf_16", "\r\n"))
cases.append({"ref": utf16_crlf + ".ref", "hyp": utf16_crlf + ".hyp", "encoding": "utf16", "source": "wmt22/de-en/ref.A.en, hyp.LT22.en"})
cases.append(dict(cases[-1], stdin=True))
# Refused by Python: a UTF-16 file without BOM, a lone surrogate on line 2 (SacreBLEU: traceback, exit 1).
with open(os.path.join(here, "nobom.utf-16"), "wb") as f:
    f.write("no BOM\n".encode("utf-16-le"))
cases.append({"ref": "nobom.utf-16", "hyp": "nobom.utf-16", "encoding": "utf-16"})
with open(os.path.join(here, "surrogate.utf-16-le"), "wb") as f:
    f.write("fine\nbad ".encode("utf-16-le") + b"\x00\xdc" + " unit\n".encode("utf-16-le"))
cases.append({"ref": "surrogate.utf-16-le", "hyp": "surrogate.utf-16-le", "encoding": "utf-16-le"})
# GB18030: A8BC, where GB18030-2000 (Python) and -2005 (ICU) differ; a lead byte without its trail byte.
with open(os.path.join(here, "swapped.gb18030"), "wb") as f:
    f.write("ḿ and \ue7c7\n".encode("gb18030") + "a \ue7c7 b\n".encode("gb18030"))
cases.append({"ref": "swapped.gb18030", "hyp": "swapped.gb18030", "encoding": "gb18030"})
with open(os.path.join(here, "illegal.gb18030"), "wb") as f:
    f.write("中文\n".encode("gb18030") + b"ab \x81\x20 cd\n")
cases.append({"ref": "illegal.gb18030", "hyp": "illegal.gb18030", "encoding": "gb18030"})
# gbk: the euro byte 0x80, which ICU's GBK decodes and Python's refuses.
with open(os.path.join(here, "euro.gbk"), "wb") as f:
    f.write("中文\n".encode("gbk") + b"price 5\x80\n")
cases.append({"ref": "euro.gbk", "hyp": "euro.gbk", "encoding": "gbk"})


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

multibyte = {m: multibyte_digest(m) for m in ("gb18030", "cp932", "gbk", "cp949")}
unit_tables, unit_pairs, unit_edges = {}, {}, []
for m in UNIT_MODULES:
    name = codecs.lookup(m).name
    unit_tables[name] = unit_runs(m, 2 if "16" in m else 4, 0x10000 if "16" in m else 0x110000)
    if "16" in m:
        unit_pairs[name] = all_surrogate_pairs(m)
    for label, data in unit_edge_bytes(m):
        unit_edges.append({"codec": name, "label": label, "hex": data.hex(),
                           "file": python_lines(data, m, False), "stdin": python_lines(data, m, True)})

with open(os.path.join(here, "cases.json"), "w", encoding="utf-8") as f:
    json.dump({"tool": "SacreBLEU 2.6.0 (github.com/mjpost/sacrebleu v2.6.0), /usr/bin/python3 " + sys.version.split()[0],
               "tables": tables, "names": names, "cases": cases, "unit_tables": unit_tables, "unit_pairs": unit_pairs,
               "unit_edges": unit_edges, "multibyte": multibyte}, f, ensure_ascii=False, indent=1)
    f.write("\n")
