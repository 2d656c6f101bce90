/* cg-renderer.h: renders one page at a time and captures the visual
 * features of every element.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <webkit/webkit.h>

#include "cg-web-context.h"

G_BEGIN_DECLS

/* What a render captures (seed 003, ClustVX §2.2)
 * ==============================================
 *
 * After the page has loaded and the network and the DOM have been quiet
 * for a while (bounded), a script (cg-capture.js) gives every element of
 * the document these attributes, and the serialised document is returned
 * as the "decorated DOM":
 *
 *   data-cg-xpath       the element's canonical DOM path, below
 *   data-cg-left, data-cg-top, data-cg-width, data-cg-height
 *                       its border box in CSS pixels, in page coordinates
 *                       (x to the right and y down from the top left corner
 *                       of the document), two decimals at most
 *   data-cg-visible     "1" when the element is displayed, not hidden, not
 *                       fully transparent (its own opacity times its
 *                       ancestors'), has a non-empty box and that box is not
 *                       entirely left of or above the document; else "0".
 *                       Clipping by an ancestor's overflow is not considered.
 *   data-cg-fontdata    seed 003's font data, six fields joined by "; ":
 *                       computed font-family; color as "rgb(r, g, b)"
 *                       ("rgba(…)" when not opaque); font-size in px;
 *                       font-style; font-weight; text-decoration-line.
 *                       Example: "Arial, sans-serif; rgb(0, 0, 0); 10px;
 *                       normal; 400; none"
 *   data-cg-background  the computed background-color
 *   data-cg-display     the computed display
 *
 * ClustVX writes bare left/top/width/height/fontdata attributes; here they
 * carry a data-cg- prefix, because img, table and others have width and
 * height attributes of their own that the bare names would overwrite.
 * Elements beyond CG_RENDER_DEFAULT_MAX_ELEMENTS (see the options) are left
 * undecorated and the result says it was truncated. Content of iframes,
 * shadow trees and template elements is not captured.
 *
 * Canonical DOM paths
 * -------------------
 *
 * data-cg-xpath is the element's canonical XPath as core defines it in
 * cg-dom-path.h (cg_dom_path_to_canonical_xpath()), computed on the
 * browser's DOM: indexed and absolute over element nodes only,
 * "/html[1]/body[1]/div[2]/a[1]", lower-case local names, every step with
 * its position among same-name element siblings. A tbody element whose
 * parent is a table is dissolved: it is not a step (and gets no
 * data-cg-xpath), and its children are numbered as children of the table,
 * in document order, together with the table's other children and the
 * children of its other tbody elements. Browsers insert tbody around rows
 * that the markup puts directly in a table and libxml2 does not, so
 * "<table><tr>…<tr>…</table>" and "<table><tbody><tr>…<tr>…</tbody></table>"
 * both give the second row ".../table[1]/tr[2]" on both sides.
 *
 * So the path of an element of a rendered page addresses the same element
 * in core's libxml2 parse of the same response (cg_html_parse()), and what
 * is learned on rendered pages applies to pages that are fetched and not
 * rendered. The divergences that remain (misnested formatting elements,
 * foster-parented table content, stray end tags, content after </html>,
 * noscript and template) are listed in cg-dom-path.h; paths of the
 * elements around such markup still agree, as tests/render/test-renderer.c
 * checks on broken pages.
 */

#define CG_RENDER_ERROR (cg_render_error_quark ())

typedef enum {
  CG_RENDER_ERROR_BAD_URL,                /* not UTF-8, or not an http(s) URL with a host */
  CG_RENDER_ERROR_NOT_IN_ARCHIVE,         /* replaying an archive that lacks the URL */
  CG_RENDER_ERROR_LOAD_FAILED,            /* network, TLS or policy failure of the page, or
                                           * the archive could not supply it */
  CG_RENDER_ERROR_TIMEOUT,                /* the render took longer than its timeout */
  CG_RENDER_ERROR_WEB_PROCESS_TERMINATED, /* the web process crashed or was killed */
  CG_RENDER_ERROR_CAPTURE,                /* the capture script or the snapshot failed */
  CG_RENDER_ERROR_TOO_LARGE,              /* the decorated DOM is larger than allowed */
  CG_RENDER_ERROR_BUSY,                   /* a render is already under way */
} CgRenderError;

#define CG_RENDER_DEFAULT_VIEWPORT_WIDTH    1280
#define CG_RENDER_DEFAULT_VIEWPORT_HEIGHT   900
#define CG_RENDER_DEFAULT_TIMEOUT_MS        30000
/* Network and DOM quiet: how long nothing must change, and the most time
 * spent waiting for it after the load event. */
#define CG_RENDER_DEFAULT_QUIET_MS          500
#define CG_RENDER_DEFAULT_SETTLE_MAX_MS     5000
#define CG_RENDER_DEFAULT_MAX_ELEMENTS      100000
#define CG_RENDER_DEFAULT_MAX_HTML_SIZE     (64 * 1024 * 1024)
#define CG_RENDER_DEFAULT_THUMBNAIL_WIDTH   320

typedef struct {
  guint viewport_width;
  guint viewport_height;
  guint timeout_ms;        /* the whole render, load to thumbnail */
  guint quiet_ms;
  guint settle_max_ms;
  guint max_elements;
  gsize max_html_size;
  guint thumbnail_width;   /* 0: no thumbnail */
} CgRenderOptions;

void cg_render_options_init (CgRenderOptions *options);

/* One rendered page. */
typedef struct {
  char     *requested_url;
  char     *url;               /* after redirects */
  guint     status;            /* HTTP status of the page; 0 when it had none */
  char     *mime;              /* of the page, NULL when unknown */
  char     *title;
  char     *html;              /* the decorated DOM, UTF-8, with its doctype */
  GBytes   *thumbnail;         /* PNG of the viewport, thumbnail_width wide; NULL if off */
  guint     n_elements;        /* elements decorated */
  guint     n_visible;
  gboolean  truncated;         /* more elements than max_elements */
  gboolean  settled;           /* quiet was reached before settle_max_ms */
  double    document_width;
  double    document_height;
  guint     duration_ms;
} CgRenderResult;

#define CG_TYPE_RENDER_RESULT (cg_render_result_get_type ())
GType            cg_render_result_get_type  (void) G_GNUC_CONST;
CgRenderResult  *cg_render_result_copy      (const CgRenderResult *result);
void             cg_render_result_free      (CgRenderResult       *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgRenderResult, cg_render_result_free)

GQuark           cg_render_error_quark      (void);

/* A renderer owns one WebKitWebView, in a window of the viewport's size
 * (WebKit lays out and paints only views that are shown; under Xvfb the
 * window is never seen), and renders one page at a time. Each render has
 * a timeout. When the web process dies, or a render times out, the render
 * under way fails and the renderer carries on with a new view (and a new
 * web process); "web-process-terminated" is emitted.
 *
 * GTK must be initialised first (cg_display_open() does it). Used from
 * the main thread only. */
#define CG_TYPE_RENDERER (cg_renderer_get_type ())
G_DECLARE_FINAL_TYPE (CgRenderer, cg_renderer, CG, RENDERER, GObject)

/* @options may be NULL for the defaults. */
CgRenderer      *cg_renderer_new            (CgWebContext          *context,
                                             const CgRenderOptions *options);
CgWebContext    *cg_renderer_get_context    (CgRenderer            *self);
/* The current view; it changes when the renderer recovers. */
WebKitWebView   *cg_renderer_get_view       (CgRenderer            *self);
gboolean         cg_renderer_is_busy        (CgRenderer            *self);
/* How many times a new view was made after a crash or a timeout. */
guint            cg_renderer_get_n_recoveries (CgRenderer          *self);

void             cg_renderer_render_async   (CgRenderer            *self,
                                             const char            *url,
                                             GCancellable          *cancellable,
                                             GAsyncReadyCallback    callback,
                                             gpointer               user_data);
CgRenderResult  *cg_renderer_render_finish  (CgRenderer            *self,
                                             GAsyncResult          *result,
                                             GError               **error);

G_END_DECLS
