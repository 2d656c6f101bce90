/* cg-harvest-report.c: what changed in each class between two harvests.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "cg-harvest-report.h"
#include "cg-harvester.h"
#include "cg-json.h"

typedef struct {
  char     *class_name;   /* NULL: unclassified */
  guint     status;
  char     *digest;
  gboolean  validators;   /* the fetch kept an ETag or a Last-Modified date */
} PageRow;

static void
page_row_free (PageRow *row)
{
  g_free (row->class_name);
  g_free (row->digest);
  g_free (row);
}

static gboolean
crawl_exists (CgStore  *store,
              gint64    crawl_id,
              GError  **error)
{
  g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (store, "SELECT 1 FROM crawls WHERE id = ?1", error);
  int rc;

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_DONE)
    {
      g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST,
                   _("The project has no crawl %" PRId64), crawl_id);
      return FALSE;
    }
  /* A damaged database is not a crawl that does not exist. */
  if (rc != SQLITE_ROW)
    return cg_store_set_error (store, rc, error);
  return TRUE;
}

/* The HTML pages a crawl archived, by URL: the last fetch of each URL. */
static GHashTable *
load_pages (CgStore  *store,
            gint64    crawl_id,
            GError  **error)
{
  g_autoptr(GHashTable) pages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) page_row_free);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  stmt = cg_store_prepare (store,
                           "SELECT u.url, f.status, f.payload_digest, "
                           "  (SELECT l.class FROM page_labels l WHERE l.url_id = u.id ORDER BY l.model_id DESC LIMIT 1), "
                           "  f.etag IS NOT NULL OR f.last_modified IS NOT NULL "
                           "FROM fetches f JOIN urls u ON u.id = f.url_id "
                           "WHERE f.crawl_id = ?1 "
                           "  AND f.id = (SELECT max(g.id) FROM fetches g WHERE g.url_id = f.url_id) "
                           "  AND f.mime IN ('text/html', 'application/xhtml+xml')",
                           error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      PageRow *row = g_new0 (PageRow, 1);

      row->status = (guint) sqlite3_column_int (stmt, 1);
      row->digest = g_strdup ((const char *) sqlite3_column_text (stmt, 2));
      row->class_name = g_strdup ((const char *) sqlite3_column_text (stmt, 3));
      row->validators = sqlite3_column_int (stmt, 4) != 0;
      g_hash_table_replace (pages, g_strdup ((const char *) sqlite3_column_text (stmt, 0)), row);
    }
  if (rc != SQLITE_DONE)
    {
      g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_SQL, _("Cannot read the pages of crawl %" PRId64 ": %s"),
                   crawl_id, sqlite3_errmsg (cg_store_get_db (store)));
      return NULL;
    }
  return g_steal_pointer (&pages);
}

static gboolean
is_archived (const PageRow *row)
{
  return row->status / 100 == 2 || row->status == 304;
}

/* The count @sql gives for @crawl_id, into @out_count. */
static gboolean
count_fetches (CgStore     *store,
               const char  *sql,
               gint64       crawl_id,
               guint       *out_count,
               GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (store, sql, error);
  int rc;

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  /* A count always has its row; without it the read failed, and a 0 in
   * the report would pass for a figure. */
  if ((rc = sqlite3_step (stmt)) != SQLITE_ROW)
    return cg_store_set_error (store, rc, error);
  *out_count = (guint) sqlite3_column_int64 (stmt, 0);
  return TRUE;
}

/* The state the harvester keeps of the harvest @crawl_id (see
 * cg-harvester.c), or NULL when it cannot be read. */
static JsonNode *
harvest_state (CgProject   *project,
               gint64       crawl_id)
{
  g_autofree char *name = g_strdup_printf ("crawl-%" G_GINT64_FORMAT ".json", crawl_id);
  g_autofree char *path = g_build_filename (cg_project_get_folder (project), "harvests", name, NULL);
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) root = NULL;

  /* The state is a file in the project folder, which a person can edit. */
  if (!g_file_get_contents (path, &text, NULL, NULL) ||
      (root = cg_json_parse (text, -1, NULL)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  return g_steal_pointer (&root);
}

gint64
cg_harvest_get_reused_crawl (CgProject *project,
                             gint64     crawl_id)
{
  g_autoptr(JsonNode) state = NULL;
  JsonNode *node;

  g_return_val_if_fail (CG_IS_PROJECT (project), 0);

  if (crawl_id <= 0 || (state = harvest_state (project, crawl_id)) == NULL)
    return 0;
  node = json_object_get_member (json_node_get_object (state), "reused_crawl");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return 0;
  return MAX (json_node_get_int (node), 0);
}

/* The pages of the harvest @crawl_id: those it fetched, and those of the
 * learning crawl it read back instead. */
static GHashTable *
load_harvest_pages (CgProject  *project,
                    gint64      crawl_id,
                    GError    **error)
{
  CgStore *store = cg_project_get_store (project);
  g_autoptr(GHashTable) pages = load_pages (store, crawl_id, error);
  g_autoptr(GHashTable) reused = NULL;
  gint64 reused_crawl = cg_harvest_get_reused_crawl (project, crawl_id);
  GHashTableIter iter;
  gpointer key, value;

  if (pages == NULL || reused_crawl <= 0)
    return g_steal_pointer (&pages);
  reused = load_pages (store, reused_crawl, error);
  if (reused == NULL)
    return NULL;
  g_hash_table_iter_init (&iter, reused);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (!g_hash_table_contains (pages, key))
      {
        g_hash_table_insert (pages, g_strdup (key), value);
        g_hash_table_iter_steal (&iter);
        g_free (key);
      }
  return g_steal_pointer (&pages);
}

/* Whether the harvest @crawl_id sent conditional requests: what its
 * options, kept in the project (see cg-harvester.c), say; TRUE when they
 * cannot be read, the default. */
static gboolean
harvest_was_conditional (CgProject *project,
                         gint64     crawl_id)
{
  g_autoptr(JsonNode) state = harvest_state (project, crawl_id);
  JsonNode *options = state != NULL ? json_object_get_member (json_node_get_object (state), "options") : NULL;

  gboolean conditional = TRUE;

  /* Options that cannot be read leave the default, as the harvester
   * would have refused to run with them. */
  if (options != NULL && JSON_NODE_HOLDS_OBJECT (options))
    cg_json_read_boolean (json_node_get_object (options), "options", "conditional", &conditional, NULL);
  return conditional;
}

static CgHarvestClassChanges *
changes_for (GHashTable *by_class,
             const char *class_name)
{
  const char *name = class_name != NULL ? class_name : CG_HARVEST_UNCLASSIFIED;
  CgHarvestClassChanges *changes = g_hash_table_lookup (by_class, name);

  if (changes == NULL)
    {
      changes = g_new0 (CgHarvestClassChanges, 1);
      changes->class_name = g_strdup (name);
      g_hash_table_insert (by_class, changes->class_name, changes);
    }
  return changes;
}

static void
class_changes_free (CgHarvestClassChanges *changes)
{
  g_free (changes->class_name);
  g_free (changes);
}

static int
compare_changes (gconstpointer a,
                 gconstpointer b)
{
  const CgHarvestClassChanges *x = *(CgHarvestClassChanges * const *) a;
  const CgHarvestClassChanges *y = *(CgHarvestClassChanges * const *) b;

  return g_strcmp0 (x->class_name, y->class_name);
}

CgHarvestReport *
cg_harvest_report_compute (CgProject  *project,
                           gint64      crawl_id,
                           gint64      previous_crawl_id,
                           GError    **error)
{
  CgStore *store;
  g_autoptr(CgHarvestReport) report = g_new0 (CgHarvestReport, 1);
  g_autoptr(GHashTable) current = NULL;
  g_autoptr(GHashTable) previous = NULL;
  g_autoptr(GHashTable) by_class = g_hash_table_new (g_str_hash, g_str_equal);
  gboolean conditional;
  GHashTableIter iter;
  gpointer key, value;

  g_return_val_if_fail (CG_IS_PROJECT (project), NULL);

  store = cg_project_get_store (project);
  report->crawl_id = crawl_id;
  report->previous_crawl_id = previous_crawl_id;
  report->classes = g_ptr_array_new_with_free_func ((GDestroyNotify) class_changes_free);

  if (!crawl_exists (store, crawl_id, error) ||
      (previous_crawl_id > 0 && !crawl_exists (store, previous_crawl_id, error)))
    return NULL;
  current = load_harvest_pages (project, crawl_id, error);
  if (current == NULL)
    return NULL;
  previous = previous_crawl_id > 0 ? load_harvest_pages (project, previous_crawl_id, error)
                                   : g_hash_table_new (g_str_hash, g_str_equal);
  if (previous == NULL)
    return NULL;
  conditional = previous_crawl_id > 0 && harvest_was_conditional (project, crawl_id);

  g_hash_table_iter_init (&iter, current);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      PageRow *row = value;
      PageRow *before = g_hash_table_lookup (previous, key);
      CgHarvestClassChanges *changes;

      if (!is_archived (row))
        continue;
      report->n_pages++;
      changes = changes_for (by_class, row->class_name);
      if (before == NULL || !is_archived (before))
        changes->n_new++;
      else if (row->status == 304 || g_strcmp0 (row->digest, before->digest) == 0)
        changes->n_unchanged++;
      else
        changes->n_changed++;
    }
  g_hash_table_iter_init (&iter, previous);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      PageRow *before = value;
      PageRow *row = g_hash_table_lookup (current, key);

      if (is_archived (before) && (row == NULL || !is_archived (row)))
        changes_for (by_class, before->class_name)->n_gone++;
    }

  g_hash_table_iter_init (&iter, by_class);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (report->classes, value);
  g_ptr_array_sort (report->classes, compare_changes);

  if (!count_fetches (store, "SELECT count(*) FROM fetches WHERE crawl_id = ?1 AND status = 304",
                      crawl_id, &report->n_not_modified, error) ||
      !count_fetches (store, "SELECT count(*) FROM fetches WHERE crawl_id = ?1 AND record_type = 'revisit'",
                      crawl_id, &report->n_revisits, error) ||
      !count_fetches (store, "SELECT count(*) FROM fetches WHERE crawl_id = ?1 AND conditional = 1",
                      crawl_id, &report->n_conditional, error))
    return NULL;
  if (conditional)
    {
      /* Fetches recorded before the store kept whether they were
       * conditional (NULL there) are taken to have been when the URL had
       * validators from an earlier harvest (cg-harvester.c), pages and
       * requisites alike. */
      g_autoptr(sqlite3_stmt) stmt = NULL;
      int rc;

      stmt = cg_store_prepare (store,
                               "SELECT count(*) FROM fetches f JOIN urls u ON u.id = f.url_id "
                               "WHERE f.crawl_id = ?1 AND f.conditional IS NULL AND EXISTS (SELECT 1 FROM fetches p JOIN urls v ON v.id = p.url_id "
                               "  JOIN crawls c ON c.id = p.crawl_id "
                               "  WHERE ((c.kind = 'harvest' AND p.crawl_id <= ?2) OR p.crawl_id = ?3) AND v.url = u.url "
                               "    AND (p.status / 100 = 2 OR p.status = 304) AND p.payload_digest IS NOT NULL "
                               "    AND (p.etag IS NOT NULL OR p.last_modified IS NOT NULL))",
                               error);
      if (stmt == NULL)
        return NULL;
      sqlite3_bind_int64 (stmt, 1, crawl_id);
      sqlite3_bind_int64 (stmt, 2, previous_crawl_id);
      sqlite3_bind_int64 (stmt, 3, cg_harvest_get_reused_crawl (project, previous_crawl_id));
      if ((rc = sqlite3_step (stmt)) != SQLITE_ROW)
        {
          cg_store_set_error (store, rc, error);
          return NULL;
        }
      report->n_conditional += (guint) sqlite3_column_int64 (stmt, 0);
    }
  return g_steal_pointer (&report);
}

void
cg_harvest_report_get_totals (const CgHarvestReport *report,
                              CgHarvestClassChanges *out_totals)
{
  memset (out_totals, 0, sizeof *out_totals);
  for (guint i = 0; i < report->classes->len; i++)
    {
      const CgHarvestClassChanges *changes = g_ptr_array_index (report->classes, i);

      out_totals->n_new += changes->n_new;
      out_totals->n_changed += changes->n_changed;
      out_totals->n_unchanged += changes->n_unchanged;
      out_totals->n_gone += changes->n_gone;
    }
}

static void
add_counts (JsonBuilder                 *builder,
            const CgHarvestClassChanges *changes)
{
  json_builder_set_member_name (builder, "new");
  json_builder_add_int_value (builder, changes->n_new);
  json_builder_set_member_name (builder, "changed");
  json_builder_add_int_value (builder, changes->n_changed);
  json_builder_set_member_name (builder, "unchanged");
  json_builder_add_int_value (builder, changes->n_unchanged);
  json_builder_set_member_name (builder, "gone");
  json_builder_add_int_value (builder, changes->n_gone);
}

char *
cg_harvest_report_to_json (const CgHarvestReport *report)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  CgHarvestClassChanges totals;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "crawl");
  json_builder_add_int_value (builder, report->crawl_id);
  json_builder_set_member_name (builder, "previous_crawl");
  if (report->previous_crawl_id > 0)
    json_builder_add_int_value (builder, report->previous_crawl_id);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "pages");
  json_builder_add_int_value (builder, report->n_pages);
  json_builder_set_member_name (builder, "conditional_requests");
  json_builder_add_int_value (builder, report->n_conditional);
  json_builder_set_member_name (builder, "not_modified");
  json_builder_add_int_value (builder, report->n_not_modified);
  json_builder_set_member_name (builder, "revisits");
  json_builder_add_int_value (builder, report->n_revisits);
  json_builder_set_member_name (builder, "classes");
  json_builder_begin_array (builder);
  for (guint i = 0; i < report->classes->len; i++)
    {
      const CgHarvestClassChanges *changes = g_ptr_array_index (report->classes, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "class");
      json_builder_add_string_value (builder, changes->class_name);
      add_counts (builder, changes);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  cg_harvest_report_get_totals (report, &totals);
  json_builder_set_member_name (builder, "total");
  json_builder_begin_object (builder);
  add_counts (builder, &totals);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  return json_to_string (root, TRUE);
}

void
cg_harvest_report_free (CgHarvestReport *report)
{
  if (report == NULL)
    return;
  g_clear_pointer (&report->classes, g_ptr_array_unref);
  g_free (report);
}
