#include "sw/gpu_traces/scratch_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "sw/program/input_error.hpp"

namespace mmsim {
namespace {

constexpr std::size_t kBuffer = std::size_t{1} << 20;

std::string temporary_folder() {
  const char* tmpdir = std::getenv("TMPDIR");
  return tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
}

}  // namespace

ScratchFile::ScratchFile(std::string owner_file, std::string owner)
    : owner_file_(std::move(owner_file)), owner_(std::move(owner)), folder_(temporary_folder()) {
  buffer_.reserve(kBuffer);
  fd_ = ::open(folder_.c_str(), O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
  if (fd_ >= 0) return;
  // File systems without O_TMPFILE: a name for a moment only.
  std::string name = folder_ + "/mmsim-trace-XXXXXX";
  fd_ = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd_ < 0) fail("create", errno);
  ::unlink(name.c_str());
}

ScratchFile::~ScratchFile() {
  if (fd_ >= 0) ::close(fd_);
}

void ScratchFile::fail(const std::string& doing, int error) const {
  throw InputError({owner_file_, 0, 0}, "cannot " + doing + " " + owner_ +
                                            " (a temporary file in " + folder_ +
                                            ", the folder TMPDIR names): " + std::strerror(error));
}

void ScratchFile::append(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const char*>(data);
  if (buffer_.size() + size > kBuffer) flush();
  if (size > kBuffer) {
    buffer_.assign(bytes, bytes + size);
    flush();
  } else {
    buffer_.insert(buffer_.end(), bytes, bytes + size);
  }
  size_ += size;
}

void ScratchFile::flush() {
  std::size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t n = ::pwrite(fd_, buffer_.data() + done, buffer_.size() - done,
                               static_cast<off_t>(written_ + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("write", n < 0 ? errno : ENOSPC);
    done += static_cast<std::size_t>(n);
  }
  written_ += done;
  buffer_.clear();
}

std::size_t ScratchFile::read_some_at(std::uint64_t offset, void* out, std::size_t size) const {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd_, static_cast<char*>(out) + done, size - done,
                              static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("read", errno);
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  return done;
}

void ScratchFile::read_at(std::uint64_t offset, void* out, std::size_t size) const {
  if (read_some_at(offset, out, size) != size) fail("read", EIO);
}

void ScratchFile::clear() {
  buffer_.clear();
  if (::ftruncate(fd_, 0) != 0) fail("empty", errno);
  size_ = 0;
  written_ = 0;
}

}  // namespace mmsim
