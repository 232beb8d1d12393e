#include "sw/planning/errors.hpp"

#include <utility>

namespace mmsim::planning {

namespace {
std::string located(const std::string& message, const std::string& file, std::size_t line) {
  if (file.empty()) return message;
  if (line == 0) return file + ": " + message;
  return file + ":" + std::to_string(line) + ": " + message;
}
}  // namespace

PlanningError::PlanningError(const std::string& message, std::string file, std::size_t line)
    : std::runtime_error(located(message, file, line)),
      message_(message),
      file_(std::move(file)),
      line_(line) {}

}  // namespace mmsim::planning
