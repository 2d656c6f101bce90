/* cg-robots.c: robots.txt (RFC 9309) rules and a per-host cache of them.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "cg-robots.h"
#include "cg-url.h"

/* No library in Debian parses robots.txt for C (libsoup has none, and
 * Google's robotstxt is C++ and not packaged), so the parser and matcher
 * are written here, following RFC 9309 and the behaviour of Google's
 * reference parser where the RFC leaves room. */

/* A robots.txt listing thousands of sitemaps is broken or hostile; the
 * crawler needs no more than this many. */
#define MAX_SITEMAPS 1000

typedef struct {
  char     *pattern;    /* percent-normalised, '*' wildcards, no '$' */
  char     *original;   /* "Disallow: /x" as written, for the crawl log */
  gsize     priority;   /* octets of the normalised pattern, '$' included */
  gboolean  allow;
  gboolean  anchored;   /* the pattern ended in '$' */
} Rule;

struct _CgRobots
{
  gatomicrefcount  ref_count;
  GArray          *rules;        /* of Rule */
  guint            n_disallows;  /* rules that disallow */
  GPtrArray       *sitemaps;     /* NULL-terminated */
  double           crawl_delay;  /* < 0 when not given */
  gboolean         from_file;
};

G_DEFINE_BOXED_TYPE (CgRobots, cg_robots, cg_robots_ref, cg_robots_unref)

static void
rule_clear (gpointer data)
{
  Rule *rule = data;

  g_free (rule->pattern);
  g_free (rule->original);
}

static CgRobots *
robots_new (gboolean from_file)
{
  CgRobots *self = g_new0 (CgRobots, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->rules = g_array_new (FALSE, TRUE, sizeof (Rule));
  g_array_set_clear_func (self->rules, rule_clear);
  self->sitemaps = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->sitemaps, NULL);
  self->crawl_delay = -1;
  self->from_file = from_file;
  return self;
}

CgRobots *
cg_robots_ref (CgRobots *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
cg_robots_unref (CgRobots *self)
{
  g_return_if_fail (self != NULL);

  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_array_unref (self->rules);
      g_ptr_array_unref (self->sitemaps);
      g_free (self);
    }
}

static void
add_rule (CgRobots   *self,
          gboolean    allow,
          const char *pattern,
          gboolean    anchored,
          const char *raw_value)
{
  Rule rule = { 0 };

  rule.pattern = g_strdup (pattern);
  rule.original = g_strdup_printf ("%s: %s", allow ? "Allow" : "Disallow", raw_value);
  rule.priority = strlen (pattern) + (anchored ? 1 : 0);
  rule.allow = allow;
  rule.anchored = anchored;
  g_array_append_val (self->rules, rule);
  if (!allow)
    self->n_disallows++;
}

CgRobots *
cg_robots_new_allow_all (void)
{
  return robots_new (FALSE);
}

CgRobots *
cg_robots_new_disallow_all (void)
{
  CgRobots *self = robots_new (FALSE);

  add_rule (self, FALSE, "/", FALSE, "/");
  return self;
}

static gboolean
is_unreserved (guchar c)
{
  return g_ascii_isalnum (c) || c == '-' || c == '.' || c == '_' || c == '~';
}

/* RFC 9309 §2.2.2 compares paths with percent-encoding normalised: octets
 * outside ASCII and characters that are not allowed are encoded, an
 * encoded unreserved character is decoded, hex digits are upper case.
 * The same function prepares both sides. In a rule, '*' is the wildcard
 * and only a final '$' anchors; a literal '*' or '$' is written "%2A" or
 * "%24", so on the URL side those two characters are encoded. */
static char *
normalize_for_matching (const char *text,
                        gsize       length,
                        gboolean    is_pattern,
                        gboolean   *out_anchored)
{
  GString *out = g_string_sized_new (length + 8);

  if (out_anchored != NULL)
    *out_anchored = FALSE;
  if (is_pattern && length > 0 && text[length - 1] == '$')
    {
      length--;
      if (out_anchored != NULL)
        *out_anchored = TRUE;
    }

  for (gsize i = 0; i < length; i++)
    {
      guchar c = (guchar) text[i];

      if (c == '%' && i + 2 < length &&
          g_ascii_isxdigit (text[i + 1]) && g_ascii_isxdigit (text[i + 2]))
        {
          guchar decoded = (guchar) (g_ascii_xdigit_value (text[i + 1]) * 16 +
                                     g_ascii_xdigit_value (text[i + 2]));

          if (is_unreserved (decoded))
            g_string_append_c (out, (char) decoded);
          else
            g_string_append_printf (out, "%%%02X", decoded);
          i += 2;
        }
      else if (c == '*' && is_pattern)
        {
          /* Runs of '*' match the same as one. */
          if (out->len == 0 || out->str[out->len - 1] != '*')
            g_string_append_c (out, '*');
        }
      else if (c == '%' || c == '*' || c == '$' || c <= 0x20 || c >= 0x7f ||
               strchr ("\"<>`{}|\\^", c) != NULL)
        g_string_append_printf (out, "%%%02X", c);
      else
        g_string_append_c (out, (char) c);
    }
  return g_string_free (out, FALSE);
}

/* Whether @path matches @pattern, where '*' matches any run of octets and
 * the match is a prefix match unless @anchored. Greedy matching with a
 * return to the last '*' is exact for patterns whose only metacharacter
 * is '*', and linear for the common patterns without one. */
static gboolean
pattern_matches (const char *pattern,
                 gboolean    anchored,
                 const char *path)
{
  gsize plen = strlen (pattern);
  gsize len = strlen (path);
  gsize i = 0, j = 0;
  gssize star_j = -1;
  gsize star_i = 0;

  while (TRUE)
    {
      if (j == plen && (!anchored || i == len))
        return TRUE;
      if (j < plen && pattern[j] == '*')
        {
          star_j = (gssize) j++;
          star_i = i;
          continue;
        }
      if (i < len && j < plen && pattern[j] == path[i])
        {
          i++;
          j++;
          continue;
        }
      if (star_j >= 0 && star_i < len)
        {
          j = (gsize) star_j + 1;
          i = ++star_i;
          continue;
        }
      return FALSE;
    }
}

static gboolean
robots_match (CgRobots    *self,
              const char  *normalized_path,
              char       **out_rule)
{
  const Rule *best = NULL;

  if (out_rule != NULL)
    *out_rule = NULL;

  /* RFC 9309 §2.2.2: the robots.txt itself is always allowed. */
  if (g_str_equal (normalized_path, "/robots.txt"))
    return TRUE;

  for (guint i = 0; i < self->rules->len; i++)
    {
      const Rule *rule = &g_array_index (self->rules, Rule, i);

      if (best != NULL &&
          (rule->priority < best->priority ||
           (rule->priority == best->priority && (best->allow || !rule->allow))))
        continue;
      if (pattern_matches (rule->pattern, rule->anchored, normalized_path))
        best = rule;
    }

  if (best == NULL)
    return TRUE;
  if (out_rule != NULL)
    *out_rule = g_strdup (best->original);
  return best->allow;
}

gboolean
cg_robots_is_allowed (CgRobots    *self,
                      const char  *path_and_query,
                      char       **out_rule)
{
  g_autofree char *normalized = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path_and_query != NULL, FALSE);

  if (*path_and_query == '\0')
    path_and_query = "/";
  normalized = normalize_for_matching (path_and_query, strlen (path_and_query), FALSE, NULL);
  return robots_match (self, normalized, out_rule);
}

static gboolean
is_uri_allowed (CgRobots  *self,
                GUri      *uri,
                char     **out_rule)
{
  g_autofree char *path = NULL;

  if (g_uri_get_query (uri) != NULL)
    path = g_strconcat (g_uri_get_path (uri), "?", g_uri_get_query (uri), NULL);
  else
    path = g_strdup (g_uri_get_path (uri));
  return cg_robots_is_allowed (self, path, out_rule);
}

gboolean
cg_robots_is_url_allowed (CgRobots    *self,
                          const char  *url,
                          char       **out_rule)
{
  g_autoptr(GUri) uri = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (url != NULL, FALSE);

  if (out_rule != NULL)
    *out_rule = NULL;
  uri = cg_url_parse (url, CG_URL_NORMALIZE_SYNTAX, NULL);
  if (uri == NULL)
    return FALSE;
  return is_uri_allowed (self, uri, out_rule);
}

double
cg_robots_get_crawl_delay (CgRobots *self)
{
  g_return_val_if_fail (self != NULL, -1);

  return self->crawl_delay;
}

const char * const *
cg_robots_get_sitemaps (CgRobots *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return (const char * const *) self->sitemaps->pdata;
}

gboolean
cg_robots_is_from_file (CgRobots *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->from_file;
}

guint
cg_robots_get_n_rules (CgRobots *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->rules->len;
}

/* ---- parsing ---------------------------------------------------------- */

typedef enum {
  KEY_UNKNOWN,
  KEY_USER_AGENT,
  KEY_ALLOW,
  KEY_DISALLOW,
  KEY_CRAWL_DELAY,
  KEY_SITEMAP,
} Key;

/* The spellings Google's parser accepts besides the standard ones; sites
 * do write them, and reading them is the polite choice. */
static Key
parse_key (const char *key,
           gsize       length)
{
  static const struct {
    const char *name;
    Key         key;
  } keys[] = {
    { "user-agent", KEY_USER_AGENT },
    { "useragent", KEY_USER_AGENT },
    { "user agent", KEY_USER_AGENT },
    { "allow", KEY_ALLOW },
    { "disallow", KEY_DISALLOW },
    { "dissallow", KEY_DISALLOW },
    { "dissalow", KEY_DISALLOW },
    { "disalow", KEY_DISALLOW },
    { "diasllow", KEY_DISALLOW },
    { "disallaw", KEY_DISALLOW },
    { "crawl-delay", KEY_CRAWL_DELAY },
    { "crawldelay", KEY_CRAWL_DELAY },
    { "sitemap", KEY_SITEMAP },
    { "site-map", KEY_SITEMAP },
  };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (strlen (keys[i].name) == length &&
        g_ascii_strncasecmp (key, keys[i].name, length) == 0)
      return keys[i].key;
  return KEY_UNKNOWN;
}

/* RFC 9309 §2.2.1: a product token is letters, '_' and '-'. The value of
 * a User-agent line, like the crawler's own User-Agent string, may go on
 * with "/1.0" or a comment; only the token counts. */
static gsize
product_token_length (const char *text)
{
  gsize n = 0;

  while (g_ascii_isalpha (text[n]) || text[n] == '_' || text[n] == '-')
    n++;
  return n;
}

static gboolean
parse_crawl_delay (const char *value,
                   double     *out_delay)
{
  char *end = NULL;
  double delay = g_ascii_strtod (value, &end);

  if (end == value || !isfinite (delay) || delay < 0)
    return FALSE;
  while (g_ascii_isspace (*end))
    end++;
  if (*end != '\0')
    return FALSE;
  *out_delay = delay;
  return TRUE;
}

typedef struct {
  CgRobots *specific;     /* rules of groups naming our product token */
  CgRobots *global;       /* rules of "*" groups */
  gboolean  specific_seen;
  gboolean  global_seen;
  gboolean  in_group;     /* a User-agent line has started a group */
  gboolean  after_rules;  /* a rule followed the group's User-agent lines */
  gboolean  group_specific;
  gboolean  group_global;
} ParseState;

static void
handle_line (ParseState *state,
             CgRobots   *result,
             const char *agent,
             gsize       agent_length,
             Key         key,
             const char *value)
{
  switch (key)
    {
    case KEY_USER_AGENT:
      {
        gsize token_length = product_token_length (value);

        if (!state->in_group || state->after_rules)
          {
            state->in_group = TRUE;
            state->after_rules = FALSE;
            state->group_specific = FALSE;
            state->group_global = FALSE;
          }
        if (value[0] == '*' && (value[1] == '\0' || g_ascii_isspace (value[1])))
          {
            state->group_global = TRUE;
            state->global_seen = TRUE;
          }
        else if (token_length > 0 && token_length == agent_length &&
                 g_ascii_strncasecmp (value, agent, agent_length) == 0)
          {
            state->group_specific = TRUE;
            state->specific_seen = TRUE;
          }
      }
      break;

    case KEY_ALLOW:
    case KEY_DISALLOW:
    case KEY_CRAWL_DELAY:
      if (!state->in_group)
        break;  /* Rules before any User-agent line belong to no group. */
      state->after_rules = TRUE;
      if (!state->group_specific && !state->group_global)
        break;

      if (key == KEY_CRAWL_DELAY)
        {
          double delay;

          if (!parse_crawl_delay (value, &delay))
            break;
          if (state->group_specific)
            state->specific->crawl_delay = MAX (state->specific->crawl_delay, delay);
          if (state->group_global)
            state->global->crawl_delay = MAX (state->global->crawl_delay, delay);
        }
      else if (*value != '\0')
        {
          /* An empty Disallow allows everything, which is what no rule
           * does too. A pattern that does not start with '/' or '*' is
           * read as if it did, as Google does. */
          g_autofree char *with_slash = (value[0] == '/' || value[0] == '*')
                                        ? g_strdup (value) : g_strconcat ("/", value, NULL);
          gboolean anchored = FALSE;
          g_autofree char *pattern = normalize_for_matching (with_slash, strlen (with_slash),
                                                             TRUE, &anchored);
          gboolean allow = key == KEY_ALLOW;

          if (state->group_specific)
            add_rule (state->specific, allow, pattern, anchored, value);
          if (state->group_global)
            add_rule (state->global, allow, pattern, anchored, value);
        }
      break;

    case KEY_SITEMAP:
      if (*value != '\0' && result->sitemaps->len <= MAX_SITEMAPS)
        g_ptr_array_insert (result->sitemaps, (int) result->sitemaps->len - 1, g_strdup (value));
      break;

    case KEY_UNKNOWN:
    default:
      break;
    }
}

CgRobots *
cg_robots_parse (const char *data,
                 gsize       length,
                 const char *user_agent)
{
  ParseState state = { 0 };
  CgRobots *sitemaps_holder;
  CgRobots *chosen;
  const char *end;
  const char *p;
  gsize agent_length;
  gboolean truncated = FALSE;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (user_agent != NULL, NULL);

  agent_length = product_token_length (user_agent);
  state.specific = robots_new (TRUE);
  state.global = robots_new (TRUE);
  sitemaps_holder = robots_new (TRUE);

  if (data == NULL)
    {
      data = "";
      length = 0;
    }
  /* A fetcher that stops reading at the limit hands over exactly
   * CG_ROBOTS_MAX_SIZE bytes, so a body that long is taken as cut too. */
  if (length >= CG_ROBOTS_MAX_SIZE)
    {
      length = CG_ROBOTS_MAX_SIZE;
      truncated = TRUE;
    }
  p = data;
  end = p + length;
  if (length >= 3 && memcmp (p, "\xEF\xBB\xBF", 3) == 0)
    p += 3;

  while (p < end)
    {
      const char *line_end = p;
      const char *colon;
      const char *hash;
      g_autofree char *key_text = NULL;
      g_autofree char *value = NULL;

      while (line_end < end && *line_end != '\n' && *line_end != '\r')
        line_end++;
      /* The line the size limit cut in two would be read as a different,
       * shorter rule; it is dropped like the rest past the limit. */
      if (line_end == end && truncated)
        break;

      hash = memchr (p, '#', line_end - p);
      if (hash == NULL)
        hash = line_end;
      colon = memchr (p, ':', hash - p);
      if (colon != NULL)
        {
          key_text = g_strstrip (g_strndup (p, colon - p));
          value = g_strstrip (g_strndup (colon + 1, hash - colon - 1));
          /* g_strndup() stops at a NUL byte, so binary junk in a line
           * can only shorten its value. */
          handle_line (&state, sitemaps_holder, user_agent, agent_length,
                       parse_key (key_text, strlen (key_text)), value);
        }

      p = line_end;
      if (p < end && *p == '\r')
        p++;
      if (p < end && *p == '\n')
        p++;
    }

  /* RFC 9309 §2.2.1: the groups naming the crawler, merged; else the "*"
   * groups, merged; else no rules at all. */
  if (state.specific_seen)
    {
      chosen = state.specific;
      cg_robots_unref (state.global);
    }
  else
    {
      chosen = state.global;
      cg_robots_unref (state.specific);
    }
  g_ptr_array_unref (chosen->sitemaps);
  chosen->sitemaps = g_ptr_array_ref (sitemaps_holder->sitemaps);
  cg_robots_unref (sitemaps_holder);
  return chosen;
}

CgRobots *
cg_robots_new_for_status (guint       status,
                          const char *data,
                          gsize       length,
                          const char *user_agent)
{
  g_return_val_if_fail (user_agent != NULL, NULL);

  if (status >= 200 && status < 300)
    return cg_robots_parse (data, data != NULL ? length : 0, user_agent);
  if (status == 429)
    return cg_robots_new_disallow_all ();
  if (status >= 300 && status < 500)
    return cg_robots_new_allow_all ();
  return cg_robots_new_disallow_all ();
}

/* ---- the cache -------------------------------------------------------- */

typedef struct {
  CgRobots *robots;
  gint64    fetched_us;
  gint64    expires_us;
} Entry;

struct _CgRobotsCache
{
  gatomicrefcount  ref_count;
  char            *user_agent;
  CgRobotsPolicy   policy;
  GHashTable      *entries;   /* "scheme://host:port" → Entry */
  /* The "scheme://authority" that began the URL asked about last, and
   * its key. A crawl asks about its URLs twice each (may it fetch, how
   * long to wait after), mostly on one host; parsing the URL again each
   * time only to find its host was most of the cost of the answer. */
  char            *last_start;
  char            *last_key;
};

G_DEFINE_BOXED_TYPE (CgRobotsCache, cg_robots_cache, cg_robots_cache_ref, cg_robots_cache_unref)

static void
entry_free (gpointer data)
{
  Entry *entry = data;

  cg_robots_unref (entry->robots);
  g_free (entry);
}

CgRobotsCache *
cg_robots_cache_new (const char     *user_agent,
                     CgRobotsPolicy  policy)
{
  CgRobotsCache *self;

  g_return_val_if_fail (user_agent != NULL, NULL);

  self = g_new0 (CgRobotsCache, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->user_agent = g_strdup (user_agent);
  self->policy = policy;
  self->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, entry_free);
  return self;
}

CgRobotsCache *
cg_robots_cache_ref (CgRobotsCache *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
cg_robots_cache_unref (CgRobotsCache *self)
{
  g_return_if_fail (self != NULL);

  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_hash_table_unref (self->entries);
      g_free (self->last_start);
      g_free (self->last_key);
      g_free (self->user_agent);
      g_free (self);
    }
}

CgRobotsPolicy
cg_robots_cache_get_policy (CgRobotsCache *self)
{
  g_return_val_if_fail (self != NULL, CG_ROBOTS_POLICY_OBEY);

  return self->policy;
}

const char *
cg_robots_policy_to_string (CgRobotsPolicy policy)
{
  return policy == CG_ROBOTS_POLICY_IGNORE ? "ignore" : "obey";
}

guint
cg_robots_cache_get_n_hosts (CgRobotsCache *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return g_hash_table_size (self->entries);
}

static char *
host_key_for_uri (GUri *uri)
{
  const char *scheme = g_uri_get_scheme (uri);
  const char *host = g_uri_get_host (uri);
  int port = g_uri_get_port (uri);

  if (port == -1)
    port = g_str_equal (scheme, "https") ? 443 : 80;
  if (strchr (host, ':') != NULL)
    return g_strdup_printf ("%s://[%s]:%d", scheme, host, port);
  return g_strdup_printf ("%s://%s:%d", scheme, host, port);
}

char *
cg_robots_url_for (const char  *url,
                   GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GUri) robots = NULL;

  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  uri = cg_url_parse (url, CG_URL_NORMALIZE_STRIP_USERINFO, error);
  if (uri == NULL)
    return NULL;
  robots = g_uri_build (G_URI_FLAGS_ENCODED, g_uri_get_scheme (uri), NULL,
                        g_uri_get_host (uri), g_uri_get_port (uri),
                        "/robots.txt", NULL, NULL);
  return g_uri_to_string (robots);
}

/* The key of the host of @url, or NULL for a URL that does not parse. The
 * same start of a URL that parses always gives the same scheme, host and
 * port, hence the same key: @url is parsed only when its start is not the
 * last one's and *@uri, its parse if the caller has it, is NULL; the parse
 * is left in *@uri for the caller, who frees it. */
static const char *
host_key_for_url (CgRobotsCache  *self,
                  const char     *url,
                  GUri          **uri)
{
  gsize start = cg_url_get_authority_end (url);

  if (start > 0 && self->last_start != NULL &&
      strncmp (url, self->last_start, start) == 0 && self->last_start[start] == '\0')
    return self->last_key;

  if (*uri == NULL)
    *uri = cg_url_parse (url, CG_URL_NORMALIZE_SYNTAX, NULL);
  if (*uri == NULL)
    return NULL;
  g_free (self->last_start);
  g_free (self->last_key);
  /* A URL without "scheme://" has no start to compare the next with. */
  self->last_start = start > 0 ? g_strndup (url, start) : NULL;
  self->last_key = host_key_for_uri (*uri);
  return self->last_key;
}

/* @uri: as for host_key_for_url() */
static Entry *
lookup_fresh (CgRobotsCache  *self,
              const char     *url,
              GUri          **uri,
              gint64          now_us)
{
  const char *key = host_key_for_url (self, url, uri);
  Entry *entry = key != NULL ? g_hash_table_lookup (self->entries, key) : NULL;

  if (entry == NULL || now_us >= entry->expires_us || now_us < entry->fetched_us)
    return NULL;
  return entry;
}

/* @parses: whether @url is known to parse; if not, it is parsed first,
 * so that a string that does not parse is refused even when it starts as
 * the last URL did. */
static CgRobotsVerdict
check (CgRobotsCache  *self,
       const char     *url,
       gboolean        parses,
       gint64          now_us,
       char          **out_rule)
{
  g_autoptr(GUri) uri = NULL;
  Entry *entry;

  g_return_val_if_fail (self != NULL, CG_ROBOTS_DISALLOWED);
  g_return_val_if_fail (url != NULL, CG_ROBOTS_DISALLOWED);

  if (out_rule != NULL)
    *out_rule = NULL;
  if (self->policy == CG_ROBOTS_POLICY_IGNORE)
    return CG_ROBOTS_ALLOWED;
  if (!parses && (uri = cg_url_parse (url, CG_URL_NORMALIZE_SYNTAX, NULL)) == NULL)
    return CG_ROBOTS_DISALLOWED;

  /* Most hosts disallow nothing, and the crawl checks every URL it
   * fetches: parsing each again for its path was 1.5 % of the crawl
   * thread's work in the crawl throughput benchmark (tests/bench). The
   * host is found without parsing when it is the last one's, so a URL
   * known to parse is not parsed at all for such a host. */
  entry = lookup_fresh (self, url, &uri, now_us);
  if (entry != NULL && entry->robots->n_disallows == 0)
    return CG_ROBOTS_ALLOWED;

  if (uri == NULL)
    uri = cg_url_parse (url, CG_URL_NORMALIZE_SYNTAX, NULL);
  if (uri == NULL)
    return CG_ROBOTS_DISALLOWED;
  if (g_str_equal (g_uri_get_path (uri), "/robots.txt") && g_uri_get_query (uri) == NULL)
    return CG_ROBOTS_ALLOWED;
  if (entry == NULL)
    return CG_ROBOTS_NEED_FETCH;
  return is_uri_allowed (entry->robots, uri, out_rule) ? CG_ROBOTS_ALLOWED : CG_ROBOTS_DISALLOWED;
}

CgRobotsVerdict
cg_robots_cache_check (CgRobotsCache  *self,
                       const char     *url,
                       gint64          now_us,
                       char          **out_rule)
{
  return check (self, url, FALSE, now_us, out_rule);
}

CgRobotsVerdict
cg_robots_cache_check_normalized (CgRobotsCache  *self,
                                  const char     *url,
                                  gint64          now_us,
                                  char          **out_rule)
{
  return check (self, url, TRUE, now_us, out_rule);
}

typedef struct {
  const char *key;
  gint64      fetched_us;
} Age;

static int
compare_age (gconstpointer a,
             gconstpointer b)
{
  const Age *age_a = a;
  const Age *age_b = b;

  return (age_a->fetched_us > age_b->fetched_us) - (age_a->fetched_us < age_b->fetched_us);
}

/* Called when the table is full: drops the expired entries, and if that
 * frees nothing, the tenth fetched longest ago, so that eviction is
 * amortised over many insertions. */
static void
make_room (CgRobotsCache *self,
           gint64         now_us)
{
  GHashTableIter iter;
  gpointer key, value;
  g_autoptr(GArray) ages = NULL;
  guint n_drop;

  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (now_us >= ((Entry *) value)->expires_us)
      g_hash_table_iter_remove (&iter);
  if (g_hash_table_size (self->entries) < CG_ROBOTS_CACHE_MAX_HOSTS)
    return;

  ages = g_array_sized_new (FALSE, FALSE, sizeof (Age), g_hash_table_size (self->entries));
  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      Age age = { key, ((Entry *) value)->fetched_us };

      g_array_append_val (ages, age);
    }
  g_array_sort (ages, compare_age);
  n_drop = MAX (1, ages->len / 10);
  for (guint i = 0; i < n_drop; i++)
    g_hash_table_remove (self->entries, g_array_index (ages, Age, i).key);
}

gboolean
cg_robots_cache_store (CgRobotsCache  *self,
                       const char     *url,
                       guint           status,
                       const char     *data,
                       gsize           length,
                       gint64          now_us,
                       GError        **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autofree char *key = NULL;
  gboolean failed;
  Entry *entry;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (url != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  uri = cg_url_parse (url, CG_URL_NORMALIZE_SYNTAX, error);
  if (uri == NULL)
    return FALSE;
  key = host_key_for_uri (uri);

  if (!g_hash_table_contains (self->entries, key) &&
      g_hash_table_size (self->entries) >= CG_ROBOTS_CACHE_MAX_HOSTS)
    make_room (self, now_us);

  failed = status == 0 || status == 429 || status >= 500 || status < 200;
  entry = g_new0 (Entry, 1);
  entry->robots = cg_robots_new_for_status (status, data, length, self->user_agent);
  entry->fetched_us = now_us;
  entry->expires_us = now_us + (gint64) (failed ? CG_ROBOTS_RETRY_SECONDS : CG_ROBOTS_CACHE_SECONDS) * G_USEC_PER_SEC;
  g_hash_table_replace (self->entries, g_steal_pointer (&key), entry);
  return TRUE;
}

CgRobots *
cg_robots_cache_lookup (CgRobotsCache *self,
                        const char    *url,
                        gint64         now_us)
{
  g_autoptr(GUri) uri = NULL;
  Entry *entry;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (url != NULL, NULL);

  entry = lookup_fresh (self, url, &uri, now_us);
  return entry != NULL ? cg_robots_ref (entry->robots) : NULL;
}

double
cg_robots_cache_get_crawl_delay (CgRobotsCache *self,
                                 const char    *url,
                                 gint64         now_us)
{
  g_autoptr(CgRobots) robots = NULL;
  double delay;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (url != NULL, 0);

  if (self->policy == CG_ROBOTS_POLICY_IGNORE)
    return 0;
  robots = cg_robots_cache_lookup (self, url, now_us);
  if (robots == NULL)
    return 0;
  delay = cg_robots_get_crawl_delay (robots);
  if (delay <= 0)
    return 0;
  return MIN (delay, CG_ROBOTS_MAX_CRAWL_DELAY);
}
