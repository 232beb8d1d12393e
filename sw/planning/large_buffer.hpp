// Arrays of n elements for the planners, allocated so that first touching them is cheap: on a
// 2^24-element plan the page faults of 4 KiB pages cost more than the colouring itself.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <vector>

#include <sys/mman.h>

namespace mmsim::planning {

// Asks for transparent huge pages on the 2 MiB-aligned part of [p, p + bytes), before it is
// first touched: far fewer page faults than with 4 KiB pages.
inline void advise_huge_pages([[maybe_unused]] void* p, [[maybe_unused]] std::size_t bytes) {
#ifdef MADV_HUGEPAGE
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  const auto begin = (reinterpret_cast<std::uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(kHuge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#endif
}

// Sizes a vector to n value-initialised elements in memory that asked for huge pages first.
template <class T>
void resize_on_huge_pages(std::vector<T>& v, std::size_t n) {
  v.reserve(n);
  advise_huge_pages(v.data(), n * sizeof(T));
  v.resize(n);
}

// An uninitialised array for large temporaries: no zeroing pass, huge pages where the kernel
// allows, and only the pages written become resident.
template <class T>
class LargeBuffer {
 public:
  explicit LargeBuffer(std::size_t n) : size_(n) {
    const std::size_t bytes = std::max<std::size_t>(n * sizeof(T), 1);
    constexpr std::size_t kHuge = std::size_t{2} << 20;
    void* p = nullptr;
    if (bytes >= kHuge) {
      const std::size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;
      if (posix_memalign(&p, kHuge, rounded) != 0) throw std::bad_alloc();
      advise_huge_pages(p, rounded);
    } else {
      p = std::malloc(bytes);
      if (!p) throw std::bad_alloc();
    }
    data_ = static_cast<T*>(p);
  }
  ~LargeBuffer() { std::free(data_); }
  LargeBuffer(const LargeBuffer&) = delete;
  LargeBuffer& operator=(const LargeBuffer&) = delete;
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  std::size_t size() const noexcept { return size_; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace mmsim::planning
