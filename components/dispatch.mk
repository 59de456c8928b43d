# Dynamic block dispatch (model.md 3.2).
check_PROGRAMS += tests/test-dispatch
tests_test_dispatch_SOURCES = tests/test-dispatch.c tests/simrun.c tests/simrun.h
tests_test_dispatch_CPPFLAGS = $(COMPONENT_CPPFLAGS)
tests_test_dispatch_LDADD = $(COMPONENT_LDADD)
