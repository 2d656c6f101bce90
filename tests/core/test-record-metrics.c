/* test-record-metrics.c: record-level precision and recall, on hand-worked examples.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "cg-clustvx.h"
#include "cg-page-features.h"
#include "cg-record-metrics.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (xmlDoc, xmlFreeDoc)

/* Records written as "value | value | …", one string per record. */
static GPtrArray *
records (const char *first,
         ...)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  va_list args;

  va_start (args, first);
  for (const char *record = first; record != NULL; record = va_arg (args, const char *))
    {
      g_auto(GStrv) parts = g_strsplit (record, " | ", -1);

      g_ptr_array_add (out, g_steal_pointer (&parts));
    }
  va_end (args);
  return out;
}

static CgRecordMatch *
match_at (GArray *matches,
          guint   index)
{
  g_assert_cmpuint (matches->len, >, index);
  return &g_array_index (matches, CgRecordMatch, index);
}

static void
test_normalize (void)
{
  static const struct {
    const char *text;
    const char *normal;
  } cases[] = {
    { "  Crime &   THRILLER ", "crime thriller" },
    { "£14.99", "14 99" },
    { "14.99 £", "14 99" },
    { "Ｆｕｌｌｗｉｄｔｈ", "fullwidth" },
    { "Straße", "strasse" },
    { "| ★★★ |", "" },
    { "", "" },
    { "l’été—déjà", "l été déjà" },
    { "\xff broken", "broken" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *normal = cg_record_metrics_normalize (cases[i].text);

      g_assert_cmpstr (normal, ==, cases[i].normal);
    }
}

/* Every record right: P = R = F1 = 1, with both recalls. */
static void
test_perfect (void)
{
  g_autoptr(GPtrArray) actual = records ("Winter Tides | Omar Sato | £12.99",
                                         "Summer Roads | Una Evans | £8.50",
                                         "Autumn Hills | Nell Evans | £10.00", NULL);
  /* Items with labels and other spacing, in other cases, and a value
   * split over two items still match. */
  g_autoptr(GPtrArray) extracted = records ("WINTER TIDES | by Omar Sato | Price: £12.99",
                                            "Summer Roads | by Una | Evans | 8.50 £",
                                            "Autumn  Hills | by Nell Evans | £10.00", NULL);
  CgRecordScore score;
  g_autoptr(GArray) matches = cg_record_metrics_align (actual, extracted, NULL, &score);

  g_assert_cmpuint (score.n_actual, ==, 3);
  g_assert_cmpuint (score.n_extracted, ==, 3);
  g_assert_cmpuint (score.n_aligned, ==, 3);
  g_assert_cmpuint (score.n_correct, ==, 3);
  g_assert_cmpfloat (score.precision, ==, 1);
  g_assert_cmpfloat (score.recall, ==, 1);
  g_assert_cmpfloat (score.recall_correct, ==, 1);
  g_assert_cmpfloat (score.f1, ==, 1);
  g_assert_cmpfloat (score.f1_correct, ==, 1);
  for (guint j = 0; j < 3; j++)
    {
      g_assert_cmpint (match_at (matches, j)->actual, ==, (int) j);
      g_assert_cmpuint (match_at (matches, j)->n_values, ==, 3);
      g_assert_cmpuint (match_at (matches, j)->n_found, ==, 3);
      g_assert_true (match_at (matches, j)->segmented);
      g_assert_true (match_at (matches, j)->correct);
    }
}

/* Four actual records; the extraction misses one and adds a header row:
 *   precision      = 3 / 4 = 0.75
 *   recall         = 4 / 4 = 1 (extracted / actual, the thesis's figures)
 *   recall_correct = 3 / 4 = 0.75
 *   F1             = 2 × 0.75 × 1 / 1.75 = 6 / 7
 *   F1_correct     = 0.75 */
static void
test_both_recalls (void)
{
  g_autoptr(GPtrArray) actual = records ("Alpha | 1 May 2014 | Ann Lee",
                                         "Beta | 2 May 2014 | Bob Ray",
                                         "Gamma | 3 May 2014 | Cy Young",
                                         "Delta | 4 May 2014 | Di Moss", NULL);
  g_autoptr(GPtrArray) extracted = records ("Title | Date | Author",
                                            "Alpha | 1 May 2014 | Ann Lee",
                                            "Beta | 2 May 2014 | Bob Ray",
                                            "Delta | 4 May 2014 | Di Moss", NULL);
  CgRecordScore score;
  g_autoptr(GArray) matches = cg_record_metrics_align (actual, extracted, NULL, &score);

  g_assert_cmpuint (score.n_actual, ==, 4);
  g_assert_cmpuint (score.n_extracted, ==, 4);
  g_assert_cmpuint (score.n_correct, ==, 3);
  g_assert_cmpfloat (score.precision, ==, 0.75);
  g_assert_cmpfloat (score.recall, ==, 1);
  g_assert_cmpfloat (score.recall_correct, ==, 0.75);
  g_assert_cmpfloat_with_epsilon (score.f1, 6.0 / 7.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (score.f1_correct, 0.75, 1e-12);

  g_assert_cmpint (match_at (matches, 0)->actual, ==, -1);
  g_assert_false (match_at (matches, 0)->correct);
  g_assert_cmpint (match_at (matches, 3)->actual, ==, 3);
}

/* More than 60 % of the items: 3 of 5 is not enough, 4 of 5 is. */
static void
test_item_share (void)
{
  g_autoptr(GPtrArray) actual = records ("Aa one | Bb two | Cc three | Dd four | Ee five",
                                         "Ff six | Gg seven | Hh eight | Ii nine | Jj ten", NULL);
  g_autoptr(GPtrArray) extracted = records ("Aa one | Bb two | Cc three",
                                            "Ff six | Gg seven | Hh eight | Ii nine", NULL);
  CgRecordScore score;
  g_autoptr(GArray) matches = cg_record_metrics_align (actual, extracted, NULL, &score);
  CgRecordMetricsOptions options;
  g_autoptr(GArray) lenient = NULL;

  g_assert_cmpuint (match_at (matches, 0)->n_found, ==, 3);
  g_assert_false (match_at (matches, 0)->correct);
  g_assert_cmpuint (match_at (matches, 1)->n_found, ==, 4);
  g_assert_true (match_at (matches, 1)->correct);
  g_assert_cmpuint (score.n_correct, ==, 1);
  g_assert_cmpfloat (score.precision, ==, 0.5);

  /* The share is an option. */
  cg_record_metrics_options_init (&options);
  options.item_share = 0.5;
  lenient = cg_record_metrics_align (actual, extracted, &options, NULL);
  g_assert_true (match_at (lenient, 0)->correct);
}

/* Two records merged into one: the merged record is wrong, and the other
 * actual record is not extracted. */
static void
test_merged (void)
{
  g_autoptr(GPtrArray) actual = records ("Alpha | Ann Lee | £5.00",
                                         "Beta | Bob Ray | £6.00",
                                         "Gamma | Cy Young | £7.00", NULL);
  g_autoptr(GPtrArray) extracted = records ("Alpha | Ann Lee | £5.00 | Beta | Bob Ray | £6.00",
                                            "Gamma | Cy Young | £7.00", NULL);
  CgRecordScore score;
  g_autoptr(GArray) matches = cg_record_metrics_align (actual, extracted, NULL, &score);

  g_assert_cmpint (match_at (matches, 0)->actual, >=, 0);
  g_assert_false (match_at (matches, 0)->segmented);
  g_assert_false (match_at (matches, 0)->correct);
  g_assert_true (match_at (matches, 1)->correct);
  g_assert_cmpuint (score.n_correct, ==, 1);
  g_assert_cmpfloat (score.recall, ==, 2.0 / 3.0);
  g_assert_cmpfloat (score.recall_correct, ==, 1.0 / 3.0);
}

/* Boundaries one item off: each record holds more than 60 % of its own
 * items, but the next record's title went into the previous record, so
 * neither is segmented correctly. */
static void
test_misplaced (void)
{
  g_autoptr(GPtrArray) actual = records ("Alpha title | Ann Lee | Paperback | £5.00",
                                         "Beta title | Bob Ray | Paperback | £6.00",
                                         "Gamma title | Cy Young | Hardback | £7.00", NULL);
  g_autoptr(GPtrArray) extracted = records ("Alpha title | Ann Lee | Paperback | £5.00 | Beta title",
                                            "Bob Ray | Paperback | £6.00",
                                            "Gamma title | Cy Young | Hardback | £7.00", NULL);
  CgRecordScore score;
  g_autoptr(GArray) matches = cg_record_metrics_align (actual, extracted, NULL, &score);

  g_assert_cmpint (match_at (matches, 0)->actual, ==, 0);
  g_assert_cmpint (match_at (matches, 1)->actual, ==, 1);
  g_assert_cmpuint (match_at (matches, 1)->n_found, ==, 3);
  g_assert_false (match_at (matches, 0)->segmented);
  g_assert_false (match_at (matches, 1)->segmented);
  g_assert_true (match_at (matches, 2)->correct);
  g_assert_cmpuint (score.n_correct, ==, 1);

  /* A value that two records share, or a stray digit, accuses nothing:
   * "Paperback" is in both records, "5" too short to count. */
  {
    g_autoptr(GPtrArray) shared_actual = records ("Alpha title | Paperback | 5",
                                                  "Beta title | Paperback | 6", NULL);
    g_autoptr(GPtrArray) shared_extracted = records ("Alpha title | Paperback | 5 | 6",
                                                     "Beta title | Paperback | 6", NULL);
    CgRecordScore shared;
    g_autoptr(GArray) shared_matches = cg_record_metrics_align (shared_actual, shared_extracted,
                                                                 NULL, &shared);

    g_assert_cmpuint (shared.n_correct, ==, 2);
  }
}

/* Values cut off with an ellipsis, and values copied with small
 * differences. */
static void
test_fuzzy (void)
{
  g_autoptr(GPtrArray) actual = records ("The quick brown fo…",
                                         "Pack my box with five dozen liquor jugs",
                                         "Sphinx of black quartz...",
                                         "Wal…", NULL);
  g_autoptr(GPtrArray) extracted = records ("The quick brown fox jumps over the lazy dog",
                                            "Pack my box with six dozen liquor jugs",
                                            "Sphinx of black quartz, judge my vow",
                                            "Waltz, bad nymph", NULL);
  g_autoptr(GPtrArray) wrong = records ("The quick red fox",
                                        "Pack my bag with five jugs",
                                        "Sphinx of white quartz",
                                        "Jigs", NULL);
  CgRecordScore score;
  g_autoptr(GArray) matches = cg_record_metrics_align (actual, extracted, NULL, &score);
  g_autoptr(GArray) wrong_matches = NULL;

  g_assert_cmpuint (score.n_correct, ==, 4);
  for (guint j = 0; j < 4; j++)
    g_assert_cmpint (match_at (matches, j)->actual, ==, (int) j);

  /* "Pack my bag with five jugs" has 5 of the 8 words: under 80 %. */
  wrong_matches = cg_record_metrics_align (actual, wrong, NULL, &score);
  g_assert_cmpuint (score.n_correct, ==, 0);
}

/* Empty values and records do not count; a page with nothing extracted
 * has precision 0 and recall 0. */
static void
test_empty (void)
{
  g_autoptr(GPtrArray) actual = records ("Alpha | | ★", "|", "Beta | ", NULL);
  g_autoptr(GPtrArray) nothing = g_ptr_array_new ();
  g_autoptr(GPtrArray) extracted = records ("Alpha", "Beta", NULL);
  CgRecordScore score;
  g_autoptr(GArray) none = cg_record_metrics_align (actual, nothing, NULL, &score);
  g_autoptr(GArray) matches = NULL;

  g_assert_cmpuint (none->len, ==, 0);
  g_assert_cmpuint (score.n_actual, ==, 2);
  g_assert_cmpfloat (score.precision, ==, 0);
  g_assert_cmpfloat (score.recall, ==, 0);
  g_assert_cmpfloat (score.f1, ==, 0);

  matches = cg_record_metrics_align (actual, extracted, NULL, &score);
  g_assert_cmpuint (score.n_correct, ==, 2);
  /* The second actual record ("|") was left out, so Beta is the second. */
  g_assert_cmpint (match_at (matches, 1)->actual, ==, 2);
}

/* Pages are pooled by their counts, as the thesis's tables are. */
static void
test_pooling (void)
{
  CgRecordScore total, page;

  cg_record_score_init (&total);
  cg_record_score_init (&page);
  page.n_actual = 10;
  page.n_extracted = 8;
  page.n_aligned = 8;
  page.n_correct = 8;
  cg_record_score_add (&total, &page);
  page.n_actual = 30;
  page.n_extracted = 32;
  page.n_aligned = 30;
  page.n_correct = 28;
  cg_record_score_add (&total, &page);

  g_assert_cmpuint (total.n_actual, ==, 40);
  g_assert_cmpuint (total.n_extracted, ==, 40);
  g_assert_cmpuint (total.n_correct, ==, 36);
  g_assert_cmpfloat (total.precision, ==, 0.9);
  g_assert_cmpfloat (total.recall, ==, 1);
  g_assert_cmpfloat (total.recall_correct, ==, 0.9);
  g_assert_cmpfloat_with_epsilon (total.f1, 2 * 0.9 / 1.9, 1e-12);

  /* The thesis's ViNTs-2 counts (Table 4.7): 2489 actual, 2452 extracted,
   * 2417 correct give its 98.6 % precision and 98.5 % recall, and 97.1 %
   * with the stricter recall. */
  cg_record_score_init (&total);
  total.n_actual = 2489;
  total.n_extracted = 2452;
  total.n_correct = 2417;
  cg_record_score_update (&total);
  g_assert_cmpfloat_with_epsilon (total.precision, 0.986, 0.0005);
  g_assert_cmpfloat_with_epsilon (total.recall, 0.985, 0.0005);
  g_assert_cmpfloat_with_epsilon (total.recall_correct, 0.971, 0.0005);
}

/* Element-level scoring of record containers. */
static void
test_nodes (void)
{
  const char *html = "<html><body><ul><li>a</li><li>b</li><li>c</li><li>d</li></ul><p>x</p></body></html>";
  g_autoptr(GError) error = NULL;
  g_autoptr(xmlDoc) doc = cg_page_parse (html, strlen (html), "http://t.test/", NULL, &error);
  g_autoptr(GPtrArray) truth = NULL;
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GPtrArray) paragraph = NULL;
  CgRecordScore score;

  g_assert_no_error (error);
  truth = cg_dom_xpath_eval (doc, NULL, "//li", &error);
  g_assert_no_error (error);
  paragraph = cg_dom_xpath_eval (doc, NULL, "//p", &error);
  g_assert_no_error (error);
  found = g_ptr_array_new ();
  g_ptr_array_add (found, g_ptr_array_index (truth, 0));
  g_ptr_array_add (found, g_ptr_array_index (truth, 1));
  g_ptr_array_add (found, g_ptr_array_index (truth, 1));
  g_ptr_array_add (found, g_ptr_array_index (paragraph, 0));

  cg_record_metrics_score_nodes (truth, found, &score);
  g_assert_cmpuint (score.n_actual, ==, 4);
  g_assert_cmpuint (score.n_extracted, ==, 3);
  g_assert_cmpuint (score.n_correct, ==, 2);
  g_assert_cmpfloat_with_epsilon (score.precision, 2.0 / 3.0, 1e-12);
  g_assert_cmpfloat (score.recall_correct, ==, 0.5);

  /* A wrapper whose only content is a record container stands for it; a
   * wrapper with text of its own, or two children, does not. */
  {
    const char *wrapped = "<html><body><div id=\"a\"> <div> <div class=\"r\">one</div> </div> </div>"
                          "<div id=\"b\">label<div class=\"r\">two</div></div>"
                          "<div id=\"c\"><div class=\"r\">three</div><p>x</p></div></body></html>";
    g_autoptr(xmlDoc) other = cg_page_parse (wrapped, strlen (wrapped), "http://t.test/", NULL, &error);
    g_autoptr(GPtrArray) containers = NULL;
    g_autoptr(GPtrArray) wrappers = NULL;

    g_assert_no_error (error);
    containers = cg_dom_xpath_eval (other, NULL, "//div[@class='r']", &error);
    g_assert_no_error (error);
    wrappers = cg_dom_xpath_eval (other, NULL, "/html/body/div", &error);
    g_assert_no_error (error);
    cg_record_metrics_score_nodes (containers, wrappers, &score);
    g_assert_cmpuint (score.n_extracted, ==, 3);
    g_assert_cmpuint (score.n_correct, ==, 1);
  }
}

/* The texts of a ClustVX region, in the aligner's form. */
static void
test_region_texts (void)
{
  const char *html = "<html><body><ul><li><a href=\"/1\">One</a><img src=\"/1.png\" alt=\"Cover one\"></li>"
                     "<li><a href=\"/2\">Two</a><img src=\"/2.png\" alt=\"\"></li></ul></body></html>";
  g_autoptr(GError) error = NULL;
  g_autoptr(xmlDoc) doc = cg_page_parse (html, strlen (html), "http://t.test/", NULL, &error);
  g_autoptr(CgClustvxResult) result = cg_clustvx_extract (doc, NULL, &error);
  g_autoptr(GPtrArray) texts = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;

  g_assert_no_error (error);
  texts = cg_record_metrics_region_texts (g_ptr_array_index (result->regions, 0));
  g_assert_cmpuint (texts->len, ==, 2);
  first = g_strjoinv ("|", g_ptr_array_index (texts, 0));
  second = g_strjoinv ("|", g_ptr_array_index (texts, 1));
  g_assert_cmpstr (first, ==, "One|Cover one");
  g_assert_cmpstr (second, ==, "Two|");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/record-metrics/normalize", test_normalize);
  g_test_add_func ("/record-metrics/perfect", test_perfect);
  g_test_add_func ("/record-metrics/both-recalls", test_both_recalls);
  g_test_add_func ("/record-metrics/item-share", test_item_share);
  g_test_add_func ("/record-metrics/merged", test_merged);
  g_test_add_func ("/record-metrics/misplaced", test_misplaced);
  g_test_add_func ("/record-metrics/fuzzy", test_fuzzy);
  g_test_add_func ("/record-metrics/empty", test_empty);
  g_test_add_func ("/record-metrics/pooling", test_pooling);
  g_test_add_func ("/record-metrics/nodes", test_nodes);
  g_test_add_func ("/record-metrics/region-texts", test_region_texts);

  return g_test_run ();
}
