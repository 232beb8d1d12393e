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

#include "sw/program/input_error.hpp"
#include "sw/support/text_input.hpp"
#include "testbench/cli/subcommands.hpp"
#include "testbench/run/profile_report.hpp"

namespace mmsim {
namespace {

struct ProfileCommand {
  std::string stats;
  bool source = false;
  unsigned context = 3;    // lines shown around an annotated one
  std::string source_dir;  // where relative files are looked for, after the current folder
};

// The profile in the statistics file `path`.
ProfileTable read_profile(const std::string& path) {
  std::string text;
  try {
    std::ifstream in = open_text_file(path);
    text = read_text(in);
  } catch (const TextInputError& e) {
    throw InputError({path, 0, 0}, std::string("cannot be read: ") + e.what());
  }
  nlohmann::json stats;
  try {
    stats = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw InputError({path, 0, 0}, std::string("not a statistics JSON (") + e.what() + ")");
  }
  if (!stats.is_object() || !stats.contains("profile"))
    throw InputError({path, 0, 0},
                     "holds no profile (run with --profile, or outputs.profile: true)");
  return profile_from_json(stats.at("profile"), path);
}

// Each site's counts, summed over its memories (and its barriers).
std::vector<SiteCounts> per_site(const ProfileTable& profile) {
  std::vector<SiteCounts> sites(profile.sites.size());
  for (const ProfileRow& row : profile.rows) sites[row.site] += row.counts;
  return sites;
}

std::string percent(std::uint64_t part, std::uint64_t whole) {
  if (whole == 0) return "-";
  return fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

const char* kHeader = "   %time  instr  requests   stages  max  mean     turn   memory  barrier";

std::string counts(const SiteCounts& s, std::uint64_t total) {
  return fmt::format("{:>8}{:>7}{:>10}{:>9}{:>5}{:>6}{:>9}{:>9}{:>9}", percent(s.time(), total),
                     s.instructions + s.barriers, s.requests, s.stages, s.max_stages,
                     mean_stages(s), s.turn_wait, s.memory_wait, s.barrier_wait);
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

void print_table(const ProfileTable& profile, std::uint64_t total) {
  const std::vector<SiteCounts> sites = per_site(profile);
  std::vector<SiteId> order(sites.size());
  for (SiteId i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](SiteId a, SiteId b) { return sites[a].time() > sites[b].time(); });
  std::cout << kHeader << "  site\n";
  for (const SiteId site : order)
    std::cout << counts(sites[site], total) << "  " << site_text(profile.sites[site]) << "\n";
}

void print_source(const ProfileTable& profile, std::uint64_t total, const ProfileCommand& command) {
  // A line's sites summed, their labels listed.
  struct Line {
    SiteCounts counts;
    std::string label;
  };
  std::map<std::string, std::map<std::uint64_t, Line>> files;
  const std::vector<SiteCounts> sites = per_site(profile);
  for (SiteId i = 0; i < sites.size(); ++i) {
    const SiteInfo& site = profile.sites[i];
    Line& at = files[site.file][site.line];
    at.counts += sites[i];
    at.label = at.label.empty() ? site.label : at.label + ", " + site.label;
  }
  bool first = true;
  for (const auto& [file, lines] : files) {
    std::uint64_t time = 0;
    for (const auto& [number, line] : lines) time += line.counts.time();
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
      for (const auto& [number, line] : lines)
        std::cout << counts(line.counts, total) << fmt::format("{:>6} | ", number) << line.label
                  << "\n";
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
      std::cout << (here != lines.end() ? counts(here->second.counts, total) : std::string(72, ' '))
                << fmt::format("{:>6} | ", n) << text[n - 1] << "\n";
      shown_to = n;
    }
  }
}

int profile_command(const ProfileCommand& command) {
  try {
    const ProfileTable profile = read_profile(command.stats);
    const std::uint64_t total = profile.total().time();
    if (command.source)
      print_source(profile, total, command);
    else
      print_table(profile, total);
    return 0;
  } catch (const InputError& e) {
    std::cerr << "mmsim: profile: " << e.describe() << "\n";
    return 2;
  }
}

}  // namespace

Subcommand add_profile_command(CLI::App& app) {
  auto command = std::make_shared<ProfileCommand>();
  command->source_dir = MMSIM_SOURCE_DIR;
  CLI::App* profile_app = add_subcommand(
      app, "profile", "show the profile a run wrote into its statistics (mmsim run --profile)",
      "0 shown, 2 a file that cannot be read or holds no profile");
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
