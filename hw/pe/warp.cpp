#include "hw/pe/warp.hpp"

#include <utility>

#include "hw/support/counted.hpp"
#include "hw/support/errors.hpp"

namespace mmsim {

const Warp::Instruction Warp::kNone = {};

Warp::Warp(const Placement& placement, unsigned width, std::uint64_t local_words)
    : registers_(width),
      width_(width),
      index_(placement.index),
      count_(placement.count),
      block_(placement.block),
      blocks_(placement.blocks),
      local_words_(local_words),
      local_(std::size_t{width} * local_words) {
  for (unsigned lane = 0; lane < width; ++lane) registers_[lane] = static_cast<Word>(thread(lane));
}

void Warp::wrong_addresses(std::size_t count) const {
  throw SimulationError("warp " + std::to_string(index_) + " issued " +
                        counted(count, "address", "addresses") + " for " +
                        counted(width_, "lane"));
}

void Warp::wrong_values(std::size_t count) const {
  throw SimulationError("warp " + std::to_string(index_) + " wrote " + counted(count, "value") +
                        " for " + counted(width_, "lane"));
}

std::span<const Address> Warp::run_addresses() const {
  if (run_written_pc_ != pc_ || run_addresses_.empty()) {
    run_addresses_.resize(width_);
    const Address first = instruction().run_first;
    for (unsigned lane = 0; lane < width_; ++lane) run_addresses_[lane] = first + lane;
    run_written_pc_ = pc_;
  }
  return run_addresses_;
}

void Warp::arrive(BarrierScope scope, SiteRef site) {
  own_ = Instruction{.kind = Instruction::Kind::sync, .scope = scope, .site = site};
  issued_ = nullptr;
  ++pc_;
  ++barriers_;
  if (scope == BarrierScope::grid) ++grid_barriers_;
}

void Warp::start(Task program) {
  program_ = std::move(program);
  suspended_ = program_.handle();
}

const Warp::Instruction& Warp::advance() {
  issued_ = &kNone;  // until an awaiter issues (or a sync arrives)
  auto next = std::exchange(suspended_, {});
  next.resume();
  if (program_.done()) {
    program_.rethrow_if_failed();
    own_ = Instruction{.kind = Instruction::Kind::done};
    issued_ = nullptr;
  }
  return instruction();
}

}  // namespace mmsim
