/* cg-text.c: text as a page shows it, white space collapsed.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "cg-text.h"

/* GLib can tell white space but has no test for the characters a browser
 * lays out as nothing; these are the ones found in pages' text. */
static gboolean
is_invisible (gunichar c)
{
  return c == 0x200B     /* zero-width space */
      || c == 0xFEFF     /* byte order mark, zero-width no-break space */
      || c == 0x2060     /* word joiner */
      || c == 0x00AD;    /* soft hyphen */
}

gboolean
cg_text_append_collapsed (GString    *out,
                          const char *text,
                          gboolean   *pending_space,
                          gsize       max_length)
{
  g_autofree char *valid = NULL;
  const char *p;

  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (pending_space != NULL, FALSE);

  if (text == NULL)
    return TRUE;
  p = text;
  if (!g_utf8_validate (text, -1, NULL))
    p = valid = g_utf8_make_valid (text, -1);

  for (; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      gsize needed;

      if (is_invisible (c))
        continue;
      if (g_unichar_isspace (c))
        {
          *pending_space = TRUE;
          continue;
        }
      needed = (gsize) (g_utf8_next_char (p) - p) + (*pending_space && out->len > 0 ? 1 : 0);
      if (out->len + needed > max_length)
        return FALSE;
      if (*pending_space && out->len > 0)
        g_string_append_c (out, ' ');
      *pending_space = FALSE;
      g_string_append_len (out, p, (gssize) (g_utf8_next_char (p) - p));
    }
  return TRUE;
}

char *
cg_text_collapse (const char *text,
                  gsize       max_length)
{
  GString *out = g_string_new (NULL);
  gboolean space = FALSE;

  cg_text_append_collapsed (out, text, &space, max_length);
  return g_string_free (out, FALSE);
}
