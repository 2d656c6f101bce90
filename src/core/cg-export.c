/* cg-export.c: a project's model and pages in the formats archivists use.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "cg-export.h"
#include "cg-record-regions.h"
#include "cg-record-store.h"
#include "cg-wrapper.h"

G_DEFINE_QUARK (cg-export-error-quark, cg_export_error)

static const char * const format_names[] = {
  [CG_EXPORT_JSON] = "json",
  [CG_EXPORT_JSONL] = "jsonl",
  [CG_EXPORT_CSV] = "csv",
  [CG_EXPORT_TSV] = "tsv",
  [CG_EXPORT_DOT] = "dot",
  [CG_EXPORT_GRAPHML] = "graphml",
};

gboolean
cg_export_format_from_string (const char     *text,
                              CgExportFormat *out_format)
{
  for (guint i = 0; i < G_N_ELEMENTS (format_names); i++)
    if (g_strcmp0 (text, format_names[i]) == 0)
      {
        *out_format = i;
        return TRUE;
      }
  return FALSE;
}

const char *
cg_export_format_to_string (CgExportFormat format)
{
  return format < G_N_ELEMENTS (format_names) ? format_names[format] : "?";
}

struct _CgTableWriter
{
  GOutputStream  *out;
  CgExportFormat  format;
  GStrv           columns;
  GHashTable     *numeric;   /* column names written as JSON numbers */
  GString        *line;
};

static gboolean
write_line (CgTableWriter  *self,
            GError        **error)
{
  g_string_append_c (self->line, '\n');
  return g_output_stream_write_all (self->out, self->line->str, self->line->len, NULL, NULL, error);
}

static void
append_csv_value (GString    *line,
                  const char *value)
{
  if (value == NULL)
    return;
  if (strpbrk (value, ",\"\r\n") == NULL)
    {
      g_string_append (line, value);
      return;
    }
  g_string_append_c (line, '"');
  for (const char *p = value; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (line, '"');
      g_string_append_c (line, *p);
    }
  g_string_append_c (line, '"');
}

static void
append_tsv_value (GString    *line,
                  const char *value)
{
  for (const char *p = value != NULL ? value : ""; *p != '\0'; p++)
    g_string_append_c (line, *p == '\t' || *p == '\n' || *p == '\r' ? ' ' : *p);
}

static void
append_row (CgTableWriter      *self,
            const char * const *values)
{
  g_string_truncate (self->line, 0);
  for (guint i = 0; self->columns[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append_c (self->line, self->format == CG_EXPORT_CSV ? ',' : '\t');
      if (self->format == CG_EXPORT_CSV)
        append_csv_value (self->line, values[i]);
      else
        append_tsv_value (self->line, values[i]);
    }
}

/* @columns names the fields of every row; the header is written now for
 * CSV and TSV. */
CgTableWriter *
cg_table_writer_new (GOutputStream       *out,
                     CgExportFormat       format,
                     const char * const  *columns,
                     GError             **error)
{
  g_autoptr(CgTableWriter) self = NULL;

  if (format != CG_EXPORT_CSV && format != CG_EXPORT_TSV && format != CG_EXPORT_JSONL)
    {
      g_set_error (error, CG_EXPORT_ERROR, CG_EXPORT_ERROR_FORMAT,
                   _("Rows can be exported as csv, tsv or jsonl, not %s"), cg_export_format_to_string (format));
      return NULL;
    }
  self = g_new0 (CgTableWriter, 1);
  self->out = g_object_ref (out);
  self->format = format;
  self->columns = g_strdupv ((char **) columns);
  self->line = g_string_new (NULL);
  self->numeric = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (format != CG_EXPORT_JSONL)
    {
      append_row (self, columns);
      if (!write_line (self, error))
        return NULL;
    }
  return g_steal_pointer (&self);
}

/* In JSON Lines, @column's values are written as numbers. */
void
cg_table_writer_set_numeric (CgTableWriter *self,
                             const char    *column)
{
  g_hash_table_add (self->numeric, g_strdup (column));
}

/* Writes one row: one value per column, NULL for none. */
gboolean
cg_table_writer_write_row (CgTableWriter       *self,
                           const char * const  *values,
                           GError             **error)
{
  if (self->format == CG_EXPORT_JSONL)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *json = NULL;

      json_builder_begin_object (builder);
      for (guint i = 0; self->columns[i] != NULL; i++)
        {
          json_builder_set_member_name (builder, self->columns[i]);
          if (values[i] != NULL && g_hash_table_contains (self->numeric, self->columns[i]))
            json_builder_add_int_value (builder, g_ascii_strtoll (values[i], NULL, 10));
          else if (values[i] != NULL)
            json_builder_add_string_value (builder, values[i]);
          else
            json_builder_add_null_value (builder);
        }
      json_builder_end_object (builder);
      root = json_builder_get_root (builder);
      json = json_to_string (root, FALSE);
      g_string_assign (self->line, json);
    }
  else
    append_row (self, values);
  return write_line (self, error);
}

void
cg_table_writer_free (CgTableWriter *self)
{
  if (self == NULL)
    return;
  g_clear_object (&self->out);
  g_strfreev (self->columns);
  g_hash_table_unref (self->numeric);
  g_string_free (self->line, TRUE);
  g_free (self);
}

gboolean
cg_export_model (CgSiteModel     *model,
                 CgExportFormat   format,
                 GOutputStream   *out,
                 GError         **error)
{
  g_autofree char *text = NULL;

  switch (format)
    {
    case CG_EXPORT_JSON: text = cg_site_model_to_json (model); break;
    case CG_EXPORT_TSV: text = cg_site_model_to_spec (model); break;
    case CG_EXPORT_DOT: text = cg_site_model_to_dot (model); break;
    case CG_EXPORT_GRAPHML: text = cg_site_model_to_graphml (model); break;
    case CG_EXPORT_JSONL:
    case CG_EXPORT_CSV:
    default:
      g_set_error (error, CG_EXPORT_ERROR, CG_EXPORT_ERROR_FORMAT,
                   _("A model can be exported as json, tsv (crawl spec), dot or graphml, not %s"),
                   cg_export_format_to_string (format));
      return FALSE;
    }
  return g_output_stream_write_all (out, text, strlen (text), NULL, NULL, error);
}

/* The end of an export's rows, @rc being the last step's result: the
 * step's own error, since stepping again would run the query afresh and
 * its first row could have a cut-short export called complete; or, with
 * no row, CG_EXPORT_ERROR_EMPTY with @empty_format's message. */
static gboolean G_GNUC_PRINTF (5, 6)
rows_ended (CgStore     *store,
            int          rc,
            guint        rows,
            GError     **error,
            const char  *empty_format,
            ...)
{
  va_list args;

  if (rc != SQLITE_DONE)
    return cg_store_set_error (store, rc, error);
  if (rows > 0)
    return TRUE;
  va_start (args, empty_format);
  g_propagate_error (error, g_error_new_valist (CG_EXPORT_ERROR, CG_EXPORT_ERROR_EMPTY, empty_format, args));
  va_end (args);
  return FALSE;
}

/* One row per fetched URL, its newest fetch, with the class @model gives
 * it ("unclassified" when it gives none, or when there is no model). */
gboolean
cg_export_pages (CgProject       *project,
                 CgSiteModel     *model,
                 CgExportFormat   format,
                 GOutputStream   *out,
                 GError         **error)
{
  static const char * const columns[] = {
    "url", "class", "status", "mime", "size", "warc_file", "warc_offset", "warc_length",
    "record_type", "fetched_at", "crawl", NULL
  };
  static const char * const numeric[] = { "status", "size", "warc_offset", "warc_length", "crawl" };
  g_autoptr(CgTableWriter) writer = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  CgStore *store = cg_project_get_store (project);
  guint rows = 0;
  int rc;

  writer = cg_table_writer_new (out, format, columns, error);
  if (writer == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (numeric); i++)
    cg_table_writer_set_numeric (writer, numeric[i]);

  stmt = cg_store_prepare (store,
                           "SELECT u.url, coalesce(l.class, 'unclassified'), f.status, f.mime, f.size, w.name, "
                           "  f.warc_offset, f.warc_length, f.record_type, f.fetched_at, f.crawl_id "
                           "FROM fetches f "
                           "JOIN urls u ON u.id = f.url_id "
                           "LEFT JOIN warc_files w ON w.id = f.warc_file_id "
                           "LEFT JOIN page_labels l ON l.url_id = u.id AND l.model_id = ?1 "
                           "WHERE f.id = (SELECT max(id) FROM fetches g WHERE g.url_id = f.url_id) "
                           "ORDER BY f.id",
                           error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, model != NULL ? cg_site_model_get_id (model) : 0);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autofree char *status = g_strdup_printf ("%d", sqlite3_column_int (stmt, 2));
      g_autofree char *size = g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) sqlite3_column_int64 (stmt, 4));
      g_autofree char *offset = g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) sqlite3_column_int64 (stmt, 6));
      g_autofree char *length = g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) sqlite3_column_int64 (stmt, 7));
      g_autofree char *crawl = g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) sqlite3_column_int64 (stmt, 10));
      g_autoptr(GDateTime) when = g_date_time_new_from_unix_utc (sqlite3_column_int64 (stmt, 9) / G_USEC_PER_SEC);
      g_autofree char *fetched_at = g_date_time_format_iso8601 (when);
      const char *values[] = {
        (const char *) sqlite3_column_text (stmt, 0),
        (const char *) sqlite3_column_text (stmt, 1),
        status,
        (const char *) sqlite3_column_text (stmt, 3),
        size,
        (const char *) sqlite3_column_text (stmt, 5),
        offset,
        length,
        (const char *) sqlite3_column_text (stmt, 8),
        fetched_at,
        crawl,
      };

      if (!cg_table_writer_write_row (writer, values, error))
        return FALSE;
      rows++;
    }
  return rows_ended (store, rc, rows, error, _("The project “%s” has no fetched page yet"),
                     cg_project_get_folder (project));
}

gboolean
cg_export_links (CgProject       *project,
                 CgExportFormat   format,
                 GOutputStream   *out,
                 GError         **error)
{
  static const char * const columns[] = { "from", "to", "hop", "anchor", "crawl", NULL };
  g_autoptr(CgTableWriter) writer = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  CgStore *store = cg_project_get_store (project);
  guint rows = 0;
  int rc;

  writer = cg_table_writer_new (out, format, columns, error);
  if (writer == NULL)
    return FALSE;
  cg_table_writer_set_numeric (writer, "crawl");

  /* A page's edges are one row of outlinks, a JSON array (see
   * cg-store.c). */
  stmt = cg_store_prepare (store,
                           "SELECT f.url, t.url, e.value ->> 1, e.value ->> 2, f.crawl_id "
                           "FROM outlinks o "
                           "JOIN urls f ON f.id = o.from_id "
                           "JOIN json_each (o.edges) e "
                           "JOIN urls t ON t.id = e.value ->> 0 "
                           "ORDER BY o.from_id, e.key",
                           error);
  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      /* SQLite gives the crawl's id, never NULL, as its decimal text. */
      const char *values[] = {
        (const char *) sqlite3_column_text (stmt, 0),
        (const char *) sqlite3_column_text (stmt, 1),
        (const char *) sqlite3_column_text (stmt, 2),
        (const char *) sqlite3_column_text (stmt, 3),
        (const char *) sqlite3_column_text (stmt, 4),
      };

      if (!cg_table_writer_write_row (writer, values, error))
        return FALSE;
      rows++;
    }
  return rows_ended (store, rc, rows, error, _("The project “%s” has no links yet: crawls record them"),
                     cg_project_get_folder (project));
}

/* --- Records ------------------------------------------------------------- */

static const char * const record_fixed_columns[] = { "class", "url", "region", "region_index", "position", NULL };

/* The header of a class's records: the fixed columns, then the fields of
 * the regions written (the wrapper's columns in its order, then any other
 * column their stored records have, from an older wrapper). */
static GStrv
record_columns (CgRecordRegions *regions,
                int              region)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_strv_builder_addv (builder, (const char **) record_fixed_columns);
  for (guint r = 0; r < cg_record_regions_get_n_regions (regions); r++)
    {
      const CgRecordRegion *shown = cg_record_regions_get_region (regions, r);

      if (region != CG_EXPORT_REGION_ALL && (guint) region != r)
        continue;
      for (guint c = 0; shown->columns[c] != NULL; c++)
        {
          const char *name = shown->columns[c];

          if (!g_hash_table_add (seen, (gpointer) name))
            continue;
          if (g_strv_contains (record_fixed_columns, name))
            {
              g_autofree char *renamed = g_strconcat ("field_", name, NULL);

              g_strv_builder_add (builder, renamed);
            }
          else
            g_strv_builder_add (builder, name);
        }
    }
  return g_strv_builder_end (builder);
}

/* @region: an index of @regions or CG_EXPORT_REGION_ALL. */
static gboolean
write_class_records (GPtrArray       *records,
                     CgRecordRegions *regions,
                     int              region,
                     CgExportFormat   format,
                     GOutputStream   *out,
                     GError         **error)
{
  g_auto(GStrv) columns = record_columns (regions, region);
  g_autoptr(CgTableWriter) writer = cg_table_writer_new (out, format, (const char * const *) columns, error);
  g_autoptr(GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  guint n_fixed = G_N_ELEMENTS (record_fixed_columns) - 1;
  guint n_columns = g_strv_length (columns);
  g_autofree const char **values = g_new0 (const char *, n_columns + 1);

  if (writer == NULL)
    return FALSE;
  cg_table_writer_set_numeric (writer, "region_index");
  cg_table_writer_set_numeric (writer, "position");
  for (guint i = n_fixed; i < n_columns; i++)
    {
      const char *name = columns[i];

      /* Back from "field_url" to the record's own "url". */
      if (g_str_has_prefix (name, "field_") && g_strv_contains (record_fixed_columns, name + 6))
        name += 6;
      g_hash_table_insert (index, (gpointer) name, GUINT_TO_POINTER (i));
    }
  for (guint r = 0; r < records->len; r++)
    {
      CgRecord *record = g_ptr_array_index (records, r);
      guint record_region = cg_record_regions_get_record_region (regions, r);
      g_autofree char *region_index = NULL;
      g_autofree char *position = NULL;

      if (region != CG_EXPORT_REGION_ALL && (guint) region != record_region)
        continue;
      region_index = g_strdup_printf ("%u", record_region);
      position = g_strdup_printf ("%u", record->position);
      for (guint i = 0; i < n_columns; i++)
        values[i] = NULL;
      values[0] = record->class_name;
      values[1] = record->url;
      values[2] = record->region;
      values[3] = region_index;
      values[4] = position;
      for (guint c = 0; record->columns[c] != NULL; c++)
        {
          gpointer at;

          /* Every column of the records written is in the header. */
          if (g_hash_table_lookup_extended (index, record->columns[c], NULL, &at))
            values[GPOINTER_TO_UINT (at)] = record->values[c];
        }
      if (!cg_table_writer_write_row (writer, values, error))
        return FALSE;
    }
  return TRUE;
}

/* The records of one class and which region each is in. */
static gboolean
export_class (CgProject       *project,
              CgSiteModel     *model,
              const char      *class_name,
              int              region,
              CgExportFormat   format,
              GOutputStream   *out,
              GError         **error)
{
  CgStore *store = cg_project_get_store (project);
  gint64 model_id = cg_site_model_get_id (model);
  g_autoptr(GError) wrapper_error = NULL;
  g_autoptr(CgStoredWrapper) wrapper = cg_record_store_load_wrapper (store, model_id, class_name, &wrapper_error);
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(CgRecordRegions) regions = NULL;
  guint n_regions;

  /* Without its wrapper (or with one that cannot be read) a class's
   * records are still written, grouped by their own regions. */
  if (wrapper == NULL && !g_error_matches (wrapper_error, CG_STORE_ERROR, CG_STORE_ERROR_NOT_FOUND))
    {
      g_propagate_error (error, g_steal_pointer (&wrapper_error));
      return FALSE;
    }
  records = cg_record_store_list (store, model_id, class_name, error);
  if (records == NULL)
    return FALSE;
  regions = cg_record_regions_new (wrapper != NULL ? wrapper->definition : NULL, records);
  n_regions = cg_record_regions_get_n_regions (regions);
  if (region == CG_EXPORT_REGION_MAIN)
    region = cg_record_regions_get_main (regions);
  if (region >= 0 && (guint) region >= n_regions)
    {
      if (n_regions == 0)
        g_set_error (error, CG_EXPORT_ERROR, CG_EXPORT_ERROR_REGION,
                     _("The class “%s” has no region of records: there is no region %d"), class_name, region);
      else if (n_regions == 1)
        g_set_error (error, CG_EXPORT_ERROR, CG_EXPORT_ERROR_REGION,
                     _("The class “%s” has one region of records, 0: there is no region %d"), class_name, region);
      else
        g_set_error (error, CG_EXPORT_ERROR, CG_EXPORT_ERROR_REGION,
                     _("The class “%s” has regions of records 0 to %u: there is no region %d"),
                     class_name, n_regions - 1, region);
      return FALSE;
    }
  if (region >= 0 && cg_record_regions_get_region (regions, region)->n_records == 0)
    {
      g_autofree char *name = cg_record_regions_describe (regions, region);

      g_set_error (error, CG_EXPORT_ERROR, CG_EXPORT_ERROR_EMPTY,
                   _("The region %d (%s) of the class “%s” has no extracted records"), region, name, class_name);
      return FALSE;
    }
  /* A class without records and no region chosen writes nothing. */
  if (region < 0 && region != CG_EXPORT_REGION_ALL)
    return TRUE;
  return write_class_records (records, regions, region, format, out, error);
}

GStrv
cg_export_list_record_classes (CgProject    *project,
                               CgSiteModel  *model,
                               GError      **error)
{
  g_autoptr(GHashTable) counts = cg_record_store_count_by_class (cg_project_get_store (project),
                                                                 cg_site_model_get_id (model), error);
  GPtrArray *classes = cg_site_model_get_classes (model);
  GStrvBuilder *builder;
  GStrv names;

  if (counts == NULL)
    return NULL;
  builder = g_strv_builder_new ();
  for (guint i = 0; i < classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, i);

      if (GPOINTER_TO_UINT (g_hash_table_lookup (counts, klass->name)) > 0)
        g_strv_builder_add (builder, klass->name);
    }
  names = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return names;
}

gboolean
cg_export_records (CgProject       *project,
                   CgSiteModel     *model,
                   const char      *class_name,
                   CgExportFormat   format,
                   GOutputStream   *out,
                   GError         **error)
{
  return cg_export_records_full (project, model, class_name, CG_EXPORT_REGION_ALL, format, out, error);
}

gboolean
cg_export_records_full (CgProject       *project,
                        CgSiteModel     *model,
                        const char      *class_name,
                        int              region,
                        CgExportFormat   format,
                        GOutputStream   *out,
                        GError         **error)
{
  g_autoptr(GHashTable) counts = NULL;
  g_auto(GStrv) classes = NULL;
  guint total = 0;

  if (format != CG_EXPORT_CSV && format != CG_EXPORT_TSV && format != CG_EXPORT_JSONL)
    {
      g_set_error (error, CG_EXPORT_ERROR, CG_EXPORT_ERROR_FORMAT,
                   _("Records can be exported as jsonl, csv or tsv, not %s"), cg_export_format_to_string (format));
      return FALSE;
    }
  if (region < CG_EXPORT_REGION_ALL)
    {
      g_set_error (error, CG_EXPORT_ERROR, CG_EXPORT_ERROR_REGION,
                   _("%d is not a region: regions are numbered from 0"), region);
      return FALSE;
    }
  if (class_name != NULL && cg_site_model_get_class (model, class_name) == NULL)
    {
      g_set_error (error, CG_EXPORT_ERROR, CG_EXPORT_ERROR_EMPTY,
                   _("The model version %d of %s has no class “%s”"),
                   cg_site_model_get_version (model), cg_site_model_get_site (model), class_name);
      return FALSE;
    }
  if (class_name != NULL)
    classes = g_strdupv ((char *[]) { (char *) class_name, NULL });
  else
    {
      classes = cg_export_list_record_classes (project, model, error);
      if (classes == NULL)
        return FALSE;
    }
  if (classes[0] != NULL && classes[1] != NULL && format != CG_EXPORT_JSONL)
    {
      g_set_error (error, CG_EXPORT_ERROR, CG_EXPORT_ERROR_FORMAT,
                   _("Records of %u classes do not fit one %s table: name a class, or export as jsonl"),
                   g_strv_length (classes), cg_export_format_to_string (format));
      return FALSE;
    }
  counts = cg_record_store_count_by_class (cg_project_get_store (project), cg_site_model_get_id (model), error);
  if (counts == NULL)
    return FALSE;
  for (guint i = 0; classes[i] != NULL; i++)
    total += GPOINTER_TO_UINT (g_hash_table_lookup (counts, classes[i]));
  if (total == 0)
    {
      if (class_name != NULL)
        g_set_error (error, CG_EXPORT_ERROR, CG_EXPORT_ERROR_EMPTY,
                     _("The class “%s” of the project “%s” has no extracted records (run “cartograph-cli extract”)"),
                     class_name, cg_project_get_folder (project));
      else
        g_set_error (error, CG_EXPORT_ERROR, CG_EXPORT_ERROR_EMPTY,
                     _("The project “%s” has no extracted records (run “cartograph-cli extract”)"),
                     cg_project_get_folder (project));
      return FALSE;
    }
  for (guint i = 0; classes[i] != NULL; i++)
    if (!export_class (project, model, classes[i], region, format, out, error))
      return FALSE;
  return TRUE;
}
