/* cg-cli-render.c: `cartograph-cli render`, pages rendered headless with
 * the visual features of every element.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <glib-unix.h>
#include <json-glib/json-glib.h>

#include "cg-archive.h"
#include "cg-cli.h"
#include "cg-display.h"
#include "cg-json.h"
#include "cg-renderer-pool.h"

/* A list of URLs given in a file is read up to this size. */
#define MAX_URL_LIST_SIZE (64 * 1024 * 1024)
/* Renders handed to the pool ahead of a free renderer, per renderer: enough
 * to keep every renderer busy, few enough that stopping is quick. */
#define AHEAD_PER_RENDERER 2

typedef struct {
  GMainLoop         *loop;
  CgRendererPool    *pool;
  GCancellable      *cancellable;
  GStrv              urls;
  guint              n_urls;
  guint              next;
  guint              n_running;
  guint              n_done;
  guint              n_failed;
  char              *out_dir;
  GFileOutputStream *index;
  gboolean           quiet;
  gboolean           stopping;
  GError            *write_error;
} RenderCli;

typedef struct {
  RenderCli *cli;
  guint      number;
} Job;

static void submit_more (RenderCli *cli);

static gboolean
write_index_line (RenderCli   *cli,
                  JsonBuilder *builder)
{
  g_autoptr(JsonNode) root = json_builder_get_root (builder);
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *line = NULL;
  g_autoptr(GError) error = NULL;
  gsize length;

  json_generator_set_root (generator, root);
  line = json_generator_to_data (generator, &length);
  if (!g_output_stream_write_all (G_OUTPUT_STREAM (cli->index), line, length, NULL, NULL, &error) ||
      !g_output_stream_write_all (G_OUTPUT_STREAM (cli->index), "\n", 1, NULL, NULL, &error) ||
      !g_output_stream_flush (G_OUTPUT_STREAM (cli->index), NULL, &error))
    {
      if (cli->write_error == NULL)
        cli->write_error = g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED,
                                        _("Cannot write the page list in “%s”: %s"),
                                        cli->out_dir, error->message);
      return FALSE;
    }
  return TRUE;
}

static gboolean
write_file (RenderCli   *cli,
            const char  *name,
            const char  *data,
            gsize        length)
{
  g_autofree char *path = g_build_filename (cli->out_dir, name, NULL);
  g_autoptr(GError) error = NULL;

  if (!g_file_set_contents (path, data, (gssize) length, &error))
    {
      if (cli->write_error == NULL)
        cli->write_error = g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED,
                                        _("Cannot write “%s”: %s"), path, error->message);
      return FALSE;
    }
  return TRUE;
}

static void
render_done_cb (GObject      *source,
                GAsyncResult *res,
                gpointer      user_data)
{
  Job *job = user_data;
  RenderCli *cli = job->cli;
  guint number = job->number;
  g_autoptr(CgRenderResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  const char *url = cli->urls[number];

  g_free (job);
  cli->n_running--;
  result = cg_renderer_pool_render_finish (CG_RENDERER_POOL (source), res, &error);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "n");
  json_builder_add_int_value (builder, number + 1);
  cg_json_add_string_or_null (builder, "url", url);
  if (result == NULL)
    {
      cli->n_failed++;
      cg_json_add_string_or_null (builder, "error", error->message);
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        cg_cli_print_error ("%s", error->message);
    }
  else
    {
      g_autofree char *html_name = g_strdup_printf ("%05u.html", number + 1);
      g_autofree char *png_name = g_strdup_printf ("%05u.png", number + 1);
      gboolean have_png = result->thumbnail != NULL;

      cli->n_done++;
      write_file (cli, html_name, result->html, strlen (result->html));
      if (have_png)
        write_file (cli, png_name, g_bytes_get_data (result->thumbnail, NULL),
                    g_bytes_get_size (result->thumbnail));

      cg_json_add_string_or_null (builder, "final_url", result->url);
      json_builder_set_member_name (builder, "status");
      json_builder_add_int_value (builder, result->status);
      cg_json_add_string_or_null (builder, "mime", result->mime);
      cg_json_add_string_or_null (builder, "title", result->title);
      json_builder_set_member_name (builder, "elements");
      json_builder_add_int_value (builder, result->n_elements);
      json_builder_set_member_name (builder, "visible");
      json_builder_add_int_value (builder, result->n_visible);
      json_builder_set_member_name (builder, "truncated");
      json_builder_add_boolean_value (builder, result->truncated);
      json_builder_set_member_name (builder, "settled");
      json_builder_add_boolean_value (builder, result->settled);
      json_builder_set_member_name (builder, "width");
      json_builder_add_double_value (builder, result->document_width);
      json_builder_set_member_name (builder, "height");
      json_builder_add_double_value (builder, result->document_height);
      json_builder_set_member_name (builder, "ms");
      json_builder_add_int_value (builder, result->duration_ms);
      cg_json_add_string_or_null (builder, "html", html_name);
      cg_json_add_string_or_null (builder, "thumbnail", have_png ? png_name : NULL);
      if (!cli->quiet)
        g_print ("%u/%u %u %s (%u elements, %u ms)\n", number + 1, cli->n_urls, result->status,
                 result->url, result->n_elements, result->duration_ms);
    }
  json_builder_end_object (builder);
  write_index_line (cli, builder);

  /* A full disk stops the run: every later page would fail the same way. */
  if (cli->write_error != NULL && !cli->stopping)
    {
      cli->stopping = TRUE;
      g_cancellable_cancel (cli->cancellable);
    }
  submit_more (cli);
  if (cli->n_running == 0 && (cli->next >= cli->n_urls || cli->stopping))
    g_main_loop_quit (cli->loop);
}

static void
submit_more (RenderCli *cli)
{
  guint ahead = cg_renderer_pool_get_size (cli->pool) * AHEAD_PER_RENDERER;

  while (!cli->stopping && cli->next < cli->n_urls && cli->n_running < ahead)
    {
      Job *job = g_new (Job, 1);

      job->cli = cli;
      job->number = cli->next++;
      cli->n_running++;
      cg_renderer_pool_render_async (cli->pool, cli->urls[job->number], cli->cancellable,
                                     render_done_cb, job);
    }
}

static gboolean
interrupt_cb (gpointer user_data)
{
  RenderCli *cli = user_data;

  if (cli->stopping)
    return G_SOURCE_CONTINUE;
  fprintf (stderr, "%s\n", _("Stopping: the renders under way are cancelled…"));
  cli->stopping = TRUE;
  g_cancellable_cancel (cli->cancellable);
  if (cli->n_running == 0)
    g_main_loop_quit (cli->loop);
  return G_SOURCE_CONTINUE;
}

static GStrv
read_url_list (const char  *path,
               GError     **error)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  gsize length = 0;

  /* The cap is checked on what is read, not on what stat() says: a pipe
   * or a device such as /dev/zero has no size and may never end. The
   * error names the file. */
  if (!cg_cli_read_file (path, MAX_URL_LIST_SIZE, &contents, &length, error))
    return NULL;
  if (!g_utf8_validate (contents, (gssize) length, NULL) || memchr (contents, '\0', length) != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("The URL list “%s” is not UTF-8 text"), path);
      return NULL;
    }
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);

      if (line[0] != '\0' && line[0] != '#')
        g_strv_builder_add (builder, line);
    }
  return g_strv_builder_end (builder);
}

static gboolean
parse_viewport (const char *text,
                guint      *width,
                guint      *height)
{
  guint64 w, h;
  char *end = NULL;

  if (text == NULL || !g_ascii_isdigit (*text))
    return FALSE;
  w = g_ascii_strtoull (text, &end, 10);
  if (*end != 'x' || !g_ascii_isdigit (end[1]))
    return FALSE;
  h = g_ascii_strtoull (end + 1, &end, 10);
  if (*end != '\0' || w < 200 || h < 200 || w > 8192 || h > 8192)
    return FALSE;
  *width = (guint) w;
  *height = (guint) h;
  return TRUE;
}

int
cg_cli_render (int    argc,
               char **argv)
{
  g_autofree char *out_dir = NULL;
  g_autofree char *warc = NULL;
  g_autofree char *project = NULL;
  g_autofree char *urls_from = NULL;
  g_autofree char *viewport = NULL;
  gboolean no_javascript = FALSE, quiet = FALSE;
  int jobs = CG_RENDERER_POOL_DEFAULT_SIZE, timeout = CG_RENDER_DEFAULT_TIMEOUT_MS / 1000;
  int thumbnail_width = CG_RENDER_DEFAULT_THUMBNAIL_WIDTH, max_pages = 0;
  gint64 crawl_id = 0;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CgDisplay) display = NULL;
  g_autoptr(CgArchive) archive = NULL;
  g_autoptr(CgWebContext) web_context = NULL;
  g_autoptr(GFile) index_file = NULL;
  g_autofree char *index_path = NULL;
  g_auto(GStrv) urls = NULL;
  CgRenderOptions options;
  RenderCli cli = { 0 };
  int exit_code = CG_CLI_EXIT_OK;
  gint64 started;
  double seconds;
  guint sigint, sigterm;
  const GOptionEntry entries[] = {
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out_dir, N_("Where to write the rendered pages (created if needed)"), N_("DIR") },
    { "warc", 0, 0, G_OPTION_ARG_FILENAME, &warc, N_("Render from this WARC file; without URLs, every HTML page in it"), N_("FILE") },
    { "project", 'p', 0, G_OPTION_ARG_FILENAME, &project, N_("Render from this project’s archive; without URLs, every HTML page in it"), N_("DIR") },
    { "crawl", 0, 0, G_OPTION_ARG_INT64, &crawl_id, N_("With --project, only this crawl’s captures"), N_("ID") },
    { "urls-from", 0, 0, G_OPTION_ARG_FILENAME, &urls_from, N_("Also render the URLs in this file, one per line"), N_("FILE") },
    { "max-pages", 0, 0, G_OPTION_ARG_INT, &max_pages, N_("Render at most this many pages"), N_("N") },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, N_("Renderers working at once (default 2)"), N_("N") },
    { "no-javascript", 0, 0, G_OPTION_ARG_NONE, &no_javascript, N_("Do not run the pages’ scripts"), NULL },
    { "timeout", 0, 0, G_OPTION_ARG_INT, &timeout, N_("Longest time for one page (default 30)"), N_("SECONDS") },
    { "viewport", 0, 0, G_OPTION_ARG_STRING, &viewport, N_("The window size pages are laid out in (default 1280x900)"), N_("WxH") },
    { "thumbnail-width", 0, 0, G_OPTION_ARG_INT, &thumbnail_width, N_("Width of the PNG thumbnails, 0 for none (default 320)"), N_("PIXELS") },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_("Print only errors"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("[URL…]"));
  g_option_context_set_summary (context,
                                _("Render pages headless, live or from an archive, and write each page’s DOM "
                                  "decorated with the box, visibility and font of every element, with a PNG "
                                  "thumbnail. Without a display, Xvfb is started."));
  cg_cli_add_options (context, entries);
  if (!cg_cli_parse_options (context, &argc, &argv, &exit_code))
    return exit_code;

  if (out_dir == NULL)
    {
      cg_cli_print_error (_("render needs --out DIR"));
      return CG_CLI_EXIT_USAGE;
    }
  if (warc != NULL && project != NULL)
    {
      cg_cli_print_error (_("--warc and --project cannot be used together"));
      return CG_CLI_EXIT_USAGE;
    }
  /* Each value is checked, and named, by itself. --crawl is checked before
   * it is paired with --project, so that a bad ID is reported as such. */
  if (crawl_id < 0)
    {
      /* A plain conversion: xgettext cannot read G_GINT64_FORMAT. */
      cg_cli_print_error (_("--crawl must be a crawl ID (1 or more), not %lld"),
                          (long long) crawl_id);
      return CG_CLI_EXIT_USAGE;
    }
  if (crawl_id != 0 && project == NULL)
    {
      cg_cli_print_error (_("--crawl goes with --project"));
      return CG_CLI_EXIT_USAGE;
    }
  if (max_pages < 0)
    {
      cg_cli_print_error (_("--max-pages must be 0 (no limit) or more, not %d"), max_pages);
      return CG_CLI_EXIT_USAGE;
    }
  if (jobs < 1 || jobs > CG_RENDERER_POOL_MAX_SIZE)
    {
      cg_cli_print_error (_("--jobs must be between 1 and %d"), CG_RENDERER_POOL_MAX_SIZE);
      return CG_CLI_EXIT_USAGE;
    }
  if (timeout < 1 || timeout > 3600)
    {
      cg_cli_print_error (_("--timeout must be between 1 and 3600 seconds"));
      return CG_CLI_EXIT_USAGE;
    }
  if (thumbnail_width < 0 || thumbnail_width > 4096)
    {
      cg_cli_print_error (_("--thumbnail-width must be between 0 and 4096, not %d"), thumbnail_width);
      return CG_CLI_EXIT_USAGE;
    }

  cg_render_options_init (&options);
  options.timeout_ms = (guint) timeout * 1000;
  options.thumbnail_width = (guint) thumbnail_width;
  if (viewport != NULL && !parse_viewport (viewport, &options.viewport_width, &options.viewport_height))
    {
      cg_cli_print_error (_("“%s” is not a viewport size such as 1280x900 (200 to 8192 pixels a side)"), viewport);
      return CG_CLI_EXIT_USAGE;
    }

  {
    g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

    for (int i = 1; i < argc; i++)
      {
        g_autoptr(GUri) uri = cg_cli_parse_url (argv[i], &error);

        /* Whether its scheme can be rendered is left to the renderer,
         * which refuses it like any page that fails. */
        if (uri == NULL)
          {
            cg_cli_print_error ("%s", error->message);
            return CG_CLI_EXIT_USAGE;
          }
        g_strv_builder_add (builder, argv[i]);
      }
    if (urls_from != NULL)
      {
        g_auto(GStrv) listed = read_url_list (urls_from, &error);

        if (listed == NULL)
          {
            cg_cli_print_error ("%s", error->message);
            return CG_CLI_EXIT_FAILED;
          }
        g_strv_builder_addv (builder, (const char **) listed);
      }
    urls = g_strv_builder_end (builder);
  }

  if (warc != NULL || project != NULL)
    {
      archive = warc != NULL ? cg_archive_new_for_warc (warc, &error)
                             : cg_archive_new_for_project (project, crawl_id, &error);
      if (archive == NULL)
        {
          cg_cli_print_error ("%s", error->message);
          return CG_CLI_EXIT_FAILED;
        }
      if (urls[0] == NULL)
        {
          g_strfreev (urls);
          urls = cg_archive_list_pages (archive, (guint) max_pages, &error);
          if (urls == NULL)
            {
              cg_cli_print_error ("%s", error->message);
              return CG_CLI_EXIT_FAILED;
            }
          if (urls[0] == NULL)
            {
              cg_cli_print_error (_("“%s” holds no HTML page to render"), cg_archive_get_description (archive));
              return CG_CLI_EXIT_FAILED;
            }
        }
    }
  else if (urls[0] == NULL)
    {
      cg_cli_print_error (_("render needs a URL, --urls-from FILE, --warc FILE or --project DIR"));
      return CG_CLI_EXIT_USAGE;
    }
  cli.n_urls = g_strv_length (urls);
  if (max_pages > 0)
    cli.n_urls = MIN (cli.n_urls, (guint) max_pages);

  if (g_mkdir_with_parents (out_dir, 0755) != 0)
    {
      int saved_errno = errno;

      cg_cli_print_error (_("Cannot create the folder “%s”: %s"), out_dir, g_strerror (saved_errno));
      return CG_CLI_EXIT_FAILED;
    }
  index_path = g_build_filename (out_dir, "pages.jsonl", NULL);
  index_file = g_file_new_for_path (index_path);
  cli.index = g_file_replace (index_file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
  if (cli.index == NULL)
    {
      cg_cli_print_error (_("Cannot write “%s”: %s"), index_path, error->message);
      return CG_CLI_EXIT_FAILED;
    }

  display = cg_display_open (&error);
  if (display == NULL)
    {
      cg_cli_print_error ("%s", error->message);
      g_clear_object (&cli.index);
      return CG_CLI_EXIT_FAILED;
    }

  if (archive != NULL)
    web_context = cg_web_context_new_for_archive (archive, !no_javascript, &error);
  else
    web_context = cg_web_context_new (!no_javascript);
  if (web_context == NULL)
    {
      cg_cli_print_error ("%s", error->message);
      g_clear_object (&cli.index);
      return CG_CLI_EXIT_FAILED;
    }

  cli.loop = g_main_loop_new (NULL, FALSE);
  cli.pool = cg_renderer_pool_new (web_context, (guint) jobs, &options);
  cli.cancellable = g_cancellable_new ();
  cli.urls = urls;
  cli.out_dir = out_dir;
  cli.quiet = quiet;
  sigint = g_unix_signal_add (SIGINT, interrupt_cb, &cli);
  sigterm = g_unix_signal_add (SIGTERM, interrupt_cb, &cli);

  started = g_get_monotonic_time ();
  submit_more (&cli);
  if (cli.n_running > 0)
    g_main_loop_run (cli.loop);
  seconds = (g_get_monotonic_time () - started) / (double) G_USEC_PER_SEC;

  g_source_remove (sigint);
  g_source_remove (sigterm);
  g_clear_object (&cli.pool);
  g_clear_object (&cli.cancellable);
  g_clear_pointer (&cli.loop, g_main_loop_unref);
  if (!g_output_stream_close (G_OUTPUT_STREAM (cli.index), NULL, &error) && cli.write_error == NULL)
    cli.write_error = g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot write “%s”: %s"),
                                   index_path, error->message);
  g_clear_object (&cli.index);

  if (cli.write_error != NULL)
    {
      cg_cli_print_error ("%s", cli.write_error->message);
      g_clear_error (&cli.write_error);
      return CG_CLI_EXIT_FAILED;
    }
  if (!quiet)
    g_print (_("%u pages rendered, %u failed, in %.1f s (%.2f pages/s)\n"),
             cli.n_done, cli.n_failed, seconds, seconds > 0 ? cli.n_done / seconds : 0.0);
  if (cli.n_failed > 0 || cli.n_done + cli.n_failed < cli.n_urls)
    return CG_CLI_EXIT_FAILED;
  return CG_CLI_EXIT_OK;
}
