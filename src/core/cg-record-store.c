/* cg-record-store.c: data records and wrappers of page classes, in the store.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "cg-record-store.h"

static const char * const wrapper_kind_names[] = {
  [CG_WRAPPER_LIST] = "list",
  [CG_WRAPPER_DETAIL] = "detail",
};

const char *
cg_wrapper_kind_to_string (CgWrapperKind kind)
{
  g_return_val_if_fail (kind < G_N_ELEMENTS (wrapper_kind_names), NULL);
  return wrapper_kind_names[kind];
}

gboolean
cg_wrapper_kind_from_string (const char    *text,
                             CgWrapperKind *out_kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (wrapper_kind_names); i++)
    if (g_strcmp0 (text, wrapper_kind_names[i]) == 0)
      {
        *out_kind = i;
        return TRUE;
      }
  return FALSE;
}

CgRecord *
cg_record_new (const char         *region,
               guint               position,
               const char * const *columns,
               const char * const *values)
{
  CgRecord *record = g_new0 (CgRecord, 1);

  g_return_val_if_fail (g_strv_length ((GStrv) columns) == g_strv_length ((GStrv) values), record);

  record->region = g_strdup (region);
  record->position = position;
  record->columns = g_strdupv ((GStrv) columns);
  record->values = g_strdupv ((GStrv) values);
  return record;
}

CgRecord *
cg_record_copy (const CgRecord *record)
{
  CgRecord *copy = cg_record_new (record->region, record->position,
                                  (const char * const *) record->columns,
                                  (const char * const *) record->values);

  copy->id = record->id;
  copy->url_id = record->url_id;
  copy->url = g_strdup (record->url);
  copy->class_name = g_strdup (record->class_name);
  return copy;
}

void
cg_record_free (CgRecord *record)
{
  if (record == NULL)
    return;
  g_free (record->url);
  g_free (record->class_name);
  g_free (record->region);
  g_strfreev (record->columns);
  g_strfreev (record->values);
  g_free (record);
}

const char *
cg_record_get (const CgRecord *record,
               const char     *column)
{
  for (guint i = 0; record->columns != NULL && record->columns[i] != NULL; i++)
    if (g_str_equal (record->columns[i], column))
      return record->values[i];
  return NULL;
}

void
cg_stored_wrapper_free (CgStoredWrapper *wrapper)
{
  if (wrapper == NULL)
    return;
  g_free (wrapper->class_name);
  g_free (wrapper->definition);
  g_free (wrapper);
}

/* Fields are kept as one JSON object so that each class can have its own
 * columns without a table per class; json-glib keeps the members in the
 * order they were added, which is the wrapper's column order. */
static char *
fields_to_json (const CgRecord  *record,
                GError         **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(JsonNode) root = NULL;
  guint n_columns = record->columns != NULL ? g_strv_length (record->columns) : 0;
  guint n_values = record->values != NULL ? g_strv_length (record->values) : 0;

  if (n_columns != n_values)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Record %u of region “%s” has %u columns but %u values"),
                   record->position, record->region, n_columns, n_values);
      return NULL;
    }

  json_builder_begin_object (builder);
  for (guint i = 0; i < n_columns; i++)
    {
      if (!g_hash_table_add (seen, record->columns[i]))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("Record %u of region “%s” has the column “%s” twice"),
                       record->position, record->region, record->columns[i]);
          return NULL;
        }
      json_builder_set_member_name (builder, record->columns[i]);
      json_builder_add_string_value (builder, record->values[i]);
    }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  return json_to_string (root, FALSE);
}

static gboolean
fields_from_json (CgRecord    *record,
                  const char  *json,
                  GError     **error)
{
  g_autoptr(JsonNode) root = json_from_string (json, error);
  g_autoptr(GList) members = NULL;
  g_autoptr(GPtrArray) columns = g_ptr_array_new ();
  g_autoptr(GPtrArray) values = g_ptr_array_new ();
  JsonObject *object;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_clear_error (error);
      g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_CORRUPT,
                   _("Record %" PRId64 " has fields that are not a JSON object"),
                   record->id);
      return FALSE;
    }
  object = json_node_get_object (root);
  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *value = json_object_get_member (object, l->data);

      g_ptr_array_add (columns, g_strdup (l->data));
      g_ptr_array_add (values, g_strdup (JSON_NODE_HOLDS_VALUE (value)
                                         ? json_node_get_string (value) : NULL));
      if (g_ptr_array_index (values, values->len - 1) == NULL)
        g_ptr_array_index (values, values->len - 1) = g_strdup ("");
    }
  g_ptr_array_add (columns, NULL);
  g_ptr_array_add (values, NULL);
  record->columns = (GStrv) g_ptr_array_steal (columns, NULL);
  record->values = (GStrv) g_ptr_array_steal (values, NULL);
  return TRUE;
}

gboolean
cg_record_store_replace_page (CgStore     *store,
                              gint64       model_id,
                              const char  *class_name,
                              gint64       url_id,
                              GPtrArray   *records,
                              GError     **error)
{
  g_autoptr(sqlite3_stmt) delete = NULL;
  g_autoptr(GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (class_name != NULL, FALSE);

  /* Everything that can be wrong with the input is found before the
   * transaction, so that a bad record leaves the page's old ones. */
  for (guint i = 0; records != NULL && i < records->len; i++)
    {
      char *json = fields_to_json (g_ptr_array_index (records, i), error);

      if (json == NULL)
        return FALSE;
      g_ptr_array_add (fields, json);
    }

  if (!cg_store_begin (store, error))
    return FALSE;
  delete = cg_store_prepare (store, "DELETE FROM records WHERE model_id = ?1 AND url_id = ?2", error);
  if (delete == NULL)
    goto fail;
  sqlite3_bind_int64 (delete, 1, model_id);
  sqlite3_bind_int64 (delete, 2, url_id);
  if (!cg_store_step_done (store, delete, error))
    goto fail;

  for (guint i = 0; records != NULL && i < records->len; i++)
    {
      CgRecord *record = g_ptr_array_index (records, i);
      g_autoptr(sqlite3_stmt) insert = NULL;

      insert = cg_store_prepare (store,
                                 "INSERT INTO records (model_id, class, url_id, region, position, fields) "
                                 "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                                 error);
      if (insert == NULL)
        goto fail;
      sqlite3_bind_int64 (insert, 1, model_id);
      sqlite3_bind_text (insert, 2, class_name, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (insert, 3, url_id);
      sqlite3_bind_text (insert, 4, record->region != NULL ? record->region : "", -1, SQLITE_STATIC);
      sqlite3_bind_int64 (insert, 5, record->position);
      sqlite3_bind_text (insert, 6, g_ptr_array_index (fields, i), -1, SQLITE_STATIC);
      if (!cg_store_step_done (store, insert, error))
        goto fail;
    }
  return cg_store_commit (store, error);

fail:
  cg_store_rollback (store);
  return FALSE;
}

GPtrArray *
cg_record_store_list (CgStore     *store,
                      gint64       model_id,
                      const char  *class_name,
                      GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_record_free);
  int rc;

  stmt = cg_store_prepare (store,
                           "SELECT r.id, r.url_id, u.url, r.class, r.region, r.position, r.fields "
                           "FROM records r JOIN urls u ON u.id = r.url_id "
                           "WHERE r.model_id = ?1 AND (?2 IS NULL OR r.class = ?2) "
                           "ORDER BY u.url, r.url_id, r.region, r.position",
                           error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, model_id);
  sqlite3_bind_text (stmt, 2, class_name, -1, SQLITE_STATIC);

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr(CgRecord) record = g_new0 (CgRecord, 1);

      record->id = sqlite3_column_int64 (stmt, 0);
      record->url_id = sqlite3_column_int64 (stmt, 1);
      record->url = g_strdup ((const char *) sqlite3_column_text (stmt, 2));
      record->class_name = g_strdup ((const char *) sqlite3_column_text (stmt, 3));
      record->region = g_strdup ((const char *) sqlite3_column_text (stmt, 4));
      record->position = sqlite3_column_int64 (stmt, 5);
      if (!fields_from_json (record, (const char *) sqlite3_column_text (stmt, 6), error))
        return NULL;
      g_ptr_array_add (records, g_steal_pointer (&record));
    }
  if (rc != SQLITE_DONE)
    {
      g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_SQL,
                   _("Could not read the records: %s"),
                   sqlite3_errmsg (cg_store_get_db (store)));
      return NULL;
    }
  return g_steal_pointer (&records);
}

gint64
cg_record_store_count (CgStore  *store,
                       gint64    model_id,
                       GError  **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  stmt = cg_store_prepare (store, "SELECT count(*) FROM records WHERE model_id = ?1", error);
  if (stmt == NULL)
    return -1;
  sqlite3_bind_int64 (stmt, 1, model_id);
  /* An aggregate always has its row; without it the read failed. */
  if ((rc = sqlite3_step (stmt)) != SQLITE_ROW)
    {
      cg_store_set_error (store, rc, error);
      return -1;
    }
  return sqlite3_column_int64 (stmt, 0);
}

GHashTable *
cg_record_store_count_by_class (CgStore  *store,
                                gint64    model_id,
                                GError  **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  int rc;

  stmt = cg_store_prepare (store,
                           "SELECT class, count(*) FROM records WHERE model_id = ?1 GROUP BY class",
                           error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, model_id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_hash_table_insert (counts,
                         g_strdup ((const char *) sqlite3_column_text (stmt, 0)),
                         GUINT_TO_POINTER ((guint) sqlite3_column_int64 (stmt, 1)));
  if (rc != SQLITE_DONE)
    {
      g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_SQL,
                   _("Could not count the records: %s"),
                   sqlite3_errmsg (cg_store_get_db (store)));
      return NULL;
    }
  return g_steal_pointer (&counts);
}

gboolean
cg_record_store_clear (CgStore     *store,
                       gint64       model_id,
                       const char  *class_name,
                       GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  stmt = cg_store_prepare (store,
                           "DELETE FROM records WHERE model_id = ?1 AND (?2 IS NULL OR class = ?2)",
                           error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, model_id);
  sqlite3_bind_text (stmt, 2, class_name, -1, SQLITE_STATIC);
  return cg_store_step_done (store, stmt, error);
}

gboolean
cg_record_store_set_extracted (CgStore   *store,
                               gint64     model_id,
                               gboolean   extracted,
                               GError   **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  stmt = cg_store_prepare (store,
                           "UPDATE models SET records_extracted_at = CASE WHEN ?2 THEN ?3 END WHERE id = ?1",
                           error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, model_id);
  sqlite3_bind_int (stmt, 2, extracted);
  sqlite3_bind_int64 (stmt, 3, g_get_real_time () / G_USEC_PER_SEC);
  return cg_store_step_done (store, stmt, error);
}

gboolean
cg_record_store_is_extracted (CgStore   *store,
                              gint64     model_id,
                              gboolean  *extracted,
                              GError   **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  stmt = cg_store_prepare (store, "SELECT records_extracted_at IS NOT NULL FROM models WHERE id = ?1", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, model_id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_DONE)
    {
      g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_NOT_FOUND,
                   _("There is no model %" PRId64 " in the project"), model_id);
      return FALSE;
    }
  if (rc != SQLITE_ROW)
    return cg_store_set_error (store, rc, error);
  *extracted = sqlite3_column_int (stmt, 0) != 0;
  return TRUE;
}

gboolean
cg_record_store_save_wrapper (CgStore        *store,
                              gint64          model_id,
                              const char     *class_name,
                              CgWrapperKind   kind,
                              const char     *definition,
                              guint           n_pages,
                              GError        **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(JsonNode) parsed = NULL;
  g_autoptr(GError) json_error = NULL;

  g_return_val_if_fail (class_name != NULL && definition != NULL, FALSE);

  parsed = json_from_string (definition, &json_error);
  if (parsed == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("The wrapper of class “%s” is not valid JSON: %s"),
                   class_name, json_error != NULL ? json_error->message : _("empty"));
      return FALSE;
    }

  stmt = cg_store_prepare (store,
                           "INSERT INTO wrappers (model_id, class, kind, definition, n_pages, created_at) "
                           "VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
                           "ON CONFLICT (model_id, class) DO UPDATE SET kind = excluded.kind, "
                           "definition = excluded.definition, n_pages = excluded.n_pages, "
                           "created_at = excluded.created_at",
                           error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, model_id);
  sqlite3_bind_text (stmt, 2, class_name, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 3, cg_wrapper_kind_to_string (kind), -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 4, definition, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 5, n_pages);
  sqlite3_bind_int64 (stmt, 6, g_get_real_time ());
  return cg_store_step_done (store, stmt, error);
}

static CgStoredWrapper *
wrapper_from_row (sqlite3_stmt  *stmt,
                  GError       **error)
{
  g_autoptr(CgStoredWrapper) wrapper = g_new0 (CgStoredWrapper, 1);
  const char *kind = (const char *) sqlite3_column_text (stmt, 1);

  wrapper->class_name = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  if (!cg_wrapper_kind_from_string (kind, &wrapper->kind))
    {
      g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_CORRUPT,
                   _("The wrapper of class “%s” has the unknown kind “%s”"),
                   wrapper->class_name, kind);
      return NULL;
    }
  wrapper->definition = g_strdup ((const char *) sqlite3_column_text (stmt, 2));
  wrapper->n_pages = sqlite3_column_int64 (stmt, 3);
  wrapper->created_at = sqlite3_column_int64 (stmt, 4);
  return g_steal_pointer (&wrapper);
}

CgStoredWrapper *
cg_record_store_load_wrapper (CgStore     *store,
                              gint64       model_id,
                              const char  *class_name,
                              GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  stmt = cg_store_prepare (store,
                           "SELECT class, kind, definition, n_pages, created_at FROM wrappers "
                           "WHERE model_id = ?1 AND class = ?2",
                           error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, model_id);
  sqlite3_bind_text (stmt, 2, class_name, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    return wrapper_from_row (stmt, error);
  if (rc == SQLITE_DONE)
    g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_NOT_FOUND,
                 _("The class “%s” has no wrapper yet"), class_name);
  else
    g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_SQL,
                 _("Could not read the wrapper of class “%s”: %s"),
                 class_name, sqlite3_errmsg (cg_store_get_db (store)));
  return NULL;
}

GPtrArray *
cg_record_store_list_wrappers (CgStore  *store,
                               gint64    model_id,
                               GError  **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GPtrArray) wrappers = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_stored_wrapper_free);
  int rc;

  stmt = cg_store_prepare (store,
                           "SELECT class, kind, definition, n_pages, created_at FROM wrappers "
                           "WHERE model_id = ?1 ORDER BY class",
                           error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, model_id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      CgStoredWrapper *wrapper = wrapper_from_row (stmt, error);

      if (wrapper == NULL)
        return NULL;
      g_ptr_array_add (wrappers, wrapper);
    }
  if (rc != SQLITE_DONE)
    {
      g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_SQL,
                   _("Could not read the wrappers: %s"),
                   sqlite3_errmsg (cg_store_get_db (store)));
      return NULL;
    }
  return g_steal_pointer (&wrappers);
}
