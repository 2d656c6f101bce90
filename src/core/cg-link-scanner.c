/* cg-link-scanner.c: the link extractor's reader of plain HTML pages.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The crawler reads the links of every page it fetches. libxml2's HTML
 * parser reads a page a character at a time, through a function call for
 * each: in the crawl throughput benchmark (tests/bench) that was a fifth
 * of all the crawl's work, though the links need little of what it does.
 * No library in Debian tokenises HTML faster and gives what libxml2
 * gives (the tree the rest of Cartograph reads, and the links the
 * extractor must agree with), so this reader does the part the links
 * need by hand: it skips text with memchr() and reads tags, attributes
 * and character references as libxml2 2.9's parser does, in recovery
 * mode, for a UTF-8 page.
 *
 * It reads only pages whose reading it is sure of, and declines every
 * other, which the extractor then gives to libxml2: a page in another
 * encoding (unless it is all ASCII), with characters libxml2 drops,
 * processing instructions, bogus tags or attributes, frames, more
 * elements open than are safe, an <html>, <head> or <body> that libxml2
 * may drop and that holds a reference, and, within a link, an element
 * that closes the link or others (p, li, tables: see link_content) or an
 * end tag libxml2 might not honour there. So the events it gives are
 * those libxml2 gives for what the links are made of; test-links
 * compares the links of both readers on tricky markup, on every pair of
 * elements a link may hold, on pages it changes at random, and on every
 * page of the demo site.
 *
 * Outside links, libxml2's tree building (implied elements, elements that
 * close others) decides nothing the extractor reads but how deep the
 * page nests, which is bounded here well below libxml2's limit: the open
 * elements counted here are never fewer than libxml2's, but for the html,
 * head, body and p elements it implies. */

#include "config.h"

#include "cg-link-scanner.h"

#include <libxml/HTMLparser.h>
#include <stdlib.h>
#include <string.h>

/* libxml2 reads names of up to this many characters at once. */
#define MAX_NAME_LENGTH 99

/* Pages whose elements nest deeper are left to libxml2, which stops at
 * xmlParserMaxDepth. */
#define MAX_OPEN_ELEMENTS 200

typedef enum {
  READ_OK,
  READ_DECLINE,
} ReadStatus;

typedef struct {
  const char                *p;
  const char                *end;
  const CgLinkScannerEvents *events;
  gpointer                   user_data;
  gboolean                   ascii;      /* the page is all ASCII */

  /* The open elements, as offsets of their names in open_names. */
  GArray                    *open;
  GString                   *open_names;
  guint                      link_depth; /* open elements when the open <a> started, or 0 */

  /* What libxml2 drops or implies depends on what came before. */
  guint                      elements;     /* start tags read */
  gboolean                   html_first;   /* the first was <html> */
  gboolean                   text_seen;    /* text other than blanks */
  gboolean                   body_possible; /* an explicit <body> is not dropped */

  /* The start tag being read: names and values, each ended by a NUL. */
  GString                   *tag_text;
  GArray                    *tag_offsets;   /* gssize: name, value (-1: none) */
  GPtrArray                 *atts;
  GString                   *name;          /* of the tag being read */
  GString                   *decoded;       /* a link's text, references decoded */
} Scanner;

static inline gboolean
is_blank (char c)
{
  /* libxml2's IS_BLANK_CH. */
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static inline gboolean
is_name_char (char c)
{
  /* What libxml2's htmlParseHTMLName() reads. */
  return g_ascii_isalnum (c) || c == ':' || c == '-' || c == '_' || c == '.';
}

static gboolean
is_xml_char (guint32 c)
{
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

static gboolean
name_in (const char         *name,
         const char * const *names)
{
  for (guint i = 0; names[i] != NULL; i++)
    if (strcmp (name, names[i]) == 0)
      return TRUE;
  return FALSE;
}

/* ---- what libxml2 knows of elements -------------------------------------- */

typedef enum {
  ELEMENT_UNKNOWN      = 1 << 0,  /* not in libxml2's table: it closes nothing */
  ELEMENT_EMPTY        = 1 << 1,  /* closed as it opens */
  ELEMENT_LINK_CONTENT = 1 << 2,  /* may be in a link (link_content) */
  ELEMENT_HEAD_CONTENT = 1 << 3,  /* implies no <body> (head_content) */
  ELEMENT_LOOKED_UP    = 1 << 4,
} ElementFlags;

/* The elements a link may hold here: none of them closes an <a> or
 * another of them in libxml2 (its htmlStartClose table; test-links checks
 * every pair), and none implies an element there. Those that close many
 * others (p, li, table cells) are left out. Elements libxml2 does not
 * know close nothing. */
static const char * const link_content[] = {
  "abbr", "acronym", "address", "applet", "area", "article", "aside", "audio", "b",
  "base", "basefont", "bdi", "bdo", "big", "blockquote", "br", "button", "canvas",
  "caption", "cite", "code", "data", "datalist", "del", "details", "dfn", "dialog",
  "div", "em", "embed", "figcaption", "figure", "font", "footer", "h1", "h2", "h3",
  "h4", "h5", "h6", "header", "hgroup", "i", "iframe", "img", "input", "ins",
  "isindex", "kbd", "label", "link", "main", "map", "mark", "meta", "meter", "nav",
  "object", "optgroup", "output", "param", "picture", "progress", "q", "rp", "rt",
  "ruby", "s", "samp", "script", "section", "select", "small", "source", "span",
  "strike", "strong", "style", "sub", "summary", "sup", "template", "textarea",
  "time", "title", "track", "tt", "u", "var", "video",
  NULL,
};

/* The start tags before which libxml2 implies no <body>. */
static const char * const head_content[] = {
  "html", "head", "title", "meta", "link", "base", "script", "style", NULL,
};

/* The element names libxml2 2.9 knows and those of HTML since, looked up
 * once; any other name is looked up when met. */
static const char * const known_names[] = {
  "a", "abbr", "acronym", "address", "applet", "area", "article", "aside",
  "audio", "b", "base", "basefont", "bdi", "bdo", "big", "blockquote", "body",
  "br", "button", "canvas", "caption", "center", "cite", "code", "col",
  "colgroup", "data", "datalist", "dd", "del", "details", "dfn", "dialog",
  "dir", "div", "dl", "dt", "em", "embed", "fieldset", "figcaption", "figure",
  "font", "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5",
  "h6", "head", "header", "hgroup", "hr", "html", "i", "iframe", "img", "input",
  "ins", "isindex", "kbd", "label", "legend", "li", "link", "main", "map",
  "mark", "menu", "meta", "meter", "nav", "noframes", "noscript", "object",
  "ol", "optgroup", "option", "output", "p", "param", "picture", "pre",
  "progress", "q", "rp", "rt", "ruby", "s", "samp", "script", "section",
  "select", "slot", "small", "source", "span", "strike", "strong", "style",
  "sub", "summary", "sup", "svg", "table", "tbody", "td", "template",
  "textarea", "tfoot", "th", "thead", "time", "title", "tr", "track", "tt",
  "u", "ul", "var", "video", "wbr", "path", "g", "use", "symbol", "circle",
  "rect", "polygon", "line", "defs", "math",
  NULL,
};

static ElementFlags
look_up_element (const char *name)
{
  const htmlElemDesc *desc = htmlTagLookup ((const xmlChar *) name);
  ElementFlags flags = ELEMENT_LOOKED_UP;

  if (desc == NULL)
    flags |= ELEMENT_UNKNOWN;
  else if (desc->empty)
    flags |= ELEMENT_EMPTY;
  if (name_in (name, link_content))
    flags |= ELEMENT_LINK_CONTENT;
  if (name_in (name, head_content))
    flags |= ELEMENT_HEAD_CONTENT;
  return flags;
}

static gpointer
build_known_elements (gpointer data)
{
  GHashTable *table = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; known_names[i] != NULL; i++)
    g_hash_table_insert (table, (gpointer) known_names[i], GUINT_TO_POINTER (look_up_element (known_names[i])));
  return table;
}

static ElementFlags
element_flags (const char *name)
{
  static GOnce once = G_ONCE_INIT;
  GHashTable *known = g_once (&once, build_known_elements, NULL);
  gpointer flags = g_hash_table_lookup (known, name);

  return flags != NULL ? GPOINTER_TO_UINT (flags) : look_up_element (name);
}

/* ---- the open elements --------------------------------------------------- */

static const char *
open_name (Scanner *self,
           guint    index)
{
  return self->open_names->str + g_array_index (self->open, gsize, index);
}

static const char *
top_name (Scanner *self)
{
  return self->open->len > 0 ? open_name (self, self->open->len - 1) : NULL;
}

static void
push_open (Scanner    *self,
           const char *name)
{
  gsize offset = self->open_names->len;

  g_string_append_len (self->open_names, name, strlen (name) + 1);
  g_array_append_val (self->open, offset);
}

static void
pop_open (Scanner *self)
{
  gsize offset = g_array_index (self->open, gsize, self->open->len - 1);

  g_array_set_size (self->open, self->open->len - 1);
  g_string_truncate (self->open_names, offset);
  if (self->link_depth > self->open->len)
    self->link_depth = 0;
}

static inline gboolean
in_link (Scanner *self)
{
  return self->link_depth > 0;
}

/* Closes the element opened last; the extractor hears of it when it is
 * a link, in one, or a <style> block. */
static void
close_top (Scanner *self)
{
  gboolean heard = in_link (self);

  g_string_assign (self->name, top_name (self));
  pop_open (self);
  if (heard || g_str_equal (self->name->str, "style"))
    self->events->end_element (self->user_data, self->name->str);
}

/* ---- references ---------------------------------------------------------- */

/* Reads the character reference at @p ("&#"), as htmlParseCharRef()
 * does: the digits up to a ';' or anything else, the ';' if it is there.
 * Sets @value to 0 for what is not an XML character. */
static const char *
read_char_ref (const char *p,
               const char *end,
               guint32    *value)
{
  guint32 v = 0;

  p += 2;
  if (p < end && (*p == 'x' || *p == 'X'))
    {
      for (p++; p < end && *p != ';'; p++)
        {
          int digit = g_ascii_xdigit_value (*p);

          if (digit < 0)
            break;
          if (v < 0x110000)
            v = v * 16 + (guint32) digit;
        }
    }
  else
    {
      for (; p < end && *p != ';'; p++)
        {
          if (!g_ascii_isdigit (*p))
            break;
          if (v < 0x110000)
            v = v * 10 + (guint32) (*p - '0');
        }
    }
  if (p < end && *p == ';')
    p++;
  *value = is_xml_char (v) ? v : 0;
  return p;
}

typedef enum {
  REF_CHARACTER,   /* @value decoded */
  REF_LITERAL,     /* the text from the '&' to the returned end stands */
  REF_UNSURE,      /* a name libxml2 would read past ASCII */
} RefKind;

/* Reads the entity reference at @p ('&', not "&#") as htmlParseEntityRef()
 * does: a known name followed by ';' is its character; an unknown one,
 * or one without ';', stands as written with the '&', and the ';' stays
 * as text; a '&' without a name stands alone. */
static RefKind
read_entity_ref (const char  *p,
                 const char  *end,
                 const char **after,
                 guint32     *value)
{
  const char *name = p + 1;
  const char *q = name;
  char buffer[32];
  const htmlEntityDesc *entity;

  if (q < end && (guchar) *q >= 0x80)
    return REF_UNSURE;
  if (q >= end || !(g_ascii_isalpha (*q) || *q == '_' || *q == ':'))
    {
      *after = name;
      return REF_LITERAL;
    }
  while (q < end && (g_ascii_isalnum (*q) || *q == '_' || *q == '-' || *q == ':' || *q == '.'))
    q++;
  if (q < end && (guchar) *q >= 0x80)
    return REF_UNSURE;
  *after = q;
  if (q >= end || *q != ';' || (gsize) (q - name) >= sizeof buffer)
    return REF_LITERAL;
  memcpy (buffer, name, q - name);
  buffer[q - name] = '\0';
  entity = htmlEntityLookup ((const xmlChar *) buffer);
  if (entity == NULL || entity->value == 0)
    return REF_LITERAL;
  *value = entity->value;
  *after = q + 1;
  return REF_CHARACTER;
}

/* Appends @text to @out with its references decoded as libxml2 decodes
 * them: a character reference that is no XML character gives nothing in
 * text (htmlParseReference()), but a NUL that cuts an attribute value
 * short (htmlParseHTMLAttribute()), which this reader leaves to libxml2.
 * FALSE for that, and for a name libxml2 would read past ASCII. */
static gboolean
decode_references (const char *text,
                   const char *end,
                   gboolean    attribute,
                   GString    *out)
{
  while (text < end)
    {
      const char *amp = memchr (text, '&', end - text);
      const char *after;
      guint32 value = 0;

      if (amp == NULL)
        {
          g_string_append_len (out, text, end - text);
          break;
        }
      g_string_append_len (out, text, amp - text);
      if (amp + 1 < end && amp[1] == '#')
        {
          after = read_char_ref (amp, end, &value);
          if (value != 0)
            g_string_append_unichar (out, value);
          else if (attribute)
            return FALSE;
        }
      else
        switch (read_entity_ref (amp, end, &after, &value))
          {
          case REF_CHARACTER:
            g_string_append_unichar (out, value);
            break;
          case REF_LITERAL:
            g_string_append_len (out, amp, after - amp);
            break;
          case REF_UNSURE:
          default:
            return FALSE;
          }
      text = after;
    }
  return TRUE;
}

/* ---- text ---------------------------------------------------------------- */

/* Text up to @end, which is not in a <script> or <style> block: within a
 * link, given with its references decoded as libxml2 decodes them (in one
 * piece, where libxml2 gives a piece for each reference: the extractor's
 * reader joins them anyway); outside, only noted. */
static ReadStatus
read_text (Scanner    *self,
           const char *end)
{
  const char *text = self->p;

  self->p = end;
  if (!in_link (self))
    {
      /* Text other than blanks makes libxml2 imply a <body> (and a <p>)
       * unless it is in an element of the head that holds text. */
      if (!self->text_seen)
        for (const char *c = text; c < end; c++)
          if (!is_blank (*c))
            {
              const char *top = top_name (self);

              if (top == NULL || strcmp (top, "title") != 0)
                {
                  self->text_seen = TRUE;
                  self->body_possible = FALSE;
                }
              break;
            }
      return READ_OK;
    }

  /* Most link texts have no reference: they go as they are. */
  if (memchr (text, '&', end - text) == NULL)
    {
      self->events->characters (self->user_data, text, end - text);
      return READ_OK;
    }
  g_string_truncate (self->decoded, 0);
  if (!decode_references (text, end, FALSE, self->decoded))
    return READ_DECLINE;
  self->events->characters (self->user_data, self->decoded->str, self->decoded->len);
  return READ_OK;
}

/* ---- tags ---------------------------------------------------------------- */

/* Reads a tag or attribute name at self->p into @out, in lower case. */
static gboolean
read_name (Scanner *self,
           GString *out)
{
  const char *start = self->p;

  while (self->p < self->end && is_name_char (*self->p))
    {
      g_string_append_c (out, g_ascii_tolower (*self->p));
      self->p++;
    }
  return self->p > start && self->p - start <= MAX_NAME_LENGTH;
}

static void
skip_blanks (Scanner *self)
{
  while (self->p < self->end && is_blank (*self->p))
    self->p++;
}

/* The content of a <script> or <style> block, which libxml2 reads up to
 * "</" followed by the element's name in any case, and its end tag, which
 * must be that name alone: libxml2 would read on after any other. */
static ReadStatus
read_raw_text (Scanner    *self,
               const char *name)
{
  gsize name_length = strlen (name);
  const char *p = self->p;
  const char *lt;

  /* libxml2 reads an end tag right after the start tag as an end tag,
   * whatever its name. */
  if (self->end - p >= 2 && p[0] == '<' && p[1] == '/' &&
      !(self->end - p >= (gssize) (2 + name_length) && g_ascii_strncasecmp (p + 2, name, name_length) == 0))
    return READ_DECLINE;

  for (;;)
    {
      lt = memchr (p, '<', self->end - p);
      if (lt == NULL)
        return READ_DECLINE;
      if (lt + 2 + name_length <= self->end && lt[1] == '/' &&
          g_ascii_strncasecmp (lt + 2, name, name_length) == 0)
        break;
      p = lt + 1;
    }
  if (lt > self->p)
    self->events->characters (self->user_data, self->p, lt - self->p);

  self->p = lt + 2 + name_length;
  if (self->p < self->end && is_name_char (*self->p))
    return READ_DECLINE;
  skip_blanks (self);
  if (self->p >= self->end || *self->p != '>')
    return READ_DECLINE;
  self->p++;
  close_top (self);
  return READ_OK;
}


/* An attribute value at self->p, as htmlParseAttValue() reads it. */
static gboolean
read_value (Scanner *self)
{
  const char *start;
  const char *stop;

  if (self->p < self->end && (*self->p == '"' || *self->p == '\''))
    {
      start = self->p + 1;
      stop = memchr (start, *self->p, self->end - start);
      if (stop == NULL)
        return FALSE;
      self->p = stop + 1;
    }
  else
    {
      start = self->p;
      while (self->p < self->end && *self->p != '>' && !is_blank (*self->p))
        self->p++;
      stop = self->p;
    }
  return decode_references (start, stop, TRUE, self->tag_text);
}

/* The attributes of a start tag up to its '>' or "/>", as
 * htmlParseStartTag() reads them; a second one of a name is dropped. */
static gboolean
read_attributes (Scanner  *self,
                 gboolean *self_closing)
{
  skip_blanks (self);
  for (;;)
    {
      gssize name_offset = (gssize) self->tag_text->len;
      gssize value_offset = -1;
      gboolean repeated = FALSE;

      if (self->p >= self->end)
        return FALSE;
      if (*self->p == '>')
        {
          self->p++;
          *self_closing = FALSE;
          return TRUE;
        }
      if (*self->p == '/' && self->p + 1 < self->end && self->p[1] == '>')
        {
          self->p += 2;
          *self_closing = TRUE;
          return TRUE;
        }
      /* A name starts with a letter, '_', ':' or '.': anything else is
       * a bogus attribute, which libxml2 skips. */
      if (!(g_ascii_isalpha (*self->p) || *self->p == '_' || *self->p == ':' || *self->p == '.'))
        return FALSE;
      if (!read_name (self, self->tag_text))
        return FALSE;
      g_string_append_c (self->tag_text, '\0');
      for (guint i = 0; i < self->tag_offsets->len; i += 2)
        if (strcmp (self->tag_text->str + g_array_index (self->tag_offsets, gssize, i),
                    self->tag_text->str + name_offset) == 0)
          repeated = TRUE;

      skip_blanks (self);
      if (self->p < self->end && *self->p == '=')
        {
          self->p++;
          skip_blanks (self);
          value_offset = (gssize) self->tag_text->len;
          if (!read_value (self))
            return FALSE;
          g_string_append_c (self->tag_text, '\0');
        }
      if (repeated)
        g_string_truncate (self->tag_text, name_offset);
      else
        {
          g_array_append_val (self->tag_offsets, name_offset);
          g_array_append_val (self->tag_offsets, value_offset);
        }
      skip_blanks (self);
    }
}

/* The attributes read, as libxml2 hands them to startElement. */
static const char **
tag_atts (Scanner *self)
{
  if (self->tag_offsets->len == 0)
    return NULL;
  g_ptr_array_set_size (self->atts, 0);
  for (guint i = 0; i < self->tag_offsets->len; i++)
    {
      gssize offset = g_array_index (self->tag_offsets, gssize, i);

      g_ptr_array_add (self->atts, offset >= 0 ? self->tag_text->str + offset : NULL);
    }
  g_ptr_array_add (self->atts, NULL);
  g_ptr_array_add (self->atts, NULL);
  return (const char **) self->atts->pdata;
}

static const char *
tag_attribute (Scanner    *self,
               const char *name)
{
  for (guint i = 0; i < self->tag_offsets->len; i += 2)
    if (strcmp (self->tag_text->str + g_array_index (self->tag_offsets, gssize, i), name) == 0)
      {
        gssize value = g_array_index (self->tag_offsets, gssize, i + 1);

        return value >= 0 ? self->tag_text->str + value : NULL;
      }
  return NULL;
}

/* Whether a page read as UTF-8 reads the same as one in @encoding. */
static gboolean
reads_as_utf8 (Scanner    *self,
               const char *encoding)
{
  static const char * const ascii_supersets[] = {
    "windows-1250", "windows-1251", "windows-1252", "windows-1253", "windows-1254",
    "windows-1257", "iso-8859-1", "iso-8859-2", "iso-8859-4", "iso-8859-5",
    "iso-8859-7", "iso-8859-9", "iso-8859-13", "iso-8859-15", "us-ascii",
    "ascii", "latin1",
    NULL,
  };
  g_autofree char *lower = NULL;

  if (g_ascii_strcasecmp (encoding, "utf-8") == 0 || g_ascii_strcasecmp (encoding, "utf8") == 0)
    return TRUE;
  if (!self->ascii)
    return FALSE;
  lower = g_ascii_strdown (encoding, -1);
  return name_in (lower, ascii_supersets);
}

/* A <meta> that declares an encoding switches libxml2 to it. */
static gboolean
meta_keeps_encoding (Scanner *self)
{
  const char *charset = tag_attribute (self, "charset");
  const char *http_equiv = tag_attribute (self, "http-equiv");
  const char *content = tag_attribute (self, "content");

  if (charset != NULL)
    {
      while (*charset == ' ' || *charset == '\t')
        charset++;
      if (!reads_as_utf8 (self, charset))
        return FALSE;
    }
  if (http_equiv != NULL && content != NULL && g_ascii_strcasecmp (http_equiv, "content-type") == 0)
    {
      const char *c;

      for (c = content; *c != '\0'; c++)
        if (g_ascii_strncasecmp (c, "charset", 7) == 0)
          break;
      if (*c == '\0')
        return TRUE;
      c += 7;
      if (*c != '=')
        return FALSE;
      c++;
      while (*c == ' ' || *c == '\t')
        c++;
      if (!reads_as_utf8 (self, c))
        return FALSE;
    }
  return TRUE;
}

typedef enum {
  TAG_TAKEN,     /* as libxml2 takes it */
  TAG_DROPPED,   /* libxml2 may drop it, which changes nothing read */
  TAG_DECLINED,
} TagFate;

/* An <html>, <head> or <body> that libxml2 may drop: the extractor reads
 * nothing of one but its style attribute, and a <body>'s background. */
static TagFate
droppable (Scanner *self)
{
  return tag_attribute (self, "style") == NULL && tag_attribute (self, "background") == NULL ?
    TAG_DROPPED : TAG_DECLINED;
}

/* What libxml2 does with the start tag @name where it stands, with what
 * this reader knows of the page so far. */
static TagFate
start_tag_fate (Scanner      *self,
                const char   *name,
                ElementFlags  flags)
{
  if (g_str_equal (name, "meta") && !meta_keeps_encoding (self))
    return TAG_DECLINED;
  if (in_link (self))
    return (flags & (ELEMENT_LINK_CONTENT | ELEMENT_UNKNOWN)) != 0 ? TAG_TAKEN : TAG_DECLINED;

  /* libxml2 drops an <html> after anything, a <head> after anything but
   * <html>, and a <body> once it has one, given or implied. */
  if (g_str_equal (name, "html"))
    return self->elements == 0 && !self->text_seen ? TAG_TAKEN : droppable (self);
  if (g_str_equal (name, "head"))
    return !self->text_seen && (self->elements == 0 || (self->elements == 1 && self->html_first)) &&
           self->open->len <= 1 ? TAG_TAKEN : droppable (self);
  if (g_str_equal (name, "body"))
    {
      gboolean possible = self->body_possible;

      self->body_possible = FALSE;
      return possible ? TAG_TAKEN : droppable (self);
    }
  if (g_str_equal (name, "frameset") || g_str_equal (name, "frame") || g_str_equal (name, "noframes"))
    return TAG_DECLINED;
  if (!(flags & ELEMENT_HEAD_CONTENT))
    self->body_possible = FALSE;
  return TAG_TAKEN;
}

static ReadStatus
read_start_tag (Scanner *self)
{
  GString *name = self->name;
  gboolean self_closing = FALSE;
  ElementFlags flags;
  TagFate fate;

  self->p++;   /* '<' */
  g_string_truncate (name, 0);
  g_string_truncate (self->tag_text, 0);
  g_array_set_size (self->tag_offsets, 0);
  /* libxml2 looks the name up with and without '.' in it; and its tree
   * names an element by what follows a ':', its parser by the whole. */
  if (!read_name (self, name) || strpbrk (name->str, ".:") != NULL)
    return READ_DECLINE;
  if (self->p < self->end && !is_blank (*self->p) && *self->p != '>' && *self->p != '/')
    return READ_DECLINE;
  if (!read_attributes (self, &self_closing))
    return READ_DECLINE;
  flags = element_flags (name->str);
  fate = start_tag_fate (self, name->str, flags);
  if (fate == TAG_DECLINED)
    return READ_DECLINE;
  if (self->elements++ == 0)
    self->html_first = g_str_equal (name->str, "html");

  if (fate == TAG_TAKEN)
    self->events->start_element (self->user_data, name->str, tag_atts (self));
  if (self_closing || (flags & ELEMENT_EMPTY))
    {
      if (fate == TAG_TAKEN)
        self->events->end_element (self->user_data, name->str);
      return READ_OK;
    }
  push_open (self, name->str);
  if (self->open->len > MAX_OPEN_ELEMENTS)
    return READ_DECLINE;
  if (g_str_equal (name->str, "a"))
    self->link_depth = self->open->len;
  if (g_str_equal (name->str, "script") || g_str_equal (name->str, "style"))
    return read_raw_text (self, top_name (self));
  return READ_OK;
}

/* How hard an element is to close by the end tag of another: libxml2
 * ignores an end tag that would close one that outranks it. */
static int
end_priority (const char *name)
{
  static const struct {
    const char *name;
    int         priority;
  } ranks[] = {
    { "div", 150 }, { "td", 160 }, { "th", 160 }, { "tr", 170 }, { "thead", 180 },
    { "tbody", 180 }, { "tfoot", 180 }, { "table", 190 }, { "head", 200 },
    { "body", 200 }, { "html", 220 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (ranks); i++)
    if (strcmp (name, ranks[i].name) == 0)
      return ranks[i].priority;
  return 100;
}

static ReadStatus
read_end_tag (Scanner *self)
{
  GString *name = self->name;
  const char *top;

  self->p += 2;   /* "</" */
  g_string_truncate (name, 0);
  if (self->p >= self->end || !g_ascii_isalpha (*self->p) || !read_name (self, name) ||
      strchr (name->str, ':') != NULL)
    return READ_DECLINE;
  skip_blanks (self);
  if (self->p >= self->end || *self->p != '>')
    return READ_DECLINE;
  self->p++;

  top = top_name (self);
  /* Before the body, an end tag but that of the <title> or <head> opened
   * last may close more in libxml2 (</html> closes all), after which the
   * next text implies a <body>. */
  if (self->body_possible && !in_link (self) &&
      !(top != NULL && strcmp (top, name->str) == 0 &&
        (g_str_equal (top, "title") || g_str_equal (top, "head"))))
    self->body_possible = FALSE;
  if (top != NULL && strcmp (top, name->str) == 0)
    {
      close_top (self);
      return READ_OK;
    }
  /* Outside links, libxml2 closes at most what is counted here as still
   * open. */
  if (!in_link (self))
    return READ_OK;
  /* Within one, it closes the elements opened after the one named, if
   * none of them outranks it (htmlAutoCloseOnClose()); past the link,
   * it may close the link or not. */
  for (guint i = self->open->len; i-- > self->link_depth - 1;)
    {
      if (strcmp (open_name (self, i), name->str) == 0)
        {
          while (self->open->len > i)
            close_top (self);
          return READ_OK;
        }
      if (end_priority (open_name (self, i)) > end_priority (name->str))
        return READ_DECLINE;
    }
  return READ_DECLINE;
}

/* A comment, which libxml2 ends at the first "-->" or "--!>". */
static ReadStatus
read_comment (Scanner *self)
{
  const char *start = self->p + 4;
  const char *close = g_strstr_len (start, self->end - start, "-->");
  const char *bang;

  if (close == NULL)
    return READ_DECLINE;
  bang = g_strstr_len (start, close + 3 - start, "--!>");
  if (bang != NULL)
    return READ_DECLINE;
  self->p = close + 3;
  return READ_OK;
}

/* Reads a quoted literal of a <!DOCTYPE>. */
static gboolean
read_literal (Scanner *self)
{
  const char *close;

  if (self->p >= self->end || (*self->p != '"' && *self->p != '\''))
    return FALSE;
  close = memchr (self->p + 1, *self->p, self->end - self->p - 1);
  if (close == NULL)
    return FALSE;
  self->p = close + 1;
  return TRUE;
}

/* A <!DOCTYPE>, which libxml2 reads wherever it is, as
 * htmlParseDocTypeDecl() reads a well-formed one: a name, then a PUBLIC
 * identifier with an optional system one, or a SYSTEM one. (libxml2 ends
 * any other at its first '>', quoted or not.) */
static ReadStatus
read_doctype (Scanner *self)
{
  self->p += 9;
  skip_blanks (self);
  if (self->p >= self->end || !g_ascii_isalpha (*self->p))
    return READ_DECLINE;
  while (self->p < self->end && is_name_char (*self->p))
    self->p++;
  skip_blanks (self);
  if (self->end - self->p >= 6 && g_ascii_strncasecmp (self->p, "PUBLIC", 6) == 0)
    {
      self->p += 6;
      skip_blanks (self);
      if (!read_literal (self))
        return READ_DECLINE;
      skip_blanks (self);
      if (self->p < self->end && *self->p != '>' && !read_literal (self))
        return READ_DECLINE;
    }
  else if (self->end - self->p >= 6 && g_ascii_strncasecmp (self->p, "SYSTEM", 6) == 0)
    {
      self->p += 6;
      skip_blanks (self);
      if (!read_literal (self))
        return READ_DECLINE;
    }
  skip_blanks (self);
  if (self->p >= self->end || *self->p != '>')
    return READ_DECLINE;
  self->p++;

  /* After one in the content, libxml2 goes on with what follows as if it
   * were not an end tag, nor a '<' of another "<!": as text. */
  if (self->p < self->end && *self->p == '<' &&
      !(self->end - self->p >= 2 && g_ascii_isalpha (self->p[1])) &&
      !(self->end - self->p >= 4 && memcmp (self->p, "<!--", 4) == 0))
    return READ_DECLINE;
  return READ_OK;
}

static ReadStatus
read_markup (Scanner *self)
{
  const char *p = self->p;
  gsize left = self->end - p;

  if (left < 2)
    return READ_DECLINE;
  if (g_ascii_isalpha (p[1]))
    return read_start_tag (self);
  switch (p[1])
    {
    case '/':
      return read_end_tag (self);
    case '!':
      if (left >= 4 && p[2] == '-' && p[3] == '-')
        return read_comment (self);
      if (left >= 9 && g_ascii_strncasecmp (p + 2, "DOCTYPE", 7) == 0)
        return read_doctype (self);
      return READ_DECLINE;
    case '?':
    case '_':
    case ':':
      return READ_DECLINE;
    default:
      /* A '<' that starts no markup is text. */
      return read_text (self, p + 1);
    }
}

/* The rules here are those of libxml2 2.9's HTML parser, which later
 * versions change (2.14 tokenises as the HTML standard does): with
 * another, libxml2 reads every page. */
static gboolean
parser_is_known (void)
{
  static gsize known = 0;

  if (g_once_init_enter (&known))
    {
      int version = atoi (xmlParserVersion);

      g_once_init_leave (&known, version >= 20900 && version < 21000 ? 1 : 2);
    }
  return known == 1;
}

/**
 * cg_link_scanner_get_link_content:
 *
 * Returns: (transfer none): the elements libxml2 knows that a link may
 *   hold in a page this reader reads
 */
const char * const *
cg_link_scanner_get_link_content (void)
{
  return link_content;
}

/* Whether every character of the page is one libxml2 reads as it is:
 * valid UTF-8 and XML characters only. g_utf8_validate() and a search
 * for each character libxml2 drops took a third of this reader's time,
 * so ASCII is skipped eight bytes at a time. */
static gboolean
plain_characters (const char *data,
                  gsize       length,
                  gboolean   *ascii)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);
  const guint64 highs = G_GUINT64_CONSTANT (0x8080808080808080);
  const char *p = data;
  const char *end = data + length;
  gboolean high = FALSE;

  while (p < end)
    {
      guint64 word;

      if (end - p >= 8)
        {
          memcpy (&word, p, 8);
          /* No byte of eight is 0x80 or over, or under 0x20. */
          if (((word | ((word - 0x20 * ones) & ~word)) & highs) == 0)
            {
              p += 8;
              continue;
            }
        }
      for (const char *stop = MIN (p + 8, end); p < stop;)
        {
          guchar c = (guchar) *p;

          if (c < 0x80)
            {
              if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
                return FALSE;
              p++;
            }
          else
            {
              gunichar u = g_utf8_get_char_validated (p, end - p);

              if (u == (gunichar) -1 || u == (gunichar) -2 || u == 0xFFFE || u == 0xFFFF)
                return FALSE;
              high = TRUE;
              p = g_utf8_next_char (p);
            }
        }
    }
  *ascii = !high;
  return TRUE;
}

/**
 * cg_link_scanner_read:
 * @data: the page, @length bytes with no byte order mark
 * @declared_encoding: (nullable): the charset its Content-Type gave
 * @events: what to call
 * @user_data: passed to @events
 *
 * Reads the page and gives @events what libxml2's HTML parser would, in
 * recovery mode and for a page it reads as UTF-8, if the page is plain
 * enough to be sure of it (see the top of this file).
 *
 * Returns: TRUE if the page was read; FALSE if it must be read by
 *   libxml2 instead (some events may have been given)
 */
gboolean
cg_link_scanner_read (const char                *data,
                      gsize                      length,
                      const char                *declared_encoding,
                      const CgLinkScannerEvents *events,
                      gpointer                   user_data)
{
  Scanner self = { 0 };
  ReadStatus status = READ_OK;

  g_return_val_if_fail (data != NULL || length == 0, FALSE);
  g_return_val_if_fail (events != NULL, FALSE);

  if (!parser_is_known ())
    return FALSE;

  self.p = data;
  self.end = data + length;
  self.events = events;
  self.user_data = user_data;
  self.body_possible = TRUE;
  if (!plain_characters (data, length, &self.ascii))
    return FALSE;
  if (declared_encoding != NULL && !reads_as_utf8 (&self, declared_encoding))
    return FALSE;

  self.open = g_array_new (FALSE, FALSE, sizeof (gsize));
  self.open_names = g_string_new (NULL);
  self.tag_text = g_string_sized_new (256);
  self.tag_offsets = g_array_new (FALSE, FALSE, sizeof (gssize));
  self.atts = g_ptr_array_new ();
  self.name = g_string_new (NULL);
  self.decoded = g_string_new (NULL);

  skip_blanks (&self);
  while (status == READ_OK && self.p < self.end)
    {
      const char *lt = memchr (self.p, '<', self.end - self.p);

      if (lt == self.p)
        status = read_markup (&self);
      else
        status = read_text (&self, lt != NULL ? lt : self.end);
    }

  /* At the end libxml2 closes what is open. */
  if (status == READ_OK)
    while (self.open->len > 0)
      close_top (&self);

  g_array_free (self.open, TRUE);
  g_string_free (self.open_names, TRUE);
  g_string_free (self.tag_text, TRUE);
  g_array_free (self.tag_offsets, TRUE);
  g_ptr_array_free (self.atts, TRUE);
  g_string_free (self.name, TRUE);
  g_string_free (self.decoded, TRUE);
  return status == READ_OK;
}
