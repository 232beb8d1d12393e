// A warp program that forgets its co_awaits: the compiler must warn at each (tests/compile/).
#include <array>

#include "hw/pe/warp.hpp"

mmsim::Task forgets(mmsim::Warp& warp) {
  const std::array<mmsim::Address, 4> addresses{0, 1, 2, 3};
  warp.read(addresses);  // forgotten: issues nothing
  warp.sync();           // forgotten: reaches no barrier
  co_return;
}
