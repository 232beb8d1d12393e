#include "testbench/python/python_program.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "sw/program/program_error.hpp"
#include "sw/support/suggest.hpp"
#include "testbench/input/testbench_schema.hpp"
#include "testbench/python/python_user_code.hpp"
#include "testbench/python/python_warp.hpp"

namespace mmsim {
namespace py = pybind11;
namespace {

// machine.local_memory's limit, which a program's own figure must keep as well.
constexpr std::uint64_t kMaxLocalWords = std::uint64_t{1} << 20;

py::object program_module() { return py::module_::import("mmsim._program"); }

// A Python exception from the user's code (or from what it returned, checked by mmsim._program)
// as the simulator's error: mmsim.ParamError the parameter's (located in the testbench by the
// runner), mmsim.InputError where it says, a Mistake its own located message, anything else the
// program's failure with its traceback under `what`.
[[noreturn]] void rethrow_python(py::error_already_set& e, const std::string& what) {
  rethrow_if_interrupt_or_input(e);
  if (e.matches(py::module_::import("mmsim").attr("ParamError")))
    throw ParamError(py::str(e.value().attr("param")).cast<std::string>(),
                     py::str(e.value().attr("message")).cast<std::string>());
  if (e.matches(program_module().attr("Mistake"))) throw ProgramError(py::str(e.value()));
  throw ProgramError(what + " raised an exception:\n" + traceback_text(e));
}

std::string class_name(const py::handle& instance) {
  return py::str(py::type::of(instance).attr("__name__")).cast<std::string>();
}

// Runs `f`, which calls the user's code or reads what it returned: any Python error, or a
// pybind11 cast of an object that does not fit, becomes the simulator's error (never a C++
// exception that nothing catches).
template <class F>
auto guarded(const std::string& what, const F& f) -> decltype(f()) {
  try {
    return f();
  } catch (py::error_already_set& e) {
    rethrow_python(e, what);
  } catch (const py::builtin_exception& e) {  // a cast_error among them
    throw ProgramError(what + ": " + e.what());
  }
}

// Calls a method of the user's class; its errors stay Python's, but for a TypeError with no
// traceback: the call itself raised it (the method's def takes other arguments), located at
// that def.
template <class... Args>
py::object method_call(const py::object& instance, const char* method, Args&&... args) {
  try {
    return instance.attr(method)(std::forward<Args>(args)...);
  } catch (py::error_already_set& e) {
    if (e.trace() || !e.matches(PyExc_TypeError)) throw;
    const py::object site = program_module().attr("method_site")(instance, method);
    throw ProgramError(py::str(program_module().attr("_at")(site)).cast<std::string>() + ": " +
                       class_name(instance) + "." + method + ": " +
                       py::str(e.value()).cast<std::string>());
  }
}

// Calls a method of the user's class, its errors the simulator's.
template <class... Args>
py::object call(const py::object& instance, const char* method, Args&&... args) {
  return guarded(class_name(instance) + "." + method,
                 [&] { return method_call(instance, method, std::forward<Args>(args)...); });
}

// What a method returned, checked by mmsim._program's `checker` (a located error if it does
// not fit).
template <class... Args>
py::object checked(const char* checker, Args&&... args) {
  return guarded(checker,
                 [&] { return program_module().attr(checker)(std::forward<Args>(args)...); });
}

// The machine's quantities (machine_quantities) as attributes named by their keys below
// `machine`, a dot an underscore (machine.shared.memory: shared_memory); `prefix` is that of
// the mapping `quantities` lies in.
void add_quantities(py::dict& attributes, const nlohmann::ordered_json& quantities,
                    const std::string& prefix) {
  for (const auto& [key, value] : quantities.items()) {
    const std::string name = prefix + key;
    if (value.is_object())
      add_quantities(attributes, value, name + "_");
    else if (value.is_string())
      attributes[py::str(name)] = value.get<std::string>();
    else
      attributes[py::str(name)] = value.get<std::uint64_t>();
  }
}

// The machine as a program sees it in configure, memory_words, bounds: the quantities of its
// keys as attributes, the hierarchical machine's on every model, and its warp count.
py::object machine_view(const MachineConfig& m) {
  py::dict attributes;
  add_quantities(attributes, machine_quantities(m, QuantityKeys::every_model), "");
  attributes["warps"] = m.warps();
  return py::module_::import("types").attr("SimpleNamespace")(**attributes);
}

// initialize(memory) and verify(memory): the global memory, cell by cell or by slices, while
// the call runs (kept beyond, it raises RuntimeError: the memory goes with its run).
class PythonMemory {
 public:
  PythonMemory(const Mmu& memory, Mmu* writable) : memory_(&memory), writable_(writable) {}
  void end() {
    memory_ = nullptr;
    writable_ = nullptr;
  }
  std::uint64_t size() const { return memory().words(); }
  Word get(std::int64_t a) const { return memory().peek(address(a)); }
  void set(std::int64_t a, std::int64_t value) { mutable_memory().poke(address(a), value); }
  py::array_t<Word> get_slice(const py::slice& slice) const {
    const auto [start, stop, step, count] = cells(slice);
    py::array_t<Word> out(static_cast<py::ssize_t>(count));
    auto o = out.mutable_unchecked<1>();
    for (std::size_t i = 0; i < count; ++i)
      o(static_cast<py::ssize_t>(i)) =
          memory().peek(static_cast<Address>(start + static_cast<py::ssize_t>(i) * step));
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
  const Mmu& memory() const {
    if (memory_ == nullptr)
      throw std::runtime_error(
          "this memory was initialize()'s or verify()'s: it is gone once the call returns");
    return *memory_;
  }
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
    memory();
    if (writable_ == nullptr) throw py::type_error("the memory is read-only in verify()");
    return *writable_;
  }
  const Mmu* memory_;
  Mmu* writable_;
};

// check(got, expected, what): one element of the program's own verification.
class PythonVerification {
 public:
  explicit PythonVerification(Verification& verification) : verification_(&verification) {}
  // The run has ended: check() raises from now on.
  void end() { verification_ = nullptr; }
  void check(const py::object& got, const py::object& expected, const std::string& what) {
    if (got.equal(expected)) {
      verification().passed(1);
      return;
    }
    verification().fail(fmt::format("{}: got {}, expected {}", what.empty() ? "check" : what,
                                    py::repr(got).cast<std::string>(),
                                    py::repr(expected).cast<std::string>()));
  }
  // `passed` elements right and `failed` wrong, the first of them described by `first`.
  void record(std::uint64_t passed, std::uint64_t failed, const std::string& first) {
    verification().passed(passed);
    for (std::uint64_t i = 0; i < failed; ++i) verification().fail(first);
  }

 private:
  Verification& verification() {
    if (verification_ == nullptr)
      throw std::runtime_error("this program's run has ended: check() belongs in its run");
    return *verification_;
  }
  Verification* verification_;
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

// The memory a call of initialize or verify gets, ended when the call returns.
struct MemoryCall {
  explicit MemoryCall(PythonMemory memory) : object(py::cast(std::move(memory))) {}
  ~MemoryCall() { object.cast<PythonMemory&>().end(); }
  MemoryCall(const MemoryCall&) = delete;
  MemoryCall& operator=(const MemoryCall&) = delete;
  py::object object;
};

class PythonProgram final : public WarpProgram {
 public:
  explicit PythonProgram(py::object instance) : instance_(std::move(instance)) {
    // Past the class's own __setattr__: mmsim's attribute, not the user's.
    if (PyObject_GenericSetAttr(instance_.ptr(), py::str("_verification").ptr(), checks_.ptr()) !=
        0)
      throw py::error_already_set();
    program_module().attr("program_started")();
  }
  ~PythonProgram() override {
    checks_.cast<PythonVerification&>().end();
    try {
      program_module().attr("program_ended")();
    } catch (py::error_already_set&) {  // only if Python itself is failing: nothing to undo
    }
  }
  PythonProgram(const PythonProgram&) = delete;
  PythonProgram& operator=(const PythonProgram&) = delete;

  std::uint64_t default_threads(const MachineConfig& machine) const override {
    const py::object threads = call(instance_, "default_threads", machine_view(machine));
    return checked("threads", instance_, threads).cast<std::uint64_t>();
  }

  void configure(const MachineConfig& m) override {
    machine_ = machine_view(m);
    call(instance_, "configure", machine_);
    words_ = words("memory_words", kMaxMemoryWords, "the limit of 2^32 words (machine.memory)");
    shared_ =
        words("shared_words", kMaxMemoryWords, "the limit of 2^32 words (machine.shared.memory)");
    local_ = words("local_words", kMaxLocalWords,
                   "the limit of 2^20 words per PE (machine.local_memory)");
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
    const MemoryCall view(PythonMemory(memory, &memory));
    call(instance_, "initialize", view.object);
  }

  void verify(const Mmu& memory) override {
    const MemoryCall view(PythonMemory(memory, nullptr));
    guarded(class_name(instance_) + ".verify", [&] {
      try {
        method_call(instance_, "verify", view.object);
      } catch (py::error_already_set& e) {
        if (!e.matches(PyExc_AssertionError)) throw;
        verification().fail("verify: " + traceback_text(e));
      }
    });
  }

  std::vector<Bound> bounds(const MachineConfig& m, const RunResult& result) const override {
    py::dict measured;
    measured["cycles"] = result.cycles();
    measured["dispatches"] = result.counters.dispatches;
    measured["stages"] = result.counters.stages;
    measured["requests"] = result.counters.requests;
    measured["syncthreads"] = result.syncthreads;
    measured["grid_syncs"] = result.grid_syncs;
    const py::object returned = call(instance_, "bounds", machine_view(m), measured);
    std::vector<Bound> out;
    for (const py::handle b : checked("bounds", instance_, returned)) {
      const auto [key, label, formula, value, kind, measure, source] =
          b.cast<std::tuple<std::string, std::string, std::string, double, std::string, std::string,
                            std::string>>();
      out.push_back({.key = key,
                     .label = label,
                     .formula = formula,
                     .value = value,
                     .kind = bound_kind(kind),
                     .measure = bound_measure(measure),
                     .source = source});
    }
    return out;
  }

  Task run(Warp& warp) override {
    const std::string name = class_name(instance_);
    // Python's own errors below (a values array that cannot be made) are the program's too.
    try {
      PythonWarp handle(warp, limits_, sites_, arrays_);
      const py::object generator = call(instance_, "run", handle.object());
      if (!PyGen_Check(generator.ptr()))
        throw ProgramError(
            fmt::format("{}.run(warp) returned {}: it must be a generator (yield "
                        "warp.read(...), warp.write(...), ...)",
                        name, py::repr(generator).cast<std::string>()));
      py::object sent = py::none();
      py::object thrown;  // an error raised at the generator's yield instead of a value sent
      PythonInstruction in;
      for (;;) {
        PyObject* raw = nullptr;
        const PySendResult step = thrown ? throw_into(generator, thrown, &raw)
                                         : PyIter_Send(generator.ptr(), sent.ptr(), &raw);
        thrown = py::object();
        // Let go of what was sent: an array the program drops is then free for the next read's
        // values (ValueArrays).
        sent = py::object();
        // Held while its instruction is issued: the instruction's lanes live in it.
        const py::object yielded = py::reinterpret_steal<py::object>(raw);
        if (step == PYGEN_ERROR) {
          py::error_already_set e;
          rethrow_python(e, fmt::format("{}.run in warp {}", name, warp.index()));
        }
        // What the step dropped unyielded (a `yield` left out) is gone by now: CPython frees
        // an object when its last reference goes, and a finished generator's frame with it.
        if (const Site* site = handle.forgotten())
          throw ProgramError(fmt::format(
              "{}:{}: an instruction made here in warp {} was never yielded, so it never ran: "
              "yield it (values = yield warp.read(...), yield warp.write(...))",
              site->file, site->line, warp.index()));
        if (step == PYGEN_RETURN) break;
        if (!instruction_of(yielded.ptr(), in))
          throw ProgramError(
              fmt::format("{}: {}.run yielded {}, not an instruction (yield "
                          "warp.read(...), warp.write(...), warp.syncthreads() or "
                          "warp.grid_sync())",
                          where(generator), name, py::repr(yielded).cast<std::string>()));
        if (in.warp != handle.object().ptr()) {
          thrown = foreign_instruction(in);
          continue;
        }
        switch (in.kind) {
          case PythonInstruction::Kind::read:
            if (!in.batch) {
              if (in.runs)
                co_await warp.read(in.round_run(0), in.space, *in.site);
              else
                co_await warp.read(in.addresses, in.space, *in.site);
              sent = handle.arrays().values(warp.registers());
              break;
            }
            // A batch: its rounds one after the other, each the warp instruction a read of its
            // own would be; the values of round r go to row r of what the yield returns.
            {
              TableRows rows;
              sent = handle.arrays().table(handle, in.rounds, rows);
              for (std::size_t round = 0; round < in.rounds; ++round) {
                if (in.runs)
                  co_await warp.read(in.round_run(round), in.space, *in.site);
                else
                  co_await warp.read(in.round_addresses(round), in.space, *in.site);
                rows.fill(round, warp.registers());
              }
              rows.done();
            }
            break;
          case PythonInstruction::Kind::write:
            for (std::size_t round = 0; round < in.rounds; ++round) {
              const std::span<const Word> values =
                  in.values.empty() ? warp.registers() : in.round_values(round);
              if (in.runs)
                co_await warp.write(in.round_run(round), values, in.space, *in.site);
              else
                co_await warp.write(in.round_addresses(round), values, in.space, *in.site);
            }
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
    } catch (py::error_already_set& e) {
      rethrow_python(e, fmt::format("{}.run in warp {}", name, warp.index()));
    }
  }

 private:
  // A number of words `method` returns, at most `limit` (`what`).
  std::uint64_t words(const char* method, std::uint64_t limit, const char* what) {
    const py::object value = call(instance_, method, machine_);
    return checked("words", instance_, method, value, limit, what).cast<std::uint64_t>();
  }
  // Raises `error` at the generator's yield: what it yields next, or that it returned or raised.
  static PySendResult throw_into(const py::object& generator, const py::object& error,
                                 PyObject** yielded) {
    *yielded = PyObject_CallMethodOneArg(generator.ptr(), py::str("throw").ptr(), error.ptr());
    if (*yielded != nullptr) return PYGEN_NEXT;
    if (!PyErr_ExceptionMatches(PyExc_StopIteration)) return PYGEN_ERROR;
    PyErr_Clear();
    *yielded = Py_NewRef(Py_None);
    return PYGEN_RETURN;
  }
  // The RuntimeError for an instruction yielded by a warp that did not make it: another warp's,
  // or one kept from a warp whose program has ended (in this run or an earlier one: its lanes
  // were checked against that run's memory, its site is gone).
  static py::object foreign_instruction(const PythonInstruction& in) {
    const bool ended = warp_ended(in.warp);
    return py::reinterpret_borrow<py::object>(PyExc_RuntimeError)(fmt::format(
        "this instruction was made by warp {}{}: a warp yields only the instructions it makes "
        "while its program runs",
        in.warp_index, ended ? ", whose program has ended" : ""));
  }
  // file:line of a generator's frame at its yield.
  static std::string where(const py::object& generator) {
    const py::object frame = generator.attr("gi_frame");
    if (frame.is_none()) return "run";
    return fmt::format("{}:{}",
                       py::str(frame.attr("f_code").attr("co_filename")).cast<std::string>(),
                       frame.attr("f_lineno").cast<int>());
  }

  py::object instance_;
  py::object checks_ = py::cast(PythonVerification(verification()));
  py::object machine_ = py::none();
  std::uint64_t words_ = 0;
  std::uint64_t shared_ = 0;
  std::uint64_t local_ = 0;
  MemoryLimits limits_;
  PythonSites sites_;  // its instructions point at them until the run ends
  ValueArrays arrays_;
};

}  // namespace

std::shared_ptr<const ProgramInfo> load_python_program(const ExternalProgram& program) {
  const py::object cls = load_user_class(program, program_module().attr("Program"));
  auto info = std::make_shared<ProgramInfo>();
  info->name = program.name;
  info->source = program.file.string();
  info->summary = class_summary(cls);
  info->params = declared_params(cls, program);
  info->make = [cls, params = info->params](const ProgramArgs& args) {
    const std::string name = py::str(cls.attr("__name__"));
    const py::object instance = guarded(name + "()", [&] { return cls(); });
    for (const ParamSpec& spec : params)
      guarded(name + ": setting its parameter " + spec.name,
              [&] { instance.attr(spec.name.c_str()) = param_object(args.params, spec); });
    return std::unique_ptr<WarpProgram>(
        guarded(name, [&] { return std::make_unique<PythonProgram>(instance); }));
  };
  return info;
}

void bind_program_support(py::module_& module) {
  py::class_<PythonMemory>(module, "Memory",
                           "The global memory in initialize (writable) and verify (read-only): "
                           "memory[a], memory[a:b] (numpy arrays), len(memory) its words; "
                           "kept beyond the call, it raises RuntimeError")
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
