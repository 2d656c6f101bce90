/* test-frontier.c: the SQLite frontier: order, politeness, retries, resume.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "cg-crawl-report.h"
#include "cg-frontier.h"
#include "cg-seen-cache.h"
#include "cg-project.h"
#include "cg-test-damage.h"
#include "cg-test-files.h"

typedef struct {
  CgTestFolder *dir;
  CgProject    *project;
  gint64        crawl_id;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;

  f->dir = cg_test_folder_new ("cg-frontier-XXXXXX");
  f->project = cg_project_create (f->dir, "frontier", &error);
  g_assert_no_error (error);
  f->crawl_id = cg_project_add_crawl (f->project, "crawl", "http://a.test/", NULL, &error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_clear_object (&f->project);
  cg_test_folder_remove (f->dir);
}

static CgFrontier *
open_frontier (Fixture *f, guint per_host)
{
  g_autoptr(GError) error = NULL;
  CgFrontier *frontier = cg_frontier_new (cg_project_get_store (f->project), f->crawl_id, per_host, &error);

  g_assert_no_error (error);
  return frontier;
}

static gint64
add (CgFrontier *frontier, const char *url, const char *host, int priority, gboolean expect_new)
{
  g_autoptr(GError) error = NULL;
  gint64 id = 0;
  gboolean is_new = !expect_new;

  g_assert_true (cg_frontier_add (frontier, url, host, priority, "L", 0, priority, &id, &is_new, &error));
  g_assert_no_error (error);
  g_assert_cmpint (is_new, ==, expect_new);
  g_assert_cmpint (id, >, 0);
  return id;
}

static CgFrontierItem *
next (CgFrontier *frontier, gint64 now, gint64 *wait)
{
  g_autoptr(GError) error = NULL;
  gint64 ignored;
  CgFrontierItem *item = cg_frontier_next (frontier, now, wait != NULL ? wait : &ignored, &error);

  g_assert_no_error (error);
  return item;
}

static void
finish (CgFrontier *frontier, CgFrontierItem *item, gint64 ready_at)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (cg_frontier_finish (frontier, item, CG_URL_DONE, NULL, ready_at, &error));
  g_assert_no_error (error);
}

static void
test_seen_set (Fixture *f, gconstpointer data)
{
  g_autoptr(CgFrontier) frontier = open_frontier (f, 1);
  gint64 first = add (frontier, "http://a.test/", "http://a.test:80", 0, TRUE);
  gint64 again = add (frontier, "http://a.test/", "http://a.test:80", 0, FALSE);

  g_assert_cmpint (first, ==, again);
  g_assert_cmpuint (cg_frontier_count (frontier, CG_URL_QUEUED), ==, 1);
}

static gboolean
lookup_seen (CgFrontier *frontier,
             const char *url,
             gint64     *out_id)
{
  return cg_frontier_lookup_seen (frontier, url, cg_seen_cache_hash_url (url), out_id);
}

/* The seen cache answers for URLs the frontier added or found, knows
 * nothing of others, stays bounded, and a URL it has forgotten is still
 * seen: the database answers for it. A second frontier on the same crawl
 * (a resumed run) starts with an empty cache and finds the same ids. */
static void
test_seen_cache (Fixture *f, gconstpointer data)
{
  g_autoptr(CgFrontier) frontier = open_frontier (f, 1);
  g_autoptr(CgFrontier) resumed = NULL;
  g_autoptr(GError) error = NULL;
  const guint n = 70000;  /* more than the cache keeps */
  gint64 first, cached = 0, id = 0;
  guint forgotten = 0;

  g_assert_true (cg_store_begin (cg_project_get_store (f->project), &error));
  first = add (frontier, "http://a.test/page/0", "a", 0, TRUE);
  g_assert_true (lookup_seen (frontier, "http://a.test/page/0", &cached));
  g_assert_cmpint (cached, ==, first);
  g_assert_false (lookup_seen (frontier, "http://a.test/page/1", &cached));

  for (guint i = 1; i < n; i++)
    {
      g_autofree char *url = g_strdup_printf ("http://a.test/page/%u", i);

      add (frontier, url, "a", 0, TRUE);
    }
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *url = g_strdup_printf ("http://a.test/page/%u", i);

      if (!lookup_seen (frontier, url, &cached))
        forgotten++;
    }
  g_assert_cmpuint (forgotten, >, 0);
  g_assert_cmpuint (forgotten, <, n);

  /* Forgotten by the cache, still in the seen set, with its id. */
  g_assert_false (lookup_seen (frontier, "http://a.test/page/0", &cached));
  g_assert_cmpint (add (frontier, "http://a.test/page/0", "a", 0, FALSE), ==, first);
  g_assert_true (lookup_seen (frontier, "http://a.test/page/0", &cached));
  g_assert_cmpint (cached, ==, first);
  g_assert_cmpuint (cg_frontier_count (frontier, CG_URL_QUEUED), ==, n);
  g_assert_true (cg_store_commit (cg_project_get_store (f->project), &error));
  g_assert_no_error (error);

  resumed = open_frontier (f, 1);
  g_assert_false (lookup_seen (resumed, "http://a.test/page/5", &id));
  id = add (resumed, "http://a.test/page/5", "a", 0, FALSE);
  g_assert_true (lookup_seen (resumed, "http://a.test/page/5", &cached));
  g_assert_cmpint (cached, ==, id);
}

/* URLs whose hashes are equal are told apart by their text; a URL stored
 * again takes its new id; a full cache is emptied and fills again. */
static void
test_seen_cache_collisions (Fixture *f, gconstpointer data)
{
  g_autoptr(CgSeenCache) cache = cg_seen_cache_new (8);
  gint64 id = 0;

  for (guint i = 0; i < 8; i++)
    {
      g_autofree char *url = g_strdup_printf ("http://a.test/%u", i);

      /* Every URL under one hash: each lookup walks past the others. */
      cg_seen_cache_insert (cache, url, 42, 100 + i);
    }
  g_assert_cmpuint (cg_seen_cache_get_size (cache), ==, 8);
  for (guint i = 0; i < 8; i++)
    {
      g_autofree char *url = g_strdup_printf ("http://a.test/%u", i);

      g_assert_true (cg_seen_cache_lookup (cache, url, 42, &id));
      g_assert_cmpint (id, ==, 100 + i);
      /* The same text under another hash is another key. */
      g_assert_false (cg_seen_cache_lookup (cache, url, 43, &id));
    }
  g_assert_false (cg_seen_cache_lookup (cache, "http://a.test/8", 42, &id));

  cg_seen_cache_insert (cache, "http://a.test/3", 42, 7);
  g_assert_cmpuint (cg_seen_cache_get_size (cache), ==, 8);
  g_assert_true (cg_seen_cache_lookup (cache, "http://a.test/3", 42, &id));
  g_assert_cmpint (id, ==, 7);

  /* A ninth URL empties the full cache first. */
  cg_seen_cache_insert (cache, "http://a.test/8", 42, 108);
  g_assert_cmpuint (cg_seen_cache_get_size (cache), ==, 1);
  g_assert_true (cg_seen_cache_lookup (cache, "http://a.test/8", 42, &id));
  g_assert_cmpint (id, ==, 108);
  g_assert_false (cg_seen_cache_lookup (cache, "http://a.test/0", 42, &id));
}

static void
test_priority_then_discovery_order (Fixture *f, gconstpointer data)
{
  g_autoptr(CgFrontier) frontier = open_frontier (f, 1);
  const char *expected[] = { "http://a.test/0", "http://a.test/1a", "http://a.test/1b", "http://a.test/2" };

  add (frontier, "http://a.test/2", "h", 2, TRUE);
  add (frontier, "http://a.test/1a", "h", 1, TRUE);
  add (frontier, "http://a.test/0", "h", 0, TRUE);
  add (frontier, "http://a.test/1b", "h", 1, TRUE);

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr(CgFrontierItem) item = next (frontier, 0, NULL);

      g_assert_nonnull (item);
      g_assert_cmpstr (item->url, ==, expected[i]);
      finish (frontier, item, 0);
    }
  g_assert_true (cg_frontier_is_exhausted (frontier));
  g_assert_cmpuint (cg_frontier_count (frontier, CG_URL_DONE), ==, 4);
}

static void
test_one_in_flight_per_host (Fixture *f, gconstpointer data)
{
  g_autoptr(CgFrontier) frontier = open_frontier (f, 1);
  g_autoptr(CgFrontierItem) a1 = NULL;
  g_autoptr(CgFrontierItem) b1 = NULL;
  g_autoptr(CgFrontierItem) none = NULL;
  g_autoptr(CgFrontierItem) a2 = NULL;
  gint64 wait = 0;

  add (frontier, "http://a.test/1", "a", 0, TRUE);
  add (frontier, "http://a.test/2", "a", 0, TRUE);
  add (frontier, "http://b.test/1", "b", 0, TRUE);

  a1 = next (frontier, 0, NULL);
  b1 = next (frontier, 0, NULL);
  g_assert_cmpstr (a1->host_key, ==, "a");
  g_assert_cmpstr (b1->host_key, ==, "b");
  none = next (frontier, 0, &wait);
  g_assert_null (none);
  /* Nothing becomes ready by waiting: host a has a URL in flight. */
  g_assert_cmpint (wait, ==, -1);
  g_assert_false (cg_frontier_is_exhausted (frontier));

  finish (frontier, a1, 0);
  a2 = next (frontier, 0, NULL);
  g_assert_cmpstr (a2->url, ==, "http://a.test/2");
}

static void
test_two_in_flight_per_host (Fixture *f, gconstpointer data)
{
  g_autoptr(CgFrontier) frontier = open_frontier (f, 2);
  g_autoptr(CgFrontierItem) first = NULL;
  g_autoptr(CgFrontierItem) second = NULL;
  g_autoptr(CgFrontierItem) third = NULL;

  for (int i = 0; i < 3; i++)
    {
      g_autofree char *url = g_strdup_printf ("http://a.test/%d", i);
      add (frontier, url, "a", 0, TRUE);
    }
  first = next (frontier, 0, NULL);
  second = next (frontier, 0, NULL);
  third = next (frontier, 0, NULL);
  g_assert_nonnull (first);
  g_assert_nonnull (second);
  g_assert_null (third);
}

/* A fetch that is over gives its host back before its page is written:
 * the next URL of the host may be fetched (after the delay) while the
 * first is still in flight, and finishing it later frees no second slot. */
static void
test_release_host (Fixture *f, gconstpointer data)
{
  g_autoptr(CgFrontier) frontier = open_frontier (f, 1);
  g_autoptr(CgFrontierItem) a1 = NULL;
  g_autoptr(CgFrontierItem) early = NULL;
  g_autoptr(CgFrontierItem) a2 = NULL;
  g_autoptr(CgFrontierItem) a3 = NULL;
  g_autoptr(CgFrontierItem) none = NULL;
  gint64 wait = 0;

  for (int i = 1; i <= 3; i++)
    {
      g_autofree char *url = g_strdup_printf ("http://a.test/%d", i);
      add (frontier, url, "a", 0, TRUE);
    }

  a1 = next (frontier, 1000, NULL);
  g_assert_false (a1->host_released);
  cg_frontier_release_host (frontier, a1, 1000 + 2000000);
  g_assert_true (a1->host_released);

  /* The host waits out its delay, then gives its next URL, while the
   * first is still in flight. */
  early = next (frontier, 1000 + 1000000, &wait);
  g_assert_null (early);
  g_assert_cmpint (wait, ==, 1000000);
  a2 = next (frontier, 1000 + 2000000, NULL);
  g_assert_nonnull (a2);
  g_assert_cmpstr (a2->url, ==, "http://a.test/2");
  g_assert_cmpuint (cg_frontier_count (frontier, CG_URL_IN_FLIGHT), ==, 2);

  /* Finishing the first does not free the slot the second holds. */
  finish (frontier, a1, 0);
  g_assert_cmpuint (cg_frontier_count (frontier, CG_URL_IN_FLIGHT), ==, 1);
  none = next (frontier, 1000 + 3000000, &wait);
  g_assert_null (none);
  g_assert_cmpint (wait, ==, -1);
  g_assert_false (cg_frontier_is_exhausted (frontier));

  /* A URL finished without being released gives its slot back then. */
  finish (frontier, a2, 0);
  a3 = next (frontier, 1000 + 3000000, NULL);
  g_assert_nonnull (a3);
  g_assert_cmpstr (a3->url, ==, "http://a.test/3");
  finish (frontier, a3, 0);
  g_assert_true (cg_frontier_is_exhausted (frontier));
  g_assert_cmpuint (cg_frontier_count (frontier, CG_URL_DONE), ==, 3);
}

static void
test_politeness_delay (Fixture *f, gconstpointer data)
{
  g_autoptr(CgFrontier) frontier = open_frontier (f, 1);
  g_autoptr(CgFrontierItem) first = NULL;
  g_autoptr(CgFrontierItem) early = NULL;
  g_autoptr(CgFrontierItem) on_time = NULL;
  gint64 wait = 0;

  add (frontier, "http://a.test/1", "a", 0, TRUE);
  add (frontier, "http://a.test/2", "a", 0, TRUE);

  first = next (frontier, 1000, NULL);
  finish (frontier, first, 1000 + 5000000);
  early = next (frontier, 1000 + 1000000, &wait);
  g_assert_null (early);
  g_assert_cmpint (wait, ==, 4000000);
  on_time = next (frontier, 1000 + 5000000, &wait);
  g_assert_nonnull (on_time);
  g_assert_cmpstr (on_time->url, ==, "http://a.test/2");
}

static void
test_retry_waits (Fixture *f, gconstpointer data)
{
  g_autoptr(CgFrontier) frontier = open_frontier (f, 1);
  g_autoptr(CgFrontierItem) first = NULL;
  g_autoptr(CgFrontierItem) again = NULL;
  g_autoptr(CgFrontierItem) too_soon = NULL;
  g_autoptr(GError) error = NULL;
  gint64 wait = 0;

  add (frontier, "http://a.test/flaky", "a", 0, TRUE);
  first = next (frontier, 0, NULL);
  g_assert_cmpint (first->attempts, ==, 1);
  g_assert_true (cg_frontier_retry (frontier, first, 2000000, 0, &error));
  g_assert_no_error (error);

  too_soon = next (frontier, 1000000, &wait);
  g_assert_null (too_soon);
  g_assert_cmpint (wait, ==, 1000000);
  again = next (frontier, 2000000, NULL);
  g_assert_nonnull (again);
  g_assert_cmpint (again->attempts, ==, 2);
}

static void
test_skipped_never_fetched (Fixture *f, gconstpointer data)
{
  g_autoptr(CgFrontier) frontier = open_frontier (f, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(CgFrontierItem) item = NULL;
  gint64 skipped = 0;
  gint64 seen_again = 0;
  gboolean is_new = TRUE;

  g_assert_true (cg_frontier_add_skipped (frontier, "http://elsewhere.test/", "e", 1, "L", 0,
                                          "off-host", FALSE, &skipped, &error));
  g_assert_no_error (error);
  g_assert_true (cg_frontier_add (frontier, "http://elsewhere.test/", "e", 1, "L", 0, 1,
                                  &seen_again, &is_new, &error));
  g_assert_false (is_new);
  g_assert_cmpint (seen_again, ==, skipped);
  item = next (frontier, 0, NULL);
  g_assert_null (item);
  g_assert_true (cg_frontier_is_exhausted (frontier));
  g_assert_cmpuint (cg_frontier_count (frontier, CG_URL_SKIPPED), ==, 1);
}

/* A URL skipped for the way it was reached (here too many links from the
 * seed) is queued when another way reaches it in scope, as reached that
 * way, by this run or by a resumed one. */
static void
test_skipped_on_the_way_requeued (Fixture *f, gconstpointer data)
{
  g_autoptr(CgFrontier) frontier = open_frontier (f, 1);
  g_autoptr(CgFrontier) resumed = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CgFrontierItem) item = NULL;
  g_autoptr(CgFrontierItem) later = NULL;
  const char *deep = "http://a.test/deep";
  const char *later_deep = "http://a.test/later-deep";
  gint64 skipped = 0;
  gint64 queued = 0;
  gboolean is_new = FALSE;

  g_assert_false (cg_frontier_may_be_skipped (frontier, cg_seen_cache_hash_url (deep)));
  g_assert_true (cg_frontier_add_skipped (frontier, deep, "a", 4, "LLLL", 0, "too-deep", TRUE, &skipped, &error));
  g_assert_no_error (error);
  g_assert_true (cg_frontier_may_be_skipped (frontier, cg_seen_cache_hash_url (deep)));
  g_assert_null (next (frontier, 0, NULL));

  g_assert_true (cg_frontier_add (frontier, deep, "a", 2, "LL", 0, 2, &queued, &is_new, &error));
  g_assert_no_error (error);
  g_assert_true (is_new);
  g_assert_cmpint (queued, ==, skipped);
  g_assert_cmpuint (cg_frontier_count (frontier, CG_URL_SKIPPED), ==, 0);
  g_assert_cmpuint (cg_frontier_count (frontier, CG_URL_QUEUED), ==, 1);
  /* Queued once: a third way finds it seen. */
  g_assert_true (cg_frontier_add (frontier, deep, "a", 1, "L", 0, 1, &queued, &is_new, &error));
  g_assert_false (is_new);
  item = next (frontier, 0, NULL);
  g_assert_nonnull (item);
  g_assert_cmpstr (item->url, ==, deep);
  g_assert_cmpint (item->depth, ==, 2);
  g_assert_cmpstr (item->hops, ==, "LL");
  g_assert_true (cg_frontier_finish (frontier, item, CG_URL_DONE, NULL, 0, &error));
  g_assert_no_error (error);

  /* A resumed run knows which URLs were skipped on the way. */
  g_assert_true (cg_frontier_add_skipped (frontier, later_deep, "a", 5, "LLLLL", 0, "too-deep", TRUE, NULL, &error));
  g_assert_no_error (error);
  g_clear_object (&frontier);
  resumed = open_frontier (f, 1);
  g_assert_true (cg_frontier_may_be_skipped (resumed, cg_seen_cache_hash_url (later_deep)));
  g_assert_true (cg_frontier_add (resumed, later_deep, "a", 3, "LLL", 0, 3, NULL, &is_new, &error));
  g_assert_no_error (error);
  g_assert_true (is_new);
  later = next (resumed, 0, NULL);
  g_assert_nonnull (later);
  g_assert_cmpstr (later->url, ==, later_deep);
  g_assert_cmpint (later->depth, ==, 3);
}

static void
test_resume_requeues_in_flight (Fixture *f, gconstpointer data)
{
  g_autoptr(CgFrontier) frontier = open_frontier (f, 4);
  g_autoptr(CgFrontierItem) done = NULL;
  g_autoptr(CgFrontierItem) lost = NULL;
  GHashTable *fetched = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  CgFrontierItem *item;

  for (int i = 0; i < 5; i++)
    {
      g_autofree char *url = g_strdup_printf ("http://a.test/%d", i);
      add (frontier, url, "a", 0, TRUE);
    }
  done = next (frontier, 0, NULL);
  finish (frontier, done, 0);
  lost = next (frontier, 0, NULL);
  /* The process dies with one URL in flight and three queued. */
  g_clear_object (&frontier);

  frontier = open_frontier (f, 4);
  g_assert_cmpuint (cg_frontier_count (frontier, CG_URL_DONE), ==, 1);
  g_assert_cmpuint (cg_frontier_count (frontier, CG_URL_QUEUED), ==, 4);
  while ((item = next (frontier, 0, NULL)) != NULL)
    {
      g_assert_false (g_hash_table_contains (fetched, item->url));
      g_hash_table_add (fetched, g_strdup (item->url));
      finish (frontier, item, 0);
      cg_frontier_item_free (item);
    }
  g_assert_cmpuint (g_hash_table_size (fetched), ==, 4);
  g_assert_true (g_hash_table_contains (fetched, lost->url));
  g_assert_false (g_hash_table_contains (fetched, done->url));
  g_assert_true (cg_frontier_is_exhausted (frontier));
  g_hash_table_unref (fetched);
}

/* The frontier reads a host's next URLs ahead of their turn and keeps the
 * URLs it hands out queued in the table. Neither may change what is
 * fetched or in which order: a URL in flight is never handed out twice,
 * one queued later with a lower priority still comes first, and a
 * resumed crawl fetches again what was in flight, its attempt not
 * counted since it never ended. */
static void
test_read_ahead_keeps_order (Fixture *f, gconstpointer data)
{
  g_autoptr(CgFrontier) frontier = open_frontier (f, 16);
  const char *expected[] = { "/0", "/1", "/2", "/3", "/urgent", "/4", "/5", "/late" };
  CgFrontierItem *items[G_N_ELEMENTS (expected)] = { NULL };
  CgFrontierItem *resumed_first = NULL;
  gint64 wait = 0;

  for (int i = 0; i < 6; i++)
    {
      g_autofree char *url = g_strdup_printf ("http://a.test/%d", i);
      add (frontier, url, "a", 1, TRUE);
    }
  /* Reads of one, two and four URLs: /4 and /5 wait in memory. */
  for (guint i = 0; i < 4; i++)
    items[i] = next (frontier, 0, NULL);
  add (frontier, "http://a.test/late", "a", 1, TRUE);
  add (frontier, "http://a.test/urgent", "a", 0, TRUE);
  for (guint i = 4; i < G_N_ELEMENTS (expected); i++)
    items[i] = next (frontier, 0, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autofree char *url = g_strconcat ("http://a.test", expected[i], NULL);

      g_assert_nonnull (items[i]);
      g_assert_cmpstr (items[i]->url, ==, url);
      g_assert_cmpint (items[i]->attempts, ==, 1);
    }
  g_assert_null (next (frontier, 0, &wait));
  g_assert_cmpint (wait, ==, -1);
  g_assert_cmpuint (cg_frontier_count (frontier, CG_URL_IN_FLIGHT), ==, G_N_ELEMENTS (expected));

  finish (frontier, items[0], 0);
  /* The process dies with the others in flight. */
  g_clear_object (&frontier);
  frontier = open_frontier (f, 16);
  g_assert_cmpuint (cg_frontier_count (frontier, CG_URL_DONE), ==, 1);
  g_assert_cmpuint (cg_frontier_count (frontier, CG_URL_QUEUED), ==, G_N_ELEMENTS (expected) - 1);
  g_assert_cmpuint (cg_frontier_count (frontier, CG_URL_IN_FLIGHT), ==, 0);
  resumed_first = next (frontier, 0, NULL);
  g_assert_cmpstr (resumed_first->url, ==, "http://a.test/urgent");
  g_assert_cmpint (resumed_first->attempts, ==, 1);
  cg_frontier_item_free (resumed_first);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    cg_frontier_item_free (items[i]);
}

/* With many hosts each fetched many times, every host's read ahead grows
 * to its largest, and the frontier-wide cap (4,096 URLs) holds them all
 * in check: memory stays bounded. Every URL is still handed out exactly
 * once. */
static void
test_read_ahead_bounded (Fixture *f, gconstpointer data)
{
  g_autoptr(CgFrontier) frontier = open_frontier (f, 1);
  g_autoptr(GHashTable) fetched = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GError) error = NULL;
  const guint n_hosts = 150, per_host = 80;
  guint most_held = 0;
  gint64 wait = 0;
  CgFrontierItem *item;

  g_assert_true (cg_store_begin (cg_project_get_store (f->project), &error));
  for (guint h = 0; h < n_hosts; h++)
    for (guint p = 0; p < per_host; p++)
      {
        g_autofree char *url = g_strdup_printf ("http://h%u.test/%u", h, p);
        g_autofree char *host = g_strdup_printf ("h%u", h);

        add (frontier, url, host, 0, TRUE);
      }
  /* A politeness delay as long as a round of all hosts: they take turns. */
  for (gint64 now = 0; (item = next (frontier, now, &wait)) != NULL || wait >= 0; now++)
    {
      if (item == NULL)
        continue;
      most_held = MAX (most_held, cg_frontier_get_n_read_ahead (frontier));
      g_assert_false (g_hash_table_contains (fetched, item->url));
      g_hash_table_add (fetched, g_strdup (item->url));
      finish (frontier, item, now + n_hosts);
      cg_frontier_item_free (item);
    }
  g_assert_true (cg_store_commit (cg_project_get_store (f->project), &error));
  g_assert_no_error (error);

  g_assert_cmpuint (g_hash_table_size (fetched), ==, n_hosts * per_host);
  g_assert_true (cg_frontier_is_exhausted (frontier));
  g_assert_cmpuint (cg_frontier_get_n_read_ahead (frontier), ==, 0);
  /* The cap was reached and never passed: at most the cap less the URL
   * just handed out is left after next(). */
  g_assert_cmpuint (most_held, ==, 4096 - 1);
}

static void
test_many_hosts_fair (Fixture *f, gconstpointer data)
{
  g_autoptr(CgFrontier) frontier = open_frontier (f, 1);
  GHashTable *hosts_seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (int h = 0; h < 20; h++)
    for (int p = 0; p < 10; p++)
      {
        g_autofree char *url = g_strdup_printf ("http://h%d.test/%d", h, p);
        g_autofree char *host = g_strdup_printf ("h%d", h);
        add (frontier, url, host, 0, TRUE);
      }
  /* With a politeness delay after each fetch, the first twenty fetches
   * visit twenty different hosts. */
  for (int i = 0; i < 20; i++)
    {
      g_autoptr(CgFrontierItem) item = next (frontier, i, NULL);

      g_assert_nonnull (item);
      g_assert_false (g_hash_table_contains (hosts_seen, item->host_key));
      g_hash_table_add (hosts_seen, g_strdup (item->host_key));
      finish (frontier, item, 1000000);
    }
  g_hash_table_unref (hosts_seen);
}

/* Queues enough URLs over enough hosts for several pages of each of
 * their tables and indexes. */
static void
fill_frontier (Fixture *f)
{
  g_autoptr(CgFrontier) frontier = open_frontier (f, 1);
  g_autoptr(GError) error = NULL;

  g_assert_true (cg_store_begin (cg_project_get_store (f->project), &error));
  for (int i = 0; i < 2000; i++)
    {
      g_autofree char *url = g_strdup_printf ("http://h%03d.test/page-%d", i % 800, i);
      g_autofree char *host = g_strdup_printf ("h%03d.test:80", i % 800);

      add (frontier, url, host, 0, TRUE);
    }
  g_assert_true (cg_store_commit (cg_project_get_store (f->project), &error));
  g_assert_no_error (error);
}

/* A crawl whose hosts cannot all be read does not resume with the ones
 * read before the damage. */
static void
test_resume_unreadable (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgFrontier) frontier = NULL;

  fill_frontier (f);
  /* The frontier reads its hosts from the table or its index, whichever
   * SQLite takes: both are damaged. */
  cg_test_damage_middle_of (f->project, "hosts");
  cg_test_damage_middle_of (f->project, "sqlite_autoindex_hosts_1");
  frontier = cg_frontier_new (cg_project_get_store (f->project), f->crawl_id, 1, &error);
  g_assert_null (frontier);
  g_assert_error (error, CG_STORE_ERROR, CG_STORE_ERROR_CORRUPT);
}

/* The report of a crawl whose URLs cannot all be counted is an error,
 * not a report with some of the counts. */
static void
test_report_unreadable (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *report = NULL;

  fill_frontier (f);
  report = cg_crawl_report_build (f->project, f->crawl_id, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (report, "queued"));
  g_clear_pointer (&report, g_free);

  /* The URLs are counted by state from this index. */
  cg_test_damage_middle_of (f->project, "urls_state");
  report = cg_crawl_report_build (f->project, f->crawl_id, &error);
  g_assert_null (report);
  g_assert_error (error, CG_STORE_ERROR, CG_STORE_ERROR_CORRUPT);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(name, func) g_test_add (name, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/frontier/seen-set", test_seen_set);
  ADD ("/frontier/seen-cache", test_seen_cache);
  ADD ("/frontier/seen-cache-collisions", test_seen_cache_collisions);
  ADD ("/frontier/priority-then-discovery-order", test_priority_then_discovery_order);
  ADD ("/frontier/one-in-flight-per-host", test_one_in_flight_per_host);
  ADD ("/frontier/two-in-flight-per-host", test_two_in_flight_per_host);
  ADD ("/frontier/politeness-delay", test_politeness_delay);
  ADD ("/frontier/release-host", test_release_host);
  ADD ("/frontier/retry-waits", test_retry_waits);
  ADD ("/frontier/skipped-never-fetched", test_skipped_never_fetched);
  ADD ("/frontier/skipped-on-the-way-requeued", test_skipped_on_the_way_requeued);
  ADD ("/frontier/resume-requeues-in-flight", test_resume_requeues_in_flight);
  ADD ("/frontier/read-ahead-keeps-order", test_read_ahead_keeps_order);
  ADD ("/frontier/read-ahead-bounded", test_read_ahead_bounded);
  ADD ("/frontier/many-hosts-fair", test_many_hosts_fair);
  ADD ("/frontier/resume-unreadable", test_resume_unreadable);
  ADD ("/frontier/report-unreadable", test_report_unreadable);
#undef ADD

  return g_test_run ();
}
