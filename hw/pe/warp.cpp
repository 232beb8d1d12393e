#include "hw/pe/warp.hpp"

#include <algorithm>

#include "hw/support/counted.hpp"
#include "hw/support/errors.hpp"

namespace mmsim {

Warp::Warp(const Placement& placement, unsigned width, std::uint64_t local_words)
    : index_(placement.index),
      width_(width),
      count_(placement.count),
      block_(placement.block),
      blocks_(placement.blocks),
      local_words_(local_words),
      registers_(width),
      local_(std::size_t{width} * local_words) {
  for (unsigned lane = 0; lane < width; ++lane) registers_[lane] = static_cast<Word>(thread(lane));
}

Warp::MemoryAwaiter Warp::memory(AccessKind access, std::span<const Address> addresses,
                                 std::span<const Word> values, Space space, SiteRef site) {
  if (addresses.size() != width_)
    throw SimulationError("warp " + std::to_string(index_) + " issued " +
                          counted(addresses.size(), "address", "addresses") + " for " +
                          counted(width_, "lane"));
  return MemoryAwaiter(*this, Instruction{.kind = Instruction::Kind::memory,
                                          .access = access,
                                          .space = space,
                                          .addresses = addresses,
                                          .values = values,
                                          .site = site});
}

bool Warp::issue(const Instruction& instruction) {
  const std::span<const Address> addresses = instruction.addresses;
  if (std::none_of(addresses.begin(), addresses.end(), [](Address a) { return a != kInactive; }))
    return false;
  pending_ = instruction;
  ++pc_;
  return true;
}

Warp::MemoryAwaiter Warp::read(std::span<const Address> addresses, Space space, SiteRef site) {
  return memory(AccessKind::read, addresses, {}, space, site);
}

Warp::MemoryAwaiter Warp::write(std::span<const Address> addresses, std::span<const Word> values,
                                Space space, SiteRef site) {
  if (values.size() != width_)
    throw SimulationError("warp " + std::to_string(index_) + " wrote " +
                          counted(values.size(), "value") + " for " + counted(width_, "lane"));
  return memory(AccessKind::write, addresses, values, space, site);
}

void Warp::arrive(BarrierScope scope, SiteRef site) {
  pending_ = Instruction{.kind = Instruction::Kind::sync, .scope = scope, .site = site};
  ++pc_;
  ++barriers_;
  if (scope == BarrierScope::grid) ++grid_barriers_;
}

void Warp::start(Task program) {
  program_ = std::move(program);
  suspended_ = program_.handle();
}

const Warp::Instruction& Warp::advance() {
  pending_ = Instruction{};
  auto next = std::exchange(suspended_, {});
  next.resume();
  if (program_.done()) {
    program_.rethrow_if_failed();
    pending_.kind = Instruction::Kind::done;
  }
  return pending_;
}

}  // namespace mmsim
