/* cg-charset.h: pages' bytes against their character set: where they stop
 * being valid in it, and decoding them as a browser does.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether every byte of data[0, length) decodes in @charset (a character
 * cut off by the end does not); TRUE too when iconv does not know
 * @charset, which gives nothing to check the bytes against. */
gboolean cg_charset_decodes      (const char *data,
                                  gsize       length,
                                  const char *charset);

/* @data decoded from @charset into UTF-8 with every byte (or UTF-16 or
 * UTF-32 code unit) that does not decode replaced by U+FFFD; NULL if
 * iconv does not know @charset. */
GString *cg_charset_decode_lossy (const char *data,
                                  gsize       length,
                                  const char *charset);

G_END_DECLS
