// `gpu_trace`: runs a memory trace recorded from a CUDA program (NVBit's mem_trace or Accel-Sim's
// tracer) on any machine: its memory instructions as the warps' reads and writes of global and
// shared memory, its barriers as syncthreads, its CTAs placed on the machine's warps as a GPU
// places them (docs/gpu_traces.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sw/gpu_traces/address_relocation.hpp"
#include "sw/gpu_traces/cta_scheduler.hpp"
#include "sw/gpu_traces/recorded_trace.hpp"
#include "sw/program/program_info.hpp"

namespace mmsim {

ProgramInfo gpu_trace_program();

// Where the instruction a warp issues now comes from: its site (a static instruction of the
// trace) and its place in the recording, for reports and profiles by site.
struct TraceOrigin {
  std::uint32_t site = 0;  // GpuTraceProgram::sites()
  std::uint32_t kernel = 0;
  std::uint64_t cta = 0;          // in the kernel's recorded order
  std::uint32_t warp = 0;         // of the CTA
  std::uint64_t instruction = 0;  // of the recorded warp, from 0
  std::uint64_t line = 0;         // of the trace file
};

// What gpu_trace does with shared-memory instructions on a flat machine.
enum class FlatShared { drop, global };

class GpuTraceProgram final : public WarpProgram {
 public:
  struct Options {
    TraceFormat format = TraceFormat::nvbit;
    std::string kernel = "all";
    unsigned word_shift = 2;  // log2(word_bytes)
    FlatShared shared = FlatShared::drop;
    CtaPlacement placement = CtaPlacement::round_robin;
  };
  GpuTraceProgram(const std::filesystem::path& file, const Options& options);

  // ---- sites: every instruction a warp issues knows where it comes from
  const std::vector<TraceSite>& sites() const { return trace_.sites; }
  // The site each of them gives its warp instructions (hw/pe/site.hpp): the trace file, the
  // source line where recorded (Accel-Sim with lineinfo), "kernel 1 PC 0x1a0 LDS.U.32".
  const std::vector<Site>& instruction_sites() const { return instruction_sites_; }
  // The instruction warp `warp` issues (or issued last).
  const TraceOrigin& issuing(WarpId warp) const { return origins_[warp]; }
  // "kernel 1 (name), CTA (3,0,0), warp 1, instruction 17 (trace.txt:812)"
  std::string where(const TraceOrigin& origin) const;

  // ---- WarpProgram
  std::uint64_t default_threads(const MachineConfig& machine) const override;
  void configure(const MachineConfig& machine) override;
  std::uint64_t memory_words() const override { return memory_words_; }
  std::uint64_t shared_words() const override { return shared_words_; }
  // A trace records addresses, not data.
  bool keeps_values() const override { return false; }
  std::uint64_t host_bytes() const override;
  // The trace file, and the trace files its kernels list names.
  std::vector<std::filesystem::path> input_files() const override;
  Task run(Warp& warp) override;
  std::vector<ProgramFigure> figures() const override;
  std::vector<ProgramTable> tables() const override;
  // Per opcode, and per PC where the format records one: instructions, requests, stages, the
  // worst and mean congestion, and the warps' waits (docs/gpu_traces.md).
  std::vector<ProgramTable> profile_tables(const ProfileTable& profile) const override;

 private:
  // A selected kernel, as it runs on this machine.
  struct KernelRun {
    std::uint32_t kernel = 0;  // in trace_.kernels
    std::uint32_t warps_per_cta = 0;
    CtaSchedule schedule;
    AddressRelocation shared;  // its CTAs' shared memory window
    // Per block: the round whose barrier count `round_barriers` holds.
    mutable std::vector<std::pair<std::uint64_t, std::uint32_t>> round_barriers;
  };

  // The most barriers a warp of block `block`'s round `round` passes.
  std::uint32_t barriers_of_round(const KernelRun& k, unsigned block, std::uint64_t round) const;

  Options options_;
  RecordedTrace trace_;
  std::string file_name_;                 // the sites' file
  std::vector<std::string> site_labels_;  // per TraceSite
  std::vector<Site> instruction_sites_;   // per TraceSite
  std::vector<KernelRun> runs_;
  AddressRelocation global_;
  std::vector<TraceOrigin> origins_;
  bool hierarchical_ = false;
  unsigned width_ = 32;
  std::uint64_t memory_words_ = 1;
  std::uint64_t shared_words_ = 0;
  std::uint64_t flat_shared_base_ = 0;  // shared: global, on a flat machine
  std::size_t cursor_bytes_ = 0;
};

}  // namespace mmsim
