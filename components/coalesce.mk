# Coalescer and occupancy (components/coalesce.h, occupancy.h): sources and tests.
