/* test-fetcher.c: the HTTP fetcher against an in-process server.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <zlib.h>

#include "cg-content-decoder.h"
#include "cg-test-encode.h"
#include "cg-test-server.h"
#include "cg-fetcher.h"

#define MIB (1024 * 1024)

typedef struct {
  SoupServer *server;
  char       *base;           /* "http://127.0.0.1:PORT" */
  GPtrArray  *sources;        /* timers the handlers started */
  GPtrArray  *held;           /* messages paused by /slow */

  GBytes     *text;           /* the page the encoded endpoints encode */
  GBytes     *gzip;
  GBytes     *deflate_zlib;
  GBytes     *deflate_raw;
  GBytes     *brotli;
  GBytes     *bomb;           /* 10 MiB of zeros, gzipped */
  GBytes     *big;            /* 2 MiB of patterned bytes */

  guint       flaky_hits;
  guint       in_flight;
  guint       max_in_flight;
  guint       slow_done;
  char       *seen_user_agent;
  char       *seen_cookie;
  char       *seen_headers;   /* the request headers as the server parsed them */
} Fixture;

/* ------------------------------------------------------------------ */
/* Test data                                                           */
/* ------------------------------------------------------------------ */

static GBytes *
make_text (void)
{
  GString *text = g_string_new ("<!DOCTYPE html>\n<html><head><title>Books</title></head><body>\n");

  /* Varied enough that compression has real work, long enough to span
   * several read chunks once decoded. */
  for (guint i = 0; i < 4000; i++)
    g_string_append_printf (text, "<p><a href=\"/book/%u\">Book %u</a> by author %u</p>\n",
                            i, i * 7919 % 10007, i % 97);
  g_string_append (text, "</body></html>\n");
  return g_string_free_to_bytes (text);
}

static GBytes *
make_big (gsize size)
{
  guint8 *data = g_malloc (size);

  for (gsize i = 0; i < size; i++)
    data[i] = (guint8) (i * 31 + i / 4096);
  return g_bytes_new_take (data, size);
}

/* ------------------------------------------------------------------ */
/* The server                                                          */
/* ------------------------------------------------------------------ */

static void
respond (SoupServerMessage *msg,
         guint              status,
         const char        *content_type,
         GBytes            *body)
{
  gsize length;
  const char *data = g_bytes_get_data (body, &length);

  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, content_type, SOUP_MEMORY_COPY, data, length);
}

static void
respond_text (SoupServerMessage *msg,
              guint              status,
              const char        *text)
{
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "text/plain", SOUP_MEMORY_COPY, text, strlen (text));
}

static void
respond_encoded (SoupServerMessage *msg,
                 GBytes            *body,
                 const char        *coding)
{
  respond (msg, SOUP_STATUS_OK, "text/html; charset=utf-8", body);
  soup_message_headers_append (soup_server_message_get_response_headers (msg),
                               "Content-Encoding", coding);
}

static void
add_source (Fixture     *f,
            guint        milliseconds,
            GSourceFunc  func,
            gpointer     data)
{
  GSource *source = g_timeout_source_new (milliseconds);

  g_source_set_callback (source, func, data, NULL);
  g_source_attach (source, NULL);
  g_ptr_array_add (f->sources, source);
}

/* /slow: held for a while, so concurrent requests overlap. */
static gboolean
release_slow_cb (gpointer data)
{
  Fixture *f = data;
  SoupServerMessage *msg;

  g_assert_cmpuint (f->held->len, >, 0);
  msg = g_ptr_array_steal_index (f->held, 0);
  respond_text (msg, SOUP_STATUS_OK, "slow");
  soup_server_message_unpause (msg);
  g_object_unref (msg);
  return G_SOURCE_REMOVE;
}

static void
slow_finished_cb (SoupServerMessage *msg,
                  Fixture           *f)
{
  f->in_flight--;
  f->slow_done++;
}

/* /trickle: one small chunk every 100 ms, forever as far as the client
 * is concerned, but bounded to 100 chunks so it stops by itself. */
typedef struct {
  SoupServerMessage *msg;
  guint              sent;
} Trickle;

static gboolean
trickle_cb (gpointer data)
{
  Trickle *trickle = data;
  SoupMessageBody *body = soup_server_message_get_response_body (trickle->msg);

  soup_message_body_append (body, SOUP_MEMORY_STATIC, "tick\n", 5);
  if (++trickle->sent == 100)
    soup_message_body_complete (body);
  soup_server_message_unpause (trickle->msg);
  return trickle->sent < 100 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static void
trickle_free (gpointer data)
{
  Trickle *trickle = data;

  g_object_unref (trickle->msg);
  g_free (trickle);
}

static void
server_cb (SoupServer        *server,
           SoupServerMessage *msg,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  Fixture *f = user_data;
  SoupMessageHeaders *request_headers = soup_server_message_get_request_headers (msg);
  SoupMessageHeaders *response_headers = soup_server_message_get_response_headers (msg);

  if (strcmp (path, "/plain") == 0)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "text/html; charset=utf-8", SOUP_MEMORY_STATIC,
                                        "<html><body>hello</body></html>", 31);
    }
  else if (strcmp (path, "/chunked") == 0)
    {
      SoupMessageBody *body = soup_server_message_get_response_body (msg);

      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_message_headers_set_content_type (response_headers, "text/plain", NULL);
      soup_message_headers_set_encoding (response_headers, SOUP_ENCODING_CHUNKED);
      soup_message_body_append (body, SOUP_MEMORY_STATIC, "first,", 6);
      soup_message_body_append (body, SOUP_MEMORY_STATIC, "second", 6);
      soup_message_body_complete (body);
    }
  else if (strcmp (path, "/gzip") == 0)
    respond_encoded (msg, f->gzip, "gzip");
  else if (strcmp (path, "/deflate-zlib") == 0)
    respond_encoded (msg, f->deflate_zlib, "deflate");
  else if (strcmp (path, "/deflate-raw") == 0)
    respond_encoded (msg, f->deflate_raw, "deflate");
  else if (strcmp (path, "/br") == 0)
    respond_encoded (msg, f->brotli, "br");
  else if (strcmp (path, "/bomb") == 0)
    respond_encoded (msg, f->bomb, "gzip");
  else if (strcmp (path, "/big") == 0)
    respond (msg, SOUP_STATUS_OK, "application/octet-stream", f->big);
  else if (strcmp (path, "/exact") == 0)
    {
      g_autoptr(GBytes) exact = g_bytes_new_from_bytes (f->big, 0, MIB);

      respond (msg, SOUP_STATUS_OK, "application/octet-stream", exact);
    }
  else if (strcmp (path, "/big-then-stall") == 0)
    {
      /* More than the client's cap, then nothing more, ever: a client that
       * waited for the end of the body before giving up would hang. */
      SoupMessageBody *body = soup_server_message_get_response_body (msg);

      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_message_headers_set_encoding (response_headers, SOUP_ENCODING_CHUNKED);
      soup_message_body_append_bytes (body, f->big);
    }
  else if (strcmp (path, "/stall-body") == 0)
    {
      SoupMessageBody *body = soup_server_message_get_response_body (msg);

      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_message_headers_set_encoding (response_headers, SOUP_ENCODING_CHUNKED);
      soup_message_body_append (body, SOUP_MEMORY_STATIC, "partial", 7);
    }
  else if (strcmp (path, "/stall-headers") == 0)
    {
      /* Never answered: the message stays paused until the server goes. */
      g_ptr_array_add (f->held, g_object_ref (msg));
      soup_server_message_pause (msg);
    }
  else if (strcmp (path, "/trickle") == 0)
    {
      Trickle *trickle = g_new0 (Trickle, 1);
      GSource *source = g_timeout_source_new (100);

      trickle->msg = g_object_ref (msg);
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_message_headers_set_encoding (response_headers, SOUP_ENCODING_CHUNKED);
      soup_message_body_append (soup_server_message_get_response_body (msg),
                                SOUP_MEMORY_STATIC, "tick\n", 5);
      g_source_set_callback (source, trickle_cb, trickle, trickle_free);
      g_source_attach (source, NULL);
      g_ptr_array_add (f->sources, source);
    }
  else if (g_str_has_prefix (path, "/redirect/"))
    {
      guint64 n = 0;

      g_assert_true (g_ascii_string_to_unsigned (path + strlen ("/redirect/"), 10, 0, 100, &n, NULL));
      if (n == 0)
        respond_text (msg, SOUP_STATUS_OK, "arrived");
      else
        {
          g_autofree char *next = g_strdup_printf ("%" G_GUINT64_FORMAT, n - 1);

          /* Relative on purpose: the fetcher must make it absolute. */
          respond_text (msg, SOUP_STATUS_FOUND, "moved");
          soup_message_headers_replace (response_headers, "Location", next);
        }
    }
  else if (strcmp (path, "/loop") == 0)
    {
      respond_text (msg, SOUP_STATUS_MOVED_PERMANENTLY, "loop");
      soup_message_headers_replace (response_headers, "Location", "/loop");
    }
  else if (strcmp (path, "/flaky") == 0)
    {
      if (f->flaky_hits++ == 0)
        respond_text (msg, SOUP_STATUS_SERVICE_UNAVAILABLE, "busy");
      else
        respond_text (msg, SOUP_STATUS_OK, "fine now");
    }
  else if (strcmp (path, "/flaky-429") == 0)
    {
      if (f->flaky_hits++ == 0)
        {
          respond_text (msg, 429, "slow down");
          soup_message_headers_replace (response_headers, "Retry-After", "0");
        }
      else
        respond_text (msg, SOUP_STATUS_OK, "fine now");
    }
  else if (strcmp (path, "/always-503") == 0)
    {
      f->flaky_hits++;
      respond_text (msg, SOUP_STATUS_SERVICE_UNAVAILABLE, "still busy");
    }
  else if (strcmp (path, "/retry-after-long") == 0)
    {
      f->flaky_hits++;
      respond_text (msg, SOUP_STATUS_SERVICE_UNAVAILABLE, "come back tomorrow");
      soup_message_headers_replace (response_headers, "Retry-After", "86400");
    }
  else if (strcmp (path, "/needs-auth") == 0)
    {
      f->flaky_hits++;
      respond_text (msg, SOUP_STATUS_UNAUTHORIZED, "members only");
      soup_message_headers_replace (response_headers, "WWW-Authenticate", "Basic realm=\"members\"");
    }
  else if (strcmp (path, "/set-cookie") == 0)
    {
      respond_text (msg, SOUP_STATUS_OK, "cookie set");
      soup_message_headers_append (response_headers, "Set-Cookie", "crawl=yes; Path=/");
    }
  else if (strcmp (path, "/echo") == 0)
    {
      SoupMessageHeadersIter iter;
      const char *name, *value;
      GString *seen = g_string_new (NULL);

      soup_message_headers_iter_init (&iter, request_headers);
      while (soup_message_headers_iter_next (&iter, &name, &value))
        g_string_append_printf (seen, "%s: %s\n", name, value);
      g_free (f->seen_headers);
      f->seen_headers = g_string_free (seen, FALSE);
      g_free (f->seen_user_agent);
      f->seen_user_agent = g_strdup (soup_message_headers_get_one (request_headers, "User-Agent"));
      g_free (f->seen_cookie);
      f->seen_cookie = g_strdup (soup_message_headers_get_one (request_headers, "Cookie"));
      respond_text (msg, SOUP_STATUS_OK, "echo");
    }
  else if (strcmp (path, "/etag") == 0)
    {
      const char *etag = soup_message_headers_get_one (request_headers, "If-None-Match");
      const char *since = soup_message_headers_get_one (request_headers, "If-Modified-Since");

      if (g_strcmp0 (etag, "\"v1\"") == 0 ||
          g_strcmp0 (since, "Mon, 02 Mar 2026 10:00:00 GMT") == 0)
        soup_server_message_set_status (msg, SOUP_STATUS_NOT_MODIFIED, NULL);
      else
        respond_text (msg, SOUP_STATUS_OK, "version 1");
      soup_message_headers_replace (response_headers, "ETag", "\"v1\"");
      soup_message_headers_replace (response_headers, "Last-Modified", "Mon, 02 Mar 2026 10:00:00 GMT");
    }
  else if (strcmp (path, "/huge-header") == 0 || strcmp (path, "/big-header") == 0)
    {
      gsize size = strcmp (path, "/huge-header") == 0 ? 300 * 1024 : 40 * 1024;
      g_autofree char *padding = g_malloc (size + 1);

      memset (padding, 'x', size);
      padding[size] = '\0';
      respond_text (msg, SOUP_STATUS_OK, "padded");
      soup_message_headers_append (response_headers, "X-Padding", padding);
    }
  else if (strcmp (path, "/slow") == 0)
    {
      f->in_flight++;
      f->max_in_flight = MAX (f->max_in_flight, f->in_flight);
      g_signal_connect (msg, "finished", G_CALLBACK (slow_finished_cb), f);
      g_ptr_array_add (f->held, g_object_ref (msg));
      soup_server_message_pause (msg);
      add_source (f, 100, release_slow_cb, f);
    }
  else
    respond_text (msg, SOUP_STATUS_NOT_FOUND, "no such page");
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GBytes) zeros = NULL;
  guint port;

  f->server = cg_test_server_listen (server_cb, f, &port);
  f->base = g_strdup_printf ("http://127.0.0.1:%u", port);

  f->sources = g_ptr_array_new ();
  f->held = g_ptr_array_new_with_free_func (g_object_unref);

  f->text = make_text ();
  f->gzip = cg_test_zlib_encode (f->text, 15 + 16);
  f->deflate_zlib = cg_test_zlib_encode (f->text, 15);
  f->deflate_raw = cg_test_zlib_encode (f->text, -15);
  f->brotli = cg_test_brotli_encode (f->text, BROTLI_MODE_TEXT);
  zeros = g_bytes_new_take (g_malloc0 (10 * MIB), 10 * MIB);
  f->bomb = cg_test_zlib_encode (zeros, 15 + 16);
  f->big = make_big (2 * MIB);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  for (guint i = 0; i < f->sources->len; i++)
    {
      g_source_destroy (f->sources->pdata[i]);
      g_source_unref (f->sources->pdata[i]);
    }
  g_ptr_array_unref (f->sources);

  soup_server_disconnect (f->server);
  g_ptr_array_unref (f->held);
  g_clear_object (&f->server);

  /* Let the closed connections' last callbacks run before the data they
   * point at goes. */
  while (g_main_context_iteration (NULL, FALSE))
    ;

  g_free (f->base);
  g_bytes_unref (f->text);
  g_bytes_unref (f->gzip);
  g_bytes_unref (f->deflate_zlib);
  g_bytes_unref (f->deflate_raw);
  g_bytes_unref (f->brotli);
  g_bytes_unref (f->bomb);
  g_bytes_unref (f->big);
  g_free (f->seen_user_agent);
  g_free (f->seen_cookie);
  g_free (f->seen_headers);
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

typedef struct {
  gboolean       done;
  CgFetchResult *result;
  GPtrArray     *hops;
} Wait;

static void
fetch_done_cb (GObject      *source,
               GAsyncResult *res,
               gpointer      data)
{
  Wait *wait = data;

  wait->result = cg_fetcher_fetch_finish (CG_FETCHER (source), res);
  g_assert_nonnull (wait->result);
  wait->done = TRUE;
}

static void
following_done_cb (GObject      *source,
                   GAsyncResult *res,
                   gpointer      data)
{
  Wait *wait = data;

  wait->hops = cg_fetcher_fetch_following_finish (CG_FETCHER (source), res);
  g_assert_nonnull (wait->hops);
  wait->done = TRUE;
}

static CgFetchResult *
fetch_url (CgFetcher            *fetcher,
           const char           *url,
           const CgFetchOptions *options,
           GCancellable         *cancellable)
{
  Wait wait = { 0 };

  cg_fetcher_fetch_async (fetcher, url, options, cancellable, fetch_done_cb, &wait);
  while (!wait.done)
    g_main_context_iteration (NULL, TRUE);
  return wait.result;
}

static CgFetchResult *
fetch_path (Fixture              *f,
            CgFetcher            *fetcher,
            const char           *path,
            const CgFetchOptions *options)
{
  g_autofree char *url = g_strconcat (f->base, path, NULL);

  return fetch_url (fetcher, url, options, NULL);
}

/* A configuration for tests: fast retries, short timeouts. */
static void
test_config (CgFetcherConfig *config)
{
  cg_fetcher_config_init (config);
  config->retry_base_delay_ms = 10;
  config->io_timeout = 5;
  config->total_timeout = 30;
}

static CgFetcher *
new_fetcher (const CgFetcherConfig *config)
{
  g_autoptr(GError) error = NULL;
  CgFetcher *fetcher = cg_fetcher_new (config, &error);

  g_assert_no_error (error);
  g_assert_nonnull (fetcher);
  return fetcher;
}

static void
assert_bytes_equal (GBytes *actual,
                    GBytes *expected)
{
  g_assert_nonnull (actual);
  g_assert_cmpmem (g_bytes_get_data (actual, NULL), g_bytes_get_size (actual),
                   g_bytes_get_data (expected, NULL), g_bytes_get_size (expected));
}

static char *
block_text (GBytes *block)
{
  g_assert_nonnull (block);
  return g_strndup (g_bytes_get_data (block, NULL), g_bytes_get_size (block));
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */
/* ------------------------------------------------------------------ */

static void
test_plain (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) result = NULL;
  g_autofree char *response = NULL;
  g_autofree char *url = g_strconcat (f->base, "/plain", NULL);
  static const char body[] = "<html><body>hello</body></html>";

  test_config (&config);
  fetcher = new_fetcher (&config);
  result = fetch_url (fetcher, url, NULL, NULL);

  g_assert_no_error ((GError *) cg_fetch_result_get_error (result));
  g_assert_cmpstr (cg_fetch_result_get_url (result), ==, url);
  g_assert_true (cg_fetch_result_has_response (result));
  g_assert_cmpuint (cg_fetch_result_get_status (result), ==, 200);
  g_assert_cmpstr (cg_fetch_result_get_reason (result), ==, "OK");
  g_assert_cmpstr (cg_fetch_result_get_http_version (result), ==, "HTTP/1.1");
  g_assert_cmpstr (cg_fetch_result_get_content_type (result), ==, "text/html");
  g_assert_cmpstr (cg_fetch_result_get_charset (result), ==, "utf-8");
  g_assert_cmpstr (cg_fetch_result_get_remote_ip (result), ==, "127.0.0.1");
  g_assert_null (cg_fetch_result_get_content_encoding (result));
  g_assert_null (cg_fetch_result_get_location (result));
  g_assert_false (cg_fetch_result_is_redirect (result));
  g_assert_cmpint (cg_fetch_result_get_truncated (result), ==, CG_FETCH_TRUNCATED_NONE);
  g_assert_false (cg_fetch_result_get_payload_dechunked (result));
  g_assert_cmpuint (cg_fetch_result_get_n_attempts (result), ==, 1);
  g_assert_cmpint (cg_fetch_result_get_start_time (result), >, 0);
  g_assert_cmpint (cg_fetch_result_get_duration (result), >=, 0);

  g_assert_cmpmem (g_bytes_get_data (cg_fetch_result_get_payload (result), NULL),
                   g_bytes_get_size (cg_fetch_result_get_payload (result)),
                   body, strlen (body));
  /* With no content coding the decoded payload is the payload. */
  g_assert_true (g_bytes_equal (cg_fetch_result_get_decoded_payload (result),
                                cg_fetch_result_get_payload (result)));

  response = block_text (cg_fetch_result_get_response_header_block (result));
  g_assert_true (g_str_has_prefix (response, "HTTP/1.1 200 OK\r\n"));
  g_assert_nonnull (strstr (response, "\r\nContent-Type: text/html; charset=utf-8\r\n"));
  g_assert_true (g_str_has_suffix (response, "\r\n\r\n"));
  g_assert_cmpstr (soup_message_headers_get_one (cg_fetch_result_get_response_headers (result),
                                                 "Content-Length"), ==, "31");
}

static void
test_request_block (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) result = NULL;
  g_autofree char *request = NULL;
  g_autofree char *host_line = NULL;
  g_auto(GStrv) seen = NULL;
  CgFetchOptions options = { .referer = "http://127.0.0.1/from" };

  test_config (&config);
  config.contact_url = "https://example.org/crawl-info";
  fetcher = new_fetcher (&config);
  /* The query stays encoded as it was given, in the request as sent and
   * in the block. */
  result = fetch_path (f, fetcher, "/echo?q=1&r=a%20b%C3%A9", &options);
  g_assert_no_error ((GError *) cg_fetch_result_get_error (result));

  /* The server saw the configured User-Agent with the contact URL. */
  g_assert_nonnull (f->seen_user_agent);
  g_assert_true (g_str_has_prefix (f->seen_user_agent, "Cartograph/"));
  g_assert_true (g_str_has_suffix (f->seen_user_agent, " (+https://example.org/crawl-info)"));
  g_assert_cmpstr (f->seen_user_agent, ==, cg_fetcher_get_config (fetcher)->user_agent);

  request = block_text (cg_fetch_result_get_request_header_block (result));
  host_line = g_strdup_printf ("\r\nHost: %s\r\n", f->base + strlen ("http://"));
  g_assert_true (g_str_has_prefix (request, "GET /echo?q=1&r=a%20b%C3%A9 HTTP/1.1\r\n"));
  g_assert_nonnull (strstr (request, host_line));
  g_assert_true (g_str_has_suffix (request, "\r\n\r\n"));

  /* Every header the server received is in the recorded block, so the
   * block holds the final set, not the one before libsoup added its own. */
  seen = g_strsplit (f->seen_headers, "\n", -1);
  for (guint i = 0; seen[i] != NULL; i++)
    {
      g_autofree char *line = NULL;

      if (*seen[i] == '\0')
        continue;
      line = g_strdup_printf ("\r\n%s\r\n", seen[i]);
      g_assert_nonnull (strstr (request, line));
    }
  g_assert_nonnull (strstr (request, "\r\nUser-Agent: Cartograph/"));
  g_assert_nonnull (strstr (request, "\r\nAccept-Encoding: gzip, deflate, br\r\n"));
  g_assert_nonnull (strstr (request, "\r\nReferer: http://127.0.0.1/from\r\n"));
}

static void
test_user_agent_override (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) result = NULL;
  g_autofree char *built = cg_fetcher_build_user_agent (NULL);

  g_assert_true (g_str_has_prefix (built, "Cartograph/"));
  g_assert_null (strchr (built, ' '));

  test_config (&config);
  config.user_agent = "TestBot/2.0 (+mailto:archive@example.org)";
  config.accept_encoding = "";
  fetcher = new_fetcher (&config);
  result = fetch_path (f, fetcher, "/echo", NULL);
  g_assert_cmpstr (f->seen_user_agent, ==, "TestBot/2.0 (+mailto:archive@example.org)");
  /* An empty Accept-Encoding setting sends none. */
  g_assert_null (strstr (f->seen_headers, "Accept-Encoding"));
}

static void
check_encoded (Fixture    *f,
               const char *path,
               GBytes     *encoded,
               const char *coding)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) result = NULL;
  g_autofree char *response = NULL;
  g_autofree char *line = g_strdup_printf ("\r\nContent-Encoding: %s\r\n", coding);

  test_config (&config);
  fetcher = new_fetcher (&config);
  result = fetch_path (f, fetcher, path, NULL);

  g_assert_no_error ((GError *) cg_fetch_result_get_error (result));
  g_assert_cmpuint (cg_fetch_result_get_status (result), ==, 200);
  g_assert_cmpstr (cg_fetch_result_get_content_encoding (result), ==, coding);
  /* The archive gets the bytes as sent, the extractor the decoded page. */
  assert_bytes_equal (cg_fetch_result_get_payload (result), encoded);
  assert_bytes_equal (cg_fetch_result_get_decoded_payload (result), f->text);
  g_assert_null (cg_fetch_result_get_decode_error (result));
  response = block_text (cg_fetch_result_get_response_header_block (result));
  g_assert_nonnull (strstr (response, line));
}

static void
test_gzip (Fixture *f, gconstpointer data)
{
  check_encoded (f, "/gzip", f->gzip, "gzip");
}

static void
test_deflate_zlib (Fixture *f, gconstpointer data)
{
  check_encoded (f, "/deflate-zlib", f->deflate_zlib, "deflate");
}

static void
test_deflate_raw (Fixture *f, gconstpointer data)
{
  check_encoded (f, "/deflate-raw", f->deflate_raw, "deflate");
}

static void
test_brotli (Fixture *f, gconstpointer data)
{
  check_encoded (f, "/br", f->brotli, "br");
}

static void
test_gzip_bomb (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) result = NULL;
  GBytes *decoded;

  test_config (&config);
  config.max_decoded_size = MIB;
  fetcher = new_fetcher (&config);
  result = fetch_path (f, fetcher, "/bomb", NULL);

  /* The fetch itself succeeded and the bomb is archived as sent ... */
  g_assert_no_error ((GError *) cg_fetch_result_get_error (result));
  assert_bytes_equal (cg_fetch_result_get_payload (result), f->bomb);
  g_assert_cmpuint (g_bytes_get_size (f->bomb), <, MIB);
  /* ... but its decoded copy stops at the cap, with the reason. */
  g_assert_error ((GError *) cg_fetch_result_get_decode_error (result),
                  CG_CONTENT_DECODER_ERROR, CG_CONTENT_DECODER_ERROR_TOO_LARGE);
  decoded = cg_fetch_result_get_decoded_payload (result);
  g_assert_nonnull (decoded);
  g_assert_cmpuint (g_bytes_get_size (decoded), ==, MIB);
  g_assert_nonnull (strstr (cg_fetch_result_get_decode_error (result)->message, "/bomb"));
}

static void
test_chunked (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) result = NULL;
  g_autofree char *response = NULL;

  test_config (&config);
  fetcher = new_fetcher (&config);
  result = fetch_path (f, fetcher, "/chunked", NULL);

  g_assert_no_error ((GError *) cg_fetch_result_get_error (result));
  g_assert_true (cg_fetch_result_get_payload_dechunked (result));
  g_assert_cmpmem (g_bytes_get_data (cg_fetch_result_get_payload (result), NULL),
                   g_bytes_get_size (cg_fetch_result_get_payload (result)),
                   "first,second", 12);
  response = block_text (cg_fetch_result_get_response_header_block (result));
  g_assert_nonnull (strstr (response, "\r\nTransfer-Encoding: chunked\r\n"));
}

static void
test_body_cap (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  const char *paths[] = { "/big", "/big-then-stall" };

  test_config (&config);
  config.max_body_size = MIB;
  fetcher = new_fetcher (&config);

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(CgFetchResult) result = fetch_path (f, fetcher, paths[i], NULL);
      GBytes *payload = cg_fetch_result_get_payload (result);

      g_assert_no_error ((GError *) cg_fetch_result_get_error (result));
      g_assert_cmpint (cg_fetch_result_get_truncated (result), ==, CG_FETCH_TRUNCATED_LENGTH);
      g_assert_cmpstr (cg_fetch_truncation_to_string (cg_fetch_result_get_truncated (result)), ==, "length");
      g_assert_cmpuint (g_bytes_get_size (payload), ==, MIB);
      g_assert_cmpmem (g_bytes_get_data (payload, NULL), MIB,
                       g_bytes_get_data (f->big, NULL), MIB);
    }
}

static void
test_body_exactly_cap (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) result = NULL;

  test_config (&config);
  config.max_body_size = MIB;
  fetcher = new_fetcher (&config);
  result = fetch_path (f, fetcher, "/exact", NULL);

  g_assert_no_error ((GError *) cg_fetch_result_get_error (result));
  g_assert_cmpint (cg_fetch_result_get_truncated (result), ==, CG_FETCH_TRUNCATED_NONE);
  g_assert_cmpuint (g_bytes_get_size (cg_fetch_result_get_payload (result)), ==, MIB);
}

static void
test_redirect_not_followed (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) result = NULL;
  g_autofree char *expected = g_strconcat (f->base, "/redirect/0", NULL);

  test_config (&config);
  fetcher = new_fetcher (&config);
  result = fetch_path (f, fetcher, "/redirect/1", NULL);

  g_assert_no_error ((GError *) cg_fetch_result_get_error (result));
  g_assert_cmpuint (cg_fetch_result_get_status (result), ==, 302);
  g_assert_true (cg_fetch_result_is_redirect (result));
  g_assert_cmpstr (cg_fetch_result_get_location (result), ==, expected);
  g_assert_cmpmem (g_bytes_get_data (cg_fetch_result_get_payload (result), NULL),
                   g_bytes_get_size (cg_fetch_result_get_payload (result)), "moved", 5);
}

static void
test_redirect_chain (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autofree char *first = g_strconcat (f->base, "/redirect/3", NULL);
  Wait wait = { 0 };

  test_config (&config);
  fetcher = new_fetcher (&config);
  cg_fetcher_fetch_following_async (fetcher, first, CG_FETCHER_ROBOTS_MAX_REDIRECTS, NULL,
                                    NULL, following_done_cb, &wait);
  while (!wait.done)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpuint (wait.hops->len, ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      CgFetchResult *hop = g_ptr_array_index (wait.hops, i);
      g_autofree char *url = g_strdup_printf ("%s/redirect/%u", f->base, 3 - i);

      g_assert_cmpstr (cg_fetch_result_get_url (hop), ==, url);
      g_assert_cmpuint (cg_fetch_result_get_status (hop), ==, i < 3 ? 302 : 200);
      g_assert_no_error ((GError *) cg_fetch_result_get_error (hop));
    }
  g_ptr_array_unref (wait.hops);
}

static void
test_redirect_loop (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autofree char *url = g_strconcat (f->base, "/loop", NULL);
  CgFetchResult *last;
  Wait wait = { 0 };

  test_config (&config);
  fetcher = new_fetcher (&config);
  cg_fetcher_fetch_following_async (fetcher, url, CG_FETCHER_ROBOTS_MAX_REDIRECTS, NULL,
                                    NULL, following_done_cb, &wait);
  while (!wait.done)
    g_main_context_iteration (NULL, TRUE);

  /* The first fetch and five redirects followed; the sixth is not. */
  g_assert_cmpuint (wait.hops->len, ==, CG_FETCHER_ROBOTS_MAX_REDIRECTS + 1);
  for (guint i = 0; i < wait.hops->len; i++)
    g_assert_cmpuint (cg_fetch_result_get_status (g_ptr_array_index (wait.hops, i)), ==, 301);
  last = g_ptr_array_index (wait.hops, wait.hops->len - 1);
  g_assert_error ((GError *) cg_fetch_result_get_error (last),
                  CG_FETCHER_ERROR, CG_FETCHER_ERROR_TOO_MANY_REDIRECTS);
  g_assert_true (cg_fetch_result_has_response (last));
  g_ptr_array_unref (wait.hops);
}

static void
test_stall_headers (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) result = NULL;

  test_config (&config);
  config.io_timeout = 1;
  config.max_attempts = 2;
  fetcher = new_fetcher (&config);
  result = fetch_path (f, fetcher, "/stall-headers", NULL);

  g_assert_error ((GError *) cg_fetch_result_get_error (result),
                  CG_FETCHER_ERROR, CG_FETCHER_ERROR_TIMEOUT);
  g_assert_false (cg_fetch_result_has_response (result));
  g_assert_null (cg_fetch_result_get_payload (result));
  /* A timeout is worth another try, and every try is in the log. */
  g_assert_cmpuint (cg_fetch_result_get_n_attempts (result), ==, 2);
  for (guint i = 0; i < 2; i++)
    g_assert_error (cg_fetch_result_get_attempt (result, i)->error,
                    CG_FETCHER_ERROR, CG_FETCHER_ERROR_TIMEOUT);
  g_assert_cmpint (cg_fetch_result_get_attempt (result, 0)->retry_delay, >, 0);
  g_assert_nonnull (cg_fetch_result_get_request_header_block (result));
}

static void
test_stall_body (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) result = NULL;

  test_config (&config);
  config.io_timeout = 1;
  config.max_attempts = 1;
  fetcher = new_fetcher (&config);
  result = fetch_path (f, fetcher, "/stall-body", NULL);

  g_assert_error ((GError *) cg_fetch_result_get_error (result),
                  CG_FETCHER_ERROR, CG_FETCHER_ERROR_TIMEOUT);
  /* The response began, so what arrived is kept and marked. */
  g_assert_true (cg_fetch_result_has_response (result));
  g_assert_cmpuint (cg_fetch_result_get_status (result), ==, 200);
  g_assert_cmpint (cg_fetch_result_get_truncated (result), ==, CG_FETCH_TRUNCATED_DISCONNECT);
  g_assert_cmpmem (g_bytes_get_data (cg_fetch_result_get_payload (result), NULL),
                   g_bytes_get_size (cg_fetch_result_get_payload (result)), "partial", 7);
}

static void
test_total_timeout (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) result = NULL;
  gsize size;

  test_config (&config);
  config.total_timeout = 1;
  fetcher = new_fetcher (&config);
  result = fetch_path (f, fetcher, "/trickle", NULL);

  /* Data kept coming, so only the total time could end it. */
  g_assert_no_error ((GError *) cg_fetch_result_get_error (result));
  g_assert_cmpint (cg_fetch_result_get_truncated (result), ==, CG_FETCH_TRUNCATED_TIME);
  g_assert_cmpstr (cg_fetch_truncation_to_string (cg_fetch_result_get_truncated (result)), ==, "time");
  size = g_bytes_get_size (cg_fetch_result_get_payload (result));
  g_assert_cmpuint (size, >, 0);
  g_assert_cmpuint (size, <, 100 * 5);
  g_assert_cmpuint (size % 5, ==, 0);
  g_assert_cmpuint (cg_fetch_result_get_n_attempts (result), ==, 1);
}

static void
test_retry_503 (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) result = NULL;
  const CgFetchAttempt *first, *second;

  test_config (&config);
  fetcher = new_fetcher (&config);
  result = fetch_path (f, fetcher, "/flaky", NULL);

  g_assert_no_error ((GError *) cg_fetch_result_get_error (result));
  g_assert_cmpuint (cg_fetch_result_get_status (result), ==, 200);
  g_assert_cmpuint (cg_fetch_result_get_n_attempts (result), ==, 2);
  g_assert_cmpuint (f->flaky_hits, ==, 2);
  first = cg_fetch_result_get_attempt (result, 0);
  second = cg_fetch_result_get_attempt (result, 1);
  g_assert_cmpuint (first->status, ==, 503);
  g_assert_null (first->error);
  g_assert_cmpint (first->retry_delay, ==, 10 * 1000);
  g_assert_cmpuint (second->status, ==, 200);
  g_assert_cmpint (second->retry_delay, ==, 0);
  g_assert_cmpint (second->start_time, >=, first->start_time);
  g_assert_cmpmem (g_bytes_get_data (cg_fetch_result_get_payload (result), NULL),
                   g_bytes_get_size (cg_fetch_result_get_payload (result)), "fine now", 8);
}

static void
test_retry_429 (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) result = NULL;

  test_config (&config);
  fetcher = new_fetcher (&config);
  result = fetch_path (f, fetcher, "/flaky-429", NULL);

  g_assert_cmpuint (cg_fetch_result_get_status (result), ==, 200);
  g_assert_cmpuint (cg_fetch_result_get_n_attempts (result), ==, 2);
  g_assert_cmpuint (cg_fetch_result_get_attempt (result, 0)->status, ==, 429);
}

static void
test_retry_gives_up (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) result = NULL;
  g_autoptr(CgFetchResult) patient = NULL;
  CgFetchOptions options = { .max_attempts = 1 };

  test_config (&config);
  fetcher = new_fetcher (&config);
  result = fetch_path (f, fetcher, "/always-503", NULL);

  /* The last answer stands as the response; it is not an error. */
  g_assert_no_error ((GError *) cg_fetch_result_get_error (result));
  g_assert_cmpuint (cg_fetch_result_get_status (result), ==, 503);
  g_assert_cmpuint (cg_fetch_result_get_n_attempts (result), ==, CG_FETCHER_DEFAULT_MAX_ATTEMPTS);
  g_assert_cmpuint (f->flaky_hits, ==, CG_FETCHER_DEFAULT_MAX_ATTEMPTS);
  /* Backoff doubles. */
  g_assert_cmpint (cg_fetch_result_get_attempt (result, 1)->retry_delay, ==,
                   2 * cg_fetch_result_get_attempt (result, 0)->retry_delay);
  g_assert_cmpmem (g_bytes_get_data (cg_fetch_result_get_payload (result), NULL),
                   g_bytes_get_size (cg_fetch_result_get_payload (result)), "still busy", 10);

  /* A per-fetch attempt count overrides the configuration. */
  f->flaky_hits = 0;
  patient = fetch_path (f, fetcher, "/always-503", &options);
  g_assert_cmpuint (cg_fetch_result_get_n_attempts (patient), ==, 1);
  g_assert_cmpuint (f->flaky_hits, ==, 1);
}

static void
test_retry_after_too_long (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) result = NULL;

  test_config (&config);
  fetcher = new_fetcher (&config);
  result = fetch_path (f, fetcher, "/retry-after-long", NULL);

  /* A day is more than max_retry_after: no retry, the 503 stands. */
  g_assert_cmpuint (cg_fetch_result_get_status (result), ==, 503);
  g_assert_cmpuint (cg_fetch_result_get_n_attempts (result), ==, 1);
  g_assert_cmpuint (f->flaky_hits, ==, 1);
  g_assert_cmpstr (soup_message_headers_get_one (cg_fetch_result_get_response_headers (result),
                                                 "Retry-After"), ==, "86400");
}

static void
test_connection_refused (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) result = NULL;
  g_autofree char *url = NULL;
  g_autoptr(GSocket) refusing = cg_test_refusing_socket (&url);

  test_config (&config);
  fetcher = new_fetcher (&config);
  result = fetch_url (fetcher, url, NULL, NULL);

  g_assert_error ((GError *) cg_fetch_result_get_error (result),
                  CG_FETCHER_ERROR, CG_FETCHER_ERROR_CONNECT);
  g_assert_true (g_str_has_prefix (cg_fetch_result_get_error (result)->message, "Could not connect to the host of "));
  g_assert_nonnull (strstr (cg_fetch_result_get_error (result)->message, url));
  g_assert_false (cg_fetch_result_has_response (result));
  g_assert_cmpuint (cg_fetch_result_get_n_attempts (result), ==, CG_FETCHER_DEFAULT_MAX_ATTEMPTS);
  g_assert_null (cg_fetch_result_get_request_header_block (result));
}

static void
test_cookies (Fixture *f, gconstpointer data)
{
  for (guint on = 0; on <= 1; on++)
    {
      CgFetcherConfig config;
      g_autoptr(CgFetcher) fetcher = NULL;
      g_autoptr(CgFetchResult) first = NULL;
      g_autoptr(CgFetchResult) second = NULL;
      g_autofree char *request = NULL;

      test_config (&config);
      config.cookies = on;
      fetcher = new_fetcher (&config);
      first = fetch_path (f, fetcher, "/set-cookie", NULL);
      g_assert_cmpuint (cg_fetch_result_get_status (first), ==, 200);
      second = fetch_path (f, fetcher, "/echo", NULL);
      request = block_text (cg_fetch_result_get_request_header_block (second));

      if (on)
        {
          g_assert_cmpstr (f->seen_cookie, ==, "crawl=yes");
          g_assert_nonnull (strstr (request, "\r\nCookie: crawl=yes\r\n"));
        }
      else
        {
          g_assert_null (f->seen_cookie);
          g_assert_null (strstr (request, "Cookie"));
        }
    }
}

static void
test_conditional (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) fresh = NULL;
  g_autoptr(CgFetchResult) by_etag = NULL;
  g_autoptr(CgFetchResult) by_date = NULL;
  CgFetchOptions etag_options = { 0 };
  CgFetchOptions date_options = { 0 };
  SoupMessageHeaders *headers;

  test_config (&config);
  fetcher = new_fetcher (&config);

  fresh = fetch_path (f, fetcher, "/etag", NULL);
  g_assert_cmpuint (cg_fetch_result_get_status (fresh), ==, 200);
  g_assert_false (cg_fetch_result_is_not_modified (fresh));
  headers = cg_fetch_result_get_response_headers (fresh);

  /* Re-harvest sends back what the first harvest stored. */
  etag_options.if_none_match = soup_message_headers_get_one (headers, "ETag");
  by_etag = fetch_path (f, fetcher, "/etag", &etag_options);
  g_assert_no_error ((GError *) cg_fetch_result_get_error (by_etag));
  g_assert_cmpuint (cg_fetch_result_get_status (by_etag), ==, 304);
  g_assert_true (cg_fetch_result_is_not_modified (by_etag));
  g_assert_cmpuint (g_bytes_get_size (cg_fetch_result_get_payload (by_etag)), ==, 0);

  date_options.if_modified_since = soup_message_headers_get_one (headers, "Last-Modified");
  by_date = fetch_path (f, fetcher, "/etag", &date_options);
  g_assert_true (cg_fetch_result_is_not_modified (by_date));
}

static void
test_connection_cap (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autofree char *url = g_strconcat (f->base, "/slow", NULL);
  Wait waits[6] = { 0 };
  guint done;

  test_config (&config);
  config.max_conns = 2;
  /* The per-host cap is above the total one, so only the total binds. */
  config.max_conns_per_host = 6;
  fetcher = new_fetcher (&config);
  g_assert_cmpuint (cg_fetcher_get_config (fetcher)->max_conns, ==, 2);

  for (guint i = 0; i < G_N_ELEMENTS (waits); i++)
    cg_fetcher_fetch_async (fetcher, url, NULL, NULL, fetch_done_cb, &waits[i]);

  do
    {
      g_main_context_iteration (NULL, TRUE);
      done = 0;
      for (guint i = 0; i < G_N_ELEMENTS (waits); i++)
        done += waits[i].done;
    }
  while (done < G_N_ELEMENTS (waits));

  /* Each request is held for a while, so a cap that let more through
   * would show here; a cap that closed connections would show as errors. */
  g_assert_cmpuint (f->max_in_flight, ==, 2);
  g_assert_cmpuint (f->slow_done, ==, G_N_ELEMENTS (waits));
  for (guint i = 0; i < G_N_ELEMENTS (waits); i++)
    {
      g_assert_no_error ((GError *) cg_fetch_result_get_error (waits[i].result));
      g_assert_cmpuint (cg_fetch_result_get_status (waits[i].result), ==, 200);
      g_assert_cmpuint (cg_fetch_result_get_n_attempts (waits[i].result), ==, 1);
      cg_fetch_result_unref (waits[i].result);
    }
}

static gboolean
cancel_cb (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

static void
test_cancel (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  const char *paths[] = { "/stall-headers", "/always-503" };

  test_config (&config);
  /* Long enough that only the cancellation can end these fetches. */
  config.io_timeout = 120;
  config.retry_base_delay_ms = 120 * 1000;
  fetcher = new_fetcher (&config);

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autoptr(CgFetchResult) result = NULL;
      g_autofree char *url = g_strconcat (f->base, paths[i], NULL);

      add_source (f, 200, cancel_cb, cancellable);
      result = fetch_url (fetcher, url, NULL, cancellable);
      g_assert_error ((GError *) cg_fetch_result_get_error (result), G_IO_ERROR, G_IO_ERROR_CANCELLED);
    }
}

/* A crawl has no credentials: a 401 is a response to archive as it came,
 * asked for once. */
static void
test_unauthorized (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) result = NULL;
  g_autofree char *block = NULL;
  GBytes *payload;

  test_config (&config);
  fetcher = new_fetcher (&config);
  result = fetch_path (f, fetcher, "/needs-auth", NULL);

  g_assert_no_error ((GError *) cg_fetch_result_get_error (result));
  g_assert_cmpuint (cg_fetch_result_get_status (result), ==, 401);
  payload = cg_fetch_result_get_payload (result);
  g_assert_cmpmem (g_bytes_get_data (payload, NULL), g_bytes_get_size (payload), "members only", 12);
  block = g_strndup (g_bytes_get_data (cg_fetch_result_get_response_header_block (result), NULL),
                     g_bytes_get_size (cg_fetch_result_get_response_header_block (result)));
  g_assert_nonnull (strstr (block, "WWW-Authenticate: Basic realm=\"members\"\r\n"));
  g_assert_cmpuint (cg_fetch_result_get_n_attempts (result), ==, 1);
  g_assert_cmpuint (f->flaky_hits, ==, 1);
}

static void
test_bad_urls (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  struct {
    const char *url;
    int         code;
  } cases[] = {
    { "not a url", CG_FETCHER_ERROR_INVALID_URL },
    { "http://exa mple.com/", CG_FETCHER_ERROR_INVALID_URL },
    { "http:///no-host", CG_FETCHER_ERROR_INVALID_URL },
    { "http://bad_host!/", CG_FETCHER_ERROR_INVALID_URL },
    { "http://127.0.0.1:99999/", CG_FETCHER_ERROR_INVALID_URL },
    { "ftp://127.0.0.1/file", CG_FETCHER_ERROR_UNSUPPORTED_SCHEME },
    { "file:///etc/passwd", CG_FETCHER_ERROR_UNSUPPORTED_SCHEME },
  };

  test_config (&config);
  fetcher = new_fetcher (&config);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(CgFetchResult) result = fetch_url (fetcher, cases[i].url, NULL, NULL);

      g_assert_error ((GError *) cg_fetch_result_get_error (result), CG_FETCHER_ERROR, cases[i].code);
      g_assert_nonnull (strstr (cg_fetch_result_get_error (result)->message, cases[i].url));
      g_assert_false (cg_fetch_result_has_response (result));
      g_assert_cmpuint (cg_fetch_result_get_n_attempts (result), ==, 0);
    }
}

static void
test_bad_options (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) result = NULL;
  CgFetchOptions options = { .if_none_match = "\"v1\"\r\nX-Injected: yes" };

  test_config (&config);
  fetcher = new_fetcher (&config);
  result = fetch_path (f, fetcher, "/echo", &options);
  g_assert_error ((GError *) cg_fetch_result_get_error (result),
                  CG_FETCHER_ERROR, CG_FETCHER_ERROR_INVALID_ARGUMENT);
  /* Nothing was sent. */
  g_assert_null (f->seen_headers);
}

static void
test_bad_config (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(GError) error = NULL;
  g_autoptr(CgFetcher) fetcher = NULL;

  test_config (&config);
  config.user_agent = "Bot\r\nX-Injected: yes";
  fetcher = cg_fetcher_new (&config, &error);
  g_assert_null (fetcher);
  g_assert_error (error, CG_FETCHER_ERROR, CG_FETCHER_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  test_config (&config);
  config.max_body_size = 0;
  fetcher = cg_fetcher_new (&config, &error);
  g_assert_null (fetcher);
  g_assert_error (error, CG_FETCHER_ERROR, CG_FETCHER_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "max-body-size"));
  g_clear_error (&error);

  test_config (&config);
  config.contact_url = "javascript:alert(1)";
  fetcher = cg_fetcher_new (&config, &error);
  g_assert_null (fetcher);
  g_assert_error (error, CG_FETCHER_ERROR, CG_FETCHER_ERROR_INVALID_ARGUMENT);
}

static void
test_huge_header (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) huge = NULL;
  g_autoptr(CgFetchResult) big = NULL;

  test_config (&config);
  config.max_header_size = 16 * 1024;
  fetcher = new_fetcher (&config);

  /* Past libsoup's own limit ... */
  huge = fetch_path (f, fetcher, "/huge-header", NULL);
  g_assert_error ((GError *) cg_fetch_result_get_error (huge),
                  CG_FETCHER_ERROR, CG_FETCHER_ERROR_HEADERS_TOO_LARGE);
  g_assert_false (cg_fetch_result_has_response (huge));
  g_assert_cmpuint (cg_fetch_result_get_n_attempts (huge), ==, 1);

  /* ... and past the configured one. */
  big = fetch_path (f, fetcher, "/big-header", NULL);
  g_assert_error ((GError *) cg_fetch_result_get_error (big),
                  CG_FETCHER_ERROR, CG_FETCHER_ERROR_HEADERS_TOO_LARGE);
  g_assert_false (cg_fetch_result_has_response (big));
  g_assert_null (cg_fetch_result_get_response_header_block (big));
  g_assert_null (cg_fetch_result_get_response_headers (big));
  g_assert_null (cg_fetch_result_get_payload (big));
  g_assert_cmpuint (cg_fetch_result_get_status (big), ==, 0);
  g_assert_cmpuint (cg_fetch_result_get_n_attempts (big), ==, 1);
}

/* A listening socket whose accept queue is full and never drained: the
 * kernel drops further connection attempts, so connecting hangs. */
static void
test_connect_timeout (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) result = NULL;
  g_autoptr(GSocket) listener = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GPtrArray) fillers = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;

  listener = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_socket_bind (listener, address, TRUE, &error);
  g_assert_no_error (error);
  g_socket_set_listen_backlog (listener, 0);
  g_socket_listen (listener, &error);
  g_assert_no_error (error);
  bound = g_socket_get_local_address (listener, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < 4; i++)
    {
      GSocket *filler = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                      G_SOCKET_PROTOCOL_TCP, NULL);

      g_socket_set_blocking (filler, FALSE);
      g_socket_connect (filler, bound, NULL, NULL);
      g_ptr_array_add (fillers, filler);
    }

  url = g_strdup_printf ("http://127.0.0.1:%u/",
                         g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));

  /* With the I/O and total timeouts off, only the connect timeout can end
   * this fetch. */
  test_config (&config);
  config.connect_timeout = 1;
  config.io_timeout = 0;
  config.total_timeout = 0;
  config.max_attempts = 1;
  fetcher = new_fetcher (&config);
  result = fetch_url (fetcher, url, NULL, NULL);

  g_assert_error ((GError *) cg_fetch_result_get_error (result),
                  CG_FETCHER_ERROR, CG_FETCHER_ERROR_TIMEOUT);
  g_assert_false (cg_fetch_result_has_response (result));
  g_assert_null (cg_fetch_result_get_request_header_block (result));
}

/* A server that answers anything with bytes that are not HTTP. */
static gboolean
garbage_incoming_cb (GSocketService    *service,
                     GSocketConnection *connection,
                     GObject           *source,
                     gpointer           data)
{
  static const char garbage[] = "SPAM SPAM SPAM\r\n\r\n";
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (connection));

  g_output_stream_write_all (out, garbage, strlen (garbage), NULL, NULL, NULL);
  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
  return TRUE;
}

static void
test_not_http (Fixture *f, gconstpointer data)
{
  CgFetcherConfig config;
  g_autoptr(CgFetcher) fetcher = NULL;
  g_autoptr(CgFetchResult) result = NULL;
  g_autoptr(GSocketService) service = g_socket_service_new ();
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;

  g_socket_listener_add_address (G_SOCKET_LISTENER (service), address, G_SOCKET_TYPE_STREAM,
                                 G_SOCKET_PROTOCOL_TCP, NULL, &bound, &error);
  g_assert_no_error (error);
  g_signal_connect (service, "incoming", G_CALLBACK (garbage_incoming_cb), NULL);
  g_socket_service_start (service);
  url = g_strdup_printf ("http://127.0.0.1:%u/",
                         g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));

  test_config (&config);
  fetcher = new_fetcher (&config);
  result = fetch_url (fetcher, url, NULL, NULL);

  g_assert_error ((GError *) cg_fetch_result_get_error (result),
                  CG_FETCHER_ERROR, CG_FETCHER_ERROR_BAD_RESPONSE);
  g_assert_false (cg_fetch_result_has_response (result));
  g_assert_cmpuint (cg_fetch_result_get_n_attempts (result), ==, 1);

  g_socket_service_stop (service);
  g_socket_listener_close (G_SOCKET_LISTENER (service));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/fetcher/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("plain", test_plain);
  ADD ("request-block", test_request_block);
  ADD ("user-agent-override", test_user_agent_override);
  ADD ("gzip", test_gzip);
  ADD ("deflate-zlib", test_deflate_zlib);
  ADD ("deflate-raw", test_deflate_raw);
  ADD ("brotli", test_brotli);
  ADD ("gzip-bomb", test_gzip_bomb);
  ADD ("chunked", test_chunked);
  ADD ("body-cap", test_body_cap);
  ADD ("body-exactly-cap", test_body_exactly_cap);
  ADD ("redirect-not-followed", test_redirect_not_followed);
  ADD ("redirect-chain", test_redirect_chain);
  ADD ("redirect-loop", test_redirect_loop);
  ADD ("stall-headers", test_stall_headers);
  ADD ("stall-body", test_stall_body);
  ADD ("total-timeout", test_total_timeout);
  ADD ("connect-timeout", test_connect_timeout);
  ADD ("retry-503", test_retry_503);
  ADD ("retry-429", test_retry_429);
  ADD ("retry-gives-up", test_retry_gives_up);
  ADD ("retry-after-too-long", test_retry_after_too_long);
  ADD ("connection-refused", test_connection_refused);
  ADD ("cookies", test_cookies);
  ADD ("conditional", test_conditional);
  ADD ("connection-cap", test_connection_cap);
  ADD ("cancel", test_cancel);
  ADD ("unauthorized", test_unauthorized);
  ADD ("bad-urls", test_bad_urls);
  ADD ("bad-options", test_bad_options);
  ADD ("bad-config", test_bad_config);
  ADD ("huge-header", test_huge_header);
  ADD ("not-http", test_not_http);

#undef ADD

  return g_test_run ();
}
