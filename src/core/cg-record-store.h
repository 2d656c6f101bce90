/* cg-record-store.h: data records and wrappers of page classes, in the store.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "cg-store.h"

G_BEGIN_DECLS

/* The two kinds of wrapper: a list page holds many records in one or more
 * repeated regions; a detail page is one record (an item or an article). */
typedef enum {
  CG_WRAPPER_LIST,
  CG_WRAPPER_DETAIL,
} CgWrapperKind;

const char *cg_wrapper_kind_to_string   (CgWrapperKind  kind);
gboolean    cg_wrapper_kind_from_string (const char    *text,
                                         CgWrapperKind *out_kind);

/* One data record of a page. @columns and @values have the same length;
 * a field the record lacks is "". */
typedef struct {
  gint64  id;          /* 0 until stored */
  gint64  url_id;
  char   *url;         /* filled by listing; ignored when storing */
  char   *class_name;
  char   *region;      /* the XPath of the record's region in its page */
  guint   position;    /* the record's place in its page, from 0 */
  GStrv   columns;
  GStrv   values;
} CgRecord;

CgRecord   *cg_record_new               (const char         *region,
                                         guint               position,
                                         const char * const *columns,
                                         const char * const *values);
CgRecord   *cg_record_copy              (const CgRecord     *record);
void        cg_record_free              (CgRecord           *record);
/* The value of @column, or NULL when the record has no such column. */
const char *cg_record_get               (const CgRecord     *record,
                                         const char         *column);

/* A wrapper as stored: its kind and its definition, a JSON document whose
 * shape belongs to the extraction code. */
typedef struct {
  char          *class_name;
  CgWrapperKind  kind;
  char          *definition;
  guint          n_pages;    /* pages it was learned on */
  gint64         created_at; /* microseconds since the epoch */
} CgStoredWrapper;

void        cg_stored_wrapper_free      (CgStoredWrapper    *wrapper);

/* Replaces the records of one page under one model by @records (CgRecord),
 * in one transaction: the page's old records stay when it fails. */
gboolean    cg_record_store_replace_page (CgStore           *store,
                                          gint64             model_id,
                                          const char        *class_name,
                                          gint64             url_id,
                                          GPtrArray         *records,
                                          GError           **error);

/* The records of a model, of one class or (@class_name NULL) all, in the
 * order of their pages' URLs, then region, then position; CgRecord with
 * url filled. An empty array when there are none. */
GPtrArray  *cg_record_store_list        (CgStore            *store,
                                         gint64              model_id,
                                         const char         *class_name,
                                         GError            **error);

/* The records of a model, all classes together; -1 with @error set when
 * they cannot be counted. */
gint64      cg_record_store_count       (CgStore            *store,
                                         gint64              model_id,
                                         GError            **error);

/* Class name → record count (GUINT_TO_POINTER) for a model. */
GHashTable *cg_record_store_count_by_class (CgStore          *store,
                                            gint64            model_id,
                                            GError          **error);

/* Deletes the records of a model, of one class or (@class_name NULL) all. */
gboolean    cg_record_store_clear       (CgStore            *store,
                                         gint64              model_id,
                                         const char         *class_name,
                                         GError            **error);

/* Whether the records of a model's sample were extracted in full: set by
 * cg_record_extractor_run() when it ends for every class, and cleared
 * when it starts, so that one cut off says so. */
gboolean    cg_record_store_set_extracted (CgStore          *store,
                                           gint64            model_id,
                                           gboolean          extracted,
                                           GError          **error);
gboolean    cg_record_store_is_extracted (CgStore           *store,
                                          gint64             model_id,
                                          gboolean          *extracted,
                                          GError           **error);

/* Stores (replacing) the wrapper of a class of a model. */
gboolean    cg_record_store_save_wrapper (CgStore           *store,
                                          gint64             model_id,
                                          const char        *class_name,
                                          CgWrapperKind      kind,
                                          const char        *definition,
                                          guint              n_pages,
                                          GError           **error);

/* The wrapper of a class, or NULL with CG_STORE_ERROR_NOT_FOUND. */
CgStoredWrapper *cg_record_store_load_wrapper (CgStore      *store,
                                               gint64        model_id,
                                               const char   *class_name,
                                               GError      **error);

/* The wrappers of a model (CgStoredWrapper), by class name. */
GPtrArray  *cg_record_store_list_wrappers (CgStore          *store,
                                           gint64            model_id,
                                           GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgRecord, cg_record_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgStoredWrapper, cg_stored_wrapper_free)

G_END_DECLS
