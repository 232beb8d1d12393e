MemcpyHtoD,0x00007f8ea2000000,4096
kernel-1.traceg
MemcpyHtoD,0x00007f8ea2000000,16384
kernel-2.traceg.zst
MemcpyHtoD,0x00007f8ea2000000,8192
kernel-3.traceg.xz
