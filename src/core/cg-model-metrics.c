/* cg-model-metrics.c: how well computed page classes match a ground truth.
 *
 * Seed 000's clustering measures with the corrections its summary notes:
 * entropy without the extra minus sign, purity with e_ij in the right
 * order, and a log base chosen (2, so entropy is in bits). Its class-link
 * recall pairs each golden class with the computed class of highest F and
 * counts a golden link as found when the computed model has a link of the
 * same type between the paired classes, weighted by the size of the
 * golden source class as F* is. Seed 003's pairwise precision and recall
 * count pairs of pages: a pair in one golden class and one computed
 * cluster is a true positive.
 *
 * Pages that a model leaves unclassified are never forced into a class:
 * each counts as a cluster of its own, which costs recall, not purity.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "cg-model-metrics.h"

/* The computed class name of a page left out of every class. */
#define UNCLASSIFIED "unclassified"

typedef struct {
  char *source;
  char *target;
  char *type;
} Link;

struct _CgModelEvaluation
{
  GPtrArray  *pages;            /* Page * */
  GPtrArray  *golden_links;     /* Link * */
  GPtrArray  *computed_links;   /* Link * */
  GHashTable *match;            /* golden class → computed class of highest F */
};

typedef struct {
  char *page;
  char *golden;
  char *computed;
} Page;

static void
page_free (Page *page)
{
  g_free (page->page);
  g_free (page->golden);
  g_free (page->computed);
  g_free (page);
}

static void
link_free (Link *link)
{
  g_free (link->source);
  g_free (link->target);
  g_free (link->type);
  g_free (link);
}

CgModelEvaluation *
cg_model_evaluation_new (void)
{
  CgModelEvaluation *self = g_new0 (CgModelEvaluation, 1);

  self->pages = g_ptr_array_new_with_free_func ((GDestroyNotify) page_free);
  self->golden_links = g_ptr_array_new_with_free_func ((GDestroyNotify) link_free);
  self->computed_links = g_ptr_array_new_with_free_func ((GDestroyNotify) link_free);
  self->match = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return self;
}

void
cg_model_evaluation_free (CgModelEvaluation *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->pages);
  g_ptr_array_unref (self->golden_links);
  g_ptr_array_unref (self->computed_links);
  g_hash_table_unref (self->match);
  g_free (self);
}

/* Adds a page with its golden class and the class the model gave it
 * (NULL or "unclassified" for none). Pages without a golden class are not
 * evaluated and should not be added. */
void
cg_model_evaluation_add_page (CgModelEvaluation *self,
                              const char        *page,
                              const char        *golden_class,
                              const char        *computed_class)
{
  Page *entry = g_new0 (Page, 1);

  g_return_if_fail (golden_class != NULL);

  entry->page = g_strdup (page);
  entry->golden = g_strdup (golden_class);
  /* Each unclassified page is a cluster of its own. */
  if (computed_class == NULL || g_str_equal (computed_class, UNCLASSIFIED))
    entry->computed = g_strdup_printf ("\x01%s#%u", UNCLASSIFIED, self->pages->len);
  else
    entry->computed = g_strdup (computed_class);
  g_ptr_array_add (self->pages, entry);
}

static void
add_link (GPtrArray  *links,
          const char *source,
          const char *target,
          const char *type)
{
  Link *link = g_new0 (Link, 1);

  link->source = g_strdup (source);
  link->target = g_strdup (target);
  link->type = g_strdup (type);
  g_ptr_array_add (links, link);
}

void
cg_model_evaluation_add_golden_link (CgModelEvaluation *self,
                                     const char        *source_class,
                                     const char        *target_class,
                                     const char        *type)
{
  add_link (self->golden_links, source_class, target_class, type);
}

void
cg_model_evaluation_add_computed_link (CgModelEvaluation *self,
                                       const char        *source_class,
                                       const char        *target_class,
                                       const char        *type)
{
  add_link (self->computed_links, source_class, target_class, type);
}

/* Counts by key; values are guint in pointers. */
static void
count (GHashTable *table,
       const char *key)
{
  gpointer old = g_hash_table_lookup (table, key);

  g_hash_table_insert (table, (gpointer) key, GUINT_TO_POINTER (GPOINTER_TO_UINT (old) + 1));
}

static guint
lookup_count (GHashTable *table,
              const char *key)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (table, key));
}

static double
pairs (double n)
{
  return n * (n - 1) / 2;
}

void
cg_model_evaluation_compute (CgModelEvaluation *self,
                             CgModelScores     *out)
{
  g_autoptr(GHashTable) golden_sizes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) computed_sizes = g_hash_table_new (g_str_hash, g_str_equal);
  /* golden "\x02" computed → guint * count */
  g_autoptr(GHashTable) cells = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) best_f = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  GHashTableIter iter;
  gpointer key, value;
  double n, same_both = 0, same_golden = 0, same_computed = 0;

  memset (out, 0, sizeof *out);
  out->class_link_recall = -1;
  g_hash_table_remove_all (self->match);
  if (self->pages->len == 0)
    return;

  for (guint i = 0; i < self->pages->len; i++)
    {
      Page *page = g_ptr_array_index (self->pages, i);
      g_autofree char *cell = g_strconcat (page->golden, "\x02", page->computed, NULL);
      guint *cell_count = g_hash_table_lookup (cells, cell);

      count (golden_sizes, page->golden);
      count (computed_sizes, page->computed);
      if (cell_count == NULL)
        {
          cell_count = g_new0 (guint, 1);
          g_hash_table_insert (cells, g_steal_pointer (&cell), cell_count);
        }
      (*cell_count)++;
    }
  n = self->pages->len;
  out->n_pages = self->pages->len;
  out->n_golden = g_hash_table_size (golden_sizes);
  out->n_computed = g_hash_table_size (computed_sizes);

  /* One pass over the non-empty cells e_ij of the confusion matrix. */
  g_hash_table_iter_init (&iter, cells);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_auto(GStrv) parts = g_strsplit (key, "\x02", 2);
      double e = *(guint *) value;
      double golden = lookup_count (golden_sizes, parts[0]);
      double computed = lookup_count (computed_sizes, parts[1]);
      double precision = e / computed;
      double recall = e / golden;
      double f = 2 * precision * recall / (precision + recall);
      double *best = g_hash_table_lookup (best_f, parts[0]);

      if (best == NULL || f > *best ||
          (f == *best && g_strcmp0 (parts[1], g_hash_table_lookup (self->match, parts[0])) < 0))
        {
          if (best == NULL)
            {
              gpointer golden_key = NULL;

              /* Keyed by the page's own string, which outlives this table. */
              g_hash_table_lookup_extended (golden_sizes, parts[0], &golden_key, NULL);
              best = g_new (double, 1);
              g_hash_table_insert (best_f, golden_key, best);
            }
          *best = f;
          g_hash_table_insert (self->match, g_strdup (parts[0]), g_strdup (parts[1]));
        }

      /* H(Ĉj) = −Σ_i P log P, weighted by |Ĉj| / n: summed here cell by cell. */
      out->entropy += -(precision * log2 (precision)) * computed / n;
      same_both += pairs (e);
    }

  g_hash_table_iter_init (&iter, golden_sizes);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      double *best = g_hash_table_lookup (best_f, key);

      out->f_star += (best != NULL ? *best : 0) * GPOINTER_TO_UINT (value) / n;
      same_golden += pairs (GPOINTER_TO_UINT (value));
    }

  /* Purity(Ĉj) = max_i e_ij / |Ĉj|, weighted by |Ĉj| / n: Σ_j max_i e_ij / n. */
  g_hash_table_iter_init (&iter, computed_sizes);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint largest = 0;
      GHashTableIter cell_iter;
      gpointer cell_key, cell_value;

      g_hash_table_iter_init (&cell_iter, cells);
      while (g_hash_table_iter_next (&cell_iter, &cell_key, &cell_value))
        {
          const char *computed = strchr (cell_key, '\x02') + 1;

          if (g_str_equal (computed, key))
            largest = MAX (largest, *(guint *) cell_value);
        }
      out->purity += largest / n;
      same_computed += pairs (GPOINTER_TO_UINT (value));
    }

  out->pairwise_precision = same_computed > 0 ? same_both / same_computed : 1.0;
  out->pairwise_recall = same_golden > 0 ? same_both / same_golden : 1.0;
  out->pairwise_f1 = out->pairwise_precision + out->pairwise_recall > 0
                       ? 2 * out->pairwise_precision * out->pairwise_recall /
                         (out->pairwise_precision + out->pairwise_recall)
                       : 0;

  if (self->golden_links->len > 0)
    {
      double found = 0, total = 0;

      for (guint i = 0; i < self->golden_links->len; i++)
        {
          Link *golden = g_ptr_array_index (self->golden_links, i);
          const char *source = g_hash_table_lookup (self->match, golden->source);
          const char *target = g_hash_table_lookup (self->match, golden->target);
          double weight = lookup_count (golden_sizes, golden->source);
          gboolean hit = FALSE;

          for (guint j = 0; j < self->computed_links->len && source != NULL && target != NULL && !hit; j++)
            {
              Link *computed = g_ptr_array_index (self->computed_links, j);

              hit = g_str_equal (computed->source, source) && g_str_equal (computed->target, target) &&
                    g_str_equal (computed->type, golden->type);
            }
          total += weight;
          found += hit ? weight : 0;
        }
      out->class_link_recall = total > 0 ? found / total : 0;
    }
}

/* The computed class paired with @golden_class by the last compute: the
 * one of highest F. NULL when the class had no page. */
const char *
cg_model_evaluation_get_match (CgModelEvaluation *self,
                               const char        *golden_class)
{
  return g_hash_table_lookup (self->match, golden_class);
}
