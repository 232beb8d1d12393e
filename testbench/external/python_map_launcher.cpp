// A Python address map (machine.address_map: {file, class}) in a process without Python (the
// mmsim command): the first one starts the interpreter (embedded_python.hpp), whose mmsim
// package registers the real loader of Python maps in place of this one (testbench/python).
#include "testbench/external/embedded_python.hpp"
#include "testbench/input/own_maps.hpp"

namespace mmsim {
namespace {

// Starts Python (once), or InputError at ref.
void start_python(const OwnMapRef& ref) {
  static bool started = false;  // once: the package replaces this loader when imported
  if (started)
    throw InputError(ref.code.file_where, ref.key + ": the mmsim Python package did not load");
  started = true;
  if (const std::string failure = start_embedded_python(); !failure.empty())
    throw InputError(ref.code.file_where, ref.key + ": cannot start Python: " + failure);
}

[[maybe_unused]] const bool registered =
    (register_map_loader(ExternalProgram::Kind::python, {.load =
                                                             [](const OwnMapRef& ref) {
                                                               start_python(ref);
                                                               return map_loader(ref).load(
                                                                   ref);  // the mmsim module's now
                                                             },
                                                         .list =
                                                             [](const OwnMapRef& ref) {
                                                               start_python(ref);
                                                               return map_loader(ref).list(ref);
                                                             }}),
     true);

}  // namespace
}  // namespace mmsim
