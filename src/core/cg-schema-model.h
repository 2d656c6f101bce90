/* cg-schema-model.h: seed 000's page schemas and the MDL cost of page classes.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Seed 000 (§3.2.2, §3.3.2, §3.3.4) describes a page by its schema, the
 * set of root-to-element paths of its link collections and of its text
 * collections, and groups pages into classes by the Minimum Description
 * Length principle. A CgSchemaModel holds the schemas of the pages a
 * learner has seen and their partition into classes, and computes:
 *
 *  - the Jaccard distance between the schemas of two groups of pages,
 *    |A △ B| / |A ∪ B|, where a group's schema is the union of its pages'
 *    schemas (§3.3.2);
 *  - candidate selection: pages grouped by identical schemas, the groups
 *    sorted by size and smaller groups collapsed into larger ones while
 *    their distance is below the threshold dt (Algorithm 1, lines 9–17);
 *  - the class schema: the union of the pages' link-collection paths, and
 *    the text-collection paths whose texts are the same on at least two
 *    pages of the class (§3.2.2), so a one-page class has no text path;
 *    the path must also be on at least half of the class's pages, so that
 *    a coincidence in an optional element (two books reduced from one
 *    price) is not taken for a label (see in_text_schema());
 *  - the weight of a path cp in class C, 1 / (tf·idf + 1), with
 *    tf = |{p ∈ C : cp ∈ p}| / |C| and idf = ln (|P| / |{p ∈ P : cp ∈ p}|)
 *    over the pages P of all classes (§3.3.4.1);
 *  - enc(C) = Σ_{cp ∈ schema(C)} weight (cp, C), and
 *    enc(p|C) = |urls of p| + Σ_{cp ∈ p} c_index · weight (cp, C)
 *                           + Σ_{cp ∈ schema(C), cp ∉ p} c_miss · weight (cp, C)
 *    (§3.3.4.2). The thesis's prose charges every path of the page ("for
 *    each path in the schema of p, its weight with respect to C times
 *    c_index"), its typeset formula only those also in schema(C); they
 *    agree on its worked example, where all of p's paths are in schema(C).
 *    The prose is followed: with the formula a page never pays for the
 *    texts that are not labels of its class, so a class of one page (which
 *    has no text path) is always cheaper than membership, and merging two
 *    templates costs nothing for the paths that are only one's data. For
 *    a path of p that no page of C has, tf is 0 and the weight 1;
 *  - MDL(M) = Σ_C enc(C) + Σ_C Σ_{p ∈ C} enc(p|C), and the model update:
 *    a candidate becomes a new class unless merging it into an existing
 *    class gives a strictly lower MDL, all weights recomputed for each
 *    hypothesis (Algorithm 1, lines 27–36).
 *
 * Paths are opaque strings here (the learner uses XPaths); a link path and
 * a text path with the same string are different paths. Pages and classes
 * are numbered from 0 in the order they are added. Classes only grow (or
 * are merged whole, cg_schema_model_merge_classes()): a
 * merge adds the candidate's pages to an existing class. */

/* The costs of seed 000's experiments. */
#define CG_SCHEMA_MODEL_DEFAULT_C_INDEX          0.8
#define CG_SCHEMA_MODEL_DEFAULT_C_MISS           1.0
/* The candidate merge threshold dt. */
#define CG_SCHEMA_MODEL_DEFAULT_MERGE_THRESHOLD  0.2

/* At most this many distinct paths over all pages, and this many pages;
 * the learner's sample is a few hundred pages of a few hundred paths. */
#define CG_SCHEMA_MODEL_MAX_PATHS  1000000
#define CG_SCHEMA_MODEL_MAX_PAGES  100000

typedef struct _CgSchemaModel CgSchemaModel;

CgSchemaModel *cg_schema_model_new             (double               c_index,
                                                double               c_miss);
void           cg_schema_model_free            (CgSchemaModel      *self);

/* Adds a page, in no class yet. @link_paths is NULL-terminated;
 * @text_paths and @text_values are NULL-terminated and parallel: the
 * texts of text collection i, joined, so that equal texts give equal
 * values. Repeated paths count once (the first value is kept). Returns
 * the page number, or G_MAXUINT past CG_SCHEMA_MODEL_MAX_PAGES pages
 * (paths past CG_SCHEMA_MODEL_MAX_PATHS are dropped from schemas). */
guint          cg_schema_model_add_page        (CgSchemaModel      *self,
                                                guint               n_urls,
                                                const char * const *link_paths,
                                                const char * const *text_paths,
                                                const char * const *text_values);
guint          cg_schema_model_get_n_pages     (CgSchemaModel      *self);
/* The class of @page, or -1 while it is in none. */
int            cg_schema_model_get_page_class  (CgSchemaModel      *self,
                                                guint               page);
gboolean       cg_schema_model_same_schema     (CgSchemaModel      *self,
                                                guint               page_a,
                                                guint               page_b);

/* The Jaccard distance between the schemas of two groups of pages: 0 for
 * equal schemas (two empty ones included), 1 for disjoint ones. */
double         cg_schema_model_distance        (CgSchemaModel      *self,
                                                const guint        *pages_a,
                                                guint               n_a,
                                                const guint        *pages_b,
                                                guint               n_b);

/* Candidate selection over @pages with threshold @dt. Returns GArray of
 * guint page numbers, one per candidate, largest first; pages keep their
 * order within a candidate. */
GPtrArray     *cg_schema_model_select_candidates (CgSchemaModel    *self,
                                                  const guint      *pages,
                                                  guint             n_pages,
                                                  double            dt);

/* 1 / (tf·idf + 1) for a path present on @n_class_with of the @n_class
 * pages of a class and on @n_pages_with of all @n_pages pages. */
double         cg_schema_path_weight           (guint               n_class_with,
                                                guint               n_class,
                                                guint               n_pages_with,
                                                guint               n_pages);

/* Puts @pages (in no class yet) into a new class; returns its number. */
guint          cg_schema_model_add_class       (CgSchemaModel      *self,
                                                const guint        *pages,
                                                guint               n_pages);
/* Puts @pages (in no class yet) into class @klass. */
void           cg_schema_model_merge_into      (CgSchemaModel      *self,
                                                const guint        *pages,
                                                guint               n_pages,
                                                guint               klass);
guint          cg_schema_model_get_n_classes   (CgSchemaModel      *self);
/* The pages of @klass in the order they joined it. */
const guint   *cg_schema_model_get_class_pages (CgSchemaModel      *self,
                                                guint               klass,
                                                guint              *n_pages);
/* The class schema, as "L path" and "T path" strings in path order. */
GStrv          cg_schema_model_get_class_schema (CgSchemaModel     *self,
                                                 guint              klass);

/* The measures of the current model, over the pages of all classes. */
double         cg_schema_model_encode_class    (CgSchemaModel      *self,
                                                guint               klass);
double         cg_schema_model_encode_page     (CgSchemaModel      *self,
                                                guint               page,
                                                guint               klass);
double         cg_schema_model_get_mdl         (CgSchemaModel      *self);

/* The model update for one candidate (pages in no class yet): the MDL of
 * the model with the candidate as a new class, and the lowest MDL of the
 * models with the candidate merged into one existing class (G_MAXDOUBLE
 * when there is no class), with that class in @out_best (-1 if none; the
 * first class wins a tie). Changes nothing. */
void           cg_schema_model_evaluate        (CgSchemaModel      *self,
                                                const guint        *pages,
                                                guint               n_pages,
                                                double             *out_mdl_new,
                                                double             *out_mdl_merged,
                                                int                *out_best);
/* Evaluates and applies the cheaper hypothesis; returns the class that
 * now holds the candidate. */
guint          cg_schema_model_update          (CgSchemaModel      *self,
                                                const guint        *pages,
                                                guint               n_pages);

/* The same, where the candidate may only merge into the classes whose
 * entry in @allowed (one per class) is TRUE; NULL allows all. */
guint          cg_schema_model_update_among    (CgSchemaModel      *self,
                                                const guint        *pages,
                                                guint               n_pages,
                                                const gboolean     *allowed);
/* Moves the pages of class @from into class @into and removes @from; the
 * classes after @from are renumbered down by one. */
void           cg_schema_model_merge_classes   (CgSchemaModel      *self,
                                                guint               into,
                                                guint               from);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgSchemaModel, cg_schema_model_free)

G_END_DECLS
