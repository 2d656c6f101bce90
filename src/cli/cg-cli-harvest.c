/* cg-cli-harvest.c: `cartograph-cli harvest`, archive a site by its model.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <glib/gi18n.h>

#include "cg-cli.h"
#include "cg-crawl-lock.h"
#include "cg-cli-fetch-options.h"
#include "cg-cli-run.h"
#include "cg-harvester.h"

/* At most this many classes are shown live; the rest are summed up. */
#define MAX_LIVE_CLASSES 20

typedef struct {
  CgCliRun     run;
  CgHarvester *harvester;
  const char  *folder;
  guint        lines_drawn;   /* the live block's height on the terminal */
  guint64      requests;
  guint64      bigrams;
} HarvestCli;

/* The model a command line names: a version of a site, the newest model
 * of a site, or the newest model of the project's only site. */
static CgSiteModel *
load_model (CgStore     *store,
            const char  *site,
            int          version,
            GError     **error)
{
  g_auto(GStrv) sites = NULL;

  if (site == NULL)
    {
      sites = cg_site_model_list_sites (store, error);
      if (sites == NULL)
        return NULL;
      if (sites[0] == NULL)
        {
          g_set_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_NOT_FOUND,
                       _("The project has no model: learn one with “cartograph-cli model”"));
          return NULL;
        }
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
progress_summary (HarvestCli *cli)
{
  CgCrawlStats stats;

  cg_crawler_get_stats (cg_harvester_get_crawler (cli->harvester), &stats);
  return g_strdup_printf (_("%" PRIu64 " fetched, %" PRIu64 " in flight, %" PRIu64
                            " failed; %" PRIu64 " pages, %" PRIu64 " distinct 2-grams%s"),
                          stats.done, stats.in_flight, stats.failed, cli->requests, cli->bigrams,
                          stats.paused ? _(" (paused)") : "");
}

/* On a terminal, a block of one line per class, drawn again in place. */
static void
draw_live (HarvestCli *cli)
{
  g_auto(GStrv) classes = cg_harvester_list_classes (cli->harvester);
  g_autofree char *summary = progress_summary (cli);
  guint n = g_strv_length (classes);
  guint other_pages = 0, other_records = 0;

  if (cli->lines_drawn > 0)
    fprintf (stderr, "\033[%uA", cli->lines_drawn);
  cli->lines_drawn = 0;
  for (guint i = 0; i < n; i++)
    {
      guint pages = 0, records = 0;

      cg_harvester_get_class_counts (cli->harvester, classes[i], &pages, &records);
      if (i >= MAX_LIVE_CLASSES)
        {
          other_pages += pages;
          other_records += records;
          continue;
        }
      fprintf (stderr, "\r\033[K  %-28s %7u %s %8u %s\n", classes[i], pages, _("pages"), records, _("records"));
      cli->lines_drawn++;
    }
  if (n > MAX_LIVE_CLASSES)
    {
      fprintf (stderr, "\r\033[K  %-28s %7u %s %8u %s\n", _("(other classes)"), other_pages, _("pages"),
               other_records, _("records"));
      cli->lines_drawn++;
    }
  fprintf (stderr, "\r\033[K%s\n", summary);
  cli->lines_drawn++;
  fflush (stderr);
}

static void
print_plain (HarvestCli *cli)
{
  g_auto(GStrv) classes = cg_harvester_list_classes (cli->harvester);
  g_autofree char *summary = progress_summary (cli);
  GString *line = g_string_new (summary);

  for (guint i = 0; classes[i] != NULL; i++)
    {
      guint pages = 0;

      cg_harvester_get_class_counts (cli->harvester, classes[i], &pages, NULL);
      g_string_append_printf (line, "%s %s %u", i == 0 ? ";" : ",", classes[i], pages);
    }
  fprintf (stderr, "%s\n", line->str);
  g_string_free (line, TRUE);
}

static void
progress_cb (CgCrawler          *crawler,
             const CgCrawlStats *stats,
             HarvestCli         *cli)
{
  if (cli->run.quiet)
    return;
  if (cli->run.terminal)
    draw_live (cli);
  else if (cg_cli_run_plain_line_due (&cli->run))
    print_plain (cli);
}

static void
coverage_cb (CgHarvester *harvester,
             guint64      requests,
             guint64      bigrams,
             HarvestCli  *cli)
{
  cli->requests = requests;
  cli->bigrams = bigrams;
}

static void
event_cb (CgCrawler  *crawler,
          int         kind,
          const char *url,
          const char *message,
          HarvestCli *cli)
{
  /* The event's line goes where the live block was; it is drawn again
   * below. */
  if (!cli->run.quiet && cg_cli_run_print_event (&cli->run, kind, url, message))
    cli->lines_drawn = 0;
}

static void
finished_cb (CgHarvester  *harvester,
             int           end,
             const GError *error,
             HarvestCli   *cli)
{
  if (!cli->run.quiet)
    {
      if (cli->run.terminal)
        draw_live (cli);
      else
        print_plain (cli);
    }
  cg_cli_run_finish (&cli->run, end, error);
  if (end == CG_CRAWL_END_LIMIT && !cli->run.quiet)
    fprintf (stderr, _("To go further, resume it with a higher limit: "
                       "cartograph-cli harvest --resume --max-pages N --project %s\n"),
             cli->folder);
}

static void
stop_cb (gpointer user_data)
{
  HarvestCli *cli = user_data;

  /* The stop message was printed below the live block. */
  cli->lines_drawn = 0;
  cg_harvester_stop (cli->harvester);
}

static void
print_report (const CgHarvestReport *report,
              CgHarvester           *harvester)
{
  CgHarvestClassChanges totals;

  cg_harvest_report_get_totals (report, &totals);
  if (report->previous_crawl_id > 0)
    printf (_("Harvest %" PRId64 ": %u pages; changes since harvest %" PRId64
              " (%u conditional requests, %u not modified, %u revisit records)\n"),
            report->crawl_id, report->n_pages, report->previous_crawl_id,
            report->n_conditional, report->n_not_modified, report->n_revisits);
  else if (cg_harvester_get_n_reused (harvester) > 0)
    printf (_("Harvest %" PRId64 ": %u pages, the first harvest of the project"
              " (%u read back from the learning crawl, not fetched again)\n"),
            report->crawl_id, report->n_pages, cg_harvester_get_n_reused (harvester));
  else
    printf (_("Harvest %" PRId64 ": %u pages, the first harvest of the project\n"),
            report->crawl_id, report->n_pages);
  printf ("  %-28s %8s %8s %10s %8s %8s\n", _("class"), _("new"), _("changed"), _("unchanged"), _("gone"), _("records"));
  for (guint i = 0; i < report->classes->len; i++)
    {
      const CgHarvestClassChanges *changes = g_ptr_array_index (report->classes, i);
      guint records = 0;

      cg_harvester_get_class_counts (harvester, changes->class_name, NULL, &records);
      printf ("  %-28s %8u %8u %10u %8u %8u\n", changes->class_name, changes->n_new, changes->n_changed,
              changes->n_unchanged, changes->n_gone, records);
    }
  printf ("  %-28s %8u %8u %10u %8u\n", _("total"), totals.n_new, totals.n_changed, totals.n_unchanged, totals.n_gone);
  if (cg_harvester_get_options (harvester)->strategy == CG_HARVEST_STRATEGY_LIKE)
    printf (_("Pages like %s: %u\n"), cg_harvester_get_options (harvester)->like_url,
            cg_harvester_get_n_targets (harvester));
}

int
cg_cli_harvest (int    argc,
                char **argv)
{
  g_autofree char *folder = NULL;
  g_autofree char *site = NULL;
  g_autofree char *strategy = NULL;
  g_autofree char *like = NULL;
  gboolean resume = FALSE, everything = FALSE, no_conditional = FALSE, no_reuse = FALSE, all_patterns = FALSE;
  gboolean quiet = FALSE, json = FALSE;
  /* --resume with new limits or politeness. */
  gboolean resume_changes = FALSE;
  /* The smallest values mark "not given", so that what the user typed,
   * 0 included, is checked and not taken for the default. */
  int version = G_MININT, class_wait = G_MININT, max_repeats = G_MININT, like_pages = G_MININT;
  double like_similarity = -G_MAXDOUBLE;
  g_auto(CgCliFetchOptions) fetch_options = CG_CLI_FETCH_OPTIONS_INIT;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgSiteModel) model = NULL;
  g_autoptr(CgHarvestOptions) options = NULL;
  g_autoptr(CgHarvester) harvester = NULL;
  g_autoptr(CgHarvestReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stopped = NULL;
  g_auto(GStrv) given = NULL;
  HarvestCli cli = { 0 };
  int exit_code = CG_CLI_EXIT_OK;
  const GOptionEntry entries[] = {
    { "project", 'p', 0, G_OPTION_ARG_FILENAME, &folder, N_("The project folder, with a model"), N_("DIR") },
    { "site", 0, 0, G_OPTION_ARG_STRING, &site, N_("The site whose model to use, when the project has several"), N_("SITE") },
    { "model", 0, 0, G_OPTION_ARG_INT, &version, N_("The model version to use (default: the newest)"), N_("V") },
    { "strategy", 0, 0, G_OPTION_ARG_STRING, &strategy, N_("Follow the model’s classes (default), its navigation patterns, or pages like one"), N_("classes|patterns|like") },
    { "like", 0, 0, G_OPTION_ARG_STRING, &like, N_("The sample page of a harvest by example"), N_("URL") },
    { "everything", 0, 0, G_OPTION_ARG_NONE, &everything, N_("Also archive the pages in scope that no class link reaches"), NULL },
    { "resume", 0, 0, G_OPTION_ARG_NONE, &resume, N_("Resume the project’s last harvest where it stopped"), NULL },
    { "class-wait", 0, 0, G_OPTION_ARG_INT, &class_wait, N_("Wait between two pages of one class, on top of politeness"), N_("MS") },
    { "no-conditional", 0, 0, G_OPTION_ARG_NONE, &no_conditional, N_("Fetch everything again, without conditional requests"), NULL },
    { "no-reuse", 0, 0, G_OPTION_ARG_NONE, &no_reuse, N_("Fetch again the pages the learning crawl archived, instead of reading them back"), NULL },
    { "all-patterns", 0, 0, G_OPTION_ARG_NONE, &all_patterns, N_("Run every selected pattern to its end, even one whose pages bring nothing new"), NULL },
    { "max-repeats", 0, 0, G_OPTION_ARG_INT, &max_repeats, N_("Rounds of a repeated pattern step at most (default 1000)"), N_("N") },
    { "like-pages", 0, 0, G_OPTION_ARG_INT, &like_pages, N_("Pages mapped to learn a harvest by example (default 3000)"), N_("N") },
    { "like-similarity", 0, 0, G_OPTION_ARG_DOUBLE, &like_similarity, N_("How like the sample a page must be, 0 to 1 (default 0.8)"), N_("S") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the report of changes as JSON"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_("Print no progress"), NULL },
    { NULL }
  };

  given = g_strdupv (argv);
  context = g_option_context_new (NULL);
  g_option_context_set_summary (context, _("Archive a site by its model: follow its page classes, its navigation "
                                           "patterns, or every page like a sample page. A harvest after an earlier "
                                           "one asks only for what changed and reports the changes per class."));
  cg_cli_add_options (context, entries);
  cg_cli_fetch_options_add (&fetch_options, context);
  if (!cg_cli_parse_options (context, &argc, &argv, &exit_code))
    return exit_code;

  if (folder == NULL)
    {
      cg_cli_print_error (_("harvest needs --project DIR"));
      return CG_CLI_EXIT_USAGE;
    }
  if (argc > 1)
    {
      cg_cli_print_error (_("harvest takes no URL: it starts from the model’s site (use --like URL for a sample page)"));
      return CG_CLI_EXIT_USAGE;
    }
  if (version != G_MININT && version < 1)
    {
      cg_cli_print_error (_("--model needs a version number from 1, not %d"), version);
      return CG_CLI_EXIT_USAGE;
    }
  if (class_wait != G_MININT && class_wait < 0)
    {
      g_autofree char *given_wait = g_strdup_printf ("%d", class_wait);

      cg_cli_print_error (_("%s cannot be negative, not %s"), "--class-wait", given_wait);
      return CG_CLI_EXIT_USAGE;
    }
  if (!cg_cli_check_count ("--max-repeats", max_repeats, G_MININT) ||
      !cg_cli_check_count ("--like-pages", like_pages, G_MININT))
    return CG_CLI_EXIT_USAGE;
  if (like_similarity != -G_MAXDOUBLE && !(like_similarity > 0 && like_similarity <= 1))
    {
      cg_cli_print_error (_("--like-similarity must be above 0 and at most 1, not %g"), like_similarity);
      return CG_CLI_EXIT_USAGE;
    }
  if (!cg_cli_fetch_options_check (&fetch_options))
    return CG_CLI_EXIT_USAGE;
  if (resume)
    {
      static const char * const own[] = { "--project", "-p", "--resume", "--json", "--quiet", "-q", NULL };
      g_autofree char *refused = cg_cli_fetch_options_refused_on_resume (given, own);

      if (refused != NULL)
        {
          cg_cli_print_error (_("--resume continues the harvest with the model, strategy and settings it was "
                                "started with, but for its limits and its politeness: %s cannot be given with it"),
                              refused);
          return CG_CLI_EXIT_USAGE;
        }
      resume_changes = cg_cli_find_option_besides (given, own) != NULL;
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

  if (resume)
    {
      gint64 crawl_id = cg_harvester_find_resumable (project, &error);

      if (crawl_id > 0 && resume_changes)
        {
          g_autoptr(CgCrawlConfig) config = cg_crawler_load_config (project, crawl_id, &error);

          if (config != NULL)
            {
              cg_cli_fetch_options_apply_resumable (&fetch_options, config);
              harvester = cg_harvester_new_for_crawl_with_config (project, crawl_id, config, &error);
            }
        }
      else if (crawl_id > 0)
        harvester = cg_harvester_new_for_crawl (project, crawl_id, &error);
    }
  else
    {
      options = cg_harvest_options_new ();
      if (strategy != NULL && !cg_harvest_strategy_from_string (strategy, &options->strategy))
        {
          cg_cli_print_error (_("“%s” is not a harvest strategy: use classes, patterns or like"), strategy);
          return CG_CLI_EXIT_USAGE;
        }
      if (like != NULL && strategy == NULL)
        options->strategy = CG_HARVEST_STRATEGY_LIKE;
      if (options->strategy == CG_HARVEST_STRATEGY_LIKE && like == NULL)
        {
          cg_cli_print_error (_("a harvest by example needs --like URL, the sample page"));
          return CG_CLI_EXIT_USAGE;
        }
      if (like != NULL && options->strategy != CG_HARVEST_STRATEGY_LIKE)
        {
          cg_cli_print_error (_("--like goes with --strategy like"));
          return CG_CLI_EXIT_USAGE;
        }
      options->like_url = g_steal_pointer (&like);
      options->everything_in_scope = everything;
      options->class_wait_ms = class_wait != G_MININT ? (guint) class_wait : 0;
      options->conditional = !no_conditional;
      options->reuse_sample = !no_reuse;
      options->prune_patterns = !all_patterns;
      options->max_repeats = max_repeats != G_MININT ? (guint) max_repeats : 0;
      options->like_map_pages = like_pages != G_MININT ? (guint) like_pages : 0;
      options->like_similarity = like_similarity != -G_MAXDOUBLE ? like_similarity : 0;

      cg_cli_fetch_options_apply (&fetch_options, options->crawl);
      if (!cg_harvest_options_validate (options, &error))
        {
          cg_cli_print_error ("%s", error->message);
          return CG_CLI_EXIT_USAGE;
        }

      model = load_model (cg_project_get_store (project), site, version, &error);
      if (model == NULL)
        {
          cg_cli_print_error ("%s", error->message);
          return CG_CLI_EXIT_FAILED;
        }
      harvester = cg_harvester_new (project, model, options, &error);
    }
  if (harvester == NULL)
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_FAILED;
    }

  cli.harvester = harvester;
  cli.folder = folder;
  cg_cli_run_init (&cli.run, quiet, stop_cb, &cli);
  g_signal_connect (cg_harvester_get_crawler (harvester), "progress", G_CALLBACK (progress_cb), &cli);
  g_signal_connect (cg_harvester_get_crawler (harvester), "event", G_CALLBACK (event_cb), &cli);
  g_signal_connect (harvester, "coverage", G_CALLBACK (coverage_cb), &cli);
  g_signal_connect (harvester, "finished", G_CALLBACK (finished_cb), &cli);

  if (!quiet)
    fprintf (stderr, _("Harvest %" PRId64 " of %s (model version %d, by %s) into %s\n"),
             cg_harvester_get_crawl_id (harvester), cg_site_model_get_site (cg_harvester_get_model (harvester)),
             cg_site_model_get_version (cg_harvester_get_model (harvester)),
             cg_harvest_strategy_to_string (cg_harvester_get_options (harvester)->strategy),
             cg_project_get_folder (project));
  cg_harvester_start (harvester);
  cg_cli_run_wait (&cli.run);

  report = cg_harvester_get_report (harvester, &error);
  if (report == NULL)
    {
      cg_cli_print_error (_("the harvest’s report cannot be made: %s"), error->message);
      exit_code = CG_CLI_EXIT_FAILED;
    }
  else if (json)
    {
      g_autofree char *text = cg_harvest_report_to_json (report);

      printf ("%s\n", text);
    }
  else if (!quiet)
    print_report (report, harvester);

  stopped = g_strdup_printf (_("Stopped. Run “cartograph-cli harvest --resume --project %s” to go on.\n"), folder);
  {
    int end_code = cg_cli_run_exit_code (&cli.run, stopped, _("the harvest failed"));

    if (end_code != CG_CLI_EXIT_OK)
      exit_code = end_code;
  }
  cg_cli_run_clear (&cli.run);
  return exit_code;
}
