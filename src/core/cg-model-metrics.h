/* cg-model-metrics.h: how well computed page classes match a ground truth.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint  n_pages;          /* pages with a golden class */
  guint  n_golden;         /* golden classes among them */
  guint  n_computed;       /* computed clusters among them */
  double f_star;           /* seed 000 eq. 5.6–5.8; higher is better */
  double entropy;          /* seed 000 eq. 5.9, in bits; lower is better */
  double purity;           /* seed 000 eq. 5.10 */
  double pairwise_precision;  /* seed 003 §5.1 */
  double pairwise_recall;
  double pairwise_f1;
  double class_link_recall;   /* seed 000 eq. 5.11, when links were given; else -1 */
} CgModelScores;

typedef struct _CgModelEvaluation CgModelEvaluation;

CgModelEvaluation *cg_model_evaluation_new        (void);
void               cg_model_evaluation_free       (CgModelEvaluation *self);

void               cg_model_evaluation_add_page   (CgModelEvaluation *self,
                                                   const char        *page,
                                                   const char        *golden_class,
                                                   const char        *computed_class);
void               cg_model_evaluation_add_golden_link   (CgModelEvaluation *self,
                                                          const char        *source_class,
                                                          const char        *target_class,
                                                          const char        *type);
void               cg_model_evaluation_add_computed_link (CgModelEvaluation *self,
                                                          const char        *source_class,
                                                          const char        *target_class,
                                                          const char        *type);
void               cg_model_evaluation_compute    (CgModelEvaluation *self,
                                                   CgModelScores     *out_scores);
const char        *cg_model_evaluation_get_match  (CgModelEvaluation *self,
                                                   const char        *golden_class);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgModelEvaluation, cg_model_evaluation_free)

G_END_DECLS
