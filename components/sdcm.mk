# The SDCM baseline (components/sdcm.h): sources, tests, benchmark.
