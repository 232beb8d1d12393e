// A testbench: the machine, the program, the outputs and the expected figures, as loaded and
// checked from YAML (the format is in docs/testbench.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hw/machine/machine_config.hpp"
#include "sw/program/external_program.hpp"
#include "sw/program/input_error.hpp"
#include "sw/program/program_info.hpp"
#include "testbench/input/own_maps.hpp"
#include "testbench/input/own_policies.hpp"
#include "testbench/input/param_input.hpp"

namespace mmsim {

// An output a run is asked for: by the testbench's key outputs.<name> (a file name; a mapping
// {file, from, to, scopes, limit} of the keys that output takes; `true` for the profile,
// docs/testbench.md) or by the command line's options, each field given or not. Where a field
// was given is the testbench's `where` ("outputs.vcd.from"), or the option that gave it.
struct OutputRequest {
  std::string file;                   // "" = none
  bool on = false;                    // asked for: a file named, or `true`
  std::optional<std::uint64_t> from;  // its window: the first and last time unit (cycle) kept
  std::optional<std::uint64_t> to;
  std::vector<std::string> scopes;        // a waveform's glob patterns of hierarchical names
  std::optional<std::uint64_t> limit;     // bytes refused beyond
  std::optional<std::uint64_t> interval;  // the counters every so many time units
  std::string shown;  // how the report shows it (the profile: "stages,all,memories")
};

// machine.threads takes 1 to 2^40 threads; so must a program's own count (default_threads).
inline constexpr std::uint64_t kMaxThreads = std::uint64_t{1} << 40;

struct Testbench {
  std::filesystem::path file;
  std::string name;
  std::string description;

  MachineConfig machine;
  bool threads_given = false;  // else the program's own thread count
  bool race_check = false;     // machine.race_check: run the race detector
  std::string program;         // its name: a built-in's, a Python class's, a plugin's program's
  // program.file or program.library: a program from outside the tree (none: a built-in)
  std::optional<ExternalProgram> external;
  // What makes it: a built-in's from the catalogue. A program from outside the tree is code that
  // loading the testbench never runs: until load_program_code, its info names it and declares
  // its written scalar parameters as strings (enough to know the files they name).
  std::shared_ptr<const ProgramInfo> program_info;
  const ProgramInfo& info() const { return *program_info; }
  ProgramArgs args;
  // program.params as written, while the code that declares them is not loaded.
  std::shared_ptr<const WrittenParams> written_params;
  // The maps of one's own it names, by key (machine.address_map, machine.shared.address_map).
  std::map<std::string, OwnCodeRef> own_maps;
  // machine.dispatch naming a policy of one's own.
  std::optional<OwnCodeRef> own_policy;

  // outputs: what each output the testbench names asks, by its name ("vcd", "stats",
  // "profile", "timeline": testbench/input/output_keys.cpp).
  std::map<std::string, OutputRequest> outputs;
  // expect: figures the run must reproduce exactly (cycles, dispatches, stages, requests,
  // syncthreads), part of its verification.
  std::map<std::string, std::uint64_t> expect;

  // Where each key came from ("machine.width", "program.params.n", ...), for errors found
  // after loading.
  std::map<std::string, SourceLocation> where;
  SourceLocation locate(const std::string& key) const;

  // The overrides that changed the machine or the program: the file's description may no longer
  // fit what runs (the report says so).
  std::vector<std::string> changed_by;
  // What loading left out of the file, for the command to say (ProgramSwitch::drops).
  std::vector<std::string> notes;
};

// The file's description as a run shows it (the report's first line, the testbench as it ran):
// after --set changed the machine or the program, followed by those overrides, since it may no
// longer fit what ran. A run made again from the testbench as it ran (testbench.yaml of
// --out-dir, where the overrides are values of the file) says so too.
std::string description_as_run(const std::string& description,
                               const std::vector<std::string>& changed_by);

// What overrides that name another program than the file's do with the file's program.params,
// program.warps and expect, which were written for the file's own program.
enum class ProgramSwitch {
  keeps,  // they stay (a sweep: its cases set only what differs from its base testbench)
  drops,  // they are left out, with a note, unless overrides set them too (mmsim run --set)
};

// Loads and checks a testbench; `overrides` are "key.path=value" assignments (--set). Throws
// InputError for anything that is not a valid testbench. A testbench that names a program file
// or library is a program, but none of its code runs here: what can be checked without running
// it is (check_external_program), the rest once it is about to run (load_program_code).
Testbench load_testbench(const std::filesystem::path& file,
                         const std::vector<std::string>& overrides = {},
                         ProgramSwitch program_switch = ProgramSwitch::keeps);
// The same from YAML `text` named `name` (the Python API's dict or text: no file is read).
Testbench load_testbench_text(const std::string& text, const std::filesystem::path& name,
                              const std::vector<std::string>& overrides = {},
                              ProgramSwitch program_switch = ProgramSwitch::keeps);

// Loads the code of a program from outside the tree (a Python file imported, a plugin's library
// opened: load_external_program) and checks program.params against what it declares (InputError
// at their places), once the run is about to start (testbench/run/runner.cpp): never to load,
// check or plan runs (mmsim sweep --emit-slurm, --collect). Nothing to do for a built-in, or once
// done.
void load_program_code(Testbench& tb);
// `tb` with its program's code loaded: `tb` itself when there is nothing to load, else the copy
// made in `loaded`.
const Testbench& with_program_code(const Testbench& tb, std::optional<Testbench>& loaded);

}  // namespace mmsim
