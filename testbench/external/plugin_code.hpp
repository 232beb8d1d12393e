// What C++ plugins share, whatever they export (programs, address maps, dispatch policies): the
// library opened with dlopen once and kept loaded for the life of the process, its table of
// entries read after its ABI version is checked, and, for code of one's own (maps, policies),
// the loader that finds an entry by name and lists them all.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sw/support/suggest.hpp"
#include "testbench/input/own_code.hpp"

namespace mmsim {

// What a plugin library exports for one kind of entry: the function that gives its table and
// the one that gives the ABI it was built for.
struct PluginExports {
  const char* abi_symbol;    // "mmsim_plugin_maps_abi"
  const char* table_symbol;  // "mmsim_plugin_maps"
  int abi;                   // this mmsim's: kMapPluginAbi
  std::string abi_name;      // "map plugin ABI"
  // What the message says of a library without them: "has no address maps (no ...)".
  std::string without;
};

// The table function `exports` names in `file`, its ABI checked, or InputError at `where`
// under `key`.
void* plugin_table_function(const std::filesystem::path& file, const SourceLocation& where,
                            const std::string& key, const PluginExports& exports);

// The entries `exports` names in `file`, read once.
template <class Entry>
const std::vector<Entry>& plugin_entries(const std::filesystem::path& file,
                                         const SourceLocation& where, const std::string& key,
                                         const PluginExports& exports) {
  static std::map<std::filesystem::path, const std::vector<Entry>*> loaded;
  if (const auto it = loaded.find(file); it != loaded.end()) return *it->second;
  const auto table = reinterpret_cast<const std::vector<Entry>* (*)()>(
      plugin_table_function(file, where, key, exports));
  const std::vector<Entry>* entries = table();
  if (entries == nullptr)
    throw InputError(where,
                     key + ": " + file.string() + ": " + exports.table_symbol + "() gave no list");
  return *(loaded[file] = entries);
}

// What the exception being handled says (its what(), for a std::exception).
std::string thrown_text();

// A Code of the plugin's `entry` with what every kind has: its name, description, source (the
// library) and declared params.
template <class Code, class Entry>
std::shared_ptr<Code> plugin_code(const Entry& entry, const OwnCodeRef& ref) {
  auto code = std::make_shared<Code>();
  code->name = entry.name;
  code->description = entry.description;
  code->source = ref.code.file.string();
  code->params = entry.params;
  return code;
}

// The loader of a kind of code of one's own from plugins: the entries (Entry, with its `name`)
// `exports` names, each made into a Code by `code_of`.
template <class Code, class Entry>
OwnCodeLoader<Code> plugin_loader(PluginExports exports,
                                  std::shared_ptr<const Code> (*code_of)(const Entry& entry,
                                                                         const OwnCodeRef& ref)) {
  const auto entries = [exports](const OwnCodeRef& ref) -> const std::vector<Entry>& {
    return plugin_entries<Entry>(ref.code.file, ref.code.file_where, ref.key, exports);
  };
  return {.load =
              [entries, code_of](const OwnCodeRef& ref) {
                std::vector<std::string> names;
                for (const Entry& entry : entries(ref)) {
                  if (entry.name == ref.code.name) return code_of(entry, ref);
                  names.push_back(entry.name);
                }
                throw InputError(ref.code.name_where,
                                 name_key(ref.code) + ": " + ref.code.file.filename().string() +
                                     " has no " + ref.code.noun + " '" + ref.code.name + "'" +
                                     suggestion(ref.code.name, names));
              },
          .list =
              [entries, code_of](const OwnCodeRef& ref) {
                std::vector<std::shared_ptr<const Code>> out;
                for (const Entry& entry : entries(ref)) out.push_back(code_of(entry, ref));
                return out;
              }};
}

}  // namespace mmsim
