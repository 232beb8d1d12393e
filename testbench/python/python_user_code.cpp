#include "testbench/python/python_user_code.hpp"

#include <pybind11/stl.h>

#include <optional>
#include <tuple>

namespace mmsim {
namespace py = pybind11;
namespace {

int interrupts_raise = 0;  // InterruptsRaise alive

ParamType param_type(const std::string& name) {
  if (name == "boolean") return ParamType::boolean;
  if (name == "integer") return ParamType::integer;
  if (name == "string") return ParamType::string;
  return ParamType::integer_list;
}

py::module_ program_module() { return py::module_::import("mmsim._program"); }

// Runs `f`, which imports code's file (mmsim._program): its errors located in the testbench.
template <class F>
auto importing(const ExternalProgram& code, const F& f) -> decltype(f()) {
  try {
    return f();
  } catch (py::error_already_set& e) {
    rethrow_if_interrupt_or_input(e);
    if (e.matches(PyExc_LookupError))
      throw InputError(code.name_where,
                       name_key(code) + ": " + py::str(e.value()).cast<std::string>());
    throw InputError(code.file_where, file_key(code) + ": " + code.file.string() +
                                          " cannot be imported:\n" + traceback_text(e));
  }
}

}  // namespace

InterruptsRaise::InterruptsRaise() { ++interrupts_raise; }
InterruptsRaise::~InterruptsRaise() { --interrupts_raise; }
bool InterruptsRaise::active() { return interrupts_raise > 0; }

std::string traceback_text(py::error_already_set& e) {
  // An error raised by a call itself (its arguments do not fit) has no traceback.
  const py::object trace = e.trace() ? e.trace() : py::none();
  const py::list lines =
      py::module_::import("traceback").attr("format_exception")(e.type(), e.value(), trace);
  std::string text;
  for (const py::handle line : lines) text += line.cast<std::string>();
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

void rethrow_if_interrupt_or_input(py::error_already_set& e) {
  if (InterruptsRaise::active() && e.matches(PyExc_KeyboardInterrupt)) throw e;
  if (e.matches(py::module_::import("mmsim").attr("InputError"))) {
    const py::object error = e.value();
    throw InputError({py::str(error.attr("file")), error.attr("line").cast<int>(),
                      error.attr("column").cast<int>()},
                     py::str(error.attr("message")));
  }
}

py::object load_user_class(const ExternalProgram& code, const py::object& base) {
  return importing(code, [&] {
    return program_module().attr("load_class")(code.file.string(), code.name, base);
  });
}

py::dict user_classes(const ExternalProgram& code, const py::object& base) {
  return importing(code, [&] {
    return program_module().attr("classes")(code.file.string(), base).cast<py::dict>();
  });
}

std::vector<ParamSpec> declared_params(const py::object& cls, const ExternalProgram& code) {
  std::vector<ParamSpec> out;
  try {
    for (const py::handle param : program_module().attr("declared_params")(cls)) {
      const auto [name, type, help, default_value] = param.cast<
          std::tuple<std::string, std::string, std::string, std::optional<std::string>>>();
      out.push_back(
          {.name = name, .type = param_type(type), .help = help, .default_value = default_value});
    }
  } catch (py::error_already_set& e) {
    rethrow_if_interrupt_or_input(e);
    throw InputError(code.name_where, name_key(code) + ": reading " +
                                          py::str(cls.attr("__name__")).cast<std::string>() +
                                          ".params raised an exception:\n" + traceback_text(e));
  }
  return out;
}

std::string class_summary(const py::object& cls) {
  const py::object doc = cls.attr("__doc__");
  if (doc.is_none()) return "";
  const std::string text = py::str(doc);
  return text.substr(0, text.find('\n'));
}

std::string short_repr(const py::handle& value) {
  std::string text = py::repr(value).cast<std::string>();
  return text.size() > 200 ? text.substr(0, 200) + "..." : text;
}

py::object param_object(const ParamValues& values, const ParamSpec& spec) {
  switch (spec.type) {
    case ParamType::integer:
      return py::int_(values.integer(spec.name));
    case ParamType::boolean:
      return py::bool_(values.boolean(spec.name));
    case ParamType::string:
      return py::str(values.string(spec.name));
    case ParamType::integer_list:
      return py::cast(values.integers(spec.name));
  }
  return py::none();
}

}  // namespace mmsim
