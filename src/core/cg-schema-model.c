/* cg-schema-model.c: seed 000's page schemas and the MDL cost of page classes.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "cg-schema-model.h"

typedef struct {
  guint path;
  guint value;
} TextItem;

typedef struct {
  guint   n_urls;
  GArray *paths;   /* guint path ids, sorted, unique */
  GArray *texts;   /* TextItem, sorted by path, one per text path */
  int     klass;
} Page;

struct _CgSchemaModel {
  double      c_index;
  double      c_miss;

  GHashTable *path_ids;     /* "L path" / "T path" → id + 1 */
  GPtrArray  *path_names;   /* id → "L path" / "T path" */
  GByteArray *is_text;      /* id → 0 or 1 */
  GHashTable *value_ids;    /* text value → id + 1 */

  GPtrArray  *pages;        /* Page * */
  GPtrArray  *classes;      /* GArray of guint page ids */
  GArray     *df;           /* guint per path: classified pages that have it */
  guint       n_classified;

  /* Scratch space of two path-sized counters, left zeroed between uses,
   * so that computing a class's weights costs time in its pages' paths
   * and not in all paths. */
  GArray     *count;
  GArray     *text_max;
};

static void
page_free (Page *page)
{
  g_array_unref (page->paths);
  g_array_unref (page->texts);
  g_free (page);
}

CgSchemaModel *
cg_schema_model_new (double c_index,
                     double c_miss)
{
  CgSchemaModel *self = g_new0 (CgSchemaModel, 1);

  self->c_index = c_index;
  self->c_miss = c_miss;
  self->path_ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->path_names = g_ptr_array_new_with_free_func (g_free);
  self->is_text = g_byte_array_new ();
  self->value_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->pages = g_ptr_array_new_with_free_func ((GDestroyNotify) page_free);
  self->classes = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  self->df = g_array_new (FALSE, TRUE, sizeof (guint));
  self->count = g_array_new (FALSE, TRUE, sizeof (guint));
  self->text_max = g_array_new (FALSE, TRUE, sizeof (guint));
  return self;
}

void
cg_schema_model_free (CgSchemaModel *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->path_ids);
  g_ptr_array_unref (self->path_names);
  g_byte_array_unref (self->is_text);
  g_hash_table_unref (self->value_ids);
  g_ptr_array_unref (self->pages);
  g_ptr_array_unref (self->classes);
  g_array_unref (self->df);
  g_array_unref (self->count);
  g_array_unref (self->text_max);
  g_free (self);
}

/* The id of a path, interned; G_MAXUINT once the table is full. */
static guint
intern_path (CgSchemaModel *self,
             char           kind,
             const char    *path)
{
  g_autofree char *key = g_strdup_printf ("%c %s", kind, path);
  gpointer found = g_hash_table_lookup (self->path_ids, key);
  guint id;
  guint8 text = kind == 'T';

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  if (self->path_names->len >= CG_SCHEMA_MODEL_MAX_PATHS)
    return G_MAXUINT;
  id = self->path_names->len;
  g_ptr_array_add (self->path_names, key);
  g_hash_table_insert (self->path_ids, g_steal_pointer (&key), GUINT_TO_POINTER (id + 1));
  g_byte_array_append (self->is_text, &text, 1);
  g_array_set_size (self->df, id + 1);
  g_array_set_size (self->count, id + 1);
  g_array_set_size (self->text_max, id + 1);
  return id;
}

static guint
intern_value (CgSchemaModel *self,
              const char    *value)
{
  gpointer found = g_hash_table_lookup (self->value_ids, value);
  guint id;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  id = g_hash_table_size (self->value_ids);
  g_hash_table_insert (self->value_ids, g_strdup (value), GUINT_TO_POINTER (id + 1));
  return id;
}

static gint
compare_uint (gconstpointer a,
              gconstpointer b)
{
  guint x = *(const guint *) a;
  guint y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

static gint
compare_text_item (gconstpointer a,
                   gconstpointer b)
{
  const TextItem *x = a;
  const TextItem *y = b;

  if (x->path != y->path)
    return x->path < y->path ? -1 : 1;
  return x->value < y->value ? -1 : x->value > y->value;
}

static gint
compare_text_path (gconstpointer a,
                   gconstpointer b)
{
  const TextItem *x = a;
  const TextItem *y = b;

  return x->path < y->path ? -1 : x->path > y->path;
}

static void
sort_unique (GArray *ids)
{
  guint kept = 0;

  g_array_sort (ids, compare_uint);
  for (guint i = 0; i < ids->len; i++)
    if (kept == 0 || g_array_index (ids, guint, kept - 1) != g_array_index (ids, guint, i))
      g_array_index (ids, guint, kept++) = g_array_index (ids, guint, i);
  g_array_set_size (ids, kept);
}

guint
cg_schema_model_add_page (CgSchemaModel      *self,
                          guint               n_urls,
                          const char * const *link_paths,
                          const char * const *text_paths,
                          const char * const *text_values)
{
  Page *page;

  g_return_val_if_fail (self != NULL, G_MAXUINT);

  if (self->pages->len >= CG_SCHEMA_MODEL_MAX_PAGES)
    return G_MAXUINT;

  page = g_new0 (Page, 1);
  page->n_urls = n_urls;
  page->klass = -1;
  page->paths = g_array_new (FALSE, FALSE, sizeof (guint));
  page->texts = g_array_new (FALSE, FALSE, sizeof (TextItem));

  for (guint i = 0; link_paths != NULL && link_paths[i] != NULL; i++)
    {
      guint id = intern_path (self, 'L', link_paths[i]);

      if (id != G_MAXUINT)
        g_array_append_val (page->paths, id);
    }
  for (guint i = 0; text_paths != NULL && text_paths[i] != NULL; i++)
    {
      TextItem item;

      item.path = intern_path (self, 'T', text_paths[i]);
      if (item.path == G_MAXUINT)
        continue;
      item.value = intern_value (self, text_values != NULL && text_values[i] != NULL ? text_values[i] : "");
      g_array_append_val (page->paths, item.path);
      g_array_append_val (page->texts, item);
    }
  sort_unique (page->paths);

  /* One value per text path: the first, kept by the stable sort. */
  g_array_sort (page->texts, compare_text_path);
  {
    guint kept = 0;

    for (guint i = 0; i < page->texts->len; i++)
      if (kept == 0 ||
          g_array_index (page->texts, TextItem, kept - 1).path != g_array_index (page->texts, TextItem, i).path)
        g_array_index (page->texts, TextItem, kept++) = g_array_index (page->texts, TextItem, i);
    g_array_set_size (page->texts, kept);
  }

  g_ptr_array_add (self->pages, page);
  return self->pages->len - 1;
}

guint
cg_schema_model_get_n_pages (CgSchemaModel *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->pages->len;
}

static Page *
get_page (CgSchemaModel *self,
          guint          page)
{
  g_return_val_if_fail (page < self->pages->len, NULL);
  return self->pages->pdata[page];
}

int
cg_schema_model_get_page_class (CgSchemaModel *self,
                                guint          page)
{
  g_return_val_if_fail (self != NULL, -1);
  g_return_val_if_fail (page < self->pages->len, -1);
  return get_page (self, page)->klass;
}

static gboolean
ids_equal (GArray *a,
           GArray *b)
{
  return a->len == b->len && memcmp (a->data, b->data, a->len * sizeof (guint)) == 0;
}

gboolean
cg_schema_model_same_schema (CgSchemaModel *self,
                             guint          page_a,
                             guint          page_b)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (page_a < self->pages->len && page_b < self->pages->len, FALSE);
  return ids_equal (get_page (self, page_a)->paths, get_page (self, page_b)->paths);
}

/* ---- schemas of groups and the Jaccard distance ------------------------------ */

/* The union of two sorted id arrays, as a new sorted array. */
static GArray *
ids_union (GArray *a,
           GArray *b)
{
  GArray *out = g_array_sized_new (FALSE, FALSE, sizeof (guint), a->len + b->len);
  guint i = 0;
  guint j = 0;

  while (i < a->len || j < b->len)
    {
      guint x = i < a->len ? g_array_index (a, guint, i) : G_MAXUINT;
      guint y = j < b->len ? g_array_index (b, guint, j) : G_MAXUINT;
      guint next = MIN (x, y);

      g_array_append_val (out, next);
      if (x == next)
        i++;
      if (y == next)
        j++;
    }
  return out;
}

static double
ids_distance (GArray *a,
              GArray *b)
{
  guint i = 0;
  guint j = 0;
  guint common = 0;
  guint n_union;

  while (i < a->len && j < b->len)
    {
      guint x = g_array_index (a, guint, i);
      guint y = g_array_index (b, guint, j);

      if (x == y)
        common++, i++, j++;
      else if (x < y)
        i++;
      else
        j++;
    }
  n_union = a->len + b->len - common;
  if (n_union == 0)
    return 0.0;
  return (double) (n_union - common) / n_union;
}

static GArray *
group_schema (CgSchemaModel *self,
              const guint   *pages,
              guint          n_pages)
{
  GArray *schema = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < n_pages; i++)
    {
      GArray *merged = ids_union (schema, get_page (self, pages[i])->paths);

      g_array_unref (schema);
      schema = merged;
    }
  return schema;
}

double
cg_schema_model_distance (CgSchemaModel *self,
                          const guint   *pages_a,
                          guint          n_a,
                          const guint   *pages_b,
                          guint          n_b)
{
  g_autoptr(GArray) a = NULL;
  g_autoptr(GArray) b = NULL;

  g_return_val_if_fail (self != NULL, 1.0);

  a = group_schema (self, pages_a, n_a);
  b = group_schema (self, pages_b, n_b);
  return ids_distance (a, b);
}

typedef struct {
  GArray *pages;
  GArray *schema;
  gboolean collapsed;
} Group;

static void
group_free (Group *group)
{
  if (group->pages != NULL)
    g_array_unref (group->pages);
  g_array_unref (group->schema);
  g_free (group);
}

static gint
compare_group_size (gconstpointer a,
                    gconstpointer b)
{
  const Group *x = *(Group * const *) a;
  const Group *y = *(Group * const *) b;

  return x->pages->len > y->pages->len ? -1 : x->pages->len < y->pages->len;
}

GPtrArray *
cg_schema_model_select_candidates (CgSchemaModel *self,
                                   const guint   *pages,
                                   guint          n_pages,
                                   double         dt)
{
  g_autoptr(GPtrArray) groups = g_ptr_array_new_with_free_func ((GDestroyNotify) group_free);
  GPtrArray *candidates = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  g_return_val_if_fail (self != NULL, candidates);

  /* Pages with identical schemas, in the order of each group's first page. */
  for (guint i = 0; i < n_pages; i++)
    {
      Page *page = get_page (self, pages[i]);
      Group *group = NULL;

      for (guint g = 0; g < groups->len && group == NULL; g++)
        if (ids_equal (((Group *) groups->pdata[g])->schema, page->paths))
          group = groups->pdata[g];
      if (group == NULL)
        {
          group = g_new0 (Group, 1);
          group->pages = g_array_new (FALSE, FALSE, sizeof (guint));
          group->schema = g_array_copy (page->paths);
          g_ptr_array_add (groups, group);
        }
      g_array_append_val (group->pages, pages[i]);
    }

  /* Largest first (a stable sort keeps first-seen order among equals);
   * then each group, from the largest, attracts the smaller ones from the
   * smallest up, its schema growing to the union as it does. */
  g_ptr_array_sort (groups, compare_group_size);
  for (guint i = 0; i < groups->len; i++)
    {
      Group *big = groups->pdata[i];

      if (big->collapsed)
        continue;
      for (guint j = groups->len - 1; j > i; j--)
        {
          Group *small = groups->pdata[j];

          if (small->collapsed || ids_distance (big->schema, small->schema) >= dt)
            continue;
          {
            GArray *merged = ids_union (big->schema, small->schema);

            g_array_unref (big->schema);
            big->schema = merged;
          }
          g_array_append_vals (big->pages, small->pages->data, small->pages->len);
          small->collapsed = TRUE;
        }
    }

  for (guint i = 0; i < groups->len; i++)
    {
      Group *group = groups->pdata[i];

      if (!group->collapsed)
        g_ptr_array_add (candidates, g_steal_pointer (&group->pages));
    }
  return candidates;
}

/* ---- weights and encodings -------------------------------------------------- */

double
cg_schema_path_weight (guint n_class_with,
                       guint n_class,
                       guint n_pages_with,
                       guint n_pages)
{
  double tf;
  double idf;

  if (n_class == 0 || n_pages_with == 0 || n_pages <= n_pages_with)
    return 1.0;
  tf = (double) n_class_with / n_class;
  idf = log ((double) n_pages / n_pages_with);
  return 1.0 / (tf * idf + 1.0);
}

/* Seed 000 puts a text path in the class schema when its texts are the
 * same on at least two pages of the class: the labels of the template.
 * Read literally, an optional element whose texts two pages happen to
 * share (two books reduced from the same price) would become a label, and
 * every page without the element would then pay c_miss for it: the first
 * such coincidence makes a sample with it cheaper as a class of its own.
 * So the path must also be on at least half of the class's pages, as the
 * template's own elements are. (Requiring instead that half of the pages
 * share the texts makes a heading that names each page's category flip in
 * and out of the schema as the categories of a sample vary.) */
static gboolean
in_text_schema (guint n_sharing,
                guint n_with_path,
                guint n_class)
{
  return n_sharing >= 2 && 2 * n_with_path >= n_class;
}

/* The schema of the class made of pages a[] and b[] with each path's
 * weight, over @n_total pages whose document frequencies are df[] plus
 * df_extra[] (may be NULL). Appends to @paths, @weights and @counts (the
 * class's pages that have the path); any may be NULL. Returns the class's
 * share of the MDL, enc(C) plus the encodings of its pages:
 * Σ_{schema} weight · (1 + c_index·count + c_miss·(n − count)) +
 * Σ_{other paths of its pages} weight · c_index·count + Σ urls. */
static double
class_weights (CgSchemaModel *self,
               const guint   *a,
               guint          n_a,
               const guint   *b,
               guint          n_b,
               const guint   *df_extra,
               guint          n_total,
               GArray        *paths,
               GArray        *weights,
               GArray        *counts)
{
  g_autoptr(GArray) touched = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) texts = g_array_new (FALSE, FALSE, sizeof (TextItem));
  guint *count = (guint *) self->count->data;
  guint *text_max = (guint *) self->text_max->data;
  guint n = n_a + n_b;
  double cost = 0.0;

  for (guint k = 0; k < n; k++)
    {
      Page *page = get_page (self, k < n_a ? a[k] : b[k - n_a]);

      cost += page->n_urls;
      for (guint i = 0; i < page->paths->len; i++)
        {
          guint id = g_array_index (page->paths, guint, i);

          if (count[id]++ == 0)
            g_array_append_val (touched, id);
        }
      g_array_append_vals (texts, page->texts->data, page->texts->len);
    }

  /* How many pages share the most common texts of each text path: equal
   * (path, value) pairs are adjacent once sorted. */
  g_array_sort (texts, compare_text_item);
  for (guint i = 0, run = 0; i < texts->len; i++)
    {
      const TextItem *x = &g_array_index (texts, TextItem, i);

      run = (i > 0 && x->path == g_array_index (texts, TextItem, i - 1).path &&
             x->value == g_array_index (texts, TextItem, i - 1).value) ? run + 1 : 1;
      text_max[x->path] = MAX (text_max[x->path], run);
    }

  /* In path order, so that sums come out the same on every run. */
  g_array_sort (touched, compare_uint);
  for (guint i = 0; i < touched->len; i++)
    {
      guint id = g_array_index (touched, guint, i);
      guint df = g_array_index (self->df, guint, id) + (df_extra != NULL ? df_extra[id] : 0);
      double weight;

      if (!self->is_text->data[id] || in_text_schema (text_max[id], count[id], n))
        {
          weight = cg_schema_path_weight (count[id], n, df, n_total);
          cost += weight * (1.0 + self->c_index * count[id] + self->c_miss * (n - count[id]));
          if (paths != NULL)
            g_array_append_val (paths, id);
          if (weights != NULL)
            g_array_append_val (weights, weight);
          if (counts != NULL)
            g_array_append_val (counts, count[id]);
        }
      else
        {
          /* A path of the pages that is not in the class schema, such as
           * a text that is no label: each page that has it pays for it. */
          cost += self->c_index * count[id] * cg_schema_path_weight (count[id], n, df, n_total);
        }
      count[id] = 0;
      text_max[id] = 0;
    }
  return cost;
}

static GArray *
class_pages (CgSchemaModel *self,
             guint          klass)
{
  g_return_val_if_fail (klass < self->classes->len, NULL);
  return self->classes->pdata[klass];
}

double
cg_schema_model_encode_class (CgSchemaModel *self,
                              guint          klass)
{
  g_autoptr(GArray) weights = g_array_new (FALSE, FALSE, sizeof (double));
  GArray *pages;
  double sum = 0.0;

  g_return_val_if_fail (self != NULL, 0.0);
  g_return_val_if_fail (klass < self->classes->len, 0.0);

  pages = class_pages (self, klass);
  class_weights (self, (guint *) pages->data, pages->len, NULL, 0, NULL, self->n_classified,
                 NULL, weights, NULL);
  for (guint i = 0; i < weights->len; i++)
    sum += g_array_index (weights, double, i);
  return sum;
}

static gboolean
page_has_path (Page  *page,
               guint  id)
{
  guint lo = 0;
  guint hi = page->paths->len;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      guint value = g_array_index (page->paths, guint, mid);

      if (value == id)
        return TRUE;
      if (value < id)
        lo = mid + 1;
      else
        hi = mid;
    }
  return FALSE;
}

double
cg_schema_model_encode_page (CgSchemaModel *self,
                             guint          page,
                             guint          klass)
{
  g_autoptr(GArray) paths = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) weights = g_array_new (FALSE, FALSE, sizeof (double));
  GArray *pages;
  Page *p;
  double enc;

  g_return_val_if_fail (self != NULL, 0.0);
  g_return_val_if_fail (page < self->pages->len && klass < self->classes->len, 0.0);

  p = get_page (self, page);
  pages = class_pages (self, klass);
  class_weights (self, (guint *) pages->data, pages->len, NULL, 0, NULL, self->n_classified,
                 paths, weights, NULL);
  enc = p->n_urls;

  /* The class schema's paths: an index for those the page has, the whole
   * path for those it lacks. */
  for (guint i = 0; i < paths->len; i++)
    enc += (page_has_path (p, g_array_index (paths, guint, i)) ? self->c_index : self->c_miss) *
           g_array_index (weights, double, i);

  /* The page's other paths, an index each, weighted in the class. */
  for (guint k = 0; k < p->paths->len; k++)
    {
      guint id = g_array_index (p->paths, guint, k);
      guint n_with = 0;
      gboolean in_schema = FALSE;

      for (guint i = 0; i < paths->len && !in_schema; i++)
        in_schema = g_array_index (paths, guint, i) == id;
      if (in_schema)
        continue;
      for (guint m = 0; m < pages->len; m++)
        if (page_has_path (get_page (self, g_array_index (pages, guint, m)), id))
          n_with++;
      enc += self->c_index * cg_schema_path_weight (n_with, pages->len, g_array_index (self->df, guint, id),
                                                    self->n_classified);
    }
  return enc;
}

double
cg_schema_model_get_mdl (CgSchemaModel *self)
{
  double mdl = 0.0;

  g_return_val_if_fail (self != NULL, 0.0);

  for (guint c = 0; c < self->classes->len; c++)
    {
      GArray *pages = class_pages (self, c);

      mdl += class_weights (self, (guint *) pages->data, pages->len, NULL, 0, NULL,
                            self->n_classified, NULL, NULL, NULL);
    }
  return mdl;
}

GStrv
cg_schema_model_get_class_schema (CgSchemaModel *self,
                                  guint          klass)
{
  g_autoptr(GArray) paths = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  GArray *pages;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (klass < self->classes->len, NULL);

  pages = class_pages (self, klass);
  class_weights (self, (guint *) pages->data, pages->len, NULL, 0, NULL, self->n_classified,
                 paths, NULL, NULL);
  for (guint i = 0; i < paths->len; i++)
    g_strv_builder_add (builder, self->path_names->pdata[g_array_index (paths, guint, i)]);
  return g_strv_builder_end (builder);
}

/* ---- classes and the model update ------------------------------------------------ */

static void
classify (CgSchemaModel *self,
          const guint   *pages,
          guint          n_pages,
          guint          klass)
{
  GArray *members = class_pages (self, klass);

  for (guint i = 0; i < n_pages; i++)
    {
      Page *page = get_page (self, pages[i]);

      g_return_if_fail (page->klass < 0);
      page->klass = (int) klass;
      g_array_append_val (members, pages[i]);
      for (guint k = 0; k < page->paths->len; k++)
        g_array_index (self->df, guint, g_array_index (page->paths, guint, k))++;
      self->n_classified++;
    }
}

guint
cg_schema_model_add_class (CgSchemaModel *self,
                           const guint   *pages,
                           guint          n_pages)
{
  g_return_val_if_fail (self != NULL, 0);

  g_ptr_array_add (self->classes, g_array_new (FALSE, FALSE, sizeof (guint)));
  classify (self, pages, n_pages, self->classes->len - 1);
  return self->classes->len - 1;
}

void
cg_schema_model_merge_into (CgSchemaModel *self,
                            const guint   *pages,
                            guint          n_pages,
                            guint          klass)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (klass < self->classes->len);

  classify (self, pages, n_pages, klass);
}

guint
cg_schema_model_get_n_classes (CgSchemaModel *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->classes->len;
}

const guint *
cg_schema_model_get_class_pages (CgSchemaModel *self,
                                 guint          klass,
                                 guint         *n_pages)
{
  GArray *pages;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (klass < self->classes->len, NULL);

  pages = class_pages (self, klass);
  if (n_pages != NULL)
    *n_pages = pages->len;
  return (const guint *) pages->data;
}

/* Since every hypothesis has the same pages, P and its document
 * frequencies are the same in all of them, and only the classes that a
 * hypothesis changes change their share of the MDL: the models are
 * compared exactly without re-encoding the classes they share. */
static void
evaluate (CgSchemaModel  *self,
          const guint    *pages,
          guint           n_pages,
          const gboolean *allowed,
          double         *out_mdl_new,
          double         *out_mdl_merged,
          int            *out_best)
{
  g_autofree guint *df_extra = NULL;
  g_autofree double *shares = NULL;
  guint n_total;
  double base = 0.0;
  double mdl_new;
  double mdl_merged = G_MAXDOUBLE;
  int best = -1;

  g_return_if_fail (self != NULL);

  df_extra = g_new0 (guint, MAX (self->path_names->len, 1));
  for (guint i = 0; i < n_pages; i++)
    {
      Page *page = get_page (self, pages[i]);

      for (guint k = 0; k < page->paths->len; k++)
        df_extra[g_array_index (page->paths, guint, k)]++;
    }
  n_total = self->n_classified + n_pages;

  shares = g_new0 (double, MAX (self->classes->len, 1));
  for (guint c = 0; c < self->classes->len; c++)
    {
      GArray *members = class_pages (self, c);

      shares[c] = class_weights (self, (guint *) members->data, members->len, NULL, 0,
                                 df_extra, n_total, NULL, NULL, NULL);
      base += shares[c];
    }
  mdl_new = base + class_weights (self, pages, n_pages, NULL, 0, df_extra, n_total, NULL, NULL, NULL);

  for (guint c = 0; c < self->classes->len; c++)
    {
      GArray *members = class_pages (self, c);
      double merged;

      if (allowed != NULL && !allowed[c])
        continue;
      merged = base - shares[c] +
                      class_weights (self, (guint *) members->data, members->len, pages, n_pages,
                                     df_extra, n_total, NULL, NULL, NULL);

      if (merged < mdl_merged)
        {
          mdl_merged = merged;
          best = (int) c;
        }
    }

  if (out_mdl_new != NULL)
    *out_mdl_new = mdl_new;
  if (out_mdl_merged != NULL)
    *out_mdl_merged = mdl_merged;
  if (out_best != NULL)
    *out_best = best;
}

void
cg_schema_model_evaluate (CgSchemaModel *self,
                          const guint   *pages,
                          guint          n_pages,
                          double        *out_mdl_new,
                          double        *out_mdl_merged,
                          int           *out_best)
{
  evaluate (self, pages, n_pages, NULL, out_mdl_new, out_mdl_merged, out_best);
}

guint
cg_schema_model_update (CgSchemaModel *self,
                        const guint   *pages,
                        guint          n_pages)
{
  return cg_schema_model_update_among (self, pages, n_pages, NULL);
}

guint
cg_schema_model_update_among (CgSchemaModel  *self,
                              const guint    *pages,
                              guint           n_pages,
                              const gboolean *allowed)
{
  double mdl_new;
  double mdl_merged;
  int best;

  g_return_val_if_fail (self != NULL, 0);

  evaluate (self, pages, n_pages, allowed, &mdl_new, &mdl_merged, &best);
  if (best >= 0 && mdl_merged < mdl_new)
    {
      cg_schema_model_merge_into (self, pages, n_pages, (guint) best);
      return (guint) best;
    }
  return cg_schema_model_add_class (self, pages, n_pages);
}

void
cg_schema_model_merge_classes (CgSchemaModel *self,
                               guint          into,
                               guint          from)
{
  GArray *moved;

  g_return_if_fail (self != NULL);
  g_return_if_fail (into < self->classes->len && from < self->classes->len && into != from);

  /* The pages keep their document frequencies: only their class changes. */
  moved = g_ptr_array_steal_index (self->classes, from);
  g_array_append_vals (class_pages (self, into > from ? into - 1 : into), moved->data, moved->len);
  g_array_unref (moved);
  for (guint i = 0; i < self->pages->len; i++)
    {
      Page *page = self->pages->pdata[i];

      if (page->klass == (int) from)
        page->klass = (int) (into > from ? into - 1 : into);
      else if (page->klass > (int) from)
        page->klass--;
    }
}
