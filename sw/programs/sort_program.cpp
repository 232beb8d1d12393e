#include "sw/programs/sort_program.hpp"

#include <algorithm>
#include <bit>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/support/errors.hpp"
#include "sw/program/powers.hpp"
#include "sw/programs/hierarchical_only.hpp"

namespace mmsim {
namespace {

// The GPGPU thesis, section 5.2: each multiprocessor's shared memory holds 15000 keys;
// mmsim takes a power of two below it, which leaves room for the algorithms' work arrays.
constexpr std::uint64_t kDefaultBlock = std::uint64_t{1} << 12;
constexpr std::uint64_t kWarpsPerMultiprocessor = 4;

}  // namespace

SortProgram::SortProgram(const ProgramArgs& args, std::string name)
    : name_(std::move(name)),
      source_(args.params, args.base_dir),
      drop_sync_(args.params.integer("drop_sync")),
      requested_block_(args.params.count("block")) {
  if (const std::string why = not_a_power(n(), 2, "two"); !why.empty() || n() < 2)
    throw ParamError("n", (why.empty() ? "n = 1 is too small" : why) + " (" + name_ +
                              " sorts a power of two of at least 2 keys)");
  if (!std::has_single_bit(requested_block_))
    throw ParamError("block",
                     "block = " + std::to_string(requested_block_) + " is not a power of two");
}

void SortProgram::prepare() {
  keys_ = source_.make();
  sorted_ = keys_;
  std::sort(sorted_.begin(), sorted_.end());
}

unsigned SortProgram::log_n() const { return static_cast<unsigned>(std::countr_zero(n())); }
unsigned SortProgram::log_block() const { return static_cast<unsigned>(std::countr_zero(block_)); }

std::uint64_t SortProgram::blocks_of(unsigned j) const {
  return blocks() > j ? (blocks() - j + d_ - 1) / d_ : 0;
}

std::uint64_t SortProgram::default_threads(const MachineConfig& machine) const {
  if (machine_model(machine).hierarchical)
    return std::uint64_t{machine.multiprocessors} * kWarpsPerMultiprocessor * machine.width;
  return flat_threads(machine);
}

void SortProgram::require_hierarchical(const MachineConfig& machine) const {
  mmsim::require_hierarchical(machine, name_,
                              "each multiprocessor sorts blocks of keys in its shared memory");
}

void SortProgram::configure(const MachineConfig& machine) {
  hierarchical_ = machine_model(machine).hierarchical;
  if (hierarchical_) {
    block_ = std::min(requested_block_, n());
    d_ = machine.multiprocessors;
    block_threads_ = machine.threads / d_;
  }
  const std::uint64_t barriers = configure_sort(machine);
  if (drop_sync_ < 0 || static_cast<std::uint64_t>(drop_sync_) > barriers)
    throw ParamError("drop_sync", "expected 0 (none) or a barrier from 1 to " +
                                      std::to_string(barriers) + ", got " +
                                      std::to_string(drop_sync_));
}

void SortProgram::initialize(Mmu& memory) {
  for (Address a = 0; a < n(); ++a) memory.poke(a, keys_[a]);
}

void SortProgram::verify(const Mmu& memory) { verify_sorted(verification(), memory, 0, sorted_); }

Bound SortProgram::io_lower_bound(unsigned width, unsigned latency) const {
  const double groups = static_cast<double>(n()) / width;
  return {"time_lower",
          "lower bound: every key read, and after the last read every key of the output "
          "written, through the global pipeline",
          "2n/w_g + 2l - 2",
          2 * groups + 2.0 * latency - 2,
          Bound::Kind::lower,
          Bound::Measure::cycles,
          "docs/semantics.md §3"};
}

std::vector<ParamSpec> sort_params(std::vector<ParamSpec> extra) {
  std::vector<ParamSpec> params = sort_input_params();
  params.push_back({"block", ParamType::integer,
                    "hierarchical machine: keys each multiprocessor sorts in its shared memory (a "
                    "power of two; n if smaller)",
                    std::to_string(kDefaultBlock)});
  params.push_back({"drop_sync", ParamType::integer,
                    "leave out each warp's k-th barrier (a deliberately broken variant; 0: none)",
                    "0"});
  params.insert(params.end(), extra.begin(), extra.end());
  return params;
}

}  // namespace mmsim
