#include "sw/programs/transpose_orders.hpp"

#include <algorithm>

namespace mmsim {

OrdersByColumn transpose_orders(const MachineConfig& m, std::uint64_t n_words, std::uint64_t side,
                                CrossAccess access, TimeOrder dmm) {
  const double n = static_cast<double>(n_words);
  const double w = m.width;
  const double s = m.super_warp;
  const double p = static_cast<double>(m.threads);
  const double latency = n * m.latency / p;
  const bool column = access == CrossAccess::column;
  const TimeOrder sdmm =
      column ? TimeOrder{"column-major access by super warps of s warps",
                         "n/w + min(n, n*sqrt(n)/(s*w)) + n*l/p",
                         n / w + std::min(n, n * static_cast<double>(side) / (s * w)) + latency,
                         "Nakano and Matsumae 2013, Theorem 3"}
             : optimal_order(m, n, "diagonal access by super warps of s warps",
                             "Nakano and Matsumae 2013, Theorem 3");
  return {
      .pram = pram_order(m, n, "transpose on the PRAM", "Nakano 2012, section IV"),
      .bpram = bpram_order(m, n, "transpose on the BPRAM", "Nakano 2012, section IV"),
      .dmm = std::move(dmm),
      .sdmm = sdmm,
      .rsdmm = random_shift_order(m, n, "Nakano and Matsumae 2013, Theorem 8"),
      .umm = TimeOrder{std::string(column ? "a column" : "a diagonal") +
                           " crosses min(w, sqrt(n)) address groups per warp on the UMM",
                       "min(n, n*sqrt(n)/w) + n*l/p",
                       std::min(n, n * static_cast<double>(side) / w) + latency,
                       "Nakano 2012, section IV (stride sqrt(n))"},
  };
}

}  // namespace mmsim
