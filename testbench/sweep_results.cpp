#include "testbench/sweep_results.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

#include "hw/support/errors.hpp"
#include "testbench/runner.hpp"
#include "testbench/stats_json.hpp"
#include "testbench/testbench.hpp"

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

// Cuts a torn last line off (everything after the last newline).
void cut_torn_line(int fd, const std::filesystem::path& path) {
  const off_t size = lseek(fd, 0, SEEK_END);
  if (size <= 0) return;
  std::string content(static_cast<std::size_t>(size), '\0');
  if (pread(fd, content.data(), content.size(), 0) != size)
    throw InputError({path.string(), 0, 0},
                     "results: cannot read: " + std::string(strerror(errno)));
  if (content.back() == '\n') return;
  const std::size_t last = content.rfind('\n');
  if (ftruncate(fd, last == std::string::npos ? 0 : static_cast<off_t>(last + 1)) != 0)
    throw InputError({path.string(), 0, 0},
                     "results: cannot cut its torn last line: " + std::string(strerror(errno)));
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
    record["error"] = e.what();
  } catch (const SimulationError& e) {
    record["error"] = std::string("the run failed: ") + e.what();
  }
  return record;
}

ResultsLog::ResultsLog(const std::filesystem::path& path, bool keep) : path_(path) {
  struct stat info {};
  if (stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode))
    throw InputError({path.string(), 0, 0}, "results: not a regular file");
  fd_ = open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | (keep ? 0 : O_TRUNC), 0644);
  if (fd_ < 0)
    throw InputError({path.string(), 0, 0},
                     "results: cannot write: " + std::string(strerror(errno)));
  if (keep) {
    try {
      cut_torn_line(fd_, path);
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

StoredResults read_results(const std::vector<std::filesystem::path>& files,
                           const std::vector<std::string>& columns) {
  StoredResults stored;
  for (const std::filesystem::path& file : files) {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
      const nlohmann::json record = nlohmann::json::parse(line, nullptr, false);
      if (!record.is_object() || !record.contains("case")) {
        ++stored.unreadable;
        continue;
      }
      stored.records.emplace(run_identity(record), brief_record(record, columns));
    }
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
