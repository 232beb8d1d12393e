#include "sw/gpu_traces/warp_store.hpp"

#include <algorithm>
#include <cstring>

namespace mmsim {

WarpStore::WarpStore(const std::string& trace_file)
    : data_(trace_file, "the temporary encoding of " + trace_file),
      ctas_(trace_file, "the table of CTAs of " + trace_file),
      warps_(trace_file, "the table of warps of " + trace_file) {}

void WarpStore::finish() {
  data_.flush();
  ctas_.flush();
  warps_.flush();
}

CtaEntry WarpStore::cta(std::uint64_t i) const {
  CtaEntry entry;
  ctas_.read_at(i * sizeof entry, &entry, sizeof entry);
  return entry;
}

WarpEntry WarpStore::warp(std::uint64_t i) const {
  WarpEntry entry;
  warps_.read_at(i * sizeof entry, &entry, sizeof entry);
  return entry;
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
    store_->data().read_at(next_offset_, buffer_.data() + end_, n);
    next_offset_ += n;
    left_ -= n;
    end_ += n;
  }
  begin_ += decode_record(buffer_.data() + begin_, end_ - begin_, position_, in);
  --records_;
  return true;
}

}  // namespace mmsim
