// Shortens what SystemC writes for an idle value: a vector all high impedance comes out as one
// character per bit ("bZZZ...Z id"), where VCD lets a single z stand for the whole vector ("bz
// id": a leftmost z extends to the left). Idle values are most of a busy waveform's changes (a
// packing unit's w loads go idle after every dispatch), so this pass over the stream takes a
// third off its size. It works on chunks of any size (a line may span chunks).
#pragma once

#include <string>
#include <string_view>

namespace mmsim {

class VcdCompactor {
 public:
  // Appends `chunk`, compacted, to `out` (up to its last complete line; the rest waits).
  void feed(std::string_view chunk, std::string& out);
  // At the end of the stream: the last, unterminated line.
  void finish(std::string& out);

 private:
  void lines(std::string_view text, std::string& out) const;

  std::string partial_;  // a line not yet ended
};

}  // namespace mmsim
