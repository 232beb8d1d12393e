// The sites of a run's instructions, interned: each distinct place (file, line, label) gets one
// id, in the order first seen. Only a profiled run builds one (hw/pe/site.hpp).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "hw/pe/site.hpp"

namespace mmsim {

using SiteId = std::uint32_t;

// A site as reports show it: C++ files relative to the source tree they were built from, C++
// labels the function's name as __func__ spells it (no scope, no template arguments).
struct SiteInfo {
  std::string file;
  std::uint32_t line = 0;
  std::string label;
  bool operator==(const SiteInfo&) const = default;
};

class SiteTable {
 public:
  // The id of `site`; a CodeLocation or Site seen before costs one hash lookup.
  SiteId intern(SiteRef site);
  const std::vector<SiteInfo>& sites() const { return sites_; }
  const SiteInfo& operator[](SiteId id) const { return sites_[id]; }
  std::size_t size() const { return sites_.size(); }

 private:
  SiteId place(SiteInfo info);

  std::unordered_map<SiteKey, SiteId, SiteKeyHash> by_key_;
  // Two instantiations of one template line, or two Site objects of one line, are one site.
  std::map<std::tuple<std::string, std::uint32_t, std::string>, SiteId> by_place_;
  std::vector<SiteInfo> sites_;
};

// "mmsim::Task mmsim::{anonymous}::Transpose::run(mmsim::Warp&)" -> "run": the name as __func__
// spells it.
std::string short_function_name(std::string_view function);

}  // namespace mmsim
