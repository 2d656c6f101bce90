/* test-crawler-threads.c: in which thread the crawler's signals arrive.
 *
 * The crawler reports to the main context that was current when it was
 * started. These tests make sure that its signals run only in the thread
 * that owns that context, even at moments when no thread owns it: a test
 * (or a program) that iterates its loop by hand leaves it unowned
 * between two iterations, and a report delivered at such a moment must
 * wait for the next iteration instead of running in the crawl thread.
 * Run there, "finished" used to join the crawl thread from itself, and
 * GLib aborted with "Resource deadlock avoided".
 *
 * The site is served by a SoupServer on 127.0.0.1 in a thread of its own,
 * so that the test thread can leave its main context alone for the whole
 * crawl.
 *
 * A crawl also shares the project's database with the window's thread,
 * which writes to it while the crawl runs; the last test makes sure that
 * such a write gets its turn even when a crawl without politeness keeps
 * the database busy.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <glib/gstdio.h>
#include <libsoup/soup.h>

#include "cg-crawler.h"
#include "cg-project.h"
#include "cg-store.h"
#include "cg-test-files.h"

#define N_PAGES 12

/* Pages under /endless/ link to three more each, without end. */
#define ENDLESS_PREFIX "/endless/"
#define ENDLESS_MAX    G_GUINT64_CONSTANT (1000000000000)

/* A crawl of a dozen pages that takes longer than this has hung. */
#define WAIT_LIMIT_S 120

/* ------------------------------------------------------------------ */
/* The site, in its own thread                                         */

typedef struct {
  GThread      *thread;
  GMainContext *context;
  GMainLoop    *loop;
  GMutex        lock;
  GCond         cond;
  guint         port;      /* 0 until the server listens */
  char         *error;     /* why it could not listen */
  gint          requests;  /* atomic */
} Site;

static void
site_cb (SoupServer        *server,
         SoupServerMessage *msg,
         const char        *path,
         GHashTable        *query,
         gpointer           user_data)
{
  Site *site = user_data;
  guint64 n = 0;
  g_autofree char *body = NULL;
  const char *type = "text/html";

  g_atomic_int_inc (&site->requests);
  if (strcmp (path, "/robots.txt") == 0)
    {
      type = "text/plain";
      body = g_strdup ("User-agent: *\nDisallow: /private/\n");
    }
  else if (strcmp (path, "/") == 0 ||
           (g_str_has_prefix (path, "/page/") &&
            g_ascii_string_to_unsigned (path + 6, 10, 0, N_PAGES - 1, &n, NULL)))
    {
      GString *html = g_string_new (NULL);

      /* Each page its own, or the crawl would archive revisits. */
      g_string_append_printf (html, "<!DOCTYPE html>\n<html><head><title>%s</title></head><body>\n"
                              "<a href=\"/private/x\">private</a>\n", path);

      for (guint i = 0; i < N_PAGES; i++)
        g_string_append_printf (html, "<a href=\"/page/%u\">Page %u</a>\n", i, i);
      g_string_append (html, "</body></html>\n");
      body = g_string_free (html, FALSE);
    }
  else if (g_str_has_prefix (path, ENDLESS_PREFIX) &&
           g_ascii_string_to_unsigned (path + strlen (ENDLESS_PREFIX), 10, 0, ENDLESS_MAX, &n, NULL))
    {
      GString *html = g_string_new (NULL);

      g_string_append_printf (html, "<!DOCTYPE html>\n<html><head><title>%s</title></head><body>\n", path);
      for (guint64 child = 3 * n + 1; child <= 3 * n + 3; child++)
        g_string_append_printf (html, "<a href=\"" ENDLESS_PREFIX "%" G_GUINT64_FORMAT "\">Page %" G_GUINT64_FORMAT "</a>\n",
                                child, child);
      g_string_append (html, "</body></html>\n");
      body = g_string_free (html, FALSE);
    }
  if (body == NULL)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
      soup_server_message_set_response (msg, "text/plain", SOUP_MEMORY_STATIC, "no such page", 12);
      return;
    }
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, type, SOUP_MEMORY_TAKE, g_steal_pointer (&body), strlen (body));
}

static gpointer
site_thread_main (gpointer user_data)
{
  Site *site = user_data;
  g_autoptr(SoupServer) server = NULL;
  g_autoptr(GError) error = NULL;
  GSList *uris;

  g_main_context_push_thread_default (site->context);
  server = soup_server_new (NULL, NULL);
  soup_server_add_handler (server, NULL, site_cb, site, NULL);
  g_mutex_lock (&site->lock);
  if (soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error))
    {
      uris = soup_server_get_uris (server);
      site->port = (guint) g_uri_get_port (uris->data);
      g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
    }
  else
    site->error = g_strdup (error->message);
  g_cond_signal (&site->cond);
  g_mutex_unlock (&site->lock);

  if (site->port > 0)
    g_main_loop_run (site->loop);
  soup_server_disconnect (server);
  g_clear_object (&server);
  while (g_main_context_iteration (site->context, FALSE))
    ;
  g_main_context_pop_thread_default (site->context);
  return NULL;
}

static void
site_start (Site *site)
{
  memset (site, 0, sizeof *site);
  g_mutex_init (&site->lock);
  g_cond_init (&site->cond);
  site->context = g_main_context_new ();
  site->loop = g_main_loop_new (site->context, FALSE);
  site->thread = g_thread_new ("test-site", site_thread_main, site);

  g_mutex_lock (&site->lock);
  while (site->port == 0 && site->error == NULL)
    g_cond_wait (&site->cond, &site->lock);
  g_mutex_unlock (&site->lock);
  g_assert_null (site->error);
}

static gboolean
quit_cb (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_REMOVE;
}

static void
site_stop (Site *site)
{
  GSource *source = g_idle_source_new ();

  g_source_set_callback (source, quit_cb, site->loop, NULL);
  g_source_attach (source, site->context);
  g_source_unref (source);
  g_thread_join (site->thread);
  g_main_loop_unref (site->loop);
  g_main_context_unref (site->context);
  g_mutex_clear (&site->lock);
  g_cond_clear (&site->cond);
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

/* How many threads of this process are named @name (Linux: the name
 * g_thread_new() gave them, in /proc/self/task/N/comm). */
static guint
count_threads_named (const char *name)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/task", 0, NULL);
  const char *task;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((task = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc/self/task", task, "comm", NULL);
      g_autofree char *comm = NULL;

      /* A thread that ended since the folder was read has no file. */
      if (g_file_get_contents (path, &comm, NULL, NULL) && strcmp (g_strchomp (comm), name) == 0)
        n++;
    }
  return n;
}

typedef struct {
  GThread    *expected;      /* the thread the signals must run in */
  guint       wrong_thread;  /* signals that ran anywhere else */
  guint       progress;
  guint       robots_events;
  gboolean    finished;
  CgCrawlEnd  end;
  GError     *error;
} Reports;

static void
check_thread (Reports *reports)
{
  if (g_thread_self () != reports->expected)
    reports->wrong_thread++;
}

static void
progress_cb (CgCrawler          *crawler,
             const CgCrawlStats *stats,
             Reports            *reports)
{
  check_thread (reports);
  reports->progress++;
}

static void
event_cb (CgCrawler  *crawler,
          int         kind,
          const char *url,
          const char *message,
          Reports    *reports)
{
  check_thread (reports);
  if (kind == CG_CRAWL_EVENT_ROBOTS)
    reports->robots_events++;
}

static void
finished_cb (CgCrawler    *crawler,
             int           end,
             const GError *error,
             Reports      *reports)
{
  check_thread (reports);
  reports->finished = TRUE;
  reports->end = end;
  if (error != NULL)
    reports->error = g_error_copy (error);
}

/* The state the project's database gives crawl @crawl_id. */
static char *
crawl_state (const char *folder,
             gint64      crawl_id)
{
  g_autofree char *path = g_build_filename (folder, CG_PROJECT_DATABASE_NAME, NULL);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  char *state = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  sqlite3_busy_timeout (db, 10 * 1000);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT state FROM crawls WHERE id = ?1", -1, &stmt, NULL), ==, SQLITE_OK);
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    state = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return state;
}

/* Whether the crawl's threads have ended: the crawl thread records the
 * end in the database before it ends, so a crawl that has not yet
 * started (whose threads may not have their names yet) is not taken for
 * one that is over. */
static gboolean
crawl_threads_ended (const char *folder,
                     gint64      crawl_id)
{
  g_autofree char *state = crawl_state (folder, crawl_id);

  return g_strcmp0 (state, cg_crawl_end_to_string (CG_CRAWL_END_DONE)) == 0 &&
         count_threads_named ("cg-crawl") == 0 && count_threads_named ("cg-warc-writer") == 0;
}

static guint
count_responses (const char *folder)
{
  g_autofree char *path = g_build_filename (folder, CG_PROJECT_DATABASE_NAME, NULL);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  guint n;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT count(*) FROM fetches WHERE record_type = 'response'",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  n = (guint) sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return n;
}

/* A new project in a new temporary folder @dir, at @folder in it. */
static CgProject *
create_project (char **dir,
                char **folder)
{
  g_autoptr(GError) error = NULL;
  CgProject *project;

  *dir = cg_test_folder_new ("cg-crawler-threads-XXXXXX");
  *folder = g_build_filename (*dir, "project", NULL);
  project = cg_project_create (*folder, "threads", &error);
  g_assert_no_error (error);
  return project;
}

/* A crawler of @site from @path, without politeness, over @connections. */
static CgCrawler *
new_fast_crawler (CgProject  *project,
                  Site       *site,
                  const char *path,
                  guint       connections)
{
  g_autoptr(CgCrawlConfig) config = cg_crawl_config_new ();
  g_autoptr(GError) error = NULL;
  CgCrawler *crawler;

  g_strfreev (config->seeds);
  config->seeds = g_new0 (char *, 2);
  config->seeds[0] = g_strdup_printf ("http://127.0.0.1:%u%s", site->port, path);
  config->max_connections = connections;
  cg_crawl_config_disable_politeness (config);
  crawler = cg_crawler_new (project, config, &error);
  g_assert_no_error (error);
  return crawler;
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */

/* The owner's context is the global default one, and the test thread
 * does not iterate it at all until the crawl's threads have ended: every
 * report, "finished" included, must then still be waiting for it. */
static void
test_owner_not_iterating (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *folder = NULL;
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgCrawler) crawler = NULL;
  Reports reports = { .expected = g_thread_self () };
  Site site;
  gint64 deadline;

  if (!g_file_test ("/proc/self/task", G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("No /proc/self/task to see the crawl's threads end");
      return;
    }

  site_start (&site);
  project = create_project (&dir, &folder);
  crawler = new_fast_crawler (project, &site, "/", 4);

  g_signal_connect (crawler, "progress", G_CALLBACK (progress_cb), &reports);
  g_signal_connect (crawler, "event", G_CALLBACK (event_cb), &reports);
  g_signal_connect (crawler, "finished", G_CALLBACK (finished_cb), &reports);
  g_assert_cmpuint (count_threads_named ("cg-crawl"), ==, 0);
  cg_crawler_start (crawler);

  /* Waiting, not iterating: nothing here owns the default context. */
  deadline = g_get_monotonic_time () + WAIT_LIMIT_S * G_USEC_PER_SEC;
  while (!crawl_threads_ended (folder, cg_crawler_get_crawl_id (crawler)) && g_get_monotonic_time () < deadline)
    g_usleep (G_USEC_PER_SEC / 100);
  g_assert_true (crawl_threads_ended (folder, cg_crawler_get_crawl_id (crawler)));

  /* The crawl is over, but its owner has not heard of it yet. */
  g_assert_false (reports.finished);
  g_assert_cmpuint (reports.progress, ==, 0);
  g_assert_true (cg_crawler_is_running (crawler));

  while (!reports.finished)
    g_main_context_iteration (NULL, TRUE);

  g_assert_no_error (reports.error);
  g_assert_cmpint (reports.end, ==, CG_CRAWL_END_DONE);
  g_assert_false (cg_crawler_is_running (crawler));
  g_assert_cmpuint (reports.wrong_thread, ==, 0);
  g_assert_cmpuint (reports.progress, >, 0);
  g_assert_cmpuint (reports.robots_events, ==, 1);
  /* robots.txt, the home page and the N_PAGES pages, each archived once. */
  g_assert_cmpuint (count_responses (folder), ==, N_PAGES + 1);
  g_assert_cmpint (g_atomic_int_get (&site.requests), ==, N_PAGES + 2);

  site_stop (&site);
  g_clear_object (&project);
  cg_test_remove_tree (dir);
  g_clear_error (&reports.error);
}

/* The owner is a thread of its own with its own context, which it runs
 * as a loop; the crawl is also stopped from there, so that the stop
 * reaches the crawl thread through its context. Every signal arrives in
 * that thread. */
typedef struct {
  CgProject *project;
  char      *seed;
  Reports    reports;
} OwnerData;

static void
stop_on_progress_cb (CgCrawler          *crawler,
                     const CgCrawlStats *stats,
                     gpointer            user_data)
{
  cg_crawler_stop (crawler);
}

static void
quit_on_finished_cb (CgCrawler    *crawler,
                     int           end,
                     const GError *error,
                     GMainLoop    *loop)
{
  g_main_loop_quit (loop);
}

static gpointer
owner_thread_main (gpointer user_data)
{
  OwnerData *data = user_data;
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GMainLoop) loop = g_main_loop_new (context, FALSE);
  g_autoptr(CgCrawlConfig) config = cg_crawl_config_new ();
  g_autoptr(CgCrawler) crawler = NULL;
  g_autoptr(GError) error = NULL;

  g_main_context_push_thread_default (context);
  data->reports.expected = g_thread_self ();
  g_strfreev (config->seeds);
  config->seeds = g_new0 (char *, 2);
  config->seeds[0] = g_strdup (data->seed);
  /* Slow enough that the first progress report comes before the end. */
  config->max_connections = 1;
  config->min_delay = 0.05;
  config->max_delay = 0.05;
  crawler = cg_crawler_new (data->project, config, &error);
  g_assert_no_error (error);
  g_signal_connect (crawler, "progress", G_CALLBACK (progress_cb), &data->reports);
  g_signal_connect (crawler, "progress", G_CALLBACK (stop_on_progress_cb), NULL);
  g_signal_connect (crawler, "event", G_CALLBACK (event_cb), &data->reports);
  g_signal_connect (crawler, "finished", G_CALLBACK (finished_cb), &data->reports);
  g_signal_connect (crawler, "finished", G_CALLBACK (quit_on_finished_cb), loop);
  cg_crawler_start (crawler);
  g_main_loop_run (loop);
  g_main_context_pop_thread_default (context);
  return NULL;
}

static void
test_owner_thread (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *folder = NULL;
  OwnerData data = { 0 };
  GThread *owner;
  Site site;

  site_start (&site);
  data.project = create_project (&dir, &folder);
  data.seed = g_strdup_printf ("http://127.0.0.1:%u/", site.port);

  owner = g_thread_new ("test-owner", owner_thread_main, &data);
  g_thread_join (owner);

  g_assert_true (data.reports.finished);
  g_assert_no_error (data.reports.error);
  g_assert_cmpint (data.reports.end, ==, CG_CRAWL_END_STOPPED);
  g_assert_cmpuint (data.reports.progress, >, 0);
  g_assert_cmpuint (data.reports.wrong_thread, ==, 0);

  site_stop (&site);
  g_clear_object (&data.project);
  g_free (data.seed);
  cg_test_remove_tree (dir);
}

/* The window's writes (a class renamed, a setting changed) while a crawl
 * without politeness runs: that crawl wants the database all the time,
 * and takes it back at once after each commit, so a write that waited
 * for its turn used to give up after the 5 s every connection waits,
 * with "database is locked". Each write must get its turn. */
typedef struct {
  char   *database;
  Site   *site;
  gint    done;       /* atomic */
  guint   n_written;
  GError *error;
} WindowWriter;

#define WINDOW_WRITES 5
/* Requests the site must have served before the writes start, so that
 * they meet the crawl in full swing. */
#define WRITES_AFTER_REQUESTS 200

static gpointer
window_writer_main (gpointer user_data)
{
  WindowWriter *writer = user_data;
  g_autoptr(CgStore) store = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  gint64 deadline = g_get_monotonic_time () + WAIT_LIMIT_S * G_USEC_PER_SEC;

  while (g_atomic_int_get (&writer->site->requests) < WRITES_AFTER_REQUESTS && g_get_monotonic_time () < deadline)
    g_usleep (G_USEC_PER_SEC / 100);

  store = cg_store_open (writer->database, &writer->error);
  if (store != NULL)
    stmt = cg_store_prepare (store, "INSERT OR REPLACE INTO meta (key, value) VALUES ('window-write', ?1)",
                             &writer->error);
  for (guint i = 0; stmt != NULL && i < WINDOW_WRITES; i++)
    {
      sqlite3_reset (stmt);
      sqlite3_bind_int64 (stmt, 1, (gint64) i);
      if (!cg_store_step_done (store, stmt, &writer->error))
        break;
      writer->n_written++;
      g_usleep (G_USEC_PER_SEC / 20);
    }
  g_atomic_int_set (&writer->done, 1);
  return NULL;
}

static void
test_window_writes_during_fast_crawl (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *folder = NULL;
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgCrawler) crawler = NULL;
  Reports reports = { .expected = g_thread_self () };
  WindowWriter writer = { 0 };
  GThread *thread;
  Site site;

  site_start (&site);
  project = create_project (&dir, &folder);
  crawler = new_fast_crawler (project, &site, ENDLESS_PREFIX "0", 8);
  g_signal_connect (crawler, "finished", G_CALLBACK (finished_cb), &reports);
  cg_crawler_start (crawler);

  writer.database = g_build_filename (folder, CG_PROJECT_DATABASE_NAME, NULL);
  writer.site = &site;
  thread = g_thread_new ("test-window-writer", window_writer_main, &writer);
  while (!g_atomic_int_get (&writer.done))
    g_main_context_iteration (NULL, FALSE) || (g_usleep (1000), TRUE);
  g_thread_join (thread);

  /* The crawl was still going: the writes met it, not its end. */
  g_assert_false (reports.finished);
  cg_crawler_stop (crawler);
  while (!reports.finished)
    g_main_context_iteration (NULL, TRUE);

  g_assert_no_error (writer.error);
  g_assert_cmpuint (writer.n_written, ==, WINDOW_WRITES);
  g_assert_no_error (reports.error);
  g_assert_cmpint (reports.end, ==, CG_CRAWL_END_STOPPED);

  site_stop (&site);
  g_free (writer.database);
  g_clear_object (&project);
  cg_test_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/crawler-threads/owner-not-iterating", test_owner_not_iterating);
  g_test_add_func ("/crawler-threads/owner-thread", test_owner_thread);
  g_test_add_func ("/crawler-threads/window-writes-during-fast-crawl", test_window_writes_during_fast_crawl);

  return g_test_run ();
}
