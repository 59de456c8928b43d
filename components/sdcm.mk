# The SDCM baseline (components/sdcm.h): sources, tests, benchmark.
components_libcomponents_la_SOURCES += components/sdcm.c components/sdcm.h
check_PROGRAMS += tests/test-sdcm
tests_test_sdcm_CPPFLAGS = $(COMPONENT_CPPFLAGS)
tests_test_sdcm_LDADD = $(COMPONENT_LDADD)
noinst_PROGRAMS += bench/bench-rd
bench_bench_rd_SOURCES = bench/bench-rd.c
bench_bench_rd_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/components
bench_bench_rd_LDADD = components/libcomponents.la kernel/libsectorsim.la $(GLIB_LIBS) -lm
