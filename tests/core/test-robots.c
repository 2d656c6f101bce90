/* test-robots.c: robots.txt parsing and matching (RFC 9309) and the cache.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "cg-robots.h"
#include "cg-url.h"

typedef struct {
  const char *path;
  gboolean    allowed;
} PathCase;

static CgRobots *
parse (const char *text,
       const char *agent)
{
  return cg_robots_parse (text, strlen (text), agent);
}

static void
check_paths (CgRobots       *robots,
             const PathCase *cases,
             gsize           n_cases)
{
  for (gsize i = 0; i < n_cases; i++)
    {
      g_autofree char *rule = NULL;
      gboolean allowed = cg_robots_is_allowed (robots, cases[i].path, &rule);

      g_test_message ("path “%s” (rule “%s”)", cases[i].path, rule != NULL ? rule : "none");
      g_assert_cmpint (allowed, ==, cases[i].allowed);
    }
}

/* RFC 9309 §5.1. */
static const char rfc_simple[] =
  "User-Agent: *\n"
  "Disallow: *.gif$\n"
  "Disallow: /example/\n"
  "Allow: /publications/\n"
  "\n"
  "User-Agent: foobot\n"
  "Disallow:/\n"
  "Allow:/example/page.html\n"
  "Allow:/example/allowed.gif\n"
  "\n"
  "User-Agent: barbot\n"
  "User-Agent: bazbot\n"
  "Disallow: /example/page.html\n"
  "\n"
  "User-Agent: quxbot\n"
  "\n"
  "EOF\n";

static void
test_rfc_simple_example (void)
{
  g_autoptr(CgRobots) foobot = parse (rfc_simple, "foobot");
  g_autoptr(CgRobots) barbot = parse (rfc_simple, "barbot");
  g_autoptr(CgRobots) bazbot = parse (rfc_simple, "BazBot/2.1");
  g_autoptr(CgRobots) quxbot = parse (rfc_simple, "quxbot");
  g_autoptr(CgRobots) other = parse (rfc_simple, "cartograph");
  const PathCase foobot_cases[] = {
    { "/example/page.html", TRUE },
    { "/example/allowed.gif", TRUE },
    { "/example/other.html", FALSE },
    { "/", FALSE },
    { "/publications/", FALSE },
  };
  const PathCase barbot_cases[] = {
    { "/example/page.html", FALSE },
    { "/example/page.html?x=1", FALSE },
    { "/example/other.html", TRUE },
    { "/image.gif", TRUE },
  };
  const PathCase quxbot_cases[] = {
    { "/example/page.html", TRUE },
    { "/image.gif", TRUE },
  };
  const PathCase other_cases[] = {
    { "/image.gif", FALSE },
    { "/a/b/image.gif", FALSE },
    { "/image.gif?size=2", TRUE },
    { "/example/", FALSE },
    { "/example/page.html", FALSE },
    { "/publications/", TRUE },
    { "/publications/cover.gif", TRUE },
    { "/about.html", TRUE },
  };

  check_paths (foobot, foobot_cases, G_N_ELEMENTS (foobot_cases));
  check_paths (barbot, barbot_cases, G_N_ELEMENTS (barbot_cases));
  check_paths (bazbot, barbot_cases, G_N_ELEMENTS (barbot_cases));
  check_paths (quxbot, quxbot_cases, G_N_ELEMENTS (quxbot_cases));
  check_paths (other, other_cases, G_N_ELEMENTS (other_cases));
  /* quxbot's group is empty: it has no rules, and does not fall back to
   * the "*" group. */
  g_assert_cmpuint (cg_robots_get_n_rules (quxbot), ==, 0);
  g_assert_cmpuint (cg_robots_get_n_rules (other), ==, 3);
}

/* RFC 9309 §5.2. */
static void
test_rfc_longest_match (void)
{
  g_autoptr(CgRobots) robots = parse ("User-Agent: foobot\n"
                                      "Allow: /example/page/\n"
                                      "Disallow: /example/page/disallowed.gif\n",
                                      "foobot");
  const PathCase cases[] = {
    { "/example/page/", TRUE },
    { "/example/page/index.html", TRUE },
    { "/example/page/disallowed.gif", FALSE },
  };
  g_autofree char *rule = NULL;

  check_paths (robots, cases, G_N_ELEMENTS (cases));
  g_assert_false (cg_robots_is_allowed (robots, "/example/page/disallowed.gif", &rule));
  g_assert_cmpstr (rule, ==, "Disallow: /example/page/disallowed.gif");
}

/* RFC 9309 §2.2.1: groups that name the same crawler are merged, several
 * User-agent lines open one group, matching is case-insensitive on the
 * product token. */
static void
test_rfc_group_merging (void)
{
  const char text[] =
    "user-agent: ExampleBot\n"
    "disallow: /foo\n"
    "disallow: /bar\n"
    "\n"
    "user-agent: *\n"
    "disallow: /everyone\n"
    "\n"
    "user-agent: ExampleBot\n"
    "disallow: /baz\n"
    "\n"
    "user-agent: otherbot\n"
    "user-agent: EXAMPLEBOT/3.0\n"
    "disallow: /qux\n";
  g_autoptr(CgRobots) robots = parse (text, "examplebot");
  g_autoptr(CgRobots) star = parse (text, "cartograph");
  const PathCase cases[] = {
    { "/foo", FALSE },
    { "/bar", FALSE },
    { "/baz", FALSE },
    { "/qux", FALSE },
    { "/everyone", TRUE },
    { "/other", TRUE },
  };
  const PathCase star_cases[] = {
    { "/foo", TRUE },
    { "/everyone", FALSE },
  };

  check_paths (robots, cases, G_N_ELEMENTS (cases));
  check_paths (star, star_cases, G_N_ELEMENTS (star_cases));
}

static void
test_user_agent_matching (void)
{
  const char text[] =
    "User-agent: CartoGraph\n"
    "Disallow: /mine\n"
    "User-agent: *\n"
    "Disallow: /all\n";
  g_autoptr(CgRobots) exact = parse (text, "cartograph");
  g_autoptr(CgRobots) versioned = parse (text, "Cartograph/0.1");
  /* No prefix matching: "cartographer" is another crawler. */
  g_autoptr(CgRobots) longer = parse (text, "cartographer");
  g_autoptr(CgRobots) shorter = parse ("User-agent: cartographer\nDisallow: /x\n", "cartograph");

  g_assert_false (cg_robots_is_allowed (exact, "/mine", NULL));
  g_assert_true (cg_robots_is_allowed (exact, "/all", NULL));
  g_assert_false (cg_robots_is_allowed (versioned, "/mine", NULL));
  g_assert_true (cg_robots_is_allowed (longer, "/mine", NULL));
  g_assert_false (cg_robots_is_allowed (longer, "/all", NULL));
  g_assert_true (cg_robots_is_allowed (shorter, "/x", NULL));
}

/* RFC 9309 §2.2.3, and Google's documented matching examples. */
static void
test_special_characters (void)
{
  g_autoptr(CgRobots) robots = parse ("User-agent: *\n"
                                      "Disallow: /this/path/exactly$  # only this one\n"
                                      "Disallow: /that/*/exactly\n"
                                      "Disallow: /path/file-with-a-%2A.html\n"
                                      "Disallow: /path/foo-%24\n",
                                      "cartograph");
  const PathCase cases[] = {
    { "/this/path/exactly", FALSE },
    { "/this/path/exactly/not", TRUE },
    { "/this/path/exactly?q", TRUE },
    { "/that/a/b/exactly", FALSE },
    { "/that/exactly", TRUE },
    { "/path/file-with-a-*.html", FALSE },
    { "/path/file-with-a-%2a.html", FALSE },
    { "/path/file-with-a-x.html", TRUE },
    { "/path/foo-$", FALSE },
    { "/path/foo-", TRUE },
  };

  check_paths (robots, cases, G_N_ELEMENTS (cases));
}

typedef struct {
  const char *rule;
  const char *matches[8];
  const char *does_not_match[8];
} GoogleCase;

static void
test_google_examples (void)
{
  const GoogleCase cases[] = {
    { "/", { "/", "/a", "/a/b.html?x=1", NULL }, { NULL } },
    { "/*", { "/", "/a", "/a/b.html?x=1", NULL }, { NULL } },
    { "/$", { "/", NULL }, { "/page.html", "/?x=1", NULL } },
    { "/fish",
      { "/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html",
        "/fish.php?id=anything", NULL },
      { "/Fish.asp", "/catfish", "/?id=fish", "/desert/fish", NULL } },
    { "/fish*",
      { "/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html",
        "/fish.php?id=anything", NULL },
      { "/Fish.asp", "/catfish", "/?id=fish", "/desert/fish", NULL } },
    { "/fish/",
      { "/fish/", "/fish/?id=anything", "/fish/salmon.htm", NULL },
      { "/fish", "/fish.html", "/animals/fish/", "/Fish/Salmon.asp", NULL } },
    { "/*.php",
      { "/index.php", "/filename.php", "/folder/filename.php", "/folder/filename.php?parameters",
        "/folder/any.php.file.html", "/filename.php/", NULL },
      { "/", "/windows.PHP", NULL } },
    { "/*.php$",
      { "/filename.php", "/folder/filename.php", NULL },
      { "/filename.php?parameters", "/filename.php/", "/filename.php5", "/windows.PHP", NULL } },
    { "/fish*.php",
      { "/fish.php", "/fishheads/catfish.php?parameters", NULL },
      { "/Fish.PHP", NULL } },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf ("User-agent: *\nDisallow: %s\n", cases[i].rule);
      g_autoptr(CgRobots) robots = parse (text, "cartograph");

      for (guint j = 0; cases[i].matches[j] != NULL; j++)
        {
          g_test_message ("rule %s, path %s", cases[i].rule, cases[i].matches[j]);
          g_assert_false (cg_robots_is_allowed (robots, cases[i].matches[j], NULL));
        }
      for (guint j = 0; cases[i].does_not_match[j] != NULL; j++)
        {
          g_test_message ("rule %s, path %s", cases[i].rule, cases[i].does_not_match[j]);
          g_assert_true (cg_robots_is_allowed (robots, cases[i].does_not_match[j], NULL));
        }
    }
}

/* Google's order-of-precedence table: longest match, Allow wins ties. */
static void
test_precedence (void)
{
  const struct {
    const char *allow;
    const char *disallow;
    const char *path;
    gboolean    allowed;
  } cases[] = {
    { "/p", "/", "/page", TRUE },
    { "/folder", "/folder", "/folder/page", TRUE },
    { "/page", "/*.htm", "/page.htm", FALSE },
    { "/page", "/*.ph", "/page.php5", TRUE },
    { "/$", "/", "/", TRUE },
    { "/$", "/", "/page.htm", FALSE },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      /* Both orders of the lines give the same answer. */
      g_autofree char *forward = g_strdup_printf ("User-agent: *\nAllow: %s\nDisallow: %s\n",
                                                  cases[i].allow, cases[i].disallow);
      g_autofree char *backward = g_strdup_printf ("User-agent: *\nDisallow: %s\nAllow: %s\n",
                                                   cases[i].disallow, cases[i].allow);
      g_autoptr(CgRobots) a = parse (forward, "cartograph");
      g_autoptr(CgRobots) b = parse (backward, "cartograph");

      g_test_message ("allow %s, disallow %s, path %s", cases[i].allow, cases[i].disallow, cases[i].path);
      g_assert_cmpint (cg_robots_is_allowed (a, cases[i].path, NULL), ==, cases[i].allowed);
      g_assert_cmpint (cg_robots_is_allowed (b, cases[i].path, NULL), ==, cases[i].allowed);
    }
}

/* RFC 9309 §2.2.2's table: percent-encoding is normalised on both sides. */
static void
test_percent_encoding (void)
{
  g_autoptr(CgRobots) robots = parse ("User-agent: *\n"
                                      "Disallow: /foo/bar?baz=quz\n"
                                      "Disallow: /foo/bar/\xE3\x83\x84\n"
                                      "Disallow: /foo/bar/%62%61%7A\n"
                                      "Disallow: /caf%c3%a9\n",
                                      "cartograph");
  const PathCase cases[] = {
    { "/foo/bar?baz=quz", FALSE },
    { "/foo/bar?baz=other", TRUE },
    { "/foo/bar/%E3%83%84", FALSE },
    { "/foo/bar/%e3%83%84", FALSE },
    { "/foo/bar/\xE3\x83\x84", FALSE },
    { "/foo/bar/baz", FALSE },
    { "/foo/bar/%62az", FALSE },
    { "/caf\xC3\xA9", FALSE },
    { "/caf%C3%A9", FALSE },
    { "/cafe", TRUE },
  };

  check_paths (robots, cases, G_N_ELEMENTS (cases));
}

static void
test_syntax_tolerance (void)
{
  /* BOM, CR and CRLF line ends, odd spacing and case, comments, unknown
   * lines, lines without a colon, rules before any group, a misspelt
   * directive Google accepts, and an empty Disallow. */
  const char text[] =
    "\xEF\xBB\xBF" "Disallow: /before-any-group\r\n"
    "# a comment line\r"
    "USER-AGENT :   cartograph   # trailing comment\n"
    "Unknown-Directive: /x\n"
    "this line has no colon\n"
    "noindex: /noindex\n"
    "  DISALLOW  :/private/#comment\n"
    "Dissallow: /typo\n"
    "Disallow:\n"
    "Allow: /private/public\n";
  g_autoptr(CgRobots) robots = parse (text, "cartograph");
  const PathCase cases[] = {
    { "/before-any-group", TRUE },
    { "/x", TRUE },
    { "/noindex", TRUE },
    { "/private/", FALSE },
    { "/private/secret", FALSE },
    { "/private/public", TRUE },
    { "/typo", FALSE },
    { "/", TRUE },
  };

  check_paths (robots, cases, G_N_ELEMENTS (cases));
  g_assert_cmpuint (cg_robots_get_n_rules (robots), ==, 3);
  g_assert_true (cg_robots_is_from_file (robots));
}

static void
test_robots_txt_always_allowed (void)
{
  g_autoptr(CgRobots) robots = parse ("User-agent: *\nDisallow: /\n", "cartograph");
  g_autoptr(CgRobots) down = cg_robots_new_for_status (503, NULL, 0, "cartograph");

  g_assert_true (cg_robots_is_allowed (robots, "/robots.txt", NULL));
  g_assert_false (cg_robots_is_allowed (robots, "/robots.txt.bak", NULL));
  g_assert_false (cg_robots_is_allowed (robots, "/", NULL));
  g_assert_true (cg_robots_is_allowed (down, "/robots.txt", NULL));
  g_assert_true (cg_robots_is_url_allowed (robots, "http://example.org/robots.txt", NULL));
  g_assert_false (cg_robots_is_url_allowed (robots, "http://example.org/index.html", NULL));
  g_assert_false (cg_robots_is_url_allowed (robots, "not a url", NULL));
}

/* RFC 9309 §2.5: at least 500 KiB are parsed; what follows is ignored,
 * including the line the limit cuts. */
static void
test_size_cap (void)
{
  GString *text = g_string_new ("User-agent: *\nDisallow: /early\n");
  g_autoptr(CgRobots) robots = NULL;
  g_autoptr(CgRobots) truncated = NULL;
  gsize cut;

  while (text->len < CG_ROBOTS_MAX_SIZE - 100)
    g_string_append (text, "# padding padding padding padding padding padding\n");
  g_string_append (text, "Disallow: /just-inside\n");
  while (text->len < CG_ROBOTS_MAX_SIZE - 10)
    g_string_append_c (text, '#');
  g_string_append_c (text, '\n');
  /* This rule starts before the limit and ends after it. */
  cut = text->len;
  g_string_append (text, "Disallow: /straddling-the-limit-and-longer\n");
  g_assert_cmpuint (cut, <, CG_ROBOTS_MAX_SIZE);
  g_assert_cmpuint (text->len, >, CG_ROBOTS_MAX_SIZE);
  g_string_append (text, "Disallow: /late\n");

  robots = cg_robots_parse (text->str, text->len, "cartograph");
  g_assert_false (cg_robots_is_allowed (robots, "/early", NULL));
  g_assert_false (cg_robots_is_allowed (robots, "/just-inside", NULL));
  g_assert_true (cg_robots_is_allowed (robots, "/straddling-the-limit-and-longer", NULL));
  g_assert_true (cg_robots_is_allowed (robots, "/stra", NULL));
  g_assert_true (cg_robots_is_allowed (robots, "/late", NULL));

  /* The same file cut to exactly the limit by the fetcher reads the same. */
  truncated = cg_robots_parse (text->str, CG_ROBOTS_MAX_SIZE, "cartograph");
  g_assert_cmpuint (cg_robots_get_n_rules (truncated), ==, cg_robots_get_n_rules (robots));
  g_string_free (text, TRUE);
}

static void
test_crawl_delay_and_sitemaps (void)
{
  const char text[] =
    "Sitemap: http://example.org/sitemap.xml\n"
    "User-agent: cartograph\n"
    "Crawl-delay: 2.5\n"
    "Disallow: /x\n"
    "Sitemap: http://example.org/news-sitemap.xml\n"
    "User-agent: cartograph\n"
    "Crawl-delay: 4\n"
    "User-agent: *\n"
    "Crawl-delay: 100\n";
  g_autoptr(CgRobots) robots = parse (text, "cartograph");
  g_autoptr(CgRobots) star = parse (text, "otherbot");
  g_autoptr(CgRobots) bad = parse ("User-agent: *\nCrawl-delay: soon\nCrawl-delay: -3\n", "cartograph");
  g_autoptr(CgRobots) none = parse ("User-agent: *\nDisallow: /\n", "cartograph");
  const char * const *sitemaps = cg_robots_get_sitemaps (robots);

  g_assert_cmpfloat_with_epsilon (cg_robots_get_crawl_delay (robots), 4.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (cg_robots_get_crawl_delay (star), 100.0, 1e-9);
  g_assert_cmpfloat (cg_robots_get_crawl_delay (bad), <, 0);
  g_assert_cmpfloat (cg_robots_get_crawl_delay (none), <, 0);
  g_assert_cmpuint (g_strv_length ((char **) sitemaps), ==, 2);
  g_assert_cmpstr (sitemaps[0], ==, "http://example.org/sitemap.xml");
  g_assert_cmpstr (sitemaps[1], ==, "http://example.org/news-sitemap.xml");
  g_assert_cmpuint (g_strv_length ((char **) cg_robots_get_sitemaps (star)), ==, 2);
  /* The Sitemap line between the two groups did not split the group. */
  g_assert_false (cg_robots_is_allowed (robots, "/x", NULL));
}

static void
test_status_policy (void)
{
  const char body[] = "User-agent: *\nDisallow: /private\n";
  const struct {
    guint    status;
    gboolean public_allowed;
    gboolean private_allowed;
  } cases[] = {
    { 200, TRUE, FALSE },
    { 206, TRUE, FALSE },
    { 301, TRUE, TRUE },    /* redirects not resolved within five hops */
    { 401, TRUE, TRUE },
    { 403, TRUE, TRUE },
    { 404, TRUE, TRUE },
    { 410, TRUE, TRUE },
    { 429, FALSE, FALSE },
    { 500, FALSE, FALSE },
    { 503, FALSE, FALSE },
    { 0, FALSE, FALSE },    /* unreachable */
    { 100, FALSE, FALSE },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(CgRobots) robots = cg_robots_new_for_status (cases[i].status, body,
                                                             strlen (body), "cartograph");

      g_test_message ("status %u", cases[i].status);
      g_assert_cmpint (cg_robots_is_allowed (robots, "/public", NULL), ==, cases[i].public_allowed);
      g_assert_cmpint (cg_robots_is_allowed (robots, "/private", NULL), ==, cases[i].private_allowed);
      g_assert_cmpint (cg_robots_is_from_file (robots), ==, cases[i].status / 100 == 2);
    }
}

static void
test_garbage_input (void)
{
  g_autoptr(CgRobots) empty = cg_robots_parse ("", 0, "cartograph");
  g_autoptr(CgRobots) null_data = cg_robots_parse (NULL, 0, "cartograph");
  g_autoptr(GRand) rand = g_rand_new_with_seed (9309);
  guint8 junk[4096];

  g_assert_true (cg_robots_is_allowed (empty, "/", NULL));
  g_assert_true (cg_robots_is_allowed (null_data, "/", NULL));

  /* Binary junk, including NUL bytes, parses to something that answers. */
  for (guint round = 0; round < 50; round++)
    {
      g_autoptr(CgRobots) robots = NULL;

      for (gsize i = 0; i < sizeof junk; i++)
        junk[i] = (guint8) g_rand_int_range (rand, 0, 256);
      memcpy (junk, "User-agent: *\nDisallow: /a\n", 27);
      robots = cg_robots_parse ((const char *) junk, sizeof junk, "cartograph");
      g_assert_false (cg_robots_is_allowed (robots, "/a", NULL));
      g_assert_true (cg_robots_is_allowed (robots, "/robots.txt", NULL));
    }

  /* A pathological wildcard pattern still answers. */
  {
    GString *text = g_string_new ("User-agent: *\nDisallow: /");
    g_autoptr(CgRobots) robots = NULL;
    g_autofree char *path = NULL;

    for (guint i = 0; i < 200; i++)
      g_string_append (text, "*a");
    g_string_append (text, "b$\n");
    robots = cg_robots_parse (text->str, text->len, "cartograph");
    path = g_strnfill (4000, 'a');
    path[0] = '/';
    g_assert_true (cg_robots_is_allowed (robots, path, NULL));
    g_string_free (text, TRUE);
  }
}

#define HOUR (G_GINT64_CONSTANT (3600) * G_USEC_PER_SEC)

static void
test_cache (void)
{
  g_autoptr(CgRobotsCache) cache = cg_robots_cache_new ("cartograph", CG_ROBOTS_POLICY_OBEY);
  g_autoptr(GError) error = NULL;
  g_autofree char *rule = NULL;
  g_autofree char *robots_url = NULL;
  const char body[] = "User-agent: cartograph\nDisallow: /private\nCrawl-delay: 1000\n";
  gint64 t0 = 1000 * HOUR;

  g_assert_cmpint (cg_robots_policy_to_string (cg_robots_cache_get_policy (cache))[0], ==, 'o');
  g_assert_cmpint (cg_robots_cache_check (cache, "http://example.org/private/x", t0, NULL), ==,
                   CG_ROBOTS_NEED_FETCH);
  /* The robots.txt itself needs no robots.txt. */
  g_assert_cmpint (cg_robots_cache_check (cache, "http://example.org/robots.txt", t0, NULL), ==,
                   CG_ROBOTS_ALLOWED);

  robots_url = cg_robots_url_for ("http://user:pw@Example.org/a/b?c#d", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (robots_url, ==, "http://example.org/robots.txt");
  g_assert_true (cg_robots_cache_store (cache, robots_url, 200, body, strlen (body), t0, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cg_robots_cache_get_n_hosts (cache), ==, 1);

  g_assert_cmpint (cg_robots_cache_check (cache, "http://example.org/private/x", t0 + 1, &rule), ==,
                   CG_ROBOTS_DISALLOWED);
  g_assert_cmpstr (rule, ==, "Disallow: /private");
  g_assert_cmpint (cg_robots_cache_check (cache, "http://EXAMPLE.org:80/public", t0 + 1, NULL), ==,
                   CG_ROBOTS_ALLOWED);
  /* Another scheme or port is another robots.txt. */
  g_assert_cmpint (cg_robots_cache_check (cache, "https://example.org/private/x", t0 + 1, NULL), ==,
                   CG_ROBOTS_NEED_FETCH);
  g_assert_cmpint (cg_robots_cache_check (cache, "http://example.org:8080/private/x", t0 + 1, NULL), ==,
                   CG_ROBOTS_NEED_FETCH);
  g_assert_cmpint (cg_robots_cache_check (cache, "http://www.example.org/private/x", t0 + 1, NULL), ==,
                   CG_ROBOTS_NEED_FETCH);

  /* Crawl-delay 1000 is cut to the cap; unknown hosts have none. */
  g_assert_cmpfloat_with_epsilon (cg_robots_cache_get_crawl_delay (cache, "http://example.org/", t0 + 1),
                                  CG_ROBOTS_MAX_CRAWL_DELAY, 1e-9);
  g_assert_cmpfloat (cg_robots_cache_get_crawl_delay (cache, "http://other.example/", t0 + 1), ==, 0);

  /* Fresh for a day, then fetched again. */
  g_assert_cmpint (cg_robots_cache_check (cache, "http://example.org/private/x",
                                          t0 + 23 * HOUR, NULL), ==, CG_ROBOTS_DISALLOWED);
  g_assert_cmpint (cg_robots_cache_check (cache, "http://example.org/private/x",
                                          t0 + 24 * HOUR, NULL), ==, CG_ROBOTS_NEED_FETCH);
  g_assert_null (cg_robots_cache_lookup (cache, "http://example.org/", t0 + 25 * HOUR));

  /* A server error disallows everything, but only until the retry. */
  g_assert_true (cg_robots_cache_store (cache, "https://example.org/", 503, NULL, 0, t0, &error));
  g_assert_cmpint (cg_robots_cache_check (cache, "https://example.org/public", t0 + 1, NULL), ==,
                   CG_ROBOTS_DISALLOWED);
  g_assert_cmpint (cg_robots_cache_check (cache, "https://example.org/public",
                                          t0 + CG_ROBOTS_RETRY_SECONDS * G_USEC_PER_SEC, NULL), ==,
                   CG_ROBOTS_NEED_FETCH);

  /* A missing robots.txt allows everything for a day. */
  g_assert_true (cg_robots_cache_store (cache, "http://example.org:8080/", 404, "Not found", 9, t0, &error));
  g_assert_cmpint (cg_robots_cache_check (cache, "http://example.org:8080/private/x", t0 + 12 * HOUR, NULL), ==,
                   CG_ROBOTS_ALLOWED);

  /* A bad URL is refused, not guessed. */
  g_assert_false (cg_robots_cache_store (cache, "mailto:x@example.org", 200, "", 0, t0, &error));
  g_assert_error (error, CG_URL_ERROR, CG_URL_ERROR_UNSUPPORTED_SCHEME);
}

static void
test_cache_ignore_policy (void)
{
  g_autoptr(CgRobotsCache) cache = cg_robots_cache_new ("cartograph", CG_ROBOTS_POLICY_IGNORE);
  const char body[] = "User-agent: *\nDisallow: /\nCrawl-delay: 10\n";

  g_assert_cmpstr (cg_robots_policy_to_string (CG_ROBOTS_POLICY_IGNORE), ==, "ignore");
  g_assert_cmpstr (cg_robots_policy_to_string (CG_ROBOTS_POLICY_OBEY), ==, "obey");
  g_assert_cmpint (cg_robots_cache_check (cache, "http://example.org/x", 0, NULL), ==, CG_ROBOTS_ALLOWED);
  g_assert_true (cg_robots_cache_store (cache, "http://example.org/", 200, body, strlen (body), 0, NULL));
  g_assert_cmpint (cg_robots_cache_check (cache, "http://example.org/x", 1, NULL), ==, CG_ROBOTS_ALLOWED);
  g_assert_cmpfloat (cg_robots_cache_get_crawl_delay (cache, "http://example.org/", 1), ==, 0);
}

/* The cache remembers the host of the URL asked about last by the start
 * of that URL: hosts whose URLs start alike, asked about in turn, must
 * each get the answer of their own robots.txt. */
static void
test_cache_hosts_in_turn (void)
{
  const struct {
    const char *robots_url;   /* as stored */
    const char *start;        /* of the URLs asked about */
    const char *body;
  } hosts[] = {
    { "http://a.example/robots.txt", "http://a.example", "User-agent: *\nDisallow: /x\nCrawl-delay: 1\n" },
    { "http://a.example:8080/robots.txt", "http://a.example:8080", "User-agent: *\nDisallow: /y\nCrawl-delay: 2\n" },
    { "http://a.example.org/robots.txt", "http://a.example.org", "User-agent: *\nDisallow: /z\nCrawl-delay: 3\n" },
    { "http://a.exampl/robots.txt", "http://a.exampl", "User-agent: *\nDisallow:\n" },
    { "https://a.example/robots.txt", "https://a.example", "User-agent: *\nDisallow: /\nCrawl-delay: 4\n" },
    /* Disallowing nothing, these are answered without parsing the URL
     * (see cg_robots_cache_check()). */
    { "http://a.example.net/robots.txt", "http://a.example.net", "User-agent: *\nAllow: /x\n" },
    { "http://a.example.com/robots.txt", "http://a.example.com", "User-agent: other\nDisallow: /\n" },
  };
  /* Other spellings of the first two hosts, which must find their entry. */
  const struct { const char *start; guint host; } aliases[] = {
    { "http://A.EXAMPLE", 0 },
    { "http://a.example:80", 0 },
    { "http://user@a.example", 0 },
    { "HTTP://a.example:8080", 1 },
  };
  const char * const paths[] = { "/x", "/y/1", "/z?q", "/w", "" };
  g_autoptr(CgRobotsCache) cache = cg_robots_cache_new ("cartograph", CG_ROBOTS_POLICY_OBEY);
  g_autoptr(GRand) rand = g_rand_new_with_seed (9309);
  gint64 t0 = 1000 * HOUR;

  for (guint i = 0; i < G_N_ELEMENTS (hosts); i++)
    g_assert_true (cg_robots_cache_store (cache, hosts[i].robots_url, 200, hosts[i].body,
                                          strlen (hosts[i].body), t0, NULL));

  for (guint n = 0; n < 2000; n++)
    {
      guint pick = (guint) g_rand_int_range (rand, 0, G_N_ELEMENTS (hosts) + G_N_ELEMENTS (aliases));
      guint host = pick < G_N_ELEMENTS (hosts) ? pick : aliases[pick - G_N_ELEMENTS (hosts)].host;
      const char *start = pick < G_N_ELEMENTS (hosts) ? hosts[pick].start : aliases[pick - G_N_ELEMENTS (hosts)].start;
      const char *path = paths[g_rand_int_range (rand, 0, G_N_ELEMENTS (paths))];
      g_autofree char *url = g_strconcat (start, path, NULL);
      g_autoptr(CgRobots) own = cg_robots_parse (hosts[host].body, strlen (hosts[host].body), "cartograph");
      CgRobotsVerdict expected = cg_robots_is_url_allowed (own, url, NULL) ? CG_ROBOTS_ALLOWED : CG_ROBOTS_DISALLOWED;
      double delay = MAX (cg_robots_get_crawl_delay (own), 0);

      g_assert_cmpint (cg_robots_cache_check (cache, url, t0 + 1, NULL), ==, expected);
      g_assert_cmpint (cg_robots_cache_check_normalized (cache, url, t0 + 1, NULL), ==, expected);
      g_assert_cmpfloat_with_epsilon (cg_robots_cache_get_crawl_delay (cache, url, t0 + 1), delay, 1e-9);
    }
  /* A host not stored, right after one that is and starts alike. */
  g_assert_cmpint (cg_robots_cache_check (cache, "http://a.example/x", t0 + 1, NULL), ==, CG_ROBOTS_DISALLOWED);
  g_assert_cmpint (cg_robots_cache_check (cache, "http://a.examples/x", t0 + 1, NULL), ==, CG_ROBOTS_NEED_FETCH);
  g_assert_cmpint (cg_robots_cache_check (cache, "http://a.example/x", t0 + 1, NULL), ==, CG_ROBOTS_DISALLOWED);
  g_assert_cmpint (cg_robots_cache_check (cache, "http://a.example:8081/x", t0 + 1, NULL), ==, CG_ROBOTS_NEED_FETCH);
  /* A host that disallows nothing is asked again once its entry is stale. */
  g_assert_cmpint (cg_robots_cache_check (cache, "http://a.exampl/x", t0 + 1, NULL), ==, CG_ROBOTS_ALLOWED);
  g_assert_cmpint (cg_robots_cache_check (cache, "http://a.exampl/x", t0 + 1000 * HOUR, NULL), ==,
                   CG_ROBOTS_NEED_FETCH);
}

/* A string that does not parse is refused, even right after a URL of a
 * host that disallows nothing with the same start, whose answer is given
 * without parsing to the crawl's URLs, which parse. */
static void
test_cache_unparsable_after_same_start (void)
{
  g_autoptr(CgRobotsCache) cache = cg_robots_cache_new ("cartograph", CG_ROBOTS_POLICY_OBEY);
  const char body[] = "User-agent: *\nAllow: /\n";
  g_autoptr(GString) too_long = g_string_new ("http://a.example/");
  gint64 t0 = 1000 * HOUR;

  g_assert_true (cg_robots_cache_store (cache, "http://a.example/robots.txt", 200, body, strlen (body), t0, NULL));
  while (too_long->len <= CG_URL_MAX_LENGTH)
    g_string_append_c (too_long, 'a');

  g_assert_cmpint (cg_robots_cache_check (cache, "http://a.example/x", t0 + 1, NULL), ==, CG_ROBOTS_ALLOWED);
  g_assert_cmpint (cg_robots_cache_check (cache, too_long->str, t0 + 1, NULL), ==, CG_ROBOTS_DISALLOWED);
  g_assert_cmpint (cg_robots_cache_check_normalized (cache, "http://a.example/x", t0 + 1, NULL), ==, CG_ROBOTS_ALLOWED);
  g_assert_cmpint (cg_robots_cache_check (cache, too_long->str, t0 + 1, NULL), ==, CG_ROBOTS_DISALLOWED);

  /* The trailing space is white space a browser drops; inside the
   * authority it is not. */
  g_assert_cmpint (cg_robots_cache_check (cache, "http://a.example ", t0 + 1, NULL), ==, CG_ROBOTS_ALLOWED);
  g_assert_cmpint (cg_robots_cache_check (cache, "http://a.example /x", t0 + 1, NULL), ==, CG_ROBOTS_DISALLOWED);
  g_assert_cmpint (cg_robots_cache_check (cache, "http://a.example/x", t0 + 1, NULL), ==, CG_ROBOTS_ALLOWED);
}

static void
test_cache_is_bounded (void)
{
  g_autoptr(CgRobotsCache) cache = cg_robots_cache_new ("cartograph", CG_ROBOTS_POLICY_OBEY);
  const char body[] = "User-agent: *\nDisallow: /p\n";

  for (guint i = 0; i < CG_ROBOTS_CACHE_MAX_HOSTS + 100; i++)
    {
      g_autofree char *url = g_strdup_printf ("http://host%u.example/", i);

      g_assert_true (cg_robots_cache_store (cache, url, 200, body, strlen (body), i, NULL));
      g_assert_cmpuint (cg_robots_cache_get_n_hosts (cache), <=, CG_ROBOTS_CACHE_MAX_HOSTS);
    }
  /* The hosts fetched longest ago went first; the newest are kept. */
  g_assert_cmpint (cg_robots_cache_check (cache, "http://host0.example/p", CG_ROBOTS_CACHE_MAX_HOSTS + 200, NULL),
                   ==, CG_ROBOTS_NEED_FETCH);
  g_assert_cmpint (cg_robots_cache_check (cache, "http://host50050.example/p", CG_ROBOTS_CACHE_MAX_HOSTS + 200, NULL),
                   ==, CG_ROBOTS_DISALLOWED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/robots/rfc9309/simple-example", test_rfc_simple_example);
  g_test_add_func ("/robots/rfc9309/longest-match", test_rfc_longest_match);
  g_test_add_func ("/robots/rfc9309/group-merging", test_rfc_group_merging);
  g_test_add_func ("/robots/rfc9309/special-characters", test_special_characters);
  g_test_add_func ("/robots/rfc9309/percent-encoding", test_percent_encoding);
  g_test_add_func ("/robots/rfc9309/robots-txt-allowed", test_robots_txt_always_allowed);
  g_test_add_func ("/robots/rfc9309/size-cap", test_size_cap);
  g_test_add_func ("/robots/rfc9309/status", test_status_policy);
  g_test_add_func ("/robots/user-agent", test_user_agent_matching);
  g_test_add_func ("/robots/google-examples", test_google_examples);
  g_test_add_func ("/robots/precedence", test_precedence);
  g_test_add_func ("/robots/syntax-tolerance", test_syntax_tolerance);
  g_test_add_func ("/robots/crawl-delay-sitemaps", test_crawl_delay_and_sitemaps);
  g_test_add_func ("/robots/garbage", test_garbage_input);
  g_test_add_func ("/robots/cache", test_cache);
  g_test_add_func ("/robots/cache/ignore", test_cache_ignore_policy);
  g_test_add_func ("/robots/cache/hosts-in-turn", test_cache_hosts_in_turn);
  g_test_add_func ("/robots/cache/unparsable-after-same-start", test_cache_unparsable_after_same_start);
  g_test_add_func ("/robots/cache/bounded", test_cache_is_bounded);

  return g_test_run ();
}
