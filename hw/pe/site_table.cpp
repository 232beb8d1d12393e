#include "hw/pe/site_table.hpp"

namespace mmsim {
namespace {

// The source tree this library was built from (ends in '/'): C++ sites are shown relative to it.
constexpr std::string_view kSourceDir = MMSIM_SOURCE_DIR;

// The compiler names a file as it was given: absolute, or relative to the folder it ran in (a
// folder of the build tree, inside the source tree or beside it).
std::string relative_to_source(std::string_view file) {
  while (file.starts_with("../") || file.starts_with("./"))
    file.remove_prefix(file.starts_with("./") ? 2 : 3);
  std::string_view root = kSourceDir;
  if (!file.starts_with('/')) root.remove_prefix(1);  // the tree's path without its leading '/'
  if (file.starts_with(root)) file.remove_prefix(root.size());
  return std::string(file);
}

void erase_all(std::string& s, std::string_view part) {
  for (std::size_t at = s.find(part); at != std::string::npos; at = s.find(part, at))
    s.erase(at, part.size());
}

}  // namespace

std::string short_function_name(std::string_view function) {
  std::string full(function);
  erase_all(full, "(anonymous namespace)::");  // clang's spelling
  erase_all(full, "{anonymous}::");            // GCC's
  erase_all(full, "mmsim::");
  // The name ends where its parameters start (the first '(' outside template brackets) and
  // starts after its return type (the last space before, outside brackets).
  int depth = 0;
  std::size_t start = 0;
  std::size_t end = full.size();
  for (std::size_t i = 0; i < full.size(); ++i) {
    const char c = full[i];
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (depth != 0) continue;
    if (c == ' ') start = i + 1;
    if (c == '(') {
      end = i;
      break;
    }
  }
  // As __func__ spells it (all clang 14 gives): no scope, no template arguments, so that a
  // profile reads the same from every compiler.
  std::string name = full.substr(start, end - start);
  if (const std::size_t open = name.find('<'); open != std::string::npos && name.back() == '>')
    name.erase(open);
  if (const std::size_t scope = name.rfind("::"); scope != std::string::npos)
    name.erase(0, scope + 2);
  return name;
}

SiteId SiteTable::intern(SiteRef site) {
  if (const auto it = by_key_.find(site.key()); it != by_key_.end()) return it->second;
  SiteInfo info;
  if (site.empty()) {
    info.label = "(no site)";
  } else if (site.given()) {
    info = {std::string(site.site().file), site.site().line, std::string(site.site().label)};
  } else {
    const CodeLocation where = site.location();
    info = {relative_to_source(where.file_name()), where.line(),
            short_function_name(where.function_name())};
  }
  const SiteId id = place(std::move(info));
  by_key_.emplace(site.key(), id);
  return id;
}

SiteId SiteTable::place(SiteInfo info) {
  auto key = std::make_tuple(info.file, info.line, info.label);
  if (const auto it = by_place_.find(key); it != by_place_.end()) return it->second;
  const auto id = static_cast<SiteId>(sites_.size());
  sites_.push_back(std::move(info));
  by_place_.emplace(std::move(key), id);
  return id;
}

}  // namespace mmsim
