/* test-crawl-config.c: crawl settings kept as JSON with a crawl, read back
 * to resume it, and settings of the wrong type refused by name.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "cg-crawl-config.h"

/* Settings with every member away from its default. */
static CgCrawlConfig *
unusual_config (void)
{
  CgCrawlConfig *config = cg_crawl_config_new ();
  const char *seeds[] = { "http://127.0.0.1:8642/", "http://127.0.0.1:8642/b/", NULL };
  const char *include[] = { "^http://127\\.0\\.0\\.1:8642/b/", NULL };
  const char *exclude[] = { "\\.zip$", "/private/", NULL };
  const char *prefixes[] = { "http://(127.0.0.1:8642,)/b/", NULL };

  g_strfreev (config->seeds);
  config->seeds = g_strdupv ((GStrv) seeds);
  g_strfreev (config->include_regexes);
  config->include_regexes = g_strdupv ((GStrv) include);
  g_strfreev (config->exclude_regexes);
  config->exclude_regexes = g_strdupv ((GStrv) exclude);
  g_strfreev (config->surt_prefixes);
  config->surt_prefixes = g_strdupv ((GStrv) prefixes);
  config->scope_mode = CG_SCOPE_MODE_SURT_PREFIX;
  config->max_depth = 7;
  config->max_pages = 5000000000;
  config->max_bytes = 3;
  config->max_duration = 60;
  config->requisites = !config->requisites;
  config->obey_robots = !config->obey_robots;
  config->cookies = !config->cookies;
  g_free (config->user_agent);
  config->user_agent = g_strdup ("Archivist/2 (+http://127.0.0.1/about)");
  g_free (config->contact);
  config->contact = g_strdup ("mailto:archive@example.org");
  config->min_delay = 0.25;
  config->delay_factor = 3.5;
  config->max_delay = 12;
  config->max_per_host = 3;
  config->max_connections = 5;
  g_free (config->bandwidth);
  config->bandwidth = g_strdup ("mon-fri 09:00-18:00 100K; 2M");
  config->timeout = 9;
  config->max_body_size = 1 << 20;
  g_free (config->warc_prefix);
  config->warc_prefix = g_strdup ("nightly");
  config->warc_max_size = 1 << 24;
  config->digest = CG_WARC_DIGEST_SHA256;
  config->compression_level = 9;
  return config;
}

/* What is written is read back, member for member. */
static void
test_round_trip (void)
{
  g_autoptr(CgCrawlConfig) config = unusual_config ();
  g_autoptr(CgCrawlConfig) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = cg_crawl_config_to_json (config);
  g_autofree char *json_again = NULL;

  again = cg_crawl_config_from_json (json, &error);
  g_assert_no_error (error);
  g_assert_true (g_strv_equal ((const char * const *) again->seeds, (const char * const *) config->seeds));
  g_assert_true (g_strv_equal ((const char * const *) again->include_regexes,
                               (const char * const *) config->include_regexes));
  g_assert_true (g_strv_equal ((const char * const *) again->exclude_regexes,
                               (const char * const *) config->exclude_regexes));
  g_assert_true (g_strv_equal ((const char * const *) again->surt_prefixes,
                               (const char * const *) config->surt_prefixes));
  g_assert_cmpint (again->scope_mode, ==, config->scope_mode);
  g_assert_cmpuint (again->max_depth, ==, config->max_depth);
  g_assert_cmpuint (again->max_pages, ==, config->max_pages);
  g_assert_cmpuint (again->max_bytes, ==, config->max_bytes);
  g_assert_cmpuint (again->max_duration, ==, config->max_duration);
  g_assert_cmpint (again->requisites, ==, config->requisites);
  g_assert_cmpint (again->obey_robots, ==, config->obey_robots);
  g_assert_cmpint (again->cookies, ==, config->cookies);
  g_assert_cmpstr (again->user_agent, ==, config->user_agent);
  g_assert_cmpstr (again->contact, ==, config->contact);
  g_assert_cmpfloat (again->min_delay, ==, config->min_delay);
  g_assert_cmpfloat (again->delay_factor, ==, config->delay_factor);
  g_assert_cmpfloat (again->max_delay, ==, config->max_delay);
  g_assert_cmpuint (again->max_per_host, ==, config->max_per_host);
  g_assert_cmpuint (again->max_connections, ==, config->max_connections);
  g_assert_cmpstr (again->bandwidth, ==, config->bandwidth);
  g_assert_cmpuint (again->timeout, ==, config->timeout);
  g_assert_cmpuint (again->max_body_size, ==, config->max_body_size);
  g_assert_cmpstr (again->warc_prefix, ==, config->warc_prefix);
  g_assert_cmpuint (again->warc_max_size, ==, config->warc_max_size);
  g_assert_cmpint (again->digest, ==, config->digest);
  g_assert_cmpint (again->compression_level, ==, config->compression_level);
  json_again = cg_crawl_config_to_json (again);
  g_assert_cmpstr (json_again, ==, json);
}

/* The window keeps a few members only; the rest keep their defaults, and
 * a longest delay below the shortest is raised to it. */
static void
test_defaults (void)
{
  g_autoptr(CgCrawlConfig) defaults = cg_crawl_config_new ();
  g_autoptr(CgCrawlConfig) config = NULL;
  g_autoptr(GError) error = NULL;

  config = cg_crawl_config_from_json ("{\"seeds\": [\"http://127.0.0.1/\"], \"delay\": 40, "
                                      "\"sample_size\": 200, \"javascript\": true, \"contact\": null}",
                                      &error);
  g_assert_no_error (error);
  g_assert_cmpstr (config->seeds[0], ==, "http://127.0.0.1/");
  g_assert_null (config->seeds[1]);
  g_assert_cmpfloat (config->min_delay, ==, 40);
  g_assert_cmpfloat (config->max_delay, ==, MAX (defaults->max_delay, 40));
  g_assert_cmpuint (config->max_depth, ==, defaults->max_depth);
  g_assert_cmpint (config->obey_robots, ==, defaults->obey_robots);
  g_assert_cmpstr (config->contact, ==, defaults->contact);
  g_assert_cmpint (config->compression_level, ==, defaults->compression_level);
}

/* Settings from a damaged project: each is refused with a message that
 * names the member, and no GLib critical (which g_test_init() makes
 * fatal). */
static void
test_bad_members (void)
{
  const char *bad[][2] = {
    { "{\"seeds\": \"http://127.0.0.1/\"}", "“seeds” should be an array, not a string" },
    { "{\"seeds\": [{}]}", "item 1 of “seeds” should be a string, not an object" },
    { "{\"exclude\": [\"a\", 3]}", "item 2 of “exclude” should be a string, not a number" },
    { "{\"max_depth\": \"20\"}", "“max_depth” should be a whole number, not a string" },
    { "{\"max_depth\": -1}", "“max_depth” should be a whole number from 0 to 4294967295, not -1" },
    { "{\"connections\": 4294967296}", "“connections” should be a whole number from 0 to 4294967295" },
    { "{\"max_pages\": 2.5}", "“max_pages” should be a whole number from 0 to" },
    { "{\"cookies\": \"yes\"}", "“cookies” should be true or false, not a string" },
    { "{\"delay\": [1]}", "“delay” should be a number, not an array" },
    { "{\"max_delay\": true}", "“max_delay” should be a number, not true or false" },
    { "{\"user_agent\": 7}", "“user_agent” should be a string, not a number" },
    { "{\"javascript\": 1}", "“javascript” should be true or false, not a number" },
    { "{\"scope\": \"planet\"}", "“planet” is not a crawl scope" },
    { "{\"robots\": \"sometimes\"}", "“sometimes” is not a robots.txt policy" },
    { "{\"digest\": \"md5\"}", "“md5” is not a digest algorithm" },
    { "[]", "not a JSON object" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CgCrawlConfig) config = cg_crawl_config_from_json (bad[i][0], &error);

      g_assert_null (config);
      g_assert_error (error, CG_CRAWL_CONFIG_ERROR, CG_CRAWL_CONFIG_ERROR_INVALID);
      if (strstr (error->message, bad[i][1]) == NULL)
        g_error ("settings %s gave “%s”, expected “%s”", bad[i][0], error->message, bad[i][1]);
    }
  {
    g_autoptr(GError) error = NULL;

    g_assert_null (cg_crawl_config_from_json ("{\"seeds\": [", &error));
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "The crawl settings are not valid JSON"));
  }
}

/* A resumed crawl may take new limits and politeness; any other setting
 * decided what it queued and wrote, and a change is refused, named. */
static void
test_resume_change (void)
{
  g_autoptr(CgCrawlConfig) stored = cg_crawl_config_new ();
  g_autoptr(CgCrawlConfig) changed = NULL;
  g_autoptr(GError) error = NULL;

  g_strfreev (stored->seeds);
  stored->seeds = g_strsplit ("https://shop.example/", " ", -1);
  stored->max_pages = 100;

  changed = cg_crawl_config_copy (stored);
  g_assert_true (cg_crawl_config_check_resume_change (stored, changed, &error));
  g_assert_no_error (error);
  changed->max_pages = 5000;
  changed->max_bytes = 1 << 30;
  changed->max_duration = 3600;
  changed->min_delay = 4;
  changed->max_delay = 60;
  changed->delay_factor = 2;
  changed->max_per_host = 2;
  changed->max_connections = 4;
  changed->timeout = 90;
  g_free (changed->bandwidth);
  changed->bandwidth = g_strdup ("mon-fri 08:00-19:00 = 200K; * = 1M");
  g_assert_true (cg_crawl_config_check_resume_change (stored, changed, &error));
  g_assert_no_error (error);

  /* New politeness is checked as a new crawl's is. */
  changed->max_per_host = 8;
  g_assert_false (cg_crawl_config_check_resume_change (stored, changed, &error));
  g_assert_error (error, CG_CRAWL_CONFIG_ERROR, CG_CRAWL_CONFIG_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "Requests per host"));
  g_clear_error (&error);
  g_clear_pointer (&changed, cg_crawl_config_free);

#define REFUSED(change, name)                                                                    \
  G_STMT_START {                                                                                 \
    changed = cg_crawl_config_copy (stored);                                                     \
    change;                                                                                      \
    g_assert_false (cg_crawl_config_check_resume_change (stored, changed, &error));              \
    g_assert_error (error, CG_CRAWL_CONFIG_ERROR, CG_CRAWL_CONFIG_ERROR_INVALID);                 \
    g_assert_cmpstr (error->message, ==, "This setting of a crawl cannot change when it resumes " \
                                         "(only its limits and its politeness can): " name);      \
    g_clear_error (&error);                                                                      \
    g_clear_pointer (&changed, cg_crawl_config_free);                                            \
  } G_STMT_END

  REFUSED (g_strfreev (changed->seeds); changed->seeds = g_strsplit ("https://other.example/", " ", -1),
           "seed URLs");
  REFUSED (changed->scope_mode = CG_SCOPE_MODE_DOMAIN, "scope");
  REFUSED (g_strfreev (changed->include_regexes); changed->include_regexes = g_strsplit ("books", " ", -1),
           "include patterns");
  REFUSED (g_strfreev (changed->exclude_regexes); changed->exclude_regexes = g_strsplit ("cart", " ", -1),
           "exclude patterns");
  REFUSED (g_strfreev (changed->surt_prefixes); changed->surt_prefixes = g_strsplit ("org,example", " ", -1),
           "SURT prefixes");
  REFUSED (changed->max_depth = 3, "maximum depth");
  REFUSED (changed->requisites = !changed->requisites, "page requisites setting");
  REFUSED (changed->obey_robots = !changed->obey_robots, "robots.txt policy");
  REFUSED (changed->cookies = !changed->cookies, "cookies setting");
  REFUSED (g_free (changed->user_agent); changed->user_agent = g_strdup ("Other/1.0"), "User-Agent");
  REFUSED (g_free (changed->contact); changed->contact = g_strdup ("mailto:a@example.org"), "contact URL");
  REFUSED (changed->max_body_size = 1024, "maximum body size");
  REFUSED (g_free (changed->warc_prefix); changed->warc_prefix = g_strdup ("other"), "WARC prefix");
  REFUSED (changed->warc_max_size = 1 << 20, "WARC file size");
  REFUSED (changed->digest = CG_WARC_DIGEST_SHA256, "digest algorithm");
  REFUSED (changed->compression_level = 6, "compression level");
#undef REFUSED
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/crawl-config/round-trip", test_round_trip);
  g_test_add_func ("/crawl-config/defaults", test_defaults);
  g_test_add_func ("/crawl-config/bad-members", test_bad_members);
  g_test_add_func ("/crawl-config/resume-change", test_resume_change);
  return g_test_run ();
}
