#include "testbench/input/memory_budget.hpp"

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/mmu/mmu_pipeline.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "hw/observers/observer_thread.hpp"
#include "hw/support/counted.hpp"
#include "sw/planning/dmm_plan.hpp"
#include "sw/planning/umm_plan.hpp"
#include "testbench/input/integer_list.hpp"
#include "testbench/input/testbench.hpp"

namespace mmsim {
namespace {

// What mmsim holds whatever it does: its code and libraries, the SystemC kernel and a small
// machine's modules, the report (measured: 9-10 MiB for a small run or plan).
constexpr std::uint64_t kProcess = std::uint64_t{16} << 20;
// Per warp besides its registers and local memory: the Warp, its coroutine frames (a program's
// run() and the tasks it awaits, with their address vectors) and its share of the dispatch
// unit's module and buffers (measured: about 1.6 KiB with w = 32, see docs/running.md, "Memory").
constexpr std::uint64_t kPerWarp = 1024;
constexpr std::uint64_t kPerLane = 48;
// The race detector: per address its lists' heads, per access of the current epoch one record
// and per instruction its number and cycle (24 bytes, a lane's share of them counted once per
// access: an instruction of w lanes records up to w); an epoch of a program seldom accesses a
// word more than twice (a read and a write).
constexpr std::uint64_t kRaceCellBytes = 12;
constexpr std::uint64_t kRaceRecordBytes = 16;
constexpr std::uint64_t kRaceIssuedBytes = 24;
constexpr std::uint64_t kRaceAccessesPerWord = 2;

// "2^32" for powers of two from 2^10 on, else the decimal number.
std::string count_text(std::uint64_t n) {
  if (n >= 1024 && std::has_single_bit(n)) return fmt::format("2^{}", std::countr_zero(n));
  return std::to_string(n);
}

// count_text with its noun, singular for one: "2^20 words", "1 word".
std::string count_of(std::uint64_t n, std::string_view noun, std::string_view plural = {}) {
  const std::string with_noun = counted(n, noun, plural);
  return count_text(n) + with_noun.substr(with_noun.find(' '));
}

// The first number after `key` in a "key value [kB]" file such as /proc/meminfo.
std::optional<std::uint64_t> keyed_value(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string name;
    std::uint64_t value = 0;
    if (fields >> name >> value && (name == key || name == key + ":")) {
      std::string unit;
      if (fields >> unit && unit == "kB") value *= 1024;
      return value;
    }
  }
  return std::nullopt;
}

// The single number in a cgroup file ("max" or a huge value: no limit).
std::optional<std::uint64_t> number_in(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text == "max") return std::nullopt;
  try {
    const std::uint64_t value = std::stoull(text);
    if (value >= (std::uint64_t{1} << 60)) return std::nullopt;  // v1's "unlimited"
    return value;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// The cgroup path of this process in a hierarchy: the v2 line "0::/path", or the v1 line with
// `controller` in its list.
std::optional<std::string> cgroup_path(const std::string& controller) {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    const auto first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string list = line.substr(first + 1, second - first - 1);
    const bool match = controller.empty()
                           ? line.substr(0, first) == "0" && list.empty()
                           : ("," + list + ",").find("," + controller + ",") != std::string::npos;
    if (match) return line.substr(second + 1);
  }
  return std::nullopt;
}

struct CgroupFiles {
  std::string root;         // where the hierarchy is mounted
  std::string controller;   // "" for v2, "memory" for v1
  std::string limit;        // memory.max | memory.limit_in_bytes
  std::string usage;        // memory.current | memory.usage_in_bytes
  std::string reclaimable;  // the memory.stat key of page cache that can be dropped
};

// The headroom of the tightest limit from the process's cgroup up to the hierarchy's root.
std::optional<std::uint64_t> cgroup_headroom(const CgroupFiles& files) {
  const std::optional<std::string> path = cgroup_path(files.controller);
  if (!path) return std::nullopt;
  std::optional<std::uint64_t> headroom;
  for (std::string p = *path;; p = p.substr(0, p.rfind('/'))) {
    const std::string folder = files.root + (p == "/" ? "" : p);
    if (const auto limit = number_in(folder + "/" + files.limit)) {
      const std::uint64_t usage = number_in(folder + "/" + files.usage).value_or(0);
      const std::uint64_t cache =
          keyed_value(folder + "/memory.stat", files.reclaimable).value_or(0);
      const std::uint64_t used = usage - std::min(usage, cache);
      const std::uint64_t room = *limit - std::min(*limit, used);
      headroom = std::min(headroom.value_or(room), room);
    }
    if (p.empty() || p == "/") break;
  }
  return headroom;
}

// The address space the process may still map: its limit (ulimit -v) less what it maps now.
std::optional<std::uint64_t> address_space_headroom() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::nullopt;
  std::ifstream in("/proc/self/statm");
  std::uint64_t pages = 0;
  in >> pages;
  const std::uint64_t mapped = pages * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
  const auto cap = static_cast<std::uint64_t>(limit.rlim_cur);
  return cap - std::min(cap, mapped);
}

// What the machine (or MMSIM_MEMORY_LIMIT) leaves this process, before the address-space limit.
std::optional<AvailableMemory> machine_memory() {
  if (const char* limit = std::getenv("MMSIM_MEMORY_LIMIT"); limit && *limit)
    return AvailableMemory{parse_integer_option("MMSIM_MEMORY_LIMIT", limit, 0, ~std::uint64_t{0}),
                           "MMSIM_MEMORY_LIMIT"};
  std::optional<AvailableMemory> out;
  if (const auto bytes = keyed_value("/proc/meminfo", "MemAvailable"))
    out = AvailableMemory{*bytes, "MemAvailable in /proc/meminfo"};
  const CgroupFiles hierarchies[] = {
      {.root = "/sys/fs/cgroup",
       .controller = "",
       .limit = "memory.max",
       .usage = "memory.current",
       .reclaimable = "inactive_file"},
      {.root = "/sys/fs/cgroup/unified",
       .controller = "",
       .limit = "memory.max",
       .usage = "memory.current",
       .reclaimable = "inactive_file"},
      {.root = "/sys/fs/cgroup/memory",
       .controller = "memory",
       .limit = "memory.limit_in_bytes",
       .usage = "memory.usage_in_bytes",
       .reclaimable = "total_inactive_file"},
  };
  for (const CgroupFiles& files : hierarchies)
    if (const auto room = cgroup_headroom(files); room && (!out || *room < out->bytes))
      out = AvailableMemory{*room, "the memory cgroup's limit less its usage"};
  return out;
}

}  // namespace

std::optional<AvailableMemory> available_memory() {
  std::optional<AvailableMemory> out = machine_memory();
  if (const auto room = address_space_headroom(); room && (!out || *room < out->bytes))
    out = AvailableMemory{*room, "the address-space limit (ulimit -v) less what mmsim maps"};
  return out;
}

void MemoryEstimate::add(std::string what, std::uint64_t bytes, std::string key) {
  if (bytes > 0) parts.push_back({std::move(what), bytes, std::move(key)});
}

std::uint64_t MemoryEstimate::total() const {
  std::uint64_t sum = 0;
  for (const Part& part : parts) sum += part.bytes;
  return sum;
}

const MemoryEstimate::Part* MemoryEstimate::largest() const {
  const Part* out = nullptr;
  for (const Part& part : parts)
    if (!part.key.empty() && (!out || part.bytes > out->bytes)) out = &part;
  return out;
}

std::string MemoryEstimate::describe() const {
  std::string out;
  for (const Part& part : parts) {
    if (!out.empty()) out += " + ";
    out += part.what + " " + format_bytes(part.bytes);
  }
  return out;
}

std::string format_bytes(std::uint64_t bytes) {
  const double b = static_cast<double>(bytes);
  if (bytes >= (std::uint64_t{1} << 30)) return fmt::format("{:.1f} GiB", b / (1 << 30));
  if (bytes >= (std::uint64_t{1} << 20)) return fmt::format("{:.1f} MiB", b / (1 << 20));
  if (bytes >= (std::uint64_t{1} << 10)) return fmt::format("{:.1f} KiB", b / (1 << 10));
  return fmt::format("{} byte{}", bytes, bytes == 1 ? "" : "s");
}

MemoryEstimate run_memory(const MachineConfig& m, const WarpProgram& program, bool race_check) {
  MemoryEstimate e;
  // The cells fill whole rows of w banks (none where the program carries no data).
  const std::uint64_t cells = m.rows() * m.width;
  if (m.memory_values)
    e.add(fmt::format("memory: {} of 8 bytes", count_of(m.memory_words, "word")), 8 * cells,
          "machine.memory");
  // The hierarchical machine: a shared memory per streaming multiprocessor, in rows of w banks.
  const std::uint64_t shared_cells =
      machine_model(m).hierarchical
          ? std::uint64_t{m.multiprocessors} * ((m.shared.words + m.width - 1) / m.width * m.width)
          : 0;
  if (shared_cells > 0 && m.memory_values)
    e.add(fmt::format("{} of {}", counted(m.multiprocessors, "shared memory", "shared memories"),
                      count_of(m.shared.words, "word")),
          8 * shared_cells, "machine.shared.memory");
  // A map of one's own keeps the banks of every row it looked up, 2 bytes a cell (one table for
  // all the shared memories) and a byte a row.
  const bool hierarchical = machine_model(m).hierarchical;
  if (const BankMapping& mapping = hierarchical ? m.shared.mapping : m.mapping; mapping.own_map) {
    const std::uint64_t table_cells = hierarchical ? shared_cells / m.multiprocessors : cells;
    e.add("the table of map " + mapping.own_map->name, 2 * table_cells + table_cells / m.width,
          hierarchical ? "machine.shared.address_map" : "machine.address_map");
  }
  // Each memory's pipeline is a ring of the dispatches in flight, l + 2 of them.
  e.add(fmt::format("the pipeline (l = {})", count_text(m.latency)), MmuPipeline::bytes(m.latency),
        "machine.latency");
  if (shared_cells > 0)
    e.add(fmt::format("{} (l_s = {})", counted(m.multiprocessors, "shared pipeline"),
                      count_text(m.shared.latency)),
          std::uint64_t{m.multiprocessors} * MmuPipeline::bytes(m.shared.latency),
          "machine.shared.latency");
  const std::uint64_t warps = m.warps();
  e.add(fmt::format("{} of {}", count_of(warps, "warp"), counted(m.width, "lane")),
        warps * (kPerWarp + m.width * (kPerLane + 8 * m.local_words)), "machine.threads");
  if (race_check) {
    const std::uint64_t per_access = kRaceRecordBytes + (kRaceIssuedBytes + m.width - 1) / m.width;
    e.add("the race detector",
          (cells + shared_cells) * (kRaceCellBytes + kRaceAccessesPerWord * per_access) +
              ObserverThread::bytes(),
          "machine.race_check");
  }
  e.add("the program's data", program.host_bytes(), "program.params");
  e.add("mmsim itself", kProcess);
  return e;
}

MemoryEstimate plan_memory(std::uint64_t n, std::uint64_t w, const std::string& machine,
                           const planning::PermutationSpec& spec,
                           planning::ColoringAlgorithm algorithm) {
  MemoryEstimate e;
  e.add(fmt::format("the permutation of {}", count_of(n, "element")),
        planning::permutation_bytes(spec, n));
  if (machine == "umm")
    e.add("the UMM plan and its check", planning::umm_plan_bytes(n, w, algorithm));
  else
    e.add("the DMM plan and its check", planning::dmm_plan_bytes(n, w, algorithm));
  e.add("mmsim itself", kProcess);
  return e;
}

void check_memory(const MemoryEstimate& estimate, const std::string& what,
                  const SourceLocation& where, const std::string& key) {
  const std::optional<AvailableMemory> available = available_memory();
  if (!available || estimate.total() <= available->bytes) return;
  throw InputError(where,
                   fmt::format("{}this {} needs about {} ({}), {} {} available ({})",
                               key.empty() ? "" : key + ": ", what, format_bytes(estimate.total()),
                               estimate.describe(), format_bytes(available->bytes),
                               available->bytes == 1 ? "is" : "are", available->source));
}

void check_run_memory(const Testbench& tb, const MachineConfig& machine,
                      const WarpProgram& program,
                      const std::vector<MemoryEstimate::Part>& outputs) {
  MemoryEstimate estimate = run_memory(machine, program, tb.race_check);
  for (const MemoryEstimate::Part& part : outputs) estimate.add(part.what, part.bytes, part.key);
  const MemoryEstimate::Part* largest = estimate.largest();
  std::string key = largest ? largest->key : "";
  const auto given = [&](const std::string& k) { return tb.where.count(k) != 0; };
  if ((key == "machine.memory" && !given(key)) || key == "program.params")
    key = given("program.params.n") ? "program.params.n" : key;
  if (!key.empty() && !given(key)) key = "machine";
  check_memory(estimate, "run", key.empty() ? tb.locate("machine") : tb.locate(key), key);
}

void check_input_memory(const Testbench& tb, std::uint64_t bytes) {
  MemoryEstimate estimate;
  estimate.add("the program's input", bytes, "program.params");
  estimate.add("mmsim itself", kProcess);
  const std::string key = tb.where.count("program.params.file") ? "program.params.file" : "program";
  check_memory(estimate, "run", tb.locate(key), key);
}

std::uint64_t peak_resident_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
}

std::uint64_t resident_bytes() {
  std::ifstream in("/proc/self/statm");
  std::uint64_t size = 0, resident = 0;
  in >> size >> resident;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace mmsim
