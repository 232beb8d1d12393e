// An XOR swizzle as a C++ plugin's address map: address j*w + k lies in bank
// k xor ((j >> shift) mod w), w a power of two. With shift 0 it is the built-in xor; with shift s
// the 2^s consecutive rows of a tile share one permutation. mmsim asks bank(row, column) of each
// row it needs, once, and checks that the row's banks are a permutation.
#include <string>

#include <sw/program/map_plugin.hpp>

namespace {

using namespace mmsim;

class Swizzle final : public RowPermutation<Swizzle> {
 public:
  Swizzle(unsigned width, unsigned shift) : RowPermutation(width), shift_(shift) {}

  // The bank of (row, column) as an inline function (see RowPermutation); with pow2 the column
  // is the whole address, whose low bits the mask keeps.
  template <bool kPowerOfTwo>
  auto rule() const {
    return [mask = Address{width()} - 1, shift = shift_](Address row, Address column) {
      return (column ^ (row >> shift)) & mask;
    };
  }
  std::string name() const override { return "swizzle"; }

 private:
  unsigned shift_;
};

PluginMap swizzle() {
  return {"swizzle",
          "bank k xor ((j >> shift) mod w); w a power of two",
          {{"shift", ParamType::integer, "2^shift consecutive rows share a permutation", "0"}},
          [](const MapArgs& args) -> std::unique_ptr<AddressMap> {
            const std::int64_t shift = args.params.integer("shift");
            if (shift < 0 || shift > 31)
              throw ParamError("shift", "shift = " + std::to_string(shift) + " is not in 0..31");
            if ((args.width & (args.width - 1)) != 0)
              throw ParamError("shift", "the swizzle needs w a power of two (got w = " +
                                            std::to_string(args.width) + ")");
            return std::make_unique<Swizzle>(args.width, static_cast<unsigned>(shift));
          }};
}

}  // namespace

MMSIM_PLUGIN_MAPS(swizzle())
