// What would spoil every run of a sweep, refused before anything runs: a key the testbench does
// not know (a typo in grid, zip, derived or a case's set) and a column that no run would report.
#pragma once

#include "testbench/sweeps/sweep_file.hpp"
#include "testbench/sweeps/sweep_plan.hpp"

namespace mmsim {

// Whether the check may run the code of programs from outside the tree (program.file,
// program.library): only where the sweep's runs run, not to write a job script or to collect.
enum class UserCode { run, left_alone };

// Loads a few runs of every case (without simulating: the program is made and the machine
// resolved) and throws InputError, located in the sweep file with the nearest valid name, for
// an unknown key or a column absent from every case's statistics. A case whose code is left
// alone is only loaded.
void check_sweep(const Sweep& sweep, const SweepPlan& plan, UserCode user_code);

}  // namespace mmsim
