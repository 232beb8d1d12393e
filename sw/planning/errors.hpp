// Error types of the offline planners (namespace mmsim::planning).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace mmsim::planning {

/// Base of every error the planners throw. When the problem was found while reading a file,
/// file() and line() say where (line() is 1-based; 0 means "no particular line"), and what()
/// reads "FILE:LINE: MESSAGE"; otherwise what() is just MESSAGE.
class PlanningError : public std::runtime_error {
 public:
  explicit PlanningError(const std::string& message, std::string file = {}, std::size_t line = 0);

  const std::string& message() const noexcept { return message_; }
  const std::string& file() const noexcept { return file_; }
  std::size_t line() const noexcept { return line_; }

 private:
  std::string message_;
  std::string file_;
  std::size_t line_;
};

/// Something that should be a permutation is not one (or a generator got bad parameters).
class PermutationError : public PlanningError {
 public:
  using PlanningError::PlanningError;
};

/// An input graph that cannot be coloured as asked (not regular, vertex out of range, ...).
class ColoringError : public PlanningError {
 public:
  using PlanningError::PlanningError;
};

/// A plan cannot be made for these parameters (n not a multiple of w, n not w^(2^m), ...).
class PlanError : public PlanningError {
 public:
  using PlanningError::PlanningError;
};

/// A schedule file is malformed or does not match the permutation it is checked against.
class ScheduleError : public PlanningError {
 public:
  using PlanningError::PlanningError;
};

}  // namespace mmsim::planning
