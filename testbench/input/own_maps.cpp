#include "testbench/input/own_maps.hpp"

#include <map>
#include <mutex>
#include <tuple>

namespace mmsim {
namespace {

// A map of one's own as the machine makes it, memory by memory: one table per shape of memory
// (threads may make maps at once: mmsim congestion).
class OwnMap {
 public:
  explicit OwnMap(OwnCodeRef ref) : code_(std::move(ref), map_loaders()) {}

  std::unique_ptr<AddressMap> make(const AddressMapParams& p) {
    const std::lock_guard<std::mutex> lock(mutex_);
    std::shared_ptr<RowTable>& table = tables_[{p.width, p.rows, p.seed}];
    if (!table)
      table = code_.make([&](const OwnMapCode& code, const ParamValues& params) {
        const MapArgs args{.width = p.width, .rows = p.rows, .seed = p.seed, .params = params};
        return std::make_shared<RowTable>(p.width, p.rows, code.rows(args, code_.ref()));
      });
    return std::make_unique<TabulatedMap>(table);
  }

 private:
  std::mutex mutex_;
  LoadedOwnCode<OwnMapCode> code_;
  std::map<std::tuple<unsigned, std::uint64_t, std::uint64_t>, std::shared_ptr<RowTable>> tables_;
};

}  // namespace

OwnCodeLoaders<OwnMapCode>& map_loaders() {
  static OwnCodeLoaders<OwnMapCode> loaders("maps");
  return loaders;
}

std::shared_ptr<const AddressMapInfo> own_address_map(OwnCodeRef ref) {
  const bool python = ref.code.kind == ExternalProgram::Kind::python;
  auto info = std::make_shared<AddressMapInfo>();
  info->name = ref.code.name;
  info->description = (python ? "class " : "map ") + ref.code.name + " of " +
                      ref.code.file.filename().string() + " (a map of one's own)";
  info->source = ref.code.file.string();
  auto map = std::make_shared<OwnMap>(std::move(ref));
  info->make = [map](const AddressMapParams& p) { return map->make(p); };
  return info;
}

}  // namespace mmsim
