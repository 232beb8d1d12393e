// The execution mechanism of a warp: a C++20 coroutine that suspends at every memory
// instruction and barrier, and is resumed by the hardware when the warp may go on.
#pragma once

#include <coroutine>
#include <exception>
#include <utility>

namespace mmsim {

// A warp program (or a subroutine of one). `co_await`ing a Task from another Task runs it as a
// subroutine; the outermost Task is driven by the warp unit.
class [[nodiscard]] Task {
 public:
  struct promise_type {
    std::coroutine_handle<> continuation;
    std::exception_ptr error;

    Task get_return_object() { return Task{Handle::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    auto final_suspend() noexcept {
      struct ReturnToCaller {
        bool await_ready() noexcept { return false; }
        std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> self) noexcept {
          auto caller = self.promise().continuation;
          return caller ? caller : std::noop_coroutine();
        }
        void await_resume() noexcept {}
      };
      return ReturnToCaller{};
    }
    void return_void() {}
    void unhandled_exception() { error = std::current_exception(); }
  };
  using Handle = std::coroutine_handle<promise_type>;

  Task() = default;
  explicit Task(Handle handle) : handle_(handle) {}
  Task(Task&& other) noexcept : handle_(std::exchange(other.handle_, {})) {}
  Task& operator=(Task&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, {});
    }
    return *this;
  }
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  ~Task() { reset(); }

  // Subroutine call: start the callee, come back here when it returns.
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> caller) noexcept {
    handle_.promise().continuation = caller;
    return handle_;
  }
  void await_resume() const { rethrow_if_failed(); }

  bool valid() const { return static_cast<bool>(handle_); }
  bool done() const { return handle_.done(); }
  std::coroutine_handle<> handle() const { return handle_; }
  void rethrow_if_failed() const {
    if (handle_ && handle_.promise().error) std::rethrow_exception(handle_.promise().error);
  }

 private:
  void reset() {
    if (handle_) handle_.destroy();
    handle_ = {};
  }
  Handle handle_;
};

}  // namespace mmsim
