#include "testbench/input/yaml_input.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include "sw/support/suggest.hpp"
#include "sw/support/text_input.hpp"

namespace mmsim {
namespace {

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    parts.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return parts;
}

// Sets node.parts[i].parts[i + 1]... = value, making the mappings that are missing. Returns
// "<path> is <value>" for a value on the way that is not a mapping (nothing is set then).
std::string set_path(YAML::Node node, const std::vector<std::string>& parts, std::size_t i,
                     const YAML::Node& value) {
  if (i + 1 == parts.size()) {
    node[parts[i]] = value;
    return {};
  }
  YAML::Node child = node[parts[i]];
  if (child && !child.IsNull() && !child.IsMap()) {
    std::string path = parts[0];
    for (std::size_t k = 1; k <= i; ++k) path += "." + parts[k];
    return path + " is " + yaml_describe(child);
  }
  if (!child.IsMap()) node[parts[i]] = YAML::Node(YAML::NodeType::Map);
  return set_path(node[parts[i]], parts, i + 1, value);
}

// Whether the quoted string opening at text[at] closes before the end of the text.
bool closed_quote(const std::string& text, std::size_t at) {
  const char quote = text[at];
  for (std::size_t i = at + 1; i < text.size(); ++i) {
    if (quote == '"' && text[i] == '\\') {
      ++i;  // an escaped character
    } else if (text[i] == quote) {
      if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
        ++i;  // '' is a quote inside a single-quoted string
        continue;
      }
      return true;
    }
  }
  return false;
}

// The line and column of byte `offset` of `text`.
SourceLocation location_of(const std::string& file, const std::string& text, std::size_t offset) {
  const std::size_t line_start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  const std::size_t column =
      line_start == std::string::npos || offset == 0 ? offset : offset - line_start - 1;
  const auto line =
      std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n');
  return {file, static_cast<int>(line) + 1, static_cast<int>(column) + 1};
}

// Where the root node of each document of `text` is, for its first `limit` documents. Not
// YAML::LoadAll: in yaml-cpp 0.7 it loops forever, filling memory, on a token that cannot start
// a value (a ',' at the top level; yaml-cpp issue 1040, fixed in 0.8), its parser reporting the
// same empty document at the same place again and again. Here that shows as two roots at one
// place.
std::vector<YAML::Mark> document_roots(const std::string& text, std::size_t limit) {
  class Roots : public YAML::EventHandler {
   public:
    std::vector<YAML::Mark> marks;

    void OnDocumentStart(const YAML::Mark&) override { pending_ = true; }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
    void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  const std::string&) override {
      node(mark);
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                         YAML::EmitterStyle::value) override {
      node(mark);
    }
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                    YAML::EmitterStyle::value) override {
      node(mark);
    }
    void OnMapEnd() override {}

   private:
    void node(const YAML::Mark& mark) {
      if (pending_) marks.push_back(mark);
      pending_ = false;
    }
    bool pending_ = false;
  };
  std::istringstream in(text);
  YAML::Parser parser(in);
  Roots roots;
  while (roots.marks.size() < limit && parser.HandleNextDocument(roots)) {
  }
  return roots.marks;
}

// The first byte that YAML does not take as text: a control character other than tab, line feed
// and carriage return (a NUL byte would end the value where C strings end).
std::optional<std::size_t> control_character(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if ((byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r') || byte == 0x7f) return i;
  }
  return std::nullopt;
}

std::string control_message(std::string_view text, std::size_t at) {
  return fmt::format("invalid character (byte 0x{:02x}): YAML is printable text",
                     static_cast<unsigned char>(text[at]));
}

// Walks a parsed document (or --set value), where `locate` places a node: refuses nesting beyond
// kMaxYamlDepth, an expansion beyond kMaxYamlValues values (`values` counts them), and a quoted
// string that is never closed (yaml-cpp takes it to the end of the text).
void check_tree(const YAML::Node& node, const std::string& text, int depth, std::uint64_t& values,
                const std::function<SourceLocation(const YAML::Node&)>& locate) {
  if (depth > kMaxYamlDepth)
    throw InputError(locate(node), "invalid YAML: nested more than " +
                                       std::to_string(kMaxYamlDepth) +
                                       " levels deep (an alias inside its own anchor?)");
  if (++values > kMaxYamlValues)
    throw InputError(locate(node), "invalid YAML: the document expands to more than " +
                                       std::to_string(kMaxYamlValues) +
                                       " values (aliases repeat what their anchors hold, and "
                                       "aliases of aliases multiply)");
  if (node.IsMap()) {
    for (const auto& entry : node) {
      check_tree(entry.first, text, depth + 1, values, locate);
      check_tree(entry.second, text, depth + 1, values, locate);
    }
  } else if (node.IsSequence()) {
    for (const auto& item : node) check_tree(item, text, depth + 1, values, locate);
  } else if (node.IsScalar() && !node.Mark().is_null()) {
    const auto at = static_cast<std::size_t>(node.Mark().pos);
    if (at < text.size() && (text[at] == '"' || text[at] == '\'') && !closed_quote(text, at))
      throw InputError(locate(node), std::string("unclosed quote: the string that starts here "
                                                 "with ") +
                                         text[at] + " runs to the end of the " +
                                         (locate(node).line > 0 ? "file" : "value"));
  }
}

}  // namespace

std::string yaml_describe(const YAML::Node& node) {
  if (!node || node.IsNull()) return "nothing";
  if (node.IsScalar()) return "'" + node.Scalar() + "'";
  if (node.IsSequence()) return "a list";
  return "a mapping";
}

void yaml_expected(const YAML::Node& node, const SourceLocation& where, const std::string& what,
                   const std::string& expected) {
  throw InputError(where, what + ": expected " + expected + ", got " + yaml_describe(node));
}

std::int64_t yaml_integer(const YAML::Node& node, const SourceLocation& where,
                          const std::string& what, std::int64_t min, std::int64_t max) {
  // `beyond`: the value is a number outside the 64 bits of a value (its bound is then named).
  const auto expected = [&](const std::string& beyond = "") {
    std::string range;
    if (min == 0 && max == std::numeric_limits<std::int64_t>::max())
      range = "a non-negative integer";
    else if (min == 1 && max == std::numeric_limits<std::int64_t>::max())
      range = "a positive integer";
    else if (max == std::numeric_limits<std::int64_t>::max() &&
             min == std::numeric_limits<std::int64_t>::min())
      range = "an integer";
    else if (max == std::numeric_limits<std::int64_t>::max())
      range = "an integer >= " + std::to_string(min);
    else
      range = "an integer from " + std::to_string(min) + " to " + std::to_string(max);
    return InputError(where,
                      what + ": expected " + range + beyond + ", got " + yaml_describe(node));
  };
  const std::string too_large = " (at most 2^63 - 1 = 9223372036854775807)";
  const std::string too_small = " (at least -2^63 = -9223372036854775808)";
  if (!node || !node.IsScalar()) throw expected();
  const std::string& text = node.Scalar();
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc::result_out_of_range && ptr == end)
    throw expected(text[0] == '-' ? too_small : too_large);
  if (ec == std::errc() && ptr != end && *ptr == '^' && value == 2) {  // 2^k
    std::int64_t exponent = 0;
    const auto [p2, ec2] = std::from_chars(ptr + 1, end, exponent);
    if ((ec2 == std::errc() && p2 == end && exponent > 62) ||
        (ec2 == std::errc::result_out_of_range && p2 == end && ptr[1] != '-'))
      throw expected(too_large);
    if (ec2 != std::errc() || p2 != end || exponent < 0) throw expected();
    value = std::int64_t{1} << exponent;
  } else if (ec != std::errc() || ptr != end) {
    throw expected();
  }
  if (value < min || value > max) throw expected();
  return value;
}

bool yaml_boolean(const YAML::Node& node, const SourceLocation& where, const std::string& what) {
  if (node && node.IsScalar()) {
    if (node.Scalar() == "true") return true;
    if (node.Scalar() == "false") return false;
  }
  yaml_expected(node, where, what, "true or false");
}

std::string yaml_string(const YAML::Node& node, const SourceLocation& where,
                        const std::string& what) {
  if (!node || !node.IsScalar()) yaml_expected(node, where, what, "a string");
  return node.Scalar();
}

YamlInput::YamlInput(std::filesystem::path file, std::string kind)
    : file_(std::move(file)), kind_(std::move(kind)) {
  const std::string name = file_.string();
  std::string text;
  try {
    std::ifstream in = open_text_file(file_);
    text = read_text(in, {.total_bytes = kMaxYamlBytes});
  } catch (const TextInputError& e) {
    if (e.code() == std::errc::no_such_file_or_directory)
      throw InputError({name, 0, 0}, "no such " + kind_ + " file");
    if (e.code() == std::errc::is_a_directory)
      throw InputError({name, 0, 0}, "expected a " + kind_ + " file, got a folder");
    throw InputError({name, 0, 0}, "cannot read the " + kind_ + " file: " + e.what());
  }
  parse(text);
}

YamlInput::YamlInput(const std::string& text, std::filesystem::path file, std::string kind)
    : file_(std::move(file)), kind_(std::move(kind)) {
  if (text.size() > kMaxYamlBytes)
    throw InputError({file_.string(), 0, 0}, "the " + kind_ + " is more than " +
                                                 std::to_string(kMaxYamlBytes >> 20) + " MiB");
  parse(text);
}

void YamlInput::parse(const std::string& text) {
  const std::string name = file_.string();
  if (const auto bad = invalid_utf8(text))
    throw InputError(location_of(name, text, *bad),
                     fmt::format("invalid UTF-8 (byte 0x{:02x}): YAML is UTF-8 text",
                                 static_cast<unsigned char>(text[*bad])));
  if (const auto bad = control_character(text))
    throw InputError(location_of(name, text, *bad), control_message(text, *bad));
  try {
    const std::vector<YAML::Mark> roots = document_roots(text, 2);
    if (roots.size() == 2 && roots[1].pos == roots[0].pos &&
        static_cast<std::size_t>(roots[1].pos) < text.size())
      throw InputError(
          {name, roots[1].line + 1, roots[1].column + 1},
          "invalid YAML: '" + std::string(1, text[roots[1].pos]) + "' where a value was expected");
    if (roots.size() == 2)
      throw InputError({name, roots[1].line + 1, 0},
                       "a second YAML document (after '---'): a " + kind_ + " is one document");
    root_ = YAML::Load(text);
  } catch (const YAML::DeepRecursion& e) {
    throw InputError({name, e.mark.line + 1, e.mark.column + 1},
                     "invalid YAML: nested " + std::to_string(e.depth()) +
                         " levels deep, beyond what the YAML reader takes");
  } catch (const YAML::ParserException& e) {
    throw InputError({name, e.mark.line + 1, e.mark.column + 1}, "invalid YAML: " + e.msg);
  }
  std::uint64_t values = 0;
  check_tree(root_, text, 0, values, [&](const YAML::Node& node) { return where(node, ""); });
  if (!root_.IsMap())
    throw InputError({name, 1, 1},
                     "expected a " + kind_ + " (a mapping), got " + yaml_describe(root_));
}

void YamlInput::override_value(const std::string& assignment) {
  const SourceLocation option{"--set " + assignment, 0, 0};
  if (invalid_utf8(assignment)) throw InputError(option, "invalid UTF-8: YAML is UTF-8 text");
  const std::size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) throw InputError(option, "expected key.path=value");
  const std::string path = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  if (const auto bad = control_character(text))
    throw InputError(option, control_message(text, *bad));
  YAML::Node value;
  try {
    // One value, as in a file: text after it (after a closing quote: 'umm'x) would start a
    // second document, which YAML::Load drops.
    const std::vector<YAML::Mark> roots = document_roots(text, 2);
    if (roots.size() == 2 && roots[1].pos == roots[0].pos &&
        static_cast<std::size_t>(roots[1].pos) < text.size())
      throw InputError(option, "invalid YAML value: '" + std::string(1, text[roots[1].pos]) +
                                   "' where a value was expected");
    if (roots.size() == 2 && static_cast<std::size_t>(roots[1].pos) < text.size())
      throw InputError(option, "invalid YAML value: text after the value ('" +
                                   text.substr(static_cast<std::size_t>(roots[1].pos)) +
                                   "'): quote the whole value");
    value = YAML::Load(text);
  } catch (const YAML::DeepRecursion& e) {
    throw InputError(option, "invalid YAML value: nested " + std::to_string(e.depth()) +
                                 " levels deep, beyond what the YAML reader takes");
  } catch (const YAML::ParserException& e) {
    throw InputError(option, "invalid YAML value: " + e.msg);
  }
  std::uint64_t values = 0;
  check_tree(value, text, 0, values, [&](const YAML::Node&) { return option; });
  const std::vector<std::string> parts = split_path(path);
  for (const std::string& part : parts)
    if (part.empty()) throw InputError(option, "expected key.path=value (empty key in the path)");
  if (const std::string blocked = set_path(root_, parts, 0, value); !blocked.empty())
    throw InputError(option, blocked + ", not a mapping: " + path + " cannot be set");
  overrides_.emplace_back(path, assignment);
}

SourceLocation YamlInput::where(const YAML::Node& node, const std::string& path) const {
  for (auto it = overrides_.rbegin(); it != overrides_.rend(); ++it) {
    const std::string& set = it->first;
    if (path == set || path.rfind(set + ".", 0) == 0) return {"--set " + it->second, 0, 0};
  }
  if (!node) return {file_.string(), 0, 0};
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) return {file_.string(), 0, 0};
  return {file_.string(), mark.line + 1, mark.column + 1};
}

YamlSection::YamlSection(const YamlInput& input, YAML::Node node, std::string path)
    : input_(&input), node_(std::move(node)), path_(std::move(path)) {}

std::string YamlSection::child(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

std::string YamlSection::name() const { return path_.empty() ? input_->kind() : path_; }

SourceLocation YamlSection::where(const std::string& key) const {
  const YAML::Node value = node_[key];
  return value ? input_->where(value, child(key)) : where();
}

SourceLocation YamlSection::key_where(const std::string& key) const {
  for (const auto& entry : node_)
    if (entry.first.Scalar() == key) return input_->where(entry.first, child(key));
  return where();
}

SourceLocation YamlSection::where(const std::string& key, std::size_t index) const {
  const YAML::Node value = node_[key];
  return value && value.IsSequence() && index < value.size()
             ? input_->where(value[index], child(key))
             : where(key);
}

void YamlSection::fail(const std::string& key, const std::string& message) const {
  throw InputError(where(key), child(key) + ": " + message);
}

std::vector<std::string> YamlSection::keys() const {
  std::vector<std::string> out;
  for (const auto& entry : node_) out.push_back(entry.first.Scalar());
  return out;
}

void YamlSection::allow(const std::vector<std::string>& allowed) const {
  std::set<std::string> seen;
  for (const auto& entry : node_) {
    const std::string key = entry.first.Scalar();
    const SourceLocation at = input_->where(entry.first, child(key));
    if (!seen.insert(key).second) throw InputError(at, "duplicate key '" + key + "' in " + name());
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      throw UnknownKeyError(at, "unknown key '" + key + "' in " + name() + suggestion(key, allowed),
                            child(key));
  }
}

YamlSection YamlSection::section(const std::string& key) const {
  if (!has(key)) throw InputError(where(), name() + ": missing required key '" + key + "'");
  const YAML::Node value = node_[key];
  if (!value.IsMap()) fail(key, "expected a mapping, got " + yaml_describe(value));
  return YamlSection(*input_, value, child(key));
}

std::optional<YamlSection> YamlSection::optional_section(const std::string& key) const {
  if (!has(key)) return std::nullopt;
  return section(key);
}

std::string YamlSection::string(const std::string& key) const {
  if (!has(key)) throw InputError(where(), name() + ": missing required key '" + key + "'");
  return yaml_string(node_[key], where(key), child(key));
}

std::optional<std::string> YamlSection::optional_string(const std::string& key) const {
  if (!has(key)) return std::nullopt;
  return string(key);
}

std::int64_t YamlSection::integer(const std::string& key, std::int64_t min,
                                  std::int64_t max) const {
  if (!has(key)) throw InputError(where(), name() + ": missing required key '" + key + "'");
  return yaml_integer(node_[key], where(key), child(key), min, max);
}

std::optional<std::int64_t> YamlSection::optional_integer(const std::string& key, std::int64_t min,
                                                          std::int64_t max) const {
  if (!has(key)) return std::nullopt;
  return integer(key, min, max);
}

bool YamlSection::boolean(const std::string& key) const {
  if (!has(key)) throw InputError(where(), name() + ": missing required key '" + key + "'");
  return yaml_boolean(node_[key], where(key), child(key));
}

std::optional<bool> YamlSection::optional_boolean(const std::string& key) const {
  if (!has(key)) return std::nullopt;
  return boolean(key);
}

}  // namespace mmsim
