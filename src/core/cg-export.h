/* cg-export.h: a project's model and pages in the formats archivists use.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cg-project.h"
#include "cg-site-model.h"

G_BEGIN_DECLS

#define CG_EXPORT_ERROR (cg_export_error_quark ())

typedef enum {
  CG_EXPORT_ERROR_FORMAT,   /* a format that does not fit what is exported */
  CG_EXPORT_ERROR_EMPTY,    /* nothing of that kind in the project */
  CG_EXPORT_ERROR_REGION,   /* a region of records the class does not have */
} CgExportError;

typedef enum {
  CG_EXPORT_JSON,
  CG_EXPORT_JSONL,
  CG_EXPORT_CSV,
  CG_EXPORT_TSV,
  CG_EXPORT_DOT,
  CG_EXPORT_GRAPHML,
} CgExportFormat;

GQuark      cg_export_error_quark        (void);
gboolean    cg_export_format_from_string (const char      *text,
                                          CgExportFormat  *out_format);
const char *cg_export_format_to_string   (CgExportFormat   format);

/* A table writer shared by every export of rows: CSV (RFC 4180 quoting),
 * TSV (tabs and line breaks in values become spaces) or JSON Lines. */
typedef struct _CgTableWriter CgTableWriter;

CgTableWriter *cg_table_writer_new       (GOutputStream   *out,
                                          CgExportFormat   format,
                                          const char * const *columns,
                                          GError         **error);
void        cg_table_writer_set_numeric  (CgTableWriter   *self,
                                          const char      *column);
gboolean    cg_table_writer_write_row    (CgTableWriter   *self,
                                          const char * const *values,
                                          GError         **error);
void        cg_table_writer_free         (CgTableWriter   *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgTableWriter, cg_table_writer_free)

gboolean    cg_export_model              (CgSiteModel     *model,
                                          CgExportFormat   format,
                                          GOutputStream   *out,
                                          GError         **error);
gboolean    cg_export_pages              (CgProject       *project,
                                          CgSiteModel     *model,
                                          CgExportFormat   format,
                                          GOutputStream   *out,
                                          GError         **error);

/* The link graph the project's crawls recorded: one row per edge, with
 * "from" and "to" (URLs), "hop" (Heritrix's letter: L a link, E an embed,
 * R a redirect, X a URL found in a script, S a form's action), "anchor"
 * (the link's text, or null) and "crawl". Edges are in the order their
 * pages were found, then in the order of the page. As csv, tsv or jsonl; fails
 * with CG_EXPORT_ERROR_EMPTY when no crawl has recorded a link. */
gboolean    cg_export_links              (CgProject       *project,
                                          CgExportFormat   format,
                                          GOutputStream   *out,
                                          GError         **error);

/* The data records of @model's class @class_name, or of every class when
 * it is NULL, one row per record with "class", "url" (of its page),
 * "region" (the XPath of its region in the page), "region_index" (its
 * region's index, see cg-record-regions.h: the wrapper's regions in rank
 * order, 0 the main one), "position" (its place in the page, from 0) and
 * its fields by column name, in the order of the class's wrapper. A field
 * named like one of the first five is written as "field_NAME". JSON Lines
 * takes any number of classes; CSV and TSV, whose rows share one header,
 * take one class (CG_EXPORT_ERROR_FORMAT otherwise). Fails with
 * CG_EXPORT_ERROR_EMPTY when there is no record. Every region is
 * written. */
gboolean    cg_export_records            (CgProject       *project,
                                          CgSiteModel     *model,
                                          const char      *class_name,
                                          CgExportFormat   format,
                                          GOutputStream   *out,
                                          GError         **error);

/* Which records of a class cg_export_records_full() writes: those of the
 * region with this index, or: */
#define CG_EXPORT_REGION_MAIN (-1)  /* those of the class's main region */
#define CG_EXPORT_REGION_ALL  (-2)  /* every record, whatever its region */

/* The same, for the records of one region of each class (@region: an
 * index, or one of the above): the columns are then that region's only.
 * Fails with CG_EXPORT_ERROR_REGION when a class has no region @region,
 * and with CG_EXPORT_ERROR_EMPTY when a region has no record. */
gboolean    cg_export_records_full       (CgProject       *project,
                                          CgSiteModel     *model,
                                          const char      *class_name,
                                          int              region,
                                          CgExportFormat   format,
                                          GOutputStream   *out,
                                          GError         **error);
/* The classes of @model that have records, by name. */
GStrv       cg_export_list_record_classes (CgProject      *project,
                                           CgSiteModel    *model,
                                           GError        **error);

G_END_DECLS
