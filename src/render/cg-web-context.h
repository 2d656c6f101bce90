/* cg-web-context.h: WebKit views that web content cannot escape from.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <webkit/webkit.h>

#include "cg-archive.h"

G_BEGIN_DECLS

#define CG_TYPE_WEB_CONTEXT (cg_web_context_get_type ())
G_DECLARE_FINAL_TYPE (CgWebContext, cg_web_context, CG, WEB_CONTEXT, GObject)

/* A context for the live web. With @javascript FALSE the pages' own
 * scripts do not run (script elements, event handlers); Cartograph's
 * capture script still does, in an isolated world of its own. */
CgWebContext  *cg_web_context_new           (gboolean      javascript);

/* A context that replays @archive: every request of its views goes to a
 * CgArchiveProxy on 127.0.0.1 that answers from the archive and never
 * from the network, so re-rendering an archived page fetches nothing
 * live. http and https URLs are both replayed (see cg-archive-proxy.h). */
CgWebContext  *cg_web_context_new_for_archive (CgArchive   *archive,
                                               gboolean     javascript,
                                               GError     **error);

gboolean       cg_web_context_get_javascript (CgWebContext *self);
/* The replayed archive, or NULL for the live web. */
CgArchive     *cg_web_context_get_archive   (CgWebContext *self);
WebKitWebView *cg_web_context_create_view   (CgWebContext *self);
gboolean       cg_web_context_uri_is_allowed (const char   *uri);

G_END_DECLS
