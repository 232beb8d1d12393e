// The same program with its co_awaits: compiles without a warning (tests/compile/).
#include <array>

#include "hw/pe/warp.hpp"

mmsim::Task awaits(mmsim::Warp& warp) {
  const std::array<mmsim::Address, 4> addresses{0, 1, 2, 3};
  co_await warp.read(addresses);
  co_await warp.sync();
}
