// Files read in place, mapped into memory (a plain trace: sw/gpu_traces/compressed_input.hpp). A
// file cut short while it is mapped makes its pages past the new end fault with SIGBUS. That is
// bad input (the file changed while mmsim read it), not a crash: the process's handler of that
// signal (testbench/outputs/remove_on_signal.hpp) asks here whether the address that faulted lies
// in a mapped file, and which, to say so, remove the partial outputs and exit with status 2.
#pragma once

#include <cstddef>

namespace mmsim {

// The mapping [begin, begin + bytes) of `file` (which must outlive it), registered for its
// lifetime. The first one made calls the installer given to on_first_mapped_file. Windows past
// the table's 16 slots go unregistered (a fault in one stays a crash).
class MappedFileWindow {
 public:
  MappedFileWindow(const void* begin, std::size_t bytes, const char* file);
  ~MappedFileWindow();
  MappedFileWindow(const MappedFileWindow&) = delete;
  MappedFileWindow& operator=(const MappedFileWindow&) = delete;

 private:
  int slot_ = -1;
};

// The file of the registered window that holds `address`, or nullptr. Async-signal-safe.
const char* mapped_file_at(const void* address);

// `install` is called once, when the first window is registered: the signal handler is set up
// by whoever handles signals, and only in a process that maps files.
void on_first_mapped_file(void (*install)());

}  // namespace mmsim
