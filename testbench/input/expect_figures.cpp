#include "testbench/input/expect_figures.hpp"

#include <stdexcept>

#include "hw/machine/simulation.hpp"

namespace mmsim {

const std::vector<ExpectFigure>& expect_figures() {
  static const std::vector<ExpectFigure> figures = {
      {"cycles", "the running time in time units", [](const RunResult& r) { return r.cycles(); }},
      {"dispatches", "dispatches", [](const RunResult& r) { return r.counters.dispatches; }},
      {"grid_syncs", "grid_sync steps", [](const RunResult& r) { return r.grid_syncs; }},
      {"requests", "thread requests sent (active lanes)",
       [](const RunResult& r) { return r.counters.requests; }},
      {"stages", "the total congestion: stage groups of all dispatches",
       [](const RunResult& r) { return r.counters.stages; }},
      {"syncthreads", "barrier steps (hmm: the most of one SM)",
       [](const RunResult& r) { return r.syncthreads; }},
  };
  return figures;
}

const ExpectFigure& expect_figure(const std::string& name) {
  for (const ExpectFigure& figure : expect_figures())
    if (figure.name == name) return figure;
  throw std::out_of_range("no expect figure " + name);
}

}  // namespace mmsim
