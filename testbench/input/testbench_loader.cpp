// Loading a testbench: the YAML read (yaml_input.hpp), the --set overrides applied, then every key
// read as the table of testbench keys says (testbench_schema.hpp).
#include "testbench/input/testbench.hpp"
#include "testbench/input/testbench_schema.hpp"
#include "testbench/input/yaml_input.hpp"

namespace mmsim {

SourceLocation Testbench::locate(const std::string& key) const {
  for (std::string k = key;; k = k.substr(0, k.rfind('.'))) {
    if (const auto it = where.find(k); it != where.end()) return it->second;
    if (k.find('.') == std::string::npos) break;
  }
  return {file.string(), 0, 0};
}

Testbench load_testbench(const std::filesystem::path& file,
                         const std::vector<std::string>& overrides) {
  YamlInput input(file, "testbench");
  for (const std::string& assignment : overrides) input.override_value(assignment);
  Testbench tb;
  tb.file = file;
  tb.name = file.stem().string();
  load_keys(YamlSection(input, input.root(), ""), tb);
  return tb;
}

}  // namespace mmsim
