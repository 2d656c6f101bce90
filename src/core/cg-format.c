/* cg-format.c: numbers and times in the lines a crawl writes for every URL.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <time.h>

#include "cg-format.h"

void
cg_format_append_decimal (GString *out,
                          gint64   value,
                          guint    width,
                          char     pad)
{
  char digits[24];
  guint start = sizeof digits;
  guint64 rest = value < 0 ? (guint64) 0 - (guint64) value : (guint64) value;
  guint length;

  do
    {
      digits[--start] = (char) ('0' + rest % 10);
      rest /= 10;
    }
  while (rest > 0);
  length = sizeof digits - start + (value < 0 ? 1 : 0);
  /* As printf() does: the sign before zeros, after spaces. */
  if (value < 0 && pad == '0')
    g_string_append_c (out, '-');
  for (; width > length; width--)
    g_string_append_c (out, pad);
  if (value < 0 && pad != '0')
    g_string_append_c (out, '-');
  g_string_append_len (out, digits + start, (gssize) (sizeof digits - start));
}

void
cg_format_append_utc (GString  *out,
                      gint64    time_us,
                      gboolean  compact)
{
  /* What goes before each part but the year, unless @compact. */
  static const char separators[] = "--T::";
  time_t seconds = (time_t) (time_us / G_USEC_PER_SEC);
  struct tm tm;

  if (gmtime_r (&seconds, &tm) == NULL)
    memset (&tm, 0, sizeof tm);

  const int parts[] = { tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec };

  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      if (i > 0 && !compact)
        g_string_append_c (out, separators[i - 1]);
      cg_format_append_decimal (out, parts[i], i == 0 ? 4 : 2, '0');
    }
}
