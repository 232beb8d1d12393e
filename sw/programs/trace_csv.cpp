#include <algorithm>
#include <charconv>
#include <fstream>

#include "sw/program/input_lines.hpp"
#include "sw/program/trace_listing.hpp"
#include "sw/support/text_input.hpp"

namespace mmsim {
namespace {

template <class T>
bool parse_number(const std::string& text, T& out) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end;
}

}  // namespace

TraceListing read_trace_csv(const std::filesystem::path& file) {
  InputLines lines(file, "trace file");
  TraceListing listing;
  listing.where = {file.string(), 1, 1};
  std::string line;
  while (lines.next(line)) {
    const int number = lines.number();
    const std::string content(trim(line));
    if (content.empty() || content[0] == '#') continue;
    // Split into fields, remembering each field's column.
    std::vector<std::pair<std::string, int>> fields;
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = line.find(',', start);
      const std::string_view raw = std::string_view(line).substr(
          start, comma == std::string::npos ? std::string::npos : comma - start);
      const std::size_t lead = raw.find_first_not_of(" \t");
      fields.emplace_back(std::string(trim(raw)),
                          static_cast<int>(start + (lead == std::string::npos ? 0 : lead)) + 1);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    const auto at = [&](std::size_t f) {
      return SourceLocation{file.string(), number, fields[f].second};
    };
    if (fields.size() < 2)
      throw InputError(at(0), "expected 'warp,op[,lanes...]' (op: read, write or sync)");
    std::uint32_t warp = 0;
    if (!parse_number(fields[0].first, warp))
      throw InputError(at(0), "expected a warp number, got '" + fields[0].first + "'");
    if (warp >= kMaxTraceWarps)
      throw InputError(at(0), "warp " + fields[0].first + " is beyond the " +
                                  std::to_string(kMaxTraceWarps) + " warps a trace may have");
    TraceInstruction instruction;
    instruction.where = at(1);
    const std::string& op = fields[1].first;
    if (op == "read")
      instruction.kind = TraceInstruction::Kind::read;
    else if (op == "write")
      instruction.kind = TraceInstruction::Kind::write;
    else if (op == "sync")
      instruction.kind = TraceInstruction::Kind::sync;
    else if (op == "grid_sync")
      instruction.kind = TraceInstruction::Kind::grid_sync;
    else
      throw InputError(at(1), "expected read, write, sync or grid_sync, got '" + op + "'");
    const bool barrier = instruction.kind == TraceInstruction::Kind::sync ||
                         instruction.kind == TraceInstruction::Kind::grid_sync;
    if (barrier && fields.size() > 2) throw InputError(at(2), op + " takes no lanes");
    std::size_t first_lane = 2;
    if (!barrier && fields.size() > 2) {
      const std::string& space = fields[2].first;
      if (space == "shared" || space == "global") {
        instruction.space = space == "shared" ? Space::shared : Space::global;
        first_lane = 3;
      }
    }
    if (!barrier && fields.size() == first_lane)
      throw InputError(at(first_lane - 1), op + " needs one field per lane");
    bool any_value = false;
    instruction.addresses.reserve(fields.size() - first_lane);
    instruction.values.reserve(fields.size() - first_lane);
    for (std::size_t f = first_lane; f < fields.size(); ++f) {
      const std::string& text = fields[f].first;
      if (text == "-") {
        instruction.addresses.push_back(kInactive);
        instruction.values.push_back(0);
        continue;
      }
      const std::size_t eq = text.find('=');
      Address address = 0;
      if (!parse_number(text.substr(0, eq), address))
        throw InputError(at(f), "expected an address or '-', got '" + text + "'");
      Word value = 0;
      if (eq != std::string::npos) {
        if (instruction.kind != TraceInstruction::Kind::write)
          throw InputError(at(f), "only writes carry values (address=value)");
        if (!parse_number(text.substr(eq + 1), value))
          throw InputError(at(f), "expected an integer value after '=', got '" + text + "'");
        any_value = true;
      }
      instruction.addresses.push_back(address);
      instruction.values.push_back(value);
    }
    if (!any_value) std::vector<Word>().swap(instruction.values);
    if (listing.warps.size() <= warp) listing.warps.resize(warp + 1);
    listing.warps[warp].push_back(std::move(instruction));
  }
  return listing;
}

std::uint64_t trace_csv_bytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return 0;
  std::uint64_t size = 0;
  std::uint64_t lines = 1;
  std::vector<char> chunk(std::size_t{1} << 20);
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    size += got;
    lines += static_cast<std::uint64_t>(std::count(chunk.begin(), chunk.begin() + got, '\n'));
    if (size > TextLimits{}.total_bytes) break;  // read_trace_csv refuses it
  }
  // An instruction, its place (the file's name) and the growth of its warp's list.
  const std::uint64_t per_line = 2 * sizeof(TraceInstruction) + file.string().size() + 1;
  return 8 * size + lines * per_line;
}

std::uint64_t listing_bytes(const TraceListing& listing) {
  std::uint64_t bytes = 0;
  for (const auto& warp : listing.warps) {
    bytes += warp.capacity() * sizeof(TraceInstruction);
    for (const TraceInstruction& in : warp)
      bytes += 8 * (in.addresses.capacity() + in.values.capacity()) + in.where.file.capacity();
  }
  return bytes;
}

}  // namespace mmsim
