// libmmsim_python.so: Python inside the mmsim command, started only when a testbench names a
// Python program (testbench/external/python_launcher.cpp opens this library then). It starts
// the interpreter (without its signal handlers: the command keeps its own) and imports the
// mmsim package, whose native module links the libmmsim.so already loaded: one simulator.
// Standard output is the command's (the report, or the statistics of --stats -): a program's
// print() goes to standard error.
//
// Which Python (docs/installing-python.md): the one mmsim was built for (MMSIM_PYTHON, recorded
// here at build time), or the active virtual environment's (VIRTUAL_ENV) when it is of this
// library's Python version, never the python3 that comes first on PATH. The interpreter finds
// its standard library and site-packages from that executable, as it would have started itself.
#include <pybind11/embed.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

namespace py = pybind11;
namespace fs = std::filesystem;

namespace {

const std::string kVersion =
    std::to_string(PY_MAJOR_VERSION) + "." + std::to_string(PY_MINOR_VERSION);

// The Python the programs run in, and why that one (for messages).
struct ChosenPython {
  std::string executable;
  std::string why;
};

// The Python version a virtual environment records in its pyvenv.cfg ("version = 3.11.2", or
// virtualenv's "version_info = 3.11.2.final.0"); nullopt without the file or either key.
std::optional<std::string> environment_version(const fs::path& environment) {
  std::ifstream config(environment / "pyvenv.cfg");
  std::string line;
  while (std::getline(config, line)) {
    const auto equals = line.find('=');
    if (equals == std::string::npos) continue;
    std::istringstream key_stream(line.substr(0, equals));
    std::string key;
    key_stream >> key;
    if (key != "version" && key != "version_info") continue;
    std::istringstream value_stream(line.substr(equals + 1));
    std::string value;
    value_stream >> value;
    return value;
  }
  return std::nullopt;
}

// "3.12" of "3.12.1" or "3.12.1.final.0".
std::string major_minor(const std::string& version) {
  const auto first = version.find('.');
  const auto second = version.find('.', first == std::string::npos ? first : first + 1);
  return version.substr(0, second);
}

// The active virtual environment's Python when it is this library's version, else the Python
// mmsim was built for; a message (thrown) when neither will do.
ChosenPython choose_python() {
  const std::string built_for = MMSIM_PYTHON_EXECUTABLE;
  const std::string expected =
      "Python " + kVersion + ", the version mmsim was built for (" + built_for + ")";
  const char* active = std::getenv("VIRTUAL_ENV");
  if (active != nullptr && *active != '\0') {
    const fs::path environment = active;
    const std::optional<std::string> version = environment_version(environment);
    if (!version)
      throw std::runtime_error("Python programs run in " + expected +
                               " or in the active virtual environment, but VIRTUAL_ENV names " +
                               environment.string() + ", which has no pyvenv.cfg saying its " +
                               "Python version: activate a virtual environment, or unset " +
                               "VIRTUAL_ENV");
    if (major_minor(*version) != kVersion)
      throw std::runtime_error(
          "Python programs run in " + expected + " or in an active virtual environment of it, " +
          "but the active one, " + environment.string() + " (VIRTUAL_ENV), is Python " + *version +
          ": deactivate it, activate a Python " + kVersion + " environment, or " +
          "build mmsim for its Python (pip install --no-build-isolation . in it, or cmake " +
          "-DMMSIM_PYTHON=" + (environment / "bin" / "python").string() + ")");
    const std::string names[] = {"python", "python3", "python" + kVersion};
    for (const std::string& name : names) {
      const fs::path executable = environment / "bin" / name;
      if (fs::exists(executable))
        return {executable.string(), "Python " + *version + " of the virtual environment " +
                                         environment.string() + " (VIRTUAL_ENV)"};
    }
    throw std::runtime_error("the active virtual environment " + environment.string() +
                             " (VIRTUAL_ENV) has no bin/python");
  }
  if (!fs::exists(built_for))
    throw std::runtime_error("Python programs run in " + expected + ", which is not there " +
                             "any more: rebuild mmsim (cmake -DMMSIM_PYTHON=PYTHON), or " +
                             "install it again into the environment (pip install " +
                             "--no-build-isolation .)");
  return {built_for, "Python " + kVersion + ", which mmsim was built for"};
}

// The interpreter as `python` would start itself from that executable (its prefix, a virtual
// environment's pyvenv.cfg, PYTHONPATH and the user's site-packages), without its signal
// handlers.
void start_interpreter(const ChosenPython& python) {
  PyConfig config;
  PyConfig_InitIsolatedConfig(&config);
  config.isolated = 0;
  config.use_environment = 1;
  config.user_site_directory = 1;
  config.install_signal_handlers = 0;
  const PyStatus status =
      PyConfig_SetBytesString(&config, &config.program_name, python.executable.c_str());
  if (PyStatus_Exception(status) != 0) {
    PyConfig_Clear(&config);
    throw std::runtime_error(status.err_msg != nullptr ? status.err_msg : "its path");
  }
  py::initialize_interpreter(&config, 0, nullptr, false);
}

}  // namespace

extern "C" [[gnu::visibility("default")]] const char* mmsim_python_start(
    const char* package_folder) {
  static std::string failure;
  std::optional<ChosenPython> python;
  const auto failed = [&](const std::string& why) {
    failure = python ? "cannot start Python programs in " + python->executable + " (" +
                           python->why + "): " + why
                     : why;
    return failure.c_str();
  };
  try {
    if (!Py_IsInitialized()) {
      python = choose_python();
      start_interpreter(*python);
    }
    const py::module_ sys = py::module_::import("sys");
    sys.attr("path").attr("insert")(0, package_folder);
    sys.attr("stdout") = sys.attr("stderr");
    py::module_::import("mmsim");
    return nullptr;
  } catch (py::error_already_set& e) {
    // The exception's own line (the package says what is missing), without the traceback.
    return failed(py::str(e.type().attr("__name__")).cast<std::string>() + ": " +
                  py::str(e.value()).cast<std::string>());
  } catch (const std::exception& e) {
    return failed(e.what());
  }
}
