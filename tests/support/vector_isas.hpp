// The instruction-set variants of hw/support/vector_isa.hpp as tests compare them: those this CPU
// runs and this build holds, and one put in use for a scope.
#pragma once

#include <vector>

#include "hw/support/vector_isa.hpp"

namespace mmsim::test {

// The variants this CPU runs and this build holds, from the baseline to the widest.
inline std::vector<VectorIsa> runnable_isas() {
  std::vector<VectorIsa> isas = {VectorIsa::baseline};
  for (const VectorIsa isa : {VectorIsa::x86_64_v3, VectorIsa::x86_64_v4})
    if (built_for(isa) && cpu_supports(isa)) isas.push_back(isa);
  return isas;
}

// Uses one variant for its lifetime, then the one in use before.
class UsingIsa {
 public:
  explicit UsingIsa(VectorIsa isa) : before_(vector_isa()) { use_vector_isa(isa); }
  ~UsingIsa() { use_vector_isa(before_); }
  UsingIsa(const UsingIsa&) = delete;
  UsingIsa& operator=(const UsingIsa&) = delete;

 private:
  VectorIsa before_;
};

}  // namespace mmsim::test
