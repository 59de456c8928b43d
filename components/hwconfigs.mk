# The stock hardware-faithful configurations and their variants: their
# end-to-end test (the files themselves are in EXTRA_DIST).
dist_check_SCRIPTS += tests/test-hw.sh
