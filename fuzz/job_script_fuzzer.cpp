// The SLURM job script of a sweep, written from values as the command line gives them: fields of
// the input separated by the byte 0x1f are the job's name, partition, time, sweep file, results
// file, folder and working folder, then --sbatch options (a field "s...") and --set overrides
// ("o..."). Expected outcome of a bad value: InputError. A script that a shell would read as
// more or other commands than mmsim writes traps: every line outside a quoted word is the
// shebang, a comment, an #SBATCH line of one word, an assignment of one word or the exec line,
// and the exec line's words are mmsim's, each --set value unquoted being the override given.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_input.hpp"
#include "sw/program/input_error.hpp"
#include "testbench/sweep_slurm.hpp"

namespace {

// The input's fields, separated by 0x1f.
std::vector<std::string> fields(std::string_view text) {
  std::vector<std::string> out;
  for (std::size_t start = 0;;) {
    const std::size_t end = text.find('\x1f', start);
    out.emplace_back(text.substr(start, end - start));
    if (end == std::string_view::npos) return out;
    start = end + 1;
  }
}

// A line of the script as sh reads it: its text outside quotes, and its words with the quotes
// taken off (a comment has none).
struct Line {
  std::string text;
  std::vector<std::string> words;
};

// The script's lines: a newline inside a quoted word does not end one, a backslash outside quotes
// takes the next character as it is (shell_quote writes a quote as '\''), a '#' at the start of
// a word starts a comment to the end of the line (quotes in it mean nothing). Traps on an
// unclosed quote.
std::vector<Line> sh_lines(const std::string& script) {
  std::vector<Line> out(1);
  std::string word;
  bool in_word = false;
  bool comment = false;
  bool escaped = false;
  char quote = 0;
  for (const char c : script) {
    Line& line = out.back();
    if (escaped) {
      line.text += c;
      word += c;
      escaped = false;
      continue;
    }
    if (comment && c != '\n') {
      line.text += c;
      continue;
    }
    if (quote) {
      line.text += c;
      if (c == quote)
        quote = 0;
      else
        word += c;
      continue;
    }
    if (c == '\n') {
      if (in_word) line.words.push_back(word);
      word.clear();
      in_word = comment = false;
      out.emplace_back();
      continue;
    }
    line.text += c;
    if (c == '#' && !in_word) {
      comment = true;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == ' ') {
      if (in_word) line.words.push_back(word);
      word.clear();
      in_word = false;
    } else if (c == '\\') {
      escaped = in_word = true;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote || escaped) std::abort();
  if (in_word) out.back().words.push_back(word);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string> f = fields(mmsim::fuzz::as_text(data, size));
  const auto field = [&](std::size_t i) { return i < f.size() ? f[i] : std::string(); };
  mmsim::SlurmJob job{.name = field(0),
                      .mmsim = "/usr/bin/mmsim",
                      .sweep = field(3),
                      .results = field(4),
                      .folder = field(5).empty() ? "/tmp/job" : field(5),
                      .folder_option = "--emit-slurm",
                      .workdir = field(6).empty() ? "/tmp" : field(6),
                      .max_runs = 100,
                      .tasks = 4,
                      .partition = field(1),
                      .time = field(2)};
  for (std::size_t i = 7; i < f.size(); ++i) {
    if (f[i].empty()) continue;
    if (f[i][0] == 's') job.sbatch_options.push_back(f[i].substr(1));
    if (f[i][0] == 'o') job.overrides.push_back(f[i].substr(1));
  }
  std::string script;
  try {
    script = mmsim::slurm_job_script(job);
  } catch (const mmsim::InputError&) {
    return 0;
  }
  std::size_t sbatch = 0;
  std::size_t execs = 0;
  for (const Line& line : sh_lines(script)) {
    if (line.text.rfind("#SBATCH ", 0) == 0) {
      ++sbatch;
      if (line.text.find_first_of(" \t", 8) != std::string::npos) std::abort();  // one word
      continue;
    }
    if (line.words.empty()) continue;  // a comment, the shebang, a blank line
    if (line.words.size() == 1 &&
        (line.text.rfind("MMSIM=", 0) == 0 || line.text.rfind("SWEEP=", 0) == 0 ||
         line.text.rfind("RESULTS=", 0) == 0))
      continue;
    if (line.words[0] != "exec") std::abort();  // a command of its own
    ++execs;
    // exec "$MMSIM" sweep "$SWEEP" [--set VALUE]... --results ...
    std::vector<std::string> overrides;
    for (std::size_t w = 0; w + 1 < line.words.size(); ++w)
      if (line.words[w] == "--set") overrides.push_back(line.words[++w]);
    if (overrides != job.overrides) std::abort();
  }
  if (execs != 1 ||
      sbatch != 5 + !job.partition.empty() + !job.time.empty() + job.sbatch_options.size())
    std::abort();
  return 0;
}
