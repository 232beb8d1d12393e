#include "sw/gpu_traces/warp_records.hpp"

#include <array>
#include <bit>
#include <cstring>
#include <stdexcept>

namespace mmsim {
namespace {

constexpr unsigned char kAllLanes = 1;
constexpr unsigned char kStrided = 2;
constexpr std::uint32_t kFullMask = 0xffffffffu;

// Differences of byte addresses, modulo 2^64, as signed numbers folded onto unsigned ones.
std::uint64_t zigzag(std::uint64_t difference) {
  const auto signed_value = static_cast<std::int64_t>(difference);
  return (difference << 1) ^ static_cast<std::uint64_t>(signed_value >> 63);
}
std::uint64_t unzigzag(std::uint64_t value) { return (value >> 1) ^ (~(value & 1) + 1); }

// Reads a record; `kChecked`: the record may end before kMaxRecordBytes, each byte is checked
// against the end (else, with at least kMaxRecordBytes left, no record can run past it).
template <bool kChecked>
class Reader {
 public:
  Reader(const unsigned char* data, std::size_t size) : at_(data), end_(data + size) {}
  std::uint64_t varint() {
    std::uint64_t value = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
      if (kChecked && at_ == end_) short_record();
      const unsigned char byte = *at_++;
      value |= std::uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80) == 0) return value;
    }
    short_record();
  }
  unsigned char byte() {
    if (kChecked && at_ == end_) short_record();
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

unsigned char* put_head(const RecordedInstruction& in, RecordPosition& at, unsigned char* p) {
  p = put_varint(std::uint64_t{in.site} * 2 + (in.has_addresses ? 1 : 0), p);
  p = put_varint(in.index - at.index - 1, p);
  p = put_varint(in.line - at.line, p);
  at.index = in.index;
  at.line = in.line;
  return p;
}

template <class Reader>
void read_head(Reader& r, RecordPosition& at, RecordedInstruction& in) {
  const std::uint64_t site = r.varint();
  in.site = static_cast<std::uint32_t>(site >> 1);
  in.has_addresses = (site & 1) != 0;
  in.index = at.index + 1 + r.varint();
  in.line = at.line + r.varint();
  at.index = in.index;
  at.line = in.line;
}

}  // namespace

unsigned char* put_varint(std::uint64_t value, unsigned char* out) {
  while (value >= 0x80) {
    *out++ = static_cast<unsigned char>((value & 0x7f) | 0x80);
    value >>= 7;
  }
  *out++ = static_cast<unsigned char>(value);
  return out;
}

std::size_t decode_record_head(const unsigned char* data, std::size_t size, RecordPosition& at,
                               RecordedInstruction& in) {
  Reader<true> r(data, size);
  read_head(r, at, in);
  return static_cast<std::size_t>(r.at() - data);
}

unsigned char* encode_record_with(const RecordedInstruction& in, RecordPosition& at,
                                  const unsigned char* addresses,
                                  const unsigned char* addresses_end, unsigned char* out) {
  out = put_head(in, at, out);
  const auto size = static_cast<std::size_t>(addresses_end - addresses);
  std::memcpy(out, addresses, size);
  return out + size;
}

void encode_record(const RecordedInstruction& in, RecordPosition& at, std::string& out) {
  unsigned char buffer[kMaxRecordBytes];
  const unsigned char* end = encode_record(in, at, buffer);
  out.append(reinterpret_cast<const char*>(buffer), static_cast<std::size_t>(end - buffer));
}

unsigned char* encode_record(const RecordedInstruction& in, RecordPosition& at, unsigned char* p) {
  p = put_head(in, at, p);
  if (in.has_addresses && in.strided && in.mask == kFullMask) {  // most accesses: at once
    *p++ = kAllLanes | kStrided;
    p = put_varint(in.address[0], p);
    p = put_varint(zigzag(in.stride), p);
  } else if (in.has_addresses) {
    // The active lanes' addresses in lane order: one stride, or differences.
    std::array<std::uint64_t, kTraceLanes> a;
    unsigned n = 0;
    if (in.mask == kFullMask) {
      a = in.address;
      n = kTraceLanes;
    } else {
      for (std::uint32_t m = in.mask; m != 0; m &= m - 1)
        a[n++] = in.address[static_cast<unsigned>(std::countr_zero(m))];
    }
    const std::uint64_t stride = in.strided ? in.stride : n > 1 ? a[1] - a[0] : 0;
    bool strided = true;
    if (!in.strided)
      for (unsigned i = 2; i < n; ++i) strided &= a[i] - a[i - 1] == stride;
    *p++ = static_cast<unsigned char>((in.mask == kFullMask ? kAllLanes : 0) |
                                      (strided ? kStrided : 0));
    if (in.mask != kFullMask)
      for (unsigned byte = 0; byte < 4; ++byte)
        *p++ = static_cast<unsigned char>(in.mask >> (8 * byte));
    if (n > 0) {
      p = put_varint(a[0], p);
      if (strided) {
        p = put_varint(zigzag(stride), p);
      } else {
        for (unsigned i = 1; i < n; ++i) p = put_varint(zigzag(a[i] - a[i - 1]), p);
      }
    }
  }
  return p;
}

namespace {

template <bool kChecked>
std::size_t decode(const unsigned char* data, std::size_t size, RecordPosition& at,
                   RecordedInstruction& in) {
  Reader<kChecked> r(data, size);
  read_head(r, at, in);
  if (in.has_addresses) {
    const unsigned char flags = r.byte();
    std::uint32_t mask = kFullMask;
    if ((flags & kAllLanes) == 0) {
      mask = 0;
      for (unsigned byte = 0; byte < 4; ++byte) mask |= std::uint32_t{r.byte()} << (8 * byte);
    }
    in.mask = mask;
    in.strided = false;
    if (mask != 0) {
      std::uint64_t a = r.varint();
      if ((flags & kStrided) != 0) {
        const std::uint64_t stride = unzigzag(r.varint());
        in.strided = true;
        in.stride = stride;
        if (mask == kFullMask) {  // one addition a lane, which vectorises
          for (std::uint64_t& lane : in.address) {
            lane = a;
            a += stride;
          }
          return static_cast<std::size_t>(r.at() - data);
        }
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

}  // namespace

std::size_t decode_record(const unsigned char* data, std::size_t size, RecordPosition& at,
                          RecordedInstruction& in) {
  return size >= kMaxRecordBytes ? decode<false>(data, size, at, in)
                                 : decode<true>(data, size, at, in);
}

}  // namespace mmsim
