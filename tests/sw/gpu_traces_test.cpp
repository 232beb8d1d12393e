// The parts of reading a GPU trace (sw/gpu_traces/): decompression, both readers, the opcode
// map, the temporary per-warp encoding, address relocation, the word split and the CTA
// schedule, each against what docs/gpu_traces.md says.
#include <gtest/gtest.h>
#include <lzma.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <random>
#include <thread>
#include <tuple>

#include "support/command.hpp"
#include "support/temp_dir.hpp"
#include "support/vector_isas.hpp"
#include "sw/gpu_traces/accelsim_reader.hpp"
#include "sw/gpu_traces/address_relocation.hpp"
#include "sw/gpu_traces/block_cache.hpp"
#include "sw/gpu_traces/cta_scheduler.hpp"
#include "sw/gpu_traces/flat_index.hpp"
#include "sw/gpu_traces/lane_addresses.hpp"
#include "sw/gpu_traces/lane_words.hpp"
#include "sw/gpu_traces/line_fields.hpp"
#include "sw/gpu_traces/nvbit_reader.hpp"
#include "sw/gpu_traces/opcode_map.hpp"
#include "sw/gpu_traces/read_ahead.hpp"
#include "sw/gpu_traces/recorded_trace.hpp"
#include "sw/gpu_traces/trace_readers.hpp"
#include "sw/program/input_error.hpp"
#include "sw/support/available_cores.hpp"

namespace mmsim::test {
namespace {

std::string gzip(const std::string& text) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(text.size() + 1024, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string xz(const std::string& text) {
  std::string out(text.size() + 1024, '\0');
  std::size_t size = 0;
  lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr,
                          reinterpret_cast<const std::uint8_t*>(text.data()), text.size(),
                          reinterpret_cast<std::uint8_t*>(out.data()), &size, out.size());
  out.resize(size);
  return out;
}

std::string zstd(const std::string& text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3));
  return out;
}

std::vector<std::string> lines_of(const std::filesystem::path& file) {
  TraceLines lines(file, "trace file");
  std::vector<std::string> out;
  std::string_view line;
  while (lines.next(line)) out.emplace_back(line);
  return out;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.describe();
  } catch (const ParamError& e) {
    return e.param() + ": " + e.what();
  }
  return "no error";
}

// ---- compressed input -------------------------------------------------------------------

// The mem_trace reader's index of CTAs and (CTA, warp) pairs: each key keeps the number it was
// first given, across the table's growth and whatever the keys' shape (the CTAs of 1-D, 2-D and
// 3-D grids packed as x << 32 | y << 16 | z, pairs as CTA << 32 | warp); clear() forgets them.
TEST(FlatIndex, EachKeyKeepsItsFirstNumberWhateverTheKeysShape) {
  // Four families, their high halves apart: CTAs of a 1-D, a 2-D and a 3-D grid, and pairs.
  std::vector<std::uint64_t> keys;
  const auto key = [](std::uint64_t high, std::uint64_t low) { return high << 32 | low; };
  for (std::uint64_t x = 0; x < 70000; ++x) keys.push_back(key(x, 0));
  for (std::uint64_t y = 0; y < 300; ++y)
    for (std::uint64_t x = 0; x < 40; ++x) keys.push_back(key(100000 + x, y << 16));
  for (std::uint64_t z = 0; z < 20; ++z)
    for (std::uint64_t y = 0; y < 20; ++y)
      for (std::uint64_t x = 0; x < 20; ++x) keys.push_back(key(200000 + x, y << 16 | z));
  for (std::uint64_t cta = 0; cta < 3000; ++cta)
    for (std::uint64_t warp = 0; warp < 8; ++warp) keys.push_back(key(300000 + cta, warp));
  FlatIndex index;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto [number, added] = index.try_emplace(keys[i], static_cast<std::uint32_t>(i));
    ASSERT_TRUE(added) << i;
    ASSERT_EQ(number, i);
  }
  EXPECT_EQ(index.size(), keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto [number, added] = index.try_emplace(keys[i], 0);
    ASSERT_FALSE(added) << i;
    ASSERT_EQ(number, i) << i;
  }
  index.clear();
  EXPECT_EQ(index.size(), 0u);
  EXPECT_TRUE(index.try_emplace(keys[5], 9).second);
  EXPECT_EQ(index.try_emplace(keys[5], 1).first, 9u);
}

TEST(CompressedInput, ReadsPlainGzipXzAndZstdAlikeWhateverTheFileIsCalled) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "line " + std::to_string(i) + "\n";
  text += "last line without its newline";
  const std::vector<std::pair<std::string, std::string>> files = {
      {"plain.gz", text}, {"a.txt", gzip(text)}, {"b.txt", xz(text)}, {"c.txt", zstd(text)}};
  for (const auto& [name, bytes] : files) {
    const std::vector<std::string> lines = lines_of(dir.write(name, bytes));
    ASSERT_EQ(lines.size(), 5001u) << name;
    EXPECT_EQ(lines[1234], "line 1234") << name;
    EXPECT_EQ(lines.back(), "last line without its newline") << name;
  }
  TraceLines gz(dir / "a.txt", "trace file");
  EXPECT_EQ(gz.compression(), Compression::gzip);
}

TEST(CompressedInput, ReadsStreamsWrittenOneAfterTheOther) {
  TempDir dir;
  // gzip members, xz streams and zstd frames concatenated, as `cat a.gz b.gz` makes them.
  for (const auto& [name, bytes] :
       std::vector<std::pair<std::string, std::string>>{{"two.gz", gzip("one\n") + gzip("two\n")},
                                                        {"two.xz", xz("one\n") + xz("two\n")},
                                                        {"two.zst", zstd("one\n") + zstd("two\n")}})
    EXPECT_EQ(lines_of(dir.write(name, bytes)), (std::vector<std::string>{"one", "two"})) << name;
}

TEST(CompressedInput, RefusesATruncatedOrCorruptStreamNamingTheFile) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 20000; ++i) text += std::to_string(i * 7919 % 10007) + "\n";
  for (const auto& [name, bytes] : std::vector<std::pair<std::string, std::string>>{
           {"t.gz", gzip(text)}, {"t.xz", xz(text)}, {"t.zst", zstd(text)}}) {
    const auto cut = dir.write("cut-" + name, bytes.substr(0, bytes.size() / 2));
    EXPECT_NE(error_of([&] { lines_of(cut); }).find("ends before its end (a truncated file?)"),
              std::string::npos)
        << name;
    std::string corrupt = bytes;
    for (std::size_t i = 20; i < 40; ++i) corrupt[i] = static_cast<char>(corrupt[i] ^ 0x55);
    const auto bad = dir.write("bad-" + name, corrupt);
    const std::string message = error_of([&] { lines_of(bad); });
    EXPECT_EQ(message.rfind(bad.string() + ": trace file: ", 0), 0u) << name << ": " << message;
  }
  EXPECT_NE(error_of([&] { lines_of(dir.write("x.bz2", "BZh91AY&SY")); }).find("bzip2"),
            std::string::npos);
  EXPECT_NE(error_of([&] { lines_of(dir / "missing"); }).find("No such file or directory"),
            std::string::npos);
  EXPECT_NE(error_of([&] { lines_of(dir.path()); }).find("is a folder"), std::string::npos);
}

TEST(CompressedInput, RefusesALineLongerThanItsLimitAtItsNumber) {
  TempDir dir;
  const auto file = dir.write("long.txt", "short\n" + std::string(5000, 'x') + "\n");
  TraceLines lines(file, "trace file", 4096);
  std::string_view line;
  ASSERT_TRUE(lines.next(line));
  EXPECT_EQ(error_of([&] { lines.next(line); }),
            file.string() + ":2: the line is longer than 4096 bytes (the limit of a trace line)");
}

TEST(CompressedInput, ReadsAPlainFileInPlaceAcrossItsMappedWindowsLineForLine) {
  TempDir dir;
  // About 9 MiB of lines of 1 to 3000 bytes (a fixed seed), some ended by "\r\n", and one of
  // exactly the limit (1 MiB, its '\r' would count): a plain file is mapped 4 MiB at a time, so
  // lines straddle the windows at unaligned places. Read in place and through zstd's buffer, they
  // are the same.
  std::mt19937 random(26);
  std::vector<std::string> expected;
  std::string text;
  while (text.size() < (std::size_t{9} << 20)) {
    std::string line = std::to_string(expected.size()) + ":";
    line += std::string(random() % 3000, static_cast<char>('a' + expected.size() % 26));
    if (expected.size() == 1000) line = std::string(std::size_t{1} << 20, 'L');
    text += line + (random() % 4 == 0 && line.size() < 4096 ? "\r\n" : "\n");
    expected.push_back(line);
  }
  text += "last line without its newline";
  expected.emplace_back("last line without its newline");
  EXPECT_EQ(lines_of(dir.write("plain.txt", text)), expected);
  EXPECT_EQ(lines_of(dir.write("plain.zst", zstd(text))), expected);
  // A line beyond the limit where a window ends is refused at its number, as from a buffer.
  std::string cut;
  std::size_t lines = 0;
  for (; cut.size() < (std::size_t{4} << 20) - 100; ++lines) cut += std::string(99, 'c') + "\n";
  cut += std::string((std::size_t{1} << 20) + 1, 'x') + "\nafter\n";
  for (const auto& [name, bytes] :
       std::vector<std::pair<std::string, std::string>>{{"cut.txt", cut}, {"cut.zst", zstd(cut)}}) {
    const auto file = dir.write(name, bytes);
    EXPECT_EQ(error_of([&] { lines_of(file); }),
              file.string() + ":" + std::to_string(lines + 1) +
                  ": the line is longer than 1048576 bytes (the limit of a trace line)");
  }
}

// ---- the opcode map -------------------------------------------------------------------------

TEST(OpcodeMap, MapsMemoryInstructionsBarriersAndListsTheRest) {
  const auto op = [](std::string_view opcode, bool addresses = true,
                     TraceFormat format = TraceFormat::accelsim) {
    return map_opcode(opcode, format, addresses);
  };
  EXPECT_EQ(op("LDG.E.64.SYS").operation, TraceOperation::read);
  EXPECT_EQ(op("LDG.E.64.SYS").space, Space::global);
  EXPECT_EQ(op("ST.E").operation, TraceOperation::write);  // generic: global
  EXPECT_EQ(op("RED.E.ADD.F32.FTZ.RN").operation, TraceOperation::atomic);
  EXPECT_EQ(op("ATOMG.E.ADD").space, Space::global);
  EXPECT_EQ(op("LDS.U.128").space, Space::shared);
  EXPECT_EQ(op("STS").operation, TraceOperation::write);
  EXPECT_EQ(op("ATOMS.ADD").operation, TraceOperation::atomic);
  EXPECT_EQ(op("ATOMS.ADD").space, Space::shared);
  EXPECT_EQ(op("BAR.SYNC.DEFER_BLOCKING", false).operation, TraceOperation::barrier);
  EXPECT_EQ(op("BAR.ARV", false).operation, TraceOperation::other);
  EXPECT_EQ(op("LDL", true).reason, "local memory (each thread's own): not modelled");
  EXPECT_EQ(op("IMAD.WIDE", false).reason, "not a memory instruction");
  EXPECT_EQ(op("FOO.BAR", true).reason, "a memory instruction mmsim does not know");
  EXPECT_EQ(op("LDG.E", false).reason, "memory instruction recorded without addresses");
  EXPECT_EQ(op("LDGSTS.E.BYPASS.128").operation, TraceOperation::read);
  EXPECT_EQ(op("LDGSTS.E.BYPASS.128", true, TraceFormat::nvbit).operation, TraceOperation::other);
  EXPECT_EQ(base_opcode("LDG.E.64"), "LDG");
}

TEST(OpcodeMap, ReadsTheLaneWidthFromTheModifiers) {
  EXPECT_EQ(access_bytes("LDG.E"), 4u);
  EXPECT_EQ(access_bytes("LDG.E.64"), 8u);
  EXPECT_EQ(access_bytes("LDS.U.128"), 16u);
  EXPECT_EQ(access_bytes("STS.U8"), 1u);
  EXPECT_EQ(access_bytes("LDG.E.S16"), 2u);
  EXPECT_EQ(access_bytes("ATOMG.E.ADD.F64.RN"), 8u);
  EXPECT_EQ(access_bytes("LDG.E.EL.LTC128B"), 4u);  // not a width
}

// ---- the per-warp encoding -------------------------------------------------------------------

TEST(WarpRecords, EncodeAndDecodeRecordsOfEveryShape) {
  std::mt19937_64 random(26);
  std::vector<RecordedInstruction> records;
  for (int i = 0; i < 2000; ++i) {
    RecordedInstruction in;
    in.site = static_cast<std::uint32_t>(random() % 1000);
    in.has_addresses = random() % 4 != 0;
    in.index = (records.empty() ? 0 : records.back().index + 1) + random() % 3;
    in.line = (records.empty() ? 1 : records.back().line) + random() % 100;
    in.mask = i % 3 == 0 ? 0xffffffffu : static_cast<std::uint32_t>(random());
    const std::uint64_t base = random();
    const std::uint64_t stride = i % 2 == 0 ? random() % 256 : 0;
    for (unsigned lane = 0; lane < kTraceLanes; ++lane)
      in.address[lane] = stride ? base + lane * stride : random();
    if (!in.has_addresses) in.mask = 0;
    records.push_back(in);
  }
  std::string bytes;
  RecordPosition write;
  for (const RecordedInstruction& in : records) encode_record(in, write, bytes);
  RecordPosition read;
  std::size_t at = 0;
  for (const RecordedInstruction& in : records) {
    RecordedInstruction out;
    at += decode_record(reinterpret_cast<const unsigned char*>(bytes.data()) + at,
                        bytes.size() - at, read, out);
    ASSERT_EQ(out.site, in.site);
    ASSERT_EQ(out.has_addresses, in.has_addresses);
    ASSERT_EQ(out.index, in.index);
    ASSERT_EQ(out.line, in.line);
    if (!in.has_addresses) continue;
    ASSERT_EQ(out.mask, in.mask);
    for (unsigned lane = 0; lane < kTraceLanes; ++lane)
      if (in.mask >> lane & 1) {
        ASSERT_EQ(out.address[lane], in.address[lane]);
      }
  }
  EXPECT_EQ(at, bytes.size());
  // A coalesced warp access takes a few bytes: site, gaps, flags, base, stride.
  RecordedInstruction coalesced;
  coalesced.has_addresses = true;
  coalesced.mask = 0xffffffffu;
  coalesced.line = 1;
  for (unsigned lane = 0; lane < kTraceLanes; ++lane)
    coalesced.address[lane] = 0x7f8ea2000000 + 4 * lane;
  std::string one;
  RecordPosition fresh;
  encode_record(coalesced, fresh, one);
  EXPECT_EQ(one.size(), 12u);
}

TEST(WarpRecords, MovesARecordToAnotherPositionWithoutDecodingItsAddresses) {
  std::mt19937_64 random(2601);
  RecordPosition from, to, direct;
  std::string moved, encoded;
  std::uint64_t line = 1;
  for (int i = 0; i < 500; ++i) {
    RecordedInstruction in;
    in.site = static_cast<std::uint32_t>(random() % 300);
    in.has_addresses = true;
    in.index = static_cast<std::uint64_t>(i) * 2;
    line += random() % 1000;
    in.line = line;
    in.mask = i % 4 == 0 ? 0xffffffffu : static_cast<std::uint32_t>(random());
    for (unsigned lane = 0; lane < kTraceLanes; ++lane)
      in.address[lane] = i % 2 ? 0x7f0000000000 + 8 * lane : random();
    // Encoded relative to a fresh position (as a run holds it), then moved behind the records
    // before it: the same bytes as encoding it there.
    std::string alone;
    RecordPosition fresh;
    encode_record(in, fresh, alone);
    const auto* data = reinterpret_cast<const unsigned char*>(alone.data());
    RecordedInstruction head;
    RecordPosition start;
    const std::size_t taken = decode_record_head(data, alone.size(), start, head);
    EXPECT_EQ(head.site, in.site);
    EXPECT_EQ(head.line, in.line);
    head.index = in.index;
    unsigned char out[kMaxRecordBytes];
    const auto* addresses = reinterpret_cast<const unsigned char*>(alone.data()) + taken;
    const unsigned char* end =
        encode_record_with(head, to, addresses, addresses + (alone.size() - taken), out);
    moved.append(reinterpret_cast<const char*>(out), static_cast<std::size_t>(end - out));
    encode_record(in, direct, encoded);
  }
  EXPECT_EQ(moved, encoded);
  unsigned char bytes[10];
  for (const std::uint64_t v : {std::uint64_t{0}, std::uint64_t{127}, std::uint64_t{128},
                                std::uint64_t{300}, ~std::uint64_t{0}}) {
    const unsigned char* end = put_varint(v, bytes);
    const unsigned char* at = bytes;
    EXPECT_EQ(get_varint(at), v);
    EXPECT_EQ(at, end);
  }
}

// ---- relocation and words ----------------------------------------------------------------------

// Reads through cached blocks give the file's bytes wherever they fall: within a block, across
// two or three, in a slot another block took meanwhile; bytes past the end are an error.
TEST(BlockCache, ReadsTheFilesBytesAcrossBlocksAndSlots) {
  ScratchFile file("trace.txt", "a test's bytes");
  std::vector<unsigned char> bytes(100);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<unsigned char>(3 * i + 1);
  file.append(bytes.data(), bytes.size());
  file.flush();
  BlockCache cache(file, 16, 2);
  const auto read = [&](std::uint64_t offset, std::size_t size) {
    std::vector<unsigned char> out(size);
    cache.read(offset, out.data(), size);
    return out;
  };
  const auto expected = [&](std::size_t offset, std::size_t size) {
    return std::vector<unsigned char>(bytes.begin() + static_cast<std::ptrdiff_t>(offset),
                                      bytes.begin() + static_cast<std::ptrdiff_t>(offset + size));
  };
  for (const auto& [offset, size] : std::vector<std::pair<std::size_t, std::size_t>>{
           {0, 4}, {14, 4}, {30, 40}, {2, 3}, {96, 4}, {0, 100}, {50, 0}, {33, 1}})
    EXPECT_EQ(read(offset, size), expected(offset, size)) << offset << "+" << size;
  EXPECT_EQ(cache.bytes(), 32u);
  EXPECT_THROW(read(90, 11), InputError);
  EXPECT_THROW(read(101, 1), InputError);
  EXPECT_EQ(read(90, 10), expected(90, 10));
}

TEST(AddressRelocation, LaysTheTouchedUnitsOneAfterTheOtherKeepingBanks) {
  TouchedGranules touched;
  touched.touch(5, 6);
  touched.touch(1000, 1000);
  touched.touch(100000, 100000);
  touched.touch(100010, 100040);  // into the next unit
  const AddressRelocation r(touched, 32, 0);
  ASSERT_EQ(r.ranges().size(), 3u);
  EXPECT_EQ(r.map(5), 5u);
  EXPECT_EQ(r.map(1000), 32u + 1000 % 32);
  EXPECT_EQ(r.map(100000), 64u + 100000 % 32);
  EXPECT_EQ(r.map(100040), 64u + 32 + 100040 % 32);
  EXPECT_EQ(r.words(), 128u);
  for (const std::uint64_t word : {5u, 1000u, 100000u, 100040u})
    EXPECT_EQ(r.map(word) % 32, word % 32);
  // Units of 64 words (w = 64): words 5 and 1000 keep their offsets in 64.
  const AddressRelocation wide(touched, relocation_unit(64, 64), 128);
  EXPECT_EQ(wide.map(1000), 128u + 64 + 1000 % 64);
  EXPECT_EQ(relocation_unit(32, 8), 32u);
  EXPECT_EQ(relocation_unit(48, 48), 96u);
}

AddressRelocation identity() {
  TouchedGranules all;
  all.touch(0, 1 << 16);
  return AddressRelocation(all, 32, 0);
}

// Lays out the lanes of `mask` at `a`, through LaneWords' general path and, where the addresses
// form one stride, through its strided one too: both must agree.
unsigned layout(LaneWords& words, std::uint32_t mask,
                const std::array<std::uint64_t, kTraceLanes>& a, unsigned bytes) {
  static const AddressRelocation r = identity();
  RecordedInstruction in;
  in.mask = mask;
  in.address = a;
  const unsigned n = words.layout(in, bytes, r, 0);
  const std::vector<Address> general(words.instruction(0).begin(), words.instruction(n - 1).end());
  in.stride = a[1] - a[0];
  in.strided = mask == 0xffffffffu;
  for (unsigned lane = 1; lane < kTraceLanes; ++lane)
    in.strided = in.strided && a[lane] - a[lane - 1] == in.stride;
  if (in.strided) {
    EXPECT_EQ(words.layout(in, bytes, r, 0), n);
    EXPECT_EQ(std::vector<Address>(words.instruction(0).begin(), words.instruction(n - 1).end()),
              general);
  }
  return n;
}

std::vector<Address> slots(const LaneWords& words, unsigned instruction) {
  const auto s = words.instruction(instruction);
  return {s.begin(), s.end()};
}

TEST(LaneWords, SplitsWideAccessesLaneByLaneIntoInstructionsOfWLanes) {
  const AddressRelocation r = identity();
  std::array<std::uint64_t, kTraceLanes> a{};
  // 64-bit accesses of consecutive elements: lanes 0-15, then lanes 16-31, 32 words each.
  for (unsigned lane = 0; lane < kTraceLanes; ++lane) a[lane] = 8 * lane;
  LaneWords words(2, 32);
  ASSERT_EQ(layout(words, 0xffffffffu, a, 8), 2u);
  EXPECT_EQ(words.words_per_lane(), 2u);
  for (unsigned i = 0; i < 32; ++i) {
    EXPECT_EQ(slots(words, 0)[i], i);
    EXPECT_EQ(slots(words, 1)[i], 32 + i);
  }
  // 128-bit: four instructions of eight lanes.
  for (unsigned lane = 0; lane < kTraceLanes; ++lane) a[lane] = 16 * lane;
  ASSERT_EQ(layout(words, 0xffffffffu, a, 16), 4u);
  EXPECT_EQ(slots(words, 3)[31], 127u);
  // Lane 1 inactive: its two slots are empty.
  for (unsigned lane = 0; lane < kTraceLanes; ++lane) a[lane] = 8 * lane;
  layout(words, 0xfffffffdu, a, 8);
  EXPECT_EQ(slots(words, 0)[2], kInactive);
  EXPECT_EQ(slots(words, 0)[3], kInactive);
  EXPECT_EQ(slots(words, 0)[4], 4u);
  // An unaligned 32-bit access spans two words: two per lane.
  for (unsigned lane = 0; lane < kTraceLanes; ++lane) a[lane] = 2 + 4 * lane;
  ASSERT_EQ(layout(words, 0xffffffffu, a, 4), 2u);
  EXPECT_EQ(slots(words, 0)[0], 0u);
  EXPECT_EQ(slots(words, 0)[1], 1u);
  EXPECT_EQ(slots(words, 0)[2], 1u);
  // A machine of w = 16: a 32-bit warp access is two instructions, lanes 0-15 and 16-31.
  for (unsigned lane = 0; lane < kTraceLanes; ++lane) a[lane] = 4 * lane;
  LaneWords narrow(2, 16);
  ASSERT_EQ(layout(narrow, 0x0000ffffu, a, 4), 2u);
  EXPECT_TRUE(narrow.active(0));
  EXPECT_FALSE(narrow.active(1));  // lanes 16-31 are inactive: nothing to send
  EXPECT_EQ(slots(narrow, 0)[15], 15u);
  // w = 64: one instruction, slots 32-63 empty; word_bytes 8: two 4-byte lanes per word.
  LaneWords wide(3, 64);
  ASSERT_EQ(layout(wide, 0xffffffffu, a, 4), 1u);
  EXPECT_EQ(slots(wide, 0)[1], 0u);
  EXPECT_EQ(slots(wide, 0)[2], 1u);
  EXPECT_EQ(slots(wide, 0)[40], kInactive);
  // A column read downwards and upwards: one stride, a word apart or many.
  for (unsigned lane = 0; lane < kTraceLanes; ++lane) a[lane] = 4096 - 128 * lane;
  ASSERT_EQ(layout(words, 0xffffffffu, a, 4), 1u);
  EXPECT_EQ(slots(words, 0)[31], (4096 - 128 * 31) / 4u);
  // Byte loads: four lanes in one word.
  for (unsigned lane = 0; lane < kTraceLanes; ++lane) a[lane] = lane;
  ASSERT_EQ(layout(words, 0xffffffffu, a, 1), 1u);
  EXPECT_EQ(slots(words, 0)[7], 1u);
}

TEST(LaneWords, NamesARunOfWConsecutiveWordsByItsFirstWord) {
  std::array<std::uint64_t, kTraceLanes> a{};
  // 32-bit lanes of consecutive words from byte 4096: one instruction, words 1024 .. 1055.
  for (unsigned lane = 0; lane < kTraceLanes; ++lane) a[lane] = 4096 + 4 * lane;
  LaneWords words(2, 32);
  ASSERT_EQ(layout(words, 0xffffffffu, a, 4), 1u);
  EXPECT_EQ(words.run(), 1024u);
  EXPECT_EQ(slots(words, 0)[31], 1055u);  // the slots hold the same words
  // Moved by an offset (a CTA's shared memory): the run moves with it.
  RecordedInstruction in;
  in.mask = 0xffffffffu;
  in.address = a;
  in.strided = true;
  in.stride = 4;
  ASSERT_EQ(words.layout(in, 4, identity(), 100), 1u);
  EXPECT_EQ(words.run(), 1124u);
  // Not a run: a column (lanes 32 words apart), 64-bit lanes (two instructions), an inactive
  // lane, and a machine of w = 16.
  for (unsigned lane = 0; lane < kTraceLanes; ++lane) a[lane] = 128 * lane;
  layout(words, 0xffffffffu, a, 4);
  EXPECT_EQ(words.run(), kInactive);
  for (unsigned lane = 0; lane < kTraceLanes; ++lane) a[lane] = 8 * lane;
  ASSERT_EQ(layout(words, 0xffffffffu, a, 8), 2u);
  EXPECT_EQ(words.run(), kInactive);
  for (unsigned lane = 0; lane < kTraceLanes; ++lane) a[lane] = 4 * lane;
  layout(words, 0xffffffffu, a, 4);
  ASSERT_EQ(words.run(), 0u);
  layout(words, 0xfffffffeu, a, 4);
  EXPECT_EQ(words.run(), kInactive);
  LaneWords narrow(2, 16);
  layout(narrow, 0xffffffffu, a, 4);
  EXPECT_EQ(narrow.run(), kInactive);
}

// ---- the CTA schedule -------------------------------------------------------------------------

TEST(CtaSchedule, PlacesCtasOnSlotsRoundByRound) {
  // 2 blocks of 5 warps, CTAs of 2 warps: 2 slots per block (warp 4 of each block idle); 7
  // CTAs round robin: block 0 gets 0, 2, 4, 6 (rounds 0, 0, 1, 1), block 1 gets 1, 3, 5.
  const CtaSchedule s(7, 2, 2, 5, CtaPlacement::round_robin);
  EXPECT_EQ(s.slots(), 2u);
  ASSERT_TRUE(s.slot_of(7));
  EXPECT_EQ(s.slot_of(7)->block, 1u);
  EXPECT_EQ(s.slot_of(7)->slot, 1u);
  EXPECT_EQ(s.slot_of(7)->warp, 0u);
  EXPECT_FALSE(s.slot_of(4));
  EXPECT_EQ(s.cta(*s.slot_of(0), 0), 0u);
  EXPECT_EQ(s.cta(*s.slot_of(2), 0), 2u);
  EXPECT_EQ(s.cta(*s.slot_of(0), 1), 4u);
  EXPECT_EQ(s.cta(*s.slot_of(3), 1), 6u);
  EXPECT_EQ(s.cta(*s.slot_of(5), 0), 1u);
  EXPECT_EQ(s.cta(*s.slot_of(7), 0), 3u);
  EXPECT_EQ(s.cta(*s.slot_of(5), 1), 5u);
  EXPECT_FALSE(s.cta(*s.slot_of(7), 1));
  EXPECT_EQ(s.rounds(0), 2u);
  EXPECT_EQ(s.rounds(1), 2u);
  // By CTA id: recorded CTAs with linear ids 3, 0, 1, 2 on 2 blocks: block 0 gets the CTAs of
  // ids 0 and 2 (recorded 1 and 3), in recorded order.
  const CtaSchedule by_id(4, 1, 2, 1, CtaPlacement::cta_id, {3, 0, 1, 2});
  EXPECT_EQ(by_id.cta(*by_id.slot_of(0), 0), 1u);
  EXPECT_EQ(by_id.cta(*by_id.slot_of(0), 1), 3u);
  EXPECT_EQ(by_id.cta(*by_id.slot_of(1), 0), 0u);
}

// ---- reading ahead (read_ahead.hpp) ---------------------------------------------------------

// A producer of numbered batches: batch i holds i; the one after `last` throws.
struct Numbers {
  int last = 0;
  std::atomic<int> filled{0};
  bool fill(std::vector<int>& batch) {
    const int i = filled++;
    if (i > last)
      throw std::runtime_error("the input ends badly after batch " + std::to_string(last));
    batch.assign(1, i);
    return true;
  }
};

// The threads of this process.
std::size_t threads_now() {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/task"))
    ++n;
  return n;
}

// The consumer gets every batch in order, then the producer's exception, whether the producer
// runs on its own thread or when asked; on its thread it is never more than its depth ahead
// (with the batch it fills and the one the consumer holds), however slowly the consumer goes.
TEST(ReadAhead, HandsOverTheBatchesInOrderThenTheProducersErrorAFewAheadAtMost) {
  for (const bool thread : {false, true}) {
    Numbers numbers{.last = 40};
    ReadAhead<std::vector<int>> batches(
        [&numbers](std::vector<int>& batch) { return numbers.fill(batch); }, thread, 3);
    std::vector<int> got;
    std::string error;
    try {
      while (const std::vector<int>* batch = batches.next()) {
        got.push_back(batch->front());
        if (got.size() % 8 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
        EXPECT_LE(numbers.filled.load(), static_cast<int>(got.size()) + (thread ? 4 : 0));
      }
    } catch (const std::runtime_error& e) {
      error = e.what();
    }
    ASSERT_EQ(got.size(), 41u) << thread;
    for (int i = 0; i <= 40; ++i) EXPECT_EQ(got[static_cast<std::size_t>(i)], i);
    EXPECT_EQ(error, "the input ends badly after batch 40") << thread;
  }
}

// A consumer that stops early (an error of its own) stops the producer, which never ends by
// itself here, and waits for it: nothing runs on after the reader is gone.
TEST(ReadAhead, StopsItsProducerWhenTheConsumerStopsEarly) {
  const std::size_t before = threads_now();
  std::atomic<int> filled{0};
  {
    ReadAhead<int> batches(
        [&filled](int& batch) {
          batch = filled++;
          return true;
        },
        true, 2);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(*batches.next(), i);
    EXPECT_EQ(threads_now(), before + 1);
  }
  EXPECT_EQ(threads_now(), before);
  const int stopped_at = filled.load();
  EXPECT_LE(stopped_at, 3 + 4);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(filled.load(), stopped_at);
}

// On a machine of one processor (here: this process confined to one, as taskset does) no thread
// reads ahead: each batch is filled when the consumer asks for it, on its thread.
TEST(ReadAhead, ReadsOnTheConsumersThreadWhereOneProcessorMayRun) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(static_cast<int>(::sched_getcpu()), &one);
    if (::sched_setaffinity(0, sizeof one, &one) != 0) ::_exit(3);
    if (read_ahead_allowed()) ::_exit(4);
    const std::thread::id consumer = std::this_thread::get_id();
    bool elsewhere = false;
    ReadAhead<int> batches(
        [&](int& batch) {
          elsewhere = elsewhere || std::this_thread::get_id() != consumer || threads_now() != 1;
          batch = 1;
          return false;
        },
        read_ahead_allowed());
    const int* batch = batches.next();
    ::_exit(batch == nullptr || *batch != 1 || batches.next() != nullptr ? 5 : elsewhere ? 6 : 0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  if (available_cores() >= 2) {
    EXPECT_TRUE(read_ahead_allowed());
  } else {
    EXPECT_FALSE(read_ahead_allowed());
  }
}

// ---- the readers ------------------------------------------------------------------------------

std::string nvbit_line(const std::string& cta, unsigned warp, const std::string& opcode,
                       std::uint64_t base, std::uint64_t stride, unsigned lanes = 32,
                       std::uint32_t mask = 0xffffffffu, unsigned launch = 0) {
  char head[160];
  std::snprintf(head, sizeof head,
                "MEMTRACE: CTX 0x00005581e4e9f0a0 - grid_launch_id %u - CTA %s - warp %u - %s - ",
                launch, cta.c_str(), warp, opcode.c_str());
  std::string line = head;
  for (unsigned lane = 0; lane < lanes; ++lane) {
    char address[24];
    std::snprintf(address, sizeof address, "0x%016llx ",
                  static_cast<unsigned long long>(
                      lane >= 32 || (mask >> lane & 1) ? base + lane * stride : 0));
    line += address;
  }
  return line + "\n";
}

std::string nvbit_launch(unsigned launch, const std::string& name, const std::string& grid,
                         const std::string& block) {
  return "MEMTRACE: CTX 0x00005581e4e9f0a0 - LAUNCH - Kernel pc 0x00007f8ed6a4e700 - Kernel name " +
         name + " - grid launch id " + std::to_string(launch) + " - grid size " + grid +
         " - block size " + block + " - nregs 10 - shmem 0 - cuda stream id 0\n";
}

RecordedTrace read(const std::filesystem::path& file, TraceFormat format,
                   const std::string& kernel = "all") {
  return read_recorded_trace(file, format, KernelSelection(kernel), 2);
}

// The records of warp q of CTA c of the first selected kernel.
std::vector<RecordedInstruction> records(const RecordedTrace& t, std::uint64_t c, unsigned q) {
  const CtaEntry cta = t.store->cta(c);
  std::vector<RecordedInstruction> out;
  if (q >= cta.warps) return out;
  WarpCursor cursor(4096);
  cursor.open(*t.store, t.store->warp(cta.first_warp + q));
  RecordedInstruction in;
  while (cursor.next(in)) out.push_back(in);
  return out;
}

TEST(NvbitReader, TellsWarpsApartByCtaAndSlotKeepingEachWarpsOrder) {
  TempDir dir;
  // Slot 0 runs a warp of CTA 1,0,0 and later one of CTA 0,0,0; their lines interleave.
  const auto file = dir.write(
      "t.txt", "the program's own output\n" + nvbit_launch(0, "k(float*, int)", "2,1,1", "64,1,1") +
                   nvbit_line("1,0,0", 0, "LDG.E", 0x1000, 4) +
                   nvbit_line("1,0,0", 3, "LDG.E.64", 0x2000, 8) +
                   nvbit_line("0,0,0", 0, "STS", 0x7f0000000000, 4, 32, 0x0000ffffu) +
                   nvbit_line("1,0,0", 0, "STG.E", 0x3000, 4) + "more output\n" +
                   nvbit_line("1,0,0", 0, "LDL", 0x5000, 4) +
                   nvbit_line("1,0,0", 0, "LDG.E", 0x4000, 4));
  const RecordedTrace t = read(file, TraceFormat::nvbit);
  ASSERT_EQ(t.kernels.size(), 1u);
  const TraceKernel& k = t.kernels[0];
  EXPECT_EQ(k.name, "k(float*, int)");
  EXPECT_EQ(k.warps_per_cta, 2u);
  EXPECT_EQ(k.ctas, 2u);
  EXPECT_EQ(k.instructions, 6u);
  EXPECT_EQ(k.global, 4u);
  EXPECT_EQ(k.shared, 1u);
  EXPECT_EQ(k.other, 1u);
  EXPECT_EQ(k.lanes, 4u * 32 + 16);
  EXPECT_EQ(t.skipped_lines, 2u);
  // CTA 1,0,0 appeared first: it is CTA 0 of the recorded order; its warps by slot: 0, 3.
  EXPECT_EQ(t.store->cta(0).id[0], 1u);
  const auto w0 = records(t, 0, 0);
  ASSERT_EQ(w0.size(), 3u);  // LDG, STG, LDG (the LDL is counted, not kept)
  EXPECT_EQ(w0[0].address[1], 0x1004u);
  EXPECT_EQ(w0[1].address[0], 0x3000u);
  EXPECT_EQ(w0[2].index, 3u);  // its fourth recorded instruction
  EXPECT_EQ(w0[2].line, 9u);
  const auto w1 = records(t, 0, 1);
  ASSERT_EQ(w1.size(), 1u);
  EXPECT_EQ(t.sites[w1[0].site].bytes, 8u);
  const auto other = records(t, 1, 0);
  ASSERT_EQ(other.size(), 1u);
  EXPECT_EQ(other[0].mask, 0x0000ffffu);  // a zero address is an inactive lane
  EXPECT_EQ(t.not_mapped.at({"LDL", "local memory (each thread's own): not modelled"}), 1u);
}

// Whether two readings of one trace regrouped every warp's records alike.
void expect_same_warps(const RecordedTrace& a, const RecordedTrace& b) {
  ASSERT_EQ(a.store->ctas(), b.store->ctas());
  ASSERT_EQ(a.store->warps(), b.store->warps());
  for (std::uint64_t c = 0; c < a.store->ctas(); ++c)
    for (unsigned q = 0; q < a.store->cta(c).warps; ++q) {
      const auto x = records(a, c, q);
      const auto y = records(b, c, q);
      ASSERT_EQ(x.size(), y.size());
      for (std::size_t i = 0; i < x.size(); ++i) {
        EXPECT_EQ(x[i].line, y[i].line);
        EXPECT_EQ(x[i].mask, y[i].mask);
        EXPECT_EQ(x[i].address, y[i].address);
      }
    }
}

RecordedTrace read_through_runs(const std::filesystem::path& file, NvbitRegrouping regrouping) {
  RecordedTrace runs;
  runs.file = file;
  runs.store = std::make_unique<WarpStore>(file.string());
  read_nvbit_trace(file, KernelSelection("all"), runs, regrouping);
  runs.store->finish();
  return runs;
}

TEST(NvbitReader, RegroupsThroughSortedRunsAsItDoesInMemory) {
  TempDir dir;
  std::string text = nvbit_launch(0, "k", "40,1,1", "128,1,1");
  for (unsigned i = 0; i < 600; ++i)
    text += nvbit_line(std::to_string(i * 7 % 40) + ",0,0", i % 4, i % 3 ? "LDG.E" : "STG.E",
                       0x10000 + 128 * i, 4);
  const auto file = dir.write("t.txt", text);
  const RecordedTrace in_memory = read(file, TraceFormat::nvbit);
  ASSERT_EQ(in_memory.store->ctas(), 40u);
  ASSERT_EQ(in_memory.store->warps(), 40u);  // a CTA's lines (i = c / 7 mod 40) share i mod 4
  // A run every 2 kB of records, read back through buffers of 256 bytes.
  expect_same_warps(in_memory, read_through_runs(file, {2000, 512}));
}

// Groups of a run longer than the merge's buffer (warps whose lanes are scattered: about 100
// bytes a record), shorter ones, and headers that straddle the buffer's end: all read back alike.
TEST(NvbitReader, MergesRunsThroughBuffersShorterThanTheirGroups) {
  TempDir dir;
  std::string text = nvbit_launch(0, "k", "2,1,1", "64,1,1");
  for (unsigned i = 0; i < 400; ++i) {
    const std::string cta = std::to_string(i % 2) + ",0,0";
    const unsigned warp = i / 2 % 2;
    if (warp == 1) {
      text += nvbit_line(cta, warp, "LDG.E", 0x20000 + 128 * i, 4);
      continue;
    }
    char head[128];
    std::snprintf(head, sizeof head,
                  "MEMTRACE: CTX 0x00005581e4e9f0a0 - grid_launch_id 0 - CTA %s - warp 0 - "
                  "STG.E - ",
                  cta.c_str());
    text += head;
    for (unsigned lane = 0; lane < 32; ++lane) {
      char address[24];
      std::snprintf(address, sizeof address, "0x%016llx ",
                    static_cast<unsigned long long>(0x100000 + 4096 * i + 4 * lane * lane));
      text += address;
    }
    text += "\n";
  }
  const auto file = dir.write("t.txt", text);
  const RecordedTrace in_memory = read(file, TraceFormat::nvbit);
  EXPECT_EQ(records(in_memory, 0, 0)[3].address[5], 0x100000u + 4096 * 12 + 4 * 25);
  expect_same_warps(in_memory, read_through_runs(file, {8000, 512}));
}

TEST(NvbitReader, LocatesMalformedLinesAndRefusesOtherWidths) {
  TempDir dir;
  const std::string launch = nvbit_launch(0, "k", "1,1,1", "32,1,1");
  const auto error = [&](const std::string& body) {
    const auto file = dir.write("t.txt", launch + body);
    return error_of([&] { read(file, TraceFormat::nvbit); }).substr(file.string().size());
  };
  EXPECT_EQ(error(nvbit_line("0,0,0", 0, "LDG.E", 0x1000, 4, 31)),
            ":2: expected 32 lane addresses, got 31: a trace for another warp width (mem_trace "
            "and mmsim read warps of 32 threads)");
  EXPECT_EQ(error(nvbit_line("0,0,0", 0, "LDG.E", 0x1000, 4, 64)).substr(0, 38),
            ":2: expected 32 lane addresses, got 64");
  std::string bad = nvbit_line("0,0,0", 0, "LDG.E", 0x1000, 4);
  bad.replace(bad.find("0x0000000000001008"), 4, "0xzz");
  EXPECT_EQ(error(bad),
            ":2:122: expected a lane's address (hexadecimal), got '0xzz00000000001008'");
  EXPECT_EQ(error("MEMTRACE: CTX 0x1 - grid_launch_id 0 - CTA 0,0 - warp 0 - LDG - 0x1\n"),
            ":2:44: expected the CTA's 'x,y,z'");
  EXPECT_EQ(error(nvbit_line("0,0,0", 0, "LDG.E", 0x1000, 4) +
                  nvbit_line("0,0,0", 1, "LDG.E", 0x2000, 4)),
            ":3: kernel 1 (k): CTA (0,0,0) has more warps than the 1 of its block size (32,1,1)");
  EXPECT_EQ(error("nothing of mem_trace\n").substr(0, 24), ": no mem_trace line ('ME");
}

// ---- mem_trace's addresses parsed at once (lane_addresses.hpp) ------------------------------

// 32 addresses as mem_trace prints them, each digit in either case where `mixed_case`.
std::string printed_addresses(const std::array<std::uint64_t, kTraceLanes>& address,
                              std::mt19937_64& random, bool mixed_case) {
  std::string text;
  for (const std::uint64_t a : address) {
    char digits[20];
    std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(a));
    text += "0x";
    for (const char* d = digits; *d != '\0'; ++d)
      text += mixed_case && random() % 2 ? static_cast<char>(std::toupper(*d)) : *d;
    text += ' ';
  }
  return text;
}

// The addresses as the field-by-field parse reads them (`lines` names the file in messages).
std::vector<std::uint64_t> scanned_addresses(std::string_view text, const TraceLines& lines) {
  LineFields f(text, lines.place());
  std::vector<std::uint64_t> out;
  for (std::uint64_t a = 0; f.address(a, "a lane's address");) out.push_back(a);
  return out;
}

TEST(LaneAddresses, ReadsThePrintedFormAsTheFieldByFieldParseInEveryVariant) {
  TempDir dir;
  const TraceLines lines(dir.write("t.txt", "x\n"), "trace file");
  std::mt19937_64 random(2602);
  for (int i = 0; i < 400; ++i) {
    std::array<std::uint64_t, kTraceLanes> address;
    for (std::uint64_t& a : address) {
      switch (random() % 4) {
        case 0:
          a = 0;  // an inactive lane
          break;
        case 1:
          a = 0x00007f8ea2000000 + random() % 4096;
          break;
        case 2:
          a = ~std::uint64_t{0} - random() % 16;
          break;
        default:
          a = random();
      }
    }
    std::string text = printed_addresses(address, random, i % 2 == 1);
    if (i % 3 == 0) text.pop_back();  // no blank after the last address
    const std::vector<std::uint64_t> scanned = scanned_addresses(text, lines);
    ASSERT_EQ(scanned, std::vector<std::uint64_t>(address.begin(), address.end()));
    std::uint32_t active = 0;
    for (unsigned lane = 0; lane < kTraceLanes; ++lane)
      active |= std::uint32_t{address[lane] != 0} << lane;
    for (const VectorIsa isa : runnable_isas()) {
      UsingIsa using_isa(isa);
      std::array<std::uint64_t, kTraceLanes> parsed{};
      std::uint32_t mask = 0;
      ASSERT_TRUE(parse_lane_addresses(text, parsed, mask)) << vector_isa_name(isa) << " " << text;
      ASSERT_EQ(parsed, address) << vector_isa_name(isa) << " " << text;
      ASSERT_EQ(mask, active) << vector_isa_name(isa) << " " << text;
    }
  }
}

TEST(LaneAddresses, LeavesEveryOtherFormToTheFieldByFieldParse) {
  std::mt19937_64 random(2603);
  std::array<std::uint64_t, kTraceLanes> address;
  for (std::uint64_t& a : address) a = random();
  const std::string text = printed_addresses(address, random, true);
  for (const VectorIsa isa : runnable_isas()) {
    UsingIsa using_isa(isa);
    std::array<std::uint64_t, kTraceLanes> parsed{};
    std::uint32_t mask = 0;
    // Each byte replaced by one that does not fit there: a digit by a character that is not a
    // hexadecimal digit (the neighbours of the digits' and letters' ranges, a byte from 0x80),
    // "0x" by "0X" or "1x", the blank by a tab or a digit.
    for (std::size_t at = 0; at < text.size(); ++at) {
      const std::size_t in_lane = at % kLaneAddressBytes;
      const std::string bad = in_lane == 0    ? "1 "
                              : in_lane == 1  ? "X0"
                              : in_lane == 18 ? "\t0x"
                                              : "/:@G`g \x80";
      for (const char c : bad) {
        std::string changed = text;
        changed[at] = c;
        EXPECT_FALSE(parse_lane_addresses(changed, parsed, mask))
            << vector_isa_name(isa) << " byte " << at << " '" << c << "'";
      }
    }
    EXPECT_FALSE(parse_lane_addresses(text + " ", parsed, mask));  // two blanks at the end
    EXPECT_FALSE(parse_lane_addresses(text.substr(kLaneAddressBytes), parsed, mask));  // 31 lanes
    EXPECT_FALSE(                                                                      // 33 lanes
        parse_lane_addresses(text + text.substr(0, kLaneAddressBytes), parsed, mask));
    EXPECT_FALSE(parse_lane_addresses(text.substr(0, text.size() - 2), parsed, mask));  // 15 digits
    EXPECT_TRUE(parse_lane_addresses(text, parsed, mask));
    EXPECT_EQ(mask, 0xffffffffu);
  }
}

// Every example trace (and a generated one) read as recorded and with its access lines in a form
// only the field-by-field parse reads ("CTX 0X...", two blanks before each address): the same
// kernels, totals, sites and records, in every variant of the vector parse.
TEST(NvbitReader, ReadsPrintedLinesAsTheFieldByFieldParseDoes) {
  TempDir dir;
  std::mt19937_64 random(2604);
  std::string generated = nvbit_launch(0, "k", "8,1,1", "128,1,1");
  for (unsigned i = 0; i < 700; ++i) {
    std::array<std::uint64_t, kTraceLanes> address;
    const std::uint64_t base = 0x00007f8ea2000000 + 4 * (random() % 100000);
    for (unsigned lane = 0; lane < kTraceLanes; ++lane)
      address[lane] = random() % 5 == 0 ? 0 : i % 2 ? base + 4 * lane : base + random() % 65536;
    generated += "MEMTRACE: CTX 0x00005581E4E9F0A0 - grid_launch_id 0 - CTA " +
                 std::to_string(random() % 8) + ",0,0 - warp " + std::to_string(random() % 4) +
                 (i % 3 ? " - LDG.E.64 - " : " - STS - ") +
                 printed_addresses(address, random, i % 2 == 0) + "\n";
  }
  std::vector<std::filesystem::path> files = {dir.write("generated.txt", generated)};
  for (const char* name : {"transpose_naive.nvbit.txt", "transpose_tiled.nvbit.txt.zst",
                           "reduction.nvbit.txt.gz", "three_kernels.nvbit.txt.xz"})
    files.push_back(std::filesystem::path(MMSIM_SOURCE_DIR) / "examples/traces" / name);
  for (const auto& file : files) {
    std::string scanned_form;
    for (std::string line : lines_of(file)) {
      if (line.find(" - grid_launch_id ") != std::string::npos) {
        line.replace(line.find("CTX 0x"), 6, "CTX 0X");
        for (std::size_t at = line.find(" 0x"); at != std::string::npos;
             at = line.find(" 0x", at + 2))
          line.insert(at, 1, ' ');
      }
      scanned_form += line + '\n';
    }
    const RecordedTrace scanned = read(dir.write("scanned.txt", scanned_form), TraceFormat::nvbit);
    for (const VectorIsa isa : runnable_isas()) {
      UsingIsa using_isa(isa);
      const RecordedTrace printed = read(file, TraceFormat::nvbit);
      const std::string where = file.filename().string() + " " + std::string(vector_isa_name(isa));
      ASSERT_EQ(printed.kernels.size(), scanned.kernels.size()) << where;
      for (std::size_t k = 0; k < printed.kernels.size(); ++k) {
        const TraceKernel& a = printed.kernels[k];
        const TraceKernel& b = scanned.kernels[k];
        EXPECT_EQ(a.name, b.name) << where;
        EXPECT_EQ(std::tie(a.instructions, a.global, a.shared, a.other, a.lanes, a.ctas),
                  std::tie(b.instructions, b.global, b.shared, b.other, b.lanes, b.ctas))
            << where;
      }
      ASSERT_EQ(printed.sites.size(), scanned.sites.size()) << where;
      for (std::size_t s = 0; s < printed.sites.size(); ++s)
        EXPECT_EQ(printed.sites[s].opcode, scanned.sites[s].opcode) << where;
      EXPECT_EQ(printed.global_words.runs(), scanned.global_words.runs()) << where;
      ASSERT_EQ(printed.store->ctas(), scanned.store->ctas()) << where;
      ASSERT_EQ(printed.store->warps(), scanned.store->warps()) << where;
      std::uint64_t compared = 0;
      for (std::uint64_t c = 0; c < printed.store->ctas(); ++c) {
        ASSERT_EQ(printed.store->cta(c).warps, scanned.store->cta(c).warps) << where;
        for (unsigned q = 0; q < printed.store->cta(c).warps; ++q) {
          const auto a = records(printed, c, q);
          const auto b = records(scanned, c, q);
          ASSERT_EQ(a.size(), b.size()) << where;
          for (std::size_t i = 0; i < a.size(); ++i) {
            ASSERT_EQ(std::tie(a[i].site, a[i].index, a[i].line, a[i].mask),
                      std::tie(b[i].site, b[i].index, b[i].line, b[i].mask))
                << where;
            for (unsigned lane = 0; lane < kTraceLanes; ++lane)
              if (a[i].mask >> lane & 1) {
                ASSERT_EQ(a[i].address[lane], b[i].address[lane]);
              }
            ++compared;
          }
        }
      }
      EXPECT_GT(compared, 0u) << where;
    }
  }
}

// Lines in the printed form but for one field: the field-by-field parse locates it.
TEST(NvbitReader, LocatesAMalformedAddressOfAPrintedLineAtItsColumn) {
  TempDir dir;
  const std::string launch = nvbit_launch(0, "k", "1,1,1", "32,1,1");
  std::string good = nvbit_line("0,0,0", 0, "LDG.E", 0x7f8ea2000000, 4);
  good.pop_back();
  const std::size_t first = good.find(" - 0x") + 3;  // column first + 1
  for (const VectorIsa isa : runnable_isas()) {
    UsingIsa using_isa(isa);
    for (const unsigned lane : {0u, 5u, 31u}) {
      for (const std::size_t digit : {2u, 9u, 17u}) {
        std::string bad = good;
        const std::size_t at = first + lane * kLaneAddressBytes;
        bad[at + digit] = 'g';
        const auto file = dir.write("t.txt", launch + bad + "\n");
        const std::string field = bad.substr(at, 18);
        EXPECT_EQ(error_of([&] { read(file, TraceFormat::nvbit); }).substr(file.string().size()),
                  ":2:" + std::to_string(at + 1) +
                      ": expected a lane's address (hexadecimal), got '" + field + "'")
            << vector_isa_name(isa) << " lane " << lane << " digit " << digit;
      }
    }
    // Upper-case digits read as lower-case ones; a zero address is an inactive lane.
    std::string upper = nvbit_line("0,0,0", 0, "LDG.E", 0x7f8ea2000abc, 4, 32, 0xfffffffeu);
    for (std::size_t at = upper.find(" - 0x") + 3; at < upper.size(); ++at)
      if (upper[at] >= 'a' && upper[at] <= 'f') upper[at] = static_cast<char>(upper[at] - 32);
    const RecordedTrace t = read(dir.write("t.txt", launch + upper), TraceFormat::nvbit);
    const auto w = records(t, 0, 0);
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(w[0].mask, 0xfffffffeu);
    EXPECT_EQ(w[0].address[1], 0x7f8ea2000abcu + 4);
    EXPECT_EQ(w[0].address[31], 0x7f8ea2000abcu + 4 * 31);
  }
}

std::string traceg(const std::string& header, const std::string& blocks) {
  return "-kernel name = _Z1kPf\n-kernel id = 1\n-grid dim = (2,1,1)\n-block dim = (64,1,1)\n"
         "-shmem = 0\n-nregs = 8\n-binary version = 80\n-cuda stream id = 0\n" +
         header + "\n#traces format = [line_num] PC mask ...\n\n\n" + blocks;
}

TEST(AccelsimReader, ReadsEveryAddressFormatAndVersion) {
  TempDir dir;
  const std::string block =
      "\n#BEGIN_TB\n\nthread block = 1,0,0\n\nwarp = 0\ninsts = 4\n"
      "0000 ffffffff 1 R1 MOV 0 0 \n"
      "0010 0000000f 1 R2 LDG.E 1 R2 4 0 0x10 0x20 0x34 0x48 \n"
      "0020 000000f0 0 STG.E.64 2 R4 R2 8 1 0x100 -8 \n"
      "0030 00000007 1 R3 LDS 1 R4 4 2 0x7f0000000000 12 -4 \n"
      "\nwarp = 1\ninsts = 1\n0000 ffffffff 0 BAR.SYNC 0 0 \n\n#END_TB\n";
  const RecordedTrace t = read(
      dir.write("k.traceg", traceg("-accelsim tracer version = 4\n-enable lineinfo = 0\n", block)),
      TraceFormat::accelsim);
  const TraceKernel& k = t.kernels[0];
  EXPECT_EQ(k.name, "_Z1kPf");
  EXPECT_EQ(k.warps_per_cta, 2u);
  EXPECT_EQ(k.instructions, 5u);
  EXPECT_EQ(k.other, 1u);
  EXPECT_EQ(k.barriers, 1u);
  const auto w0 = records(t, 0, 0);
  ASSERT_EQ(w0.size(), 3u);
  EXPECT_EQ(w0[0].address[3], 0x48u);
  EXPECT_EQ(w0[0].index, 1u);
  EXPECT_EQ(t.sites[w0[0].site].pc, 0x10u);
  EXPECT_EQ(w0[1].mask, 0xf0u);
  EXPECT_EQ(w0[1].address[4], 0x100u);
  EXPECT_EQ(w0[1].address[7], 0x100u - 24);
  EXPECT_EQ(t.sites[w0[1].site].bytes, 8u);
  EXPECT_EQ(w0[2].address[1], 0x7f0000000000u + 12);
  EXPECT_EQ(w0[2].address[2], 0x7f0000000000u + 8);
  EXPECT_EQ(t.sites[w0[2].site].mapping.space, Space::shared);
  EXPECT_EQ(records(t, 0, 1).size(), 1u);
  EXPECT_EQ(t.store->cta(0).max_barriers, 1u);
  // Version 5 ends a line with the immediate; lineinfo puts the source line first; before 3
  // the thread block and warp lead each line.
  const RecordedTrace v5 = read(
      dir.write("v5.traceg", traceg("-accelsim tracer version = 5\n-enable lineinfo = 1\n",
                                    "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                                    "42 0010 ffffffff 1 R2 LDG.E 1 R2 4 1 0x10 4 -16 \n#END_TB\n")),
      TraceFormat::accelsim);
  EXPECT_EQ(v5.sites[0].source_line, 42u);
  EXPECT_EQ(records(v5, 0, 0)[0].address[31], 0x10u + 124);
  const RecordedTrace v2 =
      read(dir.write("v2.traceg",
                     traceg("-accelsim tracer version = 2\n",
                            "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                            "0 0 0 0 0010 ffffffff 1 R2 LDG.E 1 R2 4 1 0x10 4 \n#END_TB\n")),
           TraceFormat::accelsim);
  EXPECT_EQ(records(v2, 0, 0).size(), 1u);
}

// An instruction line as the tracer prints it (one blank between fields) is parsed at once; the
// same line with its blanks doubled goes field by field: every record and site is the same, for
// every address format, mask, width, sign, register count, version and lineinfo.
TEST(AccelsimReader, ReadsPrintedLinesAsTheFieldByFieldParseDoes) {
  TempDir dir;
  const std::vector<std::string> instructions = {
      "0000 ffffffff 1 R1 MOV 0 0",
      "0010 0000000f 1 R2 LDG.E 1 R2 4 0 0x10 0x20 0x34 0x48",
      "0020 000000f0 0 STG.E.64 2 R4 R2 8 1 0x100 -8",
      "0030 00000007 1 R3 LDS 1 R4 4 2 0x7f0000000000 12 -4",
      "0040 ffffffff 3 R5 R6 R7 ATOMG.E.ADD 2 R8 R9 4 1 0x7f8ea2000000 4",
      "0050 80000001 0 STG.E.128 1 R10 16 2 0xffffffffff000000 16777200",
      "0060 ffffffff 0 LDG.E 0 4 1 0xf0000000 -4096",
      "0070 00000000 0 STG.E 1 R2 4 1 0x0 0",
      "0080 ffffffff 0 BAR.SYNC 0 0",
      "00a0 0000ffff 1 R12 LDS.U.128 1 R2 16 1 0x40 16",
  };
  // `immediate`: version 5's, after the lines of an address 0x10.
  const auto block = [&](const std::string& prefix, bool immediate, bool doubled) {
    std::string text = "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = " +
                       std::to_string(instructions.size()) + "\n";
    for (const std::string& instruction : instructions) {
      const std::string line =
          prefix + instruction +
          (immediate && instruction.find("0x10 ") != std::string::npos ? " -3" : "");
      for (const char c : line) {
        text += c;
        if (c == ' ' && doubled) text += ' ';
      }
      text += " \n";
    }
    return text + "#END_TB\n";
  };
  for (const auto& [header, prefix] : std::vector<std::pair<std::string, std::string>>{
           {"-accelsim tracer version = 4\n-enable lineinfo = 0\n", ""},
           {"-accelsim tracer version = 4\n-enable lineinfo = 1\n", "17 "},
           {"-accelsim tracer version = 5\n-enable lineinfo = 0\n", ""}}) {
    const bool immediate = header.find("version = 5") != std::string::npos;
    const std::string printed = block(prefix, immediate, false);
    const std::string scanned = block(prefix, immediate, true);
    const RecordedTrace a =
        read(dir.write("a.traceg", traceg(header, printed)), TraceFormat::accelsim);
    const RecordedTrace b =
        read(dir.write("b.traceg", traceg(header, scanned)), TraceFormat::accelsim);
    ASSERT_EQ(a.sites.size(), b.sites.size()) << header;
    for (std::size_t i = 0; i < a.sites.size(); ++i) {
      EXPECT_EQ(a.sites[i].pc, b.sites[i].pc);
      EXPECT_EQ(a.sites[i].opcode, b.sites[i].opcode);
      EXPECT_EQ(a.sites[i].bytes, b.sites[i].bytes);
      EXPECT_EQ(a.sites[i].source_line, b.sites[i].source_line);
      EXPECT_EQ(a.sites[i].has_addresses, b.sites[i].has_addresses);
    }
    EXPECT_EQ(a.kernels[0].lanes, b.kernels[0].lanes);
    expect_same_warps(a, b);
    const auto records_a = records(a, 0, 0);
    ASSERT_EQ(records_a.size(), 9u) << header;  // the MOV is counted, not kept
    EXPECT_EQ(records_a[3].address[31], 0x7f8ea2000000u + 124);
    EXPECT_EQ(records_a[4].address[31], 0xffffffffff000000u + 16777200);
    EXPECT_EQ(records_a[5].address[31], 0xf0000000u - 31 * 4096);
  }
}

TEST(AccelsimReader, LocatesMalformedLinesAndRefusesOtherWidths) {
  TempDir dir;
  const auto error = [&](const std::string& blocks) {
    const auto file = dir.write(
        "k.traceg", traceg("-accelsim tracer version = 4\n-enable lineinfo = 0\n", blocks));
    return error_of([&] { read(file, TraceFormat::accelsim); }).substr(file.string().size());
  };
  const std::string head = "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n";  // lines 15-17
  EXPECT_EQ(error(head + "insts = 1\n0010 ffffffffffffffff 0 LDG 0 4 1 0x0 4\n#END_TB\n"),
            ":19:6: the active mask 'ffffffffffffffff' has more than 32 lanes: a trace for another "
            "warp width (Accel-Sim and mmsim read warps of 32 threads)");
  EXPECT_EQ(error(head + "insts = 2\n0010 ffffffff 0 EXIT 0 0\n#END_TB\n"),
            ":18: insts = 2, but warp 0 has 1 instruction lines");
  EXPECT_EQ(error(head + "insts = 1\n0010 ffffffff 1 X2 LDG 0 4 1 0x0 4\n#END_TB\n"),
            ":19:17: expected a register (R and its number), got 'X2'");
  EXPECT_EQ(error(head + "insts = 1\n0010 ffffffff 0 LDG 0 4 7 0x0\n#END_TB\n"),
            ":19:25: the address format is 7: expected 0 (list), 1 (base and stride) or 2 (base "
            "and deltas)");
  EXPECT_EQ(error(head + "insts = 1\n0010 ffffffff 0 LDG 0 4 1 0x0 4 5\n#END_TB\n"),
            ":19:33: unexpected '5' at the end of the instruction");
  EXPECT_EQ(error(head + "insts = 1\n0010 ffffffff 0 EXIT 0 0\n"),
            ":15: the file ends inside this thread block (no #END_TB): a truncated trace?");
  EXPECT_EQ(error("#BEGIN_TB\nthread block = 5,0,0\n#END_TB\n"),
            ":16: thread block (5,0,0) lies outside the grid (2,1,1)");
  EXPECT_EQ(error(head + "insts = 0\nwarp = 2\n"),
            ":19: warp 2: a block of 64x1x1 threads has 2 warps");
}

TEST(AccelsimReader, ReadsAKernelsListAndOnlyTheSelectedKernelsInstructions) {
  TempDir dir;
  const std::string blocks =
      "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
      "0010 ffffffff 1 R2 LDG.E 1 R2 4 1 0x10 4 \n#END_TB\n";
  dir.write("kernel-1.traceg", traceg("-accelsim tracer version = 4\n", blocks));
  dir.write("kernel-2.traceg.gz", gzip(traceg("-accelsim tracer version = 4\n", blocks + blocks)));
  const auto list = dir.write("kernelslist.g",
                              "MemcpyHtoD,0x00007f0000000000,256\n"
                              "kernel-1.traceg\nkernel-2.traceg.gz\n");
  const RecordedTrace t = read(list, TraceFormat::accelsim, "2");
  ASSERT_EQ(t.kernels.size(), 2u);
  EXPECT_FALSE(t.kernels[0].selected);
  EXPECT_FALSE(t.kernels[0].read);
  EXPECT_EQ(t.kernels[1].ctas, 2u);
  EXPECT_EQ(t.kernels[1].instructions, 2u);
  EXPECT_EQ(error_of([&] { read(list, TraceFormat::accelsim, "3"); }),
            "kernel: kernel: no kernel of " + list.string() +
                " is '3'; it holds kernel 1 (_Z1kPf), kernel 2 (_Z1kPf)");
  const auto broken = dir.write("broken.g", "kernel-1.traceg\nkernel-9.traceg\n");
  EXPECT_EQ(error_of([&] { read(broken, TraceFormat::accelsim); }),
            broken.string() + ":2: " + (dir / "kernel-9.traceg").string() +
                ": cannot open Accel-Sim trace file: No such file or directory");
}

// ---- addresses past the last byte --------------------------------------------------------------

TEST(NvbitReader, RefusesAnAccessPastTheLastByteAddressAtItsLanesColumn) {
  TempDir dir;
  const std::string launch = nvbit_launch(0, "k", "1,1,1", "32,1,1");
  // LDG.E.128 reads 16 bytes a lane: from 0xfffffffffffffff8 its words pass 2^64.
  const std::string wide = nvbit_line("0,0,0", 0, "LDG.E.128", 0xfffffffffffffff8, 0);
  // A 4-byte read at 0xfffffffffffffffe in lane 7, the other lanes fine; read both as printed
  // and field by field (a doubled blank takes a line off the printed form).
  std::string one = nvbit_line("0,0,0", 0, "LDG.E", 0x1000, 4);
  one.replace(one.find("0x000000000000101c"), 18, "0xfffffffffffffffe");
  std::string scanned = one;
  scanned.replace(scanned.find(" - CTA"), 1, "  ");
  for (const auto& [line, address, lane, bytes] :
       std::vector<std::tuple<std::string, std::string, unsigned, unsigned>>{
           {wide, "0xfffffffffffffff8", 0, 16},
           {one, "0xfffffffffffffffe", 7, 4},
           {scanned, "0xfffffffffffffffe", 7, 4}}) {
    const auto file = dir.write("t.txt", launch + line);
    EXPECT_EQ(error_of([&] { read(file, TraceFormat::nvbit); }),
              file.string() + ":2:" + std::to_string(line.find(address) + 1) + ": lane " +
                  std::to_string(lane) + " accesses " + std::to_string(bytes) + " bytes from " +
                  address + ", past the last byte address 0xffffffffffffffff: no memory has them");
  }
  // The last bytes themselves are addresses like any other.
  const auto last =
      dir.write("last.txt", launch + nvbit_line("0,0,0", 0, "LDG.E.128", 0xfffffffffffffff0, 0));
  EXPECT_EQ(records(read(last, TraceFormat::nvbit), 0, 0).at(0).address[31], 0xfffffffffffffff0u);
}

TEST(AccelsimReader, RefusesAddressesPastTheLastByteAtTheirColumn) {
  TempDir dir;
  const auto file = [&](const std::string& instruction) {
    return dir.write("k.traceg", traceg("-accelsim tracer version = 4\n",
                                        "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n" +
                                            instruction + "\n#END_TB\n"));
  };
  const std::string wrapped =
      "'s address, made from the base address and the lanes' offsets, lies below 0 or past "
      "0xffffffffffffffff: no memory has it";
  // The instruction is line 18; the field is where the error is: a list's (format 0) lane, or
  // the base address that a stride or deltas (formats 1, 2) start from.
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"0010 00000003 1 R2 LDG.E.64 1 R2 8 0 0x10 0xfffffffffffffffc", "0xfffffffffffffffc",
       "lane 1 accesses 8 bytes from 0xfffffffffffffffc, past the last byte address "
       "0xffffffffffffffff: no memory has them"},
      {"0010 ffffffff 1 R2 LDG.E 1 R2 4 1 0xfffffffffffffff0 4", "0xfffffffffffffff0",
       "lane 4" + wrapped},
      {"0010 0000000f 1 R2 LDG.E 1 R2 4 2 0x10 4 -8 -16", "0x10", "lane 3" + wrapped},
      // Every lane active, base and stride: the last lane's 16 bytes pass the end.
      {"0010 ffffffff 1 R2 LDG.E.128 1 R2 16 1 0xffffffffffffff00 8", "0xffffffffffffff00",
       "lane 31 accesses 16 bytes from 0xfffffffffffffff8, past the last byte address "
       "0xffffffffffffffff: no memory has them"},
  };
  for (const auto& [instruction, field, message] : cases) {
    const auto trace = file(instruction);
    EXPECT_EQ(
        error_of([&] { read(trace, TraceFormat::accelsim); }),
        trace.string() + ":18:" + std::to_string(instruction.find(field) + 1) + ": " + message);
  }
  // Downwards from a base is fine as long as it stays at or above 0.
  const auto down = file("0010 0000000f 1 R2 LDG.E 1 R2 4 1 0xc -4");
  EXPECT_EQ(records(read(down, TraceFormat::accelsim), 0, 0).at(0).address[3], 0u);
}

// ---- text that is not the trace's: at most kMaxSkippedBytes in a row ---------------------------

// The nvbit reader over `file`, skipping at most `skipped_limit` bytes of other lines in a row.
void read_nvbit(const std::filesystem::path& file, std::uint64_t skipped_limit) {
  RecordedTrace trace;
  trace.file = file;
  trace.skipped_limit = skipped_limit;
  trace.store = std::make_unique<WarpStore>(file.string());
  read_nvbit_trace(file, KernelSelection("all"), trace);
}

TEST(TraceLines, RefusesMoreOtherLinesInARowThanItsLimitWhereTheyBegin) {
  TempDir dir;
  const std::string head =
      nvbit_launch(0, "k", "1,1,1", "32,1,1") + nvbit_line("0,0,0", 0, "LDG.E", 0x1000, 4);
  // 1000 bytes of the program's own output between two trace lines pass a limit of 1000; one
  // byte more does not, located at the first of them (line 3), however it goes on.
  const std::string output = std::string(999, 'x') + "\n";
  const auto fits = dir.write("fits.txt", head + output + nvbit_line("0,0,0", 0, "LDG.E", 0, 4));
  EXPECT_EQ(error_of([&] { read_nvbit(fits, 1000); }), "no error");
  const auto over = dir.write("over.txt", head + output + "\n" + std::string(5000, '\n'));
  const auto over_zst = dir.write("over.zst", zstd(head + output + "\n" + std::string(5000, '\n')));
  for (const auto& file : {over, over_zst})
    EXPECT_EQ(error_of([&] { read_nvbit(file, 1000); }),
              file.string() +
                  ":3: no line of the trace in the 1001 bytes from here to line 4: "
                  "mmsim skips at most 1000 bytes of other lines in a row (is it a "
                  "trace in this format?)");
  // Accel-Sim: blank lines and comments count; header, block and instruction lines do not.
  const std::string blocks =
      "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
      "0010 ffffffff 1 R2 LDG.E 1 R2 4 1 0x10 4 \n#END_TB\n";
  const auto traceg_file =
      dir.write("k.traceg", traceg("-accelsim tracer version = 4\n",
                                   blocks + std::string(2000, '\n') + "# a comment\n" + blocks));
  RecordedTrace accelsim;
  accelsim.file = traceg_file;
  accelsim.format = TraceFormat::accelsim;
  accelsim.skipped_limit = 2000;
  accelsim.store = std::make_unique<WarpStore>(traceg_file.string());
  // The header takes lines 1-13, the first block 14-19; 2000 blank lines and the comment follow.
  EXPECT_EQ(error_of([&] { read_accelsim_trace(traceg_file, KernelSelection("all"), accelsim); }),
            traceg_file.string() +
                ":20: no line of the trace in the 2012 bytes from here to line 2020: mmsim skips "
                "at most 2000 bytes of other lines in a row (is it a trace in this format?)");
}

// ---- empty inputs
// --------------------------------------------------------------------------------

TEST(AccelsimReader, RefusesEmptyTracesAsTheNvbitReaderDoes) {
  TempDir dir;
  const auto error = [&](const std::string& name, const std::string& text) {
    const auto file = dir.write(name, text);
    return error_of([&] { read(file, TraceFormat::accelsim); }).substr(file.string().size());
  };
  const std::string expected =
      ": expected an Accel-Sim trace (a kernel-N.traceg, starting with '-kernel name = ...') or a "
      "kernels list (kernelslist.g)";
  EXPECT_EQ(error("k.traceg", ""), ": the file is empty" + expected);
  EXPECT_EQ(error("kernelslist.g", ""), ": the file is empty" + expected);
  EXPECT_EQ(error("blank.traceg", "\n"), ": the file is empty (blank lines only)" + expected);
  EXPECT_EQ(error("copies.g", "MemcpyHtoD,0x00007f0000000000,256\n"),
            ": the kernels list names no kernel (no kernel-N.traceg line)");
  EXPECT_EQ(error("comments.traceg", "#traces format = [line_num] PC mask ...\n"),
            ":1: the file ends without the header of an Accel-Sim trace ('-kernel name = ...', "
            "'-grid dim = ...', ...): an empty trace?");
  // A header without a thread block: its 13 lines, then the end.
  EXPECT_EQ(error("header.traceg", traceg("-accelsim tracer version = 4\n", "")),
            ":13: kernel 1 (_Z1kPf): the file ends without a thread block (#BEGIN_TB ... #END_TB): "
            "an empty trace?");
  std::string grid = traceg("-accelsim tracer version = 4\n",
                            "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 0\n#END_TB\n");
  grid.replace(grid.find("(2,1,1)"), 7, "(0,0,0)");
  EXPECT_EQ(error("grid.traceg", grid),
            ":3: '-grid dim = (0,0,0)': a grid has at least one thread block in each dimension");
  std::string block = grid;
  block.replace(block.find("(0,0,0)"), 7, "(2,1,1)");
  block.replace(block.find("(64,1,1)"), 8, "(64,0,1)");
  EXPECT_EQ(error("block.traceg", block),
            ":4: '-block dim = (64,0,1)': a thread block has at least one thread in each "
            "dimension");
}

TEST(NvbitReader, RefusesALaunchOfNoThreadAtItsSize) {
  TempDir dir;
  for (const auto& [grid, block, field] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"1,1,1", "0,1,1", "block size 0,1,1"}, {"1,0,1", "32,1,1", "grid size 1,0,1"}}) {
    const std::string launch = nvbit_launch(0, "k", grid, block);
    const auto file = dir.write("t.txt", launch + nvbit_line("0,0,0", 0, "LDG.E", 0x1000, 4));
    EXPECT_EQ(
        error_of([&] { read(file, TraceFormat::nvbit); }),
        file.string() + ":1:" + std::to_string(launch.find(field) + 1) + ": '" + field + "': a " +
            (field[0] == 'b' ? "block has at least one thread" : "grid has at least one CTA") +
            " in each dimension");
  }
  // As an empty file is.
  const auto empty = dir.write("empty.txt", "");
  EXPECT_EQ(
      error_of([&] { read(empty, TraceFormat::nvbit); }).substr(0, empty.string().size() + 21),
      empty.string() + ": no mem_trace line (");
}

// ---- zstd's skippable frames --------------------------------------------------------------------

// A zstd skippable frame (magic 0x184D2A5n, little-endian) holding `content`.
std::string skippable_frame(unsigned n, const std::string& content) {
  std::string frame = {static_cast<char>(0x50 | n), 0x2a, 0x4d, 0x18};
  for (unsigned i = 0; i < 4; ++i) frame += static_cast<char>(content.size() >> (8 * i) & 0xff);
  return frame + content;
}

TEST(CompressedInput, SkipsZstdsSkippableFrames) {
  TempDir dir;
  const auto file =
      dir.write("t.zst", skippable_frame(0, std::string("\x04\0\0\0\x13\0\0\0", 8)) +
                             zstd("one\ntwo\n") + skippable_frame(15, "") + zstd("three\n"));
  EXPECT_EQ(lines_of(file), (std::vector<std::string>{"one", "two", "three"}));
  EXPECT_EQ(TraceLines(file, "trace file").compression(), Compression::zstd);
}

TEST(CompressedInput, ReadsWhatPzstdWrites) {
  TempDir dir;
  std::string text = nvbit_launch(0, "k", "4,1,1", "64,1,1");
  for (unsigned i = 0; i < 2000; ++i)
    text += nvbit_line(std::to_string(i % 4) + ",0,0", i / 4 % 2, "LDG.E", 0x10000 + 128 * i, 4);
  const auto plain = dir.write("t.txt", text);
  const auto packed = dir / "t.txt.zst";
  if (run_command("pzstd -q -p 2 " + shell_word(plain) + " -o " + shell_word(packed)).status != 0)
    GTEST_SKIP() << "no pzstd (Debian's package zstd)";
  const std::string bytes = read_file(packed);
  ASSERT_GE(bytes.size(), 4u);
  EXPECT_EQ(bytes.substr(0, 4), std::string("\x50\x2a\x4d\x18", 4));  // a skippable frame first
  const RecordedTrace t = read(packed, TraceFormat::nvbit);
  EXPECT_EQ(t.compression, Compression::zstd);
  EXPECT_EQ(t.kernels.at(0).instructions, 2000u);
  const RecordedTrace p = read(plain, TraceFormat::nvbit);
  for (std::uint64_t c = 0; c < 4; ++c)
    for (unsigned q = 0; q < 2; ++q) {
      const auto a = records(t, c, q), b = records(p, c, q);
      ASSERT_EQ(a.size(), 250u);
      for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].address, b[i].address);
    }
}

}  // namespace
}  // namespace mmsim::test
