#!/bin/sh
# check-allocator.sh: each executable given allocates with jemalloc, as the
# build configured it (meson.build): a linker that drops the unreferenced
# library, or a libc that comes first, would silently give the crawl back
# glibc's allocator. jemalloc prints its statistics at exit when asked to
# through MALLOC_CONF; glibc knows nothing of MALLOC_CONF.
#
# Copyright 2026 The Cartograph authors
# SPDX-License-Identifier: GPL-3.0-or-later
status=0
for program in "$@"; do
  if MALLOC_CONF=stats_print:true "$program" --help 2>&1 | grep -q "Begin jemalloc statistics"; then
    echo "ok - $(basename "$program") allocates with jemalloc"
  else
    echo "not ok - $(basename "$program") does not allocate with jemalloc"
    status=1
  fi
done
exit $status
