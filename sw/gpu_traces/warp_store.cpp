#include "sw/gpu_traces/warp_store.hpp"

#include <algorithm>
#include <cstring>

namespace mmsim {
namespace {

// Blocks of 64 KiB, eight for the records and four for each table: about 1600 CTA or warp entries
// a block. Reads of records longer than kDirectRead go to the file (a long warp's records fill
// its cursor's buffer at once).
constexpr std::size_t kBlockBytes = std::size_t{1} << 16;
constexpr unsigned kDataBlocks = 8, kTableBlocks = 4;
constexpr std::size_t kDirectRead = std::size_t{8} << 10;

}  // namespace

WarpStore::WarpStore(const std::string& trace_file)
    : data_(trace_file, "the temporary encoding of " + trace_file),
      ctas_(trace_file, "the table of CTAs of " + trace_file),
      warps_(trace_file, "the table of warps of " + trace_file) {}

void WarpStore::finish() {
  data_.flush();
  ctas_.flush();
  warps_.flush();
  caches_.emplace(Caches{BlockCache(data_, kBlockBytes, kDataBlocks),
                         BlockCache(ctas_, kBlockBytes, kTableBlocks),
                         BlockCache(warps_, kBlockBytes, kTableBlocks)});
}

std::size_t WarpStore::cache_bytes() { return kBlockBytes * (kDataBlocks + 2 * kTableBlocks); }

CtaEntry WarpStore::cta(std::uint64_t i) const {
  CtaEntry entry;
  caches_->ctas.read(i * sizeof entry, &entry, sizeof entry);
  return entry;
}

WarpEntry WarpStore::warp(std::uint64_t i) const {
  WarpEntry entry;
  caches_->warps.read(i * sizeof entry, &entry, sizeof entry);
  return entry;
}

void WarpStore::read_records(std::uint64_t offset, void* out, std::size_t size) const {
  if (size > kDirectRead)
    data_.read_at(offset, out, size);
  else
    caches_->data.read(offset, out, size);
}

WarpCursor::WarpCursor(std::size_t buffer_bytes)
    : buffer_(std::max(buffer_bytes, 2 * kMaxRecordBytes)) {}

void WarpCursor::open(const WarpStore& store, const WarpEntry& entry) {
  store_ = &store;
  begin_ = end_ = 0;
  next_offset_ = entry.offset;
  left_ = entry.bytes;
  records_ = entry.records;
  position_ = RecordPosition{};
}

bool WarpCursor::next(RecordedInstruction& in) {
  if (records_ == 0) return false;
  if (end_ - begin_ < kMaxRecordBytes && left_ > 0) {  // refill behind what is left
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
    const std::size_t n =
        static_cast<std::size_t>(std::min<std::uint64_t>(left_, buffer_.size() - end_));
    store_->read_records(next_offset_, buffer_.data() + end_, n);
    next_offset_ += n;
    left_ -= n;
    end_ += n;
  }
  begin_ += decode_record(buffer_.data() + begin_, end_ - begin_, position_, in);
  --records_;
  return true;
}

}  // namespace mmsim
