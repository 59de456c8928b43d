# sectorsim compare (components/compare.h): sources and tests.
