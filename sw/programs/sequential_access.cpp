#include "sw/programs/sequential_access.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <span>
#include <vector>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/memory/address_maps.hpp"
#include "hw/support/errors.hpp"
#include "hw/support/four_lanes.hpp"
#include "hw/support/vector_isa.hpp"
#include "sw/program/data_pattern.hpp"
#include "sw/program/model_bounds.hpp"
#include "sw/program/rounds.hpp"

namespace mmsim {
namespace {

enum class Pattern { contiguous, stride };

// What a thread writes to cell a (so that the result can be checked cell by cell).
Word written_value(Address a) { return ~data_pattern(a); }

// The per-lane loops live outside the coroutine: GCC optimises (vectorises) them only there
// (and its lambda captures values: see for_each_lane).
[[gnu::noinline]] void lane_addresses(Address base, std::uint64_t stride, std::span<Address> out) {
  with_vector_isa([o = out.data(), n = out.size(), base, stride] {
    std::size_t lane = 0;
    if (stride == 1) {  // contiguous: one vector add per four lanes
      FourAddresses next = FourAddresses{0, 1, 2, 3} + base;
      for (; lane + 16 <= n; lane += 16)
        for (std::size_t j = lane; j < lane + 16; j += 4, next += 4)
          std::memcpy(o + j, &next, sizeof next);
      for (; lane < n; ++lane) o[lane] = base + lane;
      return;
    }
    Address a = base;  // an induction the vectoriser steps (no 64-bit multiply)
    for (; lane < n; ++lane, a += stride) o[lane] = a;
  });
}

// Lane i's address in round t: t*p + T(0) + i, a run (LaneRun) of consecutive addresses.
struct ContiguousLanes {
  LaneRun operator()(std::uint64_t t) const { return LaneRun{t * threads + first_thread}; }
  std::uint64_t threads;
  std::uint64_t first_thread;
};

// Lane i's address in round t: (T(0) + i)*(n/p) + t.
struct StrideLanes {
  std::span<const Address> operator()(std::uint64_t t) {
    lane_addresses(first_thread * rounds + t, rounds, addresses);
    return addresses;
  }
  std::uint64_t rounds;
  std::uint64_t first_thread;
  std::vector<Address> addresses;
};

class SequentialAccess final : public WarpProgram {
 public:
  SequentialAccess(Pattern pattern, const ParamValues& params)
      : pattern_(pattern), n_(params.count("n")), op_(params.string("op")) {
    if (op_ != "read" && op_ != "write")
      throw ParamError("op", "expected read or write, got '" + op_ + "'");
  }

  void configure(const MachineConfig& machine) override {
    p_ = machine.threads;
    rounds_ = rounds_of(n_, p_, "accesses n/p cells");
  }

  std::uint64_t memory_words() const override { return n_; }

  void initialize(Mmu& memory) override {
    memory.fill(n_, [](Address a) { return data_pattern(a); });
  }

  Task run(Warp& warp) override {
    if (pattern_ == Pattern::contiguous) return rounds(warp, ContiguousLanes{p_, warp.thread(0)});
    return rounds(warp, StrideLanes{rounds_, warp.thread(0), std::vector<Address>(warp.width())});
  }

  void verify(const Mmu& memory) override {
    if (op_ != "write") return;
    for (Address a = 0; a < n_; ++a)
      verification().expect_equal(memory.peek(a), written_value(a),
                                  [a] { return "m[" + std::to_string(a) + "]"; });
  }

  std::vector<Bound> bounds(const MachineConfig& m, const RunResult& result) const override;

 private:
  // The rounds: in round t every lane reads its cell lanes(t) (the values checked) or writes it.
  template <class Lanes>
  Task rounds(Warp& warp, Lanes lanes) {
    std::vector<Word> values(warp.width());
    const bool reading = op_ == "read";
    for (std::uint64_t t = 0; t < rounds_; ++t) {
      const auto addresses = lanes(t);
      if (reading) {
        const auto got = co_await warp.read(addresses);
        check_read(warp, got, addresses);
      } else {
        written_values(addresses, values);
        co_await warp.write(addresses, values);
      }
    }
  }
  template <class Addresses>
  void check_read(const Warp& warp, std::span<const Word> got, const Addresses& addresses) {
    expect_pattern(verification(), got, addresses, [&](std::size_t lane) {
      return "thread " + std::to_string(warp.thread(lane)) + " read m[" +
             std::to_string(addresses[lane]) + "]";
    });
  }
  template <class Addresses>
  [[gnu::noinline]] static void written_values(const Addresses& addresses, std::span<Word> values) {
    for (std::size_t lane = 0; lane < values.size(); ++lane)
      values[lane] = written_value(addresses[lane]);
  }

  // Stages one dispatch unit occupies in every round, where the timing rules fix it.
  std::optional<std::uint64_t> stages_per_dispatch(const MachineConfig& m) const;

  Pattern pattern_;
  std::uint64_t n_;
  std::string op_;
  std::uint64_t p_ = 0;
  std::uint64_t rounds_ = 0;
};

std::optional<std::uint64_t> SequentialAccess::stages_per_dispatch(const MachineConfig& m) const {
  const std::uint64_t s = m.super_warp;
  const Splitting splitting = machine_model(m).memory.splitting;
  // A bank's requests, k at a time through its k ports (docs/semantics.md §10).
  const std::uint64_t k = ports_of(m);
  const auto through_ports = [k](std::uint64_t requests) { return (requests + k - 1) / k; };
  // w distinct requests per warp: one group (BPRAM, kw per group); any dispatch: one group (PRAM).
  if (splitting == Splitting::bandwidth || splitting == Splitting::crossbar) return 1;
  // Contiguous: every warp reads one whole address group, which every map spreads over the w
  // banks (a map permutes the cells of a row): s requests per bank, or one group on the UMM.
  if (pattern_ == Pattern::contiguous) return splitting == Splitting::banked ? through_ports(s) : 1;
  if (splitting != Splitting::banked) return std::nullopt;  // UMM: rows vary with the alignment
  if (!address_map_of(m).identity) return std::nullopt;     // banks permuted per row
  // Nakano 2012: w/G banks with G requests each, for every warp of the super warp.
  return through_ports(s * std::gcd(rounds_, std::uint64_t{m.width}));
}

std::vector<Bound> SequentialAccess::bounds(const MachineConfig& m, const RunResult&) const {
  const double n = static_cast<double>(n_);
  const double p = static_cast<double>(p_);
  const double w = m.width;
  const double l = m.latency;
  const double s = static_cast<double>(rounds_);
  const bool contiguous = pattern_ == Pattern::contiguous;
  const std::string access = contiguous ? "contiguous access" : "stride access";
  std::vector<Bound> out = {time_lower_bound(m, {"n", n, "n/p", s})};
  // Nakano 2012, Table I (PRAM, BPRAM, DMM, UMM). The SDMM's super warp of s warps sends s
  // times the requests of one warp to the same banks: the DMM's total congestion, the DMM's
  // order. The RSDMM: Theorem 6 of Nakano and Matsumae 2013.
  const double g = static_cast<double>(std::gcd(rounds_, std::uint64_t{m.width}));
  const std::string with_g = ", G = GCD(n/p, w) = " + std::to_string(static_cast<int>(g));
  // On banks of k > 1 ports a bank's G requests (s*G of a super warp, s of a contiguous super
  // warp) take ceil(G/k) stage groups (docs/semantics.md §10); a single warp's contiguous access
  // takes one group whatever k.
  const double k = ports_of(m);
  const double sw = static_cast<double>(m.super_warp);
  TimeOrder dmm = contiguous
                      ? optimal_order(m, n, access + " on the DMM", "Nakano 2012, Table I")
                      : TimeOrder{access + " on the DMM" + with_g,
                                  k == 1 ? "n*G/w + n*l/p" : "n*ceil(G/k)/w + n*l/p",
                                  n * std::ceil(g / k) / w + n * l / p, "Nakano 2012, Table I"};
  dmm.ports = Bound::Ports::any;
  TimeOrder sdmm = dmm;
  sdmm.label = access + " on the SDMM: s times the DMM's requests per bank" +
               (contiguous ? std::string{} : with_g);
  sdmm.source = "Nakano 2012, Table I, DMM column";
  if (k > 1) {
    const double per_bank = contiguous ? sw : sw * g;  // a super warp's requests per bank
    sdmm.formula = contiguous ? "n*ceil(s/k)/(s*w) + n*l/p" : "n*ceil(s*G/k)/(s*w) + n*l/p";
    sdmm.value = n * std::ceil(per_bank / k) / (sw * w) + n * l / p;
  }
  TimeOrder rsdmm_contiguous = sdmm;
  rsdmm_contiguous.label = access + ": every row spread over the w banks";
  rsdmm_contiguous.source = "Nakano and Matsumae 2013, Lemma 1";
  TimeOrder umm_contiguous = optimal_order(m, n, access + " on the UMM", "Nakano 2012, Table I");
  umm_contiguous.ports = Bound::Ports::any;  // one address group per warp
  add_time_order(
      out, m,
      {.pram = pram_order(m, n, access + " on the PRAM", "Nakano 2012, Table I"),
       .bpram = bpram_order(m, n, access + " on the BPRAM", "Nakano 2012, Table I"),
       .dmm = dmm,
       .sdmm = sdmm,
       .rsdmm = contiguous ? rsdmm_contiguous
                           : random_shift_order(m, n, "Nakano and Matsumae 2013, Theorem 6"),
       .umm = contiguous ? umm_contiguous
                         : TimeOrder{access + " on the UMM", "min(n, (n/w)*(n/p)) + n*l/p",
                                     std::min(n, n / w * s) + n * l / p, "Nakano 2012, Table I"}});
  if (m.dispatch != "round_robin") return out;

  const double units = p / (w * m.super_warp);
  if (const auto k = stages_per_dispatch(m)) {
    const double kk = static_cast<double>(*k);
    const std::string of_ports =
        ports_of(m) == 1 ? "" : " (banks of " + std::to_string(ports_of(m)) + " ports)";
    out.push_back({"time_exact",
                   "round robin, " + std::to_string(*k) + " stage(s) per dispatch" + of_ports,
                   "(n/p - 1)*max(U*k, k + l - 1) + U*k + l - 1, U = p/(s*w)",
                   round_robin_time(s, units, kk, l), Bound::Kind::exact, Bound::Measure::cycles,
                   "docs/semantics.md §3", Bound::Ports::any});
    out.push_back({"congestion_exact", "total congestion" + of_ports, "(n/p)*U*k", s * units * kk,
                   Bound::Kind::exact, Bound::Measure::stages, "Nakano and Matsumae 2013, Lemma 1",
                   Bound::Ports::any});
  } else if (machine_model(m).memory.splitting == Splitting::coalesced) {
    // Nakano 2012: a warp's cells span at most min(n/p, w) address groups.
    const double k = std::min(s, w);
    out.push_back({"time_upper", "stride access on the UMM, at most min(n/p, w) groups per warp",
                   "(n/p)*(min(n/p, w)*p/w + l - 1)", s * (k * p / w + l - 1), Bound::Kind::upper,
                   Bound::Measure::cycles, "Nakano 2012, section III"});
  }
  return out;
}

std::vector<ParamSpec> sequential_access_params() {
  return {
      {"n", ParamType::integer, "array size in words (a multiple of p)", std::nullopt},
      {"op", ParamType::string, "read (values checked) or write (memory checked)", "read"},
  };
}

}  // namespace

ProgramInfo contiguous_access_program() {
  return {"contiguous_access", "in round t, thread i accesses m[t*p + i] (n/p rounds)",
          "Nakano 2012, section III", sequential_access_params(),
          make_program<SequentialAccess>(Pattern::contiguous)};
}

ProgramInfo stride_access_program() {
  return {"stride_access", "in round t, thread i accesses m[i*(n/p) + t] (n/p rounds)",
          "Nakano 2012, section III", sequential_access_params(),
          make_program<SequentialAccess>(Pattern::stride)};
}

}  // namespace mmsim
