/* cg-test-server.h: a small web site of a test's own, served in process
 * on 127.0.0.1, for the core tests that crawl one.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

/* A server answering every request with @callback, listening on
 * 127.0.0.1 at a port the system chooses; its URL ("http://127.0.0.1:PORT/")
 * in @out_base. Fails the test when it cannot listen. */
SoupServer *cg_test_server_new    (SoupServerCallback   callback,
                                   gpointer             user_data,
                                   char               **out_base);

/* The same server, for a test that builds its URLs from the port. */
SoupServer *cg_test_server_listen (SoupServerCallback   callback,
                                   gpointer             user_data,
                                   guint               *out_port);

/* A socket bound to a port of 127.0.0.1 that never listens: connections
 * to it are refused, and no other test takes the port while the socket
 * is kept (a server that listened and stopped leaves the port to anyone).
 * Its URL ("http://127.0.0.1:PORT/") in @out_url. */
GSocket    *cg_test_refusing_socket (char                **out_url);

G_END_DECLS
