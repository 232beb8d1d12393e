// The compact encoding of one warp's recorded instructions, as mmsim keeps them on disk between
// reading a trace and running it: a few bytes per instruction (a coalesced access takes about
// ten), decoded again as the warp runs.
//
// A record: varint (site * 2 + has addresses), varint (instructions of the warp skipped since the
// previous record), varint (line of the trace file minus the previous record's line); then, for
// a memory instruction, a flags byte (bit 0: all 32 lanes active, bit 1: the addresses form one
// stride), the mask (4 bytes, little-endian) unless all lanes are active, the first active lane's
// byte address (varint), and either the stride or each further active lane's difference from the
// active lane before it (zigzag varints).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <string>

#include "sw/gpu_traces/trace_format.hpp"

namespace mmsim {

struct RecordedInstruction {
  std::uint32_t site = 0;  // RecordedTrace::sites
  bool has_addresses = false;
  std::uint64_t index = 0;  // its place among the warp's recorded instructions, from 0
  std::uint64_t line = 0;   // in the trace file
  std::uint32_t mask = 0;   // active lanes
  std::array<std::uint64_t, kTraceLanes> address{};  // byte address of each active lane
  // The k-th active lane's address is the first's + k * stride (modulo 2^64): known when the
  // record says so (Accel-Sim's base and stride, or decode_record), else false. The readers'
  // first stage keeps lane 0's address alone when every lane is active (lane_address gives
  // the others): the batches it hands to the second stage stay small.
  bool strided = false;
  std::uint64_t stride = 0;
};

// The byte address of an active lane of `in`.
inline std::uint64_t lane_address(const RecordedInstruction& in, unsigned lane) {
  return in.strided && in.mask == 0xffffffffu ? in.address[0] + lane * in.stride
                                              : in.address[lane];
}

// Where a warp's encoding stands: the index and line of its previous record.
struct RecordPosition {
  std::uint64_t index = std::numeric_limits<std::uint64_t>::max();  // none yet
  std::uint64_t line = 0;
};

// Appends the record of `in` to `out`, relative to `at` (which moves to `in`); or writes it at
// `out` (kMaxRecordBytes at most) and returns the end of what it wrote.
void encode_record(const RecordedInstruction& in, RecordPosition& at, std::string& out);
unsigned char* encode_record(const RecordedInstruction& in, RecordPosition& at, unsigned char* out);

// Decodes the record at `data` (at most `size` bytes) into `in`, relative to `at`; returns the
// bytes it took. Records come from encode_record only: a record cut short throws.
std::size_t decode_record(const unsigned char* data, std::size_t size, RecordPosition& at,
                          RecordedInstruction& in);

// A record moved from one warp's encoding to another's without decoding its lane addresses:
// decode_record_head reads the head of the record at `data` (site, has_addresses, index and
// line, relative to `at`, which moves to it) and returns the bytes it took; the rest of the
// record (up to its end, which the caller knows) holds its addresses, which
// encode_record_with writes at `out` after `in`'s head (relative to `at`, which moves; at most
// 30 bytes) and returns the end of what it wrote.
std::size_t decode_record_head(const unsigned char* data, std::size_t size, RecordPosition& at,
                               RecordedInstruction& in);
unsigned char* encode_record_with(const RecordedInstruction& in, RecordPosition& at,
                                  const unsigned char* addresses,
                                  const unsigned char* addresses_end, unsigned char* out);

// Unsigned LEB128, the integers of the encoding: 7 bits a byte, low bits first. get_varint
// reads one that put_varint wrote (unchecked: mmsim's own bytes), moving `at` past it.
unsigned char* put_varint(std::uint64_t value, unsigned char* out);
inline std::uint64_t get_varint(const unsigned char*& at) {
  std::uint64_t value = 0;
  for (unsigned shift = 0;; shift += 7) {
    const unsigned char byte = *at++;
    value |= std::uint64_t{byte & 0x7fu} << shift;
    if ((byte & 0x80) == 0) return value;
  }
}

// The longest record encode_record writes.
inline constexpr std::size_t kMaxRecordBytes = 3 * 10 + 1 + 4 + kTraceLanes * 10;

}  // namespace mmsim
