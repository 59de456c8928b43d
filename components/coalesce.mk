# Coalescer and occupancy (components/coalesce.h, occupancy.h): sources and tests.
components_libcomponents_la_SOURCES += \
	components/coalesce.c components/coalesce.h \
	components/occupancy.c components/occupancy.h
check_PROGRAMS += tests/test-coalesce tests/test-occupancy
tests_test_coalesce_CPPFLAGS = $(COMPONENT_CPPFLAGS)
tests_test_coalesce_LDADD = $(COMPONENT_LDADD)
tests_test_occupancy_CPPFLAGS = $(COMPONENT_CPPFLAGS)
tests_test_occupancy_LDADD = $(COMPONENT_LDADD)
