/* cg-demo-server.c: serves the demo bookshop on 127.0.0.1.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <libsoup/soup.h>

#include "cg-demo-server.h"

struct _CgDemoServer
{
  GObject     parent_instance;
  CgDemoSite *site;
  SoupServer *server;   /* NULL while stopped */
  guint       port;
  char       *base_url; /* "http://127.0.0.1:PORT", no trailing slash */
  GPtrArray  *requests; /* char *: "GET /path?query", in the order received */
  guint       n_conditional;
  guint       n_not_modified;
};

G_DEFINE_FINAL_TYPE (CgDemoServer, cg_demo_server, G_TYPE_OBJECT)

static void
cg_demo_server_dispose (GObject *object)
{
  CgDemoServer *self = CG_DEMO_SERVER (object);

  cg_demo_server_stop (self);
  g_clear_object (&self->site);
  g_clear_pointer (&self->requests, g_ptr_array_unref);

  G_OBJECT_CLASS (cg_demo_server_parent_class)->dispose (object);
}

static void
cg_demo_server_class_init (CgDemoServerClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = cg_demo_server_dispose;
}

static void
cg_demo_server_init (CgDemoServer *self)
{
  self->site = cg_demo_site_new ();
  self->requests = g_ptr_array_new_with_free_func (g_free);
}

CgDemoServer *
cg_demo_server_new (void)
{
  return g_object_new (CG_TYPE_DEMO_SERVER, NULL);
}

static void
handle_request_cb (SoupServer        *server,
                   SoupServerMessage *msg,
                   const char        *path,
                   GHashTable        *query,
                   gpointer           user_data)
{
  CgDemoServer *self = user_data;
  const char *method = soup_server_message_get_method (msg);
  SoupMessageHeaders *request = soup_server_message_get_request_headers (msg);
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);
  GUri *uri = soup_server_message_get_uri (msg);
  g_autoptr(CgDemoResponse) response = NULL;

  if (!g_str_equal (method, SOUP_METHOD_GET) && !g_str_equal (method, SOUP_METHOD_HEAD))
    {
      soup_message_headers_replace (headers, "Allow", "GET, HEAD");
      soup_server_message_set_status (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, NULL);
      return;
    }

  /* The path and query as the client sent them, so that the site sees
   * exactly the links it wrote. */
  response = cg_demo_site_respond (self->site, self->base_url,
                                   g_uri_get_path (uri), g_uri_get_query (uri),
                                   soup_message_headers_get_one (request, "If-None-Match"),
                                   soup_message_headers_get_one (request, "If-Modified-Since"));

  /* What tests count: every request, in order (bounded: a test that
   * makes more is told by the count staying put), the conditional ones
   * and the 304 answers. */
  if (self->requests->len < CG_DEMO_SERVER_MAX_LOGGED_REQUESTS)
    g_ptr_array_add (self->requests, g_strdup_printf ("%s %s%s%s", method, g_uri_get_path (uri),
                                                      g_uri_get_query (uri) != NULL ? "?" : "",
                                                      g_uri_get_query (uri) != NULL ? g_uri_get_query (uri) : ""));
  if (soup_message_headers_get_one (request, "If-None-Match") != NULL ||
      soup_message_headers_get_one (request, "If-Modified-Since") != NULL)
    self->n_conditional++;
  if (response->status == SOUP_STATUS_NOT_MODIFIED)
    self->n_not_modified++;

  soup_server_message_set_status (msg, response->status, NULL);
  if (response->etag != NULL)
    soup_message_headers_replace (headers, "ETag", response->etag);
  if (response->last_modified != NULL)
    soup_message_headers_replace (headers, "Last-Modified", response->last_modified);
  if (response->location != NULL)
    soup_message_headers_replace (headers, "Location", response->location);
  /* Clients may keep a copy but must ask again, which is what a
   * re-harvest with conditional requests expects. */
  soup_message_headers_replace (headers, "Cache-Control", "no-cache");
  if (response->status == SOUP_STATUS_NOT_MODIFIED)
    soup_message_headers_set_encoding (headers, SOUP_ENCODING_NONE);
  else if (response->content_type != NULL)
    {
      soup_message_headers_set_content_type (headers, response->content_type, NULL);
      soup_message_body_append_bytes (soup_server_message_get_response_body (msg), response->body);
    }
}

/**
 * cg_demo_server_start:
 * @self: the server
 * @port: the TCP port, or 0 for any free port
 * @error: return location for a #GError
 *
 * Serves the demo site on 127.0.0.1 (never on another address) from the
 * thread-default main context until cg_demo_server_stop().
 *
 * Returns: %TRUE when the server listens
 */
gboolean
cg_demo_server_start (CgDemoServer  *self,
                      guint          port,
                      GError       **error)
{
  g_autoptr(SoupServer) server = NULL;
  g_autoptr(GError) local_error = NULL;
  GSList *uris;

  g_return_val_if_fail (CG_IS_DEMO_SERVER (self), FALSE);

  if (self->server != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   _("The demo site is already served at %s/"), self->base_url);
      return FALSE;
    }
  if (port > G_MAXUINT16)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Cannot serve the demo site on port %u: ports go from 1 to 65535"), port);
      return FALSE;
    }

  server = soup_server_new ("server-header", "Cartograph-demo/" PACKAGE_VERSION " ", NULL);
  soup_server_add_handler (server, NULL, handle_request_cb, self, NULL);
  if (!soup_server_listen_local (server, port, SOUP_SERVER_LISTEN_IPV4_ONLY, &local_error))
    {
      g_set_error (error, local_error->domain, local_error->code,
                   _("Cannot serve the demo site on 127.0.0.1 port %u: %s"),
                   port, local_error->message);
      return FALSE;
    }

  uris = soup_server_get_uris (server);
  self->port = uris != NULL ? (guint) g_uri_get_port (uris->data) : port;
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  self->base_url = g_strdup_printf ("http://127.0.0.1:%u", self->port);
  self->server = g_steal_pointer (&server);
  return TRUE;
}

void
cg_demo_server_stop (CgDemoServer *self)
{
  g_return_if_fail (CG_IS_DEMO_SERVER (self));

  if (self->server == NULL)
    return;
  soup_server_disconnect (self->server);
  g_clear_object (&self->server);
  g_clear_pointer (&self->base_url, g_free);
  self->port = 0;
}

gboolean
cg_demo_server_is_running (CgDemoServer *self)
{
  g_return_val_if_fail (CG_IS_DEMO_SERVER (self), FALSE);
  return self->server != NULL;
}

/**
 * cg_demo_server_get_port:
 * @self: the server
 *
 * Returns: the port the server listens on, or 0 when it is stopped
 */
guint
cg_demo_server_get_port (CgDemoServer *self)
{
  g_return_val_if_fail (CG_IS_DEMO_SERVER (self), 0);
  return self->port;
}

/**
 * cg_demo_server_get_url:
 * @self: the server
 *
 * Returns: (transfer full) (nullable): the URL of the site's home page,
 *   "http://127.0.0.1:PORT/", or %NULL when the server is stopped
 */
char *
cg_demo_server_get_url (CgDemoServer *self)
{
  g_return_val_if_fail (CG_IS_DEMO_SERVER (self), NULL);
  if (self->base_url == NULL)
    return NULL;
  return g_strconcat (self->base_url, "/", NULL);
}

/**
 * cg_demo_server_get_site:
 * @self: the server
 *
 * Returns: (transfer none): the site the server serves
 */
CgDemoSite *
cg_demo_server_get_site (CgDemoServer *self)
{
  g_return_val_if_fail (CG_IS_DEMO_SERVER (self), NULL);
  return self->site;
}

/**
 * cg_demo_server_get_requests:
 * @self: the server
 *
 * For tests that count what a crawl asked for.
 *
 * Returns: (transfer none) (element-type utf8): the requests received
 *   since the server was made or the log was cleared, in order, each
 *   "METHOD /path?query" (at most CG_DEMO_SERVER_MAX_LOGGED_REQUESTS)
 */
GPtrArray *
cg_demo_server_get_requests (CgDemoServer *self)
{
  g_return_val_if_fail (CG_IS_DEMO_SERVER (self), NULL);
  return self->requests;
}

/* Requests that carried If-None-Match or If-Modified-Since, and 304
 * answers, since the server was made or the log was cleared. */
guint
cg_demo_server_get_n_conditional (CgDemoServer *self)
{
  g_return_val_if_fail (CG_IS_DEMO_SERVER (self), 0);
  return self->n_conditional;
}

guint
cg_demo_server_get_n_not_modified (CgDemoServer *self)
{
  g_return_val_if_fail (CG_IS_DEMO_SERVER (self), 0);
  return self->n_not_modified;
}

void
cg_demo_server_clear_requests (CgDemoServer *self)
{
  g_return_if_fail (CG_IS_DEMO_SERVER (self));
  g_ptr_array_set_size (self->requests, 0);
  self->n_conditional = 0;
  self->n_not_modified = 0;
}
