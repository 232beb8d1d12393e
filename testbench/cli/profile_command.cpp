// mmsim profile STATS.json: the profile a run wrote into its statistics (--profile), per site;
// with --source, the program's source lines annotated with their counts, as `perf annotate`
// shows them (docs/statistics.md, "Profile").
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "testbench/cli/subcommands.hpp"

namespace mmsim {
namespace {

struct ProfileCommand {
  std::string stats;
  bool source = false;
  unsigned context = 3;    // lines shown around an annotated one
  std::string source_dir;  // where relative files are looked for, after the current folder
};

// One site's counts, summed over its memories.
struct SiteLine {
  std::string file;
  std::uint64_t line = 0;
  std::string label;
  std::uint64_t instructions = 0;
  std::uint64_t requests = 0;
  std::uint64_t stages = 0;
  std::uint64_t max_stages = 0;
  std::uint64_t dispatches = 0;
  std::uint64_t barriers = 0;
  std::uint64_t turn = 0;
  std::uint64_t memory = 0;
  std::uint64_t barrier = 0;
  std::uint64_t time() const { return turn + memory + barrier; }
};

class Failure : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::vector<SiteLine> read_sites(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Failure(path + ": cannot be read");
  nlohmann::json stats;
  try {
    stats = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw Failure(path + ": not a statistics JSON (" + e.what() + ")");
  }
  if (!stats.is_object() || !stats.contains("profile"))
    throw Failure(path + ": holds no profile (run with --profile, or outputs.profile: true)");
  try {
    const nlohmann::json& profile = stats.at("profile");
    std::vector<SiteLine> sites;
    for (const nlohmann::json& s : profile.at("sites"))
      sites.push_back({s.at("file").get<std::string>(), s.at("line").get<std::uint64_t>(),
                       s.at("label").get<std::string>()});
    for (const nlohmann::json& row : profile.at("rows")) {
      SiteLine& s = sites.at(row.at("site").get<std::size_t>());
      const auto count = [&row](const char* key) { return row.at(key).get<std::uint64_t>(); };
      s.instructions += count("instructions");
      s.requests += count("requests");
      s.stages += count("stages");
      s.max_stages = std::max(s.max_stages, count("max_stages"));
      s.dispatches += count("dispatches");
      s.barriers += count("barriers");
      s.turn += count("turn_wait");
      s.memory += count("memory_wait");
      s.barrier += count("barrier_wait");
    }
    return sites;
  } catch (const nlohmann::json::exception& e) {
    throw Failure(path + ": its profile is not as docs/statistics.md describes it (" + e.what() +
                  ")");
  }
}

std::string percent(std::uint64_t part, std::uint64_t whole) {
  if (whole == 0) return "-";
  return fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

std::string mean(const SiteLine& s) {
  if (s.dispatches == 0) return "-";
  return fmt::format("{:.2f}", static_cast<double>(s.stages) / static_cast<double>(s.dispatches));
}

const char* kHeader = "   %time  instr  requests   stages  max  mean     turn   memory  barrier";

std::string counts(const SiteLine& s, std::uint64_t total) {
  return fmt::format("{:>8}{:>7}{:>10}{:>9}{:>5}{:>6}{:>9}{:>9}{:>9}", percent(s.time(), total),
                     s.instructions + s.barriers, s.requests, s.stages, s.max_stages, mean(s),
                     s.turn, s.memory, s.barrier);
}

// The file of a site: as named (absolute, or from the current folder), beside the statistics,
// or in the source tree.
std::optional<std::filesystem::path> find_source(const std::string& file,
                                                 const ProfileCommand& command) {
  namespace fs = std::filesystem;
  std::error_code error;
  for (const fs::path& candidate : {fs::path(file), fs::path(command.stats).parent_path() / file,
                                    fs::path(command.source_dir) / file})
    if (fs::is_regular_file(candidate, error)) return candidate;
  return std::nullopt;
}

void print_table(const std::vector<SiteLine>& sites, std::uint64_t total) {
  std::vector<const SiteLine*> order;
  for (const SiteLine& s : sites) order.push_back(&s);
  std::stable_sort(order.begin(), order.end(),
                   [](const SiteLine* a, const SiteLine* b) { return a->time() > b->time(); });
  std::cout << kHeader << "  site\n";
  for (const SiteLine* s : order) {
    std::string where = s->file;
    if (s->line > 0) where += ":" + std::to_string(s->line);
    if (!s->label.empty()) where += " (" + s->label + ")";
    std::cout << counts(*s, total) << "  " << where << "\n";
  }
}

void print_source(const std::vector<SiteLine>& sites, std::uint64_t total,
                  const ProfileCommand& command) {
  std::map<std::string, std::map<std::uint64_t, SiteLine>> files;  // a line's sites summed
  for (const SiteLine& s : sites) {
    SiteLine& at = files[s.file][s.line];
    at.file = s.file;
    at.line = s.line;
    at.label = at.label.empty() ? s.label : at.label + ", " + s.label;
    at.instructions += s.instructions;
    at.requests += s.requests;
    at.stages += s.stages;
    at.max_stages = std::max(at.max_stages, s.max_stages);
    at.dispatches += s.dispatches;
    at.barriers += s.barriers;
    at.turn += s.turn;
    at.memory += s.memory;
    at.barrier += s.barrier;
  }
  bool first = true;
  for (const auto& [file, lines] : files) {
    std::uint64_t time = 0;
    for (const auto& [number, s] : lines) time += s.time();
    std::cout << (first ? "" : "\n") << (file.empty() ? "(no file)" : file) << "  ("
              << percent(time, total) << " of the warp time)\n";
    first = false;
    const std::optional<std::filesystem::path> path = find_source(file, command);
    std::vector<std::string> text;
    if (path) {
      std::ifstream in(*path);
      for (std::string line; std::getline(in, line);) text.push_back(line);
    }
    std::cout << kHeader << "  line\n";
    if (text.empty()) {
      for (const auto& [number, s] : lines)
        std::cout << counts(s, total) << fmt::format("{:>6} | ", number) << s.label << "\n";
      if (!file.empty()) std::cout << "  (source not found: " << file << ")\n";
      continue;
    }
    std::uint64_t shown_to = 0;  // the last line printed
    for (std::uint64_t n = 1; n <= text.size(); ++n) {
      const auto next = lines.lower_bound(n > command.context ? n - command.context : 1);
      const bool near = next != lines.end() && next->first <= n + command.context;
      if (!near) continue;
      if (shown_to > 0 && n > shown_to + 1) std::cout << fmt::format("{:>77}\n", "...");
      const auto here = lines.find(n);
      std::cout << (here != lines.end() ? counts(here->second, total) : std::string(72, ' '))
                << fmt::format("{:>6} | ", n) << text[n - 1] << "\n";
      shown_to = n;
    }
  }
}

int profile_command(const ProfileCommand& command) {
  try {
    const std::vector<SiteLine> sites = read_sites(command.stats);
    std::uint64_t total = 0;
    for (const SiteLine& s : sites) total += s.time();
    if (command.source)
      print_source(sites, total, command);
    else
      print_table(sites, total);
    return 0;
  } catch (const Failure& e) {
    std::cerr << "mmsim: profile: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

Subcommand add_profile_command(CLI::App& app) {
  auto command = std::make_shared<ProfileCommand>();
  command->source_dir = MMSIM_SOURCE_DIR;
  CLI::App* profile_app = app.add_subcommand(
      "profile", "show the profile a run wrote into its statistics (mmsim run --profile)");
  profile_app->add_option("stats", command->stats, "statistics JSON of a profiled run")->required();
  profile_app->add_flag("--source", command->source,
                        "print the program's source lines annotated with their counts");
  profile_app
      ->add_option("--context", command->context,
                   "lines of source shown around each annotated line")
      ->transform(integer_in(0, 1u << 20));
  profile_app->add_option("--source-dir", command->source_dir,
                          "where relative source files are looked for (after the current "
                          "folder and the statistics' folder); default: the source tree mmsim "
                          "was built from");
  return {profile_app, [command] { return profile_command(*command); }};
}

}  // namespace mmsim
