// A small reader for the VCD files mmsim writes: enough to check a waveform against a run
// (timestamps in order, the values of named signals over time).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mmsim {

class VcdFile {
 public:
  struct Change {
    std::uint64_t time;
    std::uint64_t value;  // scalars: 0/1; vectors: their binary value (x/z read as 0)
    bool defined = true;  // no bit is x or z (an idle value is all z)
  };

  // Throws std::runtime_error for anything it cannot read.
  static VcdFile read(const std::filesystem::path& file);

  const std::string& timescale() const { return timescale_; }
  // Every "#time" in file order.
  const std::vector<std::uint64_t>& timestamps() const { return timestamps_; }
  bool timestamps_strictly_increase() const;
  // Signals by hierarchical name below the top scope, e.g. "machine.dispatcher.dispatch_unit".
  std::vector<std::string> signals() const;
  bool has(const std::string& name) const { return ids_.count(name) != 0; }
  unsigned width(const std::string& name) const;
  const std::vector<Change>& changes(const std::string& name) const;
  // The value at time t: the last change at or before t.
  std::optional<std::uint64_t> value_at(const std::string& name, std::uint64_t t) const;
  // Whether the value at time t has every bit 0 or 1 (false while idle: z).
  std::optional<bool> defined_at(const std::string& name, std::uint64_t t) const;

 private:
  std::string timescale_;
  std::vector<std::uint64_t> timestamps_;
  std::map<std::string, std::string> ids_;              // name -> identifier code
  std::map<std::string, unsigned> widths_;              // identifier code -> width
  std::map<std::string, std::vector<Change>> changes_;  // identifier code -> changes
};

}  // namespace mmsim
