#include <algorithm>
#include <cmath>
#include <optional>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/support/vector_isa.hpp"
#include "sw/program/data_pattern.hpp"
#include "sw/program/square_matrix.hpp"
#include "sw/programs/hmm_program.hpp"
#include "sw/programs/hmm_programs.hpp"

namespace mmsim {
namespace {

// Where element (i, j) of a w x w tile lies in shared memory, from the tile's start.
enum class Arrangement {
  padded,    // i*(w + 1) + j: rows one word apart in the banks, columns conflict-free
  diagonal,  // i*w + (i + j) mod w: row i rotated by i, columns conflict-free
  naive,     // i*w + j: column j lies in bank j, a w-way conflict
};

Arrangement arrangement_named(const std::string& name) {
  if (name == "padded") return Arrangement::padded;
  if (name == "diagonal") return Arrangement::diagonal;
  if (name == "naive") return Arrangement::naive;
  throw ParamError("arrangement", "expected padded, diagonal or naive, got '" + name + "'");
}

// Per-lane loops, outside the coroutine (GCC optimises them only there).

// Lane k's address in a row (`row_major`: element (i, k)) or column (element (k, i)) of the tile
// at `base`. One loop per arrangement and direction, each stepping an address (no multiply, no
// branch per lane), so that GCC vectorises them.
[[gnu::noinline]] void tile_addresses(std::span<Address> out, Arrangement arrangement, Address base,
                                      unsigned i, bool row_major) {
  with_vector_isa(
      [o = out.data(), w = static_cast<unsigned>(out.size()), arrangement, base, i, row_major] {
        if (arrangement == Arrangement::diagonal) {  // row r at r*w, rotated: (r + column) mod w
          Address row_start = base + (row_major ? Address{i} * w : 0);
          const Address step = row_major ? 0 : w;
          for (unsigned k = 0; k < w; ++k, row_start += step) {
            const unsigned sum = i + k;  // row + column, both below w
            o[k] = row_start + (sum >= w ? sum - w : sum);
          }
          return;
        }
        const Address pitch = arrangement == Arrangement::padded ? w + 1 : w;  // from row to row
        Address a = row_major ? base + i * pitch : base + i;
        const Address step = row_major ? 1 : pitch;
        for (unsigned k = 0; k < w; ++k, a += step) o[k] = a;
      });
}

class HmmTranspose final : public HmmProgram {
 public:
  explicit HmmTranspose(const ParamValues& params)
      : HmmProgram("hmm_transpose"),
        n_(params.count("n")),
        side_(square_side(n_, "n")),
        arrangement_(arrangement_named(params.string("arrangement"))) {}

  void configure(const MachineConfig& machine) override {
    HmmProgram::configure(machine);
    if (side_ % w() != 0) {
      const std::uint64_t below = side_ / w() * w();
      throw ParamError("n", "sqrt(n) = " + std::to_string(side_) + " is not a multiple of w = " +
                                std::to_string(w()) + " (the matrix is cut into w x w tiles); " +
                                (below > 0 ? "n = " + std::to_string(below * below) + " or " : "") +
                                "n = " + std::to_string((below + w()) * (below + w())) +
                                " would be");
    }
    tiles_per_row_ = side_ / w();
    const std::uint64_t rows = block_threads() / w();  // warps per block: tile rows at once
    batch_ = (rows + w() - 1) / w();
  }

  std::uint64_t memory_words() const override { return 2 * n_; }
  // Two buffers of a batch of tiles: a warp fills the next batch's buffer while slower warps
  // still read the other one's columns.
  std::uint64_t shared_words() const override { return 2 * batch_ * tile_words(); }

  void initialize(Mmu& memory) override {
    memory.fill(n_, [](Address a) { return data_pattern(a); });
  }

  Task run(Warp& warp) override;

  void verify(const Mmu& memory) override {
    for (std::uint64_t row = 0; row < side_; ++row)
      for (std::uint64_t column = 0; column < side_; ++column)
        verification().expect_equal(
            memory.peek(n_ + row * side_ + column), data_pattern(column * side_ + row), [&] {
              return "b[" + std::to_string(row) + "][" + std::to_string(column) + "] (m[" +
                     std::to_string(n_ + row * side_ + column) + "])";
            });
  }

  std::vector<Bound> bounds(const MachineConfig& machine, const RunResult&) const override;

 private:
  // From a tile's row to the next in shared memory (padded, naive: a row is w consecutive words).
  std::uint64_t row_pitch() const {
    return arrangement_ == Arrangement::padded ? std::uint64_t{w()} + 1 : w();
  }
  std::uint64_t tile_words() const { return w() * row_pitch(); }
  std::uint64_t tiles() const { return tiles_per_row_ * tiles_per_row_; }
  // Tiles of SM j: j, j + d, j + 2d, ...
  std::uint64_t tiles_of(unsigned block) const {
    return tiles() > block ? (tiles() - block + d() - 1) / d() : 0;
  }
  std::uint64_t batches_of(unsigned block) const { return (tiles_of(block) + batch_ - 1) / batch_; }

  // Slot u of a batch: row (then column) u mod w of the batch's tile u div w.
  struct Slot {
    std::uint64_t tile_row;
    std::uint64_t tile_column;
    Address buffer;  // the tile's place in shared memory
    unsigned i;      // its row, then column
  };
  // Slot u of the block's batch, or none past the block's last tile.
  std::optional<Slot> slot(unsigned block, std::uint64_t batch, std::uint64_t u) const;

  std::uint64_t n_;
  std::uint64_t side_;
  Arrangement arrangement_;
  std::uint64_t tiles_per_row_ = 0;
  std::uint64_t batch_ = 1;  // tiles a block moves between two syncthreads: ceil((p/d)/w^2)
};

std::optional<HmmTranspose::Slot> HmmTranspose::slot(unsigned block, std::uint64_t batch,
                                                     std::uint64_t u) const {
  const std::uint64_t tile = batch * batch_ + u / w();  // of the block's tiles
  if (tile >= tiles_of(block)) return std::nullopt;
  const std::uint64_t t = block + tile * d();
  return Slot{.tile_row = t / tiles_per_row_,
              .tile_column = t % tiles_per_row_,
              .buffer = batch % 2 * batch_ * tile_words() + u / w() * tile_words(),
              .i = static_cast<unsigned>(u % w())};
}

Task HmmTranspose::run(Warp& warp) {
  const unsigned w = warp.width();
  const unsigned block = warp.block();
  const std::uint64_t warps = warp.block_warps();
  std::vector<Address> shared(w);
  for (std::uint64_t batch = 0; batch < batches_of(block); ++batch) {
    // Warp k takes the batch's slots k, k + warps, ...
    for (std::uint64_t u = warp.warp_in_block(); u < batch_ * w; u += warps) {
      const std::optional<Slot> at = slot(block, batch, u);
      if (!at) break;
      // Row i of the tile, w consecutive words of a (coalesced, a run), into shared memory.
      const LaneRun row{(at->tile_row * w + at->i) * side_ + at->tile_column * w};
      const auto got = co_await warp.read(row);
      expect_pattern(verification(), got, row, [&](std::size_t lane) {
        return "thread " + std::to_string(warp.thread(lane)) + " read a at m[" +
               std::to_string(row[lane]) + "]";
      });
      // Its place in the tile: a run too, but where the rows are rotated.
      const bool rotated = arrangement_ == Arrangement::diagonal;
      if (rotated) tile_addresses(shared, arrangement_, at->buffer, at->i, true);
      const LaneRun place{at->buffer + at->i * row_pitch()};  // unless rotated
      co_await (rotated ? warp.write(shared, Space::shared) : warp.write(place, Space::shared));
    }
    // The columns are read by other warps than the rows were written by.
    if (warps > 1) co_await warp.sync();
    for (std::uint64_t u = warp.warp_in_block(); u < batch_ * w; u += warps) {
      const std::optional<Slot> at = slot(block, batch, u);
      if (!at) break;
      // Column i of the tile, written as row i of the transposed tile of b (coalesced).
      tile_addresses(shared, arrangement_, at->buffer, at->i, false);
      co_await warp.read(shared, Space::shared);
      co_await warp.write(LaneRun{n_ + (at->tile_column * w + at->i) * side_ + at->tile_row * w});
    }
  }
}

std::vector<Bound> HmmTranspose::bounds(const MachineConfig& machine, const RunResult&) const {
  const double n = static_cast<double>(n_);
  const double ll = l();
  std::vector<Bound> out;
  out.push_back({"time_lower",
                 "lower bound: n reads and n writes take 2*ceil(n/w_g) groups of the global "
                 "pipeline; some thread sends 2n/p of them one after another",
                 "max(2*ceil(n/w_g) + l - 1, ceil(2n/p)*l, 2l)",
                 std::max({2 * std::ceil(n / w_g()) + ll - 1,
                           std::ceil(2 * n / static_cast<double>(p())) * ll, 2 * ll}),
                 Bound::Kind::lower, Bound::Measure::cycles, "docs/semantics.md §3 and §7"});
  out.push_back({"time_order",
                 "transpose through w words per PE or per tile, as on the UMM (global traffic in "
                 "groups of w_g words)",
                 "n/w_g + n*l/p + l", n / w_g() + n * ll / p() + ll, Bound::Kind::order,
                 Bound::Measure::cycles, "Nakano 2012, Lemma 3"});
  // Every row of a tile and of the transposed tile is w consecutive words from a multiple of w.
  std::uint64_t global = 0;
  for (std::uint64_t row = 0; row < side_; ++row)
    for (std::uint64_t column = 0; column < side_; column += w())
      global += coalesced_groups(row * side_ + column, w()) +
                coalesced_groups(n_ + row * side_ + column, w());
  out.push_back({"global_stages_exact",
                 "global stage groups: every tile row read and written whole (2n/w_g when w_g "
                 "divides w)",
                 "2 * sum over rows of groups(w)", static_cast<double>(global), Bound::Kind::exact,
                 Bound::Measure::global_stages, "docs/semantics.md §7"});
  const bool crossbar = shared_memory_model(machine).memory.splitting == Splitting::crossbar;
  if (contiguous_shared_is_conflict_free(machine)) {
    const bool conflict = arrangement_ == Arrangement::naive && !crossbar;
    out.push_back({"shared_stages_exact",
                   conflict ? "shared stage groups: rows written conflict-free, columns read "
                              "from one bank (w stages each)"
                            : "shared stage groups: rows and columns conflict-free",
                   conflict ? "n/w + n" : "2n/w", conflict ? n / w() + n : 2 * n / w(),
                   Bound::Kind::exact, Bound::Measure::shared_stages, "docs/semantics.md §7"});
  }
  const bool barriers = block_threads() > w();
  out.push_back({"syncthreads_exact",
                 barriers ? "syncthreads: one per batch of tiles of SM 0, B = ceil((p/d)/w^2) "
                            "tiles per batch"
                          : "syncthreads: none (one warp per SM reads its own rows back)",
                 barriers ? "ceil(ceil((n/w^2)/d)/B)" : "0",
                 barriers ? static_cast<double>(batches_of(0)) : 0.0, Bound::Kind::exact,
                 Bound::Measure::syncthreads, "docs/semantics.md §7"});
  return out;
}

}  // namespace

ProgramInfo hmm_transpose_program() {
  return {
      "hmm_transpose",
      "tiled transpose on the hierarchical machine: SM j takes tiles j, j + d, ...; its warps "
      "read each w x w tile's rows from a (coalesced) into shared memory, syncthreads, read its "
      "columns and write them as rows of b (coalesced); a at m[0..n), b at m[n..2n)",
      "Nakano 2012, Lemma 3",
      {
          {"n", ParamType::integer,
           "elements of the matrix (a perfect square, sqrt(n) a multiple of w)", std::nullopt},
          {"arrangement", ParamType::string,
           "a tile in shared memory: padded (row stride w + 1), diagonal (element (i, j) at "
           "i*w + (i + j) mod w) or naive (i*w + j: w-way bank conflicts)",
           "padded"},
      },
      make_program<HmmTranspose>(),
  };
}

}  // namespace mmsim
