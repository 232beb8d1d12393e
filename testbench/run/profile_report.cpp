#include "testbench/run/profile_report.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace mmsim {
namespace {

nlohmann::json counts_json(const SiteCounts& c) {
  return {{"instructions", c.instructions},
          {"dispatches", c.dispatches},
          {"requests", c.requests},
          {"stages", c.stages},
          {"max_stages", c.max_stages},
          {"mean_stages", c.dispatches > 0 ? nlohmann::json(static_cast<double>(c.stages) /
                                                            static_cast<double>(c.dispatches))
                                           : nlohmann::json(nullptr)},
          {"turn_wait", c.turn_wait},
          {"memory_wait", c.memory_wait},
          {"barriers", c.barriers},
          {"barrier_wait", c.barrier_wait}};
}

std::string mean(const SiteCounts& c) {
  if (c.dispatches == 0) return "-";
  return fmt::format("{:.2f}", static_cast<double>(c.stages) / static_cast<double>(c.dispatches));
}

}  // namespace

std::string site_text(const SiteInfo& site) {
  std::string text = site.file;
  if (site.line > 0) text += (text.empty() ? "line " : ":") + std::to_string(site.line);
  if (!site.label.empty()) text += text.empty() ? site.label : " (" + site.label + ")";
  return text;
}

std::string row_memory(const ProfileRow& row, const RunResult& result) {
  if (row.memory == kNoMemory) return "barrier";
  return row.memory < result.memories.size() ? result.memories[row.memory].label
                                             : "memory " + std::to_string(row.memory);
}

std::vector<std::string> profile_lines(const ProfileTable& profile, const RunResult& result,
                                       std::size_t shown) {
  std::vector<const ProfileRow*> rows;
  for (const ProfileRow& row : profile.rows) rows.push_back(&row);
  std::stable_sort(rows.begin(), rows.end(), [](const ProfileRow* a, const ProfileRow* b) {
    return a->counts.time() > b->counts.time();
  });
  const SiteCounts total = profile.total();
  std::vector<std::string> lines;
  lines.push_back(fmt::format(
      "  profile      {} sites; {} by warp time (turn + memory + barrier, of {} time units)",
      profile.sites.size(), rows.size() > shown ? fmt::format("the top {}", shown) : "all",
      total.time()));
  std::vector<std::string> sites;
  std::size_t width = 4;
  for (std::size_t i = 0; i < rows.size() && i < shown; ++i) {
    sites.push_back(site_text(profile.sites[rows[i]->site]));
    width = std::max(width, sites.back().size());
  }
  width = std::min<std::size_t>(width, 60);
  const auto row_line = [&](const std::string& site, const std::string& memory, const auto&... c) {
    return fmt::format("    {:<{}} {:<12}{:>10}{:>11}{:>10}{:>6}{:>7}{:>11}{:>11}{:>11}", site,
                       width, memory, c...);
  };
  lines.push_back(row_line("site", "memory", "instr", "requests", "stages", "max", "mean", "turn",
                           "memory", "barrier"));
  for (std::size_t i = 0; i < sites.size(); ++i) {
    const ProfileRow& row = *rows[i];
    const SiteCounts& c = row.counts;
    std::string site = sites[i];
    if (site.size() > width) site = "..." + site.substr(site.size() - (width - 3));
    const bool barrier = row.memory == kNoMemory;
    lines.push_back(row_line(site, row_memory(row, result), barrier ? c.barriers : c.instructions,
                             barrier ? "-" : std::to_string(c.requests),
                             barrier ? "-" : std::to_string(c.stages),
                             barrier ? "-" : std::to_string(c.max_stages), mean(c), c.turn_wait,
                             c.memory_wait, c.barrier_wait));
  }
  return lines;
}

nlohmann::json profile_json(const ProfileTable& profile, const RunResult& result) {
  nlohmann::json sites = nlohmann::json::array();
  for (const SiteInfo& s : profile.sites)
    sites.push_back({{"file", s.file}, {"line", s.line}, {"label", s.label}});
  nlohmann::json rows = nlohmann::json::array();
  for (const ProfileRow& row : profile.rows) {
    nlohmann::json r = {{"site", row.site},
                        {"memory", row_memory(row, result)},
                        {"memory_id", row.memory == kNoMemory ? nlohmann::json(nullptr)
                                                              : nlohmann::json(row.memory)}};
    r.update(counts_json(row.counts));
    rows.push_back(std::move(r));
  }
  return {{"sites", sites}, {"rows", rows}, {"total", counts_json(profile.total())}};
}

}  // namespace mmsim
