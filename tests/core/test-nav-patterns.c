/* test-nav-patterns.c: seed 004's navigation patterns on hand-built graphs and the demo site.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "cg-demo-site.h"
#include "cg-nav-patterns.h"
#include "cg-page-features.h"

#define ROOT "http://site.test/"
#define DEMO_BASE "http://127.0.0.1:8080"

/* Labels as cg_link_label_for_path() writes them. */
#define L_MENU  "/html/body/nav/a"
#define L_NEXT  "/html/body/div[contains(@id,\"paging\")]/a"
#define L_ITEM  "/html/body/div[contains(@id,\"post-\")]/h2/a"

/* ---- helpers ---------------------------------------------------------------- */

/* A set of the 2-grams "w<first> x" … "w<first + n − 1> x". */
static GHashTable *
bigram_range (guint first,
              guint n)
{
  GHashTable *set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = first; i < first + n; i++)
    g_hash_table_add (set, g_strdup_printf ("w%u x", i));
  return set;
}

/* Links given as url, label pairs, ending with NULL. */
static GPtrArray *
links_of (const char *first_url,
          ...)
{
  GPtrArray *links = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_nav_link_free);
  const char *url = first_url;
  va_list args;

  va_start (args, first_url);
  while (url != NULL)
    {
      const char *label = va_arg (args, const char *);

      g_ptr_array_add (links, cg_nav_link_new (url, label));
      url = va_arg (args, const char *);
    }
  va_end (args);
  return links;
}

static void
add (CgNavGraph *graph,
     const char *url,
     GHashTable *bigrams,
     GPtrArray  *links)
{
  g_autoptr(GError) error = NULL;
  gboolean alias = TRUE;

  g_assert_true (cg_nav_graph_add_page (graph, url, bigrams, links, &alias, &error));
  g_assert_no_error (error);
  g_assert_false (alias);
  g_hash_table_unref (bigrams);
  g_ptr_array_unref (links);
}

static char *
choice_text (GPtrArray *choices,
             guint      i)
{
  return cg_nav_expression_to_string (((CgNavChoice *) choices->pdata[i])->expression);
}

/* ---- patterns as text --------------------------------------------------------- */

static void
test_expression_round_trip (void)
{
  const char *texts[] = {
    "L(" L_MENU ")",
    "L(" L_MENU ") L+(" L_NEXT ") L(" L_ITEM ")",
    /* Brackets and parentheses inside quotes are part of the label. */
    "L+(/html/body/div[contains(@id,\"a)b\")]/a) L(/html/body/div[contains(@id,'x]y(')]/a)",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CgNavExpression) expression = cg_nav_expression_new_from_string (texts[i], &error);
      g_autoptr(CgNavExpression) copy = NULL;
      g_autofree char *again = NULL;

      g_assert_no_error (error);
      again = cg_nav_expression_to_string (expression);
      g_assert_cmpstr (again, ==, texts[i]);
      copy = cg_nav_expression_copy (expression);
      g_assert_true (cg_nav_expression_equal (copy, expression));
    }

  {
    g_autoptr(CgNavExpression) expression =
      cg_nav_expression_new_from_string ("L(" L_MENU ") L+(" L_NEXT ") L(" L_ITEM ")", NULL);

    g_assert_cmpuint (cg_nav_expression_get_n_steps (expression), ==, 3);
    g_assert_cmpstr (cg_nav_expression_get_label (expression, 1), ==, L_NEXT);
    g_assert_false (cg_nav_expression_get_repeated (expression, 0));
    g_assert_true (cg_nav_expression_get_repeated (expression, 1));
    g_assert_false (cg_nav_expression_get_repeated (expression, 2));
  }
}

/* Seed 004 §5.2.2 prints its selected pattern for rockamring-blog.de as
 * doc(…)/(…navigation…/a/@href{click/})+/(…post-…/a/@href{click/}); the
 * labels here stop at the a element and the OXPath form adds the action. */
static void
test_expression_oxpath (void)
{
  g_autoptr(CgNavExpression) expression = cg_nav_expression_new_from_string (
      "L+(/html/body/div[contains(@id,\"wrapper\")]/div[contains(@id,\"navigation\")]/a) "
      "L(/html/body/div[contains(@id,\"wrapper\")]/div[contains(@id,\"post-\")]/a)", NULL);
  g_autofree char *oxpath = cg_nav_expression_to_oxpath (expression, "www.rockamring-blog.de/index.html");

  g_assert_cmpstr (oxpath, ==,
                   "doc(\"www.rockamring-blog.de/index.html\")"
                   "/(/html/body/div[contains(@id,\"wrapper\")]/div[contains(@id,\"navigation\")]/a/@href{click/})+"
                   "/(/html/body/div[contains(@id,\"wrapper\")]/div[contains(@id,\"post-\")]/a/@href{click/})");
}

static void
test_expression_bad (void)
{
  const char *bad[] = {
    "",
    "/html/body/a",
    "X(/html/body/a)",
    "L(/html/body/a)L(/html/body/b)",
    "L(/html/body/a)  L(/html/body/b)",
    "L(/html/body/a) ",
    "L(/html/body/a",
    "L()",
    "L(/html/body/div[contains(@id,\"x)]/a)",
    "L(/html/body/div[@id]]/a)",
    "L(/html/body\n/a)",
    "L(/a) L(/b) L(/c) L(/d) L(/e) L(/f) L(/g) L(/h) L(/i)",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CgNavExpression) expression = cg_nav_expression_new_from_string (bad[i], &error);

      g_assert_null (expression);
      g_assert_error (error, CG_NAV_ERROR, CG_NAV_ERROR_PARSE);
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, "offset"));
    }

  /* Eight steps is the bound, and is read. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(CgNavExpression) expression =
      cg_nav_expression_new_from_string ("L(/a) L(/b) L(/c) L(/d) L(/e) L(/f) L(/g) L+(/h)", &error);

    g_assert_no_error (error);
    g_assert_cmpuint (cg_nav_expression_get_n_steps (expression), ==, CG_NAV_MAX_DEPTH);
  }
}

/* ---- following a pattern ------------------------------------------------------ */

static void
test_follow (void)
{
  g_autoptr(CgNavExpression) expression =
    cg_nav_expression_new_from_string ("L(" L_MENU ") L+(" L_NEXT ") L(" L_ITEM ")", NULL);
  g_autoptr(GPtrArray) links = links_of (ROOT "list", L_MENU,
                                         ROOT "page2", L_NEXT,
                                         ROOT "post1", L_ITEM,
                                         ROOT "post2", L_ITEM,
                                         ROOT "post1", L_ITEM,
                                         ROOT "post3", "/html/body/footer/a",
                                         NULL);
  g_autoptr(GPtrArray) from_entry = cg_nav_expression_follow (expression, -1, links);
  g_autoptr(GPtrArray) from_menu = cg_nav_expression_follow (expression, 0, links);
  g_autoptr(GPtrArray) from_paging = cg_nav_expression_follow (expression, 1, links);
  g_autoptr(GPtrArray) from_item = cg_nav_expression_follow (expression, 2, links);
  CgNavFollow *follow;

  /* From the entry page only the first step's links. */
  g_assert_cmpuint (from_entry->len, ==, 1);
  follow = from_entry->pdata[0];
  g_assert_cmpstr (follow->url, ==, ROOT "list");
  g_assert_cmpuint (follow->step, ==, 0);

  /* From a page of step 0 (not repeated), step 1's links. */
  g_assert_cmpuint (from_menu->len, ==, 1);
  follow = from_menu->pdata[0];
  g_assert_cmpstr (follow->url, ==, ROOT "page2");
  g_assert_cmpuint (follow->step, ==, 1);

  /* From a page of the repeated step 1: the next page of the pagination
   * (step 1 again) and the items (step 2), each URL once, in document
   * order. */
  g_assert_cmpuint (from_paging->len, ==, 3);
  follow = from_paging->pdata[0];
  g_assert_cmpstr (follow->url, ==, ROOT "page2");
  g_assert_cmpuint (follow->step, ==, 1);
  follow = from_paging->pdata[1];
  g_assert_cmpstr (follow->url, ==, ROOT "post1");
  g_assert_cmpuint (follow->step, ==, 2);
  follow = from_paging->pdata[2];
  g_assert_cmpstr (follow->url, ==, ROOT "post2");
  g_assert_cmpuint (follow->step, ==, 2);

  /* After the last step, which does not repeat, nothing. */
  g_assert_cmpuint (from_item->len, ==, 0);

  /* A link that the next step and the repeated step both take is followed
   * both ways, next step first. */
  {
    g_autoptr(CgNavExpression) same = cg_nav_expression_new_from_string ("L+(" L_NEXT ") L(" L_NEXT ")", NULL);
    g_autoptr(GPtrArray) both = cg_nav_expression_follow (same, 0, links);

    g_assert_cmpuint (both->len, ==, 2);
    follow = both->pdata[0];
    g_assert_cmpstr (follow->url, ==, ROOT "page2");
    g_assert_cmpuint (follow->step, ==, 1);
    follow = both->pdata[1];
    g_assert_cmpstr (follow->url, ==, ROOT "page2");
    g_assert_cmpuint (follow->step, ==, 0);
  }
}

/* The labels of a real page: ids with digits become contains() stems, so
 * the pattern learned on one page follows the same links on another. */
static void
test_follow_document (void)
{
  const char *html =
    "<html><body>"
    "<div id=\"post-17\"><h2><a href=\"/p/17\">Seventeen</a></h2></div>"
    "<div id=\"post-18\"><h2><a href=\"/p/18\">Eighteen</a></h2></div>"
    "<div id=\"paging\"><a href=\"/page/2\">Older</a></div>"
    "<nav><a href=\"/about\">About</a></nav>"
    "</body></html>";
  g_autoptr(GError) error = NULL;
  htmlDocPtr doc = cg_page_parse (html, strlen (html), ROOT, "text/html; charset=utf-8", &error);
  g_autoptr(GPtrArray) links = NULL;
  g_autoptr(CgNavExpression) expression =
    cg_nav_expression_new_from_string ("L+(" L_NEXT ") L(" L_ITEM ")", NULL);
  g_autoptr(GPtrArray) follows = NULL;

  g_assert_no_error (error);
  links = cg_nav_links_for_document (doc, ROOT, CG_LINK_LABEL_ID, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (links->len, ==, 4);
  g_assert_cmpstr (((CgNavLink *) links->pdata[0])->label, ==, L_ITEM);
  g_assert_cmpstr (((CgNavLink *) links->pdata[1])->label, ==, L_ITEM);
  g_assert_cmpstr (((CgNavLink *) links->pdata[2])->label, ==, L_NEXT);
  g_assert_cmpstr (((CgNavLink *) links->pdata[3])->label, ==, L_MENU);

  follows = cg_nav_expression_follow (expression, 0, links);
  g_assert_cmpuint (follows->len, ==, 3);
  g_assert_cmpstr (((CgNavFollow *) follows->pdata[0])->url, ==, "http://site.test/p/17");
  g_assert_cmpstr (((CgNavFollow *) follows->pdata[2])->url, ==, "http://site.test/page/2");
  g_assert_cmpuint (((CgNavFollow *) follows->pdata[2])->step, ==, 0);

  /* A URL that is not http(s) is refused with the links' error. */
  g_clear_error (&error);
  g_assert_null (cg_nav_links_for_document (doc, "file:///etc/passwd", CG_LINK_LABEL_ID, &error));
  g_assert_nonnull (error);
  xmlFreeDoc (doc);
}

/* ---- selection on hand-built graphs --------------------------------------------- */

/* Seed 004's worked example (§5.2.1, Table 5.1, forums.digitalspy.co.uk):
 * l1 leads from the entry point to p3 (3,227 distinct 2-grams) and p4,
 * which together have 5,266 2-grams, 5,107 distinct; l4 leads from p4 to a
 * page of 2,600 2-grams, and l1 l4 then has 7,214 distinct 2-grams over
 * three pages; l3 and l2 lead to pages of 754 and 239. l4 alone would
 * score 2,600 but does not start at the entry point. Expected: l1 first
 * at 5107 / 2 = 2553.5; then l1 l4 scored on its new page only
 * (7214 − 5107 = 2107); then l3 (754), which reaches 95 %. */
static void
test_table_5_1 (void)
{
  g_autoptr(CgNavGraph) graph = cg_nav_graph_new (ROOT);
  g_autoptr(GPtrArray) choices = NULL;
  g_autoptr(GError) error = NULL;
  CgNavChoice *choice;
  CgNavStats stats;
  guint total;

  /* 2-gram ids: p3 [0, 3227), p4 [3068, 5107): 2039 of its own, 159
   * shared; p5 [4614, 7214): 2600, 493 shared with p3 ∪ p4; p1 754, p2 239;
   * the entry page 100 of its own. */
  add (graph, ROOT, bigram_range (8207, 100),
       links_of (ROOT "p3", "l1", ROOT "p4", "l1", ROOT "p1", "l3", ROOT "p2", "l2", NULL));
  add (graph, ROOT "p3", bigram_range (0, 3227), links_of (ROOT, "home", NULL));
  add (graph, ROOT "p4", bigram_range (3068, 2039), links_of (ROOT "p5", "l4", NULL));
  add (graph, ROOT "p5", bigram_range (4614, 2600), links_of (NULL));
  add (graph, ROOT "p1", bigram_range (7214, 754), links_of (NULL));
  add (graph, ROOT "p2", bigram_range (7968, 239), links_of (NULL));
  total = 8207 + 100;
  g_assert_cmpuint (cg_nav_graph_get_n_bigrams (graph), ==, total);

  choices = cg_nav_graph_select (graph, NULL, &stats, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (choices->len, ==, 3);

  choice = choices->pdata[0];
  {
    g_autofree char *text = choice_text (choices, 0);

    g_assert_cmpstr (text, ==, "L(l1)");
  }
  g_assert_cmpfloat_with_epsilon (choice->score, 2553.5, 1e-9);
  g_assert_cmpuint (choice->pages, ==, 2);
  g_assert_cmpuint (choice->bigrams, ==, 5107);

  choice = choices->pdata[1];
  {
    g_autofree char *text = choice_text (choices, 1);

    g_assert_cmpstr (text, ==, "L(l1) L(l4)");
  }
  g_assert_cmpfloat_with_epsilon (choice->score, 2107.0, 1e-9);
  g_assert_cmpuint (choice->pages, ==, 1);

  choice = choices->pdata[2];
  {
    g_autofree char *text = choice_text (choices, 2);

    g_assert_cmpstr (text, ==, "L(l3)");
  }
  g_assert_cmpfloat_with_epsilon (choice->score, 754.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (choice->coverage, (100.0 + 7214 + 754) / total, 1e-9);

  /* No pattern starts with l4; l2 was not needed for 95 %. */
  for (guint i = 0; i < choices->len; i++)
    {
      g_autofree char *text = choice_text (choices, i);

      g_assert_false (g_str_has_prefix (text, "L(l4)"));
    }
  g_assert_cmpuint (stats.n_pages, ==, 6);
  g_assert_cmpuint (stats.n_reachable, ==, 6);
  g_assert_cmpuint (stats.n_selected_pages, ==, 5);
  g_assert_cmpuint (stats.n_covered, ==, 100 + 7214 + 754);
  g_assert_false (stats.truncated);

  /* With a completion ratio of 1, l2 comes last. */
  {
    CgNavOptions options;
    g_autoptr(GPtrArray) all = NULL;
    g_autofree char *last = NULL;

    cg_nav_options_init (&options);
    options.completion_ratio = 1.0;
    all = cg_nav_graph_select (graph, &options, &stats, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (all->len, ==, 4);
    last = choice_text (all, 3);
    g_assert_cmpstr (last, ==, "L(l2)");
    g_assert_cmpfloat_with_epsilon (stats.coverage, 1.0, 1e-12);
  }
}

/* A list paginated over six pages behind a menu link. The learning
 * follows a repeated step at most max_repeats times: {1,3} by default
 * reaches list pages 2–4, {1,*} all of them, and a bound of 1 makes no
 * repeated step. */
static void
build_paginated (CgNavGraph *graph)
{
  add (graph, ROOT, bigram_range (0, 10), links_of (ROOT "list1", L_MENU, NULL));
  for (guint i = 1; i <= 6; i++)
    {
      g_autofree char *url = g_strdup_printf (ROOT "list%u", i);
      g_autofree char *next = g_strdup_printf (ROOT "list%u", i + 1);

      add (graph, url, bigram_range (i * 100, 50),
           i < 6 ? links_of (next, L_NEXT, ROOT, L_MENU, NULL) : links_of (ROOT, L_MENU, NULL));
    }
}

static void
test_pagination_bound (void)
{
  struct {
    guint       max_repeats;
    const char *second;
    guint       reachable;
  } cases[] = {
    { CG_NAV_DEFAULT_MAX_REPEATS, "L(" L_MENU ") L+(" L_NEXT ")", 1 + 4 },
    { G_MAXUINT, "L(" L_MENU ") L+(" L_NEXT ")", 1 + 6 },
    { 1, "L(" L_MENU ") L(" L_NEXT ")", 1 + 2 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(CgNavGraph) graph = cg_nav_graph_new (ROOT);
      g_autoptr(GPtrArray) choices = NULL;
      g_autoptr(GError) error = NULL;
      CgNavOptions options;
      CgNavStats stats;
      g_autofree char *first = NULL;
      g_autofree char *second = NULL;

      build_paginated (graph);
      cg_nav_options_init (&options);
      options.max_depth = 2;
      options.max_repeats = cases[c].max_repeats;
      options.completion_ratio = 1.0;
      choices = cg_nav_graph_select (graph, &options, &stats, &error);
      g_assert_no_error (error);

      /* Every page has 50 2-grams of its own, so the menu page (one page)
       * and the pagination (50 per page) tie, and the shorter pattern
       * comes first; the pagination pattern then brings the rest it can
       * reach, and the pages beyond the bound stay uncovered. */
      g_assert_cmpuint (choices->len, ==, 2);
      first = choice_text (choices, 0);
      second = choice_text (choices, 1);
      g_assert_cmpstr (first, ==, "L(" L_MENU ")");
      g_assert_cmpstr (second, ==, cases[c].second);
      g_assert_cmpuint (stats.n_reachable, ==, cases[c].reachable);
      g_assert_cmpuint (stats.n_selected_pages, ==, cases[c].reachable);
      g_assert_cmpuint (stats.n_covered, ==, 10 + 50 * (cases[c].reachable - 1));
    }
}

/* Seed 004 §5.2.2: a post reachable by tag and by year gives two patterns
 * over the same pages; once one is selected the other brings nothing and
 * is never selected. */
static void
test_redundant_pattern (void)
{
  g_autoptr(CgNavGraph) graph = cg_nav_graph_new (ROOT);
  g_autoptr(GPtrArray) choices = NULL;
  g_autoptr(GError) error = NULL;
  CgNavOptions options;
  CgNavStats stats;

  add (graph, ROOT, bigram_range (0, 5), links_of (ROOT "tags", "l1", ROOT "years", "l1", NULL));
  add (graph, ROOT "tags", bigram_range (10, 5), links_of (ROOT "post1", "l5", ROOT "post2", "l5", NULL));
  add (graph, ROOT "years", bigram_range (20, 5), links_of (ROOT "post1", "l6", ROOT "post2", "l6", NULL));
  add (graph, ROOT "post1", bigram_range (100, 300), links_of (NULL));
  add (graph, ROOT "post2", bigram_range (400, 300), links_of (NULL));

  cg_nav_options_init (&options);
  options.completion_ratio = 1.0;
  choices = cg_nav_graph_select (graph, &options, &stats, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (stats.coverage, 1.0, 1e-12);
  g_assert_cmpuint (choices->len, ==, 1);
  {
    g_autofree char *text = choice_text (choices, 0);

    /* Both reach all four pages; the one enumerated first is kept as the
     * candidate for that set of pages. */
    g_assert_cmpstr (text, ==, "L(l1) L(l5)");
  }
  g_assert_cmpuint (((CgNavChoice *) choices->pdata[0])->pages, ==, 4);
}

/* A page repeated under several URLs (a login page) is one vertex, and
 * costs a pattern one request. */
static void
test_duplicate_pages (void)
{
  g_autoptr(CgNavGraph) graph = cg_nav_graph_new (ROOT);
  g_autoptr(GPtrArray) choices = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) login = bigram_range (500, 40);
  g_autoptr(GPtrArray) no_links = links_of (NULL);
  gboolean alias = FALSE;
  CgNavOptions options;
  CgNavStats stats;

  add (graph, ROOT, bigram_range (0, 5),
       links_of (ROOT "login?from=a", "/html/body/header/a", ROOT "login?from=b", "/html/body/header/a",
                 ROOT "login?from=c", "/html/body/header/a", ROOT "news", "/html/body/main/a", NULL));
  add (graph, ROOT "news", bigram_range (100, 90), links_of (NULL));
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *url = g_strdup_printf (ROOT "login?from=%c", 'a' + i);

      g_assert_true (cg_nav_graph_add_page (graph, url, login, no_links, &alias, &error));
      g_assert_no_error (error);
      g_assert_true (alias == (i > 0));
    }
  g_assert_cmpuint (cg_nav_graph_get_n_pages (graph), ==, 3);
  g_assert_cmpuint (cg_nav_graph_get_n_urls (graph), ==, 5);

  cg_nav_options_init (&options);
  options.completion_ratio = 1.0;
  choices = cg_nav_graph_select (graph, &options, &stats, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (choices->len, ==, 2);
  {
    g_autofree char *second = choice_text (choices, 1);
    CgNavChoice *choice = choices->pdata[1];

    g_assert_cmpstr (second, ==, "L(/html/body/header/a)");
    g_assert_cmpuint (choice->pages, ==, 1);
    g_assert_cmpfloat_with_epsilon (choice->score, 40.0, 1e-9);
  }
  g_assert_cmpuint (stats.n_selected_pages, ==, 3);
}

/* A sample without any text is covered from the start: nothing to select. */
static void
test_no_text (void)
{
  g_autoptr(CgNavGraph) graph = cg_nav_graph_new (ROOT);
  g_autoptr(GPtrArray) choices = NULL;
  g_autoptr(GError) error = NULL;
  CgNavStats stats;

  add (graph, ROOT, bigram_range (0, 0), links_of (ROOT "a", "/html/body/a", NULL));
  add (graph, ROOT "a", bigram_range (0, 0), links_of (NULL));
  choices = cg_nav_graph_select (graph, NULL, &stats, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (choices->len, ==, 0);
  g_assert_cmpfloat (stats.coverage, ==, 1.0);
  g_assert_cmpuint (stats.n_selected_pages, ==, 1);
  /* Empty 2-gram sets are not duplicates of each other. */
  g_assert_cmpuint (cg_nav_graph_get_n_pages (graph), ==, 2);
}

/* Enumeration is bounded: two pages linked to each other by 250 links of
 * distinct labels each way make 250 patterns of one step and 62,500 of
 * two. The selection still works on those enumerated and says it stopped
 * early. */
static void
test_too_many_patterns (void)
{
  g_autoptr(CgNavGraph) graph = cg_nav_graph_new (ROOT);
  g_autoptr(GPtrArray) to_page = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_nav_link_free);
  g_autoptr(GPtrArray) to_root = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_nav_link_free);
  g_autoptr(GPtrArray) choices = NULL;
  g_autoptr(GError) error = NULL;
  CgNavStats stats;

  for (guint i = 0; i < 250; i++)
    {
      g_autofree char *out = g_strdup_printf ("/html/body/div[contains(@id,\"out%c%c\")]/a", 'a' + i / 26, 'a' + i % 26);
      g_autofree char *back = g_strdup_printf ("/html/body/div[contains(@id,\"back%c%c\")]/a", 'a' + i / 26, 'a' + i % 26);

      g_ptr_array_add (to_page, cg_nav_link_new (ROOT "page", out));
      g_ptr_array_add (to_root, cg_nav_link_new (ROOT, back));
    }
  add (graph, ROOT, bigram_range (0, 10), g_steal_pointer (&to_page));
  add (graph, ROOT "page", bigram_range (10, 10), g_steal_pointer (&to_root));

  choices = cg_nav_graph_select (graph, NULL, &stats, &error);
  g_assert_no_error (error);
  g_assert_true (stats.truncated);
  /* All those patterns reach the same two pages: one candidate. */
  g_assert_cmpuint (stats.n_patterns, ==, 1);
  g_assert_cmpuint (choices->len, ==, 1);
  g_assert_cmpfloat (stats.coverage, ==, 1.0);
}

/* ---- bad input ------------------------------------------------------------------- */

static void
test_bad_pages (void)
{
  g_autoptr(CgNavGraph) graph = cg_nav_graph_new (ROOT);
  g_autoptr(GHashTable) bigrams = bigram_range (0, 3);
  g_autoptr(GPtrArray) none = links_of (NULL);
  const char *bad_labels[] = { "", "/html/body/div[@id", "/html/body/a)", "/html/body\n/a" };
  g_autoptr(GPtrArray) many = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_nav_link_free);
  GError *error = NULL;

  g_assert_false (cg_nav_graph_add_page (graph, "", bigrams, none, NULL, &error));
  g_assert_error (error, CG_NAV_ERROR, CG_NAV_ERROR_INVALID_PAGE);
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  g_assert_true (cg_nav_graph_add_page (graph, ROOT, bigrams, none, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (cg_nav_graph_add_page (graph, ROOT, bigrams, none, NULL, &error));
  g_assert_error (error, CG_NAV_ERROR, CG_NAV_ERROR_INVALID_PAGE);
  g_assert_nonnull (strstr (error->message, ROOT));
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  for (guint i = 0; i < G_N_ELEMENTS (bad_labels); i++)
    {
      g_autoptr(GHashTable) other = bigram_range (100 + i * 10, 3);
      g_autoptr(GPtrArray) links = links_of (ROOT "ok", "/html/body/a", ROOT "x", bad_labels[i], NULL);

      g_assert_false (cg_nav_graph_add_page (graph, ROOT "bad", other, links, NULL, &error));
      g_assert_error (error, CG_NAV_ERROR, CG_NAV_ERROR_INVALID_PAGE);
      g_assert_nonnull (strstr (error->message, "link 2"));
      g_test_message ("%s", error->message);
      g_clear_error (&error);
    }

  {
    g_autoptr(GPtrArray) links = links_of ("", "/html/body/a", NULL);

    g_assert_false (cg_nav_graph_add_page (graph, ROOT "bad", bigrams, links, NULL, &error));
    g_assert_error (error, CG_NAV_ERROR, CG_NAV_ERROR_INVALID_PAGE);
    g_clear_error (&error);
  }

  for (guint i = 0; i <= CG_NAV_MAX_LINKS_PER_PAGE; i++)
    g_ptr_array_add (many, cg_nav_link_new (ROOT "x", "/html/body/a"));
  g_assert_false (cg_nav_graph_add_page (graph, ROOT "many", bigrams, many, NULL, &error));
  g_assert_error (error, CG_NAV_ERROR, CG_NAV_ERROR_TOO_MANY);
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  /* Nothing that failed was added. */
  g_assert_cmpuint (cg_nav_graph_get_n_urls (graph), ==, 1);
}

static void
test_bad_selection (void)
{
  g_autoptr(CgNavGraph) graph = cg_nav_graph_new (ROOT);
  g_autoptr(CgNavGraph) empty = cg_nav_graph_new (ROOT);
  struct {
    guint  depth;
    guint  repeats;
    double ratio;
  } bad[] = {
    { 0, 3, 0.95 },
    { CG_NAV_MAX_DEPTH + 1, 3, 0.95 },
    { 3, 0, 0.95 },
    { 3, 3, 0.0 },
    { 3, 3, 1.5 },
    { 3, 3, NAN },
  };
  GError *error = NULL;

  g_assert_null (cg_nav_graph_select (empty, NULL, NULL, &error));
  g_assert_error (error, CG_NAV_ERROR, CG_NAV_ERROR_NO_ENTRY);
  g_assert_nonnull (strstr (error->message, ROOT));
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  add (graph, ROOT, bigram_range (0, 5), links_of (NULL));
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      CgNavOptions options = { bad[i].depth, bad[i].repeats, bad[i].ratio };

      g_assert_null (cg_nav_graph_select (graph, &options, NULL, &error));
      g_assert_error (error, CG_NAV_ERROR, CG_NAV_ERROR_INVALID_OPTIONS);
      g_test_message ("%s", error->message);
      g_clear_error (&error);
    }
}

/* ---- the demo site ------------------------------------------------------------------ */

/* One site for the tests that read it: generating it is the slow part. */
static CgDemoSite *demo_site;

/* Parses the demo site's page at @url, or returns NULL for anything that is
 * not an HTML page answered with 200. */
static htmlDocPtr
demo_fetch (const char *url)
{
  g_auto(GStrv) parts = g_strsplit (url + strlen (DEMO_BASE), "?", 2);
  g_autoptr(CgDemoResponse) response = cg_demo_site_respond (demo_site, DEMO_BASE, parts[0], parts[1], NULL, NULL);
  g_autoptr(GError) error = NULL;
  gsize length = 0;
  const char *data;
  htmlDocPtr doc;

  if (response->status != 200 || response->content_type == NULL ||
      !g_str_has_prefix (response->content_type, "text/html"))
    return NULL;
  data = g_bytes_get_data (response->body, &length);
  doc = cg_page_parse (data, length, url, response->content_type, &error);
  g_assert_no_error (error);
  return doc;
}

/* Links the crawler would follow: the demo site's own pages, outside the
 * basket that its robots.txt disallows. */
static gboolean
demo_follows (const char *url)
{
  return g_str_has_prefix (url, DEMO_BASE "/") && !g_str_has_prefix (url, DEMO_BASE "/cart/");
}

/* A breadth-first sample of @limit pages from the entry point, as the
 * exploration crawl takes it. */
static CgNavGraph *
demo_sample (guint                  limit,
             CgLinkLabelAttributes  attributes,
             GHashTable           **out_bigrams)
{
  CgNavGraph *graph = cg_nav_graph_new (DEMO_BASE "/");
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTable *bigrams = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GQueue queue = G_QUEUE_INIT;
  guint n = 0;

  g_queue_push_tail (&queue, g_strdup (DEMO_BASE "/"));
  g_hash_table_add (seen, g_strdup (DEMO_BASE "/"));
  while (!g_queue_is_empty (&queue) && n < limit)
    {
      g_autofree char *url = g_queue_pop_head (&queue);
      htmlDocPtr doc = demo_fetch (url);
      g_autoptr(GPtrArray) links = NULL;
      g_autoptr(GHashTable) page_bigrams = NULL;
      g_autoptr(GError) error = NULL;
      GHashTableIter iter;
      gpointer key;

      if (doc == NULL)
        continue;
      links = cg_nav_links_for_document (doc, url, attributes, &error);
      g_assert_no_error (error);
      page_bigrams = cg_page_collect_bigrams (doc, NULL);
      g_assert_true (cg_nav_graph_add_page (graph, url, page_bigrams, links, NULL, &error));
      g_assert_no_error (error);
      g_hash_table_iter_init (&iter, page_bigrams);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        g_hash_table_add (bigrams, g_strdup (key));
      n++;
      for (guint i = 0; i < links->len; i++)
        {
          CgNavLink *link = links->pdata[i];

          if (demo_follows (link->url) && g_hash_table_add (seen, g_strdup (link->url)))
            g_queue_push_tail (&queue, g_strdup (link->url));
        }
      xmlFreeDoc (doc);
    }
  g_queue_clear_full (&queue, g_free);
  g_assert_cmpuint (n, ==, limit);
  *out_bigrams = bigrams;
  return graph;
}

/* The online phase: every stored pattern run from the entry point. A URL
 * is fetched once however many patterns and steps reach it, and every
 * (pattern, step) that reaches it is followed on. Returns the number of
 * pages fetched and adds their 2-grams to @bigrams. */
static guint
demo_harvest (GPtrArray             *expressions,
              CgLinkLabelAttributes  attributes,
              GHashTable            *bigrams)
{
  /* URL → its labelled links, or NULL for what is not an HTML page. */
  g_autoptr(GHashTable) fetched = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                         (GDestroyNotify) g_ptr_array_unref);
  g_autoptr(GHashTable) queued = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GQueue queue = G_QUEUE_INIT;
  guint n_pages = 0;

  for (guint p = 0; p < expressions->len; p++)
    {
      g_queue_push_tail (&queue, GUINT_TO_POINTER (p));
      g_queue_push_tail (&queue, GINT_TO_POINTER (-1));
      g_queue_push_tail (&queue, g_strdup (DEMO_BASE "/"));
    }
  while (!g_queue_is_empty (&queue))
    {
      guint p = GPOINTER_TO_UINT (g_queue_pop_head (&queue));
      int step = GPOINTER_TO_INT (g_queue_pop_head (&queue));
      g_autofree char *url = g_queue_pop_head (&queue);
      g_autoptr(GPtrArray) follows = NULL;
      GPtrArray *links;

      if (!g_hash_table_lookup_extended (fetched, url, NULL, (gpointer *) &links))
        {
          htmlDocPtr doc = demo_fetch (url);
          g_autoptr(GError) error = NULL;

          links = NULL;
          if (doc != NULL)
            {
              g_autoptr(GHashTable) page_bigrams = cg_page_collect_bigrams (doc, NULL);
              GHashTableIter iter;
              gpointer key;

              g_hash_table_iter_init (&iter, page_bigrams);
              while (g_hash_table_iter_next (&iter, &key, NULL))
                g_hash_table_add (bigrams, g_strdup (key));
              links = cg_nav_links_for_document (doc, url, attributes, &error);
              g_assert_no_error (error);
              n_pages++;
              xmlFreeDoc (doc);
            }
          g_hash_table_insert (fetched, g_strdup (url), links);
        }
      if (links == NULL)
        continue;
      follows = cg_nav_expression_follow (expressions->pdata[p], step, links);
      for (guint i = 0; i < follows->len; i++)
        {
          CgNavFollow *follow = follows->pdata[i];
          g_autofree char *key = g_strdup_printf ("%u %u %s", p, follow->step, follow->url);

          if (!demo_follows (follow->url) || !g_hash_table_add (queued, g_steal_pointer (&key)))
            continue;
          g_queue_push_tail (&queue, GUINT_TO_POINTER (p));
          g_queue_push_tail (&queue, GINT_TO_POINTER ((int) follow->step));
          g_queue_push_tail (&queue, g_strdup (follow->url));
        }
    }
  return n_pages;
}

static guint
count_common (GHashTable *a,
              GHashTable *b)
{
  GHashTableIter iter;
  gpointer key;
  guint n = 0;

  g_hash_table_iter_init (&iter, a);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    n += g_hash_table_contains (b, key);
  return n;
}

static void
run_demo (CgLinkLabelAttributes  attributes,
          const char            *setting)
{
  const guint sample_size = 200;
  g_autoptr(GHashTable) sample_bigrams = NULL;
  g_autoptr(CgNavGraph) graph = demo_sample (sample_size, attributes, &sample_bigrams);
  g_autoptr(GPtrArray) choices = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CgSiteModel) model = cg_site_model_new ("127.0.0.1:8080");
  g_autoptr(GPtrArray) expressions = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_nav_expression_free);
  g_autoptr(GHashTable) harvest_bigrams = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *stored;
  CgNavStats stats;
  double previous = 0.0;
  guint harvested;
  guint common;

  g_assert_cmpuint (cg_nav_graph_get_n_bigrams (graph), ==, g_hash_table_size (sample_bigrams));
  choices = cg_nav_graph_select (graph, NULL, &stats, &error);
  g_assert_no_error (error);
  g_assert_false (stats.truncated);
  g_assert_cmpuint (stats.n_pages, ==, sample_size);
  g_assert_cmpfloat (stats.coverage, >=, CG_NAV_DEFAULT_COMPLETION_RATIO);
  g_assert_cmpuint (choices->len, >, 0);
  g_assert_cmpuint (stats.n_selected_pages, <=, stats.n_pages);

  for (guint i = 0; i < choices->len; i++)
    {
      CgNavChoice *choice = choices->pdata[i];
      g_autofree char *text = choice_text (choices, i);

      g_test_message ("%s: %.1f 2-grams/page, %u pages, %.3f covered: %s",
                      setting, choice->score, choice->pages, choice->coverage, text);
      g_assert_cmpuint (cg_nav_expression_get_n_steps (choice->expression), <=, CG_NAV_DEFAULT_DEPTH);
      g_assert_cmpfloat (choice->coverage, >, previous);
      g_assert_cmpfloat_with_epsilon (choice->score, (double) choice->bigrams / choice->pages, 1e-9);
      previous = choice->coverage;
      /* Coverage is reached at the last choice, not before. */
      if (i + 1 < choices->len)
        g_assert_cmpfloat (choice->coverage, <, CG_NAV_DEFAULT_COMPLETION_RATIO);
    }
  g_assert_cmpfloat_with_epsilon (previous, stats.coverage, 1e-12);

  /* Stored with the model, read back to the same patterns. */
  cg_nav_choices_add_to_model (choices, model);
  stored = cg_site_model_get_patterns (model);
  g_assert_cmpuint (stored->len, ==, choices->len);
  for (guint i = 0; i < stored->len; i++)
    {
      CgNavPattern *pattern = stored->pdata[i];
      CgNavExpression *expression = cg_nav_expression_new_from_string (pattern->pattern, &error);

      g_assert_no_error (error);
      g_assert_true (cg_nav_expression_equal (expression, ((CgNavChoice *) choices->pdata[i])->expression));
      g_ptr_array_add (expressions, expression);
    }

  /* Run from the stored text, the patterns fetch at least the sampled pages
   * they were chosen for, so they cover the sample as the selection said. */
  harvested = demo_harvest (expressions, attributes, harvest_bigrams);
  common = count_common (sample_bigrams, harvest_bigrams);
  g_assert_cmpfloat ((double) common / g_hash_table_size (sample_bigrams), >=, stats.coverage - 1e-12);

  g_test_message ("%s: %u patterns from %u enumerated; the sample's %u pages have %u distinct 2-grams; "
                  "the patterns need %u of them (entry page included) for %.1f %%",
                  setting, choices->len, stats.n_patterns, stats.n_pages, stats.n_bigrams,
                  stats.n_selected_pages, 100.0 * stats.coverage);
  g_test_message ("%s: run on the whole site the patterns fetch %u of its %u pages and cover %.1f %% of "
                  "the sample's 2-grams",
                  setting, harvested, cg_demo_site_get_n_pages (demo_site),
                  100.0 * common / g_hash_table_size (sample_bigrams));
  /* Against the whole site, as seed 004 measures against a full mirror. */
  {
    g_autoptr(GHashTable) site_bigrams = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    guint n_site = cg_demo_site_get_n_pages (demo_site);

    for (guint i = 0; i < n_site; i++)
      {
        JsonObject *page = cg_demo_site_get_page (demo_site, i);
        g_autofree char *url = g_strconcat (DEMO_BASE, json_object_get_string_member (page, "path"), NULL);
        htmlDocPtr doc = demo_fetch (url);
        g_autoptr(GHashTable) page_bigrams = NULL;
        GHashTableIter iter;
        gpointer key;

        g_assert_nonnull (doc);
        page_bigrams = cg_page_collect_bigrams (doc, NULL);
        g_hash_table_iter_init (&iter, page_bigrams);
        while (g_hash_table_iter_next (&iter, &key, NULL))
          g_hash_table_add (site_bigrams, g_strdup (key));
        xmlFreeDoc (doc);
      }
    g_test_message ("%s: the harvest's %u requests cover %.1f %% of the whole site's %u distinct 2-grams "
                    "(a full crawl needs %u)",
                    setting, harvested,
                    100.0 * count_common (site_bigrams, harvest_bigrams) / g_hash_table_size (site_bigrams),
                    g_hash_table_size (site_bigrams), n_site);
  }
  if (g_test_verbose ())
    g_printerr ("nav patterns (%s): %u of %u sampled pages needed, %.1f %% of 2-grams; "
                "harvest %u pages\n", setting, stats.n_selected_pages, stats.n_pages,
                100.0 * stats.coverage, harvested);
}

static void
test_demo_site_id (void)
{
  run_demo (CG_LINK_LABEL_ID, "id");
}

static void
test_demo_site_id_class (void)
{
  run_demo (CG_LINK_LABEL_ID | CG_LINK_LABEL_CLASS, "id+class");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/nav-patterns/expression/round-trip", test_expression_round_trip);
  g_test_add_func ("/nav-patterns/expression/oxpath", test_expression_oxpath);
  g_test_add_func ("/nav-patterns/expression/bad", test_expression_bad);
  g_test_add_func ("/nav-patterns/follow", test_follow);
  g_test_add_func ("/nav-patterns/follow-document", test_follow_document);
  g_test_add_func ("/nav-patterns/select/table-5-1", test_table_5_1);
  g_test_add_func ("/nav-patterns/select/pagination-bound", test_pagination_bound);
  g_test_add_func ("/nav-patterns/select/redundant", test_redundant_pattern);
  g_test_add_func ("/nav-patterns/select/duplicate-pages", test_duplicate_pages);
  g_test_add_func ("/nav-patterns/select/no-text", test_no_text);
  g_test_add_func ("/nav-patterns/select/too-many-patterns", test_too_many_patterns);
  g_test_add_func ("/nav-patterns/bad/pages", test_bad_pages);
  g_test_add_func ("/nav-patterns/bad/selection", test_bad_selection);
  g_test_add_func ("/nav-patterns/demo-site/id", test_demo_site_id);
  g_test_add_func ("/nav-patterns/demo-site/id-class", test_demo_site_id_class);

  demo_site = cg_demo_site_new ();
  status = g_test_run ();
  g_clear_object (&demo_site);
  return status;
}
