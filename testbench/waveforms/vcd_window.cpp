#include "testbench/waveforms/vcd_window.hpp"

#include <charconv>

namespace mmsim {
namespace {

// The identifier of a value change line: "b101 id" or "1id".
std::string_view identifier(std::string_view line) {
  if (line.front() == 'b' || line.front() == 'B' || line.front() == 'r' || line.front() == 'R') {
    const std::size_t space = line.find(' ');
    return space == std::string_view::npos ? std::string_view{} : line.substr(space + 1);
  }
  return line.substr(1);
}

std::uint64_t timestamp(std::string_view line) {
  std::uint64_t t = 0;
  std::from_chars(line.data() + 1, line.data() + line.size(), t);
  return t;
}

}  // namespace

void VcdWindow::feed(std::string_view chunk, std::string& out) {
  if (part_ == Part::after) return;
  while (!chunk.empty()) {
    const std::size_t end = chunk.find('\n');
    if (end == std::string_view::npos) {
      partial_.append(chunk);
      return;
    }
    if (partial_.empty()) {
      line(chunk.substr(0, end), out);
    } else {
      partial_.append(chunk.substr(0, end));
      const std::string whole = std::move(partial_);
      partial_.clear();
      line(whole, out);
    }
    chunk.remove_prefix(end + 1);
  }
}

void VcdWindow::finish(std::string& out) {
  if (!partial_.empty()) {
    const std::string rest = std::move(partial_);
    partial_.clear();
    line(rest, out);
  }
  if (part_ == Part::before) open_window(out);  // the run ended at or before `from`
}

void VcdWindow::line(std::string_view text, std::string& out) {
  switch (part_) {
    case Part::header:
      out.append(text).push_back('\n');
      if (text.starts_with("$enddefinitions")) part_ = Part::before;
      return;
    case Part::before: {
      if (text.empty()) return;
      if (in_comment_ || text.starts_with("$comment")) {  // SystemC's note on the dump at 0
        in_comment_ = text.find("$end") == std::string_view::npos;
        return;
      }
      if (text.front() == '#') {
        const std::uint64_t t = timestamp(text);
        if (t <= from_) return;  // the changes at `from` still belong to its dump
        open_window(out);
        if (part_ == Part::after) return;
        break;  // this timestamp lies inside the window
      }
      if (text.front() == '$') return;  // $dumpvars, $end
      const std::string_view id = identifier(text);
      const auto [it, added] = index_.try_emplace(std::string(id), values_.size());
      if (added)
        values_.emplace_back(text);
      else
        values_[it->second].assign(text);
      return;
    }
    case Part::inside:
      break;
    case Part::after:
      return;
  }
  if (!text.empty() && text.front() == '#' && timestamp(text) > to_) {
    out.push_back('#');
    out.append(std::to_string(to_ + 1)).push_back('\n');
    part_ = Part::after;
    return;
  }
  out.append(text).push_back('\n');
}

void VcdWindow::open_window(std::string& out) {
  out.append("$comment\n  mmsim: cycles ").append(std::to_string(from_)).append(" to ");
  out.append(to_ == TimeWindow::kUnbounded ? "the end" : std::to_string(to_));
  out.append(" of the run (outputs.vcd from, to)\n$end\n#").append(std::to_string(from_));
  out.append("\n$dumpvars\n");
  for (const std::string& value : values_) out.append(value).push_back('\n');
  out.append("$end\n");
  index_.clear();
  values_.clear();
  part_ = from_ > to_ ? Part::after : Part::inside;
}

}  // namespace mmsim
