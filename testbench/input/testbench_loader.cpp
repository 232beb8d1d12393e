#include <limits>

#include "hw/dispatch/dispatch_policy.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/memory/address_maps.hpp"
#include "sw/programs/catalogue.hpp"
#include "sw/support/suggest.hpp"
#include "testbench/input/testbench.hpp"
#include "testbench/input/yaml_input.hpp"

namespace mmsim {
namespace {

constexpr std::int64_t kMaxInt = std::numeric_limits<std::int64_t>::max();

template <class Items, class Name>
std::vector<std::string> names_of(const Items& items, Name name) {
  std::vector<std::string> out;
  for (const auto& item : items) out.push_back(name(item));
  return out;
}

// A string that must be one of `choices`.
std::string choice(const YamlSection& s, const std::string& key,
                   const std::vector<std::string>& choices, const std::string& what) {
  const std::string value = s.string(key);
  if (std::find(choices.begin(), choices.end(), value) == choices.end())
    s.fail(key, "unknown " + what + " '" + value + "'" + suggestion(value, choices));
  return value;
}

// machine.rsu (or machine.shared.rsu): the random shift unit's table, drawn from a seed or
// given row by row. `path` is where the section is, e.g. "machine.shared.rsu".
void load_rsu(const YamlSection& rsu, const std::string& path, BankMapping& mapping,
              Testbench& tb) {
  rsu.allow({"seed", "shifts"});
  tb.where[path] = rsu.where();
  if (rsu.has("seed") == rsu.has("shifts"))
    throw InputError(rsu.where(), path + ": expected either seed or shifts (one shift per row)");
  if (rsu.has("seed")) {
    mapping.rsu_seed = static_cast<std::uint64_t>(rsu.integer("seed", 0, kMaxInt));
    tb.where[path + ".seed"] = rsu.where("seed");
    return;
  }
  const YAML::Node shifts = rsu.node("shifts");
  tb.where[path + ".shifts"] = rsu.where("shifts");
  if (!shifts.IsSequence() || shifts.size() == 0)
    rsu.fail("shifts", "expected a list of shifts r_0, r_1, ... (one per row of memory), got " +
                           yaml_describe(shifts));
  for (std::size_t j = 0; j < shifts.size(); ++j) {
    const std::string what = path + ".shifts[" + std::to_string(j) + "]";
    // Each value's own place, for the range check against w in validate().
    tb.where[what] = rsu.where("shifts", j);
    mapping.rsu_shifts.push_back(
        static_cast<std::uint32_t>(yaml_integer(shifts[j], tb.where[what], what, 0, 1 << 16)));
  }
}

// outputs.vcd: the file's name, or {file, from, to, scopes, limit}.
void load_waveform(const YamlSection& outputs, Testbench& tb) {
  WaveformRequest& vcd = tb.vcd;
  if (!outputs.node("vcd").IsMap()) {
    vcd.file = outputs.string("vcd");
    return;
  }
  const YamlSection s = outputs.section("vcd");
  s.allow({"file", "from", "to", "scopes", "limit"});
  vcd.file = s.string("file");
  tb.where["outputs.vcd.file"] = s.where("file");
  const auto cycle = [&](const std::string& key) -> std::optional<std::uint64_t> {
    const auto value = s.optional_integer(key, 0, kMaxInt);
    if (!value) return std::nullopt;
    tb.where["outputs.vcd." + key] = s.where(key);
    return static_cast<std::uint64_t>(*value);
  };
  vcd.from = cycle("from");
  vcd.to = cycle("to");
  if (const auto limit = s.optional_integer("limit", 1, kMaxInt)) {
    vcd.limit = static_cast<std::uint64_t>(*limit);
    tb.where["outputs.vcd.limit"] = s.where("limit");
  }
  if (s.has("scopes")) {
    const YAML::Node scopes = s.node("scopes");
    tb.where["outputs.vcd.scopes"] = s.where("scopes");
    if (!scopes.IsSequence() || scopes.size() == 0)
      s.fail("scopes",
             "expected a list of scope patterns such as ['machine.warp_[0-3]', "
             "'machine.memory.bank_*'], got " +
                 yaml_describe(scopes));
    for (std::size_t i = 0; i < scopes.size(); ++i) {
      const std::string what = "outputs.vcd.scopes[" + std::to_string(i) + "]";
      tb.where[what] = s.where("scopes", i);
      vcd.scopes.push_back(yaml_string(scopes[i], tb.where[what], what));
    }
  }
}

std::string load_address_map(const YamlSection& s) {
  return choice(s, "address_map", names_of(address_maps(), [](const auto& x) { return x.name; }),
                "address map");
}

// machine.shared: the shared memory of every streaming multiprocessor (hmm).
void load_shared(const YamlSection& s, Testbench& tb) {
  s.allow({"model", "latency", "memory", "address_map", "rsu"});
  SharedMemoryConfig& shared = tb.machine.shared;
  std::vector<std::string> models;
  for (const MachineModel& model : machine_models())
    if (model.shared_memory) models.push_back(model.name);
  if (s.has("model")) shared.model = choice(s, "model", models, "shared memory model");
  shared.latency = static_cast<unsigned>(s.optional_integer("latency", 1, 1 << 24).value_or(1));
  shared.words = static_cast<std::uint64_t>(
      s.optional_integer("memory", 1, static_cast<std::int64_t>(kMaxMemoryWords)).value_or(0));
  if (s.has("address_map")) shared.mapping.address_map = load_address_map(s);
  for (const std::string& key : s.keys()) tb.where["machine.shared." + key] = s.where(key);
  if (s.has("rsu")) load_rsu(s.section("rsu"), "machine.shared.rsu", shared.mapping, tb);
}

void load_machine(const YamlSection& m, Testbench& tb) {
  m.allow({"model", "width", "latency", "threads", "super_warp", "dispatch", "seed",
           "barrier_latency", "compute_latency", "write_conflict", "memory", "local_memory",
           "race_check", "address_map", "rsu", "multiprocessors", "kernel_latency", "shared",
           "global"});
  MachineConfig& c = tb.machine;
  c.model = choice(m, "model", names_of(machine_models(), [](const auto& x) { return x.name; }),
                   "machine model");
  c.width = static_cast<unsigned>(m.integer("width", 1, 1 << 16));
  c.latency = static_cast<unsigned>(m.integer("latency", 1, 1 << 24));
  if (const auto p = m.optional_integer("threads", 1, std::int64_t{1} << 40)) {
    c.threads = static_cast<std::uint64_t>(*p);
    tb.threads_given = true;
  }
  c.super_warp = static_cast<unsigned>(m.optional_integer("super_warp", 1, 1 << 16).value_or(1));
  if (m.has("dispatch"))
    c.dispatch =
        choice(m, "dispatch", names_of(dispatch_policies(), [](const auto& x) { return x.name; }),
               "dispatch policy");
  c.seed = static_cast<std::uint64_t>(m.optional_integer("seed", 0, kMaxInt).value_or(1));
  c.barrier_latency =
      static_cast<Cycle>(m.optional_integer("barrier_latency", 0, 1 << 24).value_or(0));
  c.compute_latency =
      static_cast<Cycle>(m.optional_integer("compute_latency", 0, 1 << 24).value_or(0));
  if (m.has("write_conflict"))
    c.write_conflict = *write_conflict_from_string(
        choice(m, "write_conflict", {"highest_lane", "lowest_lane"}, "write-conflict rule"));
  c.memory_words = static_cast<std::uint64_t>(
      m.optional_integer("memory", 1, static_cast<std::int64_t>(kMaxMemoryWords)).value_or(0));
  c.local_words =
      static_cast<std::uint64_t>(m.optional_integer("local_memory", 0, 1 << 20).value_or(0));
  tb.race_check = m.optional_boolean("race_check").value_or(false);
  if (m.has("address_map")) c.mapping.address_map = load_address_map(m);
  for (const std::string& key : m.keys()) tb.where["machine." + key] = m.where(key);
  if (m.has("rsu")) load_rsu(m.section("rsu"), "machine.rsu", c.mapping, tb);

  // The hierarchical machine's keys.
  const bool hierarchical = find_machine_model(c.model)->hierarchical;
  for (const std::string key : {"multiprocessors", "kernel_latency", "shared", "global"})
    if (m.has(key) && !hierarchical && key != "kernel_latency")
      m.fail(key,
             "machine." + key + " applies to model hmm (the hierarchical machine), not " + c.model);
  c.multiprocessors =
      static_cast<unsigned>(m.optional_integer("multiprocessors", 1, 1 << 16).value_or(1));
  c.kernel_latency =
      static_cast<Cycle>(m.optional_integer("kernel_latency", 0, 1 << 24).value_or(0));
  if (m.has("shared")) load_shared(m.section("shared"), tb);
  if (const auto global = m.optional_section("global")) {
    global->allow({"width"});
    c.global_width = static_cast<unsigned>(global->integer("width", 1, 1 << 16));
    tb.where["machine.global.width"] = global->where("width");
  }
  tb.where["machine"] = m.where();
}

ParamValue param_value(const YAML::Node& node, const ParamSpec& spec, const SourceLocation& at,
                       const std::string& what) {
  switch (spec.type) {
    case ParamType::integer:
      return yaml_integer(node, at, what, std::numeric_limits<std::int64_t>::min(), kMaxInt);
    case ParamType::boolean:
      return yaml_boolean(node, at, what);
    case ParamType::string:
      return yaml_string(node, at, what);
    case ParamType::integer_list: {
      if (!node.IsSequence())
        throw InputError(at, what + ": expected a list of integers, got " + yaml_describe(node));
      std::vector<std::int64_t> values;
      for (std::size_t i = 0; i < node.size(); ++i)
        values.push_back(yaml_integer(node[i], at, what + "[" + std::to_string(i) + "]",
                                      std::numeric_limits<std::int64_t>::min(), kMaxInt));
      return values;
    }
  }
  throw InputError(at, what + ": unsupported parameter type");
}

void load_params(const std::optional<YamlSection>& params, const ProgramInfo& info, Testbench& tb) {
  const std::vector<std::string> names =
      names_of(info.params, [](const ParamSpec& p) { return p.name; });
  if (params) params->allow(names);
  for (const ParamSpec& spec : info.params) {
    const std::string what = "program.params." + spec.name;
    if (params && params->has(spec.name)) {
      const SourceLocation at = params->where(spec.name);
      tb.args.params.set(spec.name, param_value(params->node(spec.name), spec, at, what), at);
      tb.where[what] = at;
    } else if (spec.default_value) {
      tb.args.params.set(spec.name, param_value(YAML::Load(*spec.default_value), spec, {}, what));
    } else {
      throw InputError(
          params ? params->where() : tb.where.at("program"),
          "program " + info.name + " needs parameter '" + spec.name + "' (" + spec.help + ")");
    }
  }
}

std::vector<Address> lane_addresses(const YAML::Node& lanes, const SourceLocation& at,
                                    const std::string& what) {
  if (!lanes.IsSequence())
    throw InputError(at, what + ": expected a list with one address (or null) per lane, got " +
                             yaml_describe(lanes));
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

TraceListing load_warps(const YamlInput& input, const YAML::Node& warps, const std::string& path) {
  TraceListing listing;
  listing.where = input.where(warps, path);
  if (!warps.IsSequence())
    throw InputError(listing.where,
                     path + ": expected a list with one list of instructions per warp, got " +
                         yaml_describe(warps));
  for (std::size_t w = 0; w < warps.size(); ++w) {
    const std::string warp_path = path + "[" + std::to_string(w) + "]";
    const YAML::Node warp = warps[w];
    if (!warp.IsSequence())
      throw InputError(input.where(warp, path),
                       warp_path + ": expected a list of instructions, got " + yaml_describe(warp));
    auto& out = listing.warps.emplace_back();
    for (std::size_t i = 0; i < warp.size(); ++i) {
      const std::string what = warp_path + "[" + std::to_string(i) + "]";
      const YAML::Node node = warp[i];
      TraceInstruction in;
      in.where = input.where(node, path);
      if (!node.IsMap())
        throw InputError(in.where,
                         what + ": expected {read: [...]}, {write: [...]} or {sync: true}, got " +
                             yaml_describe(node));
      const YamlSection s(input, node, what);
      s.allow({"read", "write", "values", "sync", "grid_sync", "space"});
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
        in.space = choice(s, "space", {"global", "shared"}, "memory space") == "shared"
                       ? Space::shared
                       : Space::global;
      out.push_back(std::move(in));
    }
  }
  return listing;
}

void load_program(const YamlInput& input, const YamlSection& p, Testbench& tb) {
  p.allow({"name", "params", "warps"});
  tb.where["program"] = p.where();
  tb.program =
      choice(p, "name", names_of(programs(), [](const auto& x) { return x.name; }), "program");
  const ProgramInfo& info = *find_program(tb.program);
  load_params(p.optional_section("params"), info, tb);
  if (p.has("warps")) {
    if (tb.program != "trace") p.fail("warps", "only the trace program takes warps");
    tb.args.listing = load_warps(input, p.node("warps"), "program.warps");
    tb.where["program.warps"] = tb.args.listing->where;
  }
  tb.args.base_dir = input.file().parent_path();
}

}  // namespace

const std::vector<std::string>& expectable_figures() {
  static const std::vector<std::string> figures = {"cycles",   "dispatches",  "stages",
                                                   "requests", "syncthreads", "grid_syncs"};
  return figures;
}

SourceLocation Testbench::locate(const std::string& key) const {
  for (std::string k = key;; k = k.substr(0, k.rfind('.'))) {
    if (const auto it = where.find(k); it != where.end()) return it->second;
    if (k.find('.') == std::string::npos) break;
  }
  return {file.string(), 0, 0};
}

Testbench load_testbench(const std::filesystem::path& file,
                         const std::vector<std::string>& overrides) {
  YamlInput input(file, "testbench");
  for (const std::string& assignment : overrides) input.override_value(assignment);
  const YamlSection root(input, input.root(), "");
  root.allow({"name", "description", "machine", "program", "outputs", "expect"});

  Testbench tb;
  tb.file = file;
  tb.name = root.optional_string("name").value_or(file.stem().string());
  tb.description = root.optional_string("description").value_or("");
  load_machine(root.section("machine"), tb);
  load_program(input, root.section("program"), tb);
  if (const auto outputs = root.optional_section("outputs")) {
    outputs->allow({"vcd", "stats"});
    if (outputs->has("vcd")) load_waveform(*outputs, tb);
    tb.stats = outputs->optional_string("stats").value_or("");
    for (const std::string& key : outputs->keys()) tb.where["outputs." + key] = outputs->where(key);
  }
  if (const auto expect = root.optional_section("expect")) {
    expect->allow(expectable_figures());
    for (const std::string& figure : expectable_figures())
      if (const auto value = expect->optional_integer(figure, 0, kMaxInt)) {
        tb.expect[figure] = static_cast<std::uint64_t>(*value);
        tb.where["expect." + figure] = expect->where(figure);
      }
  }
  return tb;
}

}  // namespace mmsim
