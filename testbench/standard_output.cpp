#include "testbench/standard_output.hpp"

#include <unistd.h>

#include <cerrno>
#include <iostream>
#include <system_error>

namespace mmsim {

CheckedStandardOutput::Buffer::Buffer() : data_(std::size_t{1} << 16) {
  setp(data_.data(), data_.data() + data_.size());
}

void CheckedStandardOutput::Buffer::drain() {
  const char* at = pbase();
  while (error_ == 0 && at < pptr()) {
    const ssize_t written = ::write(STDOUT_FILENO, at, static_cast<std::size_t>(pptr() - at));
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) error_ = written < 0 ? errno : ENOSPC;
    if (written > 0) at += written;
  }
  setp(data_.data(), data_.data() + data_.size());
}

CheckedStandardOutput::Buffer::int_type CheckedStandardOutput::Buffer::overflow(int_type c) {
  drain();
  if (!traits_type::eq_int_type(c, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
  }
  return traits_type::not_eof(c);
}

int CheckedStandardOutput::Buffer::sync() {
  drain();
  return 0;
}

CheckedStandardOutput::CheckedStandardOutput() : previous_(std::cout.rdbuf(&buffer_)) {}

CheckedStandardOutput::~CheckedStandardOutput() {
  std::cout.flush();
  std::cout.rdbuf(previous_);
}

int CheckedStandardOutput::finish(int status) {
  std::cout.flush();
  if (buffer_.error() == 0) return status;
  std::cerr << "mmsim: cannot write to standard output: "
            << std::generic_category().message(buffer_.error()) << "\n";
  return 2;
}

}  // namespace mmsim
