#include "testbench/run/timeline.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "testbench/run/profile_report.hpp"

namespace mmsim {
namespace {

// A JSON string, quoted and escaped (names may hold any byte: U+FFFD for what is not UTF-8).
std::string json_string(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

const char* kind_name(int kind) {
  static const char* const names[] = {"read", "write", "sync", "grid_sync"};
  return names[kind];
}

// A counter's change at a time unit.
struct Change {
  Cycle time;
  std::int64_t stages;    // stage groups in flight
  std::int64_t requests;  // thread requests per time unit, times kRateScale
  std::int64_t banks;     // busy banks
};
constexpr std::int64_t kRateScale = 1 << 20;  // requests / k kept exact enough in integers

}  // namespace

SiteId Timeline::site_of(SiteRef site) {
  if (!any_ || site.key() != last_key_) {
    last_id_ = sites_.intern(site);
    last_key_ = site.key();
    any_ = true;
  }
  return last_id_;
}

void Timeline::dispatched(const WarpUnit& unit, MemoryId memory, StageSplitter& splitter,
                          unsigned stages, unsigned requests, Cycle t, Cycle completion) {
  if (!in_window(t, completion)) return;
  dispatches_.push_back({t, completion, stages, requests, memory, busy_.size()});
  count_busy_banks(unit.dispatch_cells(), splitter, stages);
  const std::span<const Warp> warps = unit.warps();
  for (std::size_t j = 0; j < warps.size(); ++j) {
    if (!unit.in_flight(j)) continue;
    const Warp& warp = warps[j];
    const Warp::Instruction& in = warp.instruction();
    slices_.push_back({t, completion + 1, warp.index(), site_of(in.site), warp.block(), memory,
                       in.access == AccessKind::read ? Kind::read : Kind::write});
    ++instructions_;
  }
}

// A bank is busy in a time unit when the stage group entering the pipeline then sends it a
// request (docs/statistics.md, "Timeline"): the distinct (group, bank) pairs of the active lanes,
// each marked once per dispatch in a table of k * w marks. A dispatch of one stage group (every
// conflict-free one) has all its lanes in group 0: the splitter need not place them.
void Timeline::count_busy_banks(std::span<const Address> cells, StageSplitter& splitter,
                                unsigned k) {
  const bool one_group = k == 1;
  if (!one_group) {
    groups_.resize(cells.size());
    splitter.assign_groups(cells, groups_);
  }
  const std::size_t width = splitter.width();
  if (group_banks_.size() < std::size_t{k} * width) group_banks_.resize(std::size_t{k} * width, 0);
  const std::uint64_t mark = ++counted_;
  const std::size_t first = busy_.size();
  busy_.resize(first + k, 0);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i] == kInactive) continue;
    const std::size_t group = one_group ? 0 : groups_[i];
    std::uint64_t& marked = group_banks_[group * width + splitter.bank(cells[i])];
    if (marked == mark) continue;  // a merged request, or another cell of a busy bank
    marked = mark;
    ++busy_[first + group];
  }
}

void Timeline::released(const WarpUnit& unit, std::size_t j, Cycle arrived, Cycle release) {
  if (!in_window(arrived, release)) return;
  const Warp& warp = unit.warps()[j];
  const Warp::Instruction& in = warp.instruction();
  slices_.push_back({arrived, release, warp.index(), site_of(in.site), warp.block(), kNoMemory,
                     in.scope == BarrierScope::grid ? Kind::grid_sync : Kind::sync});
  ++barriers_;
}

std::string Timeline::json(const RunResult& result, unsigned blocks) const {
  std::string out;
  out.reserve(slices_.size() * 160 + dispatches_.size() * 200 + 4096);
  auto to = std::back_inserter(out);
  out +=
      "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"time_unit\":\"1 us = 1 time unit of the "
      "machine\"},\"traceEvents\":[\n";
  // Processes: the warps of each block, then the memories' counters.
  const unsigned memories_pid = blocks;
  for (unsigned b = 0; b < blocks; ++b)
    fmt::format_to(to,
                   R"({{"ph":"M","name":"process_name","pid":{},"args":{{"name":{}}}}},)"
                   "\n",
                   b, json_string(blocks == 1 ? "warps" : "SM " + std::to_string(b)));
  constexpr unsigned kUnnamed = ~0u;
  std::vector<unsigned> block_of;  // per warp with a slice, its block: named once each
  for (const Slice& s : slices_) {
    if (s.warp >= block_of.size()) block_of.resize(s.warp + 1, kUnnamed);
    block_of[s.warp] = s.block;
  }
  for (WarpId warp = 0; warp < block_of.size(); ++warp) {
    const unsigned block = block_of[warp];
    if (block == kUnnamed) continue;
    fmt::format_to(
        to,
        R"({{"ph":"M","name":"thread_name","pid":{},"tid":{},"args":{{"name":"warp {}"}}}},)"
        "\n"
        R"({{"ph":"M","name":"thread_sort_index","pid":{},"tid":{},"args":{{"sort_index":{}}}}},)"
        "\n",
        block, warp, warp, block, warp, warp);
  }
  // Names made once: per site and kind the slice's name, per site and memory its arguments.
  const std::size_t memories = result.memories.size();
  const auto memory_label = [&](MemoryId m) {
    return m == kNoMemory ? std::string("barrier") : result.memories[m].label;
  };
  std::vector<std::string> site_names;
  for (const SiteInfo& site : sites_.sites()) site_names.push_back(site_text(site));
  // "name":... per site and kind, "args":{...} per site and memory (slot 0: barriers).
  std::vector<std::string> names(site_names.size() * 4);
  std::vector<std::string> details(site_names.size() * (memories + 1));
  for (const Slice& s : slices_) {
    const bool barrier = s.memory == kNoMemory;
    std::string& name = names[std::size_t{s.site} * 4 + static_cast<std::size_t>(s.kind)];
    if (name.empty())
      name = fmt::format(
          R"("cat":"{}","name":{})", barrier ? "barrier" : "memory",
          json_string(std::string(kind_name(static_cast<int>(s.kind))) + " " + site_names[s.site]));
    std::string& args =
        details[std::size_t{s.site} * (memories + 1) + (barrier ? 0 : std::size_t{s.memory} + 1)];
    if (args.empty())
      args = fmt::format(R"("args":{{"site":{},"memory":{}}})", json_string(site_names[s.site]),
                         json_string(memory_label(s.memory)));
    fmt::format_to(to,
                   R"({{"ph":"X",{},"pid":{},"tid":{},"ts":{},"dur":{},{}}},)"
                   "\n",
                   name, s.block, s.warp, s.begin, s.end - s.begin, args);
  }
  // Counters per memory, as step functions: stage groups of the dispatches in flight (from the
  // dispatch to its completion), thread requests per time unit while its stage groups enter the
  // pipeline (its requests over its k stages), and the banks busy with the group entering in
  // each time unit. An event where the value changes only: back to back dispatches keep the
  // first two steady.
  std::vector<std::vector<Change>> changes(memories);
  for (const Dispatch& d : dispatches_) {
    const std::int64_t rate = std::int64_t{d.requests} * kRateScale / d.stages;
    const std::uint32_t* busy = busy_.data() + d.busy;
    std::vector<Change>& at = changes[d.memory];
    at.push_back({d.t, d.stages, rate, busy[0]});
    for (unsigned g = 1; g < d.stages; ++g)
      at.push_back({d.t + g, 0, 0, std::int64_t{busy[g]} - busy[g - 1]});
    at.push_back({d.t + d.stages, 0, -rate, -std::int64_t{busy[d.stages - 1]}});
    at.push_back({d.completion + 1, -std::int64_t{d.stages}, 0, 0});
  }
  for (MemoryId m = 0; m < memories; ++m) {
    std::vector<Change>& at = changes[m];
    std::stable_sort(at.begin(), at.end(),
                     [](const Change& a, const Change& b) { return a.time < b.time; });
    const std::string pipeline = json_string(result.memories[m].label + " pipeline");
    const std::string requests = json_string(result.memories[m].label + " requests");
    const std::string banks = json_string(result.memories[m].label + " banks");
    std::int64_t stages = 0, rate = 0, busy = 0;
    std::int64_t shown_stages = -1, shown_rate = -1, shown_busy = -1;
    for (std::size_t i = 0; i < at.size(); ++i) {
      stages += at[i].stages;
      rate += at[i].requests;
      busy += at[i].banks;
      if (i + 1 < at.size() && at[i + 1].time == at[i].time) continue;  // one event per time
      if (stages != shown_stages)
        fmt::format_to(
            to,
            R"({{"ph":"C","name":{},"pid":{},"ts":{},"args":{{"stage groups in flight":{}}}}},)"
            "\n",
            pipeline, memories_pid, at[i].time, stages);
      if (rate != shown_rate)
        fmt::format_to(
            to,
            R"({{"ph":"C","name":{},"pid":{},"ts":{},"args":{{"requests per time unit":{:.4g}}}}},)"
            "\n",
            requests, memories_pid, at[i].time, static_cast<double>(rate) / kRateScale);
      if (busy != shown_busy)
        fmt::format_to(to,
                       R"({{"ph":"C","name":{},"pid":{},"ts":{},"args":{{"busy banks":{}}}}},)"
                       "\n",
                       banks, memories_pid, at[i].time, busy);
      shown_stages = stages;
      shown_rate = rate;
      shown_busy = busy;
    }
  }
  fmt::format_to(to,
                 R"({{"ph":"M","name":"process_name","pid":{},"args":{{"name":"memories"}}}}]}})"
                 "\n",
                 memories_pid);
  return out;
}

}  // namespace mmsim
