#include "testbench/input/param_input.hpp"

#include <algorithm>
#include <limits>

#include "sw/support/suggest.hpp"

namespace mmsim {

WrittenParams written_params(const YamlSection& params) {
  params.allow(params.keys());  // refuses a key written twice
  WrittenParams written{.values = {}, .where = params.where()};
  for (const std::string& name : params.keys())
    written.values.push_back({name, params.node(name), params.where(name), params.key_where(name)});
  return written;
}

ParamValue param_value(const YAML::Node& node, const ParamSpec& spec, const SourceLocation& where,
                       const std::string& what) {
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  switch (spec.type) {
    case ParamType::integer:
      return yaml_integer(node, where, what, kMin, kMax);
    case ParamType::boolean:
      return yaml_boolean(node, where, what);
    case ParamType::string:
      return yaml_string(node, where, what);
    case ParamType::integer_list: {
      if (!node.IsSequence()) yaml_expected(node, where, what, "a list of integers");
      std::vector<std::int64_t> values;
      for (std::size_t i = 0; i < node.size(); ++i)
        values.push_back(
            yaml_integer(node[i], where, what + "[" + std::to_string(i) + "]", kMin, kMax));
      return values;
    }
  }
  throw InputError(where, what + ": unsupported parameter type");
}

ParamValues read_params(const WrittenParams& written, const std::vector<ParamSpec>& declared,
                        const std::string& key, const std::string& owner) {
  std::vector<std::string> names;
  for (const ParamSpec& spec : declared) names.push_back(spec.name);
  for (const WrittenParam& p : written.values)
    if (std::find(names.begin(), names.end(), p.name) == names.end())
      throw UnknownKeyError(p.key_where,
                            "unknown key '" + p.name + "' in " + key + suggestion(p.name, names),
                            key + "." + p.name);
  ParamValues values;
  for (const ParamSpec& spec : declared) {
    const std::string what = key + "." + spec.name;
    const auto given = std::find_if(written.values.begin(), written.values.end(),
                                    [&](const WrittenParam& p) { return p.name == spec.name; });
    if (given != written.values.end())
      values.set(spec.name, param_value(given->value, spec, given->where, what), given->where);
    else if (spec.default_value)
      values.set(spec.name, param_value(YAML::Load(*spec.default_value), spec, {}, what));
    else
      throw InputError(written.where,
                       owner + " needs parameter '" + spec.name + "' (" + spec.help + ")");
  }
  return values;
}

}  // namespace mmsim
