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

#include "sw/program/input_error.hpp"
#include "testbench/sweep_plan.hpp"

namespace mmsim {

// Loads and runs one run of the sweep in this process; its record, without the wall time.
nlohmann::json execute_run(const Sweep& sweep, const SweepRun& run);

// The results files are read within the bounds of every text input (sw/support/text_input.hpp).
inline constexpr std::uint64_t kMaxResultsBytes = std::uint64_t{1} << 30;
inline constexpr std::size_t kMaxRecordBytes = std::size_t{16} << 20;
// A record's statistics nest a few levels; more is not a record (and would cost memory per level).
inline constexpr int kMaxRecordDepth = 64;

// Checks, before anything runs, that `path` can take the records: a regular file, or a new one
// in a folder that exists. An existing results file is appended to, never emptied or removed:
// without `keep` (a fresh sweep) it is refused, and so is a SLURM task's results file beside it.
// Throws InputError at `where` (the option that named it).
void check_results_file(const std::filesystem::path& path, bool keep, const SourceLocation& where);

// An append-only results file: every record is one line written with one system call.
class ResultsLog {
 public:
  // Opens `path` (made when missing; it must be new unless `keep`); a kept file loses a torn
  // last line (a process killed while writing it), so that what follows starts on a line of its
  // own. Throws InputError at `where`.
  ResultsLog(const std::filesystem::path& path, bool keep, const SourceLocation& where);
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
  std::size_t torn = 0;  // last lines without their newline (a process killed while writing)
};

// Why `record` is not a run's record as execute_run() and the sweep write it: index, case,
// values, set, command and seconds, with either stats and verified or error, each of its type;
// empty when it is one.
std::string record_problem(const nlohmann::json& record);

// The records of the files that exist among `files`, brief. Every line is checked: one that is
// not a record (not JSON, or record_problem) is an InputError at its file and line, as is a file
// beyond kMaxResultsBytes; only a last line without its newline (torn) is skipped and counted.
StoredResults read_results(const std::vector<std::filesystem::path>& files,
                           const std::vector<std::string>& columns);

// Where SLURM array task `task` keeps its results: beside the sweep's results file, named after
// it (x.jsonl -> x.task-7.jsonl).
std::filesystem::path task_results_path(const std::filesystem::path& results, std::size_t task);
// The results file and every task's results file beside it.
std::vector<std::filesystem::path> results_files(const std::filesystem::path& results);

}  // namespace mmsim
