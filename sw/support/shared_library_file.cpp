#include "sw/support/shared_library_file.hpp"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace mmsim {
namespace {

// This process's own ELF types: a library must be of its class to be loaded into it.
using Header = ElfW(Ehdr);
using ProgramHeader = ElfW(Phdr);
using SectionHeader = ElfW(Shdr);
constexpr unsigned char kClass = sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32;
constexpr unsigned char kByteOrder =
    std::endian::native == std::endian::little ? ELFDATA2LSB : ELFDATA2MSB;

// Why a file is not accepted, thrown by the check at what it finds first.
struct Refusal {
  std::string why;
};

class ElfFile {
 public:
  ElfFile(int fd, std::uint64_t size) : fd_(fd), size_(size) {}

  // Checks the whole file; throws Refusal.
  void check() {
    Header header{};
    if (size_ < sizeof header) {
      char magic[SELFMAG] = {};
      const bool elf = size_ >= SELFMAG && read_at(0, magic, SELFMAG) == 0 &&
                       std::memcmp(magic, ELFMAG, SELFMAG) == 0;
      refuse(elf ? "it is " + std::to_string(size_) + " bytes long, shorter than an ELF header (" +
                       std::to_string(sizeof header) + " bytes): a truncated file?"
                 : not_a_library());
    }
    read_or_refuse(0, &header, sizeof header, "the ELF header");
    if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) refuse(not_a_library());
    if (header.e_ident[EI_CLASS] != kClass)
      refuse(std::string("it is a ") + (header.e_ident[EI_CLASS] == ELFCLASS32 ? "32" : "64") +
             "-bit ELF file; this mmsim is " + (kClass == ELFCLASS64 ? "64" : "32") + "-bit");
    if (header.e_ident[EI_DATA] != kByteOrder)
      refuse("its byte order is not this machine's: it was built for another machine");
    if (header.e_type != ET_DYN)
      refuse(std::string("it is an ELF ") +
             (header.e_type == ET_EXEC  ? "executable"
              : header.e_type == ET_REL ? "object file (not linked)"
                                        : "file of another kind") +
             ", not a shared library: " + build_hint());
    const std::vector<SectionHeader> sections = section_headers(header);
    std::uint64_t segments = header.e_phnum;
    if (segments == PN_XNUM) {  // more than 0xfffe: the count is in section 0
      if (sections.empty()) refuse("its count of program headers is missing (no section 0)");
      segments = sections[0].sh_info;
    }
    if (segments == 0) refuse("it has no program headers: " + build_hint());
    if (header.e_phentsize != sizeof(ProgramHeader))
      refuse("its program headers are " + std::to_string(header.e_phentsize) + " bytes each, not " +
             std::to_string(sizeof(ProgramHeader)));
    const std::vector<ProgramHeader> programs =
        table<ProgramHeader>(header.e_phoff, segments, "the program headers");
    for (std::size_t i = 0; i < programs.size(); ++i)
      inside(programs[i].p_offset, programs[i].p_filesz, "segment " + std::to_string(i));
    for (std::size_t i = 0; i < sections.size(); ++i)
      if (sections[i].sh_type != SHT_NOBITS && sections[i].sh_type != SHT_NULL)
        inside(sections[i].sh_offset, sections[i].sh_size, "section " + std::to_string(i));
  }

 private:
  // The section headers (none when the file has no table of them, as a stripped file may).
  std::vector<SectionHeader> section_headers(const Header& header) {
    if (header.e_shoff == 0) return {};
    if (header.e_shentsize != sizeof(SectionHeader))
      refuse("its section headers are " + std::to_string(header.e_shentsize) + " bytes each, not " +
             std::to_string(sizeof(SectionHeader)));
    std::uint64_t count = header.e_shnum;
    if (count == 0) {  // 0x10000 sections or more: the count is in section 0's size
      SectionHeader first{};
      inside(header.e_shoff, sizeof first, "the section headers");
      read_or_refuse(header.e_shoff, &first, sizeof first, "the section headers");
      count = first.sh_size;
    }
    return table<SectionHeader>(header.e_shoff, count, "the section headers");
  }

  // `count` entries of T from `offset`, all inside the file.
  template <class T>
  std::vector<T> table(std::uint64_t offset, std::uint64_t count, const std::string& what) {
    std::uint64_t bytes = 0;
    if (__builtin_mul_overflow(count, sizeof(T), &bytes)) bytes = UINT64_MAX;
    inside(offset, bytes, what);
    std::vector<T> entries(static_cast<std::size_t>(count));
    read_or_refuse(offset, entries.data(), entries.size() * sizeof(T), what);
    return entries;
  }

  // Bytes [offset, offset + bytes) lie inside the file.
  void inside(std::uint64_t offset, std::uint64_t bytes, const std::string& what) const {
    std::uint64_t end = 0;
    const bool past_2_64 = __builtin_add_overflow(offset, bytes, &end);
    if (!past_2_64 && end <= size_) return;
    refuse("the file ends at byte " + std::to_string(size_) + ", before the end of " + what + " (" +
           (past_2_64 ? "past 2^64" : "at byte " + std::to_string(end)) +
           "): a truncated file? (copy it again, or build it again)");
  }

  // 0 when all `bytes` were read, else errno, or -1 where the file ended first.
  int read_at(std::uint64_t offset, void* out, std::size_t bytes) const {
    auto* to = static_cast<char*>(out);
    while (bytes > 0) {
      const ssize_t n = ::pread(fd_, to, bytes, static_cast<off_t>(offset));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return errno;
      if (n == 0) return -1;
      to += n;
      offset += static_cast<std::uint64_t>(n);
      bytes -= static_cast<std::size_t>(n);
    }
    return 0;
  }
  void read_or_refuse(std::uint64_t offset, void* out, std::size_t bytes,
                      const std::string& what) const {
    if (const int error = read_at(offset, out, bytes); error != 0)
      refuse("cannot read " + what + ": " +
             (error > 0 ? std::strerror(error) : "the file ended early (was it cut short?)"));
  }

  static std::string build_hint() {
    return "a plugin is built as a shared library (CMake: add_library(NAME MODULE ...))";
  }
  static std::string not_a_library() {
    return "it is not a shared library (no ELF header): " + build_hint();
  }
  [[noreturn]] static void refuse(std::string why) { throw Refusal{std::move(why)}; }

  int fd_;
  std::uint64_t size_;
};

}  // namespace

std::string shared_library_problem(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) return std::string("cannot read it: ") + std::strerror(errno);
  struct stat info {};
  std::string why;
  if (::fstat(fd, &info) != 0) {
    why = std::string("cannot read it: ") + std::strerror(errno);
  } else if (!S_ISREG(info.st_mode)) {
    why = S_ISDIR(info.st_mode) ? "it is a folder" : "it is not a regular file";
  } else {
    try {
      ElfFile(fd, static_cast<std::uint64_t>(info.st_size)).check();
    } catch (const Refusal& r) {
      why = r.why;
    }
  }
  ::close(fd);
  return why;
}

}  // namespace mmsim
