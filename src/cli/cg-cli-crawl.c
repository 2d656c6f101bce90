/* cg-cli-crawl.c: `cartograph-cli crawl`, an archival crawl from the shell.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <glib/gi18n.h>

#include "cg-cli.h"
#include "cg-crawl-lock.h"
#include "cg-cli-fetch-options.h"
#include "cg-cli-run.h"
#include "cg-crawl-report.h"
#include "cg-crawler.h"

typedef struct {
  CgCliRun    run;
  CgCrawler  *crawler;
  const char *folder;
} CrawlCli;

static gboolean
parse_size (const char *text,
            guint64    *out_size)
{
  char *end = NULL;
  guint64 value;
  guint64 unit = 1;

  if (text == NULL || !g_ascii_isdigit (*text))
    return FALSE;
  value = g_ascii_strtoull (text, &end, 10);
  switch (g_ascii_toupper (*end))
    {
    case '\0': break;
    case 'K': unit = 1024; end++; break;
    case 'M': unit = 1024 * 1024; end++; break;
    case 'G': unit = 1024 * 1024 * 1024; end++; break;
    default: return FALSE;
    }
  if (g_ascii_toupper (*end) == 'B')
    end++;
  if (*end != '\0' || value > G_MAXUINT64 / unit)
    return FALSE;
  *out_size = value * unit;
  return TRUE;
}

/* Sets *@out_size from the text of a size option, if it was given;
 * prints the usage error when it is not a size. */
static gboolean
take_size_option (const char *text,
                  guint64    *out_size)
{
  if (text == NULL || parse_size (text, out_size))
    return TRUE;
  cg_cli_print_error (_("“%s” is not a size such as 500M or 2G"), text);
  return FALSE;
}

static void
progress_cb (CgCrawler          *crawler,
             const CgCrawlStats *stats,
             CrawlCli           *cli)
{
  g_autofree char *bytes = g_format_size (stats->bytes);
  g_autofree char *line = NULL;

  if (cli->run.quiet)
    return;
  line = g_strdup_printf (_("%" PRIu64 " done, %" PRIu64 " queued, %" PRIu64
                            " in flight, %" PRIu64 " failed, %" PRIu64 " skipped, "
                            "%s, %.1f documents/s%s"),
                          stats->done, stats->queued, stats->in_flight, stats->failed, stats->skipped,
                          bytes, stats->documents_per_second, stats->paused ? _(" (paused)") : "");
  if (cli->run.terminal)
    {
      fprintf (stderr, "\r\033[K%s", line);
      fflush (stderr);
    }
  else if (cg_cli_run_plain_line_due (&cli->run))
    fprintf (stderr, "%s\n", line);
}

static void
event_cb (CgCrawler  *crawler,
          int         kind,
          const char *url,
          const char *message,
          CrawlCli   *cli)
{
  cg_cli_run_print_event (&cli->run, kind, url, message);
}

static void
finished_cb (CgCrawler    *crawler,
             int           end,
             const GError *error,
             CrawlCli     *cli)
{
  if (cli->run.terminal && !cli->run.quiet)
    fprintf (stderr, "\n");
  cg_cli_run_finish (&cli->run, end, error);
  if (end == CG_CRAWL_END_LIMIT && !cli->run.quiet)
    fprintf (stderr, _("To go further, resume it with a higher limit: "
                       "cartograph-cli crawl --resume --max-pages N --project %s\n"),
             cli->folder);
}

static void
stop_cb (gpointer user_data)
{
  CrawlCli *cli = user_data;

  cg_crawler_stop (cli->crawler);
}

/* glibc gives the free top of a thread's heap back to the kernel as soon
 * as it passes 128 KiB, and checks whenever a block of 64 KiB or more is
 * freed, which a crawl does for every page (read buffers, bodies). Each
 * time costs an madvise() and a TLB shootdown on every core: about 7 %
 * of the crawl thread's time in the crawl throughput benchmark
 * (tests/bench). Keeping up to this much free memory per heap ends it;
 * the memory is still reused, and the peak stays bounded. */
#define MALLOC_TRIM_THRESHOLD (8 * 1024 * 1024)

int
cg_cli_crawl (int    argc,
              char **argv)
{
  g_autofree char *folder = NULL;
  g_autofree char *scope = NULL;
  g_autofree char *max_bytes = NULL;
  g_autofree char *max_body = NULL;
  g_autofree char *warc_size = NULL;
  g_autofree char *digest = NULL;
  g_autofree char *warc_prefix = NULL;
  g_auto(GStrv) includes = NULL;
  g_auto(GStrv) excludes = NULL;
  g_auto(GStrv) surt_prefixes = NULL;
  gboolean resume = FALSE, cookies = FALSE, quiet = FALSE;
  /* --resume with new limits or politeness. */
  gboolean changes = FALSE;
  guint64 resumed_max_bytes = 0;
  /* The smallest values mark "not given", so that a negative value the
   * user typed is refused instead of taken for "not given". */
  int max_depth = G_MININT, compression = G_MININT;
  g_auto(CgCliFetchOptions) fetch_options = CG_CLI_FETCH_OPTIONS_INIT;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgCrawlConfig) config = NULL;
  g_autoptr(CgCrawler) crawler = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *report = NULL;
  g_autofree char *stopped = NULL;
  g_auto(GStrv) given = NULL;
  CrawlCli cli = { 0 };
  int exit_code = CG_CLI_EXIT_OK;
  const GOptionEntry entries[] = {
    { "project", 'p', 0, G_OPTION_ARG_FILENAME, &folder, N_("The project folder (created if needed)"), N_("DIR") },
    { "resume", 0, 0, G_OPTION_ARG_NONE, &resume, N_("Resume the project’s last crawl where it stopped"), NULL },
    { "scope", 0, 0, G_OPTION_ARG_STRING, &scope, N_("What to crawl: host (default), domain or prefix"), N_("SCOPE") },
    { "surt-prefix", 0, 0, G_OPTION_ARG_STRING_ARRAY, &surt_prefixes, N_("Also crawl under this SURT prefix or domain"), N_("PREFIX") },
    { "include", 0, 0, G_OPTION_ARG_STRING_ARRAY, &includes, N_("Follow only links matching this regular expression"), N_("REGEX") },
    { "exclude", 0, 0, G_OPTION_ARG_STRING_ARRAY, &excludes, N_("Never fetch URLs matching this regular expression"), N_("REGEX") },
    { "max-depth", 0, 0, G_OPTION_ARG_INT, &max_depth, N_("Links to follow from the seeds (default 20)"), N_("N") },
    { "max-bytes", 0, 0, G_OPTION_ARG_STRING, &max_bytes, N_("Stop after receiving this much (e.g. 2G)"), N_("SIZE") },
    { "cookies", 0, 0, G_OPTION_ARG_NONE, &cookies, N_("Keep and send cookies during the crawl"), NULL },
    { "max-body-size", 0, 0, G_OPTION_ARG_STRING, &max_body, N_("Cut responses longer than this (default 64M)"), N_("SIZE") },
    { "warc-prefix", 0, 0, G_OPTION_ARG_STRING, &warc_prefix, N_("The start of the WARC file names"), N_("NAME") },
    { "warc-size", 0, 0, G_OPTION_ARG_STRING, &warc_size, N_("Start a new WARC file past this size (default 1G)"), N_("SIZE") },
    { "digest", 0, 0, G_OPTION_ARG_STRING, &digest, N_("WARC digests: sha1 (default) or sha256"), N_("ALGORITHM") },
    { "compression", 0, 0, G_OPTION_ARG_INT, &compression, N_("Compression level of the WARC files, 0 to 12 (default 1)"), N_("N") },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_("Print no progress"), NULL },
    { NULL }
  };

  given = g_strdupv (argv);
  context = g_option_context_new (_("[URL…]"));
  g_option_context_set_summary (context, _("Archive a site in WARC: a polite, resumable crawl."));
  cg_cli_add_options (context, entries);
  cg_cli_fetch_options_add (&fetch_options, context);
  if (!cg_cli_parse_options (context, &argc, &argv, &exit_code))
    return exit_code;

  if (folder == NULL)
    {
      cg_cli_print_error (_("crawl needs --project DIR"));
      return CG_CLI_EXIT_USAGE;
    }
  if (resume && argc > 1)
    {
      cg_cli_print_error (_("--resume continues the crawl as it was started: give no URL"));
      return CG_CLI_EXIT_USAGE;
    }
  if (resume)
    {
      static const char * const own[] = { "--project", "-p", "--resume", "--quiet", "-q", "--max-bytes", NULL };
      g_autofree char *refused = cg_cli_fetch_options_refused_on_resume (given, own);

      if (refused != NULL)
        {
          cg_cli_print_error (_("--resume continues the crawl with the settings it was started with, "
                                "but for its limits and its politeness: %s cannot be given with it"),
                              refused);
          return CG_CLI_EXIT_USAGE;
        }
      if (!cg_cli_fetch_options_check (&fetch_options) || !take_size_option (max_bytes, &resumed_max_bytes))
        return CG_CLI_EXIT_USAGE;
      changes = cg_cli_find_option_besides (given, own) != NULL || max_bytes != NULL;
    }
  if (!resume && argc < 2)
    {
      cg_cli_print_error (_("crawl needs a URL to start from, or --resume"));
      return CG_CLI_EXIT_USAGE;
    }

  if (!resume)
    {
      config = cg_crawl_config_new ();
      g_strfreev (config->seeds);
      config->seeds = g_strdupv (argv + 1);
#define TAKE_STRV(field, value) if (value != NULL) { g_strfreev (config->field); config->field = g_steal_pointer (&value); }
      TAKE_STRV (include_regexes, includes)
      TAKE_STRV (exclude_regexes, excludes)
      TAKE_STRV (surt_prefixes, surt_prefixes)
#undef TAKE_STRV
      if (scope != NULL && !cg_scope_mode_from_string (scope, &config->scope_mode))
        {
          cg_cli_print_error (_("“%s” is not a scope: use host, domain or prefix"), scope);
          return CG_CLI_EXIT_USAGE;
        }
      if (max_depth != G_MININT && max_depth < 0)
        {
          cg_cli_print_error (_("--max-depth cannot be negative, not %d"), max_depth);
          return CG_CLI_EXIT_USAGE;
        }
      if (max_depth >= 0)
        config->max_depth = (guint) max_depth;
      if (!cg_cli_fetch_options_check (&fetch_options))
        return CG_CLI_EXIT_USAGE;
      cg_cli_fetch_options_apply (&fetch_options, config);
      if (!take_size_option (max_bytes, &config->max_bytes) ||
          !take_size_option (max_body, &config->max_body_size) ||
          !take_size_option (warc_size, &config->warc_max_size))
        return CG_CLI_EXIT_USAGE;
      if (digest != NULL)
        {
          if (g_str_equal (digest, "sha1"))
            config->digest = CG_WARC_DIGEST_SHA1;
          else if (g_str_equal (digest, "sha256"))
            config->digest = CG_WARC_DIGEST_SHA256;
          else
            {
              cg_cli_print_error (_("“%s” is not a digest algorithm: use sha1 or sha256"), digest);
              return CG_CLI_EXIT_USAGE;
            }
        }
      config->cookies = cookies;
      if (warc_prefix != NULL)
        {
          g_free (config->warc_prefix);
          config->warc_prefix = g_steal_pointer (&warc_prefix);
        }
      if (compression != G_MININT)
        config->compression_level = compression;

      if (!cg_crawl_config_validate (config, &error))
        {
          cg_cli_print_error ("%s", error->message);
          return CG_CLI_EXIT_USAGE;
        }
    }

  project = resume ? cg_project_open (folder, &error) : cg_project_open_or_create (folder, &error);
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
      gint64 crawl_id = cg_crawler_find_resumable (project, &error);

      if (crawl_id > 0 && changes)
        {
          config = cg_crawler_load_config (project, crawl_id, &error);
          if (config != NULL)
            {
              cg_cli_fetch_options_apply_resumable (&fetch_options, config);
              if (max_bytes != NULL)
                config->max_bytes = resumed_max_bytes;
              crawler = cg_crawler_new_for_crawl_with_config (project, crawl_id, config, &error);
            }
        }
      else if (crawl_id > 0)
        crawler = cg_crawler_new_for_crawl (project, crawl_id, &error);
    }
  else
    crawler = cg_crawler_new (project, config, &error);
  if (crawler == NULL)
    {
      cg_cli_print_error ("%s", error->message);
      return CG_CLI_EXIT_FAILED;
    }

  cli.crawler = crawler;
  cli.folder = folder;
  cg_cli_run_init (&cli.run, quiet, stop_cb, &cli);
  g_signal_connect (crawler, "progress", G_CALLBACK (progress_cb), &cli);
  g_signal_connect (crawler, "event", G_CALLBACK (event_cb), &cli);
  g_signal_connect (crawler, "finished", G_CALLBACK (finished_cb), &cli);

  if (!quiet)
    fprintf (stderr, _("Crawl %" PRId64 " into %s\n"), cg_crawler_get_crawl_id (crawler),
             cg_project_get_folder (project));
#ifdef __GLIBC__
  mallopt (M_TRIM_THRESHOLD, MALLOC_TRIM_THRESHOLD);
#endif
  cg_crawler_start (crawler);
  cg_cli_run_wait (&cli.run);

  /* The report reads the whole crawl back from the database: not for
   * nothing when it is not shown. */
  if (!quiet)
    report = cg_crawl_report_build (project, cg_crawler_get_crawl_id (crawler), NULL);
  if (report != NULL)
    printf ("%s", report);

  stopped = g_strdup_printf (_("Stopped. Run “cartograph-cli crawl --resume --project %s” to go on.\n"), folder);
  exit_code = cg_cli_run_exit_code (&cli.run, stopped, _("the crawl failed"));
  cg_cli_run_clear (&cli.run);
  return exit_code;
}
