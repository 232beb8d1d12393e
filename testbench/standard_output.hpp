// Standard output as every command writes it (the report, the tables, the lists): through a
// buffer whose every write is checked, so that a failed one (a full disk, a device that refuses)
// makes the command fail with exit status 2 instead of being lost.
#pragma once

#include <streambuf>
#include <vector>

namespace mmsim {

class CheckedStandardOutput {
 public:
  // Puts its buffer under std::cout (for the life of this object).
  CheckedStandardOutput();
  ~CheckedStandardOutput();
  CheckedStandardOutput(const CheckedStandardOutput&) = delete;
  CheckedStandardOutput& operator=(const CheckedStandardOutput&) = delete;

  // Flushes std::cout; returns `status` when every write succeeded, else says why on standard
  // error and returns 2.
  int finish(int status);

 private:
  class Buffer final : public std::streambuf {
   public:
    Buffer();
    int error() const { return error_; }

   protected:
    int_type overflow(int_type c) override;
    int sync() override;

   private:
    // Writes what is buffered; after a failure, drops it (the first error is kept).
    void drain();
    std::vector<char> data_;
    int error_ = 0;
  };
  Buffer buffer_;
  std::streambuf* previous_;
};

}  // namespace mmsim
