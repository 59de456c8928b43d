# The sector cache's hw state machine against a plain model of model.md
# 7.5, on random configurations and streams (components/sector_cache.h).
check_PROGRAMS += tests/test-sector-model
tests_test_sector_model_CPPFLAGS = $(COMPONENT_CPPFLAGS)
tests_test_sector_model_LDADD = $(COMPONENT_LDADD)
