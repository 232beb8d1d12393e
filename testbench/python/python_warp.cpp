#include "testbench/python/python_warp.hpp"

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <structmember.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hw/support/consecutive_lanes.hpp"
#include "hw/support/huge_pages.hpp"
#include "hw/support/vector_isa.hpp"

namespace mmsim {
namespace py = pybind11;
namespace {

// ---- the objects ------------------------------------------------------------------------------

struct WarpObject {
  PyObject ob_base;  // PyObject_HEAD
  PythonWarp* warp;  // nullptr once the warp's program has ended
};

// An instruction: its lanes' addresses, then (a write with values) their values, in the object;
// a batch's (warp.reads, warp.writes) round after round.
struct InstructionObject {
  PyVarObject ob_base;  // PyObject_VAR_HEAD
  PyObject* warp;       // the warp that made it (held): only it may yield it, while it runs
  unsigned warp_index;
  // Made whole and never yielded: dropped so, it was forgotten (a `yield` left out).
  bool unyielded;
  PythonInstruction::Kind kind;
  Space space;
  bool has_values;
  bool batch;
  bool runs;  // a batch whose every round is a run: one cell (its first address) per round
  unsigned lanes;
  std::size_t rounds;
  const Site* site;
  // rounds x lanes addresses, then rounds x lanes values (ob_size cells in all)
  std::uint64_t cells[1];
};
static_assert(sizeof(Address) == sizeof(std::uint64_t) && sizeof(Word) == sizeof(std::uint64_t));

PyTypeObject* warp_type = nullptr;
PyTypeObject* instruction_type = nullptr;

// A C++ exception raised while Python calls us, as the Python exception it stands for.
template <class F>
PyObject* python_call(const F& f) {
  try {
    return f();
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (const py::builtin_exception& e) {
    e.set_error();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

PythonWarp& warp_of(PyObject* self) {
  PythonWarp* warp = reinterpret_cast<WarpObject*>(self)->warp;
  if (warp == nullptr) throw std::runtime_error("this warp's program has ended");
  return *warp;
}

std::string text_of(PyObject* value) { return py::repr(value).cast<std::string>(); }

// ---- arguments ----------------------------------------------------------------------------

// A memory method's arguments (absent ones nullptr).
struct MemoryArguments {
  PyObject* addresses = nullptr;
  PyObject* values = nullptr;  // writes
  PyObject* space = nullptr;
  PyObject* offsets = nullptr;  // batches: `addresses` are then each round's base
};

// One parameter of a memory method: its name and where its argument goes.
struct Parameter {
  const char* name;
  PyObject* MemoryArguments::*argument;
};

// Binds a call's arguments (positional, then by keyword) to `parameters`.
template <std::size_t N>
MemoryArguments bind_arguments(const char* op, PyObject* const* args, Py_ssize_t nargs,
                               PyObject* kwnames, const std::array<Parameter, N>& parameters) {
  MemoryArguments bound;
  if (nargs > static_cast<Py_ssize_t>(N))
    throw py::type_error(fmt::format("{}() takes at most {} arguments ({} given)", op, N, nargs));
  for (Py_ssize_t i = 0; i < nargs; ++i) bound.*parameters[i].argument = args[i];
  const Py_ssize_t keywords = kwnames == nullptr ? 0 : PyTuple_GET_SIZE(kwnames);
  for (Py_ssize_t k = 0; k < keywords; ++k) {
    PyObject* name = PyTuple_GET_ITEM(kwnames, k);
    std::size_t i = 0;
    while (i < N && PyUnicode_CompareWithASCIIString(name, parameters[i].name) != 0) ++i;
    if (i == N)
      throw py::type_error(
          fmt::format("{}() got an unexpected keyword argument {}", op, text_of(name)));
    if (bound.*parameters[i].argument != nullptr)
      throw py::type_error(
          fmt::format("{}() got multiple values for argument '{}'", op, parameters[i].name));
    bound.*parameters[i].argument = args[nargs + k];
  }
  return bound;
}

Space space_of(const char* op, PyObject* name) {
  static PyObject* const global = PyUnicode_InternFromString("global");
  static PyObject* const shared = PyUnicode_InternFromString("shared");
  if (name == nullptr || name == global) return Space::global;
  if (name == shared) return Space::shared;
  if (PyUnicode_Check(name)) {
    if (PyUnicode_Compare(name, global) == 0) return Space::global;
    if (PyUnicode_Compare(name, shared) == 0) return Space::shared;
  }
  throw py::value_error(
      fmt::format("{}: space {}: expected 'global' or 'shared'", op, text_of(name)));
}

// The memory an instruction addresses (its `space` argument): which, its words, its name.
struct MemorySpace {
  Space space;
  std::uint64_t words;
  const char* name;
};

MemorySpace memory_space(const char* op, const PythonWarp& w, PyObject* given) {
  const Space space = space_of(op, given);
  const bool shared = space == Space::shared;
  return {space, shared ? w.limits().shared : w.limits().global, shared ? "shared" : "global"};
}

// The value of a Python integer (numpy's included: anything with __index__), nullopt when it
// does not fit a 64-bit word.
std::optional<long long> index_value(PyObject* item) {
  int overflow = 0;
  const py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(item));
  if (!index) throw py::error_already_set();
  const long long value = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow != 0) return std::nullopt;
  return value;
}

// An integer from a Python integer (never a float), or an error naming its place (`op`: lane
// 3, `op`: round 2).
std::int64_t integer_at(const char* op, const char* place, std::size_t at, const char* what,
                        PyObject* item) {
  if (!PyIndex_Check(item))
    throw py::type_error(fmt::format("{}: {} {}: expected {} (an integer{}), got {}", op, place, at,
                                     what, std::string_view(what) == "an address" ? " or None" : "",
                                     text_of(item)));
  const std::optional<long long> value = index_value(item);
  if (!value)
    throw py::value_error(
        fmt::format("{}: {} {}: {} does not fit a 64-bit word", op, place, at, text_of(item)));
  return *value;
}

// An integer lane value, or an error naming the lane.
std::int64_t lane_integer(const char* op, const char* what, std::size_t lane, PyObject* item) {
  return integer_at(op, "lane", lane, what, item);
}

[[noreturn]] void wrong_lanes(const char* op, Py_ssize_t given, unsigned width) {
  throw py::value_error(fmt::format("{}: {} lanes given, the warp has {}", op, given, width));
}

std::string shape_of(PyObject* array) {
  return py::str(py::handle(array).attr("shape")).cast<std::string>();
}

// An array of lanes holds integers (booleans only where they are values, not addresses).
void check_dtype(const char* op, const char* what, PyArrayObject* array, bool booleans) {
  const char kind = PyArray_DESCR(array)->kind;
  if (kind == 'b' && !booleans)
    throw py::type_error(fmt::format(
        "{}: {} of dtype bool: booleans are not addresses (np.flatnonzero(mask) gives the "
        "addresses of a mask)",
        op, what));
  if (kind != 'i' && kind != 'u' && kind != 'b')
    throw py::type_error(fmt::format(
        "{}: {} of dtype {}: expected integers", op, what,
        py::str(reinterpret_cast<PyObject*>(PyArray_DESCR(array))).cast<std::string>()));
}

// An integer array of `dimensions` dimensions as a C-contiguous int64 one (a copy).
py::object int64_copy(PyObject* array, int dimensions) {
  py::object ints = py::reinterpret_steal<py::object>(PyArray_FROMANY(
      array, NPY_INT64, dimensions, dimensions, NPY_ARRAY_CARRAY_RO | NPY_ARRAY_FORCECAST));
  if (!ints) throw py::error_already_set();
  return ints;
}

// The lanes of `given` (a list, a tuple, a numpy array of integers: one per lane), each checked
// by `take(lane, value)`; None (lists) is `take.inactive(lane)`. Booleans only where
// Take::kBooleans (values, not addresses).
template <class Take>
void for_each_lane(const char* op, const char* what, PyObject* given, unsigned width,
                   const Take& take) {
  if (PyArray_Check(given)) {
    auto* array = reinterpret_cast<PyArrayObject*>(given);
    // The usual case first, without a conversion: an int64 array (numpy's integers), read in
    // place whatever its stride (a row or a column of a table of addresses).
    if (PyArray_TYPE(array) == NPY_INT64 && PyArray_NDIM(array) == 1 &&
        PyArray_DIM(array, 0) == static_cast<npy_intp>(width) && PyArray_ISALIGNED(array) &&
        PyArray_ISNOTSWAPPED(array)) {
      take.all(PyArray_BYTES(array), PyArray_STRIDE(array, 0), width, false);
      return;
    }
    check_dtype(op, what, array, Take::kBooleans);
    if (PyArray_NDIM(array) != 1)
      throw py::value_error(
          fmt::format("{}: an array of shape {} given: expected {} lanes, one dimension", op,
                      shape_of(given), width));
    if (PyArray_DIM(array, 0) != static_cast<npy_intp>(width))
      wrong_lanes(op, PyArray_DIM(array, 0), width);
    const py::object ints = int64_copy(given, 1);
    take.all(PyArray_BYTES(reinterpret_cast<PyArrayObject*>(ints.ptr())), sizeof(std::int64_t),
             width, PyArray_DESCR(array)->kind == 'u');
    return;
  }
  if (!PySequence_Check(given) || PyUnicode_Check(given))
    throw py::type_error(
        fmt::format("{}: expected a list or a numpy array of {}, one per lane, "
                    "got {}",
                    op, what, text_of(given)));
  const py::object lanes = py::reinterpret_steal<py::object>(PySequence_Fast(given, op));
  if (!lanes) throw py::error_already_set();
  const Py_ssize_t count = PySequence_Fast_GET_SIZE(lanes.ptr());
  if (count != static_cast<Py_ssize_t>(width)) wrong_lanes(op, count, width);
  PyObject** items = PySequence_Fast_ITEMS(lanes.ptr());
  for (unsigned lane = 0; lane < width; ++lane) {
    PyObject* item = items[lane];
    if (item == Py_None) {
      take.inactive(op, lane);
      continue;
    }
    if (PyLong_CheckExact(item)) {
      int overflow = 0;
      const long long value = PyLong_AsLongLongAndOverflow(item, &overflow);
      if (overflow == 0) {
        take(lane, value);
        continue;
      }
    }
    if (!Take::kBooleans && (PyBool_Check(item) || PyArray_IsScalar(item, Bool)))
      throw py::type_error(
          fmt::format("{}: lane {}: {} is not an address (an integer, or None "
                      "for an inactive lane)",
                      op, lane, text_of(item)));
    take(lane, lane_integer(op, what, lane, item));
  }
}

// Copies `width` int64 lanes `stride` bytes apart to `out` (a plain copy when they are
// contiguous, the usual case).
void copy_lanes(const char* data, npy_intp stride, unsigned width, std::uint64_t* out) {
  if (stride == sizeof(std::int64_t)) {
    std::memcpy(out, data, std::size_t{width} * sizeof(std::int64_t));
    return;
  }
  for (unsigned lane = 0; lane < width; ++lane)
    std::memcpy(out + lane, data + lane * stride, sizeof(std::int64_t));
}

// Whether any of `count` addresses is `words` or more (a negative one is a huge unsigned one).
// An address a lies in [0, words) when neither a nor (words - 1) - a has its top bit set
// (words <= 2^32): one subtraction and two ors a lane, which the compiler vectorises for each
// instruction set (no 64-bit compare needed); words = 0 puts every address outside.
bool any_outside(const Address* addresses, std::size_t count, std::uint64_t words) {
  return with_vector_isa([addresses, count, last = words - 1] {
    std::uint64_t bits = 0;
    for (std::size_t i = 0; i < count; ++i) bits |= addresses[i] | (last - addresses[i]);
    return (bits >> 63) != 0;
  });
}

struct AddressTaker {
  static constexpr bool kBooleans = false;
  const char* op;
  std::uint64_t words;
  const char* space;
  Address* out;
  std::ptrdiff_t round = -1;  // a batch's round its messages name (-1: `op` names it if need be)
  bool deferred = false;      // all() only copies: a batch checks its whole table at once
  void operator()(unsigned lane, std::int64_t a) const {
    if (a < 0 || static_cast<std::uint64_t>(a) >= words) outside(lane, std::to_string(a));
    out[lane] = static_cast<Address>(a);
  }
  void inactive(const char*, unsigned lane) const { out[lane] = kInactive; }
  // Every lane of an int64 array at once (of a uint64 one: `from_unsigned`): copied, then
  // checked in one pass (a negative address is a huge unsigned one); the first lane outside
  // raises, with the address as it was given.
  void all(const char* data, npy_intp stride, unsigned width, bool from_unsigned) const {
    copy_lanes(data, stride, width, out);
    if (!deferred) check(width, from_unsigned);
  }
  void check(unsigned width, bool from_unsigned) const {
    if (!any_outside(out, width, words)) return;
    for (unsigned lane = 0; lane < width; ++lane)
      if (out[lane] >= words)
        outside(lane, from_unsigned ? std::to_string(out[lane])
                                    : std::to_string(static_cast<std::int64_t>(out[lane])));
  }
  [[noreturn]] void outside(unsigned lane, const std::string& address) const {
    throw py::index_error(fmt::format(
        "{}: {}lane {}: address {} is outside the {} memory of {} words", op,
        round < 0 ? std::string() : fmt::format("round {}: ", round), lane, address, space, words));
  }
};

struct ValueTaker {
  static constexpr bool kBooleans = true;
  const Address* addresses;  // taken first: an inactive lane's value may be None (null: none is)
  Word* out;
  void operator()(unsigned lane, std::int64_t v) const { out[lane] = v; }
  void inactive(const char* op, unsigned lane) const {
    out[lane] = 0;
    if (addresses != nullptr && addresses[lane] == kInactive) return;
    throw py::type_error(
        fmt::format("{}: lane {}: None is not a value (an inactive lane is None "
                    "in the addresses)",
                    op, lane));
  }
  void all(const char* data, npy_intp stride, unsigned width, bool) const {
    copy_lanes(data, stride, width, reinterpret_cast<std::uint64_t*>(out));
  }
};

// ---- instructions -----------------------------------------------------------------------------

// A new instruction of `cells` cells, left unwritten (PyType_GenericAlloc would zero them all
// first: a batch's whole table): the caller writes every one.
py::object new_instruction(PythonWarp& w, PythonInstruction::Kind kind, std::size_t cells) {
  const std::size_t bytes = offsetof(InstructionObject, cells) + cells * sizeof(std::uint64_t);
  void* memory = PyObject_Malloc(bytes);
  if (memory == nullptr) {
    PyErr_NoMemory();
    throw py::error_already_set();
  }
  auto* in = reinterpret_cast<InstructionObject*>(PyObject_InitVar(
      static_cast<PyVarObject*>(memory), instruction_type, static_cast<Py_ssize_t>(cells)));
  py::object object = py::reinterpret_steal<py::object>(reinterpret_cast<PyObject*>(in));
  in->unyielded = false;  // until it is made whole: an error on the way drops it unmade
  in->warp = Py_NewRef(w.object().ptr());
  in->warp_index = static_cast<unsigned>(w.warp().index());
  in->kind = kind;
  in->space = Space::global;
  in->has_values = false;
  in->batch = false;
  in->runs = false;
  in->lanes = 0;
  in->rounds = 1;
  in->site = &w.sites().current();
  return object;
}

// An instruction made whole: from now on, dropped without a yield, it was forgotten.
py::object made(py::object instruction) {
  reinterpret_cast<InstructionObject*>(instruction.ptr())->unyielded = true;
  return instruction;
}

// Whether `given` is an int64 array of `dimensions` dimensions (1: lanes, 2: rounds x lanes)
// whose lanes lie side by side, aligned and in this machine's byte order: read in place.
bool lanes_in_place(PyObject* given, int dimensions) {
  if (!PyArray_Check(given)) return false;
  auto* array = reinterpret_cast<PyArrayObject*>(given);
  return PyArray_NDIM(array) == dimensions && PyArray_TYPE(array) == NPY_INT64 &&
         PyArray_ISALIGNED(array) && PyArray_ISNOTSWAPPED(array) &&
         PyArray_STRIDE(array, dimensions - 1) == sizeof(std::int64_t);
}

// Whether each of `rounds` rows of `width` int64 lanes, the rows `stride` bytes apart, is a
// run in range (lane i addresses first + i, first + width <= words: hw/pe/lane_run.hpp). Such
// an instruction keeps one address per round, and the MMU takes each round whole.
bool rows_are_runs(const char* data, npy_intp stride, unsigned width, std::size_t rounds,
                   std::uint64_t words) {
  if (width == 0 || words < width) return false;
  for (std::size_t round = 0; round < rounds; ++round) {
    // An aligned int64 row (lanes_in_place): read as the addresses it holds.
    const std::span<const Address> row(
        reinterpret_cast<const Address*>(data + static_cast<npy_intp>(round) * stride), width);
    if (row.front() > words - width || !consecutive_lanes(row)) return false;
  }
  return true;
}

// range's start, stop and step where its type's member table places them (PyRange_Type's
// tp_members): read in place, two attribute look-ups fewer per instruction. -1: not listed so,
// read by name.
struct RangeMembers {
  Py_ssize_t start = -1;
  Py_ssize_t stop = -1;
  Py_ssize_t step = -1;
};

const RangeMembers& range_members() {
  static const RangeMembers members = [] {
    RangeMembers found;
    for (const PyMemberDef* m = PyRange_Type.tp_members; m != nullptr && m->name != nullptr; ++m) {
      if (m->type != T_OBJECT_EX) continue;
      const std::string_view name = m->name;
      if (name == "start") found.start = m->offset;
      if (name == "stop") found.stop = m->offset;
      if (name == "step") found.step = m->offset;
    }
    return found;
  }();
  return members;
}

// A range's integer field (nullopt: beyond a long long).
std::optional<long long> range_field(PyObject* range, Py_ssize_t offset, const char* name) {
  py::object held;
  PyObject* value = nullptr;
  if (offset >= 0) {
    value = *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(range) + offset);
  } else {
    held = py::reinterpret_steal<py::object>(PyObject_GetAttrString(range, name));
    if (!held) throw py::error_already_set();
    value = held.ptr();
  }
  int overflow = 0;
  const long long n = PyLong_AsLongLongAndOverflow(value, &overflow);
  if (n == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (overflow != 0) return std::nullopt;
  return n;
}

// A range of integers that fit a long long: start, step and length.
struct IntegerRange {
  long long start = 0;
  long long step = 1;
  std::size_t length = 0;

  // Its element i, in unsigned arithmetic, which wraps to it exactly (i * step alone may pass
  // a long long where the element does not).
  std::int64_t at(std::size_t i) const {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(start) +
                                     static_cast<std::uint64_t>(i) *
                                         static_cast<std::uint64_t>(step));
  }
};

// `given` as an IntegerRange; nullopt for anything else, or a range whose start or stop is
// beyond a long long (read lane by lane, and refused there).
std::optional<IntegerRange> integer_range(PyObject* given) {
  if (!PyRange_Check(given)) return std::nullopt;
  const RangeMembers& members = range_members();
  const std::optional<long long> start = range_field(given, members.start, "start");
  const std::optional<long long> stop = range_field(given, members.stop, "stop");
  const std::optional<long long> step = range_field(given, members.step, "step");
  if (!start || !stop || !step) return std::nullopt;
  // Its length from the three (len() would compute it with Python's integers); the distance
  // in unsigned arithmetic, where it always fits.
  const bool up = *step > 0;
  const bool empty = up ? *stop <= *start : *stop >= *start;
  const unsigned long long distance =
      up ? static_cast<unsigned long long>(*stop) - static_cast<unsigned long long>(*start)
         : static_cast<unsigned long long>(*start) - static_cast<unsigned long long>(*stop);
  const unsigned long long stride =
      up ? static_cast<unsigned long long>(*step) : 0 - static_cast<unsigned long long>(*step);
  return IntegerRange{*start, *step,
                      empty ? 0 : static_cast<std::size_t>((distance - 1) / stride + 1)};
}

// The first address of base + `given` when `given` is range(a, a + width) (the addresses, base
// 0, or the offsets of warp.read(base, offsets=...)) and base + a + width <= words: a run (lane
// i at base + a + i) made without numpy or a list; nullopt for anything else, which the lanes'
// own path takes (and names what is wrong with it).
std::optional<Address> range_run(PyObject* given, std::int64_t base, unsigned width,
                                 std::uint64_t words) {
  const std::optional<IntegerRange> range = integer_range(given);
  std::int64_t first = 0;
  if (!range || range->step != 1 || range->length != width ||
      __builtin_add_overflow(base, range->start, &first) || first < 0 || words < width ||
      static_cast<std::uint64_t>(first) > words - width)
    return std::nullopt;
  return static_cast<Address>(first);
}

// The rounds of a batch's lanes (warp.reads, warp.writes): a 2-D numpy array, rounds x lanes,
// or a sequence of rounds, each as warp.read takes its lanes.
std::size_t rounds_of(const char* op, const char* what, PyObject* given, unsigned width) {
  if (PyArray_Check(given)) {
    auto* array = reinterpret_cast<PyArrayObject*>(given);
    if (PyArray_NDIM(array) != 2 || PyArray_DIM(array, 1) != static_cast<npy_intp>(width))
      throw py::value_error(
          fmt::format("{}: {} of shape {} given: expected rounds x {} lanes, two dimensions", op,
                      what, shape_of(given), width));
    return static_cast<std::size_t>(PyArray_DIM(array, 0));
  }
  if (!PySequence_Check(given) || PyUnicode_Check(given))
    throw py::type_error(fmt::format(
        "{}: expected {} as a 2-D numpy array (rounds x {} lanes) or a list of rounds, got {}", op,
        what, width, text_of(given)));
  const Py_ssize_t rounds = PySequence_Size(given);
  if (rounds < 0) throw py::error_already_set();
  return static_cast<std::size_t>(rounds);
}

// The lanes of each of `rounds` rounds of `given` (rounds_of), round after round: a 2-D
// numpy array row by row through take.all (an int64 one in place), a sequence round by round
// through for_each_lane. `make(op, round, named)` makes a round's Take, whose errors name the
// round: `op` names it already (named: a sequence's), or the Take names it (an array's).
template <class Make>
void for_each_round(const char* op, const char* what, PyObject* given, unsigned width,
                    std::size_t rounds, const Make& make) {
  using Take = decltype(make(op, 0, false));
  if (PyArray_Check(given)) {
    auto* array = reinterpret_cast<PyArrayObject*>(given);
    check_dtype(op, what, array, Take::kBooleans);
    py::object converted;
    if (PyArray_TYPE(array) != NPY_INT64 || !PyArray_ISALIGNED(array) ||
        !PyArray_ISNOTSWAPPED(array)) {
      converted = int64_copy(given, 2);
      array = reinterpret_cast<PyArrayObject*>(converted.ptr());
    }
    const bool from_unsigned = PyArray_DESCR(reinterpret_cast<PyArrayObject*>(given))->kind == 'u';
    for (std::size_t round = 0; round < rounds; ++round)
      make(op, round, false)
          .all(PyArray_BYTES(array) + static_cast<npy_intp>(round) * PyArray_STRIDE(array, 0),
               PyArray_STRIDE(array, 1), width, from_unsigned);
    return;
  }
  const py::object sequence = py::reinterpret_steal<py::object>(PySequence_Fast(given, op));
  if (!sequence) throw py::error_already_set();
  if (static_cast<std::size_t>(PySequence_Fast_GET_SIZE(sequence.ptr())) != rounds)
    throw py::value_error(fmt::format("{}: {} changed its length while it was read", op, what));
  PyObject** items = PySequence_Fast_ITEMS(sequence.ptr());
  for (std::size_t round = 0; round < rounds; ++round) {
    const std::string named = fmt::format("{}: round {}", op, round);
    for_each_lane(named.c_str(), what, items[round], width, make(named.c_str(), round, true));
  }
}

// The rounds' bases of the offsets form (warp.reads(bases, offsets=...)): a range, read without
// making its integers, a 1-D numpy array of integers or a sequence of integers.
class RoundBases {
 public:
  RoundBases(const char* op, PyObject* given);
  // warp.read(base, offsets=...), warp.write's: one round.
  explicit RoundBases(std::int64_t base) : range_{base, 1, 1} {}
  std::size_t size() const { return listed_ ? listed_->size() : range_.length; }
  std::int64_t operator[](std::size_t round) const {
    return listed_ ? (*listed_)[round] : range_.at(round);
  }

 private:
  IntegerRange range_;                               // a range's (or one base)
  std::optional<std::vector<std::int64_t>> listed_;  // an array's or a sequence's
};

RoundBases::RoundBases(const char* op, PyObject* given) {
  if (const std::optional<IntegerRange> range = integer_range(given)) {
    range_ = *range;
    return;
  }
  if (PyArray_Check(given)) {
    auto* array = reinterpret_cast<PyArrayObject*>(given);
    check_dtype(op, "a base", array, false);
    if (PyArray_NDIM(array) != 1)
      throw py::value_error(
          fmt::format("{}: bases of shape {} given: with offsets, expected one base per round, "
                      "one dimension",
                      op, shape_of(given)));
    const py::object ints = int64_copy(given, 1);
    const auto* data = static_cast<const std::int64_t*>(
        PyArray_DATA(reinterpret_cast<PyArrayObject*>(ints.ptr())));
    listed_.emplace(data, data + PyArray_DIM(array, 0));
    return;
  }
  if (!PySequence_Check(given) || PyUnicode_Check(given))
    throw py::type_error(
        fmt::format("{}: with offsets, expected each round's base as a range, a 1-D numpy array "
                    "or a list of integers, got {}",
                    op, text_of(given)));
  const py::object sequence = py::reinterpret_steal<py::object>(PySequence_Fast(given, op));
  if (!sequence) throw py::error_already_set();
  const Py_ssize_t count = PySequence_Fast_GET_SIZE(sequence.ptr());
  PyObject** items = PySequence_Fast_ITEMS(sequence.ptr());
  listed_.emplace(static_cast<std::size_t>(count));
  for (Py_ssize_t round = 0; round < count; ++round) {
    if (PyBool_Check(items[round]) || PyArray_IsScalar(items[round], Bool))
      throw py::type_error(fmt::format("{}: round {}: {} is not a base (an integer)", op, round,
                                       text_of(items[round])));
    (*listed_)[round] = integer_at(op, "round", round, "a base", items[round]);
  }
}

// The lanes' offsets of the offsets form: one integer per lane, as warp.read takes its lanes (a
// range, a list, a numpy array), none of them None.
struct LaneOffsets {
  std::vector<std::int64_t> lanes;
  std::int64_t low = 0;  // the smallest and the largest
  std::int64_t high = 0;
  bool run = false;  // lane i at lanes[0] + i: each round a run

  LaneOffsets(const char* op, PyObject* given, unsigned width);
};

struct OffsetTaker {
  static constexpr bool kBooleans = false;
  std::int64_t* out;
  void operator()(unsigned lane, std::int64_t offset) const { out[lane] = offset; }
  [[noreturn]] void inactive(const char* op, unsigned lane) const {
    throw py::type_error(fmt::format(
        "{}: lane {}: None is not an offset (every lane of the offsets form is active)", op, lane));
  }
  void all(const char* data, npy_intp stride, unsigned width, bool) const {
    copy_lanes(data, stride, width, reinterpret_cast<std::uint64_t*>(out));
  }
};

LaneOffsets::LaneOffsets(const char* op, PyObject* given, unsigned width) : lanes(width) {
  const std::optional<IntegerRange> range = integer_range(given);
  if (range && range->length == width) {
    for (unsigned lane = 0; lane < width; ++lane) lanes[lane] = range->at(lane);
  } else {
    for_each_lane(op, "an offset", given, width, OffsetTaker{lanes.data()});
  }
  if (width == 0) return;
  const auto [low_at, high_at] = std::minmax_element(lanes.begin(), lanes.end());
  low = *low_at;
  high = *high_at;
  run = high - low == static_cast<std::int64_t>(width) - 1 && lanes.front() == low &&
        std::adjacent_find(lanes.begin(), lanes.end(), [](std::int64_t a, std::int64_t b) {
          return b != a + 1;
        }) == lanes.end();
}

// The addresses of the offsets form, round t's lane i at bases[t] + offsets[i], into `table`:
// each round's first address (offsets.run) or its every lane. A round is checked from its
// smallest and largest offsets; one outside raises at its first lane outside.
void fill_from_bases(const char* op, const RoundBases& bases, const LaneOffsets& offsets,
                     std::uint64_t words, const char* space_name, bool rounds_named,
                     Address* table) {
  const std::size_t width = offsets.lanes.size();
  for (std::size_t round = 0; round < bases.size(); ++round) {
    const std::int64_t base = bases[round];
    std::int64_t low = 0;
    std::int64_t high = 0;
    const bool inside = !__builtin_add_overflow(base, offsets.low, &low) &&
                        !__builtin_add_overflow(base, offsets.high, &high) && low >= 0 &&
                        static_cast<std::uint64_t>(high) < words;
    if (!inside) {
      const AddressTaker taker{op, words, space_name, nullptr,
                               rounds_named ? static_cast<std::ptrdiff_t>(round) : -1};
      for (std::size_t lane = 0; lane < width; ++lane) {
        std::int64_t address = 0;
        if (__builtin_add_overflow(base, offsets.lanes[lane], &address))
          taker.outside(lane, fmt::format("{} + {}", base, offsets.lanes[lane]));
        if (address < 0 || static_cast<std::uint64_t>(address) >= words)
          taker.outside(lane, std::to_string(address));
      }
    }
    if (offsets.run) {
      table[round] = static_cast<Address>(low);
      continue;
    }
    Address* row = table + round * width;
    for (std::size_t lane = 0; lane < width; ++lane)
      row[lane] = static_cast<Address>(base + offsets.lanes[lane]);
  }
}

// The base of warp.read(base, offsets=...), warp.write's: an integer.
std::int64_t base_of(const char* op, PyObject* given) {
  if (!PyIndex_Check(given) || PyBool_Check(given) || PyArray_IsScalar(given, Bool))
    throw py::type_error(fmt::format("{}: with offsets, expected the base as an integer, got {}",
                                     op, text_of(given)));
  const std::optional<long long> base = index_value(given);
  if (!base)
    throw py::value_error(
        fmt::format("{}: the base {} does not fit a 64-bit word", op, text_of(given)));
  return *base;
}

// warp.read, warp.write: one warp instruction, from its lanes' addresses or (offsets given)
// from a base and each lane's offset.
py::object memory_instruction(PythonWarp& w, PythonInstruction::Kind kind, const char* op,
                              const MemoryArguments& arguments) {
  PyObject* addresses = arguments.addresses;
  PyObject* values = arguments.values;
  const unsigned width = w.warp().width();
  const bool has_values = values != nullptr && values != Py_None;
  const auto [where, words, space_name] = memory_space(op, w, arguments.space);
  // Lanes that are a run in range (a coalesced access, the usual case) keep their first
  // address alone: nothing to copy, and the MMU takes the run whole. A range of addresses, or
  // of offsets, shows it without a lane's look.
  std::optional<std::int64_t> base;
  std::optional<LaneOffsets> offsets;
  std::optional<Address> run_at;
  if (arguments.offsets != nullptr) {
    base = base_of(op, addresses);
    run_at = range_run(arguments.offsets, *base, width, words);
    if (!run_at) offsets.emplace(op, arguments.offsets, width);
  } else {
    run_at = range_run(addresses, 0, width, words);
  }
  const bool run =
      run_at ||
      (offsets
           ? offsets->run
           : lanes_in_place(addresses, 1) &&
                 PyArray_DIM(reinterpret_cast<PyArrayObject*>(addresses), 0) == npy_intp{width} &&
                 rows_are_runs(PyArray_BYTES(reinterpret_cast<PyArrayObject*>(addresses)), 0, width,
                               1, words));
  const std::size_t address_cells = run ? 1 : width;
  py::object object = new_instruction(w, kind, address_cells + (has_values ? width : 0));
  auto* in = reinterpret_cast<InstructionObject*>(object.ptr());
  in->space = where;
  in->lanes = width;
  in->runs = run;
  in->has_values = has_values;
  if (run_at)
    in->cells[0] = *run_at;
  else if (offsets)
    fill_from_bases(op, RoundBases(*base), *offsets, words, space_name, false, in->cells);
  else if (run)
    std::memcpy(in->cells, PyArray_BYTES(reinterpret_cast<PyArrayObject*>(addresses)),
                sizeof(Address));
  else
    for_each_lane(op, "an address", addresses, width,
                  AddressTaker{op, words, space_name, in->cells});
  // A value may be None only where its lane is inactive: in lanes that are not a run, given
  // as addresses.
  const bool inactive_lanes = !run && !offsets;
  if (has_values)
    for_each_lane(op, "a value", values, width,
                  ValueTaker{inactive_lanes ? reinterpret_cast<const Address*>(in->cells) : nullptr,
                             reinterpret_cast<Word*>(in->cells + address_cells)});
  return made(std::move(object));
}

// warp.reads, warp.writes: `rounds` warp instructions made at once, from a table of addresses
// or (offsets given) from each round's base and each lane's offset.
py::object batch_instruction(PythonWarp& w, PythonInstruction::Kind kind, const char* op,
                             const MemoryArguments& arguments) {
  PyObject* addresses = arguments.addresses;
  PyObject* values = arguments.values;
  const unsigned width = w.warp().width();
  const bool has_values = values != nullptr && values != Py_None;
  std::optional<RoundBases> bases;
  std::optional<LaneOffsets> offsets;
  if (arguments.offsets != nullptr) {
    bases.emplace(op, addresses);
    offsets.emplace(op, arguments.offsets, width);
  }
  const std::size_t rounds = bases ? bases->size() : rounds_of(op, "addresses", addresses, width);
  if (has_values) {
    const std::size_t given = rounds_of(op, "values", values, width);
    if (given != rounds)
      throw py::value_error(
          fmt::format("{}: {} rounds of values for {} rounds of addresses", op, given, rounds));
  }
  const auto [where, words, space_name] = memory_space(op, w, arguments.space);
  const std::size_t cells = rounds * width;
  const bool runs =
      offsets ? offsets->run
              : lanes_in_place(addresses, 2) &&
                    rows_are_runs(PyArray_BYTES(reinterpret_cast<PyArrayObject*>(addresses)),
                                  PyArray_STRIDE(reinterpret_cast<PyArrayObject*>(addresses), 0),
                                  width, rounds, words);
  const std::size_t address_cells = runs ? rounds : cells;
  py::object object = new_instruction(w, kind, address_cells + (has_values ? cells : 0));
  auto* in = reinterpret_cast<InstructionObject*>(object.ptr());
  in->space = where;
  in->lanes = width;
  in->rounds = rounds;
  in->batch = true;
  in->runs = runs;
  in->has_values = has_values;
  auto* table = reinterpret_cast<Address*>(in->cells);
  Word* value_cells = reinterpret_cast<Word*>(in->cells + address_cells);
  if (offsets) {
    fill_from_bases(op, *bases, *offsets, words, space_name, true, table);
  } else if (runs) {
    auto* array = reinterpret_cast<PyArrayObject*>(addresses);
    for (std::size_t round = 0; round < rounds; ++round)
      std::memcpy(table + round,
                  PyArray_BYTES(array) + static_cast<npy_intp>(round) * PyArray_STRIDE(array, 0),
                  sizeof(Address));
  } else {
    // An array's rounds are copied, then checked all at once (raising at the first round with
    // an address outside); a sequence's round by round.
    for_each_round(op, "an address", addresses, width, rounds,
                   [&](const char* round_op, std::size_t round, bool named) {
                     return AddressTaker{round_op,
                                         words,
                                         space_name,
                                         table + round * width,
                                         named ? -1 : static_cast<std::ptrdiff_t>(round),
                                         !named};
                   });
    if (PyArray_Check(addresses) && any_outside(table, cells, words)) {
      const bool from_unsigned =
          PyArray_DESCR(reinterpret_cast<PyArrayObject*>(addresses))->kind == 'u';
      for (std::size_t round = 0; round < rounds; ++round)
        AddressTaker{op, words, space_name, table + round * width,
                     static_cast<std::ptrdiff_t>(round)}
            .check(width, from_unsigned);
    }
  }
  // A value may be None only where its lane is inactive: in a table of addresses that is not
  // of runs (runs and the offsets form have every lane active).
  const bool inactive_lanes = !runs && !offsets;
  if (has_values)
    for_each_round(op, "a value", values, width, rounds, [&](const char*, std::size_t round, bool) {
      return ValueTaker{inactive_lanes ? table + round * width : nullptr,
                        value_cells + round * width};
    });
  return made(std::move(object));
}

// The deallocator of both types: objects of a heap type hold their type.
void free_object(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  type->tp_free(self);
  Py_DECREF(type);
}

// An instruction dropped without being yielded, while its warp's program runs, was forgotten:
// the warp says so at the program's next step.
void free_instruction(PyObject* self) {
  auto* in = reinterpret_cast<InstructionObject*>(self);
  if (in->unyielded && in->warp != nullptr) {
    if (PythonWarp* warp = reinterpret_cast<WarpObject*>(in->warp)->warp) warp->forgot(*in->site);
  }
  Py_XDECREF(in->warp);
  free_object(self);
}

// ---- the warp's methods and attributes --------------------------------------------------------

// warp.read, warp.write, warp.reads, warp.writes: the call's arguments bound by name (a read
// takes no values), then `Make` (memory_instruction or batch_instruction) makes the
// instruction(s).
template <auto Make>
PyObject* memory_method(PythonInstruction::Kind kind, const char* op, PyObject* self,
                        PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return python_call([&] {
    using A = MemoryArguments;
    static constexpr Parameter addresses{"addresses", &A::addresses};
    static constexpr Parameter values{"values", &A::values};
    static constexpr Parameter space{"space", &A::space};
    static constexpr Parameter offsets{"offsets", &A::offsets};
    const MemoryArguments a =
        kind == PythonInstruction::Kind::read
            ? bind_arguments(op, args, nargs, kwnames, std::array{addresses, space, offsets})
            : bind_arguments(op, args, nargs, kwnames,
                             std::array{addresses, values, space, offsets});
    if (a.addresses == nullptr)
      throw py::type_error(fmt::format("{}() missing its argument 'addresses'", op));
    return Make(warp_of(self), kind, op, a).release().ptr();
  });
}

PyObject* read(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return memory_method<memory_instruction>(PythonInstruction::Kind::read, "warp.read", self, args,
                                           nargs, kwnames);
}

PyObject* write(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return memory_method<memory_instruction>(PythonInstruction::Kind::write, "warp.write", self, args,
                                           nargs, kwnames);
}

PyObject* reads(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return memory_method<batch_instruction>(PythonInstruction::Kind::read, "warp.reads", self, args,
                                          nargs, kwnames);
}

PyObject* writes(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return memory_method<batch_instruction>(PythonInstruction::Kind::write, "warp.writes", self, args,
                                          nargs, kwnames);
}

PyObject* syncthreads(PyObject* self, PyObject*) {
  return python_call([&] {
    return made(new_instruction(warp_of(self), PythonInstruction::Kind::sync, 0)).release().ptr();
  });
}

PyObject* grid_sync(PyObject* self, PyObject*) {
  return python_call([&] {
    return made(new_instruction(warp_of(self), PythonInstruction::Kind::grid_sync, 0))
        .release()
        .ptr();
  });
}

unsigned lane_of(const char* op, PythonWarp& w, PyObject* lane) {
  if (!PyIndex_Check(lane))
    throw py::type_error(
        fmt::format("{}: expected a lane (an integer), got {}", op, text_of(lane)));
  const Py_ssize_t value = PyNumber_AsSsize_t(lane, PyExc_OverflowError);
  if (value == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (value < 0 || value >= static_cast<std::int64_t>(w.warp().width()))
    throw py::index_error(
        fmt::format("{}: lane {}: the warp's lanes are 0 .. {}", op, value, w.warp().width() - 1));
  return static_cast<unsigned>(value);
}

PyObject* thread(PyObject* self, PyObject* lane) {
  return python_call([&] {
    PythonWarp& w = warp_of(self);
    return PyLong_FromUnsignedLongLong(w.warp().thread(lane_of("warp.thread", w, lane)));
  });
}

PyObject* block_thread(PyObject* self, PyObject* lane) {
  return python_call([&] {
    PythonWarp& w = warp_of(self);
    return PyLong_FromUnsignedLongLong(
        w.warp().block_thread(lane_of("warp.block_thread", w, lane)));
  });
}

// A number of the warp's, as an attribute.
template <auto Get>
PyObject* number(PyObject* self, void*) {
  return python_call([&] {
    return PyLong_FromUnsignedLongLong(
        static_cast<unsigned long long>((warp_of(self).warp().*Get)()));
  });
}

// A numpy view of the words the warp owns (its registers, its local memory) for one use by
// mmsim._warp.WarpWords, which never hands it out: the words go with the warp.
PyObject* words_view(PyObject* owner, int dimensions, npy_intp* shape, Word* data, bool writable) {
  PyObject* view = PyArray_New(&PyArray_Type, dimensions, shape, NPY_INT64, nullptr, data, 0,
                               NPY_ARRAY_CARRAY, nullptr);
  if (view == nullptr) return nullptr;
  if (!writable) PyArray_CLEARFLAGS(reinterpret_cast<PyArrayObject*>(view), NPY_ARRAY_WRITEABLE);
  Py_INCREF(owner);
  if (PyArray_SetBaseObject(reinterpret_cast<PyArrayObject*>(view), owner) != 0) {
    Py_DECREF(view);
    return nullptr;
  }
  return view;
}

// warp._words("registers" or "local"): raises RuntimeError once the warp's program has ended.
PyObject* words(PyObject* self, PyObject* name) {
  return python_call([&] {
    Warp& warp = warp_of(self).warp();
    if (PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, "registers") == 0) {
      const std::span<Word> words = warp.registers();
      npy_intp shape[] = {static_cast<npy_intp>(words.size())};
      return words_view(self, 1, shape, words.data(), false);
    }
    npy_intp shape[] = {static_cast<npy_intp>(warp.width()),
                        static_cast<npy_intp>(warp.local_words())};
    return words_view(self, 2, shape, warp.local(0).data(), true);
  });
}

// warp.registers, warp.local: the words through mmsim._warp.WarpWords, checked at every use.
template <const char* Name>
PyObject* warp_words(PyObject* self, void*) {
  return python_call([&] {
    warp_of(self);
    return py::module_::import("mmsim._warp")
        .attr("WarpWords")(py::handle(self), Name)
        .release()
        .ptr();
  });
}
constexpr char kRegisters[] = "registers";
constexpr char kLocal[] = "local";

// warp.local = x: only what `warp.local += x` gives back (its own words, written in place).
int set_local(PyObject* self, PyObject* value, void*) {
  PyObject* owner = value != nullptr ? PyObject_GetAttrString(value, "_warp") : nullptr;
  PyErr_Clear();
  Py_XDECREF(owner);
  if (owner == self) return 0;
  PyErr_SetString(PyExc_AttributeError,
                  "warp.local cannot be replaced: write its words (warp.local[lane, word] = v)");
  return -1;
}

PyMethodDef warp_methods[] = {
    {"read", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(read)),
     METH_FASTCALL | METH_KEYWORDS,
     "read(addresses, space='global', offsets=None): read one address per lane (None: the lane "
     "is inactive; range(a, a + w): lanes a .. a + w - 1, without numpy), or with offsets (one "
     "per lane) lane i at addresses + offsets[i]; yield it to get the values"},
    {"write", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(write)),
     METH_FASTCALL | METH_KEYWORDS,
     "write(addresses, values=None, space='global', offsets=None): write one value per lane "
     "(default: each lane's register) to its address (with offsets: addresses + offsets[i])"},
    {"reads", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(reads)),
     METH_FASTCALL | METH_KEYWORDS,
     "reads(addresses, space='global', offsets=None): many reads at once, one warp instruction "
     "per round, issued one after the other as yielded reads would be: addresses rounds x lanes "
     "(a 2-D numpy array, or a list of rounds as read takes them), or with offsets (one per "
     "lane) each round's base, lane i of round t reading addresses[t] + offsets[i]; yield it to "
     "get the values of every round (a rounds x lanes array)"},
    {"writes", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(writes)),
     METH_FASTCALL | METH_KEYWORDS,
     "writes(addresses, values=None, space='global', offsets=None): many writes at once, one "
     "warp instruction per round, as yielded writes would be: addresses (or with offsets each "
     "round's base, as reads takes them) and values rounds x lanes (default: each lane's "
     "register)"},
    {"syncthreads", syncthreads, METH_NOARGS,
     "wait until every unfinished warp of the block is here"},
    {"grid_sync", grid_sync, METH_NOARGS,
     "wait until every unfinished warp of the machine is here"},
    {"thread", thread, METH_O, "thread(lane): the global thread number T of a lane"},
    {"block_thread", block_thread, METH_O,
     "block_thread(lane): a lane's thread number within its block"},
    {"_words", words, METH_O, "mmsim.WarpWords' access to the warp's words"},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef warp_attributes[] = {
    {"index", number<&Warp::index>, nullptr, "its number i: it runs threads i*w .. i*w + w - 1",
     nullptr},
    {"width", number<&Warp::width>, nullptr, "w, its lanes", nullptr},
    {"count", number<&Warp::count>, nullptr, "the machine's warps, p/w", nullptr},
    {"threads", number<&Warp::threads>, nullptr, "p, the machine's threads", nullptr},
    {"block", number<&Warp::block>, nullptr, "its block: the streaming multiprocessor it runs on",
     nullptr},
    {"blocks", number<&Warp::blocks>, nullptr, "blocks of the machine (flat machines: 1)", nullptr},
    {"block_warps", number<&Warp::block_warps>, nullptr, "warps per block", nullptr},
    {"warp_in_block", number<&Warp::warp_in_block>, nullptr, "its number within its block",
     nullptr},
    {"block_threads", number<&Warp::block_threads>, nullptr, "threads per block, p/d", nullptr},
    {"registers", warp_words<kRegisters>, nullptr,
     "each lane's register, what the last read returned (read-only; mmsim._warp.WarpWords)",
     nullptr},
    {"local", warp_words<kLocal>, set_local,
     "the local memory of each lane's PE, [lane, word] (writable; mmsim._warp.WarpWords)", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyTypeObject* make_type(PyType_Spec& spec) {
  PyObject* type = PyType_FromSpec(&spec);
  if (type == nullptr) throw py::error_already_set();
  return reinterpret_cast<PyTypeObject*>(type);
}

}  // namespace

bool instruction_of(PyObject* object, PythonInstruction& instruction) {
  if (Py_TYPE(object) != instruction_type) return false;
  auto* in = reinterpret_cast<InstructionObject*>(object);
  in->unyielded = false;
  instruction.warp = in->warp;
  instruction.warp_index = in->warp_index;
  instruction.kind = in->kind;
  instruction.space = in->space;
  instruction.site = in->site;
  instruction.batch = in->batch;
  instruction.runs = in->runs;
  instruction.rounds = in->rounds;
  instruction.lanes = in->lanes;
  const std::size_t cells = in->rounds * in->lanes;
  const std::size_t address_cells = in->runs ? in->rounds : cells;
  instruction.addresses = {reinterpret_cast<const Address*>(in->cells), address_cells};
  instruction.values =
      in->has_values
          ? std::span<const Word>(reinterpret_cast<const Word*>(in->cells + address_cells), cells)
          : std::span<const Word>();
  return true;
}

bool warp_ended(const PyObject* warp) {
  return reinterpret_cast<const WarpObject*>(warp)->warp == nullptr;
}

PythonWarp::PythonWarp(Warp& warp, const MemoryLimits& limits, PythonSites& sites,
                       ValueArrays& arrays)
    : warp_(warp), limits_(limits), sites_(sites), arrays_(arrays) {
  PyObject* object = warp_type->tp_alloc(warp_type, 0);
  if (object == nullptr) throw py::error_already_set();
  reinterpret_cast<WarpObject*>(object)->warp = this;
  object_ = py::reinterpret_steal<py::object>(object);
}

PythonWarp::~PythonWarp() { reinterpret_cast<WarpObject*>(object_.ptr())->warp = nullptr; }

namespace {
// Whether `spare` can be filled again as the int64 values of `lanes` lanes: nothing refers to it
// but the holder (no weak reference either, which would see it change), and it is still as it
// was made (a program may have reshaped it or changed its flags before it let go).
bool reusable(const py::object& spare, npy_intp lanes) {
  if (!spare || Py_REFCNT(spare.ptr()) != 1) return false;
  auto* array = reinterpret_cast<PyArrayObject*>(spare.ptr());
  return PyArray_NDIM(array) == 1 && PyArray_DIM(array, 0) == lanes &&
         PyArray_TYPE(array) == NPY_INT64 && PyArray_ISCARRAY(array) &&
         PyArray_CHKFLAGS(array, NPY_ARRAY_OWNDATA) &&
         reinterpret_cast<PyArrayObject_fields*>(array)->weakreflist == nullptr;
}

py::object new_int64_array(int dimensions, const npy_intp* dims) {
  PyObject* made = PyArray_SimpleNew(dimensions, const_cast<npy_intp*>(dims), NPY_INT64);
  if (made == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(made);
}
}  // namespace

py::object ValueArrays::values(std::span<const Word> got) {
  const npy_intp dims[] = {static_cast<npy_intp>(got.size())};
  py::object out;
  for (const py::object& spare : spare_) {
    if (reusable(spare, dims[0])) {
      out = spare;
      break;
    }
  }
  if (!out) {
    out = new_int64_array(1, dims);
    spare_[next_spare_] = out;
    next_spare_ = (next_spare_ + 1) % spare_.size();
  }
  std::memcpy(PyArray_DATA(reinterpret_cast<PyArrayObject*>(out.ptr())), got.data(),
              got.size_bytes());
  return out;
}

namespace {
// The block of rows' owner: a capsule that frees the block with its last reference.
constexpr const char* kRowsName = "mmsim.table_rows";
// A warp's slot in it: a capsule whose context is the block's owner, held while it lives.
constexpr const char* kSlotName = "mmsim.table_slot";

void free_rows(PyObject* capsule) {
  delete static_cast<HugePageArray<Word>*>(PyCapsule_GetPointer(capsule, kRowsName));
}

void free_slot(PyObject* capsule) {
  Py_XDECREF(static_cast<PyObject*>(PyCapsule_GetContext(capsule)));
}

py::object capsule(void* pointer, const char* name, PyCapsule_Destructor destructor) {
  PyObject* made = PyCapsule_New(pointer, name, destructor);
  if (made == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(made);
}

// Whether `table`, which nothing refers to but the slot, is still the view of `rounds` rows at
// `data` it was made (a program may have reshaped it or changed its flags before it let go).
bool intact_view(const py::object& table, std::size_t rounds, unsigned width, const Word* data,
                 std::size_t row_words) {
  if (!table || Py_REFCNT(table.ptr()) != 1) return false;
  auto* array = reinterpret_cast<PyArrayObject*>(table.ptr());
  return PyArray_NDIM(array) == 2 && PyArray_DIM(array, 0) == static_cast<npy_intp>(rounds) &&
         PyArray_DIM(array, 1) == static_cast<npy_intp>(width) &&
         PyArray_STRIDE(array, 0) == static_cast<npy_intp>(row_words * sizeof(Word)) &&
         PyArray_STRIDE(array, 1) == static_cast<npy_intp>(sizeof(Word)) &&
         PyArray_DATA(array) == data && PyArray_TYPE(array) == NPY_INT64 &&
         PyArray_ISWRITEABLE(array) && PyArray_ISALIGNED(array) &&
         reinterpret_cast<PyArrayObject_fields*>(array)->weakreflist == nullptr;
}
}  // namespace

void ValueArrays::make_rows(std::size_t warps, unsigned width) {
  // Rows for batches of up to 64 rounds, fewer where that would pass 256 MiB; only the pages
  // that batches fill become resident (HugePageArray).
  constexpr std::size_t kMostRows = 64;
  constexpr std::size_t kMostBytes = std::size_t{256} << 20;
  row_words_ = warps * width;
  capacity_ = std::clamp<std::size_t>(kMostBytes / (row_words_ * sizeof(Word)), 1, kMostRows);
  auto block = std::make_unique<HugePageArray<Word>>(capacity_ * row_words_);
  rows_data_ = block->data();
  rows_ = capsule(block.get(), kRowsName, free_rows);
  block.release();
}

py::object ValueArrays::table(PythonWarp& w, std::size_t rounds, TableRows& rows) {
  // Rows of more than this many bytes in all are written past the caches: more than a core's
  // second-level cache holds, they would leave it before the program reads them.
  constexpr std::size_t kStreamBytes = std::size_t{4} << 20;
  const unsigned width = w.warp().width();
  if (!rows_) make_rows(w.warp().count(), width);
  TableSlot& slot = w.table_slot();
  if (!slot.owner) {
    slot.owner = capsule(rows_data_ + w.warp().index() * std::size_t{width}, kSlotName, free_slot);
    if (PyCapsule_SetContext(slot.owner.ptr(), Py_NewRef(rows_.ptr())) != 0)
      throw py::error_already_set();
  }
  // Free when only the slot and its last table (itself let go of) refer to the owner.
  const Py_ssize_t holders = 1 + (slot.last ? 1 : 0);
  const bool free =
      Py_REFCNT(slot.owner.ptr()) == holders && (!slot.last || Py_REFCNT(slot.last.ptr()) == 1);
  if (rounds <= capacity_ && free) {
    auto* data = static_cast<Word*>(PyCapsule_GetPointer(slot.owner.ptr(), kSlotName));
    // Whole cache lines per row: the block starts on a huge page, a warp's row on a line.
    rows = {data, row_words_, rounds * row_words_ * sizeof(Word) > kStreamBytes && width % 8 == 0};
    if (intact_view(slot.last, rounds, width, data, row_words_)) return slot.last;
    slot.last = py::object();
    npy_intp dims[] = {static_cast<npy_intp>(rounds), static_cast<npy_intp>(width)};
    npy_intp strides[] = {static_cast<npy_intp>(row_words_ * sizeof(Word)),
                          static_cast<npy_intp>(sizeof(Word))};
    PyObject* view = PyArray_New(&PyArray_Type, 2, dims, NPY_INT64, strides, data, 0,
                                 NPY_ARRAY_ALIGNED | NPY_ARRAY_WRITEABLE, nullptr);
    if (view == nullptr) throw py::error_already_set();
    slot.last = py::reinterpret_steal<py::object>(view);
    if (PyArray_SetBaseObject(reinterpret_cast<PyArrayObject*>(view),
                              Py_NewRef(slot.owner.ptr())) != 0)
      throw py::error_already_set();
    return slot.last;
  }
  const npy_intp dims[] = {static_cast<npy_intp>(rounds), static_cast<npy_intp>(width)};
  py::object own = new_int64_array(2, dims);
  rows = {static_cast<Word*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(own.ptr()))), width,
          false};
  return own;
}

void TableRows::fill(std::size_t round, std::span<const Word> values) const {
  Word* row = cells + round * row_words;
#if defined(__SSE2__)
  if (stream) {  // four 16-byte stores fill a line, which is then written without being read
    for (std::size_t i = 0; i < values.size(); i += 2)
      _mm_stream_si128(reinterpret_cast<__m128i*>(row + i),
                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(values.data() + i)));
    return;
  }
#endif
  std::copy(values.begin(), values.end(), row);
}

void TableRows::done() const {
#if defined(__SSE2__)
  if (stream) _mm_sfence();
#endif
}

namespace {
std::uint64_t code_key(const void* code, int n) {
  return reinterpret_cast<std::uintptr_t>(code) * 0x9E3779B97F4A7C15ull ^
         static_cast<std::uint64_t>(n);
}
}  // namespace

const Site& PythonSites::current() {
  static const Site unknown{.file = "", .line = 0, .label = "python"};
  PyFrameObject* frame = PyEval_GetFrame();  // borrowed; a generator's stays made
  if (frame == nullptr) return unknown;
  PyCodeObject* raw_code = PyFrame_GetCode(frame);
  Py_DECREF(raw_code);  // the frame holds it
  auto* code = reinterpret_cast<PyObject*>(raw_code);
  const int offset = PyFrame_GetLasti(frame);
  if (last_.code == code && last_.offset == offset) return last_.place->site;
  const std::uint64_t key = code_key(code, offset);
  if (const auto it = by_offset_.find(key);
      it != by_offset_.end() && it->second.code == code && it->second.offset == offset) {
    last_ = it->second;
    return last_.place->site;
  }
  Place& found = place(py::reinterpret_borrow<py::object>(code), PyFrame_GetLineNumber(frame));
  last_ = by_offset_[key] = Seen{code, offset, &found};
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
  place.site =
      Site{.file = place.file, .line = static_cast<std::uint32_t>(line), .label = place.label};
  by_line_[key] = &place;
  return place;
}

void bind_warp(py::module_& module) {
  if (_import_array() < 0) throw py::error_already_set();
  static PyType_Slot warp_slots[] = {
      {Py_tp_doc,
       const_cast<char*>("One warp of the machine, as its program's run(warp) sees it: its place "
                         "(index, width, count, threads, block, ...), its words (registers, "
                         "local) and the instructions it yields (read, write, reads, writes, "
                         "syncthreads, grid_sync). It is its program's while the program runs: "
                         "kept beyond, it raises RuntimeError.")},
      {Py_tp_methods, warp_methods},
      {Py_tp_getset, warp_attributes},
      {Py_tp_dealloc, reinterpret_cast<void*>(free_object)},
      {0, nullptr}};
  static PyType_Spec warp_spec{"mmsim._core.Warp", sizeof(WarpObject), 0,
                               Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, warp_slots};
  static PyType_Slot instruction_slots[] = {
      {Py_tp_doc, const_cast<char*>("A warp instruction: yield it (warp.read(...), ...)")},
      {Py_tp_dealloc, reinterpret_cast<void*>(free_instruction)},
      {0, nullptr}};
  static PyType_Spec instruction_spec{
      "mmsim._core.Instruction", static_cast<int>(offsetof(InstructionObject, cells)),
      sizeof(std::uint64_t), Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION,
      instruction_slots};
  warp_type = make_type(warp_spec);
  instruction_type = make_type(instruction_spec);
  module.add_object("Warp", reinterpret_cast<PyObject*>(warp_type));
  module.add_object("Instruction", reinterpret_cast<PyObject*>(instruction_type));
}

}  // namespace mmsim
