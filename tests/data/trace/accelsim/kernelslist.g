MemcpyHtoD,0x00007fb0fc400000,200000
kernel-1.traceg
cudaMalloc,0x1000
  kernel-2.traceg
kernel-3.traceg
kernel-4.traceg
