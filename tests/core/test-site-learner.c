/* test-site-learner.c: seed 000's learning crawl on small sites and on the demo shop.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "cg-demo-site.h"
#include "cg-model-metrics.h"
#include "cg-site-learner.h"

#define DEMO_BASE "http://127.0.0.1:8080"

#define SITE "http://site.test"

/* ---- small sites held in memory ------------------------------------------------------ */

typedef struct {
  guint  status;
  char  *content_type;
  char  *location;   /* a path, for redirects */
  char  *body;
} FakePage;

static void
fake_page_free (FakePage *page)
{
  g_free (page->content_type);
  g_free (page->location);
  g_free (page->body);
  g_free (page);
}

static GHashTable *
fake_site_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) fake_page_free);
}

static void
fake_add (GHashTable *site,
          const char *path,
          const char *body)
{
  FakePage *page = g_new0 (FakePage, 1);

  page->status = 200;
  page->content_type = g_strdup ("text/html; charset=utf-8");
  page->body = g_strdup (body);
  g_hash_table_insert (site, g_strdup (path), page);
}

static void
fake_add_redirect (GHashTable *site,
                   const char *path,
                   const char *location)
{
  FakePage *page = g_new0 (FakePage, 1);

  page->status = 301;
  page->location = g_strdup (location);
  g_hash_table_insert (site, g_strdup (path), page);
}

/* A page of a template: @kind decides its structure, @links are the
 * anchors' HTML. Each kind is built to differ from the others well beyond
 * the merge threshold. */
static char *
fake_html (const char *kind,
           const char *title,
           const char *links)
{
  GString *html = g_string_new ("<!DOCTYPE html><html><head><title>");

  g_string_append_printf (html, "%s</title></head><body class=\"%s\">", title, kind);
  if (g_str_equal (kind, "product"))
    g_string_append_printf (html,
                            "<div class=\"product\"><h1 class=\"name\">%s</h1>"
                            "<span class=\"price\">Price</span><span class=\"stock\">In stock</span>"
                            "<dl class=\"facts\"><dt>Maker</dt><dd>Acme</dd><dt>Weight</dt><dd>1 kg</dd></dl>"
                            "<form class=\"buy\"><button>Buy</button></form></div>",
                            title);
  else if (g_str_equal (kind, "article"))
    g_string_append_printf (html,
                            "<article class=\"text\"><h2 class=\"headline\">%s</h2>"
                            "<p class=\"byline\">By the editors</p><blockquote>Quoted</blockquote>"
                            "<table class=\"data\"><tr><th>Year</th><td>2020</td></tr></table></article>",
                            title);
  else if (g_str_equal (kind, "gallery"))
    g_string_append_printf (html,
                            "<section class=\"photos\"><h3>%s</h3><figure><figcaption>One</figcaption>"
                            "</figure><figure><figcaption>Two</figcaption></figure>"
                            "<nav class=\"thumbs\"><span>Thumbs</span></nav></section>",
                            title);
  else if (g_str_equal (kind, "form"))
    g_string_append_printf (html,
                            "<main class=\"contact\"><h4>%s</h4><label>Name</label><label>Mail</label>"
                            "<select><option>A</option></select><em>Required</em></main>",
                            title);
  g_string_append_printf (html, "<div class=\"links\">%s</div>", links);
  g_string_append (html, "</body></html>");
  return g_string_free (html, FALSE);
}

/* Answers the learner from @site, following redirects; appends each
 * round's requests to @rounds (a GPtrArray of GStrv, may be NULL). */
static void
drive_fake (CgSiteLearner *learner,
            GHashTable    *site,
            GPtrArray     *rounds)
{
  guint n_rounds = 0;

  while (!cg_site_learner_is_done (learner))
    {
      g_autoptr(GPtrArray) urls = cg_site_learner_next_requests (learner);

      g_assert_cmpuint (urls->len, >, 0);
      g_assert_cmpuint (++n_rounds, <, 1000);
      if (rounds != NULL)
        {
          GStrvBuilder *builder = g_strv_builder_new ();

          for (guint i = 0; i < urls->len; i++)
            g_strv_builder_add (builder, urls->pdata[i]);
          g_ptr_array_add (rounds, g_strv_builder_end (builder));
          g_strv_builder_unref (builder);
        }
      for (guint i = 0; i < urls->len; i++)
        {
          const char *url = urls->pdata[i];
          g_autofree char *current = g_strdup (url);
          g_autoptr(GBytes) body = NULL;
          g_autoptr(GError) error = NULL;
          FakePage *page = NULL;

          /* The learner only asks for URLs of the entry's site. */
          g_assert_true (g_str_has_prefix (url, SITE "/"));
          for (guint hops = 0; hops < 5; hops++)
            {
              page = g_hash_table_lookup (site, current + strlen (SITE));
              if (page == NULL || page->location == NULL)
                break;
              g_free (current);
              current = g_strconcat (SITE, page->location, NULL);
            }
          if (page == NULL)
            {
              cg_site_learner_add_page (learner, url, current, 404, "text/html", NULL, &error);
              g_assert_no_error (error);
              continue;
            }
          body = g_bytes_new (page->body, page->body != NULL ? strlen (page->body) : 0);
          g_assert_true (cg_site_learner_add_page (learner, url, current, page->status,
                                                   page->content_type, body, &error));
          g_assert_no_error (error);
        }
    }
  g_assert_cmpuint (cg_site_learner_next_requests (learner)->len, ==, 0);
}

static CgSiteLearner *
learner_for (const char          *entry,
             const CgLearnerParams *params)
{
  g_autoptr(GError) error = NULL;
  CgSiteLearner *learner = cg_site_learner_new (entry, params, &error);

  g_assert_no_error (error);
  g_assert_nonnull (learner);
  return learner;
}

/* The class link from @source to @target whose XPath contains @xpath_part
 * (NULL for any). */
static CgClassLink *
find_link (CgSiteModel *model,
           const char  *source,
           const char  *target,
           const char  *xpath_part)
{
  GPtrArray *links = cg_site_model_get_links (model);

  for (guint i = 0; i < links->len; i++)
    {
      CgClassLink *link = g_ptr_array_index (links, i);

      if (g_strcmp0 (link->source, source) == 0 && g_strcmp0 (link->target, target) == 0 &&
          (xpath_part == NULL || strstr (link->xpath, xpath_part) != NULL))
        return link;
    }
  return NULL;
}

static const char *
class_of (CgSiteLearner *learner,
          const char    *path)
{
  g_autofree char *url = g_strconcat (SITE, path, NULL);

  return cg_site_learner_get_page_class (learner, url);
}

static gboolean
was_requested (GPtrArray  *rounds,
               const char *url)
{
  for (guint r = 0; r < rounds->len; r++)
    if (g_strv_contains (rounds->pdata[r], url))
      return TRUE;
  return FALSE;
}

/* ---- parameters and bad input ------------------------------------------------------------ */

static void
test_bad_input (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgSiteLearner) learner = NULL;
  g_autoptr(GPtrArray) urls = NULL;
  const char *html = "<html><body><a href=\"/x\">x</a></body></html>";
  /* No element at all. */
  const char *comment = "<!-- nothing here -->";
  g_autoptr(GBytes) page = g_bytes_new_static (html, strlen (html));
  g_autoptr(GBytes) broken = g_bytes_new_static (comment, strlen (comment));
  CgLearnerParams params;

  g_assert_null (cg_site_learner_new ("ftp://site.test/", NULL, &error));
  g_assert_error (error, CG_SITE_LEARNER_ERROR, CG_SITE_LEARNER_ERROR_BAD_ENTRY);
  g_assert_nonnull (strstr (error->message, "ftp://site.test/"));
  g_clear_error (&error);
  g_assert_null (cg_site_learner_new ("not a url", NULL, &error));
  g_assert_error (error, CG_SITE_LEARNER_ERROR, CG_SITE_LEARNER_ERROR_BAD_ENTRY);
  g_clear_error (&error);

  cg_learner_params_init (&params);
  params.max_pages = 0;
  g_assert_null (cg_site_learner_new (SITE "/", &params, &error));
  g_assert_error (error, CG_SITE_LEARNER_ERROR, CG_SITE_LEARNER_ERROR_BAD_PARAMETER);
  g_assert_nonnull (strstr (error->message, "max_pages"));
  g_clear_error (&error);
  cg_learner_params_init (&params);
  params.merge_threshold = 1.5;
  g_assert_null (cg_site_learner_new (SITE "/", &params, &error));
  g_assert_error (error, CG_SITE_LEARNER_ERROR, CG_SITE_LEARNER_ERROR_BAD_PARAMETER);
  g_assert_nonnull (strstr (error->message, "merge_threshold"));
  g_clear_error (&error);
  cg_learner_params_init (&params);
  params.max_text_length = 100;
  g_assert_null (cg_site_learner_new (SITE "/", &params, &error));
  g_assert_error (error, CG_SITE_LEARNER_ERROR, CG_SITE_LEARNER_ERROR_BAD_PARAMETER);
  g_clear_error (&error);

  /* The entry URL is normalised and asked for first. */
  learner = learner_for ("HTTP://Site.Test", NULL);
  g_assert_cmpstr (cg_site_learner_get_entry_url (learner), ==, SITE "/");
  urls = cg_site_learner_next_requests (learner);
  g_assert_cmpuint (urls->len, ==, 1);
  g_assert_cmpstr (urls->pdata[0], ==, SITE "/");

  /* An answer for a URL never asked for. */
  g_assert_false (cg_site_learner_add_page (learner, SITE "/other", NULL, 200, "text/html", page, &error));
  g_assert_error (error, CG_SITE_LEARNER_ERROR, CG_SITE_LEARNER_ERROR_NOT_REQUESTED);
  g_assert_nonnull (strstr (error->message, SITE "/other"));
  g_clear_error (&error);
  g_assert_cmpuint (cg_site_learner_get_n_pages (learner), ==, 0);

  g_assert_true (cg_site_learner_add_page (learner, SITE "/", NULL, 200, "text/html", page, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cg_site_learner_get_n_modelled (learner), ==, 1);
  g_assert_nonnull (class_of (learner, "/"));

  /* The same answer twice. */
  g_assert_false (cg_site_learner_add_page (learner, SITE "/", NULL, 200, "text/html", page, &error));
  g_assert_error (error, CG_SITE_LEARNER_ERROR, CG_SITE_LEARNER_ERROR_NOT_REQUESTED);
  g_clear_error (&error);

  /* A page that cannot be analysed still counts as fetched, names itself
   * in the error, and the learning goes on. */
  g_clear_pointer (&urls, g_ptr_array_unref);
  urls = cg_site_learner_next_requests (learner);
  g_assert_cmpuint (urls->len, ==, 1);
  g_assert_cmpstr (urls->pdata[0], ==, SITE "/x");
  g_assert_false (cg_site_learner_add_page (learner, SITE "/x", NULL, 200, "text/html; charset=utf-8",
                                            broken, &error));
  g_assert_error (error, CG_SITE_LEARNER_ERROR, CG_SITE_LEARNER_ERROR_BAD_PAGE);
  g_assert_nonnull (strstr (error->message, SITE "/x"));
  g_clear_error (&error);
  g_assert_cmpuint (cg_site_learner_get_n_pages (learner), ==, 2);
  g_assert_cmpuint (cg_site_learner_get_n_modelled (learner), ==, 1);
  g_assert_null (class_of (learner, "/x"));
  g_assert_true (cg_site_learner_is_done (learner));
}

/* Failures, error pages and other media are fetched pages but not pages
 * of the model. */
static void
test_failures (void)
{
  g_autoptr(CgSiteLearner) learner = learner_for (SITE "/", NULL);
  g_autoptr(GPtrArray) urls = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *home = fake_html ("product", "Home",
                                     "<a href=\"/a\">a</a><a href=\"/b\">b</a><a href=\"/c\">c</a>");
  g_autoptr(GBytes) body = g_bytes_new (home, strlen (home));
  g_autoptr(GBytes) image = g_bytes_new_static ("\x89PNG\r\n", 6);

  g_clear_pointer (&urls, g_ptr_array_unref);
  urls = cg_site_learner_next_requests (learner);
  g_assert_true (cg_site_learner_add_page (learner, SITE "/", NULL, 200, "text/html", body, &error));
  g_clear_pointer (&urls, g_ptr_array_unref);
  urls = cg_site_learner_next_requests (learner);
  g_assert_cmpuint (urls->len, ==, 3);
  g_assert_true (cg_site_learner_add_page (learner, SITE "/a", NULL, 0, NULL, NULL, &error));
  g_assert_true (cg_site_learner_add_page (learner, SITE "/b", NULL, 404, "text/html", body, &error));
  g_assert_true (cg_site_learner_add_page (learner, SITE "/c", NULL, 200, "image/png", image, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cg_site_learner_get_n_pages (learner), ==, 4);
  g_assert_cmpuint (cg_site_learner_get_n_modelled (learner), ==, 1);
  g_assert_null (class_of (learner, "/a"));
  g_assert_null (class_of (learner, "/b"));
  g_assert_null (class_of (learner, "/c"));
  g_assert_true (cg_site_learner_is_done (learner));
}

/* An entry URL that redirects to another origin: the site learned is the
 * one it lands on. */
static void
test_entry_redirect (void)
{
  g_autoptr(CgSiteLearner) learner = learner_for (SITE "/", NULL);
  g_autoptr(GPtrArray) urls = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *home = fake_html ("article", "Home",
                                     "<a href=\"/a\">a</a><a href=\"http://site.test/b\">b</a>");
  g_autoptr(GBytes) body = g_bytes_new (home, strlen (home));

  urls = cg_site_learner_next_requests (learner);
  g_assert_true (cg_site_learner_add_page (learner, SITE "/", "https://site.test/start", 200, "text/html",
                                           body, &error));
  g_assert_no_error (error);
  g_assert_nonnull (cg_site_learner_get_page_class (learner, "https://site.test/start"));
  g_assert_cmpstr (cg_site_learner_get_page_class (learner, SITE "/"), ==,
                   cg_site_learner_get_page_class (learner, "https://site.test/start"));
  g_clear_pointer (&urls, g_ptr_array_unref);
  urls = cg_site_learner_next_requests (learner);
  g_assert_cmpuint (urls->len, ==, 1);
  g_assert_cmpstr (urls->pdata[0], ==, "https://site.test/a");
}

/* ---- sampling and navigation ------------------------------------------------------------ */

/* Three URLs of a collection, evenly spaced: first, middle, last. */
static void
test_sampling (void)
{
  g_autoptr(GHashTable) site = fake_site_new ();
  g_autoptr(GString) links = g_string_new (NULL);
  g_autoptr(GPtrArray) rounds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(CgSiteLearner) learner = learner_for (SITE "/", NULL);
  g_autofree char *home = NULL;
  GStrv second;

  for (guint i = 1; i <= 9; i++)
    {
      g_autofree char *path = g_strdup_printf ("/item/%u", i);
      g_autofree char *title = g_strdup_printf ("Item %u", i);
      g_autofree char *html = fake_html ("product", title, "<a href=\"/\">Home</a>");

      g_string_append_printf (links, "<a href=\"%s\">%s</a>", path, title);
      fake_add (site, path, html);
    }
  /* A link to another site, which is never asked for. */
  g_string_append (links, "<a href=\"http://elsewhere.test/item/1\">Elsewhere</a>");
  home = fake_html ("article", "Home", links->str);
  fake_add (site, "/", home);

  drive_fake (learner, site, rounds);
  g_assert_cmpuint (rounds->len, >=, 2);
  second = rounds->pdata[1];
  g_assert_cmpuint (g_strv_length (second), ==, 3);
  g_assert_cmpstr (second[0], ==, SITE "/item/1");
  g_assert_cmpstr (second[1], ==, SITE "/item/5");
  g_assert_cmpstr (second[2], ==, SITE "/item/9");
  g_assert_false (was_requested (rounds, "http://elsewhere.test/item/1"));
  /* A collection is sampled once; the items' own pages link nowhere new. */
  g_assert_cmpuint (cg_site_learner_get_n_pages (learner), ==, 4);
  g_assert_cmpstr (class_of (learner, "/item/1"), ==, class_of (learner, "/item/9"));
  g_assert_cmpstr (class_of (learner, "/item/1"), ==, "item");
  g_assert_null (class_of (learner, "/item/2"));
}

/* Dense navigation explores the large collection first, sparse the
 * small one; a one-URL collection is widened by one lattice move. */
static void
test_navigation (void)
{
  g_autoptr(GHashTable) site = fake_site_new ();
  g_autofree char *home = NULL;
  g_autofree char *box = NULL;
  g_autoptr(GString) list = g_string_new ("<ul class=\"list\">");
  CgLearnerParams params;

  for (guint i = 1; i <= 6; i++)
    {
      g_autofree char *path = g_strdup_printf ("/list/%u", i);
      g_autofree char *html = fake_html ("article", "List item", "");

      g_string_append_printf (list, "<li><a href=\"%s\">%u</a></li>", path, i);
      fake_add (site, path, html);
    }
  g_string_append (list, "</ul>");
  for (guint i = 1; i <= 3; i++)
    {
      g_autofree char *path = g_strdup_printf ("/box/%u", i);
      g_autofree char *html = fake_html ("gallery", "Box item", "");

      fake_add (site, path, html);
    }
  /* The first box link has a class of its own, so its default path is a
   * collection of one; one move down (dropping the class test) selects
   * the three box links. */
  box = g_strdup ("<p class=\"box\"><a class=\"first\" href=\"/box/1\">1</a>"
                  "<a href=\"/box/2\">2</a><a href=\"/box/3\">3</a></p>");
  {
    g_autofree char *links = g_strconcat (list->str, box, NULL);

    home = fake_html ("product", "Home", links);
  }
  fake_add (site, "/", home);

  {
    g_autoptr(GPtrArray) rounds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
    g_autoptr(CgSiteLearner) learner = learner_for (SITE "/", NULL);
    GStrv second;

    drive_fake (learner, site, rounds);
    second = rounds->pdata[1];
    g_assert_true (g_str_has_prefix (second[0], SITE "/list/"));
  }
  {
    g_autoptr(GPtrArray) rounds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
    g_autoptr(CgSiteLearner) learner = NULL;
    GStrv second;

    cg_learner_params_init (&params);
    params.navigation = CG_LEARNER_NAVIGATION_SPARSE;
    learner = learner_for (SITE "/", &params);
    drive_fake (learner, site, rounds);
    second = rounds->pdata[1];
    /* The collection of one, widened to the three box links. */
    g_assert_cmpuint (g_strv_length (second), ==, 3);
    g_assert_cmpstr (second[0], ==, SITE "/box/1");
    g_assert_cmpstr (second[1], ==, SITE "/box/2");
    g_assert_cmpstr (second[2], ==, SITE "/box/3");
  }
}

/* ---- inspection: refinement and menus ------------------------------------------------------ */

/* One default path holds two lists that lead to two templates; the
 * sample finds both, the collection is split on the lists' class values,
 * and each part becomes a list link. */
static void
test_refine (void)
{
  g_autoptr(GHashTable) site = fake_site_new ();
  g_autoptr(GString) products = g_string_new ("<ul class=\"products\">");
  g_autoptr(GString) articles = g_string_new ("<ul class=\"articles\">");
  g_autoptr(GPtrArray) rounds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(CgSiteLearner) learner = learner_for (SITE "/", NULL);
  g_autoptr(CgSiteModel) model = NULL;
  g_autofree char *links = NULL;
  g_autofree char *home = NULL;
  const char *home_class;
  const char *product_class;
  const char *article_class;
  CgClassLink *link;

  for (guint i = 1; i <= 6; i++)
    {
      g_autofree char *product = g_strdup_printf ("/product/%u", i);
      g_autofree char *article = g_strdup_printf ("/article/%u", i);
      g_autofree char *product_html = fake_html ("product", "A product", "<a href=\"/\">Home</a>");
      g_autofree char *article_html = fake_html ("article", "An article", "<a href=\"/\">Home</a>");

      g_string_append_printf (products, "<li><a href=\"%s\">P%u</a></li>", product, i);
      g_string_append_printf (articles, "<li><a href=\"%s\">A%u</a></li>", article, i);
      fake_add (site, product, product_html);
      fake_add (site, article, article_html);
    }
  g_string_append (products, "</ul>");
  g_string_append (articles, "</ul>");
  links = g_strconcat (products->str, articles->str, NULL);
  home = fake_html ("gallery", "Home", links);
  fake_add (site, "/", home);

  drive_fake (learner, site, rounds);
  model = cg_site_learner_build_model (learner);

  /* The first sample spans both lists: 1st, 7th and 12th of 12 links. */
  g_assert_cmpstr (((GStrv) rounds->pdata[1])[0], ==, SITE "/product/1");
  g_assert_cmpstr (((GStrv) rounds->pdata[1])[1], ==, SITE "/article/1");
  g_assert_cmpstr (((GStrv) rounds->pdata[1])[2], ==, SITE "/article/6");

  home_class = class_of (learner, "/");
  product_class = class_of (learner, "/product/1");
  article_class = class_of (learner, "/article/6");
  g_assert_nonnull (product_class);
  g_assert_nonnull (article_class);
  g_assert_cmpstr (product_class, !=, article_class);
  g_assert_cmpstr (product_class, ==, "product");
  g_assert_cmpstr (article_class, ==, "article");
  for (guint i = 2; i <= 6; i++)
    {
      g_autofree char *product = g_strdup_printf ("/product/%u", i);
      g_autofree char *article = g_strdup_printf ("/article/%u", i);

      if (class_of (learner, product) != NULL)
        g_assert_cmpstr (class_of (learner, product), ==, product_class);
      if (class_of (learner, article) != NULL)
        g_assert_cmpstr (class_of (learner, article), ==, article_class);
    }

  link = find_link (model, home_class, product_class, "ul[@class=\"products\"]");
  g_assert_nonnull (link);
  g_assert_cmpint (link->type, ==, CG_CLASS_LINK_LIST);
  link = find_link (model, home_class, article_class, "ul[@class=\"articles\"]");
  g_assert_nonnull (link);
  g_assert_cmpint (link->type, ==, CG_CLASS_LINK_LIST);
  /* No link says the merged path leads to both. */
  g_assert_null (find_link (model, home_class, product_class, "ul[@class]/"));
  g_assert_null (find_link (model, home_class, article_class, "ul[@class]/"));
  g_assert_cmpint (cg_site_model_get_class (model, home_class)->depth, ==, 0);
  g_assert_cmpint (cg_site_model_get_class (model, product_class)->depth, ==, 1);
}

/* A collection whose sample spans several templates and that no
 * attribute separates is a menu: all its URLs are fetched next, and its
 * links are menu items. The same menu on every page is fixed-anchor. */
static void
test_menu (void)
{
  static const char * const kinds[] = { "product", "article", "gallery", "form", "product" };
  g_autoptr(GHashTable) site = fake_site_new ();
  g_autoptr(GPtrArray) rounds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(CgSiteLearner) learner = learner_for (SITE "/", NULL);
  g_autoptr(CgSiteModel) model = NULL;
  const char *menu = "<ul class=\"menu\"><li><a href=\"/a\">A</a></li><li><a href=\"/b\">B</a></li>"
                     "<li><a href=\"/c\">C</a></li><li><a href=\"/d\">D</a></li>"
                     "<li><a href=\"/e\">E</a></li></ul>";
  g_autofree char *home = fake_html ("article", "Home", menu);
  GStrv second;
  GStrv third;

  fake_add (site, "/", home);
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autofree char *path = g_strdup_printf ("/%c", 'a' + i);
      g_autofree char *html = fake_html (kinds[i], "Page", menu);

      fake_add (site, path, html);
    }

  drive_fake (learner, site, rounds);
  model = cg_site_learner_build_model (learner);

  g_assert_cmpuint (rounds->len, ==, 3);
  second = rounds->pdata[1];
  third = rounds->pdata[2];
  g_assert_cmpuint (g_strv_length (second), ==, 3);
  g_assert_cmpstr (second[0], ==, SITE "/a");
  g_assert_cmpstr (second[1], ==, SITE "/c");
  g_assert_cmpstr (second[2], ==, SITE "/e");
  /* The menu's other URLs, all of them, next. */
  g_assert_cmpuint (g_strv_length (third), ==, 2);
  g_assert_cmpstr (third[0], ==, SITE "/b");
  g_assert_cmpstr (third[1], ==, SITE "/d");

  g_assert_cmpstr (class_of (learner, "/a"), ==, class_of (learner, "/e"));
  g_assert_cmpstr (class_of (learner, "/a"), !=, class_of (learner, "/b"));
  g_assert_cmpstr (class_of (learner, "/b"), !=, class_of (learner, "/c"));
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autofree char *path = g_strdup_printf ("/%c", 'a' + i);
      CgClassLink *link = find_link (model, class_of (learner, "/"), class_of (learner, path),
                                     "ul[@class]/li/a");

      g_assert_nonnull (link);
      g_assert_cmpint (link->type, ==, CG_CLASS_LINK_MENU);
      g_assert_cmpint (link->menu, ==, CG_MENU_FIXED_ANCHOR);
    }
}

/* A list whose pages link to each other is a self-loop; a redirect back
 * to the linking page is no link; a redirect to another page makes the URL
 * a name of that page. */
/* A list of items over @n_pages pages, /list then /list?page=N, four
 * items (/item/K) a page and links to every other page. */
static void
add_item_list (GHashTable *site,
               guint       n_pages)
{
  for (guint page = 1; page <= n_pages; page++)
    {
      g_autoptr(GString) body = g_string_new ("<ul class=\"items\">");
      g_autofree char *path = page == 1 ? g_strdup ("/list") : g_strdup_printf ("/list?page=%u", page);
      g_autofree char *html = NULL;

      for (guint k = 1; k <= 4; k++)
        g_string_append_printf (body, "<li><a href=\"/item/%u\">Item</a></li>", (page - 1) * 4 + k);
      g_string_append (body, "</ul><div class=\"pages\">");
      for (guint other = 1; other <= n_pages; other++)
        if (other != page)
          g_string_append_printf (body, "<a href=\"/list%s%.0u\">%u</a>", other == 1 ? "" : "?page=",
                                  other == 1 ? 0 : other, other);
      g_string_append (body, "</div>");
      html = fake_html ("article", "Items", body->str);
      fake_add (site, path, html);
    }
}

static void
test_pagination_and_redirects (void)
{
  g_autoptr(GHashTable) site = fake_site_new ();
  g_autoptr(GPtrArray) rounds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(CgSiteLearner) learner = learner_for (SITE "/", NULL);
  g_autoptr(CgSiteModel) model = NULL;
  g_autofree char *home = NULL;
  const char *home_class;
  const char *list_class;
  const char *item_class;
  CgClassLink *link;
  GPtrArray *links;

  home = fake_html ("gallery", "Home",
                    "<nav class=\"top\"><a href=\"/list\">All items</a></nav>"
                    "<p class=\"tools\"><a href=\"/valuation\">Free valuation</a></p>");
  fake_add (site, "/", home);
  /* The valuation form is the home page itself. */
  fake_add_redirect (site, "/valuation", "/");
  add_item_list (site, 6);
  for (guint k = 1; k <= 24; k++)
    {
      g_autofree char *path = g_strdup_printf ("/item/%u", k);
      g_autofree char *html = fake_html ("product", "Item",
                                         "<p class=\"back\"><a href=\"/list\">Back</a>"
                                         "<a href=\"/old-item\">Old</a></p>");

      fake_add (site, path, html);
    }
  fake_add_redirect (site, "/old-item", "/item/3");

  drive_fake (learner, site, rounds);
  model = cg_site_learner_build_model (learner);
  home_class = class_of (learner, "/");
  list_class = class_of (learner, "/list");
  item_class = class_of (learner, "/item/1");
  g_assert_cmpstr (home_class, ==, "home");
  g_assert_cmpstr (list_class, ==, "list");
  g_assert_cmpstr (item_class, ==, "item");
  g_assert_cmpstr (class_of (learner, "/list?page=2"), ==, list_class);

  /* Pagination: a list link from the list class to itself. */
  link = find_link (model, list_class, list_class, "div[@class]/a");
  g_assert_nonnull (link);
  g_assert_cmpint (link->type, ==, CG_CLASS_LINK_LIST);
  g_assert_nonnull (find_link (model, list_class, item_class, "ul[@class]/li/a"));

  /* The redirect back home was fetched, named the home page, and is no
   * link. */
  g_assert_true (was_requested (rounds, SITE "/valuation"));
  g_assert_cmpstr (class_of (learner, "/valuation"), ==, home_class);
  links = cg_site_model_get_links (model);
  for (guint i = 0; i < links->len; i++)
    {
      CgClassLink *each = g_ptr_array_index (links, i);

      g_assert_false (g_str_equal (each->source, home_class) && g_str_equal (each->target, home_class));
    }
  /* The redirect to an item is a link to the item class. */
  if (was_requested (rounds, SITE "/old-item"))
    g_assert_cmpstr (class_of (learner, "/old-item"), ==, item_class);
  /* The URL pattern covers both shapes of the list's URLs, and no item. */
  {
    const char *pattern = cg_site_model_get_class (model, list_class)->url_pattern;

    g_assert_true (g_regex_match_simple (pattern, SITE "/list", 0, 0));
    g_assert_true (g_regex_match_simple (pattern, SITE "/list?page=4", 0, 0));
    g_assert_false (g_regex_match_simple (pattern, SITE "/item/4", 0, 0));
    g_assert_false (g_regex_match_simple (pattern, SITE "/list/4", 0, 0));
  }
}

/* ---- the demo shop ------------------------------------------------------------------ */

/* Answers the learner's requests from the demo site's responder, in
 * process, following redirects as a fetcher would. */
/* Answers the learner from the demo @site, each round's requests in
 * their order or, if @reverse, in the opposite one (as a crawler's
 * answers may come). */
static void
drive_demo_ordered (CgSiteLearner *learner,
                    CgDemoSite    *site,
                    gboolean       reverse)
{
  guint rounds = 0;

  while (!cg_site_learner_is_done (learner))
    {
      g_autoptr(GPtrArray) urls = cg_site_learner_next_requests (learner);

      g_assert_cmpuint (urls->len, >, 0);
      g_assert_cmpuint (++rounds, <, 10000);
      for (guint k = 0; k < urls->len; k++)
        {
          const char *url = urls->pdata[reverse ? urls->len - 1 - k : k];
          g_autofree char *current = g_strdup (url);
          g_autoptr(CgDemoResponse) response = NULL;
          g_autoptr(GError) error = NULL;

          g_assert_true (g_str_has_prefix (url, DEMO_BASE "/"));
          for (guint hops = 0; hops < 5; hops++)
            {
              g_auto(GStrv) parts = g_strsplit (current + strlen (DEMO_BASE), "?", 2);

              g_clear_pointer (&response, cg_demo_response_free);
              response = cg_demo_site_respond (site, DEMO_BASE, parts[0], parts[1], NULL, NULL);
              if (response->status < 300 || response->status >= 400 || response->location == NULL)
                break;
              g_free (current);
              current = g_strconcat (DEMO_BASE, response->location, NULL);
            }
          cg_site_learner_add_page (learner, url, current, response->status, response->content_type,
                                    response->body, &error);
          g_assert_no_error (error);
        }
    }
}

static void
drive_demo (CgSiteLearner *learner,
            CgDemoSite    *site)
{
  drive_demo_ordered (learner, site, FALSE);
}

/* The learner stops after max_pages answers. */
static void
test_budget (void)
{
  g_autoptr(CgDemoSite) site = cg_demo_site_new ();
  g_autoptr(CgSiteLearner) learner = NULL;
  g_autoptr(CgSiteModel) model = NULL;
  g_autoptr(GError) error = NULL;
  CgLearnerParams params;

  cg_learner_params_init (&params);
  params.max_pages = 10;
  learner = cg_site_learner_new (DEMO_BASE "/", &params, &error);
  g_assert_no_error (error);
  drive_demo (learner, site);
  g_assert_cmpuint (cg_site_learner_get_n_pages (learner), ==, 10);
  g_assert_true (cg_site_learner_is_done (learner));
  g_assert_cmpuint (cg_site_learner_next_requests (learner)->len, ==, 0);
  model = cg_site_learner_build_model (learner);
  g_assert_true (cg_site_model_validate (model, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (cg_site_model_get_entry_class (model), ==, "home");
}

/* The golden class of a page of the demo site, or NULL for the pages its
 * ground truth leaves out (the basket under /cart/, the empty search form's
 * target /search, error pages). */
static const char *
demo_golden_class (CgDemoSite *site,
                   const char *url)
{
  JsonObject *page;

  if (!g_str_has_prefix (url, DEMO_BASE "/"))
    return NULL;
  page = cg_demo_site_lookup_page (site, url + strlen (DEMO_BASE));
  return page != NULL ? json_object_get_string_member (page, "class") : NULL;
}

/* The class links the demo's templates have, read off its pages: the
 * header, menu and footer on every page, and each template's own. */
static void
add_demo_golden_links (CgModelEvaluation *evaluation)
{
  static const char * const every[] = {
    CG_DEMO_CLASS_HOME, CG_DEMO_CLASS_CATEGORY, CG_DEMO_CLASS_BOOK, CG_DEMO_CLASS_AUTHOR,
    CG_DEMO_CLASS_AUTHOR_INDEX, CG_DEMO_CLASS_SEARCH, CG_DEMO_CLASS_STATIC,
  };
  static const char * const own[][3] = {
    { CG_DEMO_CLASS_HOME, CG_DEMO_CLASS_BOOK, "list" },
    { CG_DEMO_CLASS_HOME, CG_DEMO_CLASS_AUTHOR, "list" },
    { CG_DEMO_CLASS_HOME, CG_DEMO_CLASS_CATEGORY, "list" },
    { CG_DEMO_CLASS_CATEGORY, CG_DEMO_CLASS_BOOK, "list" },
    { CG_DEMO_CLASS_CATEGORY, CG_DEMO_CLASS_AUTHOR, "list" },
    { CG_DEMO_CLASS_CATEGORY, CG_DEMO_CLASS_CATEGORY, "list" },
    { CG_DEMO_CLASS_BOOK, CG_DEMO_CLASS_AUTHOR, "singleton" },
    { CG_DEMO_CLASS_BOOK, CG_DEMO_CLASS_BOOK, "list" },
    { CG_DEMO_CLASS_BOOK, CG_DEMO_CLASS_CATEGORY, "menu" },
    { CG_DEMO_CLASS_AUTHOR, CG_DEMO_CLASS_BOOK, "list" },
    { CG_DEMO_CLASS_AUTHOR, CG_DEMO_CLASS_AUTHOR_INDEX, "menu" },
    { CG_DEMO_CLASS_AUTHOR_INDEX, CG_DEMO_CLASS_AUTHOR, "list" },
    { CG_DEMO_CLASS_SEARCH, CG_DEMO_CLASS_BOOK, "list" },
    { CG_DEMO_CLASS_SEARCH, CG_DEMO_CLASS_AUTHOR, "list" },
    { CG_DEMO_CLASS_SEARCH, CG_DEMO_CLASS_SEARCH, "list" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (every); i++)
    {
      /* The main menu: home, the categories and the author index. */
      cg_model_evaluation_add_golden_link (evaluation, every[i], CG_DEMO_CLASS_CATEGORY, "menu");
      cg_model_evaluation_add_golden_link (evaluation, every[i], CG_DEMO_CLASS_AUTHOR_INDEX, "menu");
      /* The footer: help pages and popular searches. */
      cg_model_evaluation_add_golden_link (evaluation, every[i], CG_DEMO_CLASS_STATIC, "list");
      cg_model_evaluation_add_golden_link (evaluation, every[i], CG_DEMO_CLASS_SEARCH, "list");
    }
  for (guint i = 0; i < G_N_ELEMENTS (own); i++)
    cg_model_evaluation_add_golden_link (evaluation, own[i][0], own[i][1], own[i][2]);
}

/* A page's links to itself under a query that shows the same page (a
 * comment's reply link, which reloads the article with its form moved) are
 * not navigation: the model keeps no class link for them, while
 * pagination by a query, whose pages link to other items, stays a link. */
static void
test_query_variants (void)
{
  g_autoptr(GHashTable) site = fake_site_new ();
  g_autoptr(GPtrArray) rounds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(CgSiteLearner) learner = learner_for (SITE "/", NULL);
  g_autoptr(CgSiteModel) model = NULL;
  g_autofree char *home = NULL;
  const char *list_class;
  const char *item_class;
  guint n_replies_requested = 0;

  home = fake_html ("gallery", "Home", "<nav class=\"top\"><a href=\"/list\">All items</a></nav>");
  fake_add (site, "/", home);
  add_item_list (site, 3);
  for (guint k = 1; k <= 12; k++)
    {
      g_autoptr(GString) links = g_string_new ("<p class=\"back\"><a href=\"/list\">Back</a></p><ol class=\"comments\">");
      g_autofree char *path = g_strdup_printf ("/item/%u", k);
      g_autofree char *html = NULL;

      for (guint c = 1; c <= 3; c++)
        g_string_append_printf (links, "<li><p>Comment</p><a class=\"reply\" href=\"/item/%u?replytocom=%u#respond\">Reply</a></li>",
                                k, 10 * k + c);
      g_string_append (links, "</ol>");
      html = fake_html ("product", "Item", links->str);
      fake_add (site, path, html);
      /* The reply link shows the same item, links and all. */
      for (guint c = 1; c <= 3; c++)
        {
          g_autofree char *reply = g_strdup_printf ("/item/%u?replytocom=%u", k, 10 * k + c);

          fake_add (site, reply, html);
        }
    }

  drive_fake (learner, site, rounds);
  model = cg_site_learner_build_model (learner);
  list_class = class_of (learner, "/list");
  item_class = class_of (learner, "/item/1");
  g_assert_nonnull (list_class);
  g_assert_nonnull (item_class);
  g_assert_cmpstr (list_class, !=, item_class);

  /* The learner did see reply pages, as pages of the item class. */
  for (guint k = 1; k <= 12; k++)
    for (guint c = 1; c <= 3; c++)
      {
        g_autofree char *reply = g_strdup_printf (SITE "/item/%u?replytocom=%u", k, 10 * k + c);

        if (was_requested (rounds, reply))
          {
            n_replies_requested++;
            g_assert_cmpstr (cg_site_learner_get_page_class (learner, reply), ==, item_class);
          }
      }
  g_assert_cmpuint (n_replies_requested, >, 0);

  /* No class link from the items to themselves, by the reply links or any
   * other; pagination and the list's items are still links. */
  g_assert_null (find_link (model, item_class, item_class, NULL));
  g_assert_nonnull (find_link (model, item_class, list_class, "p[@class]/a"));
  g_assert_nonnull (find_link (model, list_class, list_class, "div[@class]/a"));
  g_assert_nonnull (find_link (model, list_class, item_class, "ul[@class]/li/a"));
}

static void
test_demo_site (void)
{
  g_autoptr(CgDemoSite) site = cg_demo_site_new ();
  g_autoptr(CgSiteLearner) learner = NULL;
  g_autoptr(CgSiteModel) model = NULL;
  g_autoptr(CgModelEvaluation) evaluation = cg_model_evaluation_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) golden_sizes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) pairs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) computed_sizes = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto(GStrv) pages = NULL;
  const char * const *classes = cg_demo_site_get_classes ();
  CgModelScores scores;
  guint left_out = 0;

  learner = cg_site_learner_new (DEMO_BASE "/", NULL, &error);
  g_assert_no_error (error);
  drive_demo (learner, site);
  g_assert_cmpuint (cg_site_learner_get_n_pages (learner), <=, CG_LEARNER_DEFAULT_MAX_PAGES);
  model = cg_site_learner_build_model (learner);
  g_assert_true (cg_site_model_validate (model, &error));
  g_assert_no_error (error);

  pages = cg_site_learner_list_pages (learner);
  for (guint i = 0; pages[i] != NULL; i++)
    {
      const char *golden = demo_golden_class (site, pages[i]);
      const char *computed = cg_site_learner_get_page_class (learner, pages[i]);
      g_autofree char *pair = NULL;

      g_assert_nonnull (computed);
      g_assert_nonnull (cg_site_model_get_class (model, computed));
      if (g_getenv ("CG_TEST_VERBOSE") != NULL)
        g_printerr ("%-14s %-14s %s\n", golden != NULL ? golden : "-", computed, pages[i]);
      if (golden == NULL)
        {
          left_out++;
          continue;
        }
      cg_model_evaluation_add_page (evaluation, pages[i], golden, computed);
      g_hash_table_insert (golden_sizes, (gpointer) golden,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (golden_sizes, golden)) + 1));
      g_hash_table_insert (computed_sizes, (gpointer) computed,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (computed_sizes, computed)) + 1));
      pair = g_strdup_printf ("%s\n%s", golden, computed);
      g_hash_table_insert (pairs, g_strdup (pair),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (pairs, pair)) + 1));
    }

  add_demo_golden_links (evaluation);
  for (guint i = 0; i < cg_site_model_get_links (model)->len; i++)
    {
      CgClassLink *link = g_ptr_array_index (cg_site_model_get_links (model), i);

      cg_model_evaluation_add_computed_link (evaluation, link->source, link->target,
                                             cg_class_link_type_to_string (link->type));
      if (g_getenv ("CG_TEST_VERBOSE") != NULL)
        g_printerr ("link %s -> %s %s %s %u %s\n", link->source, link->target,
                    cg_class_link_type_to_string (link->type), cg_menu_kind_to_string (link->menu),
                    link->n_links, link->xpath);
    }
  cg_model_evaluation_compute (evaluation, &scores);

  g_test_message ("demo site: %u requests, %u pages (%u outside the ground truth), %u classes",
                  cg_site_learner_get_n_pages (learner), g_strv_length (pages), left_out,
                  cg_site_model_get_classes (model)->len);
  g_test_message ("demo site: F* %.4f, purity %.4f, entropy %.4f bits, class-link recall %.4f",
                  scores.f_star, scores.purity, scores.entropy, scores.class_link_recall);
  if (g_getenv ("CG_TEST_VERBOSE") != NULL)
    {
      g_autofree char *spec = cg_site_model_to_spec (model);

      g_printerr ("F* %.4f purity %.4f entropy %.4f recall %.4f\n%s\n", scores.f_star, scores.purity,
                  scores.entropy, scores.class_link_recall, spec);
    }

  /* Every template is found: its best class matches it with F ≥ 0.9. */
  for (guint i = 0; classes[i] != NULL; i++)
    {
      const char *match = cg_model_evaluation_get_match (evaluation, classes[i]);
      guint n_golden = GPOINTER_TO_UINT (g_hash_table_lookup (golden_sizes, classes[i]));
      g_autofree char *pair = NULL;
      double precision;
      double recall;
      double f;

      g_assert_cmpuint (n_golden, >, 0);
      g_assert_nonnull (match);
      pair = g_strdup_printf ("%s\n%s", classes[i], match);
      precision = (double) GPOINTER_TO_UINT (g_hash_table_lookup (pairs, pair)) /
                  GPOINTER_TO_UINT (g_hash_table_lookup (computed_sizes, match));
      recall = (double) GPOINTER_TO_UINT (g_hash_table_lookup (pairs, pair)) / n_golden;
      f = 2 * precision * recall / (precision + recall);
      g_test_message ("demo site: %-12s %3u pages -> %-12s F %.3f", classes[i], n_golden, match, f);
      g_assert_cmpfloat (f, >=, 0.9);
    }
  g_assert_cmpfloat (scores.f_star, >=, 0.97);
  g_assert_cmpfloat (scores.purity, >=, 0.97);

  /* Names come from the URLs' constant first segment, "home" for the
   * entry's class; the static pages (/about, /contact…) share neither a
   * segment nor words of their titles and headings, and are named after
   * their template's class attributes ("page-static", "static-page"). */
  g_assert_cmpstr (cg_model_evaluation_get_match (evaluation, CG_DEMO_CLASS_HOME), ==, "home");
  g_assert_cmpstr (cg_model_evaluation_get_match (evaluation, CG_DEMO_CLASS_CATEGORY), ==, "category");
  g_assert_cmpstr (cg_model_evaluation_get_match (evaluation, CG_DEMO_CLASS_BOOK), ==, "book");
  g_assert_cmpstr (cg_model_evaluation_get_match (evaluation, CG_DEMO_CLASS_AUTHOR), ==, "author");
  g_assert_cmpstr (cg_model_evaluation_get_match (evaluation, CG_DEMO_CLASS_AUTHOR_INDEX), ==, "authors");
  g_assert_cmpstr (cg_model_evaluation_get_match (evaluation, CG_DEMO_CLASS_SEARCH), ==, "search");
  g_assert_cmpstr (cg_model_evaluation_get_match (evaluation, CG_DEMO_CLASS_STATIC), ==, "static");
  g_assert_cmpstr (cg_site_model_get_entry_class (model), ==, "home");

  /* Pagination: list self-loops on the category and search classes. */
  {
    CgClassLink *link = find_link (model, "category", "category", "nav[@class]/ol[@class]/li/a");

    g_assert_nonnull (link);
    g_assert_cmpint (link->type, ==, CG_CLASS_LINK_LIST);
    link = find_link (model, "search", "search", "nav[@class]/ol[@class]/li/a");
    g_assert_nonnull (link);
    g_assert_cmpint (link->type, ==, CG_CLASS_LINK_LIST);
  }
  /* Menus: the breadcrumbs of a book name its category (variable
   * anchors), an author's always the author index (fixed anchors); the
   * main menu is the same everywhere. */
  {
    CgClassLink *link = find_link (model, "book", "category", "main[@class]/nav[@class]/ol/li/a");

    g_assert_nonnull (link);
    g_assert_cmpint (link->type, ==, CG_CLASS_LINK_MENU);
    g_assert_cmpint (link->menu, ==, CG_MENU_VARIABLE_ANCHOR);
    link = find_link (model, "author", "authors", "main[@class]/nav[@class]/ol/li/a");
    g_assert_nonnull (link);
    g_assert_cmpint (link->type, ==, CG_CLASS_LINK_MENU);
    g_assert_cmpint (link->menu, ==, CG_MENU_FIXED_ANCHOR);
    link = find_link (model, "book", "category", "header[@class]/nav[@class]/ul/li/a");
    g_assert_nonnull (link);
    g_assert_cmpint (link->type, ==, CG_CLASS_LINK_MENU);
    g_assert_cmpint (link->menu, ==, CG_MENU_FIXED_ANCHOR);
    link = find_link (model, "book", "author", "article[@class]/div[@class]/p[@class]/a");
    g_assert_nonnull (link);
    g_assert_cmpint (link->type, ==, CG_CLASS_LINK_SINGLETON);
    link = find_link (model, "category", "book", "ul[@class]/li[@class]/h3[@class]/a");
    g_assert_nonnull (link);
    g_assert_cmpint (link->type, ==, CG_CLASS_LINK_LIST);
  }
  /* Depths from the entry class, and URL patterns that match the class's
   * pages. */
  g_assert_cmpint (cg_site_model_get_class (model, "home")->depth, ==, 0);
  g_assert_cmpint (cg_site_model_get_class (model, "book")->depth, ==, 1);
  g_assert_cmpint (cg_site_model_get_class (model, "search")->depth, ==, 1);
  for (guint i = 0; pages[i] != NULL; i++)
    {
      CgPageClass *klass = cg_site_model_get_class (model, cg_site_learner_get_page_class (learner, pages[i]));

      g_assert_nonnull (klass->url_pattern);
      g_assert_true (g_regex_match_simple (klass->url_pattern, pages[i], 0, 0));
      g_assert_cmpuint (g_strv_length (klass->samples), >, 0);
      g_assert_cmpuint (g_strv_length (klass->samples), <=, CG_LEARNER_MODEL_SAMPLES);
    }
}

/* The same answers in the same order give the same model. */
static int
compare_strings (const void *a,
                 const void *b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

static void
test_deterministic (void)
{
  g_autoptr(CgDemoSite) site = cg_demo_site_new ();
  g_autofree char *first = NULL;
  g_auto(GStrv) first_pages = NULL;
  CgLearnerParams params;

  cg_learner_params_init (&params);
  params.max_pages = 80;
  /* The third run gets each round's answers in reverse order: the model
   * and the sample are the same, though pages are numbered otherwise. */
  for (guint run = 0; run < 3; run++)
    {
      g_autoptr(CgSiteLearner) learner = learner_for (DEMO_BASE "/", &params);
      g_autoptr(CgSiteModel) model = NULL;
      g_autofree char *spec = NULL;
      g_auto(GStrv) pages = NULL;

      drive_demo_ordered (learner, site, run == 2);
      model = cg_site_learner_build_model (learner);
      spec = cg_site_model_to_spec (model);
      pages = cg_site_learner_list_pages (learner);
      if (run == 2)
        {
          qsort (pages, g_strv_length (pages), sizeof (char *), compare_strings);
          qsort (first_pages, g_strv_length (first_pages), sizeof (char *), compare_strings);
        }
      if (run == 0)
        {
          first = g_steal_pointer (&spec);
          first_pages = g_steal_pointer (&pages);
          continue;
        }
      g_assert_cmpstr (spec, ==, first);
      g_assert_cmpstrv (pages, first_pages);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/site-learner/bad-input", test_bad_input);
  g_test_add_func ("/site-learner/failures", test_failures);
  g_test_add_func ("/site-learner/entry-redirect", test_entry_redirect);
  g_test_add_func ("/site-learner/sampling", test_sampling);
  g_test_add_func ("/site-learner/navigation", test_navigation);
  g_test_add_func ("/site-learner/budget", test_budget);
  g_test_add_func ("/site-learner/refine", test_refine);
  g_test_add_func ("/site-learner/menu", test_menu);
  g_test_add_func ("/site-learner/pagination-and-redirects", test_pagination_and_redirects);
  g_test_add_func ("/site-learner/query-variants", test_query_variants);
  g_test_add_func ("/site-learner/demo-site", test_demo_site);
  g_test_add_func ("/site-learner/deterministic", test_deterministic);

  return g_test_run ();
}
