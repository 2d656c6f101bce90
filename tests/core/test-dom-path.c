/* test-dom-path.c: indexed, tag and canonical paths, JSON, XPath evaluation.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <libxml/tree.h>

#include "cg-dom-path.h"
#include "cg-links.h"

#define PAGE_URL "http://www.example.org/page.html"

static htmlDocPtr
parse (const char *html)
{
  g_autoptr(GError) error = NULL;
  htmlDocPtr doc = cg_html_parse (html, strlen (html), PAGE_URL, "text/html; charset=utf-8", &error);

  g_assert_no_error (error);
  g_assert_nonnull (doc);
  return doc;
}

/* The one element that @xpath selects. */
static xmlNodePtr
find (htmlDocPtr  doc,
      const char *xpath)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) nodes = cg_dom_xpath_eval (doc, NULL, xpath, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (nodes->len, ==, 1);
  return nodes->pdata[0];
}

typedef struct {
  const char *id;
  const char *xpath;
  const char *tag_path;
  const char *canonical;
} Expected;

static void
check_paths (const char     *html,
             const Expected *expected,
             gsize           n_expected)
{
  htmlDocPtr doc = parse (html);

  for (gsize i = 0; i < n_expected; i++)
    {
      g_autofree char *query = g_strdup_printf ("//*[@id='%s']", expected[i].id);
      xmlNodePtr node = find (doc, query);
      g_autofree char *xpath = cg_dom_node_xpath (node);
      g_autofree char *tag_path = cg_dom_node_tag_path (node);
      g_autofree char *canonical = cg_dom_node_canonical_xpath (node);

      g_test_message ("%s: %s | %s | %s", expected[i].id, xpath, tag_path, canonical);
      g_assert_cmpstr (xpath, ==, expected[i].xpath);
      g_assert_cmpstr (tag_path, ==, expected[i].tag_path);
      g_assert_cmpstr (canonical, ==, expected[i].canonical);
    }
  xmlFreeDoc (doc);
}

static void
test_lists_and_positions (void)
{
  const char *html =
    "<!DOCTYPE html><html><head><title>t</title></head><body>"
    "<div id=d1><p>x</p></div>"
    "<div id=d2><ul><li><a id=a1 href=1>1</a></li><li><a id=a2 href=2>2</a>"
    "<a id=a3 href=3>3</a></li></ul></div>"
    "<ol><li>skip<li><span></span><a id=a4 href=4>4</a></ol>"
    "</body></html>";
  const Expected expected[] = {
    { "d2", "/html[1]/body[1]/div[2]", "/html/body/div", "/html[1]/body[1]/div[2]" },
    { "a1", "/html[1]/body[1]/div[2]/ul[1]/li[1]/a[1]", "/html/body/div/ul/li/a",
      "/html[1]/body[1]/div[2]/ul[1]/li[1]/a[1]" },
    { "a3", "/html[1]/body[1]/div[2]/ul[1]/li[2]/a[2]", "/html/body/div/ul/li/a",
      "/html[1]/body[1]/div[2]/ul[1]/li[2]/a[2]" },
    /* The unclosed li is closed by the next one, as in browsers. */
    { "a4", "/html[1]/body[1]/ol[1]/li[2]/a[1]", "/html/body/ol/li/a",
      "/html[1]/body[1]/ol[1]/li[2]/a[1]" },
  };

  check_paths (html, expected, G_N_ELEMENTS (expected));
}

/* Browsers put rows that the markup places directly in a table into an
 * inserted tbody, and libxml2 does not; the canonical form dissolves tbody
 * in both, so the two trees give the same canonical paths. */
static void
test_tables_and_tbody (void)
{
  /* As written: rows directly in tables, the inner table in a cell. */
  const char *as_written =
    "<table id=t><tr><td>h</td></tr>"
    "<tr id=r2><td><a id=a1 href=1>1</a>"
    "<table><tr><td>x</td></tr><tr><td><a id=a2 href=2>2</a></td></tr></table>"
    "</td></tr></table>";
  const Expected written[] = {
    { "r2", "/html[1]/body[1]/table[1]/tr[2]", "/html/body/table/tr",
      "/html[1]/body[1]/table[1]/tr[2]" },
    { "a1", "/html[1]/body[1]/table[1]/tr[2]/td[1]/a[1]", "/html/body/table/tr/td/a",
      "/html[1]/body[1]/table[1]/tr[2]/td[1]/a[1]" },
    { "a2", "/html[1]/body[1]/table[1]/tr[2]/td[1]/table[1]/tr[2]/td[1]/a[1]",
      "/html/body/table/tr/td/table/tr/td/a",
      "/html[1]/body[1]/table[1]/tr[2]/td[1]/table[1]/tr[2]/td[1]/a[1]" },
  };
  /* The same page as a browser's DOM serialises it, tbody inserted. */
  const char *as_browser_builds_it =
    "<table id=t><tbody><tr><td>h</td></tr>"
    "<tr id=r2><td><a id=a1 href=1>1</a>"
    "<table><tbody><tr><td>x</td></tr><tr><td><a id=a2 href=2>2</a></td></tr></tbody></table>"
    "</td></tr></tbody></table>";
  const Expected browser[] = {
    { "r2", "/html[1]/body[1]/table[1]/tbody[1]/tr[2]", "/html/body/table/tbody/tr",
      "/html[1]/body[1]/table[1]/tr[2]" },
    { "a1", "/html[1]/body[1]/table[1]/tbody[1]/tr[2]/td[1]/a[1]",
      "/html/body/table/tbody/tr/td/a",
      "/html[1]/body[1]/table[1]/tr[2]/td[1]/a[1]" },
    { "a2", "/html[1]/body[1]/table[1]/tbody[1]/tr[2]/td[1]/table[1]/tbody[1]/tr[2]/td[1]/a[1]",
      "/html/body/table/tbody/tr/td/table/tbody/tr/td/a",
      "/html[1]/body[1]/table[1]/tr[2]/td[1]/table[1]/tr[2]/td[1]/a[1]" },
  };
  /* Row groups: thead stays a step; rows of several tbody elements and
   * rows outside them are numbered together in document order. */
  const char *groups =
    "<table><thead><tr id=h1><th>h</th></tr></thead>"
    "<tr id=r1><td>1</td></tr>"
    "<tbody><tr id=r2><td>2</td></tr><tr id=r3><td>3</td></tr></tbody>"
    "<tbody id=b2><tr id=r4><td>4</td></tr></tbody></table>";
  const Expected grouped[] = {
    { "h1", "/html[1]/body[1]/table[1]/thead[1]/tr[1]", "/html/body/table/thead/tr",
      "/html[1]/body[1]/table[1]/thead[1]/tr[1]" },
    { "r1", "/html[1]/body[1]/table[1]/tr[1]", "/html/body/table/tr",
      "/html[1]/body[1]/table[1]/tr[1]" },
    { "r2", "/html[1]/body[1]/table[1]/tbody[1]/tr[1]", "/html/body/table/tbody/tr",
      "/html[1]/body[1]/table[1]/tr[2]" },
    { "r3", "/html[1]/body[1]/table[1]/tbody[1]/tr[2]", "/html/body/table/tbody/tr",
      "/html[1]/body[1]/table[1]/tr[3]" },
    { "r4", "/html[1]/body[1]/table[1]/tbody[2]/tr[1]", "/html/body/table/tbody/tr",
      "/html[1]/body[1]/table[1]/tr[4]" },
    /* A dissolved tbody has no canonical step of its own. */
    { "b2", "/html[1]/body[1]/table[1]/tbody[2]", "/html/body/table/tbody",
      "/html[1]/body[1]/table[1]" },
  };
  /* The browser form of the same: the lone row gets its own tbody. */
  const char *groups_browser =
    "<table><thead><tr id=h1><th>h</th></tr></thead>"
    "<tbody><tr id=r1><td>1</td></tr></tbody>"
    "<tbody><tr id=r2><td>2</td></tr><tr id=r3><td>3</td></tr></tbody>"
    "<tbody><tr id=r4><td>4</td></tr></tbody></table>";
  htmlDocPtr doc;

  check_paths (as_written, written, G_N_ELEMENTS (written));
  check_paths (as_browser_builds_it, browser, G_N_ELEMENTS (browser));
  check_paths (groups, grouped, G_N_ELEMENTS (grouped) - 1);
  check_paths (groups, grouped + G_N_ELEMENTS (grouped) - 1, 1);

  doc = parse (groups_browser);
  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *query = g_strdup_printf ("//*[@id='%s']", grouped[i].id);
      g_autofree char *canonical = cg_dom_node_canonical_xpath (find (doc, query));

      g_assert_cmpstr (canonical, ==, grouped[i].canonical);
    }
  xmlFreeDoc (doc);
}

/* html and body are implied by both parsers; a head, present or not,
 * does not move body; names are lowercase. */
static void
test_implied_and_case (void)
{
  const Expected bare[] = {
    { "a", "/html[1]/body[1]/a[1]", "/html/body/a", "/html[1]/body[1]/a[1]" },
  };
  const Expected with_head[] = {
    { "a", "/html[1]/body[1]/p[1]/a[1]", "/html/body/p/a", "/html[1]/body[1]/p[1]/a[1]" },
  };
  const Expected svg[] = {
    { "f", "/html[1]/body[1]/svg[1]/foreignobject[1]", "/html/body/svg/foreignobject",
      "/html[1]/body[1]/svg[1]/foreignobject[1]" },
  };

  check_paths ("<A ID=a HREF=x>x</A>", bare, G_N_ELEMENTS (bare));
  check_paths ("<TITLE>t</TITLE><META charset=utf-8><P><A id=a href=x>x</A>",
               with_head, G_N_ELEMENTS (with_head));
  check_paths ("<svg><foreignObject id=f><p>x</p></foreignObject></svg>", svg, G_N_ELEMENTS (svg));
}

/* Misnested markup that libxml2 and browsers repair the same way, and the
 * documented cases where they differ (the paths here are libxml2's; the
 * comments give the browser's). */
static void
test_broken_markup (void)
{
  const Expected same[] = {
    /* <p> is closed by <div> in both (standards mode). */
    { "a", "/html[1]/body[1]/div[1]/a[1]", "/html/body/div/a", "/html[1]/body[1]/div[1]/a[1]" },
    /* A nested <a> closes the open one in both. */
    { "b", "/html[1]/body[1]/a[2]", "/html/body/a", "/html[1]/body[1]/a[2]" },
    /* Unclosed elements end at the end of the document. */
    { "c", "/html[1]/body[1]/ul[1]/li[2]/a[1]", "/html/body/ul/li/a",
      "/html[1]/body[1]/ul[1]/li[2]/a[1]" },
  };
  const Expected different[] = {
    /* A browser reopens the b inside the p: /html[1]/body[1]/p[1]/b[1]/a[1]. */
    { "m", "/html[1]/body[1]/p[1]/a[1]", "/html/body/p/a", "/html[1]/body[1]/p[1]/a[1]" },
    /* A browser moves the a out of the table: /html[1]/body[1]/a[1]. */
    { "f", "/html[1]/body[1]/table[1]/a[1]", "/html/body/table/a", "/html[1]/body[1]/table[1]/a[1]" },
  };
  htmlDocPtr doc;

  check_paths ("<!DOCTYPE html><p>one<div><a id=a href=1>1</a></div></p>"
               "<a href=2>x<a id=b href=3>y</a>"
               "<ul><li>1<li><a id=c href=4>4", same, G_N_ELEMENTS (same));
  check_paths ("<b>1<p>2</b><a id=m href=1>3</a></p>"
               "<table><a id=f href=2>stray</a><tr><td>x</td></tr></table>",
               different, G_N_ELEMENTS (different));

  /* No browser path exists inside noscript and template. */
  doc = parse ("<noscript><a id=n href=1>n</a></noscript><template><a id=t href=2>t</a></template>"
               "<p><a id=p href=3>p</a>");
  g_assert_false (cg_dom_node_has_browser_counterpart (find (doc, "//*[@id='n']")));
  g_assert_false (cg_dom_node_has_browser_counterpart (find (doc, "//*[@id='t']")));
  g_assert_true (cg_dom_node_has_browser_counterpart (find (doc, "//*[@id='p']")));
  xmlFreeDoc (doc);
}

/* Every element's indexed XPath selects exactly that element again, and
 * a path cache gives the same paths as counting siblings. */
static void
test_xpath_round_trip (void)
{
  const char *pages[] = {
    "<!DOCTYPE html><html><head><title>t</title><link rel=stylesheet href=s.css></head><body>"
    "<div><div><p>a<p>b<br><img src=i.png></div><span>x</span><div><ul><li>1<li>2<li>3</ul>"
    "<table><tr><td>1<td>2<tr><td>3</table></div></div></body></html>",
    "<p><b>1<i>2</b>3</i><p><table><tbody><tr><td>x</tbody><tbody><tr><td>y</table>"
    "<dl><dt>a<dd>b<dt>c<dd>d</dl><form><select><option>1<option>2</select></form>",
    "<table><caption>c</caption><thead><tr><th>h</thead><tr><td>1</td></tr>"
    "<tbody><tr><td>2<tr><td>3<table><tr><td>i</td></tr><tbody><tr><td>j</tbody></table></tbody>"
    "<tr><td>4</td></tr><tbody><tr><td>5</tbody><tfoot><tr><td>f</tfoot></table>",
  };

  for (guint p = 0; p < G_N_ELEMENTS (pages); p++)
    {
      htmlDocPtr doc = parse (pages[p]);
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) all = cg_dom_xpath_eval (doc, NULL, "//*", &error);
      g_autoptr(CgDomPathCache) cache = cg_dom_path_cache_new ();
      g_autoptr(GHashTable) canonical = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

      g_assert_no_error (error);
      g_assert_cmpuint (all->len, >, 10);
      /* Backwards, so that the cache fills in another order than the
       * document's. */
      for (guint i = all->len; i-- > 0;)
        {
          g_autofree char *xpath = cg_dom_node_xpath (all->pdata[i]);
          g_autoptr(CgDomPath) counted = cg_dom_path_new_for_node (all->pdata[i], NULL);
          g_autoptr(CgDomPath) cached = cg_dom_path_new_for_node_cached (all->pdata[i], cache, NULL);
          g_autofree char *canonical_xpath = cg_dom_path_to_canonical_xpath (cached);

          g_assert_true (find (doc, xpath) == all->pdata[i]);
          g_assert_true (cg_dom_path_equal (counted, cached));
          /* Canonical paths are unique too, except that a dissolved tbody
           * shares its table's. */
          if (!g_str_equal (cg_dom_path_get_tag (cached, cg_dom_path_get_length (cached) - 1), "tbody"))
            g_assert_true (g_hash_table_add (canonical, g_steal_pointer (&canonical_xpath)));
        }
      xmlFreeDoc (doc);
    }
}

static void
test_attributes (void)
{
  g_autofree char *long_value = g_strnfill (CG_DOM_PATH_MAX_VALUE_LENGTH + 1, 'v');
  g_autofree char *html = g_strdup_printf (
    "<div id=x CLASS='a b' data-cg-xpath='/html[1]' :href=bound xml:lang=en title='%s' data-k=''>"
    "<a href=u>u</a></div>", long_value);
  htmlDocPtr doc = parse (html);
  g_autoptr(CgDomPath) path = cg_dom_path_new_for_node (find (doc, "//a"), NULL);

  g_assert_nonnull (path);
  g_assert_cmpuint (cg_dom_path_get_length (path), ==, 4);
  g_assert_cmpstr (cg_dom_path_get_tag (path, 2), ==, "div");
  g_assert_cmpuint (cg_dom_path_get_position (path, 2), ==, 1);
  /* In document order; data-cg-*, the colon names and nothing else left out. */
  g_assert_cmpuint (cg_dom_path_get_n_attributes (path, 2), ==, 4);
  g_assert_cmpstr (cg_dom_path_get_attribute_name (path, 2, 0), ==, "id");
  g_assert_cmpstr (cg_dom_path_get_attribute_value (path, 2, 0), ==, "x");
  g_assert_cmpstr (cg_dom_path_get_attribute_name (path, 2, 1), ==, "class");
  g_assert_cmpstr (cg_dom_path_get_attribute_value (path, 2, 1), ==, "a b");
  g_assert_cmpstr (cg_dom_path_get_attribute_name (path, 2, 2), ==, "title");
  g_assert_null (cg_dom_path_get_attribute_value (path, 2, 2));
  g_assert_cmpstr (cg_dom_path_get_attribute_name (path, 2, 3), ==, "data-k");
  g_assert_cmpstr (cg_dom_path_get_attribute_value (path, 2, 3), ==, "");
  g_assert_cmpint (cg_dom_path_find_attribute (path, 2, "class"), ==, 1);
  g_assert_cmpint (cg_dom_path_find_attribute (path, 2, "data-cg-xpath"), ==, -1);
  g_assert_cmpint (cg_dom_path_find_attribute (path, 3, "href"), ==, 0);
  xmlFreeDoc (doc);
}

static void
test_json (void)
{
  htmlDocPtr doc = parse ("<table><tbody><tr><td class='say \"hi\"' id=c><a href=u title=\xc3\xa9>u</a>"
                          "</td></tr></tbody></table>");
  g_autoptr(CgDomPath) path = cg_dom_path_new_for_node (find (doc, "//a"), NULL);
  g_autofree char *json = cg_dom_path_to_json (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(CgDomPath) back = cg_dom_path_new_from_json (json, &error);
  g_autofree char *canonical = NULL;
  const struct {
    const char *json;
    const char *message;
  } bad[] = {
    { "not json", "Invalid DOM path" },
    { "{}", "not a list of steps" },
    { "[]", "0 steps" },
    { "[1]", "step 1: not an object" },
    { "[{\"tag\":\"a b\",\"position\":1,\"canonical\":1,\"attributes\":[]}]", "step 1: “tag”" },
    { "[{\"tag\":\"a\",\"position\":0,\"canonical\":1,\"attributes\":[]}]", "step 1: “position”" },
    { "[{\"tag\":\"a\",\"position\":1,\"canonical\":-1,\"attributes\":[]}]", "step 1: “canonical”" },
    { "[{\"tag\":\"a\",\"position\":1,\"canonical\":1,\"attributes\":[]},"
      "{\"tag\":\"b\",\"position\":1,\"canonical\":1,\"attributes\":[[\"x\"]]}]", "step 2: an attribute" },
    { "[{\"tag\":\"a\",\"position\":1,\"canonical\":1,\"attributes\":[[\"x\",5]]}]", "step 1: an attribute value" },
    { "[{\"tag\":\"a\",\"position\":1,\"canonical\":1,\"attributes\":[[\"1x\",\"v\"]]}]", "step 1: an attribute name" },
  };

  g_assert_no_error (error);
  g_assert_nonnull (back);
  g_assert_true (cg_dom_path_equal (path, back));
  canonical = cg_dom_path_to_canonical_xpath (back);
  g_assert_cmpstr (canonical, ==, "/html[1]/body[1]/table[1]/tr[1]/td[1]/a[1]");
  g_assert_cmpstr (cg_dom_path_get_attribute_value (back, 5, 0), ==, "say \"hi\"");

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) bad_error = NULL;
      g_autoptr(CgDomPath) none = cg_dom_path_new_from_json (bad[i].json, &bad_error);

      g_assert_null (none);
      g_assert_error (bad_error, CG_DOM_PATH_ERROR, CG_DOM_PATH_ERROR_INVALID_JSON);
      g_test_message ("%s → %s", bad[i].json, bad_error->message);
      g_assert_nonnull (strstr (bad_error->message, bad[i].message));
    }

  /* Too many steps. */
  {
    GString *deep = g_string_new ("[");
    g_autoptr(GError) deep_error = NULL;
    g_autoptr(CgDomPath) none = NULL;

    for (guint i = 0; i <= CG_DOM_PATH_MAX_DEPTH; i++)
      g_string_append_printf (deep, "%s{\"tag\":\"div\",\"position\":1,\"canonical\":1,\"attributes\":[]}",
                              i > 0 ? "," : "");
    g_string_append_c (deep, ']');
    none = cg_dom_path_new_from_json (deep->str, &deep_error);
    g_assert_null (none);
    g_assert_error (deep_error, CG_DOM_PATH_ERROR, CG_DOM_PATH_ERROR_INVALID_JSON);
    g_string_free (deep, TRUE);
  }
  xmlFreeDoc (doc);
}

/* Each literal, used in a predicate, selects the element whose title is
 * exactly the value. */
static void
test_literals (void)
{
  const char *values[] = { "plain", "it's", "say \"hi\"", "both ' and \"", "\"'\"", "'\"", "" };
  GString *html = g_string_new (NULL);
  htmlDocPtr doc;

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *escaped = g_markup_escape_text (values[i], -1);

      g_string_append_printf (html, "<p id=p%u title=\"%s\">x</p>", i, escaped);
    }
  doc = parse (html->str);
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *literal = cg_dom_xpath_literal (values[i]);
      g_autofree char *query = g_strdup_printf ("//p[@title=%s]", literal);
      g_autofree char *id = NULL;
      xmlNodePtr node;

      g_test_message ("%s", query);
      node = find (doc, query);
      id = (char *) xmlGetProp (node, (const xmlChar *) "id");
      g_assert_cmpuint (atoi (id + 1), ==, i);
      xmlFree (g_steal_pointer (&id));
    }
  {
    g_autofree char *literal = cg_dom_xpath_literal ("a\"b'c");

    g_assert_cmpstr (literal, ==, "concat(\"a\",'\"',\"b'c\")");
  }
  xmlFreeDoc (doc);
  g_string_free (html, TRUE);
}

static void
test_xpath_eval (void)
{
  htmlDocPtr doc = parse ("<div id=d><a href=1>1</a><p><a href=2>2</a></p></div><a href=3>3</a>");
  const struct {
    const char *expression;
    int         code;
  } bad[] = {
    { "//a[", CG_DOM_PATH_ERROR_INVALID_XPATH },
    { "//a[@href=]", CG_DOM_PATH_ERROR_INVALID_XPATH },
    { "count(//a)", CG_DOM_PATH_ERROR_NOT_NODES },
    { "string(//a)", CG_DOM_PATH_ERROR_NOT_NODES },
    { "//a[unknown-function()]", CG_DOM_PATH_ERROR_INVALID_XPATH },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) all = cg_dom_xpath_eval (doc, NULL, "//a", &error);
  g_autoptr(GPtrArray) relative = NULL;
  g_autoptr(GPtrArray) none = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (all->len, ==, 3);
  /* Document order. */
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *href = (char *) xmlGetProp (all->pdata[i], (const xmlChar *) "href");
      char expected[2] = { (char) ('1' + i), 0 };

      g_assert_cmpstr (href, ==, expected);
      xmlFree (g_steal_pointer (&href));
    }
  relative = cg_dom_xpath_eval (doc, find (doc, "//div"), ".//a", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (relative->len, ==, 2);
  none = cg_dom_xpath_eval (doc, NULL, "//table", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (none->len, ==, 0);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) bad_error = NULL;
      g_autoptr(GPtrArray) nodes = cg_dom_xpath_eval (doc, NULL, bad[i].expression, &bad_error);

      g_assert_null (nodes);
      g_assert_error (bad_error, CG_DOM_PATH_ERROR, bad[i].code);
      g_test_message ("%s → %s", bad[i].expression, bad_error->message);
      g_assert_nonnull (strstr (bad_error->message, bad[i].expression));
    }
  xmlFreeDoc (doc);
}

static void
test_xpath_bounds (void)
{
  GString *html = g_string_new ("<body>");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) nodes = NULL;
  htmlDocPtr doc;

  for (guint i = 0; i <= CG_DOM_XPATH_MAX_RESULTS; i++)
    g_string_append (html, "<i></i>");
  doc = parse (html->str);

  nodes = cg_dom_xpath_eval (doc, NULL, "//i", &error);
  g_assert_null (nodes);
  g_assert_error (error, CG_DOM_PATH_ERROR, CG_DOM_PATH_ERROR_TOO_MANY_NODES);
  g_clear_error (&error);

  /* Quadratic work stops at the operation limit instead of running on. */
  nodes = cg_dom_xpath_eval (doc, NULL, "//i[count(//i) > count(//b)]", &error);
  g_assert_null (nodes);
  g_assert_error (error, CG_DOM_PATH_ERROR, CG_DOM_PATH_ERROR_INVALID_XPATH);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "operation limit"));
  g_clear_error (&error);

  xmlFreeDoc (doc);
  g_string_free (html, TRUE);
}

/* A tree deeper than any libxml2 parses, built by hand. */
static void
test_too_deep (void)
{
  xmlDocPtr doc = xmlNewDoc ((const xmlChar *) "1.0");
  xmlNodePtr node = xmlNewNode (NULL, (const xmlChar *) "html");
  g_autoptr(GError) error = NULL;
  g_autoptr(CgDomPath) path = NULL;

  xmlDocSetRootElement (doc, node);
  for (guint i = 0; i < CG_DOM_PATH_MAX_DEPTH; i++)
    node = xmlNewChild (node, NULL, (const xmlChar *) "div", NULL);
  path = cg_dom_path_new_for_node (node, &error);
  g_assert_null (path);
  g_assert_error (error, CG_DOM_PATH_ERROR, CG_DOM_PATH_ERROR_TOO_DEEP);
  g_clear_error (&error);

  path = cg_dom_path_new_for_node (node->parent, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cg_dom_path_get_length (path), ==, CG_DOM_PATH_MAX_DEPTH);
  xmlFreeDoc (doc);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dom-path/lists-and-positions", test_lists_and_positions);
  g_test_add_func ("/dom-path/tables-and-tbody", test_tables_and_tbody);
  g_test_add_func ("/dom-path/implied-and-case", test_implied_and_case);
  g_test_add_func ("/dom-path/broken-markup", test_broken_markup);
  g_test_add_func ("/dom-path/xpath-round-trip", test_xpath_round_trip);
  g_test_add_func ("/dom-path/attributes", test_attributes);
  g_test_add_func ("/dom-path/json", test_json);
  g_test_add_func ("/dom-path/literals", test_literals);
  g_test_add_func ("/dom-path/xpath-eval", test_xpath_eval);
  g_test_add_func ("/dom-path/xpath-bounds", test_xpath_bounds);
  g_test_add_func ("/dom-path/too-deep", test_too_deep);

  return g_test_run ();
}
