/* cg-links.c: outlinks of an HTML page or a CSS stylesheet.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <libsoup/soup.h>
#include <libxml/HTMLtree.h>
#include <libxml/encoding.h>
#include <libxml/parserInternals.h>

#include "cg-charset.h"
#include "cg-links.h"
#include "cg-link-scanner.h"
#include "cg-url.h"

G_DEFINE_QUARK (cg-links-error-quark, cg_links_error)
G_DEFINE_BOXED_TYPE (CgLink, cg_link, cg_link_copy, cg_link_free)

/* Binary data is recognised by a NUL byte near the start, which no HTML
 * or CSS in an 8-bit or UTF-8 encoding contains. */
#define SNIFF_LENGTH 4096

CgLink *
cg_link_copy (const CgLink *link)
{
  CgLink *copy;

  g_return_val_if_fail (link != NULL, NULL);

  copy = g_new0 (CgLink, 1);
  copy->url = g_strdup (link->url);
  copy->hop = link->hop;
  copy->element = g_strdup (link->element);
  copy->attribute = g_strdup (link->attribute);
  copy->text = g_strdup (link->text);
  return copy;
}

void
cg_link_free (CgLink *link)
{
  if (link == NULL)
    return;
  g_free (link->url);
  g_free (link->element);
  g_free (link->attribute);
  g_free (link->text);
  g_free (link);
}

char
cg_hop_type_to_char (CgHopType hop)
{
  return (char) hop;
}

static char *
display_name (const char *url)
{
  return g_utf8_make_valid (url != NULL ? url : "", MIN (url != NULL ? strlen (url) : 0, 200));
}

static gboolean
has_utf8_bom (const char *data,
              gsize       length)
{
  return length >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0;
}

static gboolean
has_utf16_bom (const char *data,
               gsize       length)
{
  return length >= 2 &&
         (((guchar) data[0] == 0xFF && (guchar) data[1] == 0xFE) ||
          ((guchar) data[0] == 0xFE && (guchar) data[1] == 0xFF));
}

static gboolean
check_input (const char  *data,
             gsize        length,
             const char  *url,
             gboolean     allow_utf16,
             GError     **error)
{
  const char *nul;

  if (length == 0)
    return TRUE;
  if (length > CG_LINKS_MAX_INPUT_SIZE)
    {
      g_autofree char *shown = display_name (url);

      g_set_error (error, CG_LINKS_ERROR, CG_LINKS_ERROR_TOO_LARGE,
                   _("The document “%s” is %lu bytes long; links are read "
                     "from documents of at most %d bytes"),
                   shown, (unsigned long) length, CG_LINKS_MAX_INPUT_SIZE);
      return FALSE;
    }

  if (allow_utf16 && has_utf16_bom (data, length))
    return TRUE;
  nul = memchr (data, '\0', MIN (length, SNIFF_LENGTH));
  if (nul != NULL)
    {
      g_autofree char *shown = display_name (url);

      g_set_error (error, CG_LINKS_ERROR, CG_LINKS_ERROR_NOT_TEXT,
                   _("The document “%s” is binary data, not text (a NUL byte at offset %lu)"),
                   shown, (unsigned long) (nul - data));
      return FALSE;
    }
  return TRUE;
}

/* The WHATWG Encoding Standard reads these labels as windows-1252, which
 * is what servers that send them mean: "€" and curly quotes live in the
 * bytes ISO-8859-1 leaves to control characters. */
static const char * const windows_1252_labels[] = {
  "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1", "us-ascii", "ascii",
  "cp819", "ibm819", "iso-ir-100", "csisolatin1", "iso_8859-1:1987", "x-cp1252",
};

static gboolean
is_windows_1252_label (const char *label)
{
  for (guint i = 0; i < G_N_ELEMENTS (windows_1252_labels); i++)
    if (g_ascii_strcasecmp (label, windows_1252_labels[i]) == 0)
      return TRUE;
  return FALSE;
}

/* The charset of a Content-Type header, if libxml2 (through iconv) can
 * decode it; an unknown charset is ignored so that the page's own
 * declaration gets its chance. */
static char *
charset_from_content_type (const char *content_type)
{
  g_autoptr(GHashTable) params = NULL;
  const char *charset;
  xmlCharEncodingHandlerPtr handler;

  if (content_type == NULL)
    return NULL;
  params = soup_header_parse_semi_param_list (content_type);
  charset = g_hash_table_lookup (params, "charset");
  if (charset == NULL || *charset == '\0')
    return NULL;

  if (is_windows_1252_label (charset))
    return g_strdup ("windows-1252");

  handler = xmlFindCharEncodingHandler (charset);
  if (handler == NULL)
    return NULL;
  xmlCharEncCloseFunc (handler);
  return g_strdup (charset);
}

/* libxml2 drops whatever lies deeper than 256 elements (xmlParserMaxDepth),
 * which old pages of unclosed <font> and <p> reach, and the rest of the
 * page with it. Browsers keep such content (Blink flattens it past 512).
 * The limit is raised for the whole process, once, rather than lifted
 * with XML_PARSE_HUGE: the analyses walk trees recursively, and a bound
 * keeps a hostile page from exhausting a thread's stack. */
#define MAX_ELEMENT_DEPTH 4096

static void
raise_depth_limit (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      if (xmlParserMaxDepth < MAX_ELEMENT_DEPTH)
        xmlParserMaxDepth = MAX_ELEMENT_DEPTH;
      g_once_init_leave (&done, 1);
    }
}

/* How far the HTML standard's prescan looks for a declaration. */
#define PRESCAN_BYTES 1024

/* The encoding to read a page in when neither a byte order mark nor its
 * Content-Type says: libxml2 reads a page's own declaration, but takes
 * "iso-8859-1" (and a page that declares nothing) for ISO-8859-1, where
 * browsers read windows-1252, whose "€", dashes and curly quotes are
 * control characters in ISO-8859-1. NULL leaves it to libxml2. */
static char *
sniffed_encoding (const char *data,
                  gsize       length)
{
  static GRegex *declaration = NULL;
  g_autoptr(GMatchInfo) match = NULL;
  gsize scanned = MIN (length, PRESCAN_BYTES);

  if (g_once_init_enter (&declaration))
    g_once_init_leave (&declaration,
                       g_regex_new ("<(?:meta\\b[^>]*?\\bcharset|\\?xml\\b[^>]*?\\bencoding)\\s*=\\s*[\"']?\\s*([A-Za-z0-9_.:-]+)",
                                    G_REGEX_CASELESS | G_REGEX_RAW | G_REGEX_OPTIMIZE, 0, NULL));
  if (g_regex_match_full (declaration, data, (gssize) scanned, 0, 0, &match, NULL))
    {
      g_autofree char *label = g_match_info_fetch (match, 1);

      return is_windows_1252_label (label) ? g_strdup ("windows-1252") : NULL;
    }
  /* No declaration: UTF-8 when the bytes are, else what browsers of
   * Western locales fall back to. */
  return g_utf8_validate_len (data, length, NULL) ? NULL : g_strdup ("windows-1252");
}

static void
silent_error_cb (void       *context,
                 const char *format,
                 ...)
{
}

/* A stray byte that is not valid in a page's character set (a Latin-1
 * "é" in a page that says it is UTF-8, say) is read as a browser shows
 * it, U+FFFD, and the rest of the page as it is. libxml2 by itself either
 * drops the rest of the page there, or reads the byte in another
 * character set than the page's (as ISO-8859-1 in a UTF-8 page). This is
 * the page decoded into UTF-8 that way, past its byte order mark, when
 * some of its bytes are not valid in the character set libxml2 read it
 * in (@charset, NULL for none declared); NULL when they all are. */
static GString *
decode_invalid_bytes (const char *data,
                      gsize       length,
                      const char *charset)
{
  gsize skip = 0;

  if (has_utf8_bom (data, length))
    charset = "UTF-8", skip = 3;
  else if (length >= 2 && (guchar) data[0] == 0xFF && (guchar) data[1] == 0xFE)
    charset = "UTF-16LE", skip = 2;
  else if (length >= 2 && (guchar) data[0] == 0xFE && (guchar) data[1] == 0xFF)
    charset = "UTF-16BE", skip = 2;
  if (charset == NULL || cg_charset_decodes (data + skip, length - skip, charset))
    return NULL;
  return cg_charset_decode_lossy (data + skip, length - skip, charset);
}

/* @options: libxml2 parser options besides those every parse has. */
static htmlDocPtr
html_parse (const char   *data,
            gsize         length,
            const char   *url,
            const char   *content_type,
            int           options,
            GError      **error)
{
  g_autofree char *encoding = NULL;
  xmlGenericErrorFunc saved_handler;
  void *saved_context;
  htmlDocPtr doc;

  if (!check_input (data, length, url, TRUE, error))
    return NULL;
  if (length == 0)
    return htmlNewDocNoDtD (NULL, NULL);
  raise_depth_limit ();

  /* A byte order mark settles the encoding (the HTML standard's sniffing
   * order), and libxml2 reads it when no encoding is forced. */
  if (!has_utf8_bom (data, length) && !has_utf16_bom (data, length))
    {
      encoding = charset_from_content_type (content_type);
      if (encoding == NULL)
        encoding = sniffed_encoding (data, length);
    }

  /* libxml2 prints decoder failures through its generic error handler
   * (per thread) even with HTML_PARSE_NOERROR; decode_invalid_bytes()
   * takes care of what they are about. */
  saved_handler = xmlGenericError;
  saved_context = xmlGenericErrorContext;
  xmlSetGenericErrorFunc (NULL, silent_error_cb);
  doc = htmlReadMemory (data, (int) length, url, encoding,
                        HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_NOERROR |
                        HTML_PARSE_NOWARNING | options);
  if (doc != NULL)
    {
      g_autoptr(GString) decoded = decode_invalid_bytes (data, length,
                                                         doc->encoding != NULL ? (const char *) doc->encoding
                                                                               : encoding);

      if (decoded != NULL)
        {
          xmlFreeDoc (doc);
          doc = htmlReadMemory (decoded->str, (int) decoded->len, url, "UTF-8",
                                HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_NOERROR |
                                HTML_PARSE_NOWARNING | options);
        }
    }
  xmlSetGenericErrorFunc (saved_context, saved_handler);
  if (doc == NULL)
    {
      g_autofree char *shown = display_name (url);

      g_set_error (error, CG_LINKS_ERROR, CG_LINKS_ERROR_PARSE,
                   _("The document “%s” could not be parsed as HTML"), shown);
      return NULL;
    }
  return doc;
}

htmlDocPtr
cg_html_parse (const char   *data,
               gsize         length,
               const char   *url,
               const char   *content_type,
               GError      **error)
{
  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return html_parse (data, length, url, content_type, 0, error);
}

/* ---- CSS ---------------------------------------------------------------- */

/* No library at hand tokenises CSS (libxml2 does not, libcroco is no
 * longer maintained), and links need only a small part of CSS Syntax
 * Level 3: comments, strings with escapes, url() and @import. */

typedef void (*CssRefFunc) (const char *reference,
                            gboolean    is_import,
                            gpointer    user_data);

/* HTML's ASCII whitespace, which is also CSS's whitespace once its input
 * is preprocessed. */
static gboolean
is_ascii_whitespace (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* Consumes an escape after a backslash at *p and appends what it stands
 * for (CSS Syntax §4.3.7). */
static void
consume_escape (const char **p,
                const char  *end,
                GString     *out)
{
  const char *s = *p;
  guint32 code = 0;
  int digits = 0;

  if (s >= end)
    {
      g_string_append_unichar (out, 0xFFFD);
      return;
    }
  while (s < end && digits < 6 && g_ascii_isxdigit (*s))
    {
      code = code * 16 + (guint32) g_ascii_xdigit_value (*s);
      s++;
      digits++;
    }
  if (digits > 0)
    {
      if (s < end && is_ascii_whitespace (*s))
        {
          if (*s == '\r' && s + 1 < end && s[1] == '\n')
            s++;
          s++;
        }
      if (code == 0 || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
        code = 0xFFFD;
      g_string_append_unichar (out, code);
      *p = s;
      return;
    }
  /* Any other character stands for itself, whole if it is multi-byte. */
  {
    const char *next = s + 1;

    while (next < end && ((guchar) *next & 0xC0) == 0x80)
      next++;
    g_string_append_len (out, s, next - s);
    *p = next;
  }
}

/* Reads a quoted string starting at the quote at *p. */
static char *
consume_string (const char **p,
                const char  *end)
{
  char quote = **p;
  const char *s = *p + 1;
  GString *out = g_string_new (NULL);

  while (s < end && *s != quote)
    {
      if (*s == '\n')
        break;  /* An unterminated string ends at the line. */
      if (*s == '\\')
        {
          s++;
          if (s < end && *s == '\n')
            {
              s++;
              continue;
            }
          consume_escape (&s, end, out);
          continue;
        }
      g_string_append_c (out, *s);
      s++;
    }
  if (s < end && *s == quote)
    s++;
  *p = s;
  return g_string_free (out, FALSE);
}

/* At *p, just after "url(": reads the reference, quoted or not, and the
 * closing parenthesis. Returns NULL for a malformed unquoted url(). */
static char *
consume_url (const char **p,
             const char  *end)
{
  const char *s = *p;
  GString *out;

  while (s < end && is_ascii_whitespace (*s))
    s++;
  if (s < end && (*s == '"' || *s == '\''))
    {
      char *value = consume_string (&s, end);

      while (s < end && *s != ')')
        s++;
      if (s < end)
        s++;
      *p = s;
      return value;
    }

  out = g_string_new (NULL);
  while (s < end && *s != ')')
    {
      if (is_ascii_whitespace (*s))
        {
          while (s < end && is_ascii_whitespace (*s))
            s++;
          if (s < end && *s != ')')
            {
              /* "url(a b)" is a bad url: skip to its end. */
              while (s < end && *s != ')')
                s++;
              g_string_truncate (out, 0);
            }
          break;
        }
      if (*s == '\\')
        {
          s++;
          consume_escape (&s, end, out);
          continue;
        }
      if (*s == '"' || *s == '\'' || *s == '(')
        {
          while (s < end && *s != ')')
            s++;
          g_string_truncate (out, 0);
          break;
        }
      g_string_append_c (out, *s);
      s++;
    }
  if (s < end)
    s++;
  *p = s;
  if (out->len == 0)
    {
      g_string_free (out, TRUE);
      return NULL;
    }
  return g_string_free (out, FALSE);
}

static gboolean
is_ident_char (char c)
{
  return g_ascii_isalnum (c) || c == '-' || c == '_' || ((guchar) c & 0x80);
}

static void
scan_css (const char *css,
          gsize       length,
          CssRefFunc  func,
          gpointer    user_data)
{
  const char *p = css;
  const char *end = css + length;

  if (has_utf8_bom (p, length))
    p += 3;

  while (p < end)
    {
      if (*p == '/' && p + 1 < end && p[1] == '*')
        {
          const char *close = g_strstr_len (p + 2, end - p - 2, "*/");

          p = close != NULL ? close + 2 : end;
        }
      else if (*p == '"' || *p == '\'')
        g_free (consume_string (&p, end));
      else if (*p == '\\')
        {
          /* An escaped character is never the start of a token. */
          p = MIN (p + 2, end);
        }
      else if (*p == '@' && end - p >= 7 && g_ascii_strncasecmp (p + 1, "import", 6) == 0 &&
               (p + 7 == end || !is_ident_char (p[7])))
        {
          p += 7;
          while (p < end && is_ascii_whitespace (*p))
            p++;
          if (p < end && (*p == '"' || *p == '\''))
            {
              g_autofree char *ref = consume_string (&p, end);

              func (ref, TRUE, user_data);
            }
          else if (end - p >= 4 && g_ascii_strncasecmp (p, "url(", 4) == 0)
            {
              g_autofree char *ref = NULL;

              p += 4;
              ref = consume_url (&p, end);
              if (ref != NULL)
                func (ref, TRUE, user_data);
            }
        }
      else if ((*p == 'u' || *p == 'U') && end - p >= 4 &&
               g_ascii_strncasecmp (p, "url(", 4) == 0 &&
               (p == css || !is_ident_char (p[-1])))
        {
          g_autofree char *ref = NULL;

          p += 4;
          ref = consume_url (&p, end);
          if (ref != NULL)
            func (ref, FALSE, user_data);
        }
      else
        p++;
    }
}

/* ---- HTML ------------------------------------------------------------- */

typedef struct {
  GUri       *document;
  GUri       *document_base;   /* of its <base href>, or NULL */
  GUri       *base;            /* one of the two */
  /* "scheme://authority" of @base as resolving gives it, for the
   * references resolve_fast() handles; NULL when there is none. */
  char       *origin;
  gsize       origin_length;
  CgLinkFunc  func;
  gpointer    user_data;
  guint       count;
  /* Set while the CSS of one element is scanned. */
  xmlNodePtr  css_node;
  const char *css_element;
  const char *css_attribute;
} Walk;

static gboolean
walk_full (Walk *walk)
{
  return walk->count >= CG_LINKS_MAX_PER_DOCUMENT;
}

/* The characters a path may hold that neither resolving nor normalising
 * changes: RFC 3986's unreserved characters and the sub-delimiters, ":"
 * and "@", but not ";" (session ids hide in path parameters), "(" and ")"
 * (ASP.NET session segments) or "%" (escapes are normalised). */
static gboolean
is_plain_path_char (char c)
{
  return g_ascii_isalnum (c) || strchr ("-._~/!$&'*+,=:@", c) != NULL;
}

/* Resolves an absolute-path reference ("/a/b.html") made only of plain
 * path characters and without "." or ".." segments, which most links of
 * most sites are: the result is then the origin followed by the
 * reference, exactly as cg_url_resolve_uri() would give it (test-links
 * compares the two). Parsing, resolving and normalising every such link
 * with GUri was a sixth of the parser threads' work in the crawl
 * throughput benchmark (tests/bench). Returns NULL for any other
 * reference, which takes the general way. */
static char *
resolve_fast (Walk       *walk,
              const char *reference)
{
  gsize length;
  char *url;

  if (walk->origin == NULL || reference[0] != '/' || reference[1] == '/')
    return NULL;
  for (length = 0; reference[length] != '\0'; length++)
    {
      if (!is_plain_path_char (reference[length]))
        return NULL;
      /* A "." or ".." segment: "/./", "/../", or at the end. */
      if (reference[length] == '/' && reference[length + 1] == '.' &&
          (reference[length + 2] == '/' || reference[length + 2] == '\0' ||
           (reference[length + 2] == '.' && (reference[length + 3] == '/' || reference[length + 3] == '\0'))))
        return NULL;
    }
  if (walk->origin_length + length > CG_URL_MAX_LENGTH)
    return NULL;

  url = g_malloc (walk->origin_length + length + 1);
  memcpy (url, walk->origin, walk->origin_length);
  memcpy (url + walk->origin_length, reference, length + 1);
  return url;
}

/* The origin is what resolving "/" gives, without its path: the host is
 * normalised there as for any other reference. */
static void
walk_set_origin (Walk *walk)
{
  walk->origin = cg_url_resolve_uri (walk->base, "/", CG_URL_NORMALIZE_CRAWL, NULL);
  if (walk->origin != NULL && g_str_has_suffix (walk->origin, "/"))
    {
      walk->origin_length = strlen (walk->origin) - 1;
      walk->origin[walk->origin_length] = '\0';
    }
  else
    g_clear_pointer (&walk->origin, g_free);
}

/* Sets @walk up to emit the links of the document at @document_url,
 * whose first <base href> says @base_href (NULL for none); walk_end()
 * frees what it holds. */
static gboolean
walk_begin (Walk        *walk,
            const char  *document_url,
            const char  *base_href,
            CgLinkFunc   func,
            gpointer     user_data,
            GError     **error)
{
  g_autoptr(GError) local_error = NULL;

  walk->document = cg_url_parse (document_url, CG_URL_NORMALIZE_SYNTAX, &local_error);
  if (walk->document == NULL)
    {
      g_set_error (error, CG_LINKS_ERROR, CG_LINKS_ERROR_BAD_BASE,
                   _("Cannot read links relative to the document: %s"), local_error->message);
      return FALSE;
    }
  /* The first <base href> sets the base for every relative link; one
   * that is not an http(s) URL is ignored, as it could not be fetched. */
  if (base_href != NULL)
    {
      g_autofree char *resolved = cg_url_resolve_uri (walk->document, base_href, CG_URL_NORMALIZE_SYNTAX, NULL);

      if (resolved != NULL)
        walk->document_base = cg_url_parse (resolved, CG_URL_NORMALIZE_SYNTAX, NULL);
    }
  walk->base = walk->document_base != NULL ? walk->document_base : walk->document;
  walk->func = func;
  walk->user_data = user_data;
  walk_set_origin (walk);
  return TRUE;
}

static void
walk_end (Walk *walk)
{
  g_clear_pointer (&walk->origin, g_free);
  g_clear_pointer (&walk->document, g_uri_unref);
  g_clear_pointer (&walk->document_base, g_uri_unref);
}

static void
emit (Walk        *walk,
      xmlNodePtr   node,
      const char  *reference,
      CgHopType    hop,
      const char  *element,
      const char  *attribute,
      const char  *text)
{
  g_autofree char *url = NULL;
  const char *p = reference;
  CgLink link;

  if (reference == NULL || walk_full (walk))
    return;
  while (g_ascii_isspace (*p))
    p++;
  /* Same-document fragments are the page itself. */
  if (*p == '\0' || *p == '#')
    return;

  url = resolve_fast (walk, p);
  if (url == NULL)
    url = cg_url_resolve_uri (walk->base, p, CG_URL_NORMALIZE_CRAWL, NULL);
  if (url == NULL)
    return;

  link.url = url;
  link.hop = hop;
  link.element = (char *) element;
  link.attribute = (char *) attribute;
  link.text = (char *) text;
  walk->count++;
  walk->func (&link, node, walk->user_data);
}

static void
css_ref_cb (const char *reference,
            gboolean    is_import,
            gpointer    user_data)
{
  Walk *walk = user_data;

  emit (walk, walk->css_node, reference, CG_HOP_EMBED, walk->css_element,
        is_import ? "@import" : (walk->css_attribute != NULL ? walk->css_attribute : "url()"),
        NULL);
}

static void
scan_css_of (Walk        *walk,
             xmlNodePtr   node,
             const char  *css,
             const char  *element,
             const char  *attribute)
{
  if (css == NULL)
    return;
  walk->css_node = node;
  walk->css_element = element;
  walk->css_attribute = attribute;
  scan_css (css, strlen (css), css_ref_cb, walk);
  walk->css_node = NULL;
}

/* Emits every image URL of a srcset attribute's value. */
static void
emit_srcset (Walk        *walk,
             xmlNodePtr   node,
             const char  *srcset,
             const char  *element,
             const char  *attribute)
{
  g_auto(GStrv) urls = cg_links_parse_srcset (srcset);

  for (guint i = 0; urls[i] != NULL; i++)
    emit (walk, node, urls[i], CG_HOP_EMBED, element, attribute, NULL);
}

static char *
get_attr (xmlNodePtr  node,
          const char *name)
{
  xmlChar *value = xmlGetProp (node, (const xmlChar *) name);
  char *copy;

  if (value == NULL)
    return NULL;
  copy = g_strdup ((const char *) value);
  xmlFree (value);
  return copy;
}

/* White space collapsed and trimmed, at most CG_LINKS_MAX_ANCHOR_TEXT
 * characters, cut on a character boundary. */
static char *
clean_text (const char *text)
{
  GString *out = g_string_new (NULL);
  g_autofree char *valid = g_utf8_make_valid (text != NULL ? text : "", -1);
  gboolean pending_space = FALSE;
  guint chars = 0;

  for (const char *p = valid; *p != '\0' && chars < CG_LINKS_MAX_ANCHOR_TEXT; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isspace (c) || c == 0x00A0)
        {
          pending_space = out->len > 0;
          continue;
        }
      if (pending_space)
        {
          g_string_append_c (out, ' ');
          chars++;
          pending_space = FALSE;
          if (chars >= CG_LINKS_MAX_ANCHOR_TEXT)
            break;
        }
      g_string_append_unichar (out, c);
      chars++;
    }
  return g_string_free (out, FALSE);
}

/* The text of a link, or when it has none (an image link), the alt text
 * of its first image. */
static char *
anchor_text (xmlNodePtr node)
{
  xmlChar *content = xmlNodeGetContent (node);
  char *text = clean_text ((const char *) content);
  xmlNodePtr child = node->children;

  xmlFree (content);
  if (*text != '\0')
    return text;

  while (child != NULL && child != node)
    {
      if (child->type == XML_ELEMENT_NODE && xmlStrcasecmp (child->name, (const xmlChar *) "img") == 0)
        {
          g_autofree char *alt = get_attr (child, "alt");

          if (alt != NULL)
            {
              g_free (text);
              return clean_text (alt);
            }
        }
      if (child->type == XML_ELEMENT_NODE && child->children != NULL)
        child = child->children;
      else
        {
          while (child != node && child->next == NULL)
            child = child->parent;
          if (child != node)
            child = child->next;
        }
    }
  return text;
}

/* "5; url=page.html", "0;URL='page.html'", "3, url = page.html": the
 * HTML standard's refresh parsing, without the timing. */
static char *
meta_refresh_target (const char *content)
{
  const char *p = content;
  const char *start;
  const char *end;

  while (g_ascii_isspace (*p))
    p++;
  while (g_ascii_isdigit (*p) || *p == '.')
    p++;
  while (g_ascii_isspace (*p))
    p++;
  if (*p == ';' || *p == ',')
    p++;
  while (g_ascii_isspace (*p))
    p++;
  if (g_ascii_strncasecmp (p, "url", 3) == 0)
    {
      const char *q = p + 3;

      while (g_ascii_isspace (*q))
        q++;
      if (*q == '=')
        {
          p = q + 1;
          while (g_ascii_isspace (*p))
            p++;
        }
    }
  if (*p == '"' || *p == '\'')
    {
      char quote = *p++;

      start = p;
      end = strchr (p, quote);
      if (end == NULL)
        end = p + strlen (p);
    }
  else
    {
      start = p;
      end = p + strlen (p);
      while (end > start && g_ascii_isspace (end[-1]))
        end--;
    }
  if (end == start)
    return NULL;
  return g_strndup (start, end - start);
}

static gboolean
rel_is_requisite (const char *rel)
{
  static const char * const requisite_rels[] = {
    "stylesheet", "icon", "apple-touch-icon", "apple-touch-icon-precomposed",
    "mask-icon", "preload", "modulepreload", "manifest",
  };
  g_auto(GStrv) tokens = NULL;

  if (rel == NULL)
    return FALSE;
  tokens = g_strsplit_set (rel, " \t\n\r\f", -1);
  for (guint i = 0; tokens[i] != NULL; i++)
    for (guint j = 0; j < G_N_ELEMENTS (requisite_rels); j++)
      if (g_ascii_strcasecmp (tokens[i], requisite_rels[j]) == 0)
        return TRUE;
  return FALSE;
}

/* Reads an attribute of an element, as a new string (NULL when the
 * element has no such attribute), for element_references(). */
typedef char *(*AttributeFunc) (gconstpointer  element,
                                const char    *attribute);

/* Takes one reference element_references() found: a URL, or a srcset
 * attribute's value when @srcset. */
typedef void  (*ReferenceFunc) (gpointer       user_data,
                                gboolean       srcset,
                                const char    *element,
                                const char    *attribute,
                                const char    *value,
                                CgHopType      hop);

static void
attribute_reference (const char    *name,
                     AttributeFunc  get,
                     gconstpointer  element,
                     const char    *attribute,
                     CgHopType      hop,
                     gboolean       srcset,
                     ReferenceFunc  found,
                     gpointer       user_data)
{
  g_autofree char *value = get (element, attribute);

  if (value != NULL)
    found (user_data, srcset, name, attribute, value, hop);
}

/* What an element's name says about the references it may hold, and
 * the other elements the readers treat apart. Both readers ask for each
 * element they meet: comparing its name with each of the names below in
 * turn was about 3 % of a parser thread's time in the crawl throughput
 * benchmark (tests/bench), where one hash lookup does. */
typedef enum {
  ELEMENT_KIND_OTHER,
  ELEMENT_KIND_A,
  ELEMENT_KIND_AREA,
  ELEMENT_KIND_BASE,
  ELEMENT_KIND_STYLE,
  ELEMENT_KIND_LINK,
  ELEMENT_KIND_IMG,          /* src and srcset */
  ELEMENT_KIND_SOURCE,       /* src and srcset */
  ELEMENT_KIND_SRC,          /* src alone */
  ELEMENT_KIND_VIDEO,
  ELEMENT_KIND_OBJECT,
  ELEMENT_KIND_INPUT,
  ELEMENT_KIND_BACKGROUND,   /* the old background attribute */
  ELEMENT_KIND_META,
  ELEMENT_KIND_FORM,
} ElementKind;

static gpointer
build_element_kinds (gpointer data)
{
  static const struct {
    const char  *name;
    ElementKind  kind;
  } kinds[] = {
    { "a", ELEMENT_KIND_A }, { "area", ELEMENT_KIND_AREA }, { "base", ELEMENT_KIND_BASE },
    { "style", ELEMENT_KIND_STYLE }, { "link", ELEMENT_KIND_LINK }, { "img", ELEMENT_KIND_IMG },
    { "source", ELEMENT_KIND_SOURCE }, { "script", ELEMENT_KIND_SRC }, { "iframe", ELEMENT_KIND_SRC },
    { "frame", ELEMENT_KIND_SRC }, { "embed", ELEMENT_KIND_SRC }, { "audio", ELEMENT_KIND_SRC },
    { "track", ELEMENT_KIND_SRC }, { "video", ELEMENT_KIND_VIDEO }, { "object", ELEMENT_KIND_OBJECT },
    { "input", ELEMENT_KIND_INPUT }, { "body", ELEMENT_KIND_BACKGROUND },
    { "table", ELEMENT_KIND_BACKGROUND }, { "td", ELEMENT_KIND_BACKGROUND },
    { "th", ELEMENT_KIND_BACKGROUND }, { "meta", ELEMENT_KIND_META }, { "form", ELEMENT_KIND_FORM },
  };
  GHashTable *table = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    g_hash_table_insert (table, (gpointer) kinds[i].name, GUINT_TO_POINTER (kinds[i].kind));
  return table;
}

static ElementKind
element_kind (const char *name)
{
  static GOnce once = G_ONCE_INIT;
  GHashTable *kinds = g_once (&once, build_element_kinds, NULL);

  /* ELEMENT_KIND_OTHER is 0, what a name not in the table gives. */
  return (ElementKind) GPOINTER_TO_UINT (g_hash_table_lookup (kinds, name));
}

/* The references in the attributes of an element named @name, of
 * @kind (element_kind()), in the order the page gives them, other than
 * those of <a> and <area> (whose text each reader gathers its own way)
 * and of CSS (a <style> block, a style attribute). Both readers, the
 * tree walk (visit_element()) and the SAX reader
 * (reader_start_element()), take them from here, so that they read the
 * same attributes of the same elements. */
static void
element_references (ElementKind    kind,
                    const char    *name,
                    AttributeFunc  get,
                    gconstpointer  element,
                    ReferenceFunc  found,
                    gpointer       user_data)
{
#define REFERENCE(attribute, hop) \
  attribute_reference (name, get, element, attribute, hop, FALSE, found, user_data)
#define SRCSET(attribute) \
  attribute_reference (name, get, element, attribute, CG_HOP_EMBED, TRUE, found, user_data)

  switch (kind)
    {
    case ELEMENT_KIND_LINK:
      {
        g_autofree char *rel = get (element, "rel");

        REFERENCE ("href", rel_is_requisite (rel) ? CG_HOP_EMBED : CG_HOP_NAVLINK);
        SRCSET ("imagesrcset");
      }
      break;
    case ELEMENT_KIND_IMG:
    case ELEMENT_KIND_SOURCE:
      REFERENCE ("src", CG_HOP_EMBED);
      SRCSET ("srcset");
      break;
    case ELEMENT_KIND_SRC:
      REFERENCE ("src", CG_HOP_EMBED);
      break;
    case ELEMENT_KIND_VIDEO:
      REFERENCE ("src", CG_HOP_EMBED);
      REFERENCE ("poster", CG_HOP_EMBED);
      break;
    case ELEMENT_KIND_OBJECT:
      REFERENCE ("data", CG_HOP_EMBED);
      break;
    case ELEMENT_KIND_INPUT:
      {
        g_autofree char *type = get (element, "type");

        if (type != NULL && g_ascii_strcasecmp (type, "image") == 0)
          REFERENCE ("src", CG_HOP_EMBED);
      }
      break;
    case ELEMENT_KIND_BACKGROUND:
      REFERENCE ("background", CG_HOP_EMBED);
      break;
    case ELEMENT_KIND_META:
      {
        g_autofree char *equiv = get (element, "http-equiv");
        g_autofree char *content = NULL;
        g_autofree char *target = NULL;

        if (equiv != NULL && g_ascii_strcasecmp (equiv, "refresh") == 0)
          content = get (element, "content");
        target = content != NULL ? meta_refresh_target (content) : NULL;
        if (target != NULL)
          found (user_data, FALSE, name, "content", target, CG_HOP_REDIRECT);
      }
      break;
    case ELEMENT_KIND_FORM:
      {
        g_autofree char *method = get (element, "method");

        /* A form without a method is a GET form. Its action URL is
         * emitted without fields; POST forms change state and are not
         * followed. */
        if (method == NULL || *method == '\0' || g_ascii_strcasecmp (method, "get") == 0)
          REFERENCE ("action", CG_HOP_SUBMIT);
      }
      break;
    case ELEMENT_KIND_OTHER:
    case ELEMENT_KIND_A:
    case ELEMENT_KIND_AREA:
    case ELEMENT_KIND_BASE:
    case ELEMENT_KIND_STYLE:
    default:
      break;
    }
#undef REFERENCE
#undef SRCSET
}

/* The tree walk's side of element_references(). */
typedef struct {
  Walk       *walk;
  xmlNodePtr  node;
} TreeVisit;

static char *
tree_attribute (gconstpointer  element,
                const char    *attribute)
{
  return get_attr ((xmlNodePtr) element, attribute);
}

static void
tree_reference_cb (gpointer    user_data,
                   gboolean    srcset,
                   const char *element,
                   const char *attribute,
                   const char *value,
                   CgHopType   hop)
{
  TreeVisit *visit = user_data;

  if (srcset)
    emit_srcset (visit->walk, visit->node, value, element, attribute);
  else
    emit (visit->walk, visit->node, value, hop, element, attribute, NULL);
}

static void
visit_element (Walk       *walk,
               xmlNodePtr  node)
{
  const char *name = (const char *) node->name;
  ElementKind kind = element_kind (name);
  g_autofree char *style = NULL;

  if (kind == ELEMENT_KIND_A || kind == ELEMENT_KIND_AREA)
    {
      g_autofree char *href = get_attr (node, "href");
      g_autofree char *alt = NULL;
      g_autofree char *text = NULL;

      if (href != NULL)
        {
          if (kind == ELEMENT_KIND_A)
            text = anchor_text (node);
          else
            {
              alt = get_attr (node, "alt");
              text = clean_text (alt);
            }
          emit (walk, node, href, CG_HOP_NAVLINK, name, "href", text);
        }
    }
  else
    element_references (kind, name, tree_attribute, node, tree_reference_cb, &(TreeVisit) { walk, node });
  if (kind == ELEMENT_KIND_STYLE)
    {
      xmlChar *css = xmlNodeGetContent (node);

      scan_css_of (walk, node, (const char *) css, "style", NULL);
      xmlFree (css);
    }

  style = get_attr (node, "style");
  if (style != NULL)
    scan_css_of (walk, node, style, name, "style");
}

/* Walks the tree without recursion: recovered markup can nest elements
 * far deeper than the C stack should go. */
static xmlNodePtr
next_node (xmlDocPtr  doc,
           xmlNodePtr node)
{
  if (node->type == XML_ELEMENT_NODE && node->children != NULL)
    return node->children;
  while (node != NULL && node->next == NULL)
    {
      node = node->parent;
      if (node == (xmlNodePtr) doc)
        return NULL;
    }
  return node != NULL ? node->next : NULL;
}

static xmlNodePtr
find_base_element (htmlDocPtr doc)
{
  for (xmlNodePtr node = doc->children; node != NULL; node = next_node (doc, node))
    if (node->type == XML_ELEMENT_NODE && g_str_equal ((const char *) node->name, "base") &&
        xmlHasProp (node, (const xmlChar *) "href"))
      return node;
  return NULL;
}

gboolean
cg_links_foreach_in_document (htmlDocPtr   doc,
                              const char  *document_url,
                              CgLinkFunc   func,
                              gpointer     user_data,
                              GError     **error)
{
  Walk walk = { 0 };
  xmlNodePtr base_element;
  g_autofree char *base_href = NULL;

  g_return_val_if_fail (doc != NULL, FALSE);
  g_return_val_if_fail (document_url != NULL, FALSE);
  g_return_val_if_fail (func != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  base_element = find_base_element (doc);
  if (base_element != NULL)
    base_href = get_attr (base_element, "href");
  if (!walk_begin (&walk, document_url, base_href, func, user_data, error))
    return FALSE;
  for (xmlNodePtr node = doc->children; node != NULL && !walk_full (&walk); node = next_node (doc, node))
    if (node->type == XML_ELEMENT_NODE)
      visit_element (&walk, node);
  walk_end (&walk);
  return TRUE;
}

/* ---- deduplicating collectors -------------------------------------------- */

typedef struct {
  GPtrArray  *links;
  GHashTable *seen;   /* "E url" → TRUE */
} Collector;

static void
collect_cb (const CgLink *link,
            xmlNodePtr    node,
            gpointer      user_data)
{
  Collector *collector = user_data;
  gsize length = strlen (link->url);
  char *key = g_malloc (length + 3);

  key[0] = cg_hop_type_to_char (link->hop);
  key[1] = ' ';
  memcpy (key + 2, link->url, length + 1);

  if (!g_hash_table_add (collector->seen, key))
    return;
  g_ptr_array_add (collector->links, cg_link_copy (link));
}

/* ---- links without a tree ------------------------------------------------ */

/* The crawler needs only the links of a page, not its tree. Building the
 * tree and freeing it again (a node, attributes and texts, each its own
 * allocation) was two fifths of the parser threads' work in the crawl
 * throughput benchmark (tests/bench), so the extractor reads the page
 * with libxml2's HTML parser in SAX mode and keeps only what
 * visit_element() would read from the tree. The parser sends the same
 * events whether or not a tree is built from them (blanks included, as
 * no HTML_PARSE_NOBLANKS is given); only the tree builder's depth limit
 * is its own, and the reader applies it too. So the same links come out,
 * in the same order, with the same anchor texts: test-links compares the
 * two on tricky markup and on every page of the demo site.
 *
 * Most pages do not even go through libxml2's parser: cg-link-scanner.c
 * gives the reader the events libxml2 would, for the pages it is sure
 * of, at a third of the cost.
 *
 * What depends on the whole page is kept for the end: the first <base
 * href> applies to links before it, so references are resolved once the
 * page is read; the text of a link is known at its end tag. */

typedef enum {
  RECORD_REFERENCE,   /* one reference */
  RECORD_SRCSET,      /* a srcset attribute */
  RECORD_CSS,         /* CSS text, a <style> block or a style attribute */
} RecordKind;

typedef struct {
  RecordKind  kind;
  CgHopType   hop;
  char       *element;
  const char *attribute;   /* static; NULL for a <style> block */
  char       *value;
  /* <a> and <area>: the link's text, set at the end tag of an <a> (see
   * AnchorText). */
  char       *text;
  gboolean    has_text;
} Record;

/* The text of an open <a>, cleaned as it comes, as clean_text() would
 * clean the whole of it: the same characters, the same spaces, cut at
 * the same length, without keeping more than that of a long link. */
typedef struct {
  guint     record;        /* its record */
  GString  *text;
  gboolean  pending_space;
  guint     chars;
  char     *alt;           /* of its first <img alt> */
} AnchorText;

typedef struct {
  GArray     *records;     /* Record */
  GPtrArray  *anchors;     /* AnchorText, the <a> elements open now */
  int         style_record;  /* the record of an open <style> block, or -1 */
  GString    *style_text;
  char       *base_href;
  gboolean    started;
  guint       depth;       /* elements open */
} SaxReader;

static void
record_clear (Record *record)
{
  g_free (record->element);
  g_free (record->value);
  g_free (record->text);
}

static void
anchor_text_free (AnchorText *anchor)
{
  if (anchor == NULL)
    return;
  if (anchor->text != NULL)
    g_string_free (anchor->text, TRUE);
  g_free (anchor->alt);
  g_free (anchor);
}

/* Adds one character of a link's text: spaces, in runs, become one
 * space between words. */
static inline void
anchor_text_push (AnchorText *anchor,
                  gunichar    c,
                  gboolean    is_space)
{
  if (is_space)
    {
      anchor->pending_space = anchor->text->len > 0;
      return;
    }
  if (anchor->pending_space)
    {
      g_string_append_c (anchor->text, ' ');
      anchor->chars++;
      anchor->pending_space = FALSE;
      if (anchor->chars >= CG_LINKS_MAX_ANCHOR_TEXT)
        return;
    }
  if (c < 0x80)
    g_string_append_c (anchor->text, (char) c);
  else
    g_string_append_unichar (anchor->text, c);
  anchor->chars++;
}

static gboolean
is_ascii_text (const char *text,
               gsize       length)
{
  for (gsize i = 0; i < length; i++)
    if ((guchar) text[i] >= 0x80 || text[i] == '\0')
      return FALSE;
  return TRUE;
}

static void
anchor_text_add (AnchorText *anchor,
                 const char *text,
                 gsize       length)
{
  g_autofree char *valid = NULL;

  if (anchor->chars >= CG_LINKS_MAX_ANCHOR_TEXT)
    return;
  /* Most link texts are ASCII, read without decoding every character;
   * HTML's spaces are g_unichar_isspace()'s in ASCII. */
  if (is_ascii_text (text, length))
    {
      for (gsize i = 0; i < length && anchor->chars < CG_LINKS_MAX_ANCHOR_TEXT; i++)
        anchor_text_push (anchor, (guchar) text[i], is_ascii_whitespace (text[i]));
      return;
    }
  valid = g_utf8_make_valid (text, (gssize) length);
  for (const char *p = valid; *p != '\0' && anchor->chars < CG_LINKS_MAX_ANCHOR_TEXT; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      anchor_text_push (anchor, c, g_unichar_isspace (c) || c == 0x00A0);
    }
}

/* An attribute's value as xmlGetProp() gives it from the tree: "" for an
 * attribute without a value, NULL for none. */
static const char *
sax_attr (const xmlChar **atts,
          const char     *name)
{
  if (atts == NULL)
    return NULL;
  for (guint i = 0; atts[i] != NULL; i += 2)
    if (strcmp ((const char *) atts[i], name) == 0)
      return atts[i + 1] != NULL ? (const char *) atts[i + 1] : "";
  return NULL;
}

static guint
sax_add (SaxReader   *reader,
         RecordKind   kind,
         const char  *element,
         const char  *attribute,
         const char  *value,
         CgHopType    hop)
{
  Record record = { kind, hop, g_strdup (element), attribute, g_strdup (value), NULL, FALSE };

  g_array_append_val (reader->records, record);
  return reader->records->len - 1;
}

/* The SAX reader's side of element_references(). */
static char *
sax_attribute (gconstpointer  element,
               const char    *attribute)
{
  return g_strdup (sax_attr ((const xmlChar **) element, attribute));
}

static void
sax_reference_cb (gpointer    user_data,
                  gboolean    srcset,
                  const char *element,
                  const char *attribute,
                  const char *value,
                  CgHopType   hop)
{
  sax_add (user_data, srcset ? RECORD_SRCSET : RECORD_REFERENCE, element, attribute, value, hop);
}

static SaxReader *
sax_reader_of (void *ctx)
{
  return ((xmlParserCtxtPtr) ctx)->_private;
}

static void
sax_start_document_cb (void *ctx)
{
  sax_reader_of (ctx)->started = TRUE;
}

/* What visit_element() reads of an element, in the same order. */
static void
reader_start_element (gpointer     user_data,
                      const char  *name,
                      const char **attributes)
{
  SaxReader *reader = user_data;
  const xmlChar **atts = (const xmlChar **) attributes;
  ElementKind kind = element_kind (name);
  const char *style;

  if (reader->base_href == NULL && kind == ELEMENT_KIND_BASE && sax_attr (atts, "href") != NULL)
    reader->base_href = g_strdup (sax_attr (atts, "href"));

  /* The first image with an alt text in an <a> names a link without text. */
  if (kind == ELEMENT_KIND_IMG && sax_attr (atts, "alt") != NULL)
    for (guint i = 0; i < reader->anchors->len; i++)
      {
        AnchorText *anchor = g_ptr_array_index (reader->anchors, i);

        if (anchor != NULL && anchor->alt == NULL)
          anchor->alt = g_strdup (sax_attr (atts, "alt"));
      }

  if (kind == ELEMENT_KIND_A || kind == ELEMENT_KIND_AREA)
    {
      const char *href = sax_attr (atts, "href");

      if (href != NULL)
        {
          guint index = sax_add (reader, RECORD_REFERENCE, name, "href", href, CG_HOP_NAVLINK);
          Record *record = &g_array_index (reader->records, Record, index);

          record->has_text = TRUE;
          if (kind == ELEMENT_KIND_AREA)
            record->text = clean_text (sax_attr (atts, "alt"));
          else
            {
              AnchorText *anchor = g_new0 (AnchorText, 1);

              anchor->record = index;
              anchor->text = g_string_new (NULL);
              g_ptr_array_add (reader->anchors, anchor);
            }
        }
      if (kind == ELEMENT_KIND_A)
        {
          /* An <a> without href is open too: its end tag must find it. */
          if (href == NULL)
            g_ptr_array_add (reader->anchors, NULL);
        }
    }
  else
    element_references (kind, name, sax_attribute, atts, sax_reference_cb, reader);
  if (kind == ELEMENT_KIND_STYLE && reader->style_record < 0)
    {
      /* The block's text comes before its end tag. */
      reader->style_record = (int) sax_add (reader, RECORD_CSS, "style", NULL, NULL, CG_HOP_EMBED);
      reader->style_text = g_string_new (NULL);
    }

  style = sax_attr (atts, "style");
  if (style != NULL)
    sax_add (reader, RECORD_CSS, name, "style", style, CG_HOP_EMBED);
}

/* The name the tree gives an element: the tree builder
 * (xmlSAX2StartElement()) takes what follows the first ':' of a name as
 * in a namespace, even in HTML ("o:p" is a p, "x:a" an a), where the
 * parser's SAX events keep the whole name. */
static const char *
tree_element_name (const xmlChar *name)
{
  const char *colon = strchr ((const char *) name, ':');

  if (colon == NULL || colon == (const char *) name || colon[1] == '\0')
    return (const char *) name;
  return colon + 1;
}

static void
sax_start_element_cb (void           *ctx,
                      const xmlChar  *name,
                      const xmlChar **atts)
{
  SaxReader *reader = sax_reader_of (ctx);

  /* The tree builder stops the parser at an element deeper than
   * xmlParserMaxDepth, which it leaves out of the tree: so does this. */
  if (reader->depth > xmlParserMaxDepth)
    {
      xmlStopParser (ctx);
      return;
    }
  reader->depth++;
  reader_start_element (reader, tree_element_name (name), (const char **) atts);
}

static void
anchor_close (SaxReader  *reader,
              AnchorText *anchor)
{
  Record *record = &g_array_index (reader->records, Record, anchor->record);

  if (anchor->text->len > 0)
    record->text = g_string_free (g_steal_pointer (&anchor->text), FALSE);
  else
    record->text = clean_text (anchor->alt);
  anchor_text_free (anchor);
}

static void
style_close (SaxReader *reader)
{
  Record *record = &g_array_index (reader->records, Record, reader->style_record);

  record->value = g_string_free (g_steal_pointer (&reader->style_text), FALSE);
  reader->style_record = -1;
}

static void
reader_end_element (gpointer    user_data,
                    const char *name)
{
  SaxReader *reader = user_data;

  if (g_str_equal (name, "a") && reader->anchors->len > 0)
    {
      AnchorText *anchor = g_ptr_array_steal_index (reader->anchors, reader->anchors->len - 1);

      if (anchor != NULL)
        anchor_close (reader, anchor);
    }
  else if (g_str_equal (name, "style") && reader->style_record >= 0)
    style_close (reader);
}

static void
sax_end_element_cb (void          *ctx,
                    const xmlChar *name)
{
  SaxReader *reader = sax_reader_of (ctx);

  if (reader->depth > 0)
    reader->depth--;
  reader_end_element (reader, tree_element_name (name));
}

/* Text and CDATA (the content of <script> and <style>) count alike, as
 * in the tree's xmlNodeGetContent(). */
static void
reader_characters (gpointer    user_data,
                   const char *text,
                   gsize       length)
{
  SaxReader *reader = user_data;

  if (length == 0)
    return;
  for (guint i = 0; i < reader->anchors->len; i++)
    {
      AnchorText *anchor = g_ptr_array_index (reader->anchors, i);

      if (anchor != NULL)
        anchor_text_add (anchor, text, length);
    }
  if (reader->style_text != NULL)
    g_string_append_len (reader->style_text, text, length);
}

static void
sax_characters_cb (void          *ctx,
                   const xmlChar *text,
                   int            length)
{
  if (length > 0)
    reader_characters (sax_reader_of (ctx), (const char *) text, (gsize) length);
}

static const CgLinkScannerEvents scanner_events = {
  reader_start_element,
  reader_end_element,
  reader_characters,
};

/* At the end the parser closes what is open; if it stopped early, what
 * an element held so far is what the tree would have held. */
static void
sax_reader_finish (SaxReader *reader)
{
  while (reader->anchors->len > 0)
    {
      AnchorText *anchor = g_ptr_array_steal_index (reader->anchors, reader->anchors->len - 1);

      if (anchor != NULL)
        anchor_close (reader, anchor);
    }
  if (reader->style_record >= 0)
    style_close (reader);
}

/* Forgets what the reader read, to read the page again. */
static void
sax_reader_clear (SaxReader *reader)
{
  g_array_set_size (reader->records, 0);
  g_ptr_array_set_size (reader->anchors, 0);
  reader->style_record = -1;
  if (reader->style_text != NULL)
    g_string_free (g_steal_pointer (&reader->style_text), TRUE);
  g_clear_pointer (&reader->base_href, g_free);
  reader->started = FALSE;
  reader->depth = 0;
}

static void
sax_handler_init (xmlSAXHandler *sax)
{
  memset (sax, 0, sizeof *sax);
  /* Not XML_SAX2_MAGIC: the HTML parser calls startElement, as it does
   * for the tree builder. */
  sax->initialized = 1;
  sax->startDocument = sax_start_document_cb;
  sax->startElement = sax_start_element_cb;
  sax->endElement = sax_end_element_cb;
  sax->characters = sax_characters_cb;
  sax->cdataBlock = sax_characters_cb;
}

/* Reads the records of @data with @ctxt, whose handlers are the SAX
 * reader's, as encoded in @encoding if not NULL. FALSE when the parser
 * could not start a document, as html_parse() fails when it gets no
 * tree. */
static gboolean
sax_read (htmlParserCtxtPtr   ctxt,
          SaxReader          *reader,
          const char         *data,
          gsize               length,
          const char         *url,
          const char         *encoding)
{
  xmlParserInputBufferPtr input;
  xmlParserInputPtr stream;

  /* What htmlCtxtReadMemory() does, but for one thing: a context that
   * is reset reads a page of no declared encoding as ISO-8859-1 at its
   * first non-ASCII byte, where the context of htmlReadMemory(), used for
   * trees (html_parse()), reads UTF-8 first; the same must come out. */
  htmlCtxtReset (ctxt);
  ctxt->charset = XML_CHAR_ENCODING_UTF8;
  input = xmlParserInputBufferCreateMem (data, (int) length, XML_CHAR_ENCODING_NONE);
  if (input == NULL)
    return FALSE;
  stream = xmlNewIOInputStream (ctxt, input, XML_CHAR_ENCODING_NONE);
  if (stream == NULL)
    {
      xmlFreeParserInputBuffer (input);
      return FALSE;
    }
  inputPush (ctxt, stream);
  htmlCtxtUseOptions (ctxt, HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
  ctxt->html = 1;
  if (encoding != NULL)
    {
      xmlCharEncodingHandlerPtr handler = xmlFindCharEncodingHandler (encoding);

      if (handler != NULL)
        {
          xmlSwitchToEncoding (ctxt, handler);
          if (ctxt->input->encoding != NULL)
            xmlFree ((xmlChar *) ctxt->input->encoding);
          ctxt->input->encoding = xmlStrdup ((const xmlChar *) encoding);
        }
    }
  if (ctxt->input->filename == NULL)
    ctxt->input->filename = (char *) xmlStrdup ((const xmlChar *) url);

  ctxt->_private = reader;
  htmlParseDocument (ctxt);
  ctxt->_private = NULL;
  /* No handler builds one; just in case. */
  g_clear_pointer (&ctxt->myDoc, xmlFreeDoc);
  sax_reader_finish (reader);
  return reader->started;
}

/* Emits the records through emit(), as cg_links_foreach_in_document()
 * would emit the links of the tree. */
static gboolean
sax_emit (SaxReader   *reader,
          const char  *document_url,
          CgLinkFunc   func,
          gpointer     user_data,
          GError     **error)
{
  Walk walk = { 0 };

  if (!walk_begin (&walk, document_url, reader->base_href, func, user_data, error))
    return FALSE;
  for (guint i = 0; i < reader->records->len && !walk_full (&walk); i++)
    {
      const Record *record = &g_array_index (reader->records, Record, i);

      switch (record->kind)
        {
        case RECORD_REFERENCE:
          emit (&walk, NULL, record->value, record->hop, record->element, record->attribute,
                record->has_text ? record->text : NULL);
          break;
        case RECORD_SRCSET:
          emit_srcset (&walk, NULL, record->value, record->element, record->attribute);
          break;
        case RECORD_CSS:
          scan_css_of (&walk, NULL, record->value, record->element, record->attribute);
          break;
        default:
          g_assert_not_reached ();
        }
    }
  walk_end (&walk);
  return TRUE;
}

/* An extractor's parser context is made anew after this many documents,
 * so that its dictionary of element and attribute names, which grows with
 * every new name it meets, stays small. */
#define MAX_PARSES_PER_CONTEXT 256

struct _CgLinkExtractor
{
  htmlParserCtxtPtr ctxt;
  guint             parses;
  xmlSAXHandler     sax;
};

/**
 * cg_link_extractor_new:
 *
 * Returns: (transfer full): an extractor that reuses one libxml2 parser
 *   context for the documents it reads
 */
CgLinkExtractor *
cg_link_extractor_new (void)
{
  CgLinkExtractor *self = g_new0 (CgLinkExtractor, 1);

  xmlInitParser ();
  sax_handler_init (&self->sax);
  return self;
}

void
cg_link_extractor_free (CgLinkExtractor *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->ctxt, htmlFreeParserCtxt);
  g_free (self);
}

/**
 * cg_link_extractor_extract_html:
 *
 * Does what cg_links_extract_html() does, with the extractor's parser
 * context: setting up a context (and its dictionary) for each page was a
 * tenth of the parser threads' work in the crawl throughput benchmark
 * (tests/bench).
 */
GPtrArray *
cg_link_extractor_extract_html (CgLinkExtractor  *self,
                                const char       *data,
                                gsize             length,
                                const char       *document_url,
                                const char       *content_type,
                                GError          **error)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) links = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_link_free);
  g_autoptr(GArray) records = g_array_new (FALSE, FALSE, sizeof (Record));
  g_autoptr(GPtrArray) anchors = g_ptr_array_new_with_free_func ((GDestroyNotify) anchor_text_free);
  SaxReader reader = { records, anchors, -1, NULL, NULL, FALSE, 0 };
  Collector collector = { links, seen };
  g_autofree char *encoding = NULL;
  gboolean utf8_bom;
  gboolean utf16_bom;
  gboolean ok;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (document_url != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (self->ctxt != NULL && self->parses >= MAX_PARSES_PER_CONTEXT)
    g_clear_pointer (&self->ctxt, htmlFreeParserCtxt);
  if (!check_input (data, length, document_url, TRUE, error))
    return NULL;
  g_array_set_clear_func (records, (GDestroyNotify) record_clear);
  raise_depth_limit ();

  /* As in html_parse(): a byte order mark settles the encoding. */
  utf8_bom = has_utf8_bom (data, length);
  utf16_bom = has_utf16_bom (data, length);
  if (!utf8_bom && !utf16_bom)
    {
      encoding = charset_from_content_type (content_type);
      if (encoding == NULL)
        encoding = sniffed_encoding (data, length);
    }

  /* Most pages are read without libxml2's parser (see
   * cg-link-scanner.c), past a UTF-8 byte order mark, which libxml2
   * skips; those it declines are read again with it. */
  if (length > 0 && !utf16_bom &&
      cg_link_scanner_read (utf8_bom ? data + 3 : data, utf8_bom ? length - 3 : length,
                            encoding, &scanner_events, &reader))
    {
      reader.started = TRUE;
      sax_reader_finish (&reader);
    }
  else if (length > 0)
    {
      sax_reader_clear (&reader);
      if (self->ctxt == NULL)
        {
          self->ctxt = htmlNewParserCtxt ();
          self->parses = 0;
          if (self->ctxt == NULL)
            {
              g_set_error_literal (error, CG_LINKS_ERROR, CG_LINKS_ERROR_PARSE,
                                   _("Could not start the HTML parser (out of memory)"));
              return NULL;
            }
          memcpy (self->ctxt->sax, &self->sax, sizeof self->sax);
        }
      self->parses++;

      ok = sax_read (self->ctxt, &reader, data, length, document_url, encoding);
      if (ok)
        {
          /* As html_parse() does for the same page. */
          const char *read_in = self->ctxt->input != NULL && self->ctxt->input->encoding != NULL
                                ? (const char *) self->ctxt->input->encoding : encoding;
          g_autoptr(GString) decoded = decode_invalid_bytes (data, length, read_in);

          if (decoded != NULL)
            {
              sax_reader_clear (&reader);
              ok = sax_read (self->ctxt, &reader, decoded->str, decoded->len, document_url, "UTF-8");
            }
        }
      if (!ok)
        {
          g_autofree char *shown = display_name (document_url);

          sax_reader_clear (&reader);
          g_set_error (error, CG_LINKS_ERROR, CG_LINKS_ERROR_PARSE,
                       _("The document “%s” could not be parsed as HTML"), shown);
          return NULL;
        }
    }
  ok = sax_emit (&reader, document_url, collect_cb, &collector, error);
  g_free (reader.base_href);
  return ok ? g_steal_pointer (&links) : NULL;
}

GPtrArray *
cg_links_extract_html (const char   *data,
                       gsize         length,
                       const char   *document_url,
                       const char   *content_type,
                       GError      **error)
{
  g_autoptr(CgLinkExtractor) extractor = cg_link_extractor_new ();

  return cg_link_extractor_extract_html (extractor, data, length, document_url, content_type, error);
}

typedef struct {
  GUri       *base;
  Collector  *collector;
  guint       count;
} CssWalk;

static void
css_collect_cb (const char *reference,
                gboolean    is_import,
                gpointer    user_data)
{
  CssWalk *walk = user_data;
  g_autofree char *url = NULL;
  CgLink link;

  if (walk->count >= CG_LINKS_MAX_PER_DOCUMENT)
    return;
  while (g_ascii_isspace (*reference))
    reference++;
  if (*reference == '\0' || *reference == '#')
    return;
  url = cg_url_resolve_uri (walk->base, reference, CG_URL_NORMALIZE_CRAWL, NULL);
  if (url == NULL)
    return;

  link.url = url;
  link.hop = CG_HOP_EMBED;
  link.element = (char *) "css";
  link.attribute = (char *) (is_import ? "@import" : "url()");
  link.text = NULL;
  walk->count++;
  collect_cb (&link, NULL, walk->collector);
}

GPtrArray *
cg_links_extract_css (const char   *data,
                      gsize         length,
                      const char   *stylesheet_url,
                      GError      **error)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) links = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_link_free);
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GUri) base = NULL;
  Collector collector = { links, seen };
  CssWalk walk = { 0 };

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (stylesheet_url != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_input (data, length, stylesheet_url, FALSE, error))
    return NULL;
  base = cg_url_parse (stylesheet_url, CG_URL_NORMALIZE_SYNTAX, &local_error);
  if (base == NULL)
    {
      g_set_error (error, CG_LINKS_ERROR, CG_LINKS_ERROR_BAD_BASE,
                   _("Cannot read links relative to the stylesheet: %s"), local_error->message);
      return NULL;
    }

  walk.base = base;
  walk.collector = &collector;
  if (length > 0)
    scan_css (data, length, css_collect_cb, &walk);
  return g_steal_pointer (&links);
}

/* ---- srcset ------------------------------------------------------------- */

/* The HTML standard's "parse a srcset attribute", keeping only the URLs:
 * a candidate's URL is a run of non-space characters, so it may contain
 * commas; trailing commas end the candidate; descriptors run to the next
 * comma outside parentheses. */
GStrv
cg_links_parse_srcset (const char *srcset)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  const char *p = srcset;

  g_return_val_if_fail (srcset != NULL, NULL);

  while (*p != '\0')
    {
      const char *start;
      const char *end;
      gboolean ended_by_comma = FALSE;

      while (is_ascii_whitespace (*p) || *p == ',')
        p++;
      if (*p == '\0')
        break;

      start = p;
      while (*p != '\0' && !is_ascii_whitespace (*p))
        p++;
      end = p;
      while (end > start && end[-1] == ',')
        {
          end--;
          ended_by_comma = TRUE;
        }
      if (end > start)
        {
          g_autofree char *url = g_strndup (start, end - start);

          g_strv_builder_add (builder, url);
        }
      if (ended_by_comma)
        continue;

      /* Skip the descriptors. */
      {
        gboolean in_parens = FALSE;

        while (*p != '\0')
          {
            if (in_parens)
              {
                if (*p == ')')
                  in_parens = FALSE;
              }
            else if (*p == '(')
              in_parens = TRUE;
            else if (*p == ',')
              {
                p++;
                break;
              }
            p++;
          }
      }
    }
  return g_strv_builder_end (builder);
}
