# Run by GTKWave (gtkwave -S scripts/gtkwave_view.tcl WAVEFORM SAVEFILE), usually headless under
# xvfb-run: once the save file is loaded, prints the traces it shows (TRACE name) and, at the
# marker MMSIM_MARKER (a cycle, default 0), the value of each one (VALUE name = value), writes
# a picture of the window to MMSIM_PICTURE (PNG) when set, and quits. The test suite checks a
# save file with it; scripts/waveform_picture draws the README's picture.
set marker 0
if {[info exists ::env(MMSIM_MARKER)]} { set marker $::env(MMSIM_MARKER) }
gtkwave::setMarker $marker
set traces [gtkwave::getTotalNumTraces]
puts "TRACES $traces"
for {set i 0} {$i < $traces} {incr i} {
  set name [gtkwave::getTraceNameFromIndex $i]
  puts "TRACE $name"
  puts "VALUE $name = [gtkwave::getTraceValueAtMarkerFromIndex $i]"
}
if {[info exists ::env(MMSIM_PICTURE)]} { gtkwave::/File/Grab_To_File $::env(MMSIM_PICTURE) }
gtkwave::/File/Quit
