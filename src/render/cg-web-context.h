/* cg-web-context.h: WebKit views that web content cannot escape from.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <webkit/webkit.h>

G_BEGIN_DECLS

#define CG_TYPE_WEB_CONTEXT (cg_web_context_get_type ())
G_DECLARE_FINAL_TYPE (CgWebContext, cg_web_context, CG, WEB_CONTEXT, GObject)

CgWebContext  *cg_web_context_new           (gboolean      javascript);
gboolean       cg_web_context_get_javascript (CgWebContext *self);
WebKitWebView *cg_web_context_create_view   (CgWebContext *self);
gboolean       cg_web_context_uri_is_allowed (const char   *uri);

G_END_DECLS
