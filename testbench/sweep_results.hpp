// The results file of a sweep: JSON lines, one object per finished run, appended as each run
// finishes, so that an interrupted sweep keeps what it did and --resume goes on from there.
// A record holds the run's index, case, values (typed), the sweep's --set options, the command
// that reproduces it, its wall time (seconds, fork to exit), and either its statistics (stats,
// with verified beside them) or why it could not run (error).
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "testbench/sweep_plan.hpp"

namespace mmsim {

// Loads and runs one run of the sweep in this process; its record, without the wall time.
nlohmann::json execute_run(const Sweep& sweep, const SweepRun& run);

// An append-only results file: every record is one line written with one system call.
class ResultsLog {
 public:
  // Opens `path`, emptied unless `keep`; a kept file loses a torn last line (a process killed
  // while writing it), so that what follows starts on a line of its own. Throws InputError.
  ResultsLog(const std::filesystem::path& path, bool keep);
  ~ResultsLog();
  ResultsLog(const ResultsLog&) = delete;
  ResultsLog& operator=(const ResultsLog&) = delete;

  // Appends the record as one line; throws std::system_error when the file takes less.
  void append(const nlohmann::json& record);
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
};

// A record as the table needs it: its statistics cut down to `columns` (a sweep keeps one per
// run in memory; the results file keeps them whole).
nlohmann::json brief_record(const nlohmann::json& record, const std::vector<std::string>& columns);

struct StoredResults {
  std::map<std::string, nlohmann::json> records;  // brief, by run_identity(); the first found
  std::size_t unreadable = 0;                     // lines that are not records
};

// The records of the files that exist among `files`, brief.
StoredResults read_results(const std::vector<std::filesystem::path>& files,
                           const std::vector<std::string>& columns);

// Where SLURM array task `task` keeps its results: beside the sweep's results file, named after
// it (x.jsonl -> x.task-7.jsonl).
std::filesystem::path task_results_path(const std::filesystem::path& results, std::size_t task);
// The results file and every task's results file beside it.
std::vector<std::filesystem::path> results_files(const std::filesystem::path& results);

}  // namespace mmsim
