// An access observer (the race detector) run on a thread of its own, beside the simulation:
// the accesses the memories report are copied into batches and handed over through a bounded
// queue, so that the simulation only copies them. The observer sees the same accesses in the
// same order as when called directly, so that it finds the same results; they are read after
// finish(). Memory stays that of a few batches (bytes(): kBatches of 544 KiB). The thread sleeps
// until several batches wait (kWakeAt): waking a thread costs microseconds (in a virtual
// machine more), a batch a few hundred.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "hw/mmu/mmu.hpp"

namespace mmsim {

class ObserverThread final : public AccessObserver {
 public:
  // Starts the thread; `observer` must outlive this.
  explicit ObserverThread(AccessObserver& observer);
  // Stops the thread where finish() was not called (a run that ended in an error): the
  // accesses not yet seen are dropped.
  ~ObserverThread() override;
  ObserverThread(const ObserverThread&) = delete;
  ObserverThread& operator=(const ObserverThread&) = delete;

  void access(const MemoryAccess& access, std::span<const Address> addresses) override;
  // Returns once the observer has seen every access, and the thread has ended; rethrows what
  // the observer threw.
  void finish();
  // The batches' memory.
  static constexpr std::size_t bytes();

  static constexpr std::size_t kBatches = 8;
  static constexpr std::size_t kWakeAt = 4;
  static constexpr std::size_t kBatchAddresses = std::size_t{1} << 15;
  static constexpr std::size_t kBatchAccesses = std::size_t{1} << 12;

 private:
  struct Batch {
    struct Entry {
      MemoryAccess access;
      std::uint32_t lanes;  // its addresses, next in `addresses`
    };
    std::vector<Entry> entries;
    std::vector<Address> addresses;
  };

  // Queues the batch being filled, and takes a free one to fill (waits for one).
  void hand_over();
  // The thread: sees the batches in order until the last.
  void observe();

  AccessObserver& observer_;
  std::vector<std::unique_ptr<Batch>> batches_;
  Batch* filling_ = nullptr;  // the simulation's
  // Guarded by mutex_; changed_ is told of every change.
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Batch*> free_;
  std::deque<Batch*> full_;
  bool sleeping_ = false;     // the thread waits for kWakeAt batches
  bool finished_ = false;     // no batch follows those in full_
  bool stopping_ = false;     // drop what is left
  std::exception_ptr error_;  // the observer's, after which batches are dropped
  std::thread thread_;
};

constexpr std::size_t ObserverThread::bytes() {
  return kBatches * (kBatchAccesses * sizeof(Batch::Entry) + kBatchAddresses * sizeof(Address));
}

}  // namespace mmsim
