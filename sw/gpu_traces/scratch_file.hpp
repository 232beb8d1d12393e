// A temporary file without a name: created with O_TMPFILE in $TMPDIR (or /tmp), or, where the
// file system cannot, created and unlinked at once. The kernel frees it when its descriptor
// closes, so nothing is left behind however mmsim ends: normally, on an error, on a signal, or
// killed. Appends are buffered; reads go straight to the file (after flush()).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mmsim {

class ScratchFile {
 public:
  // `owner` names what the file holds in messages ("the temporary encoding of trace.txt").
  // Throws InputError (located at `owner_file`) when no temporary file can be made.
  ScratchFile(std::string owner_file, std::string owner);
  ~ScratchFile();
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  void append(const void* data, std::size_t size);
  // Bytes appended so far.
  std::uint64_t size() const { return size_; }
  // Writes out what is buffered; reads see everything appended before.
  void flush();
  // Reads `size` bytes at `offset` (all of them exist: throws otherwise).
  void read_at(std::uint64_t offset, void* out, std::size_t size) const;
  // Reads up to `size` bytes at `offset`; returns how many.
  std::size_t read_some_at(std::uint64_t offset, void* out, std::size_t size) const;
  // Forgets the contents (the space returns to the file system).
  void clear();

 private:
  [[noreturn]] void fail(const std::string& doing, int error) const;

  std::string owner_file_;
  std::string owner_;
  std::string folder_;
  int fd_ = -1;
  std::vector<char> buffer_;
  std::uint64_t size_ = 0;
  std::uint64_t written_ = 0;
};

}  // namespace mmsim
