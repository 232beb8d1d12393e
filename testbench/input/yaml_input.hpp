// Reading YAML input with one clear error per problem: every value is located (file:line:column,
// or the --set option it came from), unknown keys get the nearest valid name suggested, and
// wrong types say what was expected.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "sw/program/input_error.hpp"

namespace mmsim {

// A YAML input holds one document of UTF-8 text, at most kMaxYamlBytes, its quotes closed.
inline constexpr std::uint64_t kMaxYamlBytes = std::uint64_t{64} << 20;
// Deeper than yaml-cpp's own limit, which stops the nesting a file can write: only an alias
// inside its own anchor goes further (forever).
inline constexpr int kMaxYamlDepth = 1000;
// The values a document may expand to, each alias counted with everything it repeats: aliases of
// aliases multiply (ten levels of ten make 10^10), and every reader of the document walks them.
inline constexpr std::uint64_t kMaxYamlValues = std::uint64_t{1} << 22;

// A key the input does not know; `path` is its dotted path (machine.lattency), so that a caller
// that set it (a sweep) can point at its own place.
class UnknownKeyError : public InputError {
 public:
  UnknownKeyError(SourceLocation where, const std::string& message, std::string path)
      : InputError(std::move(where), message), path_(std::move(path)) {}
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

class YamlInput {
 public:
  // Loads `file`, a `kind` of input ("testbench", "sweep"); throws InputError when it is
  // missing, unreadable, not UTF-8, holds a control character (a NUL byte, ...), is not valid
  // YAML, is more than one document (text after a quoted value starts another) or expands to
  // more than kMaxYamlValues values.
  YamlInput(std::filesystem::path file, std::string kind);
  // The same from `text` itself, as if read from `file` (a name for messages, which need not
  // exist: the Python API's "<dict>"; relative files in the input are taken from its folder).
  YamlInput(const std::string& text, std::filesystem::path file, std::string kind);

  // Applies "key.path=value" (value in YAML syntax, checked as a file is) on top of the file.
  void override_value(const std::string& assignment);

  const std::filesystem::path& file() const { return file_; }
  const std::string& kind() const { return kind_; }
  YAML::Node root() const { return root_; }
  // Where the node found at `path` (dotted) comes from.
  SourceLocation where(const YAML::Node& node, const std::string& path) const;

 private:
  void parse(const std::string& text);  // the checks the constructors share
  std::filesystem::path file_;
  std::string kind_;
  YAML::Node root_;
  std::vector<std::pair<std::string, std::string>> overrides_;  // path, option text
};

// One mapping of the input, read key by key.
class YamlSection {
 public:
  // `path`: dotted path of the mapping ("" for the whole testbench).
  YamlSection(const YamlInput& input, YAML::Node node, std::string path);

  const YamlInput& input() const { return *input_; }
  const std::string& path() const { return path_; }
  std::string name() const;  // for messages: the path, or the input's kind
  std::string child(const std::string& key) const;
  SourceLocation where() const { return input_->where(node_, path_); }
  SourceLocation where(const std::string& key) const;
  // Where the key itself is written.
  SourceLocation key_where(const std::string& key) const;
  // Where item `index` of the list at `key` comes from.
  SourceLocation where(const std::string& key, std::size_t index) const;
  // Rejects keys not in `allowed` (suggesting the nearest) and duplicated keys.
  void allow(const std::vector<std::string>& allowed) const;
  bool has(const std::string& key) const { return static_cast<bool>(node_[key]); }
  YAML::Node node(const std::string& key) const { return node_[key]; }
  std::vector<std::string> keys() const;

  YamlSection section(const std::string& key) const;  // required mapping
  std::optional<YamlSection> optional_section(const std::string& key) const;

  std::string string(const std::string& key) const;
  std::optional<std::string> optional_string(const std::string& key) const;
  // Integers may be written plainly or as 2^k.
  std::int64_t integer(const std::string& key, std::int64_t min, std::int64_t max) const;
  std::optional<std::int64_t> optional_integer(const std::string& key, std::int64_t min,
                                               std::int64_t max) const;
  bool boolean(const std::string& key) const;
  std::optional<bool> optional_boolean(const std::string& key) const;

  [[noreturn]] void fail(const std::string& key, const std::string& message) const;

 private:
  const YamlInput* input_;
  YAML::Node node_;
  std::string path_;
};

// Scalar conversions shared by sections and sequences; `what` names the value in messages.
std::int64_t yaml_integer(const YAML::Node& node, const SourceLocation& where,
                          const std::string& what, std::int64_t min, std::int64_t max);
bool yaml_boolean(const YAML::Node& node, const SourceLocation& where, const std::string& what);
std::string yaml_string(const YAML::Node& node, const SourceLocation& where,
                        const std::string& what);
std::string yaml_describe(const YAML::Node& node);
// Throws "`what`: expected `expected`, got " and what the node is, at `where`.
[[noreturn]] void yaml_expected(const YAML::Node& node, const SourceLocation& where,
                                const std::string& what, const std::string& expected);

}  // namespace mmsim
