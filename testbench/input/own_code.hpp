// Code of one's own that a testbench names beside its program (docs/own_maps.md,
// docs/own_policies.md): a Python class ({file, class, params}) or a C++ plugin's entry
// ({library, name, params}), or in short `file.py:Class`, `library:name`, as `program:` names a
// program from outside the tree. What names it, the loaders of each language, its params read
// once when the machine is built, and the naming of a file's or library's code for a listing are
// the same for every kind of code. A kind is a `Code` struct (what its loaded code gives:
// OwnMapCode, OwnPolicyCode) with one OwnCodeLoaders<Code> and a loader per language
// (testbench/python, testbench/external).
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sw/program/external_program.hpp"
#include "sw/program/params.hpp"
#include "testbench/input/param_input.hpp"

namespace mmsim {

// What names code of one's own: its code, its params as written.
struct OwnCodeRef {
  std::string key;       // where it is named: "machine.address_map", "machine.dispatch", "--map"
  SourceLocation where;  // of its value
  ExternalProgram code;  // the file (Python) or library (C++), the class or the entry's name
  WrittenParams params;  // where: of params, or of the value when it gives none
};

// The loaders of one kind of code in one language (Python, C++ plugin).
template <class Code>
struct OwnCodeLoader {
  // The code `ref` names (InputError at ref's places: no such class, ...).
  std::function<std::shared_ptr<const Code>(const OwnCodeRef& ref)> load;
  // Every one of ref's file or library (mmsim list maps --file, --library).
  std::function<std::vector<std::shared_ptr<const Code>>(const OwnCodeRef& ref)> list;
};

// Checks what can be checked of ref's file before its code runs (its name too, when it names
// one: a listing names none), or InputError at ref.
void check_own_code(const OwnCodeRef& ref);
// InputError: this process runs no code of ref's language ("Python maps run in the mmsim
// command and the Python module", `plural` "maps").
[[noreturn]] void refuse_language(const OwnCodeRef& ref, const std::string& plural);

// The loaders of one kind of code, by language.
template <class Code>
class OwnCodeLoaders {
 public:
  // `plural` names the kind in errors: "maps", "policies".
  explicit OwnCodeLoaders(std::string plural) : plural_(std::move(plural)) {}

  // Replaces the loader of `language`.
  void add(ExternalProgram::Kind language, OwnCodeLoader<Code> loader) {
    loaders_[language] = std::move(loader);
  }
  // The loader of ref's language, or InputError at ref (a missing file, a language this process
  // cannot load).
  const OwnCodeLoader<Code>& of(const OwnCodeRef& ref) const {
    check_own_code(ref);
    const auto it = loaders_.find(ref.code.kind);
    if (it == loaders_.end()) refuse_language(ref, plural_);
    return it->second;
  }

 private:
  std::string plural_;
  std::map<ExternalProgram::Kind, OwnCodeLoader<Code>> loaders_;
};

// A parameter the code found wrong, located at it in the testbench (ref.key.params.name).
InputError param_error(const OwnCodeRef& ref, const ParamError& e);

// Code of one's own as the machine uses it, memory by memory: its code loaded, and its params
// read against what it declares, at the first use, not while the testbench is read. Callers
// that share one across threads lock it.
template <class Code>
class LoadedOwnCode {
 public:
  LoadedOwnCode(OwnCodeRef ref, const OwnCodeLoaders<Code>& loaders)
      : ref_(std::move(ref)), loaders_(loaders) {}

  const OwnCodeRef& ref() const { return ref_; }

  // The code (loaded by the first call) and its params.
  const std::shared_ptr<const Code>& code() {
    if (!code_) {
      std::shared_ptr<const Code> code = loaders_.of(ref_).load(ref_);
      params_ = read_params(ref_.params, code->params, ref_.key + ".params",
                            ref_.code.noun + " " + code->name);
      code_ = std::move(code);
    }
    return code_;
  }
  const ParamValues& params() {
    code();
    return params_;
  }

  // make(code, params): what the code makes of them, a parameter it finds wrong (ParamError)
  // located at the parameter in the testbench.
  template <class Make>
  auto make(Make&& make) {
    const std::shared_ptr<const Code>& loaded = code();
    try {
      return make(*loaded, params_);
    } catch (const ParamError& e) {
      throw param_error(ref_, e);
    }
  }

 private:
  OwnCodeRef ref_;
  const OwnCodeLoaders<Code>& loaders_;
  std::shared_ptr<const Code> code_;
  ParamValues params_;
};

// `text` names code of one's own in short: "file.py:Class" (Python) or "library:name" (a
// plugin's `noun`, "map"); it is none when it holds no ':'. Relative files are taken from `base`.
std::optional<OwnCodeRef> short_code_ref(const std::string& text, const std::filesystem::path& base,
                                         const std::string& key, const SourceLocation& where,
                                         const std::string& noun);

// What names every `noun` of a Python file (`python`) or a plugin library, for a listing: `key`
// names the option ("--file", "file"), `where` places its errors.
OwnCodeRef listing_ref(bool python, const std::string& file, const std::string& key,
                       const SourceLocation& where, const std::string& noun);

}  // namespace mmsim
