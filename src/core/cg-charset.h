/* cg-charset.h: pages' bytes against their character set: where they stop
 * being valid in it, and decoding them as a browser does.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The first offset in data[0, length) that @charset cannot decode, -1 if
 * every byte decodes, or -2 if iconv does not know @charset. A character
 * cut off by the end of the data counts as invalid at its first byte. */
gssize   cg_charset_find_invalid (const char *data,
                                  gsize       length,
                                  const char *charset);

/* @data decoded from @charset into UTF-8 with every byte (or UTF-16 or
 * UTF-32 code unit) that does not decode replaced by U+FFFD; NULL if
 * iconv does not know @charset. */
GString *cg_charset_decode_lossy (const char *data,
                                  gsize       length,
                                  const char *charset);

G_END_DECLS
