#include "testbench/waveforms/gtkwave_view.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>

#include <fmt/format.h>

#include "hw/memory/memory_bank.hpp"
#include "hw/mmu/mmu_pipeline.hpp"
#include "hw/mmu/random_shift_unit.hpp"
#include "hw/mmu/splitter_unit.hpp"
#include "hw/pe/unit_state.hpp"

namespace mmsim {
namespace {

// GTKWave's trace flags (its analyzer.h): how a trace shows its value.
constexpr std::uint64_t kDecimal = 1u << 2, kBinary = 1u << 3, kRightJustify = 1u << 5,
                        kBlank = 1u << 9, kTranslated = 1u << 13, kAnalogStep = 1u << 15,
                        kAnalogStretch = 1u << 17, kClosed = 1u << 22, kGroupBegin = 1u << 23,
                        kGroupEnd = 1u << 24;

// GTKWave's trace colours ([color] n).
enum class Colour { normal = 0, red, orange, yellow, green, blue, indigo, violet };

// The translate filters, one file each beside the save file.
enum class Filter { none, state, unit, space };
constexpr std::string_view kFilterNames[] = {"", "state", "unit", "space"};

// How a signal shows, by its own (last) name; every other signal: 1 bit as a line, wider ones
// in decimal.
struct Display {
  std::string_view leaf;
  Filter filter = Filter::none;
  bool analog = false;
};
constexpr Display kDisplays[] = {
    {.leaf = "state", .filter = Filter::state},
    {.leaf = "space", .filter = Filter::space},
    {.leaf = "dispatch_unit", .filter = Filter::unit},
    {.leaf = "entry_unit", .filter = Filter::unit},
    {.leaf = "completion_unit", .filter = Filter::unit},
    {.leaf = "occupancy", .analog = true},
};

Display display_of(const std::string& name) {
  const std::string_view leaf = std::string_view(name).substr(name.rfind('.') + 1);
  for (const Display& d : kDisplays)
    if (d.leaf == leaf) return d;
  return {.leaf = leaf};
}

std::filesystem::path filter_path(const GtkwaveViewPlace& place, Filter filter) {
  return place.save_file.string() + "." + std::string(kFilterNames[static_cast<int>(filter)]) +
         ".txt";
}

class SaveFile {
 public:
  SaveFile(const std::vector<Tracer::Signal>& traced, const GtkwaveViewPlace& place)
      : traced_(traced), place_(place) {
    for (const Tracer::Signal& s : traced) width_[s.name] = s.width;
  }

  std::string& text() { return text_; }

  // The traced signals below `scope`, in the order they were traced.
  std::vector<std::string> below(const std::string& scope) const {
    std::vector<std::string> names;
    const std::string prefix = scope + ".";
    for (const Tracer::Signal& s : traced_)
      if (s.name.starts_with(prefix)) names.push_back(s.name);
    return names;
  }
  bool traced(const std::string& name) const { return width_.count(name) != 0; }

  void begin(const std::string& name, bool closed = false) {
    flags(kGroupBegin | kBlank | (closed ? kClosed : 0));
    text_ += "-" + name + "\n";
    names_.push_back({name, closed});
  }
  void end() {
    const auto [name, closed] = names_.back();
    names_.pop_back();
    flags(kGroupEnd | kBlank | (closed ? kClosed : 0));
    text_ += "-" + name + "\n";
  }
  // A group of the signals below `scope` (nothing when none is traced).
  void group(const std::string& name, const std::string& scope, Colour colour,
             bool closed = false) {
    const std::vector<std::string> names = below(scope);
    if (names.empty()) return;
    begin(name, closed);
    for (const std::string& n : names) signal(n, colour);
    end();
  }
  void signal(const std::string& name, Colour colour) {
    const auto it = width_.find(name);
    if (it == width_.end()) return;
    const unsigned width = it->second;
    const Display d = display_of(name);
    if (d.filter != Filter::none) {
      flags(kTranslated | kDecimal | kRightJustify);
      text_ += fmt::format("^{} {}\n", static_cast<int>(d.filter),
                           filter_path(place_, d.filter).string());
    } else if (d.analog) {
      flags(kAnalogStep | kDecimal | kRightJustify);
    } else {
      flags(width == 1 ? kBinary | kRightJustify : kDecimal | kRightJustify);
    }
    if (colour != colour_) {
      text_ += fmt::format("[color] {}\n", static_cast<int>(colour));
      colour_ = colour;
    }
    // Shown by its place below `machine`, with slashes (GTKWave would cut a dotted name down to
    // its last part); GTKWave names the signal with its top scope and bits.
    std::string shown = name.starts_with("machine.") ? name.substr(8) : name;
    std::replace(shown.begin(), shown.end(), '.', '/');
    // A translated bit must be a vector of one bit to GTKWave ("#{...}").
    const char kind = width == 1 && d.filter != Filter::none ? '#' : '+';
    text_ += fmt::format("{}{{{}}} SystemC.{}{}\n", kind, shown, name,
                         width > 1 ? fmt::format("[{}:0]", width - 1) : "");
    if (d.analog) {  // an analog trace takes two more rows
      flags(kAnalogStretch);
      text_ += "-\n-\n";
    }
  }

 private:
  void flags(std::uint64_t f) {
    if (f == flags_) return;
    text_ += fmt::format("@{:x}\n", f);
    flags_ = f;
  }

  const std::vector<Tracer::Signal>& traced_;
  const GtkwaveViewPlace& place_;
  std::map<std::string, unsigned> width_;
  std::string text_;
  std::vector<std::pair<std::string, bool>> names_;  // open groups
  std::uint64_t flags_ = ~std::uint64_t{0};
  Colour colour_ = Colour::normal;
};

// The random shift unit: the shift applied per bank, then its table r_j (closed: one per row).
void shift_unit_group(SaveFile& file, const std::string& scope) {
  const std::vector<std::string> names = file.below(scope);
  if (names.empty()) return;
  file.begin("random_shift_unit");
  std::vector<std::string> table;
  for (const std::string& name : names)
    if (name.substr(name.rfind('.') + 1).starts_with("r_"))
      table.push_back(name);
    else
      file.signal(name, Colour::red);
  if (!table.empty()) {
    file.begin("shift_table", true);
    for (const std::string& name : table) file.signal(name, Colour::red);
    file.end();
  }
  file.end();
}

// A memory: its packing unit or coalescer, its random shift unit, its pipeline, its banks.
void memory_groups(SaveFile& file, Mmu& mmu, const std::string& name, bool closed) {
  if (file.below(mmu.name()).empty()) return;
  file.begin(name, closed);
  // The parts in the order a dispatch meets them (SystemC lists them as they were made).
  std::string splitter, splitter_name, shift_unit, pipeline;
  std::vector<std::string> banks;
  for (sc_core::sc_object* part : mmu.get_child_objects()) {
    if (dynamic_cast<SplitterUnit*>(part)) {
      splitter = part->name();
      splitter_name = part->basename();
    } else if (dynamic_cast<RandomShiftUnit*>(part)) {
      shift_unit = part->name();
    } else if (dynamic_cast<MmuPipeline*>(part)) {
      pipeline = part->name();
    } else if (dynamic_cast<MemoryBank*>(part)) {
      for (const std::string& s : file.below(part->name())) banks.push_back(s);
    }
  }
  file.group(splitter_name, splitter, Colour::orange);
  if (!shift_unit.empty()) shift_unit_group(file, shift_unit);
  file.group("pipeline", pipeline, Colour::green);
  if (!banks.empty()) {
    file.begin("banks", true);
    for (const std::string& s : banks) file.signal(s, Colour::blue);
    file.end();
  }
  file.end();
}

// The first kViewedUnits units of `units`.
void unit_group(SaveFile& file, const std::vector<WarpUnit*>& units, const std::string& name) {
  std::vector<std::string> names;
  for (std::size_t u = 0; u < std::min(units.size(), kViewedUnits); ++u)
    for (const std::string& s : file.below(units[u]->name())) names.push_back(s);
  if (names.empty()) return;
  file.begin(name);
  for (const std::string& s : names) file.signal(s, Colour::violet);
  file.end();
}

std::string unit_names(Machine& machine) {
  std::string text;
  for (const WarpUnit* unit : machine.units()) {
    std::string name = std::string(unit->name()).substr(std::string_view("machine.").size());
    std::replace(name.begin(), name.end(), '.', '/');  // as the traces are shown
    text += fmt::format("{} {}\n", unit->id(), name);
  }
  return text;
}

std::string state_names() {
  std::string text;
  for (const UnitState s :
       {UnitState::idle, UnitState::ready, UnitState::waiting, UnitState::barrier, UnitState::done})
    text += fmt::format("{} {}\n", static_cast<int>(s), to_string(s));
  return text;
}

// GTKWave shows 200 * 2^zoom pixels per time unit (a whole zoom <= 0): the wave pane (about
// 1150 pixels wide in a window of 1600) shows about `cycles`.
double zoom_for(std::uint64_t cycles) {
  return std::min(0.0, std::round(std::log2(5.75 / static_cast<double>(cycles))));
}

}  // namespace

GtkwaveViewPlace gtkwave_view_place(const std::filesystem::path& waveform) {
  const std::filesystem::path absolute = std::filesystem::absolute(waveform).lexically_normal();
  return {.waveform = absolute,
          .save_file = std::filesystem::path(absolute).replace_extension(".gtkw")};
}

std::vector<std::filesystem::path> gtkwave_view_paths(const GtkwaveViewPlace& place) {
  return {place.save_file, filter_path(place, Filter::state), filter_path(place, Filter::unit),
          filter_path(place, Filter::space)};
}

std::vector<GtkwaveViewFile> gtkwave_view(Machine& machine,
                                          const std::vector<Tracer::Signal>& traced,
                                          const GtkwaveViewPlace& place, std::uint64_t first,
                                          std::uint64_t last) {
  Machine& m = machine;
  SaveFile file(traced, place);
  const std::uint64_t shown = std::clamp<std::uint64_t>(last - first + 1, 8, 64);
  file.text() += fmt::format(
      "[*] GTKWave save file written by mmsim: gtkwave {} {}\n"
      "[*] groups open and close with a click on their name; File > Read Save File reloads it\n"
      "[dumpfile] \"{}\"\n[savefile] \"{}\"\n[timestart] {}\n[size] 1600 1000\n[pos] -1 -1\n"
      "*{:.6f} -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n"
      "[sst_expanded] 0\n[signals_width] 440\n",
      place.waveform.filename().string(), place.save_file.filename().string(),
      place.waveform.string(), place.save_file.string(), first, zoom_for(shown));

  file.group("dispatcher", m.dispatcher().name(), Colour::yellow);
  if (m.multiprocessors().empty()) {
    unit_group(file, m.units(), "warps");
    memory_groups(file, m.memory(0), "memory", false);
    file.group("barrier", m.barrier().name(), Colour::indigo);
  } else {
    memory_groups(file, m.memory(0), "global_memory", false);
    file.group("barrier", m.barrier().name(), Colour::indigo);
    for (const auto& sm : m.multiprocessors()) {
      const std::string scope = sm->name();
      if (file.below(scope).empty()) continue;
      const bool closed = sm->index() > 0;  // SM 0 open, with its shared memory
      file.begin(sm->basename(), closed);
      file.group("dispatcher", scope + ".dispatcher", Colour::yellow);
      std::vector<WarpUnit*> units;
      for (const auto& unit : sm->units()) units.push_back(unit.get());
      unit_group(file, units, "warps");
      memory_groups(file, sm->shared_memory(), "shared_memory", closed);
      file.group("barrier", scope + ".barrier", Colour::indigo);
      file.end();
    }
  }
  return {
      {.path = place.save_file, .contents = file.text()},
      {.path = filter_path(place, Filter::state), .contents = state_names()},
      {.path = filter_path(place, Filter::unit), .contents = unit_names(m)},
      {.path = filter_path(place, Filter::space), .contents = "0 global\n1 shared\n"},
  };
}

}  // namespace mmsim
