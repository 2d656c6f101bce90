/* cg-cli-export.c: `cartograph-cli export`, a project's model and pages as files.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <gio/gunixoutputstream.h>

#include "cg-cli.h"
#include "cg-export.h"
#include "cg-record-regions.h"

/* Ends a failed export to @file: a file that was there is kept as it was
 * (GIO keeps it when a replacement is closed cancelled), and one the
 * export made is removed. */
static void
abandon_output (GOutputStream *out,
                GFile         *file,
                gboolean       existed)
{
  g_autoptr(GCancellable) abandon = g_cancellable_new ();

  g_cancellable_cancel (abandon);
  g_output_stream_close (out, abandon, NULL);
  if (!existed)
    g_file_delete (file, NULL, NULL);
}

/* Exports replace their file whole (G_FILE_CREATE_REPLACE_DESTINATION):
 * written beside it and renamed over it, never through a symbolic or
 * hard link to another file, which GIO would otherwise write in place and
 * so empty (the project's database, for one). */

/* Refuses to write over the project's own files (its database, WARC
 * files…), which an export given the wrong path would destroy. */
static gboolean
check_output (CgProject  *project,
              const char *output)
{
  if (!cg_project_owns_path (project, output))
    return TRUE;
  cg_cli_print_error (_("“%s” is the project’s own: write the export somewhere else"), output);
  return FALSE;
}

/* A file of an export being written: the replacement stays beside the
 * file until it is closed. */
typedef struct {
  GFile         *file;
  GOutputStream *out;
  gboolean       existed;
} PendingOutput;

static void
pending_output_clear (PendingOutput *pending)
{
  g_clear_object (&pending->out);
  g_clear_object (&pending->file);
}

/* CSV or TSV records of one class or more: one file per class in
 * @folder, CLASS.FORMAT. The export is written whole or not at all: every
 * file is written before any replaces what was there, so that a class
 * that fails (a --region it does not have) leaves the folder as it was. */
static int
export_records_per_class (CgProject          *project,
                          CgSiteModel        *model,
                          const char * const *classes,
                          int                 region,
                          CgExportFormat      format,
                          const char         *folder)
{
  g_autoptr(GArray) pending = g_array_new (FALSE, TRUE, sizeof (PendingOutput));
  g_autoptr(GError) error = NULL;

  g_array_set_clear_func (pending, (GDestroyNotify) pending_output_clear);
  if (!check_output (project, folder))
    return CG_CLI_EXIT_USAGE;
  for (guint i = 0; classes[i] != NULL; i++)
    {
      /* Class names are the model's; one that is not a plain file name
       * does not get to choose where it is written. */
      if (strchr (classes[i], '/') != NULL || classes[i][0] == '.')
        {
          cg_cli_print_error (_("the class name “%s” cannot be a file name: export it with --class"), classes[i]);
          return CG_CLI_EXIT_FAILED;
        }
    }
  if (g_mkdir_with_parents (folder, 0755) != 0)
    {
      cg_cli_print_error (_("cannot create the folder “%s”: %s"), folder, g_strerror (errno));
      return CG_CLI_EXIT_FAILED;
    }
  for (guint i = 0; classes[i] != NULL && error == NULL; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s.%s", classes[i], cg_export_format_to_string (format));
      g_autofree char *path = g_build_filename (folder, name, NULL);
      PendingOutput output = { g_file_new_for_path (path), NULL, FALSE };

      output.existed = g_file_query_exists (output.file, NULL);
      output.out = G_OUTPUT_STREAM (g_file_replace (output.file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION,
                                                    NULL, &error));
      if (output.out == NULL)
        {
          g_prefix_error (&error, _("Cannot write “%s”: "), path);
          pending_output_clear (&output);
          break;
        }
      g_array_append_val (pending, output);
      if (!cg_export_records_full (project, model, classes[i], region, format, output.out, &error) &&
          error->domain == G_IO_ERROR)
        g_prefix_error (&error, _("Cannot write “%s”: "), path);
    }
  if (error != NULL)
    {
      for (guint i = 0; i < pending->len; i++)
        {
          PendingOutput *output = &g_array_index (pending, PendingOutput, i);

          abandon_output (output->out, output->file, output->existed);
        }
      cg_cli_print_error ("%s", error->message);
      return error->domain == CG_EXPORT_ERROR && error->code == CG_EXPORT_ERROR_REGION
             ? CG_CLI_EXIT_USAGE : CG_CLI_EXIT_FAILED;
    }
  for (guint i = 0; i < pending->len; i++)
    if (!g_output_stream_close (g_array_index (pending, PendingOutput, i).out, NULL, &error))
      {
        g_autofree char *path = g_file_get_parse_name (g_array_index (pending, PendingOutput, i).file);

        cg_cli_print_error (_("Cannot write “%s”: %s"), path, error->message);
        return CG_CLI_EXIT_FAILED;
      }
  return CG_CLI_EXIT_OK;
}

/* --region: "main", "all" or a region's index. */
static gboolean
parse_region (const char *text,
              int        *out_region)
{
  guint64 index;

  if (g_str_equal (text, "main"))
    *out_region = CG_EXPORT_REGION_MAIN;
  else if (g_str_equal (text, "all"))
    *out_region = CG_EXPORT_REGION_ALL;
  else if (g_ascii_string_to_unsigned (text, 10, 0, CG_RECORD_REGIONS_MAX - 1, &index, NULL))
    *out_region = (int) index;
  else
    return FALSE;
  return TRUE;
}

int
cg_cli_export (int    argc,
               char **argv)
{
  g_autofree char *folder = NULL;
  g_autofree char *what = NULL;
  g_autofree char *format_name = NULL;
  g_autofree char *site = NULL;
  g_autofree char *output = NULL;
  g_autofree char *class_name = NULL;
  g_autofree char *region_name = NULL;
  int region;
  int version = 0;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgSiteModel) model = NULL;
  g_autoptr(GOutputStream) out = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  CgExportFormat format;
  gboolean ok;
  gboolean existed = FALSE;
  gboolean records_table, to_folder;
  int exit_code = CG_CLI_EXIT_OK;
  const GOptionEntry entries[] = {
    { "project", 'p', 0, G_OPTION_ARG_FILENAME, &folder, N_("The project folder"), N_("DIR") },
    { "what", 'w', 0, G_OPTION_ARG_STRING, &what, N_("What to export: model, pages, records or links"), N_("WHAT") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
      N_("json, jsonl, csv, tsv, dot or graphml (model: json, tsv, dot, graphml; pages, records and links: "
         "jsonl, csv, tsv)"), N_("FORMAT") },
    { "site", 0, 0, G_OPTION_ARG_STRING, &site, N_("The site whose model to use (default: the newest model)"), N_("URL") },
    { "model", 'm', 0, G_OPTION_ARG_INT, &version, N_("The model version (default: the newest)"), N_("VERSION") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write to this file instead of standard output (records as csv or tsv of several classes: a folder, "
         "one file per class)"), N_("FILE") },
    { "class", 'c', 0, G_OPTION_ARG_STRING, &class_name, N_("Records: only this page class (default: every class)"),
      N_("CLASS") },
    { "region", 'r', 0, G_OPTION_ARG_STRING, &region_name,
      N_("Records: the region to export, by its index (0 is the main region), or all (default: main for csv "
         "and tsv, all for jsonl)"), N_("N|all") },
    { NULL }
  };

  context = g_option_context_new (NULL);
  g_option_context_set_summary (context,
                                _("Export a project’s model, pages, records or links.\n\n"
                                  "Records (see “cartograph-cli extract”) carry their class, the URL of their "
                                  "page, their region (an XPath) and their position in the page, then their "
                                  "fields by column name. JSON Lines holds every class in one file; a CSV or "
                                  "TSV table holds one class, so with several classes either name one with "
                                  "--class or give --output a folder, which gets one file per class "
                                  "(CLASS.csv).\n\n"
                                  "A list page can hold records in several regions (a list of books and, "
                                  "below it, the paragraphs of a biography), each with its own columns. "
                                  "Regions are numbered in the order of the class’s wrapper, 0 being the main "
                                  "one, and each record carries its region_index. A CSV or TSV table holds "
                                  "the main region’s records unless --region names another, or all; JSON "
                                  "Lines holds every region unless --region names one.\n\n"
                                  "Links are the link graph the crawls recorded, one row per link: the page "
                                  "it is on (from), its target (to), its hop (L a link, E an embedded "
                                  "resource, R a redirect, X a URL found in a script, S a form’s action), its "
                                  "text (anchor) and the crawl."));
  cg_cli_add_options (context, entries);
  if (!cg_cli_parse_options (context, &argc, &argv, &exit_code))
    return exit_code;

  if (folder == NULL || what == NULL)
    {
      cg_cli_print_error (_("export needs --project DIR and --what model|pages|records|links"));
      return CG_CLI_EXIT_USAGE;
    }
  if (argc > 1)
    {
      cg_cli_print_error (_("export takes no arguments, only options"));
      return CG_CLI_EXIT_USAGE;
    }
  if (!g_str_equal (what, "model") && !g_str_equal (what, "pages") && !g_str_equal (what, "records") &&
      !g_str_equal (what, "links"))
    {
      cg_cli_print_error (_("“%s” cannot be exported: use model, pages, records or links"), what);
      return CG_CLI_EXIT_USAGE;
    }
  if (format_name == NULL)
    format_name = g_strdup (g_str_equal (what, "model") ? "json" : "jsonl");
  if (!cg_export_format_from_string (format_name, &format))
    {
      cg_cli_print_error (_("“%s” is not a format: use json, jsonl, csv, tsv, dot or graphml"), format_name);
      return CG_CLI_EXIT_USAGE;
    }
  if (version < 0)
    {
      cg_cli_print_error (_("--model needs a version number from 1, not %d"), version);
      return CG_CLI_EXIT_USAGE;
    }
  if (version > 0 && site == NULL)
    {
      cg_cli_print_error (_("--model goes with --site: each site numbers its own model versions"));
      return CG_CLI_EXIT_USAGE;
    }
  /* The link graph is the crawls', whatever a model makes of it. */
  if (g_str_equal (what, "links") && site != NULL)
    {
      cg_cli_print_error (_("--site and --model do not apply to links"));
      return CG_CLI_EXIT_USAGE;
    }

  project = cg_project_open (folder, &error);
  if (project == NULL)
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_FAILED;
    }

  if (g_str_equal (what, "links"))
    model = NULL;
  else if (version > 0)
    model = cg_site_model_load (cg_project_get_store (project), site, version, &error);
  else
    model = cg_site_model_load_latest (cg_project_get_store (project), site, &error);
  /* Pages export without a model, every page unclassified, only when
   * the project has none: a --site or --model that names no model is an
   * error, not a request for unclassified pages. */
  if (model == NULL && !g_str_equal (what, "links") &&
      (!g_str_equal (what, "pages") || site != NULL ||
       !g_error_matches (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_NOT_FOUND)))
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_FAILED;
    }
  g_clear_error (&error);

  if (class_name != NULL && !g_str_equal (what, "records"))
    {
      cg_cli_print_error (_("--class applies to records only"));
      return CG_CLI_EXIT_USAGE;
    }
  if (region_name != NULL && !g_str_equal (what, "records"))
    {
      cg_cli_print_error (_("--region applies to records only"));
      return CG_CLI_EXIT_USAGE;
    }
  /* One table's rows share one header: by default the main region's, the
   * one the class view shows too. JSON Lines rows each carry their own
   * fields, so all regions fit in one stream. */
  region = format == CG_EXPORT_JSONL ? CG_EXPORT_REGION_ALL : CG_EXPORT_REGION_MAIN;
  if (region_name != NULL && !parse_region (region_name, &region))
    {
      cg_cli_print_error (_("“%s” is not a region: give its index (0 is the main region), main or all"),
                          region_name);
      return CG_CLI_EXIT_USAGE;
    }
  if (g_str_equal (what, "records") && class_name != NULL && cg_site_model_get_class (model, class_name) == NULL)
    {
      cg_cli_print_error (_("the model version %d of %s has no class “%s”"),
                          cg_site_model_get_version (model), cg_site_model_get_site (model), class_name);
      return CG_CLI_EXIT_USAGE;
    }
  /* Tables of records to a folder (one that is there, or a path ending
   * in "/") get one file per class, even of one class. */
  records_table = g_str_equal (what, "records") && (format == CG_EXPORT_CSV || format == CG_EXPORT_TSV);
  to_folder = output != NULL && (g_file_test (output, G_FILE_TEST_IS_DIR) || g_str_has_suffix (output, G_DIR_SEPARATOR_S));
  if (records_table && to_folder && class_name != NULL)
    {
      const char *classes[] = { class_name, NULL };

      return export_records_per_class (project, model, classes, region, format, output);
    }
  if (records_table && class_name == NULL)
    {
      g_auto(GStrv) classes = cg_export_list_record_classes (project, model, &error);

      if (classes == NULL)
        {
          cg_cli_print_error ("%s", error->message);
          return CG_CLI_EXIT_FAILED;
        }
      if (classes[0] == NULL)
        {
          cg_cli_print_error (_("the project “%s” has no extracted records (run “cartograph-cli extract”)"), folder);
          return CG_CLI_EXIT_FAILED;
        }
      if (to_folder)
        return export_records_per_class (project, model, (const char * const *) classes, region, format, output);
      if (classes[1] == NULL)
        class_name = g_strdup (classes[0]);
      else
        {
          cg_cli_print_error (_("records of %u classes do not fit one %s table: name one with --class, "
                                "give --output a folder for one file per class, or use --format jsonl"),
                              g_strv_length (classes), format_name);
          return CG_CLI_EXIT_USAGE;
        }
    }

  if (output != NULL)
    {
      if (!check_output (project, output))
        return CG_CLI_EXIT_USAGE;
      file = g_file_new_for_commandline_arg (output);
      existed = g_file_query_exists (file, NULL);
      /* A pipe or a terminal (/dev/stdout, a FIFO) is written to, not
       * replaced, which it cannot be. */
      if (g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_SPECIAL)
        out = G_OUTPUT_STREAM (g_file_append_to (file, G_FILE_CREATE_NONE, NULL, &error));
      else
        out = G_OUTPUT_STREAM (g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, &error));
      if (out == NULL)
        {
          /* GIO's messages ("Target file is not a regular file") do not
           * name the file. */
          cg_cli_print_error (_("Cannot write “%s”: %s"), output, error->message);
          return CG_CLI_EXIT_FAILED;
        }
    }
  else
    out = g_unix_output_stream_new (STDOUT_FILENO, FALSE);

  if (g_str_equal (what, "model"))
    ok = cg_export_model (model, format, out, &error);
  else if (g_str_equal (what, "records"))
    ok = cg_export_records_full (project, model, class_name, region, format, out, &error);
  else if (g_str_equal (what, "links"))
    ok = cg_export_links (project, format, out, &error);
  else
    ok = cg_export_pages (project, model, format, out, &error);

  /* A failed export to a file leaves the file as it was, or none. */
  if (!ok && output != NULL)
    abandon_output (out, file, existed);
  if (!ok && error->domain == G_IO_ERROR)
    {
      /* GIO's messages ("No space left on device") do not name the file. */
      cg_cli_print_error (_("Cannot write “%s”: %s"), output != NULL ? output : _("standard output"), error->message);
      return CG_CLI_EXIT_FAILED;
    }
  if (!ok)
    {
      cg_cli_print_error ("%s", error->message);
      return error->domain == CG_EXPORT_ERROR &&
             (error->code == CG_EXPORT_ERROR_FORMAT || error->code == CG_EXPORT_ERROR_REGION)
             ? CG_CLI_EXIT_USAGE : CG_CLI_EXIT_FAILED;
    }
  if (!g_output_stream_close (out, NULL, &error))
    {
      cg_cli_print_error (_("Cannot write “%s”: %s"), output != NULL ? output : _("standard output"), error->message);
      return CG_CLI_EXIT_FAILED;
    }
  return CG_CLI_EXIT_OK;
}
