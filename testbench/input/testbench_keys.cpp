// The table of testbench keys (testbench_schema.hpp): one row per key, in the order of the
// reference (docs/testbench.md) and of the testbench as it ran.
#include <filesystem>
#include <limits>

#include "hw/dispatch/dispatch_policies.hpp"
#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/memory/address_map.hpp"
#include "hw/memory/address_maps.hpp"
#include "sw/programs/catalogue.hpp"
#include "testbench/input/expect_figures.hpp"
#include "testbench/input/key_field.hpp"
#include "testbench/input/output_keys.hpp"
#include "testbench/input/param_input.hpp"
#include "testbench/input/program_keys.hpp"
#include "testbench/input/testbench_schema.hpp"

namespace mmsim {

namespace {

using json = nlohmann::ordered_json;
using Resolved = ResolvedValue;

constexpr std::int64_t kMaxInt = std::numeric_limits<std::int64_t>::max();
constexpr auto kMaxWords = static_cast<std::int64_t>(kMaxMemoryWords);

KeyType integer(std::int64_t min, std::int64_t max) {
  return {.kind = KeyType::Kind::integer, .min = min, .max = max};
}
KeyType choice(std::function<std::vector<std::string>()> choices, std::string noun) {
  return {.kind = KeyType::Kind::choice, .choices = std::move(choices), .noun = std::move(noun)};
}
const KeyType kString{.kind = KeyType::Kind::string};
const KeyType kBoolean{.kind = KeyType::Kind::boolean};
const KeyType kMapping{.kind = KeyType::Kind::mapping};
const KeyType kOther{};

template <class Items, class Name>
std::vector<std::string> names_of(const Items& items, Name name) {
  std::vector<std::string> out;
  for (const auto& item : items) out.push_back(name(item));
  return out;
}

std::vector<std::string> model_names() {
  return names_of(machine_models(), [](const MachineModel& m) { return m.name; });
}
std::vector<std::string> shared_model_names() {
  std::vector<std::string> out;
  for (const MachineModel& model : machine_models())
    if (model.shared_memory) out.push_back(model.name);
  return out;
}
std::vector<std::string> policy_names() {
  return names_of(dispatch_policies(), [](const PolicyInfo& p) { return p.name; });
}
std::vector<std::string> map_names() {
  return names_of(address_maps(), [](const AddressMapInfo& m) { return m.name; });
}
std::vector<std::string> program_names() {
  return names_of(programs(), [](const ProgramInfo& p) { return p.name; });
}

// machine.rsu, machine.shared.rsu: the random shift unit's table, drawn from a seed or given
// row by row; as it ran, the table given or the seed it is drawn with.
void load_rsu(const KeyValue& at, Testbench& tb) {
  const YamlSection rsu = at.section();
  allow_keys(rsu);
  if (rsu.has("seed") == rsu.has("shifts"))
    throw InputError(rsu.where(),
                     at.key().path + ": expected either seed or shifts (one shift per row)");
  read_keys(rsu, tb);
}

json rsu_json(const BankMapping& mapping, std::uint64_t seed) {
  if (!mapping.rsu_shifts.empty()) return {{"shifts", mapping.rsu_shifts}};
  return {{"seed", mapping.rsu_seed.value_or(seed)}};
}

void load_shifts(const KeyValue& at, BankMapping& mapping, Testbench& tb) {
  const YAML::Node shifts = at.node();
  if (!shifts.IsSequence() || shifts.size() == 0)
    at.fail("expected a list of shifts r_0, r_1, ... (one per row of memory), got " +
            yaml_describe(shifts));
  for (std::size_t j = 0; j < shifts.size(); ++j) {
    const std::string what = at.key().path + "[" + std::to_string(j) + "]";
    // Each value's own place, for the range check against w in validate().
    tb.where[what] = at.where(j);
    mapping.rsu_shifts.push_back(
        static_cast<std::uint32_t>(yaml_integer(shifts[j], tb.where[what], what, 0, 1 << 16)));
  }
}

// The two keys of a random shift unit's table, at `path` (machine.rsu, machine.shared.rsu),
// listed in the reference `table`.
std::vector<TestbenchKey> rsu_keys(const std::string& path, BankMapping& (*mapping)(Testbench&),
                                   const std::string& table) {
  return {
      {.path = path + ".seed",
       .type = integer(0, kMaxInt),
       .table = table,
       .default_text = "`machine.seed`",
       .meaning = "draw the table with this seed (a portable generator)",
       .load =
           [mapping](const KeyValue& at, Testbench& tb) {
             mapping(tb).rsu_seed = static_cast<std::uint64_t>(at.integer());
           }},
      {.path = path + ".shifts",
       .type = kOther,
       .table = table,
       .type_text = "list of integers in [0, w)",
       .default_text = "none",
       .meaning = "the table row by row; its length must be the number of rows, ceil(memory / w)",
       .load = [mapping](const KeyValue& at, Testbench& tb) { load_shifts(at, mapping(tb), tb); }},
  };
}

// machine.address_map, machine.shared.address_map naming a map of one's own: its file is there
// and this process loads its kind (the code itself loads when the machine is built).
void use_own_map(OwnCodeRef ref, Testbench& tb, BankMapping& mapping) {
  map_loaders().of(ref);
  tb.own_maps[ref.key] = ref;
  mapping.own_map = own_address_map(std::move(ref));
}

// machine.address_map, machine.shared.address_map: a built-in map's name, a map of one's own in
// short (file.py:Class, library:name), or a mapping that names one as `program:` names a program
// ({file, class, params} or {library, name, params}).
void load_address_map(const KeyValue& at, Testbench& tb, BankMapping& mapping) {
  const std::string& key = at.key().path;
  if (!at.node().IsMap()) {
    const std::string text = at.string();
    const std::filesystem::path base = at.parent().input().file().parent_path();
    if (std::optional<OwnCodeRef> ref = short_code_ref(text, base, key, at.where(), "map"))
      use_own_map(std::move(*ref), tb, mapping);
    else
      mapping.address_map = at.choice();
    return;
  }
  OwnCodeRef& ref = tb.own_maps[key];
  ref.key = key;
  ref.code.key = key;
  ref.code.noun = "map";
  ref.where = at.where();
  ref.params.where = ref.where;
  load_keys(at.section(), tb);
  check_external(ref.code, tb, key, "map");
  use_own_map(ref, tb, mapping);
}

// A value as the testbench wrote it, for the testbench as it ran (its type is known only once
// the code that declares it is loaded): integers, booleans and strings as YAML reads them.
json written_json(const YAML::Node& node) {
  if (node.IsSequence()) {
    json out = json::array();
    for (const YAML::Node& item : node) out.push_back(written_json(item));
    return out;
  }
  if (node.IsMap()) {
    json out = json::object();
    for (const auto& entry : node) out[entry.first.Scalar()] = written_json(entry.second);
    return out;
  }
  if (!node.IsScalar()) return nullptr;
  try {
    return yaml_integer(node, {}, "", std::numeric_limits<std::int64_t>::min(), kMaxInt);
  } catch (const InputError&) {
  }
  if (node.Tag() != "!" && (node.Scalar() == "true" || node.Scalar() == "false"))
    return node.Scalar() == "true";
  return node.Scalar();
}

// Code of one's own (a map, a policy) as it ran: the mapping that names it, its file made
// absolute, its params as written.
json own_code_json(const ExternalProgram& code, const WrittenParams& written) {
  const bool python = code.kind == ExternalProgram::Kind::python;
  json out = {{python ? "file" : "library", code.file.string()},
              {python ? "class" : "name", code.name}};
  if (!written.values.empty()) {
    json params = json::object();
    for (const WrittenParam& p : written.values) params[p.name] = written_json(p.value);
    out["params"] = params;
  }
  return out;
}

// The map `key` runs with, as it ran: a built-in map's name, or the mapping that names a map of
// one's own (its file made absolute, its params as written).
json address_map_json(const ResolvedView& r, const std::string& key, const AddressMapInfo& map) {
  const auto it = r.testbench.own_maps.find(key);
  if (it == r.testbench.own_maps.end()) return json(map.name);
  return own_code_json(it->second.code, it->second.params);
}

// What the reference says of a kind of code of one's own: its noun ("map"), the Python class it
// derives from, the macro that registers it in a plugin.
struct OwnCodeWords {
  std::string noun;
  std::string base_class;
  std::string plugin_macro;
};

// The keys of the mapping at `path` that names code of one's own ({file, class, params} or
// {library, name, params}), listed in the reference `table`; `code` and `params` find what a
// key of it fills.
std::vector<TestbenchKey> own_code_keys(const std::string& path, const std::string& table,
                                        const OwnCodeWords& words,
                                        ExternalProgram& (*code)(const KeyValue& at, Testbench& tb),
                                        WrittenParams& (*params)(const KeyValue& at,
                                                                 Testbench& tb)) {
  const std::string& noun = words.noun;
  return {
      {.path = path + ".file",
       .type = kString,
       .table = table,
       .type_text = "file name",
       .default_text = "none",
       .meaning = "a Python file (relative to the testbench) whose `class` is the " + noun,
       .load =
           [code](const KeyValue& at, Testbench& tb) {
             load_external_file(at, code(at, tb), ExternalProgram::Kind::python);
           }},
      {.path = path + ".class",
       .type = kString,
       .table = table,
       .type_text = "a class's name",
       .default_text = "none",
       .meaning = "with `file`: the `" + words.base_class + "` subclass",
       .load = [code](const KeyValue& at, Testbench& tb) { load_external_name(at, code(at, tb)); }},
      {.path = path + ".library",
       .type = kString,
       .table = table,
       .type_text = "file name",
       .default_text = "none",
       .meaning = "a C++ plugin (a shared library, relative to the testbench) whose " + noun +
                  " `name` it is",
       .load =
           [code](const KeyValue& at, Testbench& tb) {
             load_external_file(at, code(at, tb), ExternalProgram::Kind::library);
           }},
      {.path = path + ".name",
       .type = kString,
       .table = table,
       .type_text = "a " + noun + "'s name",
       .default_text = "none",
       .meaning = "with `library`: the " + noun + " (`" + words.plugin_macro + "`)",
       .load = [code](const KeyValue& at, Testbench& tb) { load_external_name(at, code(at, tb)); }},
      {.path = path + ".params",
       .type = kMapping,
       .table = table,
       .default_text = "every parameter's default",
       .meaning = "the " + noun + "'s parameters (its `params`); one without a default is required",
       .load = [params](const KeyValue& at,
                        Testbench& tb) { params(at, tb) = written_params(at.section()); }},
  };
}

// The keys of the mapping that names a map of one's own at `path` (machine.address_map,
// machine.shared.address_map), listed in the reference `table`.
std::vector<TestbenchKey> own_map_keys(const std::string& path, const std::string& table) {
  return own_code_keys(
      path, table,
      {.noun = "map", .base_class = "mmsim.AddressMap", .plugin_macro = "MMSIM_PLUGIN_MAPS"},
      [](const KeyValue& at, Testbench& tb) -> ExternalProgram& {
        return tb.own_maps.at(at.key().parent()).code;
      },
      [](const KeyValue& at, Testbench& tb) -> WrittenParams& {
        return tb.own_maps.at(at.key().parent()).params;
      });
}

// The type of machine.address_map and machine.shared.address_map in the reference.
std::string address_map_type() {
  std::string names;
  for (const std::string& name : map_names()) names += (names.empty() ? "`" : ", `") + name + "`";
  return names + ", or a map of one's own: `file.py:Class`, `library:name` or a mapping";
}

// The type of machine.dispatch in the reference.
std::string policy_type() {
  std::string names;
  for (const std::string& name : policy_names())
    names += (names.empty() ? "`" : ", `") + name + "`";
  return names + ", or a policy of one's own: `file.py:Class`, `library:name` or a mapping";
}

// machine.dispatch naming a policy of one's own: its file is there and this process runs its
// kind (the code itself loads when the machine is built).
void use_own_policy(OwnCodeRef ref, Testbench& tb) {
  policy_loaders().of(ref);
  tb.machine.dispatch = ref.code.name;
  tb.machine.own_policy = own_dispatch_policy(ref);
  tb.own_policy = std::move(ref);
}

// machine.dispatch: a built-in policy's name, a policy of one's own in short (file.py:Class,
// library:name), or a mapping that names one as `program:` names a program ({file, class,
// params} or {library, name, params}).
void load_dispatch(const KeyValue& at, Testbench& tb) {
  tb.own_policy.reset();
  tb.machine.own_policy.reset();
  const std::string& key = at.key().path;
  if (!at.node().IsMap()) {
    const std::string text = at.string();
    const std::filesystem::path base = at.parent().input().file().parent_path();
    if (std::optional<OwnCodeRef> ref = short_code_ref(text, base, key, at.where(), "policy"))
      use_own_policy(std::move(*ref), tb);
    else
      tb.machine.dispatch = at.choice();
    return;
  }
  OwnCodeRef& ref = tb.own_policy.emplace();
  ref.key = key;
  ref.code.key = key;
  ref.code.noun = "policy";
  ref.where = at.where();
  ref.params.where = ref.where;
  load_keys(at.section(), tb);
  check_external(ref.code, tb, key, "policy");
  use_own_policy(ref, tb);
}

// The policy the machine ran with: a built-in's name, or the mapping that names a policy of
// one's own (its file made absolute, its params as written).
json dispatch_json(const ResolvedView& r) {
  if (!r.testbench.own_policy) return json(r.machine.dispatch);
  return own_code_json(r.testbench.own_policy->code, r.testbench.own_policy->params);
}

// The keys of the mapping that names a policy of one's own (machine.dispatch).
std::vector<TestbenchKey> own_policy_keys() {
  return own_code_keys(
      "machine.dispatch", "own_policy",
      {.noun = "policy", .base_class = "mmsim.Policy", .plugin_macro = "MMSIM_PLUGIN_POLICIES"},
      [](const KeyValue&, Testbench& tb) -> ExternalProgram& { return tb.own_policy->code; },
      [](const KeyValue&, Testbench& tb) -> WrittenParams& { return tb.own_policy->params; });
}

bool hierarchical(const ResolvedView& r) { return machine_model(r.machine).hierarchical; }

// An expect figure: read into the testbench's expectations, as given.
TestbenchKey figure(const ExpectFigure& f) {
  const std::string& name = f.name;
  return {
      .path = "expect." + name,
      .type = integer(0, kMaxInt),
      .table = "expect",
      .meaning = f.meaning,
      .load = [name](const KeyValue& at,
                     Testbench& tb) { tb.expect[name] = static_cast<std::uint64_t>(at.integer()); },
      .resolved = [name](const ResolvedView& r) -> Resolved {
        const auto it = r.testbench.expect.find(name);
        if (it == r.testbench.expect.end()) return std::nullopt;
        return json(it->second);
      }};
}

std::vector<TestbenchKey> make_keys() {
  std::vector<TestbenchKey> keys = {
      // The top level.
      field(&Testbench::name, {.path = "name",
                               .type = kString,
                               .table = "top",
                               .default_text = "the file's name without its extension",
                               .meaning = "the run's name in the report and the statistics"}),
      // As it ran: followed by the overrides that changed the machine or the program.
      field(&Testbench::description, {.path = "description",
                                      .type = kString,
                                      .table = "top",
                                      .default_text = "empty",
                                      .meaning = "free text, shown in the report's first line",
                                      .resolved = [](const ResolvedView& r) -> Resolved {
                                        if (r.testbench.description.empty()) return std::nullopt;
                                        return json(description_as_run(r.testbench.description,
                                                                       r.testbench.changed_by));
                                      }}),
      {.path = "machine",
       .type = kMapping,
       .required = true,
       .table = "top",
       .meaning = "the machine ([below](#machine))",
       .load = [](const KeyValue& at, Testbench& tb) { load_keys(at.section(), tb); }},
      {.path = "program",
       .type = kMapping,
       .required = true,
       .table = "top",
       .meaning = "the program it runs ([below](#program))",
       .load =
           [](const KeyValue& at, Testbench& tb) {
             load_keys(at.section(), tb);
             tb.args.base_dir = at.parent().input().file().parent_path();
           }},
      {.path = "outputs",
       .type = kMapping,
       .table = "top",
       .default_text = "none",
       .meaning = "where the waveform and the statistics go ([below](#outputs))",
       .load = [](const KeyValue& at, Testbench& tb) { load_keys(at.section(), tb); },
       .resolved = [](const ResolvedView&) -> Resolved { return std::nullopt; }},
      {.path = "expect",
       .type = kMapping,
       .table = "top",
       .default_text = "none",
       .meaning = "figures the run must reproduce ([below](#expect))",
       .load = [](const KeyValue& at, Testbench& tb) { load_keys(at.section(), tb); },
       .resolved = [](const ResolvedView& r) -> Resolved {
         if (r.testbench.expect.empty()) return std::nullopt;
         return resolved_keys("expect", r);
       }},

      // machine: every model.
      field(&MachineConfig::model,
            {.path = "machine.model",
             .type = choice(model_names, "machine model"),
             .required = true,
             .table = "machine",
             .meaning =
                 "the machine model ([semantics.md](semantics.md), section 2; `hmm`: section 7)"}),
      field(&MachineConfig::width,
            {.path = "machine.width",
             .type = integer(1, 1 << 16),
             .required = true,
             .table = "machine",
             .meaning = "w: banks, threads per warp (hmm: also the global memory's address group "
                        "unless `global.width`)"}),
      field(&MachineConfig::latency,
            {.path = "machine.latency",
             .type = integer(1, 1 << 24),
             .required = true,
             .table = "machine",
             .meaning = "l: the pipeline's stages (hmm: of the global memory); `bpram` and `pram` "
                        "force 1"}),
      // A thread count given is kept; else the program's own.
      field(&MachineConfig::threads,
            {.path = "machine.threads",
             .type = integer(1, static_cast<std::int64_t>(kMaxThreads)),
             .table = "machine",
             .default_text = "the program's own thread count",
             .meaning = "p, a multiple of s·w (hmm: p/d a multiple of s·w)",
             .load =
                 [](const KeyValue& at, Testbench& tb) {
                   tb.machine.threads = static_cast<std::uint64_t>(at.integer());
                   tb.threads_given = true;
                 }}),
      field(&MachineConfig::super_warp,
            {.path = "machine.super_warp",
             .type = integer(1, 1 << 16),
             .table = "machine",
             .meaning = "s, warps per super warp: `sdmm`, `rsdmm` (and `hmm` over such shared "
                        "memories); 1 for the others"},
            // A model of one dispatch unit fixes s = p/w.
            [](const ResolvedView& r, bool) { return !machine_model(r.machine).one_unit; }),
      {.path = "machine.dispatch",
       .type = choice(policy_names, "dispatch policy"),
       .table = "machine",
       .type_text = policy_type(),
       .default_text = "`round_robin`",
       .meaning = "the dispatch policy ([semantics.md](semantics.md), section 4); a policy of "
                  "one's own ([own_policies.md](own_policies.md))",
       .load = load_dispatch,
       .resolved = [](const ResolvedView& r) -> Resolved { return dispatch_json(r); },
       .quantity = [](const MachineConfig& m) { return json(m.dispatch); }},
      field(&MachineConfig::seed,
            {.path = "machine.seed",
             .type = integer(0, kMaxInt),
             .table = "machine",
             .meaning = "every random choice of the hardware: the `random` policy, a drawn shift "
                        "table without `rsu.seed`"}),
      field(&MachineConfig::barrier_latency,
            {.path = "machine.barrier_latency",
             .type = integer(0, 1 << 24),
             .table = "machine",
             .meaning = "time units from the event that opens a syncthreads to the release"}),
      field(&MachineConfig::compute_latency,
            {.path = "machine.compute_latency",
             .type = integer(0, 1 << 24),
             .table = "machine",
             .meaning = "time units between a completion and the warp's next instruction"}),
      field(&MachineConfig::write_conflict,
            {.path = "machine.write_conflict",
             .type = choice(
                 [] {
                   return std::vector<std::string>{"highest_lane", "lowest_lane"};
                 },
                 "write-conflict rule"),
             .table = "machine",
             .meaning = "which of several writes to one address in one dispatch is performed"}),
      // Left out at 1: testbenches written before ports read alike.
      field(&MachineConfig::ports,
            {.path = "machine.ports",
             .type = integer(1, 1 << 16),
             .table = "machine",
             .meaning = "k, requests a bank serves per time unit ([semantics.md](semantics.md), "
                        "section 10; hmm: the global memory's)"},
            unless_default),
      field(&MachineConfig::memory_words,
            {.path = "machine.memory",
             .type = integer(1, kMaxWords),
             .table = "machine",
             .default_text = "what the program needs",
             .meaning = "M, words of memory (hmm: of global memory)"}),
      field(&MachineConfig::local_words,
            {.path = "machine.local_memory",
             .type = integer(0, 1 << 20),
             .table = "machine",
             .default_text = "what the program needs",
             .meaning = "words of local memory per PE (Nakano 2012, Lemma 3)"}),
      field(&Testbench::race_check, {.path = "machine.race_check",
                                     .type = kBoolean,
                                     .table = "machine",
                                     .meaning = "report races; barrier divergence is then an error "
                                                "([semantics.md](semantics.md), section 8)"}),
      {.path = "machine.address_map",
       .type = choice(map_names, "address map"),
       .table = "machine",
       .type_text = address_map_type(),
       .default_text = "`interleaved`; `random_shift` for `rsdmm`",
       .meaning = "where address j·w + k lives: `dmm` and `sdmm` (`rsdmm`: `random_shift` only; "
                  "`xor` needs w a power of two); a map of one's own ([below](#machineaddress_map-"
                  "a-map-of-ones-own), [own_maps.md](own_maps.md))",
       .load = [](const KeyValue& at,
                  Testbench& tb) { load_address_map(at, tb, tb.machine.mapping); },
       .resolved = [](const ResolvedView& r) -> Resolved {
         if (hierarchical(r)) return std::nullopt;
         return address_map_json(r, "machine.address_map", address_map_of(r.machine));
       },
       .quantity = [](const MachineConfig& m) { return json(address_map_of(m).name); }},
      {.path = "machine.rsu",
       .type = kMapping,
       .table = "machine",
       .default_text = "drawn from `seed`",
       .meaning = "the random shift unit's table ([below](#machinersu)); only with the "
                  "`random_shift` map",
       .load = load_rsu,
       .resolved = [](const ResolvedView& r) -> Resolved {
         if (hierarchical(r) || !address_map_of(r.machine).shift_table) return std::nullopt;
         return rsu_json(r.machine.mapping, r.machine.seed);
       }},
  };
  const auto add = [&keys](std::vector<TestbenchKey> more) {
    for (TestbenchKey& key : more) keys.push_back(std::move(key));
  };
  add(own_map_keys("machine.address_map", "own_map"));
  add(own_policy_keys());
  add(rsu_keys(
      "machine.rsu", [](Testbench& tb) -> BankMapping& { return tb.machine.mapping; }, "rsu"));
  add({
      // machine: the hierarchical machine's keys (and the grid barrier's, every model's).
      field(&MachineConfig::multiprocessors,
            {.path = "machine.multiprocessors",
             .type = integer(1, 1 << 16),
             .applies = Applies::hierarchical,
             .table = "hmm",
             .meaning = "d, streaming multiprocessors (SMs); p/d threads each, whole warps"},
            [](const ResolvedView& r, bool) { return hierarchical(r); }),
      // Left out of a flat machine at 0: testbenches written before grid_sync read alike.
      field(&MachineConfig::kernel_latency,
            {.path = "machine.kernel_latency",
             .type = integer(0, 1 << 24),
             .table = "machine",
             .meaning = "time units from the event that opens a grid_sync to the release (every "
                        "model; a flat machine is one block)"},
            [](const ResolvedView& r, bool at_default) { return hierarchical(r) || !at_default; }),
      {.path = "machine.shared",
       .type = kMapping,
       .applies = Applies::hierarchical,
       .table = "hmm",
       .default_text = "see below",
       .meaning = "the shared memory of every multiprocessor",
       .load = [](const KeyValue& at, Testbench& tb) { load_keys(at.section(), tb); },
       .resolved = [](const ResolvedView& r) -> Resolved {
         if (!hierarchical(r)) return std::nullopt;
         return resolved_keys("machine.shared", r);
       }},
      field(&SharedMemoryConfig::model,
            {.path = "machine.shared.model",
             .type = choice(shared_model_names, "shared memory model"),
             .table = "hmm",
             .meaning = "its model; `sdmm` and `rsdmm` with `machine.super_warp`; `pram`: no bank "
                        "conflicts"}),
      field(&SharedMemoryConfig::latency, {.path = "machine.shared.latency",
                                           .type = integer(1, 1 << 24),
                                           .table = "hmm",
                                           .meaning = "l_s"}),
      field(&SharedMemoryConfig::ports,
            {.path = "machine.shared.ports",
             .type = integer(1, 1 << 16),
             .table = "hmm",
             .meaning = "requests a bank of a shared memory serves per time unit"},
            unless_default),
      field(&SharedMemoryConfig::words, {.path = "machine.shared.memory",
                                         .type = integer(1, kMaxWords),
                                         .table = "hmm",
                                         .default_text = "what the program needs",
                                         .meaning = "words per multiprocessor"}),
      {.path = "machine.shared.address_map",
       .type = choice(map_names, "address map"),
       .table = "hmm",
       .type_text = "as `machine.address_map`",
       .default_text = "as `machine.address_map`",
       .meaning = "the shared memories' map (a map of one's own: one object, one table of rows, "
                  "for every multiprocessor)",
       .load = [](const KeyValue& at,
                  Testbench& tb) { load_address_map(at, tb, tb.machine.shared.mapping); },
       .resolved = [](const ResolvedView& r) -> Resolved {
         return address_map_json(r, "machine.shared.address_map", shared_address_map(r.machine));
       },
       .quantity = [](const MachineConfig& m) { return json(shared_address_map(m).name); }},
      {.path = "machine.shared.rsu",
       .type = kMapping,
       .table = "hmm",
       .type_text = "as `machine.rsu`",
       .default_text = "drawn from `seed`",
       .meaning = "a drawn table differs from SM to SM (SM j draws with the seed plus j)",
       .load = load_rsu,
       .resolved = [](const ResolvedView& r) -> Resolved {
         if (!shared_address_map(r.machine).shift_table) return std::nullopt;
         return rsu_json(r.machine.shared.mapping, r.machine.seed);
       }},
  });
  add(own_map_keys("machine.shared.address_map", ""));
  add(rsu_keys(
      "machine.shared.rsu", [](Testbench& tb) -> BankMapping& { return tb.machine.shared.mapping; },
      ""));
  add({
      {.path = "machine.global",
       .type = kMapping,
       .applies = Applies::hierarchical,
       .table = "hmm",
       .default_text = "`width: w`",
       .meaning = "the global memory",
       .load = [](const KeyValue& at, Testbench& tb) { load_keys(at.section(), tb); },
       .resolved = [](const ResolvedView& r) -> Resolved {
         if (!hierarchical(r)) return std::nullopt;
         return resolved_keys("machine.global", r);
       }},
      // As it ran: w_g, or w when the testbench left it to the machine's width.
      field(&MachineConfig::global_width,
            {.path = "machine.global.width",
             .type = integer(1, 1 << 16),
             .required = true,
             .table = "hmm",
             .meaning = "w_g, words per address group of the global memory",
             .resolved = [](const ResolvedView& r) -> Resolved {
               return json(r.machine.global_words_per_group());
             },
             .quantity = [](const MachineConfig& m) { return json(m.global_words_per_group()); }}),

      // program
      {.path = "program.name",
       .type = choice(program_names, "program"),
       .table = "program",
       .type_text = "a program's name",
       .default_text = "none",
       .meaning = "a built-in program ([programs.md](programs.md); `mmsim list programs`); with "
                  "`library`, a program of that plugin",
       .load =
           [](const KeyValue& at, Testbench& tb) {
             if (at.parent().has("library")) {
               load_external_name(at, external_program(tb));
               return;
             }
             tb.program = at.choice();
           },
       .resolved = [](const ResolvedView& r) -> Resolved {
         if (external_of(r, ExternalProgram::Kind::python)) return std::nullopt;  // class
         return json(r.testbench.program);
       }},
      {.path = "program.file",
       .type = kString,
       .table = "program",
       .type_text = "file name",
       .default_text = "none",
       .meaning = "a Python file (relative to the testbench) whose `class` is the program "
                  "([own_programs.md](own_programs.md))",
       .load =
           [](const KeyValue& at, Testbench& tb) {
             load_external_file(at, external_program(tb), ExternalProgram::Kind::python);
           },
       .resolved = [](const ResolvedView& r) -> Resolved {
         const ExternalProgram* ext = external_of(r, ExternalProgram::Kind::python);
         return ext ? Resolved(json(ext->file.string())) : std::nullopt;
       }},
      {.path = "program.class",
       .type = kString,
       .table = "program",
       .type_text = "a class's name",
       .default_text = "none",
       .meaning = "with `file`: the `mmsim.Program` subclass it runs",
       .load = [](const KeyValue& at,
                  Testbench& tb) { load_external_name(at, external_program(tb)); },
       .resolved = [](const ResolvedView& r) -> Resolved {
         const ExternalProgram* ext = external_of(r, ExternalProgram::Kind::python);
         return ext ? Resolved(json(ext->name)) : std::nullopt;
       }},
      {.path = "program.library",
       .type = kString,
       .table = "program",
       .type_text = "file name",
       .default_text = "none",
       .meaning = "a C++ plugin (a shared library, relative to the testbench) whose program "
                  "`name` runs ([own_programs.md](own_programs.md))",
       .load =
           [](const KeyValue& at, Testbench& tb) {
             load_external_file(at, external_program(tb), ExternalProgram::Kind::library);
           },
       .resolved = [](const ResolvedView& r) -> Resolved {
         const ExternalProgram* ext = external_of(r, ExternalProgram::Kind::library);
         return ext ? Resolved(json(ext->file.string())) : std::nullopt;
       }},
      {.path = "program.params",
       .type = kMapping,
       .table = "program",
       .default_text = "every parameter's default",
       .meaning = "the program's parameters; one without a default is required",
       .load = [](const KeyValue& at, Testbench& tb) { load_params(at.section(), tb); },
       .absent = [](const YamlSection&, Testbench& tb) { load_params(std::nullopt, tb); },
       .resolved = [](const ResolvedView& r) -> Resolved { return params_json(r.testbench); }},
      {.path = "program.warps",
       .type = kOther,
       .table = "program",
       .type_text = "list of lists of instructions",
       .default_text = "none",
       .meaning = "`trace` only: per warp, its instructions in order "
                  "([below](#programwarps-trace-instructions))",
       .load = load_warps,
       .resolved = [](const ResolvedView& r) -> Resolved {
         if (!r.testbench.args.listing) return std::nullopt;
         return warps_json(*r.testbench.args.listing);
       }},
      // An instruction of program.warps (read by load_warps; as it ran, by warps_json).
      {.path = "program.warps.read",
       .type = kOther,
       .table = "warps",
       .type_text = "list of addresses, one per lane (`null`: an inactive lane)",
       .meaning = "a read; each lane's register takes the value"},
      {.path = "program.warps.write",
       .type = kOther,
       .table = "warps",
       .type_text = "as `read`",
       .meaning = "a write of each lane's register, or of `values`"},
      {.path = "program.warps.values",
       .type = kOther,
       .table = "warps",
       .type_text = "list of integers, one per lane",
       .meaning = "writes only: the values written"},
      {.path = "program.warps.sync",
       .type = kOther,
       .table = "warps",
       .type_text = "`true`",
       .meaning = "a syncthreads (the warps of one block; a flat machine is one block)"},
      {.path = "program.warps.grid_sync",
       .type = kOther,
       .table = "warps",
       .type_text = "`true`",
       .meaning = "a barrier of every warp of the machine"},
      {.path = "program.warps.space",
       .type = choice(
           [] {
             return std::vector<std::string>{"global", "shared"};
           },
           "memory space"),
       .table = "warps",
       .meaning = "reads and writes only: the memory, `global` unless said (`shared`: the hmm's "
                  "SM's own)"},
  });
  add(output_keys());
  // expect, in the order of the testbench as it ran.
  for (const ExpectFigure& f : expect_figures()) keys.push_back(figure(f));
  return keys;
}

}  // namespace

const std::vector<TestbenchKey>& testbench_keys() {
  static const std::vector<TestbenchKey> keys = make_keys();
  return keys;
}

}  // namespace mmsim
