/* test-records.c: wrappers learned on rendered pages give the same records on the plain fetched pages.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "cg-demo-server.h"
#include "cg-display.h"
#include "cg-links.h"
#include "cg-renderer.h"
#include "cg-wrapper.h"

/* Pages of each class the wrapper is learned on, and pages it is then
 * compared on besides them. */
#define LEARN_PAGES  4
#define OTHER_PAGES  3

static CgDemoServer *demo;
static char         *base;
static CgWebContext *context;
static CgRenderer   *renderer;
static GHashTable   *renders;   /* URL → decorated DOM, each page rendered once */

typedef struct {
  GAsyncResult *result;
} Wait;

static void
wait_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Wait *wait = user_data;

  wait->result = g_object_ref (result);
}

static char *
page_url (JsonObject *page)
{
  /* base ends with "/", paths start with one. */
  return g_strconcat (base, json_object_get_string_member (page, "path") + 1, NULL);
}

/* The page as WebKit renders it: the decorated DOM that src/render
 * writes, parsed by libxml2 as the model's samples are. */
static htmlDocPtr
render_page (JsonObject *page)
{
  g_autofree char *url = page_url (page);
  g_autoptr(GError) error = NULL;
  const char *html = g_hash_table_lookup (renders, url);
  htmlDocPtr doc;

  if (html == NULL)
    {
      g_autoptr(CgRenderResult) result = NULL;
      Wait wait = { NULL };

      cg_renderer_render_async (renderer, url, NULL, wait_cb, &wait);
      while (wait.result == NULL)
        g_main_context_iteration (NULL, TRUE);
      result = cg_renderer_render_finish (renderer, wait.result, &error);
      g_object_unref (wait.result);
      g_assert_no_error (error);
      g_assert_cmpuint (result->status, ==, 200);
      html = result->html;
      g_hash_table_insert (renders, g_strdup (url), g_steal_pointer (&result->html));
    }
  doc = cg_html_parse (html, strlen (html), url, "text/html; charset=utf-8", &error);
  g_assert_no_error (error);
  /* The decorations are there: this is the rendered DOM. */
  g_assert_nonnull (xmlHasProp (xmlDocGetRootElement (doc), (const xmlChar *) "data-cg-visible"));
  return doc;
}

/* The page as the crawler fetches it: the server's bytes, parsed. */
static htmlDocPtr
plain_page (JsonObject *page)
{
  g_autofree char *path = g_strdup (json_object_get_string_member (page, "path"));
  g_autofree char *url = page_url (page);
  g_autofree char *site_base = g_strndup (base, strlen (base) - 1);
  g_autoptr(CgDemoResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  char *query = strchr (path, '?');
  htmlDocPtr doc;

  if (query != NULL)
    *query++ = '\0';
  response = cg_demo_site_respond (cg_demo_server_get_site (demo), site_base, path, query, NULL, NULL);
  g_assert_cmpuint (response->status, ==, 200);
  doc = cg_html_parse (g_bytes_get_data (response->body, NULL), g_bytes_get_size (response->body), url,
                       response->content_type, &error);
  g_assert_no_error (error);
  return doc;
}

static GPtrArray *
class_pages (const char *klass)
{
  CgDemoSite *site = cg_demo_server_get_site (demo);
  GPtrArray *pages = g_ptr_array_new ();

  for (guint i = 0; i < cg_demo_site_get_n_pages (site); i++)
    {
      JsonObject *page = cg_demo_site_get_page (site, i);

      if (g_str_equal (json_object_get_string_member (page, "class"), klass))
        g_ptr_array_add (pages, page);
    }
  return pages;
}

static void
free_doc (gpointer doc)
{
  xmlFreeDoc (doc);
}

static void
assert_same_records (GPtrArray  *rendered,
                     GPtrArray  *plain,
                     const char *url)
{
  if (rendered->len != plain->len)
    g_error ("%s: %u records on the rendered page, %u on the plain one", url, rendered->len, plain->len);
  for (guint i = 0; i < rendered->len; i++)
    {
      CgRecord *a = g_ptr_array_index (rendered, i);
      CgRecord *b = g_ptr_array_index (plain, i);

      g_assert_cmpstr (a->region, ==, b->region);
      g_assert_cmpuint (a->position, ==, b->position);
      g_assert_cmpstrv (a->columns, b->columns);
      for (guint c = 0; a->values[c] != NULL; c++)
        if (g_strcmp0 (a->values[c], b->values[c]) != 0)
          g_error ("%s, record %u, %s: “%s” rendered, “%s” plain", url, i, a->columns[c], a->values[c], b->values[c]);
    }
}

/* Learns a class's wrapper on rendered pages (the first page of every
 * other class, rendered, shows the site's template), then applies it to
 * the rendered and to the plain form of its pages: the records must be
 * the same. */
static void
test_class (gconstpointer data)
{
  const char *klass = data;
  const char * const *classes = cg_demo_site_get_classes ();
  g_autoptr(GPtrArray) pages = class_pages (klass);
  g_autoptr(GPtrArray) learn = g_ptr_array_new_with_free_func (free_doc);
  g_autoptr(GPtrArray) urls = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) site_docs = g_ptr_array_new_with_free_func (free_doc);
  g_autoptr(GPtrArray) compare = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(CgWrapper) wrapper = NULL;
  guint step = MAX (1, pages->len / (LEARN_PAGES + OTHER_PAGES));
  guint n_records = 0;
  CgWrapperOptions options;

  for (guint i = 0; i < pages->len && compare->len < LEARN_PAGES + OTHER_PAGES; i += step)
    {
      JsonObject *page = g_ptr_array_index (pages, i);

      if (learn->len < LEARN_PAGES && (i / step) % 2 == 0)
        {
          g_ptr_array_add (learn, render_page (page));
          g_ptr_array_add (urls, page_url (page));
        }
      g_ptr_array_add (compare, page);
    }
  for (guint c = 0; classes[c] != NULL; c++)
    {
      g_autoptr(GPtrArray) others = NULL;

      if (g_str_equal (classes[c], klass))
        continue;
      others = class_pages (classes[c]);
      if (others->len > 0)
        g_ptr_array_add (site_docs, render_page (g_ptr_array_index (others, 0)));
    }

  cg_wrapper_options_init (&options);
  options.site_docs = site_docs;
  wrapper = cg_wrapper_learn_full (klass, learn, urls, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpint (cg_wrapper_get_kind (wrapper), ==,
                   g_str_equal (klass, CG_DEMO_CLASS_BOOK) ? CG_WRAPPER_DETAIL : CG_WRAPPER_LIST);

  for (guint i = 0; i < compare->len; i++)
    {
      JsonObject *page = g_ptr_array_index (compare, i);
      g_autofree char *url = page_url (page);
      htmlDocPtr rendered = render_page (page);
      htmlDocPtr plain = plain_page (page);
      g_autoptr(GPtrArray) from_rendered = cg_wrapper_apply (wrapper, rendered, url, &error);
      g_autoptr(GPtrArray) from_plain = NULL;

      g_assert_no_error (error);
      from_plain = cg_wrapper_apply (wrapper, plain, url, &error);
      g_assert_no_error (error);
      assert_same_records (from_rendered, from_plain, url);
      n_records += from_plain->len;
      xmlFreeDoc (rendered);
      xmlFreeDoc (plain);
    }
  g_test_message ("%s: %s wrapper learned on %u rendered pages, %u records on %u pages, the same rendered and plain",
                  klass, cg_wrapper_kind_to_string (cg_wrapper_get_kind (wrapper)), learn->len, n_records,
                  compare->len);
  g_assert_cmpuint (n_records, >=, compare->len);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(CgDisplay) display = NULL;
  g_autoptr(GError) error = NULL;
  CgRenderOptions options;
  int status;

  g_test_init (&argc, &argv, NULL);

  /* The suite runs under xvfb-run; run by hand without a display, it
   * starts its own Xvfb as cartograph-cli does. */
  display = cg_display_open (&error);
  g_assert_no_error (error);

  demo = cg_demo_server_new ();
  g_assert_true (cg_demo_server_start (demo, 0, &error));
  g_assert_no_error (error);
  base = cg_demo_server_get_url (demo);
  if (!g_str_has_suffix (base, "/"))
    {
      char *slashed = g_strconcat (base, "/", NULL);

      g_free (base);
      base = slashed;
    }

  cg_render_options_init (&options);
  options.quiet_ms = 250;
  options.settle_max_ms = 3000;
  options.thumbnail_width = 0;
  renders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  context = cg_web_context_new (TRUE);
  renderer = cg_renderer_new (context, &options);

  g_test_add_data_func ("/records/rendered-vs-plain/home", CG_DEMO_CLASS_HOME, test_class);
  g_test_add_data_func ("/records/rendered-vs-plain/category", CG_DEMO_CLASS_CATEGORY, test_class);
  g_test_add_data_func ("/records/rendered-vs-plain/book", CG_DEMO_CLASS_BOOK, test_class);
  g_test_add_data_func ("/records/rendered-vs-plain/author", CG_DEMO_CLASS_AUTHOR, test_class);
  g_test_add_data_func ("/records/rendered-vs-plain/author-index", CG_DEMO_CLASS_AUTHOR_INDEX, test_class);
  g_test_add_data_func ("/records/rendered-vs-plain/search", CG_DEMO_CLASS_SEARCH, test_class);
  status = g_test_run ();

  g_hash_table_unref (renders);
  g_clear_object (&renderer);
  g_clear_object (&context);
  cg_demo_server_stop (demo);
  g_clear_object (&demo);
  g_free (base);
  return status;
}
