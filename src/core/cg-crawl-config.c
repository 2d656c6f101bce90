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

char *
cg_crawl_config_to_json (const CgCrawlConfig *config)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

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

  root = json_builder_get_root (builder);
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

static GStrv
read_strv (JsonObject *object,
           const char *name)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonArray *array;

  if (!json_object_has_member (object, name) ||
      JSON_NODE_TYPE (json_object_get_member (object, name)) != JSON_NODE_ARRAY)
    return g_strv_builder_end (builder);
  array = json_object_get_array_member (object, name);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      const char *value = json_array_get_string_element (array, i);

      if (value != NULL)
        g_strv_builder_add (builder, value);
    }
  return g_strv_builder_end (builder);
}

/* Reads settings written by cg_crawl_config_to_json() or by hand (the
 * window stores a few keys only): missing keys keep their defaults, and a
 * key of the wrong type is an error that names it. */
CgCrawlConfig *
cg_crawl_config_from_json (const char  *json,
                           GError     **error)
{
  g_autoptr(CgCrawlConfig) config = cg_crawl_config_new ();
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  const char *text;

  root = cg_json_parse (json, -1, error);
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
  object = json_node_get_object (root);

  /* Every scalar member must have the type its default has. */
  {
    static const struct { const char *name; GType type; } types[] = {
      { "scope", G_TYPE_STRING }, { "robots", G_TYPE_STRING }, { "user_agent", G_TYPE_STRING },
      { "contact", G_TYPE_STRING }, { "bandwidth", G_TYPE_STRING }, { "warc_prefix", G_TYPE_STRING },
      { "digest", G_TYPE_STRING }, { "max_depth", G_TYPE_INT64 }, { "max_pages", G_TYPE_INT64 },
      { "max_bytes", G_TYPE_INT64 }, { "max_duration", G_TYPE_INT64 }, { "max_per_host", G_TYPE_INT64 },
      { "connections", G_TYPE_INT64 }, { "timeout", G_TYPE_INT64 }, { "max_body_size", G_TYPE_INT64 },
      { "warc_max_size", G_TYPE_INT64 }, { "compression_level", G_TYPE_INT64 }, { "sample_size", G_TYPE_INT64 },
      { "requisites", G_TYPE_BOOLEAN }, { "cookies", G_TYPE_BOOLEAN }, { "javascript", G_TYPE_BOOLEAN },
      { "delay", G_TYPE_DOUBLE }, { "delay_factor", G_TYPE_DOUBLE }, { "max_delay", G_TYPE_DOUBLE },
    };

    for (guint i = 0; i < G_N_ELEMENTS (types); i++)
      {
        JsonNode *node = json_object_get_member (object, types[i].name);
        GType type;

        if (node == NULL)
          continue;
        type = JSON_NODE_TYPE (node) == JSON_NODE_VALUE ? json_node_get_value_type (node) : G_TYPE_NONE;
        /* A whole number is a fine value for a setting in seconds. */
        if (type == types[i].type || (types[i].type == G_TYPE_DOUBLE && type == G_TYPE_INT64))
          continue;
        invalid (error, _("The crawl setting “%s” has a value of the wrong type"), types[i].name);
        return NULL;
      }
  }

  g_strfreev (config->seeds);
  config->seeds = read_strv (object, "seeds");
  g_strfreev (config->include_regexes);
  config->include_regexes = read_strv (object, "include");
  g_strfreev (config->exclude_regexes);
  config->exclude_regexes = read_strv (object, "exclude");
  g_strfreev (config->surt_prefixes);
  config->surt_prefixes = read_strv (object, "surt_prefixes");

  if ((text = json_object_get_string_member_with_default (object, "scope", NULL)) != NULL &&
      !cg_scope_mode_from_string (text, &config->scope_mode))
    {
      invalid (error, _("“%s” is not a crawl scope: use host, domain or prefix"), text);
      return NULL;
    }
  if ((text = json_object_get_string_member_with_default (object, "robots", NULL)) != NULL)
    {
      if (!g_str_equal (text, "obey") && !g_str_equal (text, "ignore"))
        {
          invalid (error, _("“%s” is not a robots.txt policy: use obey or ignore"), text);
          return NULL;
        }
      config->obey_robots = g_str_equal (text, "obey");
    }
  if ((text = json_object_get_string_member_with_default (object, "digest", NULL)) != NULL)
    {
      if (g_str_equal (text, "sha1"))
        config->digest = CG_WARC_DIGEST_SHA1;
      else if (g_str_equal (text, "sha256"))
        config->digest = CG_WARC_DIGEST_SHA256;
      else
        {
          invalid (error, _("“%s” is not a digest algorithm: use sha1 or sha256"), text);
          return NULL;
        }
    }

#define READ_INT(member, field, type) \
  if (json_object_has_member (object, member)) \
    { \
      gint64 value = json_object_get_int_member (object, member); \
      if (value < 0) \
        { \
          invalid (error, _("The crawl setting “%s” cannot be negative"), member); \
          return NULL; \
        } \
      config->field = (type) value; \
    }
  READ_INT ("max_depth", max_depth, guint)
  READ_INT ("max_pages", max_pages, guint64)
  READ_INT ("max_bytes", max_bytes, guint64)
  READ_INT ("max_duration", max_duration, guint64)
  READ_INT ("max_per_host", max_per_host, guint)
  READ_INT ("connections", max_connections, guint)
  READ_INT ("timeout", timeout, guint)
  READ_INT ("max_body_size", max_body_size, guint64)
  READ_INT ("warc_max_size", warc_max_size, guint64)
  READ_INT ("compression_level", compression_level, int)
#undef READ_INT

  config->requisites = json_object_get_boolean_member_with_default (object, "requisites", config->requisites);
  config->cookies = json_object_get_boolean_member_with_default (object, "cookies", config->cookies);
  config->min_delay = json_object_get_double_member_with_default (object, "delay", config->min_delay);
  config->delay_factor = json_object_get_double_member_with_default (object, "delay_factor", config->delay_factor);
  config->max_delay = json_object_get_double_member_with_default (object, "max_delay", MAX (config->max_delay, config->min_delay));

  if ((text = json_object_get_string_member_with_default (object, "user_agent", NULL)) != NULL)
    replace_string (&config->user_agent, text);
  if ((text = json_object_get_string_member_with_default (object, "contact", NULL)) != NULL)
    replace_string (&config->contact, text);
  if ((text = json_object_get_string_member_with_default (object, "bandwidth", NULL)) != NULL)
    replace_string (&config->bandwidth, text);
  if ((text = json_object_get_string_member_with_default (object, "warc_prefix", NULL)) != NULL)
    replace_string (&config->warc_prefix, text);

  return g_steal_pointer (&config);
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
  return g_string_free (text, FALSE);
}
