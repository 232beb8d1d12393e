#include "testbench/sweep_command.hpp"

#include <unistd.h>

#include <iostream>
#include <memory>
#include <system_error>

#include "testbench/integer_list.hpp"
#include "testbench/pending_file.hpp"
#include "testbench/process_pool.hpp"
#include "testbench/sweep_check.hpp"
#include "testbench/sweep_progress.hpp"
#include "testbench/sweep_results.hpp"
#include "testbench/sweep_slurm.hpp"
#include "testbench/sweep_tables.hpp"

namespace mmsim {
namespace {

// SLURM's default MaxArraySize is 1001: a default array stays well inside it.
constexpr std::size_t kDefaultArrayTasks = 100;

struct Options {
  std::filesystem::path results;
  unsigned jobs = 1;
  std::uint64_t max_runs = 0;
  std::size_t array_size = 0;
  unsigned cpus_per_task = 1;
  std::size_t task = 0;
  std::size_t tasks = 0;  // 0: not a task of a job array
};

Options parse_options(const SweepCommand& c) {
  Options o;
  o.results =
      c.results.empty()
          ? std::filesystem::path(std::filesystem::path(c.sweep).stem().string() + ".results.jsonl")
          : std::filesystem::path(c.results);
  const unsigned jobs = static_cast<unsigned>(parse_integer_option("--jobs", c.jobs, 0, 4096));
  o.jobs = jobs == 0 ? available_cores() : jobs;
  o.max_runs = parse_integer_option("--max-runs", c.max_runs, 1, UINT64_MAX);
  o.array_size = parse_integer_option("--array-size", c.array_size, 0, 1000000);
  o.cpus_per_task =
      static_cast<unsigned>(parse_integer_option("--cpus-per-task", c.cpus_per_task, 1, 4096));
  if (!c.task.empty()) {
    const std::size_t slash = c.task.find('/');
    if (slash == std::string::npos)
      throw InputError({"--task", 0, 0}, "expected I/K (task I of K), got '" + c.task + "'");
    o.task = parse_integer_option("--task", c.task.substr(0, slash), 0, 1000000);
    o.tasks = parse_integer_option("--task", c.task.substr(slash + 1), 1, 1000000);
    if (o.task >= o.tasks)
      throw InputError({"--task", 0, 0}, "task " + std::to_string(o.task) + " of " +
                                             std::to_string(o.tasks) + ": expected I < K");
  }
  const auto refuse = [](const std::string& option, const std::string& why) {
    throw InputError({option, 0, 0}, why);
  };
  const bool submits = c.slurm || !c.emit_slurm.empty();
  if (c.collect && (submits || o.tasks || c.resume))
    refuse("--collect", "runs nothing: it takes no --resume, --slurm, --emit-slurm or --task");
  if (c.slurm && !c.emit_slurm.empty())
    refuse("--emit-slurm", "only writes the job script; --slurm writes and submits it");
  if (o.tasks && submits) refuse("--task", "is a task of a submitted job: it submits nothing");
  if (c.wait && !c.slurm) refuse("--wait", "waits for the job that --slurm submits");
  if (!submits &&
      (!c.partition.empty() || !c.time.empty() || o.array_size || !c.sbatch_options.empty()))
    refuse("--partition/--time/--array-size/--sbatch", "only with --slurm or --emit-slurm");
  return o;
}

// The command that generates the table, recorded in its header: the sweep, its --set options and
// its outputs. How it ran (workers, results file, SLURM) does not change the table.
std::string table_command(const SweepCommand& c) {
  std::string command = "mmsim sweep " + shell_quote(c.sweep);
  for (const std::string& o : c.overrides) command += " --set " + shell_quote(o);
  if (!c.markdown.empty()) command += " --markdown " + shell_quote(c.markdown);
  if (!c.csv.empty()) command += " --csv " + shell_quote(c.csv);
  if (!c.json.empty()) command += " --json " + shell_quote(c.json);
  return command;
}

// The results file and the SLURM folder are made as the sweep goes: their folder must exist
// before anything runs.
void check_folder_of(const std::string& path, const std::string& option) {
  if (path.empty()) return;
  const auto parent = std::filesystem::absolute(path).parent_path();
  std::error_code error;
  if (!std::filesystem::is_directory(parent, error))
    throw InputError({option, 0, 0}, "cannot write " + path + ": no folder " + parent.string());
}

class SweepSession {
 public:
  SweepSession(const SweepCommand& command, const Options& options)
      : command_(command),
        options_(options),
        sweep_(load_sweep(command.sweep, command.overrides)),
        plan_(plan_sweep(sweep_, options.max_runs)) {
    check_sweep(sweep_, plan_);
    // The tables are opened before anything runs (an output that cannot be written, or that
    // names an input, is refused now), and written together at the end.
    tables_ = std::make_unique<OutputFiles>(
        std::vector<NamedFile>{option_output(command.markdown, "--markdown"),
                               option_output(command.csv, "--csv"),
                               option_output(command.json, "--json")},
        std::vector<NamedFile>{option_input(command.sweep, "the sweep file")});
    check_folder_of(options.results.string(), "--results");
    check_folder_of(command.emit_slurm, "--emit-slurm");
    for (const SweepRun& run : plan_.runs)
      identities_.push_back(run_identity(run_head(sweep_, run)));
    for (const SweepColumn& column : sweep_.columns) column_paths_.push_back(column.path);
  }

  int execute() {
    if (options_.tasks) return run_task();
    if (command_.slurm || !command_.emit_slurm.empty()) return submit();
    if (command_.collect) {
      stored_ = read_results(results_files(options_.results), column_paths_);
      announce("");
      return finish();
    }
    if (command_.resume) stored_ = read_results(results_files(options_.results), column_paths_);
    const std::vector<std::size_t> pending = missing();
    const unsigned workers =
        static_cast<unsigned>(std::min<std::size_t>(options_.jobs, pending.size()));
    announce(", " + std::to_string(pending.size()) + " to run on " + std::to_string(workers) +
             (workers == 1 ? " worker" : " workers"));
    ResultsLog log(options_.results, command_.resume);
    if (!run_here(pending, log, workers)) return interrupted(log.path());
    return finish();
  }

 private:
  // The runs the results do not hold yet, in the sweep's order.
  std::vector<std::size_t> missing() const {
    std::vector<std::size_t> pending;
    for (std::size_t i = 0; i < plan_.runs.size(); ++i)
      if (!stored_.records.count(identities_[i])) pending.push_back(i);
    return pending;
  }

  void announce(const std::string& what) const {
    std::string line = "mmsim: sweep " + sweep_.name + ": " + std::to_string(plan_.runs.size()) +
                       (plan_.runs.size() == 1 ? " run" : " runs");
    if (plan_.combinations != plan_.runs.size())
      line += " (of " + std::to_string(plan_.combinations) + " combinations; `where` left out " +
              std::to_string(plan_.combinations - plan_.runs.size()) + ")";
    std::size_t held = 0;
    for (const std::string& identity : identities_) held += stored_.records.count(identity);
    if (held > 0 || command_.resume || command_.collect)
      line += ", " + std::to_string(held) + " in the results";
    std::cerr << line << what << "\n";
    if (stored_.unreadable > 0)
      std::cerr << "mmsim: " << stored_.unreadable
                << " lines of the results files are not records (skipped)\n";
  }

  // Runs `pending` on the local pool, appending each record to `log` as it finishes. False when
  // interrupted.
  bool run_here(const std::vector<std::size_t>& pending, ResultsLog& log, unsigned workers) {
    SweepProgress progress(pending.size(), isatty(STDERR_FILENO) != 0);
    const auto record = [&](nlohmann::json r, double seconds) {
      r["seconds"] = seconds;
      log.append(r);
      progress.finished(run_failed(r));
      stored_.records[run_identity(r)] = brief_record(r, column_paths_);
    };
    std::vector<std::size_t> jobs;
    for (const std::size_t i : pending) {
      if (plan_.runs[i].error.empty())
        jobs.push_back(i);
      else
        record(execute_run(sweep_, plan_.runs[i]), 0);  // nothing to run: why is known
    }
    ProcessPool pool(workers);
    const bool complete = pool.run(
        jobs, [&](std::size_t i) { return execute_run(sweep_, plan_.runs[i]).dump(); },
        [&](const ProcessPool::Finished& f) {
          nlohmann::json r;
          if (f.returned()) r = nlohmann::json::parse(f.output, nullptr, false);
          if (!r.is_object()) {
            r = run_head(sweep_, plan_.runs[f.job]);
            r["error"] = "the run crashed: " + f.failure();
          }
          record(std::move(r), f.seconds);
        },
        [&] { progress.tick(); });
    progress.close();
    return complete;
  }

  int interrupted(const std::filesystem::path& results) const {
    std::size_t held = 0;
    for (const std::string& identity : identities_) held += stored_.records.count(identity);
    std::cerr << "mmsim: interrupted: " << held << " of " << plan_.runs.size() << " runs are in "
              << results.string() << "; the same command with --resume goes on from there\n";
    return 130;
  }

  // A task of a SLURM job array: its share of the runs, into its own results file.
  int run_task() {
    stored_ = read_results(results_files(options_.results), column_paths_);
    std::vector<std::size_t> pending;
    for (const std::size_t i : missing())
      if (i % options_.tasks == options_.task) pending.push_back(i);
    const unsigned workers =
        static_cast<unsigned>(std::min<std::size_t>(options_.jobs, pending.size()));
    announce(", task " + std::to_string(options_.task) + " of " + std::to_string(options_.tasks) +
             ": " + std::to_string(pending.size()) + " to run on " + std::to_string(workers) +
             (workers == 1 ? " worker" : " workers"));
    ResultsLog log(task_results_path(options_.results, options_.task), true);
    return run_here(pending, log, workers) ? 0 : interrupted(log.path());
  }

  int submit() {
    if (command_.resume) {
      stored_ = read_results(results_files(options_.results), column_paths_);
    } else {  // a fresh sweep: no earlier results, the local ones or the tasks'
      for (const std::filesystem::path& file : results_files(options_.results))
        std::filesystem::remove(file);
    }
    const std::size_t pending = missing().size();
    const std::size_t tasks = std::max<std::size_t>(
        1, std::min(plan_.runs.size(),
                    options_.array_size ? options_.array_size : kDefaultArrayTasks));
    SlurmJob job{
        .name = sweep_.name,
        .mmsim = std::filesystem::canonical("/proc/self/exe"),
        .sweep = command_.sweep,
        .results = options_.results,
        .folder = std::filesystem::absolute(
            command_.emit_slurm.empty()
                ? std::filesystem::path(options_.results.string() + ".slurm")
                : std::filesystem::path(command_.emit_slurm)),
        .workdir = std::filesystem::current_path(),
        .overrides = command_.overrides,
        .max_runs = options_.max_runs,
        .tasks = tasks,
        .cpus_per_task = options_.cpus_per_task,
        .partition = command_.partition,
        .time = command_.time,
        .sbatch_options = command_.sbatch_options,
    };
    announce(", " + std::to_string(pending) + " to run in " + std::to_string(tasks) +
             " SLURM array tasks");
    const std::filesystem::path script = write_slurm_job(job);
    const std::string collect =
        "mmsim sweep " + shell_quote(command_.sweep) + " --collect" +
        (command_.results.empty() ? std::string() : " --results " + shell_quote(command_.results));
    if (!command_.slurm) {
      std::cerr << "mmsim: wrote " << script.string() << "; submit it with: sbatch "
                << shell_quote(script.string()) << "; when it is done: " << collect << "\n";
      return 0;
    }
    const std::string id = submit_slurm_job(script);
    std::cerr << "mmsim: submitted SLURM job " << id << " (" << tasks << " tasks; output in "
              << job.folder.string() << ")\n";
    if (!command_.wait) {
      std::cerr << "mmsim: when it is done: " << collect << "\n";
      return 0;
    }
    wait_for_slurm_job(id);
    stored_ = read_results(results_files(options_.results), column_paths_);
    return finish();
  }

  // The table, when every run has its record; exit status 1 if one failed.
  int finish() {
    std::vector<SweepRow> rows;
    std::size_t absent = 0;
    bool failed = false;
    for (std::size_t i = 0; i < plan_.runs.size(); ++i) {
      const auto it = stored_.records.find(identities_[i]);
      if (it == stored_.records.end()) {
        ++absent;
        continue;
      }
      rows.push_back({&plan_.runs[i], &it->second});
      failed = failed || run_failed(it->second);
    }
    if (absent > 0) {
      std::cerr << "mmsim: " << absent << " of " << plan_.runs.size() << " runs have no result in "
                << options_.results.string()
                << " or its SLURM tasks' files yet (squeue shows the job while it runs); the "
                   "same command with --resume runs them here\n";
      return 1;
    }
    const Provenance provenance = provenance_now(table_command(command_));
    const std::string markdown = sweep_markdown(sweep_, rows, provenance);
    const std::pair<std::string, std::string> outputs[] = {
        {command_.markdown, markdown},
        {command_.csv, sweep_csv(sweep_, rows)},
        {command_.json, sweep_json(sweep_, rows, provenance).dump(2) + "\n"}};
    // Every output is written before any is committed: all appear, or none.
    try {
      std::vector<std::string> contents;
      for (const auto& [path, content] : outputs) contents.push_back(content);
      tables_->write_all(contents);
    } catch (const InputError& e) {
      throw InputError(e.where(), std::string(e.what()) + " (every run is in " +
                                      options_.results.string() +
                                      ": the same command with --collect writes the table again)");
    }
    std::cout << markdown;
    return failed ? 1 : 0;
  }

  const SweepCommand& command_;
  const Options& options_;
  std::unique_ptr<OutputFiles> tables_;
  Sweep sweep_;
  SweepPlan plan_;
  std::vector<std::string> identities_;  // of each run of the plan
  std::vector<std::string> column_paths_;
  StoredResults stored_;
};

}  // namespace

int sweep_command(const SweepCommand& command) {
  try {
    const Options options = parse_options(command);
    SweepSession session(command, options);
    return session.execute();
  } catch (const InputError& e) {
    std::cerr << "mmsim: " << e.describe() << "\n";
    return 2;
  } catch (const std::runtime_error& e) {  // an output that cannot be written, SLURM refusing
    std::cerr << "mmsim: sweep: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace mmsim
