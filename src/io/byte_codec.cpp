// Python's single-byte codecs through ICU's converters (include/evalcli/io/byte_codec.hpp).
// Which codecs, their names and the bytes Python leaves undefined come from
// Python 3.11's encodings package: tests/data/make_sacrebleu_encodings.py
// prints this table and checks that, for each of them, ICU's converter
// decodes every byte Python defines to the same code point (it maps some of
// the undefined ones, e.g. cp1252's 0x81, to C1 controls; those are refused here as
// Python refuses them). Left out because ICU and Python differ on defined bytes
// or sequences: cp437/cp866 (ICU swaps 0x1A 0x1C 0x7F), Shift_JIS, EUC-JP, GBK,
// GB2312, Big5, EUC-KR, and UTF-16/32 (BOM and byte-order defaults differ).
#include "evalcli/io/byte_codec.hpp"

#include <unicode/ucnv.h>

#include <algorithm>
#include <cctype>

#include "evalcli/core/error.hpp"

namespace evalcli {
namespace {

struct CodecEntry {
  const char* name;                 // Python's canonical name
  const char* icu;                  // ICU's converter
  std::vector<std::string> lookup;  // module name and encodings.aliases keys, normalised
  std::string_view undefined;       // bytes Python's decoding table leaves undefined
};

const std::vector<CodecEntry>& codec_table() {
  static const std::vector<CodecEntry> table = {
      {"iso8859-1", "ISO-8859-1", {"latin_1", "8859", "cp819", "csisolatin1", "ibm819", "iso8859", "iso8859_1",
                                   "iso_8859_1", "iso_8859_1_1987", "iso_ir_100", "l1", "latin", "latin1"}, ""},
      {"iso8859-2", "ISO-8859-2", {"iso8859_2", "csisolatin2", "iso_8859_2", "iso_8859_2_1987", "iso_ir_101", "l2", "latin2"}, ""},
      {"iso8859-3", "ISO-8859-3", {"iso8859_3", "csisolatin3", "iso_8859_3", "iso_8859_3_1988", "iso_ir_109", "l3", "latin3"}, "\xA5\xAE\xBE\xC3\xD0\xE3\xF0"},
      {"iso8859-4", "ISO-8859-4", {"iso8859_4", "csisolatin4", "iso_8859_4", "iso_8859_4_1988", "iso_ir_110", "l4", "latin4"}, ""},
      {"iso8859-5", "ISO-8859-5", {"iso8859_5", "csisolatincyrillic", "cyrillic", "iso_8859_5", "iso_8859_5_1988", "iso_ir_144"}, ""},
      {"iso8859-6", "ISO-8859-6", {"iso8859_6", "arabic", "asmo_708", "csisolatinarabic", "ecma_114", "iso_8859_6", "iso_8859_6_1987", "iso_ir_127"}, "\xA1\xA2\xA3\xA5\xA6\xA7\xA8\xA9\xAA\xAB\xAE\xAF\xB0\xB1\xB2\xB3\xB4\xB5\xB6\xB7\xB8\xB9\xBA\xBC\xBD\xBE\xC0\xDB\xDC\xDD\xDE\xDF\xF3\xF4\xF5\xF6\xF7\xF8\xF9\xFA\xFB\xFC\xFD\xFE\xFF"},
      {"iso8859-7", "ISO-8859-7", {"iso8859_7", "csisolatingreek", "ecma_118", "elot_928", "greek", "greek8", "iso_8859_7", "iso_8859_7_1987", "iso_ir_126"}, "\xAE\xD2\xFF"},
      {"iso8859-8", "ISO-8859-8", {"iso8859_8", "csisolatinhebrew", "hebrew", "iso_8859_8", "iso_8859_8_1988", "iso_ir_138"}, "\xA1\xBF\xC0\xC1\xC2\xC3\xC4\xC5\xC6\xC7\xC8\xC9\xCA\xCB\xCC\xCD\xCE\xCF\xD0\xD1\xD2\xD3\xD4\xD5\xD6\xD7\xD8\xD9\xDA\xDB\xDC\xDD\xDE\xFB\xFC\xFF"},
      {"iso8859-9", "ISO-8859-9", {"iso8859_9", "csisolatin5", "iso_8859_9", "iso_8859_9_1989", "iso_ir_148", "l5", "latin5"}, ""},
      {"iso8859-10", "ISO-8859-10", {"iso8859_10", "csisolatin6", "iso_8859_10", "iso_8859_10_1992", "iso_ir_157", "l6", "latin6"}, ""},
      {"iso8859-11", "ISO-8859-11", {"iso8859_11", "iso_8859_11", "iso_8859_11_2001", "thai"}, "\xDB\xDC\xDD\xDE\xFC\xFD\xFE\xFF"},
      {"iso8859-13", "ISO-8859-13", {"iso8859_13", "iso_8859_13", "l7", "latin7"}, ""},
      {"iso8859-14", "ISO-8859-14", {"iso8859_14", "iso_8859_14", "iso_8859_14_1998", "iso_celtic", "iso_ir_199", "l8", "latin8"}, ""},
      {"iso8859-15", "ISO-8859-15", {"iso8859_15", "iso_8859_15", "l9", "latin9"}, ""},
      {"cp1250", "windows-1250", {"cp1250", "1250", "windows_1250"}, "\x81\x83\x88\x90\x98"},
      {"cp1251", "windows-1251", {"cp1251", "1251", "windows_1251"}, "\x98"},
      {"cp1252", "windows-1252", {"cp1252", "1252", "windows_1252"}, "\x81\x8D\x8F\x90\x9D"},
      {"cp1253", "windows-1253", {"cp1253", "1253", "windows_1253"}, "\x81\x88\x8A\x8C\x8D\x8E\x8F\x90\x98\x9A\x9C\x9D\x9E\x9F\xAA\xD2\xFF"},
      {"cp1254", "windows-1254", {"cp1254", "1254", "windows_1254"}, "\x81\x8D\x8E\x8F\x90\x9D\x9E"},
      {"cp1255", "windows-1255", {"cp1255", "1255", "windows_1255"}, "\x81\x8A\x8C\x8D\x8E\x8F\x90\x9A\x9C\x9D\x9E\x9F\xCA\xD9\xDA\xDB\xDC\xDD\xDE\xDF\xFB\xFC\xFF"},
      {"cp1256", "windows-1256", {"cp1256", "1256", "windows_1256"}, ""},
      {"cp1257", "windows-1257", {"cp1257", "1257", "windows_1257"}, "\x81\x83\x88\x8A\x8C\x90\x98\x9A\x9C\x9F\xA1\xA5"},
      {"cp1258", "windows-1258", {"cp1258", "1258", "windows_1258"}, "\x81\x8A\x8D\x8E\x8F\x90\x9A\x9D\x9E"},
      {"cp874", "windows-874", {"cp874"}, "\x81\x82\x83\x84\x86\x87\x88\x89\x8A\x8B\x8C\x8D\x8E\x8F\x90\x98\x99\x9A\x9B\x9C\x9D\x9E\x9F\xDB\xDC\xDD\xDE\xFC\xFD\xFE\xFF"},
      {"koi8-r", "KOI8-R", {"koi8_r", "cskoi8r"}, ""},
      {"koi8-u", "KOI8-U", {"koi8_u"}, ""},
      {"mac-roman", "macintosh", {"mac_roman", "macintosh", "macroman"}, ""},
  };
  return table;
}

const CodecEntry* find_entry(std::string_view name) {
  const std::string normalized = normalize_python_encoding(name);
  std::string dots_as_underscores = normalized;
  std::replace(dots_as_underscores.begin(), dots_as_underscores.end(), '.', '_');
  for (const auto& entry : codec_table()) {
    const auto& names = entry.lookup;
    // encodings.search_function: the alias of the name, or of the name with '.' as '_'; else the module itself.
    if (std::find(names.begin() + 1, names.end(), normalized) != names.end() ||
        std::find(names.begin() + 1, names.end(), dots_as_underscores) != names.end() || names.front() == normalized) {
      return &entry;
    }
  }
  return nullptr;
}

std::array<char32_t, 256> icu_table(const CodecEntry& entry) {
  UErrorCode status = U_ZERO_ERROR;
  UConverter* converter = ucnv_open(entry.icu, &status);
  if (U_FAILURE(status)) throw Error(ExitCode::internal, std::string("ICU has no converter ") + entry.icu);
  ucnv_setToUCallBack(converter, UCNV_TO_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &status);
  std::array<char32_t, 256> table{};
  for (int byte = 0; byte < 256; ++byte) {
    ucnv_reset(converter);
    status = U_ZERO_ERROR;
    const char in = static_cast<char>(byte);
    const char* source = &in;
    UChar out[2];
    UChar* target = out;
    ucnv_toUnicode(converter, &target, out + 2, &source, &in + 1, nullptr, true, &status);
    table[static_cast<std::size_t>(byte)] = U_SUCCESS(status) && target == out + 1 ? out[0] : kUndefinedByte;
  }
  ucnv_close(converter);
  for (const char byte : entry.undefined) table[static_cast<unsigned char>(byte)] = kUndefinedByte;
  return table;
}

}  // namespace

std::string normalize_python_encoding(std::string_view name) {
  std::string normalized;
  bool punctuation = false;
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x80 && (std::isalnum(u) || c == '.')) {
      if (punctuation && !normalized.empty()) normalized += '_';
      normalized += static_cast<char>(std::tolower(u));
      punctuation = false;
    } else {
      punctuation = true;
    }
  }
  return normalized;
}

std::optional<ByteCodec> find_byte_codec(std::string_view name) {
  const CodecEntry* entry = find_entry(name);
  if (entry == nullptr) return std::nullopt;
  return ByteCodec{entry->name, icu_table(*entry)};
}

std::vector<std::string> byte_codec_names() {
  std::vector<std::string> names;
  for (const auto& entry : codec_table()) names.emplace_back(entry.name);
  return names;
}

}  // namespace evalcli
