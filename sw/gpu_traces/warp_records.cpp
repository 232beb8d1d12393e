#include "sw/gpu_traces/warp_records.hpp"

#include <bit>
#include <stdexcept>

namespace mmsim {
namespace {

constexpr unsigned char kAllLanes = 1;
constexpr unsigned char kStrided = 2;
constexpr std::uint32_t kFullMask = 0xffffffffu;

void put_varint(std::uint64_t value, std::string& out) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

// Differences of byte addresses, modulo 2^64, as signed numbers folded onto unsigned ones.
std::uint64_t zigzag(std::uint64_t difference) {
  const auto signed_value = static_cast<std::int64_t>(difference);
  return (difference << 1) ^ static_cast<std::uint64_t>(signed_value >> 63);
}
std::uint64_t unzigzag(std::uint64_t value) { return (value >> 1) ^ (~(value & 1) + 1); }

class Reader {
 public:
  Reader(const unsigned char* data, std::size_t size) : at_(data), end_(data + size) {}
  std::uint64_t varint() {
    std::uint64_t value = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
      if (at_ == end_) short_record();
      const unsigned char byte = *at_++;
      value |= std::uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80) == 0) return value;
    }
    short_record();
  }
  unsigned char byte() {
    if (at_ == end_) short_record();
    return *at_++;
  }
  const unsigned char* at() const { return at_; }

 private:
  [[noreturn]] static void short_record() {
    throw std::runtime_error("a record of mmsim's temporary trace encoding is cut short");
  }
  const unsigned char* at_;
  const unsigned char* end_;
};

}  // namespace

void encode_record(const RecordedInstruction& in, RecordPosition& at, std::string& out) {
  put_varint(std::uint64_t{in.site} * 2 + (in.has_addresses ? 1 : 0), out);
  put_varint(in.index - at.index - 1, out);
  put_varint(in.line - at.line, out);
  at.index = in.index;
  at.line = in.line;
  if (!in.has_addresses) return;
  std::uint32_t mask = in.mask;
  unsigned char flags = mask == kFullMask ? kAllLanes : 0;
  // The active lanes' addresses in lane order: one stride, or differences.
  std::uint64_t previous = 0;
  std::uint64_t stride = 0;
  bool strided = true;
  unsigned count = 0;
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const std::uint64_t a = in.address[static_cast<unsigned>(std::countr_zero(m))];
    if (count == 1) stride = a - previous;
    if (count > 1 && a - previous != stride) strided = false;
    previous = a;
    ++count;
  }
  if (strided) flags |= kStrided;
  out.push_back(static_cast<char>(flags));
  if ((flags & kAllLanes) == 0)
    for (unsigned byte = 0; byte < 4; ++byte) out.push_back(static_cast<char>(mask >> (8 * byte)));
  if (mask == 0) return;
  count = 0;
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const std::uint64_t a = in.address[static_cast<unsigned>(std::countr_zero(m))];
    if (count == 0)
      put_varint(a, out);
    else if (!strided)
      put_varint(zigzag(a - previous), out);
    previous = a;
    ++count;
  }
  if (strided) put_varint(zigzag(stride), out);
}

std::size_t decode_record(const unsigned char* data, std::size_t size, RecordPosition& at,
                          RecordedInstruction& in) {
  Reader r(data, size);
  const std::uint64_t site = r.varint();
  in.site = static_cast<std::uint32_t>(site >> 1);
  in.has_addresses = (site & 1) != 0;
  in.index = at.index + 1 + r.varint();
  in.line = at.line + r.varint();
  at.index = in.index;
  at.line = in.line;
  if (in.has_addresses) {
    const unsigned char flags = r.byte();
    std::uint32_t mask = kFullMask;
    if ((flags & kAllLanes) == 0) {
      mask = 0;
      for (unsigned byte = 0; byte < 4; ++byte) mask |= std::uint32_t{r.byte()} << (8 * byte);
    }
    in.mask = mask;
    if (mask != 0) {
      std::uint64_t a = r.varint();
      if ((flags & kStrided) != 0) {
        const std::uint64_t stride = unzigzag(r.varint());
        for (std::uint32_t m = mask; m != 0; m &= m - 1) {
          in.address[static_cast<unsigned>(std::countr_zero(m))] = a;
          a += stride;
        }
      } else {
        bool first = true;
        for (std::uint32_t m = mask; m != 0; m &= m - 1) {
          if (!first) a += unzigzag(r.varint());
          first = false;
          in.address[static_cast<unsigned>(std::countr_zero(m))] = a;
        }
      }
    }
  }
  return static_cast<std::size_t>(r.at() - data);
}

}  // namespace mmsim
