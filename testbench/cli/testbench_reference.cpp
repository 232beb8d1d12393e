// testbench_reference: writes the reference tables of docs/testbench.md from the table of
// testbench keys (testbench/input/testbench_schema.hpp), so that the page says what the loader
// reads.
//
//   build/testbench_reference PAGE          rewrites, in PAGE, the table after each marker line
//                                           <!-- testbench keys: TABLE [BASE] -->
//   build/testbench_reference --check PAGE  changes nothing; exit status 1 where a table differs
//
// TABLE names the keys listed (TestbenchKey::table), BASE the mapping they are named from
// (machine: `shared.latency`). Exit status 0, 1 (--check: the page differs from the table), 2 (a
// page that cannot be read or written, a marker naming no keys, keys of a table without marker).
#include <fstream>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "testbench/input/testbench_schema.hpp"

namespace {

const std::regex kMarker(R"(^<!-- testbench keys: (\w+)(?: ([\w.]+))? -->$)");

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

int main(int argc, char** argv) {
  const bool check = argc == 3 && std::string(argv[1]) == "--check";
  if (argc != 2 && !check) {
    std::cerr << "usage: testbench_reference [--check] PAGE\n";
    return 2;
  }
  const std::string page = argv[argc - 1];
  std::ifstream in(page);
  if (!in) {
    std::cerr << "testbench_reference: cannot read " << page << "\n";
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  const std::vector<std::string> lines = lines_of(text.str());

  std::string out;
  std::set<std::string> written;
  std::vector<std::string> stale;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    out += lines[i] + "\n";
    std::smatch marker;
    if (!std::regex_match(lines[i], marker, kMarker)) continue;
    const std::string table = marker[1];
    const std::string generated = mmsim::reference_table(table, marker[2]);
    if (generated.find("\n|", generated.find("|---")) == std::string::npos) {
      std::cerr << "testbench_reference: " << page << ":" << i + 1
                << ": no key is listed in table '" << table << "'\n";
      return 2;
    }
    std::string old;
    while (i + 1 < lines.size() && lines[i + 1].starts_with("|")) old += lines[++i] + "\n";
    if (old != generated) stale.push_back(table);
    out += generated;
    written.insert(table);
  }
  for (const mmsim::TestbenchKey& key : mmsim::testbench_keys())
    if (!key.table.empty() && !written.count(key.table)) {
      std::cerr << "testbench_reference: " << page << " has no table '" << key.table
                << "' (a line <!-- testbench keys: " << key.table << " --> before it) for "
                << key.path << "\n";
      return 2;
    }
  if (check) {
    for (const std::string& table : stale)
      std::cerr << "testbench_reference: " << page << ": table '" << table
                << "' differs from the testbench keys; build/testbench_reference " << page
                << " writes it\n";
    return stale.empty() ? 0 : 1;
  }
  std::ofstream file(page, std::ios::trunc);
  file << out;
  file.close();
  if (!file) {
    std::cerr << "testbench_reference: cannot write " << page << "\n";
    return 2;
  }
  return 0;
}
