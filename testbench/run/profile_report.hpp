// A run's profile (hw/observers/profile.hpp) as the report shows it, its top locations, and as
// the statistics JSON holds it, every row (docs/statistics.md, "Profile").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hw/machine/simulation.hpp"
#include "hw/observers/profile.hpp"
#include "sw/program/input_error.hpp"

namespace mmsim {

// Locations the report lists unless told.
inline constexpr std::size_t kReportedSites = 10;

// How the report shows a profile (--profile=KEY,ROWS,memories): its rows in the order of a
// key, how many, and whether each memory of the hierarchical machine has its own (else each
// shared-memory line once, summed over the multiprocessors).
struct ProfileView {
  enum class Order { time, stages, mean, max };
  Order order = Order::time;
  std::optional<std::size_t> rows = kReportedSites;  // none: all
  bool per_memory = false;
};

// The view --profile's value names: comma-separated words, each a key (time, stages, mean,
// max), a row count (a number, or all) or `memories`; empty: the default. InputError at `where`
// for another word.
ProfileView profile_view(const std::string& text, const SourceLocation& where);

// "memory", "SM 3 shared", or "barrier" for a barrier row.
std::string row_memory(const ProfileRow& row, const RunResult& result);

// The report's lines: the rows first by the view's key, as many as it says; on the
// hierarchical machine each shared-memory line once, summed over the multiprocessors, unless the
// view asks for each memory.
std::vector<std::string> profile_lines(const ProfileTable& profile, const RunResult& result,
                                       const ProfileView& view = {});

nlohmann::json profile_json(const ProfileTable& profile, const RunResult& result);
// The profile a statistics file holds (profile_json read back), from `file`: InputError at the
// file, naming the key that is not as docs/statistics.md describes it ("profile.rows[3].site:
// names site 1000000000; the profile has 2 sites").
ProfileTable profile_from_json(const nlohmann::json& profile, const std::string& file);

// Stages per dispatch, "2.50"; "-" without a dispatch (a barrier's row).
std::string mean_stages(const SiteCounts& counts);

}  // namespace mmsim
