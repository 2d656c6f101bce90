/* cg-demo-server.h: serves the demo bookshop on 127.0.0.1.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cg-demo-site.h"

G_BEGIN_DECLS

#define CG_TYPE_DEMO_SERVER (cg_demo_server_get_type ())
G_DECLARE_FINAL_TYPE (CgDemoServer, cg_demo_server, CG, DEMO_SERVER, GObject)

CgDemoServer *cg_demo_server_new       (void);

gboolean      cg_demo_server_start     (CgDemoServer  *self,
                                        guint          port,
                                        GError       **error);
void          cg_demo_server_stop      (CgDemoServer  *self);
gboolean      cg_demo_server_is_running (CgDemoServer *self);

guint         cg_demo_server_get_port  (CgDemoServer  *self);
char         *cg_demo_server_get_url   (CgDemoServer  *self);
CgDemoSite   *cg_demo_server_get_site  (CgDemoServer  *self);

/* The request log, for tests. */
#define CG_DEMO_SERVER_MAX_LOGGED_REQUESTS 1000000

GPtrArray    *cg_demo_server_get_requests       (CgDemoServer *self);
guint         cg_demo_server_get_n_conditional  (CgDemoServer *self);
guint         cg_demo_server_get_n_not_modified (CgDemoServer *self);
void          cg_demo_server_clear_requests     (CgDemoServer *self);

G_END_DECLS
