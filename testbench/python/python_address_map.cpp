#include "testbench/python/python_address_map.hpp"

#include <pybind11/stl.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "testbench/input/own_maps.hpp"
#include "testbench/python/python_own_code.hpp"

namespace mmsim {
namespace py = pybind11;
namespace {

// The native integer formats of the buffer protocol (numpy's arrays), by their code.
bool signed_format(char code) {
  return std::string_view("bhilqn").find(code) != std::string_view::npos;
}
bool unsigned_format(char code) {
  return std::string_view("BHILQN").find(code) != std::string_view::npos;
}

// A native integer as a bank: an unsigned word past 2^63 is no bank (-1 says so to the check).
template <class T>
std::int64_t as_bank(T value) {
  if constexpr (std::is_same_v<T, std::uint64_t>)
    return value <= std::uint64_t{INT64_MAX} ? static_cast<std::int64_t>(value) : -1;
  else
    return static_cast<std::int64_t>(value);
}

// The rows x w integers of type T that `view` holds (its strides in bytes) into `banks`.
template <class T>
void copy_cells(const Py_buffer& view, std::size_t rows, std::size_t w,
                std::span<std::int64_t> banks) {
  const char* base = static_cast<const char*>(view.buf);
  const Py_ssize_t row_stride = view.ndim == 2 ? view.strides[0] : 0;
  const Py_ssize_t column_stride = view.strides[view.ndim - 1];
  for (std::size_t r = 0; r < rows; ++r) {
    const char* p = base + static_cast<Py_ssize_t>(r) * row_stride;
    std::int64_t* out = &banks[r * w];
    for (std::size_t k = 0; k < w; ++k, p += column_stride) {
      T value;
      std::memcpy(&value, p, sizeof value);
      out[k] = as_bank(value);
    }
  }
}

template <class Signed, class Unsigned>
void copy_as(bool is_signed, const Py_buffer& view, std::size_t rows, std::size_t w,
             std::span<std::int64_t> banks) {
  if (is_signed)
    copy_cells<Signed>(view, rows, w, banks);
  else
    copy_cells<Unsigned>(view, rows, w, banks);
}

// The buffer of a Python object (a numpy array), held until released: the table reads the
// cells of a block where they lie, so the block's array is held until the next call.
class HeldBuffer {
 public:
  HeldBuffer() = default;
  HeldBuffer(const HeldBuffer&) = delete;
  HeldBuffer& operator=(const HeldBuffer&) = delete;
  ~HeldBuffer() { release(); }

  // Holds the buffer of `value` (false: it exports none).
  bool hold(PyObject* value) {
    release();
    if (PyObject_GetBuffer(value, &view_, PyBUF_RECORDS_RO) != 0) {
      PyErr_Clear();
      return false;
    }
    held_ = true;
    return true;
  }
  const Py_buffer& view() const { return view_; }
  void release() {
    if (held_) PyBuffer_Release(&view_);
    held_ = false;
  }

 private:
  Py_buffer view_{};
  bool held_ = false;
};

// A buffer of native integers (a numpy array) as banks: one row of w banks (`rows` 0: one
// dimension) or `rows` x w. None when `value` is no buffer of integers; else `problem` says
// what is wrong with its shape, or stays empty and the cells are returned: where they lie
// when they are 64-bit integers in row-major order (`buffer` holds the array), else copied
// into `banks`. Either way no Python object is made per cell.
std::optional<std::span<const std::int64_t>> read_buffer(PyObject* value, std::size_t rows,
                                                         std::size_t w,
                                                         std::span<std::int64_t> banks,
                                                         std::string& problem,
                                                         HeldBuffer& buffer) {
  if (!PyObject_CheckBuffer(value) || !buffer.hold(value)) return std::nullopt;
  const Py_buffer& view = buffer.view();
  const std::string_view format = view.format ? view.format : "B";
  const std::string_view code = format.starts_with('@') ? format.substr(1) : format;
  if (code.size() != 1 || (!signed_format(code[0]) && !unsigned_format(code[0]))) {
    buffer.release();
    return std::nullopt;  // read item by item (and refused there if it holds no integers)
  }
  const std::vector<Py_ssize_t> shape(view.shape, view.shape + view.ndim);
  if (rows == 0 && (view.ndim != 1 || shape[0] != static_cast<Py_ssize_t>(w))) {
    problem = view.ndim == 1 ? fmt::format("{} banks, expected w = {}", shape[0], w)
                             : fmt::format("an array of shape ({}), expected ({},)",
                                           fmt::join(shape, ", "), w);
    return banks;
  }
  if (rows != 0 && (view.ndim != 2 || shape[0] != static_cast<Py_ssize_t>(rows) ||
                    shape[1] != static_cast<Py_ssize_t>(w))) {
    problem = fmt::format("an array of shape ({}{}), expected ({}, {}): count x w",
                          fmt::join(shape, ", "), view.ndim == 1 ? "," : "", rows, w);
    return banks;
  }
  const std::size_t n = std::max<std::size_t>(rows, 1);
  const bool is_signed = signed_format(code[0]);
  if (is_signed && view.itemsize == 8 && PyBuffer_IsContiguous(&view, 'C'))
    return std::span(static_cast<const std::int64_t*>(view.buf), n * w);
  switch (view.itemsize) {
    case 1:
      copy_as<std::int8_t, std::uint8_t>(is_signed, view, n, w, banks);
      break;
    case 2:
      copy_as<std::int16_t, std::uint16_t>(is_signed, view, n, w, banks);
      break;
    case 4:
      copy_as<std::int32_t, std::uint32_t>(is_signed, view, n, w, banks);
      break;
    default:
      copy_as<std::int64_t, std::uint64_t>(is_signed, view, n, w, banks);
  }
  buffer.release();
  return banks;
}

// A list, tuple or other sequence of integers read into `banks`; `problem` says what is wrong.
void read_sequence(PyObject* value, std::span<std::int64_t> banks, std::string& problem) {
  if (PyUnicode_Check(value) || PyBytes_Check(value) || !PySequence_Check(value)) {
    problem = "expected a list or a numpy array of w = " + std::to_string(banks.size()) + " banks";
    return;
  }
  const py::object items = py::reinterpret_steal<py::object>(PySequence_Fast(value, ""));
  if (!items) throw py::error_already_set();
  const Py_ssize_t size = PySequence_Fast_GET_SIZE(items.ptr());
  if (size != static_cast<Py_ssize_t>(banks.size())) {
    problem = fmt::format("{} banks, expected w = {}", size, banks.size());
    return;
  }
  PyObject** item = PySequence_Fast_ITEMS(items.ptr());
  for (std::size_t k = 0; k < banks.size(); ++k) {
    int overflow = 0;
    if (PyLong_CheckExact(item[k])) {  // most are: no conversion
      const long long bank = PyLong_AsLongLongAndOverflow(item[k], &overflow);
      banks[k] = overflow != 0 ? -1 : bank;
      continue;
    }
    if (PyBool_Check(item[k]) || !PyIndex_Check(item[k])) {
      problem = fmt::format("column {}'s bank {} is not an integer", k, short_repr(item[k]));
      return;
    }
    const py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(item[k]));
    if (!index) throw py::error_already_set();
    const long long bank = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    banks[k] = overflow != 0 ? -1 : bank;  // -1: outside every row, as the check will say
  }
}

// One row's w banks: a numpy array, a list or a tuple (in `banks`, or where they lie).
std::span<const std::int64_t> read_row(PyObject* value, std::span<std::int64_t> banks,
                                       std::string& problem, HeldBuffer& buffer) {
  if (!PyList_CheckExact(value) && !PyTuple_CheckExact(value))
    if (const auto cells = read_buffer(value, 0, banks.size(), banks, problem, buffer))
      return *cells;
  read_sequence(value, banks, problem);
  return banks;
}

// The banks of rows first .. first + count - 1: a count x w numpy array, or a list of rows.
std::span<const std::int64_t> read_block(PyObject* value, std::uint64_t first,
                                         std::uint64_t count, std::span<std::int64_t> banks,
                                         std::string& problem, HeldBuffer& buffer) {
  const std::size_t w = banks.size() / count;
  if (const auto cells = read_buffer(value, count, w, banks, problem, buffer)) return *cells;
  if (PyUnicode_Check(value) || PyBytes_Check(value) || !PySequence_Check(value)) {
    problem = fmt::format("expected a count x w = {} x {} numpy array, or a list of {} rows", count,
                          w, count);
    return banks;
  }
  const py::object rows = py::reinterpret_steal<py::object>(PySequence_Fast(value, ""));
  if (!rows) throw py::error_already_set();
  const Py_ssize_t size = PySequence_Fast_GET_SIZE(rows.ptr());
  if (size != static_cast<Py_ssize_t>(count)) {
    problem = fmt::format("{} rows, expected count = {}", size, count);
    return banks;
  }
  PyObject** row = PySequence_Fast_ITEMS(rows.ptr());
  for (std::uint64_t i = 0; i < count && problem.empty(); ++i) {
    const std::span<std::int64_t> mine = banks.subspan(i * w, w);
    const std::span<const std::int64_t> cells = read_row(row[i], mine, problem, buffer);
    if (cells.data() != mine.data()) std::ranges::copy(cells, mine.begin());
    buffer.release();
    if (!problem.empty()) problem = fmt::format("row {}: {}", first + i, problem);
  }
  return banks;
}

py::object address_map_class() {
  return py::module_::import("mmsim._address_map").attr("AddressMap");
}

// A Python map's rows: its banks_block(first, count) for blocks of kBlockRows rows where the
// class gives one, else its banks(row) for each row. Called as the rows are first needed,
// through the C API (no pybind11 conversions): what they return is read by read_block and
// read_row.
class PythonRows final : public RowSource {
 public:
  static constexpr std::uint64_t kBlockRows = 1024;

  PythonRows(const py::object& instance, std::string name, OwnCodeRef ref)
      : name_(std::move(name)), ref_(std::move(ref)) {
    blocks_ =
        !py::type::of(instance).attr("banks_block").is(address_map_class().attr("banks_block"));
    method_ = instance.attr(blocks_ ? "banks_block" : "banks");
    // file:line of the method, for what is wrong with what it returns.
    const py::object function = py::getattr(method_, "__func__", py::none());
    const py::object code = py::getattr(function, "__code__", py::none());
    place_ = code.is_none()
                 ? ref_.code.file.string()
                 : fmt::format("{}:{}", py::str(code.attr("co_filename")).cast<std::string>(),
                               code.attr("co_firstlineno").cast<int>());
  }

  std::string name() const override { return name_; }
  std::uint64_t block_rows() const override { return blocks_ ? kBlockRows : 1; }

  std::span<const std::int64_t> banks(std::uint64_t first, std::uint64_t count,
                                      std::span<std::int64_t> banks) override {
    buffer_.release();  // the last block's array, read by now
    first_ = first;
    count_ = count;
    PyObject* result = call(first, count);
    if (result == nullptr) {
      py::error_already_set e;
      rethrow_if_interrupt_or_input(e);
      throw InputError(ref_.where, fmt::format("{}: {} raised an exception:\n{}", ref_.key,
                                               call_text(), traceback_text(e)));
    }
    returned_ = py::reinterpret_steal<py::object>(result);
    std::string problem;
    const std::span<const std::int64_t> cells =
        blocks_ ? read_block(result, first, count, banks, problem, buffer_)
                : read_row(result, banks, problem, buffer_);
    if (!problem.empty())
      throw InputError(ref_.where, fmt::format("{}: {}: {} returned {}: {}", ref_.key, place_,
                                               call_text(), short_repr(returned_), problem));
    return cells;
  }

  [[noreturn]] void refuse(std::uint64_t row, std::span<const std::int64_t> banks,
                           const std::string& problem) override {
    if (!blocks_)
      throw InputError(ref_.where, fmt::format("{}: {}: {} returned {}: {}", ref_.key, place_,
                                               call_text(), short_repr(returned_), problem));
    std::string written = fmt::format("[{}]", fmt::join(banks, ", "));
    if (written.size() > 200) written = written.substr(0, 200) + "...";
    throw InputError(ref_.where, fmt::format("{}: {}: {} returned row {} as {}: {}", ref_.key,
                                             place_, call_text(), row, written, problem));
  }

 private:
  // The user's method on (first, count) or (row): what it returned, or nullptr (it raised).
  PyObject* call(std::uint64_t first, std::uint64_t count) const {
    const py::object row = py::reinterpret_steal<py::object>(PyLong_FromUnsignedLongLong(first));
    if (!blocks_) return row ? PyObject_CallOneArg(method_.ptr(), row.ptr()) : nullptr;
    const py::object rows = py::reinterpret_steal<py::object>(PyLong_FromUnsignedLongLong(count));
    PyObject* args[] = {row.ptr(), rows.ptr()};
    return row && rows ? PyObject_Vectorcall(method_.ptr(), args, 2, nullptr) : nullptr;
  }

  // The last call, as the user would write it (made only for an error).
  std::string call_text() const {
    return blocks_ ? fmt::format("{}.banks_block({}, {})", name_, first_, count_)
                   : fmt::format("{}.banks({})", name_, first_);
  }

  bool blocks_ = false;
  py::object method_;    // the instance's bound banks_block or banks
  py::object returned_;  // what it returned last
  HeldBuffer buffer_;    // its array while the table reads it
  std::uint64_t first_ = 0;
  std::uint64_t count_ = 0;
  std::string name_;
  std::string place_;
  OwnCodeRef ref_;
};

// An instance of `cls` with what mmsim sets before the first call: width, rows, seed, params.
py::object map_instance(const py::object& cls, const std::vector<ParamSpec>& params,
                        const MapArgs& args) {
  py::object instance = cls();
  instance.attr("width") = args.width;
  instance.attr("rows") = args.rows;
  instance.attr("seed") = args.seed;
  for (const ParamSpec& spec : params)
    instance.attr(spec.name.c_str()) = param_object(args.params, spec);
  return instance;
}

std::shared_ptr<const OwnMapCode> code_of(const py::object& cls, const OwnCodeRef& ref) {
  const std::shared_ptr<OwnMapCode> code = python_code<OwnMapCode>(cls, ref);
  code->rows = [cls, name = code->name, params = code->params](const MapArgs& args,
                                                               const OwnCodeRef& at) {
    return constructed(at, name, [&]() -> std::unique_ptr<RowSource> {
      return std::make_unique<PythonRows>(map_instance(cls, params, args), name, at);
    });
  };
  return code;
}

}  // namespace

void bind_address_maps(py::module_& module) {
  bind_own_code(module, map_loaders(), address_map_class, code_of, "own_address_maps", "map");
}

}  // namespace mmsim
