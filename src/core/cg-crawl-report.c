/* cg-crawl-report.c: what a crawl fetched, in figures.
 *
 * The summary Heritrix gives at the end of a job, read from the store:
 * URLs by state, status codes, MIME types, hosts, bytes and duration.
 * The report is for people and translated; the figures, URLs, hosts and
 * reasons in it are the store's own.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <glib/gi18n-lib.h>

#include "cg-crawl-report.h"

#define REPORT_TOP_ROWS 20

static gboolean
append_table (GString     *out,
              CgStore     *store,
              gint64       crawl_id,
              const char  *title,
              const char  *sql,
              GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (store, sql, error);
  int rc;

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  sqlite3_bind_int (stmt, 2, REPORT_TOP_ROWS);
  g_string_append_printf (out, "\n%s\n", title);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *key = (const char *) sqlite3_column_text (stmt, 0);
      g_autofree char *bytes = g_format_size ((guint64) (gint64) sqlite3_column_int64 (stmt, 2));

      g_string_append_printf (out, "  %-40s %10" G_GINT64_FORMAT "  %10s\n",
                              key != NULL ? key : "-", (gint64) sqlite3_column_int64 (stmt, 1), bytes);
    }
  /* The error is the step's own: stepping again would run the query
   * afresh, and could call a table cut short by the error complete. */
  return rc == SQLITE_DONE || cg_store_set_error (store, rc, error);
}

char *
cg_crawl_report_build (CgProject  *project,
                       gint64      crawl_id,
                       GError    **error)
{
  CgStore *store = cg_project_get_store (project);
  g_autoptr(sqlite3_stmt) crawl = NULL;
  g_autoptr(sqlite3_stmt) states = NULL;
  g_autoptr(sqlite3_stmt) totals = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *bytes = NULL;
  /* Indexed by the urls table's state column. */
  static const char * const state_names[] = {
    /* Translators: the states of a crawl's URLs, in its summary report. */
    N_("queued"), N_("in flight"), N_("done"), N_("failed"), N_("skipped")
  };
  int rc;

  crawl = cg_store_prepare (store, "SELECT seed_url, state, started_at, finished_at FROM crawls WHERE id = ?1", error);
  if (crawl == NULL)
    return NULL;
  sqlite3_bind_int64 (crawl, 1, crawl_id);
  rc = sqlite3_step (crawl);
  if (rc == SQLITE_DONE)
    {
      g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_NOT_FOUND,
                   _("The project has no crawl %" PRId64), crawl_id);
      return NULL;
    }
  /* A damaged database is not a crawl that does not exist. */
  if (rc != SQLITE_ROW)
    {
      cg_store_set_error (store, rc, error);
      return NULL;
    }
  /* Translators: the first line of a crawl's report: its number, its
   * first seed URL and its state. */
  g_string_append_printf (out, _("Crawl %" PRId64 " of %s: %s\n"), crawl_id,
                          (const char *) sqlite3_column_text (crawl, 0),
                          (const char *) sqlite3_column_text (crawl, 1));
  if (sqlite3_column_type (crawl, 2) != SQLITE_NULL && sqlite3_column_type (crawl, 3) != SQLITE_NULL)
    g_string_append_printf (out, _("Duration (last run): %" PRId64 " s\n"),
                            (gint64) sqlite3_column_int64 (crawl, 3) - (gint64) sqlite3_column_int64 (crawl, 2));

  states = cg_store_prepare (store, "SELECT state, count(*) FROM urls WHERE crawl_id = ?1 GROUP BY state", error);
  if (states == NULL)
    return NULL;
  sqlite3_bind_int64 (states, 1, crawl_id);
  g_string_append_printf (out, "\n%s\n", _("URLs"));
  while ((rc = sqlite3_step (states)) == SQLITE_ROW)
    {
      int state = sqlite3_column_int (states, 0);

      g_string_append_printf (out, "  %-40s %10" G_GINT64_FORMAT "\n",
                              state >= 0 && state < (int) G_N_ELEMENTS (state_names) ? _(state_names[state]) : "?",
                              (gint64) sqlite3_column_int64 (states, 1));
    }
  /* A read error ends the rows too: the report would leave out the URLs
   * it could not count and still look whole. */
  if (rc != SQLITE_DONE)
    {
      cg_store_set_error (store, rc, error);
      return NULL;
    }

  totals = cg_store_prepare (store,
                             "SELECT count(*), coalesce(sum(size), 0), "
                             "  count(CASE WHEN record_type = 'revisit' THEN 1 END) "
                             "FROM fetches WHERE crawl_id = ?1",
                             error);
  if (totals == NULL)
    return NULL;
  sqlite3_bind_int64 (totals, 1, crawl_id);
  /* An aggregate always has its row; without it the read failed. */
  rc = sqlite3_step (totals);
  if (rc != SQLITE_ROW)
    {
      cg_store_set_error (store, rc, error);
      return NULL;
    }
  bytes = g_format_size ((guint64) (gint64) sqlite3_column_int64 (totals, 1));
  g_string_append_c (out, '\n');
  g_string_append_printf (out, _("Archived: %" PRId64 " responses (%" PRId64
                                 " of them revisits), %s of payload\n"),
                          (gint64) sqlite3_column_int64 (totals, 0), (gint64) sqlite3_column_int64 (totals, 2), bytes);

  if (!append_table (out, store, crawl_id, _("Status codes"),
                     "SELECT status, count(*), sum(size) FROM fetches WHERE crawl_id = ?1 "
                     "GROUP BY status ORDER BY count(*) DESC LIMIT ?2", error) ||
      !append_table (out, store, crawl_id, _("MIME types"),
                     "SELECT mime, count(*), sum(size) FROM fetches WHERE crawl_id = ?1 "
                     "GROUP BY mime ORDER BY count(*) DESC LIMIT ?2", error) ||
      !append_table (out, store, crawl_id, _("Hosts"),
                     "SELECT h.host_key, count(*), sum(f.size) FROM fetches f "
                     "JOIN urls u ON u.id = f.url_id JOIN hosts h ON h.id = u.host_id "
                     "WHERE f.crawl_id = ?1 GROUP BY h.id ORDER BY count(*) DESC LIMIT ?2", error) ||
      !append_table (out, store, crawl_id, _("Not fetched, by reason"),
                     "SELECT reason, count(*), 0 FROM urls WHERE crawl_id = ?1 AND state IN (3, 4) "
                     "GROUP BY reason ORDER BY count(*) DESC LIMIT ?2", error))
    return NULL;

  return g_string_free (g_steal_pointer (&out), FALSE);
}
