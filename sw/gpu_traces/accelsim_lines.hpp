// The first stage of reading an Accel-Sim .traceg past its header (accelsim_reader.hpp): its
// lines read, decompressed and parsed each on its own into the batches that the second stage
// records (read_ahead.hpp: on a thread of its own where the process may use two processors).
// A line is a thread block's or warp's ("#BEGIN_TB", "#END_TB", "thread block = ...",
// "cluster ...", "warp = ...", "insts = ..."), whose meaning the second stage works out, or else
// an instruction, parsed here field by field (its PC, mask, registers, opcode, width and
// addresses), a malformed field located at its column.
#pragma once

#include <array>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sw/gpu_traces/compressed_input.hpp"
#include "sw/gpu_traces/warp_records.hpp"

namespace mmsim {

struct AccelsimLine {
  bool instruction = false;  // else a thread block's or warp's line
  std::uint64_t number = 0;  // in the file
  // The line without its blanks at either end, in the batch's text.
  std::uint32_t text = 0;
  std::uint32_t text_bytes = 0;
  // An instruction: its PC, source line, opcode (in the batch's text), bytes per lane, whether
  // it carries lane addresses, and its active lanes, addresses and stride in `in`; or why it
  // could not be parsed (the batch's last line then).
  std::uint64_t pc = 0;
  std::optional<std::uint64_t> source_line;
  std::uint32_t opcode = 0;
  std::uint32_t opcode_bytes = 0;
  unsigned bytes = 4;
  bool has_addresses = false;
  RecordedInstruction in;
  std::exception_ptr error;
};

struct AccelsimBatch {
  std::vector<AccelsimLine> lines;  // the first `size` (the others are kept for their room)
  std::size_t size = 0;
  std::string text;
  std::uint64_t lines_read = 0;  // of the file so far
  // The error of the input after the batch's lines, else null.
  std::exception_ptr error;

  std::string_view text_of(const AccelsimLine& line) const {
    return {text.data() + line.text, line.text_bytes};
  }
  std::string_view opcode_of(const AccelsimLine& line) const {
    return {text.data() + line.opcode, line.opcode_bytes};
  }
};

// The header's choices that decide how an instruction line reads.
struct AccelsimForm {
  unsigned version = 0;   // -accelsim tracer version
  bool lineinfo = false;  // -enable lineinfo
};

// The first stage of reading a .traceg (read_ahead.hpp), on cache lines of its own (TraceLines).
class alignas(64) AccelsimLines {
 public:
  // The lines of `lines` (which outlives it), its header read; `pending`: the line after the
  // header, already read.
  AccelsimLines(TraceLines& lines, AccelsimForm form, std::optional<std::string> pending);

  // Fills `batch` with the next lines; false when no batch follows (the file's end, or an error:
  // batch.error or its last line's).
  bool fill(AccelsimBatch& batch);

 private:
  // Parses the instruction `line` (`text` without its blanks at either end) into `out`, as the
  // tracer prints it, with the fields' one blank between them; false, `out` unspecified, for any
  // other form, or a line that is wrong, which `instruction` then reads.
  bool printed_instruction(std::string_view line, std::string_view text, AccelsimLine& out);
  // Parses the instruction `line` into `out` field by field, whatever the blanks between them;
  // throws at its first malformed field.
  void instruction(std::string_view line, std::string_view text, AccelsimLine& out);

  TraceLines& lines_;
  AccelsimForm form_;
  std::optional<std::string> pending_;
  std::array<std::size_t, kTraceLanes> lane_columns_{};  // of the line read last, format 0
};

// `s` without its blanks and tabs at either end.
std::string_view without_blanks(std::string_view s);

}  // namespace mmsim
