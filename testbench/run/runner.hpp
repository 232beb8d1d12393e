// Runs a testbench: builds the program and the machine, simulates, verifies, and writes the
// requested outputs (each complete or not at all), each through its part (output_parts.hpp).
#pragma once

#include <string>

#include "testbench/input/testbench.hpp"
#include "testbench/run/run_options.hpp"
#include "testbench/run/run_outcome.hpp"

namespace mmsim {

// Refuses (InputError at the option or key that named it) an output of the run that is a file
// the run reads (the testbench, the program's file or library, a file a string parameter names)
// or another of its outputs: the same file by any name. run_testbench checks this first, and
// again once the program is made, against the files it says it reads.
void check_run_outputs(const Testbench& testbench, const RunOptions& options);

// Throws InputError (an invalid testbench) or SimulationError (a program or the hardware failed).
RunOutcome run_testbench(const Testbench& testbench, const RunOptions& options = {});

// What a run of `testbench` will report, without running it: the program made, the machine
// resolved, the bounds and the program's figures named, every measurement zero. Throws as
// run_testbench does for an invalid testbench.
RunOutcome preview_testbench(const Testbench& testbench);

}  // namespace mmsim
