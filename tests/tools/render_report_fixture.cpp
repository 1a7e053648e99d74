// Writes the HTML report of a table document, for the browser test (tests/html/):
//   render_report_fixture TABLE.json OUT.html      a document of schema evalcli-table/1
//   render_report_fixture --synthetic N OUT.html [TABLE.json]
//                                                  a generated one with N segments (and that
//                                                  document, for the browser test's --table)
// Exit 0 on success, 3 on an unreadable or malformed input (as evalcli's input errors).
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/report_html.hpp"
#include "evalcli/io/output_file.hpp"
#include "support/synthetic_report.hpp"

int main(int argc, char** argv) {
  const std::string usage = "usage: render_report_fixture (TABLE.json | --synthetic N) OUT.html [TABLE.json]\n";
  nlohmann::ordered_json table;
  std::string output;
  try {
    if ((argc == 4 || argc == 5) && std::string(argv[1]) == "--synthetic") {
      table = evalcli::test::synthetic_report(std::stoul(argv[2]));
      output = argv[3];
      if (argc == 5) evalcli::io::write_output_file(argv[4], table.dump(1) + "\n");
    } else if (argc == 3) {
      std::ifstream in(argv[1]);
      if (!in) {
        std::cerr << "render_report_fixture: cannot read " << argv[1] << "\n";
        return 3;
      }
      table = nlohmann::ordered_json::parse(in);
      output = argv[2];
    } else {
      std::cerr << usage;
      return 2;
    }
    evalcli::io::write_output_file(output, evalcli::cli::render_html_report(table));
  } catch (const std::exception& e) {
    std::cerr << "render_report_fixture: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
