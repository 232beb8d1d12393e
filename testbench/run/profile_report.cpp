#include "testbench/run/profile_report.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "sw/program/input_error.hpp"

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

// profile.<path>'s value as a T within [0, max], or InputError at `file` naming the key.
template <class T>
T number_at(const nlohmann::json& value, const std::string& path, const std::string& file,
            std::uint64_t max = ~std::uint64_t{0}) {
  if (!value.is_number_unsigned() || value.get<std::uint64_t>() > max)
    throw InputError({file, 0, 0}, "profile." + path + ": expected an integer from 0 to " +
                                       std::to_string(max) + ", got " + value.dump());
  return static_cast<T>(value.get<std::uint64_t>());
}

}  // namespace

std::string mean_stages(const SiteCounts& c) {
  if (c.dispatches == 0) return "-";
  return fmt::format("{:.2f}", static_cast<double>(c.stages) / static_cast<double>(c.dispatches));
}

std::string row_memory(const ProfileRow& row, const RunResult& result) {
  if (row.memory == kNoMemory) return "barrier";
  return row.memory < result.memories.size() ? result.memories[row.memory].label
                                             : "memory " + std::to_string(row.memory);
}

ProfileView profile_view(const std::string& text, const SourceLocation& where) {
  ProfileView view;
  const std::map<std::string, ProfileView::Order> orders = {{"time", ProfileView::Order::time},
                                                            {"stages", ProfileView::Order::stages},
                                                            {"mean", ProfileView::Order::mean},
                                                            {"max", ProfileView::Order::max}};
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string word = text.substr(start, comma - start);
    start = comma + 1;
    if (const auto order = orders.find(word); order != orders.end()) {
      view.order = order->second;
    } else if (word == "all") {
      view.rows.reset();
    } else if (word == "memories") {
      view.per_memory = true;
    } else if (!word.empty() && word.size() < 10 &&
               word.find_first_not_of("0123456789") == std::string::npos && std::stoul(word) > 0) {
      view.rows = std::stoul(word);
    } else {
      throw InputError(where,
                       "expected a sort key (time, stages, mean, max), a row count (a "
                       "number from 1, or all) or memories, got '" +
                           word + "'");
    }
  }
  return view;
}

std::vector<std::string> profile_lines(const ProfileTable& profile, const RunResult& result,
                                       const ProfileView& view) {
  // The rows as shown: a shared memory's row joins the row of its line's first shared memory.
  const auto shared = [&](MemoryId m) {
    return m != kNoMemory && m < result.memories.size() && result.memories[m].block != kNoBlock;
  };
  std::size_t shared_memories = 0;
  for (const MemoryResult& m : result.memories) shared_memories += m.block != kNoBlock;
  const bool merge = !view.per_memory && shared_memories > 1;
  struct Shown {
    ProfileRow row;
    std::string memory;
  };
  std::vector<Shown> rows;
  std::map<SiteId, std::size_t> shared_row;  // per site, its merged shared-memory row
  for (const ProfileRow& row : profile.rows) {
    if (merge && shared(row.memory)) {
      const auto [at, added] = shared_row.emplace(row.site, rows.size());
      if (!added) {
        rows[at->second].row.counts += row.counts;
        continue;
      }
      rows.push_back({row, "shared"});
      continue;
    }
    rows.push_back({row, row_memory(row, result)});
  }
  // By the view's key, most first (rows without a dispatch, barriers', after the others).
  const auto key = [&](const SiteCounts& c) -> double {
    switch (view.order) {
      case ProfileView::Order::time:
        return static_cast<double>(c.time());
      case ProfileView::Order::stages:
        return static_cast<double>(c.stages);
      case ProfileView::Order::mean:
        return c.dispatches == 0
                   ? -1.0
                   : static_cast<double>(c.stages) / static_cast<double>(c.dispatches);
      case ProfileView::Order::max:
        return static_cast<double>(c.max_stages);
    }
    return 0;
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const Shown& a, const Shown& b) {
    return key(a.row.counts) > key(b.row.counts);
  });
  const std::size_t shown = std::min(rows.size(), view.rows.value_or(rows.size()));
  const SiteCounts total = profile.total();
  const std::string orders[] = {
      fmt::format("warp time (turn + memory + barrier, of {} time units)", total.time()),
      fmt::format("stages (of {})", total.stages), "mean stages per dispatch",
      "the most stages of one dispatch"};
  std::vector<std::string> lines;
  lines.push_back(fmt::format(
      "  profile      {} sites; {} by {}{}", profile.sites.size(),
      rows.size() > shown ? fmt::format("the top {}", shown) : "all",
      orders[static_cast<int>(view.order)],
      merge ? fmt::format("; each shared-memory line once over the {} SMs", shared_memories) : ""));
  std::vector<std::string> sites;
  std::size_t width = 4;
  for (std::size_t i = 0; i < shown; ++i) {
    sites.push_back(site_text(profile.sites[rows[i].row.site]));
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
    const ProfileRow& row = rows[i].row;
    const SiteCounts& c = row.counts;
    std::string site = sites[i];
    if (site.size() > width) site = "..." + site.substr(site.size() - (width - 3));
    const bool barrier = row.memory == kNoMemory;
    lines.push_back(row_line(site, rows[i].memory, barrier ? c.barriers : c.instructions,
                             barrier ? "-" : std::to_string(c.requests),
                             barrier ? "-" : std::to_string(c.stages),
                             barrier ? "-" : std::to_string(c.max_stages), mean_stages(c),
                             c.turn_wait, c.memory_wait, c.barrier_wait));
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

ProfileTable profile_from_json(const nlohmann::json& profile, const std::string& file) {
  const auto at = [&](const nlohmann::json& object, const std::string& path,
                      const char* key) -> const nlohmann::json& {
    if (!object.is_object() || !object.contains(key))
      throw InputError({file, 0, 0}, "profile." + path + ": missing key '" + key + "'");
    return object.at(key);
  };
  const auto list = [&](const char* key) -> const nlohmann::json& {
    const nlohmann::json& value = at(profile, "", key);
    if (!value.is_array())
      throw InputError({file, 0, 0}, std::string("profile.") + key + ": expected a list");
    return value;
  };
  const auto text = [&](const nlohmann::json& value, const std::string& path) {
    if (!value.is_string())
      throw InputError({file, 0, 0},
                       "profile." + path + ": expected a string, got " +
                           value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    return value.get<std::string>();
  };
  ProfileTable table;
  const nlohmann::json& sites = list("sites");
  for (std::size_t i = 0; i < sites.size(); ++i) {
    const std::string path = "sites[" + std::to_string(i) + "]";
    table.sites.push_back(
        {text(at(sites[i], path, "file"), path + ".file"),
         number_at<std::uint32_t>(at(sites[i], path, "line"), path + ".line", file, ~0u),
         text(at(sites[i], path, "label"), path + ".label")});
  }
  const nlohmann::json& rows = list("rows");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string path = "rows[" + std::to_string(i) + "]";
    const nlohmann::json& row = rows[i];
    ProfileRow r;
    r.site = number_at<SiteId>(at(row, path, "site"), path + ".site", file,
                               std::numeric_limits<SiteId>::max());
    if (r.site >= table.sites.size())
      throw InputError({file, 0, 0}, "profile." + path + ".site: names site " +
                                         std::to_string(r.site) + "; the profile has " +
                                         std::to_string(table.sites.size()) + " sites");
    const nlohmann::json& memory = at(row, path, "memory_id");
    r.memory = memory.is_null() ? kNoMemory
                                : number_at<MemoryId>(memory, path + ".memory_id", file,
                                                      std::numeric_limits<MemoryId>::max() - 1);
    const auto count = [&](const char* key) {
      return number_at<std::uint64_t>(at(row, path, key), path + "." + key, file);
    };
    r.counts = {.instructions = count("instructions"),
                .dispatches = count("dispatches"),
                .requests = count("requests"),
                .stages = count("stages"),
                .max_stages = count("max_stages"),
                .turn_wait = count("turn_wait"),
                .memory_wait = count("memory_wait"),
                .barriers = count("barriers"),
                .barrier_wait = count("barrier_wait")};
    table.rows.push_back(r);
  }
  return table;
}

}  // namespace mmsim
