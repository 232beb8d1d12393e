// The first stage of reading NVBit's mem_trace output (nvbit_reader.hpp): the file read,
// decompressed and split into lines, and each line parsed on its own into the batches that the
// second stage records (read_ahead.hpp: on a thread of its own where the process may use two
// processors). An access line as mem_trace prints it is parsed without scanning it field by
// field, its 32 addresses at once (lane_addresses.hpp); one in any other form is scanned, which
// locates a malformed field. This stage knows no kernel, CTA or warp: what lines mean together
// is the second stage's.
#pragma once

#include <array>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "sw/gpu_traces/compressed_input.hpp"
#include "sw/gpu_traces/warp_records.hpp"

namespace mmsim {

// A line the second stage takes: an access ("MEMTRACE: CTX 0x... - grid_launch_id G - CTA x,y,z
// - warp W - OPCODE - " and 32 addresses) or a LAUNCH line.
struct NvbitLine {
  bool launch = false;
  std::uint64_t number = 0;  // in the file
  // An access's fields; its active lanes, stride (where one), line and addresses in `in`: every
  // lane's, or where they form one stride (in.strided), the first lane's only, the others
  // unset (the second stage, which counts the words touched and encodes the record, needs no
  // more; and a batch is written and read in a fraction of the bytes).
  std::uint64_t ctx = 0;
  std::uint64_t grid_launch = 0;
  std::array<std::uint32_t, 3> cta{};
  std::uint32_t warp = 0;
  RecordedInstruction in;
  // The access's opcode, or the LAUNCH line, in the batch's text.
  std::uint32_t text = 0;
  std::uint32_t text_bytes = 0;
};

struct NvbitBatch {
  std::vector<NvbitLine> lines;  // the first `size` (the others are kept for their room)
  std::size_t size = 0;
  std::string text;
  std::uint64_t skipped = 0;  // lines that are not mem_trace's (the program's output)
  // Of the whole file so far.
  std::uint64_t lines_read = 0;
  double decompress_seconds = 0;
  // The error of the line after the batch's lines (or of the input there), else null.
  std::exception_ptr error;

  std::string_view text_of(const NvbitLine& line) const {
    return {text.data() + line.text, line.text_bytes};
  }
};

// Parses the lines of `file` into batches; on cache lines of its own (TraceLines).
class alignas(64) NvbitLines {
 public:
  NvbitLines(const std::filesystem::path& file, std::uint64_t skipped_limit);

  // Fills `batch` with the next lines; false when no batch follows (the file's end, or an error:
  // batch.error).
  bool fill(NvbitBatch& batch);
  Compression compression() const { return lines_.compression(); }
  // Whether the file can be read ahead (a regular file: a pipe's read may wait for ever, and a
  // reader that must stop could not).
  bool regular() const { return lines_.regular(); }

 private:
  // Parses `line` into `out` as mem_trace prints it; false when it is in another form.
  bool printed(std::string_view line, NvbitLine& out, std::string_view& opcode);
  // Any form mem_trace's fields may take (blanks, digits): throws at the first malformed one.
  void scanned(std::string_view line, NvbitLine& out, std::string_view& opcode);
  // The rest of an access line's parse: its stride, an access past the last address refused at
  // its lane, its opcode copied into the batch.
  void access(std::string_view line, std::string_view opcode, NvbitBatch& batch);

  TraceLines lines_;
  // The head of the access line parsed last ("MEMTRACE: CTX 0x... - grid_launch_id G - CTA "),
  // which the lines of a kernel share, with its context and launch.
  std::string head_;
  std::uint64_t ctx_ = 0;
  std::uint64_t launch_ = 0;
  // The line parsed last's active lanes and addresses, before they go into the batch.
  RecordedInstruction parsed_;
};

}  // namespace mmsim
