/* cg-wrapper.h: XPath wrappers of a page class, learned on a few of its pages, applied to any.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <libxml/HTMLparser.h>

#include "cg-clustvx.h"
#include "cg-record-store.h"

G_BEGIN_DECLS

/* A wrapper says where the data records of a page class are and how to
 * read their fields, as XPaths that select on a plain libxml2 DOM of a
 * fetched page (cg_html_parse()), so that it applies without rendering.
 *
 * List wrappers follow seed 003 §2.9: ClustVX (cg-clustvx.h) is run on
 * each learning page, the regions that recur across the pages (the same
 * region XPath, or the same record structure) are kept, and their
 * columns are aligned across the pages and named.
 *
 * Detail wrappers are this project's extension, not ClustVX's (ClustVX
 * only handles list pages): a class whose pages are one record each (a
 * book's page, an article) has few or no repeated regions, so its
 * columns are the content elements whose paths recur across the class's
 * pages while their values vary; what is the same on every page is
 * template boilerplate and is dropped. Such a wrapper gives one record
 * per page.
 *
 * Whether a class is a list or a detail class is decided from its pages,
 * never from its name.
 *
 * The definition, as JSON (what the store keeps and the class view
 * shows):
 *
 *   {"kind": "list" | "detail",
 *    "regions": [{"xpath": "/html/body/main/ul[1]",
 *                 "record": "li",
 *                 "columns": [{"name": "title", "xpath": "h3/a",
 *                              "kind": "text|link|image|price|date"}]}]}
 *
 * A region's xpath is absolute and positional; "record" is relative to
 * the region and selects each record's first element; a column's xpath
 * is relative to the record element. A detail wrapper has one region
 * whose xpath is "/html" (or the content root) and whose record is ".".
 * Column names are unique within a region.
 *
 * Optional members, which cg_wrapper_to_json() writes only when they
 * apply:
 *
 *  - region "type": "B" for records that are runs of siblings of the
 *    region element (seed 003's type B) rather than one element each:
 *    "record" then selects the child that starts each record, the record
 *    runs up to the next such child, and a column's xpath is relative to
 *    the run as if its nodes were the children of one element;
 *  - column "label": the template's text that names the field; a leading
 *    copy of it (and the ":" or "-" after it) is removed from the value;
 *  - column "value": "text" (the default, the text of the nodes the
 *    xpath selects), or "following", the text of the nodes after the
 *    selected one up to the next line break or block element, for
 *    "<b>Publisher:</b> Acme<br>" where the value has no element of its
 *    own.
 *
 * Values: a "text", "price" or "date" column gives the visible text of
 * what its xpath selects, white space collapsed; a "link" column gives
 * the absolute URL of the selected link (its href, or that of the nearest
 * enclosing or first contained <a href>); an "image" column gives the
 * absolute URL of the selected image's src. A link's text and its URL are
 * two columns ("title" and "title_url"). */

/* Pages a wrapper is learned on by default (seed 003 uses a few). */
#define CG_WRAPPER_DEFAULT_PAGES      5
/* The most pages a wrapper can be learned on (CgWrapperOptions.max_pages). */
#define CG_WRAPPER_MAX_PAGES          50
/* Bounds of a wrapper, checked when learning and when reading JSON. */
#define CG_WRAPPER_MAX_REGIONS        64
#define CG_WRAPPER_MAX_COLUMNS        200
/* Longest XPath or column name accepted from JSON, in bytes. */
#define CG_WRAPPER_MAX_XPATH_LENGTH   4096
/* Largest wrapper definition accepted, in bytes. */
#define CG_WRAPPER_MAX_JSON_SIZE      (1024 * 1024)
/* A field's value is at most this many bytes: a longer one is cut, at a
 * character boundary, and ends with "…" to say so. */
#define CG_WRAPPER_MAX_VALUE_LENGTH   (64 * 1024)
/* At most this many records are read from one page. */
#define CG_WRAPPER_MAX_RECORDS        100000

#define CG_WRAPPER_ERROR (cg_wrapper_error_quark ())

typedef enum {
  CG_WRAPPER_ERROR_NO_PAGES,      /* no page to learn from, or a page without a root */
  CG_WRAPPER_ERROR_NO_RECORDS,    /* neither a recurring region nor varying fields */
  CG_WRAPPER_ERROR_INVALID_JSON,  /* a definition that is not JSON or not of the shape above */
  CG_WRAPPER_ERROR_INVALID_XPATH, /* a definition naming an XPath libxml2 cannot compile */
  CG_WRAPPER_ERROR_INVALID_INPUT, /* a NULL document, or arguments that do not match */
} CgWrapperError;

GQuark        cg_wrapper_error_quark       (void);

typedef struct _CgWrapper CgWrapper;

typedef struct {
  /* Pages of the class read at most, 1 … CG_WRAPPER_MAX_PAGES. */
  guint      max_pages;
  /* Pages of the site's other classes (htmlDocPtr), or NULL: a region
   * whose records are the same on one of them and on a page of the class
   * is the site's template (a menu, a footer) rather than data. With a
   * single page of the class, they are the only way to tell. */
  GPtrArray *site_docs;
  /* TRUE to learn a detail wrapper whatever the pages show, for a class
   * known to be one record per page (an evaluation on detail pages);
   * FALSE (the default) decides from the pages. */
  gboolean   detail;
} CgWrapperOptions;

/* Fills @options with the defaults. */
void          cg_wrapper_options_init      (CgWrapperOptions *options);

/* Learns the wrapper of @class_name from @docs (htmlDocPtr: decorated
 * rendered DOMs from src/render when there are some, plain fetched DOMs
 * otherwise; the first CG_WRAPPER_DEFAULT_PAGES are read) whose URLs are @urls
 * (char *, the same length, used to resolve links; may be NULL). The
 * documents are not modified and need not outlive the wrapper. Fails
 * with CG_WRAPPER_ERROR_NO_PAGES when there is no page and
 * CG_WRAPPER_ERROR_NO_RECORDS when the pages have neither a recurring
 * list region nor fields that vary from page to page (one page of a
 * class with no list gives no detail wrapper: nothing can vary). */
CgWrapper    *cg_wrapper_learn             (const char   *class_name,
                                            GPtrArray    *docs,
                                            GPtrArray    *urls,
                                            GError      **error);
/* The same with options (NULL for the defaults). */
CgWrapper    *cg_wrapper_learn_full        (const char              *class_name,
                                            GPtrArray               *docs,
                                            GPtrArray               *urls,
                                            const CgWrapperOptions  *options,
                                            GError                 **error);

/* Reads a wrapper definition (the JSON above). Every XPath is compiled,
 * so that a wrapper that loads also applies. */
CgWrapper    *cg_wrapper_new_from_json     (const char   *json,
                                            GError      **error);
/* The definition as JSON, pretty-printed. */
char         *cg_wrapper_to_json           (CgWrapper    *self);

CgWrapper    *cg_wrapper_ref               (CgWrapper    *self);
void          cg_wrapper_unref             (CgWrapper    *self);

CgWrapperKind cg_wrapper_get_kind          (CgWrapper    *self);
/* The class it was learned for, or NULL for one read from JSON (the
 * definition does not carry it). */
const char   *cg_wrapper_get_class_name    (CgWrapper    *self);
void          cg_wrapper_set_class_name    (CgWrapper    *self,
                                            const char   *class_name);
/* Pages it was learned on; 0 for one read from JSON. */
guint         cg_wrapper_get_n_pages       (CgWrapper    *self);
guint         cg_wrapper_get_n_regions     (CgWrapper    *self);
const char   *cg_wrapper_get_region_xpath  (CgWrapper    *self,
                                            guint         region);
/* The XPath of a region's records, relative to the region. */
const char   *cg_wrapper_get_record_xpath  (CgWrapper    *self,
                                            guint         region);
/* A column's XPath, relative to the record, and the kind of its values;
 * columns are numbered from 0 as in cg_wrapper_get_columns(). */
const char   *cg_wrapper_get_column_xpath  (CgWrapper    *self,
                                            guint         region,
                                            guint         column);
CgClustvxItemKind cg_wrapper_get_column_kind (CgWrapper  *self,
                                            guint         region,
                                            guint         column);
/* The column names of a region, in order (owned by the wrapper). */
const char * const *cg_wrapper_get_columns (CgWrapper    *self,
                                            guint         region);
/* Every column name of every region, in order of first appearance,
 * without duplicates (free with g_strfreev()). */
GStrv         cg_wrapper_list_column_names (CgWrapper    *self);

/* Applies the wrapper to @doc, a plain or rendered libxml2 DOM of a page
 * of its class whose URL is @url (to make links absolute; may be NULL).
 * Returns its records (CgRecord, with class_name, region, position,
 * columns and values set, url_id 0): for each region, its records in
 * document order; positions count the page's records from 0 across its
 * regions. Link and image fields are absolute URLs when @url is given.
 * A page where the regions are missing gives an empty array, not an
 * error; a detail wrapper gives one record, or none when every field is
 * empty. At most CG_WRAPPER_MAX_RECORDS records are returned. Fails only
 * for a NULL document or one without a root element. */
GPtrArray    *cg_wrapper_apply             (CgWrapper    *self,
                                            htmlDocPtr    doc,
                                            const char   *url,
                                            GError      **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgWrapper, cg_wrapper_unref)

G_END_DECLS
