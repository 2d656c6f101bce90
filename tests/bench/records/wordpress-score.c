/* wordpress-score.c: scores extracted records against WordPress's ground
 * truth with seed 003's criterion (cg-record-metrics), for wordpress.sh.
 *
 * Reads, one JSON object per line and page:
 *
 *   {"set": "model", "page": "http://…/tag/x/", "class": "tag",
 *    "truth": [["title", "date", "author"], …],
 *    "regions": [{"name": "/html/body/…", "records": [["item", …], …]}, …]}
 *
 * aligns each region's records with the truth (cg_record_metrics_align())
 * and writes one JSON line per page: the region whose records match best
 * (the most correct records, then the fewest extracted) with its counts and
 * the judgement of each of its records and of each actual record, and the
 * counts of all the page's regions taken together as one list of records
 * (what an export of the page holds). The text is written by wordpress.sh.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "cg-record-metrics.h"

static GPtrArray *
strv_array (JsonArray *rows)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  for (guint i = 0; rows != NULL && i < json_array_get_length (rows); i++)
    {
      JsonArray *row = json_array_get_array_element (rows, i);
      guint n = row != NULL ? json_array_get_length (row) : 0;
      char **values = g_new0 (char *, n + 1);

      for (guint j = 0; j < n; j++)
        {
          const char *value = json_array_get_string_element (row, j);

          values[j] = g_strdup (value != NULL ? value : "");
        }
      g_ptr_array_add (out, values);
    }
  return out;
}

static void
write_score (JsonBuilder *builder, const CgRecordScore *score)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "actual");
  json_builder_add_int_value (builder, score->n_actual);
  json_builder_set_member_name (builder, "extracted");
  json_builder_add_int_value (builder, score->n_extracted);
  json_builder_set_member_name (builder, "aligned");
  json_builder_add_int_value (builder, score->n_aligned);
  json_builder_set_member_name (builder, "correct");
  json_builder_add_int_value (builder, score->n_correct);
  json_builder_end_object (builder);
}

int
main (int argc, char **argv)
{
  g_autoptr(GIOChannel) channel = NULL;
  g_autoptr(GError) error = NULL;
  char *line = NULL;
  gsize length = 0;

  if (argc != 2)
    {
      g_printerr ("usage: wordpress-score INPUT.jsonl\n");
      return 2;
    }
  channel = g_io_channel_new_file (argv[1], "r", &error);
  if (channel == NULL)
    {
      g_printerr ("wordpress-score: %s\n", error->message);
      return 1;
    }
  while (g_io_channel_read_line (channel, &line, &length, NULL, &error) == G_IO_STATUS_NORMAL)
    {
      g_autofree char *owned = line;
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonGenerator) generator = json_generator_new ();
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *text = NULL;
      g_autoptr(GPtrArray) actual = NULL;
      g_autoptr(GPtrArray) everything = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
      g_autoptr(GArray) best_matches = NULL;
      g_autoptr(GPtrArray) best_extracted = NULL;
      JsonObject *page;
      JsonArray *regions;
      CgRecordScore best_score, all_score;
      int best = -1;

      g_strstrip (owned);
      if (*owned == '\0')
        continue;
      if (!json_parser_load_from_data (parser, owned, -1, &error))
        {
          g_printerr ("wordpress-score: a line is not JSON: %s\n", error->message);
          return 1;
        }
      page = json_node_get_object (json_parser_get_root (parser));
      actual = strv_array (json_object_get_array_member (page, "truth"));
      regions = json_object_has_member (page, "regions") ? json_object_get_array_member (page, "regions") : NULL;
      cg_record_score_init (&best_score);
      for (guint r = 0; regions != NULL && r < json_array_get_length (regions); r++)
        {
          JsonObject *region = json_array_get_object_element (regions, r);
          g_autoptr(GPtrArray) extracted = strv_array (json_object_get_array_member (region, "records"));
          g_autoptr(GArray) matches = NULL;
          CgRecordScore score;

          matches = cg_record_metrics_align (actual, extracted, NULL, &score);
          if (best < 0 || score.n_correct > best_score.n_correct ||
              (score.n_correct == best_score.n_correct && score.n_extracted < best_score.n_extracted))
            {
              best = r;
              best_score = score;
              g_clear_pointer (&best_matches, g_array_unref);
              g_clear_pointer (&best_extracted, g_ptr_array_unref);
              best_matches = g_steal_pointer (&matches);
              best_extracted = g_ptr_array_ref (extracted);
            }
          for (guint i = 0; i < extracted->len; i++)
            g_ptr_array_add (everything, g_strdupv (g_ptr_array_index (extracted, i)));
        }
      if (best < 0)
        {
          g_autoptr(GPtrArray) none = g_ptr_array_new ();

          best_matches = cg_record_metrics_align (actual, none, NULL, &best_score);
        }
      {
        g_autoptr(GArray) all_matches = cg_record_metrics_align (actual, everything, NULL, &all_score);
      }

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "set");
      json_builder_add_string_value (builder, json_object_get_string_member_with_default (page, "set", ""));
      json_builder_set_member_name (builder, "page");
      json_builder_add_string_value (builder, json_object_get_string_member_with_default (page, "page", ""));
      json_builder_set_member_name (builder, "class");
      json_builder_add_string_value (builder, json_object_get_string_member_with_default (page, "class", ""));
      json_builder_set_member_name (builder, "regions");
      json_builder_add_int_value (builder, regions != NULL ? json_array_get_length (regions) : 0);
      json_builder_set_member_name (builder, "best_region");
      if (best >= 0)
        json_builder_add_string_value (builder,
                                       json_object_get_string_member_with_default (
                                         json_array_get_object_element (regions, best), "name", ""));
      else
        json_builder_add_null_value (builder);
      json_builder_set_member_name (builder, "best_index");
      json_builder_add_int_value (builder, best);
      json_builder_set_member_name (builder, "best");
      write_score (builder, &best_score);
      json_builder_set_member_name (builder, "all");
      write_score (builder, &all_score);

      /* Each extracted record of the best region: the actual record it
       * stands for, how many of that record's values it holds, whether it
       * is segmented correctly; enough to say why a record fails. */
      json_builder_set_member_name (builder, "matches");
      json_builder_begin_array (builder);
      for (guint i = 0; best_matches != NULL && i < best_matches->len; i++)
        {
          CgRecordMatch *match = &g_array_index (best_matches, CgRecordMatch, i);

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "actual");
          json_builder_add_int_value (builder, match->actual);
          json_builder_set_member_name (builder, "values");
          json_builder_add_int_value (builder, match->n_values);
          json_builder_set_member_name (builder, "found");
          json_builder_add_int_value (builder, match->n_found);
          json_builder_set_member_name (builder, "segmented");
          json_builder_add_boolean_value (builder, match->segmented);
          json_builder_set_member_name (builder, "correct");
          json_builder_add_boolean_value (builder, match->correct);
          json_builder_set_member_name (builder, "items");
          json_builder_begin_array (builder);
          for (char **item = g_ptr_array_index (best_extracted, i); *item != NULL; item++)
            json_builder_add_string_value (builder, *item);
          json_builder_end_array (builder);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      json_builder_end_object (builder);

      root = json_builder_get_root (builder);
      json_generator_set_root (generator, root);
      text = json_generator_to_data (generator, NULL);
      printf ("%s\n", text);
    }
  if (error != NULL)
    {
      g_printerr ("wordpress-score: %s\n", error->message);
      return 1;
    }
  return 0;
}
