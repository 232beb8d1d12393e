// A warp program's per-lane loops write one element per lane of arrays that never overlap (the
// lanes' buffers). MMSIM_LANES_APART before such a loop says so to GCC, which then vectorises
// it without checking at run time whether the arrays overlap (with many arrays it gives up
// checking, and the loop stays scalar). Clang builds (the sanitized and fuzzing build) leave it
// out: clang warns at -O1 where it cannot vectorise a loop so marked.
#pragma once

#if defined(__GNUC__) && !defined(__clang__)
#define MMSIM_LANES_APART _Pragma("GCC ivdep")
#else
#define MMSIM_LANES_APART
#endif
