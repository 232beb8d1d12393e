// Large arrays (memories, the race detector's state, permutations, plans) on transparent huge
// pages where the kernel offers them: first touching n words of 4 KiB pages costs a page fault
// per 512 words, on a large run more than the simulation itself; with 2 MiB pages, one per
// 2^18 words. Results do not depend on it: where the kernel has no huge pages (or
// /sys/kernel/mm/transparent_hugepage/enabled says never) the arrays take ordinary pages.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include <sys/mman.h>

namespace mmsim {

inline constexpr std::size_t kHugePage = std::size_t{2} << 20;

// a rounded up to a multiple of the huge page: the first boundary at or above an address, the
// whole huge pages that hold a size.
constexpr std::uintptr_t round_up_to_huge_page(std::uintptr_t a) {
  return (a + kHugePage - 1) & ~(kHugePage - 1);
}

// Asks for transparent huge pages on the 2 MiB-aligned part of [p, p + bytes), before it is
// first touched.
inline void advise_huge_pages([[maybe_unused]] void* p, [[maybe_unused]] std::size_t bytes) {
#ifdef MADV_HUGEPAGE
  const auto begin = round_up_to_huge_page(reinterpret_cast<std::uintptr_t>(p));
  const auto end = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(kHugePage - 1);
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

// A fixed array of n zero elements of a type for which all-zero bytes are the value-initialised
// value. Arrays of 2 MiB and more are fresh anonymous memory, aligned to 2 MiB and advised to
// take huge pages: the kernel's pages come zeroed, so there is no clearing pass, and only the
// pages touched become resident.
template <class T>
class HugePageArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  HugePageArray() = default;
  explicit HugePageArray(std::size_t n) : size_(n) {
    const std::size_t bytes = std::max<std::size_t>(n * sizeof(T), 1);
    if (bytes < kHugePage) {
      data_ = static_cast<T*>(std::calloc(bytes, 1));
      if (!data_) throw std::bad_alloc();
      return;
    }
    // Map a huge page more than asked, then unmap the ends outside the aligned middle.
    mapped_ = round_up_to_huge_page(bytes);
    void* p = mmap(nullptr, mapped_ + kHugePage, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    const auto start = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t aligned = round_up_to_huge_page(start);
    if (aligned > start) munmap(p, aligned - start);
    if (const std::uintptr_t end = start + mapped_ + kHugePage; end > aligned + mapped_)
      munmap(reinterpret_cast<void*>(aligned + mapped_), end - (aligned + mapped_));
    data_ = reinterpret_cast<T*>(aligned);
    advise_huge_pages(data_, mapped_);
  }
  ~HugePageArray() { release(); }
  HugePageArray(HugePageArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        mapped_(std::exchange(other.mapped_, 0)) {}
  HugePageArray& operator=(HugePageArray&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      mapped_ = std::exchange(other.mapped_, 0);
    }
    return *this;
  }
  HugePageArray(const HugePageArray&) = delete;
  HugePageArray& operator=(const HugePageArray&) = delete;

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  std::size_t size() const noexcept { return size_; }

 private:
  void release() noexcept {
    if (mapped_ > 0)
      munmap(data_, mapped_);
    else
      std::free(data_);
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t mapped_ = 0;  // bytes mapped (arrays of 2 MiB and more), else 0: from calloc
};

}  // namespace mmsim
