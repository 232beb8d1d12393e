#include "sw/programs/trace.hpp"

#include <algorithm>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/support/counted.hpp"

namespace mmsim {
namespace {

class TraceProgram final : public WarpProgram {
 public:
  TraceProgram(TraceListing listing, bool address_init)
      : listing_(std::move(listing)), address_init_(address_init) {
    // Each instruction's site: its line of the testbench or CSV file, labelled by what it does.
    sites_.reserve(listing_.warps.size());
    for (const auto& warp : listing_.warps) {
      std::vector<Site>& sites = sites_.emplace_back();
      sites.reserve(warp.size());
      for (const TraceInstruction& in : warp)
        sites.push_back(
            Site{in.where.file, static_cast<std::uint32_t>(in.where.line), kind_name(in.kind)});
    }
  }

  std::uint64_t host_bytes() const override {
    std::uint64_t instructions = 0;
    for (const auto& warp : listing_.warps) instructions += warp.size();
    return listing_bytes(listing_) + instructions * sizeof(Site);
  }

  std::uint64_t default_threads(const MachineConfig& machine) const override {
    return listing_.warps.size() * std::uint64_t{machine.width};
  }

  void configure(const MachineConfig& machine) override {
    if (listing_.warps.size() != machine.warps())
      throw InputError(listing_.where,
                       "the trace has " + counted(listing_.warps.size(), "warp") +
                           " but the machine has p/w = " + std::to_string(machine.threads) + "/" +
                           std::to_string(machine.width) + " = " + std::to_string(machine.warps()));
    words_ = 1;
    shared_words_ = 0;
    for (const auto& warp : listing_.warps)
      for (const TraceInstruction& in : warp) {
        if (in.kind == TraceInstruction::Kind::sync || in.kind == TraceInstruction::Kind::grid_sync)
          continue;
        if (in.addresses.size() != machine.width)
          throw InputError(in.where, "expected " + counted(machine.width, "lane") + " (w), got " +
                                         std::to_string(in.addresses.size()));
        if (!in.values.empty() && in.values.size() != machine.width)
          throw InputError(in.where, "expected " + counted(machine.width, "value") + " (w), got " +
                                         std::to_string(in.values.size()));
        const bool shared = in.space == Space::shared;
        if (shared && !machine_model(machine).hierarchical)
          throw InputError(in.where, "space: shared: model " + machine.model +
                                         " has global memory only (model hmm has a shared "
                                         "memory per streaming multiprocessor)");
        const std::uint64_t limit = shared ? machine.shared.words : machine.memory_words;
        std::uint64_t& words = shared ? shared_words_ : words_;
        for (const Address a : in.addresses) {
          if (a == kInactive) continue;
          if (limit != 0 && a >= limit)
            throw InputError(in.where, "address " + std::to_string(a) + " is outside " +
                                           (shared ? "shared memory (machine.shared.memory = "
                                                   : "memory (machine.memory = ") +
                                           counted(limit, "word") + ")");
          words = std::max<std::uint64_t>(words, a + 1);
        }
      }
  }

  std::uint64_t memory_words() const override { return words_; }
  std::uint64_t shared_words() const override { return shared_words_; }

  void initialize(Mmu& memory) override {
    if (!address_init_) return;
    for (Address a = 0; a < memory.words(); ++a) memory.poke(a, static_cast<Word>(a));
  }

  Task run(Warp& warp) override {
    const std::vector<TraceInstruction>& listing = listing_.warps[warp.index()];
    const std::vector<Site>& sites = sites_[warp.index()];
    for (std::size_t i = 0; i < listing.size(); ++i) {
      const TraceInstruction& in = listing[i];
      const Site& site = sites[i];
      switch (in.kind) {
        case TraceInstruction::Kind::read:
          co_await warp.read(in.addresses, in.space, site);
          break;
        case TraceInstruction::Kind::write:
          if (in.values.empty())
            co_await warp.write(in.addresses, in.space, site);
          else
            co_await warp.write(in.addresses, in.values, in.space, site);
          break;
        case TraceInstruction::Kind::sync:
          co_await warp.sync(site);
          break;
        case TraceInstruction::Kind::grid_sync:
          co_await warp.grid_sync(site);
          break;
      }
    }
  }

 private:
  static std::string_view kind_name(TraceInstruction::Kind kind) {
    switch (kind) {
      case TraceInstruction::Kind::read:
        return "read";
      case TraceInstruction::Kind::write:
        return "write";
      case TraceInstruction::Kind::sync:
        return "sync";
      case TraceInstruction::Kind::grid_sync:
        return "grid_sync";
    }
    return "";
  }

  TraceListing listing_;
  std::vector<std::vector<Site>> sites_;  // per warp, per instruction
  bool address_init_;
  std::uint64_t words_ = 1;
  std::uint64_t shared_words_ = 0;
};

}  // namespace

ProgramInfo trace_program() {
  return {
      "trace",
      "replays per-warp instructions from program.warps or a CSV file; reads load each lane's "
      "register, writes store it (or the given values)",
      "docs/testbench.md",
      {
          {"file", ParamType::string,
           "CSV trace (warp,op,lanes...), relative to the testbench; instead of program.warps",
           "\"\""},
          {"init", ParamType::string, "initial memory: address (m[i] = i) or zero", "address"},
      },
      [](const ProgramArgs& args) -> std::unique_ptr<WarpProgram> {
        const std::string& file = args.params.string("file");
        const std::string& init = args.params.string("init");
        if (init != "address" && init != "zero")
          throw ParamError("init", "expected address or zero, got '" + init + "'");
        if (args.listing && !file.empty())
          throw ParamError("file", "give the trace either as program.warps or as params.file");
        TraceListing listing;
        if (args.listing) {
          listing = *args.listing;
        } else if (!file.empty()) {
          listing = read_trace_csv(args.base_dir / file);
        } else {
          throw ParamError("file", "the trace program needs program.warps or params.file");
        }
        return std::make_unique<TraceProgram>(std::move(listing), init == "address");
      },
      [](const ProgramArgs& args) -> std::uint64_t {
        const std::string& file = args.params.string("file");
        return file.empty() ? 0 : trace_csv_bytes(args.base_dir / file);
      },
  };
}

}  // namespace mmsim
