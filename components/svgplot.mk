# SVG charts (components/svgplot.h): sources and tests.
components_libcomponents_la_SOURCES += components/svgplot.c components/svgplot.h
check_PROGRAMS += tests/test-svgplot
tests_test_svgplot_CPPFLAGS = $(COMPONENT_CPPFLAGS)
tests_test_svgplot_LDADD = $(COMPONENT_LDADD)
