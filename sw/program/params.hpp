// Program parameters: what each program declares it takes (`mmsim list` shows it, the loader
// checks testbenches against it) and the typed values it receives.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "sw/program/input_error.hpp"

namespace mmsim {

enum class ParamType { integer, boolean, string, integer_list };

std::string to_string(ParamType type);

struct ParamSpec {
  std::string name;
  ParamType type;
  std::string help;
  std::optional<std::string> default_value;  // as written in YAML; none: required
  bool required() const { return !default_value; }
};

using ParamValue = std::variant<std::int64_t, bool, std::string, std::vector<std::int64_t>>;

class ParamValues {
 public:
  void set(const std::string& name, ParamValue value, SourceLocation where = {}) {
    values_[name] = Entry{std::move(value), std::move(where)};
  }
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  // Typed access; the loader has already checked types against the specs.
  std::int64_t integer(const std::string& name) const { return get<std::int64_t>(name); }
  bool boolean(const std::string& name) const { return get<bool>(name); }
  const std::string& string(const std::string& name) const { return get<std::string>(name); }
  const std::vector<std::int64_t>& integers(const std::string& name) const {
    return get<std::vector<std::int64_t>>(name);
  }
  // A positive integer parameter.
  std::uint64_t count(const std::string& name) const {
    const std::int64_t v = integer(name);
    if (v < 1) throw ParamError(name, name + " must be at least 1 (got " + std::to_string(v) + ")");
    return static_cast<std::uint64_t>(v);
  }
  const SourceLocation& where(const std::string& name) const { return values_.at(name).where; }

 private:
  struct Entry {
    ParamValue value;
    SourceLocation where;
  };
  template <class T>
  const T& get(const std::string& name) const {
    const auto it = values_.find(name);
    if (it == values_.end()) throw ParamError(name, "missing parameter " + name);
    return std::get<T>(it->second.value);
  }
  std::map<std::string, Entry> values_;
};

}  // namespace mmsim
