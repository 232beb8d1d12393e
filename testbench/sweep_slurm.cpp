#include "testbench/sweep_slurm.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "testbench/sweep_plan.hpp"

extern char** environ;

namespace mmsim {
namespace {

struct Captured {
  int status = -1;     // the exit status, -1 when it did not exit
  std::string output;  // stdout and stderr
};

// Runs a program found on PATH and captures what it prints.
Captured capture(const std::vector<std::string>& argv) {
  int out[2];
  if (pipe(out) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, out[1]);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int error = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  if (error != 0) {
    close(out[0]);
    throw std::runtime_error(argv[0] + ": " + std::system_category().message(error) +
                             " (the SLURM commands are not on PATH?)");
  }
  Captured result;
  char buffer[4096];
  ssize_t n = 0;
  while ((n = read(out[0], buffer, sizeof buffer)) != 0) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    result.output.append(buffer, static_cast<std::size_t>(n));
  }
  close(out[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) result.status = WEXITSTATUS(status);
  return result;
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

std::filesystem::path write_slurm_job(const SlurmJob& job) {
  std::filesystem::create_directories(job.folder);
  const std::filesystem::path script = job.folder / "job.sh";
  const std::string q_results = shell_quote(job.results.string());
  std::string text = "#!/bin/sh\n";
  text += "# mmsim sweep " + job.name + ": " + std::to_string(job.tasks) +
          " array tasks. Task I runs the runs I, I+" + std::to_string(job.tasks) +
          ", ... of the sweep and appends them to its own results file beside $RESULTS.\n"
          "# Submit: sbatch " +
          shell_quote(script.string()) + "\n# Then:   mmsim sweep " +
          shell_quote(job.sweep.string()) + " --collect --results " + q_results + "\n";
  std::string name = "mmsim-" + job.name;  // #SBATCH lines take no quotes: one plain word
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '-';
  text += "#SBATCH --job-name=" + name + "\n";
  text += "#SBATCH --array=0-" + std::to_string(job.tasks - 1) + "\n";
  text += "#SBATCH --output=" + (job.folder / "task-%a.out").string() + "\n";
  text += "#SBATCH --chdir=" + job.workdir.string() + "\n";
  text += "#SBATCH --cpus-per-task=" + std::to_string(job.cpus_per_task) + "\n";
  if (!job.partition.empty()) text += "#SBATCH --partition=" + job.partition + "\n";
  if (!job.time.empty()) text += "#SBATCH --time=" + job.time + "\n";
  for (const std::string& option : job.sbatch_options) text += "#SBATCH " + option + "\n";
  text +=
      "\n# The machines that run the tasks share this file system; they start in the folder\n"
      "# of --chdir above.\n";
  text += "MMSIM=" + shell_quote(job.mmsim.string()) + "\n";
  text += "SWEEP=" + shell_quote(job.sweep.string()) + "\n";
  text += "RESULTS=" + q_results + "\n\n";
  text += "exec \"$MMSIM\" sweep \"$SWEEP\"";
  for (const std::string& o : job.overrides) text += " --set " + shell_quote(o);
  text += " --results \"$RESULTS\" --max-runs " + std::to_string(job.max_runs) +
          " --task \"$SLURM_ARRAY_TASK_ID/" + std::to_string(job.tasks) +
          "\" --jobs \"${SLURM_CPUS_PER_TASK:-1}\"\n";
  {
    std::ofstream out(script, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out)
      throw std::system_error(errno ? errno : EIO, std::generic_category(),
                              "cannot write " + script.string());
  }
  std::filesystem::permissions(script,
                               std::filesystem::perms::owner_exec |
                                   std::filesystem::perms::group_exec |
                                   std::filesystem::perms::others_exec,
                               std::filesystem::perm_options::add);
  return script;
}

std::string submit_slurm_job(const std::filesystem::path& script) {
  const Captured done = capture({"sbatch", "--parsable", script.string()});
  if (done.status != 0) throw std::runtime_error("sbatch refused the job: " + trimmed(done.output));
  std::string id = trimmed(done.output);
  id = id.substr(id.rfind('\n') + 1);  // the last line
  return id.substr(0, id.find(';'));   // "id;cluster"
}

void wait_for_slurm_job(const std::string& id) {
  auto pause = std::chrono::milliseconds(100);
  while (true) {
    const Captured queue = capture({"squeue", "--noheader", "--jobs", id, "--format=%i"});
    // squeue forgets a job some minutes after it ended, and then says the id is invalid.
    if (queue.status != 0 && queue.output.find("Invalid job id") != std::string::npos) return;
    if (queue.status != 0) throw std::runtime_error("squeue failed: " + trimmed(queue.output));
    if (trimmed(queue.output).empty()) return;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(2000));
  }
}

}  // namespace mmsim
