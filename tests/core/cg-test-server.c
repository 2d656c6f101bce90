/* cg-test-server.c: a web site served in process on 127.0.0.1 for tests.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "cg-test-server.h"

SoupServer *
cg_test_server_listen (SoupServerCallback   callback,
                       gpointer             user_data,
                       guint               *out_port)
{
  SoupServer *server = soup_server_new (NULL, NULL);
  g_autoptr(GError) error = NULL;
  GSList *uris;

  soup_server_add_handler (server, NULL, callback, user_data, NULL);
  soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);
  uris = soup_server_get_uris (server);
  g_assert_nonnull (uris);
  *out_port = (guint) g_uri_get_port (uris->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  return server;
}

SoupServer *
cg_test_server_new (SoupServerCallback   callback,
                    gpointer             user_data,
                    char               **out_base)
{
  guint port;
  SoupServer *server = cg_test_server_listen (callback, user_data, &port);

  *out_base = g_strdup_printf ("http://127.0.0.1:%u/", port);
  return server;
}

GSocket *
cg_test_refusing_socket (char **out_url)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new_from_string ("127.0.0.1", 0);
  g_autoptr(GSocketAddress) bound = NULL;
  GSocket *socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);

  g_assert_no_error (error);
  g_assert_true (g_socket_bind (socket, any, FALSE, &error));
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  *out_url = g_strdup_printf ("http://127.0.0.1:%u/", g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  return socket;
}
