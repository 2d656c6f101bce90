/* cg-cli-model.c: `cartograph-cli model`, learn how a site is built.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>

#include "cg-class-sampler.h"
#include "cg-cli.h"
#include "cg-crawl-lock.h"
#include "cg-cli-run.h"
#include "cg-display.h"
#include "cg-site-explorer.h"

typedef struct {
  CgCliRun        run;
  CgSiteExplorer *explorer;
  guint           max_pages;
} ModelCli;

static void
progress_cb (CgCrawler          *crawler,
             const CgCrawlStats *stats,
             ModelCli           *cli)
{
  if (cli->run.quiet || !cli->run.terminal)
    return;
  /* The terminal codes (back to the line's start, clear it) stay out of
   * the translatable message. */
  fputs ("\r\033[K", stderr);
  fprintf (stderr, _("Learning: %u of at most %u pages"),
           cg_site_explorer_get_n_pages (cli->explorer), cli->max_pages);
  fflush (stderr);
}

static void
finished_cb (CgSiteExplorer *explorer,
             const GError   *error,
             ModelCli       *cli)
{
  CgCrawlEnd end = error == NULL ? CG_CRAWL_END_DONE : CG_CRAWL_END_FAILED;

  if (cli->run.terminal && !cli->run.quiet)
    fprintf (stderr, "\n");
  /* Stopped by the user, the exploration ends with the error that says
   * no model was learned: told as a stop, with its own exit status. */
  if (error != NULL && cli->run.interrupts > 0)
    {
      fprintf (stderr, "%s\n", error->message);
      end = CG_CRAWL_END_STOPPED;
    }
  cg_cli_run_finish (&cli->run, end, error);
}

/* The first Ctrl+C (or SIGTERM) ends the learning crawl cleanly, its
 * archive consistent, and no model is learned; a second one quits at once
 * (cg-cli-run.h). */
static void
stop_exploring (gpointer user_data)
{
  cg_site_explorer_stop (user_data);
}

/* The sample pages of each class, rendered from the archive the learning
 * crawl wrote (see cg-class-sampler.h); record extraction learns its
 * wrappers on them. */
typedef struct {
  GMainLoop *loop;
  gboolean   ok;
  gboolean   machine;   /* progress as lines for a program: see --machine-progress */
  GError    *error;
} RenderSamples;

/* One line, whatever the message holds, so that a reader of the machine
 * progress can split on lines and tabs. */
static char *
one_line (const char *text)
{
  char *line = g_strdup (text);

  for (char *p = line; *p != '\0'; p++)
    if (*p == '\n' || *p == '\r' || *p == '\t')
      *p = ' ';
  return line;
}

static void
sample_failed_cb (CgClassSampler *sampler,
                  const char     *url,
                  const GError   *error,
                  RenderSamples  *state)
{
  if (state->machine)
    {
      g_autofree char *message = one_line (error->message);
      g_autofree char *where = one_line (url);

      printf ("failed %s\t%s\n", where, message);
      fflush (stdout);
    }
  else
    cg_cli_print_error ("%s: %s", url, error->message);
}

static void
sample_progress_cb (CgClassSampler *sampler,
                    guint           done,
                    guint           total,
                    RenderSamples  *state)
{
  if (!state->machine)
    return;
  printf ("progress %u %u\n", done, total);
  fflush (stdout);
}

static void
samples_rendered_cb (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  RenderSamples *state = user_data;

  state->ok = cg_class_sampler_run_finish (CG_CLASS_SAMPLER (source), result, &state->error);
  g_main_loop_quit (state->loop);
}

static gboolean
render_samples (CgProject    *project,
                CgSiteModel  *model,
                gboolean      javascript,
                gboolean      machine_progress,
                guint        *out_rendered,
                GError      **error)
{
  g_autoptr(CgDisplay) display = NULL;
  g_autoptr(CgClassSampler) sampler = NULL;
  RenderSamples state = { 0 };

  display = cg_display_open (error);
  if (display == NULL)
    return FALSE;
  state.machine = machine_progress;
  sampler = cg_class_sampler_new (project, model, javascript, 0, NULL);
  g_signal_connect (sampler, "sample-failed", G_CALLBACK (sample_failed_cb), &state);
  g_signal_connect (sampler, "progress", G_CALLBACK (sample_progress_cb), &state);
  state.loop = g_main_loop_new (NULL, FALSE);
  cg_class_sampler_run_async (sampler, NULL, samples_rendered_cb, &state);
  g_main_loop_run (state.loop);
  g_main_loop_unref (state.loop);
  if (!state.ok)
    {
      g_propagate_error (error, state.error);
      return FALSE;
    }
  *out_rendered = cg_class_sampler_get_n_rendered (sampler);
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

      /* Translators: a class: its name, pages in the sample, depth from the
       * entry page and URL pattern, in columns. */
      printf (g_dngettext (GETTEXT_PACKAGE, "  %-24s %4u page   depth %d  %s\n", "  %-24s %4u pages  depth %d  %s\n",
                           klass->n_pages),
              klass->name, klass->n_pages, klass->depth, klass->url_pattern != NULL ? klass->url_pattern : "");
    }
  for (guint i = 0; i < links->len; i++)
    {
      CgClassLink *link = g_ptr_array_index (links, i);

      printf ("  %s → %s (%s) %s\n", link->source, link->target,
              cg_class_link_type_to_string (link->type), link->xpath);
    }
}

/* The model to render with --render-only: the version asked for of the
 * site asked for, else the newest model of the project. */
static CgSiteModel *
load_model_to_render (CgProject   *project,
                      const char  *site,
                      int          version,
                      GError     **error)
{
  CgStore *store = cg_project_get_store (project);
  g_auto(GStrv) sites = NULL;
  g_autoptr(CgSiteModel) newest = NULL;

  if (site != NULL)
    return version > 0 ? cg_site_model_load (store, site, version, error)
                       : cg_site_model_load_latest (store, site, error);
  sites = cg_site_model_list_sites (store, error);
  if (sites == NULL)
    return NULL;
  if (sites[0] != NULL && sites[1] == NULL)
    return version > 0 ? cg_site_model_load (store, sites[0], version, error)
                       : cg_site_model_load_latest (store, sites[0], error);
  if (sites[0] != NULL && version > 0)
    {
      g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_NOT_FOUND,
                   _("The project “%s” has models of several sites: name one with --site"),
                   cg_project_get_folder (project));
      return NULL;
    }
  for (guint i = 0; sites[i] != NULL; i++)
    {
      g_autoptr(CgSiteModel) model = version > 0 ? cg_site_model_load (store, sites[i], version, NULL)
                                                 : cg_site_model_load_latest (store, sites[i], NULL);

      if (model != NULL && (newest == NULL || cg_site_model_get_id (model) > cg_site_model_get_id (newest)))
        g_set_object (&newest, model);
    }
  if (newest == NULL)
    g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_NOT_FOUND,
                 _("The project “%s” has no model to render the samples of"), cg_project_get_folder (project));
  return g_steal_pointer (&newest);
}

/* --render-only: the samples of a saved model, without a new exploration.
 * The window runs this in a process of its own, so that WebKit's work
 * stays off its main loop and its windows off the user's screen. */
static int
render_only (const char *folder,
             const char *site,
             int         version,
             gboolean    javascript,
             gboolean    machine_progress,
             gboolean    quiet)
{
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgSiteModel) model = NULL;
  g_autoptr(GError) error = NULL;
  guint rendered = 0;

  /* No check that no other process crawls the project, unlike the other
   * commands that write: the window runs this while it works on the
   * project itself. */
  project = cg_project_open (folder, &error);
  if (project != NULL)
    model = load_model_to_render (project, site, version, &error);
  if (model == NULL)
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_FAILED;
    }
  if (!render_samples (project, model, javascript, machine_progress, &rendered, &error))
    {
      cg_cli_print_error (_("the sample pages could not be rendered: %s"), error->message);
      return CG_CLI_EXIT_FAILED;
    }
  if (!quiet && !machine_progress)
    printf (_("Rendered %u sample pages of model version %d into %s\n"),
            rendered, cg_site_model_get_version (model), cg_project_get_folder (project));
  return CG_CLI_EXIT_OK;
}

int
cg_cli_model (int    argc,
              char **argv)
{
  g_autofree char *folder = NULL;
  g_autofree char *navigation = NULL;
  g_autofree char *scope = NULL;
  g_autofree char *contact = NULL;
  g_autofree char *site = NULL;
  gboolean ignore_robots = FALSE, no_politeness = FALSE, quiet = FALSE, no_render = FALSE;
  gboolean only_render = FALSE, no_javascript = FALSE, machine_progress = FALSE;
  int pages = CG_LEARNER_DEFAULT_MAX_PAGES;
  int version = 0;
  g_autofree char *delay_text = NULL;
  double delay = -1;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgCrawlConfig) config = NULL;
  g_autoptr(CgSiteExplorer) explorer = NULL;
  g_autoptr(GError) error = NULL;
  CgLearnerParams params;
  ModelCli cli = { 0 };
  int exit_code = CG_CLI_EXIT_OK;
  const GOptionEntry entries[] = {
    { "project", 'p', 0, G_OPTION_ARG_FILENAME, &folder, N_("The project folder (created if needed)"), N_("DIR") },
    { "pages", 'n', 0, G_OPTION_ARG_INT, &pages, N_("Pages to sample at most (default 200)"), N_("N") },
    { "navigation", 0, 0, G_OPTION_ARG_STRING, &navigation, N_("Which link collections first: dense (default) or sparse"), N_("POLICY") },
    { "scope", 0, 0, G_OPTION_ARG_STRING, &scope, N_("What to crawl: host (default), domain or prefix"), N_("SCOPE") },
    { "delay", 0, 0, G_OPTION_ARG_STRING, &delay_text, N_("Least wait between two requests to one host (default 1)"), N_("SECONDS") },
    { "no-politeness", 0, 0, G_OPTION_ARG_NONE, &no_politeness, N_("No delays: only for your own servers"), NULL },
    { "ignore-robots", 0, 0, G_OPTION_ARG_NONE, &ignore_robots, N_("Ignore robots.txt (recorded in the WARC files)"), NULL },
    { "contact", 0, 0, G_OPTION_ARG_STRING, &contact, N_("A page saying who runs the crawl, put in the User-Agent"), N_("URL") },
    { "no-render", 0, 0, G_OPTION_ARG_NONE, &no_render, N_("Do not render the classes’ sample pages (thumbnails and visual features)"), NULL },
    { "no-javascript", 0, 0, G_OPTION_ARG_NONE, &no_javascript, N_("Render the sample pages without running their scripts"), NULL },
    { "render-only", 0, 0, G_OPTION_ARG_NONE, &only_render, N_("Only render the sample pages of a saved model (no URL)"), NULL },
    { "site", 0, 0, G_OPTION_ARG_STRING, &site, N_("With --render-only: the site whose model to render"), N_("URL") },
    { "version", 0, 0, G_OPTION_ARG_INT, &version, N_("With --render-only: the model version (default the latest)"), N_("N") },
    { "machine-progress", 0, 0, G_OPTION_ARG_NONE, &machine_progress, N_("Report rendering as “progress DONE TOTAL” and “failed URL<TAB>MESSAGE” lines on standard output"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_("Print no progress"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("URL"));
  g_option_context_set_summary (context, _("Learn a site’s page classes and the links between them from a sample of its pages."));
  cg_cli_add_options (context, entries);
  if (!cg_cli_parse_options (context, &argc, &argv, &exit_code))
    return exit_code;

  if (only_render)
    {
      if (folder == NULL || argc != 1)
        {
          cg_cli_print_error (_("model --render-only needs --project DIR and no URL"));
          return CG_CLI_EXIT_USAGE;
        }
      if (version < 0)
        {
          cg_cli_print_error (_("--version must be a version number, not %d"), version);
          return CG_CLI_EXIT_USAGE;
        }
      return render_only (folder, site, version, !no_javascript, machine_progress, quiet);
    }
  if (site != NULL || version != 0 || machine_progress)
    {
      cg_cli_print_error (_("--site, --version and --machine-progress go with --render-only"));
      return CG_CLI_EXIT_USAGE;
    }
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

  if (delay_text != NULL && !cg_cli_parse_seconds ("--delay", delay_text, &delay))
    return CG_CLI_EXIT_USAGE;

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
  /* Not while another process crawls the project (see cg-cli-extract.c). */
  if (project != NULL && !cg_crawl_lock_check_none_running (project, &error))
    g_clear_object (&project);
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

  cg_cli_run_init (&cli.run, quiet, stop_exploring, explorer);
  cli.explorer = explorer;
  cli.max_pages = params.max_pages;
  g_signal_connect (cg_site_explorer_get_crawler (explorer), "progress", G_CALLBACK (progress_cb), &cli);
  g_signal_connect (explorer, "finished", G_CALLBACK (finished_cb), &cli);

  cg_site_explorer_start (explorer);
  cg_cli_run_wait (&cli.run);
  exit_code = cg_cli_run_exit_code (&cli.run, "", _("the exploration failed"));
  cg_cli_run_clear (&cli.run);
  if (exit_code != CG_CLI_EXIT_OK)
    return exit_code;
  if (!quiet)
    print_model (cg_site_explorer_get_model (explorer));
  if (!no_render)
    {
      guint rendered = 0;

      if (!render_samples (project, cg_site_explorer_get_model (explorer), !no_javascript, FALSE, &rendered, &error))
        {
          cg_cli_print_error (_("the model is saved, but its sample pages could not be rendered: %s"), error->message);
          return CG_CLI_EXIT_FAILED;
        }
      if (!quiet)
        printf (_("Rendered %u sample pages into %s\n"), rendered, cg_project_get_folder (project));
    }
  return CG_CLI_EXIT_OK;
}
