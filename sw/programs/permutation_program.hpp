// What the permutation programs (Nakano 2012, sections V and VI) share: the permutation P of [0, n)
// from params.permutation, an array a of n words at address 0 holding a recognisable pattern,
// and the check, element by element, that afterwards the result array holds old a[i] at P(i).
#pragma once

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/memory/address_maps.hpp"
#include "sw/planning/errors.hpp"
#include "sw/planning/permutation.hpp"
#include "sw/program/program_info.hpp"

namespace mmsim {

// WarpProgram is a virtual base: the hierarchical machine's permutation programs are also
// HmmPrograms.
class PermutationProgram : public virtual WarpProgram {
 public:
  // Reads n, permutation and seed; throws InputError / ParamError for a bad permutation spec.
  explicit PermutationProgram(const ProgramArgs& args);
  // A permutation its program names itself (no permutation or seed parameter).
  PermutationProgram(std::uint64_t n, planning::PermutationSpec spec)
      : n_(n), spec_(std::move(spec)) {}

  // The permutation (8 bytes per element; more while reading it from a file).
  std::uint64_t host_bytes() const override;
  // Builds the permutation (a file's errors are found here). Programs that plan override it,
  // calling it first.
  void prepare() override;

  void initialize(Mmu& memory) override;
  void verify(const Mmu& memory) override;
  std::vector<ProgramFigure> figures() const override;

  // The parameters every permutation program takes, followed by `extra`.
  static std::vector<ParamSpec> params(std::vector<ParamSpec> extra = {});

 protected:
  // Runs `plan` (a function returning the plan), timing it as the program's planning time.
  template <class Plan>
  auto timed(Plan&& plan) {
    const auto start = std::chrono::steady_clock::now();
    auto result = plan();
    plan_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  }
  // For programs that move n/p words per thread in rounds: checks that p divides n and keeps p.
  void check_rounds(const MachineConfig& m);
  // The rounds of such a program: in round t, the thread of index i = t*p + T moves the word
  // at from(i) to to(i) (a read, then a write of the lanes' registers).
  template <class From, class To>
  Task move_rounds(Warp& warp, From from, To to) {
    const unsigned w = warp.width();
    std::vector<Address> sources(w);
    std::vector<Address> targets(w);
    for (std::uint64_t t = 0; t < n_ / threads_; ++t) {
      for (unsigned lane = 0; lane < w; ++lane) {
        const std::uint64_t i = t * threads_ + warp.thread(lane);
        sources[lane] = from(i);
        targets[lane] = to(i);
      }
      co_await warp.read(sources);
      co_await warp.write(targets);
    }
  }

  // The stages of warps writing destination d(i) for i = k*w .. k*w+w-1, k = 0 .. n/w-1, by the
  // definitions (DMM: distinct addresses per bank; UMM: distinct rows; BPRAM: one), or nothing
  // for other models (super warps, permuted banks, the PRAM).
  template <class Destination>
  std::optional<std::uint64_t> scatter_stages(const MachineConfig& m, Destination&& d) const;

  std::uint64_t n_;
  std::uint64_t threads_ = 0;  // p, set by check_rounds
  planning::PermutationSpec spec_;
  planning::Permutation p_;         // built by prepare()
  std::filesystem::path schedule_;  // empty: plan here
  Address result_ = 0;              // base of the array that holds the result
  std::optional<double> plan_seconds_;
};

template <class Destination>
std::optional<std::uint64_t> PermutationProgram::scatter_stages(const MachineConfig& m,
                                                                Destination&& d) const {
  const Splitting splitting = machine_model(m).memory.splitting;
  if (splitting == Splitting::crossbar) return std::nullopt;  // stages count unit dispatches
  if (splitting == Splitting::bandwidth) return n_ / m.width;
  const bool banked = splitting == Splitting::banked;
  if (banked && (m.super_warp != 1 || !address_map_of(m).identity)) return std::nullopt;
  std::uint64_t total = 0;
  for (std::uint64_t first = 0; first < n_; first += m.width) {
    std::map<std::uint64_t, std::uint64_t> per_bank;
    std::set<std::uint64_t> rows;
    std::uint64_t k = 0;
    for (std::uint64_t i = first; i < first + m.width; ++i) {
      k = std::max(k, ++per_bank[d(i) % m.width]);
      rows.insert(d(i) / m.width);
    }
    total += banked ? k : rows.size();
  }
  return total;
}

// Runs f, turning the planners' errors into located input errors (file and line when they come
// from a file, else the parameter `param`).
// Opens params.schedule; a ParamError (at that key) with the file and the reason when it cannot:
// missing, a folder, unreadable.
std::ifstream open_schedule(const std::filesystem::path& file);

template <class F>
auto planning_input(const std::string& param, F&& f) {
  try {
    return f();
  } catch (const planning::PlanningError& e) {
    if (!e.file().empty()) throw InputError({e.file(), static_cast<int>(e.line()), 0}, e.message());
    throw ParamError(param, e.message());
  }
}

}  // namespace mmsim
