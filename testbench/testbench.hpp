// A testbench: the machine, the program, the outputs and the expected figures, as loaded and
// checked from YAML (the format is in README.md, "Testbench reference").
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "hw/machine/machine_config.hpp"
#include "sw/program/input_error.hpp"
#include "sw/program/registry.hpp"

namespace mmsim {

struct Testbench {
  std::filesystem::path file;
  std::string name;
  std::string description;

  MachineConfig machine;
  bool threads_given = false;  // else the program's own thread count
  bool race_check = false;     // machine.race_check: run the race detector
  std::string program;
  ProgramArgs args;

  std::string vcd;    // outputs.vcd ("" = none)
  std::string stats;  // outputs.stats ("" = none)
  // expect: figures the run must reproduce exactly (cycles, dispatches, stages, requests,
  // syncthreads), part of its verification.
  std::map<std::string, std::uint64_t> expect;

  // Where each key came from ("machine.width", "program.params.n", ...), for errors found
  // after loading.
  std::map<std::string, SourceLocation> where;
  SourceLocation locate(const std::string& key) const;
};

// The figures an `expect:` section may name.
const std::vector<std::string>& expectable_figures();

// Loads and checks a testbench; `overrides` are "key.path=value" assignments (--set). Throws
// InputError for anything that is not a valid testbench.
Testbench load_testbench(const std::filesystem::path& file,
                         const std::vector<std::string>& overrides = {});

}  // namespace mmsim
