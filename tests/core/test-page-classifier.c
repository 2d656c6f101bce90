/* test-page-classifier.c: pages labelled with a class of a site model, or left unclassified.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "cg-demo-site.h"
#include "cg-links.h"
#include "cg-page-classifier.h"
#include "cg-page-features.h"

#define DEMO_BASE "http://127.0.0.1:8080"
#define SITE "http://shop.test/"

/* Pages of the demo site each class's schema and fingerprint are made from. */
#define N_SAMPLES 3

#define PRODUCT_PAGE \
  "<html><head><title>P</title></head><body><header><img src=\"/logo.png\"><a href=\"/\">Shop</a></header>" \
  "<div class=\"product\"><h1>Name</h1><table><tr><td>Price</td><td>9</td></tr></table>" \
  "<p class=\"by\">by <a href=\"/author/1\">Someone</a></p></div>" \
  "<footer><p>Footer</p></footer></body></html>"
#define LIST_PAGE \
  "<html><head><title>L</title></head><body><nav><a href=\"/\">Home</a></nav>" \
  "<ul class=\"list\"><li><a href=\"/p/1\">One</a></li><li><a href=\"/p/2\">Two</a></li></ul></body></html>"

/* A page of a template the demo site does not have: a forum thread. */
#define FORUM_PAGE \
  "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Thread: winter reading</title></head>" \
  "<body><div id=\"forum\"><table class=\"posts\">" \
  "<tr><td class=\"user\"><a href=\"/member/1\">reader</a><br><img src=\"/avatar/1.png\"></td>" \
  "<td class=\"message\"><div class=\"quote\">Any tips?</div>I am looking for long novels.</td></tr>" \
  "<tr><td class=\"user\"><a href=\"/member/2\">owl</a><br><img src=\"/avatar/2.png\"></td>" \
  "<td class=\"message\">Try the classics shelf.</td></tr>" \
  "</table><div class=\"pager\"><a href=\"/thread/7?page=2\">Next</a></div></div></body></html>"

static CgDemoSite *demo_site;

static htmlDocPtr
parse (const char *html,
       const char *url)
{
  g_autoptr(GError) error = NULL;
  htmlDocPtr doc = cg_page_parse (html, strlen (html), url, "text/html; charset=utf-8", &error);

  g_assert_no_error (error);
  return doc;
}

/* The demo site's answer to @path_and_query, parsed whatever its status. */
static htmlDocPtr
demo_fetch (const char *path_and_query,
            guint      *status)
{
  g_auto(GStrv) parts = g_strsplit (path_and_query, "?", 2);
  g_autoptr(CgDemoResponse) response = cg_demo_site_respond (demo_site, DEMO_BASE, parts[0], parts[1], NULL, NULL);
  g_autofree char *url = g_strconcat (DEMO_BASE, path_and_query, NULL);
  g_autoptr(GError) error = NULL;
  gsize length = 0;
  const char *data = g_bytes_get_data (response->body, &length);
  htmlDocPtr doc;

  if (status != NULL)
    *status = response->status;
  doc = cg_page_parse (data, length, url, response->content_type, &error);
  g_assert_no_error (error);
  return doc;
}

/* ---- schemas ------------------------------------------------------------------ */

static void
test_schema (void)
{
  htmlDocPtr doc = parse ("<html><body><ul class=\"menu\"><li><a href=\"/a\">A</a></li><li><a href=\"/b\">B</a></li></ul>"
                          "<p id=\"intro\">Hello</p></body></html>", SITE);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) schema = cg_page_schema_collect (doc, SITE, &error);
  g_autofree char *joined = NULL;
  const char *a[] = { "/x", "/y", "/z", NULL };
  const char *b[] = { "/w", "/y", "/z", NULL };
  const char *empty[] = { NULL };

  g_assert_no_error (error);
  /* The link collection and the texts of the links share a path; the
   * paragraph's text is a collection of its own. */
  joined = g_strjoinv (" ", schema);
  g_assert_cmpstr (joined, ==, "/html/body/p[@id] /html/body/ul[@class]/li/a");

  g_assert_null (cg_page_schema_collect (doc, "ftp://shop.test/", &error));
  g_assert_error (error, CG_LINKS_ERROR, CG_LINKS_ERROR_BAD_BASE);
  xmlFreeDoc (doc);

  /* Jaccard distance on sorted arrays: 1 − 2 / 4. */
  g_assert_cmpfloat_with_epsilon (cg_page_schema_distance (a, b), 0.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (cg_page_schema_distance (a, a), 0.0, 1e-12);
  g_assert_cmpfloat (cg_page_schema_distance (a, empty), ==, 1.0);
  g_assert_cmpfloat (cg_page_schema_distance (empty, empty), ==, 1.0);
}

/* ---- the demo site -------------------------------------------------------------- */

/* A model of the demo site made by hand: every class of its ground truth,
 * with a schema made from its first N_SAMPLES pages (the union of their
 * schemas) and a URL pattern; @fingerprints gets the same pages'
 * fingerprints, by class name. */
static CgSiteModel *
demo_model (GHashTable *fingerprints)
{
  static const struct {
    const char *name;
    const char *url_pattern;
  } patterns[] = {
    { CG_DEMO_CLASS_HOME, "^http://127\\.0\\.0\\.1:8080/$" },
    { CG_DEMO_CLASS_CATEGORY, "^http://127\\.0\\.0\\.1:8080/category/[^/]+/(\\?page=\\d+)?$" },
    { CG_DEMO_CLASS_BOOK, "^http://127\\.0\\.0\\.1:8080/book/[^/]+$" },
    { CG_DEMO_CLASS_AUTHOR, "^http://127\\.0\\.0\\.1:8080/author/[^/?]+(\\?page=\\d+)?$" },
    { CG_DEMO_CLASS_AUTHOR_INDEX, "^http://127\\.0\\.0\\.1:8080/authors/$" },
    { CG_DEMO_CLASS_SEARCH, "^http://127\\.0\\.0\\.1:8080/search\\?q=.*$" },
  };
  CgSiteModel *model = cg_site_model_new ("127.0.0.1:8080");
  const char * const *classes = cg_demo_site_get_classes ();

  for (guint c = 0; classes[c] != NULL; c++)
    {
      CgPageClass *klass = cg_site_model_add_class (model, classes[c], classes[c]);
      g_autoptr(GHashTable) paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_autoptr(GPtrArray) leaves = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
      g_autofree char **union_paths = NULL;

      for (guint i = 0; i < cg_demo_site_get_n_pages (demo_site) && leaves->len < N_SAMPLES; i++)
        {
          JsonObject *page = cg_demo_site_get_page (demo_site, i);
          const char *path = json_object_get_string_member (page, "path");
          g_autofree char *url = g_strconcat (DEMO_BASE, path, NULL);
          g_auto(GStrv) schema = NULL;
          g_autoptr(GError) error = NULL;
          htmlDocPtr doc;

          if (!g_str_equal (json_object_get_string_member (page, "class"), classes[c]))
            continue;
          doc = demo_fetch (path, NULL);
          schema = cg_page_schema_collect (doc, url, &error);
          g_assert_no_error (error);
          for (guint p = 0; schema[p] != NULL; p++)
            g_hash_table_add (paths, g_strdup (schema[p]));
          g_ptr_array_add (leaves, cg_page_collect_leaf_paths (doc, CG_LEAF_PATHS_ALL_LEAVES));
          xmlFreeDoc (doc);
        }
      g_assert_cmpuint (leaves->len, >, 0);
      union_paths = (char **) g_hash_table_get_keys_as_array (paths, NULL);
      g_strfreev (klass->schema);
      klass->schema = g_strdupv (union_paths);
      for (guint p = 0; p < G_N_ELEMENTS (patterns); p++)
        if (g_str_equal (patterns[p].name, classes[c]))
          klass->url_pattern = g_strdup (patterns[p].url_pattern);
      if (fingerprints != NULL)
        g_hash_table_insert (fingerprints, g_strdup (classes[c]),
                             cg_uxclust_fingerprint (leaves, CG_UXCLUST_DEFAULT_OCCURRENCE));
    }
  return model;
}

static CgPageClassifier *
demo_classifier (gboolean with_fingerprints)
{
  g_autoptr(GHashTable) fingerprints = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                              (GDestroyNotify) g_strfreev);
  g_autoptr(CgSiteModel) model = demo_model (fingerprints);
  g_autoptr(GError) error = NULL;
  CgPageClassifier *classifier = cg_page_classifier_new (model, &error);
  GHashTableIter iter;
  gpointer key, value;

  g_assert_no_error (error);
  if (!with_fingerprints)
    return classifier;
  g_hash_table_iter_init (&iter, fingerprints);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_assert_true (cg_page_classifier_set_fingerprint (classifier, key, value, NULL, &error));
      g_assert_no_error (error);
    }
  return classifier;
}

/* Pages the model has no class for, which must stay unclassified. */
static void
assert_unrelated_unclassified (CgPageClassifier *classifier)
{
  const char *paths[] = { "/no-such-page", "/book/no-such-book/extra", "/cart/" };
  htmlDocPtr doc;
  CgClassification out;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autofree char *url = g_strconcat (DEMO_BASE, paths[i], NULL);
      guint status = 0;

      doc = demo_fetch (paths[i], &status);
      g_assert_true (cg_page_classifier_classify (classifier, doc, url, NULL, NULL, &out, &error));
      g_assert_no_error (error);
      g_test_message ("%s (HTTP %u): %s, nearest schema at %.3f", paths[i], status,
                      out.class_name != NULL ? out.class_name : "unclassified", out.score);
      g_assert_null (out.class_name);
      g_assert_cmpint (out.method, ==, CG_CLASSIFY_NONE);
      g_assert_cmpfloat (out.score, >=, CG_PAGE_CLASSIFIER_DEFAULT_SCHEMA_DISTANCE);
      xmlFreeDoc (doc);
    }

  doc = parse (FORUM_PAGE, DEMO_BASE "/thread/7");
  g_assert_true (cg_page_classifier_classify (classifier, doc, DEMO_BASE "/thread/7", NULL, NULL, &out, &error));
  g_assert_no_error (error);
  g_test_message ("forum thread: %s, nearest schema at %.3f",
                  out.class_name != NULL ? out.class_name : "unclassified", out.score);
  g_assert_null (out.class_name);
  g_assert_cmpint (out.method, ==, CG_CLASSIFY_NONE);
  xmlFreeDoc (doc);
}

/* Every page of the demo site, classified with no class link to tell. */
static void
classify_demo_site (CgPageClassifier *classifier,
                    CgClassifyMethod  expected_method,
                    const char       *setting)
{
  guint n_pages = cg_demo_site_get_n_pages (demo_site);
  guint correct = 0, wrong = 0, unclassified = 0;
  double worst = 0.0;

  for (guint i = 0; i < n_pages; i++)
    {
      JsonObject *page = cg_demo_site_get_page (demo_site, i);
      const char *path = json_object_get_string_member (page, "path");
      const char *truth = json_object_get_string_member (page, "class");
      g_autofree char *url = g_strconcat (DEMO_BASE, path, NULL);
      htmlDocPtr doc = demo_fetch (path, NULL);
      g_autoptr(GError) error = NULL;
      CgClassification out;

      g_assert_true (cg_page_classifier_classify (classifier, doc, url, NULL, NULL, &out, &error));
      g_assert_no_error (error);
      if (out.class_name == NULL)
        {
          unclassified++;
          g_test_message ("%s: %s left unclassified (%.3f)", setting, path, out.score);
        }
      else if (g_str_equal (out.class_name, truth))
        {
          correct++;
          g_assert_cmpint (out.method, ==, expected_method);
          worst = expected_method == CG_CLASSIFY_SCHEMA ? MAX (worst, out.score) : MAX (worst, 1.0 - out.score);
        }
      else
        {
          wrong++;
          g_test_message ("%s: %s (%s) put in %s by %s (%.3f)", setting, path, truth, out.class_name,
                          cg_classify_method_to_string (out.method), out.score);
        }
      xmlFreeDoc (doc);
    }
  g_test_message ("%s: %u pages, %u correct, %u wrong, %u unclassified; worst correct match %s %.3f",
                  setting, n_pages, correct, wrong, unclassified,
                  expected_method == CG_CLASSIFY_SCHEMA ? "schema distance" : "fingerprint similarity",
                  expected_method == CG_CLASSIFY_SCHEMA ? worst : 1.0 - worst);
  /* Never forced: no page of one template in another's class. */
  g_assert_cmpuint (wrong, ==, 0);
  g_assert_cmpuint (correct * 100, >=, n_pages * 98);
}

static void
test_demo_fingerprints (void)
{
  g_autoptr(CgPageClassifier) classifier = demo_classifier (TRUE);

  classify_demo_site (classifier, CG_CLASSIFY_UXCLUST, "fingerprints");
  assert_unrelated_unclassified (classifier);
}

static void
test_demo_schemas (void)
{
  g_autoptr(CgPageClassifier) classifier = demo_classifier (FALSE);

  classify_demo_site (classifier, CG_CLASSIFY_SCHEMA, "schemas");
  assert_unrelated_unclassified (classifier);
}

/* The seed's common-paths measure forgives a poorer page whose paths are
 * nearly all in a richer fingerprint: a search with no result, chrome and
 * a form and a line, is then taken for the author index. */
static void
test_demo_empty_search (void)
{
  g_autoptr(CgPageClassifier) classifier = demo_classifier (TRUE);
  htmlDocPtr doc = demo_fetch ("/search?q=zzzz", NULL);
  g_autoptr(GError) error = NULL;
  CgClassification out;

  g_assert_true (cg_page_classifier_classify (classifier, doc, DEMO_BASE "/search?q=zzzz", NULL, NULL, &out, &error));
  g_assert_no_error (error);
  g_test_message ("empty search, Jaccard: %s (%.3f)", out.class_name != NULL ? out.class_name : "unclassified", out.score);
  g_assert_true (out.class_name == NULL || g_str_equal (out.class_name, CG_DEMO_CLASS_SEARCH));

  cg_page_classifier_set_measure (classifier, CG_UXCLUST_MEASURE_COMMON_PATHS);
  g_assert_true (cg_page_classifier_classify (classifier, doc, DEMO_BASE "/search?q=zzzz", NULL, NULL, &out, &error));
  g_test_message ("empty search, common paths: %s by %s (%.3f)",
                  out.class_name != NULL ? out.class_name : "unclassified",
                  cg_classify_method_to_string (out.method), out.score);
  g_assert_cmpstr (out.class_name, ==, CG_DEMO_CLASS_AUTHOR_INDEX);
  g_assert_cmpint (out.method, ==, CG_CLASSIFY_UXCLUST);
  xmlFreeDoc (doc);
}

/* The class link that discovered a page decides, before any evidence from
 * the page. */
static void
test_link_wins (void)
{
  g_autoptr(CgPageClassifier) classifier = demo_classifier (TRUE);
  const char *path = "/authors/";
  htmlDocPtr doc = demo_fetch (path, NULL);
  g_autoptr(GError) error = NULL;
  CgClassification out;

  g_assert_true (cg_page_classifier_classify (classifier, doc, DEMO_BASE "/authors/", NULL, NULL, &out, &error));
  g_assert_cmpstr (out.class_name, ==, CG_DEMO_CLASS_AUTHOR_INDEX);
  g_assert_true (cg_page_classifier_classify (classifier, doc, DEMO_BASE "/authors/", NULL,
                                              CG_DEMO_CLASS_STATIC, &out, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (out.class_name, ==, CG_DEMO_CLASS_STATIC);
  g_assert_cmpint (out.method, ==, CG_CLASSIFY_LINK);
  g_assert_cmpstr (cg_classify_method_to_string (out.method), ==, "link");
  xmlFreeDoc (doc);
}

/* ---- hand-made classes ------------------------------------------------------------- */

static GStrv
fingerprint_of (const char *html,
                const char *extra_path)
{
  htmlDocPtr doc = parse (html, SITE);
  g_autoptr(GPtrArray) pages = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  GHashTable *leaves = cg_page_collect_leaf_paths (doc, CG_LEAF_PATHS_ALL_LEAVES);

  if (extra_path != NULL)
    g_hash_table_insert (leaves, g_strdup (extra_path), GUINT_TO_POINTER (1));
  g_ptr_array_add (pages, leaves);
  xmlFreeDoc (doc);
  return cg_uxclust_fingerprint (pages, 0.0);
}

/* The inbound-link XPath names the class to try first; its fingerprint
 * must still agree, or the page goes to the most similar class. */
static void
test_inbound_xpath (void)
{
  g_autoptr(CgSiteModel) model = cg_site_model_new ("shop.test");
  g_autoptr(CgPageClassifier) classifier = NULL;
  g_auto(GStrv) exact = fingerprint_of (PRODUCT_PAGE, NULL);
  g_auto(GStrv) near = fingerprint_of (PRODUCT_PAGE, "/html/body/div/span");
  g_auto(GStrv) list = fingerprint_of (LIST_PAGE, NULL);
  const char *xpath_b[] = { "/html[1]/body[1]/ul[1]/li[2]/a[1]", NULL };
  const char *xpath_c[] = { "/html[1]/body[1]/nav[1]/a[1]", NULL };
  htmlDocPtr doc = parse (PRODUCT_PAGE, SITE "p/1");
  g_autoptr(GError) error = NULL;
  CgClassification out;
  guint n = g_strv_length (exact);

  cg_site_model_add_class (model, "a", "A");
  cg_site_model_add_class (model, "b", "B");
  cg_site_model_add_class (model, "c", "C");
  classifier = cg_page_classifier_new (model, &error);
  g_assert_no_error (error);
  g_assert_true (cg_page_classifier_set_fingerprint (classifier, "a", (const char * const *) exact, NULL, &error));
  g_assert_true (cg_page_classifier_set_fingerprint (classifier, "b", (const char * const *) near, xpath_b, &error));
  g_assert_true (cg_page_classifier_set_fingerprint (classifier, "c", (const char * const *) list, xpath_c, &error));
  g_assert_no_error (error);

  /* No inbound XPath: the most similar fingerprint. */
  g_assert_true (cg_page_classifier_classify (classifier, doc, SITE "p/1", NULL, NULL, &out, &error));
  g_assert_cmpstr (out.class_name, ==, "a");
  g_assert_cmpint (out.method, ==, CG_CLASSIFY_UXCLUST);
  g_assert_cmpfloat_with_epsilon (out.score, 1.0, 1e-12);

  /* A link location of b: b, whose fingerprint agrees (n / (n + 1)). */
  g_assert_true (cg_page_classifier_classify (classifier, doc, SITE "p/1", xpath_b[0], NULL, &out, &error));
  g_assert_cmpstr (out.class_name, ==, "b");
  g_assert_cmpfloat_with_epsilon (out.score, (double) n / (n + 1), 1e-12);

  /* A link location of c answered with a product page (seed 003's silent
   * substitution): c's fingerprint disagrees, and the page goes to a. */
  g_assert_true (cg_page_classifier_classify (classifier, doc, SITE "p/1", xpath_c[0], NULL, &out, &error));
  g_assert_cmpstr (out.class_name, ==, "a");

  /* Setting a fingerprint again replaces the class's link locations. */
  g_assert_true (cg_page_classifier_set_fingerprint (classifier, "b", (const char * const *) near, NULL, &error));
  g_assert_true (cg_page_classifier_classify (classifier, doc, SITE "p/1", xpath_b[0], NULL, &out, &error));
  g_assert_cmpstr (out.class_name, ==, "a");

  /* Above the pages' similarity, nothing matches and, without schemas,
   * the page is unclassified. */
  cg_page_classifier_set_thresholds (classifier, 1.0, CG_PAGE_CLASSIFIER_DEFAULT_SCHEMA_DISTANCE);
  g_assert_true (cg_page_classifier_classify (classifier, doc, SITE "p/1", NULL, NULL, &out, &error));
  g_assert_no_error (error);
  g_assert_null (out.class_name);
  xmlFreeDoc (doc);
}

/* Among classes whose schemas are near enough, the one whose URL pattern
 * matches comes first; a URL pattern alone never classifies. */
static void
test_url_pattern (void)
{
  htmlDocPtr doc = parse (PRODUCT_PAGE, SITE "p/1");
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) schema = cg_page_schema_collect (doc, SITE "p/1", &error);
  CgClassification out;

  g_assert_no_error (error);
  {
    g_autoptr(CgSiteModel) model = cg_site_model_new ("shop.test");
    g_autoptr(CgPageClassifier) classifier = NULL;
    CgPageClass *x = cg_site_model_add_class (model, "x", "X");
    CgPageClass *y = cg_site_model_add_class (model, "y", "Y");

    g_strfreev (x->schema);
    x->schema = g_strdupv (schema);
    g_strfreev (y->schema);
    y->schema = g_strdupv (schema);

    /* Equal distances and no URL pattern: the first class. */
    classifier = cg_page_classifier_new (model, &error);
    g_assert_no_error (error);
    g_assert_true (cg_page_classifier_classify (classifier, doc, SITE "p/1", NULL, NULL, &out, &error));
    g_assert_cmpstr (out.class_name, ==, "x");
    g_assert_cmpint (out.method, ==, CG_CLASSIFY_SCHEMA);
    g_assert_cmpfloat (out.score, ==, 0.0);
    g_clear_pointer (&classifier, cg_page_classifier_free);

    x->url_pattern = g_strdup ("^http://shop\\.test/list/.*$");
    y->url_pattern = g_strdup ("^http://shop\\.test/p/\\d+$");
    classifier = cg_page_classifier_new (model, &error);
    g_assert_no_error (error);
    g_assert_true (cg_page_classifier_classify (classifier, doc, SITE "p/1", NULL, NULL, &out, &error));
    g_assert_cmpstr (out.class_name, ==, "y");
  }
  {
    g_autoptr(CgSiteModel) model = cg_site_model_new ("shop.test");
    g_autoptr(CgPageClassifier) classifier = NULL;
    CgPageClass *z = cg_site_model_add_class (model, "z", "Z");
    htmlDocPtr list = parse (LIST_PAGE, SITE "l");
    g_auto(GStrv) list_schema = cg_page_schema_collect (list, SITE "l", &error);

    g_strfreev (z->schema);
    z->schema = g_strdupv (list_schema);
    z->url_pattern = g_strdup ("^http://shop\\.test/p/\\d+$");
    classifier = cg_page_classifier_new (model, &error);
    g_assert_no_error (error);
    g_assert_true (cg_page_classifier_classify (classifier, doc, SITE "p/1", NULL, NULL, &out, &error));
    g_assert_null (out.class_name);
    g_assert_cmpfloat (out.score, >, CG_PAGE_CLASSIFIER_DEFAULT_SCHEMA_DISTANCE);
    xmlFreeDoc (list);
  }
  xmlFreeDoc (doc);
}

/* A class schema that lacks the paths of the page's varying texts (seed
 * 000's MDL class schema keeps a text path only when its text repeats)
 * leaves the page unclassified; the union schema of sample pages, given
 * with cg_page_classifier_set_schema(), classifies it. */
static void
test_set_schema (void)
{
  g_autoptr(CgSiteModel) model = cg_site_model_new ("shop.test");
  g_autoptr(CgPageClassifier) classifier = NULL;
  htmlDocPtr doc = parse (PRODUCT_PAGE, SITE "p/1");
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) schema = cg_page_schema_collect (doc, SITE "p/1", &error);
  CgPageClass *klass = cg_site_model_add_class (model, "product", "Product");
  g_autoptr(GStrvBuilder) links_only = g_strv_builder_new ();
  g_auto(GStrv) mdl_schema = NULL;
  CgClassification out;

  g_assert_no_error (error);
  /* The link paths (and the constant header text): no h1, no prices. */
  for (guint i = 0; schema[i] != NULL; i++)
    if (g_str_has_suffix (schema[i], "/a"))
      g_strv_builder_add (links_only, schema[i]);
  mdl_schema = g_strv_builder_end (links_only);
  g_assert_cmpuint (g_strv_length (mdl_schema), >=, 2);
  g_assert_cmpuint (g_strv_length (mdl_schema), <, g_strv_length (schema));
  g_strfreev (klass->schema);
  klass->schema = g_strdupv (mdl_schema);

  classifier = cg_page_classifier_new (model, &error);
  g_assert_no_error (error);
  g_assert_true (cg_page_classifier_classify (classifier, doc, SITE "p/1", NULL, NULL, &out, &error));
  g_assert_null (out.class_name);
  g_assert_cmpfloat_with_epsilon (out.score, 1.0 - (double) g_strv_length (mdl_schema) / g_strv_length (schema), 1e-12);

  g_assert_true (cg_page_classifier_set_schema (classifier, "product", (const char * const *) schema, &error));
  g_assert_true (cg_page_classifier_classify (classifier, doc, SITE "p/1", NULL, NULL, &out, &error));
  g_assert_cmpstr (out.class_name, ==, "product");
  g_assert_cmpint (out.method, ==, CG_CLASSIFY_SCHEMA);
  g_assert_cmpfloat (out.score, ==, 0.0);

  g_assert_false (cg_page_classifier_set_schema (classifier, "book", (const char * const *) schema, &error));
  g_assert_error (error, CG_PAGE_CLASSIFIER_ERROR, CG_PAGE_CLASSIFIER_ERROR_UNKNOWN_CLASS);
  xmlFreeDoc (doc);
}

/* ---- bad input ----------------------------------------------------------------------- */

static void
test_bad_input (void)
{
  g_autoptr(CgSiteModel) model = cg_site_model_new ("shop.test");
  g_autoptr(CgPageClassifier) classifier = NULL;
  CgPageClass *klass;
  htmlDocPtr doc = parse (PRODUCT_PAGE, SITE);
  const char *fingerprint[] = { "/html/body/p", NULL };
  CgClassification out;
  GError *error = NULL;

  klass = cg_site_model_add_class (model, "book", "Book");
  klass->url_pattern = g_strdup ("^http://shop\\.test/book/(");
  g_assert_null (cg_page_classifier_new (model, &error));
  g_assert_error (error, CG_PAGE_CLASSIFIER_ERROR, CG_PAGE_CLASSIFIER_ERROR_INVALID_MODEL);
  g_assert_nonnull (strstr (error->message, "“book”"));
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  g_clear_pointer (&klass->url_pattern, g_free);
  classifier = cg_page_classifier_new (model, &error);
  g_assert_no_error (error);

  g_assert_false (cg_page_classifier_classify (classifier, doc, SITE, NULL, "author", &out, &error));
  g_assert_error (error, CG_PAGE_CLASSIFIER_ERROR, CG_PAGE_CLASSIFIER_ERROR_UNKNOWN_CLASS);
  g_assert_nonnull (strstr (error->message, "“author”"));
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  g_assert_false (cg_page_classifier_set_fingerprint (classifier, "author", fingerprint, NULL, &error));
  g_assert_error (error, CG_PAGE_CLASSIFIER_ERROR, CG_PAGE_CLASSIFIER_ERROR_UNKNOWN_CLASS);
  g_clear_error (&error);

  g_assert_false (cg_page_classifier_classify (classifier, doc, "file:///tmp/page.html", NULL, NULL, &out, &error));
  g_assert_error (error, CG_LINKS_ERROR, CG_LINKS_ERROR_BAD_BASE);
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  /* A model without schemas or fingerprints classifies nothing. */
  g_assert_true (cg_page_classifier_classify (classifier, doc, SITE, NULL, NULL, &out, &error));
  g_assert_no_error (error);
  g_assert_null (out.class_name);
  g_assert_cmpstr (cg_classify_method_to_string (out.method), ==, "none");
  xmlFreeDoc (doc);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/page-classifier/schema", test_schema);
  g_test_add_func ("/page-classifier/demo-site/fingerprints", test_demo_fingerprints);
  g_test_add_func ("/page-classifier/demo-site/schemas", test_demo_schemas);
  g_test_add_func ("/page-classifier/demo-site/empty-search", test_demo_empty_search);
  g_test_add_func ("/page-classifier/link-wins", test_link_wins);
  g_test_add_func ("/page-classifier/inbound-xpath", test_inbound_xpath);
  g_test_add_func ("/page-classifier/url-pattern", test_url_pattern);
  g_test_add_func ("/page-classifier/set-schema", test_set_schema);
  g_test_add_func ("/page-classifier/bad-input", test_bad_input);

  demo_site = cg_demo_site_new ();
  status = g_test_run ();
  g_clear_object (&demo_site);
  return status;
}
