#include "testbench/sweeps/sweep_session.hpp"

#include <signal.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <system_error>

#include <yaml-cpp/yaml.h>

#include "sw/programs/catalogue.hpp"
#include "sw/support/available_cores.hpp"
#include "testbench/input/integer_list.hpp"
#include "testbench/outputs/output_folder.hpp"
#include "testbench/outputs/pending_file.hpp"
#include "testbench/sweeps/process_pool.hpp"
#include "testbench/sweeps/sweep_check.hpp"
#include "testbench/sweeps/sweep_progress.hpp"
#include "testbench/sweeps/sweep_results.hpp"
#include "testbench/sweeps/sweep_slurm.hpp"
#include "testbench/sweeps/sweep_tables.hpp"

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

Options parse_options(const SweepRequest& c) {
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
std::string table_command(const SweepRequest& c) {
  std::string command = "mmsim sweep " + shell_quote(c.sweep);
  for (const std::string& o : c.overrides) command += " --set " + shell_quote(o);
  if (!c.markdown.empty()) command += " --markdown " + shell_quote(c.markdown);
  if (!c.csv.empty()) command += " --csv " + shell_quote(c.csv);
  if (!c.json.empty()) command += " --json " + shell_quote(c.json);
  return command;
}

// The keys that name files a run reads: the program's file or library, and the program
// parameters that name files (a trace, a permutation, input values).
const std::set<std::string>& file_parameters() {
  static const std::set<std::string> names = [] {
    std::set<std::string> out = {"program.file", "program.library"};
    for (const ProgramInfo& info : programs())
      for (const ParamSpec& spec : info.params)
        if (spec.type == ParamType::string) out.insert("program.params." + spec.name);
    return out;
  }();
  return names;
}

// What the sweep's runs read: the sweep file, its testbench, and every existing file that a
// file parameter takes in any run (from the testbench, a case, the grid, zip or --set), resolved
// as the runs resolve it (beside the testbench). No output may overwrite one of them.
std::vector<NamedFile> sweep_inputs(const Sweep& sweep) {
  std::vector<NamedFile> inputs;
  const auto input = [&](const std::filesystem::path& file, const std::string& role) {
    NamedFile named;
    named.path = file.string();
    named.where.file = file.string();
    named.role = role;
    inputs.push_back(std::move(named));
  };
  input(sweep.file, "the sweep file");
  input(sweep.testbench, "the sweep's testbench");
  std::set<std::string> seen;
  const auto add = [&](const std::string& key, const std::string& value) {
    if (!file_parameters().count(key) || value.empty()) return;
    const std::filesystem::path file = sweep.testbench.parent_path() / value;
    std::error_code error;
    if (!std::filesystem::is_regular_file(file, error) || !seen.insert(file.string()).second)
      return;
    input(file, "the input of " + key + " in a run");
  };
  for (const auto& [key, value] : sweep.base_values) add(key, value);
  const auto add_axes = [&](const std::vector<SweepAxis>& axes) {
    for (const SweepAxis& axis : axes)
      for (const std::string& value : axis.values) add(axis.key, value);
  };
  add_axes(sweep.grid);
  add_axes(sweep.zip);
  for (const SweepCase& c : sweep.cases) {
    for (const SweepAssignment& a : c.set) add(a.key, a.value);
    add_axes(c.grid);
  }
  for (const std::string& assignment : sweep.overrides) {
    const std::size_t eq = assignment.find('=');
    try {
      const YAML::Node value = YAML::Load(assignment.substr(eq + 1));
      if (value.IsScalar()) add(assignment.substr(0, eq), value.Scalar());
    } catch (const YAML::Exception&) {  // refused where the runs load it
    }
  }
  return inputs;
}

class SweepSession {
 public:
  SweepSession(const SweepRequest& command, const Options& options)
      : command_(command),
        options_(options),
        sweep_(load_sweep(command.sweep, command.overrides)),
        plan_(plan_sweep(sweep_, options.max_runs)) {
    for (const SweepRun& run : plan_.runs)
      identities_.push_back(run_identity(run_head(sweep_, run)));
    for (const SweepColumn& column : sweep_.columns) column_paths_.push_back(column.path);
    open_outputs();
    // After the outputs: a user's program previewed runs its code, only once nothing else stops
    // the sweep, and only where its runs run.
    const bool runs_here = !command_.collect && !command_.slurm && command_.emit_slurm.empty();
    check_sweep(sweep_, plan_, runs_here ? UserCode::run : UserCode::left_alone);
  }

  int execute() {
    if (options_.tasks) return run_task();
    if (job_) return submit();
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
    ResultsLog log(options_.results, command_.resume, {"--results", 0, 0});
    if (const int signal = run_here(pending, log, workers)) return interrupted(log.path(), signal);
    return finish();
  }

 private:
  // Every output is checked before anything runs, as `mmsim run` checks its own: none may be an
  // input of the sweep or another output, and each must be writable. The tables and the job
  // script are opened now (a PendingFile each, renamed into place when complete); the results
  // file must be new unless the command keeps it (--resume, a task's own file).
  void open_outputs() {
    const SourceLocation results_where{"--results", 0, 0};
    std::vector<NamedFile> inputs = sweep_inputs(sweep_);
    std::vector<NamedFile> outputs = {option_output(command_.markdown, "--markdown"),
                                      option_output(command_.csv, "--csv"),
                                      option_output(command_.json, "--json")};
    // The results file this command writes (or its job's tasks write beside).
    std::optional<std::filesystem::path> written_results;
    if (options_.tasks)
      written_results = task_results_path(options_.results, options_.task);
    else if (!command_.collect)
      written_results = options_.results;
    for (const std::filesystem::path& file : results_files(options_.results))
      if (file != written_results)
        inputs.push_back({file.string(), results_where, "a results file"});
    if (written_results) outputs.push_back(option_output(written_results->string(), "--results"));
    const bool submits = command_.slurm || !command_.emit_slurm.empty();
    std::filesystem::path folder;
    if (submits) {
      job_folder_option_ = command_.slurm ? "--slurm" : "--emit-slurm";
      folder = std::filesystem::absolute(
          command_.emit_slurm.empty() ? std::filesystem::path(options_.results.string() + ".slurm")
                                      : std::filesystem::path(command_.emit_slurm));
      job_ = job(folder);
      job_script_ = slurm_job_script(*job_);  // every value checked before anything is made
      outputs.push_back(option_output((folder / "job.sh").string(), job_folder_option_));
    }
    check_distinct_files(inputs, outputs);
    tables_ =
        std::make_unique<OutputFiles>(std::vector<NamedFile>(outputs.begin(), outputs.begin() + 3));
    if (written_results)
      check_results_file(*written_results, command_.resume || options_.tasks, results_where);
    if (submits) {
      folder_.emplace(folder, job_folder_option_);
      script_ =
          std::make_unique<PendingFile>(folder / "job.sh", SourceLocation{job_folder_option_, 0, 0},
                                        OutputKind{.devices = false, .executable = true});
    }
  }

  // The SLURM job of this sweep, its script in `folder`.
  SlurmJob job(const std::filesystem::path& folder) const {
    return SlurmJob{
        .name = sweep_.name,
        .mmsim = std::filesystem::canonical("/proc/self/exe"),
        .sweep = command_.sweep,
        .results = options_.results,
        .folder = folder,
        .folder_option = job_folder_option_,
        .workdir = std::filesystem::current_path(),
        .overrides = command_.overrides,
        .max_runs = options_.max_runs,
        .tasks = std::max<std::size_t>(
            1, std::min(plan_.runs.size(),
                        options_.array_size ? options_.array_size : kDefaultArrayTasks)),
        .cpus_per_task = options_.cpus_per_task,
        .partition = command_.partition,
        .time = command_.time,
        .sbatch_options = command_.sbatch_options,
    };
  }

  // The runs the results do not hold yet, in the sweep's order.
  std::vector<std::size_t> missing() const {
    std::vector<std::size_t> pending;
    for (std::size_t i = 0; i < plan_.runs.size(); ++i)
      if (!stored_.records.count(identities_[i])) pending.push_back(i);
    return pending;
  }

  void announce(const std::string& what) const {
    if (command_.quiet) return;
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
    if (stored_.torn > 0)
      std::cerr << "mmsim: " << stored_.torn
                << (stored_.torn == 1 ? " results file ends" : " results files end")
                << " in a torn line (a process ended while writing it): skipped\n";
  }

  // Runs `pending` on the local pool, appending each record to `log` as it finishes. Returns the
  // signal that interrupted it, or 0.
  int run_here(const std::vector<std::size_t>& pending, ResultsLog& log, unsigned workers) {
    std::optional<SweepProgress> progress;
    if (!command_.quiet) progress.emplace(pending.size(), isatty(STDERR_FILENO) != 0);
    const auto record = [&](nlohmann::json r, double seconds) {
      r["seconds"] = seconds;
      log.append(r);
      if (progress) progress->finished(run_failed(r));
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
    const int signal = pool.run(
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
        [&] {
          if (progress) progress->tick();
        });
    if (progress) progress->close();
    return signal;
  }

  // Exit status 130 for SIGINT and SIGTERM (documented), 128 + the signal for another (SIGHUP).
  int interrupted(const std::filesystem::path& results, int signal) const {
    std::size_t held = 0;
    for (const std::string& identity : identities_) held += stored_.records.count(identity);
    std::cerr << "mmsim: interrupted: " << held << " of " << plan_.runs.size() << " runs are in "
              << results.string() << "; the same command with --resume goes on from there\n";
    return signal == SIGINT || signal == SIGTERM ? 130 : 128 + signal;
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
    ResultsLog log(task_results_path(options_.results, options_.task), true, {"--results", 0, 0});
    const int signal = run_here(pending, log, workers);
    return signal ? interrupted(log.path(), signal) : 0;
  }

  int submit() {
    if (command_.resume) stored_ = read_results(results_files(options_.results), column_paths_);
    const std::size_t pending = missing().size();
    announce(", " + std::to_string(pending) + " to run in " + std::to_string(job_->tasks) +
             " SLURM array tasks");
    script_->write(job_script_);
    script_->commit();
    const std::filesystem::path script = job_->folder / "job.sh";
    const std::string collect =
        "mmsim sweep " + shell_quote(command_.sweep) + " --collect" +
        (command_.results.empty() ? std::string() : " --results " + shell_quote(command_.results));
    if (!command_.slurm) {
      std::cerr << "mmsim: wrote " << script.string() << "; submit it with: sbatch "
                << shell_quote(script.string()) << "; when it is done: " << collect << "\n";
      return 0;
    }
    const std::string id = submit_slurm_job(script);
    std::cerr << "mmsim: submitted SLURM job " << id << " (" << job_->tasks << " tasks; output in "
              << job_->folder.string() << ")\n";
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
    if (!command_.quiet) std::cout << markdown;
    return failed ? 1 : 0;
  }

  const SweepRequest& command_;
  const Options& options_;
  std::unique_ptr<OutputFiles> tables_;
  std::optional<SlurmJob> job_;  // --slurm, --emit-slurm
  std::string job_folder_option_;
  std::string job_script_;
  std::optional<OutputFolder> folder_;  // the job's folder, made if missing
  std::unique_ptr<PendingFile> script_;
  Sweep sweep_;
  SweepPlan plan_;
  std::vector<std::string> identities_;  // of each run of the plan
  std::vector<std::string> column_paths_;
  StoredResults stored_;
};

}  // namespace

int execute_sweep(const SweepRequest& command) {
  const Options options = parse_options(command);
  SweepSession session(command, options);
  return session.execute();
}

int run_sweep(const SweepRequest& command) {
  try {
    return execute_sweep(command);
  } catch (const InputError& e) {
    std::cerr << "mmsim: " << e.describe() << "\n";
    return 2;
  } catch (const std::runtime_error& e) {  // an output that cannot be written, SLURM refusing
    std::cerr << "mmsim: sweep: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace mmsim
