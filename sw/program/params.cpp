#include "sw/program/params.hpp"

namespace mmsim {

std::string to_string(ParamType type) {
  switch (type) {
    case ParamType::integer:
      return "integer";
    case ParamType::boolean:
      return "boolean";
    case ParamType::string:
      return "string";
    case ParamType::integer_list:
      return "list of integers";
  }
  return "?";
}

}  // namespace mmsim
