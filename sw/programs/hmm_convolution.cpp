#include <algorithm>
#include <bit>
#include <cmath>
#include <span>

#include "sw/program/input_values.hpp"
#include "sw/program/word_arithmetic.hpp"
#include "sw/programs/block_steps.hpp"
#include "sw/programs/hmm_program.hpp"
#include "sw/programs/hmm_programs.hpp"

namespace mmsim {
namespace {

constexpr const char* kSource = "Nakano 2013 (the HMM), abstract";

// How a block's p/d threads share the work of its S outputs: q threads per output, each taking
// the coefficients j = r, r + q, r + 2q, ... (r = its part). With q = 1 thread t computes
// outputs t, t + p/d, ...; with q > 1 (when p/d >= 2S) thread t computes part r = t div S' of
// output t mod S', S' = S rounded up to a multiple of w (or, below w, to a power of two) so that
// a warp never splits a part's outputs: its reads are then of consecutive words.
struct WorkSplit {
  std::uint64_t parts = 1;   // q: threads per output
  std::uint64_t stride = 0;  // S': outputs per part (q > 1)

  static WorkSplit of(std::uint64_t outputs, std::uint64_t m, std::uint64_t threads, unsigned w) {
    if (outputs == 0) return {};
    const std::uint64_t stride = outputs >= w ? (outputs + w - 1) / w * w : std::bit_ceil(outputs);
    const std::uint64_t fit = std::min(threads / stride, m);
    return fit >= 2 ? WorkSplit{std::bit_floor(fit), stride} : WorkSplit{};
  }
};

// Per-lane loops, outside the coroutine (GCC optimises them only there).

// Lane i computes output x[i] with coefficient c[i] (kInactive: no work this step): the
// addresses of a[c] and of the window's b[x + c].
bool product_addresses(std::span<Address> a, std::span<Address> b, std::span<const Address> x,
                       std::span<const Address> c, std::uint64_t m, Address a_at, Address b_at) {
  bool any = false;
  for (std::size_t lane = 0; lane < a.size(); ++lane) {
    const bool active = x[lane] != kInactive && c[lane] < m;
    a[lane] = active ? a_at + c[lane] : kInactive;
    b[lane] = active ? b_at + x[lane] + c[lane] : kInactive;
    any |= active;
  }
  return any;
}

// Lane i's output x[i] (kInactive: none) in the round that starts at output `round`, and its
// first coefficient coef[i] (its part).
void assign_outputs(std::span<Address> x, std::span<Address> coef, const WorkSplit& split,
                    std::uint64_t first, std::uint64_t round, std::uint64_t outputs) {
  for (std::size_t lane = 0; lane < x.size(); ++lane) {
    const std::uint64_t t = first + lane;
    const std::uint64_t output = split.parts == 1 ? round + t : t % split.stride;
    const std::uint64_t part = split.parts == 1 ? 0 : t / split.stride;
    x[lane] = output < outputs && part < split.parts ? output : kInactive;
    coef[lane] = part;
  }
}

void copy_values(std::span<Word> out, std::span<const Word> got) {
  std::copy(got.begin(), got.end(), out.begin());
}

void multiply_add(std::span<Word> sums, std::span<const Word> a, std::span<const Word> b,
                  std::span<const Address> addresses) {
  for (std::size_t lane = 0; lane < sums.size(); ++lane)
    if (addresses[lane] != kInactive)
      sums[lane] = wrapping_add(sums[lane], wrapping_multiply(a[lane], b[lane]));
}

class HmmConvolution final : public HmmProgram {
 public:
  explicit HmmConvolution(const ProgramArgs& args)
      : HmmProgram("hmm_convolution"), n_(args.params.count("n")), m_(args.params.count("m")) {
    if (2 * m_ + 2 * n_ > kMaxMemoryWords)
      throw ParamError("n", "a, b and c (2m + 2n - 1 words) exceed the memory limit of 2^32 words");
    seed_ = static_cast<std::uint64_t>(args.params.integer("seed"));
  }

  // a and b, drawn together (2m + n - 1 numbers), then a moved out: at the peak 8 bytes per
  // number and m more.
  std::uint64_t host_bytes() const override { return 8 * (m_ + m_ + n_ - 1) + 8 * m_; }
  void prepare() override {
    b_ = random_values(m_ + m_ + n_ - 1, seed_);
    a_.assign(b_.begin(), b_.begin() + static_cast<std::ptrdiff_t>(m_));
    b_.erase(b_.begin(), b_.begin() + static_cast<std::ptrdiff_t>(m_));
  }

  void configure(const MachineConfig& machine) override {
    HmmProgram::configure(machine);
    outputs_ = (n_ + d() - 1) / d();
    b_at_ = align(m_);
    c_at_ = align(b_at_ + m_ + n_ - 1);
    shared_b_ = align_to_banks(m_);
    shared_scratch_ = align_to_banks(shared_b_ + outputs_ + m_ - 1);
  }

  std::uint64_t memory_words() const override { return c_at_ + n_; }
  std::uint64_t shared_words() const override { return shared_scratch_ + block_threads(); }

  void initialize(Mmu& memory) override {
    for (Address j = 0; j < m_; ++j) memory.poke(j, a_[j]);
    for (Address k = 0; k < b_.size(); ++k) memory.poke(b_at_ + k, b_[k]);
  }

  Task run(Warp& warp) override;

  void verify(const Mmu& memory) override {
    for (std::uint64_t i = 0; i < n_; ++i) {
      Word c = 0;
      for (std::uint64_t j = 0; j < m_; ++j)
        c = wrapping_add(c, wrapping_multiply(a_[j], b_[i + j]));
      verification().expect_equal(memory.peek(c_at_ + i), c, [&] {
        return "c[" + std::to_string(i) + "] (m[" + std::to_string(c_at_ + i) + "])";
      });
    }
  }

  std::vector<Bound> bounds(const MachineConfig& machine, const RunResult&) const override;

 private:
  // Outputs of SM j: c[j*S .. j*S + outputs(j)), S = ceil(n/d).
  std::uint64_t outputs(unsigned block) const {
    const std::uint64_t first = std::uint64_t{block} * outputs_;
    return n_ > first ? std::min(outputs_, n_ - first) : 0;
  }
  std::uint64_t syncs(unsigned block, std::uint64_t block_warps) const {
    const WorkSplit split = WorkSplit::of(outputs(block), m_, block_threads(), w());
    if (outputs(block) == 0) return 0;
    return (block_warps > 1 ? 1 : 0) +
           (split.parts > 1 ? block_tree_syncs(split.parts * split.stride, split.stride, w()) : 0);
  }

  std::uint64_t n_;
  std::uint64_t m_;
  std::uint64_t seed_;
  std::vector<Word> a_;        // m coefficients (made by prepare())
  std::vector<Word> b_;        // m + n - 1 numbers
  std::uint64_t outputs_ = 0;  // S: outputs per block
  Address b_at_ = 0;           // global layout: a at 0, then b, then c
  Address c_at_ = 0;
  Address shared_b_ = 0;        // shared layout: a at 0, the block's window of b, scratch
  Address shared_scratch_ = 0;  // of the trees
};

Task HmmConvolution::run(Warp& warp) {
  const unsigned w = warp.width();
  const unsigned block = warp.block();
  const std::uint64_t outputs = this->outputs(block);
  if (outputs == 0) co_return;
  const Address first_output = std::uint64_t{block} * outputs_;
  BlockLanes lanes(w);
  // Stage a and the block's window b[S*j .. S*j + S + m - 1) in shared memory.
  co_await copy_to_shared(warp, lanes, 0, 0, m_);
  co_await copy_to_shared(warp, lanes, b_at_ + first_output, shared_b_, outputs + m_ - 1);
  if (warp.block_warps() > 1) co_await warp.sync();  // other warps' copies are read next

  const WorkSplit split = WorkSplit::of(outputs, m_, warp.block_threads(), w);
  std::vector<Address> x(w);     // the output of each lane
  std::vector<Address> coef(w);  // the coefficient it multiplies next
  std::vector<Address> a_addresses(w);
  std::vector<Word> a_values(w);
  std::vector<Word> sums(w);
  const std::uint64_t first = warp.block_thread(0);
  const std::uint64_t per_round = warp.block_threads() / split.parts;
  for (std::uint64_t round = 0; round < outputs; round += per_round) {
    assign_outputs(x, coef, split, first, round, outputs);
    std::fill(sums.begin(), sums.end(), 0);
    // c[x] += a[j] * b[x + j]: a[j] is one word for the lanes of a part (a broadcast), b[x + j]
    // consecutive words.
    while (product_addresses(a_addresses, lanes.addresses, x, coef, m_, 0, shared_b_)) {
      copy_values(a_values, co_await warp.read(a_addresses, Space::shared));
      multiply_add(sums, a_values, co_await warp.read(lanes.addresses, Space::shared),
                   lanes.addresses);
      for (Address& c : coef) c += split.parts;
    }
    if (split.parts > 1)
      co_await block_tree(warp, lanes, sums, shared_scratch_, split.parts * split.stride,
                          split.stride);
    if (lanes_in_range(lanes.addresses, first, 0, std::min(outputs - round, per_round),
                       c_at_ + first_output + round))
      co_await warp.write(lanes.addresses, sums);
  }
}

std::vector<Bound> HmmConvolution::bounds(const MachineConfig&, const RunResult&) const {
  const double n = static_cast<double>(n_);
  const double m = static_cast<double>(m_);
  const double ll = l();
  const double words = 2 * m + 2 * n - 1;  // a, b and c
  std::vector<Bound> out;
  out.push_back(
      {"time_lower",
       "lower bound: a and b (2m + n - 1 words) and c (n) go through the global pipeline; some "
       "thread sends (2m + 2n - 1)/p of those requests one after another; c[0] is written after "
       "a read",
       "max(ceil((2m+n-1)/w_g) + ceil(n/w_g) + l - 1, ceil((2m+2n-1)/p)*l, 2l)",
       std::max({std::ceil((2 * m + n - 1) / w_g()) + std::ceil(n / w_g()) + ll - 1,
                 std::ceil(words / static_cast<double>(p())) * ll, 2 * ll}),
       Bound::Kind::lower, Bound::Measure::cycles, "docs/semantics.md §3 and §7"});
  out.push_back({"time_order",
                 "the optimal direct convolution on the HMM, O(n/w + mn/(dw) + nl/p + l + log m), "
                 "constant 1 (global traffic in groups of w_g words)",
                 "n/w_g + m*n/(d*w) + n*l/p + l + log2(m)",
                 n / w_g() + m * n / (d() * w()) + n * ll / p() + ll + std::log2(m),
                 Bound::Kind::order, Bound::Measure::cycles, kSource});
  std::uint64_t global = 0;
  std::uint64_t syncthreads = 0;
  const std::uint64_t block_warps = block_threads() / w();
  for (unsigned j = 0; j < d(); ++j) {
    const std::uint64_t s = outputs(j);
    if (s == 0) continue;
    global += coalesced_groups(0, m_) + coalesced_groups(b_at_ + j * outputs_, s + m_ - 1) +
              coalesced_groups(c_at_ + j * outputs_, s);
    syncthreads = std::max(syncthreads, syncs(j, block_warps));
  }
  out.push_back({"global_stages_exact",
                 "global stage groups: every SM reads a and its window of S + m - 1 numbers of b "
                 "and writes its S outputs, coalesced (S = ceil(n/d))",
                 "sum over SMs of groups(m) + groups(S + m - 1) + groups(S)",
                 static_cast<double>(global), Bound::Kind::exact, Bound::Measure::global_stages,
                 "docs/semantics.md §7"});
  out.push_back({"syncthreads_exact",
                 "syncthreads: one after staging (several warps per SM), then the levels of more "
                 "than w values of the tree that adds up the q parts of each output (q > 1)",
                 "max over SMs", static_cast<double>(syncthreads), Bound::Kind::exact,
                 Bound::Measure::syncthreads, "docs/semantics.md §7"});
  return out;
}

}  // namespace

ProgramInfo hmm_convolution_program() {
  return {
      "hmm_convolution",
      "direct convolution c[i] = sum_{j<m} a[j]*b[i+j] (i < n) on the hierarchical machine: SM j "
      "stages a and its window of b in shared memory and computes c[j*S .. j*S + S), S = "
      "ceil(n/d); q threads per output (a tree in shared memory) when p/d >= 2S",
      kSource,
      {
          {"n", ParamType::integer, "outputs c[0..n); b holds m + n - 1 numbers", std::nullopt},
          {"m", ParamType::integer, "coefficients a[0..m)", std::nullopt},
          {"seed", ParamType::integer, "seed of the generator of a and b", "1"},
      },
      make_program<HmmConvolution>(),
  };
}

}  // namespace mmsim
