# Sub-core warp issue and hw classification (model.md 4.2, 5.3, 6.2): tests.
check_PROGRAMS += tests/test-interleave
tests_test_interleave_CPPFLAGS = $(COMPONENT_CPPFLAGS)
tests_test_interleave_LDADD = $(COMPONENT_LDADD)
