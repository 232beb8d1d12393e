#include "testbench/input/own_maps.hpp"

#include <map>
#include <mutex>
#include <tuple>

namespace mmsim {
namespace {

std::map<ExternalProgram::Kind, MapLoader>& loaders() {
  static std::map<ExternalProgram::Kind, MapLoader> all;
  return all;
}

// A map of one's own as the machine makes it, memory by memory: its code loaded once, its
// params read once, one table per shape of memory (threads may make maps at once: mmsim
// congestion).
class OwnMap {
 public:
  explicit OwnMap(OwnMapRef ref) : ref_(std::move(ref)) {}

  std::unique_ptr<AddressMap> make(const AddressMapParams& p) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!code_) {
      std::shared_ptr<const OwnMapCode> code = map_loader(ref_).load(ref_);
      params_ = read_params(ref_.params, code->params, ref_.key + ".params", "map " + code->name);
      code_ = std::move(code);
    }
    std::shared_ptr<RowTable>& table = tables_[{p.width, p.rows, p.seed}];
    if (!table) {
      const MapArgs args{.width = p.width, .rows = p.rows, .seed = p.seed, .params = params_};
      try {
        table = std::make_shared<RowTable>(p.width, p.rows, code_->rows(args, ref_));
      } catch (const ParamError& e) {
        throw param_error(e);
      }
    }
    return std::make_unique<TabulatedMap>(table);
  }

 private:
  // A parameter the map's code found wrong, located at it in the testbench.
  InputError param_error(const ParamError& e) const {
    const std::string key = ref_.key + ".params." + e.param();
    for (const WrittenParam& p : ref_.params.values)
      if (p.name == e.param()) return InputError(p.where, key + ": " + e.what());
    return InputError(ref_.params.where, key + ": " + e.what());
  }

  OwnMapRef ref_;
  std::mutex mutex_;
  std::shared_ptr<const OwnMapCode> code_;
  ParamValues params_;
  std::map<std::tuple<unsigned, std::uint64_t, std::uint64_t>, std::shared_ptr<RowTable>> tables_;
};

}  // namespace

void register_map_loader(ExternalProgram::Kind kind, MapLoader loader) {
  loaders()[kind] = std::move(loader);
}

const MapLoader& map_loader(const OwnMapRef& ref) {
  const bool python = ref.code.kind == ExternalProgram::Kind::python;
  // A listing of a file's maps (mmsim list maps --file) names none.
  if (ref.code.name.empty())
    check_external_file(ref.code);
  else
    check_external_program(ref.code);
  const auto it = loaders().find(ref.code.kind);
  if (it == loaders().end())
    throw InputError(ref.code.file_where,
                     ref.key + (python ? ": Python maps" : ": plugin maps") +
                         " run in the mmsim command and the Python module (libmmsim), not in "
                         "this program");
  return it->second;
}

std::shared_ptr<const AddressMapInfo> own_address_map(OwnMapRef ref) {
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

std::optional<OwnMapRef> short_map_ref(const std::string& text, const std::filesystem::path& base,
                                       const std::string& key, const SourceLocation& where) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string::npos) return std::nullopt;
  const std::string file = text.substr(0, colon);
  const std::string name = text.substr(colon + 1);
  if (file.empty() || name.empty())
    throw InputError(where, key + ": '" + text +
                                "': expected file.py:Class (a Python class) or library:name (a "
                                "C++ plugin's map)");
  OwnMapRef ref;
  ref.key = key;
  ref.where = where;
  ref.params.where = where;
  ref.code.kind = std::filesystem::path(file).extension() == ".py" ? ExternalProgram::Kind::python
                                                                   : ExternalProgram::Kind::library;
  ref.code.key = key;
  ref.code.noun = "map";
  ref.code.in_short = true;
  std::error_code error;
  ref.code.file = std::filesystem::absolute(base / file, error).lexically_normal();
  ref.code.name = name;
  ref.code.file_where = where;
  ref.code.name_where = where;
  return ref;
}

}  // namespace mmsim
