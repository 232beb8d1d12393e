// Schedule files: a plan written as line-oriented text so that other programs (a CUDA kernel's
// host code, the simulator) can replay it. Format: sw/planning/SCHEDULE_FORMAT.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <istream>
#include <ostream>
#include <span>
#include <string>
#include <variant>

#include "sw/planning/dmm_plan.hpp"
#include "sw/planning/umm_plan.hpp"

namespace mmsim::planning {

inline constexpr int kScheduleFormatVersion = 1;

/// Writers. P is the permutation the plan was made for (its checksum goes into the header).
void write_schedule(std::ostream& out, const DmmPlan& plan, std::span<const std::uint64_t> p);
void write_schedule(std::ostream& out, const UmmPlan& plan, std::span<const std::uint64_t> p);
void save_schedule(const std::filesystem::path& path, const DmmPlan& plan,
                   std::span<const std::uint64_t> p);
void save_schedule(const std::filesystem::path& path, const UmmPlan& plan,
                   std::span<const std::uint64_t> p);

/// Readers. Each validates the file against P and throws ScheduleError (file, line, what was
/// expected) on the first problem: syntax, wrong kind/n/w/checksum, a source that does not go
/// where P says, a source scheduled twice or never, a DMM colour step with a bank conflict, a
/// UMM row that is not a permutation or a plan that does not realise P.
/// `name` is the file name used in the errors; `expected_w` (0: any) is the width of the machine
/// the schedule is meant for.
DmmPlan read_dmm_schedule(std::istream& in, const std::string& name,
                          std::span<const std::uint64_t> p, std::uint64_t expected_w = 0);
UmmPlan read_umm_schedule(std::istream& in, const std::string& name,
                          std::span<const std::uint64_t> p, std::uint64_t expected_w = 0);
/// Reads either kind (the header says which).
std::variant<DmmPlan, UmmPlan> read_schedule(std::istream& in, const std::string& name,
                                             std::span<const std::uint64_t> p,
                                             std::uint64_t expected_w = 0);
std::variant<DmmPlan, UmmPlan> load_schedule(const std::filesystem::path& path,
                                             std::span<const std::uint64_t> p,
                                             std::uint64_t expected_w = 0);

}  // namespace mmsim::planning
