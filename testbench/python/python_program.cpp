#include "testbench/python/python_program.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "hw/machine/machine_models.hpp"
#include "sw/program/program_error.hpp"
#include "sw/support/suggest.hpp"
#include "testbench/python/python_warp.hpp"

namespace mmsim {
namespace py = pybind11;
namespace {

// A Python exception as the user reads it: the traceback (their files and lines), the error.
std::string traceback_text(py::error_already_set& e) {
  const py::list lines =
      py::module_::import("traceback").attr("format_exception")(e.type(), e.value(), e.trace());
  std::string text;
  for (const py::handle line : lines) text += line.cast<std::string>();
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// Calls into the user's class: mmsim.ParamError becomes the parameter's error (located in the
// testbench by the runner), any other exception the program's failure, with its traceback.
template <class... Args>
py::object call(const py::object& instance, const char* method, Args&&... args) {
  try {
    return instance.attr(method)(std::forward<Args>(args)...);
  } catch (py::error_already_set& e) {
    if (e.matches(py::module_::import("mmsim").attr("ParamError")))
      throw ParamError(py::str(e.value().attr("param")).cast<std::string>(),
                       py::str(e.value().attr("message")).cast<std::string>());
    throw ProgramError(fmt::format("{}.{} raised an exception:\n{}",
                                   py::str(py::type::of(instance).attr("__name__"))
                                       .cast<std::string>(),
                                   method, traceback_text(e)));
  }
}

std::uint64_t words_of(const py::object& value, const char* method) {
  if (!PyIndex_Check(value.ptr()) || value.cast<std::int64_t>() < 0)
    throw ProgramError(fmt::format("{}() returned {}: expected a number of words (an integer >= 0)",
                                   method, py::repr(value).cast<std::string>()));
  return value.cast<std::uint64_t>();
}

// The machine as a program sees it in configure, memory_words, bounds: its keys as attributes.
py::object machine_view(const MachineConfig& m) {
  py::dict keys;
  keys["model"] = m.model;
  keys["width"] = m.width;
  keys["latency"] = m.latency;
  keys["threads"] = m.threads;
  keys["warps"] = m.warps();
  keys["super_warp"] = m.super_warp;
  keys["dispatch"] = m.dispatch;
  keys["seed"] = m.seed;
  keys["memory"] = m.memory_words;
  keys["local_memory"] = m.local_words;
  keys["multiprocessors"] = m.multiprocessors;
  keys["shared_memory"] = m.shared.words;
  keys["global_width"] = m.global_words_per_group();
  return py::module_::import("types").attr("SimpleNamespace")(**keys);
}

// initialize(memory) and verify(memory): the global memory, cell by cell or by slices.
class PythonMemory {
 public:
  PythonMemory(const Mmu& memory, Mmu* writable) : memory_(memory), writable_(writable) {}
  std::uint64_t size() const { return memory_.words(); }
  Word get(std::int64_t a) const { return memory_.peek(address(a)); }
  void set(std::int64_t a, std::int64_t value) { mutable_memory().poke(address(a), value); }
  py::array_t<Word> get_slice(const py::slice& slice) const {
    const auto [start, stop, step, count] = cells(slice);
    py::array_t<Word> out(static_cast<py::ssize_t>(count));
    auto o = out.mutable_unchecked<1>();
    for (std::size_t i = 0; i < count; ++i)
      o(static_cast<py::ssize_t>(i)) =
          memory_.peek(static_cast<Address>(start + static_cast<py::ssize_t>(i) * step));
    return out;
  }
  void set_slice(const py::slice& slice, const py::array_t<Word, py::array::forcecast>& values) {
    const auto [start, stop, step, count] = cells(slice);
    if (values.ndim() != 1 || static_cast<std::size_t>(values.size()) != count)
      throw py::value_error(
          fmt::format("memory[{}:{}]: {} values for {} cells", start, stop, values.size(), count));
    const auto v = values.unchecked<1>();
    Mmu& memory = mutable_memory();
    for (std::size_t i = 0; i < count; ++i)
      memory.poke(static_cast<Address>(start + static_cast<py::ssize_t>(i) * step),
                  v(static_cast<py::ssize_t>(i)));
  }

 private:
  struct Cells {
    py::ssize_t start, stop, step;
    std::size_t count;
  };
  Cells cells(const py::slice& slice) const {
    py::ssize_t start = 0, stop = 0, step = 0, count = 0;
    if (PySlice_GetIndicesEx(slice.ptr(), static_cast<py::ssize_t>(size()), &start, &stop, &step,
                             &count) != 0)
      throw py::error_already_set();
    return {start, stop, step, static_cast<std::size_t>(count)};
  }
  Address address(std::int64_t a) const {
    if (a < 0 || static_cast<std::uint64_t>(a) >= size())
      throw py::index_error(fmt::format("memory[{}]: outside the memory of {} words", a, size()));
    return static_cast<Address>(a);
  }
  Mmu& mutable_memory() {
    if (writable_ == nullptr) throw py::type_error("the memory is read-only in verify()");
    return *writable_;
  }
  const Mmu& memory_;
  Mmu* writable_;
};

// check(got, expected, what): one element of the program's own verification.
class PythonVerification {
 public:
  explicit PythonVerification(Verification& verification) : verification_(verification) {}
  void check(const py::object& got, const py::object& expected, const std::string& what) {
    if (got.equal(expected)) {
      verification_.passed(1);
      return;
    }
    verification_.fail(fmt::format("{}: got {}, expected {}", what.empty() ? "check" : what,
                                   py::repr(got).cast<std::string>(),
                                   py::repr(expected).cast<std::string>()));
  }
  // `passed` elements right and `failed` wrong, the first of them described by `first`.
  void record(std::uint64_t passed, std::uint64_t failed, const std::string& first) {
    verification_.passed(passed);
    for (std::uint64_t i = 0; i < failed; ++i) verification_.fail(first);
  }

 private:
  Verification& verification_;
};

Bound::Kind bound_kind(const std::string& kind) {
  if (kind == "lower") return Bound::Kind::lower;
  if (kind == "upper") return Bound::Kind::upper;
  if (kind == "exact") return Bound::Kind::exact;
  if (kind == "order") return Bound::Kind::order;
  throw ProgramError("mmsim.Bound: kind '" + kind + "': expected lower, upper, exact or order");
}

Bound::Measure bound_measure(const std::string& measure) {
  constexpr Bound::Measure all[] = {Bound::Measure::cycles,        Bound::Measure::stages,
                                    Bound::Measure::syncthreads,   Bound::Measure::global_stages,
                                    Bound::Measure::shared_stages, Bound::Measure::grid_syncs};
  for (const Bound::Measure m : all)
    if (measure == to_string(m)) return m;
  throw ProgramError("mmsim.Bound: measure '" + measure + "': expected cycles, stages, ...");
}

class PythonProgram final : public WarpProgram {
 public:
  explicit PythonProgram(py::object instance) : instance_(std::move(instance)) {
    instance_.attr("_verification") = py::cast(PythonVerification(verification()));
  }

  std::uint64_t default_threads(const MachineConfig& machine) const override {
    const py::object threads = call(instance_, "default_threads", machine_view(machine));
    return threads.is_none() ? 0 : words_of(threads, "default_threads");
  }

  void configure(const MachineConfig& m) override {
    machine_ = machine_view(m);
    call(instance_, "configure", machine_);
    words_ = words_of(call(instance_, "memory_words", machine_), "memory_words");
    shared_ = words_of(call(instance_, "shared_words", machine_), "shared_words");
    local_ = words_of(call(instance_, "local_words", machine_), "local_words");
    // What the runner resolves next (runner.cpp): the memory the machine gets.
    limits_.global = m.memory_words != 0 ? m.memory_words : words_;
    limits_.shared = !machine_model(m).hierarchical ? 0
                     : m.shared.words != 0          ? m.shared.words
                                                    : std::max<std::uint64_t>(shared_, 1);
  }
  std::uint64_t memory_words() const override { return words_; }
  std::uint64_t shared_words() const override { return shared_; }
  std::uint64_t local_words() const override { return local_; }

  void initialize(Mmu& memory) override {
    call(instance_, "initialize", py::cast(PythonMemory(memory, &memory)));
  }

  void verify(const Mmu& memory) override {
    try {
      instance_.attr("verify")(py::cast(PythonMemory(memory, nullptr)));
    } catch (py::error_already_set& e) {
      if (!e.matches(PyExc_AssertionError)) throw ProgramError(traceback_text(e));
      verification().fail("verify: " + traceback_text(e));
    }
  }

  std::vector<Bound> bounds(const MachineConfig& m, const RunResult& result) const override {
    py::dict measured;
    measured["cycles"] = result.cycles();
    measured["dispatches"] = result.counters.dispatches;
    measured["stages"] = result.counters.stages;
    measured["requests"] = result.counters.requests;
    measured["syncthreads"] = result.syncthreads;
    measured["grid_syncs"] = result.grid_syncs;
    std::vector<Bound> out;
    for (const py::handle b : call(instance_, "bounds", machine_view(m), measured)) {
      Bound bound;
      bound.key = py::str(b.attr("key"));
      bound.label = py::str(b.attr("label"));
      bound.formula = py::str(b.attr("formula"));
      bound.value = b.attr("value").cast<double>();
      bound.kind = bound_kind(py::str(b.attr("kind")));
      bound.measure = bound_measure(py::str(b.attr("measure")));
      bound.source = py::str(b.attr("source"));
      out.push_back(std::move(bound));
    }
    return out;
  }

  Task run(Warp& warp) override {
    PythonWarp handle(warp, limits_, sites_);
    const py::object generator = call(instance_, "run", handle.object());
    if (!PyGen_Check(generator.ptr()))
      throw ProgramError(fmt::format("{}.run(warp) returned {}: it must be a generator (yield "
                                     "warp.read(...), warp.write(...), ...)",
                                     class_name(), py::repr(generator).cast<std::string>()));
    py::object sent = py::none();
    PythonInstruction in;
    for (;;) {
      PyObject* raw = nullptr;
      const PySendResult step = PyIter_Send(generator.ptr(), sent.ptr(), &raw);
      // Held while its instruction is issued: the instruction's lanes live in it.
      const py::object yielded = py::reinterpret_steal<py::object>(raw);
      if (step == PYGEN_RETURN) break;
      if (step == PYGEN_ERROR) {
        py::error_already_set e;
        throw ProgramError(fmt::format("{}.run raised an exception in warp {}:\n{}", class_name(),
                                       warp.index(), traceback_text(e)));
      }
      if (!instruction_of(yielded.ptr(), in))
        throw ProgramError(fmt::format("{}: {}.run yielded {}, not an instruction (yield "
                                       "warp.read(...), warp.write(...), warp.syncthreads() or "
                                       "warp.grid_sync())",
                                       where(generator), class_name(),
                                       py::repr(yielded).cast<std::string>()));
      switch (in.kind) {
        case PythonInstruction::Kind::read:
          sent = handle.values(co_await warp.read(in.addresses, in.space, *in.site));
          break;
        case PythonInstruction::Kind::write:
          if (in.values.empty())
            co_await warp.write(in.addresses, in.space, *in.site);
          else
            co_await warp.write(in.addresses, in.values, in.space, *in.site);
          sent = py::none();
          break;
        case PythonInstruction::Kind::sync:
          co_await warp.sync(*in.site);
          sent = py::none();
          break;
        case PythonInstruction::Kind::grid_sync:
          co_await warp.grid_sync(*in.site);
          sent = py::none();
          break;
      }
    }
  }

 private:
  std::string class_name() const {
    return py::str(py::type::of(instance_).attr("__name__")).cast<std::string>();
  }
  // file:line of a generator's frame at its yield.
  static std::string where(const py::object& generator) {
    const py::object frame = generator.attr("gi_frame");
    if (frame.is_none()) return "run";
    return fmt::format("{}:{}", py::str(frame.attr("f_code").attr("co_filename")).cast<std::string>(),
                       frame.attr("f_lineno").cast<int>());
  }

  py::object instance_;
  py::object machine_ = py::none();
  std::uint64_t words_ = 0;
  std::uint64_t shared_ = 0;
  std::uint64_t local_ = 0;
  MemoryLimits limits_;
  PythonSites sites_;  // its instructions point at them until the run ends
};

ParamType param_type(const py::handle& type, const std::string& name) {
  const py::module_ builtins = py::module_::import("builtins");
  if (type.is(builtins.attr("bool"))) return ParamType::boolean;
  if (type.is(builtins.attr("int"))) return ParamType::integer;
  if (type.is(builtins.attr("str"))) return ParamType::string;
  if (type.is(builtins.attr("list"))) return ParamType::integer_list;
  throw InputError({}, "parameter " + name + ": type " + py::repr(type).cast<std::string>() +
                           ": expected int, bool, str or list (of integers)");
}

// A parameter's value as Python gets it.
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

}  // namespace

std::shared_ptr<const ProgramInfo> load_python_program(const ExternalProgram& program) {
  py::object cls;
  try {
    cls = py::module_::import("mmsim._program")
              .attr("load_class")(program.file.string(), program.name);
  } catch (py::error_already_set& e) {
    if (e.matches(PyExc_LookupError))
      throw InputError(program.name_where,
                       "program.class: " + py::str(e.value()).cast<std::string>());
    throw InputError(program.file_where, "program.file: " + program.file.string() +
                                             " cannot be imported:\n" + traceback_text(e));
  }
  auto info = std::make_shared<ProgramInfo>();
  info->name = program.name;
  info->source = program.file.string();
  const py::object doc = cls.attr("__doc__");
  if (!doc.is_none()) {
    const std::string text = py::str(doc);
    info->summary = text.substr(0, text.find('\n'));
  }
  try {
    for (const auto& [name, param] : cls.attr("params").cast<py::dict>()) {
      ParamSpec spec{.name = py::str(name),
                     .type = param_type(param.attr("type"), py::str(name)),
                     .help = py::str(param.attr("doc")),
                     .default_value = std::nullopt};
      if (!param.attr("required").cast<bool>())
        spec.default_value = py::str(param.attr("yaml_default")).cast<std::string>();
      info->params.push_back(std::move(spec));
    }
  } catch (const InputError& e) {
    throw InputError(program.name_where, "program.class: " + program.name + ": " + e.what());
  }
  info->make = [cls, params = info->params](const ProgramArgs& args) {
    const py::object instance = call(cls, "__call__");
    for (const ParamSpec& spec : params)
      instance.attr(spec.name.c_str()) = param_object(args.params, spec);
    return std::unique_ptr<WarpProgram>(std::make_unique<PythonProgram>(instance));
  };
  return info;
}

void bind_program_support(py::module_& module) {
  py::class_<PythonMemory>(module, "Memory",
                           "The global memory in initialize (writable) and verify (read-only): "
                           "memory[a], memory[a:b] (numpy arrays)")
      .def("__len__", &PythonMemory::size)
      .def("__getitem__", &PythonMemory::get)
      .def("__getitem__", &PythonMemory::get_slice)
      .def("__setitem__", &PythonMemory::set)
      .def("__setitem__", &PythonMemory::set_slice);
  py::class_<PythonVerification>(module, "Verification")
      .def("check", &PythonVerification::check)
      .def("record", &PythonVerification::record);
}

}  // namespace mmsim
