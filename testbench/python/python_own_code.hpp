// What the Python adapters of code of one's own share, whatever its kind (an address map, a
// dispatch policy): the loader that finds a class deriving the kind's base class in a file (or
// lists them all), the located error of a class whose construction raises, and the module's
// listing of a file's or library's code (mmsim.address_maps(file=...), mmsim.policies(...)):
// a kind binds itself in one call (bind_own_code).
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "testbench/input/own_code.hpp"
#include "testbench/python/python_user_code.hpp"

namespace mmsim {

// The loader of Python code of a kind whose classes derive base() (mmsim.AddressMap), each
// made into a Code by code_of.
template <class Code>
OwnCodeLoader<Code> python_loader(
    pybind11::object (*base)(),
    std::shared_ptr<const Code> (*code_of)(const pybind11::object& cls, const OwnCodeRef& ref)) {
  return {.load =
              [base, code_of](const OwnCodeRef& ref) {
                return code_of(load_user_class(ref.code, base()), ref);
              },
          .list =
              [base, code_of](const OwnCodeRef& ref) {
                std::vector<std::shared_ptr<const Code>> out;
                for (const auto& entry : user_classes(ref.code, base()))
                  out.push_back(
                      code_of(pybind11::reinterpret_borrow<pybind11::object>(entry.second), ref));
                return out;
              }};
}

// A Code of `cls` with what every kind has: its name, description (the docstring's first line),
// source (its file) and declared params.
template <class Code>
std::shared_ptr<Code> python_code(const pybind11::object& cls, const OwnCodeRef& ref) {
  auto code = std::make_shared<Code>();
  code->name = pybind11::str(cls.attr("__name__")).cast<std::string>();
  code->source = ref.code.file.string();
  code->description = class_summary(cls);
  code->params = declared_params(cls, ref.code);
  return code;
}

// Calls make() (the user's class constructed), its Python exception the user's error located at
// `at`: "machine.dispatch: Name() raised an exception:" and the traceback.
template <class Make>
auto constructed(const OwnCodeRef& at, const std::string& name, Make&& make) {
  try {
    return make();
  } catch (pybind11::error_already_set& e) {
    rethrow_if_interrupt_or_input(e);
    throw InputError(at.where, fmt::format("{}: {}() raised an exception:\n{}", at.key, name,
                                           traceback_text(e)));
  }
}

// Registers the loader of the Python code of `loaders`' kind (classes deriving base(), each
// made into a Code by code_of) and binds `function`(kind, path) in `module`: (name, doc,
// source, params: (name, type, default or None, doc)) of each `noun` of a Python file (kind
// "python") or a plugin library ("library").
template <class Code>
void bind_own_code(pybind11::module_& module, OwnCodeLoaders<Code>& loaders,
                   pybind11::object (*base)(),
                   std::shared_ptr<const Code> (*code_of)(const pybind11::object& cls,
                                                          const OwnCodeRef& ref),
                   const char* function, const std::string& noun) {
  loaders.add(ExternalProgram::Kind::python, python_loader(base, code_of));
  module.def(
      function,
      [&loaders, noun](const std::string& kind, const std::string& path) {
        const bool python = kind == "python";
        const OwnCodeRef ref =
            listing_ref(python, path, python ? "file" : "library", {path, 0, 0}, noun);
        pybind11::list out;
        for (const auto& code : loaders.of(ref).list(ref)) {
          pybind11::list params;
          for (const ParamSpec& p : code->params)
            params.append(pybind11::make_tuple(p.name, to_string(p.type),
                                               pybind11::cast(p.default_value), p.help));
          out.append(pybind11::make_tuple(code->name, code->description, code->source, params));
        }
        return out;
      },
      pybind11::arg("kind"), pybind11::arg("file"));
}

}  // namespace mmsim
