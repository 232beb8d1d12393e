#include "testbench/outputs/provenance.hpp"

#include <unistd.h>

#include <array>
#include <ctime>

#include "mmsim_version.hpp"

namespace mmsim {
namespace {

std::string& recorded_command() {
  static std::string command;
  return command;
}

std::string host_name() {
  std::array<char, 256> name{};
  if (gethostname(name.data(), name.size() - 1) != 0) return "unknown";
  return name.data();
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

}  // namespace

const char* mmsim_version() { return MMSIM_VERSION; }

void set_command_line(int argc, const char* const* argv) {
  std::string command;
  for (int i = 0; i < argc; ++i) {
    if (i > 0) command += ' ';
    command += shell_quote(argv[i]);
  }
  recorded_command() = command;
}

const std::string& command_line() { return recorded_command(); }

Provenance provenance_now(const std::string& command) {
  return {.version = mmsim_version(), .command = command, .date = utc_now(), .host = host_name()};
}

void add_provenance(nlohmann::json& object, const Provenance& p) {
  object["version"] = p.version;
  object["command"] = p.command;
  object["date"] = p.date;
  object["host"] = p.host;
}

std::string describe(const Provenance& p) {
  return "mmsim " + p.version + " on " + p.host + ", " + p.date;
}

std::string shell_quote(const std::string& word) {
  const bool plain = !word.empty() && word.find_first_not_of(
                                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789_-+=.,/:@%^") == std::string::npos;
  if (plain) return word;
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace mmsim
