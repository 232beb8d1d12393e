// The parameters a testbench gives to code that declares them (program.params, and the params
// of a map of one's own): each value read as its declared type says, a parameter the code does
// not declare refused with the nearest name, a missing one given its default or refused.
#pragma once

#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "sw/program/params.hpp"
#include "testbench/input/yaml_input.hpp"

namespace mmsim {

// A parameter as the testbench writes it: read once the code's declared parameters are known.
struct WrittenParam {
  std::string name;
  YAML::Node value;
  SourceLocation where;      // of the value
  SourceLocation key_where;  // of the name
};

// A `params` mapping as written, kept until the code that declares its parameters is loaded.
struct WrittenParams {
  std::vector<WrittenParam> values;
  // Where the mapping is, or what names the code when it gives none: a missing parameter's place.
  SourceLocation where;
};

// The parameters of the mapping `params` as written (a key written twice is refused).
WrittenParams written_params(const YamlSection& params);

// `node` read as `spec`'s type; `what` names it in errors ("program.params.n").
ParamValue param_value(const YAML::Node& node, const ParamSpec& spec, const SourceLocation& where,
                       const std::string& what);

// The values of `declared`, from `written` (under the key `key`: "program.params") or their
// defaults. `owner` names the code in errors ("program transpose", "map Swizzle").
ParamValues read_params(const WrittenParams& written, const std::vector<ParamSpec>& declared,
                        const std::string& key, const std::string& owner);

}  // namespace mmsim
