// The process's heap on transparent huge pages, set up before any library's static
// initialisation: a function in the executable's .preinit_array runs ahead of every shared
// object's constructors. Why: SystemC's start-up clears a 3 MiB scratch buffer and a run builds
// one module per warp; on 4 KiB pages that is some 1300 page faults per process, 10-20 ms on a
// virtual machine where a fault costs 15 us, as long as a small run's whole simulation. With the
// heap on 2 MiB pages it is a handful. Results do not depend on it (docs/benchmarks.md).
#include <algorithm>
#include <cstdint>
#include <cstdlib>  // first: the C library's headers define __GLIBC__

#include "hw/support/huge_pages.hpp"

#if defined(__GLIBC__) && defined(__linux__)

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

namespace {

void put_heap_on_huge_pages(int, char**, char**) {
  // Blocks up to 32 MiB (glibc's largest threshold) come from the heap rather than each from
  // its own mapping of 4 KiB pages; larger arrays map their own huge pages (HugePageArray).
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  // The heap takes 64 MiB of address space at once, all advised below. It keeps up to 64 MiB
  // free for reuse: a heap trimmed below its advised part would regrow on 4 KiB pages, and a
  // heap that shrinks and regrows faults the same memory in again (a Python program's did so
  // 297 times). With 8 MiB the mem_trace reader peaked 14 MiB lower, but it and the Python
  // programs lost their gain (0.64 -> 0.75 s, 0.196 -> 0.357 s).
  mallopt(M_TOP_PAD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  const auto program_break = reinterpret_cast<std::uintptr_t>(sbrk(0));
  void* volatile first = std::malloc(1);
  const auto begin = reinterpret_cast<std::uintptr_t>(first);
  const auto end = reinterpret_cast<std::uintptr_t>(sbrk(0));
  if (begin < program_break || begin >= end) {  // malloc is not glibc's on the program break
    std::free(first);                           // (a sanitizer's or valgrind's): leave it be
    return;
  }
  // Huge pages rather than the heap's first pages made resident on 4 KiB pages in one call: a
  // program that only links SystemC started in 11.8 ms so, 16-17 ms the other way, 21.5 ms
  // with neither (a 4 KiB page costs about 5 us in that guest even without a fault).
  mmsim::advise_huge_pages(first, end - begin);
#ifdef MADV_POPULATE_WRITE
  // The part before the first 2 MiB boundary cannot be a huge page: one call makes it resident
  // instead of a fault per 4 KiB page.
  const std::uintptr_t page = begin & ~(static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE)) - 1);
  const std::uintptr_t boundary = mmsim::round_up_to_huge_page(begin);
  madvise(reinterpret_cast<void*>(page), std::min(boundary, end) - page, MADV_POPULATE_WRITE);
#endif
  std::free(first);
}

[[gnu::section(".preinit_array"), gnu::used]] void (*run_before_libraries)(int, char**, char**) =
    put_heap_on_huge_pages;

}  // namespace

#endif
