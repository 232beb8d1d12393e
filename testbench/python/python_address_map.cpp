#include "testbench/python/python_address_map.hpp"

#include <pybind11/stl.h>

#include <fmt/format.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "testbench/input/own_maps.hpp"
#include "testbench/python/python_user_code.hpp"

namespace mmsim {
namespace py = pybind11;
namespace {

// repr(value), cut short.
std::string short_repr(const py::handle& value) {
  std::string text = py::repr(value).cast<std::string>();
  if (text.size() > 200) text = text.substr(0, 200) + "...";
  return text;
}

// The native integer formats of the buffer protocol (numpy's arrays), by their code.
bool signed_format(char code) {
  return std::string_view("bhilqn").find(code) != std::string_view::npos;
}
bool unsigned_format(char code) {
  return std::string_view("BHILQN").find(code) != std::string_view::npos;
}

// One native integer of `size` bytes at `p`.
std::int64_t integer_at(const char* p, Py_ssize_t size, bool is_signed) {
  switch (size) {
    case 1:
      return is_signed ? *reinterpret_cast<const std::int8_t*>(p)
                       : *reinterpret_cast<const std::uint8_t*>(p);
    case 2:
      return is_signed ? *reinterpret_cast<const std::int16_t*>(p)
                       : *reinterpret_cast<const std::uint16_t*>(p);
    case 4:
      return is_signed ? *reinterpret_cast<const std::int32_t*>(p)
                       : *reinterpret_cast<const std::uint32_t*>(p);
    default: {
      const std::uint64_t u = *reinterpret_cast<const std::uint64_t*>(p);
      // An unsigned word past 2^63 is no bank: -1 says so to the check.
      return is_signed || u <= std::uint64_t{INT64_MAX} ? static_cast<std::int64_t>(u) : -1;
    }
  }
}

// A one-dimensional buffer of native integers (a numpy array) read into `banks`: true when it
// is one (`problem` then says what is wrong with it, or stays empty).
bool read_buffer(PyObject* value, std::span<std::int64_t> banks, std::string& problem) {
  if (!PyObject_CheckBuffer(value)) return false;
  Py_buffer view;
  if (PyObject_GetBuffer(value, &view, PyBUF_RECORDS_RO) != 0) {
    PyErr_Clear();
    return false;
  }
  const std::unique_ptr<Py_buffer, void (*)(Py_buffer*)> release(&view, PyBuffer_Release);
  const std::string_view format = view.format ? view.format : "B";
  const std::string_view code = format.starts_with('@') ? format.substr(1) : format;
  if (view.ndim != 1 || code.size() != 1 || (!signed_format(code[0]) && !unsigned_format(code[0])))
    return false;  // read item by item below (and refused there if it is no list of integers)
  if (view.shape[0] != static_cast<Py_ssize_t>(banks.size())) {
    problem = fmt::format("{} banks, expected w = {}", view.shape[0], banks.size());
    return true;
  }
  const char* p = static_cast<const char*>(view.buf);
  for (std::size_t k = 0; k < banks.size(); ++k, p += view.strides[0])
    banks[k] = integer_at(p, view.itemsize, signed_format(code[0]));
  return true;
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

class PythonRows final : public RowSource {
 public:
  PythonRows(py::object instance, std::string name, OwnMapRef ref)
      : banks_(instance.attr("banks")), name_(std::move(name)), ref_(std::move(ref)) {
    // file:line of banks, for what is wrong with what it returns.
    const py::object function = py::getattr(banks_, "__func__", py::none());
    const py::object code = py::getattr(function, "__code__", py::none());
    place_ = code.is_none()
                 ? ref_.code.file.string()
                 : fmt::format("{}:{}", py::str(code.attr("co_filename")).cast<std::string>(),
                               code.attr("co_firstlineno").cast<int>());
  }

  std::string name() const override { return name_; }

  // Called once per row the run needs: the C API, without pybind11's conversions.
  void banks(std::uint64_t row, std::span<std::int64_t> banks) override {
    const py::object index = py::reinterpret_steal<py::object>(PyLong_FromUnsignedLongLong(row));
    PyObject* result = index ? PyObject_CallOneArg(banks_.ptr(), index.ptr()) : nullptr;
    if (result == nullptr) {
      py::error_already_set e;
      rethrow_if_interrupt_or_input(e);
      throw InputError(ref_.where, fmt::format("{}: {}.banks({}) raised an exception:\n{}",
                                               ref_.key, name_, row, traceback_text(e)));
    }
    returned_ = py::reinterpret_steal<py::object>(result);
    std::string problem;
    if (PyList_CheckExact(result) || PyTuple_CheckExact(result) ||
        !read_buffer(result, banks, problem))
      read_sequence(result, banks, problem);
    if (!problem.empty()) refuse(row, banks, problem);
  }

  [[noreturn]] void refuse(std::uint64_t row, std::span<const std::int64_t>,
                           const std::string& problem) override {
    throw InputError(ref_.where, fmt::format("{}: {}: {}.banks({}) returned {}: {}", ref_.key,
                                             place_, name_, row, short_repr(returned_), problem));
  }

 private:
  py::object banks_;     // the instance's bound method
  py::object returned_;  // what it returned last
  std::string name_;
  std::string place_;
  OwnMapRef ref_;
};

py::object address_map_class() {
  return py::module_::import("mmsim._address_map").attr("AddressMap");
}

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

std::shared_ptr<const OwnMapCode> code_of(const py::object& cls, const OwnMapRef& ref) {
  auto code = std::make_shared<OwnMapCode>();
  code->name = py::str(cls.attr("__name__")).cast<std::string>();
  code->source = ref.code.file.string();
  code->description = class_summary(cls);
  code->params = declared_params(cls, ref.code);
  code->rows = [cls, name = code->name, params = code->params](
                   const MapArgs& args, const OwnMapRef& at) -> std::unique_ptr<RowSource> {
    try {
      return std::make_unique<PythonRows>(map_instance(cls, params, args), name, at);
    } catch (py::error_already_set& e) {
      rethrow_if_interrupt_or_input(e);
      throw InputError(at.where, fmt::format("{}: {}() raised an exception:\n{}", at.key, name,
                                             traceback_text(e)));
    }
  };
  return code;
}

std::shared_ptr<const OwnMapCode> load_python_map(const OwnMapRef& ref) {
  return code_of(load_user_class(ref.code, address_map_class()), ref);
}

std::vector<std::shared_ptr<const OwnMapCode>> list_python_maps(const OwnMapRef& ref) {
  std::vector<std::shared_ptr<const OwnMapCode>> out;
  for (const auto& entry : user_classes(ref.code, address_map_class()))
    out.push_back(code_of(py::reinterpret_borrow<py::object>(entry.second), ref));
  return out;
}

// The maps of a Python file (kind "python") or a plugin library ("library"): name, doc, source,
// params (name, type, default, doc).
py::list own_address_maps(const std::string& kind, const std::string& file) {
  OwnMapRef ref;
  ref.key = kind == "python" ? "file" : "library";
  ref.code.key = ref.key;
  ref.code.noun = "map";
  ref.code.in_short = true;
  ref.code.kind = kind == "python" ? ExternalProgram::Kind::python : ExternalProgram::Kind::library;
  std::error_code error;
  ref.code.file = std::filesystem::absolute(file, error).lexically_normal();
  ref.code.file_where = ref.code.name_where = ref.where = {file, 0, 0};
  py::list out;
  for (const auto& code : map_loader(ref).list(ref)) {
    py::list params;
    for (const ParamSpec& p : code->params)
      params.append(py::make_tuple(p.name, to_string(p.type), p.default_value, p.help));
    out.append(py::make_tuple(code->name, code->description, code->source, params));
  }
  return out;
}

}  // namespace

void bind_address_maps(py::module_& module) {
  register_map_loader(ExternalProgram::Kind::python, {load_python_map, list_python_maps});
  module.def("own_address_maps", &own_address_maps, py::arg("kind"), py::arg("file"));
}

}  // namespace mmsim
