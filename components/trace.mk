# Trace readers (components/trace.h): sources and tests.
components_libcomponents_la_SOURCES += components/trace.c components/trace.h \
	components/trace_internal.h components/trace_ppt.c \
	components/trace_accelsim.c
check_PROGRAMS += tests/test-trace
tests_test_trace_CPPFLAGS = $(COMPONENT_CPPFLAGS)
tests_test_trace_LDADD = $(COMPONENT_LDADD)
