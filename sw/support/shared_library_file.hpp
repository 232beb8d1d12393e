// A shared library's file (a plugin: program.library), checked before dlopen maps it. dlopen maps
// the parts of the file that its program headers name; in a file cut short (a copy or a download
// still in progress) the first page past the end faults with SIGBUS inside dlopen, where nothing
// can report it. A file is accepted when it is a complete ELF shared object of this process's
// class (64 or 32 bits) and byte order: its program headers and section headers, and every
// segment and section they name, lie inside the file. dlopen still refuses, with its own message,
// what it cannot load (another machine, a missing dependency); this check only keeps it from
// reading past the end.
#pragma once

#include <filesystem>
#include <string>

namespace mmsim {

// Why `file` cannot be read or is not such a file ("the file ends at byte 30720, before the end
// of the section headers (at byte 45376): a truncated file? ..."), or "" when it is one.
std::string shared_library_problem(const std::filesystem::path& file);

}  // namespace mmsim
