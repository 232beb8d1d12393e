// A theoretical figure the papers give for a program, next to which a run's measurement is shown.
#pragma once

#include <string>

namespace mmsim {

struct Bound {
  enum class Kind { lower, upper, exact, order };
  // stages: over all memories; global_stages, shared_stages: of the hierarchical machine's
  // global memory, and of its shared memories together.
  enum class Measure { cycles, stages, syncthreads, global_stages, shared_stages, grid_syncs };
  // The banks it holds for (machine.ports): of one port, the papers'; or of any number, where its
  // formula counts the ports or they cannot change what it measures. A run on banks of more
  // ports leaves out those of one (bounds_for_ports, sw/program/model_bounds.hpp).
  enum class Ports { one, any };

  std::string key;      // stable JSON key, e.g. "time_lower"
  std::string label;    // what it is, e.g. "lower bound (every thread's n/p requests, w per cycle)"
  std::string formula;  // e.g. "max(n/w + l - 1, l*n/p)"
  double value = 0;     // the formula evaluated for this run
  Kind kind = Kind::order;
  Measure measure = Measure::cycles;
  std::string source;  // where the papers give it, e.g. "Nakano 2012, Table I"
  Ports ports = Ports::one;
};

inline const char* to_string(Bound::Kind kind) {
  switch (kind) {
    case Bound::Kind::lower:
      return "lower";
    case Bound::Kind::upper:
      return "upper";
    case Bound::Kind::exact:
      return "exact";
    case Bound::Kind::order:
      return "order";
  }
  return "?";
}

inline const char* to_string(Bound::Measure measure) {
  switch (measure) {
    case Bound::Measure::cycles:
      return "cycles";
    case Bound::Measure::stages:
      return "stages";
    case Bound::Measure::syncthreads:
      return "syncthreads";
    case Bound::Measure::global_stages:
      return "global_stages";
    case Bound::Measure::shared_stages:
      return "shared_stages";
    case Bound::Measure::grid_syncs:
      return "grid_syncs";
  }
  return "?";
}

}  // namespace mmsim
