#include "hw/observers/observer_thread.hpp"

#include "hw/support/thread_without_signals.hpp"

namespace mmsim {

ObserverThread::ObserverThread(AccessObserver& observer) : observer_(observer) {
  for (std::size_t i = 0; i < kBatches; ++i) {
    auto batch = std::make_unique<Batch>();
    batch->entries.reserve(kBatchAccesses);
    batch->addresses.reserve(kBatchAddresses);
    free_.push_back(batch.get());
    batches_.push_back(std::move(batch));
  }
  filling_ = free_.back();
  free_.pop_back();
  thread_ = thread_without_signals([this] { observe(); });
}

ObserverThread::~ObserverThread() {
  if (!thread_.joinable()) return;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void ObserverThread::access(const MemoryAccess& access, std::span<const Address> addresses) {
  if (filling_->entries.size() == kBatchAccesses ||
      filling_->addresses.size() + addresses.size() > kBatchAddresses)
    hand_over();
  filling_->entries.push_back({access, static_cast<std::uint32_t>(addresses.size())});
  filling_->addresses.insert(filling_->addresses.end(), addresses.begin(), addresses.end());
}

void ObserverThread::hand_over() {
  std::unique_lock<std::mutex> lock(mutex_);
  full_.push_back(filling_);
  if (sleeping_ && full_.size() >= kWakeAt) changed_.notify_all();
  changed_.wait(lock, [this] { return !free_.empty(); });
  filling_ = free_.back();
  free_.pop_back();
}

void ObserverThread::finish() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    full_.push_back(filling_);
    filling_ = nullptr;
    finished_ = true;
  }
  changed_.notify_all();
  thread_.join();
  if (error_) std::rethrow_exception(error_);
}

void ObserverThread::observe() {
  while (true) {
    Batch* batch = nullptr;
    bool drop = false;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (full_.empty() && !finished_ && !stopping_) {
        sleeping_ = true;
        changed_.wait(lock, [this] { return full_.size() >= kWakeAt || finished_ || stopping_; });
        sleeping_ = false;
      }
      if (stopping_ || full_.empty()) return;
      batch = full_.front();
      full_.pop_front();
      drop = error_ != nullptr;
    }
    if (!drop) {
      try {
        const Address* lanes = batch->addresses.data();
        for (const Batch::Entry& entry : batch->entries) {
          observer_.access(entry.access, {lanes, entry.lanes});
          lanes += entry.lanes;
        }
      } catch (...) {
        const std::lock_guard<std::mutex> lock(mutex_);
        error_ = std::current_exception();
      }
    }
    batch->entries.clear();
    batch->addresses.clear();
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      free_.push_back(batch);
    }
    changed_.notify_all();
  }
}

}  // namespace mmsim
