/* cg-url.c: parsing, resolution, normalisation and SURT form of crawlable URLs.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <gio/gio.h>

#include "cg-url.h"

G_DEFINE_QUARK (cg-url-error-quark, cg_url_error)

/* GUri does the RFC 3986 work: splitting, reference resolution, dot-segment
 * removal, decoding of percent-encoded unreserved characters, upper-case
 * hex digits, encoding of non-ASCII bytes, IDN hosts to punycode and the
 * default port. PARSE_RELAXED makes it forgive what real pages contain
 * (white space around an href, tabs and newlines inside it). What it does
 * not do — lower-case hosts, refuse hosts that are not DNS names, encode
 * stray '%' and the few printable characters RFC 3986 forbids, strip
 * session ids — is written by hand below. */
#define PARSE_FLAGS (G_URI_FLAGS_ENCODED | G_URI_FLAGS_SCHEME_NORMALIZE | \
                     G_URI_FLAGS_PARSE_RELAXED)

/* Error messages quote the URL; a megabyte of garbage or invalid UTF-8
 * must not make the message itself unreadable. */
#define DISPLAY_MAX_CHARS 200

static char *
display_url (const char *url)
{
  g_autofree char *valid = g_utf8_make_valid (url, -1);

  if (g_utf8_strlen (valid, -1) > DISPLAY_MAX_CHARS)
    {
      const char *end = g_utf8_offset_to_pointer (valid, DISPLAY_MAX_CHARS);

      return g_strdup_printf ("%.*s…", (int) (end - valid), valid);
    }
  return g_steal_pointer (&valid);
}

static gboolean
set_too_long (GError     **error,
              const char  *url,
              gsize        length)
{
  g_autofree char *shown = display_url (url);

  g_set_error (error, CG_URL_ERROR, CG_URL_ERROR_TOO_LONG,
               _("The URL “%s” is %lu bytes long; the limit is %d bytes"),
               shown, (unsigned long) length, CG_URL_MAX_LENGTH);
  return FALSE;
}

/* Browsers strip leading and trailing white space and C0 controls, drop
 * tabs and newlines anywhere, and read '\' as '/' in the part of an http
 * URL before the query. Pages rely on all three, so the crawler must see
 * the same URL a browser would request. */
static char *
clean_input (const char *url)
{
  GString *out = g_string_sized_new (strlen (url));
  const char *start = url;
  const char *end = url + strlen (url);
  gboolean before_query = TRUE;

  while (start < end && (guchar) *start <= 0x20)
    start++;
  while (end > start && (guchar) end[-1] <= 0x20)
    end--;

  for (const char *p = start; p < end; p++)
    {
      if (*p == '\t' || *p == '\n' || *p == '\r')
        continue;
      if (*p == '?' || *p == '#')
        before_query = FALSE;
      if (*p == '\\' && before_query)
        g_string_append_c (out, '/');
      else
        g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

static gboolean
is_forbidden_char (guchar c)
{
  return c <= 0x20 || c >= 0x7f || strchr ("\"<>`{}|\\^", c) != NULL;
}

/* GUri leaves a '%' that starts no valid escape as it is in relaxed mode,
 * and leaves a few printable characters that RFC 3986 does not allow.
 * Encoding both gives one spelling per URL. */
static char *
fix_encoding (const char *component)
{
  GString *out = g_string_sized_new (strlen (component) + 8);

  for (const char *p = component; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      if (c == '%' && g_ascii_isxdigit (p[1]) && g_ascii_isxdigit (p[2]))
        {
          g_string_append_c (out, '%');
          g_string_append_c (out, g_ascii_toupper (p[1]));
          g_string_append_c (out, g_ascii_toupper (p[2]));
          p += 2;
        }
      else if (c == '%' || is_forbidden_char (c))
        g_string_append_printf (out, "%%%02X", c);
      else
        g_string_append_c (out, (char) c);
    }
  return g_string_free (out, FALSE);
}

/* A "sid" parameter is often a site or section number; only a long
 * alphanumeric token is taken for a session key. */
#define SID_MIN_LENGTH 16
#define SID_MAX_LENGTH 128

static gboolean
looks_like_session_key (const char *value,
                        gsize       length)
{
  if (length < SID_MIN_LENGTH || length > SID_MAX_LENGTH)
    return FALSE;
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isalnum (value[i]) && value[i] != '-' && value[i] != '_')
      return FALSE;
  return TRUE;
}

/* Names of parameters that carry only a session, whatever their value:
 * Java servlets, PHP, ColdFusion, osCommerce, Zen Cart and generic ones. */
static const char * const session_param_names[] = {
  "jsessionid", "phpsessid", "sessionid", "session_id", "sessid",
  "cfid", "cftoken", "cfsid", "oscsid", "zenid",
};

static gboolean
is_session_param (const char *param,
                  gsize       length)
{
  const char *eq = memchr (param, '=', length);
  gsize name_length = eq != NULL ? (gsize) (eq - param) : length;
  const char *value = eq != NULL ? eq + 1 : param + length;
  gsize value_length = param + length - value;

  for (guint i = 0; i < G_N_ELEMENTS (session_param_names); i++)
    if (name_length == strlen (session_param_names[i]) &&
        g_ascii_strncasecmp (param, session_param_names[i], name_length) == 0)
      return TRUE;

  /* IIS classic ASP: ASPSESSIONID followed by eight letters that change
   * with the server process. */
  if (name_length > 12 && g_ascii_strncasecmp (param, "aspsessionid", 12) == 0)
    return TRUE;

  if (name_length == 3 && g_ascii_strncasecmp (param, "sid", 3) == 0)
    return looks_like_session_key (value, value_length);

  return FALSE;
}

/* Removes session parameters and empty parameters from a query. Returns
 * NULL when nothing is left, so that no bare "?" remains. */
static char *
strip_query_session_ids (const char *query)
{
  GString *out = g_string_sized_new (strlen (query));
  const char *p = query;

  while (*p != '\0')
    {
      const char *amp = strchr (p, '&');
      gsize length = amp != NULL ? (gsize) (amp - p) : strlen (p);

      if (length > 0 && !is_session_param (p, length))
        {
          if (out->len > 0)
            g_string_append_c (out, '&');
          g_string_append_len (out, p, length);
        }
      p += length;
      if (*p == '&')
        p++;
    }

  if (out->len == 0)
    {
      g_string_free (out, TRUE);
      return NULL;
    }
  return g_string_free (out, FALSE);
}

/* ASP.NET cookieless sessions put a whole segment such as
 * "(S(lit3py55t21z5v55vlm25s55))" or "(X(1)S(…))" into the path. */
static gboolean
is_aspnet_session_segment (const char *segment,
                           gsize       length)
{
  gsize i = 1;
  gboolean saw_part = FALSE;

  if (length < 4 || segment[0] != '(' || segment[length - 1] != ')')
    return FALSE;
  while (i < length - 1)
    {
      if (!g_ascii_isupper (segment[i]) || i + 1 >= length - 1 || segment[i + 1] != '(')
        return FALSE;
      i += 2;
      while (i < length - 1 && segment[i] != ')')
        {
          if (!g_ascii_isalnum (segment[i]) && segment[i] != '-' && segment[i] != '_')
            return FALSE;
          i++;
        }
      if (i >= length - 1)
        return FALSE;
      i++;
      saw_part = TRUE;
    }
  return saw_part;
}

/* Removes ";jsessionid=…"-style path parameters and ASP.NET session
 * segments. Other path parameters (";type=a") are kept: they may select
 * content. */
static char *
strip_path_session_ids (const char *path)
{
  g_auto(GStrv) segments = g_strsplit (path, "/", -1);
  GString *out = g_string_sized_new (strlen (path));

  for (guint i = 0; segments[i] != NULL; i++)
    {
      g_auto(GStrv) params = NULL;
      gboolean first = TRUE;

      if (is_aspnet_session_segment (segments[i], strlen (segments[i])))
        continue;

      if (i > 0)
        g_string_append_c (out, '/');

      params = g_strsplit (segments[i], ";", -1);
      for (guint j = 0; params[j] != NULL; j++)
        {
          if (j > 0 && is_session_param (params[j], strlen (params[j])))
            continue;
          if (!first)
            g_string_append_c (out, ';');
          g_string_append (out, params[j]);
          first = FALSE;
        }
    }

  if (out->len == 0)
    g_string_append_c (out, '/');
  return g_string_free (out, FALSE);
}

static gboolean
is_valid_ipv6_literal (const char *host)
{
  for (const char *p = host; *p != '\0'; p++)
    if (!g_ascii_isxdigit (*p) && *p != ':' && *p != '.')
      return FALSE;
  return g_hostname_is_ip_address (host);
}

/* After GUri has decoded the host and turned an IDN into punycode, a
 * usable host is an IP literal or dot-separated labels of letters, digits,
 * '-' and '_' (the last is not legal in DNS names but common on the web). */
static gboolean
is_valid_host_name (const char *host)
{
  gsize label_length = 0;
  gsize length = strlen (host);

  if (length == 0 || length > 253)
    return FALSE;
  for (const char *p = host; *p != '\0'; p++)
    {
      if (*p == '.')
        {
          if (label_length == 0)
            return FALSE;
          label_length = 0;
        }
      else if (g_ascii_isalnum (*p) || *p == '-' || *p == '_')
        {
          if (++label_length > 63)
            return FALSE;
        }
      else
        return FALSE;
    }
  return label_length > 0;
}

gboolean
cg_url_host_is_ip (const char *host)
{
  g_return_val_if_fail (host != NULL, FALSE);

  return g_hostname_is_ip_address (host);
}

/* Strips "www." or "wwwN." when a registrable name remains. */
static char *
strip_www (const char *host)
{
  const char *p = host;

  if (g_ascii_strncasecmp (p, "www", 3) != 0)
    return g_strdup (host);
  p += 3;
  while (g_ascii_isdigit (*p))
    p++;
  if (*p != '.' || strchr (p + 1, '.') == NULL)
    return g_strdup (host);
  return g_strdup (p + 1);
}

static int
default_port (const char *scheme)
{
  return g_str_equal (scheme, "https") ? 443 : 80;
}

/* Whether g_uri_to_string() can print @uri. In relaxed mode GLib parses
 * "http://host;x/y" as the host "host" and the path ";x/y" (RFC 3986
 * reads the authority "host;x", which is no host name), and then refuses
 * to print a host followed by a path that does not start with '/'. */
static gboolean
can_print (GUri *uri)
{
  const char *path = g_uri_get_path (uri);

  return g_uri_get_host (uri) == NULL || path[0] == '\0' || path[0] == '/';
}

/* Error messages name the resolved URL: a relative "../x" alone does not
 * tell the user where the problem is. */
static char *
display_uri (GUri *uri)
{
  const char *scheme = g_uri_get_scheme (uri);
  g_autofree char *string = NULL;

  if (can_print (uri))
    string = g_uri_to_string (uri);
  else
    string = g_strconcat (scheme != NULL ? scheme : "", "://", g_uri_get_host (uri), g_uri_get_path (uri), NULL);
  return display_url (string);
}

/* @out_string: (optional): the normalised URL as a string, which is
 * worked out anyway to check its length. */
static GUri *
normalize_guri (GUri                 *uri,
                CgUrlNormalizeFlags   flags,
                char                **out_string,
                GError              **error)
{
  const char *scheme = g_uri_get_scheme (uri);
  const char *raw_host = g_uri_get_host (uri);
  const char *userinfo = NULL;
  g_autofree char *host = NULL;
  g_autofree char *path = NULL;
  g_autofree char *query = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *string = NULL;
  g_autoptr(GUri) result = NULL;
  int port;
  gsize host_length;

  if (scheme == NULL || (!g_str_equal (scheme, "http") && !g_str_equal (scheme, "https")))
    {
      shown = display_uri (uri);
      g_set_error (error, CG_URL_ERROR, CG_URL_ERROR_UNSUPPORTED_SCHEME,
                   _("The URL “%s” uses the scheme “%s”; only http and https can be crawled"),
                   shown, scheme != NULL ? scheme : "");
      return NULL;
    }

  if (raw_host == NULL || *raw_host == '\0')
    {
      shown = display_uri (uri);
      g_set_error (error, CG_URL_ERROR, CG_URL_ERROR_BAD_HOST,
                   _("The URL “%s” has no host name"), shown);
      return NULL;
    }

  if (!can_print (uri))
    {
      g_autofree char *authority = g_strndup (g_uri_get_path (uri), strcspn (g_uri_get_path (uri), "/"));
      g_autofree char *whole_host = g_strconcat (raw_host, authority, NULL);
      g_autofree char *shown_host = display_url (whole_host);

      shown = display_uri (uri);
      g_set_error (error, CG_URL_ERROR, CG_URL_ERROR_BAD_HOST,
                   _("The URL “%s” has an invalid host name “%s”"), shown, shown_host);
      return NULL;
    }

  host = g_ascii_strdown (raw_host, -1);
  host_length = strlen (host);
  if (host_length > 1 && host[host_length - 1] == '.')
    host[host_length - 1] = '\0';
  if (strchr (host, ':') != NULL ? !is_valid_ipv6_literal (host) : !is_valid_host_name (host))
    {
      g_autofree char *shown_host = display_url (host);

      shown = display_uri (uri);
      g_set_error (error, CG_URL_ERROR, CG_URL_ERROR_BAD_HOST,
                   _("The URL “%s” has an invalid host name “%s”"), shown, shown_host);
      return NULL;
    }
  if (flags & CG_URL_NORMALIZE_STRIP_WWW)
    {
      char *stripped = strip_www (host);

      g_free (host);
      host = stripped;
    }

  port = g_uri_get_port (uri);
  if (port == 0)
    {
      shown = display_uri (uri);
      g_set_error (error, CG_URL_ERROR, CG_URL_ERROR_INVALID,
                   _("The URL “%s” has port 0, which cannot be connected to"), shown);
      return NULL;
    }
  if (port == default_port (scheme))
    port = -1;

  if (!(flags & CG_URL_NORMALIZE_STRIP_USERINFO))
    userinfo = g_uri_get_userinfo (uri);

  path = fix_encoding (g_uri_get_path (uri));
  if (*path == '\0')
    {
      g_free (path);
      path = g_strdup ("/");
    }
  if (g_uri_get_query (uri) != NULL && *g_uri_get_query (uri) != '\0')
    query = fix_encoding (g_uri_get_query (uri));

  if (flags & CG_URL_NORMALIZE_STRIP_SESSION_IDS)
    {
      char *stripped_path = strip_path_session_ids (path);

      g_free (path);
      path = stripped_path;
      if (query != NULL)
        {
          char *stripped_query = strip_query_session_ids (query);

          g_free (query);
          query = stripped_query;
        }
    }

  result = g_uri_build (G_URI_FLAGS_ENCODED, scheme, userinfo, host, port,
                        path, query, NULL);
  string = g_uri_to_string (result);
  if (strlen (string) > CG_URL_MAX_LENGTH)
    {
      set_too_long (error, string, strlen (string));
      return NULL;
    }
  if (out_string != NULL)
    *out_string = g_steal_pointer (&string);
  return g_steal_pointer (&result);
}

static GUri *
parse_internal (GUri                 *base,
                const char           *url,
                CgUrlNormalizeFlags   flags,
                char                **out_string,
                GError              **error)
{
  g_autofree char *cleaned = NULL;
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) local_error = NULL;
  gsize length = strlen (url);

  if (length > CG_URL_MAX_LENGTH)
    {
      set_too_long (error, url, length);
      return NULL;
    }

  cleaned = clean_input (url);
  if (base != NULL)
    uri = g_uri_parse_relative (base, cleaned, PARSE_FLAGS, &local_error);
  else
    uri = g_uri_parse (cleaned, PARSE_FLAGS, &local_error);

  if (uri == NULL)
    {
      g_autofree char *shown = display_url (url);

      if (*cleaned == '\0')
        g_set_error (error, CG_URL_ERROR, CG_URL_ERROR_INVALID,
                     _("The URL is empty"));
      else
        g_set_error (error, CG_URL_ERROR, CG_URL_ERROR_INVALID,
                     _("The URL “%s” is not valid: %s"), shown, local_error->message);
      return NULL;
    }

  return normalize_guri (uri, flags, out_string, error);
}

GUri *
cg_url_parse (const char           *url,
              CgUrlNormalizeFlags   flags,
              GError              **error)
{
  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return parse_internal (NULL, url, flags, NULL, error);
}

char *
cg_url_normalize (const char           *url,
                  CgUrlNormalizeFlags   flags,
                  GError              **error)
{
  g_autoptr(GUri) uri = NULL;

  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  char *string = NULL;

  uri = parse_internal (NULL, url, flags, &string, error);
  return uri != NULL ? string : NULL;
}

char *
cg_url_resolve_uri (GUri                 *base,
                    const char           *reference,
                    CgUrlNormalizeFlags   flags,
                    GError              **error)
{
  g_autoptr(GUri) uri = NULL;

  g_return_val_if_fail (base != NULL, NULL);
  g_return_val_if_fail (reference != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  char *string = NULL;

  uri = parse_internal (base, reference, flags, &string, error);
  return uri != NULL ? string : NULL;
}

char *
cg_url_resolve (const char           *base_url,
                const char           *reference,
                CgUrlNormalizeFlags   flags,
                GError              **error)
{
  g_autoptr(GUri) base = NULL;

  g_return_val_if_fail (base_url != NULL, NULL);
  g_return_val_if_fail (reference != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  base = parse_internal (NULL, base_url, CG_URL_NORMALIZE_SYNTAX, NULL, error);
  if (base == NULL)
    return NULL;
  return cg_url_resolve_uri (base, reference, flags, error);
}

char *
cg_url_resolve_reference (const char  *base_url,
                          const char  *reference,
                          GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  char *result;

  g_return_val_if_fail (base_url != NULL, NULL);
  g_return_val_if_fail (reference != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  result = g_uri_resolve_relative (base_url, reference, G_URI_FLAGS_ENCODED, &local_error);
  if (result == NULL)
    {
      g_autofree char *shown_ref = display_url (reference);
      g_autofree char *shown_base = display_url (base_url);

      g_set_error (error, CG_URL_ERROR, CG_URL_ERROR_INVALID,
                   _("Cannot resolve “%s” against “%s”: %s"),
                   shown_ref, shown_base, local_error->message);
    }
  return result;
}

static void
append_surt_authority (GString *out,
                       GUri    *uri)
{
  const char *host = g_uri_get_host (uri);
  const char *userinfo = g_uri_get_userinfo (uri);
  int port = g_uri_get_port (uri);

  g_string_append (out, g_uri_get_scheme (uri));
  g_string_append (out, "://(");

  if (strchr (host, ':') != NULL)
    g_string_append_printf (out, "[%s]", host);
  else if (g_hostname_is_ip_address (host))
    g_string_append (out, host);
  else
    {
      g_auto(GStrv) labels = g_strsplit (host, ".", -1);

      for (int i = (int) g_strv_length (labels) - 1; i >= 0; i--)
        {
          g_string_append (out, labels[i]);
          g_string_append_c (out, ',');
        }
    }

  if (port != -1)
    g_string_append_printf (out, ":%d", port);
  if (userinfo != NULL)
    g_string_append_printf (out, "@%s", userinfo);
  g_string_append_c (out, ')');
}

char *
cg_url_to_surt (const char  *url,
                GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  GString *out;

  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  uri = parse_internal (NULL, url, CG_URL_NORMALIZE_SYNTAX, NULL, error);
  if (uri == NULL)
    return NULL;

  out = g_string_new (NULL);
  append_surt_authority (out, uri);
  g_string_append (out, g_uri_get_path (uri));
  if (g_uri_get_query (uri) != NULL)
    g_string_append_printf (out, "?%s", g_uri_get_query (uri));
  return g_string_free (out, FALSE);
}

char *
cg_url_surt_prefix_for_url (const char  *url,
                            GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  const char *path;
  const char *last_slash;
  GString *out;

  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  uri = parse_internal (NULL, url, CG_URL_NORMALIZE_SYNTAX, NULL, error);
  if (uri == NULL)
    return NULL;

  out = g_string_new (NULL);
  append_surt_authority (out, uri);
  path = g_uri_get_path (uri);
  last_slash = strrchr (path, '/');
  g_string_append_len (out, path, last_slash != NULL ? last_slash - path + 1 : 0);
  return g_string_free (out, FALSE);
}

char *
cg_url_surt_prefix_for_domain (const char  *domain,
                               GError     **error)
{
  g_autofree char *ascii = NULL;
  g_autofree char *lower = NULL;
  g_auto(GStrv) labels = NULL;
  GString *out;
  const char *name = domain;

  g_return_val_if_fail (domain != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  while (*name == '.')
    name++;
  ascii = g_hostname_to_ascii (name);
  if (ascii != NULL)
    lower = g_ascii_strdown (ascii, -1);
  if (lower == NULL || g_hostname_is_ip_address (lower) || !is_valid_host_name (lower))
    {
      g_autofree char *shown = display_url (domain);

      g_set_error (error, CG_URL_ERROR, CG_URL_ERROR_BAD_HOST,
                   _("“%s” is not a domain name"), shown);
      return NULL;
    }

  out = g_string_new ("http://(");
  labels = g_strsplit (lower, ".", -1);
  for (int i = (int) g_strv_length (labels) - 1; i >= 0; i--)
    {
      g_string_append (out, labels[i]);
      g_string_append_c (out, ',');
    }
  return g_string_free (out, FALSE);
}

/* Returns the part after "http://" or "https://", or NULL for anything
 * else. */
static const char *
skip_http_scheme (const char *surt)
{
  if (g_str_has_prefix (surt, "http://"))
    return surt + 7;
  if (g_str_has_prefix (surt, "https://"))
    return surt + 8;
  return NULL;
}

gboolean
cg_url_surt_has_prefix (const char *surt,
                        const char *prefix)
{
  const char *surt_rest;
  const char *prefix_rest;

  g_return_val_if_fail (surt != NULL, FALSE);
  g_return_val_if_fail (prefix != NULL, FALSE);

  surt_rest = skip_http_scheme (surt);
  prefix_rest = skip_http_scheme (prefix);
  if (surt_rest != NULL && prefix_rest != NULL)
    return g_str_has_prefix (surt_rest, prefix_rest);
  return g_str_has_prefix (surt, prefix);
}

char *
cg_url_get_host_key (const char  *url,
                     GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  const char *host;
  int port;

  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  uri = parse_internal (NULL, url, CG_URL_NORMALIZE_SYNTAX, NULL, error);
  if (uri == NULL)
    return NULL;

  host = g_uri_get_host (uri);
  port = g_uri_get_port (uri);
  if (port == -1)
    port = default_port (g_uri_get_scheme (uri));
  if (strchr (host, ':') != NULL)
    return g_strdup_printf ("[%s]:%d", host, port);
  return g_strdup_printf ("%s:%d", host, port);
}

gsize
cg_url_get_authority_end (const char *url)
{
  const char *authority;

  g_return_val_if_fail (url != NULL, 0);

  authority = strstr (url, "://");
  if (authority == NULL)
    return 0;
  authority += 3;
  return (gsize) (authority - url) + strcspn (authority, "/?#");
}

char *
cg_url_get_host (const char  *url,
                 GError     **error)
{
  g_autoptr(GUri) uri = NULL;

  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  uri = parse_internal (NULL, url, CG_URL_NORMALIZE_SYNTAX, NULL, error);
  if (uri == NULL)
    return NULL;
  return g_strdup (g_uri_get_host (uri));
}
