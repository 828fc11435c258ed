# One commit, the same bytes (issue 30, item 6): every archive a build writes (the core's wheel,
# the application wheel, the page's zips, the Foundry module's zip) is stamped with the commit's
# time, not the clock's. setuptools reads SOURCE_DATE_EPOCH for its wheels; the project's own
# scripts read it through tools/source_date.py (which asks git itself when it is not set).
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 315532800)
export SOURCE_DATE_EPOCH
