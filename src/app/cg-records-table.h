/* cg-records-table.h: the data records of a page class, as a sortable, searchable table.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "cg-export.h"
#include "cg-record-regions.h"
#include "cg-record-store.h"

G_BEGIN_DECLS

/* At most this many field columns are shown (a wrapper has at most
 * CG_WRAPPER_MAX_COLUMNS); further ones are still exported. */
#define CG_RECORDS_TABLE_MAX_COLUMNS 200

/* One row of the table: a record, which it owns and never changes, so a
 * row can be read from another thread (an export runs in one). */
#define CG_TYPE_RECORD_ROW (cg_record_row_get_type ())
G_DECLARE_FINAL_TYPE (CgRecordRow, cg_record_row, CG, RECORD_ROW, GObject)

const CgRecord   *cg_record_row_get_record       (CgRecordRow     *self);

/* The table has one column per field, then the page's URL and the
 * record's position in its page; every column sorts (text naturally, so
 * that "page 9" comes before "page 10"). The search entry keeps the rows
 * with the text in any field or the URL, ignoring case. Export writes the
 * rows shown, in the order shown, with the columns url, region, position
 * and the fields (a field named like one of the first three gets the
 * prefix "field_"): with a class's records, those of the region shown.
 *
 * Signals:
 *   "toast" (const char *message) → gboolean: an export done or failed;
 *     return TRUE when the message was shown. */
#define CG_TYPE_RECORDS_TABLE (cg_records_table_get_type ())
G_DECLARE_FINAL_TYPE (CgRecordsTable, cg_records_table, CG, RECORDS_TABLE, AdwBin)

GtkWidget        *cg_records_table_new           (void);

/* Shows @records (CgRecord; they are copied), all at once, without a
 * region chooser. @columns names the fields in the order to show them;
 * fields of the records that it lacks follow, in the order they first
 * appear. NULL @columns: the records' own. NULL @records: none (the empty
 * state). */
void              cg_records_table_set_records   (CgRecordsTable     *self,
                                                  const char * const *columns,
                                                  GPtrArray          *records);
/* Shows the records of a class (CgRecord; they are copied) one region at
 * a time (see cg-record-regions.h): its main region first, with a chooser
 * of the regions that have records, hidden when there is only one. The
 * columns are the region's. @definition is the class's wrapper (its JSON;
 * NULL when there is none). */
void              cg_records_table_set_class_records (CgRecordsTable *self,
                                                      const char     *definition,
                                                      GPtrArray      *records);
/* The region shown, an index of the regions, or -1 when the table shows
 * no class's records. */
int               cg_records_table_get_region    (CgRecordsTable     *self);
/* Shows region @index, as choosing it does; FALSE when it has no record. */
gboolean          cg_records_table_set_region    (CgRecordsTable     *self,
                                                  guint               index);
/* The regions of the class's records, or NULL. */
CgRecordRegions  *cg_records_table_get_regions   (CgRecordsTable     *self);
GtkDropDown      *cg_records_table_get_region_chooser (CgRecordsTable *self);
/* The field columns shown, in order. */
const char * const *cg_records_table_get_columns (CgRecordsTable     *self);
/* All the records, whatever the search. */
guint             cg_records_table_get_n_records (CgRecordsTable     *self);
/* The rows shown (CgRecordRow), searched and sorted. */
GListModel       *cg_records_table_get_rows      (CgRecordsTable     *self);
GtkColumnView    *cg_records_table_get_column_view (CgRecordsTable   *self);

/* What the search entry holds; the rows follow at once (the entry itself
 * waits for a pause in typing). */
void              cg_records_table_set_search_text (CgRecordsTable   *self,
                                                    const char       *text);

/* The file name the export dialog proposes, without extension. */
void              cg_records_table_set_export_name (CgRecordsTable   *self,
                                                    const char       *name);

/* Writes the rows shown to @file (replaced only once it is complete) as
 * CG_EXPORT_CSV or CG_EXPORT_JSONL, in a worker thread. The export
 * buttons use this. */
void              cg_records_table_export_async  (CgRecordsTable     *self,
                                                  GFile              *file,
                                                  CgExportFormat      format,
                                                  GCancellable       *cancellable,
                                                  GAsyncReadyCallback callback,
                                                  gpointer            user_data);
/* The number of records written, or 0 with @error set. */
guint             cg_records_table_export_finish (CgRecordsTable     *self,
                                                  GAsyncResult       *result,
                                                  GError            **error);

G_END_DECLS
