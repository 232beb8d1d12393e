// mmsim congestion: the experiment of Nakano and Matsumae 2013, section VI (defaults: its
// table).
#include <iostream>
#include <memory>

#include "hw/support/types.hpp"
#include "testbench/cli/subcommands.hpp"
#include "testbench/experiments/congestion_experiment.hpp"
#include "testbench/experiments/congestion_report.hpp"
#include "testbench/input/integer_list.hpp"
#include "testbench/input/own_maps.hpp"
#include "testbench/outputs/pending_file.hpp"

namespace mmsim {
namespace {

struct CongestionCommand {
  std::string widths = "16,32,64,128,256";
  std::string super_warps = "1-10";
  std::string arrays = "1024,1048576";
  std::string rounds = "1000000";
  std::string seed = "1";
  std::string map = "random_shift";
  std::string ports = "1";
  std::string threads = "0";  // 0: one per core
  std::string csv;
  std::string json;
};

// Prints the table; exit status 0, or 2 for invalid options.
int congestion_command(const CongestionCommand& command) {
  try {
    CongestionSpec spec;
    for (const std::uint64_t w : parse_integer_list("--width", command.widths, 1, 1 << 16))
      spec.widths.push_back(static_cast<unsigned>(w));
    for (const std::uint64_t s :
         parse_integer_list("--super-warp", command.super_warps, 0, 1 << 16))
      spec.super_warps.push_back(static_cast<unsigned>(s));
    spec.arrays = parse_integer_list("--array", command.arrays, 1, kMaxMemoryWords);
    spec.rounds = parse_integer_option("--rounds", command.rounds, 1, std::uint64_t{1} << 40);
    spec.seed = parse_integer_option("--seed", command.seed, 0, ~std::uint64_t{0});
    spec.map = command.map;
    std::error_code error;
    if (std::optional<OwnCodeRef> own = short_code_ref(
            command.map, std::filesystem::current_path(error), "--map", {"--map", 0, 0}, "map")) {
      map_loaders().of(*own);  // its file is there, and it is of a kind this command loads
      spec.own_map = own_address_map(std::move(*own));
    }
    spec.ports = static_cast<unsigned>(parse_integer_option("--ports", command.ports, 1, 1 << 16));
    spec.threads =
        static_cast<unsigned>(parse_integer_option("--threads", command.threads, 0, 1024));
    OutputFiles outputs(
        {option_output(command.csv, "--csv"), option_output(command.json, "--json")});
    const std::vector<CongestionCell> cells = run_congestion(spec);
    outputs.write_all({congestion_csv(cells), congestion_json(spec, cells, provenance_now())});
    std::cout << format_congestion_table(spec, cells);
    return 0;
  } catch (const InputError& e) {
    std::cerr << "mmsim: " << e.describe() << "\n";
    return 2;
  }
}

}  // namespace

Subcommand add_congestion_command(CLI::App& app) {
  auto congestion = std::make_shared<CongestionCommand>();
  CLI::App* congestion_app =
      add_subcommand(app, "congestion",
                     "the congestion experiment of Nakano and Matsumae 2013 (section VI, Table II)",
                     "0 done, 2 invalid options or an output that cannot be written");
  // The last of a repeated option wins, so that scripts can override their defaults.
  congestion_app->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  struct Option {
    const char* name;
    std::string CongestionCommand::*value;
    const char* meaning;
  };
  static const Option kOptions[] = {
      {"--width", &CongestionCommand::widths, "widths w: a list such as 16,32,64"},
      {"--super-warp", &CongestionCommand::super_warps, "super warp sizes s: a list such as 1-10"},
      {"--array", &CongestionCommand::arrays, "array sizes n: a list such as 1024,2^20"},
      {"--rounds", &CongestionCommand::rounds, "rounds per cell"},
      {"--seed", &CongestionCommand::seed, "seed of every random choice"},
      {"--map", &CongestionCommand::map,
       "address map (mmsim list maps), or file.py:Class, library:name"},
      {"--ports", &CongestionCommand::ports,
       "k, requests a bank serves per time unit: Y = ceil(c/k)"},
      {"--threads", &CongestionCommand::threads, "worker threads (0: one per core)"},
  };
  for (const Option& option : kOptions)
    congestion_app->add_option(option.name, (*congestion).*option.value, option.meaning);
  congestion_app->add_option("--csv", congestion->csv, "write the cells as CSV to this file")
      ->check(output_name());
  congestion_app->add_option("--json", congestion->json, "write the cells as JSON to this file")
      ->check(output_name());
  return {congestion_app, [congestion] { return congestion_command(*congestion); }};
}

}  // namespace mmsim
