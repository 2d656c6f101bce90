/* cg-demo-site.h: the bundled demo bookshop and its ground truth.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* The demo site is a small independent bookshop, generated deterministically
 * from the word lists in the resource /io/github/cartograph/Cartograph/demo:
 * the same pages, byte for byte, on every run and every machine. It is the
 * ground truth that tests and benchmarks measure site-model learning, record
 * extraction and harvesting against.
 *
 * Every HTML page reachable by links belongs to one template class. The
 * class names are stable and are what the ground truth says:
 *
 *   "home"          /                         one page; a list of new books
 *   "category"      /category/SLUG/[?page=N]  a category's books, 12 a page
 *   "book"          /book/SLUG                one book (a detail page)
 *   "author"        /author/SLUG[?page=N]     an author's bio and books, 12 a page
 *   "author-index"  /authors/                 every author, A to Z
 *   "search"        /search?q=WORD[&page=N]   search results, 10 a page
 *   "static"        /about, /contact, …       about, contact, delivery…
 *
 * The ground truth has one JSON object per page, with members in this order:
 * "path" (the path and query exactly as linked on the site), "class", and
 * for list pages "records", an array of objects in page order. A record maps
 * a field name to the visible text of that field, whitespace-normalised; an
 * optional field that a record does not show is absent from it. The fields:
 *
 *   home, category  title, author, format, year, price, [was_price], [badge]
 *   author          title, format, year, price, [was_price], [badge]
 *   search          title, author, category, year, snippet, price, [was_price]
 *   author-index    name, books
 *
 * On a list page an optional field is shown by no record or by at least two,
 * so that every field repeats on the page (record extraction needs that).
 * Book pages carry "item", an object with the book's visible attributes:
 * title, author, rating, reviews, price, [was_price], publisher, published,
 * pages, isbn, format, category.
 *
 * Besides the pages there are page requisites and other resources that are
 * not in the ground truth: /static/style.css, /static/favicon.svg,
 * /cover/SLUG.svg (each book's cover), /robots.txt (one rule: Disallow:
 * /cart/), /sitemap.xml, and the basket under /cart/. Unknown paths get a
 * 404 page. */

#define CG_DEMO_CLASS_HOME          "home"
#define CG_DEMO_CLASS_CATEGORY      "category"
#define CG_DEMO_CLASS_BOOK          "book"
#define CG_DEMO_CLASS_AUTHOR        "author"
#define CG_DEMO_CLASS_AUTHOR_INDEX  "author-index"
#define CG_DEMO_CLASS_SEARCH        "search"
#define CG_DEMO_CLASS_STATIC        "static"

#define CG_DEMO_CATEGORY_PAGE_SIZE  12
#define CG_DEMO_AUTHOR_PAGE_SIZE    12
#define CG_DEMO_SEARCH_PAGE_SIZE    10

/* The demo site's answer to one GET request. */
typedef struct {
  guint   status;
  char   *content_type;   /* NULL for 304 and redirects */
  GBytes *body;           /* empty for 304 */
  char   *etag;           /* a strong validator, quoted; NULL unless 200 or 304 */
  char   *last_modified;  /* an HTTP date; NULL unless 200 or 304 */
  char   *location;       /* for redirects, an absolute path */
} CgDemoResponse;

void cg_demo_response_free (CgDemoResponse *response);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgDemoResponse, cg_demo_response_free)

#define CG_TYPE_DEMO_SITE (cg_demo_site_get_type ())
G_DECLARE_FINAL_TYPE (CgDemoSite, cg_demo_site, CG, DEMO_SITE, GObject)

CgDemoSite         *cg_demo_site_new              (void);

const char * const *cg_demo_site_get_classes      (void);

CgDemoResponse     *cg_demo_site_respond          (CgDemoSite     *self,
                                                   const char     *base_url,
                                                   const char     *path,
                                                   const char     *query,
                                                   const char     *if_none_match,
                                                   const char     *if_modified_since);

guint               cg_demo_site_get_n_books      (CgDemoSite     *self);
guint               cg_demo_site_get_n_pages      (CgDemoSite     *self);
JsonObject         *cg_demo_site_get_page         (CgDemoSite     *self,
                                                   guint           index);
JsonObject         *cg_demo_site_lookup_page      (CgDemoSite     *self,
                                                   const char     *path_and_query);
guint               cg_demo_site_count_class      (CgDemoSite     *self,
                                                   const char     *klass);
GStrv               cg_demo_site_list_popular_searches (CgDemoSite *self);
void                cg_demo_site_set_revision     (CgDemoSite     *self,
                                                   const char     *path_and_query,
                                                   guint           revision);

gboolean            cg_demo_site_write_truth      (CgDemoSite     *self,
                                                   GOutputStream  *out,
                                                   GError        **error);

G_END_DECLS
