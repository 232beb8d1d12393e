// A run's profile (hw/observers/profile.hpp) as the report shows it, its top locations, and as
// the statistics JSON holds it, every row (docs/statistics.md, "Profile").
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hw/machine/simulation.hpp"
#include "hw/observers/profile.hpp"

namespace mmsim {

// Locations the report lists.
inline constexpr std::size_t kReportedSites = 10;

// "memory", "SM 3 shared", or "barrier" for a barrier row.
std::string row_memory(const ProfileRow& row, const RunResult& result);

// The report's lines: the rows that took the most warp time, at most `shown` of them.
std::vector<std::string> profile_lines(const ProfileTable& profile, const RunResult& result,
                                       std::size_t shown = kReportedSites);

nlohmann::json profile_json(const ProfileTable& profile, const RunResult& result);
// The profile a statistics file holds (profile_json read back), from `file`: InputError at the
// file, naming the key that is not as docs/statistics.md describes it ("profile.rows[3].site:
// names site 1000000000; the profile has 2 sites").
ProfileTable profile_from_json(const nlohmann::json& profile, const std::string& file);

// Stages per dispatch, "2.50"; "-" without a dispatch (a barrier's row).
std::string mean_stages(const SiteCounts& counts);

}  // namespace mmsim
