// The outputs of one run in one folder (mmsim run --out-dir, mmsim.run(out_dir=...)), each
// under its part's name (output_parts.cpp): the testbench as it ran (testbench.yaml), the
// statistics (stats.json), trace.vcd when the testbench asks for a waveform and timeline.json
// for a timeline; the testbench's own file names give way (their windows stay).
#pragma once

#include "testbench/outputs/output_folder.hpp"
#include "testbench/run/runner.hpp"

namespace mmsim {

// `option` names the folder in messages ("--out-dir").
void put_outputs_in(const OutputFolder& folder, const std::string& option, RunOptions& options,
                    Testbench& testbench);

}  // namespace mmsim
