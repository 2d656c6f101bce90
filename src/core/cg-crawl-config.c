/* cg-crawl-config.c: the settings of one archival crawl.
 *
 * A crawl's settings are stored with it as JSON, so that `--resume` and
 * the window continue a crawl exactly as it was started, and they are
 * written into each WARC file's warcinfo record.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "cg-bandwidth.h"
#include "cg-crawl-config.h"
#include "cg-fetcher.h"
#include "cg-json.h"
#include "cg-url.h"
#include "cg-warc-writer.h"

G_DEFINE_BOXED_TYPE (CgCrawlConfig, cg_crawl_config, cg_crawl_config_copy, cg_crawl_config_free)
G_DEFINE_QUARK (cg-crawl-config-error-quark, cg_crawl_config_error)

static const char * const scope_mode_names[] = {
  [CG_SCOPE_MODE_HOST] = "host",
  [CG_SCOPE_MODE_DOMAIN] = "domain",
  [CG_SCOPE_MODE_SURT_PREFIX] = "prefix",
};

const char *
cg_scope_mode_to_string (CgScopeMode mode)
{
  return mode < G_N_ELEMENTS (scope_mode_names) ? scope_mode_names[mode] : "host";
}

gboolean
cg_scope_mode_from_string (const char  *text,
                           CgScopeMode *out_mode)
{
  for (guint i = 0; i < G_N_ELEMENTS (scope_mode_names); i++)
    if (g_strcmp0 (text, scope_mode_names[i]) == 0)
      {
        *out_mode = i;
        return TRUE;
      }
  return FALSE;
}

CgCrawlConfig *
cg_crawl_config_new (void)
{
  CgCrawlConfig *config = g_new0 (CgCrawlConfig, 1);

  config->seeds = g_new0 (char *, 1);
  config->include_regexes = g_new0 (char *, 1);
  config->exclude_regexes = g_new0 (char *, 1);
  config->surt_prefixes = g_new0 (char *, 1);
  config->scope_mode = CG_SCOPE_MODE_HOST;
  config->max_depth = CG_SCOPE_DEFAULT_MAX_DEPTH;
  config->requisites = TRUE;
  config->obey_robots = TRUE;
  config->min_delay = CG_CRAWL_DEFAULT_MIN_DELAY;
  config->delay_factor = CG_CRAWL_DEFAULT_DELAY_FACTOR;
  config->max_delay = CG_CRAWL_DEFAULT_MAX_DELAY;
  config->max_per_host = CG_CRAWL_DEFAULT_MAX_PER_HOST;
  config->max_connections = CG_CRAWL_DEFAULT_MAX_CONNECTIONS;
  config->bandwidth = g_strdup ("");
  config->warc_prefix = g_strdup (CG_CRAWL_DEFAULT_WARC_PREFIX);
  config->digest = CG_WARC_DEFAULT_DIGEST;
  config->compression_level = CG_WARC_WRITER_DEFAULT_COMPRESSION_LEVEL;
  return config;
}

CgCrawlConfig *
cg_crawl_config_copy (const CgCrawlConfig *config)
{
  CgCrawlConfig *copy = g_new (CgCrawlConfig, 1);

  *copy = *config;
  copy->seeds = g_strdupv (config->seeds);
  copy->include_regexes = g_strdupv (config->include_regexes);
  copy->exclude_regexes = g_strdupv (config->exclude_regexes);
  copy->surt_prefixes = g_strdupv (config->surt_prefixes);
  copy->user_agent = g_strdup (config->user_agent);
  copy->contact = g_strdup (config->contact);
  copy->bandwidth = g_strdup (config->bandwidth);
  copy->warc_prefix = g_strdup (config->warc_prefix);
  return copy;
}

void
cg_crawl_config_free (CgCrawlConfig *config)
{
  if (config == NULL)
    return;
  g_strfreev (config->seeds);
  g_strfreev (config->include_regexes);
  g_strfreev (config->exclude_regexes);
  g_strfreev (config->surt_prefixes);
  g_free (config->user_agent);
  g_free (config->contact);
  g_free (config->bandwidth);
  g_free (config->warc_prefix);
  g_free (config);
}

/* Turns politeness off, for crawls of one's own servers and benchmarks:
 * no delay between requests and as many per host as connections. */
void
cg_crawl_config_disable_politeness (CgCrawlConfig *config)
{
  config->min_delay = 0;
  config->delay_factor = 0;
  config->max_delay = 0;
  config->max_per_host = config->max_connections;
}

static gboolean
invalid (GError     **error,
         const char  *format,
         ...) G_GNUC_PRINTF (2, 3);

static gboolean
invalid (GError     **error,
         const char  *format,
         ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, CG_CRAWL_CONFIG_ERROR, CG_CRAWL_CONFIG_ERROR_INVALID, message);
  return FALSE;
}

/* The settings are stored as JSON and written into the warcinfo record,
 * both of which must be UTF-8: a setting that is not would make the crawl
 * fail once recorded, and its resume with it. */
static gboolean
check_text (const char  *setting,
            const char  *value,
            GError     **error)
{
  g_autofree char *shown = NULL;

  if (value == NULL || g_utf8_validate (value, -1, NULL))
    return TRUE;
  shown = g_utf8_make_valid (value, -1);
  return invalid (error, _("The %s “%s” is not UTF-8 text"), setting, shown);
}

static gboolean
check_texts (const char  *setting,
             GStrv        values,
             GError     **error)
{
  for (guint i = 0; values != NULL && values[i] != NULL; i++)
    if (!check_text (setting, values[i], error))
      return FALSE;
  return TRUE;
}

/**
 * cg_crawl_config_build_scope:
 *
 * The scope and limits @config describes: its seeds, SURT prefixes,
 * include and exclude regexes, depth, requisites and limits.
 */
CgScope *
cg_crawl_config_build_scope (const CgCrawlConfig  *config,
                             GError              **error)
{
  g_autoptr(CgScope) scope = cg_scope_new (config->scope_mode);

  for (guint i = 0; config->seeds != NULL && config->seeds[i] != NULL; i++)
    if (!cg_scope_add_seed (scope, config->seeds[i], error))
      return NULL;
  for (guint i = 0; config->surt_prefixes != NULL && config->surt_prefixes[i] != NULL; i++)
    if (!cg_scope_add_surt_prefix (scope, config->surt_prefixes[i], error))
      return NULL;
  for (guint i = 0; config->include_regexes != NULL && config->include_regexes[i] != NULL; i++)
    if (!cg_scope_add_include_regex (scope, config->include_regexes[i], error))
      return NULL;
  for (guint i = 0; config->exclude_regexes != NULL && config->exclude_regexes[i] != NULL; i++)
    if (!cg_scope_add_exclude_regex (scope, config->exclude_regexes[i], error))
      return NULL;
  cg_scope_set_max_depth (scope, config->max_depth);
  cg_scope_set_fetch_requisites (scope, config->requisites);
  cg_scope_set_max_pages (scope, config->max_pages);
  cg_scope_set_max_bytes (scope, config->max_bytes);
  cg_scope_set_max_duration (scope, config->max_duration);
  return g_steal_pointer (&scope);
}

static gboolean
same_texts (const char * const *a,
            const char * const *b)
{
  static const char * const none[] = { NULL };

  return g_strv_equal (a != NULL ? a : none, b != NULL ? b : none);
}

/**
 * cg_crawl_config_check_resume_change:
 * @stored: the settings a crawl ran with
 * @changed: the settings it is to resume with
 *
 * Whether a crawl may resume with @changed: only its limits (pages,
 * bytes, duration) and its politeness (delays, requests per host,
 * connections, bandwidth, timeout) may change. Everything else decided
 * what the crawl queued, skipped and wrote so far (its seeds and scope,
 * robots.txt, requisites, identity, WARC settings), and a change would
 * leave the crawl half one thing and half another: the error names the
 * first such setting that differs.
 */
gboolean
cg_crawl_config_check_resume_change (const CgCrawlConfig  *stored,
                                     const CgCrawlConfig  *changed,
                                     GError              **error)
{
  const char *fixed = NULL;

  g_return_val_if_fail (stored != NULL && changed != NULL, FALSE);

  /* Translators: the settings named in “This setting of a crawl cannot
   * change when it resumes…: %s”. */
  if (!same_texts ((const char * const *) stored->seeds, (const char * const *) changed->seeds))
    fixed = _("seed URLs");
  else if (stored->scope_mode != changed->scope_mode)
    fixed = _("scope");
  else if (!same_texts ((const char * const *) stored->include_regexes, (const char * const *) changed->include_regexes))
    fixed = _("include patterns");
  else if (!same_texts ((const char * const *) stored->exclude_regexes, (const char * const *) changed->exclude_regexes))
    fixed = _("exclude patterns");
  else if (!same_texts ((const char * const *) stored->surt_prefixes, (const char * const *) changed->surt_prefixes))
    fixed = _("SURT prefixes");
  /* URLs already found too deep were recorded as skipped: a new depth
   * would not bring them back. */
  else if (stored->max_depth != changed->max_depth)
    fixed = _("maximum depth");
  else if (stored->requisites != changed->requisites)
    fixed = _("page requisites setting");
  else if (stored->obey_robots != changed->obey_robots)
    fixed = _("robots.txt policy");
  else if (stored->cookies != changed->cookies)
    fixed = _("cookies setting");
  else if (g_strcmp0 (stored->user_agent, changed->user_agent) != 0)
    fixed = _("User-Agent");
  else if (g_strcmp0 (stored->contact, changed->contact) != 0)
    fixed = _("contact URL");
  else if (stored->max_body_size != changed->max_body_size)
    fixed = _("maximum body size");
  else if (g_strcmp0 (stored->warc_prefix, changed->warc_prefix) != 0)
    fixed = _("WARC prefix");
  else if (stored->warc_max_size != changed->warc_max_size)
    fixed = _("WARC file size");
  else if (stored->digest != changed->digest)
    fixed = _("digest algorithm");
  else if (stored->compression_level != changed->compression_level)
    fixed = _("compression level");
  if (fixed != NULL)
    /* Translators: %s is one of the settings above, standing alone. */
    return invalid (error, _("This setting of a crawl cannot change when it resumes (only its limits and its "
                             "politeness can): %s"),
                    fixed);
  return cg_crawl_config_validate (changed, error);
}

/* Checks everything that can be checked before the crawl starts, so that a
 * mistake is reported at once and names the setting, and a crawl that
 * could not run is never recorded. */
gboolean
cg_crawl_config_validate (const CgCrawlConfig  *config,
                          GError              **error)
{
  g_autoptr(CgBandwidth) bandwidth = cg_bandwidth_new ();
  g_autoptr(CgScope) scope = NULL;
  g_autoptr(GError) local_error = NULL;

  if (config->seeds == NULL || config->seeds[0] == NULL)
    return invalid (error, _("The crawl has no seed URL"));
  /* Translators: the setting named in “The %s “%s” is not UTF-8 text”. */
  if (!check_texts (_("seed URL"), config->seeds, error) ||
      !check_texts (_("include pattern"), config->include_regexes, error) ||
      !check_texts (_("exclude pattern"), config->exclude_regexes, error) ||
      !check_texts (_("SURT prefix"), config->surt_prefixes, error) ||
      !check_text (_("bandwidth schedule"), config->bandwidth, error) ||
      !check_text (_("WARC file prefix"), config->warc_prefix, error))
    return FALSE;
  if (!cg_fetcher_check_identity (config->user_agent, config->contact, error))
    return FALSE;
  for (guint i = 0; config->seeds[i] != NULL; i++)
    {
      g_autofree char *normal = cg_url_normalize (config->seeds[i], CG_URL_NORMALIZE_CRAWL, &local_error);

      if (normal == NULL)
        return invalid (error, _("Seed %u: %s"), i + 1, local_error->message);
    }
  /* The seeds are good URLs by now: what can fail here is a SURT prefix
   * or a regex, reported as the crawl would. */
  scope = cg_crawl_config_build_scope (config, error);
  if (scope == NULL)
    return FALSE;
  if (!cg_bandwidth_set_schedule (bandwidth, config->bandwidth, error))
    return FALSE;
  /* NaN passes every comparison, and infinity cannot be stored as JSON. */
  if (!isfinite (config->min_delay) || !isfinite (config->max_delay) || !isfinite (config->delay_factor))
    return invalid (error, _("Politeness delays must be finite numbers"));
  if (config->min_delay < 0 || config->max_delay < 0 || config->delay_factor < 0)
    return invalid (error, _("Politeness delays cannot be negative"));
  if (config->max_delay < config->min_delay)
    return invalid (error, _("The maximum delay (%.1f s) is shorter than the minimum delay (%.1f s)"),
                    config->max_delay, config->min_delay);
  if (config->max_connections == 0 || config->max_connections > CG_CRAWL_MAX_CONNECTIONS_LIMIT)
    return invalid (error, _("The number of connections must be between 1 and %d, not %u"),
                    CG_CRAWL_MAX_CONNECTIONS_LIMIT, config->max_connections);
  if (config->max_per_host == 0 || config->max_per_host > config->max_connections)
    return invalid (error, _("Requests per host must be between 1 and the number of connections (%u), not %u"),
                    config->max_connections, config->max_per_host);
  if (config->warc_prefix == NULL || *config->warc_prefix == '\0' ||
      strpbrk (config->warc_prefix, "/\\ \t\n") != NULL)
    return invalid (error, _("“%s” cannot name WARC files: use letters, digits, dots and dashes"),
                    config->warc_prefix != NULL ? config->warc_prefix : "");
  if (config->compression_level < 0 || config->compression_level > CG_WARC_WRITER_MAX_COMPRESSION_LEVEL)
    return invalid (error, _("The compression level must be between 0 and %d, not %d"),
                    CG_WARC_WRITER_MAX_COMPRESSION_LEVEL, config->compression_level);
  return TRUE;
}

static void
add_string (JsonBuilder *builder,
            const char  *name,
            const char  *value)
{
  if (value == NULL)
    return;
  json_builder_set_member_name (builder, name);
  json_builder_add_string_value (builder, value);
}

static void
add_int (JsonBuilder *builder,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

static void
add_double (JsonBuilder *builder,
            const char  *name,
            double       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_double_value (builder, value);
}

static void
add_bool (JsonBuilder *builder,
          const char  *name,
          gboolean     value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_boolean_value (builder, value);
}

/* The settings as a JSON object, for documents that hold them among
 * other members (a harvest's options and state). */
JsonNode *
cg_crawl_config_to_json_node (const CgCrawlConfig *config)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  cg_json_add_strv (builder, "seeds", config->seeds);
  add_string (builder, "scope", cg_scope_mode_to_string (config->scope_mode));
  cg_json_add_strv (builder, "include", config->include_regexes);
  cg_json_add_strv (builder, "exclude", config->exclude_regexes);
  cg_json_add_strv (builder, "surt_prefixes", config->surt_prefixes);
  add_int (builder, "max_depth", config->max_depth);
  add_int (builder, "max_pages", (gint64) config->max_pages);
  add_int (builder, "max_bytes", (gint64) config->max_bytes);
  add_int (builder, "max_duration", (gint64) config->max_duration);
  add_bool (builder, "requisites", config->requisites);
  add_string (builder, "robots", config->obey_robots ? "obey" : "ignore");
  add_bool (builder, "cookies", config->cookies);
  add_string (builder, "user_agent", config->user_agent);
  add_string (builder, "contact", config->contact);
  add_double (builder, "delay", config->min_delay);
  add_double (builder, "delay_factor", config->delay_factor);
  add_double (builder, "max_delay", config->max_delay);
  add_int (builder, "max_per_host", config->max_per_host);
  add_int (builder, "connections", config->max_connections);
  add_string (builder, "bandwidth", config->bandwidth);
  add_int (builder, "timeout", config->timeout);
  add_int (builder, "max_body_size", (gint64) config->max_body_size);
  add_string (builder, "warc_prefix", config->warc_prefix);
  add_int (builder, "warc_max_size", (gint64) config->warc_max_size);
  add_string (builder, "digest", cg_warc_digest_algorithm_get_label (config->digest));
  add_int (builder, "compression_level", config->compression_level);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

char *
cg_crawl_config_to_json (const CgCrawlConfig *config)
{
  g_autoptr(JsonNode) root = cg_crawl_config_to_json_node (config);

  return json_to_string (root, FALSE);
}

/* g_set_str() arrives in GLib 2.76; Debian 12 has 2.74. */
static void
replace_string (char       **field,
                const char  *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

/* Reads the string @name into *@field, which keeps its value when the
 * member is missing or null. */
static gboolean
read_string (JsonObject  *object,
             const char  *where,
             const char  *name,
             char       **field,
             GError     **error)
{
  const char *value = NULL;

  if (!cg_json_read_string (object, where, name, &value, error))
    return FALSE;
  if (value != NULL)
    replace_string (field, value);
  return TRUE;
}

/* Reads the count @name, from 0 to @max, into *@field (a guint when
 * @max is G_MAXUINT, else a guint64). */
static gboolean
read_count (JsonObject  *object,
            const char  *where,
            const char  *name,
            gint64       max,
            gpointer     field,
            GError     **error)
{
  gint64 value = -1;

  if (!cg_json_read_int (object, where, name, 0, max, &value, error))
    return FALSE;
  if (value < 0)
    return TRUE;
  if (max == G_MAXUINT)
    *(guint *) field = (guint) value;
  else
    *(guint64 *) field = (guint64) value;
  return TRUE;
}

/* Reads settings written by cg_crawl_config_to_json() or by hand (the
 * window stores a few keys only): missing keys keep their defaults, and a
 * key of the wrong type or out of range is an error that names it. */
CgCrawlConfig *
cg_crawl_config_from_json (const char  *json,
                           GError     **error)
{
  g_autoptr(JsonNode) root = cg_json_parse (json, -1, error);

  if (root == NULL)
    {
      g_prefix_error (error, _("The crawl settings are not valid JSON: "));
      return NULL;
    }
  if (JSON_NODE_TYPE (root) != JSON_NODE_OBJECT)
    {
      invalid (error, _("The crawl settings are not a JSON object"));
      return NULL;
    }
  return cg_crawl_config_from_json_object (json_node_get_object (root), error);
}

/* As cg_crawl_config_from_json(), from the object that holds them. */
CgCrawlConfig *
cg_crawl_config_from_json_object (JsonObject  *object,
                                  GError     **error)
{
  g_autoptr(CgCrawlConfig) config = cg_crawl_config_new ();
  g_autoptr(GError) local_error = NULL;
  const char *where = _("The crawl settings");
  const char *scope = NULL, *robots = NULL, *digest = NULL;
  gint64 compression_level = config->compression_level, sample_size = 0;
  gboolean javascript = FALSE;

  if (!cg_json_read_strv (object, where, "seeds", &config->seeds, &local_error) ||
      !cg_json_read_strv (object, where, "include", &config->include_regexes, &local_error) ||
      !cg_json_read_strv (object, where, "exclude", &config->exclude_regexes, &local_error) ||
      !cg_json_read_strv (object, where, "surt_prefixes", &config->surt_prefixes, &local_error) ||
      !cg_json_read_string (object, where, "scope", &scope, &local_error) ||
      !cg_json_read_string (object, where, "robots", &robots, &local_error) ||
      !cg_json_read_string (object, where, "digest", &digest, &local_error) ||
      !read_count (object, where, "max_depth", G_MAXUINT, &config->max_depth, &local_error) ||
      !read_count (object, where, "max_pages", G_MAXINT64, &config->max_pages, &local_error) ||
      !read_count (object, where, "max_bytes", G_MAXINT64, &config->max_bytes, &local_error) ||
      !read_count (object, where, "max_duration", G_MAXINT64, &config->max_duration, &local_error) ||
      !read_count (object, where, "max_per_host", G_MAXUINT, &config->max_per_host, &local_error) ||
      !read_count (object, where, "connections", G_MAXUINT, &config->max_connections, &local_error) ||
      !read_count (object, where, "timeout", G_MAXUINT, &config->timeout, &local_error) ||
      !read_count (object, where, "max_body_size", G_MAXINT64, &config->max_body_size, &local_error) ||
      !read_count (object, where, "warc_max_size", G_MAXINT64, &config->warc_max_size, &local_error) ||
      !cg_json_read_int (object, where, "compression_level", 0, G_MAXINT, &compression_level, &local_error) ||
      !cg_json_read_boolean (object, where, "requisites", &config->requisites, &local_error) ||
      !cg_json_read_boolean (object, where, "cookies", &config->cookies, &local_error) ||
      !cg_json_read_double (object, where, "delay", &config->min_delay, &local_error) ||
      !cg_json_read_double (object, where, "delay_factor", &config->delay_factor, &local_error) ||
      !read_string (object, where, "user_agent", &config->user_agent, &local_error) ||
      !read_string (object, where, "contact", &config->contact, &local_error) ||
      !read_string (object, where, "bandwidth", &config->bandwidth, &local_error) ||
      !read_string (object, where, "warc_prefix", &config->warc_prefix, &local_error) ||
      /* What the window keeps with the settings of an exploration (see
       * cg-project-page.c) is checked too. */
      !cg_json_read_int (object, where, "sample_size", 0, G_MAXINT, &sample_size, &local_error) ||
      !cg_json_read_boolean (object, where, "javascript", &javascript, &local_error))
    {
      g_set_error_literal (error, CG_CRAWL_CONFIG_ERROR, CG_CRAWL_CONFIG_ERROR_INVALID, local_error->message);
      return NULL;
    }
  config->compression_level = (int) compression_level;
  /* A longest delay shorter than the shortest would be no delay range. */
  config->max_delay = MAX (config->max_delay, config->min_delay);
  if (!cg_json_read_double (object, where, "max_delay", &config->max_delay, &local_error))
    {
      g_set_error_literal (error, CG_CRAWL_CONFIG_ERROR, CG_CRAWL_CONFIG_ERROR_INVALID, local_error->message);
      return NULL;
    }

  if (scope != NULL && !cg_scope_mode_from_string (scope, &config->scope_mode))
    {
      invalid (error, _("“%s” is not a crawl scope: use host, domain or prefix"), scope);
      return NULL;
    }
  if (robots != NULL)
    {
      if (!g_str_equal (robots, "obey") && !g_str_equal (robots, "ignore"))
        {
          invalid (error, _("“%s” is not a robots.txt policy: use obey or ignore"), robots);
          return NULL;
        }
      config->obey_robots = g_str_equal (robots, "obey");
    }
  if (digest != NULL)
    {
      if (g_str_equal (digest, "sha1"))
        config->digest = CG_WARC_DIGEST_SHA1;
      else if (g_str_equal (digest, "sha256"))
        config->digest = CG_WARC_DIGEST_SHA256;
      else
        {
          invalid (error, _("“%s” is not a digest algorithm: use sha1 or sha256"), digest);
          return NULL;
        }
    }
  return g_steal_pointer (&config);
}

CgCrawlConfig *
cg_crawl_config_from_json_with_seed (const char  *json,
                                     const char  *seed,
                                     GError     **error)
{
  CgCrawlConfig *config = cg_crawl_config_from_json (json, error);

  if (config == NULL)
    return NULL;
  g_strfreev (config->seeds);
  config->seeds = g_new0 (char *, 2);
  config->seeds[0] = g_strdup (seed);
  return config;
}

/* The settings as "name: value" lines for the warcinfo record, so that
 * every WARC file says how it was made. */
char *
cg_crawl_config_to_warcinfo (const CgCrawlConfig *config)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; config->seeds[i] != NULL; i++)
    g_string_append_printf (text, "seed: %s\n", config->seeds[i]);
  g_string_append_printf (text, "scope: %s\n", cg_scope_mode_to_string (config->scope_mode));
  for (guint i = 0; config->include_regexes[i] != NULL; i++)
    g_string_append_printf (text, "include: %s\n", config->include_regexes[i]);
  for (guint i = 0; config->exclude_regexes[i] != NULL; i++)
    g_string_append_printf (text, "exclude: %s\n", config->exclude_regexes[i]);
  g_string_append_printf (text, "max-depth: %u\n", config->max_depth);
  if (config->max_pages > 0)
    g_string_append_printf (text, "max-pages: %" G_GUINT64_FORMAT "\n", config->max_pages);
  if (config->max_bytes > 0)
    g_string_append_printf (text, "max-bytes: %" G_GUINT64_FORMAT "\n", config->max_bytes);
  if (config->max_duration > 0)
    g_string_append_printf (text, "max-duration: %" G_GUINT64_FORMAT "\n", config->max_duration);
  g_string_append_printf (text, "page-requisites: %s\n", config->requisites ? "yes" : "no");
  g_string_append_printf (text, "cookies: %s\n", config->cookies ? "yes" : "no");
  g_string_append_printf (text, "politeness: min-delay %.3g s, delay-factor %.3g, max-delay %.3g s, "
                                "%u per host, %u connections\n",
                          config->min_delay, config->delay_factor, config->max_delay,
                          config->max_per_host, config->max_connections);
  if (config->bandwidth != NULL && *config->bandwidth != '\0')
    g_string_append_printf (text, "bandwidth: %s\n", config->bandwidth);
  /* libsoup gives the headers it parsed, not the bytes that came: a
   * reader comparing the archive with the wire is told how they differ. */
  g_string_append (text, "http-headers: rebuilt from the parsed headers (common names in their usual case, "
                         "values trimmed, common headers first); Transfer-Encoding kept as "
                         "X-Archive-Orig-Transfer-Encoding over the de-chunked body\n");
  return g_string_free (text, FALSE);
}
