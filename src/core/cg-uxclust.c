/* cg-uxclust.c: seed 003's UXClust, pages clustered by the XPath of their inbound link.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "cg-uxclust.h"

G_DEFINE_QUARK (cg-uxclust-error-quark, cg_uxclust_error)

struct _CgUxclust
{
  GPtrArray  *urls;     /* char * */
  GPtrArray  *xpaths;   /* char * or NULL, parallel to urls */
  GHashTable *seen;     /* URL */
};

typedef struct {
  const char *xpath;
  GArray     *members;   /* guint, indexes into urls, increasing */
  GPtrArray  *samples;   /* GHashTable * of leaf paths */
  GStrv       fingerprint;
  guint       parent;    /* union-find */
} Group;

static char *
shown (const char *text)
{
  return g_utf8_make_valid (text != NULL ? text : "", MIN (text != NULL ? strlen (text) : 0, 200));
}

void
cg_uxclust_options_init (CgUxclustOptions *options)
{
  g_return_if_fail (options != NULL);

  options->cutoff = CG_UXCLUST_DEFAULT_CUTOFF;
  options->samples = CG_UXCLUST_DEFAULT_SAMPLES;
  options->occurrence = CG_UXCLUST_DEFAULT_OCCURRENCE;
  options->similarity = CG_UXCLUST_DEFAULT_SIMILARITY;
  options->measure = CG_UXCLUST_MEASURE_COMMON_PATHS;
  options->leaves = CG_LEAF_PATHS_ALL_LEAVES;
  options->seed = CG_UXCLUST_DEFAULT_SEED;
}

double
cg_uxclust_similarity (const char * const *a,
                       const char * const *b,
                       CgUxclustMeasure    measure)
{
  guint n_a, n_b, common = 0;
  guint i = 0, j = 0;

  g_return_val_if_fail (a != NULL && b != NULL, 0.0);

  n_a = g_strv_length ((GStrv) a);
  n_b = g_strv_length ((GStrv) b);
  if (n_a == 0 || n_b == 0)
    return 0.0;
  while (i < n_a && j < n_b)
    {
      int order = strcmp (a[i], b[j]);

      if (order == 0)
        {
          common++;
          i++;
          j++;
        }
      else if (order < 0)
        i++;
      else
        j++;
    }
  if (measure == CG_UXCLUST_MEASURE_JACCARD)
    return (double) common / (n_a + n_b - common);
  return (double) common / MAX (n_a, n_b);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

GStrv
cg_uxclust_fingerprint (GPtrArray *pages,
                        double     occurrence)
{
  g_autoptr(GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) kept = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key, value;
  GStrv fingerprint;

  g_return_val_if_fail (pages != NULL, NULL);

  for (guint p = 0; p < pages->len; p++)
    {
      g_hash_table_iter_init (&iter, pages->pdata[p]);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        {
          guint count = GPOINTER_TO_UINT (g_hash_table_lookup (counts, key));

          g_hash_table_insert (counts, key, GUINT_TO_POINTER (count + 1));
        }
    }
  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if ((double) GPOINTER_TO_UINT (value) > occurrence * pages->len)
      g_ptr_array_add (kept, key);
  g_ptr_array_sort (kept, compare_strings);

  fingerprint = g_new0 (char *, kept->len + 1);
  for (guint i = 0; i < kept->len; i++)
    fingerprint[i] = g_strdup (kept->pdata[i]);
  return fingerprint;
}

void
cg_uxclust_cluster_free (CgUxclustCluster *cluster)
{
  if (cluster == NULL)
    return;
  g_ptr_array_unref (cluster->urls);
  g_strfreev (cluster->xpaths);
  g_strfreev (cluster->fingerprint);
  g_free (cluster);
}

void
cg_uxclust_result_free (CgUxclustResult *result)
{
  if (result == NULL)
    return;
  g_ptr_array_unref (result->clusters);
  g_ptr_array_unref (result->unclustered);
  g_free (result);
}

CgUxclust *
cg_uxclust_new (void)
{
  CgUxclust *self = g_new0 (CgUxclust, 1);

  self->urls = g_ptr_array_new_with_free_func (g_free);
  self->xpaths = g_ptr_array_new_with_free_func (g_free);
  self->seen = g_hash_table_new (g_str_hash, g_str_equal);
  return self;
}

void
cg_uxclust_free (CgUxclust *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->seen);
  g_ptr_array_unref (self->urls);
  g_ptr_array_unref (self->xpaths);
  g_free (self);
}

guint
cg_uxclust_get_n_pages (CgUxclust *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->urls->len;
}

gboolean
cg_uxclust_add_page (CgUxclust   *self,
                     const char  *url,
                     const char  *inbound_xpath,
                     GError     **error)
{
  char *copy;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (url != NULL, FALSE);

  if (*url == '\0')
    {
      g_set_error (error, CG_UXCLUST_ERROR, CG_UXCLUST_ERROR_INVALID_PAGE,
                   _("Cannot add a page with an empty URL to UXClust"));
      return FALSE;
    }
  if (inbound_xpath != NULL && (*inbound_xpath == '\0' || strlen (inbound_xpath) > CG_UXCLUST_MAX_XPATH_LENGTH))
    {
      g_autofree char *name = shown (url);

      g_set_error (error, CG_UXCLUST_ERROR, CG_UXCLUST_ERROR_INVALID_PAGE,
                   _("Cannot add the page “%s” to UXClust: its inbound-link XPath is empty or longer than %u bytes"),
                   name, CG_UXCLUST_MAX_XPATH_LENGTH);
      return FALSE;
    }
  if (g_hash_table_contains (self->seen, url))
    return TRUE;
  if (self->urls->len >= CG_UXCLUST_MAX_PAGES)
    {
      g_autofree char *name = shown (url);

      g_set_error (error, CG_UXCLUST_ERROR, CG_UXCLUST_ERROR_TOO_MANY,
                   _("Cannot add the page “%s” to UXClust: it already holds %u pages"),
                   name, CG_UXCLUST_MAX_PAGES);
      return FALSE;
    }
  copy = g_strdup (url);
  g_ptr_array_add (self->urls, copy);
  g_ptr_array_add (self->xpaths, g_strdup (inbound_xpath));
  g_hash_table_add (self->seen, copy);
  return TRUE;
}

static gboolean
check_options (const CgUxclustOptions  *options,
               GError                 **error)
{
  g_autofree char *samples = NULL;
  const char *problem = NULL;

  if (options->cutoff < 1)
    problem = _("the cut-off must be at least 1");
  else if (options->samples < 1 || options->samples > CG_UXCLUST_MAX_SAMPLES)
    problem = samples = g_strdup_printf (_("the number of samples must be between 1 and %u"), CG_UXCLUST_MAX_SAMPLES);
  else if (!(options->occurrence >= 0.0 && options->occurrence < 1.0))
    problem = _("the occurrence threshold must be at least 0 and below 1");
  else if (!(options->similarity >= 0.0 && options->similarity < 1.0))
    problem = _("the similarity threshold must be at least 0 and below 1");
  else if (options->measure != CG_UXCLUST_MEASURE_COMMON_PATHS && options->measure != CG_UXCLUST_MEASURE_JACCARD)
    problem = _("the similarity measure is unknown");
  else if (options->leaves != CG_LEAF_PATHS_ALL_LEAVES && options->leaves != CG_LEAF_PATHS_TEXTLESS)
    problem = _("the kind of leaf paths is unknown");
  if (problem == NULL)
    return TRUE;
  g_set_error (error, CG_UXCLUST_ERROR, CG_UXCLUST_ERROR_INVALID_OPTIONS,
               _("Invalid UXClust options: %s"), problem);
  return FALSE;
}

static void
group_free (Group *group)
{
  g_array_unref (group->members);
  if (group->samples != NULL)
    g_ptr_array_unref (group->samples);
  g_strfreev (group->fingerprint);
  g_free (group);
}

static guint
find_root (GPtrArray *groups,
           guint      i)
{
  while (((Group *) groups->pdata[i])->parent != i)
    {
      Group *group = groups->pdata[i];
      Group *parent = groups->pdata[group->parent];

      /* Path halving keeps the trees flat. */
      group->parent = parent->parent;
      i = group->parent;
    }
  return i;
}

/* Samples @n members of @group without replacement (a partial
 * Fisher–Yates shuffle) and reads them. */
static gboolean
sample_group (CgUxclust               *self,
              Group                   *group,
              const CgUxclustOptions  *options,
              GRand                   *rand,
              CgUxclustReadFunc        read,
              gpointer                 user_data,
              guint                   *n_read,
              GError                 **error)
{
  g_autoptr(GArray) order = g_array_copy (group->members);
  guint n = MIN (options->samples, order->len);

  group->samples = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  for (guint i = 0; i < n; i++)
    {
      guint j = i + g_rand_int_range (rand, 0, order->len - i);
      guint member = g_array_index (order, guint, j);
      const char *url;
      GError *local_error = NULL;
      GHashTable *paths;

      g_array_index (order, guint, j) = g_array_index (order, guint, i);
      g_array_index (order, guint, i) = member;
      url = self->urls->pdata[member];
      (*n_read)++;
      paths = read (url, options->leaves, user_data, &local_error);
      if (paths == NULL)
        {
          g_autofree char *name = shown (url);

          g_set_error (error, CG_UXCLUST_ERROR, CG_UXCLUST_ERROR_READ,
                       _("Cannot read the page “%s” for UXClust: %s"), name,
                       local_error != NULL ? local_error->message : _("no reason given"));
          g_clear_error (&local_error);
          return FALSE;
        }
      g_ptr_array_add (group->samples, paths);
    }
  group->fingerprint = cg_uxclust_fingerprint (group->samples, options->occurrence);
  return TRUE;
}

static int
compare_guint (gconstpointer a,
               gconstpointer b)
{
  guint x = *(const guint *) a;
  guint y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

static int
compare_groups_by_size (gconstpointer a,
                        gconstpointer b)
{
  const Group *x = *(Group * const *) a;
  const Group *y = *(Group * const *) b;

  if (x->members->len != y->members->len)
    return x->members->len > y->members->len ? -1 : 1;
  return compare_guint (&g_array_index (x->members, guint, 0), &g_array_index (y->members, guint, 0));
}

static int
compare_clusters (gconstpointer a,
                  gconstpointer b)
{
  const CgUxclustCluster *x = *(CgUxclustCluster * const *) a;
  const CgUxclustCluster *y = *(CgUxclustCluster * const *) b;

  if (x->urls->len != y->urls->len)
    return x->urls->len > y->urls->len ? -1 : 1;
  return strcmp (x->xpaths[0], y->xpaths[0]);
}

/* One cluster from the groups of one union-find component, largest group
 * first. */
static CgUxclustCluster *
make_cluster (CgUxclust              *self,
              GPtrArray              *members,
              const CgUxclustOptions *options)
{
  CgUxclustCluster *cluster = g_new0 (CgUxclustCluster, 1);
  g_autoptr(GArray) pages = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GPtrArray) samples = g_ptr_array_new ();

  g_ptr_array_sort (members, compare_groups_by_size);
  cluster->xpaths = g_new0 (char *, members->len + 1);
  for (guint i = 0; i < members->len; i++)
    {
      Group *group = members->pdata[i];

      cluster->xpaths[i] = g_strdup (group->xpath);
      g_array_append_vals (pages, group->members->data, group->members->len);
      for (guint s = 0; s < group->samples->len; s++)
        g_ptr_array_add (samples, group->samples->pdata[s]);
    }
  g_array_sort (pages, compare_guint);
  cluster->urls = g_ptr_array_new_full (pages->len, g_free);
  for (guint i = 0; i < pages->len; i++)
    g_ptr_array_add (cluster->urls, g_strdup (self->urls->pdata[g_array_index (pages, guint, i)]));
  cluster->fingerprint = cg_uxclust_fingerprint (samples, options->occurrence);
  cluster->n_sampled = samples->len;
  return cluster;
}

CgUxclustResult *
cg_uxclust_run (CgUxclust               *self,
                const CgUxclustOptions  *options,
                CgUxclustReadFunc        read,
                gpointer                 user_data,
                GError                 **error)
{
  CgUxclustOptions defaults;
  g_autoptr(GHashTable) by_xpath = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) groups = g_ptr_array_new_with_free_func ((GDestroyNotify) group_free);
  g_autoptr(GPtrArray) kept = g_ptr_array_new ();
  g_autoptr(GRand) rand = NULL;
  g_autoptr(GHashTable) components = NULL;
  g_autoptr(CgUxclustResult) result = NULL;
  GHashTableIter iter;
  gpointer value;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (read != NULL, NULL);

  if (options == NULL)
    {
      cg_uxclust_options_init (&defaults);
      options = &defaults;
    }
  if (!check_options (options, error))
    return NULL;

  result = g_new0 (CgUxclustResult, 1);
  result->clusters = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_uxclust_cluster_free);
  result->unclustered = g_ptr_array_new_with_free_func (g_free);
  result->n_pages = self->urls->len;

  /* 1. Approximate clustering: pages grouped by inbound-link XPath. */
  for (guint i = 0; i < self->urls->len; i++)
    {
      const char *xpath = self->xpaths->pdata[i];
      Group *group;

      if (xpath == NULL)
        continue;
      group = g_hash_table_lookup (by_xpath, xpath);
      if (group == NULL)
        {
          group = g_new0 (Group, 1);
          group->xpath = xpath;
          group->members = g_array_new (FALSE, FALSE, sizeof (guint));
          g_ptr_array_add (groups, group);
          g_hash_table_insert (by_xpath, (gpointer) xpath, group);
        }
      g_array_append_val (group->members, i);
    }
  result->n_groups = groups->len;

  /* 2. The cut-off. */
  for (guint g = 0; g < groups->len; g++)
    {
      Group *group = groups->pdata[g];

      if (group->members->len >= options->cutoff)
        {
          group->parent = kept->len;
          g_ptr_array_add (kept, group);
        }
    }
  result->n_kept_groups = kept->len;
  for (guint i = 0; i < self->urls->len; i++)
    {
      const char *xpath = self->xpaths->pdata[i];
      Group *group = xpath != NULL ? g_hash_table_lookup (by_xpath, xpath) : NULL;

      if (group == NULL || group->members->len < options->cutoff)
        g_ptr_array_add (result->unclustered, g_strdup (self->urls->pdata[i]));
    }

  /* 3. Fingerprints from a few sampled pages per group. */
  rand = g_rand_new_with_seed (options->seed);
  for (guint g = 0; g < kept->len; g++)
    if (!sample_group (self, kept->pdata[g], options, rand, read, user_data, &result->n_read, error))
      return NULL;

  /* 4. Groups whose fingerprints are alike are merged, transitively. */
  for (guint a = 0; a < kept->len; a++)
    for (guint b = a + 1; b < kept->len; b++)
      {
        Group *x = kept->pdata[a];
        Group *y = kept->pdata[b];
        guint root_a, root_b;

        root_a = find_root (kept, a);
        root_b = find_root (kept, b);
        if (root_a == root_b)
          continue;
        if (cg_uxclust_similarity ((const char * const *) x->fingerprint,
                                   (const char * const *) y->fingerprint,
                                   options->measure) > options->similarity)
          ((Group *) kept->pdata[MAX (root_a, root_b)])->parent = MIN (root_a, root_b);
      }

  components = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);
  for (guint g = 0; g < kept->len; g++)
    {
      guint root = find_root (kept, g);
      GPtrArray *members = g_hash_table_lookup (components, GUINT_TO_POINTER (root + 1));

      if (members == NULL)
        {
          members = g_ptr_array_new ();
          g_hash_table_insert (components, GUINT_TO_POINTER (root + 1), members);
        }
      g_ptr_array_add (members, kept->pdata[g]);
    }
  g_hash_table_iter_init (&iter, components);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (result->clusters, make_cluster (self, value, options));
  g_ptr_array_sort (result->clusters, compare_clusters);
  return g_steal_pointer (&result);
}
