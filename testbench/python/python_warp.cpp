#include "testbench/python/python_warp.hpp"

#include <pybind11/numpy.h>

#include <fmt/format.h>

#include <string>
#include <string_view>

namespace mmsim {
namespace py = pybind11;
namespace {

Space space_of(const char* op, std::string_view name) {
  if (name == "global") return Space::global;
  if (name == "shared") return Space::shared;
  throw py::value_error(fmt::format("{}: space '{}': expected 'global' or 'shared'", op, name));
}

std::string text_of(py::handle value) { return py::repr(value).cast<std::string>(); }

// An integer lane value from a Python integer (numpy's included; never a float), or an error
// naming the lane.
std::int64_t lane_integer(const char* op, const char* what, std::size_t lane, py::handle item) {
  if (!PyIndex_Check(item.ptr()))
    throw py::type_error(fmt::format("{}: lane {}: expected {} (an integer{}), got {}", op, lane,
                                     what, std::string(what) == "an address" ? " or None" : "",
                                     text_of(item)));
  int overflow = 0;
  const py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(item.ptr()));
  const long long value = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow != 0)
    throw py::value_error(fmt::format("{}: lane {}: {} does not fit a 64-bit word", op, lane,
                                      text_of(item)));
  return value;
}

// The lanes of `given` (a list, a tuple, a numpy array of integers: one per lane), each checked
// by `take(lane, value)`; None (lists) is `none_value`.
template <class Take>
void for_each_lane(const char* op, const char* what, py::handle given, unsigned width,
                   const Take& take, bool none_allowed) {
  // The usual case first, without a conversion: a contiguous array of int64 (numpy's integers).
  using Int64Array = py::array_t<std::int64_t, py::array::c_style>;
  if (Int64Array::check_(given)) {
    const auto array = py::reinterpret_borrow<Int64Array>(given);
    if (array.ndim() != 1 || static_cast<std::size_t>(array.size()) != width)
      throw py::value_error(fmt::format("{}: {} lanes given, the warp has {}", op,
                                        array.ndim() == 1 ? array.size() : -1, width));
    const std::int64_t* data = array.data();
    for (unsigned lane = 0; lane < width; ++lane) take(lane, data[lane]);
    return;
  }
  if (py::isinstance<py::array>(given)) {
    const auto array = py::reinterpret_borrow<py::array>(given);
    const char kind = array.dtype().kind();
    if (kind != 'i' && kind != 'u' && kind != 'b')
      throw py::type_error(fmt::format("{}: {} of dtype {}: expected integers", op, what,
                                       py::str(array.dtype()).cast<std::string>()));
    if (array.ndim() != 1 || static_cast<std::size_t>(array.size()) != width)
      throw py::value_error(fmt::format("{}: {} lanes given, the warp has {}", op,
                                        array.ndim() == 1 ? array.size() : -1, width));
    // No copy when it already is a contiguous int64 array (the usual numpy integers).
    const py::array_t<std::int64_t, py::array::c_style | py::array::forcecast> ints(array);
    const std::int64_t* data = ints.data();
    for (unsigned lane = 0; lane < width; ++lane) take(lane, data[lane]);
    return;
  }
  if (!PySequence_Check(given.ptr()) || PyUnicode_Check(given.ptr()))
    throw py::type_error(fmt::format("{}: expected a list or a numpy array of {}, one per lane, "
                                     "got {}",
                                     op, what, text_of(given)));
  const auto lanes = py::reinterpret_borrow<py::sequence>(given);
  if (lanes.size() != width)
    throw py::value_error(
        fmt::format("{}: {} lanes given, the warp has {}", op, lanes.size(), width));
  for (unsigned lane = 0; lane < width; ++lane) {
    const py::object item = lanes[lane];
    if (item.is_none() && none_allowed) {
      take.inactive(lane);
      continue;
    }
    take(lane, lane_integer(op, what, lane, item));
  }
}

struct AddressTaker {
  const char* op;
  std::uint64_t words;
  const char* space;
  std::vector<Address>& out;
  void operator()(unsigned lane, std::int64_t a) const {
    if (a < 0 || static_cast<std::uint64_t>(a) >= words)
      throw py::index_error(fmt::format("{}: lane {}: address {} is outside the {} memory of {} "
                                        "words",
                                        op, lane, a, space, words));
    out[lane] = static_cast<Address>(a);
  }
  void inactive(unsigned lane) const { out[lane] = kInactive; }
};

struct ValueTaker {
  std::vector<Word>& out;
  void operator()(unsigned lane, std::int64_t v) const { out[lane] = v; }
  void inactive(unsigned lane) const { out[lane] = 0; }
};

PythonInstruction memory_instruction(PythonWarp& w, PythonInstruction::Kind kind, const char* op,
                                     py::handle addresses, std::string_view space) {
  PythonInstruction in;
  in.kind = kind;
  in.site = &w.sites().current();
  in.space = space_of(op, space);
  const bool shared = in.space == Space::shared;
  const unsigned width = w.warp().width();
  in.addresses.resize(width);
  for_each_lane(op, "an address", addresses, width,
                AddressTaker{op, shared ? w.limits().shared : w.limits().global,
                             shared ? "shared" : "global", in.addresses},
                true);
  return in;
}

PythonInstruction barrier(PythonWarp& w, PythonInstruction::Kind kind) {
  PythonInstruction in;
  in.kind = kind;
  in.site = &w.sites().current();
  return in;
}

// A numpy view of words the warp owns (its registers, its local memory), alive while the warp is.
py::array words_view(py::handle owner, std::vector<py::ssize_t> shape, Word* data, bool writable) {
  py::array_t<Word> view(std::move(shape), data, owner);
  if (!writable) view.attr("flags").attr("writeable") = false;
  return view;
}

constexpr const char* kInstruction = "mmsim.Instruction";

void free_instruction(PyObject* capsule) {
  delete static_cast<PythonInstruction*>(PyCapsule_GetPointer(capsule, kInstruction));
}

}  // namespace

namespace {
std::uint64_t code_key(const void* code, int n) {
  return reinterpret_cast<std::uintptr_t>(code) * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(n);
}
}  // namespace

const Site& PythonSites::current() {
  static const Site unknown{.file = "", .line = 0, .label = "python"};
  PyFrameObject* frame = PyEval_GetFrame();  // borrowed; a generator's stays made
  if (frame == nullptr) return unknown;
  const py::object code = py::reinterpret_steal<py::object>(
      reinterpret_cast<PyObject*>(PyFrame_GetCode(frame)));
  const int offset = PyFrame_GetLasti(frame);
  const std::uint64_t key = code_key(code.ptr(), offset);
  if (const auto it = by_offset_.find(key);
      it != by_offset_.end() && it->second.code == code.ptr() && it->second.offset == offset)
    return it->second.place->site;
  Place& found = place(code, PyFrame_GetLineNumber(frame));
  by_offset_[key] = Seen{code.ptr(), offset, &found};
  return found.site;
}

PythonSites::Place& PythonSites::place(const py::object& code, int line) {
  const std::uint64_t key = code_key(code.ptr(), line);
  if (const auto it = by_line_.find(key); it != by_line_.end() && it->second->code.is(code) &&
                                           it->second->site.line == static_cast<std::uint32_t>(line))
    return *it->second;
  Place& place = places_.emplace_back();
  place.code = code;
  place.file = py::str(code.attr("co_filename"));
  place.label = py::str(code.attr("co_qualname"));
  place.site = Site{.file = place.file, .line = static_cast<std::uint32_t>(line),
                    .label = place.label};
  by_line_[key] = &place;
  return place;
}

py::object instruction_object(PythonInstruction instruction) {
  auto* held = new PythonInstruction(std::move(instruction));
  PyObject* capsule = PyCapsule_New(held, kInstruction, free_instruction);
  if (capsule == nullptr) {
    delete held;
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::object>(capsule);
}

const PythonInstruction* instruction_of(py::handle object) {
  if (!PyCapsule_IsValid(object.ptr(), kInstruction)) return nullptr;
  return static_cast<const PythonInstruction*>(PyCapsule_GetPointer(object.ptr(), kInstruction));
}

void bind_warp(py::module_& module) {
  py::class_<PythonWarp>(module, "Warp", "One warp of the machine, as its program sees it")
      .def_property_readonly("index", [](PythonWarp& w) { return w.warp().index(); },
                             "its number i: it runs threads i*w .. i*w + w - 1")
      .def_property_readonly("width", [](PythonWarp& w) { return w.warp().width(); },
                             "w, its lanes")
      .def_property_readonly("count", [](PythonWarp& w) { return w.warp().count(); },
                             "the machine's warps, p/w")
      .def("thread", [](PythonWarp& w, unsigned lane) { return w.warp().thread(lane); },
           py::arg("lane"), "the global thread number T of a lane")
      .def_property_readonly("threads", [](PythonWarp& w) { return w.warp().threads(); },
                             "p, the machine's threads")
      .def_property_readonly("block", [](PythonWarp& w) { return w.warp().block(); },
                             "its block: the streaming multiprocessor it runs on")
      .def_property_readonly("blocks", [](PythonWarp& w) { return w.warp().blocks(); },
                             "blocks of the machine (flat machines: 1)")
      .def_property_readonly("block_warps", [](PythonWarp& w) { return w.warp().block_warps(); },
                             "warps per block")
      .def_property_readonly("warp_in_block",
                             [](PythonWarp& w) { return w.warp().warp_in_block(); },
                             "its number within its block")
      .def("block_thread", [](PythonWarp& w, unsigned lane) { return w.warp().block_thread(lane); },
           py::arg("lane"), "a lane's thread number within its block")
      .def_property_readonly("block_threads",
                             [](PythonWarp& w) { return w.warp().block_threads(); },
                             "threads per block, p/d")
      .def_property_readonly(
          "registers",
          [](py::object self) {
            auto& w = self.cast<PythonWarp&>();
            const auto registers = w.warp().registers();
            return words_view(self, {static_cast<py::ssize_t>(registers.size())},
                              registers.data(), false);
          },
          "each lane's register (read-only numpy view): what the last read returned")
      .def_property_readonly(
          "local",
          [](py::object self) {
            auto& w = self.cast<PythonWarp&>();
            const auto words = static_cast<py::ssize_t>(w.warp().local_words());
            const auto width = static_cast<py::ssize_t>(w.warp().width());
            return words_view(self, {width, words}, w.warp().local(0).data(), true);
          },
          "the local memory of each lane's PE: a writable numpy array [lane, word]")
      .def(
          "read",
          [](PythonWarp& w, py::handle addresses, std::string_view space) {
            return instruction_object(memory_instruction(w, PythonInstruction::Kind::read,
                                                         "warp.read", addresses, space));
          },
          py::arg("addresses"), py::arg("space") = "global",
          "read one address per lane (None: the lane is inactive); yield it to get the values")
      .def(
          "write",
          [](PythonWarp& w, py::handle addresses, py::handle values, std::string_view space) {
            PythonInstruction in = memory_instruction(w, PythonInstruction::Kind::write,
                                                      "warp.write", addresses, space);
            if (!values.is_none()) {
              in.values.resize(in.addresses.size());
              for_each_lane("warp.write", "a value", values, w.warp().width(),
                            ValueTaker{in.values}, true);
            }
            return instruction_object(std::move(in));
          },
          py::arg("addresses"), py::arg("values") = py::none(), py::arg("space") = "global",
          "write one value per lane (default: each lane's register) to its address")
      .def(
          "syncthreads",
          [](PythonWarp& w) { return instruction_object(barrier(w, PythonInstruction::Kind::sync)); },
          "wait until every unfinished warp of the block is here")
      .def(
          "grid_sync",
          [](PythonWarp& w) {
            return instruction_object(barrier(w, PythonInstruction::Kind::grid_sync));
          },
          "wait until every unfinished warp of the machine is here");
}

}  // namespace mmsim
