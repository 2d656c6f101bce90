/* records-bench.c: the driver of the records benchmark (run.sh).
 *
 * Reads a manifest, one JSON object per line and page:
 *
 *   {"set": "fadwa-plain", "page": "c01-arts/…", "html": "/path/page.htm",
 *    "url": "http://…", "features": "plain" | "rendered" | "auto",
 *    "truth": [["value", …], …]}            records by text, or
 *   {"set": …, "truth_xpath": "//li"}       record containers by XPath
 *
 * parses each page with core's parser (cg_page_parse(), which reads bytes
 * that are not valid in a page's character set as a browser does), runs
 * ClustVX on it, takes the best region
 * (the benchmarks count one main list per page, as the thesis does) and
 * scores its records with cg-record-metrics: by text with seed 003's
 * criterion, or by element for the XPath ground truth. Extraction is
 * timed alone (parsing is timed apart) and repeated --repeat times.
 *
 * Prints one line per set, tab-separated: name, pages, records (actual,
 * extracted, aligned, correct), precision, both recalls, both F1, the
 * mean extraction time (wall and CPU, milliseconds), the longest (wall),
 * the mean parse time, pages unreadable, pages without a region, and "text" or "element"; and writes one JSON line
 * per page to --details.
 *
 * Ground truth that the page does not hold. A data set's truth may list
 * records that its saved page does not show (the page was saved at
 * another moment than the truth was taken), which no extractor can find.
 * For each page scored by text, the truth records are aligned, with the
 * same aligner and criterion, against the whole text of the saved page
 * (the "plain" entry of the page, its text nodes and image alt texts);
 * a truth record that does not count as found there is absent from the
 * page. Every set with such pages gets a second line, named SET*, scored
 * without those pages, and the pages are written to --absent (set, page,
 * truth records, records absent).
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <json-glib/json-glib.h>

#include "cg-clustvx.h"
#include "cg-dom-path.h"
#include "cg-links.h"
#include "cg-page-features.h"
#include "cg-record-metrics.h"

typedef struct {
  char          *name;
  guint          pages;
  guint          absent_pages;  /* pages whose truth holds records absent from the page */
  CgRecordScore  clean;         /* the score without them */
  guint          failed;      /* pages that could not be read at all */
  guint          empty;       /* pages where no region was found */
  gboolean       by_element;
  CgRecordScore  score;
  double         extract_ms;
  double         extract_cpu_ms;
  double         max_ms;
  double         parse_ms;
} Set;

static void
set_free (Set *set)
{
  g_free (set->name);
  g_free (set);
}

static GPtrArray *
truth_records (JsonArray *truth)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  for (guint r = 0; r < json_array_get_length (truth); r++)
    {
      JsonArray *values = json_array_get_array_element (truth, r);
      GStrv record = g_new0 (char *, json_array_get_length (values) + 1);

      for (guint v = 0; v < json_array_get_length (values); v++)
        record[v] = g_strdup (json_array_get_string_element (values, v));
      g_ptr_array_add (out, record);
    }
  return out;
}

static CgClustvxFeatures
parse_features (const char *text)
{
  if (g_strcmp0 (text, "plain") == 0)
    return CG_CLUSTVX_FEATURES_PLAIN;
  if (g_strcmp0 (text, "rendered") == 0)
    return CG_CLUSTVX_FEATURES_RENDERED;
  return CG_CLUSTVX_FEATURES_AUTO;
}

/* The text of @node's subtree, its text nodes and image alt texts, as
 * words separated by spaces, appended to @words. */
static void
collect_words (xmlNodePtr  node,
               GPtrArray  *words,
               guint       depth)
{
  for (xmlNodePtr child = node->children; child != NULL && depth < 512; child = child->next)
    {
      if (child->type == XML_TEXT_NODE || child->type == XML_CDATA_SECTION_NODE)
        {
          g_auto(GStrv) parts = g_strsplit_set ((const char *) child->content, " \t\r\n\f", -1);

          for (guint i = 0; parts[i] != NULL; i++)
            if (parts[i][0] != '\0')
              g_ptr_array_add (words, g_strdup (parts[i]));
        }
      else if (child->type == XML_ELEMENT_NODE)
        {
          const char *name = (const char *) child->name;

          if (g_ascii_strcasecmp (name, "script") == 0 || g_ascii_strcasecmp (name, "style") == 0)
            continue;
          if (g_ascii_strcasecmp (name, "img") == 0)
            {
              xmlChar *alt = xmlGetProp (child, (const xmlChar *) "alt");

              if (alt != NULL && alt[0] != '\0')
                g_ptr_array_add (words, g_strdup ((const char *) alt));
              xmlFree (alt);
            }
          collect_words (child, words, depth + 1);
        }
    }
}

/* The page's text cut into overlapping windows of words, each one
 * "record" of one value for the aligner (which reads a bounded number of
 * words per record); the overlap is longer than any record. */
#define WINDOW_WORDS  1000
#define WINDOW_STEP   500

static GPtrArray *
page_windows (htmlDocPtr doc)
{
  g_autoptr(GPtrArray) words = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *windows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  xmlNodePtr root = xmlDocGetRootElement (doc);

  if (root != NULL)
    collect_words (root, words, 0);
  for (guint start = 0; start == 0 || start + WINDOW_STEP < words->len + WINDOW_STEP; start += WINDOW_STEP)
    {
      g_autoptr(GString) text = g_string_new (NULL);
      GStrv record = g_new0 (char *, 2);

      for (guint i = start; i < words->len && i < start + WINDOW_WORDS; i++)
        {
          if (text->len > 0)
            g_string_append_c (text, ' ');
          g_string_append (text, g_ptr_array_index (words, i));
        }
      record[0] = g_string_free (g_steal_pointer (&text), FALSE);
      g_ptr_array_add (windows, record);
      if (start + WINDOW_WORDS >= words->len)
        break;
    }
  return windows;
}

/* Truth records of @truth that the page's text does not hold. */
static guint
count_absent (GPtrArray  *truth,
              htmlDocPtr  doc)
{
  g_autoptr(GPtrArray) windows = page_windows (doc);
  guint absent = 0;

  for (guint r = 0; r < truth->len; r++)
    {
      g_autoptr(GPtrArray) one = g_ptr_array_new ();
      g_autoptr(GArray) matches = NULL;
      CgRecordScore score;

      g_ptr_array_add (one, g_ptr_array_index (truth, r));
      matches = cg_record_metrics_align (one, windows, NULL, &score);
      if (score.n_actual > 0 && score.n_correct == 0)
        absent++;
    }
  return absent;
}

/* The CPU time of this thread: on a machine shared with other work, the
 * wall time of a few milliseconds of extraction mostly measures the load. */
static double
thread_cpu_ms (void)
{
  struct timespec now;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &now);
  return now.tv_sec * 1000.0 + now.tv_nsec / 1e6;
}

static void
print_json_string (FILE       *out,
                   const char *text)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);
  g_autofree char *quoted = NULL;

  json_node_set_string (node, text != NULL ? text : "");
  quoted = json_to_string (node, FALSE);
  fputs (quoted, out);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *details_path = NULL;
  g_autofree char *absent_path = NULL;
  int repeat = 3;
  const GOptionEntry entries[] = {
    { "details", 0, 0, G_OPTION_ARG_FILENAME, &details_path, "Write one JSON line per page here", "FILE" },
    { "absent", 0, 0, G_OPTION_ARG_FILENAME, &absent_path,
      "Write the pages whose truth holds records absent from the page here", "FILE" },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat, "Run each extraction this many times (default 3)", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("MANIFEST.jsonl");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) sets = g_ptr_array_new_with_free_func ((GDestroyNotify) set_free);
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GIOChannel) channel = NULL;
  /* page → truth records absent from its saved (plain) page */
  g_autoptr(GHashTable) absent_by_page = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  FILE *details = NULL;
  FILE *absent_out = NULL;
  char *line = NULL;
  gsize length;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2 || repeat < 1)
    {
      g_printerr ("usage: records-bench [--details FILE] [--repeat N] MANIFEST.jsonl%s%s\n",
                  error != NULL ? ": " : "", error != NULL ? error->message : "");
      return 2;
    }
  channel = g_io_channel_new_file (argv[1], "r", &error);
  if (channel == NULL)
    {
      g_printerr ("records-bench: %s\n", error->message);
      return 1;
    }
  if (details_path != NULL && (details = fopen (details_path, "w")) == NULL)
    {
      g_printerr ("records-bench: cannot write %s\n", details_path);
      return 1;
    }
  if (absent_path != NULL && (absent_out = fopen (absent_path, "w")) == NULL)
    {
      g_printerr ("records-bench: cannot write %s\n", absent_path);
      return 1;
    }

  while (g_io_channel_read_line (channel, &line, &length, NULL, &error) == G_IO_STATUS_NORMAL)
    {
      g_autofree char *owned = line;
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *page;
      const char *set_name, *html_path, *url;
      Set *set;
      g_autofree char *contents = NULL;
      gsize size = 0;
      htmlDocPtr doc = NULL;
      gint64 start, end;
      double extract_ms = 0, extract_cpu_ms = 0, cpu_start;
      CgClustvxOptions options;
      CgClustvxResult *result = NULL;
      CgRecordScore score;
      CgClustvxRegion *best = NULL;
      g_autoptr(GError) page_error = NULL;

      g_strstrip (owned);
      if (*owned == '\0')
        continue;
      if (!json_parser_load_from_data (parser, owned, -1, &page_error))
        {
          g_printerr ("records-bench: a manifest line is not JSON: %s\n", page_error->message);
          return 1;
        }
      page = json_node_get_object (json_parser_get_root (parser));
      set_name = json_object_get_string_member (page, "set");
      html_path = json_object_get_string_member (page, "html");
      url = json_object_get_string_member_with_default (page, "url", NULL);

      set = g_hash_table_lookup (by_name, set_name);
      if (set == NULL)
        {
          set = g_new0 (Set, 1);
          set->name = g_strdup (set_name);
          set->by_element = json_object_has_member (page, "truth_xpath");
          g_ptr_array_add (sets, set);
          g_hash_table_insert (by_name, set->name, set);
        }
      set->pages++;

      if (!g_file_get_contents (html_path, &contents, &size, &page_error))
        {
          g_printerr ("records-bench: %s\n", page_error->message);
          set->failed++;
          continue;
        }
      start = g_get_monotonic_time ();
      doc = cg_page_parse (contents, size, url, NULL, &page_error);
      end = g_get_monotonic_time ();
      if (doc == NULL)
        {
          g_printerr ("records-bench: %s: %s\n", html_path, page_error->message);
          set->failed++;
          continue;
        }
      set->parse_ms += (end - start) / 1000.0;

      cg_clustvx_options_init (&options);
      options.features = parse_features (json_object_get_string_member_with_default (page, "features", "auto"));
      for (int r = 0; r < repeat; r++)
        {
          g_clear_pointer (&result, cg_clustvx_result_free);
          start = g_get_monotonic_time ();
          cpu_start = thread_cpu_ms ();
          result = cg_clustvx_extract (doc, &options, &page_error);
          extract_cpu_ms += thread_cpu_ms () - cpu_start;
          end = g_get_monotonic_time ();
          extract_ms += (end - start) / 1000.0;
          if (result == NULL)
            break;
        }
      if (result == NULL)
        {
          g_printerr ("records-bench: %s: %s\n", html_path, page_error->message);
          set->failed++;
          xmlFreeDoc (doc);
          continue;
        }
      extract_ms /= repeat;
      extract_cpu_ms /= repeat;
      set->extract_ms += extract_ms;
      set->extract_cpu_ms += extract_cpu_ms;
      set->max_ms = MAX (set->max_ms, extract_ms);
      if (result->regions->len > 0)
        best = g_ptr_array_index (result->regions, 0);
      else
        set->empty++;

      if (set->by_element)
        {
          const char *xpath = json_object_get_string_member (page, "truth_xpath");
          g_autoptr(GPtrArray) actual = cg_dom_xpath_eval (doc, NULL, xpath, &page_error);
          g_autoptr(GPtrArray) extracted = g_ptr_array_new ();

          if (actual == NULL)
            {
              g_printerr ("records-bench: %s: %s\n", html_path, page_error->message);
              actual = g_ptr_array_new ();
            }
          for (guint r = 0; best != NULL && r < best->records->len; r++)
            {
              CgClustvxRecord *record = g_ptr_array_index (best->records, r);

              g_ptr_array_add (extracted, g_ptr_array_index (record->nodes, 0));
            }
          cg_record_metrics_score_nodes (actual, extracted, &score);
        }
      else
        {
          g_autoptr(GPtrArray) actual = truth_records (json_object_get_array_member (page, "truth"));
          g_autoptr(GPtrArray) extracted = best != NULL ? cg_record_metrics_region_texts (best)
                                                        : g_ptr_array_new ();
          g_autoptr(GArray) matches = cg_record_metrics_align (actual, extracted, NULL, &score);
          const char *name = json_object_get_string_member_with_default (page, "page", html_path);
          gpointer absent;

          /* The saved page is the plain entry; the rendered one of the
           * same page comes after it and takes its count. */
          if (!g_hash_table_lookup_extended (absent_by_page, name, NULL, &absent) ||
              g_strcmp0 (json_object_get_string_member_with_default (page, "features", "auto"), "plain") == 0)
            {
              absent = GUINT_TO_POINTER (count_absent (actual, doc));
              g_hash_table_replace (absent_by_page, g_strdup (name), absent);
            }
          if (GPOINTER_TO_UINT (absent) > 0)
            {
              set->absent_pages++;
              if (absent_out != NULL)
                fprintf (absent_out, "%s\t%s\t%u\t%u\n", set->name, name, actual->len, GPOINTER_TO_UINT (absent));
            }
          else
            cg_record_score_add (&set->clean, &score);
        }
      cg_record_score_add (&set->score, &score);

      if (details != NULL)
        {
          fprintf (details, "{\"set\": ");
          print_json_string (details, set->name);
          fprintf (details, ", \"page\": ");
          print_json_string (details, json_object_get_string_member_with_default (page, "page", html_path));
          fprintf (details, ", \"actual\": %u, \"extracted\": %u, \"aligned\": %u, \"correct\": %u, "
                   "\"ms\": %.3f, \"cpu_ms\": %.3f, \"regions\": %u, \"rendered\": %s, \"region\": ",
                   score.n_actual, score.n_extracted, score.n_aligned, score.n_correct, extract_ms, extract_cpu_ms,
                   result->regions->len, result->rendered ? "true" : "false");
          print_json_string (details, best != NULL ? best->xpath : "");
          fprintf (details, ", \"message\": ");
          print_json_string (details, result->message);
          fprintf (details, "}\n");
        }
      cg_clustvx_result_free (result);
      xmlFreeDoc (doc);
    }
  if (error != NULL)
    {
      g_printerr ("records-bench: %s\n", error->message);
      return 1;
    }
  if (details != NULL)
    fclose (details);
  if (absent_out != NULL)
    fclose (absent_out);

  for (guint s = 0; s < sets->len; s++)
    {
      Set *set = g_ptr_array_index (sets, s);
      guint timed = set->pages - set->failed;

      printf ("%s\t%u\t%u\t%u\t%u\t%u\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.3f\t%.3f\t%.3f\t%.3f\t%u\t%u\t%s\n",
              set->name, set->pages, set->score.n_actual, set->score.n_extracted, set->score.n_aligned,
              set->score.n_correct, set->score.precision, set->score.recall, set->score.recall_correct,
              set->score.f1, set->score.f1_correct,
              timed > 0 ? set->extract_ms / timed : 0, timed > 0 ? set->extract_cpu_ms / timed : 0, set->max_ms,
              timed > 0 ? set->parse_ms / timed : 0,
              set->failed, set->empty, set->by_element ? "element" : "text");
      if (set->absent_pages > 0)
        printf ("%s*\t%u\t%u\t%u\t%u\t%u\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.3f\t%.3f\t%.3f\t%.3f\t%u\t%u\t%s\n",
                set->name, set->pages - set->absent_pages, set->clean.n_actual, set->clean.n_extracted,
                set->clean.n_aligned, set->clean.n_correct, set->clean.precision, set->clean.recall,
                set->clean.recall_correct, set->clean.f1, set->clean.f1_correct,
                timed > 0 ? set->extract_ms / timed : 0, timed > 0 ? set->extract_cpu_ms / timed : 0, set->max_ms,
                timed > 0 ? set->parse_ms / timed : 0, 0u, 0u, "text");
    }
  return 0;
}
