// Rewrites docs/issue-codes.md from the catalogue, keeping its hand-written introduction (every
// line up to and including the generated-part marker).
//   gen-issue-codes-doc docs/issue-codes.md
#include <fstream>
#include <iostream>
#include <sstream>

#include "dq/catalog/issue_catalog.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: gen-issue-codes-doc docs/issue-codes.md\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const size_t marker = doc.find(dq::catalog::kGeneratedMarker);
  if (!in || marker == std::string::npos) {
    std::cerr << argv[1] << " has no line " << dq::catalog::kGeneratedMarker << "\n";
    return 1;
  }
  const std::string head = doc.substr(0, marker + dq::catalog::kGeneratedMarker.size()) + "\n";
  std::ofstream(argv[1], std::ios::binary) << dq::catalog::IssueCodesMarkdown(head);
  return 0;
}
