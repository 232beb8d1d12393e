// The papers' figures per machine model. The papers' tables have one column per machine (Nakano
// 2012, Table I: PRAM, BPRAM, DMM, UMM; Nakano and Matsumae 2013, Table I: DMM, SDMM, RSDMM); a
// machine's column follows from its model's traits. The lower bound every program states is
// derived here once from the timing rules, per kind of memory.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/simulation.hpp"
#include "sw/program/bound.hpp"

namespace mmsim {

enum class Column {
  pram,   // crossbar: any p requests in one time unit, latency 1
  bpram,  // any w requests in one time unit, latency 1
  dmm,    // banks, interleaved, one warp per dispatch
  sdmm,   // banks, interleaved, super warps of s > 1 warps
  rsdmm,  // banks behind a random shift unit
  umm,    // address groups
  other,  // banks under another map (skew, xor): the papers have no column for it
};

Column column_of(const MachineConfig& m);

// k: the requests a bank of m's memory (the hierarchical machine's global memory) serves per
// time unit, machine.ports; 1 on the PRAM, which has no banks (docs/semantics.md §10).
unsigned ports_of(const MachineConfig& m);
// The bounds of `bounds` that hold on m: every one where each bank has one port; else those that
// count the ports (Bound::Ports::any), those of barriers (ports change no barrier count), and
// those of the stages of a memory whose banks have one port (docs/programs.md).
std::vector<Bound> bounds_for_ports(const MachineConfig& m, std::vector<Bound> bounds);

// What a program sends, for its lower bound: `total` distinct requests in all (no two lanes of a
// dispatch ask for one address) and `chain`, the most accesses one warp makes one after another
// (across barriers, the sum of each phase's most), each with its formula text.
struct Requests {
  std::string total_text;  // e.g. "2n"
  double total;
  std::string chain_text;  // e.g. "2n/p"
  double chain;
  std::string where = {};  // what the formula's symbols stand for (in the label)
  // What makes the chain's accesses wait for each other.
  std::string chain_label = "accesses of the busiest warp";
};

// "time_lower". A stage group holds at most bw requests on every memory but the PRAM's, b =
// min(k, s) (k = ports_of(m) ports per bank, a dispatch of s warps): the groups enter one per
// time unit and the last completes l - 1 later: time >= ceil(T/(bw)) + l - 1. A warp's accesses
// are l time units apart: time >= l*C. The BPRAM has l = 1: max(T/w, C). The PRAM serves any
// dispatch of at most p requests in one time unit: max(T/p, C). The formula's text reads w, kw
// or sw for bw.
Bound time_lower_bound(const MachineConfig& m, const Requests& requests);

// "time_upper", Nakano and Matsumae 2013, Lemma 1: `rounds` rounds of memory access with total
// congestion C run in C + (l - 1)*rounds (round robin); C the exact congestion where it is
// known (of banks of one port), else the measured stages (of any ports).
Bound lemma1_upper(const MachineConfig& m, std::optional<double> congestion,
                   const RunResult& result, double rounds, const std::string& rounds_text);

// Round robin over `units` dispatch units that each send `rounds` instructions of k stage groups
// one after another: round r+1 starts when the MMU is free and its first unit's request of
// round r has completed: (rounds - 1)*max(U*k, k + l - 1) + U*k + l - 1 (docs/semantics.md §3).
double round_robin_time(double rounds, double units, double k, double l);

// An order (O(...) with constant 1) a paper gives, or mmsim derives, for one column.
struct TimeOrder {
  std::string label;
  std::string formula;
  double value;
  std::string source;
  Bound::Ports ports = Bound::Ports::one;  // as Bound::ports
};

// A program's orders by column; a column left empty has none.
struct OrdersByColumn {
  std::optional<TimeOrder> pram, bpram, dmm, sdmm, rsdmm, umm;
};

// Appends "time_order" for m's column, if the table has one.
void add_time_order(std::vector<Bound>& out, const MachineConfig& m, const OrdersByColumn& orders);

// The orders most of the papers' algorithms share, in the problem size n: PRAM n/p, BPRAM n/w
// (with any ports: its dispatch is one warp), and bandwidth plus latency n/w + n*l/p (of one
// port per bank).
TimeOrder pram_order(const MachineConfig& m, double n, std::string label, std::string source);
TimeOrder bpram_order(const MachineConfig& m, double n, std::string label, std::string source);
TimeOrder optimal_order(const MachineConfig& m, double n, std::string label, std::string source);
// PRAM n/p and BPRAM n/w for `what` (e.g. "a permutation") from `source`, and `order` on every
// memory machine (DMM, SDMM, RSDMM, UMM).
OrdersByColumn orders_everywhere(const MachineConfig& m, double n, const std::string& what,
                                 const std::string& source, const TimeOrder& order);
// The RSDMM: any access of a super warp of s = log w warps has expected congestion O(s)
// (Theorem 6), so with Lemma 1 an algorithm of n/p rounds of O(1) accesses runs in expected
// O(n/w + n*l/p).
TimeOrder random_shift_order(const MachineConfig& m, double n, std::string source);

}  // namespace mmsim
