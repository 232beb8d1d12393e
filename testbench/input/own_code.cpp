#include "testbench/input/own_code.hpp"

namespace mmsim {

void check_own_code(const OwnCodeRef& ref) {
  if (ref.code.name.empty())
    check_external_file(ref.code);
  else
    check_external_program(ref.code);
}

void refuse_language(const OwnCodeRef& ref, const std::string& plural) {
  const bool python = ref.code.kind == ExternalProgram::Kind::python;
  throw InputError(ref.code.file_where,
                   ref.key + (python ? ": Python " : ": plugin ") + plural +
                       " run in the mmsim command and the Python module (libmmsim), not in "
                       "this program");
}

InputError param_error(const OwnCodeRef& ref, const ParamError& e) {
  const std::string key = ref.key + ".params." + e.param();
  for (const WrittenParam& p : ref.params.values)
    if (p.name == e.param()) return InputError(p.where, key + ": " + e.what());
  return InputError(ref.params.where, key + ": " + e.what());
}

std::optional<OwnCodeRef> short_code_ref(const std::string& text, const std::filesystem::path& base,
                                         const std::string& key, const SourceLocation& where,
                                         const std::string& noun) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string::npos) return std::nullopt;
  const std::string file = text.substr(0, colon);
  const std::string name = text.substr(colon + 1);
  if (file.empty() || name.empty())
    throw InputError(where, key + ": '" + text +
                                "': expected file.py:Class (a Python class) or library:name (a "
                                "C++ plugin's " +
                                noun + ")");
  OwnCodeRef ref;
  ref.key = key;
  ref.where = where;
  ref.params.where = where;
  ref.code.kind = std::filesystem::path(file).extension() == ".py" ? ExternalProgram::Kind::python
                                                                   : ExternalProgram::Kind::library;
  ref.code.key = key;
  ref.code.noun = noun;
  ref.code.in_short = true;
  std::error_code error;
  ref.code.file = std::filesystem::absolute(base / file, error).lexically_normal();
  ref.code.name = name;
  ref.code.file_where = where;
  ref.code.name_where = where;
  return ref;
}

OwnCodeRef listing_ref(bool python, const std::string& file, const std::string& key,
                       const SourceLocation& where, const std::string& noun) {
  OwnCodeRef ref;
  ref.key = key;
  ref.where = where;
  ref.code.kind = python ? ExternalProgram::Kind::python : ExternalProgram::Kind::library;
  ref.code.key = key;
  ref.code.noun = noun;
  ref.code.in_short = true;
  std::error_code error;
  ref.code.file = std::filesystem::absolute(file, error).lexically_normal();
  ref.code.file_where = ref.code.name_where = where;
  return ref;
}

}  // namespace mmsim
