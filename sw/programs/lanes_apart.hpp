// A warp program's per-lane loops write one element per lane of arrays that never overlap (the
// lanes' buffers). MMSIM_LANES_APART before such a loop says so to the compiler, which then
// vectorises it without checking at run time whether the arrays overlap (with many arrays GCC
// gives up checking, and the loop stays scalar).
#pragma once

#if defined(__clang__)
#define MMSIM_LANES_APART _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define MMSIM_LANES_APART _Pragma("GCC ivdep")
#else
#define MMSIM_LANES_APART
#endif
