// What the program's keys read (program.*): the program named, code from outside the tree, the
// program's parameters and the trace's warps; and what the testbench as it ran says of them.
#include "testbench/input/program_keys.hpp"

#include <filesystem>
#include <limits>

#include "sw/programs/catalogue.hpp"

namespace mmsim {

using json = nlohmann::ordered_json;

namespace {

constexpr std::int64_t kMaxInt = std::numeric_limits<std::int64_t>::max();

// The program the testbench names: program.name (a built-in), program.file with program.class (a
// Python class), or program.library with program.name (a C++ plugin's program); made by the
// catalogue, or checked without running its code (sw/program/external_program.hpp).
void resolve_program(Testbench& tb) {
  const SourceLocation at = tb.where.at("program");
  if (!tb.external) {
    if (tb.program.empty())
      throw InputError(at,
                       "program: expected name (a built-in program), file with class (a "
                       "Python program) or library with name (a C++ plugin)");
    tb.program_info =
        std::shared_ptr<const ProgramInfo>(std::shared_ptr<void>(), find_program(tb.program));
    return;
  }
  check_external(*tb.external, tb, "program", "program");
  check_external_program(*tb.external);
  tb.program = tb.external->name;
}

// program.params as written; none given: refused (a parameter without a default) at `program`.
WrittenParams written_program_params(const std::optional<YamlSection>& params,
                                     const Testbench& tb) {
  return params ? written_params(*params)
                : WrittenParams{.values = {}, .where = tb.where.at("program")};
}

// The program's own parameters (sw/programs/catalogue.hpp) from program.params, each given or
// its default; one without a default is required.
void bind_params(const WrittenParams& written, Testbench& tb) {
  const ProgramInfo& info = tb.info();
  tb.args.params = read_params(written, info.params, "program.params", "program " + info.name);
  for (const WrittenParam& p : written.values) tb.where["program.params." + p.name] = p.where;
}

// A program from outside the tree declares its parameters in its code, which runs only when the
// program is about to (load_program_code): until then program.params are kept as written, and the
// scalar ones stand as strings, so that the files they name are known as the run's inputs.
void keep_written_params(WrittenParams written, Testbench& tb) {
  auto declared = std::make_shared<ProgramInfo>();
  declared->name = tb.program;
  for (const WrittenParam& p : written.values) {
    if (!p.value.IsScalar()) continue;
    declared->params.push_back(
        {.name = p.name, .type = ParamType::string, .help = "as written", .default_value = {}});
    tb.args.params.set(p.name, p.value.Scalar(), p.where);
  }
  tb.program_info = std::move(declared);
  tb.written_params = std::make_shared<const WrittenParams>(std::move(written));
}

// A string parameter that names a file relative to the testbench's folder, made absolute. Bare
// words (keywords such as random, or read) are left as they are.
std::string parameter_path(const std::string& value, const std::filesystem::path& base_dir) {
  const std::string prefix = value.starts_with("file:") ? "file:" : "";
  const std::string path = value.substr(prefix.size());
  if (path.find_first_of("/.") == std::string::npos) return value;
  std::error_code error;
  const std::filesystem::path file = base_dir / path;
  if (!std::filesystem::is_regular_file(file, error)) return value;
  return prefix + std::filesystem::absolute(file, error).lexically_normal().string();
}

std::vector<Address> lane_addresses(const YAML::Node& lanes, const SourceLocation& at,
                                    const std::string& what) {
  if (!lanes.IsSequence())
    yaml_expected(lanes, at, what, "a list with one address (or null) per lane");
  std::vector<Address> out;
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    if (lanes[i].IsNull()) {
      out.push_back(kInactive);
      continue;
    }
    out.push_back(
        static_cast<Address>(yaml_integer(lanes[i], at, what + "[" + std::to_string(i) + "]", 0,
                                          static_cast<std::int64_t>(kMaxMemoryWords) - 1)));
  }
  return out;
}

// One instruction of program.warps: a mapping of the keys of program.warps in the table.
TraceInstruction load_instruction(const YamlInput& input, const YAML::Node& node,
                                  const std::string& what, const std::string& path) {
  TraceInstruction in;
  in.where = input.where(node, path);
  if (!node.IsMap())
    yaml_expected(node, in.where, what, "{read: [...]}, {write: [...]} or {sync: true}");
  const YamlSection s(input, node, what);
  s.allow(keys_of(path));
  const int kinds = s.has("read") + s.has("write") + s.has("sync") + s.has("grid_sync");
  if (kinds != 1)
    throw InputError(in.where, what + ": expected exactly one of read, write, sync, grid_sync");
  if (s.has("sync") || s.has("grid_sync")) {
    const std::string key = s.has("sync") ? "sync" : "grid_sync";
    in.kind = s.has("sync") ? TraceInstruction::Kind::sync : TraceInstruction::Kind::grid_sync;
    if (!s.boolean(key)) s.fail(key, "expected true");
    if (s.has("space")) s.fail("space", "only reads and writes go to a memory");
  } else {
    in.kind = s.has("read") ? TraceInstruction::Kind::read : TraceInstruction::Kind::write;
    const std::string key = s.has("read") ? "read" : "write";
    in.addresses = lane_addresses(s.node(key), s.where(key), what + "." + key);
  }
  if (s.has("values")) {
    if (in.kind != TraceInstruction::Kind::write) s.fail("values", "only writes take values");
    const YAML::Node values = s.node("values");
    if (!values.IsSequence()) s.fail("values", "expected a list with one value per lane");
    for (std::size_t v = 0; v < values.size(); ++v)
      in.values.push_back(yaml_integer(values[v], s.where("values"),
                                       what + ".values[" + std::to_string(v) + "]",
                                       std::numeric_limits<std::int64_t>::min(), kMaxInt));
  }
  if (s.has("space"))
    in.space = KeyValue(s, testbench_key(path + ".space")).choice() == "shared" ? Space::shared
                                                                                : Space::global;
  return in;
}

json lanes_json(const std::vector<Address>& addresses) {
  json out = json::array();
  for (const Address a : addresses) out.push_back(a == kInactive ? json(nullptr) : json(a));
  return out;
}

}  // namespace

// Code from outside the tree that `key` names (program, machine.address_map): `file` with
// `class` (Python) or `library` with `name` (a C++ plugin); `noun` says what it is ("program").
void check_external(const ExternalProgram& ext, const Testbench& tb, const std::string& key,
                    const std::string& noun) {
  const SourceLocation at = tb.where.at(key);
  const bool python = ext.kind == ExternalProgram::Kind::python;
  const auto given = [&](const std::string& sub) { return tb.where.count(key + "." + sub) != 0; };
  const std::string file = ext.file.filename().string();
  if (!given("file") && !given("library"))
    throw InputError(at, key + ": expected file with class (a Python " + noun +
                             ") or library with name (a C++ plugin's " + noun + ")");
  if (python && given("name"))
    throw InputError(tb.where.at(key + ".name"),
                     key + ".name: a Python " + noun + " is named by " + key + ".class, not name");
  if (python && !given("library") && ext.name.empty())
    throw InputError(at, key + ": missing required key 'class' (the Python class in " + file + ")");
  if (!python && given("class"))
    throw InputError(tb.where.at(key + ".class"), key + ".class: a plugin's " + noun +
                                                      " is named by " + key + ".name, not class");
  if (!python && ext.name.empty())
    throw InputError(at, key + ": missing required key 'name' (the " + noun + " in " + file + ")");
  if (python && given("library"))
    throw InputError(tb.where.at(key + ".library"),
                     key + ".library: expected either file (Python) or library (C++), not both");
}

// Code from outside the tree: where its file is (relative to the testbench's folder).
void load_external_file(const KeyValue& at, ExternalProgram& ext, ExternalProgram::Kind kind) {
  ext.kind = kind;
  const std::filesystem::path base = at.parent().input().file().parent_path();
  std::error_code error;
  ext.file = std::filesystem::absolute(base / at.string(), error).lexically_normal();
  ext.file_where = at.where();
}

// The name within that file: the class (Python), or the name beside the library.
void load_external_name(const KeyValue& at, ExternalProgram& ext) {
  ext.name = at.string();
  ext.name_where = at.where();
}

ExternalProgram& external_program(Testbench& tb) {
  return tb.external ? *tb.external : tb.external.emplace();
}

// The testbench's program from outside the tree when it is of `kind`, else nullptr.
const ExternalProgram* external_of(const ResolvedView& r, ExternalProgram::Kind kind) {
  const auto& ext = r.testbench.external;
  return ext && ext->kind == kind ? &*ext : nullptr;
}

// program.params: a built-in's bound now, a program's from outside the tree kept as written.
void load_params(const std::optional<YamlSection>& params, Testbench& tb) {
  resolve_program(tb);
  if (tb.external)
    keep_written_params(written_program_params(params, tb), tb);
  else
    bind_params(written_program_params(params, tb), tb);
}

json params_json(const Testbench& tb) {
  json out = json::object();
  const ParamValues& values = tb.args.params;
  for (const ParamSpec& spec : tb.info().params) {
    if (!values.has(spec.name)) continue;
    switch (spec.type) {
      case ParamType::integer:
        out[spec.name] = values.integer(spec.name);
        break;
      case ParamType::boolean:
        out[spec.name] = values.boolean(spec.name);
        break;
      case ParamType::string:
        out[spec.name] = parameter_path(values.string(spec.name), tb.args.base_dir);
        break;
      case ParamType::integer_list:
        out[spec.name] = values.integers(spec.name);
        break;
    }
  }
  return out;
}

// program.warps: per warp, its instructions in order (the trace program only).
void load_warps(const KeyValue& at, Testbench& tb) {
  if (tb.program != "trace" || tb.external) at.fail("only the trace program takes warps");
  const std::string& path = at.key().path;
  const YamlInput& input = at.parent().input();
  const YAML::Node warps = at.node();
  TraceListing listing;
  listing.where = input.where(warps, path);
  if (!warps.IsSequence())
    yaml_expected(warps, listing.where, path, "a list with one list of instructions per warp");
  for (std::size_t w = 0; w < warps.size(); ++w) {
    const std::string warp_path = path + "[" + std::to_string(w) + "]";
    const YAML::Node warp = warps[w];
    if (!warp.IsSequence())
      yaml_expected(warp, input.where(warp, path), warp_path, "a list of instructions");
    auto& out = listing.warps.emplace_back();
    for (std::size_t i = 0; i < warp.size(); ++i)
      out.push_back(
          load_instruction(input, warp[i], warp_path + "[" + std::to_string(i) + "]", path));
  }
  tb.args.listing = std::move(listing);
}

json warps_json(const TraceListing& listing) {
  json warps = json::array();
  for (const std::vector<TraceInstruction>& warp : listing.warps) {
    json instructions = json::array();
    for (const TraceInstruction& in : warp) {
      json item;
      switch (in.kind) {
        case TraceInstruction::Kind::sync:
          item = {{"sync", true}};
          break;
        case TraceInstruction::Kind::grid_sync:
          item = {{"grid_sync", true}};
          break;
        case TraceInstruction::Kind::read:
          item = {{"read", lanes_json(in.addresses)}};
          break;
        case TraceInstruction::Kind::write:
          item = {{"write", lanes_json(in.addresses)}};
          if (!in.values.empty()) item["values"] = in.values;
          break;
      }
      if (in.space == Space::shared) item["space"] = "shared";
      instructions.push_back(item);
    }
    warps.push_back(instructions);
  }
  return warps;
}

void load_program_code(Testbench& tb) {
  if (!tb.written_params) return;
  const std::shared_ptr<const WrittenParams> written = std::move(tb.written_params);
  tb.written_params.reset();
  tb.program_info = load_external_program(*tb.external);
  tb.args.params = ParamValues{};
  bind_params(*written, tb);
}

const Testbench& with_program_code(const Testbench& tb, std::optional<Testbench>& loaded) {
  if (!tb.written_params) return tb;
  load_program_code(loaded.emplace(tb));
  return *loaded;
}

}  // namespace mmsim
