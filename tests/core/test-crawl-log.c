/* test-crawl-log.c: crawl.log lines as Heritrix writes them.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>

#include "cg-crawl-log.h"
#include "cg-test-files.h"

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
  g_autoptr(CgTestFolder) dir = cg_test_folder_new ("cg-log-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "crawl.log", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  CgCrawlLogEntry entry = { .log_time_us = LOG_TIME, .status = 404, .size = 10, .url = "http://a.test/x" };
  g_auto(GStrv) lines = NULL;

  for (int round = 0; round < 2; round++)
    {
      g_autoptr(CgCrawlLog) log = cg_crawl_log_open (path, -1, &error);

      g_assert_no_error (error);
      g_assert_true (cg_crawl_log_write (log, &entry, &error));
      g_assert_true (cg_crawl_log_flush (log, &error));
    }
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  g_assert_cmpstr (lines[2], ==, "");
  g_assert_nonnull (strstr (lines[1], "http://a.test/x"));
}

/* Appends one entry to the log at @path, as a resumed crawl does, and
 * returns the log's lines. */
static GStrv
append_and_read (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgCrawlLog) log = cg_crawl_log_open (path, -1, &error);
  CgCrawlLogEntry entry = { .log_time_us = LOG_TIME, .status = 200, .size = 10, .url = "http://a.test/resumed" };
  g_autofree char *contents = NULL;

  g_assert_no_error (error);
  g_assert_true (cg_crawl_log_write (log, &entry, &error));
  g_assert_true (cg_crawl_log_flush (log, &error));
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  return g_strsplit (contents, "\n", -1);
}

/* Lines reach the file when the log is flushed, as a crawl commits;
 * lines discarded before, as a crawl rolls back, never do. */
static void
test_held_until_flushed (void)
{
  g_autoptr(CgTestFolder) dir = cg_test_folder_new ("cg-log-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "crawl.log", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CgCrawlLog) log = cg_crawl_log_open (path, -1, &error);
  const char *urls[] = { "http://a.test/kept", "http://a.test/rolled-back", "http://a.test/after" };
  g_autofree char *contents = NULL;

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (urls); i++)
    {
      CgCrawlLogEntry entry = { .log_time_us = LOG_TIME, .status = 200, .size = 10, .url = urls[i] };
      g_autofree char *before = NULL;

      g_assert_true (cg_crawl_log_write (log, &entry, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (path, &before, NULL, NULL));
      g_assert_null (strstr (before, urls[i]));
      if (i == 1)
        cg_crawl_log_discard (log);
      else
        g_assert_true (cg_crawl_log_flush (log, &error));
      g_assert_no_error (error);
    }
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, " http://a.test/kept "));
  g_assert_null (strstr (contents, "rolled-back"));
  g_assert_nonnull (strstr (contents, " http://a.test/after "));
  g_clear_object (&log);
}

static void
write_line (CgCrawlLog *log,
            const char *url)
{
  g_autoptr(GError) error = NULL;
  CgCrawlLogEntry entry = { .log_time_us = LOG_TIME, .status = 200, .size = 10, .url = url };

  g_assert_true (cg_crawl_log_write (log, &entry, &error));
  g_assert_true (cg_crawl_log_flush (log, &error));
  g_assert_no_error (error);
}

/* A crawl stores the log's size with each commit. Opened again with that
 * size, the log loses the lines written after it (of what a killed run
 * did not commit); a commit that fails cuts them at once. */
static void
test_cut_to_committed_size (void)
{
  g_autoptr(CgTestFolder) dir = cg_test_folder_new ("cg-log-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "crawl.log", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CgCrawlLog) log = cg_crawl_log_open (path, 0, &error);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  goffset committed;

  g_assert_no_error (error);
  g_assert_cmpint (cg_crawl_log_get_size (log), ==, 0);
  write_line (log, "http://a.test/committed");
  committed = cg_crawl_log_get_size (log);
  g_assert_cmpint (committed, >, 0);
  write_line (log, "http://a.test/killed");
  g_clear_object (&log);

  log = cg_crawl_log_open (path, committed, &error);
  g_assert_no_error (error);
  g_assert_cmpint (cg_crawl_log_get_size (log), ==, committed);
  write_line (log, "http://a.test/failed-commit");
  g_assert_true (cg_crawl_log_cut (log, committed, &error));
  g_assert_no_error (error);
  write_line (log, "http://a.test/again");
  g_clear_object (&log);

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, " http://a.test/committed "));
  g_assert_null (strstr (contents, "killed"));
  g_assert_null (strstr (contents, "failed-commit"));
  g_assert_nonnull (strstr (contents, " http://a.test/again "));
  /* Two whole lines, the first where it was. */
  g_assert_true (contents[committed - 1] == '\n');
  lines = g_strsplit (contents, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  g_assert_cmpstr (lines[2], ==, "");
}

/* A crawl killed in the middle of a line (or stopped there by a full
 * disk) leaves half of it; resuming cuts it instead of gluing the next
 * line to it. Lines before it are kept, however far back they start. */
static void
test_unfinished_line_cut (void)
{
  g_autoptr(CgTestFolder) dir = cg_test_folder_new ("cg-log-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "crawl.log", NULL);
  g_autoptr(GString) whole = g_string_new (NULL);
  g_autoptr(GString) damaged = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;

  /* Whole lines over more than one block read back from the end. */
  for (int i = 0; i < 100; i++)
    g_string_append_printf (whole, "2011-02-08T22:33:32.574Z   200 %10d http://a.test/page-%03d - - text/html\n",
                            i, i);
  damaged = g_string_new (whole->str);
  g_string_append (damaged, "2011-02-08T22:33:33.001Z   200       8124 http://a.test/ha");
  g_assert_true (g_file_set_contents (path, damaged->str, damaged->len, &error));
  g_assert_no_error (error);

  lines = append_and_read (path);
  g_assert_cmpuint (g_strv_length (lines), ==, 102);
  g_assert_nonnull (strstr (lines[99], "http://a.test/page-099 "));
  g_assert_true (g_str_has_suffix (lines[100], " - -") && strstr (lines[100], " http://a.test/resumed ") != NULL);
  g_assert_true (g_str_has_prefix (lines[100], "2011-02-08T22:33:32.574Z   200"));
  g_assert_cmpstr (lines[101], ==, "");
  g_clear_pointer (&lines, g_strfreev);

  /* A log that is only half a line: nothing whole is in it. */
  g_assert_true (g_file_set_contents (path, "2011-02-08T22:33:33.001Z   2", -1, &error));
  lines = append_and_read (path);
  g_assert_cmpuint (g_strv_length (lines), ==, 2);
  g_assert_nonnull (strstr (lines[0], " http://a.test/resumed "));
  g_clear_pointer (&lines, g_strfreev);

  /* A log that ends with its newline loses nothing. */
  g_assert_true (g_file_set_contents (path, whole->str, whole->len, &error));
  lines = append_and_read (path);
  g_assert_cmpuint (g_strv_length (lines), ==, 102);
  g_assert_nonnull (strstr (lines[0], "http://a.test/page-000 "));
  g_assert_nonnull (strstr (lines[100], " http://a.test/resumed "));

}

/* A folder where the log should be is named in the error. */
static void
test_folder_in_the_way (void)
{
  g_autoptr(CgTestFolder) dir = cg_test_folder_new ("cg-log-XXXXXX");
  g_autofree char *path = g_build_filename (dir, "crawl.log", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CgCrawlLog) log = NULL;

  g_assert_cmpint (g_mkdir (path, 0755), ==, 0);
  log = cg_crawl_log_open (path, -1, &error);
  g_assert_null (log);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, g_strerror (EISDIR)));
}

static void
test_unwritable (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgCrawlLog) log = cg_crawl_log_open ("/nonexistent-folder/crawl.log", -1, &error);

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
  g_test_add_func ("/crawl-log/held-until-flushed", test_held_until_flushed);
  g_test_add_func ("/crawl-log/cut-to-committed-size", test_cut_to_committed_size);
  g_test_add_func ("/crawl-log/unfinished-line-cut", test_unfinished_line_cut);
  g_test_add_func ("/crawl-log/folder-in-the-way", test_folder_in_the_way);
  g_test_add_func ("/crawl-log/unwritable", test_unwritable);

  return g_test_run ();
}
