#include "testbench/input/output_keys.hpp"

#include <limits>

namespace mmsim {
namespace {

constexpr std::int64_t kMaxInt = std::numeric_limits<std::int64_t>::max();

KeyType integer(std::int64_t min, std::int64_t max) {
  return {.kind = KeyType::Kind::integer, .min = min, .max = max};
}

// An output's file name: an empty one would silently write nothing.
std::string output_name(const KeyValue& at) {
  std::string name = at.string();
  if (name.empty()) at.fail("expected a file name, got an empty one");
  return name;
}

// The output of a row's key (outputs.<name>, outputs.<name>.<key>).
OutputRequest& request(const KeyValue& at, Testbench& tb) {
  const std::string& path = at.key().path;
  const std::size_t first = path.find('.') + 1;
  return tb.outputs[path.substr(first, path.find('.', first) - first)];
}

// outputs.<name>: a file name, or the mapping of its keys.
void load_file_or_mapping(const KeyValue& at, Testbench& tb) {
  if (at.node().IsMap()) {
    load_keys(at.section(), tb);
    return;
  }
  OutputRequest& r = request(at, tb);
  r.file = output_name(at);
  r.on = true;
}

void load_scopes(const KeyValue& at, Testbench& tb) {
  const YAML::Node scopes = at.node();
  if (!scopes.IsSequence() || scopes.size() == 0)
    at.fail(
        "expected a list of scope patterns such as ['machine.warp_[0-3]', "
        "'machine.memory.bank_*'], got " +
        yaml_describe(scopes));
  for (std::size_t i = 0; i < scopes.size(); ++i) {
    const std::string what = at.key().path + "[" + std::to_string(i) + "]";
    tb.where[what] = at.where(i);
    request(at, tb).scopes.push_back(yaml_string(scopes[i], tb.where[what], what));
  }
}

void load_file(const KeyValue& at, Testbench& tb) {
  OutputRequest& r = request(at, tb);
  r.file = output_name(at);
  r.on = true;
}

std::optional<std::uint64_t>& field(OutputRequest& r, const std::string& key) {
  return key == "from" ? r.from : key == "to" ? r.to : r.limit;
}

// outputs.<name>.from, .to, .limit.
TestbenchKey number_key(const OutputKeys& o, const std::string& key, KeyType type,
                        std::string default_text, std::string meaning) {
  return {.path = "outputs." + o.name + "." + key,
          .type = std::move(type),
          .table = "outputs",
          .default_text = std::move(default_text),
          .meaning = std::move(meaning),
          .load = [key](const KeyValue& at, Testbench& tb) {
            field(request(at, tb), key) = static_cast<std::uint64_t>(at.integer());
          }};
}

}  // namespace

const std::vector<OutputKeys>& output_key_lines() {
  static const std::vector<OutputKeys> lines = {
      {"vcd", OutputShape::waveform, "file name, or a mapping",
       "a waveform (VCD; FST or LXT2 by the extension `.fst`, `.lxt2`) and its GTKWave save file "
       "beside it ([waveforms.md](waveforms.md))",
       "the waveform", "cycle", "VCD", "shown"},
      {"stats", OutputShape::file, "file name, or `\"-\"`",
       "the statistics JSON ([statistics.md](statistics.md)); `-` is standard output"},
      {"profile", OutputShape::flag, "",
       "count every instruction at its source line: the report's top locations, the "
       "statistics' `profile` ([statistics.md](statistics.md#profile))"},
      {"timeline", OutputShape::windowed, "file name, or a mapping",
       "the run as Chrome Trace Event JSON for Perfetto: a track per warp, a slice per "
       "instruction ([statistics.md](statistics.md#timeline))",
       "the timeline", "time unit", "JSON", "kept"},
  };
  return lines;
}

std::vector<TestbenchKey> output_keys() {
  std::vector<TestbenchKey> keys;
  for (const OutputKeys& o : output_key_lines()) {
    const std::string path = "outputs." + o.name;
    switch (o.shape) {
      case OutputShape::file:
        keys.push_back({.path = path,
                        .type = {.kind = KeyType::Kind::string},
                        .table = "outputs",
                        .type_text = o.type_text,
                        .default_text = "none",
                        .meaning = o.meaning,
                        .load = load_file});
        continue;
      case OutputShape::flag:
        keys.push_back(
            {.path = path,
             .type = {.kind = KeyType::Kind::boolean},
             .table = "outputs",
             .default_text = "false",
             .meaning = o.meaning,
             .load = [](const KeyValue& at, Testbench& tb) { request(at, tb).on = at.boolean(); }});
        continue;
      case OutputShape::windowed:
      case OutputShape::waveform:
        break;
    }
    keys.push_back({.path = path,
                    .type = {},
                    .table = "outputs",
                    .type_text = o.type_text,
                    .default_text = "none",
                    .meaning = o.meaning,
                    .load = load_file_or_mapping});
    keys.push_back({.path = path + ".file",
                    .type = {.kind = KeyType::Kind::string},
                    .required = true,
                    .table = "outputs",
                    .type_text = "file name",
                    .meaning = o.file,
                    .load = load_file});
    keys.push_back(
        number_key(o, "from", integer(0, kMaxInt), "0", "the first " + o.unit + " " + o.kept));
    keys.push_back(number_key(o, "to", integer(0, kMaxInt), "the end of the run",
                              "the last " + o.unit + " " + o.kept));
    if (o.shape == OutputShape::waveform)
      keys.push_back({.path = path + ".scopes",
                      .type = {},
                      .table = "outputs",
                      .type_text = "list of glob patterns",
                      .default_text = "everything",
                      .meaning = "the scopes and signals written, e.g. `['machine.warp_[0-3]', "
                                 "'machine.memory.bank_*']`",
                      .load = load_scopes});
    keys.push_back(number_key(o, "limit", integer(1, kMaxInt), "2^30",
                              "bytes of " + o.format +
                                  " beyond which the run is refused (estimated before it, "
                                  "checked as it is written)"));
  }
  return keys;
}

}  // namespace mmsim
