#include "testbench/sweeps/sweep_results.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <system_error>

#include "hw/support/errors.hpp"
#include "sw/support/text_input.hpp"
#include "testbench/input/memory_budget.hpp"
#include "testbench/input/testbench.hpp"
#include "testbench/run/runner.hpp"
#include "testbench/run/stats_json.hpp"

namespace mmsim {
namespace {

std::string without_jsonl(const std::filesystem::path& results) {
  std::string base = results.string();
  const std::string extension = ".jsonl";
  if (base.size() > extension.size() &&
      base.compare(base.size() - extension.size(), extension.size(), extension) == 0)
    base.resize(base.size() - extension.size());
  return base;
}

std::string reason(int error) { return std::generic_category().message(error); }

// Cuts a torn last line off (everything after the last newline), reading the file from its end:
// at most one record's length.
void cut_torn_line(int fd, const std::filesystem::path& path, const SourceLocation& where) {
  const auto fail = [&](const std::string& what) {
    throw InputError(where, "cannot " + what + " " + path.string() + ": " + reason(errno));
  };
  const off_t size = lseek(fd, 0, SEEK_END);
  if (size < 0) fail("read");
  std::vector<char> chunk(std::size_t{1} << 16);
  for (off_t end = size; end > 0 && size - end <= static_cast<off_t>(kMaxRecordBytes);) {
    const off_t start = std::max<off_t>(0, end - static_cast<off_t>(chunk.size()));
    const ssize_t got = pread(fd, chunk.data(), static_cast<std::size_t>(end - start), start);
    if (got != end - start) fail("read");
    const void* newline = memrchr(chunk.data(), '\n', static_cast<std::size_t>(got));
    if (newline) {
      const off_t cut = start + (static_cast<const char*>(newline) - chunk.data()) + 1;
      if (cut != size && ftruncate(fd, cut) != 0) fail("cut the torn last line of");
      return;
    }
    end = start;
  }
  if (size > static_cast<off_t>(kMaxRecordBytes)) {
    errno = EFBIG;
    fail("find the last record of");
  }
  if (size > 0 && ftruncate(fd, 0) != 0) fail("cut the torn last line of");
}

// Whether the file ends in the middle of a line (its last byte is not a newline).
bool ends_torn(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in || in.tellg() <= 0) return false;
  in.seekg(-1, std::ios::end);
  return in.get() != '\n';
}

// "a number", "a list", ...: a JSON value's type as a message names it.
std::string json_type(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::object:
      return "an object";
    case nlohmann::json::value_t::array:
      return "a list";
    case nlohmann::json::value_t::string:
      return "a string";
    case nlohmann::json::value_t::boolean:
      return "a boolean";
    case nlohmann::json::value_t::null:
      return "null";
    default:
      return "a number";
  }
}

bool is_string_list(const nlohmann::json& value) {
  return value.is_array() &&
         std::all_of(value.begin(), value.end(), [](const auto& v) { return v.is_string(); });
}

}  // namespace

nlohmann::json execute_run(const Sweep& sweep, const SweepRun& run) {
  nlohmann::json record = run_head(sweep, run);
  if (!run.error.empty()) {
    record["error"] = run.error;
    return record;
  }
  try {
    RunOptions options;
    options.command = record.at("command").get<std::string>();  // the run's own command
    const RunOutcome outcome =
        run_testbench(load_testbench(sweep.testbench, run.assignments), options);
    record["verified"] = outcome.verified ? nlohmann::json(*outcome.verified) : nullptr;
    record["stats"] = stats_json(outcome);
  } catch (const InputError& e) {
    record["error"] = e.describe();
  } catch (const SimulationError& e) {
    record["error"] = std::string("the run failed: ") + e.what();
  }
  return record;
}

void check_results_file(const std::filesystem::path& path, bool keep, const SourceLocation& where) {
  const auto refuse = [&](const std::filesystem::path& file, const std::string& why) {
    throw InputError(where, "cannot write " + file.string() + ": " + why);
  };
  struct stat info {};
  if (stat(path.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) refuse(path, "it is a folder");
    if (!S_ISREG(info.st_mode)) refuse(path, "it is not a regular file");
  } else if (errno != ENOENT) {
    refuse(path, reason(errno));
  } else {
    const std::filesystem::path folder = std::filesystem::absolute(path).parent_path();
    std::error_code error;
    if (!std::filesystem::is_directory(folder, error)) refuse(path, "no folder " + folder.string());
  }
  if (keep) return;
  for (const std::filesystem::path& file : results_files(path))
    if (std::filesystem::exists(std::filesystem::symlink_status(file)))
      refuse(file,
             std::string(file == path ? "it holds the results of an earlier sweep"
                                      : "it holds a SLURM task's results of an earlier sweep") +
                 " (kept, never emptied): --resume goes on from them, --collect makes the "
                 "table from them; remove it to start afresh");
}

ResultsLog::ResultsLog(const std::filesystem::path& path, bool keep, const SourceLocation& where)
    : path_(path) {
  // Checked before the work (check_results_file); checked again on the descriptor, without
  // waiting on a FIFO put there since.
  fd_ = open(path.c_str(),
             O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (keep ? 0 : O_EXCL),
             0644);
  if (fd_ < 0) throw InputError(where, "cannot write " + path.string() + ": " + reason(errno));
  struct stat info {};
  if (fstat(fd_, &info) != 0 || !S_ISREG(info.st_mode)) {
    close(fd_);
    throw InputError(where, "cannot write " + path.string() + ": it is not a regular file");
  }
  if (keep) {
    try {
      cut_torn_line(fd_, path, where);
    } catch (...) {
      close(fd_);
      throw;
    }
  }
}

ResultsLog::~ResultsLog() { close(fd_); }

void ResultsLog::append(const nlohmann::json& record) {
  const std::string line = record.dump() + "\n";
  std::size_t written = 0;
  while (written < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw std::system_error(n < 0 ? errno : ENOSPC, std::generic_category(),
                              "cannot write the results file " + path_.string());
    written += static_cast<std::size_t>(n);
  }
}

nlohmann::json brief_record(const nlohmann::json& record, const std::vector<std::string>& columns) {
  nlohmann::json brief = nlohmann::json::object();
  for (const auto& [key, value] : record.items())
    if (key != "stats") brief[key] = value;
  const auto stats = record.find("stats");
  if (stats == record.end()) return brief;
  nlohmann::json kept = nlohmann::json::object();
  for (const std::string& column : columns) {
    const nlohmann::json* value = stats_at(*stats, column);
    if (!value) continue;
    std::string pointer = "/" + column;  // bounds.time_order.ratio -> /bounds/time_order/ratio
    std::replace(pointer.begin(), pointer.end(), '.', '/');
    kept[nlohmann::json::json_pointer(pointer)] = *value;
  }
  brief["stats"] = kept;
  return brief;
}

std::string record_problem(const nlohmann::json& record) {
  if (!record.is_object())
    return "expected a run's record (a JSON object), got " + json_type(record);
  struct Field {
    const char* key;
    bool (*valid)(const nlohmann::json&);
    const char* expected;
  };
  static constexpr Field kFields[] = {
      {"index", [](const nlohmann::json& v) { return v.is_number_unsigned(); },
       "a non-negative integer"},
      {"case", [](const nlohmann::json& v) { return v.is_string(); }, "a string"},
      {"values", [](const nlohmann::json& v) { return v.is_object(); }, "an object"},
      {"set", is_string_list, "a list of strings"},
      {"command", [](const nlohmann::json& v) { return v.is_string(); }, "a string"},
      {"seconds", [](const nlohmann::json& v) { return v.is_number(); }, "a number"},
  };
  static constexpr Field kError = {"error", [](const nlohmann::json& v) { return v.is_string(); },
                                   "a string"};
  static constexpr Field kOutcome[] = {
      {"stats", [](const nlohmann::json& v) { return v.is_object(); }, "an object"},
      {"verified", [](const nlohmann::json& v) { return v.is_boolean() || v.is_null(); },
       "true, false or null"},
  };
  const auto check = [&](const Field& field) -> std::string {
    const auto value = record.find(field.key);
    if (value == record.end())
      return std::string("no '") + field.key +
             "' (a run's record has index, case, values, set, command, seconds, and stats with "
             "verified or error)";
    if (!field.valid(*value))
      return std::string("'") + field.key + "' is " + json_type(*value) + ", expected " +
             field.expected;
    return {};
  };
  for (const Field& field : kFields)
    if (std::string why = check(field); !why.empty()) return why;
  if (record.contains("error")) {
    if (record.contains("stats")) return "it holds both 'stats' and 'error'";
    return check(kError);
  }
  for (const Field& field : kOutcome)
    if (std::string why = check(field); !why.empty()) return why;
  return {};
}

StoredResults read_results(const std::vector<std::filesystem::path>& files,
                           const std::vector<std::string>& columns) {
  StoredResults stored;
  for (const std::filesystem::path& file : files) {
    const std::string name = file.string();
    std::ifstream in;
    try {
      in = open_text_file(file);
    } catch (const TextInputError& e) {
      if (e.code() == std::errc::no_such_file_or_directory) continue;
      throw InputError({"--results", 0, 0}, "cannot read " + name + ": " + e.what());
    }
    std::error_code error;
    const std::uintmax_t size = std::filesystem::file_size(file, error);
    if (!error && size > kMaxResultsBytes)
      throw InputError({"--results", 0, 0}, "cannot read " + name + ": it holds more than " +
                                                format_bytes(kMaxResultsBytes) +
                                                " (the limit of a results file)");
    const bool torn_end = ends_torn(file);
    LineReader lines(in, {.line_bytes = kMaxRecordBytes, .total_bytes = kMaxResultsBytes});
    // Each line is checked once the next is read: only the last may be torn.
    std::optional<std::string> pending;
    std::size_t pending_number = 0;
    const auto take = [&](const std::string& line, std::size_t number) {
      const SourceLocation where{name, static_cast<int>(number), 0};
      nlohmann::json record;
      try {
        record = nlohmann::json::parse(
            line, [&](int depth, nlohmann::json::parse_event_t, const nlohmann::json&) {
              if (depth > kMaxRecordDepth)
                throw InputError(where, "not a run's record: nested more than " +
                                            std::to_string(kMaxRecordDepth) + " levels deep");
              return true;
            });
      } catch (const nlohmann::json::parse_error& e) {
        throw InputError({name, static_cast<int>(number), static_cast<int>(e.byte)},
                         "expected a run's record (a JSON object on one line), got invalid JSON");
      } catch (const nlohmann::json::out_of_range&) {
        // nlohmann reports a number beyond a double (1e3080) apart from syntax errors.
        throw InputError(where, "not a run's record: a number too large for a double");
      }
      if (const std::string why = record_problem(record); !why.empty())
        throw InputError(where, "not a run's record: " + why);
      stored.records.emplace(run_identity(record), brief_record(record, columns));
    };
    try {
      std::string line;
      while (lines.next(line)) {
        if (pending) take(*pending, pending_number);
        pending = std::move(line);
        pending_number = lines.number();
      }
    } catch (const TextInputError& e) {
      throw InputError({name, static_cast<int>(e.line()), 0}, e.what());
    }
    if (pending && torn_end)
      ++stored.torn;
    else if (pending)
      take(*pending, pending_number);
  }
  return stored;
}

std::filesystem::path task_results_path(const std::filesystem::path& results, std::size_t task) {
  return without_jsonl(results) + ".task-" + std::to_string(task) + ".jsonl";
}

std::vector<std::filesystem::path> results_files(const std::filesystem::path& results) {
  std::vector<std::filesystem::path> files = {results};
  const std::filesystem::path base = without_jsonl(results);
  const std::filesystem::path folder = base.has_parent_path() ? base.parent_path() : ".";
  const std::string prefix = base.filename().string() + ".task-";
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) == 0 && name.size() > prefix.size() + 6 &&
        name.compare(name.size() - 6, 6, ".jsonl") == 0)
      files.push_back(folder / name);
  }
  std::sort(files.begin() + 1, files.end());
  return files;
}

}  // namespace mmsim
