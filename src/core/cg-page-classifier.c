/* cg-page-classifier.c: which class of a site model a fetched page belongs to.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "cg-page-classifier.h"
#include "cg-page-features.h"

G_DEFINE_QUARK (cg-page-classifier-error-quark, cg_page_classifier_error)

typedef struct {
  char   *name;
  GStrv   schema;        /* sorted, no duplicates */
  GRegex *url_regex;     /* NULL without a URL pattern */
  GStrv   fingerprint;   /* sorted; NULL without one */
} Klass;

struct _CgPageClassifier
{
  GPtrArray  *classes;      /* Klass *, in the model's order */
  GHashTable *by_name;      /* name → Klass * */
  GHashTable *by_xpath;     /* inbound-link XPath → Klass * */
  double      fingerprint_similarity;
  double      schema_distance;
  CgUxclustMeasure measure;
  gboolean    has_fingerprints;
};

static void
klass_free (Klass *klass)
{
  g_free (klass->name);
  g_strfreev (klass->schema);
  g_clear_pointer (&klass->url_regex, g_regex_unref);
  g_strfreev (klass->fingerprint);
  g_free (klass);
}

const char *
cg_classify_method_to_string (CgClassifyMethod method)
{
  switch (method)
    {
    case CG_CLASSIFY_LINK:
      return "link";
    case CG_CLASSIFY_UXCLUST:
      return "uxclust";
    case CG_CLASSIFY_SCHEMA:
      return "schema";
    case CG_CLASSIFY_NONE:
    default:
      return "none";
    }
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The strings of @strings, sorted, once each. */
static GStrv
sorted_unique (GPtrArray *strings)
{
  GStrv out = g_new0 (char *, strings->len + 1);
  guint n = 0;

  g_ptr_array_sort (strings, compare_strings);
  for (guint i = 0; i < strings->len; i++)
    if (n == 0 || strcmp (out[n - 1], strings->pdata[i]) != 0)
      out[n++] = g_strdup (strings->pdata[i]);
  return out;
}

static GStrv
sorted_unique_strv (const char * const *strv)
{
  g_autoptr(GPtrArray) strings = g_ptr_array_new ();

  for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
    g_ptr_array_add (strings, (gpointer) strv[i]);
  return sorted_unique (strings);
}

GStrv
cg_page_schema_collect (htmlDocPtr   doc,
                        const char  *url,
                        GError     **error)
{
  g_autoptr(GPtrArray) anchors = NULL;
  g_autoptr(GPtrArray) texts = NULL;
  g_autoptr(GPtrArray) link_collections = NULL;
  g_autoptr(GPtrArray) text_collections = NULL;
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();

  g_return_val_if_fail (doc != NULL, NULL);
  g_return_val_if_fail (url != NULL, NULL);

  anchors = cg_page_collect_anchors (doc, url, error);
  if (anchors == NULL)
    return NULL;
  texts = cg_page_collect_texts (doc);
  link_collections = cg_page_link_collections (anchors);
  text_collections = cg_page_text_collections (texts);
  for (guint i = 0; i < link_collections->len; i++)
    g_ptr_array_add (paths, ((CgPageCollection *) link_collections->pdata[i])->xpath);
  for (guint i = 0; i < text_collections->len; i++)
    g_ptr_array_add (paths, ((CgPageCollection *) text_collections->pdata[i])->xpath);
  return sorted_unique (paths);
}

double
cg_page_schema_distance (const char * const *a,
                         const char * const *b)
{
  guint n_a, n_b, common = 0;
  guint i = 0, j = 0;

  g_return_val_if_fail (a != NULL && b != NULL, 1.0);

  n_a = g_strv_length ((GStrv) a);
  n_b = g_strv_length ((GStrv) b);
  if (n_a + n_b == 0)
    return 1.0;
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
  return 1.0 - (double) common / (n_a + n_b - common);
}

CgPageClassifier *
cg_page_classifier_new (CgSiteModel  *model,
                        GError      **error)
{
  g_autoptr(CgPageClassifier) self = NULL;
  GPtrArray *classes;

  g_return_val_if_fail (CG_IS_SITE_MODEL (model), NULL);

  self = g_new0 (CgPageClassifier, 1);
  self->classes = g_ptr_array_new_with_free_func ((GDestroyNotify) klass_free);
  self->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  self->by_xpath = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->fingerprint_similarity = CG_UXCLUST_DEFAULT_SIMILARITY;
  self->schema_distance = CG_PAGE_CLASSIFIER_DEFAULT_SCHEMA_DISTANCE;
  self->measure = CG_PAGE_CLASSIFIER_DEFAULT_MEASURE;

  classes = cg_site_model_get_classes (model);
  for (guint i = 0; i < classes->len; i++)
    {
      CgPageClass *page_class = classes->pdata[i];
      Klass *klass = g_new0 (Klass, 1);

      klass->name = g_strdup (page_class->name);
      klass->schema = sorted_unique_strv ((const char * const *) page_class->schema);
      g_ptr_array_add (self->classes, klass);
      g_hash_table_insert (self->by_name, klass->name, klass);
      if (page_class->url_pattern != NULL)
        {
          g_autoptr(GError) regex_error = NULL;

          klass->url_regex = g_regex_new (page_class->url_pattern, G_REGEX_OPTIMIZE, 0, &regex_error);
          if (klass->url_regex == NULL)
            {
              g_set_error (error, CG_PAGE_CLASSIFIER_ERROR, CG_PAGE_CLASSIFIER_ERROR_INVALID_MODEL,
                           _("The URL pattern of the page class “%s” is not a regular expression: %s"),
                           klass->name, regex_error->message);
              return NULL;
            }
        }
    }
  return g_steal_pointer (&self);
}

void
cg_page_classifier_free (CgPageClassifier *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->by_xpath);
  g_hash_table_unref (self->by_name);
  g_ptr_array_unref (self->classes);
  g_free (self);
}

static gboolean
unknown_class (GError     **error,
               const char  *name)
{
  g_autofree char *shown = g_utf8_make_valid (name, MIN (strlen (name), 200));

  g_set_error (error, CG_PAGE_CLASSIFIER_ERROR, CG_PAGE_CLASSIFIER_ERROR_UNKNOWN_CLASS,
               _("The site model has no page class “%s”"), shown);
  return FALSE;
}

gboolean
cg_page_classifier_set_fingerprint (CgPageClassifier   *self,
                                    const char         *class_name,
                                    const char * const *fingerprint,
                                    const char * const *inbound_xpaths,
                                    GError            **error)
{
  Klass *klass;
  GHashTableIter iter;
  gpointer value;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (class_name != NULL, FALSE);
  g_return_val_if_fail (fingerprint != NULL, FALSE);

  klass = g_hash_table_lookup (self->by_name, class_name);
  if (klass == NULL)
    return unknown_class (error, class_name);

  g_strfreev (klass->fingerprint);
  klass->fingerprint = sorted_unique_strv (fingerprint);
  self->has_fingerprints = TRUE;

  g_hash_table_iter_init (&iter, self->by_xpath);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (value == klass)
      g_hash_table_iter_remove (&iter);
  for (guint i = 0; inbound_xpaths != NULL && inbound_xpaths[i] != NULL; i++)
    g_hash_table_insert (self->by_xpath, g_strdup (inbound_xpaths[i]), klass);
  return TRUE;
}

gboolean
cg_page_classifier_set_schema (CgPageClassifier   *self,
                               const char         *class_name,
                               const char * const *schema,
                               GError            **error)
{
  Klass *klass;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (class_name != NULL, FALSE);
  g_return_val_if_fail (schema != NULL, FALSE);

  klass = g_hash_table_lookup (self->by_name, class_name);
  if (klass == NULL)
    return unknown_class (error, class_name);
  g_strfreev (klass->schema);
  klass->schema = sorted_unique_strv (schema);
  return TRUE;
}

void
cg_page_classifier_set_thresholds (CgPageClassifier *self,
                                   double            fingerprint_similarity,
                                   double            schema_distance)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (fingerprint_similarity >= 0.0 && fingerprint_similarity <= 1.0);
  g_return_if_fail (schema_distance >= 0.0 && schema_distance <= 1.0);

  self->fingerprint_similarity = fingerprint_similarity;
  self->schema_distance = schema_distance;
}

void
cg_page_classifier_set_measure (CgPageClassifier *self,
                                CgUxclustMeasure  measure)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (measure == CG_UXCLUST_MEASURE_COMMON_PATHS || measure == CG_UXCLUST_MEASURE_JACCARD);

  self->measure = measure;
}

/* The leaf paths of @doc as a one-page fingerprint. */
static GStrv
page_fingerprint (htmlDocPtr doc)
{
  g_autoptr(GHashTable) leaves = cg_page_collect_leaf_paths (doc, CG_LEAF_PATHS_ALL_LEAVES);
  g_autoptr(GPtrArray) pages = g_ptr_array_new ();

  g_ptr_array_add (pages, leaves);
  return cg_uxclust_fingerprint (pages, 0.0);
}

static gboolean
url_matches (const Klass *klass,
             const char  *url)
{
  return klass->url_regex != NULL && g_regex_match (klass->url_regex, url, 0, NULL);
}

gboolean
cg_page_classifier_classify (CgPageClassifier  *self,
                             htmlDocPtr         doc,
                             const char        *url,
                             const char        *inbound_xpath,
                             const char        *link_class,
                             CgClassification  *out,
                             GError           **error)
{
  g_auto(GStrv) schema = NULL;
  Klass *best = NULL;
  double best_distance = 1.0;
  double nearest = 1.0;
  gboolean best_url = FALSE;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (doc != NULL, FALSE);
  g_return_val_if_fail (url != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  out->class_name = NULL;
  out->method = CG_CLASSIFY_NONE;
  out->score = 1.0;

  if (link_class != NULL)
    {
      Klass *klass = g_hash_table_lookup (self->by_name, link_class);

      if (klass == NULL)
        return unknown_class (error, link_class);
      out->class_name = klass->name;
      out->method = CG_CLASSIFY_LINK;
      out->score = 1.0;
      return TRUE;
    }

  /* The schema needs the page's links, which fail only for a URL that is
   * not http(s); it is collected first so that such a URL fails whichever
   * evidence would have decided. */
  schema = cg_page_schema_collect (doc, url, error);
  if (schema == NULL)
    return FALSE;

  if (self->has_fingerprints)
    {
      g_auto(GStrv) fingerprint = page_fingerprint (doc);
      Klass *expected = inbound_xpath != NULL ? g_hash_table_lookup (self->by_xpath, inbound_xpath) : NULL;
      Klass *similar = NULL;
      double best_similarity = 0.0;

      if (expected != NULL && expected->fingerprint != NULL)
        {
          double similarity = cg_uxclust_similarity ((const char * const *) fingerprint,
                                                     (const char * const *) expected->fingerprint,
                                                     self->measure);

          if (similarity > self->fingerprint_similarity)
            {
              out->class_name = expected->name;
              out->method = CG_CLASSIFY_UXCLUST;
              out->score = similarity;
              return TRUE;
            }
        }
      for (guint i = 0; i < self->classes->len; i++)
        {
          Klass *klass = self->classes->pdata[i];
          double similarity;

          if (klass->fingerprint == NULL)
            continue;
          similarity = cg_uxclust_similarity ((const char * const *) fingerprint,
                                              (const char * const *) klass->fingerprint,
                                              self->measure);
          if (similarity > best_similarity)
            {
              best_similarity = similarity;
              similar = klass;
            }
        }
      if (similar != NULL && best_similarity > self->fingerprint_similarity)
        {
          out->class_name = similar->name;
          out->method = CG_CLASSIFY_UXCLUST;
          out->score = best_similarity;
          return TRUE;
        }
    }

  for (guint i = 0; i < self->classes->len; i++)
    {
      Klass *klass = self->classes->pdata[i];
      double distance;
      gboolean matches;

      if (klass->schema[0] == NULL)
        continue;
      distance = cg_page_schema_distance ((const char * const *) schema, (const char * const *) klass->schema);
      nearest = MIN (nearest, distance);
      if (!(distance < self->schema_distance))
        continue;
      matches = url_matches (klass, url);
      if (best == NULL || (matches && !best_url) || (matches == best_url && distance < best_distance))
        {
          best = klass;
          best_distance = distance;
          best_url = matches;
        }
    }
  if (best != NULL)
    {
      out->class_name = best->name;
      out->method = CG_CLASSIFY_SCHEMA;
      out->score = best_distance;
      return TRUE;
    }
  out->score = nearest;
  return TRUE;
}

gboolean
cg_page_classifier_learn_samples (CgPageClassifier  *self,
                                  const char        *class_name,
                                  GPtrArray         *docs,
                                  GPtrArray         *urls,
                                  GError           **error)
{
  g_autoptr(GHashTable) paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) leaves = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  g_autofree char **schema = NULL;
  g_auto(GStrv) fingerprint = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (docs != NULL && urls != NULL && docs->len == urls->len, FALSE);

  if (docs->len == 0)
    return TRUE;
  for (guint i = 0; i < docs->len; i++)
    {
      htmlDocPtr doc = g_ptr_array_index (docs, i);
      g_auto(GStrv) page_schema = cg_page_schema_collect (doc, g_ptr_array_index (urls, i), NULL);

      for (guint p = 0; page_schema != NULL && page_schema[p] != NULL; p++)
        g_hash_table_add (paths, g_strdup (page_schema[p]));
      g_ptr_array_add (leaves, cg_page_collect_leaf_paths (doc, CG_LEAF_PATHS_ALL_LEAVES));
    }
  schema = (char **) g_hash_table_get_keys_as_array (paths, NULL);
  if (!cg_page_classifier_set_schema (self, class_name, (const char * const *) schema, error))
    return FALSE;
  fingerprint = cg_uxclust_fingerprint (leaves, CG_UXCLUST_DEFAULT_OCCURRENCE);
  return cg_page_classifier_set_fingerprint (self, class_name, (const char * const *) fingerprint, NULL, error);
}

gboolean
cg_page_classifier_store_label (CgStore           *store,
                                gint64             url_id,
                                gint64             model_id,
                                const char        *class_name,
                                CgClassifyMethod   method,
                                GError           **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (CG_IS_STORE (store), FALSE);

  stmt = cg_store_prepare (store,
                           "INSERT OR REPLACE INTO page_labels (url_id, model_id, class, method) VALUES (?1, ?2, ?3, ?4)",
                           error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, url_id);
  sqlite3_bind_int64 (stmt, 2, model_id);
  if (class_name != NULL)
    sqlite3_bind_text (stmt, 3, class_name, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 4, cg_classify_method_to_string (method), -1, SQLITE_STATIC);
  return cg_store_step_done (store, stmt, error);
}
