#include "sw/support/available_cores.hpp"

#include <sched.h>

#include <algorithm>
#include <thread>

namespace mmsim {

unsigned available_cores() {
  unsigned cores = std::thread::hardware_concurrency();  // 0: not known
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    const auto allowed = static_cast<unsigned>(CPU_COUNT(&set));
    cores = cores == 0 ? allowed : std::min(cores, allowed);
  }
  return std::max(cores, 1u);
}

}  // namespace mmsim
