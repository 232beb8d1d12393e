// What the program's keys read (program.name, .file, .class, .library, .params, .warps: rows of
// testbench_keys.cpp), apart from the table: the program named, code from outside the tree (a
// program's, and a map's or a policy's of one's own), the parameters and the trace's warps, and
// what the testbench as it ran says of them.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "testbench/input/testbench.hpp"
#include "testbench/input/testbench_schema.hpp"

namespace mmsim {

// Refuses code from outside the tree that `key` names without `file` and `class` or `library`
// and `name` (InputError at the key); `noun` says what it is ("program", "map").
void check_external(const ExternalProgram& ext, const Testbench& tb, const std::string& key,
                    const std::string& noun);
// program.file, program.library (and a map's or policy's): the file, relative to the testbench.
void load_external_file(const KeyValue& at, ExternalProgram& ext, ExternalProgram::Kind kind);
// program.class, program.name beside program.library: the name within that file.
void load_external_name(const KeyValue& at, ExternalProgram& ext);
// The testbench's program from outside the tree, made if none yet.
ExternalProgram& external_program(Testbench& tb);
// The testbench's program from outside the tree when it is of `kind`, else nullptr.
const ExternalProgram* external_of(const ResolvedView& r, ExternalProgram::Kind kind);

// program.params (none given: every default), once the program is named.
void load_params(const std::optional<YamlSection>& params, Testbench& tb);
// program.params as they ran: every parameter, a file one names made absolute.
nlohmann::ordered_json params_json(const Testbench& tb);

// program.warps: the trace program's instructions, per warp.
void load_warps(const KeyValue& at, Testbench& tb);
nlohmann::ordered_json warps_json(const TraceListing& listing);

}  // namespace mmsim
