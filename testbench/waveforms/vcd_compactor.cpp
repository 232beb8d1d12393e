#include "testbench/waveforms/vcd_compactor.hpp"

namespace mmsim {
namespace {

// "bZZ...Z id" -> "bz id"; any other line as it is.
void line(std::string_view text, std::string& out) {
  if (text.size() > 2 && text[0] == 'b' && text[1] == 'Z') {
    const std::size_t space = text.find(' ');
    if (space != std::string_view::npos &&
        text.substr(1, space - 1).find_first_not_of('Z') == std::string_view::npos) {
      out.append("bz").append(text.substr(space));
      return;
    }
  }
  out.append(text);
}

}  // namespace

void VcdCompactor::lines(std::string_view text, std::string& out) const {
  // Only lines beginning "bZ" change: everything between them is copied as one piece.
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t hit = text.substr(start).starts_with("bZ") ? start : text.find("\nbZ", start);
    if (hit == std::string_view::npos) break;
    if (text[hit] == '\n') ++hit;
    out.append(text.substr(start, hit - start));
    const std::size_t end = text.find('\n', hit);
    line(text.substr(hit, end - hit), out);
    start = end;  // the newline is copied with the next piece
  }
  if (start < text.size()) out.append(text.substr(start));
}

void VcdCompactor::feed(std::string_view chunk, std::string& out) {
  const std::size_t last = chunk.rfind('\n');
  if (last == std::string_view::npos) {
    partial_.append(chunk);
    return;
  }
  if (!partial_.empty()) {  // the line the last chunk began
    const std::size_t first = chunk.find('\n');
    partial_.append(chunk.substr(0, first + 1));
    lines(partial_, out);
    partial_.clear();
    chunk.remove_prefix(first + 1);
    lines(chunk.substr(0, last - first), out);
    partial_.assign(chunk.substr(last - first));
    return;
  }
  lines(chunk.substr(0, last + 1), out);
  partial_.assign(chunk.substr(last + 1));
}

void VcdCompactor::finish(std::string& out) {
  lines(partial_, out);
  partial_.clear();
}

}  // namespace mmsim
