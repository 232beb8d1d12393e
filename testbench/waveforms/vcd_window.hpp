// Cuts a VCD, as SystemC streams it, down to a window of cycles [from, to]. The machine traces
// only inside the window (hw/dispatch/dispatcher.hpp), but SystemC dumps every value at time 0
// and writes what changes whenever time moves on; this filter keeps the header, turns the
// values at `from` into the initial dump (at #from), passes the changes up to `to`, and ends
// with #to+1 so that cycle `to` shows whole. It works line by line on chunks of any size.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "testbench/outputs/asked_output.hpp"

namespace mmsim {

class VcdWindow {
 public:
  explicit VcdWindow(TimeWindow window) : from_(window.from), to_(window.to) {}

  // Appends to `out` what the window keeps of `chunk` (a line may span chunks).
  void feed(std::string_view chunk, std::string& out);
  // At the end of the stream: the rest (the dump at `from` when the run ended before it).
  void finish(std::string& out);

 private:
  enum class Part { header, before, inside, after };

  void line(std::string_view text, std::string& out);
  void open_window(std::string& out);

  std::uint64_t from_;
  std::uint64_t to_;
  Part part_ = Part::header;
  bool in_comment_ = false;
  std::string partial_;  // a line not yet ended
  // Before the window: every signal's latest value line, by identifier, in first-seen order.
  std::unordered_map<std::string, std::size_t> index_;
  std::vector<std::string> values_;
};

}  // namespace mmsim
