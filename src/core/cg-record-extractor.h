/* cg-record-extractor.h: wrappers of a model's classes learned and applied to the archived pages.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <libxml/HTMLparser.h>

#include "cg-project.h"
#include "cg-site-model.h"
#include "cg-wrapper.h"

G_BEGIN_DECLS

/* The record extractor connects wrappers (cg-wrapper.h) to a project:
 * it learns each class's wrapper from the class's sample pages, keeps it
 * in the store (cg_record_store_save_wrapper()), and applies it to every
 * archived page of the class, storing one page's records at a time
 * (cg_record_store_replace_page()).
 *
 * Learning reads the decorated rendered DOMs that `cartograph-cli model`
 * leaves in PROJECT/thumbnails/model-VERSION/CLASS-N.html; a class with
 * no such render is learned from the archived HTML of its sample URLs,
 * read from the WARC. At most CG_WRAPPER_DEFAULT_PAGES pages per class
 * are used.
 *
 * The pages of a class are those labelled with it under the model (the
 * page_labels table), and its sample URLs; their payloads are read from
 * the WARC files of the project. */

#define CG_RECORD_EXTRACTOR_ERROR (cg_record_extractor_error_quark ())

typedef enum {
  CG_RECORD_EXTRACTOR_ERROR_NO_CLASS,    /* the model has no class of that name */
  CG_RECORD_EXTRACTOR_ERROR_NO_PAGES,    /* a class with no page to learn from */
  CG_RECORD_EXTRACTOR_ERROR_NO_WRAPPER,  /* extraction asked of a class with no stored wrapper */
  CG_RECORD_EXTRACTOR_ERROR_ARCHIVE,     /* a page's payload that cannot be read from the WARC */
} CgRecordExtractorError;

GQuark        cg_record_extractor_error_quark (void);

/* Progress of cg_record_extractor_run(), called on the calling thread
 * after each page: @pages_done of @pages_total pages of @class_name are
 * done and gave @n_records records so far. A NULL @class_name: pages
 * labelled with the model's classes, of all of its site. */
typedef void (*CgExtractProgressFunc) (const char *class_name,
                                       guint       pages_done,
                                       guint       pages_total,
                                       guint       n_records,
                                       gpointer    user_data);

/* Called on the calling thread for each archived page of @class_name
 * that cannot be read or parsed (@reason says why): the page is skipped,
 * and keeps its earlier records. Without one, skipped pages are logged
 * as warnings. */
typedef void (*CgExtractSkippedFunc) (const char   *class_name,
                                      const char   *url,
                                      const GError *reason,
                                      gpointer      user_data);

/* Learns and stores the wrapper of @class_name, or of every class of
 * @model when it is NULL (a class where no wrapper can be learned, for
 * lack of pages or of records, is then skipped and keeps no wrapper;
 * naming such a class fails). @model must have been saved in the
 * project's store. Stops with G_IO_ERROR_CANCELLED when @cancellable is
 * cancelled, between two classes or two sample pages; the wrappers of the
 * classes already learned are kept. */
gboolean      cg_record_extractor_learn_cancellable (CgProject            *project,
                                                     CgSiteModel          *model,
                                                     const char           *class_name,
                                                     GCancellable         *cancellable,
                                                     CgExtractSkippedFunc  skipped,
                                                     gpointer              user_data,
                                                     GError              **error);

/* The same, not cancellable, logging skipped pages. */
gboolean      cg_record_extractor_learn       (CgProject              *project,
                                               CgSiteModel            *model,
                                               const char             *class_name,
                                               GError                **error);

/* Applies the stored wrapper of @class_name to one page, @doc (plain or
 * rendered) whose URL is @url and whose URL id in the store is @url_id,
 * and replaces the page's records in the store. Fails with
 * CG_RECORD_EXTRACTOR_ERROR_NO_WRAPPER when the class has none. Meant for
 * the harvester, which parses each page it archives once; the parsed
 * wrapper is kept with @project (until the stored one changes), so that
 * calling it page after page does not parse the wrapper each time. */
gboolean      cg_record_extractor_extract_page (CgProject             *project,
                                                CgSiteModel           *model,
                                                const char            *class_name,
                                                gint64                 url_id,
                                                htmlDocPtr             doc,
                                                const char            *url,
                                                guint                 *out_n_records,
                                                GError               **error);

/* Extracts the records of every archived page of @class_name (or of
 * every class with a wrapper when NULL), reading each page's payload
 * from the WARC, one page at a time. The pages are those labelled with
 * @model's classes; a model with none (one imported from a file) first
 * labels the archived pages of its site with its classifier, all or none
 * of them, and fails with CG_RECORD_EXTRACTOR_ERROR_NO_PAGES when no page
 * is like any of its classes. Classes of @model that have no
 * stored wrapper yet are learned first; a named class where none can be
 * learned fails. A page whose payload cannot be read or parsed is
 * skipped, reported to @skipped, and keeps its old records. Stops
 * with G_IO_ERROR_CANCELLED when @cancellable is cancelled (while learning
 * too), keeping the records of the pages already done. */
gboolean      cg_record_extractor_run         (CgProject              *project,
                                               CgSiteModel            *model,
                                               const char             *class_name,
                                               GCancellable           *cancellable,
                                               CgExtractProgressFunc   progress,
                                               CgExtractSkippedFunc    skipped,
                                               gpointer                user_data,
                                               GError                **error);

G_END_DECLS
