/* test-crawler.c: the archival crawl, end to end, against an in-process
 * site: what is fetched, in what order and how often, what is archived,
 * what the store and the crawl log say, and resuming after a stop or a
 * crash.
 *
 * The site is served by a SoupServer on 127.0.0.1 in the test's main
 * context, which also receives the crawler's signals; the crawl runs in
 * its own threads. The handler counts every request, so "fetched once"
 * is what the server saw, and "archived once" is what CgWarcReader reads
 * back from the WARC files.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <zlib.h>
#include <glib/gstdio.h>

#include "cg-crawl-log.h"
#include "cg-cdxj.h"
#include "cg-crawler.h"
#include "cg-fetcher.h"
#include "cg-frontier.h"
#include "cg-gzip-compressor.h"
#include "cg-project.h"
#include "cg-store.h"
#include "cg-test-files.h"
#include "cg-test-server.h"
#include "cg-warc-reader.h"
#include "cg-warc-writer.h"

#define MIB (1024 * 1024)

/* The generated site. */
#define N_PAGES        40
#define N_IMAGES       5
#define N_PRIVATE      3
#define BIG_SIZE       (300 * 1024)
#define BODY_LIMIT     (100 * 1024)
#define BOMB_SIZE      (48 * MIB)   /* inflated; more than the fetcher's decoded-copy bound */
#define CHAIN_END      1000         /* the endless redirect chain ends here, so the server stops by itself */
#define PAGE_PADDING   (8 * 1024)

/* A crawl that takes longer than this has hung. */
#define CRAWL_TIMEOUT_S 120

/* Politeness of the polite crawl. */
#define MIN_DELAY_S    0.1

typedef enum {
  SITE_CAPS    = 1 << 0,   /* a page past the body limit, a gzip bomb */
  SITE_STALL   = 1 << 1,   /* a page that never answers, one that stalls mid-body */
  SITE_CHAIN   = 1 << 2,   /* an endless chain of redirects to new URLs */
  SITE_PADDED  = 1 << 3,   /* pages of PAGE_PADDING bytes more */
  SITE_HOSTILE = 1 << 4,   /* headers a crawler must survive */
  SMALL_WARCS  = 1 << 5,   /* WARC files full after one record */
  SITE_COPIES  = 1 << 6,   /* N_COPIES pages of one payload */
  SITE_LINKED_IMAGE = 1 << 7, /* page 1 links to the image the home page shows */
  SITE_BLOBS   = 1 << 8,   /* N_BLOBS files of BLOB_SIZE random bytes */
} SiteFlags;

#define N_BLOBS   24
#define BLOB_SIZE (90 * 1000)

#define N_COPIES 6

typedef struct _Fixture Fixture;

typedef struct {
  Fixture *fixture;
  char    *path;        /* with its query, if any */
  char    *host;        /* the Host header */
  gint64   arrived_us;  /* monotonic */
  gint64   finished_us; /* 0 until the response is written */
} Request;

struct _Fixture
{
  SoupServer *server;
  char       *base;          /* "http://127.0.0.1:PORT" */
  guint       port;
  SiteFlags   flags;
  GHashTable *hits;          /* path → count */
  GPtrArray  *requests;      /* Request *, in order of arrival */
  guint       in_flight;
  guint       max_in_flight;
  GPtrArray  *held;          /* messages never answered */
  GBytes     *bomb;
  GBytes     *gzip_page;

  char       *dir;
  char       *folder;        /* the project */
  CgProject  *project;

  /* Set by tests that act in the middle of a crawl. */
  CgCrawler  *crawler;
  guint       stop_after;      /* stop the crawler at this request */
  gboolean    want_snapshot;   /* copy the database once it has committed records */
  gboolean    snapshot_taken;
  char       *snapshot_path;
};

/* ------------------------------------------------------------------ */
/* The site                                                            */

/* gzip of @prefix followed by @repeat times @data: a bomb needs no buffer
 * of its inflated size. */
static GBytes *
gzip_encode (const char   *prefix,
             const guint8 *data,
             gsize         length,
             gsize         repeat)
{
  z_stream zs;
  GByteArray *out = g_byte_array_new ();
  guint8 buffer[64 * 1024];

  memset (&zs, 0, sizeof zs);
  g_assert_cmpint (deflateInit2 (&zs, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY), ==, Z_OK);
  for (gsize i = 0; i <= repeat + 1; i++)
    {
      int flush = i == repeat + 1 ? Z_FINISH : Z_NO_FLUSH;
      int rc;

      zs.next_in = (Bytef *) (i == 0 ? (const guint8 *) prefix : data);
      zs.avail_in = i == 0 ? (uInt) strlen (prefix) : i == repeat + 1 ? 0 : (uInt) length;
      do
        {
          zs.next_out = buffer;
          zs.avail_out = sizeof buffer;
          rc = deflate (&zs, flush);
          g_assert_cmpint (rc, !=, Z_STREAM_ERROR);
          g_byte_array_append (out, buffer, sizeof buffer - zs.avail_out);
        }
      while (zs.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
    }
  deflateEnd (&zs);
  return g_byte_array_free_to_bytes (out);
}

static char *
page_html (Fixture *f,
           guint    n)
{
  GString *html = g_string_new (NULL);

  g_string_append_printf (html,
                          "<!DOCTYPE html>\n<html><head><title>Page %u</title>"
                          "<link rel=\"stylesheet\" href=\"/style.css\"></head><body>\n"
                          "<h1>Page %u</h1><img src=\"/img/%u.png\" alt=\"\">\n"
                          "<a href=\"/page/%u\">next</a> <a href=\"/page/%u\">further</a>\n"
                          "<a href=\"/private/%u\">members only</a>\n",
                          n, n, n % N_IMAGES, (n + 1) % N_PAGES, (n + 10) % N_PAGES, n % N_PRIVATE);
  if ((f->flags & SITE_LINKED_IMAGE) && n == 1)
    g_string_append (html, "<a href=\"/img/0.png\">the logo, large</a>\n");
  if (f->flags & SITE_PADDED)
    for (guint i = 0; html->len < PAGE_PADDING; i++)
      g_string_append_printf (html, "<p>Paragraph %u of page %u.</p>\n", i, n);
  g_string_append (html, "</body></html>\n");
  return g_string_free (html, FALSE);
}

static char *
home_html (Fixture *f)
{
  GString *html = g_string_new ("<!DOCTYPE html>\n<html><head><title>Home</title>"
                                "<link rel=\"stylesheet\" href=\"/style.css\"></head><body>\n"
                                "<img src=\"/img/0.png\" alt=\"logo\">\n");

  for (guint i = 0; i < 10; i++)
    g_string_append_printf (html, "<a href=\"/page/%u\">Page %u</a>\n", i, i);
  g_string_append (html, "<a href=\"/redirect/a\">moved</a> <a href=\"/loop/a\">loop</a>\n"
                         "<a href=\"/gzip-page\">compressed</a>\n");
  /* Another host name for this very server: were it fetched, the handler
   * would see it. */
  g_string_append_printf (html, "<a href=\"http://localhost:%u/page/1\">elsewhere</a>\n", f->port);
  if (f->flags & SITE_CAPS)
    g_string_append (html, "<a href=\"/big\">big</a> <a href=\"/bomb\">bomb</a>\n");
  if (f->flags & SITE_STALL)
    g_string_append (html, "<a href=\"/stall\">stall</a> <a href=\"/trickle\">trickle</a>\n");
  if (f->flags & SITE_CHAIN)
    g_string_append (html, "<a href=\"/chain/0\">chain</a>\n");
  if (f->flags & SITE_HOSTILE)
    g_string_append (html, "<a href=\"/bad-location/1\">1</a> <a href=\"/bad-location/2\">2</a>"
                           "<a href=\"/bad-location/3\">3</a>\n");
  for (guint i = 0; (f->flags & SITE_COPIES) && i < N_COPIES; i++)
    g_string_append_printf (html, "<a href=\"/copy/%u\">copy %u</a>\n", i, i);
  for (guint i = 0; (f->flags & SITE_BLOBS) && i < N_BLOBS; i++)
    g_string_append_printf (html, "<a href=\"/blob/%u\">blob %u</a>\n", i, i);
  g_string_append (html, "</body></html>\n");
  return g_string_free (html, FALSE);
}

static char *
big_html (void)
{
  GString *html = g_string_new ("<!DOCTYPE html>\n<html><body>\n");

  for (guint i = 0; html->len < BIG_SIZE; i++)
    g_string_append_printf (html, "<p>Line %u of a page longer than the crawl keeps.</p>\n", i);
  g_string_append (html, "</body></html>\n");
  return g_string_free (html, FALSE);
}

/* The paths the site has and a crawl of it must fetch, robots.txt first. */
static GPtrArray *
expected_paths (Fixture  *f,
                gboolean  requisites)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (paths, g_strdup ("/"));
  for (guint i = 0; i < N_PAGES; i++)
    g_ptr_array_add (paths, g_strdup_printf ("/page/%u", i));
  if (requisites)
    {
      g_ptr_array_add (paths, g_strdup ("/style.css"));
      g_ptr_array_add (paths, g_strdup ("/img/bg.png"));
      for (guint i = 0; i < N_IMAGES; i++)
        g_ptr_array_add (paths, g_strdup_printf ("/img/%u.png", i));
    }
  for (guint i = 0; i < 2; i++)
    {
      g_ptr_array_add (paths, g_strdup_printf ("/redirect/%c", 'a' + i));
      g_ptr_array_add (paths, g_strdup_printf ("/loop/%c", 'a' + i));
    }
  g_ptr_array_add (paths, g_strdup ("/gzip-page"));
  g_ptr_array_add (paths, g_strdup ("/from-gzip"));
  if (f->flags & SITE_CAPS)
    {
      g_ptr_array_add (paths, g_strdup ("/big"));
      g_ptr_array_add (paths, g_strdup ("/bomb"));
    }
  if (f->flags & SITE_STALL)
    g_ptr_array_add (paths, g_strdup ("/trickle"));
  for (guint i = 0; (f->flags & SITE_COPIES) && i < N_COPIES; i++)
    g_ptr_array_add (paths, g_strdup_printf ("/copy/%u", i));
  for (guint i = 0; (f->flags & SITE_BLOBS) && i < N_BLOBS; i++)
    g_ptr_array_add (paths, g_strdup_printf ("/blob/%u", i));
  return paths;
}

static void
respond (SoupServerMessage *msg,
         guint              status,
         const char        *content_type,
         const char        *body,
         gsize              length)
{
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, content_type, SOUP_MEMORY_COPY, body, length);
}

static void
respond_string (SoupServerMessage *msg,
                const char        *content_type,
                char              *body)
{
  respond (msg, SOUP_STATUS_OK, content_type, body, strlen (body));
  g_free (body);
}

static void
redirect (SoupServerMessage *msg,
          guint              status,
          const char        *location)
{
  respond (msg, status, "text/plain", "moved", 5);
  soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Location", location);
}

/* Once the crawl has committed some of its records, copies the database
 * as it is committed, which is what a kill would leave of it; the crawl
 * goes on writing meanwhile. */
static void
maybe_snapshot_database (Fixture *f)
{
  g_autofree char *path = g_build_filename (f->folder, CG_PROJECT_DATABASE_NAME, NULL);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gboolean committed;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT count(*) FROM warc_files WHERE committed_size > 0",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  committed = sqlite3_column_int (stmt, 0) > 0;
  sqlite3_finalize (stmt);
  if (committed)
    {
      g_assert_cmpint (sqlite3_prepare_v2 (db, "VACUUM INTO ?1", -1, &stmt, NULL), ==, SQLITE_OK);
      sqlite3_bind_text (stmt, 1, f->snapshot_path, -1, SQLITE_STATIC);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
      sqlite3_finalize (stmt);
      f->snapshot_taken = TRUE;
    }
  sqlite3_close (db);
}

static void
request_finished_cb (SoupServerMessage *msg,
                     Request           *request)
{
  request->finished_us = g_get_monotonic_time ();
  request->fixture->in_flight--;
}

static void
request_free (Request *request)
{
  g_free (request->path);
  g_free (request->host);
  g_free (request);
}

static void
server_cb (SoupServer        *server,
           SoupServerMessage *msg,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  Fixture *f = user_data;
  GUri *uri = soup_server_message_get_uri (msg);
  SoupMessageHeaders *response_headers = soup_server_message_get_response_headers (msg);
  Request *request = g_new0 (Request, 1);
  guint64 n = 0;

  request->fixture = f;
  request->path = g_uri_get_query (uri) != NULL ? g_strconcat (path, "?", g_uri_get_query (uri), NULL)
                                                : g_strdup (path);
  request->host = g_strdup (soup_message_headers_get_one (soup_server_message_get_request_headers (msg), "Host"));
  request->arrived_us = g_get_monotonic_time ();
  g_ptr_array_add (f->requests, request);
  g_hash_table_replace (f->hits, g_strdup (request->path),
                        GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (f->hits, request->path)) + 1));
  f->in_flight++;
  f->max_in_flight = MAX (f->max_in_flight, f->in_flight);
  g_signal_connect (msg, "finished", G_CALLBACK (request_finished_cb), request);

  if (f->want_snapshot && !f->snapshot_taken)
    maybe_snapshot_database (f);
  if (f->stop_after > 0 && f->requests->len == f->stop_after && f->crawler != NULL)
    cg_crawler_stop (f->crawler);

  if (strcmp (path, "/robots.txt") == 0)
    respond_string (msg, "text/plain", g_strdup ("User-agent: *\nDisallow: /private/\n"));
  else if (strcmp (path, "/") == 0)
    respond_string (msg, "text/html; charset=utf-8", home_html (f));
  else if (g_str_has_prefix (path, "/blob/") && (f->flags & SITE_BLOBS) &&
           g_ascii_string_to_unsigned (path + 6, 10, 0, N_BLOBS - 1, &n, NULL))
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed ((guint32) n);
      guint32 *blob = g_new (guint32, BLOB_SIZE / sizeof (guint32));

      /* Random, so that the WARC file grows by about as much. */
      for (gsize i = 0; i < BLOB_SIZE / sizeof (guint32); i++)
        blob[i] = g_rand_int (rand);
      respond (msg, SOUP_STATUS_OK, "application/octet-stream", (const char *) blob, BLOB_SIZE);
      g_free (blob);
    }
  else if (g_str_has_prefix (path, "/copy/") && (f->flags & SITE_COPIES))
    respond_string (msg, "text/html", g_strdup ("<html><body>The same page under every address</body></html>"));
  else if (g_str_has_prefix (path, "/page/") &&
           g_ascii_string_to_unsigned (path + 6, 10, 0, N_PAGES - 1, &n, NULL))
    respond_string (msg, "text/html; charset=utf-8", page_html (f, (guint) n));
  else if (g_str_has_prefix (path, "/private/"))
    respond_string (msg, "text/html", g_strdup_printf ("<html><body>Private %s</body></html>", path + 9));
  else if (strcmp (path, "/style.css") == 0)
    respond_string (msg, "text/css", g_strdup ("body { background: url(/img/bg.png); }\n"));
  else if (g_str_has_prefix (path, "/img/"))
    respond_string (msg, "image/png", g_strdup_printf ("\x89PNG not really, image %s", path + 5));
  else if (strcmp (path, "/redirect/a") == 0)
    redirect (msg, SOUP_STATUS_FOUND, "/redirect/b");
  else if (strcmp (path, "/redirect/b") == 0)
    redirect (msg, SOUP_STATUS_MOVED_PERMANENTLY, "/page/39");
  else if (strcmp (path, "/loop/a") == 0)
    redirect (msg, SOUP_STATUS_FOUND, "/loop/b");
  else if (strcmp (path, "/loop/b") == 0)
    redirect (msg, SOUP_STATUS_FOUND, "/loop/a");
  else if (strcmp (path, "/gzip-page") == 0)
    {
      respond (msg, SOUP_STATUS_OK, "text/html", g_bytes_get_data (f->gzip_page, NULL),
               g_bytes_get_size (f->gzip_page));
      soup_message_headers_replace (response_headers, "Content-Encoding", "gzip");
    }
  else if (strcmp (path, "/from-gzip") == 0)
    respond_string (msg, "text/html", g_strdup ("<html><body>Found in a compressed page</body></html>"));
  else if (strcmp (path, "/big") == 0 && (f->flags & SITE_CAPS))
    respond_string (msg, "text/html", big_html ());
  else if (strcmp (path, "/bomb") == 0 && (f->flags & SITE_CAPS))
    {
      respond (msg, SOUP_STATUS_OK, "text/html", g_bytes_get_data (f->bomb, NULL), g_bytes_get_size (f->bomb));
      soup_message_headers_replace (response_headers, "Content-Encoding", "gzip");
    }
  else if (strcmp (path, "/stall") == 0 && (f->flags & SITE_STALL))
    {
      /* Never answered; the server lets it go at the end of the test. */
      g_ptr_array_add (f->held, g_object_ref (msg));
      soup_server_message_pause (msg);
    }
  else if (strcmp (path, "/trickle") == 0 && (f->flags & SITE_STALL))
    {
      /* A start, then nothing more. */
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_message_headers_set_content_type (response_headers, "text/html", NULL);
      soup_message_headers_set_encoding (response_headers, SOUP_ENCODING_CHUNKED);
      soup_message_body_append (soup_server_message_get_response_body (msg), SOUP_MEMORY_STATIC,
                                "<html><body>partial", 19);
    }
  else if (g_str_has_prefix (path, "/bad-location/") && (f->flags & SITE_HOSTILE))
    {
      static const char * const locations[] = { "", "/caf\xff\xfe", "/a b\tc", "/x\x01y" };
      guint64 k = g_ascii_strtoull (path + 14, NULL, 10);

      respond (msg, SOUP_STATUS_FOUND, "text/plain", "moved", 5);
      soup_message_headers_replace (response_headers, "Location", locations[MIN (k, 3)]);
    }
  else if (g_str_has_prefix (path, "/chain/") && (f->flags & SITE_CHAIN))
    {
      guint64 k = g_ascii_strtoull (path + 7, NULL, 10);

      if (k < CHAIN_END)
        {
          g_autofree char *next = g_strdup_printf ("/chain/%" G_GUINT64_FORMAT, k + 1);

          redirect (msg, SOUP_STATUS_FOUND, next);
        }
      else
        respond_string (msg, "text/html", g_strdup ("<html><body>The end of the chain</body></html>"));
    }
  else
    respond (msg, SOUP_STATUS_NOT_FOUND, "text/plain", "no such page", 12);
}

static guint
hits (Fixture    *f,
      const char *path)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (f->hits, path));
}

static char *
url_for (Fixture    *f,
         const char *path)
{
  return g_strconcat (f->base, path, NULL);
}

/* ------------------------------------------------------------------ */
/* Fixture                                                             */

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *page = NULL;
  static const guint8 zeros[64 * 1024];

  f->flags = GPOINTER_TO_UINT (data);
  f->server = cg_test_server_listen (server_cb, f, &f->port);
  f->base = g_strdup_printf ("http://127.0.0.1:%u", f->port);

  f->hits = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  f->requests = g_ptr_array_new_with_free_func ((GDestroyNotify) request_free);
  f->held = g_ptr_array_new_with_free_func (g_object_unref);
  page = g_strdup ("<!DOCTYPE html>\n<html><body><a href=\"/from-gzip\">inside</a> "
                   "<a href=\"/page/20\">page 20</a></body></html>\n");
  f->gzip_page = gzip_encode (page, NULL, 0, 0);
  /* A page that starts like one, then inflates to far more than the
   * crawler keeps. */
  if (f->flags & SITE_CAPS)
    f->bomb = gzip_encode ("<html><body>", zeros, sizeof zeros, BOMB_SIZE / sizeof zeros);

  f->dir = cg_test_folder_new ("cg-crawler-XXXXXX");
  f->folder = g_build_filename (f->dir, "project", NULL);
  f->project = cg_project_create (f->folder, "crawler", &error);
  g_assert_no_error (error);
  f->snapshot_path = g_build_filename (f->dir, "snapshot.db", NULL);
}

static void validate_with_warcio (const char *folder);

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  /* Every WARC file a test made is read back by an independent reader. */
  validate_with_warcio (f->folder);

  soup_server_disconnect (f->server);
  g_ptr_array_unref (f->held);
  g_clear_object (&f->server);
  /* The closed connections' last callbacks point at the requests. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_ptr_array_unref (f->requests);
  g_hash_table_unref (f->hits);
  g_clear_pointer (&f->bomb, g_bytes_unref);
  g_bytes_unref (f->gzip_page);
  g_clear_object (&f->project);
  cg_test_folder_remove (f->dir);
  g_free (f->folder);
  g_free (f->snapshot_path);
  g_free (f->base);
}

/* ------------------------------------------------------------------ */
/* Running a crawl                                                     */

typedef struct {
  GMainLoop  *loop;
  gboolean    finished;
  gboolean    timed_out;
  CgCrawlEnd  end;
  GError     *error;
  guint       events[CG_CRAWL_EVENT_ERROR + 1];
  gint64      elapsed_us;
} Run;

static void
crawl_finished_cb (CgCrawler    *crawler,
                   int           end,
                   const GError *error,
                   Run          *run)
{
  run->finished = TRUE;
  run->end = end;
  if (error != NULL)
    run->error = g_error_copy (error);
  g_main_loop_quit (run->loop);
}

static void
crawl_event_cb (CgCrawler  *crawler,
                int         kind,
                const char *url,
                const char *message,
                Run        *run)
{
  g_assert_cmpint (kind, >=, 0);
  g_assert_cmpint (kind, <=, CG_CRAWL_EVENT_ERROR);
  g_assert_nonnull (message);
  run->events[kind]++;
}

static gboolean
crawl_timeout_cb (gpointer user_data)
{
  Run *run = user_data;

  run->timed_out = TRUE;
  g_main_loop_quit (run->loop);
  return G_SOURCE_REMOVE;
}

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->loop, g_main_loop_unref);
  g_clear_error (&run->error);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* Runs @crawler to its end in the main context, where the site is served. */
static void
run_crawler (Fixture   *f,
             CgCrawler *crawler,
             Run       *run)
{
  gulong finished_id, event_id;
  guint timeout_id;
  gint64 start;

  run_clear (run);
  memset (run, 0, sizeof *run);
  run->loop = g_main_loop_new (NULL, FALSE);
  finished_id = g_signal_connect (crawler, "finished", G_CALLBACK (crawl_finished_cb), run);
  event_id = g_signal_connect (crawler, "event", G_CALLBACK (crawl_event_cb), run);
  timeout_id = g_timeout_add_seconds (CRAWL_TIMEOUT_S, crawl_timeout_cb, run);
  f->crawler = crawler;

  start = g_get_monotonic_time ();
  cg_crawler_start (crawler);
  g_assert_true (cg_crawler_is_running (crawler));
  g_main_loop_run (run->loop);
  run->elapsed_us = g_get_monotonic_time () - start;

  g_assert_false (run->timed_out);
  g_source_remove (timeout_id);
  g_signal_handler_disconnect (crawler, finished_id);
  g_signal_handler_disconnect (crawler, event_id);
  f->crawler = NULL;
  g_assert_true (run->finished);
  g_assert_false (cg_crawler_is_running (crawler));
}

static CgCrawlConfig *
site_config (Fixture *f)
{
  CgCrawlConfig *config = cg_crawl_config_new ();

  g_strfreev (config->seeds);
  config->seeds = g_new0 (char *, 2);
  config->seeds[0] = url_for (f, "/");
  config->max_body_size = BODY_LIMIT;
  config->max_connections = 4;
  cg_crawl_config_disable_politeness (config);
  return config;
}

static CgCrawler *
new_crawler (Fixture             *f,
             CgProject           *project,
             const CgCrawlConfig *config)
{
  g_autoptr(GError) error = NULL;
  CgCrawler *crawler = cg_crawler_new (project != NULL ? project : f->project, config, &error);

  g_assert_no_error (error);
  g_assert_nonnull (crawler);
  return crawler;
}

/* Runs a new crawl of the site with @config and checks that it reached
 * its end. */
static gint64
crawl_site (Fixture             *f,
            const CgCrawlConfig *config,
            Run                 *run)
{
  g_autoptr(CgCrawler) crawler = new_crawler (f, NULL, config);

  run_crawler (f, crawler, run);
  g_assert_no_error (run->error);
  g_assert_cmpint (run->end, ==, CG_CRAWL_END_DONE);
  return cg_crawler_get_crawl_id (crawler);
}

/* ------------------------------------------------------------------ */
/* Reading the results back                                            */

typedef struct {
  guint         responses;   /* response and revisit records */
  guint         requests;
  guint         metadata;
  CgWarcRecord *response;
} Archived;

static void
archived_free (Archived *archived)
{
  g_clear_pointer (&archived->response, cg_warc_record_unref);
  g_free (archived);
}

/* Reads every WARC file of the crawl and returns what each target URI
 * has, with the digests checked; @out_warcinfo gets the first file's
 * warcinfo block. */
static GHashTable *
read_archive (CgProject  *project,
              gint64      crawl_id,
              char      **out_warcinfo)
{
  g_autofree char *warc_dir = cg_project_get_warc_dir (project);
  g_autofree char *prefix = g_strdup_printf ("cartograph-%" G_GINT64_FORMAT "-", crawl_id);
  g_autoptr(GDir) dir = g_dir_open (warc_dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GHashTable *archive = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) archived_free);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, prefix) && g_str_has_suffix (name, ".warc.gz"))
      g_ptr_array_add (names, g_strdup (name));
  g_assert_cmpuint (names->len, >, 0);
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  if (out_warcinfo != NULL)
    *out_warcinfo = NULL;

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (warc_dir, g_ptr_array_index (names, i), NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(CgWarcReader) reader = cg_warc_reader_new (path, &error);
      CgWarcRecord *record;

      g_assert_no_error (error);
      cg_warc_reader_set_verify_digests (reader, TRUE);
      while ((record = cg_warc_reader_next (reader, &error)) != NULL)
        {
          CgWarcRecordType type = cg_warc_record_get_record_type (record);
          const char *uri = cg_warc_record_get_target_uri (record);
          Archived *archived;

          if (type == CG_WARC_RECORD_WARCINFO)
            {
              GBytes *block = cg_warc_record_get_block (record);

              if (out_warcinfo != NULL && *out_warcinfo == NULL)
                *out_warcinfo = g_strndup (g_bytes_get_data (block, NULL), g_bytes_get_size (block));
              cg_warc_record_unref (record);
              continue;
            }
          g_assert_nonnull (uri);
          archived = g_hash_table_lookup (archive, uri);
          if (archived == NULL)
            {
              archived = g_new0 (Archived, 1);
              g_hash_table_insert (archive, g_strdup (uri), archived);
            }
          switch (type)
            {
            case CG_WARC_RECORD_RESPONSE:
            case CG_WARC_RECORD_REVISIT:
              archived->responses++;
              g_clear_pointer (&archived->response, cg_warc_record_unref);
              archived->response = cg_warc_record_ref (record);
              break;
            case CG_WARC_RECORD_REQUEST:
              archived->requests++;
              break;
            case CG_WARC_RECORD_METADATA:
              archived->metadata++;
              break;
            default:
              g_assert_not_reached ();
            }
          cg_warc_record_unref (record);
        }
      g_assert_no_error (error);
    }
  return archive;
}

/* Every WARC file of the crawl holds the records of one exchange (its
 * request, its response and its metadata), as when each is full after its
 * first record. Returns the number of files. */
static guint
assert_one_exchange_per_file (CgProject *project,
                              gint64     crawl_id)
{
  g_autofree char *warc_dir = cg_project_get_warc_dir (project);
  g_autofree char *prefix = g_strdup_printf ("cartograph-%" G_GINT64_FORMAT "-", crawl_id);
  g_autoptr(GDir) dir = g_dir_open (warc_dir, 0, NULL);
  const char *name;
  guint files = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (warc_dir, name, NULL);
      g_autoptr(CgWarcReader) reader = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *uri = NULL;
      guint records = 0;
      CgWarcRecord *record;

      if (!g_str_has_prefix (name, prefix) || !g_str_has_suffix (name, ".warc.gz"))
        continue;
      reader = cg_warc_reader_new (path, &error);
      g_assert_no_error (error);
      while ((record = cg_warc_reader_next (reader, &error)) != NULL)
        {
          if (cg_warc_record_get_record_type (record) != CG_WARC_RECORD_WARCINFO)
            {
              if (uri == NULL)
                uri = g_strdup (cg_warc_record_get_target_uri (record));
              else if (g_strcmp0 (uri, cg_warc_record_get_target_uri (record)) != 0)
                g_error ("%s holds records of %s and %s", name, uri, cg_warc_record_get_target_uri (record));
              records++;
            }
          cg_warc_record_unref (record);
        }
      g_assert_no_error (error);
      g_assert_cmpuint (records, >=, 2);
      g_assert_cmpuint (records, <=, 3);
      files++;
    }
  return files;
}

static guint
responses_of (GHashTable *archive,
              const char *url)
{
  Archived *archived = g_hash_table_lookup (archive, url);

  return archived != NULL ? archived->responses : 0;
}

/* Every path of @paths was archived exactly once (one response, one
 * request, at most one metadata record), and nothing else but robots.txt. */
static void
assert_archived_once (Fixture    *f,
                      GHashTable *archive,
                      GPtrArray  *paths,
                      gboolean    with_robots)
{
  g_autoptr(sqlite3_stmt) check = NULL;
  g_autoptr(GError) error = NULL;
  GHashTableIter iter;
  const char *uri;
  Archived *archived;

  /* The crawl's own connection does not check references as it writes
   * (see set_up_run()): every one must hold all the same. */
  check = cg_store_prepare (cg_project_get_store (f->project), "PRAGMA foreign_key_check", &error);
  g_assert_no_error (error);
  if (sqlite3_step (check) == SQLITE_ROW)
    g_error ("A row of %s refers to a missing row of %s", sqlite3_column_text (check, 0),
             sqlite3_column_text (check, 2));

  for (guint i = 0; i < paths->len; i++)
    {
      g_autofree char *url = url_for (f, g_ptr_array_index (paths, i));

      archived = g_hash_table_lookup (archive, url);
      if (archived == NULL || archived->responses != 1)
        g_error ("%s has %u response records, not 1", url, archived != NULL ? archived->responses : 0);
      g_assert_cmpuint (archived->requests, ==, 1);
      g_assert_cmpuint (archived->metadata, <=, 1);
    }
  g_hash_table_iter_init (&iter, archive);
  while (g_hash_table_iter_next (&iter, (gpointer *) &uri, (gpointer *) &archived))
    {
      gboolean expected = FALSE;

      for (guint i = 0; i < paths->len && !expected; i++)
        expected = g_str_has_suffix (uri, g_ptr_array_index (paths, i)) &&
                   strlen (uri) == strlen (f->base) + strlen (g_ptr_array_index (paths, i));
      if (with_robots && g_str_has_suffix (uri, "/robots.txt"))
        {
          g_assert_cmpuint (archived->responses, ==, 1);
          continue;
        }
      if (!expected)
        g_error ("%s was archived, but is not a page the crawl should have fetched", uri);
    }
}

/* The URL's state in the store, and its reason; -1 if it is unknown. */
static int
url_state (CgProject   *project,
           gint64       crawl_id,
           const char  *url,
           char       **out_reason)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (cg_project_get_store (project),
                                                   "SELECT state, reason FROM urls WHERE crawl_id = ?1 AND url = ?2",
                                                   &error);
  int state = -1;

  g_assert_no_error (error);
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  sqlite3_bind_text (stmt, 2, url, -1, SQLITE_STATIC);
  if (out_reason != NULL)
    *out_reason = NULL;
  if (sqlite3_step (stmt) == SQLITE_ROW)
    {
      state = sqlite3_column_int (stmt, 0);
      if (out_reason != NULL)
        *out_reason = g_strdup ((const char *) sqlite3_column_text (stmt, 1));
    }
  return state;
}

static void
assert_url_state (CgProject  *project,
                  gint64      crawl_id,
                  const char *url,
                  CgUrlState  state,
                  const char *reason)
{
  g_autofree char *stored_reason = NULL;

  g_assert_cmpint (url_state (project, crawl_id, url, &stored_reason), ==, state);
  if (reason != NULL)
    g_assert_cmpstr (stored_reason, ==, reason);
}

static guint
count_urls (CgProject *project,
            gint64     crawl_id,
            CgUrlState state)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (cg_project_get_store (project),
                                                   "SELECT count(*) FROM urls WHERE crawl_id = ?1 AND state = ?2",
                                                   &error);

  g_assert_no_error (error);
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  sqlite3_bind_int (stmt, 2, state);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  return (guint) sqlite3_column_int (stmt, 0);
}

/* Each fetch row names a WARC file and offset where CgWarcReader finds
 * that very record. Returns the number of rows. */
static guint
assert_fetches_point_at_records (CgProject *project,
                                 gint64     crawl_id)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *warc_dir = cg_project_get_warc_dir (project);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  guint rows = 0;

  stmt = cg_store_prepare (cg_project_get_store (project),
                           "SELECT u.url, w.name, f.warc_offset, f.warc_length, f.warc_record_id, "
                           "  f.record_type, f.status FROM fetches f JOIN urls u ON u.id = f.url_id "
                           "JOIN warc_files w ON w.id = f.warc_file_id WHERE f.crawl_id = ?1",
                           &error);
  g_assert_no_error (error);
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      const char *url = (const char *) sqlite3_column_text (stmt, 0);
      g_autofree char *path = g_build_filename (warc_dir, (const char *) sqlite3_column_text (stmt, 1), NULL);
      g_autoptr(CgWarcReader) reader = cg_warc_reader_new (path, &error);
      g_autoptr(CgWarcRecord) record = NULL;
      g_autoptr(CgWarcHttpMessage) http = NULL;

      g_assert_no_error (error);
      record = cg_warc_reader_read_at (reader, (guint64) sqlite3_column_int64 (stmt, 2), &error);
      g_assert_no_error (error);
      g_assert_nonnull (record);
      g_assert_cmpstr (cg_warc_record_get_target_uri (record), ==, url);
      g_assert_cmpuint (cg_warc_record_get_length (record), ==, (guint64) sqlite3_column_int64 (stmt, 3));
      g_assert_cmpstr (cg_warc_record_get_record_id (record), ==, (const char *) sqlite3_column_text (stmt, 4));
      g_assert_cmpstr (cg_warc_record_get_type_name (record), ==, (const char *) sqlite3_column_text (stmt, 5));
      http = cg_warc_record_parse_http (record, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (http->status, ==, (guint) sqlite3_column_int (stmt, 6));
      rows++;
    }
  return rows;
}

static char *
read_text_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  return contents;
}

/* The crawl log: one line per URL, each with Heritrix's twelve fields.
 * Returns the lines by URL (the fields of each, as a GStrv). */
static GHashTable *
read_crawl_log (CgProject *project,
                gint64     crawl_id)
{
  g_autofree char *name = g_strdup_printf ("crawl-%" G_GINT64_FORMAT ".log", crawl_id);
  g_autofree char *path = g_build_filename (cg_project_get_folder (project), "logs", name, NULL);
  g_autofree char *text = read_text_file (path);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GHashTable *by_url = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_strfreev);
  g_autoptr(GRegex) timestamp = g_regex_new ("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$", 0, 0, NULL);
  g_autoptr(GRegex) fetch_time = g_regex_new ("^(-|\\d{17}\\+\\d+)$", 0, 0, NULL);

  g_assert_true (g_str_has_suffix (text, "\n"));
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_auto(GStrv) words = g_strsplit (lines[i], " ", -1);
      GStrv fields;

      /* Fields are separated by runs of spaces (status and size are
       * right-aligned). */
      for (guint j = 0; words[j] != NULL; j++)
        if (words[j][0] != '\0')
          g_strv_builder_add (builder, words[j]);
      fields = g_strv_builder_end (builder);
      if (g_strv_length (fields) != 12)
        g_error ("crawl log line %u has %u fields, not 12: %s", i + 1, g_strv_length (fields), lines[i]);
      g_assert_true (g_regex_match (timestamp, fields[0], 0, NULL));
      g_assert_true (fields[1][0] == '-' || g_ascii_isdigit (fields[1][0]));
      g_assert_true (g_str_equal (fields[2], "-") || g_ascii_isdigit (fields[2][0]));
      g_assert_true (g_str_has_prefix (fields[3], "http://"));
      g_assert_true (g_str_has_prefix (fields[7], "#"));
      g_assert_true (g_regex_match (fetch_time, fields[8], 0, NULL));
      g_assert_true (g_str_equal (fields[9], "-") || g_str_has_prefix (fields[9], "sha1:"));
      if (g_hash_table_contains (by_url, fields[3]))
        g_error ("the crawl log has two lines for %s", fields[3]);
      g_hash_table_insert (by_url, g_strdup (fields[3]), fields);
    }
  return by_url;
}

/* A header of the HTTP response in @record, and its payload. */
static char *
response_header (CgWarcRecord *record,
                 const char   *name,
                 GBytes      **out_payload)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgWarcHttpMessage) http = cg_warc_record_parse_http (record, &error);

  g_assert_no_error (error);
  if (out_payload != NULL)
    *out_payload = g_bytes_ref (http->payload);
  return g_strdup (soup_message_headers_get_one (http->headers, name));
}

/* Reads the WARC files of the project in @folder back with warcio, the
 * independent reader from npm, through tests/tools/warcio-validate.mjs
 * (`npm ci --prefix tests` installs it). Without node or warcio this
 * check is skipped, except under CI, where it fails. */
static void
validate_with_warcio (const char *folder)
{
  const char *root = g_getenv ("CARTOGRAPH_SOURCE_ROOT");
  g_autofree char *node = g_find_program_in_path ("node");
  g_autofree char *validator = NULL;
  g_autofree char *warcio = NULL;
  g_autofree char *warc_dir = g_build_filename (folder, CG_PROJECT_WARC_DIR, NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) dir = g_dir_open (warc_dir, 0, NULL);
  g_autoptr(GError) error = NULL;
  const char *missing = NULL;
  const char *name;
  int status;

  if (root != NULL)
    {
      validator = g_build_filename (root, "tests", "tools", "warcio-validate.mjs", NULL);
      warcio = g_build_filename (root, "tests", "node_modules", "warcio", "package.json", NULL);
    }
  if (root == NULL)
    missing = "CARTOGRAPH_SOURCE_ROOT is not set";
  else if (node == NULL)
    missing = "node is not installed";
  else if (!g_file_test (warcio, G_FILE_TEST_EXISTS))
    missing = "warcio is not installed (run: npm ci --prefix tests)";
  if (missing != NULL)
    {
      if (g_strcmp0 (g_getenv ("CI"), "true") == 0)
        g_error ("warcio cannot read the WARC files back: %s", missing);
      g_test_message ("WARC files not read back by warcio: %s", missing);
      return;
    }

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".warc.gz"))
      g_ptr_array_add (names, g_build_filename (warc_dir, name, NULL));
  if (names->len == 0)
    return;
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  g_ptr_array_add (argv, g_strdup (node));
  g_ptr_array_add (argv, g_strdup (validator));
  for (guint i = 0; i < names->len; i++)
    g_ptr_array_add (argv, g_strdup (g_ptr_array_index (names, i)));
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, &error))
    g_error ("warcio rejects the WARC files of %s: %s%s", folder, out, err);
  g_test_message ("%s", g_strstrip (out));
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */

/* The names of the crawl's WARC files in warc/, sorted. */
static GPtrArray *
warc_files_of (CgProject *project,
               gint64     crawl_id)
{
  g_autofree char *warc_dir = cg_project_get_warc_dir (project);
  g_autofree char *prefix = g_strdup_printf ("cartograph-%" G_GINT64_FORMAT "-", crawl_id);
  g_autoptr(GDir) dir = g_dir_open (warc_dir, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, prefix) && g_str_has_suffix (name, ".warc.gz"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  return names;
}

/* The CDXJ index each WARC file of the crawl got as it was written is the
 * one read back from the file: the crawl gives the writer each response's
 * status and type (see write_job()), and these are what the header blocks
 * archived say. */
static void
assert_index_as_read_back (CgProject *project,
                           gint64     crawl_id)
{
  g_autoptr(GPtrArray) files = warc_files_of (project, crawl_id);
  g_autofree char *warc_dir = cg_project_get_warc_dir (project);

  g_assert_cmpuint (files->len, >, 0);
  for (guint i = 0; i < files->len; i++)
    {
      g_autofree char *warc_path = g_build_filename (warc_dir, g_ptr_array_index (files, i), NULL);
      g_autofree char *index_path = cg_cdxj_path_for_warc (warc_path);
      g_autofree char *read_back_path = g_strconcat (warc_path, ".read-back.cdxj", NULL);
      g_autoptr(GBytes) index = cg_test_read_file (index_path);
      g_autoptr(GBytes) read_back = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_true (cg_cdxj_index_warc_file (warc_path, read_back_path, &error));
      g_assert_no_error (error);
      read_back = cg_test_read_file (read_back_path);
      /* g_file_get_contents() ends both with a NUL. */
      g_assert_cmpstr (g_bytes_get_data (index, NULL), ==, g_bytes_get_data (read_back, NULL));
      g_assert_cmpint (g_remove (read_back_path), ==, 0);
    }
}

/* The whole site with politeness on: every page once, robots.txt first
 * and obeyed, one request at a time with the delay between them,
 * redirects and loops followed once, the body cap and a gzip bomb
 * survived, and the archive, the store and the log agree. */
static void
test_polite_crawl (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(CgCrawlConfig) config = site_config (f);
  g_autoptr(GPtrArray) paths = expected_paths (f, TRUE);
  g_autoptr(GHashTable) archive = NULL;
  g_autoptr(GHashTable) log = NULL;
  g_autofree char *warcinfo = NULL;
  g_autofree char *off_host = g_strdup_printf ("http://localhost:%u/page/1", f->port);
  g_autofree char *robots = url_for (f, "/robots.txt");
  GHashTableIter iter;
  const char *path;
  Archived *archived;
  GBytes *payload = NULL;
  g_auto(Run) run = { 0 };
  gint64 crawl_id;
  guint fetch_rows;

  config->min_delay = MIN_DELAY_S;
  config->max_delay = MIN_DELAY_S;
  config->delay_factor = 0;
  config->max_per_host = 1;
  crawl_id = crawl_site (f, config, &run);

  /* Fetched: each page once, robots.txt first, nothing robots.txt keeps
   * out, nothing of another host. */
  for (guint i = 0; i < paths->len; i++)
    g_assert_cmpuint (hits (f, g_ptr_array_index (paths, i)), ==, 1);
  g_assert_cmpuint (hits (f, "/robots.txt"), ==, 1);
  g_assert_cmpuint (g_hash_table_size (f->hits), ==, paths->len + 1);
  g_assert_cmpstr (((Request *) g_ptr_array_index (f->requests, 0))->path, ==, "/robots.txt");
  for (guint i = 0; i < N_PRIVATE; i++)
    {
      g_autofree char *private = g_strdup_printf ("/private/%u", i);
      g_autofree char *url = url_for (f, private);

      g_assert_cmpuint (hits (f, private), ==, 0);
      assert_url_state (f->project, crawl_id, url, CG_URL_SKIPPED, "robots");
    }
  g_assert_cmpuint (run.events[CG_CRAWL_EVENT_ROBOTS], ==, N_PRIVATE);
  for (guint i = 0; i < f->requests->len; i++)
    g_assert_cmpstr (((Request *) g_ptr_array_index (f->requests, i))->host, ==, f->base + strlen ("http://"));
  assert_url_state (f->project, crawl_id, off_host, CG_URL_SKIPPED, "off-host");

  /* Politeness: never two requests at once, and at least the delay
   * between one request and the next (a lower bound on intervals the
   * server measured, not a timing of the crawl). */
  g_assert_cmpuint (f->max_in_flight, ==, 1);
  for (guint i = 1; i < f->requests->len; i++)
    {
      Request *before = g_ptr_array_index (f->requests, i - 1);
      Request *after = g_ptr_array_index (f->requests, i);

      g_assert_cmpint (before->finished_us, >, 0);
      g_assert_cmpint (after->arrived_us, >=, before->finished_us);
      /* 2 ms for the crawler's wall clock against the test's monotonic one. */
      if (after->arrived_us - before->arrived_us < (gint64) (MIN_DELAY_S * G_USEC_PER_SEC) - 2000)
        g_error ("%s came %.3f s after %s, less than the delay of %.3f s", after->path,
                 (after->arrived_us - before->arrived_us) / (double) G_USEC_PER_SEC, before->path, MIN_DELAY_S);
    }

  /* Archived: each page once, and robots.txt. */
  archive = read_archive (f->project, crawl_id, &warcinfo);
  assert_archived_once (f, archive, paths, TRUE);
  assert_index_as_read_back (f->project, crawl_id);
  g_assert_nonnull (strstr (warcinfo, "robots: obey\r\n"));
  g_assert_nonnull (strstr (warcinfo, "\r\nhttp-headers: rebuilt from the parsed headers"));
  {
    g_autoptr(CgGzipCompressor) compressor = cg_gzip_compressor_new (CG_WARC_WRITER_DEFAULT_COMPRESSION_LEVEL);
    g_autofree char *compression = g_strdup_printf ("compression: gzip, one member per record, %s\r\n",
                                                    cg_gzip_compressor_describe (compressor));

    g_assert_nonnull (strstr (warcinfo, compression));
  }
  g_assert_cmpuint (count_urls (f->project, crawl_id, CG_URL_DONE), ==, paths->len);
  g_assert_cmpuint (count_urls (f->project, crawl_id, CG_URL_QUEUED), ==, 0);
  g_assert_cmpuint (count_urls (f->project, crawl_id, CG_URL_IN_FLIGHT), ==, 0);
  g_assert_cmpuint (count_urls (f->project, crawl_id, CG_URL_FAILED), ==, 0);

  /* Redirects are archived as they came, and their targets once. */
  {
    g_autofree char *a = url_for (f, "/redirect/a");
    g_autofree char *loop = url_for (f, "/loop/b");

    g_autofree char *location_a = NULL;
    g_autofree char *location_loop = NULL;

    archived = g_hash_table_lookup (archive, a);
    location_a = response_header (archived->response, "Location", NULL);
    g_assert_cmpstr (location_a, ==, "/redirect/b");
    archived = g_hash_table_lookup (archive, loop);
    location_loop = response_header (archived->response, "Location", NULL);
    g_assert_cmpstr (location_loop, ==, "/loop/a");
  }

  /* The page past the body limit is cut there and says so. */
  {
    g_autofree char *big = url_for (f, "/big");
    g_autofree char *type = NULL;

    archived = g_hash_table_lookup (archive, big);
    g_assert_cmpstr (cg_warc_record_get_header (archived->response, "WARC-Truncated"), ==, "length");
    type = response_header (archived->response, "Content-Type", &payload);
    g_assert_cmpstr (type, ==, "text/html");
    g_assert_cmpuint (g_bytes_get_size (payload), ==, BODY_LIMIT);
    g_clear_pointer (&payload, g_bytes_unref);
  }

  /* The gzip bomb is kept as sent (its compressed bytes, well under the
   * body limit); the crawl went on past it, as the counts above show. */
  {
    g_autofree char *bomb = url_for (f, "/bomb");
    g_autofree char *encoding = NULL;

    archived = g_hash_table_lookup (archive, bomb);
    encoding = response_header (archived->response, "Content-Encoding", &payload);
    g_assert_cmpstr (encoding, ==, "gzip");
    g_assert_true (g_bytes_equal (payload, f->bomb));
    g_assert_null (cg_warc_record_get_header (archived->response, "WARC-Truncated"));
    g_clear_pointer (&payload, g_bytes_unref);
  }

  /* The gzip page is archived compressed, and its links were read
   * (/from-gzip is linked from it only). */
  {
    g_autofree char *gz = url_for (f, "/gzip-page");
    g_autofree char *encoding = NULL;

    archived = g_hash_table_lookup (archive, gz);
    encoding = response_header (archived->response, "Content-Encoding", &payload);
    g_assert_cmpstr (encoding, ==, "gzip");
    g_assert_true (g_bytes_equal (payload, f->gzip_page));
    g_clear_pointer (&payload, g_bytes_unref);
  }

  /* The store: each fetch row points at its record. */
  fetch_rows = assert_fetches_point_at_records (f->project, crawl_id);
  g_assert_cmpuint (fetch_rows, ==, paths->len);

  /* The log: one line per URL dealt with, robots.txt and the URLs it kept
   * out included. */
  log = read_crawl_log (f->project, crawl_id);
  g_assert_cmpuint (g_hash_table_size (log), ==, paths->len + 1 + N_PRIVATE);
  {
    GStrv fields = g_hash_table_lookup (log, robots);

    g_assert_nonnull (fields);
    g_assert_cmpstr (fields[1], ==, "200");
    g_assert_cmpstr (fields[4], ==, "P");
    /* Logged once archived: with its digest, and its attempts. */
    g_assert_true (g_str_has_prefix (fields[9], "sha1:"));
    g_assert_cmpstr (fields[11], ==, "1t");
  }
  g_hash_table_iter_init (&iter, archive);
  while (g_hash_table_iter_next (&iter, (gpointer *) &path, (gpointer *) &archived))
    {
      GStrv fields = g_hash_table_lookup (log, path);
      g_autoptr(CgWarcHttpMessage) http = cg_warc_record_parse_http (archived->response, NULL);
      g_autofree char *status = g_strdup_printf ("%u", http->status);

      g_assert_nonnull (fields);
      g_assert_cmpstr (fields[1], ==, status);
    }
  for (guint i = 0; i < N_PRIVATE; i++)
    {
      g_autofree char *private = g_strdup_printf ("/private/%u", i);
      g_autofree char *url = url_for (f, private);
      GStrv fields = g_hash_table_lookup (log, url);
      g_autofree char *status = g_strdup_printf ("%d", CG_FETCH_STATUS_ROBOTS);

      g_assert_nonnull (fields);
      g_assert_cmpstr (fields[1], ==, status);
      g_assert_cmpstr (fields[2], ==, "-");
      /* Heritrix's word for no type. */
      g_assert_cmpstr (fields[6], ==, "no-type");
    }
  /* The page cut at the body limit is annotated as Heritrix does. */
  {
    g_autofree char *big = url_for (f, "/big");
    GStrv fields = g_hash_table_lookup (log, big);

    g_assert_nonnull (fields);
    g_assert_cmpstr (fields[11], ==, "lenTrunc,1t");
  }
}

/* With robots.txt ignored, what it disallows is fetched, and the WARC
 * files say how they were made. */
static void
test_ignore_robots (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(CgCrawlConfig) config = site_config (f);
  g_autoptr(GHashTable) archive = NULL;
  g_autofree char *warcinfo = NULL;
  g_auto(Run) run = { 0 };
  gint64 crawl_id;

  config->obey_robots = FALSE;
  /* Not the default level, which the polite crawl checks. */
  config->compression_level = 9;
  crawl_id = crawl_site (f, config, &run);

  archive = read_archive (f->project, crawl_id, &warcinfo);
  g_assert_nonnull (strstr (warcinfo, "robots: ignore\r\n"));
  g_assert_null (strstr (warcinfo, "robots: obey"));
  g_assert_nonnull (strstr (warcinfo, "compression: gzip, one member per record, libdeflate level 9\r\n"));
  for (guint i = 0; i < N_PRIVATE; i++)
    {
      g_autofree char *private = g_strdup_printf ("/private/%u", i);
      g_autofree char *url = url_for (f, private);

      g_assert_cmpuint (hits (f, private), ==, 1);
      g_assert_cmpuint (responses_of (archive, url), ==, 1);
      assert_url_state (f->project, crawl_id, url, CG_URL_DONE, NULL);
    }
  g_assert_cmpuint (run.events[CG_CRAWL_EVENT_ROBOTS], ==, 0);
}

/* Without requisites, stylesheets and images are recorded but never
 * requested; the pages are all there. */
static void
test_no_requisites (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(CgCrawlConfig) config = site_config (f);
  g_autoptr(GPtrArray) paths = expected_paths (f, FALSE);
  g_autoptr(GHashTable) archive = NULL;
  g_autofree char *css = url_for (f, "/style.css");
  g_auto(Run) run = { 0 };
  gint64 crawl_id;

  config->requisites = FALSE;
  crawl_id = crawl_site (f, config, &run);

  g_assert_cmpuint (hits (f, "/style.css"), ==, 0);
  g_assert_cmpuint (hits (f, "/img/bg.png"), ==, 0);
  for (guint i = 0; i < N_IMAGES; i++)
    {
      g_autofree char *image = g_strdup_printf ("/img/%u.png", i);
      g_autofree char *url = url_for (f, image);

      g_assert_cmpuint (hits (f, image), ==, 0);
      assert_url_state (f->project, crawl_id, url, CG_URL_SKIPPED, "requisites-off");
    }
  assert_url_state (f->project, crawl_id, css, CG_URL_SKIPPED, "requisites-off");
  archive = read_archive (f->project, crawl_id, NULL);
  assert_archived_once (f, archive, paths, TRUE);
}

/* Without requisites, an image the home page shows is skipped, but a page
 * that links to it has it fetched, once, as a page: it was skipped for
 * the way it was first reached. */
static void
test_no_requisites_linked_image (Fixture       *f,
                                 gconstpointer  data)
{
  g_autoptr(CgCrawlConfig) config = site_config (f);
  g_autoptr(GPtrArray) paths = expected_paths (f, FALSE);
  g_autoptr(GHashTable) archive = NULL;
  g_autofree char *logo = url_for (f, "/img/0.png");
  g_autofree char *other = url_for (f, "/img/1.png");
  g_auto(Run) run = { 0 };
  gint64 crawl_id;

  config->requisites = FALSE;
  crawl_id = crawl_site (f, config, &run);

  g_assert_cmpuint (hits (f, "/img/0.png"), ==, 1);
  assert_url_state (f->project, crawl_id, logo, CG_URL_DONE, NULL);
  g_assert_cmpuint (hits (f, "/img/1.png"), ==, 0);
  assert_url_state (f->project, crawl_id, other, CG_URL_SKIPPED, "requisites-off");
  g_ptr_array_add (paths, g_strdup ("/img/0.png"));
  archive = read_archive (f->project, crawl_id, NULL);
  assert_archived_once (f, archive, paths, TRUE);
}

/* A page limit ends the crawl as a limit, not as done, a few pages past
 * the limit at most (the fetches already under way). */
static void
test_max_pages (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(CgCrawlConfig) config = site_config (f);
  g_autoptr(CgCrawler) crawler = NULL;
  g_autoptr(GHashTable) archive = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  guint pages = 0;
  g_auto(Run) run = { 0 };

  config->max_pages = 5;
  crawler = new_crawler (f, NULL, config);
  run_crawler (f, crawler, &run);
  g_assert_no_error (run.error);
  g_assert_cmpint (run.end, ==, CG_CRAWL_END_LIMIT);
  g_assert_cmpuint (run.events[CG_CRAWL_EVENT_LIMIT], ==, 1);

  stmt = cg_store_prepare (cg_project_get_store (f->project),
                           "SELECT count(*) FROM fetches WHERE crawl_id = ?1 AND mime = 'text/html'", &error);
  g_assert_no_error (error);
  sqlite3_bind_int64 (stmt, 1, cg_crawler_get_crawl_id (crawler));
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  pages = (guint) sqlite3_column_int (stmt, 0);
  g_assert_cmpuint (pages, >=, 5);
  g_assert_cmpuint (pages, <=, 5 + config->max_connections);
  g_assert_cmpuint (count_urls (f->project, cg_crawler_get_crawl_id (crawler), CG_URL_QUEUED), >, 0);

  /* What was fetched was archived, once. */
  archive = read_archive (f->project, cg_crawler_get_crawl_id (crawler), NULL);
  g_assert_cmpuint (assert_fetches_point_at_records (f->project, cg_crawler_get_crawl_id (crawler)), ==,
                    g_hash_table_size (archive) - 1);
  {
    GHashTableIter iter;
    Archived *archived;

    g_hash_table_iter_init (&iter, archive);
    while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &archived))
      g_assert_cmpuint (archived->responses, ==, 1);
  }
}

/* Depth and exclusion: pages one link from the seed are fetched, those
 * further are recorded as too deep, excluded ones are never fetched;
 * requisites of the last pages still are. */
static void
test_scope_rules (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(CgCrawlConfig) config = site_config (f);
  g_autoptr(GHashTable) archive = NULL;
  g_auto(Run) run = { 0 };
  gint64 crawl_id;

  config->max_depth = 1;
  g_strfreev (config->exclude_regexes);
  config->exclude_regexes = g_new0 (char *, 2);
  config->exclude_regexes[0] = g_strdup ("/page/[0-4]$");
  crawl_id = crawl_site (f, config, &run);
  archive = read_archive (f->project, crawl_id, NULL);

  for (guint i = 0; i < N_PAGES; i++)
    {
      g_autofree char *path = g_strdup_printf ("/page/%u", i);
      g_autofree char *url = url_for (f, path);

      if (i < 5)
        {
          g_assert_cmpuint (hits (f, path), ==, 0);
          assert_url_state (f->project, crawl_id, url, CG_URL_SKIPPED, "excluded-by-regex");
        }
      else if (i < 10 || i == 39)
        {
          /* Page 39 is where /redirect/a leads, and a redirect is no
           * hop further from the seed. */
          g_assert_cmpuint (hits (f, path), ==, 1);
          g_assert_cmpuint (responses_of (archive, url), ==, 1);
        }
      else
        {
          g_assert_cmpuint (hits (f, path), ==, 0);
          /* Pages 10 to 14 are linked from pages 0 to 4 only, which were
           * never fetched: the crawl never saw them. */
          if (i >= 15 && i < 20)
            assert_url_state (f->project, crawl_id, url, CG_URL_SKIPPED, "too-deep");
        }
    }
  /* The images of the depth-1 pages are one hop further, within the
   * requisites' allowance; the stylesheet's image one more. */
  g_assert_cmpuint (hits (f, "/style.css"), ==, 1);
  g_assert_cmpuint (hits (f, "/img/bg.png"), ==, 1);
  for (guint i = 0; i < N_IMAGES; i++)
    {
      g_autofree char *image = g_strdup_printf ("/img/%u.png", i);

      g_assert_cmpuint (hits (f, image), ==, 1);
    }
}

/* Stopped in the middle, then resumed by a new crawler for the same
 * crawl: every page is archived once. A page in flight at the stop may be
 * asked for again, but only those. */
static void
test_stop_and_resume (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(CgCrawlConfig) config = site_config (f);
  g_autoptr(GPtrArray) paths = expected_paths (f, TRUE);
  g_autoptr(CgCrawler) crawler = NULL;
  g_autoptr(CgCrawler) resumed = NULL;
  g_autoptr(GHashTable) archive = NULL;
  g_autoptr(GHashTable) log = NULL;
  g_autoptr(GError) error = NULL;
  GHashTableIter iter;
  gpointer count;
  guint requests_before, twice = 0;
  gint64 crawl_id;
  g_auto(Run) run = { 0 };

  /* Each page's records in a file of their own: a file is full after
   * its first record, and the records of one page are not split. */
  if (f->flags & SMALL_WARCS)
    config->warc_max_size = 1;
  f->stop_after = 12;
  crawler = new_crawler (f, NULL, config);
  crawl_id = cg_crawler_get_crawl_id (crawler);
  run_crawler (f, crawler, &run);
  g_assert_no_error (run.error);
  g_assert_cmpint (run.end, ==, CG_CRAWL_END_STOPPED);
  g_assert_cmpuint (count_urls (f->project, crawl_id, CG_URL_DONE), <, paths->len);
  requests_before = f->requests->len;
  f->stop_after = 0;

  /* The crawl is not finished: it is the one to resume. */
  g_assert_cmpint (cg_crawler_find_resumable (f->project, &error), ==, crawl_id);
  g_assert_no_error (error);
  resumed = cg_crawler_new_for_crawl (f->project, crawl_id, &error);
  g_assert_no_error (error);
  g_assert_cmpint (cg_crawler_get_crawl_id (resumed), ==, crawl_id);
  run_crawler (f, resumed, &run);
  g_assert_no_error (run.error);
  g_assert_cmpint (run.end, ==, CG_CRAWL_END_DONE);
  g_assert_cmpuint (f->requests->len, >, requests_before);

  archive = read_archive (f->project, crawl_id, NULL);
  assert_archived_once (f, archive, paths, TRUE);
  g_assert_cmpuint (assert_fetches_point_at_records (f->project, crawl_id), ==, paths->len);
  if (f->flags & SMALL_WARCS)
    g_assert_cmpuint (assert_one_exchange_per_file (f->project, crawl_id), ==, paths->len + 1);
  g_hash_table_iter_init (&iter, f->hits);
  while (g_hash_table_iter_next (&iter, NULL, &count))
    {
      g_assert_cmpuint (GPOINTER_TO_UINT (count), <=, 2);
      twice += GPOINTER_TO_UINT (count) == 2;
    }
  g_assert_cmpuint (twice, <=, config->max_connections);
  g_assert_cmpuint (hits (f, "/robots.txt"), ==, 1);

  /* Both runs wrote to one log, a line per URL. */
  log = read_crawl_log (f->project, crawl_id);
  g_assert_cmpuint (g_hash_table_size (log), ==, paths->len + 1 + N_PRIVATE);

  /* A finished crawl cannot be resumed. */
  g_assert_cmpint (cg_crawler_find_resumable (f->project, &error), ==, 0);
  g_assert_error (error, CG_CRAWLER_ERROR, CG_CRAWLER_ERROR_FINISHED);
}

/* Pages of one payload, fetched at once (several requests to the host in
 * flight): the first written is archived whole, each other as a revisit
 * that refers to it, though none was in the store when the others were
 * fetched. */
static void
test_copies (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(CgCrawlConfig) config = site_config (f);
  g_autoptr(GPtrArray) paths = expected_paths (f, TRUE);
  g_autoptr(GHashTable) archive = NULL;
  g_auto(Run) run = { 0 };
  CgWarcRecord *original = NULL;
  guint revisits = 0;
  gint64 crawl_id;

  config->max_per_host = 4;
  crawl_id = crawl_site (f, config, &run);
  archive = read_archive (f->project, crawl_id, NULL);
  assert_archived_once (f, archive, paths, TRUE);
  g_assert_cmpuint (assert_fetches_point_at_records (f->project, crawl_id), ==, paths->len);
  assert_index_as_read_back (f->project, crawl_id);

  for (guint i = 0; i < N_COPIES; i++)
    {
      g_autofree char *path = g_strdup_printf ("/copy/%u", i);
      g_autofree char *url = url_for (f, path);
      Archived *archived = g_hash_table_lookup (archive, url);

      if (cg_warc_record_get_record_type (archived->response) == CG_WARC_RECORD_RESPONSE)
        {
          g_assert_null (original);
          original = archived->response;
        }
    }
  g_assert_nonnull (original);
  for (guint i = 0; i < N_COPIES; i++)
    {
      g_autofree char *path = g_strdup_printf ("/copy/%u", i);
      g_autofree char *url = url_for (f, path);
      Archived *archived = g_hash_table_lookup (archive, url);

      if (archived->response == original)
        continue;
      revisits++;
      g_assert_cmpint (cg_warc_record_get_record_type (archived->response), ==, CG_WARC_RECORD_REVISIT);
      g_assert_cmpstr (cg_warc_record_get_header (archived->response, "WARC-Payload-Digest"), ==,
                       cg_warc_record_get_header (original, "WARC-Payload-Digest"));
      g_assert_cmpstr (cg_warc_record_get_header (archived->response, "WARC-Refers-To-Target-URI"), ==,
                       cg_warc_record_get_target_uri (original));
      g_assert_cmpstr (cg_warc_record_get_header (archived->response, "WARC-Refers-To-Date"), ==,
                       cg_warc_record_get_date_string (original));
    }
  g_assert_cmpuint (revisits, ==, N_COPIES - 1);
}


/* A store restored from a backup no longer knows a crawl whose files are
 * in warc/ (and whose log is in logs/): the next crawl, which takes its
 * number, moves them aside instead of deleting them as its own unfinished
 * work, and ends whole. A
 * crawl whose file is gone is not resumed: its pages would be lost. */
static void
test_unlisted_and_missing_files (Fixture       *f,
                                 gconstpointer  data)
{
  g_autoptr(CgCrawlConfig) config = site_config (f);
  g_autoptr(GPtrArray) paths = expected_paths (f, TRUE);
  g_autoptr(CgCrawler) crawler = NULL;
  g_autoptr(CgCrawler) resumed = NULL;
  g_autoptr(GHashTable) archive = NULL;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *warc_dir = cg_project_get_warc_dir (f->project);
  g_autofree char *earlier = NULL;
  g_autofree char *first = NULL;
  g_autofree char *aside = NULL;
  g_auto(Run) run = { 0 };
  gint64 crawl_id;

  crawl_id = crawl_site (f, config, &run);
  files = warc_files_of (f->project, crawl_id);
  g_assert_cmpuint (files->len, ==, 1);
  earlier = g_strdup (g_ptr_array_index (files, 0));
  /* The store as it was before that crawl. */
  g_assert_true (cg_store_exec (cg_project_get_store (f->project),
                                "PRAGMA foreign_keys = OFF;"
                                "DELETE FROM outlinks; DELETE FROM fetches; DELETE FROM warc_files;"
                                "DELETE FROM urls; DELETE FROM hosts; DELETE FROM crawls;"
                                "PRAGMA foreign_keys = ON;",
                                &error));
  g_assert_no_error (error);

  g_assert_cmpint (crawl_site (f, config, &run), ==, crawl_id);
  /* The WARC file and the crawl log of the earlier crawl moved aside. */
  g_assert_cmpuint (run.events[CG_CRAWL_EVENT_REPAIRED], ==, 2);
  {
    g_autofree char *orphaned = g_build_filename (warc_dir, "orphaned", NULL);
    g_autoptr(GDir) dir = g_dir_open (orphaned, 0, NULL);
    const char *stamp;

    g_assert_nonnull (dir);
    stamp = g_dir_read_name (dir);
    g_assert_nonnull (stamp);
    aside = g_build_filename (orphaned, stamp, earlier, NULL);
  }
  g_assert_true (g_file_test (aside, G_FILE_TEST_IS_REGULAR));
  {
    g_autofree char *aside_index = cg_cdxj_path_for_warc (aside);

    g_assert_true (g_file_test (aside_index, G_FILE_TEST_IS_REGULAR));
  }
  archive = read_archive (f->project, crawl_id, NULL);
  assert_archived_once (f, archive, paths, TRUE);

  /* A file of a stopped crawl gone: resuming refuses, naming it. */
  f->stop_after = f->requests->len + 12;
  g_clear_object (&crawler);
  crawler = new_crawler (f, NULL, config);
  crawl_id = cg_crawler_get_crawl_id (crawler);
  run_crawler (f, crawler, &run);
  g_assert_cmpint (run.end, ==, CG_CRAWL_END_STOPPED);
  f->stop_after = 0;
  g_clear_object (&crawler);
  g_ptr_array_unref (files);
  files = warc_files_of (f->project, crawl_id);
  g_assert_cmpuint (files->len, ==, 1);
  g_free (first);
  first = g_build_filename (warc_dir, g_ptr_array_index (files, 0), NULL);
  g_assert_cmpint (g_remove (first), ==, 0);
  resumed = cg_crawler_new_for_crawl (f->project, crawl_id, &error);
  g_assert_no_error (error);
  run_crawler (f, resumed, &run);
  g_assert_cmpint (run.end, ==, CG_CRAWL_END_FAILED);
  g_assert_error (run.error, CG_CRAWLER_ERROR, CG_CRAWLER_ERROR_WARC);
  g_assert_nonnull (strstr (run.error->message, first));
  g_assert_nonnull (strstr (run.error->message, "is missing"));
}

/* Another crawl's files are no business of a crawl, though their names
 * start with its own prefix ("shop-2-…" for crawl 2 of "shop"). */
static void
test_overlapping_prefixes (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(CgCrawlConfig) first_config = site_config (f);
  g_autoptr(CgCrawlConfig) second_config = site_config (f);
  g_autofree char *warc_dir = cg_project_get_warc_dir (f->project);
  g_autoptr(GDir) dir = NULL;
  g_auto(Run) run = { 0 };
  const char *name;
  guint first_files = 0;
  gint64 first_id, second_id;

  g_free (first_config->warc_prefix);
  first_config->warc_prefix = g_strdup ("shop-2");
  first_id = crawl_site (f, first_config, &run);
  g_assert_cmpint (first_id, ==, 1);
  g_free (second_config->warc_prefix);
  second_config->warc_prefix = g_strdup ("shop");
  second_id = crawl_site (f, second_config, &run);
  g_assert_cmpint (second_id, ==, 2);
  g_assert_cmpuint (run.events[CG_CRAWL_EVENT_REPAIRED], ==, 0);

  dir = g_dir_open (warc_dir, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    first_files += g_str_has_prefix (name, "shop-2-1-") && g_str_has_suffix (name, ".warc.gz");
  g_assert_cmpuint (first_files, ==, 1);
  g_assert_cmpuint (assert_fetches_point_at_records (f->project, first_id), >, 0);
}

static void
copy_tree (const char *from,
           const char *to)
{
  g_autoptr(GDir) dir = g_dir_open (from, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  g_assert_cmpint (g_mkdir_with_parents (to, 0755), ==, 0);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *source = g_build_filename (from, name, NULL);
      g_autofree char *target = g_build_filename (to, name, NULL);
      g_autoptr(GFile) source_file = g_file_new_for_path (source);
      g_autoptr(GFile) target_file = g_file_new_for_path (target);
      g_autoptr(GError) error = NULL;

      if (g_file_test (source, G_FILE_TEST_IS_DIR))
        copy_tree (source, target);
      else
        {
          g_file_copy (source_file, target_file, G_FILE_COPY_NONE, NULL, NULL, NULL, &error);
          g_assert_no_error (error);
        }
    }
}

/* Makes @name in the test folder a project as a crash would have left the
 * crawled one: the database as committed at the snapshot, the WARC files
 * with everything written since. */
static CgProject *
crashed_copy (Fixture    *f,
              const char *name)
{
  g_autofree char *folder = g_build_filename (f->dir, name, NULL);
  g_autofree char *warc = g_build_filename (f->folder, CG_PROJECT_WARC_DIR, NULL);
  g_autofree char *warc_copy = g_build_filename (folder, CG_PROJECT_WARC_DIR, NULL);
  g_autofree char *db_copy = g_build_filename (folder, CG_PROJECT_DATABASE_NAME, NULL);
  g_autoptr(GFile) snapshot = g_file_new_for_path (f->snapshot_path);
  g_autoptr(GFile) target = g_file_new_for_path (db_copy);
  g_autoptr(GError) error = NULL;
  CgProject *project;

  copy_tree (warc, warc_copy);
  g_file_copy (snapshot, target, G_FILE_COPY_NONE, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  project = cg_project_open (folder, &error);
  g_assert_no_error (error);

  /* What makes it a crash: a WARC file the database knows, open, and
   * longer than what was committed of it. */
  {
    g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (cg_project_get_store (project),
                                                     "SELECT name, committed_size FROM warc_files WHERE closed = 0",
                                                     &error);
    guint longer = 0;

    g_assert_no_error (error);
    while (sqlite3_step (stmt) == SQLITE_ROW)
      {
        g_autofree char *path = g_build_filename (warc_copy, (const char *) sqlite3_column_text (stmt, 0), NULL);
        GStatBuf st;

        g_assert_cmpint (g_stat (path, &st), ==, 0);
        longer += (guint64) st.st_size > (guint64) sqlite3_column_int64 (stmt, 1);
      }
    g_assert_cmpuint (longer, ==, 1);
  }
  return project;
}

static void
resume_crashed (Fixture   *f,
                CgProject *project,
                gint64     crawl_id,
                GPtrArray *paths)
{
  g_autoptr(CgCrawler) crawler = NULL;
  g_autoptr(GHashTable) archive = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(Run) run = { 0 };

  crawler = cg_crawler_new_for_crawl (project, crawl_id, &error);
  g_assert_no_error (error);
  run_crawler (f, crawler, &run);
  g_assert_no_error (run.error);
  g_assert_cmpint (run.end, ==, CG_CRAWL_END_DONE);
  /* The files held records the database never committed: cut. */
  g_assert_cmpuint (run.events[CG_CRAWL_EVENT_REPAIRED], ==, 1);

  archive = read_archive (project, crawl_id, NULL);
  assert_archived_once (f, archive, paths, TRUE);
  g_assert_cmpuint (assert_fetches_point_at_records (project, crawl_id), ==, paths->len);
  g_assert_cmpuint (count_urls (project, crawl_id, CG_URL_DONE), ==, paths->len);
  validate_with_warcio (cg_project_get_folder (project));
}

/* A crash in the middle of a crawl: the database as last committed, the
 * WARC files with records written after that. Resuming cuts them back and
 * archives every page once, also when another crawl of the project ran
 * in between. */
static void
test_resume_after_crash (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(CgCrawlConfig) config = site_config (f);
  g_autoptr(GPtrArray) paths = expected_paths (f, TRUE);
  g_autoptr(CgProject) plain = NULL;
  g_autoptr(CgProject) other_first = NULL;
  g_auto(Run) run = { 0 };
  gint64 crawl_id;

  /* A delay between requests, so that the crawl lasts a few seconds and
   * commits more than once (it commits about once a second): the
   * snapshot is taken after the first commit, and the crawl writes many
   * records after it. */
  config->max_connections = 2;
  config->max_per_host = 1;
  config->min_delay = 0.04;
  config->max_delay = 0.04;
  f->want_snapshot = TRUE;
  crawl_id = crawl_site (f, config, &run);
  g_assert_true (f->snapshot_taken);
  f->want_snapshot = FALSE;

  plain = crashed_copy (f, "crashed");
  resume_crashed (f, plain, crawl_id, paths);

  /* Another crawl runs to its end before the crashed one is resumed: it
   * must leave the crashed crawl's files for that crawl to repair. */
  other_first = crashed_copy (f, "crashed-then-other");
  {
    g_autoptr(CgCrawler) other = new_crawler (f, other_first, config);

    run_crawler (f, other, &run);
    g_assert_no_error (run.error);
    g_assert_cmpint (run.end, ==, CG_CRAWL_END_DONE);
    g_assert_cmpint (cg_crawler_get_crawl_id (other), !=, crawl_id);
  }
  resume_crashed (f, other_first, crawl_id, paths);
}

/* An endless chain of redirects to ever new URLs ends; so does the crawl. */
static void
test_redirect_chain (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(CgCrawlConfig) config = site_config (f);
  g_autoptr(GPtrArray) paths = expected_paths (f, TRUE);
  g_autoptr(GHashTable) archive = NULL;
  g_autofree char *past = g_strdup_printf ("%s/chain/%u", f->base, CG_FETCHER_MAX_REDIRECTS_LIMIT + 1);
  guint chain = 0;
  GHashTableIter iter;
  const char *path;
  g_auto(Run) run = { 0 };
  gint64 crawl_id;

  crawl_id = crawl_site (f, config, &run);
  g_hash_table_iter_init (&iter, f->hits);
  while (g_hash_table_iter_next (&iter, (gpointer *) &path, NULL))
    if (g_str_has_prefix (path, "/chain/"))
      {
        g_assert_cmpuint (hits (f, path), ==, 1);
        chain++;
      }
  /* /chain/0 and the redirects from it, as many as the fetcher follows. */
  g_assert_cmpuint (chain, ==, CG_FETCHER_MAX_REDIRECTS_LIMIT + 1);
  assert_url_state (f->project, crawl_id, past, CG_URL_SKIPPED, "too-many-redirects");

  /* The rest of the site is all there. */
  for (guint i = 0; i <= CG_FETCHER_MAX_REDIRECTS_LIMIT; i++)
    g_ptr_array_add (paths, g_strdup_printf ("/chain/%u", i));
  archive = read_archive (f->project, crawl_id, NULL);
  assert_archived_once (f, archive, paths, TRUE);
}

/* A page that never answers fails after its retries, one that stalls in
 * its body is archived as far as it came; the crawl goes on. */
static void
test_stalling_pages (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(CgCrawlConfig) config = site_config (f);
  g_autoptr(GPtrArray) paths = expected_paths (f, TRUE);
  g_autoptr(GHashTable) archive = NULL;
  g_autoptr(GHashTable) log = NULL;
  g_autofree char *stall = url_for (f, "/stall");
  g_autofree char *trickle = url_for (f, "/trickle");
  g_autofree char *timeout_status = g_strdup_printf ("%d", CG_FETCH_STATUS_TIMEOUT);
  GStrv fields;
  Archived *archived;
  g_auto(Run) run = { 0 };
  gint64 crawl_id;

  config->timeout = 1;
  crawl_id = crawl_site (f, config, &run);

  g_assert_cmpuint (hits (f, "/stall"), >=, 1);
  g_assert_cmpuint (hits (f, "/stall"), <=, CG_FETCHER_DEFAULT_MAX_ATTEMPTS);
  assert_url_state (f->project, crawl_id, stall, CG_URL_FAILED, NULL);
  g_assert_cmpuint (run.events[CG_CRAWL_EVENT_FETCH_FAILED], ==, 1);

  archive = read_archive (f->project, crawl_id, NULL);
  assert_archived_once (f, archive, paths, TRUE);
  archived = g_hash_table_lookup (archive, trickle);
  g_assert_cmpstr (cg_warc_record_get_header (archived->response, "WARC-Truncated"), ==, "time");

  log = read_crawl_log (f->project, crawl_id);
  fields = g_hash_table_lookup (log, stall);
  g_assert_nonnull (fields);
  g_assert_cmpstr (fields[1], ==, timeout_status);
  g_assert_cmpstr (fields[2], ==, "-");
  fields = g_hash_table_lookup (log, trickle);
  g_assert_nonnull (fields);
  g_assert_true (g_str_has_prefix (fields[11], "timeTrunc,"));
}

/* Under a bandwidth cap the crawl takes at least as long as its bytes
 * need at that rate, less the one second the bucket may hold and what
 * the last fetches brought in (a lower bound only). */
static void
test_bandwidth_cap (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(CgCrawlConfig) config = site_config (f);
  g_autoptr(GPtrArray) paths = expected_paths (f, TRUE);
  g_autoptr(GHashTable) archive = NULL;
  const guint64 rate = 100 * 1024;
  guint64 bytes = 0, largest = 0;
  double least;
  GHashTableIter iter;
  const char *uri;
  Archived *archived;
  g_auto(Run) run = { 0 };
  gint64 crawl_id;

  g_free (config->bandwidth);
  config->bandwidth = g_strdup ("* = 100K");
  config->max_connections = 2;
  config->max_per_host = 2;
  crawl_id = crawl_site (f, config, &run);

  archive = read_archive (f->project, crawl_id, NULL);
  assert_archived_once (f, archive, paths, TRUE);
  g_hash_table_iter_init (&iter, archive);
  while (g_hash_table_iter_next (&iter, (gpointer *) &uri, (gpointer *) &archived))
    {
      guint64 size;

      /* robots.txt is a prerequisite, not counted against the cap. */
      if (g_str_has_suffix (uri, "/robots.txt"))
        continue;
      size = g_bytes_get_size (cg_warc_record_get_block (archived->response));
      bytes += size;
      largest = MAX (largest, size);
    }
  g_assert_cmpuint (bytes, >, 3 * rate);
  least = (double) (bytes - rate - config->max_connections * largest) / rate;
  if (run.elapsed_us < (gint64) (least * G_USEC_PER_SEC))
    g_error ("%" G_GUINT64_FORMAT " bytes at %" G_GUINT64_FORMAT " B/s took %.2f s, less than %.2f s",
             bytes, rate, run.elapsed_us / (double) G_USEC_PER_SEC, least);
}

/* Redirects whose Location holds bytes that are not UTF-8, white space
 * or control characters are archived as they came, and the crawl goes on
 * to its end. */
static void
test_hostile_locations (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(CgCrawlConfig) config = site_config (f);
  g_autoptr(GPtrArray) paths = expected_paths (f, TRUE);
  g_autoptr(GHashTable) archive = NULL;
  g_auto(Run) run = { 0 };
  gint64 crawl_id;

  crawl_id = crawl_site (f, config, &run);
  archive = read_archive (f->project, crawl_id, NULL);
  for (guint i = 1; i <= 3; i++)
    {
      g_autofree char *path = g_strdup_printf ("/bad-location/%u", i);
      g_autofree char *url = url_for (f, path);
      Archived *archived = g_hash_table_lookup (archive, url);

      g_assert_cmpuint (hits (f, path), ==, 1);
      g_assert_nonnull (archived);
      g_assert_cmpuint (archived->responses, ==, 1);
      assert_url_state (f->project, crawl_id, url, CG_URL_DONE, NULL);
    }
  /* The rest of the site is all there. */
  for (guint i = 0; i < paths->len; i++)
    {
      g_autofree char *url = url_for (f, g_ptr_array_index (paths, i));

      g_assert_cmpuint (responses_of (archive, url), ==, 1);
    }
}

/* A crawl of a project with a bad crawl id fails clearly. */
static void
test_no_such_crawl (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgCrawler) crawler = cg_crawler_new_for_crawl (f->project, 42, &error);

  g_assert_null (crawler);
  g_assert_error (error, CG_CRAWLER_ERROR, CG_CRAWLER_ERROR_NO_SUCH_CRAWL);
  g_assert_nonnull (strstr (error->message, "42"));
  g_clear_error (&error);
  g_assert_cmpint (cg_crawler_find_resumable (f->project, &error), ==, 0);
  g_assert_error (error, CG_CRAWLER_ERROR, CG_CRAWLER_ERROR_NO_SUCH_CRAWL);
}

/* Settings a crawl cannot run with are refused before the crawl is
 * recorded: recorded, they failed its start and every --resume after,
 * and hid the project's earlier crawl from --resume. */
static void
test_unusable_settings (Fixture       *f,
                        gconstpointer  data)
{
  struct {
    const char *field;
    const char *value;
    const char *message;
  } cases[] = {
    { "delay", "inf", "finite" },
    { "delay", "nan", "finite" },
    { "delay_factor", "inf", "finite" },
    { "max_delay", "nan", "finite" },
    { "contact", "not a url", "contact address" },
    { "user_agent", "", "User-Agent" },
    { "user_agent", "Bot/1 \xff", "not UTF-8" },
    { "seed", "http://127.0.0.1/\xfe", "seed URL" },
    { "exclude", "\xc3(", "exclude pattern" },
    { "warc_prefix", "arc\xff", "WARC file prefix" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(CgCrawlConfig) config = cg_crawl_config_new ();
      g_autoptr(CgCrawler) crawler = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *seed = g_strdup_printf ("%s/", f->base);
      char *strv[] = { (char *) cases[i].value, NULL };

      g_strfreev (config->seeds);
      config->seeds = g_strdupv ((char *[]) { seed, NULL });
      if (g_str_equal (cases[i].field, "delay"))
        config->min_delay = g_ascii_strtod (cases[i].value, NULL);
      else if (g_str_equal (cases[i].field, "delay_factor"))
        config->delay_factor = g_ascii_strtod (cases[i].value, NULL);
      else if (g_str_equal (cases[i].field, "max_delay"))
        config->max_delay = g_ascii_strtod (cases[i].value, NULL);
      else if (g_str_equal (cases[i].field, "contact"))
        config->contact = g_strdup (cases[i].value);
      else if (g_str_equal (cases[i].field, "user_agent"))
        config->user_agent = g_strdup (cases[i].value);
      else if (g_str_equal (cases[i].field, "seed"))
        {
          g_strfreev (config->seeds);
          config->seeds = g_strdupv (strv);
        }
      else if (g_str_equal (cases[i].field, "exclude"))
        {
          g_strfreev (config->exclude_regexes);
          config->exclude_regexes = g_strdupv (strv);
        }
      else
        {
          g_free (config->warc_prefix);
          config->warc_prefix = g_strdup (cases[i].value);
        }

      crawler = cg_crawler_new (f->project, config, &error);
      {
        /* Escaped: the test's output is TAP, which must be UTF-8. */
        g_autofree char *shown = g_strescape (cases[i].value, NULL);

        g_test_message ("%s = %s: %s", cases[i].field, shown, error != NULL ? "refused" : "accepted");
      }
      g_assert_null (crawler);
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, cases[i].message));
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
    }

  /* None of them was recorded. */
  {
    g_autoptr(GError) error = NULL;

    g_assert_cmpint (cg_crawler_find_resumable (f->project, &error), ==, 0);
    g_assert_error (error, CG_CRAWLER_ERROR, CG_CRAWLER_ERROR_NO_SUCH_CRAWL);
  }
}

/* A host that does not answer is down, not one whose robots.txt forbids
 * everything: its URLs fail and say why (RFC 9309 still forbids fetching
 * them), and a crawl that fetched nothing at all failed. It once ended
 * "finished", its seed "kept out by robots.txt". */
static void
test_unreachable_host (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(CgCrawlConfig) config = site_config (f);
  g_autoptr(CgCrawler) crawler = NULL;
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *reason = NULL;
  g_autofree char *seed = NULL;
  g_auto(Run) run = { 0 };
  g_autoptr(sqlite3_stmt) state = NULL;

  socket = cg_test_refusing_socket (&seed);
  g_strfreev (config->seeds);
  config->seeds = g_strsplit (seed, " ", -1);
  config->timeout = 5;

  crawler = new_crawler (f, NULL, config);
  run_crawler (f, crawler, &run);
  g_assert_cmpint (run.end, ==, CG_CRAWL_END_FAILED);
  g_assert_error (run.error, CG_CRAWLER_ERROR, CG_CRAWLER_ERROR_NOTHING_FETCHED);
  g_test_message ("%s", run.error->message);
  g_assert_true (g_str_has_prefix (run.error->message, "Nothing could be fetched; the first failure: "));
  g_assert_nonnull (strstr (run.error->message, "The host’s robots.txt could not be fetched ("));
  g_assert_cmpuint (run.events[CG_CRAWL_EVENT_ROBOTS], ==, 0);
  g_assert_cmpuint (run.events[CG_CRAWL_EVENT_FETCH_FAILED], ==, 1);

  g_assert_cmpint (url_state (f->project, cg_crawler_get_crawl_id (crawler), seed, &reason), ==, CG_URL_FAILED);
  g_assert_nonnull (reason);
  g_assert_cmpstr (reason, !=, "robots");

  /* The log as Heritrix writes it: robots.txt's connection was never made
   * (-2), and the seed waited on it (-61), not a rule of the site. */
  {
    g_autoptr(GHashTable) log = read_crawl_log (f->project, cg_crawler_get_crawl_id (crawler));
    g_autoptr(GUri) uri = g_uri_parse (seed, G_URI_FLAGS_NONE, NULL);
    g_autofree char *robots = g_strdup_printf ("http://127.0.0.1:%d/robots.txt", g_uri_get_port (uri));
    GStrv fields;

    fields = g_hash_table_lookup (log, robots);
    g_assert_nonnull (fields);
    g_assert_cmpint (atoi (fields[1]), ==, CG_FETCH_STATUS_CONNECT_FAILED);
    fields = g_hash_table_lookup (log, seed);
    g_assert_nonnull (fields);
    g_assert_cmpint (atoi (fields[1]), ==, CG_FETCH_STATUS_ROBOTS_PREREQUISITE);
    g_assert_cmpstr (fields[11], ==, "robots:unreachable");
  }
  state = cg_store_prepare (cg_project_get_store (f->project), "SELECT state FROM crawls WHERE id = ?1", &error);
  g_assert_no_error (error);
  sqlite3_bind_int64 (state, 1, cg_crawler_get_crawl_id (crawler));
  g_assert_cmpint (sqlite3_step (state), ==, SQLITE_ROW);
  g_assert_cmpstr ((const char *) sqlite3_column_text (state, 0), ==, "failed");
}

typedef struct {
  gboolean seen_paused;
  guint64  done_while_paused;
  gboolean paused_after_resume;
} PauseCheck;

/* The first progress of the paused crawl resumes it, and reads at once
 * whether the crawl is paused. */
static void
resume_when_paused_cb (CgCrawler          *crawler,
                       const CgCrawlStats *stats,
                       PauseCheck         *check)
{
  CgCrawlStats now;

  if (!stats->paused || check->seen_paused)
    return;
  check->seen_paused = TRUE;
  check->done_while_paused = stats->done;
  cg_crawler_unpause (crawler);
  cg_crawler_get_stats (crawler, &now);
  check->paused_after_resume = now.paused;
}

/* A crawl paused from its start fetches nothing until it resumes, and its
 * stats say it runs again as soon as it is resumed, not a tick later: the
 * window takes its Pause and Resume buttons from them. */
static void
test_pause_and_resume (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(CgCrawlConfig) config = site_config (f);
  g_autoptr(CgCrawler) crawler = new_crawler (f, NULL, config);
  PauseCheck check = { FALSE, 0, TRUE };
  g_auto(Run) run = { 0 };

  g_signal_connect (crawler, "progress", G_CALLBACK (resume_when_paused_cb), &check);
  cg_crawler_pause (crawler);
  run_crawler (f, crawler, &run);
  g_assert_no_error (run.error);
  g_assert_cmpint (run.end, ==, CG_CRAWL_END_DONE);
  g_assert_true (check.seen_paused);
  g_assert_cmpuint (check.done_while_paused, ==, 0);
  g_assert_false (check.paused_after_resume);
}

/* The number of WARC files of @crawl_id marked closed in the store. */
static int
closed_warc_files (Fixture *f,
                   gint64   crawl_id)
{
  g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (cg_project_get_store (f->project),
                                                   "SELECT count(*) FROM warc_files WHERE crawl_id = ?1 AND closed",
                                                   NULL);

  g_assert_nonnull (stmt);
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  return sqlite3_column_int (stmt, 0);
}

/* The state of crawl @crawl_id in the store. */
static char *
crawl_state (Fixture *f,
             gint64   crawl_id)
{
  g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (cg_project_get_store (f->project),
                                                   "SELECT state FROM crawls WHERE id = ?1", NULL);

  g_assert_nonnull (stmt);
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  return g_strdup ((const char *) sqlite3_column_text (stmt, 0));
}

/* Every URL the crawl log names is one the store has committed as done,
 * failed or skipped (but robots.txt, a host's prerequisite, which is no
 * URL of the frontier): a commit that fails takes its lines back. */
static void
assert_log_committed (Fixture *f,
                      gint64   crawl_id)
{
  g_autofree char *name = g_strdup_printf ("crawl-%" G_GINT64_FORMAT ".log", crawl_id);
  g_autofree char *path = g_build_filename (cg_project_get_folder (f->project), "logs", name, NULL);
  g_autofree char *text = read_text_file (path);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (cg_project_get_store (f->project),
                                                   "SELECT state FROM urls WHERE crawl_id = ?1 AND url = ?2", NULL);

  g_assert_nonnull (stmt);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) words = g_strsplit_set (lines[i], " ", -1);
      const char *url = NULL;

      /* The fourth field; fields are separated by runs of spaces. */
      for (guint j = 0, field = 0; words[j] != NULL && url == NULL; j++)
        if (words[j][0] != '\0' && ++field == 4)
          url = words[j];
      g_assert_nonnull (url);
      if (g_str_has_suffix (url, "/robots.txt"))
        continue;
      sqlite3_reset (stmt);
      sqlite3_bind_int64 (stmt, 1, crawl_id);
      sqlite3_bind_text (stmt, 2, url, -1, SQLITE_TRANSIENT);
      if (sqlite3_step (stmt) != SQLITE_ROW || sqlite3_column_int (stmt, 0) < CG_URL_DONE)
        g_error ("the crawl log names %s, which the store has not committed as dealt with", url);
    }
}

/* Resumes the crawl @crawl_id after its run failed: the crawl ends, with
 * every page archived once and a line per URL in the log (read_crawl_log()
 * fails on two): the lines of what the failed run did not commit went
 * with its transaction. */
static void
resume_failed_crawl (Fixture *f,
                     gint64   crawl_id)
{
  g_autoptr(GPtrArray) paths = expected_paths (f, TRUE);
  g_autoptr(CgCrawler) resumed = NULL;
  g_autoptr(GHashTable) archive = NULL;
  g_autoptr(GHashTable) log = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(Run) run = { 0 };

  resumed = cg_crawler_new_for_crawl (f->project, crawl_id, &error);
  g_assert_no_error (error);
  run_crawler (f, resumed, &run);
  g_assert_no_error (run.error);
  g_assert_cmpint (run.end, ==, CG_CRAWL_END_DONE);
  archive = read_archive (f->project, crawl_id, NULL);
  assert_archived_once (f, archive, paths, TRUE);
  log = read_crawl_log (f->project, crawl_id);
  g_assert_cmpuint (g_hash_table_size (log), ==, paths->len + 1 + N_PRIVATE);
}

/* A crawl whose store refuses a statement half-way through a run (a full
 * disk, a damaged file: here a trigger) fails, and resuming it archives
 * every page once. @failing_sql creates the trigger "failing", which the
 * test drops before resuming. The failed run leaves its WARC files open
 * for resuming to cut them back: the writer went on writing the pages
 * queued when the run failed, which it did not commit. */
static void
check_failure_then_resume (Fixture    *f,
                           const char *failing_sql)
{
  g_autoptr(CgCrawlConfig) config = site_config (f);
  g_autoptr(CgCrawler) crawler = NULL;
  g_autoptr(GError) error = NULL;
  CgStore *store = cg_project_get_store (f->project);
  g_autofree char *state = NULL;
  gint64 crawl_id;
  g_auto(Run) run = { 0 };

  g_assert_true (cg_store_exec (store, failing_sql, &error));
  g_assert_no_error (error);
  crawler = new_crawler (f, NULL, config);
  crawl_id = cg_crawler_get_crawl_id (crawler);
  run_crawler (f, crawler, &run);
  g_assert_cmpint (run.end, ==, CG_CRAWL_END_FAILED);
  g_assert_nonnull (strstr (run.error->message, "refused here"));
  g_assert_cmpint (closed_warc_files (f, crawl_id), ==, 0);
  assert_log_committed (f, crawl_id);
  /* Recorded, not left in a transaction that a failed commit kept open. */
  g_assert_cmpstr (state = crawl_state (f, crawl_id), ==, "failed");
  g_clear_error (&run.error);

  g_assert_true (cg_store_exec (store, "DROP TRIGGER failing", &error));
  g_assert_no_error (error);
  g_assert_cmpint (cg_crawler_find_resumable (f->project, &error), ==, crawl_id);
  g_assert_no_error (error);
  resume_failed_crawl (f, crawl_id);
}

/* A page's fetch row is refused: the pages stored before it in the same
 * transaction are not committed with its records' end, which would have
 * kept its records on resuming and archived it a second time. */
static void
test_fetch_row_refused (Fixture       *f,
                        gconstpointer  data)
{
  check_failure_then_resume (f, "CREATE TRIGGER failing BEFORE INSERT ON fetches "
                                "WHEN (SELECT url FROM urls WHERE id = NEW.url_id) LIKE '%/page/3' "
                                "BEGIN SELECT RAISE (ABORT, 'refused here'); END");
}

/* Every commit fails (the WARC end it stores is refused): nothing of the
 * run is kept but its state, and resuming archives every page once. */
static void
test_commit_refused (Fixture       *f,
                     gconstpointer  data)
{
  check_failure_then_resume (f, "CREATE TRIGGER failing BEFORE UPDATE OF committed_size ON warc_files "
                                "BEGIN SELECT RAISE (ABORT, 'refused here'); END");
}

/* The WARC file cannot grow past WARC_ROOM (a full disk, a quota; here
 * the process's file size limit, which the database of this small crawl
 * stays under): the run fails, naming the file, and commits no page whose
 * records the refused write took back, though the writer had written
 * them to its batch. Resuming with room archives every page, and logs
 * every URL, once. */
#define WARC_ROOM (1024 * 1024)

static void
test_warc_write_refused (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(CgCrawlConfig) config = site_config (f);
  g_autoptr(CgCrawler) crawler = NULL;
  g_auto(Run) run = { 0 };
  gint64 crawl_id;

  crawler = new_crawler (f, NULL, config);
  crawl_id = cg_crawler_get_crawl_id (crawler);
  cg_test_limit_file_size (WARC_ROOM);
  run_crawler (f, crawler, &run);
  cg_test_unlimit_file_size ();
  g_assert_cmpint (run.end, ==, CG_CRAWL_END_FAILED);
  g_assert_error (run.error, CG_CRAWLER_ERROR, CG_CRAWLER_ERROR_WARC);
  g_assert_nonnull (strstr (run.error->message, ".warc.gz"));
  g_clear_error (&run.error);
  g_clear_object (&crawler);

  resume_failed_crawl (f, crawl_id);
}

/* A crawl log of the crawl's number is already there when the crawl first
 * runs (the database was restored from a copy older than that crawl): it
 * is another crawl's, and is moved into logs/orphaned/, whole, instead
 * of being cut to what the new crawl committed, nothing. */
static void
test_earlier_log_moved_aside (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(CgCrawlConfig) config = site_config (f);
  g_autoptr(GPtrArray) paths = expected_paths (f, TRUE);
  g_autoptr(CgCrawler) crawler = new_crawler (f, NULL, config);
  gint64 crawl_id = cg_crawler_get_crawl_id (crawler);
  g_autofree char *name = g_strdup_printf ("crawl-%" G_GINT64_FORMAT ".log", crawl_id);
  g_autofree char *logs = g_build_filename (cg_project_get_folder (f->project), "logs", NULL);
  g_autofree char *path = g_build_filename (logs, name, NULL);
  g_autofree char *orphaned = g_build_filename (logs, "orphaned", NULL);
  g_autofree char *aside = NULL;
  g_autofree char *kept = NULL;
  g_autoptr(GHashTable) log = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *earlier = "2020-01-01T00:00:00.000Z   200         10 http://earlier.test/ - - text/html #000 - - - -\n";
  g_auto(Run) run = { 0 };

  g_assert_cmpint (g_mkdir_with_parents (logs, 0755), ==, 0);
  cg_test_write_file (path, earlier, strlen (earlier));
  run_crawler (f, crawler, &run);
  g_assert_no_error (run.error);
  g_assert_cmpint (run.end, ==, CG_CRAWL_END_DONE);
  g_assert_cmpuint (run.events[CG_CRAWL_EVENT_REPAIRED], ==, 1);

  /* The crawl's own log, a line per URL, the earlier line not among them. */
  log = read_crawl_log (f->project, crawl_id);
  g_assert_cmpuint (g_hash_table_size (log), ==, paths->len + 1 + N_PRIVATE);
  g_assert_false (g_hash_table_contains (log, "http://earlier.test/"));
  dir = g_dir_open (orphaned, 0, NULL);
  g_assert_nonnull (dir);
  aside = g_build_filename (orphaned, g_dir_read_name (dir), name, NULL);
  g_assert_true (g_file_get_contents (aside, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, earlier);
}

/* Another connection writing to the project in a loop, as the window
 * does while a crawl starts (settings, class names, recent crawls). */
typedef struct {
  char          *database;
  volatile gint  stop;
  guint          n_writes;
} Writer;

static gpointer
writer_thread (gpointer user_data)
{
  Writer *writer = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(CgStore) store = cg_store_open (writer->database, &error);
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_assert_no_error (error);
  stmt = cg_store_prepare (store, "INSERT OR REPLACE INTO meta (key, value) VALUES ('test-writer', ?1)", &error);
  g_assert_no_error (error);
  while (!g_atomic_int_get (&writer->stop))
    {
      sqlite3_reset (stmt);
      sqlite3_bind_int64 (stmt, 1, (gint64) writer->n_writes);
      g_assert_true (cg_store_step_done (store, stmt, &error));
      g_assert_no_error (error);
      writer->n_writes++;
    }
  return NULL;
}

/* Crawls start while another connection writes: each waits its turn for
 * the database, none fails with "database is locked". Setting up a run
 * once read a row and kept its statement open while it wrote, and a
 * connection that writes from a read begun before another's write fails
 * at once instead of waiting. */
static void
test_concurrent_writer (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(CgCrawlConfig) config = site_config (f);
  Writer writer = { g_strdup (cg_store_get_path (cg_project_get_store (f->project))), 0, 0 };
  g_auto(Run) run = { 0 };
  GThread *thread;

  thread = g_thread_new ("test-writer", writer_thread, &writer);
  for (guint i = 0; i < 10; i++)
    crawl_site (f, config, &run);
  g_atomic_int_set (&writer.stop, 1);
  g_thread_join (thread);
  /* The writer did write meanwhile (a crawl without politeness keeps
   * the database most of the time, so not often). */
  g_assert_cmpuint (writer.n_writes, >, 0);
  g_free (writer.database);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(name, flags, func) \
  g_test_add (name, Fixture, GUINT_TO_POINTER (flags), fixture_set_up, func, fixture_tear_down)
  ADD ("/crawler/polite-crawl", SITE_CAPS, test_polite_crawl);
  ADD ("/crawler/ignore-robots", 0, test_ignore_robots);
  ADD ("/crawler/no-requisites", 0, test_no_requisites);
  ADD ("/crawler/no-requisites-linked-image", SITE_LINKED_IMAGE, test_no_requisites_linked_image);
  ADD ("/crawler/scope-rules", 0, test_scope_rules);
  ADD ("/crawler/max-pages", 0, test_max_pages);
  ADD ("/crawler/stop-and-resume", 0, test_stop_and_resume);
  ADD ("/crawler/stop-and-resume/small-warc-files", SMALL_WARCS, test_stop_and_resume);
  ADD ("/crawler/resume-after-crash", SITE_CAPS, test_resume_after_crash);
  ADD ("/crawler/redirect-chain", SITE_CHAIN, test_redirect_chain);
  ADD ("/crawler/stalling-pages", SITE_STALL, test_stalling_pages);
  ADD ("/crawler/bandwidth-cap", SITE_PADDED, test_bandwidth_cap);
  ADD ("/crawler/no-such-crawl", 0, test_no_such_crawl);
  ADD ("/crawler/unusable-settings", 0, test_unusable_settings);
  ADD ("/crawler/hostile-locations", SITE_HOSTILE, test_hostile_locations);
  ADD ("/crawler/unreachable-host", 0, test_unreachable_host);
  ADD ("/crawler/copies", SITE_COPIES, test_copies);
  ADD ("/crawler/unlisted-and-missing-files", 0, test_unlisted_and_missing_files);
  ADD ("/crawler/overlapping-prefixes", 0, test_overlapping_prefixes);
  ADD ("/crawler/concurrent-writer", 0, test_concurrent_writer);
  ADD ("/crawler/pause-and-resume", 0, test_pause_and_resume);
  ADD ("/crawler/fetch-row-refused", 0, test_fetch_row_refused);
  ADD ("/crawler/commit-refused", 0, test_commit_refused);
  ADD ("/crawler/warc-write-refused", SITE_BLOBS, test_warc_write_refused);
  ADD ("/crawler/earlier-log-moved-aside", 0, test_earlier_log_moved_aside);
#undef ADD

  return g_test_run ();
}
