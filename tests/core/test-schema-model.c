/* test-schema-model.c: seed 000's schemas, distances, weights and MDL, against hand-worked values.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "cg-schema-model.h"

#define assert_close(a, b) g_assert_cmpfloat_with_epsilon ((a), (b), 1e-9)

static guint
add_links (CgSchemaModel *model,
           guint          n_urls,
           const char    *paths)
{
  g_auto(GStrv) split = g_strsplit (paths, " ", -1);

  if (*paths == '\0')
    return cg_schema_model_add_page (model, n_urls, NULL, NULL, NULL);
  return cg_schema_model_add_page (model, n_urls, (const char * const *) split, NULL, NULL);
}

/* A page with link paths and one text path with its texts. */
static guint
add_texts (CgSchemaModel *model,
           const char    *links,
           const char    *text_path,
           const char    *texts)
{
  g_auto(GStrv) split = g_strsplit (links, " ", -1);
  const char *text_paths[] = { text_path, NULL };
  const char *values[] = { texts, NULL };

  return cg_schema_model_add_page (model, 1, (const char * const *) split, text_paths, values);
}

static gboolean
schema_has (CgSchemaModel *model,
            guint          klass,
            const char    *entry)
{
  g_auto(GStrv) schema = cg_schema_model_get_class_schema (model, klass);

  return g_strv_contains ((const char * const *) schema, entry);
}

/* dist = |A △ B| / |A ∪ B|: 0 for equal schemas, 1 for disjoint ones. */
static void
test_distance (void)
{
  g_autoptr(CgSchemaModel) model = cg_schema_model_new (0.8, 1.0);
  guint abc = add_links (model, 0, "a b c");
  guint bcd = add_links (model, 0, "b c d");
  guint abc2 = add_links (model, 0, "c b a");
  guint x = add_links (model, 0, "x");
  guint empty = add_links (model, 0, "");
  guint empty2 = add_links (model, 0, "");
  const char *text_paths[] = { "a", NULL };
  const char *values[] = { "A", NULL };
  guint text_a = cg_schema_model_add_page (model, 0, NULL, text_paths, values);
  guint link_a = add_links (model, 0, "a");
  guint pair[] = { abc, x };

  assert_close (cg_schema_model_distance (model, &abc, 1, &bcd, 1), 2.0 / 4.0);
  assert_close (cg_schema_model_distance (model, &abc, 1, &abc2, 1), 0.0);
  assert_close (cg_schema_model_distance (model, &abc, 1, &x, 1), 1.0);
  assert_close (cg_schema_model_distance (model, &empty, 1, &empty2, 1), 0.0);
  assert_close (cg_schema_model_distance (model, &empty, 1, &x, 1), 1.0);
  /* A text and a link at the same path are different paths. */
  assert_close (cg_schema_model_distance (model, &text_a, 1, &link_a, 1), 1.0);
  /* A group's schema is its pages' union: {a, b, c, x} against {b, c, d}. */
  assert_close (cg_schema_model_distance (model, pair, 2, &bcd, 1), 3.0 / 5.0);
  g_assert_true (cg_schema_model_same_schema (model, abc, abc2));
  g_assert_false (cg_schema_model_same_schema (model, abc, bcd));
}

static guint
n_in (GPtrArray *candidates,
      guint      index)
{
  return ((GArray *) candidates->pdata[index])->len;
}

static guint
page_in (GPtrArray *candidates,
         guint      index,
         guint      position)
{
  return g_array_index ((GArray *) candidates->pdata[index], guint, position);
}

/* Identical schemas first, largest group first, then small groups drawn
 * into larger ones while closer than dt. */
static void
test_candidates (void)
{
  g_autoptr(CgSchemaModel) model = cg_schema_model_new (0.8, 1.0);
  const char *base = "p0 p1 p2 p3 p4 p5 p6 p7 p8";
  g_autofree char *near_paths = g_strconcat (base, " extra", NULL);
  guint far = add_links (model, 0, "q0 q1 q2");
  guint a1 = add_links (model, 0, base);
  guint near = add_links (model, 0, near_paths);
  guint a2 = add_links (model, 0, base);
  guint a3 = add_links (model, 0, base);
  guint pages[] = { far, a1, near, a2, a3 };

  /* near differs from the a's by 1 path in 10: 0.1 < 0.2. */
  {
    g_autoptr(GPtrArray) candidates = cg_schema_model_select_candidates (model, pages, 5, 0.2);

    g_assert_cmpuint (candidates->len, ==, 2);
    g_assert_cmpuint (n_in (candidates, 0), ==, 4);
    g_assert_cmpuint (page_in (candidates, 0, 0), ==, a1);
    g_assert_cmpuint (page_in (candidates, 0, 1), ==, a2);
    g_assert_cmpuint (page_in (candidates, 0, 2), ==, a3);
    g_assert_cmpuint (page_in (candidates, 0, 3), ==, near);
    g_assert_cmpuint (n_in (candidates, 1), ==, 1);
    g_assert_cmpuint (page_in (candidates, 1, 0), ==, far);
  }
  /* With dt 0.1 the distance is no longer below it. */
  {
    g_autoptr(GPtrArray) candidates = cg_schema_model_select_candidates (model, pages, 5, 0.1);

    g_assert_cmpuint (candidates->len, ==, 3);
    g_assert_cmpuint (n_in (candidates, 0), ==, 3);
    g_assert_cmpuint (page_in (candidates, 1, 0), ==, far);
    g_assert_cmpuint (page_in (candidates, 2, 0), ==, near);
  }
}

/* weight = 1 / (tf·idf + 1), natural log: the summary's check case
 * |P| = 4, a path on both pages of a two-page class and nowhere else. */
static void
test_weights (void)
{
  g_autoptr(CgSchemaModel) model = cg_schema_model_new (0.8, 1.0);
  guint class_a[2];
  guint class_b[2];
  guint a;

  assert_close (cg_schema_path_weight (2, 2, 2, 4), 1.0 / (log (2.0) + 1.0));
  g_assert_cmpfloat (fabs (cg_schema_path_weight (2, 2, 2, 4) - 0.5906), <, 0.00005);
  /* A site path, on every page: idf 0, weight 1. */
  assert_close (cg_schema_path_weight (4, 4, 4, 4), 1.0);
  /* A path on one page in ten of its class, one in a hundred overall. */
  assert_close (cg_schema_path_weight (1, 10, 1, 100), 1.0 / (0.1 * log (100.0) + 1.0));

  /* The same through a model: enc(C) of a class whose schema is that
   * one path. */
  class_a[0] = add_links (model, 0, "cp");
  class_a[1] = add_links (model, 0, "cp");
  class_b[0] = add_links (model, 0, "dp");
  class_b[1] = add_links (model, 0, "dp");
  a = cg_schema_model_add_class (model, class_a, 2);
  cg_schema_model_add_class (model, class_b, 2);
  g_assert_cmpfloat (fabs (cg_schema_model_encode_class (model, a) - 0.5906), <, 0.00005);
}

/* The thesis's example (§3.3.4.2): C_A has the schema {cp1, cp2, cp3}
 * and p1 = {cp1(url11, url12), cp3(url31, url32, url33)}:
 *
 *   enc(p1, C_A) = 5 + c_index·w(cp1) + c_index·w(cp3) + c_miss·w(cp2)
 *
 * The thesis's C_A holds p1 alone, which could not give it cp2; here p2 =
 * {cp2} is its second page, and C_B = {p3} with p3 = {cp4}. Every path is
 * on one page of its class and one of the three pages: tf ½ in C_A, 1 in
 * C_B, idf ln 3. */
static void
test_encoding (void)
{
  g_autoptr(CgSchemaModel) model = cg_schema_model_new (0.8, 1.0);
  guint p1 = add_links (model, 5, "cp1 cp3");
  guint p2 = add_links (model, 1, "cp2");
  guint p3 = add_links (model, 2, "cp4");
  guint members_a[] = { p1, p2 };
  guint a = cg_schema_model_add_class (model, members_a, 2);
  guint b = cg_schema_model_add_class (model, &p3, 1);
  double w_a = 1.0 / (0.5 * log (3.0) + 1.0);
  double w_b = 1.0 / (log (3.0) + 1.0);

  assert_close (cg_schema_model_encode_page (model, p1, a), 5 + 0.8 * w_a + 0.8 * w_a + 1.0 * w_a);
  assert_close (cg_schema_model_encode_page (model, p2, a), 1 + 0.8 * w_a + 1.0 * w_a + 1.0 * w_a);
  assert_close (cg_schema_model_encode_page (model, p3, b), 2 + 0.8 * w_b);
  /* enc(M) = w(cp1, C_A) + w(cp2, C_A) + w(cp3, C_A) + w(cp4, C_B). */
  assert_close (cg_schema_model_encode_class (model, a), 3 * w_a);
  assert_close (cg_schema_model_encode_class (model, b), w_b);
  /* MDL(M) = enc(M) + enc(D|M). */
  assert_close (cg_schema_model_get_mdl (model),
                cg_schema_model_encode_class (model, a) + cg_schema_model_encode_class (model, b) +
                cg_schema_model_encode_page (model, p1, a) + cg_schema_model_encode_page (model, p2, a) +
                cg_schema_model_encode_page (model, p3, b));
  g_assert_cmpint (cg_schema_model_get_page_class (model, p2), ==, (int) a);
}

/* The texts of a path are in the class schema when two pages share them
 * and the path is on at least half of the class's pages; a class of one
 * page has no text path. A page still pays for its other paths. */
static void
test_text_schema (void)
{
  g_autoptr(CgSchemaModel) model = cg_schema_model_new (0.8, 1.0);
  guint same[2];
  guint differ[2];
  guint lone;
  guint optional[6];
  guint k_same, k_differ, k_lone, k_optional;

  same[0] = add_texts (model, "nav", "h2", "Reviews");
  same[1] = add_texts (model, "nav", "h2", "Reviews");
  differ[0] = add_texts (model, "nav", "h1", "A book");
  differ[1] = add_texts (model, "nav", "h1", "Another book");
  lone = add_texts (model, "nav", "h3", "Contact");
  /* A "was" price on two of six pages, the same by chance. */
  for (guint i = 0; i < 6; i++)
    optional[i] = i < 2 ? add_texts (model, "nav", "del", "£9.99") : add_links (model, 1, "nav");

  k_same = cg_schema_model_add_class (model, same, 2);
  k_differ = cg_schema_model_add_class (model, differ, 2);
  k_lone = cg_schema_model_add_class (model, &lone, 1);
  k_optional = cg_schema_model_add_class (model, optional, 6);
  g_assert_true (schema_has (model, k_same, "T h2"));
  g_assert_true (schema_has (model, k_same, "L nav"));
  g_assert_false (schema_has (model, k_differ, "T h1"));
  g_assert_false (schema_has (model, k_lone, "T h3"));
  g_assert_true (schema_has (model, k_lone, "L nav"));
  g_assert_false (schema_has (model, k_optional, "T del"));

  /* h1 is in no schema but each of its pages pays an index for it, with
   * its weight in the class (on both pages: tf 1; on 2 of 11 pages). */
  {
    double w_nav = 1.0;
    double w_h1 = 1.0 / (log (11.0 / 2.0) + 1.0);

    assert_close (cg_schema_model_encode_page (model, differ[0], k_differ), 1 + 0.8 * w_nav + 0.8 * w_h1);
  }
}

/* Builds the same pages in a fresh model: classes[i] lists page numbers,
 * -1 ends a class. */
static CgSchemaModel *
rebuild (const char * const *pages,
         const int          *classes)
{
  CgSchemaModel *model = cg_schema_model_new (0.8, 1.0);
  g_autoptr(GArray) members = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; pages[i] != NULL; i++)
    add_links (model, 3, pages[i]);
  for (guint i = 0; classes[i] != -2; i++)
    {
      if (classes[i] == -1)
        {
          cg_schema_model_add_class (model, (guint *) members->data, members->len);
          g_array_set_size (members, 0);
        }
      else
        {
          guint page = (guint) classes[i];

          g_array_append_val (members, page);
        }
    }
  return model;
}

/* The update picks the lower MDL of "new class" and "best merge", the
 * weights recomputed for each hypothesis: the values it compares are the
 * MDLs of the two models built outright. */
static void
test_update (void)
{
  static const char * const pages[] = {
    "site menu list l1 l2 l3",          /* 0–2: lists */
    "site menu list l1 l2 l3",
    "site menu list l1 l2 l4",
    "site menu detail d1 d2 d3 d4",     /* 3–5: details */
    "site menu detail d1 d2 d3 d4",
    "site menu detail d1 d2 d3",
    "site menu list l1 l2 l3",          /* 6: another list */
    "site about a1 a2 a3 a4 a5",        /* 7: something else */
    NULL,
  };
  static const int before[] = { 0, 1, 2, -1, 3, 4, 5, -1, -2 };
  static const int list_merged[] = { 0, 1, 2, 6, -1, 3, 4, 5, -1, -2 };
  static const int list_new[] = { 0, 1, 2, -1, 3, 4, 5, -1, 6, -1, -2 };
  g_autoptr(CgSchemaModel) model = rebuild (pages, before);
  guint list = 6;
  guint other = 7;
  double mdl_new;
  double mdl_merged;
  int best;

  cg_schema_model_evaluate (model, &list, 1, &mdl_new, &mdl_merged, &best);
  g_assert_cmpint (best, ==, 0);
  {
    g_autoptr(CgSchemaModel) merged = rebuild (pages, list_merged);
    g_autoptr(CgSchemaModel) alone = rebuild (pages, list_new);

    /* The rebuilt models also hold page 7, in no class: not in P. */
    g_assert_cmpfloat_with_epsilon (cg_schema_model_get_mdl (merged), mdl_merged, 1e-6);
    g_assert_cmpfloat_with_epsilon (cg_schema_model_get_mdl (alone), mdl_new, 1e-6);
  }
  g_assert_cmpfloat (mdl_merged, <, mdl_new);
  g_assert_cmpuint (cg_schema_model_update (model, &list, 1), ==, 0);
  g_assert_cmpuint (cg_schema_model_get_n_classes (model), ==, 2);
  assert_close (cg_schema_model_get_mdl (model), mdl_merged);

  /* A page with its own structure is cheaper as a class of its own. */
  cg_schema_model_evaluate (model, &other, 1, &mdl_new, &mdl_merged, &best);
  g_assert_cmpfloat (mdl_new, <, mdl_merged);
  g_assert_cmpuint (cg_schema_model_update (model, &other, 1), ==, 2);
  g_assert_cmpuint (cg_schema_model_get_n_classes (model), ==, 3);
  assert_close (cg_schema_model_get_mdl (model), mdl_new);

  /* With no class at all there is nothing to merge into. */
  {
    g_autoptr(CgSchemaModel) empty = cg_schema_model_new (0.8, 1.0);
    guint page = add_links (empty, 1, "x");

    cg_schema_model_evaluate (empty, &page, 1, &mdl_new, &mdl_merged, &best);
    g_assert_cmpint (best, ==, -1);
    g_assert_cmpfloat (mdl_merged, ==, G_MAXDOUBLE);
    g_assert_cmpuint (cg_schema_model_update (empty, &page, 1), ==, 0);
  }
}

/* A merge the caller forbids is not taken, and two classes merged whole
 * give the model built with them as one from the start. */
static void
test_merge_classes (void)
{
  static const char * const pages[] = {
    "site menu list l1 l2 l3",          /* 0–1: lists */
    "site menu list l1 l2 l3",
    "site menu detail d1 d2 d3 d4",     /* 2–3: details */
    "site menu detail d1 d2 d3 d4",
    "site menu list l1 l2 l4",          /* 4: a list */
    NULL,
  };
  static const int before[] = { 0, 1, -1, 2, 3, -1, -2 };
  static const int lists_together[] = { 2, 3, -1, 0, 1, 4, -1, -2 };
  g_autoptr(CgSchemaModel) model = rebuild (pages, before);
  g_autoptr(CgSchemaModel) expected = rebuild (pages, lists_together);
  const gboolean not_lists[] = { FALSE, TRUE };
  guint list = 4;
  guint n_pages = 0;
  const guint *members;

  /* Unconstrained, page 4 would join the lists (class 0); forbidden to,
   * it is a class of its own rather than a member of the details. */
  {
    double mdl_new;
    double mdl_merged;
    int best;

    cg_schema_model_evaluate (model, &list, 1, &mdl_new, &mdl_merged, &best);
    g_assert_cmpint (best, ==, 0);
  }
  g_assert_cmpuint (cg_schema_model_update_among (model, &list, 1, not_lists), ==, 2);
  g_assert_cmpuint (cg_schema_model_get_n_classes (model), ==, 3);

  /* Merging class 2 into class 0, then class 0 into class 1 (the details
   * first and renumbered down), leaves the lists' class as class 1 and
   * the details' as class 0, as in @lists_together. */
  cg_schema_model_merge_classes (model, 0, 2);
  g_assert_cmpuint (cg_schema_model_get_n_classes (model), ==, 2);
  g_assert_cmpint (cg_schema_model_get_page_class (model, 4), ==, 0);
  cg_schema_model_merge_classes (model, 1, 0);
  g_assert_cmpuint (cg_schema_model_get_n_classes (model), ==, 1);
  g_assert_cmpint (cg_schema_model_get_page_class (model, 0), ==, 0);
  g_assert_cmpint (cg_schema_model_get_page_class (model, 2), ==, 0);
  members = cg_schema_model_get_class_pages (model, 0, &n_pages);
  g_assert_cmpuint (n_pages, ==, 5);
  g_assert_cmpuint (members[0], ==, 2);
  g_assert_cmpuint (members[2], ==, 0);

  /* The lists merged alone give the same MDL as the model built so. */
  {
    g_autoptr(CgSchemaModel) again = rebuild (pages, before);

    g_assert_cmpuint (cg_schema_model_update_among (again, &list, 1, not_lists), ==, 2);
    cg_schema_model_merge_classes (again, 0, 2);
    assert_close (cg_schema_model_get_mdl (again), cg_schema_model_get_mdl (expected));
    g_assert_cmpint (cg_schema_model_get_page_class (again, 2), ==, 1);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/schema-model/distance", test_distance);
  g_test_add_func ("/schema-model/candidates", test_candidates);
  g_test_add_func ("/schema-model/weights", test_weights);
  g_test_add_func ("/schema-model/encoding", test_encoding);
  g_test_add_func ("/schema-model/text-schema", test_text_schema);
  g_test_add_func ("/schema-model/update", test_update);
  g_test_add_func ("/schema-model/merge-classes", test_merge_classes);

  return g_test_run ();
}
