/* cg-links.h: outlinks of an HTML page or a CSS stylesheet.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>
#include <libxml/HTMLparser.h>

G_BEGIN_DECLS

/* How a URL was reached from the page that referred to it, with the
 * letters Heritrix writes in its crawl log and hop paths ("LLE"). A link
 * is followed as navigation (and is subject to the scope's host and depth
 * rules); an embed is a page requisite (stylesheet, script, image, frame),
 * fetched so that the archived page replays. */
typedef enum {
  CG_HOP_SEED         = '-',   /* not reached by a hop: a seed */
  CG_HOP_NAVLINK      = 'L',   /* a[href], area[href], link rel=next, … */
  CG_HOP_EMBED        = 'E',   /* img, script, stylesheet, iframe, CSS url(), … */
  CG_HOP_REDIRECT     = 'R',   /* HTTP redirect, meta refresh */
  CG_HOP_SPECULATIVE  = 'X',   /* a URL-like string found in script or data */
  CG_HOP_PREREQUISITE = 'P',   /* robots.txt, DNS */
  CG_HOP_SUBMIT       = 'S',   /* the action of a GET form, without fields */
} CgHopType;

/* Pages and stylesheets larger than this are refused rather than parsed:
 * the fetcher bounds bodies anyway, and a larger one is almost never a
 * page whose links matter. */
#define CG_LINKS_MAX_INPUT_SIZE (32 * 1024 * 1024)

/* At most this many links are reported per document; a page with more is
 * generated and the rest would only feed a spider trap. */
#define CG_LINKS_MAX_PER_DOCUMENT 10000

/* Anchor text is white-space collapsed and cut to this many characters. */
#define CG_LINKS_MAX_ANCHOR_TEXT 256

#define CG_LINKS_ERROR (cg_links_error_quark ())

typedef enum {
  CG_LINKS_ERROR_TOO_LARGE,   /* more than CG_LINKS_MAX_INPUT_SIZE bytes */
  CG_LINKS_ERROR_NOT_TEXT,    /* binary data (NUL bytes), not HTML or CSS */
  CG_LINKS_ERROR_PARSE,       /* libxml2 could not build a document at all */
  CG_LINKS_ERROR_BAD_BASE,    /* the document's own URL is not crawlable */
} CgLinksError;

typedef struct {
  char      *url;        /* absolute, normalised with CG_URL_NORMALIZE_CRAWL */
  CgHopType  hop;
  char      *element;    /* "a", "img", "link", … ; "style" for a <style> block, "css" in a stylesheet */
  char      *attribute;  /* "href", "src", "srcset", "style", "content" (meta refresh), "action",
                          * "url()" or "@import" for CSS */
  char      *text;       /* anchor text of <a>, alt of <area>; NULL for other elements */
} CgLink;

#define CG_TYPE_LINK (cg_link_get_type ())
GType        cg_link_get_type            (void) G_GNUC_CONST;
CgLink      *cg_link_copy                (const CgLink *link);
void         cg_link_free                (CgLink       *link);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgLink, cg_link_free)

GQuark       cg_links_error_quark        (void);

/* A one-letter code for crawl logs and hop paths. */
char         cg_hop_type_to_char         (CgHopType     hop);

/* Parses HTML with libxml2's forgiving parser (no network, no error
 * output). The encoding is taken, in this order, from a byte order mark,
 * from the charset of @content_type (the Content-Type header, may be
 * NULL), from a <meta charset> or <meta http-equiv> in the page, and
 * otherwise UTF-8, falling back to ISO-8859-1 for bytes that are not
 * UTF-8 (libxml2's behaviour). Bytes that are not valid in a character
 * set declared read as U+FFFD, as in a browser, and the rest of the page
 * as it is: the document's text is always UTF-8. Empty input gives a document with no root
 * element, not an error. Fails for input over CG_LINKS_MAX_INPUT_SIZE and
 * for binary data. Free the result with xmlFreeDoc(). The parsed document
 * can be shared with other analyses of the page (XPaths, classes). */
htmlDocPtr   cg_html_parse               (const char   *data,
                                          gsize         length,
                                          const char   *url,
                                          const char   *content_type,
                                          GError      **error);

/* Called for every link occurrence, in document order, with the element
 * it came from (for <style> blocks and style attributes, the element that
 * holds the CSS). Occurrences are not deduplicated here, so that each
 * anchor's DOM position can be recorded. @link and @node are only valid
 * during the call. */
typedef void (*CgLinkFunc) (const CgLink *link,
                            xmlNodePtr    node,
                            gpointer      user_data);

/* Walks a parsed document and reports its links, resolved against the
 * first <base href> if there is one, else against @document_url (the URL
 * the page was fetched from, after redirects). Links that are not http(s)
 * (mailto:, javascript:, data:), same-document fragments ("#top") and
 * references that cannot be parsed are skipped. Stops after
 * CG_LINKS_MAX_PER_DOCUMENT links. Fails only if @document_url is not an
 * http(s) URL. */
gboolean     cg_links_foreach_in_document (htmlDocPtr   doc,
                                           const char  *document_url,
                                           CgLinkFunc   func,
                                           gpointer     user_data,
                                           GError     **error);

/* Parses @data as HTML (see cg_html_parse()) and returns its links as a
 * GPtrArray of CgLink, deduplicated: one entry per (URL, hop) pair, the
 * first occurrence in document order. */
GPtrArray   *cg_links_extract_html       (const char   *data,
                                          gsize         length,
                                          const char   *document_url,
                                          const char   *content_type,
                                          GError      **error);

/* Reads the links of one page after another with one libxml2 parser
 * context, which costs less than a context per page. An extractor is
 * used by one thread at a time. */
typedef struct _CgLinkExtractor CgLinkExtractor;

CgLinkExtractor *cg_link_extractor_new          (void);
void             cg_link_extractor_free         (CgLinkExtractor  *self);
GPtrArray       *cg_link_extractor_extract_html (CgLinkExtractor  *self,
                                                 const char       *data,
                                                 gsize             length,
                                                 const char       *document_url,
                                                 const char       *content_type,
                                                 GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgLinkExtractor, cg_link_extractor_free)

/* Returns the url() references and @import targets of a stylesheet,
 * resolved against @stylesheet_url, deduplicated, all CG_HOP_EMBED with
 * element "css". Comments and strings are respected and CSS escapes
 * decoded. */
GPtrArray   *cg_links_extract_css        (const char   *data,
                                          gsize         length,
                                          const char   *stylesheet_url,
                                          GError      **error);

/* The URLs of an HTML srcset attribute, in order, parsed as the HTML
 * standard says (a URL may contain commas; descriptors are dropped).
 * Exposed for tests and for renderers that read srcset themselves. */
GStrv        cg_links_parse_srcset       (const char   *srcset);

G_END_DECLS
