/* cg-archive-proxy.h: an HTTP proxy on 127.0.0.1 that answers from an
 * archive and never from the network.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cg-archive.h"

G_BEGIN_DECLS

/* Replaying an archived page means serving its http and https URLs, and
 * those of all its requisites, to an unmodified WebKit. A custom URI scheme
 * cannot stand in for http(s) without rewriting the page, and WebKitGTK 6.0
 * has no hook to answer a request from the UI process, so the replay goes
 * through this proxy, which the archive's network session uses for every
 * request (see cg_web_context_new_for_archive()):
 *
 * - "GET http://…" requests are looked up in the archive;
 * - "CONNECT host:port" requests are accepted and the tunnel is answered
 *   with TLS, with a self-signed certificate made for this process, and the
 *   requests inside are looked up as https URLs. The archive's session
 *   ignores TLS errors, which is safe because every connection it makes
 *   ends here and this proxy never opens one;
 * - anything not in the archive gets "404 Not Found", and a record that
 *   cannot be read (a WARC file gone or damaged) "502 Bad Gateway", with
 *   the header "X-Cartograph-Archive: miss" and the reason, percent-encoded
 *   UTF-8, in "X-Cartograph-Archive-Error" (so that the renderer can tell
 *   these answers from archived ones and say why a page failed); methods
 *   other than GET and HEAD get 405. Nothing is ever fetched live.
 *
 * Archived headers are replayed except the hop-by-hop ones and those that
 * would change later requests of the session (Strict-Transport-Security,
 * Alt-Svc). Records are read in worker threads, so a large record does not
 * stall the main loop. */
#define CG_ARCHIVE_PROXY_HEADER        "X-Cartograph-Archive"
#define CG_ARCHIVE_PROXY_ERROR_HEADER  "X-Cartograph-Archive-Error"

#define CG_TYPE_ARCHIVE_PROXY (cg_archive_proxy_get_type ())
G_DECLARE_FINAL_TYPE (CgArchiveProxy, cg_archive_proxy, CG, ARCHIVE_PROXY, GObject)

/* Listens on 127.0.0.1 at a free port, in the thread-default main
 * context. */
CgArchiveProxy *cg_archive_proxy_new            (CgArchive       *archive,
                                                 GError         **error);
CgArchive      *cg_archive_proxy_get_archive    (CgArchiveProxy  *self);
/* "http://127.0.0.1:PORT/" */
const char     *cg_archive_proxy_get_uri        (CgArchiveProxy  *self);
/* Requests answered from the archive, and requests for URLs it lacks. */
guint           cg_archive_proxy_get_n_served   (CgArchiveProxy  *self);
guint           cg_archive_proxy_get_n_missed   (CgArchiveProxy  *self);

/* Whether @headers are those of the proxy's answer for a URL the archive
 * could not supply (404 or 502 above), and if so, why: the reason the
 * proxy gave, or a general one when it gave none that can be read. NULL
 * for an archived answer. */
char           *cg_archive_proxy_describe_miss  (SoupMessageHeaders *headers);

G_END_DECLS
