// program.library: a C++ plugin's programs (sw/program/plugin.hpp), loaded (plugin_code.hpp) once
// load_external_program has checked its file (sw/support/shared_library_file.hpp). The library
// stays loaded for the life of the process: its programs' code runs until the end. What its code
// throws is the program's own failure (ProgramError, exit status 1), reported as "the program
// threw: ...", never an exception that ends mmsim (std::terminate).
#include <cxxabi.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <typeinfo>

#include "hw/support/errors.hpp"
#include "sw/program/external_program.hpp"
#include "sw/program/plugin.hpp"
#include "sw/program/program_error.hpp"
#include "sw/support/suggest.hpp"
#include "testbench/external/plugin_code.hpp"

namespace mmsim {
namespace {

const std::vector<ProgramInfo>& plugin_programs(const ExternalProgram& plugin) {
  return plugin_entries<ProgramInfo>(
      plugin.file, plugin.file_where, "program.library",
      {.abi_symbol = "mmsim_plugin_abi",
       .table_symbol = "mmsim_plugin_programs",
       .abi = kPluginAbi,
       .abi_name = "plugin ABI",
       .without =
           "is not an mmsim plugin (it has no MMSIM_PLUGIN_PROGRAMS: sw/program/plugin.hpp)"});
}

// The type of the exception being handled, readable ("std::runtime_error").
std::string current_exception_type() {
  const std::type_info* type = abi::__cxa_current_exception_type();
  if (type == nullptr) return "an exception";
  int status = 0;
  char* readable = abi::__cxa_demangle(type->name(), nullptr, nullptr, &status);
  std::string name = status == 0 && readable != nullptr ? readable : type->name();
  std::free(readable);
  return name;
}

// Where a plugin's code runs: its program, for messages.
struct PluginOrigin {
  std::string program;
  std::string file;
};

// Rethrows the exception being handled: mmsim's own errors as they are (they say what they mean:
// a parameter that does not fit, bad input, a failed run), anything else as the program's
// failure, naming what threw it and where.
[[noreturn]] void rethrow_from_plugin(const PluginOrigin& origin, const char* method) {
  const auto threw = [&](const std::string& what) {
    return ProgramError("the program threw: " + what + " (" + current_exception_type() + ", from " +
                        method + " of " + origin.program + " in " + origin.file + ")");
  };
  try {
    throw;
  } catch (const InputError&) {
    throw;
  } catch (const ParamError&) {
    throw;
  } catch (const ConfigError&) {
    throw;
  } catch (const SimulationError&) {
    throw;
  } catch (const std::exception& e) {
    throw threw(e.what());
  } catch (...) {
    throw threw("an exception that is not a std::exception");
  }
}

// Calls `f`, the plugin's `method`, its exceptions through rethrow_from_plugin.
template <class F>
decltype(auto) guarded(const PluginOrigin& origin, const char* method, F&& f) {
  try {
    return f();
  } catch (...) {
    rethrow_from_plugin(origin, method);
  }
}

// A plugin's program as mmsim runs it: every call into the plugin's code guarded, its checks
// (the Verification its run and verify filled) taken over once verify has run.
class PluginProgram final : public WarpProgram {
 public:
  PluginProgram(std::unique_ptr<WarpProgram> program, std::shared_ptr<const PluginOrigin> origin)
      : program_(std::move(program)), origin_(std::move(origin)) {}

  std::uint64_t default_threads(const MachineConfig& machine) const override {
    return guarded(*origin_, "default_threads()",
                   [&] { return program_->default_threads(machine); });
  }
  void configure(const MachineConfig& machine) override {
    guarded(*origin_, "configure()", [&] { program_->configure(machine); });
  }
  std::uint64_t memory_words() const override {
    return guarded(*origin_, "memory_words()", [&] { return program_->memory_words(); });
  }
  std::uint64_t shared_words() const override {
    return guarded(*origin_, "shared_words()", [&] { return program_->shared_words(); });
  }
  std::uint64_t local_words() const override {
    return guarded(*origin_, "local_words()", [&] { return program_->local_words(); });
  }
  std::uint64_t host_bytes() const override {
    return guarded(*origin_, "host_bytes()", [&] { return program_->host_bytes(); });
  }
  void prepare() override {
    guarded(*origin_, "prepare()", [&] { program_->prepare(); });
  }
  void initialize(Mmu& memory) override {
    guarded(*origin_, "initialize()", [&] { program_->initialize(memory); });
  }
  Task run(Warp& warp) override {
    try {
      co_await program_->run(warp);
    } catch (...) {
      rethrow_from_plugin(*origin_, "run()");
    }
  }
  void verify(const Mmu& memory) override {
    guarded(*origin_, "verify()", [&] { program_->verify(memory); });
    verification() = program_->verification();
  }
  std::vector<ProgramFigure> figures() const override {
    return guarded(*origin_, "figures()", [&] { return program_->figures(); });
  }
  std::vector<ProgramTable> tables() const override {
    return guarded(*origin_, "tables()", [&] { return program_->tables(); });
  }
  std::vector<ProgramTable> profile_tables(const ProfileTable& profile) const override {
    return guarded(*origin_, "profile_tables()", [&] { return program_->profile_tables(profile); });
  }
  std::vector<Bound> bounds(const MachineConfig& machine, const RunResult& result) const override {
    return guarded(*origin_, "bounds()", [&] { return program_->bounds(machine, result); });
  }

 private:
  std::unique_ptr<WarpProgram> program_;
  std::shared_ptr<const PluginOrigin> origin_;
};

std::shared_ptr<const ProgramInfo> load_plugin_program(const ExternalProgram& plugin) {
  const std::vector<ProgramInfo>& programs = plugin_programs(plugin);
  std::vector<std::string> names;
  for (const ProgramInfo& info : programs) {
    if (info.name != plugin.name) {
      names.push_back(info.name);
      continue;
    }
    // The library stays loaded: `info` lives as long as the process.
    auto origin = std::make_shared<const PluginOrigin>(
        PluginOrigin{"'" + info.name + "'", plugin.file.filename().string()});
    auto guarded_info = std::make_shared<ProgramInfo>(info);
    guarded_info->make = [&info, origin, plugin](const ProgramArgs& args) {
      std::unique_ptr<WarpProgram> made =
          guarded(*origin, "make (its constructor)", [&] { return info.make(args); });
      if (!made)
        throw InputError(plugin.name_where, "program.name: " + plugin.file.filename().string() +
                                                "'s program '" + info.name +
                                                "' made no program (its make returned nullptr)");
      return std::unique_ptr<WarpProgram>(std::make_unique<PluginProgram>(std::move(made), origin));
    };
    if (info.made_bytes)
      guarded_info->made_bytes = [&info, origin](const ProgramArgs& args) {
        return guarded(*origin, "made_bytes", [&] { return info.made_bytes(args); });
      };
    return guarded_info;
  }
  throw InputError(plugin.name_where, "program.name: " + plugin.file.filename().string() +
                                          " has no program '" + plugin.name + "'" +
                                          suggestion(plugin.name, names));
}

[[maybe_unused]] const bool registered =
    (register_program_loader(ExternalProgram::Kind::library, load_plugin_program), true);

}  // namespace
}  // namespace mmsim
