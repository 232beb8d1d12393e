// Errors raised while building or running a machine.
#pragma once

#include <stdexcept>
#include <string>

namespace mmsim {

// A parameter combination the hardware cannot be built with (p not a multiple of w, l < 1, ...).
// `key` names the configuration key at fault, so that a loader can point at it.
class ConfigError : public std::runtime_error {
 public:
  ConfigError(std::string key, const std::string& message)
      : std::runtime_error(message), key_(std::move(key)) {}
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

// Something a warp program did that the hardware rejects (an address outside memory, ...).
class SimulationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace mmsim
