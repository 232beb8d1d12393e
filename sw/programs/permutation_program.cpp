#include "sw/programs/permutation_program.hpp"

#include "sw/program/data_pattern.hpp"
#include "sw/program/rounds.hpp"
#include "sw/support/text_input.hpp"

namespace mmsim {

PermutationProgram::PermutationProgram(const ProgramArgs& args) : n_(args.params.count("n")) {
  const auto seed = static_cast<std::uint64_t>(args.params.integer("seed"));
  spec_ = planning_input("permutation", [&] {
    return planning::parse_permutation_spec(args.params.string("permutation"), seed);
  });
  if (spec_.kind == planning::PermutationSpec::Kind::file)
    spec_.path = (args.base_dir / spec_.path).string();
  if (args.params.has("schedule") && !args.params.string("schedule").empty())
    schedule_ = args.base_dir / args.params.string("schedule");
}

std::uint64_t PermutationProgram::host_bytes() const {
  return planning::permutation_bytes(spec_, n_);
}

void PermutationProgram::prepare() {
  p_ = planning_input("permutation", [&] { return planning::make_permutation(spec_, n_); });
}

std::vector<ParamSpec> PermutationProgram::params(std::vector<ParamSpec> extra) {
  std::vector<ParamSpec> specs = {
      {"n", ParamType::integer, "array size in words", std::nullopt},
      {"permutation", ParamType::string,
       "random[:seed], bit_reversal, transpose, stride[:s], identity, or a file (one destination "
       "per line, relative to the testbench)",
       "random"},
      {"seed", ParamType::integer, "seed of a random permutation", "1"},
  };
  specs.insert(specs.end(), extra.begin(), extra.end());
  return specs;
}

void PermutationProgram::check_rounds(const MachineConfig& m) {
  threads_ = m.threads;
  rounds_of(n_, threads_, "moves n/p words");
}

void PermutationProgram::initialize(Mmu& memory) {
  memory.fill(n_, [](Address a) { return data_pattern(a); });
}

void PermutationProgram::verify(const Mmu& memory) {
  for (Address i = 0; i < n_; ++i)
    verification().expect_equal(memory.peek(result_ + p_[i]), data_pattern(i), [&] {
      return "the word from a[" + std::to_string(i) + "] at P(" + std::to_string(i) +
             ") = " + std::to_string(p_[i]);
    });
}

std::vector<ProgramFigure> PermutationProgram::figures() const {
  if (!plan_seconds_) return {};
  return {{"plan_seconds", "offline planning, not simulated", *plan_seconds_, "s"}};
}

std::ifstream open_schedule(const std::filesystem::path& file) {
  try {
    return open_text_file(file);
  } catch (const TextInputError& e) {
    throw ParamError("schedule",
                     "cannot open the schedule file " + file.string() + ": " + e.what());
  }
}

}  // namespace mmsim
