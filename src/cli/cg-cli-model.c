/* cg-cli-model.c: `cartograph-cli model`, learn how a site is built.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib-unix.h>

#include "cg-archive.h"
#include "cg-cli.h"
#include "cg-display.h"
#include "cg-renderer-pool.h"
#include "cg-site-explorer.h"

typedef struct {
  GMainLoop      *loop;
  CgSiteExplorer *explorer;
  guint           max_pages;
  gboolean        terminal;
  gboolean        quiet;
  GError         *error;
} ModelCli;

static void
progress_cb (CgCrawler          *crawler,
             const CgCrawlStats *stats,
             ModelCli           *cli)
{
  if (cli->quiet || !cli->terminal)
    return;
  fprintf (stderr, _("\r\033[KLearning: %u of at most %u pages"),
           cg_site_explorer_get_n_pages (cli->explorer), cli->max_pages);
  fflush (stderr);
}

static void
finished_cb (CgSiteExplorer *explorer,
             const GError   *error,
             ModelCli       *cli)
{
  if (cli->terminal && !cli->quiet)
    fprintf (stderr, "\n");
  if (error != NULL)
    cli->error = g_error_copy (error);
  g_main_loop_quit (cli->loop);
}

static gboolean
interrupt_cb (gpointer user_data)
{
  ModelCli *cli = user_data;

  cg_site_explorer_stop (cli->explorer);
  return G_SOURCE_CONTINUE;
}

/* The sample pages of each class, rendered from the archive the learning
 * crawl wrote (nothing is fetched live): a thumbnail and the decorated DOM
 * (boxes, visibility, fontdata), kept in the project as
 * thumbnails/model-VERSION/CLASS-N.png and .html, N following the order of
 * the class's samples in the model. Record extraction learns its wrappers
 * on these pages. */
typedef struct {
  GMainLoop *loop;
  char      *folder;
  guint      pending;
  guint      done;
  guint      failed;
} RenderSamples;

typedef struct {
  RenderSamples *state;
  char          *base;   /* the path without its extension */
} SampleJob;

static void
sample_rendered_cb (GObject      *source,
                    GAsyncResult *res,
                    gpointer      user_data)
{
  SampleJob *job = user_data;
  RenderSamples *state = job->state;
  g_autoptr(CgRenderResult) result = NULL;
  g_autoptr(GError) error = NULL;

  result = cg_renderer_pool_render_finish (CG_RENDERER_POOL (source), res, &error);
  if (result != NULL)
    {
      g_autofree char *html_path = g_strconcat (job->base, ".html", NULL);
      g_autofree char *png_path = g_strconcat (job->base, ".png", NULL);

      if (g_file_set_contents (html_path, result->html, -1, &error) &&
          (result->thumbnail == NULL ||
           g_file_set_contents (png_path, g_bytes_get_data (result->thumbnail, NULL),
                                (gssize) g_bytes_get_size (result->thumbnail), &error)))
        state->done++;
    }
  if (error != NULL)
    {
      cg_cli_print_error ("%s", error->message);
      state->failed++;
    }
  g_free (job->base);
  g_free (job);
  if (--state->pending == 0)
    g_main_loop_quit (state->loop);
}

static gboolean
render_samples (CgProject    *project,
                CgSiteModel  *model,
                gboolean      javascript,
                guint        *out_rendered,
                GError      **error)
{
  g_autoptr(CgArchive) archive = NULL;
  g_autoptr(CgDisplay) display = NULL;
  g_autoptr(CgWebContext) context = NULL;
  g_autoptr(CgRendererPool) pool = NULL;
  g_autofree char *thumbnails = cg_project_get_thumbnails_dir (project);
  g_autofree char *subfolder = g_strdup_printf ("model-%d", cg_site_model_get_version (model));
  RenderSamples state = { 0 };
  GPtrArray *classes = cg_site_model_get_classes (model);
  CgRenderOptions options;

  archive = cg_archive_new_for_project (cg_project_get_folder (project), cg_site_model_get_crawl_id (model), error);
  if (archive == NULL)
    return FALSE;
  display = cg_display_open (error);
  if (display == NULL)
    return FALSE;
  context = cg_web_context_new_for_archive (archive, javascript, error);
  if (context == NULL)
    return FALSE;
  cg_render_options_init (&options);
  pool = cg_renderer_pool_new (context, 0, &options);

  state.folder = g_build_filename (thumbnails, subfolder, NULL);
  if (g_mkdir_with_parents (state.folder, 0755) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot create the folder “%s”"), state.folder);
      g_free (state.folder);
      return FALSE;
    }
  state.loop = g_main_loop_new (NULL, FALSE);
  for (guint i = 0; i < classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, i);

      for (guint j = 0; klass->samples[j] != NULL; j++)
        {
          SampleJob *job = g_new0 (SampleJob, 1);
          g_autofree char *name = g_strdup_printf ("%s-%u", klass->name, j + 1);

          job->state = &state;
          job->base = g_build_filename (state.folder, name, NULL);
          state.pending++;
          cg_renderer_pool_render_async (pool, klass->samples[j], NULL, sample_rendered_cb, job);
        }
    }
  if (state.pending > 0)
    g_main_loop_run (state.loop);
  g_main_loop_unref (state.loop);
  g_free (state.folder);
  *out_rendered = state.done;
  return TRUE;
}

static void
print_model (CgSiteModel *model)
{
  GPtrArray *classes = cg_site_model_get_classes (model);
  GPtrArray *links = cg_site_model_get_links (model);
  GPtrArray *patterns = cg_site_model_get_patterns (model);

  printf (_("Model version %d of %s: %u classes, %u class links, %u navigation patterns\n"),
          cg_site_model_get_version (model), cg_site_model_get_site (model),
          classes->len, links->len, patterns->len);
  for (guint i = 0; i < classes->len; i++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, i);

      printf ("  %-24s %4u %s  depth %d  %s\n", klass->name, klass->n_pages, _("pages"), klass->depth,
              klass->url_pattern != NULL ? klass->url_pattern : "");
    }
  for (guint i = 0; i < links->len; i++)
    {
      CgClassLink *link = g_ptr_array_index (links, i);

      printf ("  %s → %s (%s) %s\n", link->source, link->target,
              cg_class_link_type_to_string (link->type), link->xpath);
    }
}

int
cg_cli_model (int    argc,
              char **argv)
{
  g_autofree char *folder = NULL;
  g_autofree char *navigation = NULL;
  g_autofree char *scope = NULL;
  g_autofree char *contact = NULL;
  gboolean ignore_robots = FALSE, no_politeness = FALSE, quiet = FALSE, no_render = FALSE;
  int pages = CG_LEARNER_DEFAULT_MAX_PAGES;
  double delay = -1;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgCrawlConfig) config = NULL;
  g_autoptr(CgSiteExplorer) explorer = NULL;
  g_autoptr(GError) error = NULL;
  CgLearnerParams params;
  ModelCli cli = { 0 };
  int exit_code = CG_CLI_EXIT_OK;
  guint sigint;
  const GOptionEntry entries[] = {
    { "project", 'p', 0, G_OPTION_ARG_FILENAME, &folder, N_("The project folder (created if needed)"), N_("DIR") },
    { "pages", 'n', 0, G_OPTION_ARG_INT, &pages, N_("Pages to sample at most (default 200)"), N_("N") },
    { "navigation", 0, 0, G_OPTION_ARG_STRING, &navigation, N_("Which link collections first: dense (default) or sparse"), N_("POLICY") },
    { "scope", 0, 0, G_OPTION_ARG_STRING, &scope, N_("What to crawl: host (default), domain or prefix"), N_("SCOPE") },
    { "delay", 0, 0, G_OPTION_ARG_DOUBLE, &delay, N_("Least wait between two requests to one host (default 1)"), N_("SECONDS") },
    { "no-politeness", 0, 0, G_OPTION_ARG_NONE, &no_politeness, N_("No delays: only for your own servers"), NULL },
    { "ignore-robots", 0, 0, G_OPTION_ARG_NONE, &ignore_robots, N_("Ignore robots.txt (recorded in the WARC files)"), NULL },
    { "contact", 0, 0, G_OPTION_ARG_STRING, &contact, N_("A page saying who runs the crawl, put in the User-Agent"), N_("URL") },
    { "no-render", 0, 0, G_OPTION_ARG_NONE, &no_render, N_("Do not render the classes’ sample pages (thumbnails and visual features)"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_("Print no progress"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("URL"));
  g_option_context_set_summary (context, _("Learn a site’s page classes and the links between them from a sample of its pages."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!cg_cli_parse_options (context, &argc, &argv, &exit_code))
    return exit_code;

  if (folder == NULL || argc != 2)
    {
      cg_cli_print_error (_("model needs one URL and --project DIR"));
      return CG_CLI_EXIT_USAGE;
    }
  cg_learner_params_init (&params);
  if (pages < 1 || pages > CG_LEARNER_MAX_PAGES)
    {
      cg_cli_print_error (_("--pages must be between 1 and %d, not %d"), CG_LEARNER_MAX_PAGES, pages);
      return CG_CLI_EXIT_USAGE;
    }
  params.max_pages = (guint) pages;
  if (navigation != NULL)
    {
      if (g_str_equal (navigation, "dense"))
        params.navigation = CG_LEARNER_NAVIGATION_DENSE;
      else if (g_str_equal (navigation, "sparse"))
        params.navigation = CG_LEARNER_NAVIGATION_SPARSE;
      else
        {
          cg_cli_print_error (_("“%s” is not a navigation policy: use dense or sparse"), navigation);
          return CG_CLI_EXIT_USAGE;
        }
    }

  config = cg_crawl_config_new ();
  g_strfreev (config->seeds);
  config->seeds = g_strdupv (argv + 1);
  if (scope != NULL && !cg_scope_mode_from_string (scope, &config->scope_mode))
    {
      cg_cli_print_error (_("“%s” is not a scope: use host, domain or prefix"), scope);
      return CG_CLI_EXIT_USAGE;
    }
  config->obey_robots = !ignore_robots;
  config->contact = g_steal_pointer (&contact);
  if (no_politeness)
    cg_crawl_config_disable_politeness (config);
  if (delay >= 0)
    {
      config->min_delay = delay;
      config->max_delay = MAX (config->max_delay, delay);
    }
  if (!cg_crawl_config_validate (config, &error))
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_USAGE;
    }

  project = cg_project_open_or_create (folder, &error);
  if (project == NULL)
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_FAILED;
    }
  explorer = cg_site_explorer_new (project, config, &params, &error);
  if (explorer == NULL)
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_FAILED;
    }

  cli.loop = g_main_loop_new (NULL, FALSE);
  cli.explorer = explorer;
  cli.max_pages = params.max_pages;
  cli.terminal = isatty (STDERR_FILENO);
  cli.quiet = quiet;
  g_signal_connect (cg_site_explorer_get_crawler (explorer), "progress", G_CALLBACK (progress_cb), &cli);
  g_signal_connect (explorer, "finished", G_CALLBACK (finished_cb), &cli);
  sigint = g_unix_signal_add (SIGINT, interrupt_cb, &cli);

  cg_site_explorer_start (explorer);
  g_main_loop_run (cli.loop);
  g_source_remove (sigint);
  g_main_loop_unref (cli.loop);

  if (cli.error != NULL)
    {
      cg_cli_print_error ("%s", cli.error->message);
      g_clear_error (&cli.error);
      return CG_CLI_EXIT_FAILED;
    }
  if (!quiet)
    print_model (cg_site_explorer_get_model (explorer));
  if (!no_render)
    {
      guint rendered = 0;

      if (!render_samples (project, cg_site_explorer_get_model (explorer), TRUE, &rendered, &error))
        {
          cg_cli_print_error (_("the model is saved, but its sample pages could not be rendered: %s"), error->message);
          return CG_CLI_EXIT_FAILED;
        }
      if (!quiet)
        printf (_("Rendered %u sample pages into %s\n"), rendered, cg_project_get_folder (project));
    }
  return CG_CLI_EXIT_OK;
}
