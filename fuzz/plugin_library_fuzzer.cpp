// A plugin's library checked before dlopen maps it (sw/support/shared_library_file.hpp), fed
// mutated ELF bytes. The check alone sees them: nothing mutated is ever opened. Only the
// known-good seed (seed_plugin.cpp, built beside this target, which scripts/fuzz puts in the
// corpus) is also opened, and only when the check accepts it: it must load and be an mmsim
// plugin. Traps: the seed refused, or a strict prefix of it accepted (a file cut short is what
// the check is for). Expected outcome of any other input: a reason, or "" for a complete library.
#include <dlfcn.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/fuzz_input.hpp"
#include "sw/program/plugin.hpp"
#include "sw/support/shared_library_file.hpp"

namespace {

const std::string& seed() {
  static const std::string bytes = [] {
    std::ifstream in(MMSIM_FUZZ_SEED_PLUGIN, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  return bytes;
}

// Opens the library at `file` (the seed's bytes) as the plugin loader does, and checks that it
// is the seed: an mmsim plugin of this ABI listing the program "seed".
void load_seed(const std::string& file) {
  void* library = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) __builtin_trap();
  const auto abi = reinterpret_cast<int (*)()>(dlsym(library, "mmsim_plugin_abi"));
  const auto programs = reinterpret_cast<const std::vector<mmsim::ProgramInfo>* (*)()>(
      dlsym(library, "mmsim_plugin_programs"));
  if (abi == nullptr || programs == nullptr || abi() != mmsim::kPluginAbi ||
      programs()->size() != 1 || programs()->front().name != "seed")
    __builtin_trap();
  dlclose(library);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = mmsim::fuzz::as_text(data, size);
  const auto file = mmsim::fuzz::write_input("libplugin.so", data, size);
  const bool accepted = mmsim::shared_library_problem(file).empty();
  const bool is_seed = input == seed();
  if (is_seed && !accepted) __builtin_trap();
  if (!is_seed && accepted && seed().starts_with(input)) __builtin_trap();
  if (is_seed) load_seed(file.string());
  return 0;
}
