#include "sw/gpu_traces/nvbit_reader.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <map>
#include <memory>
#include <queue>
#include <vector>

#include "sw/gpu_traces/flat_index.hpp"
#include "sw/gpu_traces/line_fields.hpp"
#include "sw/gpu_traces/nvbit_lines.hpp"
#include "sw/gpu_traces/read_ahead.hpp"

namespace mmsim {
namespace {

// One group of a run: the records of one warp, in recorded order.
struct GroupHeader {
  std::uint32_t kernel = 0;
  std::uint32_t cta = 0;   // in the order CTAs first appear in the kernel
  std::uint32_t warp = 0;  // mem_trace's warp field
  std::uint32_t records = 0;
  std::uint64_t bytes = 0;
  auto key() const { return std::tuple(kernel, cta, warp); }
};

// Bytes that are written before they are read: grown without zeroing what is added.
class ByteBuffer {
 public:
  unsigned char* data() const { return data_.get(); }
  std::size_t size() const { return size_; }
  // Room for `more` bytes after the first size(), which are kept; returns where it starts.
  unsigned char* room(std::size_t more) {
    if (size_ + more > capacity_) {
      capacity_ = std::max(size_ + more, 2 * capacity_);
      auto grown = std::make_unique_for_overwrite<unsigned char[]>(capacity_);
      if (size_ > 0) std::memcpy(grown.get(), data_.get(), size_);
      data_ = std::move(grown);
    }
    return data_.get() + size_;
  }
  // The bytes up to `end` (in the room given last) are written.
  void grow_to(const unsigned char* end) { size_ = static_cast<std::size_t>(end - data_.get()); }
  void clear() { size_ = 0; }
  // Room for `bytes` in all, kept: a buffer grown by doubling as it fills would hold its old
  // and new arrays at once, and leave the old ones in the heap.
  void reserve(std::size_t bytes) {
    if (bytes > capacity_) room(bytes - size_);
  }
  // Empties it and gives its memory back.
  void release() {
    data_.reset();
    size_ = capacity_ = 0;
  }

 private:
  std::unique_ptr<unsigned char[]> data_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

// Records of the selected kernels gathered in memory in the order they were read, each behind
// its group's number in the run and its length (varints; the length stays with the record, so
// that the merge finds where each ends), then regrouped per warp by a counting sort into a
// second buffer of the same size: no comparison sort of the records.
class RunBuffer {
 public:
  // Written out as a run once bytes() reaches `run_bytes`.
  explicit RunBuffer(std::size_t run_bytes) : run_bytes_(run_bytes) {}
  // The record that encode(out) writes at `out` (at most kMaxRecordBytes), returning its end.
  // `global_cta`: the CTA's number among those of every kernel (one per (kernel, cta)).
  template <class Encode>
  void add(std::uint32_t kernel, std::uint32_t cta, std::uint32_t global_cta, std::uint32_t warp,
           Encode&& encode) {
    const std::uint64_t key = std::uint64_t{global_cta} << 32 | warp;
    RecentGroup& recent = recent_[(key * 0x9e3779b97f4a7c15ull) >> kRecentShift];
    if (recent.key != key) {
      const auto [number, added] =
          numbers_.try_emplace(key, static_cast<std::uint32_t>(groups_.size()));
      if (added) groups_.push_back({kernel, cta, warp, 0, 0});
      recent = {key, number};
    }
    const std::uint32_t number = recent.group;
    GroupHeader& group = groups_[number];
    bytes_.reserve(kRecordRoom + run_bytes_ / 2);  // a run's records and their heads
    // Written in place: the record behind a length of one byte, moved on where it needs two.
    unsigned char* length = put_varint(number, bytes_.room(kRecordRoom));
    unsigned char* record = length + 1;
    auto size = static_cast<std::size_t>(encode(record) - record);
    if (size >= 0x80) {
      std::memmove(record + 1, record, size);
      ++record;
    }
    put_varint(size, length);
    bytes_.grow_to(record + size);
    ++group.records;
    group.bytes += static_cast<std::uint64_t>(record - length) + size;
  }
  // Memory held: both buffers, and about 64 bytes per group (its header, its place in the
  // index, the regrouping's arrays).
  std::size_t bytes() const { return 2 * bytes_.size() + groups_.size() * 64; }
  bool full() const { return bytes() >= run_bytes_; }
  bool empty() const { return groups_.empty(); }
  // Gives the memory of the buffers back (once it is empty).
  void release() {
    bytes_.release();
    sorted_.release();
  }
  // Calls group(header, records) per warp in (kernel, CTA, warp) order, each warp's records in
  // the order they were added; then empties the buffer.
  template <class Group>
  void regroup(Group&& group) {
    std::vector<std::uint32_t> order(groups_.size());
    for (std::uint32_t g = 0; g < order.size(); ++g) order[g] = g;
    // Often in order already: groups are numbered as their warps first appear, and so are CTAs.
    const auto by_key = [this](std::uint32_t a, std::uint32_t b) {
      return groups_[a].key() < groups_[b].key();
    };
    if (!std::is_sorted(order.begin(), order.end(), by_key))
      std::sort(order.begin(), order.end(), by_key);
    std::vector<std::uint64_t> start(groups_.size());
    std::uint64_t total = 0;
    for (const std::uint32_t g : order) {
      start[g] = total;
      total += groups_[g].bytes;
    }
    sorted_.reserve(kRecordRoom + run_bytes_ / 2);
    sorted_.clear();
    unsigned char* sorted = sorted_.room(total);
    std::vector<std::uint64_t> at = start;
    const unsigned char* p = bytes_.data();
    const auto* end = p + bytes_.size();
    while (p != end) {
      const auto g = static_cast<std::uint32_t>(get_varint(p));
      const unsigned char* length = p;
      const std::uint64_t size = get_varint(p) + static_cast<std::uint64_t>(p - length);
      std::memcpy(sorted + at[g], length, size);
      at[g] += size;
      p = length + size;
    }
    for (const std::uint32_t g : order)
      group(groups_[g],
            std::string_view(reinterpret_cast<const char*>(sorted) + start[g], groups_[g].bytes));
    numbers_.clear();
    recent_.fill(RecentGroup{});
    groups_.clear();
    bytes_.clear();
  }

 private:
  // Room for the record add() writes, its group's number and its length.
  static constexpr std::size_t kRecordRoom = 5 + 2 + kMaxRecordBytes;
  std::size_t run_bytes_;
  FlatIndex numbers_;  // (global CTA, warp) -> its group's number
  // The groups added to last, found without the map: most lines go to a warp that had a line
  // a little before (a GPU's resident warps take turns). Direct-mapped by (global CTA, warp).
  struct RecentGroup {
    std::uint64_t key = ~std::uint64_t{0};  // none has all bits set (global CTAs < 2^32 - 1)
    std::uint32_t group = 0;
  };
  static constexpr unsigned kRecentShift = 64 - 10;  // 1024 of them
  std::array<RecentGroup, std::size_t{1} << (64 - kRecentShift)> recent_{};
  std::vector<GroupHeader> groups_;  // by number in the run
  ByteBuffer bytes_;
  ByteBuffer sorted_;
};

// A run written out, one after the other in one file (one file descriptor however many runs):
// its groups, read back in order through a buffer of its own (a group is often a few dozen
// bytes: a system call each would cost more than the merge).
class Run {
 public:
  Run(const ScratchFile& file, std::uint64_t begin, std::uint64_t end)
      : file_(&file), offset_(begin), end_(end) {}
  // Before the first group: the buffer's size.
  void buffer(std::size_t bytes) { buffer_.resize(bytes); }
  // The next group's header (false at the end of the run), then its records.
  bool next_group() {
    if (offset_ == end_ && begin_ == filled_) return false;
    take(&header_, sizeof header_);
    return true;
  }
  const GroupHeader& header() const { return header_; }
  // The group's records: in the buffer, or copied into `out` where they do not fit in it; valid
  // until the next call.
  std::string_view records(ByteBuffer& out) {
    const std::size_t size = header_.bytes;
    if (filled_ - begin_ >= size) {
      const auto* at = reinterpret_cast<const char*>(buffer_.data() + begin_);
      begin_ += size;
      return {at, size};
    }
    out.clear();
    unsigned char* at = out.room(size);
    take(at, size);
    return {reinterpret_cast<const char*>(at), size};
  }

 private:
  // The next `size` bytes of the run.
  void take(void* out, std::size_t size) {
    auto* to = static_cast<unsigned char*>(out);
    const std::size_t buffered = std::min(size, filled_ - begin_);
    std::memcpy(to, buffer_.data() + begin_, buffered);
    begin_ += buffered;
    to += buffered;
    size -= buffered;
    if (size == 0) return;
    if (size >= buffer_.size()) {  // longer than the buffer: straight from the file
      file_->read_at(offset_, to, size);
      offset_ += size;
      return;
    }
    filled_ = static_cast<std::size_t>(std::min<std::uint64_t>(buffer_.size(), end_ - offset_));
    file_->read_at(offset_, buffer_.data(), filled_);
    offset_ += filled_;
    std::memcpy(to, buffer_.data(), size);
    begin_ = size;
  }

  const ScratchFile* file_;
  std::uint64_t offset_;  // of the bytes after the buffered ones
  std::uint64_t end_;
  std::vector<unsigned char> buffer_;
  std::size_t begin_ = 0;  // the buffered bytes not yet taken: buffer_[begin_, filled_)
  std::size_t filled_ = 0;
  GroupHeader header_;
};

struct KernelState {
  std::uint32_t kernel = 0;
  FlatIndex ctas;                                 // (x, y, z) -> first-appearance order
  std::vector<std::array<std::uint32_t, 3>> ids;  // by order
  std::vector<std::uint32_t> global;              // by order: its number among every kernel's
  // The CTAs of the lines read last, found without the map (a GPU's resident CTAs take turns):
  // (x, y, z), its order and global number, direct-mapped (no (x, y, z) has all bits set).
  struct Recent {
    std::uint64_t key = ~std::uint64_t{0};
    std::uint32_t cta = 0;
    std::uint32_t global = 0;
  };
  static constexpr unsigned kRecentShift = 64 - 8;  // 256 of them
  std::vector<Recent> recent = std::vector<Recent>(std::size_t{1} << (64 - kRecentShift));
};

class NvbitReader {
 public:
  NvbitReader(const std::filesystem::path& file, const KernelSelection& selection,
              RecordedTrace& trace, NvbitRegrouping regrouping)
      : file_(file),
        file_name_(file.string()),
        selection_(selection),
        trace_(trace),
        recorder_(trace),
        regrouping_(regrouping),
        buffer_(regrouping.run_bytes) {}

  void read();

 private:
  std::uint32_t kernel_of(std::uint64_t ctx, std::uint64_t launch, std::uint64_t number);
  // The site of `opcode` in `kernel`.
  std::uint32_t site_of(std::uint32_t kernel, std::string_view opcode);
  void launch_line(std::string_view line, std::uint64_t number);
  void access_line(NvbitLine& line, std::string_view opcode);
  void spill();
  void merge();
  // The merge's output, group after group.
  void emit(const GroupHeader& h, std::string_view records);
  void close_warp();
  void close_cta();

  std::filesystem::path file_;
  std::string file_name_;
  const KernelSelection& selection_;
  RecordedTrace& trace_;
  TraceRecorder recorder_;
  NvbitRegrouping regrouping_;
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint32_t> kernels_;  // (ctx, launch)
  const std::pair<const std::pair<std::uint64_t, std::uint64_t>, std::uint32_t>* last_kernel_ =
      nullptr;  // the kernel of the line before, in kernels_
  // The sites of the last opcodes seen (a kernel has a few), found without working out each
  // opcode's access width again as the recorder's look-up would.
  struct OpcodeSite {
    std::uint32_t kernel = 0;
    std::string opcode;
    std::uint32_t site = 0;
  };
  static constexpr std::size_t kOpcodeSites = 16;
  std::vector<OpcodeSite> opcode_sites_;
  std::size_t replaced_ = 0;
  std::vector<KernelState> states_;  // per kernel
  std::uint64_t ctas_seen_ = 0;      // of the selected kernels
  std::vector<bool> launched_;       // per kernel: its LAUNCH line was read
  std::uint64_t access_lines_ = 0;
  RunBuffer buffer_;
  std::unique_ptr<ScratchFile> runs_file_;  // made at the first run
  std::vector<Run> runs_;
  RecordedInstruction in_;
  ByteBuffer merged_;  // a warp's records as emit rewrites them
  // The merge's position.
  bool open_cta_ = false, open_warp_ = false;
  std::uint32_t kernel_ = 0, cta_index_ = 0, warp_field_ = 0;
  CtaEntry cta_;
  WarpEntry warp_;
  RecordPosition position_;
};

std::uint32_t NvbitReader::site_of(std::uint32_t kernel, std::string_view opcode) {
  for (const OpcodeSite& s : opcode_sites_)  // opcodes differ mostly in their first or last letter
    if (s.kernel == kernel && s.opcode.size() == opcode.size() &&
        s.opcode.front() == opcode.front() && s.opcode.back() == opcode.back() &&
        s.opcode == opcode)
      return s.site;
  const std::uint32_t site =
      recorder_.site(kernel, std::nullopt, std::nullopt, opcode, access_bytes(opcode), true);
  OpcodeSite& slot = opcode_sites_.size() < kOpcodeSites
                         ? opcode_sites_.emplace_back()
                         : opcode_sites_[replaced_++ % kOpcodeSites];
  slot = {kernel, std::string(opcode), site};
  return site;
}

std::uint32_t NvbitReader::kernel_of(std::uint64_t ctx, std::uint64_t launch,
                                     std::uint64_t number) {
  if (last_kernel_ && last_kernel_->first == std::pair(ctx, launch)) return last_kernel_->second;
  const auto [it, added] = kernels_.try_emplace({ctx, launch}, 0);
  last_kernel_ = &*it;
  if (!added) return it->second;
  TraceKernel kernel;
  kernel.number = trace_.kernels.size() + 1;
  kernel.launch = launch;
  kernel.name = "grid launch " + std::to_string(launch);
  kernel.where = TraceLinePlace{&file_name_, number}.where();
  kernel.selected = selection_.matches(kernel.number, kernel.name);
  kernel.read = true;
  it->second = static_cast<std::uint32_t>(trace_.kernels.size());
  trace_.kernels.push_back(std::move(kernel));
  states_.emplace_back().kernel = it->second;
  launched_.push_back(false);
  return it->second;
}

void NvbitReader::launch_line(std::string_view line, std::uint64_t number) {
  const TraceLinePlace place{&file_name_, number};
  LineFields f(line, place);
  f.next();  // MEMTRACE:
  f.next();  // CTX
  const std::uint64_t ctx = f.hex("the context");
  // The name may hold blanks (a demangled signature): it ends at the last " - grid launch id ".
  constexpr std::string_view kName = " - Kernel name ";
  constexpr std::string_view kLaunch = " - grid launch id ";
  const std::size_t name_at = line.find(kName);
  const std::size_t launch_at = line.rfind(kLaunch);
  if (name_at == std::string_view::npos || launch_at == std::string_view::npos ||
      launch_at < name_at)
    throw InputError(place.where(1),
                     "a LAUNCH line without '- Kernel name NAME - grid launch "
                     "id N': expected mem_trace's LAUNCH line");
  const std::string name(line.substr(name_at + kName.size(), launch_at - name_at - kName.size()));
  // " - grid launch id N - grid size x,y,z - block size x,y,z - nregs ... - cuda stream id S":
  // segments of "key value"; the keys mmsim does not need are skipped.
  std::string_view rest = line.substr(launch_at + 3);
  std::optional<std::uint64_t> launch;
  std::array<std::uint32_t, 3> grid{}, block{};
  while (!rest.empty()) {
    const std::size_t end = rest.find(" - ");
    const std::string_view segment = rest.substr(0, end);
    const std::size_t column = static_cast<std::size_t>(segment.data() - line.data()) + 1;
    const std::size_t blank = segment.rfind(' ');
    const std::string_view key = segment.substr(0, blank == std::string_view::npos ? 0 : blank);
    const std::string_view value =
        blank == std::string_view::npos ? segment : segment.substr(blank + 1);
    if (key == "grid launch id") {
      std::uint64_t v = 0;
      const auto [p, error] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (value.empty() || error != std::errc() || p != value.data() + value.size())
        throw InputError(place.where(column),
                         "expected 'grid launch id N', got '" + std::string(segment) + "'");
      launch = v;
    } else if (key == "grid size" || key == "block size") {
      std::array<std::uint32_t, 3>& size = key == "grid size" ? grid : block;
      if (!parse_triple(value, size))
        throw InputError(place.where(column), "expected '" + std::string(key) + " x,y,z', got '" +
                                                  std::string(segment) + "'");
      if (std::find(size.begin(), size.end(), 0u) != size.end())
        throw InputError(place.where(column),
                         "'" + std::string(segment) + "': a " +
                             (key == "grid size" ? "grid has at least one CTA"
                                                 : "block has at least one thread") +
                             " in each dimension");
    }
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 3);
  }
  if (!launch) throw InputError(place.where(launch_at + 4), "expected 'grid launch id N'");
  const std::uint32_t k = kernel_of(ctx, *launch, number);
  if (launched_[k])
    throw InputError(place.where(),
                     "a second LAUNCH line for grid launch id " + std::to_string(*launch));
  launched_[k] = true;
  TraceKernel& kernel = trace_.kernels[k];
  kernel.name = name;
  kernel.where = place.where();
  kernel.grid = grid;
  kernel.block = block;
  const bool selected = selection_.matches(kernel.number, kernel.name);
  if (selected != kernel.selected && kernel.instructions > 0)
    throw InputError(place.where(), "the LAUNCH line of grid launch id " + std::to_string(*launch) +
                                        " comes after its accesses");
  kernel.selected = selected;
  const std::uint64_t threads = std::uint64_t{block[0]} * block[1] * block[2];
  if (threads > 0)
    kernel.warps_per_cta = static_cast<std::uint32_t>(
        std::min<std::uint64_t>((threads + kTraceLanes - 1) / kTraceLanes, 1u << 20));
}

void NvbitReader::access_line(NvbitLine& line, std::string_view opcode) {
  RecordedInstruction& in = line.in;
  const std::uint32_t k = kernel_of(line.ctx, line.grid_launch, line.number);
  ++access_lines_;
  in.site = site_of(k, opcode);
  in.has_addresses = true;
  in.index = 0;
  recorder_.count(in);
  if (!trace_.kernels[k].selected) return;
  KernelState& state = states_[k];
  const std::array<std::uint32_t, 3>& id = line.cta;
  const std::uint64_t key = std::uint64_t{id[0]} << 32 | std::uint64_t{id[1]} << 16 | id[2];
  KernelState::Recent& cta =
      state.recent[(key * 0x9e3779b97f4a7c15ull) >> KernelState::kRecentShift];
  if (cta.key != key) {
    const auto [order, added] =
        state.ctas.try_emplace(key, static_cast<std::uint32_t>(state.ids.size()));
    if (added) {
      state.ids.push_back(id);
      state.global.push_back(static_cast<std::uint32_t>(ctas_seen_++));
    }
    cta = {key, order, state.global[order]};
  }
  buffer_.add(k, cta.cta, cta.global, line.warp, [&in](unsigned char* out) {
    RecordPosition fresh;
    return encode_record(in, fresh, out);
  });
  if (buffer_.full()) spill();
}

void NvbitReader::spill() {
  if (!runs_file_)
    runs_file_ = std::make_unique<ScratchFile>(
        trace_.file.string(), "the sorted runs of the records of " + trace_.file.string());
  ScratchFile& file = *runs_file_;
  const std::uint64_t begin = file.size();
  buffer_.regroup([&file](const GroupHeader& h, std::string_view records) {
    file.append(&h, sizeof h);
    file.append(records.data(), records.size());
  });
  file.flush();
  runs_.emplace_back(file, begin, file.size());
}

void NvbitReader::close_warp() {
  if (!open_warp_) return;
  warp_.bytes = trace_.store->data_bytes() - warp_.offset;
  cta_.max_barriers = std::max(cta_.max_barriers, warp_.barriers);
  trace_.store->add_warp(warp_);
  ++cta_.warps;
  open_warp_ = false;
}

void NvbitReader::close_cta() {
  close_warp();
  if (!open_cta_) return;
  TraceKernel& kernel = trace_.kernels[kernel_];
  kernel.warps_per_cta = std::max(kernel.warps_per_cta, cta_.warps);
  trace_.store->add_cta(cta_);
  ++kernel.ctas;
  open_cta_ = false;
}

void NvbitReader::emit(const GroupHeader& h, std::string_view records) {
  if (!open_cta_ || h.kernel != kernel_ || h.cta != cta_index_) {
    close_cta();
    TraceKernel& kernel = trace_.kernels[h.kernel];
    if (h.kernel != kernel_ || kernel.ctas == 0) kernel.first_cta = trace_.store->ctas();
    kernel_ = h.kernel;
    cta_index_ = h.cta;
    cta_ = CtaEntry{};
    cta_.first_warp = trace_.store->warps();
    const auto& id = states_[h.kernel].ids[h.cta];
    std::copy(id.begin(), id.end(), cta_.id);
    open_cta_ = true;
  }
  const auto* data = reinterpret_cast<const unsigned char*>(records.data());
  if (!open_warp_ || h.warp != warp_field_) {
    close_warp();
    const TraceKernel& kernel = trace_.kernels[h.kernel];
    if (kernel.block[0] != 0 && cta_.warps >= kernel.warps_per_cta) {
      RecordPosition fresh;
      const unsigned char* record = data;
      get_varint(record);  // its length
      decode_record_head(record, records.size() - static_cast<std::size_t>(record - data), fresh,
                         in_);
      throw InputError({trace_.file.string(), static_cast<int>(in_.line), 0},
                       trace_.kernel_label(h.kernel) + ": CTA (" + std::to_string(cta_.id[0]) +
                           "," + std::to_string(cta_.id[1]) + "," + std::to_string(cta_.id[2]) +
                           ") has more warps than the " + std::to_string(kernel.warps_per_cta) +
                           " of its block size (" + std::to_string(kernel.block[0]) + "," +
                           std::to_string(kernel.block[1]) + "," + std::to_string(kernel.block[2]) +
                           ")");
    }
    warp_ = WarpEntry{};
    warp_.warp = h.warp;
    warp_.offset = trace_.store->data_bytes();
    warp_field_ = h.warp;
    position_ = RecordPosition{};
    open_warp_ = true;
  }
  // Each record behind its length, its head relative to nothing: rewritten relative to the
  // warp's previous record, its addresses copied as they are.
  // A head takes at most 30 bytes, the one it replaces at least 3.
  merged_.clear();
  unsigned char* const begin = merged_.room(records.size() + std::size_t{27} * h.records);
  unsigned char* out = begin;
  for (std::uint32_t r = 0; r < h.records; ++r) {
    const std::uint64_t length = get_varint(data);
    const unsigned char* end = data + length;
    RecordPosition fresh;
    data += decode_record_head(data, length, fresh, in_);
    in_.index = warp_.instructions++;
    const TraceOperation op = trace_.sites[in_.site].mapping.operation;
    if (op != TraceOperation::other) {
      if (op == TraceOperation::barrier) ++warp_.barriers;
      out = encode_record_with(in_, position_, data, end, out);
      ++warp_.records;
    }
    data = end;
  }
  trace_.store->append_records(std::string_view(reinterpret_cast<const char*>(begin),
                                                static_cast<std::size_t>(out - begin)));
}

void NvbitReader::merge() {
  if (runs_.empty()) {  // everything fitted in memory
    buffer_.regroup([this](const GroupHeader& h, std::string_view r) { emit(h, r); });
  } else {
    if (!buffer_.empty()) spill();
    buffer_.release();  // the runs' buffers take its place
    // The smallest group first; of equal keys, the earlier run's first (recorded order).
    using Head = std::pair<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::size_t>;
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
    const std::size_t buffer =
        std::clamp(regrouping_.merge_bytes / runs_.size(), std::size_t{256}, std::size_t{1} << 20);
    for (std::size_t i = 0; i < runs_.size(); ++i) {
      runs_[i].buffer(buffer);
      if (runs_[i].next_group()) heads.push({runs_[i].header().key(), i});
    }
    ByteBuffer records;
    while (!heads.empty()) {
      const std::size_t i = heads.top().second;
      heads.pop();
      emit(runs_[i].header(), runs_[i].records(records));
      if (runs_[i].next_group()) heads.push({runs_[i].header().key(), i});
    }
  }
  close_cta();
  runs_.clear();
  runs_file_.reset();
}

void NvbitReader::read() {
  NvbitLines lines(file_, trace_.skipped_limit);
  trace_.compression = lines.compression();
  std::uint64_t lines_read = 0;
  {
    ReadAhead<NvbitBatch> batches([&lines](NvbitBatch& batch) { return lines.fill(batch); },
                                  lines.regular() && read_ahead_allowed());
    while (NvbitBatch* batch = batches.next()) {
      for (std::size_t i = 0; i < batch->size; ++i) {
        NvbitLine& line = batch->lines[i];
        if (line.launch)
          launch_line(batch->text_of(line), line.number);
        else
          access_line(line, batch->text_of(line));
      }
      trace_.skipped_lines += batch->skipped;
      lines_read = batch->lines_read;
      trace_.decompress_seconds = batch->decompress_seconds;
      if (batch->error) std::rethrow_exception(batch->error);
    }
  }
  trace_.lines = lines_read;
  if (access_lines_ == 0)
    throw InputError({file_name_, 0, 0},
                     "no mem_trace line ('MEMTRACE: CTX 0x... - grid_launch_id G - CTA x,y,z - "
                     "warp W - OPCODE - addresses') in " +
                         std::to_string(lines_read) +
                         " lines: is it the output of NVBit's mem_trace tool?");
  merge();
}

}  // namespace

void read_nvbit_trace(const std::filesystem::path& file, const KernelSelection& selection,
                      RecordedTrace& trace, NvbitRegrouping regrouping) {
  NvbitReader(file, selection, trace, regrouping).read();
}

}  // namespace mmsim
