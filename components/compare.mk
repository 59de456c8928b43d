# sectorsim compare (components/compare.h): sources and tests.
components_libcomponents_la_SOURCES += components/compare.c components/compare.h \
	components/json.c components/json.h
dist_check_SCRIPTS += tests/test-compare.sh
