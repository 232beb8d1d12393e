#include "sw/program/external_program.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>

#include "sw/support/shared_library_file.hpp"

namespace mmsim {
namespace {

std::map<ExternalProgram::Kind, ExternalProgramLoader>& loaders() {
  static std::map<ExternalProgram::Kind, ExternalProgramLoader> all;
  return all;
}

// A Python identifier, as far as bytes tell: letters, digits and _, not starting with a digit
// (the bytes of a UTF-8 letter taken as letters).
bool identifier(const std::string& name) {
  const auto letter = [](unsigned char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
  };
  if (name.empty() || !letter(static_cast<unsigned char>(name[0]))) return false;
  return std::all_of(name.begin(), name.end(), [&](char c) {
    return letter(static_cast<unsigned char>(c)) || (c >= '0' && c <= '9');
  });
}

}  // namespace

std::string file_key(const ExternalProgram& program) {
  if (program.in_short) return program.key;
  return program.key + (program.kind == ExternalProgram::Kind::python ? ".file" : ".library");
}

std::string name_key(const ExternalProgram& program) {
  if (program.in_short) return program.key;
  return program.key + (program.kind == ExternalProgram::Kind::python ? ".class" : ".name");
}

void check_external_file(const ExternalProgram& program) {
  const std::string key = file_key(program);
  const std::string file = program.file.string();
  const auto fail = [&](const std::string& why) {
    throw InputError(program.file_where, key + ": " + file + ": " + why);
  };
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0 && errno == ENOENT)
    throw InputError(program.file_where, key + ": no such file: " + file);
  if (fd < 0) fail(std::string("cannot read it: ") + std::strerror(errno));
  struct stat info {};
  const bool regular = ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode);
  ::close(fd);
  if (!regular) fail(S_ISDIR(info.st_mode) ? "it is a folder" : "it is not a regular file");
  if (program.kind == ExternalProgram::Kind::library) {
    if (const std::string why = shared_library_problem(program.file); !why.empty()) fail(why);
    return;
  }
  if (program.file.extension() != ".py")
    fail("not a Python file: a Python " + program.noun + " is a .py file (a C++ " + program.noun +
         " is " + program.key + ".library)");
}

void check_external_program(const ExternalProgram& program) {
  check_external_file(program);
  if (program.kind == ExternalProgram::Kind::python && !identifier(program.name))
    throw InputError(program.name_where,
                     name_key(program) +
                         ": expected the name of a Python class (letters, digits and _, not "
                         "starting with a digit), got '" +
                         program.name + "'");
}

void register_program_loader(ExternalProgram::Kind kind, ExternalProgramLoader loader) {
  loaders()[kind] = std::move(loader);
}

std::shared_ptr<const ProgramInfo> load_external_program(const ExternalProgram& program) {
  check_external_program(program);  // again: the file may have changed since the testbench loaded
  const auto it = loaders().find(program.kind);
  if (it == loaders().end())
    throw InputError(program.file_where,
                     program.kind == ExternalProgram::Kind::python
                         ? "program.file: Python programs run in the mmsim command and the "
                           "Python module (libmmsim), not in this program"
                         : "program.library: plugins run in the mmsim command and the Python "
                           "module (libmmsim), not in this program");
  return it->second(program);
}

}  // namespace mmsim
