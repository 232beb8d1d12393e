#include "testbench/waveforms/waveform_pipe.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

#include "testbench/waveforms/vcd_compactor.hpp"

namespace mmsim {
namespace {

std::string reason(int error) { return std::generic_category().message(error); }

std::string private_folder(const SourceLocation& where) {
  std::error_code error;
  const std::filesystem::path temp = std::filesystem::temp_directory_path(error);
  std::string name = ((error ? std::filesystem::path("/tmp") : temp) / "mmsim-vcd-XXXXXX").string();
  if (::mkdtemp(name.data()) == nullptr)
    throw InputError(where, "cannot make a private folder for the waveform's pipe (" + name +
                                "): " + reason(errno));
  return name;
}

}  // namespace

WaveformPipe::WaveformPipe(PendingFile& file, const SourceLocation& where, TimeWindow window,
                           WaveformFormat format, WaveformLimit limit)
    : file_(file),
      where_(where),
      folder_(private_folder(where)),
      base_(folder_ + "/waveform"),
      fifo_(base_ + ".vcd"),
      remove_folder_(folder_, Removal::private_folder),
      remove_fifo_(fifo_),
      limit_(std::move(limit)) {
  const auto give_up = [&](const std::string& what) {
    const int error = errno;
    if (read_end_ >= 0) ::close(read_end_);
    ::unlink(fifo_.c_str());
    ::rmdir(folder_.c_str());
    throw InputError(where, "cannot " + what + " for the waveform: " + reason(error));
  };
  if (::mkfifo(fifo_.c_str(), 0600) != 0) give_up("make a pipe");
  // Opening the read end without waiting, then a write end of our own: the copier sees the end
  // of the waveform only once SystemC has closed its file and finish() has closed ours.
  read_end_ = ::open(fifo_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (read_end_ < 0) give_up("open a pipe");
  held_write_end_ = ::open(fifo_.c_str(), O_WRONLY | O_CLOEXEC);
  if (held_write_end_ < 0) give_up("open a pipe");
  ::fcntl(read_end_, F_SETFL, ::fcntl(read_end_, F_GETFL) & ~O_NONBLOCK);
  ::fcntl(read_end_, F_SETPIPE_SZ, 1 << 20);  // fewer wake-ups where allowed
  if (!window.whole()) window_.emplace(window);
  if (format != WaveformFormat::vcd) {
    try {
      converter_ = std::make_unique<WaveformConverter>(format, folder_, where);
    } catch (...) {
      ::close(read_end_);
      ::close(held_write_end_);
      ::unlink(fifo_.c_str());
      ::rmdir(folder_.c_str());
      throw;
    }
  }
  copier_ = std::thread([this] { copy(); });
}

WaveformPipe::~WaveformPipe() {
  stop();
  converter_.reset();  // its files first: the folder goes once it is empty
  ::close(read_end_);
  ::unlink(fifo_.c_str());
  ::rmdir(folder_.c_str());
}

void WaveformPipe::copy() {
  // A converter that stops reading must fail a write, not end mmsim by SIGPIPE.
  sigset_t pipe_signal;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
  std::vector<char> buffer(std::size_t{1} << 20);
  VcdCompactor compactor;
  std::string compacted;
  std::string kept;
  while (true) {
    const ssize_t got = ::read(read_end_, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      failure_ = std::make_exception_ptr(
          InputError(where_, "cannot read the waveform from SystemC: " + reason(errno)));
      return;
    }
    // After a failed write, the rest is read and dropped so that SystemC never blocks.
    if (failure_ && got > 0) continue;
    compacted.clear();
    if (got > 0)
      compactor.feed({buffer.data(), static_cast<std::size_t>(got)}, compacted);
    else
      compactor.finish(compacted);
    try {
      if (!window_) {
        if (!compacted.empty()) send(compacted);
      } else {
        kept.clear();
        window_->feed(compacted, kept);
        if (got == 0) window_->finish(kept);
        if (!kept.empty()) send(kept);
      }
    } catch (const InputError&) {
      failure_ = std::current_exception();
    }
    if (got == 0) return;
  }
}

void WaveformPipe::send(std::string_view vcd) {
  if (vcd.size() > limit_.bytes - sent_) {
    over_limit_.store(true, std::memory_order_release);
    throw InputError(where_, limit_.refusal);
  }
  sent_ += vcd.size();
  if (converter_)
    converter_->write(vcd);
  else
    file_.write(vcd);
}

void WaveformPipe::stop() {
  if (held_write_end_ >= 0) {
    ::close(held_write_end_);
    held_write_end_ = -1;
  }
  if (copier_.joinable()) copier_.join();
}

void WaveformPipe::check() const {
  if (over_limit_.load(std::memory_order_acquire)) throw InputError(where_, limit_.refusal);
}

void WaveformPipe::finish() {
  stop();
  if (failure_) std::rethrow_exception(failure_);
  if (converter_) converter_->finish(file_);
}

}  // namespace mmsim
