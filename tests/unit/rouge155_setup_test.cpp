#include "evalcli/metrics/rouge155_setup.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "evalcli/core/error.hpp"

#include "support/test_support.hpp"

using namespace evalcli;

namespace {

// The message of the input error parsing `xml` throws ("" if none).
std::string settings_error(const std::string& xml) {
  try {
    parse_rouge155_settings(xml, "s.xml");
  } catch (const Error& e) {
    CHECK(e.code() == ExitCode::input_data);
    return e.what();
  }
  return "";
}

std::string one_eval(const std::string& body) {
  return "<ROUGE-EVAL version=\"1.0\">\n<EVAL ID=\"1\">\n" + body + "\n</EVAL>\n</ROUGE-EVAL>\n";
}

const std::string kFormatAndModel = "<INPUT-FORMAT TYPE=\"SPL\"/>\n<MODELS><M ID=\"A\">m.txt</M></MODELS>";

}  // namespace

TEST_CASE("ROUGE-1.5.5 settings: pyrouge's XML", "[rouge155-setup]") {
  // As pyrouge (bheinzerling) writes it: no declaration, one line of root, tabs.
  const std::string pyrouge =
      "<ROUGE-EVAL version=\"1.55\">\n"
      "    <EVAL ID=\"10\">\n"
      "        <MODEL-ROOT>/tmp/x/model</MODEL-ROOT>\n"
      "        <PEER-ROOT>/tmp/x/system</PEER-ROOT>\n"
      "        <INPUT-FORMAT TYPE=\"SEE\">\n"
      "        </INPUT-FORMAT>\n"
      "        <PEERS>\n"
      "            <P ID=\"1\">doc.10.txt</P>\n"
      "        </PEERS>\n"
      "        <MODELS>\n"
      "            <M ID=\"A\">doc.B.10.txt</M>\n"
      "\t\t\t<M ID=\"B\">doc.A.10.txt</M>\n"
      "        </MODELS>\n"
      "    </EVAL>\n"
      "    <EVAL ID=\"2\">\n"
      "        <MODEL-ROOT>/tmp/x/model</MODEL-ROOT>\n"
      "        <PEER-ROOT>/tmp/x/system</PEER-ROOT>\n"
      "        <INPUT-FORMAT TYPE=\"spl\"></INPUT-FORMAT>\n"
      "        <PEERS><P ID=\"1\">doc.2.txt</P><P ID=\"0\">other.2.txt</P></PEERS>\n"
      "        <MODELS><M ID=\"A\">doc.A.2.txt</M></MODELS>\n"
      "    </EVAL>\n"
      "</ROUGE-EVAL>";
  const auto setup = parse_rouge155_settings(pyrouge, "settings.xml");
  REQUIRE(setup.evals.size() == 2);
  const auto& e = setup.evals[0];
  CHECK(e.id == "10");
  CHECK(e.line == 2);
  CHECK(e.format == "SEE");
  REQUIRE(e.peers.size() == 1);
  CHECK(e.peers[0].id == "1");
  CHECK(e.peers[0].path == "/tmp/x/system/doc.10.txt");
  CHECK(e.peers[0].line == 8);
  REQUIRE(e.models.size() == 2);  // document order: -f B keeps the first best
  CHECK(e.models[0].id == "A");
  CHECK(e.models[0].path == "/tmp/x/model/doc.B.10.txt");
  CHECK(e.models[1].line == 12);
  CHECK(setup.evals[1].format == "SPL");  // case-insensitive, as ROUGE's /^SPL$/i
  CHECK(setup.evals[1].peers[1].id == "0");
}

TEST_CASE("ROUGE-1.5.5 settings: the XML ROUGE accepts beyond pyrouge's", "[rouge155-setup]") {
  // andersjo/pyrouge: a leading newline, <ROUGE_EVAL>, spaces inside INPUT-FORMAT.
  const auto andersjo = parse_rouge155_settings(
      "\n<ROUGE_EVAL version=\"1.55\">\n    <EVAL ID=\"task\">\n        <MODEL-ROOT>/m</MODEL-ROOT>\n"
      "        <PEER-ROOT>/p</PEER-ROOT>\n        <INPUT-FORMAT TYPE=\"SEE\">  </INPUT-FORMAT>\n"
      "        <PEERS>\n            <P ID=\"0\">A.html</P>\n        </PEERS>\n        <MODELS>\n"
      "            <M ID=\"A\">ref1.html</M>        \n<M ID=\"B\">ref2.html</M>\n        </MODELS>\n"
      "    </EVAL>\n</ROUGE_EVAL>",
      "a.xml");
  CHECK(andersjo.evals.at(0).models.at(1).path == "/m/ref2.html");

  // Declaration, BOM, comments, CRLF, single quotes, entities, lower-case
  // element names, self-closing INPUT-FORMAT, padding around names, no roots.
  const auto varied = parse_rouge155_settings(
      "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<!-- made by hand -->\r\n"
      "<rouge-eval version='1.0'>\r\n<eval ID='x&amp;y'>\r\n<!-- roots -->\r\n"
      "<peer-root>\r\n  /data/a&lt;b  \r\n</peer-root>\r\n<INPUT-FORMAT TYPE=\"ISI\" />\r\n"
      "<PEERS><P ID=\"s&#65;\">p&#x41;.txt</P><P ID=\"t\">old<!-- ROUGE keeps the last text node -->new.txt</P>"
      "</PEERS>\r\n<MODELS><M ID=\"A\"> m.txt </M></MODELS>\r\n</eval>\r\n</rouge-eval>\r\n<!-- end -->\r\n",
      "v.xml");
  const auto& e = varied.evals.at(0);
  CHECK(e.id == "x&y");
  CHECK(e.line == 4);
  CHECK(e.format == "ISI");
  CHECK(e.peers.at(0).id == "sA");
  CHECK(e.peers.at(0).path == "/data/a<b/pA.txt");
  CHECK(e.peers.at(1).path == "/data/a<b/new.txt");
  CHECK(e.models.at(0).path == "/m.txt");  // no MODEL-ROOT: ROUGE opens "/m.txt" too
  CHECK(e.models.at(0).line == 11);
}

TEST_CASE("ROUGE-1.5.5 settings: anything else is refused with file and line", "[rouge155-setup]") {
  CHECK(settings_error(one_eval("<FOO/>")).find("s.xml:3: unexpected element <FOO> in EVAL 1") == 0);
  CHECK(settings_error("<ROUGE-EVAL>\n<EVAL>\n</EVAL></ROUGE-EVAL>").find("s.xml:2: <EVAL> needs its ID=") == 0);
  // Attribute names are exact: XML::DOM's getAttributeNode("ID") misses id=.
  CHECK(settings_error("<ROUGE-EVAL>\n<EVAL id=\"1\">\n</EVAL></ROUGE-EVAL>").find("s.xml:2: <EVAL>: unknown attribute id") == 0);
  CHECK(settings_error("<ROUGE-EVAL>\n<EVAL ID=\"1\" NAME=\"x\">\n</EVAL></ROUGE-EVAL>").find("s.xml:2: <EVAL>: unknown attribute NAME") == 0);
  CHECK(settings_error("<ROUGE-EVAL>\n<EVAL ID=1>").find("s.xml:2: attribute ID: value must be quoted") == 0);
  CHECK(settings_error(one_eval(kFormatAndModel + "\n<PEERS><P ID=\"s\">a.txt</Q></PEERS>"))
            .find("s.xml:5: </Q> does not close <P> of line 5") == 0);
  CHECK(settings_error("<ROUGE-EVAL>\n<EVAL ID=\"1\">\n").find("s.xml:2: <EVAL> is not closed") == 0);
  CHECK(settings_error(one_eval(kFormatAndModel + "\n<PEERS><P ID=\"s\">a&nbsp;b</P></PEERS>"))
            .find("s.xml:5: unknown entity '&nbsp;'") == 0);
  CHECK(settings_error("<!DOCTYPE x>\n<ROUGE-EVAL/>").find("s.xml:1: <!DOCTYPE") == 0);
  CHECK(settings_error(one_eval(kFormatAndModel + "\n<PEERS><P ID=\"s\"><![CDATA[a.txt]]></P></PEERS>"))
            .find("s.xml:5: <P> holds text only") == 0);
  CHECK(settings_error(one_eval(kFormatAndModel + "\n<PEERS>\nstray</PEERS>")).find("s.xml:6: unexpected text 'stray") == 0);
  CHECK(settings_error(one_eval(kFormatAndModel) + "junk").find("s.xml:7: unexpected text 'junk' after the root") == 0);
  CHECK(settings_error("<ROUGE-EVAL>\n<EVAL ID=\"1\">" + kFormatAndModel + "</EVAL>\n<EVAL ID=\"1\">" + kFormatAndModel +
                       "</EVAL>\n</ROUGE-EVAL>")
            .find("s.xml:4: EVAL ID \"1\" given twice (line 2)") == 0);
  CHECK(settings_error(one_eval(kFormatAndModel + "\n<PEERS><P ID=\"s\">a</P>\n<P ID=\"s\">b</P></PEERS>"))
            .find("s.xml:6: EVAL 1: P ID \"s\" given twice (line 5)") == 0);
  CHECK(settings_error(one_eval("<INPUT-FORMAT TYPE=\"SIMPLE\"/><MODELS><M ID=\"A\">m</M></MODELS>"))
            .find("s.xml:3: input format SIMPLE is ROUGE's Basic Element format") == 0);
  CHECK(settings_error(one_eval("<INPUT-FORMAT TYPE=\"HTML\"/><MODELS><M ID=\"A\">m</M></MODELS>"))
            .find("s.xml:3: unknown input format 'HTML'") == 0);
  CHECK(settings_error(one_eval("<MODELS><M ID=\"A\">m</M></MODELS>")).find("s.xml:2: EVAL 1 has no <INPUT-FORMAT") == 0);
  CHECK(settings_error(one_eval("<INPUT-FORMAT TYPE=\"SEE\"/>")).find("s.xml:2: EVAL 1 has no model") == 0);
  CHECK(settings_error(one_eval(kFormatAndModel + "\n<PEERS><P ID=\"s\">  </P></PEERS>")).find("s.xml:5: <P ID=\"s\"> names no file") == 0);
  CHECK(settings_error(one_eval(kFormatAndModel + "\n<INPUT-FORMAT TYPE=\"SPL\"/>"))
            .find("s.xml:5: <INPUT-FORMAT> given twice in EVAL 1 (line 3)") == 0);
  CHECK(settings_error("<ROUGE-EVAL>\n<EVAL ID=\"caf\xC3\">").find("s.xml:2:byte 14: invalid UTF-8 (byte 0xC3)") == 0);
  CHECK(settings_error("<ROUGE-EVAL>\n<!-- a -- b -->").find("s.xml:2: '--' inside a comment") == 0);
  CHECK(settings_error(one_eval(kFormatAndModel) + "<ROUGE-EVAL/>").find("s.xml:7: only one root element") == 0);
  CHECK(settings_error("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><ROUGE-EVAL/>")
            .find("s.xml:1: encoding ISO-8859-1 is not supported") == 0);
  CHECK(settings_error("<CONFIG>\n</CONFIG>").find("s.xml:1: the root element must be <ROUGE-EVAL>, not <CONFIG>") == 0);
  CHECK(settings_error("<ROUGE-EVAL>\n</ROUGE-EVAL>").find("s.xml:1: no <EVAL>") == 0);
  CHECK(settings_error("").find("s.xml:1: no <ROUGE-EVAL> element") == 0);
  CHECK(settings_error("<ROUGE-EVAL>\x01</ROUGE-EVAL>").find("s.xml:1: control character U+0001") == 0);
  CHECK(settings_error(one_eval(kFormatAndModel + "\n<PEERS><P ID=\"s\">a&#0;</P></PEERS>")).find("s.xml:5: malformed character reference") == 0);
}

TEST_CASE("ROUGE-1.5.5 -z file lists", "[rouge155-setup]") {
  const auto setup = parse_rouge155_file_list("# comment\n\npeer1.txt m1.txt  m2.txt\n  \t\n p2.txt\tm3.txt \n", "l.txt",
                                              "spl", "X");
  REQUIRE(setup.evals.size() == 2);
  CHECK(setup.evals[0].id == "1");
  CHECK(setup.evals[0].line == 3);
  CHECK(setup.evals[0].format == "SPL");
  CHECK(setup.evals[0].peers.at(0).id == "X");
  CHECK(setup.evals[0].peers.at(0).path == "peer1.txt");
  CHECK(setup.evals[0].models.at(1).id == "M.2");
  CHECK(setup.evals[0].models.at(1).path == "m2.txt");
  CHECK(setup.evals[1].id == "2");
  CHECK(setup.evals[1].peers.at(0).path == "p2.txt");
  CHECK_THROWS_WITH(parse_rouge155_file_list("a b\nonly-peer\n", "l.txt", "SPL", "X"),
                    Catch::StartsWith("l.txt:2: a file-list line needs a peer and at least one model"));
  CHECK_THROWS_WITH(parse_rouge155_file_list("a b\n", "l.txt", "SIMPLE", "X"), Catch::Contains("SIMPLE"));
  CHECK_THROWS_WITH(parse_rouge155_file_list("# nothing\n", "l.txt", "SPL", "X"), Catch::Contains("names no files"));
}

TEST_CASE("ROUGE-1.5.5 summary readers: SEE, SPL, ISI as readText", "[rouge155-setup]") {
  auto texts = [](const std::vector<Rouge155Sentence>& sentences) {
    std::vector<std::string> out;
    for (const auto& s : sentences) out.push_back(s.text);
    return out;
  };
  // pyrouge's HTML; a sentence is cut at its first '<'; an empty one is no sentence.
  const std::string see =
      "<html>\n<head><title>t</title></head>\n<body bgcolor=\"white\">\n"
      "<a name=\"1\">[1]</a> <a href=\"#1\" id=1>First sentence.</a>\n"
      "<a size=\"12\" name=\"2\">[2]</a>\t<a href=\"#2\" id=2>Second x<y sentence.</a>\n"
      "<a name=\"3\">[3]</a> <a href=\"#3\" id=3></a>\n"
      " <a name=\"4\">[4]</a> <a href=\"#4\" id=4>not at line start</a>\n"
      "<a name=\"5\">[5]</a> <a href=\"#5\" id=5>no closing tag\n"
      "</body>\n</html>";
  const auto see_sentences = read_rouge155_sentences(see, "SEE");
  CHECK(texts(see_sentences) == std::vector<std::string>{"First sentence.", "Second x", "no closing tag\n"});
  CHECK(see_sentences[1].line == 5);
  CHECK(see_sentences[1].offset == 48);  // where "Second" starts in its line (for byte offsets in messages)
  // SPL: chomp, empty lines skipped, a line of spaces kept, CR kept, last line without LF.
  CHECK(texts(read_rouge155_sentences("One.\n\n  \nTwo.\r\nThree.", "SPL")) ==
        std::vector<std::string>{"One.", "  ", "Two.\r", "Three."});
  CHECK(texts(read_rouge155_sentences("<S SNTNO=\"1\">One.</S>\n<S SNTNO=\"2a,b\">Two.</S> tail\n<S SNTNO=\"3\">open\n"
                                      "<S SNTNO=\"X\">caps id</S>\n",
                                      "ISI")) == std::vector<std::string>{"One.", "Two."});
}

TEST_CASE("ROUGE-1.5.5 by_evalID order of -d lines", "[rouge155-setup]") {
  std::vector<std::string> keys = {"10.S", "9.S", "b.S", "2.S", "002.S", "A.S", "-1.S", "1.5.S", "100000000000000000000.S"};
  std::sort(keys.begin(), keys.end(), rouge155_eval_key_before);
  // Numbers by value ("002" ties "2": evalcli orders ties as strings; Perl by hash order).
  CHECK(keys == std::vector<std::string>{"-1.S", "1.5.S", "002.S", "2.S", "9.S", "10.S", "100000000000000000000.S",
                                         "A.S", "b.S"});
}

// ------------------------------------------------------------------ the CLI

namespace {

namespace fs = std::filesystem;

// Documents of a fixture line file: one per line, sentences TAB-separated.
std::vector<std::vector<std::string>> documents(const std::string& name) {
  std::vector<std::vector<std::string>> docs;
  std::istringstream in(evalcli::test::read_file(evalcli::test::source_dir() / "tests/data/rouge155" / name));
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> sentences;
    std::size_t start = 0, tab;
    while ((tab = line.find('\t', start)) != std::string::npos) {
      sentences.push_back(line.substr(start, tab - start));
      start = tab + 1;
    }
    sentences.push_back(line.substr(start));
    docs.push_back(sentences);
  }
  return docs;
}

std::string summary_file(const std::vector<std::string>& sentences, const std::string& format) {
  std::string out = format == "SEE" ? "<html>\n<head>\n<title>t</title>\n</head>\n<body bgcolor=\"white\">\n" : "";
  for (std::size_t i = 0; i < sentences.size(); ++i) {
    const auto n = std::to_string(i + 1);
    if (format == "SEE") {
      out += "<a name=\"" + n + "\">[" + n + "]</a> <a href=\"#" + n + "\" id=" + n + ">" + sentences[i] + "</a>\n";
    } else if (format == "ISI") {
      out += "<S SNTNO=\"" + n + "\">" + sentences[i] + "</S>\n";
    } else {
      out += sentences[i] + "\n";
    }
  }
  return format == "SEE" ? out + "</body>\n</html>\n" : out;
}

// A folder with summary files and a settings file for the fixture documents.
class Setup {
 public:
  // peers: peer ID -> fixture file; EVAL k has ID ids[k] and document k.
  Setup(const std::vector<std::pair<std::string, std::string>>& peers, const std::vector<std::string>& ids,
        const std::string& format) {
    static int counter = 0;
    dir_ = fs::temp_directory_path() / ("evalcli-rouge155-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::create_directories(dir_ / "peers");
    fs::create_directories(dir_ / "models");
    const auto model_a = documents("modelA.txt"), model_b = documents("modelB.txt");
    std::string xml = "<ROUGE-EVAL version=\"1.0\">\n";
    for (std::size_t k = 0; k < ids.size(); ++k) {
      xml += "<EVAL ID=\"" + ids[k] + "\">\n<PEER-ROOT>" + (dir_ / "peers").string() + "</PEER-ROOT>\n<MODEL-ROOT>" +
             (dir_ / "models").string() + "</MODEL-ROOT>\n<INPUT-FORMAT TYPE=\"" + format + "\">\n</INPUT-FORMAT>\n<PEERS>\n";
      std::string list_line;
      for (const auto& [id, file] : peers) {
        const std::string name = id + "." + std::to_string(k) + ".html";
        write("peers/" + name, summary_file(documents(file)[k], format));
        xml += "<P ID=\"" + id + "\">" + name + "</P>\n";
        if (list_line.empty()) list_line = (dir_ / "peers" / name).string();
      }
      xml += "</PEERS>\n<MODELS>\n";
      for (const auto* model : {&model_a, &model_b}) {
        const std::string name = std::string(model == &model_a ? "A." : "B.") + std::to_string(k) + ".html";
        write("models/" + name, summary_file((*model)[k], format));
        xml += "<M ID=\"" + name.substr(0, 1) + "\">" + name + "</M>\n";
        list_line += " " + (dir_ / "models" / name).string();
      }
      xml += "</MODELS>\n</EVAL>\n";
      file_list_ += list_line + "\n";
    }
    write("settings.xml", xml + "</ROUGE-EVAL>\n");
    write("filelist.txt", file_list_);
  }
  ~Setup() { fs::remove_all(dir_); }
  Setup(const Setup&) = delete;
  Setup& operator=(const Setup&) = delete;
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  void write(const std::string& name, const std::string& content) const {
    std::ofstream(dir_ / name, std::ios::binary) << content;
  }

 private:
  fs::path dir_;
  std::string file_list_;
};

std::vector<std::string> ids_from(std::size_t first, std::size_t count, bool padded) {
  std::vector<std::string> ids;
  for (std::size_t k = 0; k < count; ++k) ids.push_back(padded ? fmt::format("{:06d}", first + k) : std::to_string(first + k));
  return ids;
}

evalcli::test::CliResult rouge155(const fs::path& parent, const std::string& flags, std::vector<std::string> args) {
  std::vector<std::string> all = {"rouge", "--compat", "rouge155", "--rouge155-data",
                                  (parent / "shared/corpora/rouge155-data").string(), "--rouge155-flags", flags,
                                  "--rouge155-output"};
  all.insert(all.end(), args.begin(), args.end());
  return evalcli::test::run_cli(all);
}

std::string fixture(const std::string& name) { return (evalcli::test::source_dir() / "tests/data/rouge155" / name).string(); }

}  // namespace

TEST_CASE("evalcli rouge --rouge155-config: an XML setup scores as the equivalent line files", "[rouge155-setup]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const std::string flags = "-c 95 -2 -1 -U -r 200 -n 2 -w 1.2 -a -m -d";
  const auto lines = rouge155(*parent, flags, {"-r", fixture("modelA.txt"), "-r", fixture("modelB.txt"), "-i",
                                               fixture("sysA.txt"), "--sentence-sep", "tab"});
  REQUIRE(lines.exit_code == 0);
  for (const std::string format : {"SPL", "SEE", "ISI"}) {
    // Zero-padded EVAL IDs and peer S: what the line-file run calls its documents.
    const Setup setup({{"S", "sysA.txt"}}, ids_from(0, 11, true), format);
    const auto xml = rouge155(*parent, flags, {"--rouge155-config", setup.path("settings.xml")});
    INFO(format << "\n" << xml.err);
    REQUIRE(xml.exit_code == 0);
    CHECK(xml.err.empty());
    CHECK(xml.out == lines.out);
  }
}

TEST_CASE("evalcli rouge --rouge155-config: EVALs in string order, every peer with -a, -z lists", "[rouge155-setup]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  // EVAL IDs 1..11: ROUGE's bootstrap walks them as strings (1, 10, 11, 2, ...),
  // so the averages are those of the line files in that order.
  const Setup setup({{"sysA", "sysA.txt"}, {"sysB", "sysB.txt"}}, ids_from(1, 11, false), "SPL");
  const std::vector<std::size_t> string_order = {0, 9, 10, 1, 2, 3, 4, 5, 6, 7, 8};
  auto reorder = [&](const std::string& name) {
    std::vector<std::string> all;
    std::istringstream in(evalcli::test::read_file(fixture(name)));
    for (std::string line; std::getline(in, line);) all.push_back(line);
    std::string text;
    for (std::size_t k : string_order) text += all[k] + "\n";
    return text;
  };
  const evalcli::test::TempFile reordered_peer(reorder("sysA.txt")), model_a(reorder("modelA.txt")),
      model_b(reorder("modelB.txt"));
  const std::string flags = "-c 95 -2 4 -u -r 1000 -n 2";
  const auto lines = rouge155(*parent, flags, {"-r", model_a.path(), "-r", model_b.path(), "-i", reordered_peer.path(),
                                               "--sentence-sep", "tab"});
  const auto one = rouge155(*parent, flags, {"--rouge155-config", setup.path("settings.xml"), "--rouge155-system", "sysA"});
  REQUIRE(lines.exit_code == 0);
  REQUIRE(one.exit_code == 0);
  auto renamed = lines.out;
  for (std::size_t at; (at = renamed.find("S ROUGE")) != std::string::npos;) renamed.replace(at, 1, "sysA");
  CHECK(one.out == renamed);

  // -a: every peer, sorted, each its own block (no -a: the system argument).
  const auto all = rouge155(*parent, flags + " -a", {"--rouge155-config", setup.path("settings.xml")});
  const auto b = rouge155(*parent, flags, {"--rouge155-config", setup.path("settings.xml"), "--rouge155-system", "sysB"});
  REQUIRE(all.exit_code == 0);
  CHECK(all.out == one.out + b.out);
  const auto no_peer = rouge155(*parent, "-n 2", {"--rouge155-config", setup.path("settings.xml")});
  CHECK(no_peer.exit_code == 2);
  CHECK(no_peer.err.find("--rouge155-system") != std::string::npos);

  // ROUGE-1.5.5.pl's own numbers for this setup (run 2026-11-30, -a -d -n 2 -x -m -r 1000):
  // the averages, and -d lines in by_evalID (numeric) order.
  const auto perl = rouge155(*parent, "-a -d -n 2 -x -m -r 1000", {"--rouge155-config", setup.path("settings.xml")});
  REQUIRE(perl.exit_code == 0);
  CHECK(perl.out.find("sysA ROUGE-1 Average_F: 0.71527 (95%-conf.int. 0.66221 - 0.76222)") != std::string::npos);
  CHECK(perl.out.find("sysB ROUGE-2 Average_R: 0.16365 (95%-conf.int. 0.09511 - 0.24307)") != std::string::npos);
  CHECK(perl.out.find("sysA ROUGE-1 Eval 2.sysA R:") < perl.out.find("sysA ROUGE-1 Eval 10.sysA R:"));

  // -z: the same documents as a file list (EVAL IDs 1, 2, ... in line order).
  const auto list = rouge155(*parent, "-z SPL -n 2 -d", {"--rouge155-config", setup.path("filelist.txt")});
  const auto xml_x = rouge155(*parent, "-n 2 -d", {"--rouge155-config", setup.path("settings.xml"), "--rouge155-system", "sysA"});
  REQUIRE(list.exit_code == 0);
  auto as_x = xml_x.out;
  for (std::size_t at; (at = as_x.find("sysA")) != std::string::npos;) as_x.replace(at, 4, "X");
  CHECK(list.out == as_x);
}

TEST_CASE("evalcli rouge --rouge155-config: bad setups", "[rouge155-setup]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const Setup setup({{"sysA", "sysA.txt"}, {"sysB", "sysB.txt"}}, ids_from(1, 3, false), "SPL");
  const std::string config = setup.path("settings.xml");
  // A peer missing from an EVAL: a warning, and ROUGE's average over the others.
  auto text = evalcli::test::read_file(config);
  text.replace(text.find("<P ID=\"sysB\">sysB.1.html</P>"), 29, "");
  setup.write("missing_peer.xml", text);
  const auto missing = rouge155(*parent, "-n 1 -x -a -d", {"--rouge155-config", setup.path("missing_peer.xml")});
  REQUIRE(missing.exit_code == 0);
  CHECK(missing.err.find("evalcli: warning: " + setup.path("missing_peer.xml") + ": peer sysB is missing from 1 of 3 EVALs (first: 2)") == 0);
  CHECK(missing.out.find("sysB ROUGE-1 Eval 2.sysB") == std::string::npos);
  CHECK(missing.out.find("sysB ROUGE-1 Eval 3.sysB") != std::string::npos);
  const auto nobody = rouge155(*parent, "-n 1 -x", {"--rouge155-config", config, "--rouge155-system", "sysC"});
  CHECK(nobody.exit_code == 0);  // as the script: a report of zeros
  CHECK(nobody.err.find("peer sysC is in none of the 3 EVALs") != std::string::npos);
  CHECK(nobody.out.find("sysC ROUGE-1 Average_R: 0.00000 (95%-conf.int. 0.00000 - 0.00000)") != std::string::npos);
  // A file that is not there: exit 3 naming the settings line and the path.
  fs::remove(setup.path("models/B.2.html"));
  const auto gone = rouge155(*parent, "-n 1 -a", {"--rouge155-config", config});
  CHECK(gone.exit_code == 3);
  CHECK(gone.err.find(config + ":") != std::string::npos);
  CHECK(gone.err.find("models/B.2.html: no such file") != std::string::npos);
  CHECK(rouge155(*parent, "-n 1 -a", {"--rouge155-config", setup.path("nothing.xml")}).exit_code == 3);
  CHECK(rouge155(*parent, "-n 1 -a", {"--rouge155-config", config, "-i", fixture("sysA.txt")}).exit_code == 2);
  CHECK(rouge155(*parent, "-n 1 -a -z SPL", {"-r", fixture("modelA.txt"), "-i", fixture("sysA.txt")}).exit_code == 2);
  const auto simple = rouge155(*parent, "-n 1 -z SIMPLE", {"--rouge155-config", setup.path("filelist.txt")});
  CHECK(simple.exit_code == 2);
  CHECK(simple.err.find("SIMPLE is ROUGE's Basic Element format") != std::string::npos);
  CHECK(rouge155(*parent, "-n 1 -a", {"-r", fixture("modelA.txt"), "-i", fixture("sysA.txt"), "--rouge155-system", "x"})
            .exit_code == 2);
  CHECK(rouge155(*parent, "-n 1 -a", {"--rouge155-config", config, "--sentence-sep", "tab"}).exit_code == 2);
  // ROUGE reads bytes; --tokenize needs text, so there a file must be UTF-8.
  setup.write("models/B.2.html", "Put back.\n");
  setup.write("peers/sysA.1.html", "fine\nnot caf\xE9\n");
  CHECK(rouge155(*parent, "-n 1 -a", {"--rouge155-config", config}).exit_code == 0);
  const auto latin1 = rouge155(*parent, "-n 1 -a", {"--rouge155-config", config, "--tokenize", "intl"});
  CHECK(latin1.exit_code == 3);
  CHECK(latin1.err.find(setup.path("peers/sysA.1.html") + ":2:byte 8: invalid UTF-8 (byte 0xE9)") != std::string::npos);
}

TEST_CASE("evalcli rouge --rouge155-config: JSON reports per peer", "[rouge155-setup]") {
  const auto parent = evalcli::test::shared_parent();
  if (!parent) return;
  const Setup setup({{"sysB", "sysB.txt"}, {"sysA", "sysA.txt"}}, ids_from(1, 11, false), "SEE");
  const auto run = evalcli::test::run_cli({"rouge", "--compat", "rouge155", "--rouge155-data",
                                           (*parent / "shared/corpora/rouge155-data").string(), "--rouge155-flags",
                                           "-a -n 1 -x -r 100", "--rouge155-config", setup.path("settings.xml"), "-f",
                                           "json"});
  REQUIRE(run.exit_code == 0);
  const auto reports = nlohmann::json::parse(run.out);
  REQUIRE(reports.size() == 2);
  CHECK(reports[0]["system"] == "sysA");  // -a: sorted peer IDs
  CHECK(reports[1]["system"] == "sysB");
  CHECK(reports[0]["eval_ids"] == nlohmann::json({"1", "10", "11", "2", "3", "4", "5", "6", "7", "8", "9"}));
  CHECK(reports[0]["signature"].get<std::string>().find("nrefs:2|compat:rouge155|") == 0);
  CHECK(reports[0]["measures"]["ROUGE-1"]["F"].contains("avg"));
}
