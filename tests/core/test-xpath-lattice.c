/* test-xpath-lattice.c: seed 000's path lattice and seed 004's link labels.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "cg-dom-path.h"
#include "cg-link-label.h"
#include "cg-links.h"
#include "cg-page-features.h"
#include "cg-xpath-lattice.h"

#define PAGE_URL "http://www.example.org/page.html"
#define U "http://www.example.org/"

static htmlDocPtr
parse (const char *html)
{
  g_autoptr(GError) error = NULL;
  htmlDocPtr doc = cg_page_parse (html, strlen (html), PAGE_URL, "text/html; charset=utf-8", &error);

  g_assert_no_error (error);
  g_assert_nonnull (doc);
  return doc;
}

static htmlDocPtr
parse_fixture (const char *name)
{
  g_autofree char *path = g_build_filename (CG_TEST_DATA_DIR, "lattice", name, NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  gsize length;
  htmlDocPtr doc;

  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  doc = cg_page_parse (contents, length, PAGE_URL, "text/html", &error);
  g_assert_no_error (error);
  return doc;
}

static GPtrArray *
anchors_of (htmlDocPtr doc)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *anchors = cg_page_collect_anchors (doc, PAGE_URL, &error);

  g_assert_no_error (error);
  return anchors;
}

static GPtrArray *
paths_of (GPtrArray *anchors)
{
  GPtrArray *paths = g_ptr_array_new ();

  for (guint i = 0; i < anchors->len; i++)
    g_ptr_array_add (paths, ((CgPageAnchor *) anchors->pdata[i])->path);
  return paths;
}

/* The URLs of the anchors that @lattice matches, space-separated, with
 * the common prefix U left out. */
static char *
matched_urls (const CgLatticePath *lattice,
              GPtrArray           *anchors)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < anchors->len; i++)
    {
      CgPageAnchor *anchor = anchors->pdata[i];

      if (cg_lattice_path_matches (lattice, anchor->path))
        {
          if (out->len > 0)
            g_string_append_c (out, ' ');
          g_string_append (out, anchor->url + strlen (U));
        }
    }
  return g_string_free (out, FALSE);
}

static guint
xpath_count (htmlDocPtr  doc,
             const char *xpath)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) nodes = cg_dom_xpath_eval (doc, NULL, xpath, &error);

  g_assert_no_error (error);
  return nodes->len;
}

/* Seed 000, Fig. 3.12–3.13: the chain of five levels for url1's anchor,
 * each level one attribute more expressive, matching 7, 4, 4, 2 and 2
 * URLs; level 3 is the default path. */
static void
test_fig_3_11 (void)
{
  htmlDocPtr doc = parse_fixture ("fig-3-11.html");
  g_autoptr(GPtrArray) anchors = anchors_of (doc);
  g_autoptr(GPtrArray) paths = paths_of (anchors);
  CgPageAnchor *url1 = anchors->pdata[0];
  g_autoptr(GPtrArray) chain = NULL;
  g_autoptr(CgLatticePath) by_default = NULL;
  g_autofree char *default_xpath = NULL;
  const struct {
    const char *xpath;
    guint       count;
    const char *urls;
  } levels[] = {
    { "/html/body/div/ul/li/a", 7, "url1 url2 url3 url4 url5 url6 url7" },
    { "/html/body/div[@class]/ul/li/a", 4, "url1 url2 url3 url4" },
    { "/html/body/div[@class]/ul[@class]/li/a", 4, "url1 url2 url3 url4" },
    { "/html/body/div[@class=\"List1\"]/ul[@class]/li/a", 2, "url1 url2" },
    { "/html/body/div[@class=\"List1\"]/ul[@class=\"List1\"]/li/a", 2, "url1 url2" },
  };

  g_assert_cmpuint (anchors->len, ==, 7);
  g_assert_cmpstr (url1->url, ==, U "url1");

  chain = cg_lattice_path_chain (url1->path);
  g_assert_cmpuint (chain->len, ==, G_N_ELEMENTS (levels));
  for (guint i = 0; i < chain->len; i++)
    {
      CgLatticePath *level = chain->pdata[i];
      g_autofree char *xpath = cg_lattice_path_to_xpath (level);
      g_autofree char *urls = matched_urls (level, anchors);

      g_test_message ("level %u: %s : {%s}", i + 1, xpath, urls);
      g_assert_cmpstr (xpath, ==, levels[i].xpath);
      g_assert_cmpuint (cg_lattice_path_count_matches (level, paths), ==, levels[i].count);
      g_assert_cmpstr (urls, ==, levels[i].urls);
      /* The XPath, run by libxml2 on the page, selects the same anchors. */
      g_assert_cmpuint (xpath_count (doc, xpath), ==, levels[i].count);
      /* One refinement per level. */
      g_assert_cmpuint (cg_lattice_path_get_rank (level), ==, 6 + i);
    }

  by_default = cg_lattice_path_new_default (url1->path);
  default_xpath = cg_lattice_path_to_xpath (by_default);
  g_assert_cmpstr (default_xpath, ==, levels[2].xpath);

  xmlFreeDoc (doc);
}

/* Link collections are the anchors grouped on their default path. */
static void
test_link_collections (void)
{
  htmlDocPtr doc = parse_fixture ("fig-3-11.html");
  g_autoptr(GPtrArray) anchors = anchors_of (doc);
  g_autoptr(GPtrArray) collections = cg_page_link_collections (anchors);
  CgPageCollection *first;
  CgPageCollection *second;

  g_assert_cmpuint (collections->len, ==, 2);
  first = collections->pdata[0];
  second = collections->pdata[1];
  g_assert_cmpstr (first->xpath, ==, "/html/body/div[@class]/ul[@class]/li/a");
  g_assert_cmpuint (first->items->len, ==, 4);
  g_assert_cmpstr (first->items->pdata[3], ==, U "url4");
  g_assert_cmpstr (second->xpath, ==, "/html/body/div[@id]/ul/li/a");
  g_assert_cmpuint (second->items->len, ==, 3);
  g_assert_cmpstr (second->items->pdata[0], ==, U "url5");
  xmlFreeDoc (doc);
}

static GStrv
xpaths_of (GPtrArray *lattices)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; i < lattices->len; i++)
    {
      g_autofree char *xpath = cg_lattice_path_to_xpath (lattices->pdata[i]);

      g_strv_builder_add (builder, xpath);
    }
  return g_strv_builder_end (builder);
}

static void
assert_strv (GStrv              got,
             const char * const *expected,
             gsize              n_expected)
{
  for (guint i = 0; got[i] != NULL; i++)
    g_test_message ("  %s", got[i]);
  g_assert_cmpuint (g_strv_length (got), ==, n_expected);
  for (gsize i = 0; i < n_expected; i++)
    g_assert_cmpstr (got[i], ==, expected[i]);
}

/* From the default path of url1, one refinement changes exactly one
 * attribute by one level, one generalization lowers one attribute or
 * drops one tag with no tested attribute. */
static void
test_refine_and_generalize (void)
{
  htmlDocPtr doc = parse_fixture ("fig-3-11.html");
  g_autoptr(GPtrArray) anchors = anchors_of (doc);
  g_autoptr(GPtrArray) paths = paths_of (anchors);
  CgPageAnchor *url1 = anchors->pdata[0];
  g_autoptr(CgLatticePath) start = cg_lattice_path_new_default (url1->path);
  g_autoptr(GPtrArray) refinements = cg_lattice_path_refinements (start);
  g_autoptr(GPtrArray) generalizations = cg_lattice_path_generalizations (start);
  g_auto(GStrv) refined = xpaths_of (refinements);
  g_auto(GStrv) generalized = xpaths_of (generalizations);
  g_autofree char *start_xpath = cg_lattice_path_to_xpath (start);
  const char * const expected_refined[] = {
    "/html/body/div[@class=\"List1\"]/ul[@class]/li/a",
    "/html/body/div[@class]/ul[@class=\"List1\"]/li/a",
  };
  const char * const expected_generalized[] = {
    "//body/div[@class]/ul[@class]/li/a",
    "/html//div[@class]/ul[@class]/li/a",
    "/html/body/div/ul[@class]/li/a",
    "/html/body/div[@class]/ul/li/a",
    "/html/body/div[@class]/ul[@class]//a",
  };
  const guint expected_refined_counts[] = { 2, 2 };
  const guint expected_generalized_counts[] = { 4, 4, 4, 4, 4 };

  assert_strv (refined, expected_refined, G_N_ELEMENTS (expected_refined));
  assert_strv (generalized, expected_generalized, G_N_ELEMENTS (expected_generalized));

  for (guint i = 0; i < refinements->len; i++)
    {
      CgLatticePath *up = refinements->pdata[i];
      g_autoptr(GPtrArray) back = cg_lattice_path_generalizations (up);
      g_auto(GStrv) back_xpaths = xpaths_of (back);

      g_assert_cmpuint (cg_lattice_path_get_rank (up), ==, cg_lattice_path_get_rank (start) + 1);
      g_assert_cmpuint (cg_lattice_path_count_matches (up, paths), ==, expected_refined_counts[i]);
      g_assert_true (g_strv_contains ((const char * const *) back_xpaths, start_xpath));
    }
  for (guint i = 0; i < generalizations->len; i++)
    {
      CgLatticePath *down = generalizations->pdata[i];
      g_autoptr(GPtrArray) back = cg_lattice_path_refinements (down);
      g_auto(GStrv) back_xpaths = xpaths_of (back);

      g_assert_cmpuint (cg_lattice_path_get_rank (down), ==, cg_lattice_path_get_rank (start) - 1);
      g_assert_cmpuint (cg_lattice_path_count_matches (down, paths), ==, expected_generalized_counts[i]);
      g_assert_true (g_strv_contains ((const char * const *) back_xpaths, start_xpath));
    }

  /* Points the lattice does not have. */
  g_assert_null (cg_lattice_path_with_dropped (start, 2, TRUE));      /* div[@class] is tested */
  g_assert_null (cg_lattice_path_with_dropped (start, 5, TRUE));      /* the anchor itself */
  g_assert_false (cg_lattice_path_is_tunable (start, 5, 0));          /* its href */
  g_assert_null (cg_lattice_path_with_level (start, 5, 0, CG_XPATH_ATTRIBUTE_NAME));
  xmlFreeDoc (doc);
}

/* Seed 000 §4.2.2.2: //div/ul/li/a generalizes to //ul/li/a, which also
 * matches lists that are not in a div. */
static void
test_drop_tags (void)
{
  htmlDocPtr doc = parse ("<div><ul><li><a href=1>1</a></li></ul></div>"
                          "<section><ul><li><a href=2>2</a></li></ul></section>"
                          "<ul><li><a href=3>3</a></li></ul>"
                          "<div><form><ul><li><a href=4>4</a></li></ul></form></div>"
                          "<div><ol><li><a href=5>5</a></li></ol></div>");
  g_autoptr(GPtrArray) anchors = anchors_of (doc);
  g_autoptr(GPtrArray) paths = paths_of (anchors);
  CgPageAnchor *first = anchors->pdata[0];
  g_autoptr(CgLatticePath) bare = cg_lattice_path_new_bare (first->path);
  g_autoptr(CgLatticePath) no_html = cg_lattice_path_with_dropped (bare, 0, TRUE);
  g_autoptr(CgLatticePath) no_body = cg_lattice_path_with_dropped (no_html, 1, TRUE);
  g_autoptr(CgLatticePath) no_div = cg_lattice_path_with_dropped (no_body, 2, TRUE);
  g_autoptr(CgLatticePath) no_ul = cg_lattice_path_with_dropped (no_div, 3, TRUE);
  g_autoptr(CgLatticePath) middle = cg_lattice_path_with_dropped (bare, 3, TRUE);
  g_autoptr(GPtrArray) back = cg_lattice_path_refinements (no_div);
  g_autofree char *back_xpath = NULL;
  const struct {
    const CgLatticePath *lattice;
    const char          *xpath;
    const char          *urls;
  } expected[] = {
    { bare, "/html/body/div/ul/li/a", "1" },
    { no_body, "//div/ul/li/a", "1" },
    /* The thesis's example. */
    { no_div, "//ul/li/a", "1 2 3 4" },
    { no_ul, "//li/a", "1 2 3 4 5" },
    { middle, "/html/body/div//li/a", "1 4 5" },
  };

  g_assert_cmpuint (anchors->len, ==, 5);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autofree char *xpath = cg_lattice_path_to_xpath (expected[i].lattice);
      g_autofree char *urls = matched_urls (expected[i].lattice, anchors);
      g_auto(GStrv) words = g_strsplit (expected[i].urls, " ", -1);

      g_test_message ("%s : {%s}", xpath, urls);
      g_assert_cmpstr (xpath, ==, expected[i].xpath);
      g_assert_cmpstr (urls, ==, expected[i].urls);
      g_assert_cmpuint (xpath_count (doc, xpath), ==, g_strv_length (words));
    }

  /* Putting a dropped tag back is a refinement. */
  g_assert_cmpuint (back->len, ==, 3);
  back_xpath = cg_lattice_path_to_xpath (back->pdata[2]);
  g_assert_cmpstr (back_xpath, ==, "//div/ul/li/a");
  g_assert_cmpuint (cg_lattice_path_count_matches (no_div, paths), ==, 4);
  xmlFreeDoc (doc);
}

/* On a page with tables, nested lists, several attributes, quotes in
 * values and broken markup, every point near each anchor's default path
 * selects, by cg_lattice_path_matches(), exactly the anchors that
 * libxml2's evaluation of its XPath selects. */
static void
test_matches_agree_with_xpath (void)
{
  htmlDocPtr doc = parse (
    "<div id=main class='col wide'><table class=grid><tr><td class=c><a href=1 class=x>1</a>"
    "<td class=c><a href=2>2</a></tr><tr><td class=d><a class=x href=3>3</a></table>"
    "<ul class=nav><li class=on><a href=4 title='say \"hi\"'>4</a><li><a href=5 title=\"it's\">5</a>"
    "<ul class=nav><li><a href=6>6</a></ul></ul></div>"
    "<div class=col><p><a href=7 rel=next>7</a><b><a href=8>8</a></p></div>"
    "<section id=main><div class='col wide'><a href=9>9</a></div></section>");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) nodes = cg_dom_xpath_eval (doc, NULL, "//a[@href]", &error);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_dom_path_unref);
  guint checked = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (nodes->len, ==, 9);
  for (guint i = 0; i < nodes->len; i++)
    g_ptr_array_add (paths, cg_dom_path_new_for_node (nodes->pdata[i], NULL));

  for (guint i = 0; i < paths->len; i++)
    {
      g_autoptr(GPtrArray) points = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_lattice_path_free);
      g_autoptr(GPtrArray) chain = cg_lattice_path_chain (paths->pdata[i]);
      g_autoptr(CgLatticePath) start = cg_lattice_path_new_default (paths->pdata[i]);
      g_autoptr(GPtrArray) up = cg_lattice_path_refinements (start);
      g_autoptr(GPtrArray) down = cg_lattice_path_generalizations (start);

      g_ptr_array_extend_and_steal (points, g_steal_pointer (&chain));
      g_ptr_array_extend_and_steal (points, g_steal_pointer (&up));
      g_ptr_array_extend_and_steal (points, g_steal_pointer (&down));
      g_ptr_array_add (points, cg_lattice_path_new_exact (paths->pdata[i]));

      for (guint p = 0; p < points->len; p++)
        {
          CgLatticePath *point = points->pdata[p];
          g_autofree char *xpath = cg_lattice_path_to_xpath (point);
          g_autoptr(GPtrArray) selected = cg_dom_xpath_eval (doc, NULL, xpath, &error);

          g_assert_no_error (error);
          /* Every point selects the anchor it was made from. */
          g_assert_true (cg_lattice_path_matches (point, paths->pdata[i]));
          for (guint k = 0; k < nodes->len; k++)
            {
              gboolean by_xpath = g_ptr_array_find (selected, nodes->pdata[k], NULL);

              if (by_xpath != cg_lattice_path_matches (point, paths->pdata[k]))
                g_error ("%s and anchor %u disagree", xpath, k + 1);
              checked++;
            }
        }
    }
  g_test_message ("%u comparisons", checked);
  g_assert_cmpuint (checked, >, 500);
  xmlFreeDoc (doc);
}

/* Values too long to record can only be tested for presence. */
static void
test_long_values (void)
{
  g_autofree char *long_value = g_strnfill (CG_DOM_PATH_MAX_VALUE_LENGTH + 10, 'x');
  g_autofree char *html = g_strdup_printf ("<div data-state='%s' class=a><a href=1>1</a></div>"
                                           "<div data-state=short class=a><a href=2>2</a></div>",
                                           long_value);
  htmlDocPtr doc = parse (html);
  g_autoptr(GPtrArray) anchors = anchors_of (doc);
  g_autoptr(GPtrArray) paths = paths_of (anchors);
  CgPageAnchor *first = anchors->pdata[0];
  CgPageAnchor *second = anchors->pdata[1];
  g_autoptr(CgLatticePath) start = cg_lattice_path_new_default (first->path);
  g_autoptr(CgLatticePath) exact = cg_lattice_path_new_exact (first->path);
  g_autoptr(CgLatticePath) second_exact = cg_lattice_path_new_exact (second->path);
  g_autofree char *exact_xpath = cg_lattice_path_to_xpath (exact);

  g_assert_null (cg_lattice_path_with_level (start, 2, 0, CG_XPATH_ATTRIBUTE_VALUE));
  g_assert_cmpstr (exact_xpath, ==, "/html/body/div[@data-state][@class=\"a\"]/a");
  g_assert_cmpuint (cg_lattice_path_count_matches (exact, paths), ==, 2);
  g_assert_cmpuint (cg_lattice_path_count_matches (second_exact, paths), ==, 1);
  xmlFreeDoc (doc);
}

/* Seed 004's labels, with the thesis's own example. */
static void
test_link_labels (void)
{
  htmlDocPtr doc = parse ("<div id=wrapper class=w>"
                          "<div id=navigation><a href=/page/2>next</a></div>"
                          "<div id=post-123 class=post><a href=/p/123>one</a></div>"
                          "<div id=post-456 class=post><a href=/p/456>two</a></div>"
                          "<div id=2024><a href=/y/2024>year</a></div>"
                          "</div>");
  g_autoptr(GPtrArray) anchors = anchors_of (doc);
  const struct {
    CgLinkLabelAttributes attributes;
    guint                 anchor;
    const char           *label;
    guint                 selects;
  } expected[] = {
    { CG_LINK_LABEL_DEFAULT_ATTRIBUTES, 0,
      "/html/body/div[contains(@id,\"wrapper\")]/div[contains(@id,\"navigation\")]/a", 1 },
    { CG_LINK_LABEL_ID, 1, "/html/body/div[contains(@id,\"wrapper\")]/div[contains(@id,\"post-\")]/a", 2 },
    { CG_LINK_LABEL_ID, 2, "/html/body/div[contains(@id,\"wrapper\")]/div[contains(@id,\"post-\")]/a", 2 },
    { CG_LINK_LABEL_ID, 3, "/html/body/div[contains(@id,\"wrapper\")]/div[@id]/a", 4 },
    { CG_LINK_LABEL_CLASS, 1, "/html/body/div[@class]/div[@class]/a", 2 },
    { CG_LINK_LABEL_CLASS, 0, "/html/body/div[@class]/div/a", 4 },
    { CG_LINK_LABEL_ID | CG_LINK_LABEL_CLASS, 2,
      "/html/body/div[contains(@id,\"wrapper\")][@class]/div[contains(@id,\"post-\")][@class]/a", 2 },
  };
  const struct {
    const char *id;
    const char *stem;
  } stems[] = {
    { "post-123", "post-" }, { "12-comments", "-comments" }, { "item7x", "item" },
    { "wrapper", "wrapper" }, { "2024", NULL }, { "", NULL },
  };

  g_assert_cmpuint (anchors->len, ==, 4);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      CgPageAnchor *anchor = anchors->pdata[expected[i].anchor];
      g_autofree char *label = cg_link_label_for_path (anchor->path, expected[i].attributes);

      g_test_message ("%s", label);
      g_assert_cmpstr (label, ==, expected[i].label);
      /* A label is an XPath that selects its own link and its look-alikes. */
      g_assert_cmpuint (xpath_count (doc, label), ==, expected[i].selects);
    }
  for (guint i = 0; i < G_N_ELEMENTS (stems); i++)
    {
      g_autofree char *stem = cg_link_label_id_stem (stems[i].id);

      g_assert_cmpstr (stem, ==, stems[i].stem);
    }
  xmlFreeDoc (doc);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/xpath-lattice/fig-3-11", test_fig_3_11);
  g_test_add_func ("/xpath-lattice/link-collections", test_link_collections);
  g_test_add_func ("/xpath-lattice/refine-and-generalize", test_refine_and_generalize);
  g_test_add_func ("/xpath-lattice/drop-tags", test_drop_tags);
  g_test_add_func ("/xpath-lattice/matches-agree-with-xpath", test_matches_agree_with_xpath);
  g_test_add_func ("/xpath-lattice/long-values", test_long_values);
  g_test_add_func ("/link-label/labels", test_link_labels);

  return g_test_run ();
}
