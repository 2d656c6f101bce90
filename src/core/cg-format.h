/* cg-format.h: numbers and times in the lines a crawl writes for every URL.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A crawl writes a crawl log line and a list of outlinks for every page.
 * printf() parses its format and goes through the locale on every call,
 * and was most of the cost of those lines in the crawl throughput
 * benchmark (tests/bench), so these format by hand. */

/* Appends @value in decimal, padded on the left with @pad (a space or
 * '0') to at least @width characters, as printf()'s "%*d" or "%0*d". */
void  cg_format_append_decimal (GString  *out,
                                gint64    value,
                                guint     width,
                                char      pad);

/* Appends the UTC time @time_us (microseconds since the epoch) as
 * "2026-11-22T12:00:00" or, @compact, as "20261122120000". */
void  cg_format_append_utc     (GString  *out,
                                gint64    time_us,
                                gboolean  compact);

G_END_DECLS
