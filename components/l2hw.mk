# The hardware-faithful L2: GPGPU-Sim address decoding, the slice router, DRAM channels.
components_libcomponents_la_SOURCES += \
	components/addrdec.c components/addrdec.h \
	components/slice_router.c
check_PROGRAMS += tests/test-addrdec
tests_test_addrdec_CPPFLAGS = $(COMPONENT_CPPFLAGS)
tests_test_addrdec_LDADD = $(COMPONENT_LDADD)
check_PROGRAMS += tests/test-l2hw
tests_test_l2hw_SOURCES = tests/test-l2hw.c tests/simrun.c tests/simrun.h
tests_test_l2hw_CPPFLAGS = $(COMPONENT_CPPFLAGS)
tests_test_l2hw_LDADD = $(COMPONENT_LDADD)
