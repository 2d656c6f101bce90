/* test-crawl-log.c: crawl.log lines as Heritrix writes them.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>

#include "cg-crawl-log.h"

/* 2011-02-08T22:33:32.574Z */
#define LOG_TIME  (G_GINT64_CONSTANT (1297204412) * G_USEC_PER_SEC + 574000)
/* 2011-02-08T22:33:32.454Z */
#define FETCH_TIME (G_GINT64_CONSTANT (1297204412) * G_USEC_PER_SEC + 454000)

static void
test_fetched_page (void)
{
  CgCrawlLogEntry entry = {
    .log_time_us = LOG_TIME,
    .status = 200,
    .size = 35345,
    .url = "http://example.com/about",
    .hops = "LLE",
    .via = "http://example.com/",
    .mime = "text/html",
    .worker = 42,
    .fetch_start_us = FETCH_TIME,
    .duration_ms = 106,
    .digest = "sha1:2WAXX5NUWNNCS2BDKCO5OVDQBJVNKIVV",
    .annotations = "3t",
  };
  g_autofree char *line = cg_crawl_log_format_entry (&entry);

  g_assert_cmpstr (line, ==,
                   "2011-02-08T22:33:32.574Z   200      35345 http://example.com/about LLE "
                   "http://example.com/ text/html #042 20110208223332454+106 "
                   "sha1:2WAXX5NUWNNCS2BDKCO5OVDQBJVNKIVV - 3t");
}

static void
test_seed_blocked_by_robots (void)
{
  CgCrawlLogEntry entry = {
    .log_time_us = LOG_TIME,
    .status = CG_FETCH_STATUS_ROBOTS,
    .size = -1,
    .url = "http://example.com/private/",
    .hops = "",
  };
  g_autofree char *line = cg_crawl_log_format_entry (&entry);

  g_assert_cmpstr (line, ==,
                   "2011-02-08T22:33:32.574Z -9998          - http://example.com/private/ - - no-type #000 - - - -");
}

static void
test_appends (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cg-log-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "crawl.log", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  CgCrawlLogEntry entry = { .log_time_us = LOG_TIME, .status = 404, .size = 10, .url = "http://a.test/x" };
  g_auto(GStrv) lines = NULL;

  for (int round = 0; round < 2; round++)
    {
      g_autoptr(CgCrawlLog) log = cg_crawl_log_open (path, &error);

      g_assert_no_error (error);
      g_assert_true (cg_crawl_log_write (log, &entry, &error));
      g_assert_true (cg_crawl_log_flush (log, &error));
    }
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  g_assert_cmpstr (lines[2], ==, "");
  g_assert_nonnull (strstr (lines[1], "http://a.test/x"));
  g_remove (path);
  g_rmdir (dir);
}

static void
test_unwritable (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgCrawlLog) log = cg_crawl_log_open ("/nonexistent-folder/crawl.log", &error);

  g_assert_null (log);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "/nonexistent-folder/crawl.log"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/crawl-log/fetched-page", test_fetched_page);
  g_test_add_func ("/crawl-log/seed-blocked-by-robots", test_seed_blocked_by_robots);
  g_test_add_func ("/crawl-log/appends", test_appends);
  g_test_add_func ("/crawl-log/unwritable", test_unwritable);

  return g_test_run ();
}
