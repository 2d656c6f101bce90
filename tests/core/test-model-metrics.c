/* test-model-metrics.c: clustering measures against values worked out by hand.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "cg-model-metrics.h"

#define assert_close(a, b) g_assert_cmpfloat_with_epsilon ((a), (b), 1e-6)

/* Golden A = {p1,p2,p3}, B = {p4,p5,p6}; computed X = {p1,p2}, Y = {p3..p6}.
 *
 *   F(A,X): P = 2/2, R = 2/3, F = 0.8      F(A,Y): P = 1/4, R = 1/3, F = 2/7
 *   F(B,Y): P = 3/4, R = 1,   F = 6/7
 *   F*      = 0.8·3/6 + 6/7·3/6 = 0.828571…
 *   H(X) = 0, H(Y) = −(¼ log2 ¼ + ¾ log2 ¾) = 0.811278; H = 0.811278·4/6 = 0.540852
 *   Purity  = (2 + 3) / 6 = 0.833333
 *   Pairs in one computed cluster: 1 + 6 = 7; in one golden class: 3 + 3 = 6;
 *   in both: 1 (p1p2) + 3 (within p4..p6) = 4 → P = 4/7, R = 4/6.
 *   Links: golden A→B list (found as X→Y list), B→B list (computed Y→Y is a
 *   singleton: not found), A→A menu (not found) → recall 3 / 9. */
static void
test_known_answers (void)
{
  g_autoptr(CgModelEvaluation) evaluation = cg_model_evaluation_new ();
  CgModelScores scores;

  cg_model_evaluation_add_page (evaluation, "p1", "A", "X");
  cg_model_evaluation_add_page (evaluation, "p2", "A", "X");
  cg_model_evaluation_add_page (evaluation, "p3", "A", "Y");
  cg_model_evaluation_add_page (evaluation, "p4", "B", "Y");
  cg_model_evaluation_add_page (evaluation, "p5", "B", "Y");
  cg_model_evaluation_add_page (evaluation, "p6", "B", "Y");
  cg_model_evaluation_add_golden_link (evaluation, "A", "B", "list");
  cg_model_evaluation_add_golden_link (evaluation, "B", "B", "list");
  cg_model_evaluation_add_golden_link (evaluation, "A", "A", "menu");
  cg_model_evaluation_add_computed_link (evaluation, "X", "Y", "list");
  cg_model_evaluation_add_computed_link (evaluation, "Y", "Y", "singleton");
  cg_model_evaluation_compute (evaluation, &scores);

  g_assert_cmpuint (scores.n_pages, ==, 6);
  g_assert_cmpuint (scores.n_golden, ==, 2);
  g_assert_cmpuint (scores.n_computed, ==, 2);
  assert_close (scores.f_star, 0.4 + 3.0 / 7.0);
  assert_close (scores.entropy, (0.5 - 0.75 * log2 (0.75)) * 4.0 / 6.0);
  assert_close (scores.purity, 5.0 / 6.0);
  assert_close (scores.pairwise_precision, 4.0 / 7.0);
  assert_close (scores.pairwise_recall, 4.0 / 6.0);
  assert_close (scores.class_link_recall, 1.0 / 3.0);
  g_assert_cmpstr (cg_model_evaluation_get_match (evaluation, "A"), ==, "X");
  g_assert_cmpstr (cg_model_evaluation_get_match (evaluation, "B"), ==, "Y");
}

static void
test_perfect (void)
{
  g_autoptr(CgModelEvaluation) evaluation = cg_model_evaluation_new ();
  CgModelScores scores;

  for (int i = 0; i < 10; i++)
    {
      g_autofree char *page = g_strdup_printf ("p%d", i);

      /* The names of computed classes do not matter, only the grouping. */
      cg_model_evaluation_add_page (evaluation, page, i < 4 ? "list" : "detail", i < 4 ? "c1" : "c2");
    }
  cg_model_evaluation_compute (evaluation, &scores);
  assert_close (scores.f_star, 1.0);
  assert_close (scores.entropy, 0.0);
  assert_close (scores.purity, 1.0);
  assert_close (scores.pairwise_f1, 1.0);
  assert_close (scores.class_link_recall, -1.0);
}

/* Unclassified pages are clusters of one: A = 4 pages, two in X, two left
 * unclassified. F(A,X) = 2·1·½ / 1½ = ⅔; purity (2 + 1 + 1) / 4 = 1. */
static void
test_unclassified_not_a_class (void)
{
  g_autoptr(CgModelEvaluation) evaluation = cg_model_evaluation_new ();
  CgModelScores scores;

  cg_model_evaluation_add_page (evaluation, "p1", "A", "X");
  cg_model_evaluation_add_page (evaluation, "p2", "A", "X");
  cg_model_evaluation_add_page (evaluation, "p3", "A", NULL);
  cg_model_evaluation_add_page (evaluation, "p4", "A", "unclassified");
  cg_model_evaluation_compute (evaluation, &scores);
  g_assert_cmpuint (scores.n_computed, ==, 3);
  assert_close (scores.f_star, 2.0 / 3.0);
  assert_close (scores.purity, 1.0);
  assert_close (scores.pairwise_precision, 1.0);
  assert_close (scores.pairwise_recall, 1.0 / 6.0);
}

/* Everything in one cluster: purity is the share of the largest class. */
static void
test_one_cluster (void)
{
  g_autoptr(CgModelEvaluation) evaluation = cg_model_evaluation_new ();
  CgModelScores scores;

  cg_model_evaluation_add_page (evaluation, "p1", "A", "X");
  cg_model_evaluation_add_page (evaluation, "p2", "B", "X");
  cg_model_evaluation_add_page (evaluation, "p3", "B", "X");
  cg_model_evaluation_add_page (evaluation, "p4", "C", "X");
  cg_model_evaluation_compute (evaluation, &scores);
  assert_close (scores.purity, 0.5);
  /* H = −(¼ log2 ¼ + ½ log2 ½ + ¼ log2 ¼) = 1.5 bits. */
  assert_close (scores.entropy, 1.5);
  /* F(A,X) = 2·¼·1/1¼ = 0.4; F(B,X) = 2·½·1/1½ = ⅔; F(C,X) = 0.4. */
  assert_close (scores.f_star, 0.4 * 0.25 + (2.0 / 3.0) * 0.5 + 0.4 * 0.25);
}

static void
test_empty (void)
{
  g_autoptr(CgModelEvaluation) evaluation = cg_model_evaluation_new ();
  CgModelScores scores;

  cg_model_evaluation_compute (evaluation, &scores);
  g_assert_cmpuint (scores.n_pages, ==, 0);
  assert_close (scores.f_star, 0.0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/model-metrics/known-answers", test_known_answers);
  g_test_add_func ("/model-metrics/perfect", test_perfect);
  g_test_add_func ("/model-metrics/unclassified-not-a-class", test_unclassified_not_a_class);
  g_test_add_func ("/model-metrics/one-cluster", test_one_cluster);
  g_test_add_func ("/model-metrics/empty", test_empty);

  return g_test_run ();
}
