#include "sw/gpu_traces/block_cache.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace mmsim {
namespace {

constexpr std::uint64_t kNone = ~std::uint64_t{0};

}  // namespace

BlockCache::BlockCache(const ScratchFile& file, std::size_t block_bytes, unsigned slots)
    : file_(file),
      shift_(static_cast<unsigned>(std::countr_zero(block_bytes))),
      held_(slots, kNone),
      data_(block_bytes * slots) {}

void BlockCache::read(std::uint64_t offset, void* out, std::size_t size) {
  if (offset > file_.size() || size > file_.size() - offset) {
    file_.read_at(offset, out, size);  // throws: the bytes do not exist
    return;
  }
  auto* to = static_cast<unsigned char*>(out);
  const std::size_t block_bytes = std::size_t{1} << shift_;
  while (size > 0) {
    const std::uint64_t block = offset >> shift_;
    const auto slot = static_cast<std::size_t>(block % held_.size());
    unsigned char* data = data_.data() + slot * block_bytes;
    if (held_[slot] != block) {
      held_[slot] = kNone;  // until it is read whole: a read that throws leaves no stale block
      const std::uint64_t begin = block << shift_;
      file_.read_at(
          begin, data,
          static_cast<std::size_t>(std::min<std::uint64_t>(block_bytes, file_.size() - begin)));
      held_[slot] = block;
    }
    const auto within = static_cast<std::size_t>(offset & (block_bytes - 1));
    const std::size_t n = std::min(size, block_bytes - within);
    std::memcpy(to, data + within, n);
    to += n;
    offset += n;
    size -= n;
  }
}

}  // namespace mmsim
