/* test-crawl-driver.c: crawls that fetch only what their driver asks for.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <libsoup/soup.h>

#include "cg-crawler.h"
#include "cg-test-files.h"
#include "cg-test-server.h"

typedef struct {
  SoupServer *server;
  char       *base;
  GHashTable *requests;   /* path → count */
  GPtrArray  *rounds;     /* GPtrArray of char * (URLs), one per call of next_urls */
  guint       round;
  GPtrArray  *answers;    /* "requested → final status" */
  GMainLoop  *loop;
  CgCrawlEnd  end;
} Fixture;

static void
handler (SoupServer        *server,
         SoupServerMessage *msg,
         const char        *path,
         GHashTable        *query,
         gpointer           user_data)
{
  Fixture *f = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);

  g_hash_table_insert (f->requests, g_strdup (path),
                       GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (f->requests, path)) + 1));
  if (g_str_equal (path, "/robots.txt"))
    {
      soup_server_message_set_status (msg, 200, NULL);
      soup_server_message_set_response (msg, "text/plain", SOUP_MEMORY_STATIC, "User-agent: *\nDisallow: /private/\n", 35);
    }
  else if (g_str_equal (path, "/a"))
    {
      soup_server_message_set_redirect (msg, 301, "/b");
    }
  else if (g_str_equal (path, "/style.css"))
    {
      soup_server_message_set_status (msg, 200, NULL);
      soup_server_message_set_response (msg, "text/css", SOUP_MEMORY_STATIC, "body{color:#333}", 16);
    }
  else
    {
      g_autofree char *page = g_strdup_printf ("<html><head><link rel=stylesheet href=/style.css><title>%s</title></head>"
                                               "<body><a href=/c>c</a> <a href=/d>d</a></body></html>", path);

      soup_server_message_set_status (msg, 200, NULL);
      soup_server_message_set_response (msg, "text/html", SOUP_MEMORY_COPY, page, strlen (page));
    }
  soup_message_headers_replace (headers, "Connection", "close");
}

static GPtrArray *
next_urls (gpointer user_data)
{
  Fixture *f = user_data;
  GPtrArray *urls = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *round;

  if (f->round >= f->rounds->len)
    return urls;
  round = g_ptr_array_index (f->rounds, f->round++);
  for (guint i = 0; i < round->len; i++)
    g_ptr_array_add (urls, g_strdup (g_ptr_array_index (round, i)));
  return urls;
}

static void
page (gpointer      user_data,
      const char   *requested,
      const char   *final_url,
      guint         status,
      const char   *content_type,
      GBytes       *body,
      gint64        url_id)
{
  Fixture *f = user_data;
  g_autofree char *req_path = g_strdup (requested + strlen (f->base) - 1);
  g_autofree char *final_path = final_url != NULL ? g_strdup (final_url + strlen (f->base) - 1) : g_strdup ("-");

  /* The body is given to the driver, decoded. */
  if (final_url != NULL)
    g_assert_nonnull (strstr (g_bytes_get_data (body, NULL), final_path));
  g_ptr_array_add (f->answers, g_strdup_printf ("%s → %s %u", g_str_has_prefix (requested, f->base) ? req_path : requested,
                                                final_path, status));
}

static void
finished_cb (CgCrawler *crawler, int end, const GError *error, Fixture *f)
{
  g_assert_no_error ((GError *) error);
  f->end = end;
  g_main_loop_quit (f->loop);
}

static GPtrArray *
round_of (Fixture *f, const char * const *paths)
{
  GPtrArray *round = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; paths[i] != NULL; i++)
    g_ptr_array_add (round, g_str_has_prefix (paths[i], "http") ? g_strdup (paths[i])
                                                                : g_strconcat (f->base, paths[i] + 1, NULL));
  return round;
}

static void
test_driven_crawl (void)
{
  Fixture f = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(CgTestFolder) dir = cg_test_folder_new ("cg-driver-XXXXXX");
  g_autoptr(CgProject) project = NULL;
  g_autoptr(CgCrawlConfig) config = cg_crawl_config_new ();
  g_autoptr(CgCrawler) crawler = NULL;
  CgCrawlDriver driver = { next_urls, page, &f };
  const char *expected[] = {
    "/ → / 200",
    "/a → /b 200",
    "/private/x → - 0",
    "http://elsewhere.invalid/ → - 0",
    "/ → - 0",
  };

  f.requests = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  f.rounds = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  f.answers = g_ptr_array_new_with_free_func (g_free);
  f.loop = g_main_loop_new (NULL, FALSE);
  f.server = cg_test_server_new (handler, &f, &f.base);

  g_ptr_array_add (f.rounds, round_of (&f, (const char *[]) { "/", NULL }));
  g_ptr_array_add (f.rounds, round_of (&f, (const char *[]) { "/a", "/private/x", "http://elsewhere.invalid/", "/", NULL }));

  project = cg_project_create (dir, NULL, &error);
  g_assert_no_error (error);
  g_strfreev (config->seeds);
  config->seeds = g_strsplit (f.base, " ", -1);
  cg_crawl_config_disable_politeness (config);
  crawler = cg_crawler_new_driven (project, config, "explore", &driver, &error);
  g_assert_no_error (error);
  g_signal_connect (crawler, "finished", G_CALLBACK (finished_cb), &f);
  cg_crawler_start (crawler);
  g_main_loop_run (f.loop);

  g_assert_cmpint (f.end, ==, CG_CRAWL_END_DONE);
  /* Each URL gets its one answer; those known at once come first. */
  g_assert_cmpuint (f.answers->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      guint found = 0;

      for (guint j = 0; j < f.answers->len; j++)
        found += g_str_equal (g_ptr_array_index (f.answers, j), expected[i]);
      if (found != 1)
        g_error ("expected the answer “%s” once, got it %u times", expected[i], found);
    }
  /* The requisite was fetched once; the links the driver did not ask
   * for, and what robots.txt keeps out, never. */
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (f.requests, "/style.css")), ==, 1);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (f.requests, "/")), ==, 1);
  g_assert_false (g_hash_table_contains (f.requests, "/c"));
  g_assert_false (g_hash_table_contains (f.requests, "/d"));
  g_assert_false (g_hash_table_contains (f.requests, "/private/x"));
  g_assert_cmpuint (f.round, ==, 2);

  g_clear_object (&f.server);
  g_hash_table_unref (f.requests);
  g_ptr_array_unref (f.rounds);
  g_ptr_array_unref (f.answers);
  g_main_loop_unref (f.loop);
  g_free (f.base);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/crawl-driver/driven-crawl", test_driven_crawl);

  return g_test_run ();
}
