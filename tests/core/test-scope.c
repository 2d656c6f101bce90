/* test-scope.c: scope rules, spider-trap guards and crawl limits.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "cg-scope.h"
#include "cg-url.h"

static CgScope *
scope_with_seed (CgScopeMode  mode,
                 const char  *seed)
{
  g_autoptr(GError) error = NULL;
  CgScope *scope = cg_scope_new (mode);

  g_assert_true (cg_scope_add_seed (scope, seed, &error));
  g_assert_no_error (error);
  return scope;
}

static void
assert_verdict (CgScope        *scope,
                const char     *url,
                guint           depth,
                CgHopType       hop,
                CgScopeVerdict  expected,
                const char     *detail_part)
{
  g_autofree char *detail = NULL;
  CgScopeVerdict verdict = cg_scope_check (scope, url, depth, hop, &detail);

  g_test_message ("%s (depth %u, hop %c): %s [%s]", url, depth, cg_hop_type_to_char (hop),
                  cg_scope_verdict_to_string (verdict), detail != NULL ? detail : "");
  g_assert_cmpstr (cg_scope_verdict_to_string (verdict), ==, cg_scope_verdict_to_string (expected));
  if (expected == CG_SCOPE_IN_SCOPE)
    g_assert_null (detail);
  if (detail_part != NULL)
    {
      g_assert_nonnull (detail);
      g_assert_nonnull (strstr (detail, detail_part));
    }
}

static void
test_host_mode (void)
{
  g_autoptr(CgScope) scope = scope_with_seed (CG_SCOPE_MODE_HOST, "http://www.Example.org/start.html");

  assert_verdict (scope, "http://www.example.org/a", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "https://example.org/b", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://www2.example.org:8080/c", 1, CG_HOP_REDIRECT, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://shop.example.org/", 1, CG_HOP_NAVLINK, CG_SCOPE_OFF_HOST, "shop.example.org");
  assert_verdict (scope, "http://example.net/", 1, CG_HOP_SUBMIT, CG_SCOPE_OFF_HOST, "example.net");
  assert_verdict (scope, "mailto:someone@example.org", 1, CG_HOP_NAVLINK, CG_SCOPE_INVALID_URL, "mailto");
  g_assert_cmpint (cg_scope_get_mode (scope), ==, CG_SCOPE_MODE_HOST);
}

static void
test_domain_mode (void)
{
  g_autoptr(CgScope) scope = scope_with_seed (CG_SCOPE_MODE_DOMAIN, "http://www.example.co.uk/");
  g_autoptr(GError) error = NULL;

  assert_verdict (scope, "http://shop.example.co.uk/", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "https://a.b.example.co.uk/x", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://other.co.uk/", 1, CG_HOP_NAVLINK, CG_SCOPE_OFF_DOMAIN, "other.co.uk");
  assert_verdict (scope, "http://co.uk/", 1, CG_HOP_NAVLINK, CG_SCOPE_OFF_DOMAIN, NULL);
  assert_verdict (scope, "http://example.com/", 1, CG_HOP_NAVLINK, CG_SCOPE_OFF_DOMAIN, "example.com");

  /* An IP address is its own domain; the test servers live there. */
  g_assert_true (cg_scope_add_seed (scope, "http://127.0.0.1:4000/", &error));
  assert_verdict (scope, "http://127.0.0.1:5000/x", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://127.0.0.2/", 1, CG_HOP_NAVLINK, CG_SCOPE_OFF_DOMAIN, "127.0.0.2");

  /* A suffix the list does not know counts as one label. */
  g_assert_true (cg_scope_add_seed (scope, "http://a.site.zzunknown/", &error));
  assert_verdict (scope, "http://b.site.zzunknown/", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://other.zzunknown/", 1, CG_HOP_NAVLINK, CG_SCOPE_OFF_DOMAIN, NULL);
}

static void
test_surt_mode (void)
{
  g_autoptr(CgScope) scope = scope_with_seed (CG_SCOPE_MODE_SURT_PREFIX, "http://www.example.org/dir/page.html");
  g_autoptr(GError) error = NULL;

  assert_verdict (scope, "http://www.example.org/dir/other.html", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "https://www.example.org/dir/sub/x", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://www.example.org/other/", 1, CG_HOP_NAVLINK, CG_SCOPE_OFF_SURT_PREFIX,
                  "http://(org,example,www,)/other/");

  /* Seed 002's scope: everything under .it, plus the seeds. */
  assert_verdict (scope, "http://www.comune.roma.it/", 1, CG_HOP_NAVLINK, CG_SCOPE_OFF_SURT_PREFIX, NULL);
  g_assert_true (cg_scope_add_surt_prefix (scope, "it", &error));
  g_assert_no_error (error);
  assert_verdict (scope, "http://www.comune.roma.it/", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://www.italia.com/", 1, CG_HOP_NAVLINK, CG_SCOPE_OFF_SURT_PREFIX, NULL);

  g_assert_true (cg_scope_add_surt_prefix (scope, "http://(COM,Example,", &error));
  assert_verdict (scope, "http://shop.example.com/", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  g_assert_true (cg_scope_add_surt_prefix (scope, "http://www.example.net/blog/post", &error));
  assert_verdict (scope, "http://www.example.net/blog/other", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://www.example.net/shop/", 1, CG_HOP_NAVLINK, CG_SCOPE_OFF_SURT_PREFIX, NULL);

  g_assert_false (cg_scope_add_surt_prefix (scope, "not a domain", &error));
  g_assert_error (error, CG_SCOPE_ERROR, CG_SCOPE_ERROR_BAD_PREFIX);
  g_assert_nonnull (strstr (error->message, "not a domain"));
}

static void
test_bad_seed (void)
{
  g_autoptr(CgScope) scope = cg_scope_new (CG_SCOPE_MODE_HOST);
  g_autoptr(GError) error = NULL;

  g_assert_false (cg_scope_add_seed (scope, "ftp://example.org/", &error));
  g_assert_error (error, CG_SCOPE_ERROR, CG_SCOPE_ERROR_BAD_SEED);
  g_assert_nonnull (strstr (error->message, "ftp://example.org/"));
  /* With no seed, nothing but seeds is in scope. */
  assert_verdict (scope, "http://example.org/", 1, CG_HOP_NAVLINK, CG_SCOPE_OFF_HOST, NULL);
  assert_verdict (scope, "http://example.org/", 0, CG_HOP_SEED, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http:///nohost", 0, CG_HOP_SEED, CG_SCOPE_INVALID_URL, NULL);
}

static void
test_regexes (void)
{
  g_autoptr(CgScope) scope = scope_with_seed (CG_SCOPE_MODE_HOST, "http://www.example.org/");
  g_autoptr(GError) error = NULL;
  /* Seed 002's media filter, with the dot escaped. */
  const char media[] = "(?i)\\.(bmp|cab|gif|jpe|jpg|jpeg|png|tiff|mid|mp2|mp3|mp4|wav|avi|mov|mpeg|ram|rm|smil|wmv|ppt)$";

  g_assert_true (cg_scope_add_exclude_regex (scope, media, &error));
  g_assert_no_error (error);
  assert_verdict (scope, "http://www.example.org/photo.JPG", 1, CG_HOP_NAVLINK, CG_SCOPE_EXCLUDED_BY_REGEX, "jpeg");
  assert_verdict (scope, "http://cdn.example.net/logo.png", 1, CG_HOP_EMBED, CG_SCOPE_EXCLUDED_BY_REGEX, NULL);
  assert_verdict (scope, "http://www.example.org/slides.ppt", 1, CG_HOP_NAVLINK, CG_SCOPE_EXCLUDED_BY_REGEX, NULL);
  assert_verdict (scope, "http://www.example.org/page.html", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://www.example.org/png-guide.html", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);

  g_assert_true (cg_scope_add_include_regex (scope, "/news/", &error));
  g_assert_true (cg_scope_add_include_regex (scope, "/archive/\\d{4}/", &error));
  assert_verdict (scope, "http://www.example.org/news/1", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://www.example.org/archive/2010/", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://www.example.org/about", 1, CG_HOP_NAVLINK, CG_SCOPE_NOT_INCLUDED, NULL);
  /* Requisites are not held to the include patterns. */
  assert_verdict (scope, "http://www.example.org/style.css", 1, CG_HOP_EMBED, CG_SCOPE_IN_SCOPE, NULL);

  g_assert_false (cg_scope_add_exclude_regex (scope, "(unclosed", &error));
  g_assert_error (error, CG_SCOPE_ERROR, CG_SCOPE_ERROR_BAD_REGEX);
  g_assert_nonnull (strstr (error->message, "(unclosed"));
  g_clear_error (&error);
  g_assert_false (cg_scope_add_include_regex (scope, "[a-", &error));
  g_assert_error (error, CG_SCOPE_ERROR, CG_SCOPE_ERROR_BAD_REGEX);
}

static void
test_depth_and_requisites (void)
{
  g_autoptr(CgScope) scope = scope_with_seed (CG_SCOPE_MODE_HOST, "http://www.example.org/");

  g_assert_cmpuint (cg_scope_get_max_depth (scope), ==, CG_SCOPE_DEFAULT_MAX_DEPTH);
  cg_scope_set_max_depth (scope, 3);
  assert_verdict (scope, "http://www.example.org/3", 3, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://www.example.org/4", 4, CG_HOP_NAVLINK, CG_SCOPE_TOO_DEEP, "4 > 3");
  assert_verdict (scope, "http://www.example.org/s.css", 4, CG_HOP_EMBED, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://www.example.org/bg.png", 5, CG_HOP_EMBED, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://www.example.org/deeper.png", 6, CG_HOP_EMBED, CG_SCOPE_TOO_DEEP, NULL);

  /* Requisites come from any host; navigation does not. */
  assert_verdict (scope, "http://cdn.example.net/app.js", 1, CG_HOP_EMBED, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://cdn.example.net/data.json", 1, CG_HOP_SPECULATIVE, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://cdn.example.net/app.js", 1, CG_HOP_NAVLINK, CG_SCOPE_OFF_HOST, NULL);
  assert_verdict (scope, "http://other.example.net/robots.txt", 1, CG_HOP_PREREQUISITE, CG_SCOPE_IN_SCOPE, NULL);

  g_assert_true (cg_scope_get_fetch_requisites (scope));
  cg_scope_set_fetch_requisites (scope, FALSE);
  g_assert_false (cg_scope_get_fetch_requisites (scope));
  assert_verdict (scope, "http://www.example.org/s.css", 1, CG_HOP_EMBED, CG_SCOPE_REQUISITES_OFF, NULL);
  assert_verdict (scope, "http://www.example.org/page", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);

  /* Depth 0: the seed only. */
  cg_scope_set_max_depth (scope, 0);
  assert_verdict (scope, "http://www.example.org/", 0, CG_HOP_SEED, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://www.example.org/page", 1, CG_HOP_NAVLINK, CG_SCOPE_TOO_DEEP, NULL);
}

static void
test_traps (void)
{
  g_autoptr(CgScope) scope = scope_with_seed (CG_SCOPE_MODE_HOST, "http://www.example.org/");
  GString *long_url = g_string_new ("http://www.example.org/");
  GString *deep = g_string_new ("http://www.example.org");
  GString *params = g_string_new ("http://www.example.org/search?");
  g_autofree char *long_str = NULL;
  g_autofree char *deep_str = NULL;
  g_autofree char *params_str = NULL;
  CgScopeTraps traps;

  while (long_url->len <= CG_SCOPE_DEFAULT_MAX_URL_LENGTH)
    g_string_append (long_url, "x");
  long_str = g_string_free (long_url, FALSE);
  assert_verdict (scope, long_str, 1, CG_HOP_NAVLINK, CG_SCOPE_TRAP_URL_TOO_LONG, NULL);

  for (guint i = 0; i < CG_SCOPE_DEFAULT_MAX_PATH_SEGMENTS; i++)
    g_string_append_printf (deep, "/d%u", i);
  assert_verdict (scope, deep->str, 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  g_string_append (deep, "/one-more");
  deep_str = g_string_free (deep, FALSE);
  assert_verdict (scope, deep_str, 1, CG_HOP_NAVLINK, CG_SCOPE_TRAP_TOO_MANY_SEGMENTS, NULL);

  assert_verdict (scope, "http://www.example.org/a/a/x", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://www.example.org/a/a/a/x", 1, CG_HOP_NAVLINK, CG_SCOPE_TRAP_REPEATED_SEGMENTS, "“a” × 3");
  assert_verdict (scope, "http://www.example.org/a/b/a/b/", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://www.example.org/x/a/b/a/b/a/b/y", 1, CG_HOP_NAVLINK, CG_SCOPE_TRAP_REPEATED_SEGMENTS,
                  "“a/b” × 3");
  assert_verdict (scope, "http://www.example.org/p/q/r/p/q/r/p/q/r", 1, CG_HOP_NAVLINK,
                  CG_SCOPE_TRAP_REPEATED_SEGMENTS, "“p/q/r” × 3");
  assert_verdict (scope, "http://www.example.org/2024/01/01/", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://www.example.org////x", 1, CG_HOP_NAVLINK, CG_SCOPE_TRAP_REPEATED_SEGMENTS, NULL);

  for (guint i = 0; i < CG_SCOPE_DEFAULT_MAX_QUERY_PARAMS; i++)
    g_string_append_printf (params, "p%u=%u&", i, i);
  assert_verdict (scope, params->str, 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  g_string_append (params, "last=1");
  params_str = g_string_free (params, FALSE);
  assert_verdict (scope, params_str, 1, CG_HOP_NAVLINK, CG_SCOPE_TRAP_TOO_MANY_PARAMS, NULL);

  /* Every guard can be turned off. */
  cg_scope_get_traps (scope, &traps);
  g_assert_cmpuint (traps.max_segment_repeats, ==, CG_SCOPE_DEFAULT_MAX_SEGMENT_REPEATS);
  traps.max_url_length = 0;
  traps.max_path_segments = 0;
  traps.max_segment_repeats = 0;
  traps.max_query_params = 0;
  cg_scope_set_traps (scope, &traps);
  assert_verdict (scope, long_str, 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, deep_str, 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://www.example.org/a/a/a/x", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, params_str, 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
}

/* An endless calendar of 10,000 months is cut at the cap, per host and
 * path, and asking again about an accepted month does not count twice. */
static void
test_endless_calendar (void)
{
  g_autoptr(CgScope) scope = scope_with_seed (CG_SCOPE_MODE_DOMAIN, "http://www.example.org/");
  guint accepted = 0;
  guint trapped = 0;

  for (guint month = 0; month < 10000; month++)
    {
      g_autofree char *url = g_strdup_printf ("http://www.example.org/calendar?month=%u", month);
      CgScopeVerdict verdict = cg_scope_check (scope, url, 1, CG_HOP_NAVLINK, NULL);

      if (verdict == CG_SCOPE_IN_SCOPE)
        accepted++;
      else if (verdict == CG_SCOPE_TRAP_QUERY_VARIANTS)
        trapped++;
    }
  g_assert_cmpuint (accepted, ==, CG_SCOPE_DEFAULT_MAX_QUERY_VARIANTS);
  g_assert_cmpuint (trapped, ==, 10000 - CG_SCOPE_DEFAULT_MAX_QUERY_VARIANTS);

  assert_verdict (scope, "http://www.example.org/calendar?month=5", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://www.example.org/calendar?month=9999", 1, CG_HOP_NAVLINK,
                  CG_SCOPE_TRAP_QUERY_VARIANTS, "/calendar");
  /* Other paths and other hosts have their own count. */
  assert_verdict (scope, "http://www.example.org/events?month=9999", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://shop.example.org/calendar?month=9999", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
  assert_verdict (scope, "http://www.example.org/calendar", 1, CG_HOP_NAVLINK, CG_SCOPE_IN_SCOPE, NULL);
}

/* A small frontier walks a site whose every page links to the next and
 * previous months, with a fresh session id in each link, and to a
 * relative "more/" that nests without end. Normalisation and the scope
 * must make the walk finish. */
static void
test_trap_site_walk_terminates (void)
{
  g_autoptr(CgScope) scope = scope_with_seed (CG_SCOPE_MODE_HOST, "http://www.example.org/calendar?month=0");
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GQueue) queue = g_queue_new ();
  guint fetched = 0;

  cg_scope_set_max_depth (scope, G_MAXUINT);
  g_queue_push_tail (queue, g_strdup ("http://www.example.org/calendar?month=0"));
  g_hash_table_add (seen, g_strdup ("http://www.example.org/calendar?month=0"));

  while (!g_queue_is_empty (queue) && fetched < 100000)
    {
      g_autofree char *page = g_queue_pop_head (queue);
      g_autofree char *path_month = NULL;
      const char *q = strstr (page, "month=");
      int month = q != NULL ? atoi (q + 6) : 0;
      g_autofree char *next = g_strdup_printf ("calendar?month=%d&PHPSESSID=%08x%08x%08x%08x", month + 1,
                                               g_random_int (), g_random_int (), g_random_int (), g_random_int ());
      g_autofree char *prev = g_strdup_printf ("calendar;jsessionid=%08X?month=%d", g_random_int (), month - 1);
      const char *refs[] = { next, prev, "more/calendar?month=0" };

      fetched++;
      for (guint i = 0; i < G_N_ELEMENTS (refs); i++)
        {
          g_autofree char *url = cg_url_resolve (page, refs[i], CG_URL_NORMALIZE_CRAWL, NULL);

          g_assert_nonnull (url);
          if (g_hash_table_contains (seen, url))
            continue;
          g_hash_table_add (seen, g_strdup (url));
          if (cg_scope_check (scope, url, 1, CG_HOP_NAVLINK, NULL) == CG_SCOPE_IN_SCOPE)
            g_queue_push_tail (queue, g_steal_pointer (&url));
        }
    }

  g_assert_true (g_queue_is_empty (queue));
  /* Each nesting level of "more/" is a new path with its own calendar,
   * but the repeated "more/more/more" stops the nesting, and each
   * calendar stops at the cap. */
  g_assert_cmpuint (fetched, <=, (CG_SCOPE_DEFAULT_MAX_SEGMENT_REPEATS + 1) * (CG_SCOPE_DEFAULT_MAX_QUERY_VARIANTS + 1));
  g_assert_cmpuint (fetched, >, CG_SCOPE_DEFAULT_MAX_QUERY_VARIANTS);
}

#define SECOND G_GINT64_CONSTANT (1000000)

static void
test_limits (void)
{
  g_autoptr(CgScope) scope = cg_scope_new (CG_SCOPE_MODE_HOST);
  g_autoptr(CgScope) timed = cg_scope_new (CG_SCOPE_MODE_HOST);
  g_autoptr(CgScope) unlimited = cg_scope_new (CG_SCOPE_MODE_HOST);

  cg_scope_set_max_pages (scope, 3);
  cg_scope_set_max_bytes (scope, 1000);
  g_assert_cmpint (cg_scope_check_limits (scope, 0), ==, CG_SCOPE_IN_SCOPE);
  cg_scope_record_fetch (scope, 100, TRUE);
  cg_scope_record_fetch (scope, 100, FALSE);   /* a requisite */
  cg_scope_record_fetch (scope, 100, TRUE);
  g_assert_cmpint (cg_scope_check_limits (scope, 0), ==, CG_SCOPE_IN_SCOPE);
  cg_scope_record_fetch (scope, 100, TRUE);
  g_assert_cmpuint (cg_scope_get_pages (scope), ==, 3);
  g_assert_cmpuint (cg_scope_get_bytes (scope), ==, 400);
  g_assert_cmpint (cg_scope_check_limits (scope, 0), ==, CG_SCOPE_LIMIT_PAGES);

  cg_scope_set_max_pages (scope, 0);
  g_assert_cmpint (cg_scope_check_limits (scope, 0), ==, CG_SCOPE_IN_SCOPE);
  cg_scope_record_fetch (scope, 600, FALSE);
  g_assert_cmpint (cg_scope_check_limits (scope, 0), ==, CG_SCOPE_LIMIT_BYTES);

  /* A resumed crawl restores its counters. */
  cg_scope_set_counters (scope, 1, 10);
  g_assert_cmpint (cg_scope_check_limits (scope, 0), ==, CG_SCOPE_IN_SCOPE);
  g_assert_cmpuint (cg_scope_get_bytes (scope), ==, 10);

  /* The clock starts at the first check unless started explicitly. */
  cg_scope_set_max_duration (timed, 10);
  g_assert_cmpint (cg_scope_check_limits (timed, 1000 * SECOND), ==, CG_SCOPE_IN_SCOPE);
  g_assert_cmpint (cg_scope_check_limits (timed, 1009 * SECOND), ==, CG_SCOPE_IN_SCOPE);
  g_assert_cmpint (cg_scope_check_limits (timed, 1010 * SECOND), ==, CG_SCOPE_LIMIT_DURATION);
  /* A resumed crawl that had run 8 s has 2 s left. */
  cg_scope_start_clock (timed, 5000 * SECOND - 8 * SECOND);
  g_assert_cmpint (cg_scope_check_limits (timed, 5001 * SECOND), ==, CG_SCOPE_IN_SCOPE);
  g_assert_cmpint (cg_scope_check_limits (timed, 5002 * SECOND), ==, CG_SCOPE_LIMIT_DURATION);

  for (guint i = 0; i < 1000; i++)
    cg_scope_record_fetch (unlimited, G_MAXUINT32, TRUE);
  g_assert_cmpint (cg_scope_check_limits (unlimited, G_MAXINT64 / 2), ==, CG_SCOPE_IN_SCOPE);
}

static void
test_verdict_strings (void)
{
  g_autoptr(GHashTable) tokens = g_hash_table_new (g_str_hash, g_str_equal);

  for (int v = CG_SCOPE_IN_SCOPE; v <= CG_SCOPE_LIMIT_DURATION; v++)
    {
      const char *token = cg_scope_verdict_to_string (v);

      g_assert_nonnull (token);
      g_assert_cmpuint (strlen (token), >, 0);
      g_assert_false (g_hash_table_contains (tokens, token));
      g_hash_table_add (tokens, (gpointer) token);
      g_assert_cmpuint (strlen (cg_scope_verdict_describe (v)), >, 0);
    }
  g_assert_cmpstr (cg_scope_verdict_to_string (CG_SCOPE_OFF_HOST), ==, "off-host");
  g_assert_cmpstr (cg_scope_verdict_to_string (CG_SCOPE_EXCLUDED_BY_REGEX), ==, "excluded-by-regex");
  g_assert_cmpstr (cg_scope_verdict_to_string (CG_SCOPE_TOO_DEEP), ==, "too-deep");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/scope/host", test_host_mode);
  g_test_add_func ("/scope/domain", test_domain_mode);
  g_test_add_func ("/scope/surt", test_surt_mode);
  g_test_add_func ("/scope/bad-seed", test_bad_seed);
  g_test_add_func ("/scope/regexes", test_regexes);
  g_test_add_func ("/scope/depth-requisites", test_depth_and_requisites);
  g_test_add_func ("/scope/traps", test_traps);
  g_test_add_func ("/scope/traps/endless-calendar", test_endless_calendar);
  g_test_add_func ("/scope/traps/site-walk", test_trap_site_walk_terminates);
  g_test_add_func ("/scope/limits", test_limits);
  g_test_add_func ("/scope/verdict-strings", test_verdict_strings);

  return g_test_run ();
}
