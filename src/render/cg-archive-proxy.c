/* cg-archive-proxy.c: an HTTP proxy on 127.0.0.1 that answers from an
 * archive and never from the network.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <time.h>
#include <glib/gi18n-lib.h>
#include <gnutls/gnutls.h>
#include <gnutls/crypto.h>
#include <gnutls/x509.h>
#include <libsoup/soup.h>

#include "cg-archive-proxy.h"

struct _CgArchiveProxy
{
  GObject     parent_instance;
  CgArchive  *archive;
  SoupServer *server;
  char       *uri;
  guint       n_served;
  guint       n_missed;
};

G_DEFINE_TYPE (CgArchiveProxy, cg_archive_proxy, G_TYPE_OBJECT)

/* Headers that belong to one connection, or that would make the session
 * ask for other URLs than the page did. */
static const char * const dropped_headers[] = {
  "Connection", "Keep-Alive", "Proxy-Connection", "Proxy-Authenticate",
  "Transfer-Encoding", "TE", "Trailer", "Upgrade", "Content-Length",
  "Strict-Transport-Security", "Alt-Svc",
  /* The proxy's own; an archived one would make a hit look like a miss. */
  CG_ARCHIVE_PROXY_HEADER, CG_ARCHIVE_PROXY_ERROR_HEADER,
};

/* Reasons are cut to this many bytes in their header: enough for any
 * message of the archive, and far below the header limits of libsoup. */
#define MAX_REASON_SIZE 1024

static void
cg_archive_proxy_dispose (GObject *object)
{
  CgArchiveProxy *self = CG_ARCHIVE_PROXY (object);

  if (self->server != NULL)
    soup_server_disconnect (self->server);
  g_clear_object (&self->server);

  G_OBJECT_CLASS (cg_archive_proxy_parent_class)->dispose (object);
}

static void
cg_archive_proxy_finalize (GObject *object)
{
  CgArchiveProxy *self = CG_ARCHIVE_PROXY (object);

  g_clear_object (&self->archive);
  g_free (self->uri);

  G_OBJECT_CLASS (cg_archive_proxy_parent_class)->finalize (object);
}

static void
cg_archive_proxy_class_init (CgArchiveProxyClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = cg_archive_proxy_dispose;
  object_class->finalize = cg_archive_proxy_finalize;
}

static void
cg_archive_proxy_init (CgArchiveProxy *self)
{
}

/* --- The certificate of the tunnels -------------------------------------- */

static gboolean
gnutls_failed (int          rc,
               const char  *what,
               GError     **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
               _("Cannot make the certificate of the archive proxy (%s): %s"),
               what, gnutls_strerror (rc));
  return FALSE;
}

/* GIO can use certificates but not make them, so GnuTLS (which GIO's TLS
 * backend already loads) makes one per process: a fresh key, never
 * written anywhere, valid for a week. */
static char *
make_certificate_pem (GError **error)
{
  gnutls_x509_privkey_t key = NULL;
  gnutls_x509_crt_t crt = NULL;
  gnutls_datum_t crt_pem = { NULL, 0 };
  gnutls_datum_t key_pem = { NULL, 0 };
  const char *name = "Cartograph archive replay";
  guchar serial[16];
  time_t now = time (NULL);
  char *pem = NULL;
  int rc;

  if ((rc = gnutls_x509_privkey_init (&key)) < 0)
    { gnutls_failed (rc, "key", error); goto out; }
  rc = gnutls_x509_privkey_generate (key, GNUTLS_PK_ECDSA,
                                     GNUTLS_CURVE_TO_BITS (GNUTLS_ECC_CURVE_SECP256R1), 0);
  if (rc < 0)
    { gnutls_failed (rc, "key", error); goto out; }
  if ((rc = gnutls_x509_crt_init (&crt)) < 0)
    { gnutls_failed (rc, "certificate", error); goto out; }
  if ((rc = gnutls_rnd (GNUTLS_RND_NONCE, serial, sizeof serial)) < 0)
    { gnutls_failed (rc, "serial", error); goto out; }
  serial[0] &= 0x7f;
  if ((rc = gnutls_x509_crt_set_version (crt, 3)) < 0 ||
      (rc = gnutls_x509_crt_set_serial (crt, serial, sizeof serial)) < 0 ||
      (rc = gnutls_x509_crt_set_activation_time (crt, now - 24 * 3600)) < 0 ||
      (rc = gnutls_x509_crt_set_expiration_time (crt, now + 7 * 24 * 3600)) < 0 ||
      (rc = gnutls_x509_crt_set_dn_by_oid (crt, GNUTLS_OID_X520_COMMON_NAME, 0,
                                           name, strlen (name))) < 0 ||
      (rc = gnutls_x509_crt_set_key (crt, key)) < 0 ||
      (rc = gnutls_x509_crt_sign2 (crt, crt, key, GNUTLS_DIG_SHA256, 0)) < 0)
    { gnutls_failed (rc, "certificate", error); goto out; }
  if ((rc = gnutls_x509_crt_export2 (crt, GNUTLS_X509_FMT_PEM, &crt_pem)) < 0 ||
      (rc = gnutls_x509_privkey_export2_pkcs8 (key, GNUTLS_X509_FMT_PEM, NULL,
                                               GNUTLS_PKCS_PLAIN, &key_pem)) < 0)
    { gnutls_failed (rc, "export", error); goto out; }

  pem = g_strdup_printf ("%.*s%.*s", (int) crt_pem.size, (const char *) crt_pem.data,
                         (int) key_pem.size, (const char *) key_pem.data);

out:
  if (key_pem.data != NULL)
    {
      memset (key_pem.data, 0, key_pem.size);
      gnutls_free (key_pem.data);
    }
  gnutls_free (crt_pem.data);
  if (crt != NULL)
    gnutls_x509_crt_deinit (crt);
  if (key != NULL)
    gnutls_x509_privkey_deinit (key);
  return pem;
}

static GTlsCertificate *
get_certificate (GError **error)
{
  static GMutex lock;
  static GTlsCertificate *certificate;
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&lock);
  g_autofree char *pem = NULL;

  if (certificate != NULL)
    return g_object_ref (certificate);
  pem = make_certificate_pem (error);
  if (pem == NULL)
    return NULL;
  certificate = g_tls_certificate_new_from_pem (pem, -1, error);
  memset (pem, 0, strlen (pem));
  if (certificate == NULL)
    return NULL;
  return g_object_ref (certificate);
}

/* --- Tunnels -------------------------------------------------------------- */

typedef struct {
  CgArchiveProxy *proxy;
  GSocketAddress *local;
  GSocketAddress *remote;
} Tunnel;

static void
tunnel_free (Tunnel *tunnel)
{
  g_object_unref (tunnel->proxy);
  g_clear_object (&tunnel->local);
  g_clear_object (&tunnel->remote);
  g_free (tunnel);
}

static void
handshake_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  Tunnel *tunnel = user_data;
  CgArchiveProxy *self = tunnel->proxy;
  GTlsConnection *tls = G_TLS_CONNECTION (source);
  g_autoptr(GError) error = NULL;

  if (!g_tls_connection_handshake_finish (tls, result, &error))
    g_debug ("Archive proxy: TLS handshake failed: %s", error->message);
  /* The requests inside the tunnel are served like any other; libsoup
   * sees the TLS connection and gives them https URIs. */
  else if (self->server != NULL &&
           !soup_server_accept_iostream (self->server, G_IO_STREAM (tls),
                                         tunnel->local, tunnel->remote, &error))
    g_debug ("Archive proxy: cannot serve a tunnel: %s", error->message);
  g_object_unref (tls);
  tunnel_free (tunnel);
}

static void
tunnel_cb (SoupServerMessage *msg,
           gpointer           user_data)
{
  CgArchiveProxy *self = user_data;
  g_autoptr(GIOStream) stream = NULL;
  g_autoptr(GTlsCertificate) certificate = NULL;
  g_autoptr(GError) error = NULL;
  GSocketAddress *local = soup_server_message_get_local_address (msg);
  GSocketAddress *remote = soup_server_message_get_remote_address (msg);
  Tunnel *tunnel;
  GIOStream *tls;

  if (local == NULL || remote == NULL)
    return;
  tunnel = g_new0 (Tunnel, 1);
  tunnel->proxy = g_object_ref (self);
  tunnel->local = g_object_ref (local);
  tunnel->remote = g_object_ref (remote);
  stream = soup_server_message_steal_connection (msg);
  certificate = stream != NULL ? get_certificate (&error) : NULL;
  tls = certificate != NULL ? g_tls_server_connection_new (stream, certificate, &error) : NULL;
  if (tls == NULL)
    {
      if (error != NULL)
        g_warning ("Archive proxy: cannot answer a tunnel with TLS: %s", error->message);
      tunnel_free (tunnel);
      return;
    }
  g_tls_connection_handshake_async (G_TLS_CONNECTION (tls), G_PRIORITY_DEFAULT, NULL,
                                    handshake_cb, tunnel);
}

/* --- Requests -------------------------------------------------------------- */

typedef struct {
  SoupServerMessage *msg;
  char              *url;
  gboolean           gone;
  gulong             finished_id;
} Request;

static void
request_free (Request *request)
{
  if (request->finished_id != 0)
    g_signal_handler_disconnect (request->msg, request->finished_id);
  g_object_unref (request->msg);
  g_free (request->url);
  g_free (request);
}

static void
message_finished_cb (SoupServerMessage *msg,
                     Request           *request)
{
  request->gone = TRUE;
}

static void
lookup_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  CgArchiveProxy *self = source_object;
  Request *request = task_data;
  GError *error = NULL;
  CgArchiveResponse *response = cg_archive_lookup (self->archive, request->url, &error);

  if (response == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, response, (GDestroyNotify) cg_archive_response_free);
}

static void
respond_miss (CgArchiveProxy    *self,
              SoupServerMessage *msg,
              guint              status,
              const char        *message)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);
  const char *end = message;
  g_autofree char *reason = NULL;
  g_autofree char *escaped = NULL;

  /* Header values are bytes, not text, and the message is UTF-8 (and
   * translated); percent-encoding carries it through intact. It is cut at
   * a character boundary so that it decodes to valid UTF-8. */
  while (*end != '\0')
    {
      const char *next = g_utf8_next_char (end);

      if ((gsize) (next - message) > MAX_REASON_SIZE)
        break;
      end = next;
    }
  reason = g_strndup (message, (gsize) (end - message));
  escaped = g_uri_escape_string (reason, " ", FALSE);

  self->n_missed++;
  soup_message_headers_replace (headers, CG_ARCHIVE_PROXY_HEADER, "miss");
  soup_message_headers_replace (headers, CG_ARCHIVE_PROXY_ERROR_HEADER, escaped);
  soup_message_headers_replace (headers, "Cache-Control", "no-store");
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "text/plain; charset=utf-8", SOUP_MEMORY_COPY,
                                    message, strlen (message));
}

static void
copy_header_cb (const char *name,
                const char *value,
                gpointer    user_data)
{
  SoupMessageHeaders *out = user_data;

  for (gsize i = 0; i < G_N_ELEMENTS (dropped_headers); i++)
    if (g_ascii_strcasecmp (name, dropped_headers[i]) == 0)
      return;
  soup_message_headers_append (out, name, value);
}

static void
respond_hit (CgArchiveProxy    *self,
             SoupServerMessage *msg,
             CgArchiveResponse *response)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);
  guint status = response->status;
  gboolean no_body = SOUP_STATUS_IS_INFORMATIONAL (status) || status == SOUP_STATUS_NO_CONTENT ||
                     status == SOUP_STATUS_NOT_MODIFIED;

  self->n_served++;
  soup_message_headers_foreach (response->headers, copy_header_cb, headers);
  soup_message_headers_replace (headers, CG_ARCHIVE_PROXY_HEADER, "hit");
  soup_server_message_set_status (msg, status, response->reason);
  if (no_body)
    return;
  soup_message_headers_set_content_length (headers, g_bytes_get_size (response->payload));
  if (soup_server_message_get_method (msg) != SOUP_METHOD_HEAD)
    soup_message_body_append_bytes (soup_server_message_get_response_body (msg), response->payload);
}

static void
lookup_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  CgArchiveProxy *self = CG_ARCHIVE_PROXY (source);
  Request *request = g_task_get_task_data (G_TASK (result));
  g_autoptr(CgArchiveResponse) response = NULL;
  g_autoptr(GError) error = NULL;

  response = g_task_propagate_pointer (G_TASK (result), &error);
  if (request->gone)
    return;
  if (response != NULL)
    respond_hit (self, request->msg, response);
  else if (g_error_matches (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_NOT_FOUND))
    respond_miss (self, request->msg, SOUP_STATUS_NOT_FOUND, error->message);
  else
    respond_miss (self, request->msg, SOUP_STATUS_BAD_GATEWAY, error->message);
  soup_server_message_unpause (request->msg);
}

static void
server_cb (SoupServer        *server,
           SoupServerMessage *msg,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  CgArchiveProxy *self = user_data;
  const char *method = soup_server_message_get_method (msg);
  g_autoptr(GTask) task = NULL;
  Request *request;

  if (method == SOUP_METHOD_CONNECT)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      g_signal_connect_object (msg, "wrote-body", G_CALLBACK (tunnel_cb), self, 0);
      return;
    }
  if (method != SOUP_METHOD_GET && method != SOUP_METHOD_HEAD)
    {
      respond_miss (self, msg, SOUP_STATUS_METHOD_NOT_ALLOWED,
                    "Only GET and HEAD requests are replayed from an archive.");
      return;
    }

  request = g_new0 (Request, 1);
  request->msg = g_object_ref (msg);
  request->url = g_uri_to_string_partial (soup_server_message_get_uri (msg), G_URI_HIDE_FRAGMENT);
  request->finished_id = g_signal_connect (msg, "finished", G_CALLBACK (message_finished_cb), request);
  soup_server_message_pause (msg);

  task = g_task_new (self, NULL, lookup_done_cb, NULL);
  g_task_set_source_tag (task, server_cb);
  g_task_set_task_data (task, request, (GDestroyNotify) request_free);
  g_task_run_in_thread (task, lookup_thread);
}

CgArchiveProxy *
cg_archive_proxy_new (CgArchive  *archive,
                      GError    **error)
{
  g_autoptr(CgArchiveProxy) self = NULL;
  g_autoptr(GTlsCertificate) certificate = NULL;
  GSList *uris;

  g_return_val_if_fail (CG_IS_ARCHIVE (archive), NULL);

  /* Made now so that a failure is reported here, not at the first tunnel. */
  certificate = get_certificate (error);
  if (certificate == NULL)
    return NULL;

  self = g_object_new (CG_TYPE_ARCHIVE_PROXY, NULL);
  self->archive = g_object_ref (archive);
  self->server = soup_server_new ("server-header", "Cartograph-archive-proxy ", NULL);
  soup_server_add_handler (self->server, NULL, server_cb, self, NULL);
  if (!soup_server_listen_local (self->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, error))
    return NULL;
  uris = soup_server_get_uris (self->server);
  self->uri = uris != NULL ? g_uri_to_string (uris->data) : NULL;
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  if (self->uri == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           _("The archive proxy could not listen on 127.0.0.1"));
      return NULL;
    }
  return g_steal_pointer (&self);
}

CgArchive *
cg_archive_proxy_get_archive (CgArchiveProxy *self)
{
  g_return_val_if_fail (CG_IS_ARCHIVE_PROXY (self), NULL);
  return self->archive;
}

const char *
cg_archive_proxy_get_uri (CgArchiveProxy *self)
{
  g_return_val_if_fail (CG_IS_ARCHIVE_PROXY (self), NULL);
  return self->uri;
}

guint
cg_archive_proxy_get_n_served (CgArchiveProxy *self)
{
  g_return_val_if_fail (CG_IS_ARCHIVE_PROXY (self), 0);
  return self->n_served;
}

guint
cg_archive_proxy_get_n_missed (CgArchiveProxy *self)
{
  g_return_val_if_fail (CG_IS_ARCHIVE_PROXY (self), 0);
  return self->n_missed;
}

char *
cg_archive_proxy_describe_miss (SoupMessageHeaders *headers)
{
  const char *escaped;
  g_autofree char *reason = NULL;

  if (headers == NULL || g_strcmp0 (soup_message_headers_get_one (headers, CG_ARCHIVE_PROXY_HEADER), "miss") != 0)
    return NULL;
  escaped = soup_message_headers_get_one (headers, CG_ARCHIVE_PROXY_ERROR_HEADER);
  reason = escaped != NULL ? g_uri_unescape_string (escaped, NULL) : NULL;
  /* The proxy sends valid UTF-8; anything else did not come from it. */
  if (reason == NULL || !g_utf8_validate (reason, -1, NULL))
    return g_strdup (_("the archive has no response for it"));
  return g_steal_pointer (&reason);
}
