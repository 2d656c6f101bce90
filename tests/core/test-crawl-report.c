/* test-crawl-report.c: the summary of a real crawl of a small site served
 * in process, checked against what the server answered, and the report of
 * a crawl the project does not have.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "cg-crawl-report.h"
#include "cg-crawler.h"
#include "cg-test-files.h"
#include "cg-test-server.h"

typedef struct {
  SoupServer *server;
  char       *base;        /* "http://127.0.0.1:PORT/" */
  GHashTable *by_status;   /* status code → responses the server gave, robots.txt aside */
  guint       answered;    /* the same, all codes */
  GMainLoop  *loop;
  CgCrawlEnd  end;
} Site;

/* Pages that link to each other, one that is missing, and one that
 * robots.txt keeps out. */
static void
handler (SoupServer        *server,
         SoupServerMessage *msg,
         const char        *path,
         GHashTable        *query,
         gpointer           user_data)
{
  Site *site = user_data;
  guint status = 200;

  if (g_str_equal (path, "/robots.txt"))
    soup_server_message_set_response (msg, "text/plain", SOUP_MEMORY_STATIC,
                                      "User-agent: *\nDisallow: /private/\n", 35);
  else if (g_str_equal (path, "/") || g_str_equal (path, "/a") || g_str_equal (path, "/b"))
    {
      static const char page[] = "<html><head><title>Page</title></head><body>"
                                 "<a href=/a>a</a> <a href=/b>b</a> <a href=/missing>missing</a> "
                                 "<a href=/private/x>private</a></body></html>";

      soup_server_message_set_response (msg, "text/html", SOUP_MEMORY_STATIC, page, strlen (page));
    }
  else
    status = 404;
  soup_server_message_set_status (msg, status, NULL);
  soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Connection", "close");
  /* robots.txt is the crawl's own business, not one of its fetches. */
  if (g_str_equal (path, "/robots.txt"))
    return;
  g_hash_table_insert (site->by_status, GUINT_TO_POINTER (status),
                       GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (site->by_status, GUINT_TO_POINTER (status))) + 1));
  site->answered++;
}

static void
finished_cb (CgCrawler    *crawler,
             int           end,
             const GError *error,
             Site         *site)
{
  g_assert_no_error ((GError *) error);
  site->end = end;
  g_main_loop_quit (site->loop);
}

/* The count of the row @key of the table under the line @title. */
static gint64
table_count (const char *report,
             const char *title,
             const char *key)
{
  g_auto(GStrv) lines = g_strsplit (report, "\n", -1);
  guint i = 0;

  while (lines[i] != NULL && !g_str_equal (lines[i], title))
    i++;
  if (lines[i] == NULL)
    g_error ("the report has no table “%s”:\n%s", title, report);
  for (i++; lines[i] != NULL && g_str_has_prefix (lines[i], "  "); i++)
    {
      g_auto(GStrv) fields = g_strsplit_set (g_strstrip (lines[i]), " ", 2);

      if (g_str_equal (fields[0], key))
        return g_ascii_strtoll (g_strchug (fields[1]), NULL, 10);
    }
  return 0;
}

static void
test_report (void)
{
  Site site = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(CgTestFolder) dir = cg_test_folder_new ("cg-crawl-report-XXXXXX");
  g_autofree char *first_line = NULL;
  g_autofree char *host = NULL;
  g_autofree char *report = NULL;
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgCrawlConfig) config = cg_crawl_config_new ();
  g_autoptr(CgCrawler) crawler = NULL;

  site.by_status = g_hash_table_new (NULL, NULL);
  site.loop = g_main_loop_new (NULL, FALSE);
  site.server = cg_test_server_new (handler, &site, &site.base);
  /* "127.0.0.1:PORT", as the report names the host. */
  host = g_strndup (site.base + strlen ("http://"), strlen (site.base) - strlen ("http://") - 1);

  project = cg_project_create (dir, NULL, &error);
  g_assert_no_error (error);
  g_strfreev (config->seeds);
  config->seeds = g_strsplit (site.base, " ", -1);
  cg_crawl_config_disable_politeness (config);
  crawler = cg_crawler_new (project, config, &error);
  g_assert_no_error (error);
  g_signal_connect (crawler, "finished", G_CALLBACK (finished_cb), &site);
  cg_crawler_start (crawler);
  g_main_loop_run (site.loop);
  g_assert_cmpint (site.end, ==, CG_CRAWL_END_DONE);

  report = cg_crawl_report_build (project, cg_crawler_get_crawl_id (crawler), &error);
  g_assert_no_error (error);
  g_assert_nonnull (report);
  g_test_message ("%s", report);

  first_line = g_strdup_printf ("Crawl %" G_GINT64_FORMAT " of %s: ", cg_crawler_get_crawl_id (crawler), site.base);
  g_assert_true (g_str_has_prefix (report, first_line));
  /* Every answer the server gave is archived, by its status and host. */
  g_assert_cmpint (table_count (report, "Status codes", "200"), ==,
                   GPOINTER_TO_UINT (g_hash_table_lookup (site.by_status, GUINT_TO_POINTER (200))));
  g_assert_cmpint (table_count (report, "Status codes", "404"), ==,
                   GPOINTER_TO_UINT (g_hash_table_lookup (site.by_status, GUINT_TO_POINTER (404))));
  g_assert_cmpint (table_count (report, "Status codes", "404"), ==, 1);
  g_assert_cmpint (table_count (report, "Hosts", host), ==, site.answered);
  g_assert_cmpint (table_count (report, "MIME types", "text/html"), ==, 3);
  /* The page robots.txt keeps out is counted, not fetched. */
  g_assert_cmpint (table_count (report, "Not fetched, by reason", "robots"), ==, 1);
  g_assert_cmpint (table_count (report, "URLs", "skipped"), >=, 1);
  g_assert_null (strstr (report, "private"));

  g_clear_object (&crawler);
  g_clear_object (&project);
  g_hash_table_unref (site.by_status);
  g_main_loop_unref (site.loop);
  g_object_unref (site.server);
  g_free (site.base);
}

/* A crawl the project does not have is an error that names it. */
static void
test_no_such_crawl (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgTestFolder) dir = cg_test_folder_new ("cg-crawl-report-XXXXXX");
  g_autoptr(CgProject) project = NULL;
  g_autofree char *report = NULL;

  project = cg_project_create (dir, NULL, &error);
  g_assert_no_error (error);
  report = cg_crawl_report_build (project, 4242, &error);
  g_assert_null (report);
  g_assert_error (error, CG_STORE_ERROR, CG_STORE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "4242"));

  g_clear_object (&project);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/crawl-report/report", test_report);
  g_test_add_func ("/crawl-report/no-such-crawl", test_no_such_crawl);
  return g_test_run ();
}
