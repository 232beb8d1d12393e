// How many processors this process may run on: what decides whether work is worth a second
// thread (reading a trace ahead of its consumer) or how many workers a sweep starts.
#pragma once

namespace mmsim {

// The processors of this process's affinity (sched_getaffinity: taskset, cgroups' cpusets), at
// most std::thread::hardware_concurrency() where that is known; at least 1.
unsigned available_cores();

}  // namespace mmsim
