/* test-record-regions.c: which region of a wrapper each stored record is in, the main one first.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "cg-demo-site.h"
#include "cg-links.h"
#include "cg-record-regions.h"
#include "cg-test-demo.h"
#include "cg-wrapper.h"

/* The pages are made in process by the demo site for this base URL; no
 * request is made. */
#define BASE_URL "http://127.0.0.1:8017"

static CgDemoSite *site;

/* @path_and_query: a page's path, with its query if it has one
 * ("/author/x?page=2"). */
static htmlDocPtr
load_page (const char *path_and_query)
{
  return cg_test_demo_parse_page (site, BASE_URL, path_and_query);
}

static void
free_doc (gpointer doc)
{
  xmlFreeDoc (doc);
}

static GPtrArray *
class_pages (const char *klass)
{
  return cg_test_demo_class_pages (site, klass);
}

/* A record as the record store lists it: with its page's URL. */
static CgRecord *
make_record (const char         *url,
             const char         *region,
             guint               position,
             const char * const *columns,
             const char * const *values)
{
  CgRecord *record = cg_record_new (region, position, columns, values);

  record->url = g_strdup (url);
  record->class_name = g_strdup ("test");
  return record;
}

static guint
total_records (CgRecordRegions *regions)
{
  guint total = 0;

  for (guint r = 0; r < cg_record_regions_get_n_regions (regions); r++)
    total += cg_record_regions_get_region (regions, r)->n_records;
  return total;
}

/* The demo's author pages: a list of the author's books and, below it,
 * the paragraphs of the author's biography, which recur on every author
 * page too and so become a second region of the wrapper. The main region
 * holds the books, and only them, in the truth's order. */
static void
test_demo_author (void)
{
  g_autoptr(GPtrArray) pages = class_pages (CG_DEMO_CLASS_AUTHOR);
  g_autoptr(GPtrArray) docs = g_ptr_array_new_with_free_func (free_doc);
  g_autoptr(GPtrArray) urls = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_record_free);
  g_autoptr(GPtrArray) page_of_record = g_ptr_array_new ();
  g_autoptr(CgWrapper) wrapper = NULL;
  g_autoptr(CgRecordRegions) regions = NULL;
  g_autoptr(GPtrArray) main_records = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *definition = NULL;
  g_autofree char *main_name = NULL;
  g_autofree char *other_name = NULL;
  guint step, at = 0, n_truth = 0;
  int main_region;

  g_assert_cmpuint (pages->len, >, 10);
  step = pages->len / CG_WRAPPER_DEFAULT_PAGES;
  for (guint i = 0; i < pages->len && docs->len < CG_WRAPPER_DEFAULT_PAGES; i += step)
    {
      const char *path = json_object_get_string_member (g_ptr_array_index (pages, i), "path");

      g_ptr_array_add (docs, load_page (path));
      g_ptr_array_add (urls, g_strconcat (BASE_URL, path, NULL));
    }
  wrapper = cg_wrapper_learn (CG_DEMO_CLASS_AUTHOR, docs, urls, &error);
  g_assert_no_error (error);
  g_assert_cmpint (cg_wrapper_get_kind (wrapper), ==, CG_WRAPPER_LIST);
  /* The case this module is for: more than one region. */
  g_assert_cmpuint (cg_wrapper_get_n_regions (wrapper), >=, 2);

  /* Every author page, as the extractor would store its records. */
  for (guint i = 0; i < pages->len; i++)
    {
      JsonObject *page = g_ptr_array_index (pages, i);
      const char *path = json_object_get_string_member (page, "path");
      g_autofree char *url = g_strconcat (BASE_URL, path, NULL);
      htmlDocPtr doc = load_page (path);
      g_autoptr(GPtrArray) page_records = cg_wrapper_apply (wrapper, doc, url, &error);

      g_assert_no_error (error);
      while (page_records->len > 0)
        {
          CgRecord *record = g_ptr_array_steal_index (page_records, 0);

          record->url = g_strdup (url);
          g_ptr_array_add (records, record);
          g_ptr_array_add (page_of_record, page);
        }
      n_truth += json_array_get_length (json_object_get_array_member (page, "records"));
      xmlFreeDoc (doc);
    }

  definition = cg_wrapper_to_json (wrapper);
  regions = cg_record_regions_new (definition, records);
  g_assert_cmpuint (cg_record_regions_get_n_regions (regions), ==, cg_wrapper_get_n_regions (wrapper));
  g_assert_cmpuint (total_records (regions), ==, records->len);
  main_region = cg_record_regions_get_main (regions);
  g_assert_cmpint (main_region, ==, 0);

  /* Each record is in a region of the wrapper with its own columns. */
  for (guint i = 0; i < records->len; i++)
    {
      const CgRecord *record = g_ptr_array_index (records, i);
      const CgRecordRegion *region = cg_record_regions_get_region (regions, cg_record_regions_get_record_region (regions, i));

      g_assert_true (region->in_wrapper);
      g_assert_true (g_strv_equal ((const char * const *) region->columns, (const char * const *) record->columns));
    }

  /* The main region: the books of each page, in the truth's order. */
  main_records = cg_record_regions_select (regions, records, (guint) main_region);
  g_assert_cmpuint (main_records->len, ==, n_truth);
  g_assert_cmpuint (main_records->len, <, records->len);
  for (guint i = 0; i < pages->len; i++)
    {
      JsonObject *page = g_ptr_array_index (pages, i);
      JsonArray *truth = json_object_get_array_member (page, "records");
      g_autofree char *url = g_strconcat (BASE_URL, json_object_get_string_member (page, "path"), NULL);

      for (guint j = 0; j < json_array_get_length (truth); j++, at++)
        {
          const CgRecord *record = g_ptr_array_index (main_records, at);
          const char *title = json_object_get_string_member (json_array_get_object_element (truth, j), "title");

          g_assert_cmpstr (record->url, ==, url);
          g_assert_cmpstr (cg_record_get (record, "title"), ==, title);
        }
    }
  /* The other regions hold no book. */
  for (guint i = 0; i < records->len; i++)
    if (cg_record_regions_get_record_region (regions, i) != (guint) main_region)
      g_assert_null (cg_record_get (g_ptr_array_index (records, i), "title"));

  /* The names tell the regions apart by their XPaths' ends. */
  main_name = cg_record_regions_describe (regions, 0);
  other_name = cg_record_regions_describe (regions, 1);
  g_assert_true (g_str_has_suffix (cg_wrapper_get_region_xpath (wrapper, 0), main_name));
  g_assert_true (g_str_has_suffix (cg_wrapper_get_region_xpath (wrapper, 1), other_name));
  g_assert_cmpstr (main_name, !=, other_name);
  g_assert_nonnull (strchr (main_name, '/'));
}

static const char *book_columns[] = { "title", "price", NULL };
static const char *text_columns[] = { "text", NULL };

/* A wrapper whose region XPaths are more general than the records' own:
 * positions left out, classes instead, or "*". */
static void
test_general_xpaths (void)
{
  static const char definition[] =
    "{\"kind\": \"list\", \"regions\": ["
    " {\"xpath\": \"/html/body/main/ul[@class='books']\", \"record\": \"li\","
    "  \"columns\": [{\"name\": \"title\", \"xpath\": \"h3\", \"kind\": \"text\"},"
    "               {\"name\": \"price\", \"xpath\": \"span\", \"kind\": \"price\"}]},"
    " {\"xpath\": \"/html/body/main/*[2]/div\", \"record\": \"p\","
    "  \"columns\": [{\"name\": \"text\", \"xpath\": \".\", \"kind\": \"text\"}]}]}";
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_record_free);
  g_autoptr(CgRecordRegions) regions = NULL;
  const char *book[] = { "A Book", "£3.00", NULL };
  const char *text[] = { "Born somewhere.", NULL };

  /* The list moves from page to page; the biography is where the wrapper
   * says (the second child of main), then somewhere else. */
  g_ptr_array_add (records, make_record ("http://a/1", "/html[1]/body[1]/main[1]/ul[1]", 0, book_columns, book));
  g_ptr_array_add (records, make_record ("http://a/2", "/html[1]/body[1]/main[1]/ul[3]", 0, book_columns, book));
  g_ptr_array_add (records, make_record ("http://a/1", "/html[1]/body[1]/main[1]/article[2]/div[1]", 1, text_columns, text));
  g_ptr_array_add (records, make_record ("http://a/3", "/html[1]/body[1]/main[1]/article[3]/div[1]", 0, text_columns, text));
  regions = cg_record_regions_new (definition, records);

  g_assert_cmpuint (cg_record_regions_get_n_regions (regions), ==, 2);
  g_assert_cmpuint (cg_record_regions_get_record_region (regions, 0), ==, 0);
  g_assert_cmpuint (cg_record_regions_get_record_region (regions, 1), ==, 0);
  g_assert_cmpuint (cg_record_regions_get_record_region (regions, 2), ==, 1);
  /* Not at the wrapper's place, but with its region's columns: the region
   * moved, the record is still the wrapper's. */
  g_assert_cmpuint (cg_record_regions_get_record_region (regions, 3), ==, 1);
  g_assert_cmpuint (cg_record_regions_get_region (regions, 0)->n_records, ==, 2);
  g_assert_cmpuint (cg_record_regions_get_region (regions, 1)->n_records, ==, 2);
  g_assert_cmpstr (cg_record_regions_get_region (regions, 0)->xpath, ==, "/html/body/main/ul[@class='books']");
  g_assert_cmpint (cg_record_regions_get_main (regions), ==, 0);
}

/* A detail wrapper's region is "/html"; its records say "/html[1]". */
static void
test_detail (void)
{
  static const char definition[] =
    "{\"kind\": \"detail\", \"regions\": [{\"xpath\": \"/html\", \"record\": \".\","
    " \"columns\": [{\"name\": \"title\", \"xpath\": \"body/h1\", \"kind\": \"text\"},"
    "              {\"name\": \"price\", \"xpath\": \"body/p\", \"kind\": \"price\"}]}]}";
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_record_free);
  g_autoptr(CgRecordRegions) regions = NULL;
  const char *values[] = { "A Book", "£3.00", NULL };
  g_autofree char *name = NULL;

  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *url = g_strdup_printf ("http://a/book/%u", i);

      g_ptr_array_add (records, make_record (url, "/html[1]", 0, book_columns, values));
    }
  regions = cg_record_regions_new (definition, records);
  g_assert_cmpuint (cg_record_regions_get_n_regions (regions), ==, 1);
  g_assert_cmpuint (cg_record_regions_get_region (regions, 0)->n_records, ==, 5);
  g_assert_true (cg_record_regions_get_region (regions, 0)->in_wrapper);
  name = cg_record_regions_describe (regions, 0);
  g_assert_cmpstr (name, ==, "/html");
}

/* Records the wrapper does not explain: extracted by an older wrapper
 * (another column, another place), or with no wrapper at all. They are
 * grouped after the wrapper's regions, never dropped, the largest group
 * (records × columns) first. */
static void
test_outside_wrapper (void)
{
  static const char definition[] =
    "{\"kind\": \"list\", \"regions\": [{\"xpath\": \"/html[1]/body[1]/ol[1]\", \"record\": \"li\","
    " \"columns\": [{\"name\": \"title\", \"xpath\": \"h3\", \"kind\": \"text\"}]}]}";
  static const char *old_columns[] = { "name", "cost", NULL };
  static const char *nav_columns[] = { "link", "link_url", NULL };
  const char *old[] = { "Old", "£1", NULL };
  const char *nav[] = { "Next", "http://a/2", NULL };
  const char *title[] = { "New", NULL };
  static const char *title_columns[] = { "title", NULL };
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_record_free);
  g_autoptr(CgRecordRegions) with_wrapper = NULL;
  g_autoptr(CgRecordRegions) without = NULL;
  g_autoptr(CgRecordRegions) unreadable = NULL;
  g_autoptr(GPtrArray) selected = NULL;

  /* Two navigation records on two pages (the region at two positions),
   * then three old records on three pages, then one of the wrapper's. */
  g_ptr_array_add (records, make_record ("http://a/1", "/html[1]/body[1]/nav[1]", 0, nav_columns, nav));
  g_ptr_array_add (records, make_record ("http://a/2", "/html[1]/body[1]/nav[2]", 0, nav_columns, nav));
  for (guint i = 0; i < 3; i++)
    g_ptr_array_add (records, make_record ("http://a/3", "/html[1]/body[1]/div[1]/ul[1]", i, old_columns, old));
  g_ptr_array_add (records, make_record ("http://a/4", "/html[1]/body[1]/ol[1]", 0, title_columns, title));

  with_wrapper = cg_record_regions_new (definition, records);
  g_assert_cmpuint (cg_record_regions_get_n_regions (with_wrapper), ==, 3);
  g_assert_true (cg_record_regions_get_region (with_wrapper, 0)->in_wrapper);
  g_assert_cmpuint (cg_record_regions_get_region (with_wrapper, 0)->n_records, ==, 1);
  g_assert_cmpuint (cg_record_regions_get_record_region (with_wrapper, 5), ==, 0);
  /* The old records (3 × 2) before the navigation (2 × 2). */
  g_assert_false (cg_record_regions_get_region (with_wrapper, 1)->in_wrapper);
  g_assert_cmpstr (cg_record_regions_get_region (with_wrapper, 1)->xpath, ==, "/html/body/div/ul");
  g_assert_cmpuint (cg_record_regions_get_region (with_wrapper, 1)->n_records, ==, 3);
  g_assert_true (g_strv_equal ((const char * const *) cg_record_regions_get_region (with_wrapper, 1)->columns,
                               old_columns));
  g_assert_cmpstr (cg_record_regions_get_region (with_wrapper, 2)->xpath, ==, "/html/body/nav");
  g_assert_cmpuint (cg_record_regions_get_region (with_wrapper, 2)->n_records, ==, 2);
  for (guint i = 0; i < 2; i++)
    g_assert_cmpuint (cg_record_regions_get_record_region (with_wrapper, i), ==, 2);
  for (guint i = 2; i < 5; i++)
    g_assert_cmpuint (cg_record_regions_get_record_region (with_wrapper, i), ==, 1);
  g_assert_cmpint (cg_record_regions_get_main (with_wrapper), ==, 0);
  selected = cg_record_regions_select (with_wrapper, records, 2);
  g_assert_cmpuint (selected->len, ==, 2);
  g_assert_true (g_ptr_array_index (selected, 0) == g_ptr_array_index (records, 0));
  g_assert_true (g_ptr_array_index (selected, 1) == g_ptr_array_index (records, 1));

  /* No wrapper: the largest group is the main one. */
  without = cg_record_regions_new (NULL, records);
  g_assert_cmpuint (cg_record_regions_get_n_regions (without), ==, 3);
  g_assert_cmpint (cg_record_regions_get_main (without), ==, 0);
  g_assert_cmpstr (cg_record_regions_get_region (without, 0)->xpath, ==, "/html/body/div/ul");
  g_assert_cmpuint (total_records (without), ==, records->len);

  /* A damaged definition counts as none. */
  unreadable = cg_record_regions_new ("{\"kind\": \"list\", \"regions\": [{\"xpath\": 3}]", records);
  g_assert_cmpuint (cg_record_regions_get_n_regions (unreadable), ==, 3);
  g_assert_cmpuint (total_records (unreadable), ==, records->len);
  for (guint r = 0; r < 3; r++)
    g_assert_false (cg_record_regions_get_region (unreadable, r)->in_wrapper);
}

/* Regions whose XPaths end alike are named by as many steps as tell them
 * apart; an XPath that is not a path of steps is named whole. */
static void
test_describe (void)
{
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_record_free);
  g_autoptr(CgRecordRegions) regions = NULL;
  static const char *a_columns[] = { "a", NULL };
  static const char *b_columns[] = { "b", NULL };
  static const char *c_columns[] = { "c", NULL };
  const char *value[] = { "x", NULL };
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *third = NULL;

  g_ptr_array_add (records, make_record ("http://a/1", "/html[1]/body[1]/section[1]/div[1]/ul[1]", 0, a_columns, value));
  g_ptr_array_add (records, make_record ("http://a/1", "/html[1]/body[1]/section[2]/div[1]/ul[1]", 1, b_columns, value));
  g_ptr_array_add (records, make_record ("http://a/1", "not a path", 2, c_columns, value));
  regions = cg_record_regions_new (NULL, records);
  g_assert_cmpuint (cg_record_regions_get_n_regions (regions), ==, 3);
  first = cg_record_regions_describe (regions, 0);
  second = cg_record_regions_describe (regions, 1);
  third = cg_record_regions_describe (regions, 2);
  /* Grouped without positions, so both are section/div/ul: named whole. */
  g_assert_cmpstr (first, ==, "/html/body/section/div/ul");
  g_assert_cmpstr (second, ==, "/html/body/section/div/ul");
  g_assert_cmpstr (third, ==, "not a path");

  {
    static const char definition[] =
      "{\"kind\": \"list\", \"regions\": ["
      " {\"xpath\": \"/html/body/section[1]/div/ul\", \"record\": \"li\","
      "  \"columns\": [{\"name\": \"a\", \"xpath\": \".\", \"kind\": \"text\"}]},"
      " {\"xpath\": \"/html/body/section[2]/div/ul\", \"record\": \"li\","
      "  \"columns\": [{\"name\": \"b\", \"xpath\": \".\", \"kind\": \"text\"}]},"
      " {\"xpath\": \"/html/body/aside[@id='x/y']/ol\", \"record\": \"li\","
      "  \"columns\": [{\"name\": \"c\", \"xpath\": \".\", \"kind\": \"text\"}]}]}";
    g_autoptr(CgRecordRegions) named = cg_record_regions_new (definition, records);
    g_autofree char *a = cg_record_regions_describe (named, 0);
    g_autofree char *b = cg_record_regions_describe (named, 1);
    g_autofree char *c = cg_record_regions_describe (named, 2);

    g_assert_cmpstr (a, ==, "section[1]/div/ul");
    g_assert_cmpstr (b, ==, "section[2]/div/ul");
    /* The "/" inside the predicate is not a step. */
    g_assert_cmpstr (c, ==, "aside[@id='x/y']/ol");
    g_assert_cmpuint (cg_record_regions_get_record_region (named, 0), ==, 0);
    g_assert_cmpuint (cg_record_regions_get_record_region (named, 1), ==, 1);
    /* Not a path, but the columns are the third region's. */
    g_assert_cmpuint (cg_record_regions_get_record_region (named, 2), ==, 2);
  }
}

/* Thousands of distinct regions are bounded, and no record is lost. */
static void
test_bounded (void)
{
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_record_free);
  g_autoptr(CgRecordRegions) regions = NULL;
  const guint n = CG_RECORD_REGIONS_MAX * 4;
  const char *value[] = { "x", NULL };

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *column = g_strdup_printf ("field_%u", i);
      const char *columns[] = { column, NULL };

      g_ptr_array_add (records, make_record ("http://a/1", "/html[1]/body[1]/div[1]", i, columns, value));
    }
  regions = cg_record_regions_new (NULL, records);
  g_assert_cmpuint (cg_record_regions_get_n_regions (regions), ==, CG_RECORD_REGIONS_MAX);
  g_assert_cmpuint (total_records (regions), ==, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (cg_record_regions_get_record_region (regions, i), <, CG_RECORD_REGIONS_MAX);

  /* No record at all. */
  {
    g_autoptr(GPtrArray) none = g_ptr_array_new ();
    g_autoptr(CgRecordRegions) empty = cg_record_regions_new (NULL, none);

    g_assert_cmpuint (cg_record_regions_get_n_regions (empty), ==, 0);
    g_assert_cmpint (cg_record_regions_get_main (empty), ==, -1);
  }
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  site = cg_demo_site_new ();
  g_test_add_func ("/record-regions/demo-author", test_demo_author);
  g_test_add_func ("/record-regions/general-xpaths", test_general_xpaths);
  g_test_add_func ("/record-regions/detail", test_detail);
  g_test_add_func ("/record-regions/outside-wrapper", test_outside_wrapper);
  g_test_add_func ("/record-regions/describe", test_describe);
  g_test_add_func ("/record-regions/bounded", test_bounded);
  status = g_test_run ();
  g_object_unref (site);
  return status;
}
