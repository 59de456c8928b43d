# The hardware-faithful L2: GPGPU-Sim address decoding, the slice router, DRAM channels.
