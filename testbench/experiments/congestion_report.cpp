#include "testbench/experiments/congestion_report.hpp"
#include "hw/support/counted.hpp"

#include <bit>
#include <cmath>
#include <functional>
#include <map>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace mmsim {
namespace {

// s = log w is the super warp of Theorem 8 (the paper underlines these cells).
bool log_width(unsigned w, unsigned s) {
  return std::has_single_bit(w) && std::bit_width(w) - 1 == s;
}

std::string number(double value) {
  return std::isfinite(value) ? fmt::format("{:.3f}", value) : "-";
}

std::string block(const std::string& title, const std::vector<unsigned>& widths,
                  const std::vector<unsigned>& super_warps,
                  const std::function<double(unsigned w, unsigned s)>& value) {
  std::string out = title + "\n" + fmt::format("{:>6}", "s \\ w");
  for (const unsigned w : widths) out += fmt::format("{:>10}", w);
  out += "\n";
  for (const unsigned s : super_warps) {
    out += fmt::format("{:>6}", s);
    for (const unsigned w : widths)
      out += fmt::format("{:>9}{}", number(value(w, s)), log_width(w, s) ? "*" : " ");
    out += "\n";
  }
  return out;
}

}  // namespace

std::string format_congestion_table(const CongestionSpec& spec,
                                    const std::vector<CongestionCell>& cells) {
  std::map<std::tuple<std::uint64_t, unsigned, unsigned>, const CongestionCell*> at;
  for (const CongestionCell& c : cells) at[{c.array, c.super_warp, c.width}] = &c;
  // One port per bank: the paper's table, as it always was.
  const std::string ports =
      spec.ports == 1 ? "" : fmt::format(", banks of k = {} ports", spec.ports);
  const std::string y = spec.ports == 1
                            ? "Y: the most distinct addresses sent to one bank"
                            : "Y = ceil(c/k), c the most distinct addresses sent to one bank";
  std::string out = fmt::format(
      "congestion ratio E[Y]/s: {} per cell, seed {}, address map {}{}\n"
      "({} by the s*w threads of a super warp,\n"
      " each reading a uniformly random address of an array of n words; * marks s = log w)\n",
      counted(spec.rounds, "round"), spec.seed, spec.map, ports, y);
  for (const std::uint64_t n : spec.arrays) {
    out += "\n";
    out +=
        block(fmt::format("n = {}", n), spec.widths, spec.super_warps, [&](unsigned w, unsigned s) {
          return at.at({n, s, w})->ratio;
        });
    double worst = 0;
    for (const unsigned s : spec.super_warps)
      for (const unsigned w : spec.widths)
        worst = std::max(worst, at.at({n, s, w})->standard_error);
    out += fmt::format("  (largest standard error {:.4f})\n", worst);
  }
  out += "\n";
  out += block("f_w(s)/(es) = 2(log s + 1) log w / (s (log log w + 1))", spec.widths,
               spec.super_warps, analytic_ratio);
  return out;
}

std::string congestion_csv(const std::vector<CongestionCell>& cells) {
  std::string out = "width,super_warp,array,rounds,ratio,stderr,congestion,analytic\n";
  for (const CongestionCell& c : cells)
    out += fmt::format("{},{},{},{},{:.6f},{:.6f},{:.6f},{}\n", c.width, c.super_warp, c.array,
                       c.rounds, c.ratio, c.standard_error, c.congestion,
                       std::isfinite(c.analytic) ? fmt::format("{:.6f}", c.analytic) : "");
  return out;
}

std::string congestion_json(const CongestionSpec& spec, const std::vector<CongestionCell>& cells,
                            const Provenance& provenance) {
  nlohmann::json list = nlohmann::json::array();
  for (const CongestionCell& c : cells)
    list.push_back({{"width", c.width},
                    {"super_warp", c.super_warp},
                    {"array", c.array},
                    {"rounds", c.rounds},
                    {"ratio", c.ratio},
                    {"stderr", c.standard_error},
                    {"congestion", c.congestion},
                    {"analytic", std::isfinite(c.analytic) ? nlohmann::json(c.analytic)
                                                           : nlohmann::json(nullptr)}});
  nlohmann::json table = nlohmann::json::object();
  add_provenance(table, provenance);
  table["resolved"] = {{"widths", spec.widths}, {"super_warps", spec.super_warps},
                       {"arrays", spec.arrays}, {"rounds", spec.rounds},
                       {"seed", spec.seed},     {"map", spec.map},
                       {"ports", spec.ports}};
  table["cells"] = list;
  return table.dump(2) + "\n";
}

}  // namespace mmsim
