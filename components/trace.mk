# Trace readers (components/trace.h): sources and tests.
