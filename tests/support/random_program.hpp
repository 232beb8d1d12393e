// Random warp programs over both spaces of a machine, for the tests that run one program two
// ways (on the SystemC machine and a reference machine; as runs and as spans of addresses).
#pragma once

#include <random>

#include "support/reference_machine.hpp"

namespace mmsim::test {

// What a random program is made of (shares of its instructions, drawn one by one).
struct RandomProgramShape {
  unsigned longest = 10;     // instructions per warp: 0 .. longest
  double syncs = 0.08;       // syncthreads
  double grid_syncs = 0.04;  // grid_syncs
  double reads = 0.56;       // an access is a read below this draw (of [0, 1)), else a write
  double shared = 0.45;      // accesses to the shared memory
  // Accesses whose lanes are a run, a, a + 1, ... (a fifth of them ending at the memory's last
  // word); the others send each lane to a random address, or nothing (one in five).
  double runs = 0;
};

inline RefProgram random_program(std::mt19937_64& rng, unsigned width, unsigned warps,
                                 std::uint64_t global_words, std::uint64_t shared_words,
                                 const RandomProgramShape& shape = {}) {
  std::uniform_int_distribution<unsigned> length(0, shape.longest);
  std::uniform_real_distribution<double> coin(0, 1);
  std::uniform_int_distribution<Word> value(-1000, 1000);
  RefProgram program;
  program.warps.resize(warps);
  for (auto& warp : program.warps) {
    const unsigned n = length(rng);
    for (unsigned i = 0; i < n; ++i) {
      RefInstruction in;
      const double kind = coin(rng);
      if (kind < shape.syncs) {
        in.kind = RefInstruction::sync;
      } else if (kind < shape.syncs + shape.grid_syncs) {
        in.kind = RefInstruction::grid_sync;
      } else {
        in.kind = kind < shape.reads ? RefInstruction::read : RefInstruction::write;
        in.space = coin(rng) < shape.shared ? Space::shared : Space::global;
        const std::uint64_t words = in.space == Space::shared ? shared_words : global_words;
        std::uniform_int_distribution<Address> address(0, words - 1);
        if (shape.runs > 0 && words >= width && coin(rng) < shape.runs) {
          std::uniform_int_distribution<Address> first(0, words - width);
          const Address start = coin(rng) < 0.2 ? words - width : first(rng);
          for (unsigned lane = 0; lane < width; ++lane) {
            in.addresses.push_back(start + lane);
            in.values.push_back(value(rng));
          }
        } else {
          for (unsigned lane = 0; lane < width; ++lane) {
            in.addresses.push_back(coin(rng) < 0.8 ? address(rng) : kInactive);
            in.values.push_back(value(rng));
          }
        }
      }
      warp.push_back(std::move(in));
    }
  }
  return program;
}

}  // namespace mmsim::test
