// mmsim's programs have their own main(); SystemC's library still refers to sc_main. It is an
// object of its own, linked into every program that uses the hardware (an archive member would
// be left out of programs that use SystemC without a Simulation). C linkage, as SystemC declares
// it.
extern "C" int sc_main(int, char*[]) { return 1; }
