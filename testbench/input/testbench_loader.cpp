// Loading a testbench: the YAML read (yaml_input.hpp), the --set overrides applied, then every key
// read as the table of testbench keys says (testbench_schema.hpp).
#include <algorithm>
#include <optional>

#include "testbench/input/testbench.hpp"
#include "testbench/input/testbench_schema.hpp"
#include "testbench/input/yaml_input.hpp"

namespace mmsim {
namespace {

// The path an assignment sets: "program.params.n" of "program.params.n=4".
std::string assigned_path(const std::string& assignment) {
  return assignment.substr(0, assignment.find('='));
}

// Whether `path` is `key` or lies under it.
bool under(const std::string& path, const std::string& key) {
  return path == key || path.starts_with(key + ".");
}

// The program the YAML names ("" when it names none).
std::string program_name(const YAML::Node& root) {
  const YAML::Node name =
      root["program"] && root["program"].IsMap() ? root["program"]["name"] : YAML::Node();
  return name && name.IsScalar() ? name.Scalar() : "";
}

// What of a program a file may hold that belongs to that program alone.
constexpr const char* kProgramKeys[] = {"program.params", "program.warps", "expect"};

// The node at a dotted path of `root`, if there is one.
std::optional<YAML::Node> node_at(const YAML::Node& root, const std::string& path) {
  YAML::Node node = root;
  for (std::size_t start = 0; start <= path.size();) {
    const std::size_t dot = std::min(path.find('.', start), path.size());
    const std::string key = path.substr(start, dot - start);
    if (!node.IsMap() || !static_cast<const YAML::Node&>(node)[key]) return std::nullopt;
    node.reset(node[key]);  // `=` would assign through the node
    start = dot + 1;
  }
  return node;
}

// The file's program.params, program.warps and expect (`in_file`: those it has), written for
// its program `old`, left out of `input` now that the overrides name another: each is removed
// unless an override replaced it whole, and the overrides under it are applied again. Returns
// the note that says so, or "".
std::string leave_out_old_program(YamlInput& input, const std::vector<std::string>& overrides,
                                  const std::vector<std::string>& in_file, const std::string& old) {
  std::vector<std::string> left_out;
  for (const std::string& key : in_file) {
    const bool replaced = std::any_of(overrides.begin(), overrides.end(),
                                      [&](const auto& a) { return under(key, assigned_path(a)); });
    if (replaced) continue;
    const std::size_t dot = key.rfind('.');
    YAML::Node parent =
        dot == std::string::npos ? input.root() : *node_at(input.root(), key.substr(0, dot));
    parent.remove(key.substr(dot == std::string::npos ? 0 : dot + 1));
    left_out.push_back(key);
    for (const std::string& assignment : overrides)
      if (under(assigned_path(assignment), key)) input.override_value(assignment);
  }
  if (left_out.empty()) return {};
  std::string keys = left_out.front();
  for (std::size_t i = 1; i < left_out.size(); ++i)
    keys += (i + 1 == left_out.size() ? " and " : ", ") + left_out[i];
  return "--set runs program " + program_name(input.root()) + ", not the file's " + old +
         ": the file's " + keys + " (written for " + old +
         ") are left out; --set them too to keep them";
}

}  // namespace

std::string description_as_run(const std::string& description,
                               const std::vector<std::string>& changed_by) {
  if (description.empty() || changed_by.empty()) return description;
  std::string text = description + "  (as the file describes it; run with";
  for (const std::string& assignment : changed_by) text += " --set " + assignment;
  return text + ")";
}

SourceLocation Testbench::locate(const std::string& key) const {
  for (std::string k = key;; k = k.substr(0, k.rfind('.'))) {
    if (const auto it = where.find(k); it != where.end()) return it->second;
    if (k.find('.') == std::string::npos) break;
  }
  return {file.string(), 0, 0};
}

namespace {

Testbench load(YamlInput& input, const std::vector<std::string>& overrides,
               ProgramSwitch program_switch) {
  const std::filesystem::path& file = input.file();
  const std::string file_program = program_name(input.root());
  std::vector<std::string> in_file;  // the keys of kProgramKeys the file has
  for (const char* key : kProgramKeys)
    if (node_at(input.root(), key)) in_file.push_back(key);
  for (const std::string& assignment : overrides) input.override_value(assignment);
  Testbench tb;
  const std::string program = program_name(input.root());
  if (program_switch == ProgramSwitch::drops && !file_program.empty() && program != file_program)
    if (std::string note = leave_out_old_program(input, overrides, in_file, file_program);
        !note.empty())
      tb.notes.push_back(std::move(note));
  for (const std::string& assignment : overrides)
    if (under(assigned_path(assignment), "machine") || under(assigned_path(assignment), "program"))
      tb.changed_by.push_back(assignment);
  tb.file = file;
  tb.name = file.stem().string();
  load_keys(YamlSection(input, input.root(), ""), tb);
  return tb;
}

}  // namespace

Testbench load_testbench(const std::filesystem::path& file,
                         const std::vector<std::string>& overrides, ProgramSwitch program_switch) {
  YamlInput input(file, "testbench");
  return load(input, overrides, program_switch);
}

Testbench load_testbench_text(const std::string& text, const std::filesystem::path& name,
                              const std::vector<std::string>& overrides,
                              ProgramSwitch program_switch) {
  YamlInput input(text, name, "testbench");
  return load(input, overrides, program_switch);
}

}  // namespace mmsim
