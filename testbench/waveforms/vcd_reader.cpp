#include "testbench/waveforms/vcd_reader.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>

namespace mmsim {
namespace {

std::uint64_t binary_value(const std::string& bits) {
  std::uint64_t value = 0;
  for (const char c : bits) value = (value << 1) | (c == '1');
  return value;
}

bool binary_defined(const std::string& bits) {
  return bits.find_first_not_of("01") == std::string::npos;
}

}  // namespace

VcdFile VcdFile::read(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot open " + file.string());
  VcdFile vcd;
  std::vector<std::string> scopes;
  std::string token;
  std::uint64_t now = 0;
  const auto fail = [&](const std::string& what) {
    throw std::runtime_error(file.string() + ": " + what);
  };
  // Reads words up to "$end" (the body of a declaration).
  const auto body = [&]() {
    std::vector<std::string> words;
    std::string word;
    while (in >> word && word != "$end") words.push_back(word);
    if (word != "$end") fail("unterminated declaration");
    return words;
  };
  bool definitions = true;
  while (in >> token) {
    if (token == "$timescale") {
      const auto words = body();
      for (const auto& w : words) vcd.timescale_ += (vcd.timescale_.empty() ? "" : " ") + w;
    } else if (token == "$scope") {
      const auto words = body();
      if (words.size() < 2) fail("malformed $scope");
      scopes.push_back(words[1]);
    } else if (token == "$upscope") {
      body();
      if (scopes.empty()) fail("$upscope without $scope");
      scopes.pop_back();
    } else if (token == "$var") {
      const auto words = body();
      if (words.size() < 4) fail("malformed $var");
      std::string name;
      for (std::size_t i = 1; i < scopes.size(); ++i) name += scopes[i] + ".";  // below the top
      name += words[3];
      vcd.ids_[name] = words[2];
      vcd.widths_[words[2]] = static_cast<unsigned>(std::stoul(words[1]));
    } else if (token == "$enddefinitions") {
      body();
      definitions = false;
    } else if (token[0] == '$') {
      if (token != "$dumpvars" && token != "$dumpall" && token != "$dumpon" &&
          token != "$dumpoff" && token != "$end")
        body();  // $date, $version, $comment
    } else if (definitions) {
      fail("value change before $enddefinitions");
    } else if (token[0] == '#') {
      now = std::stoull(token.substr(1));
      vcd.timestamps_.push_back(now);
    } else if (token[0] == 'b' || token[0] == 'B') {
      std::string id;
      if (!(in >> id)) fail("vector value without identifier");
      const std::string bits = token.substr(1);
      vcd.changes_[id].push_back({now, binary_value(bits), binary_defined(bits)});
    } else if (std::string_view("01xzXZ").find(token[0]) != std::string_view::npos) {
      vcd.changes_[token.substr(1)].push_back(
          {now, static_cast<std::uint64_t>(token[0] == '1'), token[0] == '0' || token[0] == '1'});
    } else {
      fail("unexpected '" + token + "'");
    }
  }
  return vcd;
}

bool VcdFile::timestamps_strictly_increase() const {
  for (std::size_t i = 1; i < timestamps_.size(); ++i)
    if (timestamps_[i] <= timestamps_[i - 1]) return false;
  return true;
}

std::vector<std::string> VcdFile::signals() const {
  std::vector<std::string> names;
  for (const auto& [name, id] : ids_) names.push_back(name);
  return names;
}

unsigned VcdFile::width(const std::string& name) const { return widths_.at(ids_.at(name)); }

const std::vector<VcdFile::Change>& VcdFile::changes(const std::string& name) const {
  static const std::vector<Change> none;
  const auto it = changes_.find(ids_.at(name));
  return it == changes_.end() ? none : it->second;
}

std::optional<bool> VcdFile::defined_at(const std::string& name, std::uint64_t t) const {
  std::optional<bool> defined;
  for (const Change& c : changes(name)) {
    if (c.time > t) break;
    defined = c.defined;
  }
  return defined;
}

std::optional<std::uint64_t> VcdFile::value_at(const std::string& name, std::uint64_t t) const {
  std::optional<std::uint64_t> value;
  for (const Change& c : changes(name)) {
    if (c.time > t) break;
    value = c.value;
  }
  return value;
}

}  // namespace mmsim
