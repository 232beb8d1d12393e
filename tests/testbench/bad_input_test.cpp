// Bad input gets one clear message with file:line:column and what was expected, exit status 2,
// and leaves no output file behind.
#include <gtest/gtest.h>

#include "support/command.hpp"

namespace mmsim::test {
namespace {

const std::string kGood = R"(name: good
machine:
  model: dmm
  width: 4
  latency: 3
  threads: 8
program:
  name: trace
  warps:
    - [ {read: [0, 1, 5, 10]} ]
    - [ {read: [8, 9, 14, 15]} ]
)";

const std::string kHmm = R"(name: hmm
machine:
  model: hmm
  multiprocessors: 2
  width: 4
  latency: 5
  threads: 8
  shared: {latency: 1}
program:
  name: trace
  warps:
    - [ {read: [0, 1, 2, 3]} ]
    - [ {read: [0, 4, 8, 12], space: shared} ]
)";

// A value of 8^9 values in a few hundred bytes: each list repeats the one before 8 times.
const std::string kSetBomb = [] {
  std::string bomb = "[&a0 [1, 1, 1, 1, 1, 1, 1, 1]";
  for (int level = 1; level <= 8; ++level) {
    const std::string previous = "*a" + std::to_string(level - 1);
    bomb += ", &a" + std::to_string(level) + " [" + previous;
    for (int i = 1; i < 8; ++i) bomb += ", " + previous;
    bomb += "]";
  }
  return bomb + "]";
}();

// Replaces the first occurrence of `from` in `text` (by default the good testbench).
std::string edit(const std::string& from, const std::string& to, std::string text = kGood) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

struct BadCase {
  std::string name;
  std::string yaml;
  std::string location;  // ":line:column" expected after the file name ("" = just the file)
  std::string message;   // expected somewhere in the message
  std::string extra_args = "";
};

void PrintTo(const BadCase& c, std::ostream* os) { *os << c.name; }

class BadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadInput, ExitsWithStatusTwoAndALocatedMessage) {
  const BadCase& c = GetParam();
  TempDir dir;
  const auto file = dir.write("bench.yaml", c.yaml);
  const auto vcd = dir / "out.vcd";
  const auto stats = dir / "out.json";
  const CommandResult r = mmsim("run '" + file.string() + "' --vcd '" + vcd.string() +
                                "' --stats '" + stats.string() + "' " + c.extra_args);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.out, "");
  const std::string where =
      c.location.rfind("--", 0) == 0 ? c.location : file.string() + c.location;
  EXPECT_NE(r.err.find("mmsim: " + where + ": "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one message: " << r.err;
  EXPECT_FALSE(std::filesystem::exists(vcd));
  EXPECT_FALSE(std::filesystem::exists(stats));
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    EXPECT_EQ(entry.path().filename(), "bench.yaml") << "left behind: " << entry.path();
}

INSTANTIATE_TEST_SUITE_P(
    Cases, BadInput,
    ::testing::Values(
        BadCase{"UnknownKey", edit("  width: 4", "  widht: 4"), ":4:3",
                "unknown key 'widht' in machine (did you mean 'width'?)"},
        BadCase{"UnknownTopKey", kGood + "outptus: {vcd: x.vcd}\n", ":12:1",
                "unknown key 'outptus' in testbench (did you mean 'outputs'?)"},
        BadCase{"WrongType", edit("width: 4", "width: four"), ":4:10",
                "machine.width: expected an integer from 1 to 65536, got 'four'"},
        BadCase{"ListForScalar", edit("latency: 3", "latency: [3]"), ":5:12",
                "machine.latency: expected an integer from 1 to 16777216, got a list"},
        BadCase{"MissingRequired", edit("  latency: 3\n", ""), ":3:3",
                "machine: missing required key 'latency'"},
        BadCase{"MissingMachine", "program: {name: trace}\n", ":1:1",
                "testbench: missing required key 'machine'"},
        BadCase{"ThreadsNotAMultipleOfWidth", edit("threads: 8", "threads: 10"), ":6:12",
                "machine.threads: p = 10 is not a multiple of w = 4"},
        BadCase{"LatencyBelowOne", edit("latency: 3", "latency: 0"), ":5:12",
                "machine.latency: expected an integer from 1 to"},
        BadCase{"UnknownModel", edit("model: dmm", "model: dnm"), ":3:10",
                "unknown machine model 'dnm' (did you mean 'dmm'?)"},
        BadCase{"UnknownPolicy", edit("  threads: 8", "  threads: 8\n  dispatch: round_robbin"),
                ":7:13", "unknown dispatch policy 'round_robbin' (did you mean 'round_robin'?)"},
        BadCase{"AddressOutsideMemory", edit("  threads: 8", "  threads: 8\n  memory: 12"), ":12:9",
                "address 14 is outside memory (machine.memory = 12 words)"},
        BadCase{"TraceWarpsDisagreeWithThreads", edit("threads: 8", "threads: 12"), ":10:5",
                "the trace has 2 warps but the machine has p/w = 12/4 = 3"},
        BadCase{"TraceLaneCount", edit("[0, 1, 5, 10]", "[0, 1, 5]"), ":10:9",
                "expected 4 lanes (w), got 3"},
        BadCase{"TraceNegativeAddress", edit("[0, 1, 5, 10]", "[0, -1, 5, 10]"), ":10:16",
                "program.warps[0][0].read[1]: expected an integer from 0 to"},
        BadCase{"TraceUnknownInstruction", edit("{read: [8, 9, 14, 15]}", "{raed: [8, 9, 14, 15]}"),
                ":11:10", "unknown key 'raed' in program.warps[1][0] (did you mean 'read'?)"},
        BadCase{"MalformedYaml", "machine: {model: dmm, width: 4\nprogram: x\n", ":2:8",
                "invalid YAML"},
        BadCase{"DuplicateKey", edit("  width: 4", "  width: 4\n  width: 8"), ":5:3",
                "duplicate key 'width' in machine"},
        BadCase{"UnknownProgram", edit("name: trace", "name: trcae"), ":8:9",
                "unknown program 'trcae' (did you mean 'trace'?)"},
        BadCase{"UnknownParam",
                "machine: {model: dmm, width: 4, latency: 2, threads: 8}\n"
                "program: {name: contiguous_access, params: {nn: 64}}\n",
                ":2:45", "unknown key 'nn' in program.params (did you mean 'n'?)"},
        BadCase{"MissingParam",
                "machine: {model: dmm, width: 4, latency: 2, threads: 8}\n"
                "program: {name: contiguous_access, params: {op: read}}\n",
                ":2:44", "program contiguous_access needs parameter 'n'"},
        BadCase{"ParamThatDoesNotFit",
                "machine: {model: dmm, width: 4, latency: 2, threads: 8}\n"
                "program: {name: contiguous_access, params: {n: 20}}\n",
                ":2:48", "program.params.n: n = 20 must be a multiple of p = 8"},
        BadCase{"BadSetOverride", kGood, "--set machine.widht=8",
                "unknown key 'widht' in machine (did you mean 'width'?)", "--set machine.widht=8"},
        BadCase{"SetOverrideBreaksTheMachine", kGood, "--set machine.threads=6",
                "machine.threads: p = 6 is not a multiple of w = 4", "--set machine.threads=6"},
        BadCase{"MissingThreadsWithoutDefault",
                "machine: {model: dmm, width: 4, latency: 2}\n"
                "program: {name: stride_access, params: {n: 64}}\n",
                ":1:10", "machine: missing required key 'threads'"},
        BadCase{"ExpectUnknownFigure", kGood + "expect: {cycle: 5}\n", ":12:10",
                "unknown key 'cycle' in expect (did you mean 'cycles'?)"},
        BadCase{"SumOfAnNTheAlgorithmCannotTake",
                "machine: {model: umm, width: 32, latency: 8}\n"
                "program: {name: sum_simple_tree, params: {n: 1000}}\n",
                ":2:46", "program.params.n: n = 1000 is not a power of two; 512 or 1024 would be"},
        BadCase{"SumWithTooFewThreads",
                "machine: {model: umm, width: 32, latency: 8, threads: 64}\n"
                "program: {name: sum_hybrid, params: {n: 1024}}\n",
                ":1:55", "machine.threads: sum_hybrid uses p = w*l = 256 threads"},
        BadCase{"RaceCheckNotABoolean",
                edit("  threads: 8", "  threads: 8\n  race_check: yes please"), ":7:15",
                "machine.race_check: expected true or false"},
        BadCase{"SuperWarpBelowOne", edit("  threads: 8", "  threads: 8\n  super_warp: 0"), ":7:15",
                "machine.super_warp: expected an integer from 1 to 65536, got '0'"},
        BadCase{"SuperWarpOnTheDmm", edit("  threads: 8", "  threads: 8\n  super_warp: 2"), ":7:15",
                "machine.super_warp: model dmm dispatches single warps: super_warp must be 1"},
        BadCase{
            "ThreadsNotAMultipleOfTheSuperWarp",
            edit("threads: 8", "threads: 8\n  super_warp: 3", edit("model: dmm", "model: sdmm")),
            ":6:12", "machine.threads: p = 8 is not a multiple of s*w = 12"},
        BadCase{"UnknownAddressMap", edit("  threads: 8", "  threads: 8\n  address_map: xro"),
                ":7:16", "unknown address map 'xro' (did you mean 'xor'?)"},
        BadCase{"XorNeedsAPowerOfTwoWidth",
                "machine: {model: dmm, width: 6, latency: 2, threads: 6, address_map: xor}\n"
                "program: {name: trace, warps: [[{read: [0, 1, 2, 3, 4, 5]}]]}\n",
                ":1:70", "machine.address_map: address map xor needs w a power of two (got w = 6)"},
        BadCase{
            "AddressMapOnTheUmm",
            edit("threads: 8", "threads: 8\n  address_map: skew", edit("model: dmm", "model: umm")),
            ":7:16", "machine.address_map: model umm maps addresses interleaved only"},
        BadCase{"RsdmmWithAnotherMap",
                edit("threads: 8", "threads: 8\n  address_map: skew",
                     edit("model: dmm", "model: rsdmm")),
                ":7:16", "(rsdmm is sdmm with random_shift)"},
        BadCase{"ShiftTableOfTheWrongLength",
                edit("threads: 8", "threads: 8\n  rsu: {shifts: [0, 1, 2]}",
                     edit("model: dmm", "model: rsdmm")),
                ":7:17",
                "machine.rsu.shifts: expected one shift per row of memory: 4 (ceil(16 words / w = "
                "4)), got 3"},
        BadCase{"ShiftOutsideZeroToW",
                edit("threads: 8", "threads: 8\n  rsu: {shifts: [0, 4, 1, 2]}",
                     edit("model: dmm", "model: rsdmm")),
                ":7:21", "machine.rsu.shifts[1]: r_1 = 4 is outside [0, w) = [0, 4)"},
        BadCase{"NegativeShift",
                edit("threads: 8", "threads: 8\n  rsu: {shifts: [0, -1, 1, 2]}",
                     edit("model: dmm", "model: rsdmm")),
                ":7:21", "machine.rsu.shifts[1]: expected an integer from 0 to 65536, got '-1'"},
        BadCase{"EmptyShiftTable",
                edit("threads: 8", "threads: 8\n  rsu: {shifts: []}",
                     edit("model: dmm", "model: rsdmm")),
                ":7:17", "machine.rsu.shifts: expected a list of shifts"},
        BadCase{"RsuSeedAndShifts",
                edit("threads: 8", "threads: 8\n  rsu: {seed: 1, shifts: [0, 1, 2, 3]}",
                     edit("model: dmm", "model: rsdmm")),
                ":7:8", "machine.rsu: expected either seed or shifts"},
        BadCase{
            "RsuWithoutARandomShift", edit("  threads: 8", "  threads: 8\n  rsu: {seed: 3}"),
            ":7:15",
            "machine.rsu.seed: the random shift unit exists only with address_map random_shift"},
        BadCase{"HierarchyKeysOnAFlatModel", edit("model: hmm", "model: dmm", kHmm), ":4:20",
                "machine.multiprocessors: machine.multiprocessors applies to model hmm (the "
                "hierarchical machine), not dmm"},
        BadCase{"GlobalWidthOnTheUmm",
                "machine: {model: umm, width: 4, latency: 2, global: {width: 2}}\n"
                "program: {name: trace, warps: [[{read: [0,1,2,3]}]]}\n",
                ":1:53", "machine.global: machine.global applies to model hmm"},
        BadCase{"ThreadsNotWholeWarpsPerMultiprocessor",
                edit("multiprocessors: 2", "multiprocessors: 4", kHmm), ":7:12",
                "machine.threads: p = 8 is not a multiple of d*w = 16 (each multiprocessor runs "
                "p/d threads in whole warps)"},
        BadCase{"SharedMemoryOfTheUmm",
                edit("shared: {latency: 1}", "shared: {latency: 1, model: umm}", kHmm), ":8:31",
                "machine.shared.model: unknown shared memory model 'umm' (did you mean 'dmm'?)"},
        BadCase{"AddressMapOfTheGlobalMemory",
                edit("  threads: 8", "  threads: 8\n  address_map: skew", kHmm), ":8:16",
                "machine.address_map: the global memory of the hmm is a UMM"},
        BadCase{"SharedRsuWithoutARandomShift",
                edit("shared: {latency: 1}", "shared: {latency: 1, rsu: {seed: 3}}", kHmm), ":8:36",
                "machine.shared.rsu.seed: the random shift unit exists only with address_map "
                "random_shift"},
        BadCase{"SharedShiftOutsideZeroToW",
                edit("shared: {latency: 1}",
                     "shared: {latency: 1, model: rsdmm, rsu: {shifts: [0, 9, 1, 1]}}", kHmm),
                ":8:56", "machine.shared.rsu.shifts[1]: r_1 = 9 is outside [0, w) = [0, 4)"},
        BadCase{"SharedLatencyZero", edit("shared: {latency: 1}", "shared: {latency: 0}", kHmm),
                ":8:21", "machine.shared.latency: expected an integer from 1 to 16777216, got '0'"},
        BadCase{"SuperWarpOverDmmSharedMemories",
                edit("  threads: 8", "  threads: 16\n  super_warp: 2", kHmm), ":8:15",
                "machine.super_warp: shared memories of model dmm serve single warps"},
        BadCase{"AddressOutsideSharedMemory",
                edit("shared: {latency: 1}", "shared: {latency: 1, memory: 8}", kHmm), ":13:9",
                "address 8 is outside shared memory (machine.shared.memory = 8 words)"},
        BadCase{"UnknownSpace", edit("space: shared", "space: local", kHmm), ":13:38",
                "program.warps[1][0].space: unknown memory space 'local' (did you mean "
                "'global'?)"},
        BadCase{"SharedMemoryOnAFlatMachine",
                edit("{read: [8, 9, 14, 15]}", "{read: [8, 9, 14, 15], space: shared}"), ":11:9",
                "space: shared: model dmm has global memory only"},
        BadCase{"ABarrierInAMemory",
                edit("{read: [0, 1, 2, 3]}", "{grid_sync: true, space: global}", kHmm), ":12:34",
                "program.warps[0][0].space: only reads and writes go to a memory"},
        BadCase{"ShiftTableThroughSet", kGood, "--set machine.rsu.shifts=[9]",
                "machine.rsu.shifts: the random shift unit exists only",
                "--set machine.rsu.shifts=[9]"},
        BadCase{"SetInsideAScalar", kGood, "--set machine.width.x=4",
                "machine.width is '4', not a mapping: machine.width.x cannot be set",
                "--set machine.width.x=4"},
        BadCase{"SecondDocument", kGood + "---\nname: other\n", ":13",
                "a second YAML document (after '---'): a testbench is one document"},
        BadCase{"UnclosedQuote", edit("name: good", "name: \"good"), ":1:7",
                "unclosed quote: the string that starts here with \" runs to the end of the file"},
        BadCase{"UnclosedSingleQuote", edit("name: trace", "name: 'it''s"), ":8:9",
                "unclosed quote: the string that starts here with ' runs to the end of the file"},
        BadCase{"DeepNesting",
                kGood + "description: " + std::string(600, '[') + std::string(600, ']') + "\n",
                ":12:1214",
                "invalid YAML: nested 500 levels deep, beyond what the YAML reader takes"},
        BadCase{"RecursiveAlias", kGood + "description: &a [*a]\n", ":12:14",
                "nested more than 1000 levels deep (an alias inside its own anchor?)"},
        BadCase{"InvalidUtf8", edit("name: good", "name: go\xffod"), ":1:9",
                "invalid UTF-8 (byte 0xff): YAML is UTF-8 text"},
        BadCase{"OverlongUtf8", edit("name: good", "name: go\xc0\xafod"), ":1:9",
                "invalid UTF-8 (byte 0xc0)"},
        BadCase{"InvalidUtf8InSet", kGood, "--set name=\xff", "invalid UTF-8",
                "--set \"$(printf 'name=\\377')\""},
        // A NUL byte would end the value where C strings end ("dmm\0fig4" read as another).
        BadCase{"NulByte", edit("model: dmm", std::string("model: dmm\0fig4", 15)), ":3:13",
                "invalid character (byte 0x00): YAML is printable text"},
        BadCase{"ControlCharacter", edit("name: good", "name: go\x01od"), ":1:9",
                "invalid character (byte 0x01): YAML is printable text"},
        BadCase{"ControlCharacterInSet", kGood,
                "--set name=a\x01"
                "b",
                "invalid character (byte 0x01): YAML is printable text",
                "--set \"$(printf 'name=a\\001b')\""},
        // Text after a quoted value is an error, on the command line as in a file.
        BadCase{"TextAfterAQuotedValue", edit("model: dmm", "model: 'dmm'x"), ":3:15",
                "invalid YAML"},
        BadCase{"TextAfterAQuotedValueInSet", kGood, "--set machine.model='umm'x",
                "invalid YAML value: text after the value ('x'): quote the whole value",
                "--set \"machine.model='umm'x\""},
        BadCase{"TextAfterADoubleQuotedValueInSet", kGood,
                "--set program.params.file=\"t.csv\".bak",
                "invalid YAML value: text after the value ('.bak'): quote the whole value",
                "--set 'program.params.file=\"t.csv\".bak'"},
        BadCase{"AnAliasBombInSet", kGood, "--set description=" + kSetBomb,
                "invalid YAML: the document expands to more than 4194304 values",
                "--set 'description=" + kSetBomb + "'"},
        // Integers beyond 64 bits name the bound they pass.
        BadCase{"AnExpectationBeyond64Bits", kGood, "--set expect.grid_syncs=2^63",
                "expect.grid_syncs: expected a non-negative integer (at most 2^63 - 1 = "
                "9223372036854775807), got '2^63'",
                "--set expect.grid_syncs=2^63"},
        BadCase{"ANegativeBeyond64Bits", kGood, "--set expect.cycles=-9223372036854775809",
                "expect.cycles: expected a non-negative integer (at least -2^63 = "
                "-9223372036854775808), got '-9223372036854775809'",
                "--set expect.cycles=-9223372036854775809"},
        // A run that fails (two memories in one dispatch) is located at the testbench's program.
        BadCase{"ARunThatFails",
                edit("shared: {latency: 1}", "shared: {latency: 1, model: sdmm}\n  super_warp: 2",
                     edit("multiprocessors: 2", "multiprocessors: 1", kHmm)),
                ":11:3",
                "the run failed: the warps of super warp 0 send one dispatch to two memories "
                "(0 and 1)"}),
    [](const auto& info) { return info.param.name; });

// Aliases of aliases multiply: ten levels of ten would be 10^10 values for every reader of the
// document to walk. The document is refused at once, at the value where the count passed.
TEST(BadInputFile, AnAliasBombIsRefused) {
  TempDir dir;
  std::string bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int level = 1; level < 10; ++level) {
    // Appended piece by piece: GCC 12 warns (-Wrestrict) on "a" + std::to_string(...).
    const std::string previous = "*a" + std::to_string(level - 1);
    const std::string name = std::to_string(level);
    bomb.append("a").append(name).append(": &a").append(name).append(" [").append(previous);
    for (int i = 1; i < 10; ++i) bomb.append(", ").append(previous);
    bomb += "]\n";
  }
  const auto file = dir.write("t.yaml", bomb + kGood);
  const CommandResult r = mmsim("run '" + file.string() + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.rfind("mmsim: " + file.string() + ":1:", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(": invalid YAML: the document expands to more than 4194304 values "
                       "(aliases repeat what their anchors hold, and aliases of aliases "
                       "multiply)\n"),
            std::string::npos)
      << r.err;
}

// Messages about a file that a parameter or an option names say which, with the reason.
TEST(BadInputFile, AFileMessageNamesItsKeyOrOption) {
  TempDir dir;
  const std::string config =
      std::string(MMSIM_SOURCE_DIR) + "/configs/permute_dmm_conflict_free_random.yaml";
  const auto folder = dir / "folder";
  std::filesystem::create_directory(folder);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"run " + config + " --set program.params.schedule=" + (dir / "no.txt").string(),
       "--set program.params.schedule=" + (dir / "no.txt").string() +
           ": program.params.schedule: cannot open the schedule file " + (dir / "no.txt").string() +
           ": No such file or directory"},
      {"run " + config + " --set program.params.schedule=" + folder.string(),
       "--set program.params.schedule=" + folder.string() +
           ": program.params.schedule: cannot open the schedule file " + folder.string() +
           ": is a folder"},
      {"run " + config + " --set program.params.seed=18446744073709551615",
       "--set program.params.seed=18446744073709551615: program.params.seed: expected an integer "
       "(at most 2^63 - 1 = 9223372036854775807), got '18446744073709551615'"},
      {"run " + std::string(MMSIM_SOURCE_DIR) + "/configs/sum_simple.yaml" +
           " --set program.params.file=" + (dir / "no.txt").string(),
       "--set program.params.file=" + (dir / "no.txt").string() + ": program.params.file: " +
           (dir / "no.txt").string() + ": cannot open the input file: No such file or directory"},
      {"plan --n 16 --width 4 --permutation " + (dir / "x").string(),
       "--permutation: " + (dir / "x").string() +
           ": cannot open permutation file: No such file or directory"},
      {"plan --n 10 --width 4",
       "--n: DMM plan: n = 10 is not a multiple of w = 4 (the plan moves n/w full warps); the "
       "nearest valid sizes are 8 and 12"},
  };
  for (const auto& [command, message] : cases) {
    const CommandResult r = mmsim(command);
    EXPECT_EQ(r.status, 2) << command;
    EXPECT_EQ(r.err.substr(0, r.err.find('\n') == std::string::npos ? 0 : r.err.find('\n')),
              "mmsim: " + message)
        << command;
  }
  // --out-dir's files are named by --out-dir, not by --stats or --vcd.
  std::filesystem::create_directories(dir / "od" / "stats.json");
  const CommandResult r = mmsim("run " + std::string(MMSIM_SOURCE_DIR) +
                                "/configs/dmm_fig4.yaml --out-dir " + shell_word(dir / "od"));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "mmsim: --out-dir: cannot write " + (dir / "od" / "stats.json").string() +
                       ": it is a folder\n");
}

TEST(BadInputFile, AMissingTestbenchIsReported) {
  TempDir dir;
  const auto missing = dir / "nowhere.yaml";
  const CommandResult r = mmsim("run '" + missing.string() + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "mmsim: " + missing.string() + ": no such testbench file\n");
}

TEST(BadInputFile, AnUnreadableTestbenchIsReported) {
  TempDir dir;
  const CommandResult r = mmsim("run '" + dir.path().string() + "'");  // a folder
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("mmsim: " + dir.path().string() + ": "), std::string::npos) << r.err;
}

TEST(BadInputFile, AMissingTraceCsvIsReported) {
  TempDir dir;
  const auto file = dir.write("t.yaml",
                              "machine: {model: dmm, width: 2, latency: 2}\n"
                              "program: {name: trace, params: {file: nothere.csv}}\n");
  const CommandResult r = mmsim("run '" + file.string() + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find((dir / "nothere.csv").string() + ": cannot open trace file"),
            std::string::npos)
      << r.err;
}

TEST(BadInputFile, ABadCsvFieldIsLocated) {
  TempDir dir;
  dir.write("t.csv", "# warp, op, lanes\n0,read,0,1\n1, read, 2, x3\n");
  const auto file = dir.write("t.yaml",
                              "machine: {model: dmm, width: 2, latency: 2}\n"
                              "program: {name: trace, params: {file: t.csv}}\n");
  const CommandResult r = mmsim("run '" + file.string() + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "mmsim: " + (dir / "t.csv").string() + ":3:13: expected an address or '-', got 'x3'\n");
}

TEST(BadInputFile, AnOutputIntoAMissingFolderIsRefusedBeforeTheRun) {
  TempDir dir;
  const auto file = dir.write("t.yaml", kGood);
  const CommandResult r =
      mmsim("run '" + file.string() + "' --stats '" + (dir / "no/such/x.json").string() + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "mmsim: --stats: cannot write " + (dir / "no/such/x.json").string() +
                       ": no folder " + (dir / "no/such").string() + "\n");
  EXPECT_EQ(r.out, "");
}

TEST(BadInputFile, ATestbenchPathThatCannotBeOpenedIsReported) {
  TempDir dir;
  std::filesystem::create_symlink("loop2.yaml", dir / "loop1.yaml");
  std::filesystem::create_symlink("loop1.yaml", dir / "loop2.yaml");
  const std::string loop = (dir / "loop1.yaml").string();
  EXPECT_EQ(mmsim("run '" + loop + "'").err,
            "mmsim: " + loop +
                ": cannot read the testbench file: Too many levels of symbolic "
                "links\n");
  const std::string long_name = (dir / std::string(5000, 'a')).string();
  const CommandResult r = mmsim("run '" + long_name + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "mmsim: " + long_name + ": cannot read the testbench file: File name too long\n");
  // An endless testbench (/dev/zero) stops at the limit of a YAML file.
  EXPECT_EQ(mmsim("run /dev/zero").err,
            "mmsim: /dev/zero: cannot read the testbench file: the input holds more than 64 MiB "
            "(the limit of an input file)\n");
}

// A CSV trace sizes the machine by its highest warp number: checked before anything is sized.
TEST(BadInputFile, ACsvTraceWarpBeyondTheLimitIsLocated) {
  for (const std::string warp : {"4294967295", "4294967294", "2147483647", "1000000", "65536"}) {
    TempDir dir;
    dir.write("t.csv", "0,read,0,1\n" + warp + ",read,2,3\n");
    const auto file = dir.write("t.yaml",
                                "machine: {model: dmm, width: 2, latency: 2}\n"
                                "program: {name: trace, params: {file: t.csv}}\n");
    const CommandResult r = mmsim("run '" + file.string() + "'");
    EXPECT_EQ(r.status, 2) << warp;
    EXPECT_EQ(r.err, "mmsim: " + (dir / "t.csv").string() + ":2:1: warp " + warp +
                         " is beyond the 65536 warps a trace may have\n");
  }
}

// Endless inputs (/dev/zero: one endless line) stop at the limit of a line, located.
TEST(BadInputFile, EndlessInputFilesStopAtTheLimitOfALine) {
  TempDir dir;
  const std::string message = "/dev/zero:1: line 1 is longer than 16 MiB (the limit of a line)";
  for (const std::string program :
       {"{name: trace, params: {file: /dev/zero}}", "{name: sum_simple, params: {file: /dev/zero}}",
        "{name: permute_umm, params: {n: 16, permutation: /dev/zero}}",
        "{name: permute_umm, params: {n: 16, schedule: /dev/zero}}"}) {
    const auto file = dir.write("t.yaml",
                                "machine: {model: umm, width: 2, latency: 2, threads: 4}\n"
                                "program: " +
                                    program + "\n");
    const CommandResult r = mmsim("run '" + file.string() + "'");
    EXPECT_EQ(r.status, 2) << program;
    EXPECT_EQ(r.err, "mmsim: " + message + "\n") << program;
  }
  const CommandResult plan = mmsim("plan --n 16 --width 4 --permutation /dev/zero");
  EXPECT_EQ(plan.status, 2);
  EXPECT_EQ(plan.err, "mmsim: " + message + "\n");
}

TEST(BadInputFile, UnknownCommandLineOptionsExitWithTwo) {
  EXPECT_EQ(mmsim("run --frobnicate x.yaml").status, 2);
  EXPECT_EQ(mmsim("fly").status, 2);
  EXPECT_EQ(mmsim("list colours").status, 2);
}

}  // namespace
}  // namespace mmsim::test
