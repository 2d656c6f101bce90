/* cg-fd.h: writing to file descriptors.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Writes all @length bytes of @data to @fd, going on after a short write
 * or an interrupted one. The WARC writer and the crawl log append whole
 * records and lines this way, with write(2) rather than a GOutputStream:
 * they cut the file back with ftruncate() when a write fails. On error,
 * returns FALSE with @out_errno set; part of @data may have been
 * written. */
gboolean cg_fd_write_all (int           fd,
                          const void   *data,
                          gsize         length,
                          int          *out_errno);

G_END_DECLS
