/* cg-scope.c: which URLs a crawl may fetch, spider-trap guards, and the
 * crawl's page, byte and time limits.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <libsoup/soup.h>

#include "cg-scope.h"
#include "cg-url.h"

struct _CgScope
{
  gatomicrefcount  ref_count;
  CgScopeMode      mode;

  GHashTable      *hosts;            /* seed hosts without "www." */
  GHashTable      *domains;          /* registrable domains of the seeds */
  GPtrArray       *surt_prefixes;    /* of char * */
  GPtrArray       *includes;         /* of GRegex */
  GPtrArray       *excludes;         /* of GRegex */

  guint            max_depth;
  gboolean         fetch_requisites;
  CgScopeTraps     traps;

  /* "host:port/path" → set of the distinct queries accepted on it, kept
   * only up to traps.max_query_variants entries each. */
  GHashTable      *query_variants;

  guint64          max_pages;
  guint64          max_bytes;
  guint64          max_seconds;
  guint64          pages;
  guint64          bytes;
  gint64           start_us;
  gboolean         clock_started;
};

G_DEFINE_BOXED_TYPE (CgScope, cg_scope, cg_scope_ref, cg_scope_unref)
G_DEFINE_QUARK (cg-scope-error-quark, cg_scope_error)

CgScope *
cg_scope_new (CgScopeMode mode)
{
  CgScope *self = g_new0 (CgScope, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->mode = mode;
  self->hosts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->domains = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->surt_prefixes = g_ptr_array_new_with_free_func (g_free);
  self->includes = g_ptr_array_new_with_free_func ((GDestroyNotify) g_regex_unref);
  self->excludes = g_ptr_array_new_with_free_func ((GDestroyNotify) g_regex_unref);
  self->max_depth = CG_SCOPE_DEFAULT_MAX_DEPTH;
  self->fetch_requisites = TRUE;
  self->traps.max_url_length = CG_SCOPE_DEFAULT_MAX_URL_LENGTH;
  self->traps.max_path_segments = CG_SCOPE_DEFAULT_MAX_PATH_SEGMENTS;
  self->traps.max_segment_repeats = CG_SCOPE_DEFAULT_MAX_SEGMENT_REPEATS;
  self->traps.max_query_params = CG_SCOPE_DEFAULT_MAX_QUERY_PARAMS;
  self->traps.max_query_variants = CG_SCOPE_DEFAULT_MAX_QUERY_VARIANTS;
  self->query_variants = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                (GDestroyNotify) g_hash_table_unref);
  return self;
}

CgScope *
cg_scope_ref (CgScope *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
cg_scope_unref (CgScope *self)
{
  g_return_if_fail (self != NULL);

  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_hash_table_unref (self->hosts);
      g_hash_table_unref (self->domains);
      g_ptr_array_unref (self->surt_prefixes);
      g_ptr_array_unref (self->includes);
      g_ptr_array_unref (self->excludes);
      g_hash_table_unref (self->query_variants);
      g_free (self);
    }
}

CgScopeMode
cg_scope_get_mode (CgScope *self)
{
  g_return_val_if_fail (self != NULL, CG_SCOPE_MODE_HOST);

  return self->mode;
}

/* Sites answer on "example.org" and "www.example.org" alike and redirect
 * one to the other; a host scope that told them apart would lose the
 * site at its first redirect. */
static const char *
skip_www (const char *host)
{
  const char *p = host;

  if (strncmp (p, "www", 3) != 0)
    return host;
  p += 3;
  while (g_ascii_isdigit (*p))
    p++;
  if (*p != '.' || strchr (p + 1, '.') == NULL)
    return host;
  return p + 1;
}

/* The registrable domain ("example.co.uk" for "a.b.example.co.uk") from
 * the Public Suffix List, which libsoup reads through libpsl. An IP
 * address or "localhost" is its own domain; a name under a suffix the list
 * does not know is taken to sit under a one-label suffix, the list's own
 * default rule. */
static char *
registrable_domain (const char *host)
{
  const char *base;
  const char *last_dot;

  if (g_hostname_is_ip_address (host))
    return g_strdup (host);
  base = soup_tld_get_base_domain (host, NULL);
  if (base != NULL)
    return g_strdup (base);

  last_dot = strrchr (host, '.');
  if (last_dot == NULL || soup_tld_domain_is_public_suffix (host))
    return g_strdup (host);
  for (const char *p = last_dot - 1; p >= host; p--)
    if (*p == '.')
      return g_strdup (p + 1);
  return g_strdup (host);
}

gboolean
cg_scope_add_seed (CgScope     *self,
                   const char  *url,
                   GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GUri) uri = NULL;
  g_autofree char *prefix = NULL;
  const char *host;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (url != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  uri = cg_url_parse (url, CG_URL_NORMALIZE_CRAWL, &local_error);
  if (uri == NULL)
    {
      g_set_error (error, CG_SCOPE_ERROR, CG_SCOPE_ERROR_BAD_SEED,
                   _("Cannot use the seed: %s"), local_error->message);
      return FALSE;
    }

  host = g_uri_get_host (uri);
  g_hash_table_add (self->hosts, g_strdup (skip_www (host)));
  g_hash_table_add (self->domains, registrable_domain (host));
  prefix = cg_url_surt_prefix_for_url (url, NULL);
  if (prefix != NULL)
    g_ptr_array_add (self->surt_prefixes, g_steal_pointer (&prefix));
  return TRUE;
}

gboolean
cg_scope_add_surt_prefix (CgScope     *self,
                          const char  *prefix,
                          GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  char *surt;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (prefix != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (strchr (prefix, '(') != NULL)
    surt = g_ascii_strdown (prefix, -1);
  else if (strstr (prefix, "://") != NULL)
    surt = cg_url_surt_prefix_for_url (prefix, &local_error);
  else
    surt = cg_url_surt_prefix_for_domain (prefix, &local_error);

  if (surt == NULL)
    {
      g_set_error (error, CG_SCOPE_ERROR, CG_SCOPE_ERROR_BAD_PREFIX,
                   _("Cannot use the SURT prefix “%s”: %s"), prefix, local_error->message);
      return FALSE;
    }
  g_ptr_array_add (self->surt_prefixes, surt);
  return TRUE;
}

static gboolean
add_regex (GPtrArray   *list,
           const char  *pattern,
           gboolean     is_include,
           GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  GRegex *regex = g_regex_new (pattern, G_REGEX_OPTIMIZE, 0, &local_error);

  if (regex == NULL)
    {
      if (is_include)
        g_set_error (error, CG_SCOPE_ERROR, CG_SCOPE_ERROR_BAD_REGEX,
                     _("The include pattern “%s” is not a valid regular expression: %s"),
                     pattern, local_error->message);
      else
        g_set_error (error, CG_SCOPE_ERROR, CG_SCOPE_ERROR_BAD_REGEX,
                     _("The exclude pattern “%s” is not a valid regular expression: %s"),
                     pattern, local_error->message);
      return FALSE;
    }
  g_ptr_array_add (list, regex);
  return TRUE;
}

gboolean
cg_scope_add_exclude_regex (CgScope     *self,
                            const char  *pattern,
                            GError     **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (pattern != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return add_regex (self->excludes, pattern, FALSE, error);
}

gboolean
cg_scope_add_include_regex (CgScope     *self,
                            const char  *pattern,
                            GError     **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (pattern != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return add_regex (self->includes, pattern, TRUE, error);
}

void
cg_scope_set_max_depth (CgScope *self,
                        guint    max_depth)
{
  g_return_if_fail (self != NULL);

  self->max_depth = max_depth;
}

guint
cg_scope_get_max_depth (CgScope *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->max_depth;
}

void
cg_scope_set_fetch_requisites (CgScope  *self,
                               gboolean  fetch)
{
  g_return_if_fail (self != NULL);

  self->fetch_requisites = !!fetch;
}

gboolean
cg_scope_get_fetch_requisites (CgScope *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->fetch_requisites;
}

void
cg_scope_get_traps (CgScope      *self,
                    CgScopeTraps *out_traps)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (out_traps != NULL);

  *out_traps = self->traps;
}

void
cg_scope_set_traps (CgScope            *self,
                    const CgScopeTraps *traps)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (traps != NULL);

  self->traps = *traps;
}

static const char *
first_matching (GPtrArray  *regexes,
                const char *url)
{
  for (guint i = 0; i < regexes->len; i++)
    if (g_regex_match (regexes->pdata[i], url, 0, NULL))
      return g_regex_get_pattern (regexes->pdata[i]);
  return NULL;
}

static CgScopeVerdict
check_mode (CgScope     *self,
            GUri        *uri,
            const char  *url,
            char       **out_detail)
{
  const char *host = g_uri_get_host (uri);

  switch (self->mode)
    {
    case CG_SCOPE_MODE_HOST:
      if (g_hash_table_contains (self->hosts, skip_www (host)))
        return CG_SCOPE_IN_SCOPE;
      *out_detail = g_strdup (host);
      return CG_SCOPE_OFF_HOST;

    case CG_SCOPE_MODE_DOMAIN:
      {
        g_autofree char *domain = registrable_domain (host);

        if (g_hash_table_contains (self->domains, domain))
          return CG_SCOPE_IN_SCOPE;
        *out_detail = g_steal_pointer (&domain);
        return CG_SCOPE_OFF_DOMAIN;
      }

    case CG_SCOPE_MODE_SURT_PREFIX:
    default:
      {
        g_autofree char *surt = cg_url_to_surt (url, NULL);

        for (guint i = 0; surt != NULL && i < self->surt_prefixes->len; i++)
          if (cg_url_surt_has_prefix (surt, self->surt_prefixes->pdata[i]))
            return CG_SCOPE_IN_SCOPE;
        *out_detail = g_steal_pointer (&surt);
        return CG_SCOPE_OFF_SURT_PREFIX;
      }
    }
}

/* Finds a run of path segments repeated more than @max_repeats times in a
 * row, with a period of 1 to CG_SCOPE_MAX_REPEAT_PERIOD segments: a
 * relative link that resolves one level deeper on every page ("/a/b/a/b/
 * a/b/") is the commonest trap there is. Comparing each segment with the
 * one @period places on finds such runs in linear time per period. */
static gboolean
has_repeated_segments (const char  *path,
                       guint        max_repeats,
                       char       **out_detail)
{
  g_auto(GStrv) segments = g_strsplit (path[0] == '/' ? path + 1 : path, "/", -1);
  guint n = g_strv_length (segments);

  for (guint period = 1; period <= CG_SCOPE_MAX_REPEAT_PERIOD && period < n; period++)
    {
      guint streak = 0;

      for (guint i = 0; i + period < n; i++)
        {
          if (!g_str_equal (segments[i], segments[i + period]))
            {
              streak = 0;
              continue;
            }
          streak++;
          /* A streak of k × period equal pairs means k + 1 copies. */
          if (streak >= period * max_repeats)
            {
              guint start = i + 1 - streak;
              g_autofree char *run = NULL;
              char *saved = segments[start + period];

              segments[start + period] = NULL;
              run = g_strjoinv ("/", segments + start);
              segments[start + period] = saved;
              *out_detail = g_strdup_printf ("“%s” × %u", run, streak / period + 1);
              return TRUE;
            }
        }
    }
  return FALSE;
}

static guint
count_params (const char *query)
{
  guint n = 0;
  const char *p = query;

  while (*p != '\0')
    {
      const char *amp = strchr (p, '&');
      gsize length = amp != NULL ? (gsize) (amp - p) : strlen (p);

      if (length > 0)
        n++;
      p += length;
      if (*p == '&')
        p++;
    }
  return n;
}

static CgScopeVerdict
check_traps (CgScope     *self,
             GUri        *uri,
             char       **out_detail)
{
  const char *path = g_uri_get_path (uri);
  const char *query = g_uri_get_query (uri);
  guint segments = 0;

  for (const char *p = path; *p != '\0'; p++)
    if (*p == '/')
      segments++;
  if (self->traps.max_path_segments > 0 && segments > self->traps.max_path_segments)
    {
      *out_detail = g_strdup_printf ("%u > %u", segments, self->traps.max_path_segments);
      return CG_SCOPE_TRAP_TOO_MANY_SEGMENTS;
    }

  if (self->traps.max_segment_repeats > 0 &&
      has_repeated_segments (path, self->traps.max_segment_repeats, out_detail))
    return CG_SCOPE_TRAP_REPEATED_SEGMENTS;

  if (query != NULL && self->traps.max_query_params > 0)
    {
      guint n = count_params (query);

      if (n > self->traps.max_query_params)
        {
          *out_detail = g_strdup_printf ("%u > %u", n, self->traps.max_query_params);
          return CG_SCOPE_TRAP_TOO_MANY_PARAMS;
        }
    }

  if (query != NULL && self->traps.max_query_variants > 0)
    {
      int port = g_uri_get_port (uri);
      g_autofree char *key = g_strdup_printf ("%s:%d%s", g_uri_get_host (uri), port, path);
      GHashTable *seen = g_hash_table_lookup (self->query_variants, key);

      if (seen == NULL)
        {
          seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
          g_hash_table_insert (self->query_variants, g_strdup (key), seen);
        }
      if (!g_hash_table_contains (seen, query))
        {
          if (g_hash_table_size (seen) >= self->traps.max_query_variants)
            {
              *out_detail = g_strdup_printf ("%s %u", key, self->traps.max_query_variants);
              return CG_SCOPE_TRAP_QUERY_VARIANTS;
            }
          g_hash_table_add (seen, g_strdup (query));
        }
    }

  return CG_SCOPE_IN_SCOPE;
}

static gboolean
is_requisite_hop (CgHopType hop)
{
  return hop == CG_HOP_EMBED || hop == CG_HOP_SPECULATIVE;
}

static CgScopeVerdict
decide (CgScope     *self,
        GUri        *uri,
        guint        depth,
        CgHopType    hop,
        char       **out_detail)
{
  g_autofree char *normalized = g_uri_to_string (uri);
  gboolean requisite = is_requisite_hop (hop);
  gsize length = strlen (normalized);
  const char *pattern;
  CgScopeVerdict verdict;

  if (self->traps.max_url_length > 0 && length > self->traps.max_url_length)
    {
      *out_detail = g_strdup_printf ("%" G_GSIZE_FORMAT " > %u", length, self->traps.max_url_length);
      return CG_SCOPE_TRAP_URL_TOO_LONG;
    }

  pattern = first_matching (self->excludes, normalized);
  if (pattern != NULL)
    {
      *out_detail = g_strdup (pattern);
      return CG_SCOPE_EXCLUDED_BY_REGEX;
    }

  /* Prerequisites (robots.txt) go wherever the crawl already goes. */
  if (hop == CG_HOP_PREREQUISITE)
    return CG_SCOPE_IN_SCOPE;

  if (requisite)
    {
      /* Requisites come from any host (CDNs), so that the page replays,
       * and may go a little past the depth limit. */
      if (!self->fetch_requisites)
        return CG_SCOPE_REQUISITES_OFF;
      if (depth > (guint64) self->max_depth + CG_SCOPE_MAX_REQUISITE_HOPS)
        {
          *out_detail = g_strdup_printf ("%u > %u + %u", depth, self->max_depth,
                                         CG_SCOPE_MAX_REQUISITE_HOPS);
          return CG_SCOPE_TOO_DEEP;
        }
    }
  else
    {
      if (depth > self->max_depth)
        {
          *out_detail = g_strdup_printf ("%u > %u", depth, self->max_depth);
          return CG_SCOPE_TOO_DEEP;
        }
      verdict = check_mode (self, uri, normalized, out_detail);
      if (verdict != CG_SCOPE_IN_SCOPE)
        return verdict;
      if (self->includes->len > 0 && first_matching (self->includes, normalized) == NULL)
        return CG_SCOPE_NOT_INCLUDED;
    }

  return check_traps (self, uri, out_detail);
}

CgScopeVerdict
cg_scope_check (CgScope     *self,
                const char  *url,
                guint        depth,
                CgHopType    hop,
                char       **out_detail)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GUri) uri = NULL;
  g_autofree char *detail = NULL;
  CgScopeVerdict verdict;

  g_return_val_if_fail (self != NULL, CG_SCOPE_INVALID_URL);
  g_return_val_if_fail (url != NULL, CG_SCOPE_INVALID_URL);

  if (out_detail != NULL)
    *out_detail = NULL;

  uri = cg_url_parse (url, CG_URL_NORMALIZE_CRAWL, &error);
  if (uri == NULL)
    {
      if (out_detail != NULL)
        *out_detail = g_strdup (error->message);
      return CG_SCOPE_INVALID_URL;
    }
  if (hop == CG_HOP_SEED)
    return CG_SCOPE_IN_SCOPE;

  verdict = decide (self, uri, depth, hop, &detail);
  if (out_detail != NULL && verdict != CG_SCOPE_IN_SCOPE)
    *out_detail = g_steal_pointer (&detail);
  return verdict;
}

/* ---- limits ------------------------------------------------------------- */

void
cg_scope_set_max_pages (CgScope *self,
                        guint64  max_pages)
{
  g_return_if_fail (self != NULL);

  self->max_pages = max_pages;
}

void
cg_scope_set_max_bytes (CgScope *self,
                        guint64  max_bytes)
{
  g_return_if_fail (self != NULL);

  self->max_bytes = max_bytes;
}

void
cg_scope_set_max_duration (CgScope *self,
                           guint64  max_seconds)
{
  g_return_if_fail (self != NULL);

  self->max_seconds = max_seconds;
}

void
cg_scope_start_clock (CgScope *self,
                      gint64   start_us)
{
  g_return_if_fail (self != NULL);

  self->start_us = start_us;
  self->clock_started = TRUE;
}

void
cg_scope_record_fetch (CgScope  *self,
                       guint64   bytes,
                       gboolean  is_page)
{
  g_return_if_fail (self != NULL);

  self->bytes += bytes;
  if (is_page)
    self->pages++;
}

void
cg_scope_set_counters (CgScope *self,
                       guint64  pages,
                       guint64  bytes)
{
  g_return_if_fail (self != NULL);

  self->pages = pages;
  self->bytes = bytes;
}

guint64
cg_scope_get_pages (CgScope *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->pages;
}

guint64
cg_scope_get_bytes (CgScope *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->bytes;
}

CgScopeVerdict
cg_scope_check_limits (CgScope *self,
                       gint64   now_us)
{
  g_return_val_if_fail (self != NULL, CG_SCOPE_LIMIT_PAGES);

  if (!self->clock_started)
    cg_scope_start_clock (self, now_us);

  if (self->max_pages > 0 && self->pages >= self->max_pages)
    return CG_SCOPE_LIMIT_PAGES;
  if (self->max_bytes > 0 && self->bytes >= self->max_bytes)
    return CG_SCOPE_LIMIT_BYTES;
  if (self->max_seconds > 0 && now_us - self->start_us >= (gint64) self->max_seconds * G_USEC_PER_SEC)
    return CG_SCOPE_LIMIT_DURATION;
  return CG_SCOPE_IN_SCOPE;
}

static const struct {
  const char *token;
  const char *description;
} verdicts[] = {
  [CG_SCOPE_IN_SCOPE] = { "in-scope", N_("In scope") },
  [CG_SCOPE_INVALID_URL] = { "invalid-url", N_("Not a crawlable URL") },
  [CG_SCOPE_OFF_HOST] = { "off-host", N_("On another host than the seeds") },
  [CG_SCOPE_OFF_DOMAIN] = { "off-domain", N_("In another domain than the seeds") },
  [CG_SCOPE_OFF_SURT_PREFIX] = { "off-surt-prefix", N_("Outside the SURT prefixes of the crawl") },
  [CG_SCOPE_EXCLUDED_BY_REGEX] = { "excluded-by-regex", N_("Matches an exclude pattern") },
  [CG_SCOPE_NOT_INCLUDED] = { "not-included", N_("Matches none of the include patterns") },
  [CG_SCOPE_TOO_DEEP] = { "too-deep", N_("Too many links away from the seed") },
  [CG_SCOPE_REQUISITES_OFF] = { "requisites-off", N_("A page requisite, and requisites are not fetched") },
  [CG_SCOPE_TRAP_URL_TOO_LONG] = { "trap-url-too-long", N_("The URL is too long (spider trap)") },
  [CG_SCOPE_TRAP_TOO_MANY_SEGMENTS] = { "trap-too-many-segments", N_("The path is too deep (spider trap)") },
  [CG_SCOPE_TRAP_REPEATED_SEGMENTS] = { "trap-repeated-segments", N_("The path repeats itself (spider trap)") },
  [CG_SCOPE_TRAP_TOO_MANY_PARAMS] = { "trap-too-many-params", N_("The query has too many parameters (spider trap)") },
  [CG_SCOPE_TRAP_QUERY_VARIANTS] = { "trap-query-variants", N_("Too many different queries on one path (spider trap, e.g. an endless calendar)") },
  [CG_SCOPE_LIMIT_PAGES] = { "limit-pages", N_("The crawl has fetched its maximum number of pages") },
  [CG_SCOPE_LIMIT_BYTES] = { "limit-bytes", N_("The crawl has fetched its maximum number of bytes") },
  [CG_SCOPE_LIMIT_DURATION] = { "limit-duration", N_("The crawl has run for its maximum time") },
};

const char *
cg_scope_verdict_to_string (CgScopeVerdict verdict)
{
  g_return_val_if_fail ((guint) verdict < G_N_ELEMENTS (verdicts), "unknown");

  return verdicts[verdict].token;
}

const char *
cg_scope_verdict_describe (CgScopeVerdict verdict)
{
  g_return_val_if_fail ((guint) verdict < G_N_ELEMENTS (verdicts), "");

  return _(verdicts[verdict].description);
}
