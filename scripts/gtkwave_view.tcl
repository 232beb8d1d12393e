# Run by GTKWave (gtkwave -S scripts/gtkwave_view.tcl WAVEFORM SAVEFILE), usually headless under
# xvfb-run: once the save file is loaded, sets the marker at MMSIM_MARKER (a cycle, default 0),
# writes a picture of the window as the save file shows it to MMSIM_PICTURE (PNG) when set,
# prints the traces (TRACE name) and the value of each one at the marker (VALUE name = value),
# those in closed groups too, and quits. The test suite checks a save file with it;
# scripts/waveform_picture draws pictures with it (docs/waveforms.md).
set marker 0
if {[info exists ::env(MMSIM_MARKER)]} { set marker $::env(MMSIM_MARKER) }
gtkwave::setMarker $marker
if {[info exists ::env(MMSIM_PICTURE)]} { gtkwave::/File/Grab_To_File $::env(MMSIM_PICTURE) }
set traces [gtkwave::getTotalNumTraces]
# GTKWave gives no value for a trace in a closed group: each closed group is opened first, the
# first row of a group having the flag 0x800000 (a group's beginning), 0x400000 when closed.
for {set i 0} {$i < $traces} {incr i} {
  if {([gtkwave::getTraceFlagsFromIndex $i] & 0xC00000) == 0xC00000} {
    gtkwave::/Edit/UnHighlight_All
    gtkwave::setTraceHighlightFromIndex $i on
    gtkwave::/Edit/Toggle_Group_Open|Close
  }
}
gtkwave::/Edit/UnHighlight_All
puts "TRACES $traces"
for {set i 0} {$i < $traces} {incr i} {
  set name [gtkwave::getTraceNameFromIndex $i]
  puts "TRACE $name"
  puts "VALUE $name = [gtkwave::getTraceValueAtMarkerFromIndex $i]"
}
gtkwave::/File/Quit
