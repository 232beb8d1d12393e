// Reading a trace in two stages: a producer reads, decompresses and parses its lines into
// batches, a consumer records them (docs/gpu_traces.md, "Memory, temporary files, speed"). Where
// the process may use two processors, the producer runs on a thread of its own, a few batches
// ahead of the consumer, through a bounded queue (memory stays that of a few batches); else
// each batch is filled when the consumer asks for it, on its thread. The batches reach the
// consumer in the same order either way, and so do errors: a producer puts the error of a line
// in the batch after the lines before it, and an exception it throws reaches the consumer after
// every batch filled before.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "hw/support/thread_without_signals.hpp"

namespace mmsim {

// Whether a second thread may read ahead: the process may run on two processors or more
// (sw/support/available_cores.hpp).
bool read_ahead_allowed();

template <class Batch>
class ReadAhead {
 public:
  // `fill(batch)` fills a batch, which holds what the previous batch given to it held (fill
  // empties it first); returns false when no batch follows that one. `thread`: on a thread of
  // its own, `depth` batches ahead at most.
  ReadAhead(std::function<bool(Batch&)> fill, bool thread, std::size_t depth = 3)
      : fill_(std::move(fill)), threaded_(thread) {
    const std::size_t count = threaded_ ? depth + 2 : 1;  // + the producer's and the consumer's
    for (std::size_t i = 0; i < count; ++i) batches_.push_back(std::make_unique<Batch>());
    if (!threaded_) return;
    for (const auto& batch : batches_) empty_.push_back(batch.get());
    producer_ = thread_without_signals([this] { produce(); });
  }
  // Stops the producer (an error of the consumer's ends reading early) and waits for it.
  ~ReadAhead() {
    if (!threaded_) return;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    producer_.join();
  }
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  // The next batch, or nullptr after the last; valid until the next call. Rethrows what the
  // producer threw, after the batches filled before.
  Batch* next() {
    if (!threaded_) {
      if (ended_) return nullptr;
      ended_ = !fill_(*batches_.front());
      return batches_.front().get();
    }
    std::unique_lock<std::mutex> lock(mutex_);
    if (consumed_ != nullptr) {
      empty_.push_back(consumed_);
      consumed_ = nullptr;
      changed_.notify_all();
    }
    changed_.wait(lock, [this] { return !full_.empty() || ended_; });
    if (full_.empty()) {
      if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
      return nullptr;
    }
    consumed_ = full_.front();
    full_.pop_front();
    return consumed_;
  }

 private:
  void produce() {
    try {
      while (true) {
        Batch* batch = nullptr;
        {
          std::unique_lock<std::mutex> lock(mutex_);
          changed_.wait(lock, [this] { return !empty_.empty() || stopping_; });
          if (stopping_) return;
          batch = empty_.front();
          empty_.pop_front();
        }
        const bool more = fill_(*batch);
        {
          const std::lock_guard<std::mutex> lock(mutex_);
          full_.push_back(batch);
          ended_ = !more;
        }
        changed_.notify_all();
        if (!more) return;
      }
    } catch (...) {
      {
        const std::lock_guard<std::mutex> lock(mutex_);
        error_ = std::current_exception();
        ended_ = true;
      }
      changed_.notify_all();
    }
  }

  std::function<bool(Batch&)> fill_;
  bool threaded_;
  std::vector<std::unique_ptr<Batch>> batches_;
  // With the thread: the batches free to fill, those filled in order, the one the consumer
  // holds; all guarded by mutex_, and changed_ told of every change.
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Batch*> empty_;
  std::deque<Batch*> full_;
  Batch* consumed_ = nullptr;
  bool ended_ = false;  // no batch follows those in full_
  bool stopping_ = false;
  std::exception_ptr error_;
  std::thread producer_;
};

}  // namespace mmsim
