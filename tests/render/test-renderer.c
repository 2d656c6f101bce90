/* test-renderer.c: the WebKit renderer, its pool and archive replay,
 * against pages served on 127.0.0.1.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <libxml/xpath.h>

#include "cg-archive.h"
#include "cg-cdxj.h"
#include "cg-display.h"
#include "cg-dom-path.h"
#include "cg-links.h"
#include "cg-project.h"
#include "cg-renderer-pool.h"
#include "cg-warc-writer.h"

/* Short waits for quiet keep the suite fast; the fixtures' own late
 * content comes well within them. */
#define TEST_QUIET_MS       250
#define TEST_SETTLE_MAX_MS  3000

typedef struct {
  SoupServer *server;
  char       *base;          /* "http://127.0.0.1:PORT/" */
  guint       n_requests;
  GPtrArray  *held;          /* messages /slow never answers */
} Server;

static Server        server;
static CgWebContext *live_context;
static CgRenderer   *live_renderer;

/* ------------------------------------------------------------------ */
/* The test site                                                       */
/* ------------------------------------------------------------------ */

static void
server_cb (SoupServer        *soup_server,
           SoupServerMessage *msg,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  g_autofree char *file = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  server.n_requests++;
  if (g_str_equal (path, "/slow"))
    {
      /* Never answered: the load stays under way. */
      soup_server_message_pause (msg);
      g_ptr_array_add (server.held, g_object_ref (msg));
      return;
    }
  if (g_str_has_prefix (path, "/noscript-refresh-"))
    {
      /* As saved search pages do: a refresh that only a browser without
       * scripts follows, at once to a page the server does not have, or
       * after a second to one that never answers. */
      gboolean later = g_str_equal (path, "/noscript-refresh-later.html");
      g_autofree char *page = g_strdup_printf ("<!DOCTYPE html><html><head><title>Results</title>"
                                               "<noscript><meta http-equiv=\"refresh\" content=\"%s\"></noscript>"
                                               "</head><body><ul><li>One</li><li>Two</li></ul></body></html>",
                                               later ? "1;url=/slow" : "0;url=/no-scripts.html");

      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "text/html; charset=utf-8", SOUP_MEMORY_TAKE,
                                        g_steal_pointer (&page), strlen (page));
      return;
    }
  if (g_str_equal (path, "/redirect-to-file"))
    {
      soup_server_message_set_redirect (msg, SOUP_STATUS_FOUND, "file:///etc/passwd");
      return;
    }
  if (g_str_equal (path, "/archive.zip"))
    {
      static const char zip[] = "PK\x03\x04 not really a zip file";

      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "application/zip", SOUP_MEMORY_STATIC, zip, sizeof zip - 1);
      return;
    }
  if (g_str_equal (path, "/live.css"))
    {
      static const char css[] = "body { background-color: rgb(255, 0, 0); }";

      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "text/css", SOUP_MEMORY_STATIC, css, sizeof css - 1);
      return;
    }

  file = g_build_filename (CG_TEST_DATA_DIR, "render", path + 1, NULL);
  if (strstr (path, "..") != NULL || !g_file_get_contents (file, &contents, &length, NULL))
    {
      static const char missing[] = "<!DOCTYPE html><title>Not found</title><p>No such page</p>";

      soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
      soup_server_message_set_response (msg, "text/html", SOUP_MEMORY_STATIC, missing, sizeof missing - 1);
      return;
    }
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "text/html; charset=utf-8", SOUP_MEMORY_TAKE,
                                    g_steal_pointer (&contents), length);
}

static char *
page_url (const char *name)
{
  return g_strconcat (server.base, name, NULL);
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static CgRenderOptions
test_options (void)
{
  CgRenderOptions options;

  cg_render_options_init (&options);
  options.quiet_ms = TEST_QUIET_MS;
  options.settle_max_ms = TEST_SETTLE_MAX_MS;
  options.timeout_ms = 20000;
  return options;
}

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

static CgRenderResult *
render_sync (CgRenderer    *renderer,
             const char    *url,
             GCancellable  *cancellable,
             GError       **error)
{
  Wait wait = { NULL };
  CgRenderResult *result;

  cg_renderer_render_async (renderer, url, cancellable, wait_cb, &wait);
  while (wait.result == NULL)
    g_main_context_iteration (NULL, TRUE);
  result = cg_renderer_render_finish (renderer, wait.result, error);
  g_object_unref (wait.result);
  return result;
}

static CgRenderResult *
render_ok (CgRenderer *renderer,
           const char *name)
{
  g_autofree char *url = page_url (name);
  g_autoptr(GError) error = NULL;
  CgRenderResult *result = render_sync (renderer, url, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (result);
  return result;
}

static htmlDocPtr
parse_html (const char *html,
            const char *url)
{
  g_autoptr(GError) error = NULL;
  htmlDocPtr doc = cg_html_parse (html, strlen (html), url, "text/html; charset=utf-8", &error);

  g_assert_no_error (error);
  g_assert_nonnull (doc);
  return doc;
}

static xmlNodePtr
find_by_id (htmlDocPtr  doc,
            const char *id)
{
  g_autofree char *expression = g_strdup_printf ("//*[@id='%s']", id);
  xmlXPathContextPtr context = xmlXPathNewContext (doc);
  xmlXPathObjectPtr object = xmlXPathEvalExpression ((const xmlChar *) expression, context);
  xmlNodePtr node = NULL;

  if (object != NULL && object->nodesetval != NULL && object->nodesetval->nodeNr == 1)
    node = object->nodesetval->nodeTab[0];
  xmlXPathFreeObject (object);
  xmlXPathFreeContext (context);
  if (node == NULL)
    g_error ("no single element with id “%s”", id);
  return node;
}

static char *
attribute (xmlNodePtr  node,
           const char *name)
{
  xmlChar *value = xmlGetProp (node, (const xmlChar *) name);
  char *copy = g_strdup ((const char *) value);

  xmlFree (value);
  return copy;
}

#define assert_attribute(doc, id, name, expected) \
  G_STMT_START { \
    g_autofree char *value_ = attribute (find_by_id ((doc), (id)), (name)); \
    g_assert_cmpstr (value_, ==, (expected)); \
  } G_STMT_END

static char *
normalized_text (xmlNodePtr node)
{
  xmlChar *content = xmlNodeGetContent (node);
  g_auto(GStrv) words = g_strsplit_set (content != NULL ? (const char *) content : "", " \t\r\n\f", -1);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; words[i] != NULL; i++)
    {
      if (words[i][0] == '\0')
        continue;
      if (text->len > 0)
        g_string_append_c (text, ' ');
      g_string_append (text, words[i]);
    }
  xmlFree (content);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static guint
png_width (GBytes *png)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (png, &size);

  g_assert_cmpuint (size, >, 24);
  g_assert_cmpmem (data, 8, "\x89PNG\r\n\x1a\n", 8);
  return (guint) data[16] << 24 | (guint) data[17] << 16 | (guint) data[18] << 8 | data[19];
}

/* ------------------------------------------------------------------ */
/* Visual features                                                     */
/* ------------------------------------------------------------------ */

static void
test_features (void)
{
  g_autoptr(CgRenderResult) result = render_ok (live_renderer, "styled.html");
  htmlDocPtr doc = parse_html (result->html, result->url);

  g_assert_cmpuint (result->status, ==, 200);
  g_assert_cmpstr (result->mime, ==, "text/html");
  g_assert_cmpstr (result->title, ==, "Styled fixture");
  g_assert_true (g_str_has_suffix (result->url, "/styled.html"));
  g_assert_false (result->truncated);
  g_assert_true (result->settled);
  g_assert_cmpfloat (result->document_height, >=, 2040);
  g_assert_true (g_str_has_prefix (result->html, "<!DOCTYPE html>"));

  /* Boxes, in page coordinates. */
  assert_attribute (doc, "box", "data-cg-left", "40");
  assert_attribute (doc, "box", "data-cg-top", "30");
  assert_attribute (doc, "box", "data-cg-width", "200");
  assert_attribute (doc, "box", "data-cg-height", "50");
  assert_attribute (doc, "inner", "data-cg-left", "45");
  assert_attribute (doc, "inner", "data-cg-top", "37");
  assert_attribute (doc, "inner", "data-cg-width", "20");
  assert_attribute (doc, "inner", "data-cg-height", "10");
  assert_attribute (doc, "third", "data-cg-left", "210");
  assert_attribute (doc, "third", "data-cg-top", "200");
  assert_attribute (doc, "third", "data-cg-width", "100");
  assert_attribute (doc, "third", "data-cg-height", "20");
  /* Below the 900 px viewport: page coordinates, not viewport ones. */
  assert_attribute (doc, "far", "data-cg-top", "2000");
  assert_attribute (doc, "far", "data-cg-height", "40");
  /* The page's own width and height attributes are left alone. */
  assert_attribute (doc, "picture", "width", "7");
  assert_attribute (doc, "picture", "height", "9");
  assert_attribute (doc, "picture", "data-cg-width", "7");
  assert_attribute (doc, "picture", "data-cg-height", "9");

  /* Font data in seed 003's form. */
  assert_attribute (doc, "heading", "data-cg-fontdata",
                    "Georgia, serif; rgb(200, 0, 0); 20px; italic; 700; underline");
  assert_attribute (doc, "struck", "data-cg-fontdata",
                    "Verdana, sans-serif; rgb(0, 128, 0); 13px; normal; 400; line-through");
  assert_attribute (doc, "third", "data-cg-fontdata",
                    "Verdana, sans-serif; rgb(0, 0, 0); 16px; normal; 400; none");

  /* Background colour and display. */
  assert_attribute (doc, "box", "data-cg-background", "rgb(10, 20, 30)");
  assert_attribute (doc, "heading", "data-cg-background", "rgba(0, 0, 0, 0)");
  assert_attribute (doc, "list", "data-cg-display", "flex");
  assert_attribute (doc, "inner", "data-cg-display", "block");
  assert_attribute (doc, "none", "data-cg-display", "none");

  /* Visibility. */
  assert_attribute (doc, "box", "data-cg-visible", "1");
  assert_attribute (doc, "far", "data-cg-visible", "1");
  assert_attribute (doc, "picture", "data-cg-visible", "1");
  assert_attribute (doc, "none", "data-cg-visible", "0");
  assert_attribute (doc, "in-none", "data-cg-visible", "0");
  assert_attribute (doc, "hidden", "data-cg-visible", "0");
  assert_attribute (doc, "transparent", "data-cg-visible", "0");
  assert_attribute (doc, "in-transparent", "data-cg-visible", "0");
  assert_attribute (doc, "offscreen", "data-cg-visible", "0");
  assert_attribute (doc, "empty", "data-cg-visible", "0");

  /* Paths, and every element decorated. */
  assert_attribute (doc, "box", "data-cg-xpath", "/html[1]/body[1]/div[1]");
  assert_attribute (doc, "third", "data-cg-xpath", "/html[1]/body[1]/ul[1]/li[3]");
  assert_attribute (doc, "picture", "data-cg-xpath", "/html[1]/body[1]/img[1]");
  {
    xmlXPathContextPtr context = xmlXPathNewContext (doc);
    xmlXPathObjectPtr all = xmlXPathEvalExpression ((const xmlChar *) "count(//*)", context);
    xmlXPathObjectPtr decorated = xmlXPathEvalExpression ((const xmlChar *) "count(//*[@data-cg-fontdata])", context);
    xmlXPathObjectPtr visible = xmlXPathEvalExpression ((const xmlChar *) "count(//*[@data-cg-visible='1'])", context);

    g_assert_cmpfloat (all->floatval, ==, decorated->floatval);
    g_assert_cmpuint (result->n_elements, ==, (guint) all->floatval);
    g_assert_cmpuint (result->n_visible, ==, (guint) visible->floatval);
    g_assert_cmpuint (result->n_visible, <, result->n_elements);
    xmlXPathFreeObject (all);
    xmlXPathFreeObject (decorated);
    xmlXPathFreeObject (visible);
    xmlXPathFreeContext (context);
  }

  /* The thumbnail: a PNG of the viewport, 320 pixels wide. */
  g_assert_nonnull (result->thumbnail);
  g_assert_cmpuint (png_width (result->thumbnail), ==, CG_RENDER_DEFAULT_THUMBNAIL_WIDTH);

  xmlFreeDoc (doc);
}

static void
test_truncated (void)
{
  CgRenderOptions options = test_options ();
  g_autoptr(CgRenderer) renderer = NULL;
  g_autoptr(CgRenderResult) result = NULL;
  htmlDocPtr doc;
  xmlXPathContextPtr context;
  xmlXPathObjectPtr decorated;

  options.max_elements = 10;
  options.thumbnail_width = 0;
  renderer = cg_renderer_new (live_context, &options);
  result = render_ok (renderer, "styled.html");
  g_assert_true (result->truncated);
  g_assert_cmpuint (result->n_elements, ==, 10);
  g_assert_null (result->thumbnail);

  doc = parse_html (result->html, result->url);
  context = xmlXPathNewContext (doc);
  decorated = xmlXPathEvalExpression ((const xmlChar *) "count(//*[@data-cg-fontdata])", context);
  g_assert_cmpfloat (decorated->floatval, ==, 10);
  xmlXPathFreeObject (decorated);
  xmlXPathFreeContext (context);
  xmlFreeDoc (doc);
}

/* ------------------------------------------------------------------ */
/* Parity of browser and libxml2 paths                                 */
/* ------------------------------------------------------------------ */

/* Turns a canonical path into an XPath that selects the same element in
 * libxml2's tree whether or not the markup had tbody elements: a step
 * under a table selects among the table's children and its tbodies'
 * children together, in document order, which is what dissolving tbody
 * means. */
static char *
canonical_to_libxml2_xpath (const char *canonical)
{
  g_auto(GStrv) steps = g_strsplit (canonical + 1, "/", -1);
  g_autoptr(GString) expression = g_string_new ("");
  gboolean parent_is_table = FALSE;

  for (guint i = 0; steps[i] != NULL; i++)
    {
      const char *bracket = strchr (steps[i], '[');
      g_autofree char *name = g_strndup (steps[i], bracket - steps[i]);

      if (parent_is_table)
        {
          g_autofree char *prefix = g_strdup (expression->str);

          g_string_printf (expression, "(%s/%s | %s/tbody/%s)%s", prefix, name, prefix, name, bracket);
        }
      else
        g_string_append_printf (expression, "/%s", steps[i]);
      parent_is_table = g_str_equal (name, "table");
    }
  return g_string_free (g_steal_pointer (&expression), FALSE);
}

static xmlNodePtr
eval_single (htmlDocPtr  doc,
             const char *expression)
{
  xmlXPathContextPtr context = xmlXPathNewContext (doc);
  xmlXPathObjectPtr object = xmlXPathEvalExpression ((const xmlChar *) expression, context);
  xmlNodePtr node = NULL;

  g_assert_nonnull (object);
  if (object->nodesetval != NULL && object->nodesetval->nodeNr == 1)
    node = object->nodesetval->nodeTab[0];
  else
    g_assert_true (object->nodesetval == NULL || object->nodesetval->nodeNr == 0);
  xmlXPathFreeObject (object);
  xmlXPathFreeContext (context);
  return node;
}

static void
collect_elements (xmlNodePtr  node,
                  GPtrArray  *out)
{
  for (xmlNodePtr child = node; child != NULL; child = child->next)
    {
      if (child->type != XML_ELEMENT_NODE)
        continue;
      g_ptr_array_add (out, child);
      collect_elements (child->children, out);
    }
}

typedef struct {
  guint compared;
  guint matched;
  guint core_elements;
  guint core_matched;
  GHashTable *matched_ids;     /* id attributes of browser elements that matched */
} Parity;

/* Renders @name, then for every element of the decorated DOM looks its
 * data-cg-xpath up in core's parse of the same response, twice: through
 * core's canonical paths (cg-dom-path.h) and by evaluating the path with
 * libxml2's XPath engine. An element matches when both find the same
 * element, with the same tag and the same text. */
static void
check_parity (const char *name,
              Parity     *parity)
{
  g_autoptr(CgRenderResult) result = render_ok (live_renderer, name);
  g_autofree char *file = g_build_filename (CG_TEST_DATA_DIR, "render", name, NULL);
  g_autofree char *source = NULL;
  g_autoptr(GHashTable) core_paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) core_hit = g_hash_table_new (NULL, NULL);
  g_autoptr(GPtrArray) browser_elements = g_ptr_array_new ();
  g_autoptr(GPtrArray) core_elements = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  htmlDocPtr browser, core;
  gsize length;

  g_assert_true (g_file_get_contents (file, &source, &length, NULL));
  browser = parse_html (result->html, result->url);
  core = cg_html_parse (source, length, result->url, "text/html; charset=utf-8", &error);
  g_assert_no_error (error);

  collect_elements (xmlDocGetRootElement (core), core_elements);
  for (guint i = 0; i < core_elements->len; i++)
    {
      xmlNodePtr node = core_elements->pdata[i];
      g_autofree char *canonical = NULL;

      if (!cg_dom_node_has_browser_counterpart (node))
        continue;
      canonical = cg_dom_node_canonical_xpath (node);
      /* A dissolved tbody has no canonical path of its own. */
      if (canonical == NULL || g_str_has_suffix ((const char *) node->name, "tbody"))
        continue;
      parity->core_elements++;
      g_hash_table_insert (core_paths, g_steal_pointer (&canonical), node);
    }

  memset (parity, 0, G_STRUCT_OFFSET (Parity, core_elements));
  collect_elements (xmlDocGetRootElement (browser), browser_elements);
  for (guint i = 0; i < browser_elements->len; i++)
    {
      xmlNodePtr element = browser_elements->pdata[i];
      g_autofree char *path = attribute (element, "data-cg-xpath");
      g_autofree char *expression = NULL;
      g_autofree char *browser_text = NULL;
      g_autofree char *core_text = NULL;
      g_autofree char *id = NULL;
      xmlNodePtr by_canonical, by_xpath;

      if (path == NULL)
        {
          /* Only a dissolved tbody goes without a path. */
          g_assert_cmpstr ((const char *) element->name, ==, "tbody");
          continue;
        }
      parity->compared++;
      by_canonical = g_hash_table_lookup (core_paths, path);
      expression = canonical_to_libxml2_xpath (path);
      by_xpath = eval_single (core, expression);
      if (by_canonical == NULL || by_xpath != by_canonical ||
          g_strcmp0 ((const char *) by_canonical->name, (const char *) element->name) != 0)
        {
          g_test_message ("%s: %s has no counterpart in libxml2's tree", name, path);
          continue;
        }
      browser_text = normalized_text (element);
      core_text = normalized_text (by_canonical);
      if (g_strcmp0 (browser_text, core_text) != 0)
        {
          g_test_message ("%s: %s has the text “%s” in the browser and “%s” in libxml2's tree",
                          name, path, browser_text, core_text);
          continue;
        }
      parity->matched++;
      g_hash_table_add (core_hit, by_canonical);
      id = attribute (element, "id");
      if (id != NULL && parity->matched_ids != NULL)
        g_hash_table_add (parity->matched_ids, g_steal_pointer (&id));
    }
  parity->core_matched = g_hash_table_size (core_hit);

  xmlFreeDoc (browser);
  xmlFreeDoc (core);
}

static void
test_parity_clean (gconstpointer data)
{
  Parity parity = { 0 };

  check_parity (data, &parity);
  /* Every element on both sides, one to one. */
  g_assert_cmpuint (parity.compared, >, 10);
  g_assert_cmpuint (parity.matched, ==, parity.compared);
  g_assert_cmpuint (parity.core_matched, ==, parity.core_elements);
}

static void
test_parity_broken (void)
{
  Parity parity = { 0 };
  const char * const must_match[] = {
    "header", "misnested", "unclosed", "products", "foster", "stray-end", "footer",
  };

  parity.matched_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  check_parity ("broken.html", &parity);
  /* The containers of the broken markup, and everything before and after
   * it, address the same elements; the inside of the misnested and
   * unclosed markup is where the two trees may differ (cg-dom-path.h). */
  for (gsize i = 0; i < G_N_ELEMENTS (must_match); i++)
    if (!g_hash_table_contains (parity.matched_ids, must_match[i]))
      g_error ("the element with id “%s” has different paths in the browser and in libxml2", must_match[i]);
  g_assert_cmpuint (parity.matched * 10, >=, parity.compared * 8);
  g_hash_table_unref (parity.matched_ids);
}

static void
test_canonical_xpath_form (void)
{
  g_autofree char *plain = canonical_to_libxml2_xpath ("/html[1]/body[1]/div[2]/a[1]");
  g_autofree char *table = canonical_to_libxml2_xpath ("/html[1]/body[1]/table[1]/tr[2]/td[1]");

  g_assert_cmpstr (plain, ==, "/html[1]/body[1]/div[2]/a[1]");
  g_assert_cmpstr (table, ==, "(/html[1]/body[1]/table[1]/tr | /html[1]/body[1]/table[1]/tbody/tr)[2]/td[1]");
}

/* ------------------------------------------------------------------ */
/* JavaScript, local files                                             */
/* ------------------------------------------------------------------ */

static void
test_javascript_switch (void)
{
  CgRenderOptions options = test_options ();
  g_autoptr(CgWebContext) no_js = cg_web_context_new (FALSE);
  g_autoptr(CgRenderer) renderer = cg_renderer_new (no_js, &options);
  g_autoptr(CgRenderResult) with = render_ok (live_renderer, "scripted.html");
  g_autoptr(CgRenderResult) without = render_ok (renderer, "scripted.html");
  htmlDocPtr doc;

  g_assert_true (cg_web_context_get_javascript (live_context));
  g_assert_false (cg_web_context_get_javascript (no_js));

  /* With scripts: the element the page adds, the one it adds after load
   * (the capture waited for quiet) and the dialog did not stop it. */
  doc = parse_html (with->html, with->url);
  assert_attribute (doc, "added", "data-cg-visible", "1");
  assert_attribute (doc, "late", "data-cg-visible", "1");
  assert_attribute (doc, "static", "data-cg-visible", "1");
  xmlFreeDoc (doc);

  /* Without: the page's script does not run, the capture still does. */
  g_assert_null (strstr (without->html, "id=\"added\""));
  g_assert_null (strstr (without->html, "id=\"late\""));
  doc = parse_html (without->html, without->url);
  assert_attribute (doc, "static", "data-cg-visible", "1");
  xmlFreeDoc (doc);
}

static void
test_no_local_files (void)
{
  g_autofree char *passwd = NULL;
  g_autoptr(CgRenderResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *redirect = page_url ("redirect-to-file");
  htmlDocPtr doc;

  /* The file the page tries to read exists and is readable here, so
   * finding none of it in the page means it was refused. */
  g_assert_true (g_file_get_contents ("/etc/passwd", &passwd, NULL, NULL));
  g_assert_nonnull (strstr (passwd, "root:"));

  result = render_ok (live_renderer, "local-files.html");
  g_assert_null (strstr (result->html, "root:"));
  doc = parse_html (result->html, result->url);
  {
    g_autofree char *fetched = normalized_text (find_by_id (doc, "fetch"));
    g_autofree char *xhr = normalized_text (find_by_id (doc, "xhr"));
    g_autofree char *frame = normalized_text (find_by_id (doc, "frame-text"));

    g_assert_cmpstr (fetched, ==, "blocked");
    g_assert_cmpstr (xhr, ==, "blocked");
    g_assert_cmpstr (frame, ==, "blocked");
  }
  /* The image did not load: an image from a file has a size. */
  assert_attribute (doc, "image", "data-cg-width", "0");
  xmlFreeDoc (doc);

  /* Navigating to a file, directly or by a redirect, is refused. */
  g_clear_pointer (&result, cg_render_result_free);
  result = render_sync (live_renderer, "file:///etc/passwd", NULL, &error);
  g_assert_error (error, CG_RENDER_ERROR, CG_RENDER_ERROR_BAD_URL);
  g_assert_null (result);
  g_clear_error (&error);
  /* WebKitGTK 2.50's web process dies on an HTTP redirect to a file URL,
   * sandboxed or not and whatever the policy handlers say (an upstream
   * bug): the render fails either way, with nothing read, and the
   * renderer recovers. */
  result = render_sync (live_renderer, redirect, NULL, &error);
  g_assert_true (g_error_matches (error, CG_RENDER_ERROR, CG_RENDER_ERROR_LOAD_FAILED) ||
                 g_error_matches (error, CG_RENDER_ERROR, CG_RENDER_ERROR_WEB_PROCESS_TERMINATED));
  g_assert_null (result);
  result = render_ok (live_renderer, "lists.html");
  g_assert_null (strstr (result->html, "root:"));
}

static void
test_client_redirects (void)
{
  const struct {
    const char *page;
    const char *lands_on;
    const char *title;
  } cases[] = {
    { "redirect-early.html", "/lists.html", "Lists" },
    { "redirect-late.html", "/tables.html", "Tables" },
    { "refresh.html", "/implied.html", "No html, head or body tags" },
  };

  /* The render follows the page to where it goes and captures that. */
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(CgRenderResult) result = render_ok (live_renderer, cases[i].page);

      g_assert_true (g_str_has_suffix (result->url, cases[i].lands_on));
      g_assert_cmpstr (result->title, ==, cases[i].title);
      g_assert_true (g_str_has_suffix (result->requested_url, cases[i].page));
    }
}

static void
render_next_pages (CgRenderer *renderer)
{
  const char *next[] = { "lists.html", "tables.html", "implied.html" };

  for (gsize i = 0; i < G_N_ELEMENTS (next); i++)
    {
      g_autoptr(CgRenderResult) result = render_ok (renderer, next[i]);

      g_assert_cmpuint (result->status, ==, 200);
      g_assert_true (g_str_has_suffix (result->url, next[i]));
    }
}

/* Without scripts, a <noscript> refresh is followed like any client
 * redirect, and the renderer goes on with the next pages. */
static void
test_noscript_refresh (void)
{
  CgRenderOptions options = test_options ();
  g_autoptr(CgWebContext) no_js = cg_web_context_new (FALSE);
  g_autoptr(CgRenderer) renderer = cg_renderer_new (no_js, &options);
  g_autoptr(CgRenderResult) result = render_ok (renderer, "noscript-refresh-now.html");

  g_assert_true (g_str_has_suffix (result->url, "/no-scripts.html"));
  g_assert_cmpuint (result->status, ==, 404);
  g_assert_true (g_str_has_suffix (result->requested_url, "/noscript-refresh-now.html"));
  render_next_pages (renderer);
}

/* A page that navigates on its own after its render ended leaves that
 * navigation under way in the view. The next render's load cancels it,
 * and WebKit reports the cancelled load's end while the new one goes on:
 * taken for the new render's, it made the render fail with "Load request
 * cancelled", and the one after it too (each left its own load running),
 * losing page after page. */
static void
test_navigation_after_render (void)
{
  CgRenderOptions options = test_options ();
  g_autoptr(CgWebContext) no_js = NULL;
  g_autoptr(CgRenderer) renderer = NULL;
  g_autofree char *url = page_url ("noscript-refresh-later.html");
  g_autoptr(CgRenderResult) first = NULL;
  g_autoptr(GError) error = NULL;
  guint held = server.held->len;

  options.timeout_ms = 5000;
  no_js = cg_web_context_new (FALSE);
  renderer = cg_renderer_new (no_js, &options);
  /* The page is captured before its refresh comes, unless the machine is
   * so slow that the render follows it to the page that never answers
   * and times out; either way the next renders must work. */
  first = render_sync (renderer, url, NULL, &error);
  if (first == NULL)
    g_assert_error (error, CG_RENDER_ERROR, CG_RENDER_ERROR_TIMEOUT);
  else
    g_assert_true (g_str_has_suffix (first->url, "/noscript-refresh-later.html"));
  /* Waits, idle, for the refresh to reach the server: the view is then
   * loading a page no render asked for. */
  while (server.held->len == held)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (cg_renderer_is_busy (renderer));
  render_next_pages (renderer);
}

/* ------------------------------------------------------------------ */
/* Recovery                                                            */
/* ------------------------------------------------------------------ */

static gboolean
is_descendant_of_us (int pid)
{
  int self = getpid ();

  for (int depth = 0; depth < 16 && pid > 1; depth++)
    {
      g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
      g_autofree char *stat = NULL;
      const char *after;
      int ppid = 0;

      if (!g_file_get_contents (path, &stat, NULL, NULL))
        return FALSE;
      /* The command name may hold spaces; the fields after it do not. */
      after = strrchr (stat, ')');
      if (after == NULL || sscanf (after + 2, "%*c %d", &ppid) != 1)
        return FALSE;
      if (ppid == self)
        return TRUE;
      pid = ppid;
    }
  return FALSE;
}

static char *
parent_command (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *stat = NULL;
  g_autofree char *comm_path = NULL;
  char *comm = NULL;
  const char *after;
  int ppid = 0;

  if (!g_file_get_contents (path, &stat, NULL, NULL) ||
      (after = strrchr (stat, ')')) == NULL || sscanf (after + 2, "%*c %d", &ppid) != 1)
    return NULL;
  comm_path = g_strdup_printf ("/proc/%d/comm", ppid);
  if (!g_file_get_contents (comm_path, &comm, NULL, NULL))
    return NULL;
  return g_strstrip (comm);
}

/* Kills our web processes for real, as a crash or the OOM killer would.
 * Counts in @sandboxed those that ran inside bubblewrap. */
static guint
kill_web_processes (guint *sandboxed)
{
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  guint killed = 0;

  g_assert_nonnull (proc);
  while ((name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *comm_path = NULL;
      g_autofree char *comm = NULL;
      int pid = atoi (name);

      if (pid <= 0)
        continue;
      comm_path = g_strdup_printf ("/proc/%d/comm", pid);
      if (!g_file_get_contents (comm_path, &comm, NULL, NULL))
        continue;
      if (g_str_has_prefix (comm, "WebKitWebProces") && is_descendant_of_us (pid))
        {
          g_autofree char *parent = parent_command (pid);

          if (g_strcmp0 (parent, "bwrap") == 0)
            (*sandboxed)++;
          if (kill (pid, SIGKILL) == 0)
            killed++;
        }
    }
  return killed;
}

typedef struct {
  guint killed;
  guint sandboxed;
} Kills;

static gboolean
kill_later_cb (gpointer user_data)
{
  Kills *kills = user_data;

  kills->killed = kill_web_processes (&kills->sandboxed);
  return G_SOURCE_REMOVE;
}

static void
test_recovery_after_kill (void)
{
  CgRenderOptions options = test_options ();
  g_autoptr(CgRenderer) renderer = cg_renderer_new (live_context, &options);
  g_autoptr(CgRenderResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *slow = page_url ("slow");
  WebKitWebView *first_view;
  Kills kills = { 0, 0 };

  result = render_ok (renderer, "lists.html");
  g_clear_pointer (&result, cg_render_result_free);
  first_view = cg_renderer_get_view (renderer);
  g_assert_cmpuint (cg_renderer_get_n_recoveries (renderer), ==, 0);

  /* The web process dies while a page loads. */
  g_timeout_add (500, kill_later_cb, &kills);
  result = render_sync (renderer, slow, NULL, &error);
  g_assert_cmpuint (kills.killed, >, 0);
  /* WebKitGTK 6.0 runs every web process in a bubblewrap sandbox, and
   * Cartograph never turns that off. */
  g_assert_cmpuint (kills.sandboxed, ==, kills.killed);
  g_assert_error (error, CG_RENDER_ERROR, CG_RENDER_ERROR_WEB_PROCESS_TERMINATED);
  g_assert_null (result);
  g_clear_error (&error);

  /* The renderer carries on with a new view. */
  result = render_ok (renderer, "tables.html");
  g_assert_cmpuint (result->n_elements, >, 10);
  g_assert_cmpuint (cg_renderer_get_n_recoveries (renderer), ==, 1);
  g_assert_true (cg_renderer_get_view (renderer) != first_view);
}

static void
test_recovery_after_timeout (void)
{
  CgRenderOptions options = test_options ();
  g_autoptr(CgRenderer) renderer = NULL;
  g_autoptr(CgRenderResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = page_url ("endless.html");

  options.timeout_ms = 2000;
  renderer = cg_renderer_new (live_context, &options);
  result = render_sync (renderer, url, NULL, &error);
  g_assert_error (error, CG_RENDER_ERROR, CG_RENDER_ERROR_TIMEOUT);
  g_assert_null (result);
  g_assert_cmpuint (cg_renderer_get_n_recoveries (renderer), ==, 1);

  result = render_ok (renderer, "lists.html");
  g_assert_cmpuint (result->status, ==, 200);
}

/* ------------------------------------------------------------------ */
/* Archives                                                            */
/* ------------------------------------------------------------------ */

static CgWarcRecordInfo *
write_response (CgWarcWriter *writer,
                const char   *url,
                const char   *content_type,
                const char   *body)
{
  g_autofree char *headers = g_strdup_printf ("HTTP/1.1 200 OK\r\nContent-Type: %s\r\n"
                                              "Content-Length: %zu\r\nConnection: close\r\n\r\n",
                                              content_type, strlen (body));
  g_autofree char *request = g_strdup_printf ("GET %s HTTP/1.1\r\n\r\n", url);
  CgWarcExchange exchange = {
    .target_uri = url,
    .request_headers = (const guint8 *) request,
    .request_headers_length = strlen (request),
    .response_headers = (const guint8 *) headers,
    .response_headers_length = strlen (headers),
    .payload = (const guint8 *) body,
    .payload_length = strlen (body),
  };
  CgWarcRecordInfo *info = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (cg_warc_writer_write_exchange (writer, &exchange, NULL, &info, &error));
  g_assert_no_error (error);
  return info;
}

/* A revisit of @original, with its own 200 headers, or as the 304 answer
 * to a conditional request (@not_modified). */
static void
write_revisit (CgWarcWriter     *writer,
               const char       *url,
               const char       *content_type,
               CgWarcRecordInfo *original,
               const char       *original_url,
               gboolean          not_modified)
{
  g_autofree char *headers = not_modified
                             ? g_strdup ("HTTP/1.1 304 Not Modified\r\nETag: \"1\"\r\n\r\n")
                             : g_strdup_printf ("HTTP/1.1 200 OK\r\nContent-Type: %s\r\n\r\n", content_type);
  g_autofree char *request = g_strdup_printf ("GET %s HTTP/1.1\r\n\r\n", url);
  CgWarcExchange exchange = {
    .target_uri = url,
    .request_headers = (const guint8 *) request,
    .request_headers_length = strlen (request),
    .response_headers = (const guint8 *) headers,
    .response_headers_length = strlen (headers),
    .revisit_payload_digest = original->payload_digest,
    .revisit_target_uri = original_url,
    .revisit_date = original->date,
    .revisit_record_id = original->record_id,
    .revisit_profile = not_modified ? CG_WARC_REVISIT_PROFILE_NOT_MODIFIED : NULL,
  };
  g_autoptr(GError) error = NULL;

  g_assert_true (cg_warc_writer_write_exchange (writer, &exchange, NULL, NULL, &error));
  g_assert_no_error (error);
}

#define SECURE_PAGE "https://archive.invalid/secure.html"
#define SECURE_CSS  "https://archive.invalid/secure.css"

/* Writes the test archive into @directory: an http page whose stylesheet
 * the live server would serve red and the archive has blue, a page whose
 * stylesheet is a revisit of that one, and an https page and stylesheet on
 * a host that does not exist. Returns the WARC file's path. */
static char *
write_test_archive (const char *directory)
{
  g_autoptr(CgWarcWriter) writer = NULL;
  g_autoptr(CgWarcRecordInfo) css = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *page = page_url ("archived.html");
  g_autofree char *live_css = page_url ("live.css");
  g_autofree char *copy_page = page_url ("archived-copy.html");
  g_autofree char *copy_css = page_url ("copy.css");
  g_autofree char *unchanged_page = page_url ("unchanged.html");
  g_autoptr(CgWarcRecordInfo) unchanged = NULL;
  g_autofree char *path = NULL;

  writer = cg_warc_writer_new (directory, "test", &error);
  g_assert_no_error (error);
  cg_warc_record_info_free (write_response (writer, page, "text/html; charset=utf-8",
                                            "<!DOCTYPE html><html><head><title>Archived</title>"
                                            "<link rel=\"stylesheet\" href=\"/live.css\"></head>"
                                            "<body><p id=\"text\">From the archive</p>"
                                            "<img id=\"missing\" src=\"/not-archived.png\"></body></html>"));
  css = write_response (writer, live_css, "text/css", "body { background-color: rgb(0, 0, 255); }");
  cg_warc_record_info_free (write_response (writer, copy_page, "text/html",
                                            "<!DOCTYPE html><html><head><title>Copy</title>"
                                            "<link rel=\"stylesheet\" href=\"/copy.css\"></head>"
                                            "<body><p>Same stylesheet, stored once</p></body></html>"));
  write_revisit (writer, copy_css, "text/css", css, live_css, FALSE);
  /* A page harvested twice: the second time, the server said it had not
   * changed. */
  unchanged = write_response (writer, unchanged_page, "text/html",
                              "<!DOCTYPE html><html><head><title>Unchanged</title></head>"
                              "<body><p>Harvested twice</p></body></html>");
  write_revisit (writer, unchanged_page, "text/html", unchanged, unchanged_page, TRUE);
  cg_warc_record_info_free (write_response (writer, SECURE_PAGE, "text/html",
                                            "<!DOCTYPE html><html><head><title>Secure</title>"
                                            "<link rel=\"stylesheet\" href=\"/secure.css\"></head>"
                                            "<body><p id=\"text\">Replayed over TLS</p></body></html>"));
  cg_warc_record_info_free (write_response (writer, SECURE_CSS, "text/css",
                                            "body { background-color: rgb(0, 128, 0); }"));
  path = g_build_filename (directory, cg_warc_writer_get_current_file_name (writer), NULL);
  g_assert_true (cg_warc_writer_close (writer, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&path);
}

static void
assert_body_background (CgRenderResult *result,
                        const char     *expected)
{
  htmlDocPtr doc = parse_html (result->html, result->url);
  xmlNodePtr body = eval_single (doc, "/html/body");
  g_autofree char *background = attribute (body, "data-cg-background");

  g_assert_cmpstr (background, ==, expected);
  xmlFreeDoc (doc);
}

static void
render_archive_checks (CgArchive *archive)
{
  CgRenderOptions options = test_options ();
  g_autoptr(CgWebContext) context = NULL;
  g_autoptr(CgRenderer) renderer = NULL;
  g_autoptr(CgRenderResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *page = page_url ("archived.html");
  g_autofree char *copy_page = page_url ("archived-copy.html");
  g_autofree char *not_archived = page_url ("styled.html");
  g_autofree char *unchanged_page = page_url ("unchanged.html");
  guint requests_before = server.n_requests;

  context = cg_web_context_new_for_archive (archive, TRUE, &error);
  g_assert_no_error (error);
  g_assert_true (cg_web_context_get_archive (context) == archive);
  renderer = cg_renderer_new (context, &options);

  /* The archived stylesheet (blue), not the live one (red). */
  result = render_sync (renderer, page, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (result->status, ==, 200);
  g_assert_cmpstr (result->title, ==, "Archived");
  assert_body_background (result, "rgb(0, 0, 255)");
  g_clear_pointer (&result, cg_render_result_free);

  /* A revisit is replayed with the payload it refers to. */
  result = render_sync (renderer, copy_page, NULL, &error);
  g_assert_no_error (error);
  assert_body_background (result, "rgb(0, 0, 255)");
  g_clear_pointer (&result, cg_render_result_free);

  /* The newest capture of a page is the 304 of a harvest that found it
   * unchanged: the page it refers to is shown. */
  result = render_sync (renderer, unchanged_page, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (result->status, ==, 200);
  g_assert_cmpstr (result->title, ==, "Unchanged");
  g_clear_pointer (&result, cg_render_result_free);

  /* https, on a host that exists only in the archive. */
  result = render_sync (renderer, SECURE_PAGE, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (result->status, ==, 200);
  g_assert_cmpstr (result->url, ==, SECURE_PAGE);
  g_assert_cmpstr (result->title, ==, "Secure");
  assert_body_background (result, "rgb(0, 128, 0)");
  g_clear_pointer (&result, cg_render_result_free);

  /* A page the archive lacks is refused, though the live server has it. */
  result = render_sync (renderer, not_archived, NULL, &error);
  g_assert_error (error, CG_RENDER_ERROR, CG_RENDER_ERROR_NOT_IN_ARCHIVE);
  g_assert_null (result);

  /* Nothing was fetched live: not the page, not its requisites, not the
   * image the archive lacks. */
  g_assert_cmpuint (server.n_requests, ==, requests_before);
}

static void
test_archive_warc (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cg-render-warc-XXXXXX", NULL);
  g_autofree char *warc = write_test_archive (dir);
  g_autofree char *cdxj = cg_cdxj_path_for_warc (warc);
  g_autoptr(CgArchive) archive = NULL;
  g_autoptr(CgArchive) unindexed = NULL;
  g_autoptr(CgArchiveResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *page = page_url ("archived.html");
  g_autofree char *www_page = NULL;
  g_auto(GStrv) pages = NULL;

  archive = cg_archive_new_for_warc (warc, &error);
  g_assert_no_error (error);
  g_assert_true (cg_archive_contains (archive, page));
  g_assert_true (cg_archive_contains (archive, SECURE_CSS));
  g_assert_false (cg_archive_contains (archive, "https://archive.invalid/other"));

  response = cg_archive_lookup (archive, SECURE_CSS, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (response->status, ==, 200);
  g_assert_cmpstr (soup_message_headers_get_content_type (response->headers, NULL), ==, "text/css");
  g_assert_cmpmem (g_bytes_get_data (response->payload, NULL), g_bytes_get_size (response->payload),
                   "body { background-color: rgb(0, 128, 0); }", 42);
  g_clear_pointer (&response, cg_archive_response_free);

  response = cg_archive_lookup (archive, "https://archive.invalid/other", &error);
  g_assert_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_NOT_FOUND);
  g_assert_null (response);
  g_clear_error (&error);

  pages = cg_archive_list_pages (archive, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (pages), ==, 3);
  g_assert_cmpstr (pages[0], ==, page);
  g_assert_cmpstr (pages[2], ==, SECURE_PAGE);

  /* Without its CDXJ file, the WARC file is indexed when opened. */
  g_assert_cmpint (g_remove (cdxj), ==, 0);
  unindexed = cg_archive_new_for_warc (warc, &error);
  g_assert_no_error (error);
  g_assert_true (cg_archive_contains (unindexed, SECURE_PAGE));

  render_archive_checks (unindexed);

  g_remove (warc);
  g_rmdir (dir);
}

static void
test_archive_project (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cg-render-project-XXXXXX", NULL);
  g_autofree char *folder = g_build_filename (dir, "project", NULL);
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgWarcWriter) writer = NULL;
  g_autoptr(CgArchive) archive = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *warc_dir = NULL;
  g_autofree char *page = page_url ("archived.html");
  g_autofree char *css = page_url ("live.css");
  g_auto(GStrv) pages = NULL;
  CgStore *store;
  sqlite3 *db;
  gint64 crawl_id;
  const char *urls[] = { page, css, SECURE_PAGE, SECURE_CSS };
  const char *types[] = { "text/html", "text/css", "text/html", "text/css" };
  const char *bodies[] = {
    "<!DOCTYPE html><html><head><title>Archived</title><link rel=\"stylesheet\" href=\"/live.css\"></head>"
    "<body><p>From the project</p></body></html>",
    "body { background-color: rgb(0, 0, 255); }",
    "<!DOCTYPE html><html><head><title>Secure</title><link rel=\"stylesheet\" href=\"/secure.css\"></head>"
    "<body><p>Replayed over TLS</p></body></html>",
    "body { background-color: rgb(0, 128, 0); }",
  };

  project = cg_project_create (folder, "Render test", &error);
  g_assert_no_error (error);
  store = cg_project_get_store (project);
  db = cg_store_get_db (store);
  crawl_id = cg_project_add_crawl (project, "crawl", page, "{}", &error);
  g_assert_no_error (error);
  warc_dir = cg_project_get_warc_dir (project);
  writer = cg_warc_writer_new (warc_dir, "cartograph-1", &error);
  g_assert_no_error (error);

  /* The rows a crawl leaves: a host, a URL and a fetch per record. */
  g_assert_true (cg_store_exec (store, "INSERT INTO hosts (id, crawl_id, host_key) VALUES (1, 1, 'h')", &error));
  for (gsize i = 0; i < G_N_ELEMENTS (urls); i++)
    {
      g_autoptr(CgWarcRecordInfo) info = write_response (writer, urls[i], types[i], bodies[i]);
      g_autoptr(sqlite3_stmt) stmt = NULL;
      gint64 file_id;

      stmt = cg_store_prepare (store, "INSERT OR IGNORE INTO warc_files (crawl_id, name) VALUES (?1, ?2)", &error);
      sqlite3_bind_int64 (stmt, 1, crawl_id);
      sqlite3_bind_text (stmt, 2, info->file_name, -1, SQLITE_TRANSIENT);
      g_assert_true (cg_store_step_done (store, stmt, &error));
      g_clear_pointer (&stmt, sqlite3_finalize);
      stmt = cg_store_prepare (store, "SELECT id FROM warc_files WHERE name = ?1", &error);
      sqlite3_bind_text (stmt, 1, info->file_name, -1, SQLITE_TRANSIENT);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
      file_id = sqlite3_column_int64 (stmt, 0);
      g_clear_pointer (&stmt, sqlite3_finalize);

      stmt = cg_store_prepare (store, "INSERT INTO urls (id, crawl_id, host_id, url, depth, discovered_at) "
                                      "VALUES (?1, ?2, 1, ?3, 0, 0)", &error);
      sqlite3_bind_int64 (stmt, 1, (gint64) i + 1);
      sqlite3_bind_int64 (stmt, 2, crawl_id);
      sqlite3_bind_text (stmt, 3, urls[i], -1, SQLITE_STATIC);
      g_assert_true (cg_store_step_done (store, stmt, &error));
      g_clear_pointer (&stmt, sqlite3_finalize);

      stmt = cg_store_prepare (store, "INSERT INTO fetches (crawl_id, url_id, fetched_at, status, mime, "
                                      "payload_digest, record_type, warc_file_id, warc_offset, warc_length) "
                                      "VALUES (?1, ?2, ?3, 200, ?4, ?5, 'response', ?6, ?7, ?8)", &error);
      sqlite3_bind_int64 (stmt, 1, crawl_id);
      sqlite3_bind_int64 (stmt, 2, (gint64) i + 1);
      sqlite3_bind_int64 (stmt, 3, (gint64) i);
      sqlite3_bind_text (stmt, 4, types[i], -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 5, info->payload_digest, -1, SQLITE_TRANSIENT);
      sqlite3_bind_int64 (stmt, 6, file_id);
      sqlite3_bind_int64 (stmt, 7, (gint64) info->offset);
      sqlite3_bind_int64 (stmt, 8, (gint64) info->length);
      g_assert_true (cg_store_step_done (store, stmt, &error));
      g_assert_no_error (error);
    }
  g_assert_true (cg_warc_writer_close (writer, &error));
  g_assert_no_error (error);
  (void) db;

  archive = cg_archive_new_for_project (folder, 0, &error);
  g_assert_no_error (error);
  g_assert_true (cg_archive_contains (archive, page));
  g_assert_false (cg_archive_contains (archive, "http://127.0.0.1:1/elsewhere"));
  pages = cg_archive_list_pages (archive, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (pages), ==, 2);
  g_assert_cmpstr (pages[0], ==, page);
  g_assert_cmpstr (pages[1], ==, SECURE_PAGE);

  {
    CgRenderOptions options = test_options ();
    g_autoptr(CgWebContext) context = cg_web_context_new_for_archive (archive, FALSE, &error);
    g_autoptr(CgRenderer) renderer = NULL;
    g_autoptr(CgRenderResult) result = NULL;
    guint requests_before = server.n_requests;

    g_assert_no_error (error);
    renderer = cg_renderer_new (context, &options);
    result = render_sync (renderer, page, NULL, &error);
    g_assert_no_error (error);
    assert_body_background (result, "rgb(0, 0, 255)");
    g_clear_pointer (&result, cg_render_result_free);
    result = render_sync (renderer, SECURE_PAGE, NULL, &error);
    g_assert_no_error (error);
    assert_body_background (result, "rgb(0, 128, 0)");
    g_assert_cmpuint (server.n_requests, ==, requests_before);
  }

  /* With its WARC file gone, the project still lists the pages, but the
   * archive cannot supply them: each render fails, naming the page and
   * why, instead of rendering the proxy's "502 Bad Gateway". */
  g_clear_object (&archive);
  {
    CgRenderOptions options = test_options ();
    g_autoptr(CgWebContext) context = NULL;
    g_autoptr(CgRenderer) renderer = NULL;
    g_autoptr(CgRenderResult) result = NULL;
    g_autoptr(GDir) warcs = g_dir_open (warc_dir, 0, NULL);
    const char *name;
    guint n_removed = 0;

    g_assert_nonnull (warcs);
    while ((name = g_dir_read_name (warcs)) != NULL)
      if (g_str_has_suffix (name, ".warc.gz"))
        {
          g_autofree char *path = g_build_filename (warc_dir, name, NULL);

          g_assert_cmpint (g_remove (path), ==, 0);
          n_removed++;
        }
    g_assert_cmpuint (n_removed, >, 0);

    archive = cg_archive_new_for_project (folder, 0, &error);
    g_assert_no_error (error);
    g_assert_true (cg_archive_contains (archive, page));
    context = cg_web_context_new_for_archive (archive, FALSE, &error);
    g_assert_no_error (error);
    renderer = cg_renderer_new (context, &options);
    for (gsize i = 0; i < 2; i++)
      {
        const char *url = i == 0 ? page : SECURE_PAGE;

        result = render_sync (renderer, url, NULL, &error);
        g_assert_error (error, CG_RENDER_ERROR, CG_RENDER_ERROR_LOAD_FAILED);
        g_assert_null (result);
        g_assert_nonnull (strstr (error->message, url));
        g_assert_nonnull (strstr (error->message, ".warc.gz"));
        g_clear_error (&error);
      }
  }

  g_clear_object (&archive);
  g_clear_object (&project);
  {
    g_autofree char *command = g_strdup_printf ("rm -rf '%s'", dir);
    g_assert_cmpint (system (command), ==, 0);
  }
}

static void
test_archive_bad_sources (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cg-render-bad-XXXXXX", NULL);
  g_autofree char *garbage = g_build_filename (dir, "garbage.warc.gz", NULL);
  g_autofree char *other_db = g_build_filename (dir, CG_PROJECT_DATABASE_NAME, NULL);
  g_autoptr(CgArchive) archive = NULL;
  g_autoptr(GError) error = NULL;
  sqlite3 *db = NULL;

  archive = cg_archive_new_for_warc ("/nonexistent/cartograph.warc.gz", &error);
  g_assert_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_SOURCE);
  g_assert_nonnull (strstr (error->message, "/nonexistent/cartograph.warc.gz"));
  g_assert_null (archive);
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (garbage, "This is not a WARC file at all.\n", -1, NULL));
  archive = cg_archive_new_for_warc (garbage, &error);
  g_assert_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_SOURCE);
  g_assert_nonnull (strstr (error->message, "garbage.warc.gz"));
  g_assert_null (archive);
  g_clear_error (&error);

  /* A folder without a database, then with another program's. */
  archive = cg_archive_new_for_project (dir, 0, &error);
  g_assert_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_SOURCE);
  g_assert_null (archive);
  g_clear_error (&error);
  g_assert_cmpint (sqlite3_open (other_db, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "CREATE TABLE t (x)", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
  archive = cg_archive_new_for_project (dir, 0, &error);
  g_assert_error (error, CG_ARCHIVE_ERROR, CG_ARCHIVE_ERROR_BAD_SOURCE);
  g_assert_nonnull (strstr (error->message, "another program"));
  g_assert_null (archive);
  g_clear_error (&error);

  g_remove (garbage);
  g_remove (other_db);
  g_rmdir (dir);
}

/* ------------------------------------------------------------------ */
/* Pool, bad inputs                                                    */
/* ------------------------------------------------------------------ */

typedef struct {
  guint        n_done;
  GPtrArray   *results;
} PoolRun;

static void
pool_done_cb (GObject      *source,
              GAsyncResult *res,
              gpointer      user_data)
{
  PoolRun *run = user_data;
  g_autoptr(GError) error = NULL;
  CgRenderResult *result = cg_renderer_pool_render_finish (CG_RENDERER_POOL (source), res, &error);

  g_assert_no_error (error);
  g_ptr_array_add (run->results, result);
  run->n_done++;
}

static void
test_pool (void)
{
  CgRenderOptions options = test_options ();
  g_autoptr(CgRendererPool) pool = cg_renderer_pool_new (live_context, 0, &options);
  const char * const names[] = {
    "styled.html", "tables.html", "lists.html", "implied.html", "broken.html", "scripted.html",
  };
  PoolRun run = { 0, g_ptr_array_new_with_free_func ((GDestroyNotify) cg_render_result_free) };

  g_assert_cmpuint (cg_renderer_pool_get_size (pool), ==, CG_RENDERER_POOL_DEFAULT_SIZE);
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *url = page_url (names[i]);

      cg_renderer_pool_render_async (pool, url, NULL, pool_done_cb, &run);
    }
  g_assert_cmpuint (cg_renderer_pool_get_n_pending (pool), ==, G_N_ELEMENTS (names));
  /* Both renderers work at once. */
  g_assert_true (cg_renderer_is_busy (cg_renderer_pool_get_renderer (pool, 0)));
  g_assert_true (cg_renderer_is_busy (cg_renderer_pool_get_renderer (pool, 1)));

  while (run.n_done < G_N_ELEMENTS (names))
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (cg_renderer_pool_get_n_pending (pool), ==, 0);
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *url = page_url (names[i]);
      gboolean found = FALSE;

      for (guint j = 0; j < run.results->len; j++)
        {
          CgRenderResult *result = run.results->pdata[j];

          if (g_str_equal (result->requested_url, url))
            {
              g_assert_false (found);
              found = TRUE;
              g_assert_cmpuint (result->status, ==, 200);
              g_assert_cmpuint (result->n_elements, >, 5);
            }
        }
      g_assert_true (found);
    }
  g_ptr_array_unref (run.results);
}

static void
cancelled_done_cb (GObject      *source,
                   GAsyncResult *res,
                   gpointer      user_data)
{
  guint *n_cancelled = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(CgRenderResult) result = cg_renderer_pool_render_finish (CG_RENDERER_POOL (source), res, &error);

  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (result);
  (*n_cancelled)++;
}

static void
test_pool_cancel (void)
{
  CgRenderOptions options = test_options ();
  g_autoptr(CgRendererPool) pool = cg_renderer_pool_new (live_context, 1, &options);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *slow = page_url ("slow");
  g_autofree char *lists = page_url ("lists.html");
  guint n_cancelled = 0;

  /* One under way (it never finishes by itself), two waiting. */
  cg_renderer_pool_render_async (pool, slow, cancellable, cancelled_done_cb, &n_cancelled);
  cg_renderer_pool_render_async (pool, lists, cancellable, cancelled_done_cb, &n_cancelled);
  cg_renderer_pool_render_async (pool, lists, cancellable, cancelled_done_cb, &n_cancelled);
  g_assert_cmpuint (cg_renderer_pool_get_n_pending (pool), ==, 3);
  g_cancellable_cancel (cancellable);
  while (n_cancelled < 3)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (cg_renderer_pool_get_n_pending (pool), ==, 0);
  g_assert_false (cg_renderer_is_busy (cg_renderer_pool_get_renderer (pool, 0)));
}

static void
test_bad_inputs (void)
{
  const char * const bad_urls[] = {
    "file:///etc/passwd", "javascript:alert(1)", "data:text/html,<p>hi</p>", "not a url",
    "http://", "ftp://example.org/", "", "cartograph:///cg-capture.js",
    /* Where WebKit leaves a view whose load it refused: rendering it
     * would look like a success. */
    "about:blank", "ABOUT:BLANK",
    /* WebKit does not load a URL that is not UTF-8; it would time out. */
    "http://127.0.0.1:1/\xff",
  };
  g_autoptr(CgRenderResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(SoupServer) closed = soup_server_new (NULL, NULL);
  g_autofree char *slow = page_url ("slow");
  g_autofree char *zip = page_url ("archive.zip");
  g_autofree char *closed_url = NULL;
  GSList *uris;
  Wait first = { NULL };

  for (gsize i = 0; i < G_N_ELEMENTS (bad_urls); i++)
    {
      result = render_sync (live_renderer, bad_urls[i], NULL, &error);
      g_assert_error (error, CG_RENDER_ERROR, CG_RENDER_ERROR_BAD_URL);
      g_assert_null (result);
      g_clear_error (&error);
    }

  /* A page that is not found still renders, with its status. */
  result = render_ok (live_renderer, "no-such-page.html");
  g_assert_cmpuint (result->status, ==, 404);
  g_assert_cmpstr (result->title, ==, "Not found");
  g_clear_pointer (&result, cg_render_result_free);

  /* Content that is not a page. */
  result = render_sync (live_renderer, zip, NULL, &error);
  g_assert_error (error, CG_RENDER_ERROR, CG_RENDER_ERROR_LOAD_FAILED);
  g_assert_null (result);
  g_clear_error (&error);

  /* A server that is gone. */
  g_assert_true (soup_server_listen_local (closed, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, NULL));
  uris = soup_server_get_uris (closed);
  closed_url = g_uri_to_string (uris->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  soup_server_disconnect (closed);
  result = render_sync (live_renderer, closed_url, NULL, &error);
  g_assert_error (error, CG_RENDER_ERROR, CG_RENDER_ERROR_LOAD_FAILED);
  g_assert_nonnull (strstr (error->message, closed_url));
  g_assert_null (result);
  g_clear_error (&error);

  /* A port browsers block: WebKit shows about:blank without load-failed,
   * which must not pass for the page. */
  result = render_sync (live_renderer, "http://127.0.0.1:1/", NULL, &error);
  g_assert_error (error, CG_RENDER_ERROR, CG_RENDER_ERROR_LOAD_FAILED);
  g_assert_nonnull (strstr (error->message, "http://127.0.0.1:1/"));
  g_assert_null (result);
  g_clear_error (&error);

  /* One render at a time; the second is refused, the first cancelled. */
  cg_renderer_render_async (live_renderer, slow, cancellable, wait_cb, &first);
  g_assert_true (cg_renderer_is_busy (live_renderer));
  result = render_sync (live_renderer, slow, NULL, &error);
  g_assert_error (error, CG_RENDER_ERROR, CG_RENDER_ERROR_BUSY);
  g_assert_null (result);
  g_clear_error (&error);
  g_cancellable_cancel (cancellable);
  while (first.result == NULL)
    g_main_context_iteration (NULL, TRUE);
  result = cg_renderer_render_finish (live_renderer, first.result, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (result);
  g_clear_object (&first.result);
  g_clear_error (&error);
  g_assert_false (cg_renderer_is_busy (live_renderer));

  /* And the renderer works on. */
  result = render_ok (live_renderer, "implied.html");
  g_assert_cmpuint (result->status, ==, 200);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(CgDisplay) display = NULL;
  g_autoptr(GError) error = NULL;
  CgRenderOptions options;
  GSList *uris;
  int status;

  g_test_init (&argc, &argv, NULL);

  /* The suite runs under xvfb-run; run by hand without a display, it
   * starts its own Xvfb as cartograph-cli does. */
  display = cg_display_open (&error);
  g_assert_no_error (error);

  server.held = g_ptr_array_new_with_free_func (g_object_unref);
  server.server = soup_server_new (NULL, NULL);
  soup_server_add_handler (server.server, NULL, server_cb, NULL, NULL);
  g_assert_true (soup_server_listen_local (server.server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  uris = soup_server_get_uris (server.server);
  server.base = g_uri_to_string (uris->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  options = test_options ();
  live_context = cg_web_context_new (TRUE);
  live_renderer = cg_renderer_new (live_context, &options);

  g_test_add_func ("/render/features", test_features);
  g_test_add_func ("/render/truncated", test_truncated);
  g_test_add_func ("/render/parity/canonical-form", test_canonical_xpath_form);
  g_test_add_data_func ("/render/parity/tables", "tables.html", test_parity_clean);
  g_test_add_data_func ("/render/parity/lists", "lists.html", test_parity_clean);
  g_test_add_data_func ("/render/parity/implied", "implied.html", test_parity_clean);
  g_test_add_func ("/render/parity/broken", test_parity_broken);
  g_test_add_func ("/render/javascript-switch", test_javascript_switch);
  g_test_add_func ("/render/no-local-files", test_no_local_files);
  g_test_add_func ("/render/client-redirects", test_client_redirects);
  g_test_add_func ("/render/client-redirects/noscript-refresh", test_noscript_refresh);
  g_test_add_func ("/render/client-redirects/after-render", test_navigation_after_render);
  g_test_add_func ("/render/recovery/kill", test_recovery_after_kill);
  g_test_add_func ("/render/recovery/timeout", test_recovery_after_timeout);
  g_test_add_func ("/render/archive/warc", test_archive_warc);
  g_test_add_func ("/render/archive/project", test_archive_project);
  g_test_add_func ("/render/archive/bad-sources", test_archive_bad_sources);
  g_test_add_func ("/render/pool", test_pool);
  g_test_add_func ("/render/pool/cancel", test_pool_cancel);
  g_test_add_func ("/render/bad-inputs", test_bad_inputs);

  status = g_test_run ();

  g_clear_object (&live_renderer);
  g_clear_object (&live_context);
  for (guint i = 0; i < server.held->len; i++)
    soup_server_message_unpause (server.held->pdata[i]);
  soup_server_disconnect (server.server);
  g_clear_object (&server.server);
  g_ptr_array_unref (server.held);
  g_free (server.base);
  return status;
}
