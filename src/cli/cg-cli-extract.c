/* cg-cli-extract.c: `cartograph-cli extract`, the data records of every archived page of a model's classes.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib-unix.h>

#include "cg-cli.h"
#include "cg-crawl-lock.h"
#include "cg-record-extractor.h"
#include "cg-record-store.h"

/* Pages that cannot be read are named one by one up to this many; the
 * rest are only counted (a missing WARC file makes every page of it
 * unreadable, and a line for each would bury the summary). */
#define MAX_SKIPPED_SHOWN 5

typedef struct {
  gboolean    terminal;
  gboolean    quiet;
  GHashTable *pages;     /* class name → pages done */
  /* Written by the learning thread, then by this one: never at once. */
  GHashTable *skipped;   /* class name → pages skipped */
  guint       n_skipped;
} ExtractCli;

static void
skipped_cb (const char   *class_name,
            const char   *url,
            const GError *reason,
            gpointer      user_data)
{
  ExtractCli *cli = user_data;
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (cli->skipped, class_name));

  g_hash_table_replace (cli->skipped, g_strdup (class_name), GUINT_TO_POINTER (n + 1));
  if (++cli->n_skipped > MAX_SKIPPED_SHOWN || cli->quiet)
    return;
  if (cli->terminal)
    fputs ("\r\033[K", stderr);
  /* The reason names the page. */
  fprintf (stderr, _("Skipped: %s\n"), reason->message);
}

static void
progress_cb (const char *class_name,
             guint       pages_done,
             guint       pages_total,
             guint       n_records,
             gpointer    user_data)
{
  ExtractCli *cli = user_data;

  /* No class: the pages are being labelled with the model's classes. */
  if (class_name != NULL)
    g_hash_table_replace (cli->pages, g_strdup (class_name), GUINT_TO_POINTER (pages_done));
  /* Extraction runs on this thread: this lets the SIGINT source run and
   * cancel it between two pages. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  if (cli->quiet || !cli->terminal)
    return;
  /* The terminal codes (back to the line's start, clear it) stay out of
   * the translatable message. */
  fputs ("\r\033[K", stderr);
  if (class_name == NULL)
    fprintf (stderr, _("Labelling the archived pages with the model’s classes: %u of %u"), pages_done, pages_total);
  else
    fprintf (stderr, _("Extracting %s: %u of %u pages, %u records"),
             class_name, pages_done, pages_total, n_records);
  fflush (stderr);
}

static gboolean
interrupt_cb (gpointer user_data)
{
  g_cancellable_cancel (user_data);
  return G_SOURCE_CONTINUE;
}

/* Learning reports no progress, so it runs in a thread of its own while
 * this one waits in the main loop, where the SIGINT source can run and
 * cancel it. */
typedef struct {
  CgProject    *project;
  CgSiteModel  *model;
  const char   *class_name;
  GCancellable *cancellable;
  ExtractCli   *cli;
  GError       *error;
  gboolean      ok;
  gint          done;
} Learning;

static gpointer
learn_thread (gpointer data)
{
  Learning *learning = data;

  learning->ok = cg_record_extractor_learn_cancellable (learning->project, learning->model, learning->class_name,
                                                        learning->cancellable, skipped_cb, learning->cli,
                                                        &learning->error);
  g_atomic_int_set (&learning->done, TRUE);
  g_main_context_wakeup (NULL);
  return NULL;
}

static gboolean
learn_interruptibly (CgProject     *project,
                     CgSiteModel   *model,
                     const char    *class_name,
                     GCancellable  *cancellable,
                     ExtractCli    *cli,
                     GError       **error)
{
  Learning learning = { project, model, class_name, cancellable, cli, NULL, FALSE, FALSE };
  GThread *thread = g_thread_new ("cg-learn", learn_thread, &learning);

  while (!g_atomic_int_get (&learning.done))
    g_main_context_iteration (NULL, TRUE);
  g_thread_join (thread);
  if (!learning.ok)
    g_propagate_error (error, learning.error);
  return learning.ok;
}

/* The model a command line names: a version of a site, the newest model
 * of a site, or the newest model of the project's only site. */
static CgSiteModel *
load_model (CgStore     *store,
            const char  *site,
            int          version,
            GError     **error)
{
  g_auto(GStrv) sites = NULL;

  if (site == NULL && version > 0)
    {
      sites = cg_site_model_list_sites (store, error);
      if (sites == NULL)
        return NULL;
      if (g_strv_length (sites) > 1)
        {
          g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_NOT_FOUND,
                       _("The project has models of %u sites: name one with --site"), g_strv_length (sites));
          return NULL;
        }
      site = sites[0];
    }
  if (version > 0)
    return cg_site_model_load (store, site, version, error);
  return cg_site_model_load_latest (store, site, error);
}

static char *
class_names (CgSiteModel *model)
{
  GPtrArray *classes = cg_site_model_get_classes (model);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < classes->len; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      g_string_append (out, ((CgPageClass *) g_ptr_array_index (classes, i))->name);
    }
  return g_string_free (out, FALSE);
}

static void
print_summary (CgProject   *project,
               CgSiteModel *model,
               const char  *only_class,
               ExtractCli  *cli)
{
  CgStore *store = cg_project_get_store (project);
  gint64 model_id = cg_site_model_get_id (model);
  GPtrArray *classes = cg_site_model_get_classes (model);
  g_autoptr(GHashTable) counts = cg_record_store_count_by_class (store, model_id, NULL);

  printf (_("Records of model version %d of %s\n"), cg_site_model_get_version (model), cg_site_model_get_site (model));
  for (guint i = 0; i < classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, i);
      g_autoptr(CgStoredWrapper) stored = NULL;
      g_autoptr(CgWrapper) wrapper = NULL;
      g_auto(GStrv) columns = NULL;
      g_autofree char *joined = NULL;
      g_autofree char *pages_text = NULL;
      g_autofree char *records_text = NULL;
      guint pages = GPOINTER_TO_UINT (g_hash_table_lookup (cli->pages, klass->name));
      guint records = counts != NULL ? GPOINTER_TO_UINT (g_hash_table_lookup (counts, klass->name)) : 0;

      if (only_class != NULL && !g_str_equal (only_class, klass->name))
        continue;
      stored = cg_record_store_load_wrapper (store, model_id, klass->name, NULL);
      if (stored != NULL)
        wrapper = cg_wrapper_new_from_json (stored->definition, NULL);
      if (wrapper == NULL)
        {
          if (g_hash_table_contains (cli->skipped, klass->name))
            printf (_("  %-20s no wrapper: its sample pages cannot be read from the archive\n"), klass->name);
          else
            printf (_("  %-20s no wrapper: its sample pages show no repeated records and no fields that vary\n"),
                    klass->name);
          continue;
        }
      columns = cg_wrapper_list_column_names (wrapper);
      joined = g_strjoinv (", ", columns);
      /* Translators: the pages of a class, in a column five digits wide. */
      pages_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%5u page ", "%5u pages", pages), pages);
      /* Translators: the records of a class, in a column seven digits wide. */
      records_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%7u record ", "%7u records", records), records);
      /* Translators: class, wrapper kind (list or detail), then "N pages", "N records" and the column names. */
      printf (_("  %-20s %-6s %s %s  columns: %s\n"), klass->name,
              stored->kind == CG_WRAPPER_LIST ? C_("wrapper kind", "list") : C_("wrapper kind", "detail"),
              pages_text, records_text, joined);
    }
}

int
cg_cli_extract (int    argc,
                char **argv)
{
  g_autofree char *folder = NULL;
  g_autofree char *site = NULL;
  g_autofree char *class_name = NULL;
  gboolean relearn = FALSE, quiet = FALSE;
  int version = 0;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgSiteModel) model = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  g_autoptr(GHashTable) pages = NULL;
  g_autoptr(GHashTable) skipped = NULL;
  g_autoptr(GError) error = NULL;
  ExtractCli cli = { 0 };
  int exit_code = CG_CLI_EXIT_OK;
  gboolean ok;
  guint sigint, sigterm;
  const GOptionEntry entries[] = {
    { "project", 'p', 0, G_OPTION_ARG_FILENAME, &folder, N_("The project folder"), N_("DIR") },
    { "site", 0, 0, G_OPTION_ARG_STRING, &site, N_("The site whose model to use (default: the newest model)"), N_("URL") },
    { "model", 'm', 0, G_OPTION_ARG_INT, &version, N_("The model version (default: the newest)"), N_("VERSION") },
    { "class", 'c', 0, G_OPTION_ARG_STRING, &class_name, N_("Only this page class (default: every class)"), N_("CLASS") },
    { "relearn", 0, 0, G_OPTION_ARG_NONE, &relearn, N_("Learn the wrappers again even where there is one"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_("Print no progress and no summary"), NULL },
    { NULL }
  };

  context = g_option_context_new (NULL);
  g_option_context_set_summary (context,
                                _("Extract the data records of every archived page of a model’s classes.\n\n"
                                  "Each class gets a wrapper, learned on its rendered sample pages (those "
                                  "that “cartograph-cli model” leaves in the project) or else on their "
                                  "archived HTML: a list wrapper for pages that show many records, a detail "
                                  "wrapper (one record per page) for pages that show one thing. Wrappers "
                                  "are kept in the project and learned only once unless --relearn is given. "
                                  "Use “cartograph-cli export --what records” to write the records out."));
  cg_cli_add_options (context, entries);
  if (!cg_cli_parse_options (context, &argc, &argv, &exit_code))
    return exit_code;

  if (folder == NULL)
    {
      cg_cli_print_error (_("extract needs --project DIR"));
      return CG_CLI_EXIT_USAGE;
    }
  if (argc > 1)
    {
      cg_cli_print_error (_("extract takes no arguments, only options"));
      return CG_CLI_EXIT_USAGE;
    }
  if (version < 0)
    {
      cg_cli_print_error (_("--model needs a version number from 1, not %d"), version);
      return CG_CLI_EXIT_USAGE;
    }

  project = cg_project_open (folder, &error);
  /* Not while another process crawls the project: this command's writes
   * would find the database locked half way, after seconds of waiting. */
  if (project != NULL && !cg_crawl_lock_check_none_running (project, &error))
    g_clear_object (&project);
  if (project == NULL)
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_FAILED;
    }
  model = load_model (cg_project_get_store (project), site, version, &error);
  if (model == NULL)
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_FAILED;
    }
  if (class_name != NULL && cg_site_model_get_class (model, class_name) == NULL)
    {
      g_autofree char *names = class_names (model);

      cg_cli_print_error (_("the model version %d of %s has no class “%s”; its classes are: %s"),
                          cg_site_model_get_version (model), cg_site_model_get_site (model), class_name, names);
      return CG_CLI_EXIT_USAGE;
    }

  pages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  skipped = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  cli.terminal = isatty (STDERR_FILENO);
  cli.quiet = quiet;
  cli.pages = pages;
  cli.skipped = skipped;

  /* Ctrl+C and SIGTERM stop between two pages; each page's records are
   * replaced in one transaction, so those done are kept. */
  cancellable = g_cancellable_new ();
  sigint = g_unix_signal_add (SIGINT, interrupt_cb, cancellable);
  sigterm = g_unix_signal_add (SIGTERM, interrupt_cb, cancellable);
  ok = !relearn || learn_interruptibly (project, model, class_name, cancellable, &cli, &error);
  if (ok)
    ok = cg_record_extractor_run (project, model, class_name, cancellable, progress_cb, skipped_cb, &cli, &error);
  g_source_remove (sigint);
  g_source_remove (sigterm);
  if (cli.terminal && !quiet)
    fprintf (stderr, "\n");
  if (!ok && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      fprintf (stderr, _("Stopped: the records of the pages done are kept. Run the same command again "
                         "to extract them all.\n"));
      return CG_CLI_EXIT_STOPPED;
    }
  if (!ok)
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_FAILED;
    }
  if (!quiet)
    print_summary (project, model, class_name, &cli);
  /* The records are incomplete: the pages skipped kept their earlier
   * ones, or have none. */
  if (cli.n_skipped > 0)
    {
      cg_cli_print_error (g_dngettext (GETTEXT_PACKAGE,
                                       "%u archived page could not be read and kept its earlier records",
                                       "%u archived pages could not be read and kept their earlier records",
                                       cli.n_skipped),
                          cli.n_skipped);
      return CG_CLI_EXIT_FAILED;
    }
  return CG_CLI_EXIT_OK;
}
