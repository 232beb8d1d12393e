#include "sw/support/mapped_files.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>

namespace mmsim {
namespace {

// Read by a signal handler: lock-free atomics only. A slot's file is set last when it is taken
// and cleared first when it is freed, so that a handler never sees a file with another range.
struct Slot {
  std::atomic<std::uintptr_t> begin{0};
  std::atomic<std::uintptr_t> end{0};
  std::atomic<const char*> file{nullptr};
  std::atomic<bool> taken{false};
};
constexpr std::size_t kSlots = 16;
std::array<Slot, kSlots> slots{};
static_assert(std::atomic<std::uintptr_t>::is_always_lock_free);
static_assert(std::atomic<const char*>::is_always_lock_free);

std::atomic<void (*)()> installer{nullptr};

}  // namespace

MappedFileWindow::MappedFileWindow(const void* begin, std::size_t bytes, const char* file) {
  static std::once_flag installed;
  std::call_once(installed, [] {
    if (void (*install)() = installer.load()) install();
  });
  for (std::size_t i = 0; i < kSlots; ++i) {
    bool free = false;
    if (!slots[i].taken.compare_exchange_strong(free, true)) continue;
    const auto from = reinterpret_cast<std::uintptr_t>(begin);
    slots[i].begin.store(from);
    slots[i].end.store(from + bytes);
    slots[i].file.store(file);
    slot_ = static_cast<int>(i);
    return;
  }
}

MappedFileWindow::~MappedFileWindow() {
  if (slot_ < 0) return;
  Slot& slot = slots[static_cast<std::size_t>(slot_)];
  slot.file.store(nullptr);
  slot.taken.store(false);
}

const char* mapped_file_at(const void* address) {
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  for (const Slot& slot : slots) {
    const char* file = slot.file.load();
    if (file != nullptr && at >= slot.begin.load() && at < slot.end.load()) return file;
  }
  return nullptr;
}

void on_first_mapped_file(void (*install)()) { installer.store(install); }

}  // namespace mmsim
