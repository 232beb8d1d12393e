#include "testbench/sweep_slurm.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "sw/program/input_error.hpp"
#include "testbench/provenance.hpp"

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

// A character sbatch reads as one word on an #SBATCH line: printable, no blank, no quote.
bool sbatch_word_character(char c) {
  return c > ' ' && c < 0x7f && c != '\'' && c != '"' && c != '`' && c != '\\';
}

bool is_sbatch_word(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), sbatch_word_character);
}

bool is_number(std::string_view text) {
  return !text.empty() && text.size() <= 9 &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A value as a message shows it: in quotes, a control character as \n, \r, \t or \xHH.
std::string shown(std::string_view value) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "'";
  for (const char c : value) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < ' ' || byte == 0x7f) {
      out += std::string("\\x") + kHex[byte >> 4] + kHex[byte & 15];
    } else {
      out += c;
    }
  }
  return out + "'";
}

// A comment line of the script: a control character (a newline in a file name) would end it
// and start a command, so each is shown as '?'.
std::string comment(std::string line) {
  for (char& c : line)
    if (static_cast<unsigned char>(c) < ' ' || c == 0x7f) c = '?';
  return line + "\n";
}

// A path on an #SBATCH line, where it must be one word.
std::string sbatch_path(const std::filesystem::path& path, const SourceLocation& where,
                        const std::string& what) {
  if (!is_sbatch_word(path.string()))
    throw InputError(where, what + " " + shown(path.string()) +
                                " holds a blank, a quote, a backslash or a control character, "
                                "which an #SBATCH line cannot take");
  return path.string();
}

// An --sbatch option: one word, an option of sbatch; the values of --time, --partition and
// --account (and their short forms) as SLURM writes them.
void check_sbatch_option(const std::string& option) {
  const SourceLocation where{"--sbatch", 0, 0};
  if (option.size() < 2 || option[0] != '-' || !is_sbatch_word(option))
    throw InputError(where,
                     "expected one sbatch option such as --mem=4G (one word: no blanks, quotes, "
                     "backslashes or control characters), got " +
                         shown(option));
  struct Checked {
    std::string_view long_name;
    std::string_view short_name;
    bool (*valid)(std::string_view);
    std::string_view expected;
  };
  static constexpr Checked kChecked[] = {
      {"--time=", "-t", is_slurm_time, "a SLURM time limit (MM, MM:SS, HH:MM:SS, D-HH, ...)"},
      {"--partition=", "-p", is_slurm_names, "partition names"},
      {"--account=", "-A", is_slurm_names, "an account name"},
  };
  for (const Checked& c : kChecked) {
    std::string_view value;
    if (option.rfind(c.long_name, 0) == 0)
      value = std::string_view(option).substr(c.long_name.size());
    else if (option.rfind(c.short_name, 0) == 0)
      value = std::string_view(option).substr(c.short_name.size());
    else
      continue;
    if (!c.valid(value))
      throw InputError(where, "expected " + std::string(c.expected) + " in " + shown(option));
  }
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

bool is_slurm_time(std::string_view text) {
  if (text == "UNLIMITED" || text == "INFINITE") return true;
  const std::size_t dash = text.find('-');
  if (dash != std::string_view::npos && !is_number(text.substr(0, dash))) return false;
  // After days, hours[:minutes[:seconds]]; without, minutes[:seconds] or hours:minutes:seconds.
  std::string_view rest = dash == std::string_view::npos ? text : text.substr(dash + 1);
  for (int fields = 1;; ++fields) {
    const std::size_t colon = rest.find(':');
    if (!is_number(rest.substr(0, colon))) return false;
    if (colon == std::string_view::npos) return true;
    if (fields == 3) return false;
    rest.remove_prefix(colon + 1);
  }
}

bool is_slurm_names(std::string_view text) {
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    const std::string_view name = text.substr(start, comma - start);
    if (name.empty() || name.size() > 256) return false;
    for (const char c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.')
        return false;
    if (comma == std::string_view::npos) return true;
    start = comma + 1;
  }
}

std::string slurm_job_script(const SlurmJob& job) {
  const std::string script = (job.folder / "job.sh").string();
  const std::string q_results = shell_quote(job.results.string());
  if (!job.partition.empty() && !is_slurm_names(job.partition))
    throw InputError({"--partition", 0, 0},
                     "expected a partition name (letters, digits, '_', '-', '.'; a list "
                     "separated by commas), got " +
                         shown(job.partition));
  if (!job.time.empty() && !is_slurm_time(job.time))
    throw InputError({"--time", 0, 0},
                     "expected a SLURM time limit: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, "
                     "D-HH:MM:SS or UNLIMITED, got " +
                         shown(job.time));
  for (const std::string& option : job.sbatch_options) check_sbatch_option(option);
  std::string text = "#!/bin/sh\n";
  text += comment("# mmsim sweep " + job.name + ": " + std::to_string(job.tasks) +
                  " array tasks. Task I runs the runs I, I+" + std::to_string(job.tasks) +
                  ", ... of the sweep and appends them to its own results file beside $RESULTS.");
  text += comment("# Submit: sbatch " + shell_quote(script));
  text += comment("# Then:   mmsim sweep " + shell_quote(job.sweep.string()) +
                  " --collect --results " + q_results);
  std::string name = "mmsim-" + job.name;  // #SBATCH lines take no quotes: one plain word
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '-';
  text += "#SBATCH --job-name=" + name + "\n";
  text += "#SBATCH --array=0-" + std::to_string(job.tasks - 1) + "\n";
  // In --output, SLURM reads %a as the task's number and %% as one %.
  std::string output;
  for (const char c : sbatch_path(job.folder, {job.folder_option, 0, 0}, "the job's folder"))
    output += c == '%' ? "%%" : std::string(1, c);
  text += "#SBATCH --output=" + output + "/task-%a.out\n";
  text += "#SBATCH --chdir=" +
          sbatch_path(job.workdir, {job.folder_option, 0, 0},
                      "the current folder (where the tasks run)") +
          "\n";
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
  return text;
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
