#include "sw/gpu_traces/recorded_trace.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>

namespace mmsim {

KernelSelection::KernelSelection(std::string spec) : spec_(std::move(spec)) {
  if (!spec_.empty() &&
      std::all_of(spec_.begin(), spec_.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    if (spec_.size() > 18 || std::stoull(spec_) == 0)
      throw ParamError("kernel",
                       "kernel: expected all, a kernel's number (from 1) or its name, "
                       "got '" +
                           spec_ + "'");
    number_ = std::stoull(spec_);
  }
  if (spec_.empty())
    throw ParamError("kernel", "kernel: expected all, a kernel's number (from 1) or its name");
}

bool KernelSelection::matches(std::uint64_t number, std::string_view name) const {
  if (spec_ == "all") return true;
  if (number_) return number == *number_;
  return name == spec_ || name.substr(0, name.find('(')) == spec_;
}

std::string RecordedTrace::kernel_label(std::uint32_t kernel) const {
  const TraceKernel& k = kernels[kernel];
  return "kernel " + std::to_string(k.number) + " (" + k.name + ")";
}

std::string RecordedTrace::describe(std::uint32_t kernel, const CtaEntry& cta,
                                    const WarpEntry& warp, const RecordedInstruction& in) const {
  return kernel_label(kernel) + ", CTA (" + std::to_string(cta.id[0]) + "," +
         std::to_string(cta.id[1]) + "," + std::to_string(cta.id[2]) + "), warp " +
         std::to_string(warp.warp) + ", instruction " + std::to_string(in.index) + " (" +
         (format == TraceFormat::accelsim ? kernels[kernel].where.file : file.string()) + ":" +
         std::to_string(in.line) + ")";
}

std::uint32_t TraceRecorder::site(std::uint32_t kernel, std::optional<std::uint64_t> pc,
                                  std::optional<std::uint64_t> source_line, std::string_view opcode,
                                  unsigned bytes, bool has_addresses) {
  // Accel-Sim: a PC names one static instruction of its kernel.
  const auto matches = [&](std::uint32_t id) {
    const TraceSite& s = trace_.sites[id];
    return s.opcode == opcode && s.bytes == bytes && s.has_addresses == has_addresses;
  };
  const std::uint64_t pc_key = pc ? (*pc << 20) ^ kernel : 0;
  if (pc) {
    if (const auto it = by_pc_.find(pc_key); it != by_pc_.end() && matches(it->second))
      return it->second;
  } else {  // mem_trace: a few opcodes per kernel, looked at in turn
    for (const std::uint32_t id : recent_)
      if (trace_.sites[id].kernel == kernel && matches(id)) return id;
  }
  key_.clear();
  key_.append(reinterpret_cast<const char*>(&kernel), sizeof kernel);
  const std::uint64_t pc_value = pc.value_or(~std::uint64_t{0});
  key_.append(reinterpret_cast<const char*>(&pc_value), sizeof pc_value);
  key_.push_back(static_cast<char>(bytes));
  key_.push_back(has_addresses ? 'a' : '-');
  key_.append(opcode);
  std::uint32_t id = 0;
  if (const auto it = sites_.find(key_); it != sites_.end()) {
    id = it->second;
  } else {
    id = static_cast<std::uint32_t>(trace_.sites.size());
    trace_.sites.push_back({kernel, pc, source_line, std::string(opcode), bytes, has_addresses,
                            map_opcode(opcode, trace_.format, has_addresses)});
    sites_.emplace(key_, id);
  }
  if (pc)
    by_pc_[pc_key] = id;
  else if (recent_.size() < kRecentSites)
    recent_.push_back(id);
  return id;
}

bool TraceRecorder::count(const RecordedInstruction& in) {
  const TraceSite& site = trace_.sites[in.site];
  TraceKernel& kernel = trace_.kernels[site.kernel];
  ++kernel.instructions;
  const OpcodeMapping& mapping = site.mapping;
  if (mapping.operation == TraceOperation::other) {
    ++kernel.other;
    if (kernel.selected)
      ++trace_.not_mapped[{std::string(base_opcode(site.opcode)), std::string(mapping.reason)}];
    return false;
  }
  if (mapping.operation == TraceOperation::barrier) {
    ++kernel.barriers;
    return kernel.selected;
  }
  const bool shared = mapping.space == Space::shared;
  ++(shared ? kernel.shared : kernel.global);
  kernel.lanes += static_cast<unsigned>(std::popcount(in.mask));
  if (!kernel.selected) return false;
  TouchedGranules& touched = shared ? kernel.shared_words : trace_.global_words;
  // Neighbouring lanes usually share a granule: touch it once.
  const unsigned shift = trace_.word_shift;
  const unsigned granule_shift = shift + 5;  // 32 words
  static_assert(TouchedGranules::kGranuleWords == 32);
  const std::uint64_t span = site.bytes - 1;
  std::uint64_t granule = ~std::uint64_t{0};
  const auto lane = [&](std::uint64_t a) {
    const std::uint64_t first = a >> granule_shift, last = (a + span) >> granule_shift;
    if (first == granule && last == granule) return;
    if (first == last)
      touched.touch_granule(first);
    else
      touched.touch(a >> shift, (a + span) >> shift);
    granule = last;
  };
  if (in.strided && in.mask != 0) {
    const auto active = static_cast<unsigned>(std::popcount(in.mask));
    const std::uint64_t first = in.address[static_cast<unsigned>(std::countr_zero(in.mask))];
    const std::uint64_t last = first + in.stride * (active - 1);
    const std::uint64_t low = std::min(first, last), high = std::max(first, last);
    // Lanes at most a word apart touch every word between the first and the last.
    const auto magnitude = static_cast<std::uint64_t>(static_cast<std::int64_t>(in.stride) < 0
                                                          ? -static_cast<std::int64_t>(in.stride)
                                                          : static_cast<std::int64_t>(in.stride));
    if (magnitude <= (std::uint64_t{1} << shift) ||
        (low >> granule_shift) == ((high + span) >> granule_shift)) {
      touched.touch(low >> shift, (high + span) >> shift);
      return true;
    }
    // Lanes further apart: one after the other, from the first and the stride.
    std::uint64_t a = first;
    for (unsigned i = 0; i < active; ++i, a += in.stride) lane(a);
    return true;
  }
  if (in.mask == 0xffffffffu) {
    std::uint64_t low = in.address[0], high = in.address[0];
    for (const std::uint64_t a : in.address) {
      low = std::min(low, a);
      high = std::max(high, a);
    }
    if ((low >> granule_shift) == ((high + span) >> granule_shift)) {  // one granule
      touched.touch(low >> shift, (high + span) >> shift);
      return true;
    }
    for (const std::uint64_t a : in.address) lane(a);
  } else {
    for (std::uint32_t m = in.mask; m != 0; m &= m - 1)
      lane(in.address[static_cast<unsigned>(std::countr_zero(m))]);
  }
  return true;
}

bool stays_in_range(std::uint64_t base, std::int64_t step, std::uint64_t count) {
  std::int64_t offset = 0;
  if (count > INT64_MAX || __builtin_mul_overflow(step, static_cast<std::int64_t>(count), &offset))
    return false;
  std::uint64_t end = 0;
  return offset >= 0 ? !__builtin_add_overflow(base, static_cast<std::uint64_t>(offset), &end)
                     : base >= std::uint64_t{0} - static_cast<std::uint64_t>(offset);
}

unsigned lane_past_end(const RecordedInstruction& in, unsigned bytes) {
  const std::uint64_t last_start = ~std::uint64_t{0} - (bytes - 1);
  // Most lines are cleared at once, before the lanes are looked at one by one.
  if (in.strided && in.mask == 0xffffffffu) {
    // Lane 0's address and the stride: where they do not pass 2^64 on the way, the lanes lie
    // between the first and the last.
    const std::uint64_t first = in.address[0];
    const std::uint64_t last = lane_address(in, kTraceLanes - 1);
    if (stays_in_range(first, static_cast<std::int64_t>(in.stride), kTraceLanes - 1) &&
        std::max(first, last) <= last_start)
      return kTraceLanes;
  } else {
    // No address exceeds the or of them all: an or-reduction (it vectorises), the inactive
    // lanes included.
    std::uint64_t any = 0;
    for (const std::uint64_t a : in.address) any |= a;
    if (any <= last_start) return kTraceLanes;
  }
  for (std::uint32_t m = in.mask; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    if (lane_address(in, lane) > last_start) return lane;
  }
  return kTraceLanes;
}

std::string past_end(const RecordedInstruction& in, unsigned lane, unsigned bytes) {
  char address[24];
  std::snprintf(address, sizeof address, "0x%016llx",
                static_cast<unsigned long long>(lane_address(in, lane)));
  return "lane " + std::to_string(lane) + " accesses " + std::to_string(bytes) + " bytes from " +
         address + ", past the last byte address 0xffffffffffffffff: no memory has them";
}

}  // namespace mmsim
