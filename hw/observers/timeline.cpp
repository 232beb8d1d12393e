#include "hw/observers/timeline.hpp"

#include <algorithm>

#include "hw/observers/profile.hpp"

namespace mmsim {
namespace {

const char* kind_name(int kind) {
  static const char* const names[] = {"read", "write", "sync", "grid_sync"};
  return names[kind];
}

constexpr std::int64_t kRateScale = 1 << 20;  // requests / k kept exact enough in integers
// The buffer goes to the sink in pieces of about this size.
constexpr std::size_t kDrainBytes = std::size_t{1} << 16;
// Bytes of a pending counter change (a node of a std::map) and of a site's names.
constexpr std::uint64_t kChangeBytes = 80;

}  // namespace

Timeline::Timeline(Cycle from, Cycle to, Sink sink) : from_(from), to_(to), sink_(std::move(sink)) {
  buffer_.reserve(2 * kDrainBytes);
}

std::uint64_t Timeline::memory_bytes(std::uint64_t warps, std::uint64_t memories,
                                     std::uint64_t lanes, std::uint64_t width) {
  const std::uint64_t per_memory = (lanes + 3) * kChangeBytes + 512;
  const std::uint64_t per_dispatch = lanes * width * 8 + lanes * 8;  // marks, groups, busy banks
  return 2 * kDrainBytes + warps / 8 + memories * per_memory + per_dispatch;
}

void Timeline::start(unsigned blocks, std::vector<std::string> memory_labels) {
  memory_labels_ = std::move(memory_labels);
  memories_pid_ = blocks;
  for (const std::string& label : memory_labels_)
    counters_.push_back({JsonWriter::quoted(label + " pipeline"),
                         JsonWriter::quoted(label + " requests"),
                         JsonWriter::quoted(label + " banks"),
                         {},
                         {},
                         {-1, -1, -1}});
  json_.begin_object()
      .key("displayTimeUnit")
      .value("ns")
      .key("otherData")
      .begin_object()
      .key("time_unit")
      .value("1 us = 1 time unit of the machine")
      .end()
      .key("traceEvents")
      .begin_array(true);
  // Processes: the warps of each block, then the memories' counters.
  for (unsigned b = 0; b < blocks; ++b)
    metadata("process_name", b, std::nullopt, "name")
        .value(blocks == 1 ? "warps" : "SM " + std::to_string(b))
        .end()
        .end();
  drain();
}

SiteId Timeline::site_of(SiteRef site) {
  if (!any_ || site.key() != last_key_) {
    last_id_ = sites_.intern(site);
    last_key_ = site.key();
    any_ = true;
  }
  return last_id_;
}

void Timeline::dispatched(const DispatchRecord& d) {
  if (!in_window(d.t, d.completion)) return;
  count_busy_banks(d.groups);
  write_counters(d.memory, d.t);  // the changes before t are final: no dispatch starts earlier
  // The stage groups in flight from the dispatch to its completion, its requests over its k
  // stages while they enter the pipeline, the busy banks of the group entering in each.
  std::map<Cycle, Change>& at = counters_[d.memory].pending;
  const unsigned k = d.stages;
  const std::int64_t rate = std::int64_t{d.requests} * kRateScale / k;
  const auto add = [&](Cycle time, Change change) {
    Change& sum = at[time];
    sum.stages += change.stages;
    sum.requests += change.requests;
    sum.banks += change.banks;
  };
  add(d.t, {k, rate, busy_[0]});
  for (unsigned g = 1; g < k; ++g) add(d.t + g, {0, 0, std::int64_t{busy_[g]} - busy_[g - 1]});
  add(d.t + k, {0, -rate, -std::int64_t{busy_[k - 1]}});
  add(d.completion + 1, {-std::int64_t{k}, 0, 0});
  const std::span<const Warp> warps = d.unit.warps();
  for (std::size_t j = 0; j < warps.size(); ++j) {
    if (!d.unit.in_flight(j)) continue;
    const Warp& warp = warps[j];
    const Warp::Instruction& in = warp.instruction();
    slice(d.t, d.completion + 1, warp, site_of(in.site), d.memory,
          in.access == AccessKind::read ? Kind::read : Kind::write);
    ++instructions_;
  }
  drain();
}

// A bank is busy in a time unit when the stage group entering the pipeline then sends it a
// request (docs/statistics.md, "Timeline"): the distinct (group, bank) pairs of the active lanes,
// each marked once per dispatch in a table of k * w marks.
void Timeline::count_busy_banks(const StageGroups& groups) {
  const std::span<const Address> cells = groups.cells();
  const std::size_t k = groups.count();
  const std::size_t width = groups.width();
  if (group_banks_.size() < k * width) group_banks_.resize(k * width, 0);
  const std::uint64_t mark = ++counted_;
  busy_.assign(k, 0);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i] == kInactive) continue;
    const std::size_t group = groups.group(i);
    std::uint64_t& marked = group_banks_[group * width + groups.bank(cells[i])];
    if (marked == mark) continue;  // a merged request, or another cell of a busy bank
    marked = mark;
    ++busy_[group];
  }
}

void Timeline::released(const WarpUnit& unit, std::size_t j, Cycle arrived, Cycle release) {
  if (!in_window(arrived, release)) return;
  const Warp& warp = unit.warps()[j];
  const Warp::Instruction& in = warp.instruction();
  slice(arrived, release, warp, site_of(in.site), kNoMemory,
        in.scope == BarrierScope::grid ? Kind::grid_sync : Kind::sync);
  ++barriers_;
  drain();
}

void Timeline::slice(Cycle begin, Cycle end, const Warp& warp, SiteId site, MemoryId memory,
                     Kind kind) {
  const WarpId index = warp.index();
  const unsigned block = warp.block();
  if (index >= named_warps_.size()) named_warps_.resize(index + 1, false);
  if (!named_warps_[index]) {
    named_warps_[index] = true;
    metadata("thread_name", block, index, "name")
        .value("warp " + std::to_string(index))
        .end()
        .end();
    metadata("thread_sort_index", block, index, "sort_index")
        .value(std::uint64_t{index})
        .end()
        .end();
  }
  const bool barrier = memory == kNoMemory;
  const std::size_t slots = memory_labels_.size() + 1;
  if (names_.size() <= std::size_t{site} * 4) {
    names_.resize((std::size_t{site} + 1) * 4);
    details_.resize((std::size_t{site} + 1) * slots);
  }
  std::string& name = names_[std::size_t{site} * 4 + static_cast<std::size_t>(kind)];
  std::string& details = details_[std::size_t{site} * slots + (barrier ? 0 : memory + 1)];
  if (name.empty() || details.empty()) {
    const std::string text = site_text(sites_.sites()[site]);
    name = JsonWriter::quoted(std::string(kind_name(static_cast<int>(kind))) + " " + text);
    details.clear();
    JsonWriter(details)
        .begin_object()
        .key("site")
        .value(text)
        .key("memory")
        .value(barrier ? std::string("barrier") : memory_labels_[memory])
        .end();
  }
  json_.begin_object()
      .key("ph")
      .value("X")
      .key("cat")
      .value(barrier ? "barrier" : "memory")
      .key("name")
      .raw(name)
      .key("pid")
      .value(block)
      .key("tid")
      .value(std::uint64_t{index})
      .key("ts")
      .value(begin)
      .key("dur")
      .value(end - begin)
      .key("args")
      .raw(details)
      .end();
}

JsonWriter& Timeline::metadata(const char* name, unsigned pid, std::optional<WarpId> tid,
                               const char* arg) {
  json_.begin_object().key("ph").value("M").key("name").value(name).key("pid").value(pid);
  if (tid) json_.key("tid").value(std::uint64_t{*tid});
  return json_.key("args").begin_object().key(arg);
}

void Timeline::write_counters(MemoryId m, Cycle before) {
  Counters& c = counters_[m];
  const auto counter = [&](const std::string& name, Cycle time, const char* arg) -> JsonWriter& {
    return json_.begin_object()
        .key("ph")
        .value("C")
        .key("name")
        .raw(name)
        .key("pid")
        .value(memories_pid_)
        .key("ts")
        .value(time)
        .key("args")
        .begin_object()
        .key(arg);
  };
  // An event where a value changes only: back to back dispatches keep the first two steady.
  for (auto it = c.pending.begin(); it != c.pending.end() && it->first < before;
       it = c.pending.erase(it)) {
    const auto& [time, change] = *it;
    c.value.stages += change.stages;
    c.value.requests += change.requests;
    c.value.banks += change.banks;
    if (c.value.stages != c.shown.stages)
      counter(c.pipeline, time, "stage groups in flight").value(c.value.stages).end().end();
    if (c.value.requests != c.shown.requests)
      counter(c.requests, time, "requests per time unit")
          .value(static_cast<double>(c.value.requests) / kRateScale, 4)
          .end()
          .end();
    if (c.value.banks != c.shown.banks)
      counter(c.banks, time, "busy banks").value(c.value.banks).end().end();
    c.shown = c.value;
  }
}

void Timeline::finish() {
  for (MemoryId m = 0; m < counters_.size(); ++m) write_counters(m, kNever);
  metadata("process_name", memories_pid_, std::nullopt, "name").value("memories").end().end();
  json_.end().end();
  buffer_ += '\n';
  drain(true);
}

void Timeline::drain(bool all) {
  if (buffer_.empty() || (!all && buffer_.size() < kDrainBytes)) return;
  sink_(buffer_);
  buffer_.clear();
}

}  // namespace mmsim
