#include "sw/program/external_program.hpp"

#include <map>

namespace mmsim {
namespace {

std::map<ExternalProgram::Kind, ExternalProgramLoader>& loaders() {
  static std::map<ExternalProgram::Kind, ExternalProgramLoader> all;
  return all;
}

}  // namespace

void register_program_loader(ExternalProgram::Kind kind, ExternalProgramLoader loader) {
  loaders()[kind] = std::move(loader);
}

std::shared_ptr<const ProgramInfo> load_external_program(const ExternalProgram& program) {
  const bool python = program.kind == ExternalProgram::Kind::python;
  std::error_code error;
  if (!std::filesystem::is_regular_file(program.file, error))
    throw InputError(program.file_where, std::string(python ? "program.file" : "program.library") +
                                             ": no such file: " + program.file.string());
  const auto it = loaders().find(program.kind);
  if (it == loaders().end())
    throw InputError(program.file_where,
                     python ? "program.file: Python programs run in the mmsim command and the "
                              "Python module (libmmsim), not in this program"
                            : "program.library: plugins run in the mmsim command and the Python "
                              "module (libmmsim), not in this program");
  return it->second(program);
}

}  // namespace mmsim
