# Sub-core warp issue and hw classification (model.md 4.2, 5.3, 6.2): the
# opcode table the trace reader shares, and tests.
components_libcomponents_la_SOURCES += components/opcode.c components/opcode.h
check_PROGRAMS += tests/test-interleave
tests_test_interleave_SOURCES = tests/test-interleave.c tests/simrun.c tests/simrun.h
tests_test_interleave_CPPFLAGS = $(COMPONENT_CPPFLAGS)
tests_test_interleave_LDADD = $(COMPONENT_LDADD)
