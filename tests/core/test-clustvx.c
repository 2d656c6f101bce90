/* test-clustvx.c: seed 003's ClustVX on hand-written pages and on the demo site.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <libxml/HTMLtree.h>

#include "cg-clustvx.h"
#include "cg-demo-site.h"
#include "cg-dom-path.h"
#include "cg-page-features.h"
#include "cg-record-metrics.h"

#define PAGE_URL "http://shop.test/list"
#define DEMO_BASE "http://127.0.0.1:8080"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (xmlDoc, xmlFreeDoc)

static xmlDoc *
parse (const char *html)
{
  g_autoptr(GError) error = NULL;
  xmlDoc *doc = cg_page_parse (html, strlen (html), PAGE_URL, "text/html; charset=utf-8", &error);

  g_assert_no_error (error);
  g_assert_nonnull (doc);
  return doc;
}

static CgClustvxResult *
extract (xmlDoc                 *doc,
         const CgClustvxOptions *options)
{
  g_autoptr(GError) error = NULL;
  CgClustvxResult *result = cg_clustvx_extract (doc, options, &error);

  g_assert_no_error (error);
  g_assert_nonnull (result);
  g_assert_nonnull (result->message);
  g_assert_cmpstr (result->message, !=, "");
  return result;
}

static CgClustvxRegion *
region_at (CgClustvxResult *result,
           guint            index)
{
  g_assert_cmpuint (result->regions->len, >, index);
  return g_ptr_array_index (result->regions, index);
}

static CgClustvxRecord *
record_at (CgClustvxRegion *region,
           guint            index)
{
  g_assert_cmpuint (region->records->len, >, index);
  return g_ptr_array_index (region->records, index);
}

static CgClustvxItem *
item_at (CgClustvxRecord *record,
         guint            index)
{
  g_assert_cmpuint (record->items->len, >, index);
  return g_ptr_array_index (record->items, index);
}

/* The items' texts of a record, joined by " | ". */
static char *
record_text (CgClustvxRecord *record)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < record->items->len; i++)
    {
      CgClustvxItem *item = g_ptr_array_index (record->items, i);

      if (i > 0)
        g_string_append (out, " | ");
      g_string_append (out, item->text);
    }
  return g_string_free (out, FALSE);
}

static void
assert_record (CgClustvxRegion *region,
               guint            index,
               const char      *expected)
{
  g_autofree char *text = record_text (record_at (region, index));

  g_assert_cmpstr (text, ==, expected);
}

/* Evaluates @xpath on @doc and checks that it selects exactly @node. */
static void
assert_xpath_selects (xmlDoc     *doc,
                      const char *xpath,
                      xmlNodePtr  node)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) nodes = cg_dom_xpath_eval (doc, NULL, xpath, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (nodes->len, >=, 1);
  g_assert_true (g_ptr_array_index (nodes, 0) == node);
}

/* ---- type A ---------------------------------------------------------------- */

static const char *type_a_page =
  "<!DOCTYPE html><html><head><title>Shop</title><style>li{}</style></head><body>"
  "<header><a href=\"/\">Shop</a><p>Books since 1990</p></header>"
  "<div id=\"main\"><h1>Results</h1>"
  "<ul class=\"results\">"
  "<li><a href=\"/book/1\">Winter Tides</a><span class=\"price\">£12.99</span>"
  "<img src=\"/cover/1.jpg\" alt=\"Cover of Winter Tides\"><time>2014-05-01</time></li>"
  "<li><a href=\"/book/2\">Summer Roads</a><span class=\"price\">£8.50</span>"
  "<img src=\"/cover/2.jpg\" alt=\"Cover of Summer Roads\"><time>2015-06-02</time></li>"
  "<li><a href=\"/book/3\">Autumn Hills</a><span class=\"price\">£10.00</span>"
  "<img src=\"/cover/3.jpg\" alt=\"Cover of Autumn Hills\"><time>2016-07-03</time></li>"
  "</ul></div>"
  "<footer><p>Contact us</p></footer>"
  "</body></html>";

static void
test_type_a (void)
{
  g_autoptr(xmlDoc) doc = parse (type_a_page);
  g_autoptr(CgClustvxResult) result = extract (doc, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) selected = NULL;
  CgClustvxRegion *region;
  CgClustvxItem *item;

  g_assert_false (result->rendered);
  g_assert_false (result->truncated);
  g_assert_cmpint (result->reason, ==, CG_CLUSTVX_REASON_FOUND);
  region = region_at (result, 0);
  g_assert_cmpstr (region->xpath, ==, "/html[1]/body[1]/div[1]/ul[1]");
  g_assert_cmpstr ((const char *) region->node->name, ==, "ul");
  g_assert_cmpint (region->type, ==, CG_CLUSTVX_RECORDS_TYPE_A);
  g_assert_cmpstr (region->record_xpath, ==, "li");
  g_assert_cmpuint (region->records->len, ==, 3);
  g_assert_cmpfloat (region->score, ==, 1.0);
  g_assert_cmpfloat (region->items_per_record, ==, 4.0);

  assert_record (region, 0, "Winter Tides | £12.99 | Cover of Winter Tides | 2014-05-01");
  assert_record (region, 2, "Autumn Hills | £10.00 | Cover of Autumn Hills | 2016-07-03");
  g_assert_cmpstr (record_at (region, 1)->xpath, ==, "/html[1]/body[1]/div[1]/ul[1]/li[2]");

  /* Four columns, every record in each, with the kinds of their items. */
  g_assert_cmpuint (region->columns->len, ==, 4);
  for (guint c = 0; c < region->columns->len; c++)
    g_assert_cmpuint (((CgClustvxColumn *) g_ptr_array_index (region->columns, c))->n_items, ==, 3);
  g_assert_cmpstr (((CgClustvxColumn *) g_ptr_array_index (region->columns, 0))->tag_path, ==, "a");
  g_assert_cmpint (((CgClustvxColumn *) g_ptr_array_index (region->columns, 1))->kind, ==, CG_CLUSTVX_ITEM_PRICE);

  item = item_at (record_at (region, 1), 0);
  g_assert_cmpint (item->kind, ==, CG_CLUSTVX_ITEM_LINK);
  g_assert_cmpstr (item->href, ==, "/book/2");
  g_assert_cmpstr (item->url, ==, "http://shop.test/book/2");
  g_assert_cmpstr (item->xpath, ==, "/html[1]/body[1]/div[1]/ul[1]/li[2]/a[1]");
  g_assert_cmpstr (item->path, ==, "a||1");
  g_assert_cmpfloat (item->left, ==, -1);
  assert_xpath_selects (doc, item->xpath, item->node);
  g_assert_true (item->node == item->last_node);

  item = item_at (record_at (region, 1), 2);
  g_assert_cmpint (item->kind, ==, CG_CLUSTVX_ITEM_IMAGE);
  g_assert_cmpstr (item->src, ==, "/cover/2.jpg");
  g_assert_cmpstr (item->url, ==, "http://shop.test/cover/2.jpg");
  g_assert_null (item->href);
  g_assert_cmpint (item_at (record_at (region, 1), 3)->kind, ==, CG_CLUSTVX_ITEM_DATE);
  g_assert_cmpint (item_at (record_at (region, 1), 1)->kind, ==, CG_CLUSTVX_ITEM_PRICE);

  /* The record pattern, relative to the region, selects the records. */
  selected = cg_dom_xpath_eval (doc, region->node, region->record_xpath, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (selected->len, ==, 3);
  for (guint r = 0; r < 3; r++)
    {
      CgClustvxRecord *record = record_at (region, r);

      g_assert_cmpuint (record->nodes->len, ==, 1);
      g_assert_true (g_ptr_array_index (selected, r) == g_ptr_array_index (record->nodes, 0));
      assert_xpath_selects (doc, record->xpath, g_ptr_array_index (record->nodes, 0));
    }
}

/* ---- type B ------------------------------------------------------------------ */

/* Seed 003's Fig. 2.11: records are runs of siblings under one parent,
 * separated only by <br>. On a plain page the formatting elements stand in
 * for the fonts that tell the title from the score. */
static const char *type_b_page =
  "<html><body><p>Results for <b>news</b></p><td>"
  "<font size=\"3\"><b>1: Amarillo Globe-News: Headlines</b></font><br>"
  "<a href=\"http://www.amarillonet.com/\">http://www.amarillonet.com/1/index.html</a><br>"
  "<i>(Score 84, Size 18K, Last modified Nov-07-03)</i><br><br><br>"
  "<font size=\"3\"><b>2: On The Edge Of Common Sense</b></font><br>"
  "<a href=\"http://www.edge.test/\">http://www.edge.test/2.html</a><br>"
  "<i>(Score 80, Size 12K, Last modified Oct-01-03)</i><br><br><br>"
  "<font size=\"3\"><b>3: The Daily Planet</b></font><br>"
  "<a href=\"http://planet.test/\">http://planet.test/index.html</a><br>"
  "<i>(Score 77, Size 9K, Last modified Sep-12-03)</i><br><br><br>"
  "</td></body></html>";

static void
test_type_b (void)
{
  g_autoptr(xmlDoc) doc = parse (type_b_page);
  g_autoptr(CgClustvxResult) result = extract (doc, NULL);
  CgClustvxRegion *region = region_at (result, 0);
  CgClustvxItem *item;

  g_assert_cmpint (region->type, ==, CG_CLUSTVX_RECORDS_TYPE_B);
  g_assert_cmpstr (region->xpath, ==, "/html[1]/body[1]/td[1]");
  g_assert_cmpuint (region->records->len, ==, 3);
  assert_record (region, 0, "1: Amarillo Globe-News: Headlines | http://www.amarillonet.com/1/index.html | "
                            "(Score 84, Size 18K, Last modified Nov-07-03)");
  assert_record (region, 2, "3: The Daily Planet | http://planet.test/index.html | "
                            "(Score 77, Size 9K, Last modified Sep-12-03)");

  /* A record is the run from its title to the next one: the title, the
   * breaks, the link, the score. */
  g_assert_cmpuint (record_at (region, 0)->nodes->len, ==, 8);
  g_assert_cmpstr (record_at (region, 1)->xpath, ==, "/html[1]/body[1]/td[1]/font[2]");
  g_assert_cmpstr (region->record_xpath, ==, "text()");

  /* A merged text is selected by the union of its nodes. */
  item = item_at (record_at (region, 0), 0);
  g_assert_cmpstr (item->xpath, ==, "/html[1]/body[1]/td[1]/font[1]");
  g_assert_cmpstr (item->path, ==, "#text|font/b|1");
  assert_xpath_selects (doc, item->xpath, item->node);
  item = item_at (record_at (region, 0), 1);
  g_assert_cmpint (item->kind, ==, CG_CLUSTVX_ITEM_LINK);
  g_assert_cmpstr (item->url, ==, "http://www.amarillonet.com/");
}

/* Type B with elements of their own: a definition list and a list of
 * headings and paragraphs under one parent. */
static void
test_type_b_siblings (void)
{
  g_autoptr(xmlDoc) doc = parse (
    "<html><body><div class=\"results\">"
    "<h3><a href=\"/a\">Alpha</a></h3><p>First snippet</p><span>alpha.test</span>"
    "<h3><a href=\"/b\">Beta</a></h3><p>Second snippet</p><span>beta.test</span>"
    "<h3><a href=\"/c\">Gamma</a></h3><p>Third snippet</p><span>gamma.test</span>"
    "<h3><a href=\"/d\">Delta</a></h3><p>Fourth snippet</p>"
    "</div><dl><dt>Term one</dt><dd>Meaning one</dd><dt>Term two</dt><dd>Meaning two</dd></dl>"
    "</body></html>");
  g_autoptr(CgClustvxResult) result = extract (doc, NULL);
  CgClustvxRegion *region = region_at (result, 0);
  CgClustvxRegion *terms;

  g_assert_cmpstr (region->xpath, ==, "/html[1]/body[1]/div[1]");
  g_assert_cmpint (region->type, ==, CG_CLUSTVX_RECORDS_TYPE_B);
  g_assert_cmpstr (region->record_xpath, ==, "h3");
  g_assert_cmpuint (region->records->len, ==, 4);
  assert_record (region, 1, "Beta | Second snippet | beta.test");
  /* The last record lacks the optional span. */
  assert_record (region, 3, "Delta | Fourth snippet");
  g_assert_cmpuint (record_at (region, 3)->nodes->len, ==, 2);

  terms = region_at (result, 1);
  g_assert_cmpstr (terms->xpath, ==, "/html[1]/body[1]/dl[1]");
  g_assert_cmpint (terms->type, ==, CG_CLUSTVX_RECORDS_TYPE_B);
  assert_record (terms, 1, "Term two | Meaning two");
}

/* ---- pre-processing ------------------------------------------------------------ */

/* Seed 003's Fig. 2.6: texts that share their parent with elements become
 * items of their own. */
static void
test_hanging_text (void)
{
  g_autoptr(xmlDoc) doc = parse (
    "<html><body><table>"
    "<tr><td>Some unenclosed text<br>E-Mail Address:<a href=\"mailto:k6@hm.test\"><i>K6@hm.com</i></a>"
    "<br>Contact By: E-Mail<br><b>Ad Number: 101205</b></td></tr>"
    "<tr><td>Other unenclosed text<br>E-Mail Address:<a href=\"mailto:z@hm.test\"><i>Z9@hm.com</i></a>"
    "<br>Contact By: Phone<br><b>Ad Number: 101206</b></td></tr>"
    "</table></body></html>");
  g_autoptr(CgClustvxResult) result = extract (doc, NULL);
  CgClustvxRegion *region = region_at (result, 0);
  CgClustvxRecord *record;
  CgClustvxItem *item;

  g_assert_cmpstr (region->xpath, ==, "/html[1]/body[1]/table[1]");
  g_assert_cmpstr (region->record_xpath, ==, "tr");
  g_assert_cmpuint (region->records->len, ==, 2);
  record = record_at (region, 0);
  assert_record (region, 0, "Some unenclosed text | E-Mail Address: | K6@hm.com | Contact By: E-Mail | "
                            "Ad Number: 101205");

  /* A wrapped text is the step "#text"; its XPath selects its text node. */
  item = item_at (record, 1);
  g_assert_cmpstr (item->path, ==, "td/#text||2");
  g_assert_cmpstr (item->xpath, ==, "/html[1]/body[1]/table[1]/tr[1]/td[1]/text()[2]");
  g_assert_cmpint (item->node->type, ==, XML_TEXT_NODE);
  assert_xpath_selects (doc, item->xpath, item->node);

  /* The link owns its text; the bold text is a run of its own and keeps
   * its formatting as its plain "font". */
  g_assert_cmpstr (item_at (record, 2)->path, ==, "td/a|i|1");
  g_assert_cmpstr (item_at (record, 4)->path, ==, "td/#text|b|1");
  g_assert_cmpstr (item_at (record, 4)->xpath, ==, "/html[1]/body[1]/table[1]/tr[1]/td[1]/b[1]");

  /* Aligned: the same columns in both records. */
  for (guint i = 0; i < record->items->len; i++)
    g_assert_cmpuint (item_at (record, i)->column, ==, item_at (record_at (region, 1), i)->column);
}

/* Seed 003's Fig. 2.7: a snippet split by formatting is one text. */
static void
test_inline_formatting (void)
{
  g_autoptr(xmlDoc) doc = parse (
    "<html><body><ol>"
    "<li><h2>Safari one</h2><p>An <b>African</b> safari <em>in the <u>dry</u> season</em>, "
    "with <strong>guides</strong>.</p></li>"
    "<li><h2>Safari two</h2><p>Another <b>African</b> trip</p></li>"
    "<li><h2>Safari three</h2><p><i>A</i> third one</p></li>"
    "</ol></body></html>");
  g_autoptr(CgClustvxResult) result = extract (doc, NULL);
  CgClustvxRegion *region = region_at (result, 0);
  CgClustvxItem *item;

  g_assert_cmpuint (region->records->len, ==, 3);
  assert_record (region, 0, "Safari one | An African safari in the dry season, with guides.");
  assert_record (region, 2, "Safari three | A third one");
  /* The paragraph owns the merged text: the item is the p itself. */
  item = item_at (record_at (region, 0), 1);
  g_assert_cmpstr ((const char *) item->node->name, ==, "p");
  g_assert_cmpstr (item->xpath, ==, "/html[1]/body[1]/ol[1]/li[1]/p[1]");
  g_assert_cmpstr (item->path, ==, "p||1");
}

/* Invisible elements of a rendered page are dropped: data-cg-visible="0"
 * (the renderer's verdict) and data-cg-display="none" below it. */
#define DECORATED_PAGE \
  "<html data-cg-visible=\"1\" data-cg-left=\"0\" data-cg-top=\"0\" data-cg-width=\"1000\" data-cg-height=\"2000\"" \
  " data-cg-fontdata=\"Serif; rgb(0, 0, 0); 16px; normal; 400; none\">" \
  "<body data-cg-visible=\"1\" data-cg-left=\"0\" data-cg-top=\"0\" data-cg-width=\"1000\" data-cg-height=\"2000\"" \
  " data-cg-fontdata=\"Serif; rgb(0, 0, 0); 16px; normal; 400; none\">" \
  "<div class=\"menu\" data-cg-visible=\"0\" data-cg-display=\"none\" data-cg-width=\"0\" data-cg-height=\"0\">" \
  "<a href=\"/x\">Hidden one</a><a href=\"/y\">Hidden two</a><a href=\"/z\">Hidden three</a></div>" \
  "<ul data-cg-visible=\"1\" data-cg-left=\"10\" data-cg-top=\"100\" data-cg-width=\"800\" data-cg-height=\"300\"" \
  " data-cg-fontdata=\"Serif; rgb(0, 0, 0); 16px; normal; 400; none\">" \
  "%s</ul>" \
  "<div class=\"pages\" data-cg-visible=\"1\" data-cg-left=\"10\" data-cg-top=\"420\" data-cg-width=\"800\" data-cg-height=\"20\"" \
  " data-cg-fontdata=\"Serif; rgb(0, 0, 0); 16px; normal; 400; none\">%s</div>" \
  "</body></html>"

static char *
decorated_record (guint n)
{
  double top = 100 + 30 * n;

  return g_strdup_printf (
    "<li data-cg-visible=\"1\" data-cg-left=\"10\" data-cg-top=\"%g\" data-cg-width=\"800\" data-cg-height=\"30\""
    " data-cg-fontdata=\"Serif; rgb(0, 0, 0); 16px; normal; 400; none\">"
    "<a href=\"/book/%u\" data-cg-visible=\"1\" data-cg-left=\"10\" data-cg-top=\"%g\" data-cg-width=\"300\""
    " data-cg-height=\"20\" data-cg-fontdata=\"Serif; rgb(0, 0, 238); 18px; normal; 700; underline\">Book %u</a>"
    "<span data-cg-visible=\"1\" data-cg-left=\"320\" data-cg-top=\"%g\" data-cg-width=\"80\" data-cg-height=\"20\""
    " data-cg-fontdata=\"Serif; rgb(200, 0, 0); 16px; normal; 400; none\">£%u.99</span>"
    "<span data-cg-visible=\"0\" data-cg-left=\"0\" data-cg-top=\"0\" data-cg-width=\"0\" data-cg-height=\"0\""
    " data-cg-fontdata=\"Serif; rgb(0, 0, 0); 16px; normal; 400; none\">Quick view</span>"
    "<em data-cg-visible=\"1\" data-cg-left=\"420\" data-cg-top=\"%g\" data-cg-width=\"100\" data-cg-height=\"20\""
    " data-cg-fontdata=\"Serif; rgb(90, 90, 90); 14px; italic; 400; none\">In stock</em>"
    "</li>",
    top, n, top, n, top, n, top);
}

static char *
decorated_pages (guint n)
{
  GString *out = g_string_new (NULL);

  for (guint i = 1; i <= n; i++)
    g_string_append_printf (out,
      "<a href=\"?page=%u\" data-cg-visible=\"1\" data-cg-left=\"%u\" data-cg-top=\"420\" data-cg-width=\"20\""
      " data-cg-height=\"20\" data-cg-fontdata=\"Serif; rgb(0, 0, 238); 16px; normal; 400; underline\">%u</a>",
      i, 10 + 30 * i, i);
  return g_string_free (out, FALSE);
}

static char *
make_decorated_page (guint n_records,
                     guint n_pages)
{
  GString *records = g_string_new (NULL);
  g_autofree char *pages = decorated_pages (n_pages);

  for (guint i = 1; i <= n_records; i++)
    {
      g_autofree char *record = decorated_record (i);

      g_string_append (records, record);
    }
  return g_strdup_printf (DECORATED_PAGE, records->str, pages);
}

static void
test_invisible (void)
{
  g_autofree char *html = make_decorated_page (4, 6);
  g_autoptr(xmlDoc) doc = parse (html);
  g_autoptr(CgClustvxResult) result = extract (doc, NULL);
  CgClustvxRegion *region = region_at (result, 0);
  CgClustvxItem *item;

  g_assert_true (result->rendered);
  g_assert_cmpstr (region->xpath, ==, "/html[1]/body[1]/ul[1]");
  g_assert_cmpuint (region->records->len, ==, 4);
  /* No "Quick view": it is invisible. The em is dissolved into a text of
   * the li that keeps its own font. */
  assert_record (region, 0, "Book 1 | £1.99 | In stock");
  item = item_at (record_at (region, 3), 0);
  g_assert_cmpfloat (item->left, ==, 10);
  g_assert_cmpfloat (item->top, ==, 220);
  g_assert_cmpstr (item->fontdata, ==, "Serif; rgb(0, 0, 238); 18px; normal; 700; underline");
  g_assert_cmpstr (item_at (record_at (region, 3), 2)->fontdata, ==, "Serif; rgb(90, 90, 90); 14px; italic; 400; none");
  /* The area its records cover: four rows of 800 × 30 px. */
  g_assert_cmpfloat (region->area, ==, 4 * 800 * 30);

  /* No region holds the hidden menu's links. */
  for (guint r = 0; r < result->regions->len; r++)
    g_assert_cmpstr (region_at (result, r)->xpath, !=, "/html[1]/body[1]/div[1]");

  /* In plain mode the same page has no fonts and the hidden texts are
   * there: the renderer's attributes are ignored. */
  {
    CgClustvxOptions options;
    g_autoptr(CgClustvxResult) plain = NULL;

    cg_clustvx_options_init (&options);
    options.features = CG_CLUSTVX_FEATURES_PLAIN;
    plain = extract (doc, &options);
    g_assert_false (plain->rendered);
    assert_record (region_at (plain, 0), 0, "Book 1 | £1.99 | Quick view | In stock");
    g_assert_cmpstr (item_at (record_at (region_at (plain, 0), 0), 0)->fontdata, ==, "");
  }
}

/* Plain pages: what is obviously never shown is dropped. */
static void
test_plain_hidden (void)
{
  g_autoptr(xmlDoc) doc = parse (
    "<html><head><title>T</title><script>var a = '<li>x</li>';</script></head><body>"
    "<template><ul><li>t1</li><li>t2</li></ul></template>"
    "<noscript><p>Enable scripts</p><p>Please</p></noscript>"
    "<select><option>One</option><option>Two</option></select>"
    "<ul>"
    "<li><a href=\"/1\">One</a><span hidden>secret</span><span style=\"DISPLAY : None\">x</span> <span>first</span></li>"
    "<li><a href=\"/2\">Two</a><span hidden>secret</span><span style=\"visibility:hidden\">y</span> <span>second</span></li>"
    "</ul></body></html>");
  g_autoptr(CgClustvxResult) result = extract (doc, NULL);

  g_assert_cmpuint (result->regions->len, ==, 1);
  assert_record (region_at (result, 0), 0, "One | first");
  assert_record (region_at (result, 0), 1, "Two | second");
  g_assert_cmpuint (result->n_content, ==, 4);
}

/* Nested lists: the tags of each record are items of the record, and the
 * outer list is the region. */
static void
test_nested_lists (void)
{
  g_autoptr(xmlDoc) doc = parse (
    "<html><body><ul class=\"posts\">"
    "<li><h3>First post</h3><ul class=\"tags\"><li>red</li><li>green</li><li>blue</li></ul><p>3 comments</p></li>"
    "<li><h3>Second post</h3><ul class=\"tags\"><li>green</li></ul><p>no comments</p></li>"
    "<li><h3>Third post</h3><ul class=\"tags\"><li>blue</li><li>red</li></ul><p>1 comment</p></li>"
    "</ul></body></html>");
  g_autoptr(CgClustvxResult) result = extract (doc, NULL);
  CgClustvxRegion *region = region_at (result, 0);

  g_assert_cmpstr (region->xpath, ==, "/html[1]/body[1]/ul[1]");
  g_assert_cmpstr (region->record_xpath, ==, "li");
  g_assert_cmpuint (region->records->len, ==, 3);
  assert_record (region, 0, "First post | red | green | blue | 3 comments");
  assert_record (region, 1, "Second post | green | no comments");
  /* The n-th tag of every record is one column. */
  g_assert_cmpstr (item_at (record_at (region, 2), 2)->path, ==, "ul/li||2");
  g_assert_cmpuint (item_at (record_at (region, 2), 2)->column, ==, item_at (record_at (region, 0), 2)->column);

  /* Each record's tags, a list inside a record, are a region too, ranked
   * below the posts. */
  for (guint r = 1; r < result->regions->len; r++)
    g_assert_cmpfloat (region_at (result, r)->visual_weight, <=, region->visual_weight);
}

/* A grid: every cell of a row is a record. */
static void
test_grid (void)
{
  GString *html = g_string_new ("<html><body><table class=\"grid\">");
  g_autoptr(xmlDoc) doc = NULL;
  g_autoptr(CgClustvxResult) result = NULL;
  CgClustvxRegion *region;

  for (guint row = 0; row < 3; row++)
    {
      g_string_append (html, "<tr>");
      for (guint cell = 0; cell < 3; cell++)
        g_string_append_printf (html, "<td><a href=\"/p/%u\">Product %u</a><p>$%u.00</p></td>",
                                row * 3 + cell, row * 3 + cell, row * 3 + cell + 1);
      g_string_append (html, "</tr>");
    }
  g_string_append (html, "</table></body></html>");
  doc = parse (html->str);
  g_string_free (html, TRUE);
  result = extract (doc, NULL);
  region = region_at (result, 0);

  g_assert_cmpstr (region->xpath, ==, "/html[1]/body[1]/table[1]");
  g_assert_cmpstr (region->record_xpath, ==, "tr/td");
  g_assert_cmpuint (region->records->len, ==, 9);
  assert_record (region, 4, "Product 4 | $5.00");
  g_assert_cmpint (item_at (record_at (region, 4), 1)->kind, ==, CG_CLUSTVX_ITEM_PRICE);
}

/* A masonry layout: columns of cards. The cards are the records, not the
 * columns, although every column holds an item that repeats once per
 * column. */
static void
test_columns (void)
{
  GString *html = g_string_new ("<html><body><section class=\"grid\">");
  g_autoptr(xmlDoc) doc = NULL;
  g_autoptr(CgClustvxResult) result = NULL;
  CgClustvxRegion *region;
  guint card = 0;

  for (guint column = 0; column < 3; column++)
    {
      g_string_append (html, "<div class=\"column\"><p class=\"ad\">Advertisement</p>");
      for (guint i = 0; i < 2 + column; i++, card++)
        g_string_append_printf (html, "<article><h3><a href=\"/r/%u\">Recipe %u</a></h3><span>%u reviews</span>"
                                "<p>A dish to remember, number %u.</p></article>", card, card, card * 3, card);
      g_string_append (html, "</div>");
    }
  g_string_append (html, "</section></body></html>");
  doc = parse (html->str);
  g_string_free (html, TRUE);
  result = extract (doc, NULL);
  region = region_at (result, 0);

  g_assert_cmpstr (region->xpath, ==, "/html[1]/body[1]/section[1]");
  g_assert_cmpstr (region->record_xpath, ==, "div/article");
  g_assert_cmpuint (region->records->len, ==, 9);
  assert_record (region, 5, "Recipe 5 | 15 reviews | A dish to remember, number 5.");
}

/* A first record shown apart, one level up beside the element that holds
 * the others (a highlighted first result), is a record of the region,
 * which grows to the element that holds them all. */
static void
test_first_record_apart (void)
{
  GString *html = g_string_new ("<html><body><div class=\"results\">");
  g_autoptr(xmlDoc) doc = NULL;
  g_autoptr(CgClustvxResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) selected = NULL;
  CgClustvxRegion *region;

  g_string_append (html, "<div class=\"result\"><h3><a href=\"/0\">Result 0</a></h3><cite>site0.test</cite>"
                   "<p>Snippet of result 0</p></div><div class=\"more\">");
  for (guint i = 1; i < 6; i++)
    g_string_append_printf (html, "<div class=\"result\"><h3><a href=\"/%u\">Result %u</a></h3><cite>site%u.test</cite>"
                            "<p>Snippet of result %u</p></div>", i, i, i, i);
  g_string_append (html, "</div></div><div class=\"side\"><h3>Related</h3><p>Other things</p></div></body></html>");
  doc = parse (html->str);
  g_string_free (html, TRUE);
  result = extract (doc, NULL);
  region = region_at (result, 0);

  g_assert_cmpstr (region->xpath, ==, "/html[1]/body[1]/div[1]");
  g_assert_cmpuint (region->records->len, ==, 6);
  assert_record (region, 0, "Result 0 | site0.test | Snippet of result 0");
  assert_record (region, 5, "Result 5 | site5.test | Snippet of result 5");
  g_assert_cmpstr (record_at (region, 0)->xpath, ==, "/html[1]/body[1]/div[1]/div[1]");
  g_assert_cmpstr (record_at (region, 1)->xpath, ==, "/html[1]/body[1]/div[1]/div[2]/div[1]");
  /* The records' pattern is the union of their two paths, and selects
   * them all. */
  g_assert_cmpstr (region->record_xpath, ==, "div | div/div");
  selected = cg_dom_xpath_eval (doc, region->node, "div[@class='result'] | div/div", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (selected->len, ==, 6);
  /* Same columns in the record apart as in the others. */
  for (guint i = 0; i < 3; i++)
    g_assert_cmpuint (item_at (record_at (region, 0), i)->column, ==, item_at (record_at (region, 3), i)->column);
}

/* A list of records of several kinds (articles, and videos between some
 * of them) is of type A: the runs from one article to the next would have
 * every length, unlike records made from one template. */
static void
test_mixed_kinds (void)
{
  g_autoptr(xmlDoc) doc = parse (
    "<html><body><ul>"
    "<li><span class=\"section\">Life</span><h3><a href=\"/1\">First story</a></h3><p>By A. Writer</p></li>"
    "<li><div class=\"video\"><a href=\"/v1\">A video</a></div><time>4 hours ago</time></li>"
    "<li><span class=\"section\">Markets</span><h3><a href=\"/2\">Second story</a></h3><p>By B. Writer</p></li>"
    "<li><span class=\"section\">Arts</span><h3><a href=\"/3\">Third story</a></h3><p>By C. Writer</p></li>"
    "<li><div class=\"video\"><a href=\"/v2\">Another video</a></div><time>5 hours ago</time></li>"
    "<li><div class=\"video\"><a href=\"/v3\">A third video</a></div><time>6 hours ago</time></li>"
    "<li><span class=\"section\">Sport</span><h3><a href=\"/4\">Fourth story</a></h3><p>By D. Writer</p></li>"
    "</ul></body></html>");
  g_autoptr(CgClustvxResult) result = extract (doc, NULL);
  CgClustvxRegion *region = region_at (result, 0);

  g_assert_cmpint (region->type, ==, CG_CLUSTVX_RECORDS_TYPE_A);
  g_assert_cmpuint (region->records->len, ==, 7);
  assert_record (region, 1, "A video | 4 hours ago");
  assert_record (region, 2, "Markets | Second story | By B. Writer");
}

/* The area of a region is the area its records cover: a pager above and
 * below a list, whose region element is the list's whole container,
 * weighs less than the list. */
#define PAGER \
    "<div class=\"pager\" data-cg-visible=\"1\" data-cg-left=\"0\" data-cg-top=\"%u\" data-cg-width=\"1000\" data-cg-height=\"40\">" \
    "<a href=\"?p=0\" data-cg-visible=\"1\" data-cg-left=\"0\" data-cg-top=\"%u\" data-cg-width=\"60\" data-cg-height=\"40\">Prev</a>" \
    "<a href=\"?p=2\" data-cg-visible=\"1\" data-cg-left=\"70\" data-cg-top=\"%u\" data-cg-width=\"60\" data-cg-height=\"40\">Next</a>" \
    "<span data-cg-visible=\"1\" data-cg-left=\"140\" data-cg-top=\"%u\" data-cg-width=\"60\" data-cg-height=\"40\">Sort</span></div>"

static void
test_pager_around_list (void)
{
  GString *html = g_string_new (
    "<html data-cg-visible=\"1\"><body data-cg-visible=\"1\">"
    "<div class=\"main\" data-cg-visible=\"1\" data-cg-left=\"0\" data-cg-top=\"0\" data-cg-width=\"1000\" data-cg-height=\"2100\">");
  g_autoptr(xmlDoc) doc = NULL;
  g_autoptr(CgClustvxResult) result = NULL;
  CgClustvxRegion *list;

  g_string_append_printf (html, PAGER, 0, 0, 0, 0);
  g_string_append (html, "<div class=\"list\" data-cg-visible=\"1\" data-cg-left=\"0\" data-cg-top=\"50\" data-cg-width=\"1000\" data-cg-height=\"2000\">");
  for (guint i = 0; i < 10; i++)
    g_string_append_printf (html,
      "<div class=\"row\" data-cg-visible=\"1\" data-cg-left=\"0\" data-cg-top=\"%u\" data-cg-width=\"400\" data-cg-height=\"30\">"
      "<a href=\"/a/%u\" data-cg-visible=\"1\" data-cg-left=\"0\" data-cg-top=\"%u\" data-cg-width=\"200\" data-cg-height=\"30\">Artist %u</a>"
      "<span data-cg-visible=\"1\" data-cg-left=\"200\" data-cg-top=\"%u\" data-cg-width=\"100\" data-cg-height=\"30\">Jazz</span>"
      "<span data-cg-visible=\"1\" data-cg-left=\"300\" data-cg-top=\"%u\" data-cg-width=\"100\" data-cg-height=\"30\">19%02u</span></div>",
      50 + 30 * i, i, 50 + 30 * i, i, 50 + 30 * i, 50 + 30 * i, 60 + i);
  g_string_append (html, "</div>");
  g_string_append_printf (html, PAGER, 2060, 2060, 2060, 2060);
  g_string_append (html, "</div></body></html>");
  doc = parse (html->str);
  g_string_free (html, TRUE);
  result = extract (doc, NULL);
  list = region_at (result, 0);

  g_assert_true (result->rendered);
  g_assert_cmpstr (list->xpath, ==, "/html[1]/body[1]/div[1]/div[2]");
  g_assert_cmpuint (list->records->len, ==, 10);
  assert_record (list, 3, "Artist 3 | Jazz | 1963");
  /* 10 rows of 400 × 30 px against 2 bars of 1000 × 40 px, both with two
   * attributes (a link and spans): with the region element's box,
   * 1000 × 2100 px, the pager would outweigh the list. */
  g_assert_cmpfloat (list->area, ==, 10 * 400 * 30);
  g_assert_cmpstr (region_at (result, 1)->xpath, ==, "/html[1]/body[1]/div[1]");
  g_assert_cmpfloat (region_at (result, 1)->area, ==, 2 * 1000 * 40);
  g_assert_cmpfloat (region_at (result, 1)->items_per_record, ==, 2);
}

#define BOX(l, t, w, h) "data-cg-visible=\"1\" data-cg-left=\"" #l "\" data-cg-top=\"" #t "\" data-cg-width=\"" #w "\" data-cg-height=\"" #h "\""
#define SECTION_BOX "data-cg-visible=\"1\" data-cg-left=\"0\" data-cg-top=\"%u\" data-cg-width=\"1000\" data-cg-height=\"%u\""

/* Results shown in sections, each a heading, a count, a list and a link
 * to more: the sections are a region too (their headings, counts and
 * links recur once each), whose records cover the lists. The lists are
 * what the page is for: a section's area is the area it covers outside
 * them, and the larger list wins. */
static void
test_sections (void)
{
  GString *html = g_string_new ("<html " BOX (0, 0, 1000, 800) "><body " BOX (0, 0, 1000, 800) ">");
  g_autoptr(xmlDoc) doc = NULL;
  g_autoptr(CgClustvxResult) result = NULL;
  CgClustvxRegion *products, *sections = NULL;

  g_string_append_printf (html, "<div class=\"section\" " SECTION_BOX ">"
                          "<h2 " BOX (0, 0, 1000, 40) ">Products</h2><span " BOX (0, 40, 200, 20) ">3 results</span>"
                          "<ul " BOX (0, 60, 1000, 300) ">", 0u, 400u);
  for (guint i = 0; i < 3; i++)
    g_string_append_printf (html, "<li " SECTION_BOX "><a href=\"/p/%u\" " SECTION_BOX ">Phone %u</a>"
                            "<span " SECTION_BOX ">£1%u</span><p " SECTION_BOX ">Black</p><div " SECTION_BOX ">In stock</div></li>",
                            60 + 100 * i, 100u, i, 60 + 100 * i, 30u, i, 60 + 100 * i, 30u, i,
                            60 + 100 * i, 30u, 60 + 100 * i, 30u);
  g_string_append (html, "</ul><a href=\"/products\" " BOX (0, 370, 200, 30) ">View all products</a></div>");
  g_string_append_printf (html, "<div class=\"section\" " SECTION_BOX ">"
                          "<h2 " BOX (0, 400, 1000, 40) ">News</h2><span " BOX (0, 440, 200, 20) ">2 results</span>"
                          "<ul " BOX (0, 460, 1000, 200) ">", 400u, 400u);
  for (guint i = 0; i < 2; i++)
    g_string_append_printf (html, "<li " SECTION_BOX "><h3 " SECTION_BOX "><a href=\"/n/%u\" " SECTION_BOX ">Headline %u</a></h3>"
                            "<h5 " SECTION_BOX ">Summary of story %u</h5></li>",
                            460 + 100 * i, 100u, 460 + 100 * i, 30u, i, 460 + 100 * i, 30u, i, 490 + 100 * i, 30u, i);
  g_string_append (html, "</ul><a href=\"/news\" " BOX (0, 770, 200, 30) ">View all news</a></div></body></html>");
  doc = parse (html->str);
  g_string_free (html, TRUE);
  result = extract (doc, NULL);

  g_assert_true (result->rendered);
  products = region_at (result, 0);
  g_assert_cmpstr (products->xpath, ==, "/html[1]/body[1]/div[1]/ul[1]");
  g_assert_cmpuint (products->records->len, ==, 3);
  assert_record (products, 2, "Phone 2 | £12 | Black | In stock");
  g_assert_cmpfloat (products->area, ==, 3 * 1000 * 100);
  for (guint r = 0; r < result->regions->len; r++)
    if (g_strcmp0 (region_at (result, r)->xpath, "/html[1]/body[1]") == 0)
      sections = region_at (result, r);
  g_assert_nonnull (sections);
  g_assert_cmpuint (sections->records->len, ==, 2);
  /* Two sections of 1000 × 400 px, less the lists inside them. */
  g_assert_cmpfloat (sections->area, ==, 2 * 1000 * 400 - 3 * 1000 * 100 - 2 * 1000 * 100);
  g_assert_cmpfloat (sections->visual_weight, <, products->visual_weight);
}

/* A page of search results in sections, titles then names, each a table:
 * the start up to the first title row, and the end from the last. */
#define TITLES_START \
  "<html><body><div id=\"results\">" \
  "<div class=\"section\"><h3>Titles</h3><table>" \
  "<tr><td><img src=\"/t1.jpg\" alt=\"Poster\"></td><td><a href=\"/t/1\">Magic Art</a> (1932)</td></tr>"
#define TITLES_END_AND_NAMES \
  "</table><div class=\"more\"><a href=\"/find?s=tt\">More title matches</a></div></div>" \
  "<div class=\"section\"><h3>Names</h3><table>" \
  "<tr><td><img src=\"/n1.jpg\" alt=\"Poster\"></td><td><a href=\"/n/1\">Arts Magic</a> (Director)</td></tr>" \
  "<tr><td><img src=\"/n2.jpg\" alt=\"Poster\"></td><td><a href=\"/n/2\">Art Magic</a> (Actor)</td></tr>" \
  "</table><div class=\"more\"><a href=\"/find?s=nm\">More name matches</a></div></div>" \
  "</div></body></html>"

/* Sections whose lists have the same rows (titles, then names): the row
 * clusters span the sections, and the records are the rows of both
 * tables, not the sections. */
static void
test_sections_spanning (void)
{
  g_autoptr(xmlDoc) doc = parse (
    TITLES_START
    "<tr><td><img src=\"/t2.jpg\" alt=\"Poster\"></td><td><a href=\"/t/2\">The Art of Magic</a> (1998)</td></tr>"
    "<tr><td><img src=\"/t3.jpg\" alt=\"Poster\"></td><td><a href=\"/t/3\">Magicarena</a> (2015)</td></tr>"
    TITLES_END_AND_NAMES);
  g_autoptr(CgClustvxResult) result = extract (doc, NULL);
  CgClustvxRegion *region = region_at (result, 0);

  g_assert_cmpstr (region->xpath, ==, "/html[1]/body[1]/div[1]");
  g_assert_cmpuint (region->records->len, ==, 5);
  assert_record (region, 0, "Poster | Magic Art | (1932)");
  assert_record (region, 3, "Poster | Arts Magic | (Director)");
  assert_record (region, 4, "Poster | Art Magic | (Actor)");
}

/* The same sections, where some title rows also show an episode's season,
 * number and series: those items form clusters of the titles table only,
 * a region whose records are those rows. The rows are already records of
 * the list that spans the sections, with all their items; the smaller
 * region, which would outrank the list with its many items a record, is
 * dropped, and the list is the main region. */
static void
test_optional_attribute_rows (void)
{
  g_autoptr(xmlDoc) doc = parse (
    TITLES_START
    "<tr><td><img src=\"/t2.jpg\" alt=\"Poster\"></td><td><a href=\"/t/2\">The Magic Arrow</a> (TV Episode)"
    "<div class=\"episode\"><span>Season 1</span><span>Episode 11</span><a href=\"/t/20\">Robin Hood</a>"
    "<span>(2014) (TV Series)</span></div></td></tr>"
    "<tr><td><img src=\"/t3.jpg\" alt=\"Poster\"></td><td><a href=\"/t/3\">Magicarena</a> (2015)</td></tr>"
    "<tr><td><img src=\"/t4.jpg\" alt=\"Poster\"></td><td><a href=\"/t/4\">Documagicary</a> (TV Episode)"
    "<div class=\"episode\"><span>Season 1</span><span>Episode 19</span><a href=\"/t/21\">Sabrina</a>"
    "<span>(1999) (TV Series)</span></div></td></tr>"
    TITLES_END_AND_NAMES);
  g_autoptr(CgClustvxResult) result = extract (doc, NULL);
  CgClustvxRegion *region = region_at (result, 0);

  g_assert_cmpstr (region->xpath, ==, "/html[1]/body[1]/div[1]");
  g_assert_cmpuint (region->records->len, ==, 6);
  assert_record (region, 0, "Poster | Magic Art | (1932)");
  assert_record (region, 1, "Poster | The Magic Arrow | (TV Episode) | Season 1 | Episode 11 | Robin Hood | (2014) (TV Series)");
  assert_record (region, 5, "Poster | Art Magic | (Actor)");
  /* No other region is made of some of those rows. */
  for (guint r = 1; r < result->regions->len; r++)
    {
      CgClustvxRegion *other = region_at (result, r);

      for (guint i = 0; i < other->records->len; i++)
        for (guint j = 0; j < region->records->len; j++)
          g_assert_false (g_ptr_array_index (record_at (other, i)->nodes, 0) ==
                          g_ptr_array_index (record_at (region, j)->nodes, 0));
    }
}

/* A box of sponsored job results @first to @end - 1, in a markup of
 * their own (the title a link of its own, no heading), below a heading
 * and two wrappers, as job search pages show them among the others. */
static void
append_sponsored_box (GString    *html,
                      const char *heading,
                      guint       first,
                      guint       end)
{
  g_string_append_printf (html, "<div class=\"sponsored\"><h4>%s</h4><div><div>", heading);
  for (guint i = first; i < end; i++)
    g_string_append_printf (html, "<div class=\"row\"><a href=\"/ad/%u\">Sponsored job %u</a>"
                            "<div><span>Agency %u</span><span>Edmonton</span></div><em>Sponsored</em></div>",
                            i, i, i);
  g_string_append (html, "</div></div></div>");
}

/* Job search results with the sponsored results grouped in a box above
 * and below the others, in a markup of their own (the title a link of
 * its own, no heading): each box is a child of the results' element
 * like a result, but holds two or three results, below a heading and two
 * wrappers. The boxes' rows are the records, in page order; the headings
 * are no records. */
static void
test_grouped_records (void)
{
  GString *html = g_string_new ("<html><body><div id=\"jobs\">");
  g_autoptr(xmlDoc) doc = NULL;
  g_autoptr(CgClustvxResult) result = NULL;
  CgClustvxRegion *region;

  append_sponsored_box (html, "Jobs from our partners", 0, 3);
  for (guint i = 0; i < 6; i++)
    g_string_append_printf (html, "<div class=\"row\"><h2><a href=\"/job/%u\">Job %u</a></h2>"
                            "<span>Company %u</span><address>Calgary</address><p>Summary of job %u</p>"
                            "<time>%u days ago</time></div>", i, i, i, i, i + 1);
  append_sponsored_box (html, "More jobs from our partners", 3, 5);
  g_string_append (html, "</div></body></html>");
  doc = parse (html->str);
  g_string_free (html, TRUE);
  result = extract (doc, NULL);
  region = region_at (result, 0);

  g_assert_cmpstr (region->xpath, ==, "/html[1]/body[1]/div[1]");
  g_assert_cmpuint (region->records->len, ==, 11);
  assert_record (region, 0, "Sponsored job 0 | Agency 0 | Edmonton | Sponsored");
  assert_record (region, 2, "Sponsored job 2 | Agency 2 | Edmonton | Sponsored");
  assert_record (region, 3, "Job 0 | Company 0 | Calgary | Summary of job 0 | 1 days ago");
  assert_record (region, 10, "Sponsored job 4 | Agency 4 | Edmonton | Sponsored");
  g_assert_cmpstr (region->record_xpath, ==, "div/div/div/div | div");
}

/* The same page where every field of an organic result is a span (the
 * title a link inside one): the organic rows are still the records, not
 * their spans, although no span holds items of two clusters. */
static void
test_grouped_records_spans (void)
{
  GString *html = g_string_new ("<html><body><div id=\"jobs\">");
  g_autoptr(xmlDoc) doc = NULL;
  g_autoptr(CgClustvxResult) result = NULL;
  CgClustvxRegion *region;

  append_sponsored_box (html, "Jobs from our partners", 0, 3);
  for (guint i = 0; i < 6; i++)
    g_string_append_printf (html, "<div class=\"row\"><span><a href=\"/job/%u\">Job %u</a></span>"
                            "<span>Company %u</span><span>Calgary</span></div>", i, i, i);
  append_sponsored_box (html, "More jobs from our partners", 3, 5);
  g_string_append (html, "</div></body></html>");
  doc = parse (html->str);
  g_string_free (html, TRUE);
  result = extract (doc, NULL);
  region = region_at (result, 0);

  g_assert_cmpstr (region->xpath, ==, "/html[1]/body[1]/div[1]");
  g_assert_cmpuint (region->records->len, ==, 11);
  assert_record (region, 0, "Sponsored job 0 | Agency 0 | Edmonton | Sponsored");
  assert_record (region, 3, "Job 0 | Company 0 | Calgary");
  assert_record (region, 8, "Job 5 | Company 5 | Calgary");
  assert_record (region, 10, "Sponsored job 4 | Agency 4 | Edmonton | Sponsored");
}

/* A results table whose first and last rows are page links (the current
 * page in bold, as each result's title): those two rows are no records. */
static void
test_pager_rows (void)
{
  GString *html = g_string_new ("<html><body><table><tbody>");
  g_autoptr(xmlDoc) doc = NULL;
  g_autoptr(CgClustvxResult) result = NULL;
  CgClustvxRegion *region;

  for (guint pager = 0; pager < 2; pager++)
    {
      if (pager == 1)
        for (guint i = 1; i <= 6; i++)
          g_string_append_printf (html, "<tr><td>%u. <a href=\"/song/%u\"><b>Song %u</b></a> by <b>Artist %u</b>"
                                  "<br><small>Lyrics of song %u</small></td></tr>", i, i, i, i, i);
      g_string_append (html, "<tr><td><b>1</b>");
      for (guint page = 2; page <= 8; page++)
        g_string_append_printf (html, " <a class=\"nav\" href=\"/search?p=%u\">%u</a>", page, page);
      g_string_append (html, "</td></tr>");
    }
  g_string_append (html, "</tbody></table></body></html>");
  doc = parse (html->str);
  g_string_free (html, TRUE);
  result = extract (doc, NULL);
  region = region_at (result, 0);

  g_assert_cmpstr (region->xpath, ==, "/html[1]/body[1]/table[1]/tbody[1]");
  g_assert_cmpuint (region->records->len, ==, 6);
  assert_record (region, 0, "1. | Song 1 | by Artist 1 | Lyrics of song 1");
  assert_record (region, 5, "6. | Song 6 | by Artist 6 | Lyrics of song 6");
}

/* A declarative shadow root is shown; any other template is not. */
static void
test_shadow_root (void)
{
  g_autoptr(xmlDoc) doc = parse (
    "<html><body><div><template shadowrootmode=\"open\"><ul>"
    "<li><b>Ann</b><p>First comment</p></li><li><b>Bob</b><p>Second comment</p></li>"
    "</ul></template></div><template><ul><li><b>X</b><p>inert</p></li><li><b>Y</b><p>inert</p></li></ul>"
    "</template></body></html>");
  g_autoptr(CgClustvxResult) result = extract (doc, NULL);

  g_assert_cmpuint (result->regions->len, ==, 1);
  assert_record (region_at (result, 0), 1, "Bob | Second comment");
}

/* Checklist item 22: the pagination links are a region too, ranked below a
 * 20-record list by visual weight. */
static void
test_ranking (void)
{
  g_autofree char *html = make_decorated_page (20, 10);
  g_autoptr(xmlDoc) doc = parse (html);
  g_autoptr(CgClustvxResult) result = extract (doc, NULL);
  CgClustvxRegion *list = region_at (result, 0);
  CgClustvxRegion *pages = region_at (result, 1);

  g_assert_cmpstr (list->xpath, ==, "/html[1]/body[1]/ul[1]");
  g_assert_cmpuint (list->records->len, ==, 20);
  g_assert_cmpstr (pages->xpath, ==, "/html[1]/body[1]/div[2]");
  g_assert_cmpuint (pages->records->len, ==, 10);
  g_assert_cmpfloat (pages->items_per_record, ==, 1);
  /* VW = area × items², the area being the records' boxes: 20 rows of
   * 800 × 30 px with 3 items, against 10 links of 20 × 20 px. */
  g_assert_cmpfloat (list->visual_weight, ==, 20 * 800.0 * 30 * 9);
  g_assert_cmpfloat (pages->visual_weight, ==, 10 * 20.0 * 20);
  g_assert_cmpfloat (pages->score, ==, pages->visual_weight / list->visual_weight);
  g_assert_cmpfloat (pages->score, <, 1);
}

/* The XPaths work on a plain parse of the page without the renderer's
 * attributes: they are libxml2 positions, not data-cg-xpath. */
static void
test_xpaths_on_plain_dom (void)
{
  g_autofree char *html = make_decorated_page (5, 3);
  g_autoptr(GRegex) decorations = g_regex_new (" data-cg-[a-z]+=\"[^\"]*\"", 0, 0, NULL);
  g_autofree char *stripped = g_regex_replace_literal (decorations, html, -1, 0, "", 0, NULL);
  g_autoptr(xmlDoc) doc = parse (html);
  g_autoptr(xmlDoc) plain = parse (stripped);
  g_autoptr(CgClustvxResult) result = extract (doc, NULL);
  CgClustvxRegion *region = region_at (result, 0);

  g_assert_null (strstr (stripped, "data-cg"));
  for (guint r = 0; r < region->records->len; r++)
    {
      CgClustvxRecord *record = record_at (region, r);

      for (guint i = 0; i < record->items->len; i++)
        {
          CgClustvxItem *item = item_at (record, i);
          g_autoptr(GError) error = NULL;
          g_autoptr(GPtrArray) nodes = cg_dom_xpath_eval (plain, NULL, item->xpath, &error);
          g_autofree char *text = NULL;
          g_autofree char *collapsed = NULL;
          g_autofree char *expected = NULL;

          g_assert_no_error (error);
          g_assert_cmpuint (nodes->len, ==, 1);
          text = (char *) xmlNodeGetContent (g_ptr_array_index (nodes, 0));
          collapsed = cg_record_metrics_normalize (text);
          expected = cg_record_metrics_normalize (item->text);
          g_assert_cmpstr (collapsed, ==, expected);
        }
    }
}

/* ---- bad input ------------------------------------------------------------------ */

static void
test_no_repetition (void)
{
  g_autoptr(xmlDoc) doc = parse ("<html><body><h1>About us</h1><p>We sell books.</p>"
                                 "<div><a href=\"/\">Home</a></div></body></html>");
  g_autoptr(CgClustvxResult) result = extract (doc, NULL);

  g_assert_cmpuint (result->regions->len, ==, 0);
  g_assert_cmpint (result->reason, ==, CG_CLUSTVX_REASON_NO_REPETITION);
  g_assert_cmpuint (result->n_content, ==, 3);
  g_assert_cmpuint (result->n_clusters, ==, 0);
}

/* A result list with one result repeats nothing: no records, and the
 * reason. With three records asked for, a two-record list is refused as
 * a single record. */
static void
test_one_record (void)
{
  g_autoptr(xmlDoc) doc = parse ("<html><body><h1>Results</h1><ul><li><a href=\"/1\">Only book</a>"
                                 "<span>£5</span></li></ul></body></html>");
  g_autoptr(CgClustvxResult) result = extract (doc, NULL);
  g_autoptr(xmlDoc) two = parse ("<html><body><ul><li><a href=\"/1\">One</a><span>£5</span></li>"
                                 "<li><a href=\"/2\">Two</a><span>£6</span></li></ul></body></html>");
  g_autoptr(CgClustvxResult) found = extract (two, NULL);
  g_autoptr(CgClustvxResult) refused = NULL;
  CgClustvxOptions options;

  g_assert_cmpuint (result->regions->len, ==, 0);
  g_assert_cmpint (result->reason, ==, CG_CLUSTVX_REASON_NO_REPETITION);

  g_assert_cmpuint (found->regions->len, ==, 1);
  cg_clustvx_options_init (&options);
  options.min_records = 3;
  refused = extract (two, &options);
  g_assert_cmpuint (refused->regions->len, ==, 0);
  g_assert_cmpint (refused->reason, ==, CG_CLUSTVX_REASON_SINGLE_RECORD);
  g_assert_nonnull (strstr (refused->message, "3"));
}

static void
test_no_content (void)
{
  g_autoptr(xmlDoc) doc = parse ("<html><body><div><div></div></div><script>x()</script></body></html>");
  g_autoptr(CgClustvxResult) result = extract (doc, NULL);

  g_assert_cmpuint (result->regions->len, ==, 0);
  g_assert_cmpint (result->reason, ==, CG_CLUSTVX_REASON_NO_CONTENT);
}

static void
test_bad_arguments (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(xmlDoc) empty = htmlNewDocNoDtD (NULL, NULL);
  g_autoptr(xmlDoc) doc = parse ("<p>x</p>");
  CgClustvxOptions options;

  g_assert_null (cg_clustvx_extract (NULL, NULL, &error));
  g_assert_error (error, CG_CLUSTVX_ERROR, CG_CLUSTVX_ERROR_NO_DOCUMENT);
  g_clear_error (&error);

  g_assert_null (cg_clustvx_extract (empty, NULL, &error));
  g_assert_error (error, CG_CLUSTVX_ERROR, CG_CLUSTVX_ERROR_NO_DOCUMENT);
  g_clear_error (&error);

  cg_clustvx_options_init (&options);
  options.max_elements = 0;
  g_assert_null (cg_clustvx_extract (doc, &options, &error));
  g_assert_error (error, CG_CLUSTVX_ERROR, CG_CLUSTVX_ERROR_INVALID_OPTIONS);
  g_assert_nonnull (strstr (error->message, "max_elements"));
  g_clear_error (&error);

  cg_clustvx_options_init (&options);
  options.min_records = 1;
  g_assert_null (cg_clustvx_extract (doc, &options, &error));
  g_assert_error (error, CG_CLUSTVX_ERROR, CG_CLUSTVX_ERROR_INVALID_OPTIONS);
  g_assert_nonnull (strstr (error->message, "min_records"));
  g_clear_error (&error);

  cg_clustvx_options_init (&options);
  options.max_records = CG_CLUSTVX_MAX_RECORDS + 1;
  g_assert_null (cg_clustvx_extract (doc, &options, &error));
  g_assert_error (error, CG_CLUSTVX_ERROR, CG_CLUSTVX_ERROR_INVALID_OPTIONS);
}

/* Broken markup gives whatever records libxml2's recovering parser leaves
 * readable, never a crash. */
static void
test_broken_markup (void)
{
  static const char *pages[] = {
    "<html><body><ul><li><a href=/1>One</a><span>£1</span><li><a href=/2>Two</a><span>£2</b></span>"
    "<li><a href=/3>Three</a><span>£3</ul></div></div></body>",
    /* libxml2 nests each item in the unclosed link before it: nothing
     * repeats at one depth any more. */
    "<html><body><ul><li><a href=/1>One<span>£1</span><li><a href=/2>Two<span>£2</span>"
    "<li><a href=/3>Three</b><span>£3</span></ul></div></div></body>",
    "<ul><li>a<li>b<li>c",
    "<table><tr><td>1<td>2<tr><td>3<td>4</table></table></td>",
    "<div><<<>>><p>x</p><p>y</p><!-- unclosed comment",
    "<b><i><u><b><i><u>deep</b></i></u>",
    "<html><body><p>a</p></body></html><p>after</p><p>more</p>",
    "<p>\xff\xfe broken bytes</p><p>\xc3\x28</p>",
  };

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(xmlDoc) doc = cg_page_parse (pages[i], strlen (pages[i]), PAGE_URL, NULL, &error);
      g_autoptr(CgClustvxResult) result = NULL;

      g_assert_no_error (error);
      result = extract (doc, NULL);
      for (guint r = 0; r < result->regions->len; r++)
        {
          CgClustvxRegion *region = region_at (result, r);

          g_assert_cmpuint (region->records->len, >=, 2);
          assert_xpath_selects (doc, region->xpath, region->node);
        }
    }

  /* The first page still gives its three records. */
  {
    g_autoptr(xmlDoc) doc = parse (pages[0]);
    g_autoptr(CgClustvxResult) result = extract (doc, NULL);

    g_assert_cmpuint (region_at (result, 0)->records->len, ==, 3);
    assert_record (region_at (result, 0), 2, "Three | £3");
  }
}

/* A huge table is read up to the bounds, and the result says it is
 * partial. */
static void
test_huge_table (void)
{
  GString *html = g_string_new ("<html><body><table>");
  g_autoptr(xmlDoc) doc = NULL;
  g_autoptr(CgClustvxResult) result = NULL;
  g_autoptr(CgClustvxResult) bounded = NULL;
  CgClustvxOptions options;
  CgClustvxRegion *region;

  for (guint row = 0; row < 30000; row++)
    g_string_append_printf (html, "<tr><td>Row %u</td><td>%u.00 EUR</td><td><a href=\"/r/%u\">view</a></td></tr>",
                            row, row, row);
  g_string_append (html, "</table></body></html>");
  doc = parse (html->str);
  g_string_free (html, TRUE);

  /* 120,000 elements: more than this bound, fewer than the default. */
  cg_clustvx_options_init (&options);
  options.max_elements = 20000;
  result = extract (doc, &options);
  g_assert_true (result->truncated);
  g_assert_cmpuint (result->n_elements, <=, 20000);
  g_assert_nonnull (strstr (result->message, "20000"));
  region = region_at (result, 0);
  g_assert_cmpuint (region->records->len, >, 3900);
  g_assert_cmpuint (region->records->len, <=, 4000);
  assert_record (region, 7, "Row 7 | 7.00 EUR | view");

  cg_clustvx_options_init (&options);
  options.max_records = 100;
  options.max_items = 2;
  options.max_regions = 1;
  bounded = extract (doc, &options);
  g_assert_false (bounded->truncated);
  g_assert_cmpuint (bounded->regions->len, ==, 1);
  region = region_at (bounded, 0);
  g_assert_true (region->truncated);
  g_assert_cmpuint (region->records->len, ==, 100);
  assert_record (region, 99, "Row 99 | 99.00 EUR");
}

/* ---- JSON ---------------------------------------------------------------------- */

static void
test_json (void)
{
  g_autoptr(xmlDoc) doc = parse (type_a_page);
  g_autoptr(CgClustvxResult) result = extract (doc, NULL);
  g_autoptr(JsonNode) node = cg_clustvx_result_to_json (result);
  JsonObject *root = json_node_get_object (node);
  JsonArray *regions = json_object_get_array_member (root, "regions");
  JsonObject *region = json_array_get_object_element (regions, 0);
  JsonArray *records = json_object_get_array_member (region, "records");
  JsonObject *item = json_array_get_object_element (
    json_object_get_array_member (json_array_get_object_element (records, 0), "items"), 0);

  g_assert_cmpstr (json_object_get_string_member (root, "reason"), ==, "found");
  g_assert_cmpuint (json_array_get_length (regions), ==, result->regions->len);
  g_assert_cmpstr (json_object_get_string_member (region, "xpath"), ==, "/html[1]/body[1]/div[1]/ul[1]");
  g_assert_cmpstr (json_object_get_string_member (region, "type"), ==, "A");
  g_assert_cmpuint (json_array_get_length (records), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (item, "text"), ==, "Winter Tides");
  g_assert_cmpstr (json_object_get_string_member (item, "kind"), ==, "link");
  g_assert_true (json_object_get_null_member (item, "src"));
}

/* ---- the demo site --------------------------------------------------------------- */

static GPtrArray *
truth_records (JsonObject *page)
{
  JsonArray *records = json_object_get_array_member (page, "records");
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  for (guint r = 0; r < json_array_get_length (records); r++)
    {
      JsonObject *record = json_array_get_object_element (records, r);
      g_autoptr(GList) members = json_object_get_members (record);
      GStrvBuilder *builder = g_strv_builder_new ();

      for (GList *m = members; m != NULL; m = m->next)
        g_strv_builder_add (builder, json_object_get_string_member (record, m->data));
      g_ptr_array_add (out, g_strv_builder_end (builder));
      g_strv_builder_unref (builder);
    }
  return out;
}

/* Every list page of the demo site (home, category, author, author index,
 * search), fetched plain, scored against the site's ground truth with
 * seed 003's criterion: F1 at least 0.99 with both recalls. */
static void
test_demo_site (void)
{
  g_autoptr(CgDemoSite) site = cg_demo_site_new ();
  CgRecordScore total;
  guint pages = 0;
  g_autoptr(GHashTable) classes = g_hash_table_new (g_str_hash, g_str_equal);

  cg_record_score_init (&total);
  for (guint p = 0; p < cg_demo_site_get_n_pages (site); p++)
    {
      JsonObject *page = cg_demo_site_get_page (site, p);
      const char *path = json_object_get_string_member (page, "path");
      g_auto(GStrv) parts = NULL;
      g_autoptr(CgDemoResponse) response = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(xmlDoc) doc = NULL;
      g_autoptr(CgClustvxResult) result = NULL;
      g_autoptr(GPtrArray) actual = NULL;
      g_autoptr(GPtrArray) extracted = NULL;
      g_autoptr(GArray) matches = NULL;
      g_autofree char *url = NULL;
      CgRecordScore score;
      gconstpointer data;
      gsize length;

      if (!json_object_has_member (page, "records"))
        continue;
      parts = g_strsplit (path, "?", 2);
      response = cg_demo_site_respond (site, DEMO_BASE, parts[0], parts[1], NULL, NULL);
      g_assert_cmpuint (response->status, ==, 200);
      data = g_bytes_get_data (response->body, &length);
      url = g_strconcat (DEMO_BASE, path, NULL);
      doc = cg_page_parse (data, length, url, response->content_type, &error);
      g_assert_no_error (error);
      result = extract (doc, NULL);
      g_assert_false (result->rendered);

      actual = truth_records (page);
      extracted = result->regions->len > 0
        ? cg_record_metrics_region_texts (region_at (result, 0))
        : g_ptr_array_new ();
      matches = cg_record_metrics_align (actual, extracted, NULL, &score);
      if (score.n_correct != score.n_actual || score.n_extracted != score.n_actual)
        g_test_message ("%s: %u actual, %u extracted, %u correct", path,
                        score.n_actual, score.n_extracted, score.n_correct);
      cg_record_score_add (&total, &score);
      g_hash_table_add (classes, (gpointer) json_object_get_string_member (page, "class"));
      pages++;
    }

  g_test_message ("%u list pages: %u actual, %u extracted, %u correct records; "
                  "P %.4f, R %.4f (correct %.4f), F1 %.4f (correct %.4f)",
                  pages, total.n_actual, total.n_extracted, total.n_correct,
                  total.precision, total.recall, total.recall_correct, total.f1, total.f1_correct);
  g_assert_cmpuint (g_hash_table_size (classes), ==, 5);
  g_assert_cmpuint (total.n_actual, >, 1000);
  g_assert_cmpfloat (total.f1, >=, 0.99);
  g_assert_cmpfloat (total.f1_correct, >=, 0.99);
  g_assert_cmpfloat (total.precision, >=, 0.99);
}

static GHashTable *
string_set (const char * const *strings)
{
  GHashTable *set = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; strings[i] != NULL; i++)
    g_hash_table_add (set, (gpointer) strings[i]);
  return set;
}

/* The one set similarity that ClustVX and the wrappers share. */
static void
test_jaccard (void)
{
  static const char * const price_title[] = { "h3/a||1", "span||1", NULL };
  static const char * const price_title_image[] = { "span||1", "img||1", "h3/a||1", NULL };
  static const char * const author[] = { "p||1", NULL };
  static const char * const none[] = { NULL };
  g_autoptr(GHashTable) a = string_set (price_title);
  g_autoptr(GHashTable) b = string_set (price_title_image);
  g_autoptr(GHashTable) c = string_set (author);
  g_autoptr(GHashTable) empty = string_set (none);
  g_autoptr(GHashTable) empty_too = string_set (none);

  /* 2 shared of 3 in all, whichever comes first. */
  g_assert_cmpfloat_with_epsilon (cg_clustvx_jaccard (a, b), 2.0 / 3.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (cg_clustvx_jaccard (b, a), 2.0 / 3.0, 1e-9);
  g_assert_cmpfloat (cg_clustvx_jaccard (a, a), ==, 1.0);
  g_assert_cmpfloat (cg_clustvx_jaccard (a, c), ==, 0.0);
  g_assert_cmpfloat (cg_clustvx_jaccard (a, empty), ==, 0.0);
  /* Two empty sets are the same set. */
  g_assert_cmpfloat (cg_clustvx_jaccard (empty, empty_too), ==, 1.0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/clustvx/type-a", test_type_a);
  g_test_add_func ("/clustvx/type-b", test_type_b);
  g_test_add_func ("/clustvx/type-b-siblings", test_type_b_siblings);
  g_test_add_func ("/clustvx/hanging-text", test_hanging_text);
  g_test_add_func ("/clustvx/inline-formatting", test_inline_formatting);
  g_test_add_func ("/clustvx/invisible", test_invisible);
  g_test_add_func ("/clustvx/plain-hidden", test_plain_hidden);
  g_test_add_func ("/clustvx/nested-lists", test_nested_lists);
  g_test_add_func ("/clustvx/grid", test_grid);
  g_test_add_func ("/clustvx/columns", test_columns);
  g_test_add_func ("/clustvx/first-record-apart", test_first_record_apart);
  g_test_add_func ("/clustvx/mixed-kinds", test_mixed_kinds);
  g_test_add_func ("/clustvx/pager-around-list", test_pager_around_list);
  g_test_add_func ("/clustvx/shadow-root", test_shadow_root);
  g_test_add_func ("/clustvx/ranking", test_ranking);
  g_test_add_func ("/clustvx/sections", test_sections);
  g_test_add_func ("/clustvx/sections-spanning", test_sections_spanning);
  g_test_add_func ("/clustvx/optional-attribute-rows", test_optional_attribute_rows);
  g_test_add_func ("/clustvx/grouped-records", test_grouped_records);
  g_test_add_func ("/clustvx/grouped-records-spans", test_grouped_records_spans);
  g_test_add_func ("/clustvx/pager-rows", test_pager_rows);
  g_test_add_func ("/clustvx/xpaths-on-plain-dom", test_xpaths_on_plain_dom);
  g_test_add_func ("/clustvx/no-repetition", test_no_repetition);
  g_test_add_func ("/clustvx/one-record", test_one_record);
  g_test_add_func ("/clustvx/no-content", test_no_content);
  g_test_add_func ("/clustvx/bad-arguments", test_bad_arguments);
  g_test_add_func ("/clustvx/broken-markup", test_broken_markup);
  g_test_add_func ("/clustvx/huge-table", test_huge_table);
  g_test_add_func ("/clustvx/json", test_json);
  g_test_add_func ("/clustvx/demo-site", test_demo_site);
  g_test_add_func ("/clustvx/jaccard", test_jaccard);

  return g_test_run ();
}
