#include "sw/gpu_traces/nvbit_lines.hpp"

#include <cstring>

#include "hw/support/vector_isa.hpp"
#include "sw/gpu_traces/lane_addresses.hpp"
#include "sw/gpu_traces/line_fields.hpp"
#include "sw/gpu_traces/opcode_map.hpp"
#include "sw/gpu_traces/recorded_trace.hpp"

namespace mmsim {
namespace {

constexpr std::string_view kPrefix = "MEMTRACE: ";
// A batch: at most this many lines taken, or read (the program's output skipped counts), so
// that a batch is filled in about a millisecond and a reader told to stop stops soon.
constexpr std::size_t kBatchLines = 512;
constexpr std::size_t kBatchReadLines = 16384;
// The bytes of a lane's access are at most 16 (access_bytes: 128 bits).
constexpr unsigned kWidestAccess = 16;

}  // namespace

NvbitLines::NvbitLines(const std::filesystem::path& file, std::uint64_t skipped_limit)
    : lines_(file, "mem_trace file", kMaxTraceLineBytes, skipped_limit) {}

bool NvbitLines::fill(NvbitBatch& batch) {
  batch.size = 0;
  batch.text.clear();
  batch.skipped = 0;
  batch.error = nullptr;
  bool more = true;
  try {
    std::string_view line, opcode;
    for (std::size_t read = 0; batch.size < kBatchLines && read < kBatchReadLines; ++read) {
      if (!lines_.next(line)) {
        more = false;
        break;
      }
      if (batch.size == batch.lines.size()) batch.lines.emplace_back();
      NvbitLine& out = batch.lines[batch.size];
      if (printed(line, out, opcode)) {
        lines_.took();
        access(line, opcode, batch);
        continue;
      }
      if (!line.starts_with(kPrefix)) {
        ++batch.skipped;
        continue;
      }
      // "MEMTRACE: CTX 0x... - LAUNCH - ..." or "MEMTRACE: CTX 0x... - grid_launch_id ...";
      // other MEMTRACE lines (TOOL_VERBOSE's) are skipped.
      const std::size_t dash = line.find(" - ");
      const std::string_view after =
          dash == std::string_view::npos ? std::string_view{} : line.substr(dash + 3);
      if (after.starts_with("grid_launch_id ")) {
        lines_.took();
        scanned(line, out, opcode);
        access(line, opcode, batch);
      } else if (after.starts_with("LAUNCH")) {
        lines_.took();
        out.launch = true;
        out.number = lines_.number();
        out.text = static_cast<std::uint32_t>(batch.text.size());
        out.text_bytes = static_cast<std::uint32_t>(line.size());
        batch.text.append(line);
        ++batch.size;
      } else {
        ++batch.skipped;
      }
    }
  } catch (...) {
    batch.error = std::current_exception();
    more = false;
  }
  batch.lines_read = lines_.number();
  batch.decompress_seconds = lines_.decompress_seconds();
  return more;
}

void NvbitLines::access(std::string_view line, std::string_view opcode, NvbitBatch& batch) {
  NvbitLine& out = batch.lines[batch.size];
  RecordedInstruction& in = parsed_;
  in.strided = false;
  if (in.mask == 0xffffffffu) {  // one stride, as most warp accesses: known from here on
    in.stride = in.address[1] - in.address[0];
    in.strided = with_vector_isa([&a = in.address, stride = in.stride] {
      std::uint64_t off = 0;  // an or-reduction, which vectorises
      for (unsigned lane = 2; lane < kTraceLanes; ++lane) off |= (a[lane] - a[lane - 1]) ^ stride;
      return off == 0;
    });
  }
  // Whether an access passes the last byte address: only where one of the widest would (16
  // bytes) are the opcode's bytes worked out (the second stage knows them from its site).
  if (lane_past_end(in, kWidestAccess) < kTraceLanes) {
    const unsigned bytes = access_bytes(opcode);
    if (const unsigned lane = lane_past_end(in, bytes); lane < kTraceLanes) {
      // The fields before the addresses: MEMTRACE: CTX 0x... - grid_launch_id G - CTA x,y,z -
      // warp W - OPCODE -, as both ways of reading the line require.
      constexpr unsigned kFieldsBefore = 15;
      LineFields f(line, lines_.place());
      for (unsigned field = 0; field <= kFieldsBefore + lane; ++field) f.next();
      f.fail(past_end(in, lane, bytes));
    }
  }
  out.launch = false;
  out.number = lines_.number();
  out.in.line = out.number;
  out.in.mask = in.mask;
  out.in.strided = in.strided;
  out.in.stride = in.stride;
  if (in.strided)
    out.in.address[0] = in.address[0];
  else
    out.in.address = in.address;
  out.text = static_cast<std::uint32_t>(batch.text.size());
  out.text_bytes = static_cast<std::uint32_t>(opcode.size());
  batch.text.append(opcode);
  ++batch.size;
}

bool NvbitLines::printed(std::string_view line, NvbitLine& out, std::string_view& opcode) {
  std::size_t at = 0;
  // Compared in place: the lengths are constants.
  const auto literal = [&]<std::size_t N>(const char(&text)[N]) {
    if (line.size() - at < N - 1 || std::memcmp(line.data() + at, text, N - 1) != 0) return false;
    at += N - 1;
    return true;
  };
  // A decimal of 1 to `digits` digits.
  const auto decimal = [&](unsigned digits, std::uint64_t& value) {
    value = 0;
    const std::size_t first = at;
    for (; at < line.size() && line[at] >= '0' && line[at] <= '9'; ++at)
      value = value * 10 + static_cast<unsigned>(line[at] - '0');
    return at > first && at - first <= digits;
  };
  if (!head_.empty() && line.starts_with(head_)) {
    at = head_.size();
  } else {
    head_.clear();
    std::uint32_t high = 0, low = 0;
    if (!literal("MEMTRACE: CTX 0x") || line.size() - at < 16 ||
        !LineFields::eight_hex_digits(line.data() + at, high) ||
        !LineFields::eight_hex_digits(line.data() + at + 8, low))
      return false;
    at += 16;
    ctx_ = std::uint64_t{high} << 32 | low;
    if (!literal(" - grid_launch_id ") || !decimal(19, launch_) || !literal(" - CTA "))
      return false;
    head_ = line.substr(0, at);
  }
  out.ctx = ctx_;
  out.grid_launch = launch_;
  std::uint64_t cta[3] = {0, 0, 0};
  std::uint64_t warp = 0;
  if (!decimal(10, cta[0]) || !literal(",") || !decimal(5, cta[1]) || !literal(",") ||
      !decimal(5, cta[2]) || !literal(" - warp ") || !decimal(10, warp) || !literal(" - "))
    return false;
  // The checks of the field-by-field parse, which reports what fails.
  if (cta[0] > 0x7fffffff || cta[1] > 0xffff || cta[2] > 0xffff || warp > 0xffffffffu) return false;
  for (unsigned i = 0; i < 3; ++i) out.cta[i] = static_cast<std::uint32_t>(cta[i]);
  out.warp = static_cast<std::uint32_t>(warp);
  const std::size_t first = at;
  while (at < line.size() && line[at] != ' ' && line[at] != '\t') ++at;
  opcode = line.substr(first, at - first);
  if (opcode.empty() || opcode == "-") return false;
  return literal(" - ") && parse_lane_addresses(line.substr(at), parsed_.address, parsed_.mask);
}

void NvbitLines::scanned(std::string_view line, NvbitLine& out, std::string_view& opcode) {
  LineFields f(line, lines_.place());
  f.next();  // MEMTRACE:
  f.next();  // CTX
  out.ctx = f.hex("the context");
  const auto expect = [&f](std::string_view word) {
    if (const std::string_view got = f.next(); got != word)
      f.fail("expected '" + std::string(word) + "', got " + LineFields::shown(got) +
             " (mem_trace's line: MEMTRACE: CTX 0x... - grid_launch_id G - CTA x,y,z - warp W - "
             "OPCODE - 32 addresses)");
  };
  expect("-");
  expect("grid_launch_id");
  out.grid_launch = f.decimal("the grid launch id");
  expect("-");
  expect("CTA");
  std::array<std::uint32_t, 3>& id = out.cta;
  if (!parse_triple(f.next(), id)) f.fail("expected the CTA's 'x,y,z'");
  if (id[1] > 0xffff || id[2] > 0xffff || id[0] > 0x7fffffff)
    f.fail("the CTA lies beyond CUDA's grid (x < 2^31, y and z < 65536)");
  expect("-");
  expect("warp");
  const std::uint64_t warp = f.decimal("the warp");
  if (warp > 0xffffffffu) f.fail("the warp number is out of range");
  out.warp = static_cast<std::uint32_t>(warp);
  expect("-");
  opcode = f.next();
  if (opcode.empty() || opcode == "-") f.fail("expected the opcode");
  expect("-");
  RecordedInstruction& in = parsed_;
  unsigned lanes = 0;
  in.mask = 0;
  for (std::uint64_t a = 0; f.address(a, "a lane's address"); ++lanes) {
    if (lanes >= kTraceLanes) continue;
    in.address[lanes] = a;
    in.mask |= std::uint32_t{a != 0} << lanes;
  }
  if (lanes != kTraceLanes)
    throw InputError(lines_.where(), "expected 32 lane addresses, got " + std::to_string(lanes) +
                                         ": a trace for another warp width (mem_trace and mmsim "
                                         "read warps of 32 threads)");
}

}  // namespace mmsim
