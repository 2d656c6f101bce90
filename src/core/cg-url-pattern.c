/* cg-url-pattern.c: a regular expression generalised from a set of URLs.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "cg-url-pattern.h"

G_DEFINE_QUARK (cg-url-pattern-error-quark, cg_url_pattern_error)

/* The root of the regex tree: any run of characters that stays inside one
 * level (a path segment or a query parameter). */
#define ROOT_REGEX   "[^/?&#]+"
#define ALNUM_REGEX  "[A-Za-z0-9]+"
#define ALPHA_REGEX  "[A-Za-z]+"
#define DIGIT_REGEX  "[0-9]+"

/* The leaves of the regex tree. Runs of ASCII letters and runs of digits
 * are tokens; every other character, ASCII or not, is a token by itself. */
typedef enum {
  LEAF_ALPHA,
  LEAF_DIGIT,
  LEAF_OTHER,
} Leaf;

static Leaf
leaf_of_byte (char c)
{
  if (g_ascii_isalpha (c))
    return LEAF_ALPHA;
  if (g_ascii_isdigit (c))
    return LEAF_DIGIT;
  return LEAF_OTHER;
}

/* Whether the characters at @a and @b (adjacent bytes starting two
 * characters) belong to one token. */
static gboolean
same_token (char a,
            char b)
{
  Leaf la = leaf_of_byte (a);

  return la != LEAF_OTHER && la == leaf_of_byte (b);
}

GStrv
cg_url_pattern_tokenize (const char *text)
{
  g_autoptr(GStrvBuilder) tokens = g_strv_builder_new ();
  const char *p = text;

  g_return_val_if_fail (text != NULL, NULL);

  while (*p != '\0')
    {
      Leaf leaf = leaf_of_byte (*p);
      const char *end = p;

      if (leaf == LEAF_OTHER)
        end = g_utf8_find_next_char (p, NULL);
      else
        while (*end != '\0' && leaf_of_byte (*end) == leaf)
          end++;
      if (end == NULL || end == p)
        end = p + 1;
      {
        g_autofree char *token = g_strndup (p, end - p);

        g_strv_builder_add (tokens, token);
      }
      p = end;
    }
  return g_strv_builder_end (tokens);
}

static Leaf
leaf_of_token (const char *token)
{
  return leaf_of_byte (token[0]);
}

char *
cg_url_pattern_token_regex (const char * const *tokens,
                            guint               n_tokens)
{
  const char *first = NULL;
  gboolean all_equal = TRUE;
  gboolean has_empty = FALSE;
  gboolean has_alpha = FALSE;
  gboolean has_digit = FALSE;
  gboolean has_other = FALSE;
  g_autofree char *regex = NULL;
  gboolean is_class;

  g_return_val_if_fail (tokens != NULL || n_tokens == 0, NULL);

  for (guint i = 0; i < n_tokens; i++)
    {
      const char *token = tokens[i];

      if (token == NULL || *token == '\0')
        {
          has_empty = TRUE;
          continue;
        }
      if (first == NULL)
        first = token;
      else if (!g_str_equal (first, token))
        all_equal = FALSE;
      switch (leaf_of_token (token))
        {
        case LEAF_ALPHA: has_alpha = TRUE; break;
        case LEAF_DIGIT: has_digit = TRUE; break;
        case LEAF_OTHER: has_other = TRUE; break;
        default: g_assert_not_reached ();
        }
    }
  if (first == NULL)
    return NULL;

  if (all_equal)
    {
      regex = g_regex_escape_string (first, -1);
      is_class = FALSE;
    }
  else
    {
      /* The lowest common ancestor of the tokens' leaves. Two different
       * single-character leaves only meet at the root. */
      if (has_other)
        regex = g_strdup (ROOT_REGEX);
      else if (has_alpha && has_digit)
        regex = g_strdup (ALNUM_REGEX);
      else if (has_alpha)
        regex = g_strdup (ALPHA_REGEX);
      else
        regex = g_strdup (DIGIT_REGEX);
      is_class = TRUE;
    }

  if (!has_empty)
    return g_steal_pointer (&regex);

  /* The seed's optional marker. A class repeated one or more times
   * becomes zero or more times, as its figure prints \w*; a
   * single-character literal takes "?", anything longer a group. */
  if (is_class)
    {
      regex[strlen (regex) - 1] = '*';
      return g_steal_pointer (&regex);
    }
  if (g_utf8_strlen (first, -1) == 1)
    return g_strconcat (regex, "?", NULL);
  return g_strconcat ("(?:", regex, ")?", NULL);
}

/* ---- levels ------------------------------------------------------------- */

typedef struct {
  char  *origin;     /* "http://host:port" */
  GStrv  segments;   /* path segments; "/a/b/" gives a, b, "" */
  GStrv  params;     /* query parameters, NULL without a query */
} Levels;

static void
levels_clear (Levels *levels)
{
  g_free (levels->origin);
  g_strfreev (levels->segments);
  g_strfreev (levels->params);
}

static gboolean
levels_parse (const char *url,
              Levels     *out)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_ENCODED, NULL);
  const char *scheme;
  const char *host;
  const char *path;
  const char *query;
  g_autofree char *bracketed = NULL;

  memset (out, 0, sizeof *out);
  if (uri == NULL)
    return FALSE;
  scheme = g_uri_get_scheme (uri);
  host = g_uri_get_host (uri);
  if (scheme == NULL || host == NULL || *host == '\0' ||
      (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0))
    return FALSE;

  if (strchr (host, ':') != NULL)
    host = bracketed = g_strdup_printf ("[%s]", host);
  if (g_uri_get_port (uri) > 0)
    out->origin = g_strdup_printf ("%s://%s:%d", scheme, host, g_uri_get_port (uri));
  else
    out->origin = g_strdup_printf ("%s://%s", scheme, host);

  path = g_uri_get_path (uri);
  if (path == NULL || *path == '\0')
    path = "/";
  /* g_strsplit() gives no field at all for "", but the path "/" has one
   * empty segment, as "/a/" has a second one. */
  if (path[0] == '/')
    path++;
  if (*path == '\0')
    {
      out->segments = g_new0 (char *, 2);
      out->segments[0] = g_strdup ("");
    }
  else
    out->segments = g_strsplit (path, "/", -1);

  query = g_uri_get_query (uri);
  if (query != NULL && *query != '\0')
    out->params = g_strsplit (query, "&", -1);
  return TRUE;
}

static char *
levels_shape (const Levels *levels)
{
  return g_strdup_printf ("%s\x1f%u\x1f%d", levels->origin, g_strv_length (levels->segments),
                          levels->params != NULL ? (int) g_strv_length (levels->params) : -1);
}

/* The expression for one level across the URLs of a shape: Algorithm 4's
 * loop body. The character-level common prefix and suffix are cut back to
 * token boundaries, so that "cd=12" and "cd=15" give cd=[0-9]+ rather than
 * cd=1[0-9]+ (the summary's caveat): a prefix that ends inside a run of
 * letters or digits would make the pattern match only that run's start. */
static char *
level_regex (GPtrArray *values)
{
  const char *first = values->pdata[0];
  gsize min_length = G_MAXSIZE;
  gsize prefix;
  gsize suffix;
  gboolean all_equal = TRUE;
  guint max_tokens = 0;
  g_autoptr(GPtrArray) token_lists = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  GString *out;
  g_autofree char *prefix_text = NULL;
  g_autofree char *suffix_text = NULL;

  for (guint i = 0; i < values->len; i++)
    {
      const char *value = values->pdata[i];

      min_length = MIN (min_length, strlen (value));
      if (!g_str_equal (value, first))
        all_equal = FALSE;
    }
  if (all_equal)
    return g_regex_escape_string (first, -1);

  /* Common prefix, on character and token boundaries. */
  prefix = 0;
  while (prefix < min_length)
    {
      gboolean same = TRUE;

      for (guint i = 1; i < values->len && same; i++)
        same = ((const char *) values->pdata[i])[prefix] == first[prefix];
      if (!same)
        break;
      prefix++;
    }
  for (gboolean moved = TRUE; moved && prefix > 0;)
    {
      moved = FALSE;
      for (guint i = 0; i < values->len; i++)
        {
          const char *value = values->pdata[i];

          if (((guchar) value[prefix] & 0xC0) == 0x80 ||
              (value[prefix] != '\0' && same_token (value[prefix - 1], value[prefix])))
            {
              prefix--;
              moved = TRUE;
              break;
            }
        }
    }

  /* Common suffix, not overlapping the prefix, on the same boundaries. */
  suffix = 0;
  while (prefix + suffix < min_length)
    {
      gboolean same = TRUE;
      gsize first_length = strlen (first);

      for (guint i = 1; i < values->len && same; i++)
        {
          const char *value = values->pdata[i];

          same = value[strlen (value) - 1 - suffix] == first[first_length - 1 - suffix];
        }
      if (!same)
        break;
      suffix++;
    }
  for (gboolean moved = TRUE; moved && suffix > 0;)
    {
      moved = FALSE;
      for (guint i = 0; i < values->len; i++)
        {
          const char *value = values->pdata[i];
          gsize start = strlen (value) - suffix;

          if (((guchar) value[start] & 0xC0) == 0x80 ||
              (start > 0 && same_token (value[start - 1], value[start])))
            {
              suffix--;
              moved = TRUE;
              break;
            }
        }
    }

  for (guint i = 0; i < values->len; i++)
    {
      const char *value = values->pdata[i];
      g_autofree char *infix = g_strndup (value + prefix, strlen (value) - prefix - suffix);
      GStrv tokens = cg_url_pattern_tokenize (infix);

      max_tokens = MAX (max_tokens, g_strv_length (tokens));
      g_ptr_array_add (token_lists, tokens);
    }

  prefix_text = g_strndup (first, prefix);
  suffix_text = g_strdup (first + strlen (first) - suffix);
  out = g_string_new (NULL);
  {
    g_autofree char *escaped = g_regex_escape_string (prefix_text, -1);
    g_string_append (out, escaped);
  }
  for (guint j = 0; j < max_tokens; j++)
    {
      g_autofree const char **column = g_new0 (const char *, values->len);
      g_autofree char *regex = NULL;

      for (guint i = 0; i < values->len; i++)
        {
          GStrv tokens = token_lists->pdata[i];

          column[i] = j < g_strv_length (tokens) ? tokens[j] : NULL;
        }
      regex = cg_url_pattern_token_regex (column, values->len);
      if (regex != NULL)
        g_string_append (out, regex);
    }
  {
    g_autofree char *escaped = g_regex_escape_string (suffix_text, -1);
    g_string_append (out, escaped);
  }
  return g_string_free (out, FALSE);
}

/* The unanchored pattern of URLs that share one shape. */
static char *
shape_regex (GArray *members)
{
  const Levels *first = &g_array_index (members, Levels, 0);
  g_autoptr(GPtrArray) column = g_ptr_array_new ();
  g_autofree char *origin = g_regex_escape_string (first->origin, -1);
  GString *out = g_string_new (origin);
  guint n_segments = g_strv_length (first->segments);

  for (guint k = 0; k < n_segments; k++)
    {
      g_autofree char *regex = NULL;

      g_ptr_array_set_size (column, 0);
      for (guint i = 0; i < members->len; i++)
        g_ptr_array_add (column, g_array_index (members, Levels, i).segments[k]);
      regex = level_regex (column);
      g_string_append_c (out, '/');
      g_string_append (out, regex);
    }
  if (first->params != NULL)
    {
      guint n_params = g_strv_length (first->params);

      g_string_append (out, "\\?");
      for (guint k = 0; k < n_params; k++)
        {
          g_autofree char *regex = NULL;

          g_ptr_array_set_size (column, 0);
          for (guint i = 0; i < members->len; i++)
            g_ptr_array_add (column, g_array_index (members, Levels, i).params[k]);
          regex = level_regex (column);
          if (k > 0)
            g_string_append_c (out, '&');
          g_string_append (out, regex);
        }
    }
  return g_string_free (out, FALSE);
}

static void
levels_array_free (gpointer data)
{
  GArray *members = data;

  for (guint i = 0; i < members->len; i++)
    levels_clear (&g_array_index (members, Levels, i));
  g_array_unref (members);
}

char *
cg_url_pattern_generate (const char * const  *urls,
                         GError             **error)
{
  g_autoptr(GHashTable) by_shape = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) shapes = g_ptr_array_new_with_free_func (levels_array_free);
  GString *out;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (urls == NULL || urls[0] == NULL)
    {
      g_set_error (error, CG_URL_PATTERN_ERROR, CG_URL_PATTERN_ERROR_NO_URLS,
                   _("A URL pattern needs at least one URL"));
      return NULL;
    }

  for (guint i = 0; urls[i] != NULL && i < CG_URL_PATTERN_MAX_URLS; i++)
    {
      Levels levels;
      g_autofree char *shape = NULL;
      GArray *members;

      if (!levels_parse (urls[i], &levels))
        {
          g_autofree char *shown = g_utf8_make_valid (urls[i], MIN (strlen (urls[i]), 200));

          levels_clear (&levels);
          g_set_error (error, CG_URL_PATTERN_ERROR, CG_URL_PATTERN_ERROR_BAD_URL,
                       _("“%s” (URL %u of the set) is not an absolute http or https URL"),
                       shown, i + 1);
          return NULL;
        }
      shape = levels_shape (&levels);
      members = g_hash_table_lookup (by_shape, shape);
      if (members == NULL)
        {
          if (shapes->len >= CG_URL_PATTERN_MAX_SHAPES)
            {
              levels_clear (&levels);
              continue;
            }
          members = g_array_new (FALSE, FALSE, sizeof (Levels));
          g_ptr_array_add (shapes, members);
          g_hash_table_insert (by_shape, g_steal_pointer (&shape), members);
        }
      g_array_append_val (members, levels);
    }

  out = g_string_new ("^");
  if (shapes->len > 1)
    g_string_append (out, "(?:");
  for (guint s = 0; s < shapes->len; s++)
    {
      g_autofree char *regex = shape_regex (shapes->pdata[s]);

      if (s > 0)
        g_string_append_c (out, '|');
      g_string_append (out, regex);
    }
  if (shapes->len > 1)
    g_string_append_c (out, ')');
  g_string_append_c (out, '$');
  return g_string_free (out, FALSE);
}

gboolean
cg_url_pattern_check (const char  *pattern,
                      GError     **error)
{
  g_autoptr(GRegex) regex = NULL;
  g_autoptr(GError) regex_error = NULL;
  g_autofree char *shown = NULL;

  g_return_val_if_fail (pattern != NULL, FALSE);

  /* The same flags as the harvester's and the classifier's g_regex_new(),
   * so that what passes here compiles there. */
  regex = g_regex_new (pattern, G_REGEX_OPTIMIZE, 0, &regex_error);
  if (regex != NULL)
    return TRUE;
  /* Long enough to recognise the pattern, short enough for one message. */
  shown = g_utf8_make_valid (pattern, MIN (strlen (pattern), 200));
  g_set_error (error, CG_URL_PATTERN_ERROR, CG_URL_PATTERN_ERROR_BAD_PATTERN,
               _("The URL pattern “%s” is not a regular expression: %s"), shown, regex_error->message);
  return FALSE;
}

gboolean
cg_url_pattern_similar (const char *a,
                        const char *b,
                        guint       max_differences)
{
  Levels la;
  Levels lb;
  gboolean similar = FALSE;

  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  if (levels_parse (a, &la) && levels_parse (b, &lb))
    {
      guint na = g_strv_length (la.segments);
      guint nb = g_strv_length (lb.segments);
      guint pa = la.params != NULL ? g_strv_length (la.params) : 0;
      guint pb = lb.params != NULL ? g_strv_length (lb.params) : 0;

      if (g_str_equal (la.origin, lb.origin) && na == nb && pa == pb &&
          (la.params == NULL) == (lb.params == NULL))
        {
          guint differences = 0;

          for (guint k = 0; k < na; k++)
            if (!g_str_equal (la.segments[k], lb.segments[k]))
              differences++;
          for (guint k = 0; k < pa; k++)
            if (!g_str_equal (la.params[k], lb.params[k]))
              differences++;
          similar = differences <= max_differences;
        }
      levels_clear (&lb);
    }
  levels_clear (&la);
  return similar;
}

/* ---- route compatibility -------------------------------------------------- */

/* Paths deeper than this are compared on their first levels only. */
#define CG_URL_PATTERN_MAX_LEVELS 64

/* What the URLs of a group say of one level of their paths. */
typedef enum {
  ROUTE_ABSENT,     /* no URL of the group reaches the level */
  ROUTE_NUMERIC,    /* every value is a number: data (an id, a date, a page) */
  ROUTE_KEYWORD,    /* one word shared by two URLs, or a directory: the route's own */
  ROUTE_TENTATIVE,  /* one word, last segment of a single URL: a keyword or a slug */
  ROUTE_WORDS,      /* several words: data (slugs) */
  ROUTE_MIXED,      /* numbers and words: says nothing */
} RouteKind;

typedef struct {
  RouteKind   kind;
  const char *word;     /* for ROUTE_KEYWORD and ROUTE_TENTATIVE, borrowed */
  guint       n_urls;   /* distinct URLs holding the word */
  gboolean    inner;    /* the word is a directory in one of them */
} RouteLevel;

static gboolean
is_number (const char *segment)
{
  if (*segment == '\0')
    return FALSE;
  for (const char *c = segment; *c != '\0'; c++)
    if (!g_ascii_isdigit (*c))
      return FALSE;
  return TRUE;
}

/* The non-empty path segments of @url, without a trailing pagination pair
 * (a word then a number, "…/page/2"): the pages of one list differ only
 * there, and a route is the list's, not its page's. NULL if @url does not
 * parse. */
static GPtrArray *
route_segments (const char *url)
{
  GPtrArray *segments;
  Levels levels;

  if (!levels_parse (url, &levels))
    {
      levels_clear (&levels);
      return NULL;
    }
  segments = g_ptr_array_new_with_free_func (g_free);
  for (guint k = 0; levels.segments[k] != NULL && segments->len < CG_URL_PATTERN_MAX_LEVELS; k++)
    if (*levels.segments[k] != '\0')
      g_ptr_array_add (segments, g_strdup (levels.segments[k]));
  levels_clear (&levels);
  if (segments->len >= 2 && is_number (segments->pdata[segments->len - 1]) &&
      !is_number (segments->pdata[segments->len - 2]))
    g_ptr_array_set_size (segments, segments->len - 2);
  return segments;
}

/* The kind of each level over the distinct URLs of a group, and in
 * @n_routes how many of them parse. */
static GArray *
route_levels (const char * const *urls,
              guint               n_urls,
              GPtrArray          *keep,
              guint              *n_routes)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GArray *levels = g_array_new (FALSE, TRUE, sizeof (RouteLevel));

  for (guint i = 0; i < n_urls && i < CG_URL_PATTERN_MAX_URLS; i++)
    {
      GPtrArray *segments;

      if (urls[i] == NULL || !g_hash_table_add (seen, (gpointer) urls[i]))
        continue;
      segments = route_segments (urls[i]);
      if (segments == NULL)
        continue;
      (*n_routes)++;
      g_ptr_array_add (keep, segments);
      if (levels->len < segments->len)
        g_array_set_size (levels, segments->len);
      for (guint k = 0; k < segments->len; k++)
        {
          RouteLevel *level = &g_array_index (levels, RouteLevel, k);
          const char *value = segments->pdata[k];
          gboolean number = is_number (value);

          switch (level->kind)
            {
            case ROUTE_ABSENT:
              level->kind = number ? ROUTE_NUMERIC : ROUTE_TENTATIVE;
              level->word = number ? NULL : value;
              break;
            case ROUTE_NUMERIC:
              if (!number)
                level->kind = ROUTE_MIXED;
              break;
            case ROUTE_KEYWORD:
            case ROUTE_TENTATIVE:
              if (number)
                level->kind = ROUTE_MIXED;
              else if (!g_str_equal (level->word, value))
                level->kind = ROUTE_WORDS;
              break;
            case ROUTE_WORDS:
              if (number)
                level->kind = ROUTE_MIXED;
              break;
            case ROUTE_MIXED:
            default:
              break;
            }
          if (level->kind == ROUTE_TENTATIVE || level->kind == ROUTE_KEYWORD)
            {
              level->n_urls++;
              level->inner = level->inner || k + 1 < segments->len;
              if (level->n_urls >= 2 || level->inner)
                level->kind = ROUTE_KEYWORD;
            }
        }
    }
  return levels;
}

static gboolean
is_word_kind (RouteKind kind)
{
  return kind == ROUTE_KEYWORD || kind == ROUTE_TENTATIVE || kind == ROUTE_WORDS;
}

static gboolean
levels_compatible (const RouteLevel *a,
                   const RouteLevel *b)
{
  if (a->kind == ROUTE_MIXED || b->kind == ROUTE_MIXED)
    return TRUE;
  /* A number where the other has words: an id or a date against a name. */
  if ((a->kind == ROUTE_NUMERIC) != (b->kind == ROUTE_NUMERIC))
    return FALSE;
  if (a->kind == ROUTE_NUMERIC)
    return TRUE;
  if ((a->kind == ROUTE_KEYWORD && b->kind != ROUTE_WORDS) ||
      (b->kind == ROUTE_KEYWORD && a->kind != ROUTE_WORDS))
    return g_str_equal (a->word, b->word);
  return TRUE;
}

/* Levels that only @deep reaches, beyond the last of @shallow: a keyword
 * there is a route of its own (/category/a/ against the root), and a word
 * right after a number is an item of what the number indexes (a post
 * of /2019/05/, a section of /book/12/), not one of its lists. A word
 * after a word is not: slugs nest (/category/a/b/, /about/team/). */
static gboolean
beyond_compatible (GArray *shallow,
                   GArray *deep)
{
  for (guint k = shallow->len; k < deep->len; k++)
    if (g_array_index (deep, RouteLevel, k).kind == ROUTE_KEYWORD)
      return FALSE;
  if (shallow->len > 0 && shallow->len < deep->len &&
      g_array_index (shallow, RouteLevel, shallow->len - 1).kind == ROUTE_NUMERIC &&
      is_word_kind (g_array_index (deep, RouteLevel, shallow->len).kind))
    return FALSE;
  return TRUE;
}

gboolean
cg_url_pattern_routes_compatible (const char * const *urls_a,
                                  guint               n_a,
                                  const char * const *urls_b,
                                  guint               n_b)
{
  g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr(GArray) a = NULL;
  g_autoptr(GArray) b = NULL;
  guint routes_a = 0;
  guint routes_b = 0;

  g_return_val_if_fail (urls_a != NULL || n_a == 0, TRUE);
  g_return_val_if_fail (urls_b != NULL || n_b == 0, TRUE);

  a = route_levels (urls_a, n_a, keep, &routes_a);
  b = route_levels (urls_b, n_b, keep, &routes_b);
  /* A group without a URL that parses has no route: it says nothing. */
  if (routes_a == 0 || routes_b == 0)
    return TRUE;
  /* The root (or its pages) is the site's front, not a list above every
   * route: it agrees only with itself. */
  if ((a->len == 0) != (b->len == 0))
    return FALSE;
  for (guint k = 0; k < MIN (a->len, b->len); k++)
    if (!levels_compatible (&g_array_index (a, RouteLevel, k), &g_array_index (b, RouteLevel, k)))
      return FALSE;
  return a->len <= b->len ? beyond_compatible (a, b) : beyond_compatible (b, a);
}
