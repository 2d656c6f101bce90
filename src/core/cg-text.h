/* cg-text.h: text as a page shows it, white space collapsed.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The records of a page are compared, aligned and stored by their visible
 * text, and the same item must give the same text whether ClustVX read it
 * on the rendered DOM or a wrapper read it on a fetched page. Both go
 * through these functions:
 *
 *  - every run of white space (Unicode's, no-break spaces and the XML
 *    white space included) becomes one space, and none is kept at the
 *    start or the end, as a browser lays out text that is not
 *    preformatted;
 *  - zero-width spaces, byte order marks, word joiners and soft hyphens
 *    are dropped: they show nothing, and a byte order mark left at the
 *    start of a saved page's text would make two equal values differ;
 *  - bytes that are not UTF-8 become U+FFFD, so that the rest of the text
 *    is kept;
 *  - the result is at most @max_length bytes, cut at a character
 *    boundary. */

/* Appends @text to @out, collapsed, without letting @out grow past
 * @max_length bytes. @pending_space carries a white space seen at the end
 * of one call to the next, so that a run spanning several text nodes
 * collapses too; it is set to FALSE before the first call. A space is
 * only written between two visible characters, so @out never starts or
 * ends with one. Returns FALSE when @text did not fit whole. */
gboolean  cg_text_append_collapsed (GString    *out,
                                    const char *text,
                                    gboolean   *pending_space,
                                    gsize       max_length);

/* @text collapsed into a new string of at most @max_length bytes. */
char     *cg_text_collapse         (const char *text,
                                    gsize       max_length);

G_END_DECLS
