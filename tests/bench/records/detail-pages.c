/* detail-pages.c: detail wrappers on SWDE's book pages, scored per attribute.
 *
 * Usage: detail-pages [--pages N] SWDE_DIR
 *
 * SWDE_DIR holds pages/SITE/NNNN.htm and groundtruth/SITE-ATTRIBUTE.txt
 * (tests/bench/records/detail-pages.sh runs it on
 * ../shared/datasets/swde-book-subset). For each site, a detail wrapper
 * (src/core/cg-wrapper.c, the project's extension to ClustVX for pages
 * that are one record each) is learned on the site's first N pages (5),
 * then applied to every page of the site. For each attribute of the
 * ground truth, every column of the wrapper is scored as SWDE scores an
 * extractor: a page's value is right when its normalised text equals one
 * of the page's true values (normalised as src/core/cg-record-metrics.c
 * does: NFKC, case-folded, words only, so that ": 9780316125581" and
 * "9780316125581" are one value); precision is right / pages where the
 * column gives a value, recall right / pages with a true value. The best
 * column by F1 stands for the attribute, and its precision, recall and
 * F1 are printed, one line per site and attribute, tab-separated:
 *
 *   site  attribute  column  pages  precision  recall  F1
 *
 * then the mean F1 per site. The learning pages are scored too, as SWDE's
 * protocol scores every page.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "cg-links.h"
#include "cg-record-metrics.h"
#include "cg-wrapper.h"

static const char * const attributes[] = { "title", "author", "isbn_13", "publisher", "publication_date", NULL };

/* page id → GPtrArray of normalised true values */
static GHashTable *
read_truth (const char  *path,
            GError     **error)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GHashTable *truth;

  if (!g_file_get_contents (path, &text, NULL, error))
    return NULL;
  truth = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  lines = g_strsplit (text, "\n", -1);
  /* Line 1 names the vertical, site and attribute, line 2 has counts. */
  for (guint i = 2; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = g_strsplit (g_strchomp (lines[i]), "\t", -1);
      GPtrArray *values;

      if (g_strv_length (fields) < 3)
        continue;
      values = g_ptr_array_new_with_free_func (g_free);
      for (guint f = 2; fields[f] != NULL; f++)
        {
          char *normal = cg_record_metrics_normalize (fields[f]);

          if (normal[0] != '\0' && !g_str_equal (normal, "null"))
            g_ptr_array_add (values, normal);
          else
            g_free (normal);
        }
      g_hash_table_insert (truth, g_strdup (fields[0]), values);
    }
  return truth;
}

static htmlDocPtr
read_page (const char  *path,
           GError     **error)
{
  g_autofree char *data = NULL;
  gsize length;
  const char *start;

  if (!g_file_get_contents (path, &data, &length, error))
    return NULL;
  start = data;
  /* SWDE's files start with a UTF-8 byte order mark. */
  if (length >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    {
      start += 3;
      length -= 3;
    }
  return cg_html_parse (start, length, NULL, "text/html; charset=utf-8", error);
}

static int
compare_names_cb (gconstpointer a,
                  gconstpointer b)
{
  return strcmp (*(const char **) a, *(const char **) b);
}

typedef struct {
  guint predicted;  /* pages where the column has a value */
  guint right;
} Counts;

static int
run_site (const char *dir,
          const char *site,
          guint       n_learn,
          double     *out_mean_f1)
{
  g_autofree char *pages_dir = g_build_filename (dir, "pages", site, NULL);
  g_autoptr(GDir) listing = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) docs = g_ptr_array_new ();
  g_autoptr(GPtrArray) truths = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  g_autoptr(GError) error = NULL;
  g_autoptr(CgWrapper) wrapper = NULL;
  g_autoptr(GPtrArray) page_records = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_auto(GStrv) columns = NULL;
  CgWrapperOptions options;
  const char *name;
  gint64 started, elapsed;
  double sum_f1 = 0;

  listing = g_dir_open (pages_dir, 0, &error);
  if (listing == NULL)
    {
      g_printerr ("detail-pages: %s\n", error->message);
      return 1;
    }
  while ((name = g_dir_read_name (listing)) != NULL)
    if (g_str_has_suffix (name, ".htm") || g_str_has_suffix (name, ".html"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names_cb);
  for (guint a = 0; attributes[a] != NULL; a++)
    {
      g_autofree char *file = g_strdup_printf ("%s-%s.txt", site, attributes[a]);
      g_autofree char *path = g_build_filename (dir, "groundtruth", file, NULL);
      GHashTable *truth = read_truth (path, &error);

      if (truth == NULL)
        {
          g_printerr ("detail-pages: %s\n", error->message);
          return 1;
        }
      g_ptr_array_add (truths, truth);
    }

  for (guint i = 0; i < MIN (n_learn, names->len); i++)
    {
      g_autofree char *path = g_build_filename (pages_dir, g_ptr_array_index (names, i), NULL);
      htmlDocPtr doc = read_page (path, &error);

      if (doc == NULL)
        {
          g_printerr ("detail-pages: %s: %s\n", path, error->message);
          return 1;
        }
      g_ptr_array_add (docs, doc);
    }
  cg_wrapper_options_init (&options);
  options.max_pages = MAX (1, MIN (n_learn, CG_WRAPPER_MAX_PAGES));
  options.detail = TRUE;
  started = g_get_monotonic_time ();
  wrapper = cg_wrapper_learn_full (site, docs, NULL, &options, &error);
  elapsed = g_get_monotonic_time () - started;
  if (wrapper == NULL)
    {
      g_printerr ("detail-pages: %s: %s\n", site, error->message);
      return 1;
    }
  columns = cg_wrapper_list_column_names (wrapper);
  g_printerr ("# %s: learned on %u pages in %.0f ms, %u columns\n", site, docs->len, elapsed / 1000.0,
              g_strv_length (columns));
  /* What the pages alone make of the class, as `cartograph-cli extract`
   * decides it. */
  options.detail = FALSE;
  {
    g_autoptr(CgWrapper) automatic = cg_wrapper_learn_full (site, docs, NULL, &options, NULL);

    g_printerr ("# %s: without being told, the wrapper learned on these pages is a %s wrapper\n", site,
                automatic != NULL ? cg_wrapper_kind_to_string (cg_wrapper_get_kind (automatic)) : "(no)");
  }

  for (guint i = 0; i < docs->len; i++)
    xmlFreeDoc (g_ptr_array_index (docs, i));

  started = g_get_monotonic_time ();
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (pages_dir, g_ptr_array_index (names, i), NULL);
      htmlDocPtr doc = read_page (path, &error);
      GPtrArray *records;

      if (doc == NULL)
        {
          g_printerr ("detail-pages: %s: %s\n", path, error->message);
          return 1;
        }
      records = cg_wrapper_apply (wrapper, doc, NULL, &error);
      xmlFreeDoc (doc);
      if (records == NULL)
        {
          g_printerr ("detail-pages: %s: %s\n", path, error->message);
          return 1;
        }
      g_ptr_array_add (page_records, records);
    }
  elapsed = g_get_monotonic_time () - started;
  g_printerr ("# %s: applied to %u pages, %.2f ms a page (parsing included)\n", site, names->len,
              elapsed / 1000.0 / MAX (names->len, 1));

  for (guint a = 0; attributes[a] != NULL; a++)
    {
      GHashTable *truth = g_ptr_array_index (truths, a);
      guint n_columns = g_strv_length (columns);
      g_autofree Counts *counts = g_new0 (Counts, n_columns);
      guint with_truth = 0;
      int best = -1;
      double best_p = 0, best_r = 0, best_f1 = -1;

      for (guint i = 0; i < names->len; i++)
        {
          g_autofree char *id = g_strndup (g_ptr_array_index (names, i), strcspn (g_ptr_array_index (names, i), "."));
          GPtrArray *values = g_hash_table_lookup (truth, id);
          GPtrArray *records = g_ptr_array_index (page_records, i);
          CgRecord *record = records->len > 0 ? g_ptr_array_index (records, 0) : NULL;

          if (values != NULL && values->len > 0)
            with_truth++;
          for (guint c = 0; c < n_columns && record != NULL; c++)
            {
              const char *value = cg_record_get (record, columns[c]);
              g_autofree char *normal = value != NULL ? cg_record_metrics_normalize (value) : NULL;

              if (normal == NULL || normal[0] == '\0')
                continue;
              counts[c].predicted++;
              for (guint v = 0; values != NULL && v < values->len; v++)
                if (g_str_equal (normal, g_ptr_array_index (values, v)))
                  {
                    counts[c].right++;
                    break;
                  }
            }
        }
      for (guint c = 0; c < n_columns; c++)
        {
          double p = counts[c].predicted > 0 ? (double) counts[c].right / counts[c].predicted : 0;
          double r = with_truth > 0 ? (double) counts[c].right / with_truth : 0;
          double f1 = p + r > 0 ? 2 * p * r / (p + r) : 0;

          if (f1 > best_f1)
            {
              best = (int) c;
              best_p = p;
              best_r = r;
              best_f1 = f1;
            }
        }
      printf ("%s\t%s\t%s\t%u\t%.3f\t%.3f\t%.3f\n", site, attributes[a], best >= 0 ? columns[best] : "-",
              names->len, best_p, best_r, MAX (best_f1, 0));
      sum_f1 += MAX (best_f1, 0);
    }
  *out_mean_f1 = sum_f1 / (G_N_ELEMENTS (attributes) - 1);
  return 0;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) sites = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *pages = NULL;
  int n_learn = CG_WRAPPER_DEFAULT_PAGES;
  const char *dir;
  const char *name;
  GOptionEntry entries[] = {
    { "pages", 'n', 0, G_OPTION_ARG_INT, &n_learn, "Pages to learn each site's wrapper on (default 5)", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("SWDE_DIR");

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2 || n_learn < 1)
    {
      g_printerr ("detail-pages: %s\n", error != NULL ? error->message : "usage: detail-pages [--pages N] SWDE_DIR");
      return 2;
    }
  dir = argv[1];
  pages = g_build_filename (dir, "pages", NULL);
  sites = g_dir_open (pages, 0, &error);
  if (sites == NULL)
    {
      g_printerr ("detail-pages: %s\n", error->message);
      return 1;
    }
  while ((name = g_dir_read_name (sites)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names_cb);
  printf ("site\tattribute\tcolumn\tpages\tprecision\trecall\tF1\n");
  for (guint s = 0; s < names->len; s++)
    {
      double mean = 0;

      if (run_site (dir, g_ptr_array_index (names, s), (guint) n_learn, &mean) != 0)
        return 1;
      printf ("%s\tmean\t\t\t\t\t%.3f\n", (const char *) g_ptr_array_index (names, s), mean);
    }
  return 0;
}
