// Python inside a process that does not have it (the mmsim command), started when a testbench
// first names Python code: libmmsim_python.so, beside libmmsim.so, links libpython and is opened
// only then, so that a run without Python code pays nothing for it. It imports the mmsim package
// (python/ beside the library), whose native module registers the real loaders of Python code
// (programs, address maps) in place of the ones that start it.
#pragma once

#include <string>

namespace mmsim {

// Starts the interpreter and imports the mmsim package; "" when done, else why it failed.
std::string start_embedded_python();

}  // namespace mmsim
