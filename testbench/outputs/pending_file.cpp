#include "testbench/outputs/pending_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <random>
#include <system_error>

namespace mmsim {
namespace {

namespace fs = std::filesystem;

// Symbolic links followed before a chain counts as a loop (Linux's own limit).
constexpr int kMaxLinks = 40;

std::string reason(int error) { return std::generic_category().message(error); }

fs::path folder_of(const fs::path& path) {
  return path.has_parent_path() ? path.parent_path() : fs::path(".");
}

// "<name>.partial-<6 random characters>", short enough for any file name.
fs::path temporary_name(const fs::path& final) {
  static thread_local std::mt19937_64 generator{std::random_device{}() ^
                                                static_cast<std::uint64_t>(::getpid())};
  static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string name = final.filename().string().substr(0, 200) + ".partial-";
  for (int i = 0; i < 6; ++i) name += kChars[generator() % (sizeof kChars - 1)];
  return folder_of(final) / name;
}

bool is_character_device(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISCHR(info.st_mode);
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code error;
  if (fs::equivalent(a, b, error) && !error) return true;
  error.clear();
  const fs::path ca = fs::weakly_canonical(fs::absolute(a, error), error);
  if (error) return false;
  const fs::path cb = fs::weakly_canonical(fs::absolute(b, error), error);
  return !error && ca == cb;
}

}  // namespace

PendingFile::PendingFile(const fs::path& target, SourceLocation where, OutputKind kind)
    : target_(target), where_(std::move(where)) {
  struct stat info {};
  if (::stat(target.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) fail("it is a folder");
    if (S_ISBLK(info.st_mode)) fail("it is a block device (refused)");
    if (S_ISSOCK(info.st_mode)) fail("it is a socket (refused)");
    if (!kind.devices && !S_ISREG(info.st_mode)) fail("it is not a regular file");
    // Written in place, through links too (/dev/stdout to a pipe or a terminal).
    if (S_ISCHR(info.st_mode) || S_ISFIFO(info.st_mode)) {
      descriptor_ = ::open(target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
      if (descriptor_ < 0) fail(reason(errno));
      return;
    }
  }
  final_ = file_to_replace(info);
  // A signal between making the temporary file and registering it would leave it behind.
  const RemovalSignalsHeld held;
  for (int attempt = 0; descriptor_ < 0; ++attempt) {
    temporary_ = temporary_name(final_);
    descriptor_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY,
                         kind.executable ? 0777 : 0666);
    if (descriptor_ < 0 && (errno != EEXIST || attempt == 100)) {
      temporary_.clear();
      fail(reason(errno));
    }
  }
  remove_on_signal_ = std::make_unique<RemoveOnSignal>(temporary_.string());
  // An existing file keeps its permissions (a script gets the umask's).
  if (!kind.executable && S_ISREG(info.st_mode) && (info.st_mode & 0777) != 0666)
    ::fchmod(descriptor_, info.st_mode & 07777);
}

fs::path PendingFile::file_to_replace(struct stat& info) const {
  fs::path path = target_;
  for (int links = 0;; ++links) {
    if (::lstat(path.c_str(), &info) != 0) {
      if (errno != ENOENT && errno != ENOTDIR) fail(reason(errno));
      struct stat folder {};
      if (::stat(folder_of(path).c_str(), &folder) != 0)
        fail(errno == ENOENT ? "no folder " + folder_of(path).string() : reason(errno));
      if (!S_ISDIR(folder.st_mode)) fail(folder_of(path).string() + " is not a folder");
      info.st_mode = S_IFREG | 0666;
      return path;
    }
    if (!S_ISLNK(info.st_mode)) {
      if (!S_ISREG(info.st_mode)) fail("it is not a regular file");
      return path;
    }
    if (links == kMaxLinks) fail(reason(ELOOP));
    std::error_code error;
    const fs::path link = fs::read_symlink(path, error);
    if (error) fail(error.message());
    path = link.is_absolute() ? link : folder_of(path) / link;
  }
}

PendingFile::~PendingFile() {
  if (descriptor_ >= 0) ::close(descriptor_);
  if (!committed_ && !temporary_.empty()) ::unlink(temporary_.c_str());
}

void PendingFile::fail(const std::string& why) const {
  if (where_.file.empty()) throw InputError({target_.string(), 0, 0}, "cannot write: " + why);
  throw InputError(where_, "cannot write " + target_.string() + ": " + why);
}

void PendingFile::write(std::string_view content) {
  while (!content.empty()) {
    const ssize_t written = ::write(descriptor_, content.data(), content.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      fail(reason(errno));
    }
    content.remove_prefix(static_cast<std::size_t>(written));
  }
}

void PendingFile::commit() {
  // A full disk may show only when the data reaches it: at fsync or close.
  if (!temporary_.empty() && ::fsync(descriptor_) != 0) fail(reason(errno));
  const int descriptor = descriptor_;
  descriptor_ = -1;
  if (::close(descriptor) != 0) fail(reason(errno));
  if (!temporary_.empty() && ::rename(temporary_.c_str(), final_.c_str()) != 0) fail(reason(errno));
  committed_ = true;
  remove_on_signal_.reset();
}

void BoundedWriter::write(std::string_view piece) {
  if (piece.size() > limit_ - written_) throw InputError(where_, refusal_);
  written_ += piece.size();
  file_.write(piece);
}

NamedFile option_output(const std::string& path, const std::string& option) {
  return {path, {option, 0, 0}, "the output of " + option};
}

NamedFile option_input(const std::string& path, const std::string& option) {
  return {path, {option, 0, 0}, "the input of " + option};
}

PendingStream::Buffer::Buffer(PendingFile& file) : file_(file), data_(std::size_t{1} << 16) {
  setp(data_.data(), data_.data() + data_.size());
}

void PendingStream::Buffer::drain() {
  file_.write({pbase(), static_cast<std::size_t>(pptr() - pbase())});
  setp(data_.data(), data_.data() + data_.size());
}

PendingStream::Buffer::int_type PendingStream::Buffer::overflow(int_type c) {
  drain();
  if (!traits_type::eq_int_type(c, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
  }
  return traits_type::not_eof(c);
}

int PendingStream::Buffer::sync() {
  drain();
  return 0;
}

OutputFiles::OutputFiles(std::vector<NamedFile> outputs, const std::vector<NamedFile>& inputs)
    : outputs_(std::move(outputs)) {
  check_distinct_files(inputs, outputs_);
  for (const NamedFile& f : outputs_)
    pending_.push_back(f.path.empty() ? nullptr : std::make_unique<PendingFile>(f.path, f.where));
}

void OutputFiles::write_all(const std::vector<std::string>& contents) {
  for (std::size_t i = 0; i < pending_.size(); ++i)
    if (pending_[i]) pending_[i]->write(contents.at(i));
  for (const auto& file : pending_)
    if (file) file->commit();
}

void check_distinct_files(const std::vector<NamedFile>& inputs,
                          const std::vector<NamedFile>& outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const NamedFile& out = outputs[i];
    if (out.path.empty() || is_character_device(out.path)) continue;
    const auto refuse = [&](const NamedFile& other) {
      throw InputError(out.where, "cannot write " + out.path + ": it is also " + other.role + " (" +
                                      other.path + ")");
    };
    for (const NamedFile& in : inputs)
      if (!in.path.empty() && same_file(out.path, in.path)) refuse(in);
    for (std::size_t j = 0; j < i; ++j)
      if (!outputs[j].path.empty() && same_file(out.path, outputs[j].path)) refuse(outputs[j]);
  }
}

}  // namespace mmsim
