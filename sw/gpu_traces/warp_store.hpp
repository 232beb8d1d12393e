// A recorded trace regrouped per (CTA, warp), on disk: the records of each warp one after the
// other (warp_records.hpp), a table of CTAs (in recorded order, kernel after kernel) and a table
// of their warps, all in nameless temporary files (scratch_file.hpp). Reading a trace writes
// them once; running it reads each warp's records back through a small buffer, so that memory
// holds only the warps the machine runs at the moment.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sw/gpu_traces/block_cache.hpp"
#include "sw/gpu_traces/scratch_file.hpp"
#include "sw/gpu_traces/warp_records.hpp"

namespace mmsim {

struct CtaEntry {
  std::uint64_t first_warp = 0;  // its warp 0 in the table of warps
  std::uint32_t warps = 0;       // warps recorded (its others did nothing recorded)
  std::uint32_t id[3] = {0, 0, 0};
  std::uint32_t max_barriers = 0;  // the most barriers one of its warps passes
  std::uint32_t padding = 0;
};

struct WarpEntry {
  std::uint64_t offset = 0;        // of its first record
  std::uint64_t bytes = 0;         // of its records
  std::uint64_t instructions = 0;  // recorded, run or not
  std::uint32_t records = 0;       // kept (run), of the instructions
  std::uint32_t barriers = 0;
  std::uint32_t warp = 0;  // as recorded: Accel-Sim's warp in the CTA, mem_trace's slot
  std::uint32_t padding = 0;
};

class WarpStore {
 public:
  // `trace_file` names the trace in messages about the temporary files.
  explicit WarpStore(const std::string& trace_file);

  // ---- writing: the records of a warp, then its entry; a CTA's warps, then its entry.
  std::uint64_t data_bytes() const { return data_.size(); }
  void append_records(std::string_view bytes) { data_.append(bytes.data(), bytes.size()); }
  void add_warp(const WarpEntry& entry) { warps_.append(&entry, sizeof entry); }
  void add_cta(const CtaEntry& entry) { ctas_.append(&entry, sizeof entry); }
  std::uint64_t ctas() const { return ctas_.size() / sizeof(CtaEntry); }
  std::uint64_t warps() const { return warps_.size() / sizeof(WarpEntry); }
  // After the last write, before the first read.
  void finish();

  // ---- reading, by the simulation's one thread: through a few cached blocks of each file
  // (block_cache.hpp), so that the many small reads of small CTAs cost no system call each.
  CtaEntry cta(std::uint64_t i) const;
  WarpEntry warp(std::uint64_t i) const;
  // `size` bytes of records at `offset`.
  void read_records(std::uint64_t offset, void* out, std::size_t size) const;
  // Host memory of the cached blocks.
  static std::size_t cache_bytes();

 private:
  ScratchFile data_;
  ScratchFile ctas_;
  ScratchFile warps_;
  struct Caches {
    BlockCache data, ctas, warps;
  };
  mutable std::optional<Caches> caches_;  // from finish() on
};

// Reads one warp's records after another, through a buffer of its own.
class WarpCursor {
 public:
  explicit WarpCursor(std::size_t buffer_bytes);
  // Starts on the warp of `entry`.
  void open(const WarpStore& store, const WarpEntry& entry);
  // The next record; false after the warp's last.
  bool next(RecordedInstruction& in);
  std::size_t buffer_bytes() const { return buffer_.size(); }

 private:
  const WarpStore* store_ = nullptr;
  std::vector<unsigned char> buffer_;
  std::size_t begin_ = 0;  // unread bytes: buffer_[begin_, end_)
  std::size_t end_ = 0;
  std::uint64_t next_offset_ = 0;  // in the file, after what is buffered
  std::uint64_t left_ = 0;         // bytes of the warp not yet buffered
  std::uint32_t records_ = 0;      // records not yet decoded
  RecordPosition position_;
};

}  // namespace mmsim
