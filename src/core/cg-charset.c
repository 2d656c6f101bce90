/* cg-charset.c: pages' bytes against their character set.
 *
 * GLib's g_convert() gives up at the first byte that does not decode and
 * g_utf8_make_valid() knows UTF-8 only; decoding on past bad bytes, as
 * browsers do, takes the iconv loop below.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>

#include "cg-charset.h"

/* Whether data[0, length) is UTF-8. NUL bytes are valid UTF-8 even
 * though g_utf8_validate_len() stops at them. */
static gboolean
is_utf8 (const char *data,
         gsize       length)
{
  const char *p = data;
  const char *end = data + length;

  while (p < end)
    {
      const char *stop = NULL;

      if (g_utf8_validate_len (p, end - p, &stop))
        return TRUE;
      if (*stop != '\0')
        return FALSE;
      p = stop + 1;
    }
  return TRUE;
}

gboolean
cg_charset_decodes (const char *data,
                    gsize       length,
                    const char *charset)
{
  GIConv cd;
  char *in = (char *) data;
  gsize in_left = length;
  char buffer[16384];
  gboolean decodes = TRUE;

  if (g_ascii_strcasecmp (charset, "utf-8") == 0 || g_ascii_strcasecmp (charset, "utf8") == 0)
    return is_utf8 (data, length);

  cd = g_iconv_open ("UTF-8", charset);
  if (cd == (GIConv) -1)
    return TRUE;
  while (in_left > 0)
    {
      char *out = buffer;
      gsize out_left = sizeof buffer;

      if (g_iconv (cd, &in, &in_left, &out, &out_left) == (gsize) -1 && errno != E2BIG)
        {
          decodes = FALSE;
          break;
        }
    }
  g_iconv_close (cd);
  return decodes;
}

/* As a browser decodes (the Encoding Standard's replacement mode): each
 * byte (or UTF-16 or UTF-32 code unit) that does not decode becomes
 * U+FFFD, and decoding goes on after it. */
GString *
cg_charset_decode_lossy (const char *data,
                         gsize       length,
                         const char *charset)
{
  GIConv cd = g_iconv_open ("UTF-8", charset);
  char *in = (char *) data;
  gsize in_left = length;
  /* What is skipped past a bad byte: a code unit, so that the text after
   * it keeps its alignment. */
  gsize unit = g_ascii_strncasecmp (charset, "utf-16", 6) == 0 ? 2
               : g_ascii_strncasecmp (charset, "utf-32", 6) == 0 ? 4 : 1;
  GString *decoded;

  if (cd == (GIConv) -1)
    return NULL;
  decoded = g_string_sized_new (length + length / 8);
  while (in_left > 0)
    {
      char buffer[16384];
      char *out = buffer;
      gsize out_left = sizeof buffer;
      gsize converted = g_iconv (cd, &in, &in_left, &out, &out_left);

      g_string_append_len (decoded, buffer, out - buffer);
      if (converted == (gsize) -1 && errno != E2BIG)
        {
          gsize skipped = MIN (unit, in_left);

          g_string_append_unichar (decoded, 0xFFFD);
          in += skipped;
          in_left -= skipped;
          /* Back to the initial shift state of stateful encodings. */
          g_iconv (cd, NULL, NULL, NULL, NULL);
        }
    }
  g_iconv_close (cd);
  return decoded;
}

