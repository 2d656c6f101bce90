/* test-links.c: link extraction from HTML and CSS.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <libxml/tree.h>

#include "cg-demo-site.h"
#include "cg-link-scanner.h"
#include "cg-links.h"
#include "cg-url.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (xmlDoc, xmlFreeDoc)

#define PAGE_URL "http://www.example.org/dir/index.html"

typedef struct {
  char        hop;
  const char *element;
  const char *attribute;
  const char *url;
  const char *text;
} Expected;

static GBytes *
load_fixture (const char *name)
{
  g_autofree char *path = g_build_filename (CG_TEST_DATA_DIR, "links", name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;

  g_assert_true (g_file_get_contents (path, &contents, &length, &error));
  g_assert_no_error (error);
  return g_bytes_new_take (contents, length);
}

static GPtrArray *
extract_fixture (const char *name,
                 const char *url,
                 const char *content_type)
{
  g_autoptr(GBytes) bytes = load_fixture (name);
  g_autoptr(GError) error = NULL;
  gsize length;
  const char *data = g_bytes_get_data (bytes, &length);
  GPtrArray *links = cg_links_extract_html (data, length, url, content_type, &error);

  g_assert_no_error (error);
  g_assert_nonnull (links);
  return links;
}

static void
assert_links (GPtrArray      *links,
              const Expected *expected,
              gsize           n_expected)
{
  for (guint i = 0; i < links->len; i++)
    {
      CgLink *link = links->pdata[i];

      g_test_message ("got %c %s/@%s %s [%s]", cg_hop_type_to_char (link->hop), link->element,
                      link->attribute, link->url, link->text != NULL ? link->text : "");
    }
  g_assert_cmpuint (links->len, ==, n_expected);
  for (gsize i = 0; i < n_expected; i++)
    {
      CgLink *link = links->pdata[i];

      g_assert_cmpint (cg_hop_type_to_char (link->hop), ==, expected[i].hop);
      g_assert_cmpstr (link->element, ==, expected[i].element);
      g_assert_cmpstr (link->attribute, ==, expected[i].attribute);
      g_assert_cmpstr (link->url, ==, expected[i].url);
      g_assert_cmpstr (link->text, ==, expected[i].text);
    }
}

static gboolean
has_url (GPtrArray  *links,
         const char *url)
{
  for (guint i = 0; i < links->len; i++)
    if (g_str_equal (((CgLink *) links->pdata[i])->url, url))
      return TRUE;
  return FALSE;
}

#define D "http://www.example.org/dir/"

static void
test_every_element (void)
{
  g_autoptr(GPtrArray) links = extract_fixture ("all-elements.html", PAGE_URL, "text/html; charset=utf-8");
  /* In document order; the fragment, mailto: and javascript: links, the
   * POST form, the URL inside a script string and the repeated link to
   * about.html are not there; the partner's session id is stripped. */
  const Expected expected[] = {
    { 'R', "meta", "content", D "refreshed.html", NULL },
    { 'E', "link", "href", D "css/site.css", NULL },
    { 'E', "link", "href", "http://www.example.org/favicon.ico", NULL },
    { 'L', "link", "href", "http://www.example.org/feed.xml", NULL },
    { 'L', "link", "href", D "page2.html", NULL },
    { 'E', "link", "imagesrcset", D "img/hero-1x.jpg", NULL },
    { 'E', "link", "imagesrcset", D "img/hero-2x.jpg", NULL },
    { 'E', "style", "@import", D "css/print.css", NULL },
    { 'E', "style", "@import", D "css/theme.css", NULL },
    { 'E', "style", "url()", D "img/bg.png", NULL },
    { 'E', "script", "src", D "js/app.js", NULL },
    { 'E', "body", "background", D "img/body-bg.gif", NULL },
    { 'L', "a", "href", D "about.html", "About us" },
    { 'L', "a", "href", "http://other.example.net/partner", "Partner" },
    { 'L', "a", "href", D "news/", "News" },
    { 'E', "img", "src", D "img/news.png", NULL },
    { 'L', "area", "href", D "map/region1.html", "Region one" },
    { 'E', "img", "src", D "img/photo.jpg", NULL },
    { 'E', "img", "srcset", D "img/photo-480.jpg", NULL },
    { 'E', "img", "srcset", D "img/photo,800.jpg", NULL },
    { 'E', "source", "srcset", D "img/pic.webp", NULL },
    { 'E', "img", "src", D "img/pic.jpg", NULL },
    { 'E', "iframe", "src", D "frames/inner.html", NULL },
    { 'E', "embed", "src", D "media/movie.swf", NULL },
    { 'E', "object", "data", D "media/doc.pdf", NULL },
    { 'E', "video", "src", D "media/clip.mp4", NULL },
    { 'E', "video", "poster", D "media/poster.jpg", NULL },
    { 'E', "track", "src", D "media/subs.vtt", NULL },
    { 'E', "audio", "src", D "media/sound.ogg", NULL },
    { 'E', "div", "style", D "img/div-bg.png", NULL },
    { 'E', "table", "background", D "img/table-bg.gif", NULL },
    { 'E', "td", "background", D "img/td-bg.gif", NULL },
    { 'S', "form", "action", D "search", NULL },
    { 'E', "input", "src", D "img/go.png", NULL },
    { 'S', "form", "action", D "list", NULL },
  };

  assert_links (links, expected, G_N_ELEMENTS (expected));
}

static void
test_frames (void)
{
  g_autoptr(GPtrArray) links = extract_fixture ("frames.html", PAGE_URL, NULL);
  const Expected expected[] = {
    { 'E', "frame", "src", D "menu.html", NULL },
    { 'E', "frame", "src", D "content.html", NULL },
  };

  assert_links (links, expected, G_N_ELEMENTS (expected));
}

static void
test_base_href (void)
{
  g_autoptr(GPtrArray) links = extract_fixture ("base.html", PAGE_URL, NULL);
  const Expected expected[] = {
    { 'E', "link", "href", "http://static.example.org/root/css/main.css", NULL },
    { 'L', "a", "href", "http://static.example.org/root/sub/page.html", "Relative to the base" },
    { 'L', "a", "href", "http://static.example.org/absolute-path.html", "Absolute path on the base host" },
    { 'L', "a", "href", "http://cdn.example.com/lib.js", "Network-path reference" },
    { 'L', "a", "href", "https://www.example.org/full", "Full URL" },
    { 'E', "img", "src", "http://static.example.org/root/sub/?q=1", NULL },
  };

  assert_links (links, expected, G_N_ELEMENTS (expected));
}

static void
test_bad_base_href_is_ignored (void)
{
  const char html[] = "<base href=\"javascript:alert(1)\"><a href=\"x.html\">x</a>";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) links = cg_links_extract_html (html, strlen (html), PAGE_URL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (links->len, ==, 1);
  g_assert_cmpstr (((CgLink *) links->pdata[0])->url, ==, D "x.html");
}

static void
test_broken_markup (void)
{
  g_autoptr(GPtrArray) links = extract_fixture ("broken.html", PAGE_URL, NULL);
  const char *present[] = {
    D "unquoted.html", D "single-quoted.html", D "spaced.html", D "x.html",
    D "pic.png", D "after-comment.html",
  };

  for (guint i = 0; i < G_N_ELEMENTS (present); i++)
    {
      g_test_message ("expecting %s", present[i]);
      g_assert_true (has_url (links, present[i]));
    }
  /* Commented out, or only written by a script: not links. */
  g_assert_false (has_url (links, D "commented-out.html"));
  g_assert_false (has_url (links, D "from-script.html"));
}

static void
test_upper_case_markup (void)
{
  const char html[] = "<HTML><BODY><A HREF=\"UPPER.html\">Up</A><IMG SRC='I.PNG'></BODY></HTML>";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) links = cg_links_extract_html (html, strlen (html), PAGE_URL, NULL, &error);
  const Expected expected[] = {
    { 'L', "a", "href", D "UPPER.html", "Up" },
    { 'E', "img", "src", D "I.PNG", NULL },
  };

  g_assert_no_error (error);
  assert_links (links, expected, G_N_ELEMENTS (expected));
}

static const char *
first_text (GPtrArray *links)
{
  g_assert_cmpuint (links->len, >, 0);
  return ((CgLink *) links->pdata[0])->text;
}

/* ISO-8859-1 with a meta charset; the header's charset when there is one;
 * a byte order mark before both. */
/* Old pages of unclosed <font> and <p> nest deeper than libxml2's 256
 * elements: what lies past that is still read, by the link extractor
 * (its SAX reader and the tree agree) and by cg_html_parse(). */
static void
test_deep_nesting (void)
{
  g_autoptr(GString) page = g_string_new ("<html><body>");
  g_autoptr(GPtrArray) links = NULL;
  g_autoptr(xmlDoc) doc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  for (guint i = 0; i < 300; i++)
    g_string_append (page, "<p><font size=\"2\">");
  g_string_append (page, "Deep text <a href=\"deep.html\">deep link</a>");
  links = cg_links_extract_html (page->str, page->len, PAGE_URL, "text/html; charset=utf-8", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (links->len, ==, 1);
  g_assert_cmpstr (((CgLink *) links->pdata[0])->url, ==, D "deep.html");
  g_assert_cmpstr (first_text (links), ==, "deep link");
  doc = cg_html_parse (page->str, page->len, PAGE_URL, "text/html; charset=utf-8", &error);
  g_assert_no_error (error);
  text = (char *) xmlNodeGetContent (xmlDocGetRootElement (doc));
  g_assert_nonnull (strstr (text, "Deep text deep link"));
}

static void
test_encodings (void)
{
  g_autoptr(GPtrArray) latin1 = extract_fixture ("latin1.html", PAGE_URL, NULL);
  g_autoptr(GPtrArray) latin1_header = extract_fixture ("latin1.html", PAGE_URL, "text/html; charset=ISO-8859-1");
  g_autoptr(GPtrArray) unknown_header = extract_fixture ("latin1.html", PAGE_URL, "text/html; charset=x-no-such-charset");
  const Expected expected[] = {
    { 'L', "a", "href", D "caf%C3%A9.html", "Caf\xC3\xA9 cr\xC3\xA8me" },
    { 'L', "a", "href", D "na%C3%AFve/", "Na\xC3\xAFve" },
  };
  const char utf8_meta_latin1[] = "<meta charset=\"iso-8859-1\"><a href=\"a.html\">Caf\xC3\xA9</a>";
  const char bom_utf8[] = "\xEF\xBB\xBF<a href=\"a.html\">Caf\xC3\xA9</a>";
  const char utf16le[] = "\xFF\xFE<\0a\0 \0h\0r\0e\0f\0=\0\"\0u\0.\0h\0t\0m\0l\0\"\0>\0U\0<\0/\0a\0>\0";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) header_wins = NULL;
  g_autoptr(GPtrArray) meta_wins = NULL;
  g_autoptr(GPtrArray) bom_wins = NULL;
  g_autoptr(GPtrArray) wide = NULL;

  assert_links (latin1, expected, G_N_ELEMENTS (expected));
  assert_links (latin1_header, expected, G_N_ELEMENTS (expected));
  assert_links (unknown_header, expected, G_N_ELEMENTS (expected));

  header_wins = cg_links_extract_html (utf8_meta_latin1, strlen (utf8_meta_latin1), PAGE_URL,
                                       "text/html;charset=\"UTF-8\"", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (first_text (header_wins), ==, "Caf\xC3\xA9");
  meta_wins = cg_links_extract_html (utf8_meta_latin1, strlen (utf8_meta_latin1), PAGE_URL, "text/html", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (first_text (meta_wins), ==, "Caf\xC3\x83\xC2\xA9");
  bom_wins = cg_links_extract_html (bom_utf8, strlen (bom_utf8), PAGE_URL, "text/html; charset=iso-8859-1", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (first_text (bom_wins), ==, "Caf\xC3\xA9");
  wide = cg_links_extract_html (utf16le, sizeof utf16le - 1, PAGE_URL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (wide->len, ==, 1);
  g_assert_cmpstr (((CgLink *) wide->pdata[0])->url, ==, D "u.html");
  g_assert_cmpstr (first_text (wide), ==, "U");

  /* "iso-8859-1" declared in the page, or nothing declared, is read as
   * browsers read it, windows-1252: the euro sign, curly quotes and dashes
   * are not control characters. */
  {
    const char *pages[] = {
      "<meta charset=\"iso-8859-1\"><a href=\"a.html\">\x80 5 \x93new\x94 \x96 \x85</a>",
      "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=ISO-8859-1\">"
      "<a href=\"a.html\">\x80 5 \x93new\x94 \x96 \x85</a>",
      "<html><body><a href=\"a.html\">\x80 5 \x93new\x94 \x96 \x85</a></body></html>",
    };

    for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
      {
        g_autoptr(GPtrArray) links = cg_links_extract_html (pages[i], strlen (pages[i]), PAGE_URL, "text/html", &error);
        g_autoptr(xmlDoc) doc = NULL;
        g_autofree char *text = NULL;

        g_assert_no_error (error);
        g_assert_cmpstr (first_text (links), ==, "\xE2\x82\xAC 5 \xE2\x80\x9Cnew\xE2\x80\x9D \xE2\x80\x93 \xE2\x80\xA6");
        doc = cg_html_parse (pages[i], strlen (pages[i]), PAGE_URL, "text/html", &error);
        g_assert_no_error (error);
        text = (char *) xmlNodeGetContent (xmlDocGetRootElement (doc));
        g_assert_nonnull (strstr (text, "\xE2\x82\xAC 5 \xE2\x80\x9Cnew\xE2\x80\x9D"));
      }
  }
}

static void
test_srcset (void)
{
  const struct {
    const char *srcset;
    const char *urls[4];
  } cases[] = {
    { "a.jpg 1x, b.jpg 2x", { "a.jpg", "b.jpg", NULL } },
    { "img,1.jpg 1x, img,2.jpg 2x", { "img,1.jpg", "img,2.jpg", NULL } },
    { "a.jpg,b.jpg", { "a.jpg,b.jpg", NULL } },
    { "a.jpg, b.jpg", { "a.jpg", "b.jpg", NULL } },
    { "a.jpg,, ,b.jpg,", { "a.jpg", "b.jpg", NULL } },
    { "  a.jpg  100w  ,\n\tb.jpg 200w  ", { "a.jpg", "b.jpg", NULL } },
    { "c.jpg (max-width: 10px, bogus) 2x, d.jpg", { "c.jpg", "d.jpg", NULL } },
    { "data:image/png;base64,AAAA 1x, e.jpg 2x", { "data:image/png;base64,AAAA", "e.jpg", NULL } },
    { "", { NULL } },
    { " , , ", { NULL } },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(GStrv) urls = cg_links_parse_srcset (cases[i].srcset);

      g_test_message ("srcset “%s”", cases[i].srcset);
      g_assert_cmpstrv (urls, cases[i].urls);
    }
}

static void
test_meta_refresh (void)
{
  const struct {
    const char *content;
    const char *url;
  } cases[] = {
    { "0;url=a.html", D "a.html" },
    { "5, URL = 'b.html'", D "b.html" },
    { "3; URL=\"c.html\"", D "c.html" },
    { "url=d.html", D "d.html" },
    { "  7 ;  e.html  ", D "e.html" },
    { "10", NULL },
    { "", NULL },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *html = g_strdup_printf ("<meta http-equiv=\"refresh\" content=\"%s\">",
                                               cases[i].content);
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) links = NULL;

      /* The content attribute holds quotes of its own in some cases. */
      if (strchr (cases[i].content, '"') != NULL)
        {
          g_free (html);
          html = g_strdup_printf ("<meta http-equiv=\"refresh\" content='%s'>", cases[i].content);
        }
      links = cg_links_extract_html (html, strlen (html), PAGE_URL, NULL, &error);
      g_test_message ("content “%s”", cases[i].content);
      g_assert_no_error (error);
      if (cases[i].url == NULL)
        g_assert_cmpuint (links->len, ==, 0);
      else
        {
          g_assert_cmpuint (links->len, ==, 1);
          g_assert_cmpint (((CgLink *) links->pdata[0])->hop, ==, CG_HOP_REDIRECT);
          g_assert_cmpstr (((CgLink *) links->pdata[0])->url, ==, cases[i].url);
        }
    }
}

static void
test_css (void)
{
  g_autoptr(GBytes) bytes = load_fixture ("style.css");
  g_autoptr(GError) error = NULL;
  gsize length;
  const char *data = g_bytes_get_data (bytes, &length);
  g_autoptr(GPtrArray) links = cg_links_extract_css (data, length, "http://www.example.org/css/style.css", &error);
  /* Not there: the URL in a comment, in a string, in myurl(), a data:
   * URL, url(bad url.png) and the empty url(). */
#define C "http://www.example.org/css/"
  const Expected expected[] = {
    { 'E', "css", "@import", C "imported.css", NULL },
    { 'E', "css", "@import", C "imported-media.css", NULL },
    { 'E', "css", "@import", C "imported-upper.css", NULL },
    { 'E', "css", "url()", C "double.png", NULL },
    { 'E', "css", "url()", C "single.png", NULL },
    { 'E', "css", "url()", C "bare.png", NULL },
    { 'E', "css", "url()", C "spaced.png", NULL },
    { 'E', "css", "url()", C "upper-case.png", NULL },
    { 'E', "css", "url()", C "paren(1).png", NULL },
    { 'E', "css", "url()", C "quote%22d.png", NULL },
    { 'E', "css", "url()", C "hexAescape.png", NULL },
    { 'E', "css", "url()", "http://www.example.org/up/level.png", NULL },
    { 'E', "css", "url()", C "second.png", NULL },
    { 'E', "css", "url()", C "font.woff2", NULL },
  };
#undef C

  g_assert_no_error (error);
  assert_links (links, expected, G_N_ELEMENTS (expected));
}

static void
test_css_edge_cases (void)
{
  const char unterminated[] = ".a { background: url(\"never-closed.png";
  const char comment[] = "/* never closed url(x.png)";
  const char escapes[] = ".a{b:url(\\31 23.png)} .c{d:url(\"caf\\e9.png\")} .e{f:url(\\0)}";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) a = cg_links_extract_css (unterminated, strlen (unterminated), "http://e.example/", &error);
  g_autoptr(GPtrArray) b = cg_links_extract_css (comment, strlen (comment), "http://e.example/", &error);
  g_autoptr(GPtrArray) c = cg_links_extract_css (escapes, strlen (escapes), "http://e.example/", &error);
  g_autoptr(GPtrArray) empty = cg_links_extract_css ("", 0, "http://e.example/", &error);
  g_autoptr(GPtrArray) bad_base = NULL;
  g_autoptr(GPtrArray) binary = NULL;

  g_assert_no_error (error);
  /* An unterminated string still ends the document. */
  g_assert_cmpuint (a->len, ==, 1);
  g_assert_cmpstr (((CgLink *) a->pdata[0])->url, ==, "http://e.example/never-closed.png");
  g_assert_cmpuint (b->len, ==, 0);
  g_assert_cmpuint (c->len, ==, 3);
  g_assert_cmpstr (((CgLink *) c->pdata[0])->url, ==, "http://e.example/123.png");
  g_assert_cmpstr (((CgLink *) c->pdata[1])->url, ==, "http://e.example/caf%C3%A9.png");
  g_assert_cmpstr (((CgLink *) c->pdata[2])->url, ==, "http://e.example/%EF%BF%BD");
  g_assert_cmpuint (empty->len, ==, 0);

  bad_base = cg_links_extract_css ("a{b:url(x.png)}", 15, "not a url", &error);
  g_assert_null (bad_base);
  g_assert_error (error, CG_LINKS_ERROR, CG_LINKS_ERROR_BAD_BASE);
  g_clear_error (&error);
  binary = cg_links_extract_css ("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16, "http://e.example/x.css", &error);
  g_assert_null (binary);
  g_assert_error (error, CG_LINKS_ERROR, CG_LINKS_ERROR_NOT_TEXT);
  g_assert_nonnull (strstr (error->message, "http://e.example/x.css"));
}

static void
test_empty_and_binary (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) empty = cg_links_extract_html ("", 0, PAGE_URL, NULL, &error);
  g_autoptr(GPtrArray) blank = cg_links_extract_html ("  \n\t ", 5, PAGE_URL, NULL, &error);
  g_autoptr(GPtrArray) text = cg_links_extract_html ("just words", 10, PAGE_URL, NULL, &error);
  g_autoptr(GPtrArray) binary = NULL;
  g_autoptr(GPtrArray) large = NULL;
  const char png[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10";
  g_autofree char *huge = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (empty->len, ==, 0);
  g_assert_cmpuint (blank->len, ==, 0);
  g_assert_cmpuint (text->len, ==, 0);

  binary = cg_links_extract_html (png, sizeof png - 1, "http://www.example.org/image.png", "image/png", &error);
  g_assert_null (binary);
  g_assert_error (error, CG_LINKS_ERROR, CG_LINKS_ERROR_NOT_TEXT);
  g_assert_nonnull (strstr (error->message, "http://www.example.org/image.png"));
  g_clear_error (&error);

  huge = g_malloc0 (CG_LINKS_MAX_INPUT_SIZE + 1);
  memset (huge, 'a', CG_LINKS_MAX_INPUT_SIZE + 1);
  large = cg_links_extract_html (huge, CG_LINKS_MAX_INPUT_SIZE + 1, PAGE_URL, NULL, &error);
  g_assert_null (large);
  g_assert_error (error, CG_LINKS_ERROR, CG_LINKS_ERROR_TOO_LARGE);
  g_clear_error (&error);

  {
    g_autoptr(GPtrArray) bad = cg_links_extract_html ("<a href=x>x</a>", 15, "mailto:x@example.org", NULL, &error);

    g_assert_null (bad);
    g_assert_error (error, CG_LINKS_ERROR, CG_LINKS_ERROR_BAD_BASE);
  }
}

typedef struct {
  guint about_count;
  guint total;
  guint with_path;
  gboolean nodes_match;
} CallbackStats;

static void
count_cb (const CgLink *link,
          xmlNodePtr    node,
          gpointer      user_data)
{
  CallbackStats *stats = user_data;
  xmlChar *path = xmlGetNodePath (node);

  stats->total++;
  if (g_str_equal (link->url, D "about.html"))
    stats->about_count++;
  if (path != NULL)
    stats->with_path++;
  /* CSS in a <style> block reports the <style> element. */
  if (!g_str_equal ((const char *) node->name, link->element))
    stats->nodes_match = FALSE;
  xmlFree (path);
}

/* The callback sees every occurrence with its node, for DOM paths. */
static void
test_callback_gives_nodes (void)
{
  g_autoptr(GBytes) bytes = load_fixture ("all-elements.html");
  g_autoptr(GError) error = NULL;
  gsize length;
  const char *data = g_bytes_get_data (bytes, &length);
  htmlDocPtr doc = cg_html_parse (data, length, PAGE_URL, NULL, &error);
  CallbackStats stats = { 0, 0, 0, TRUE };
  g_autoptr(GPtrArray) deduplicated = extract_fixture ("all-elements.html", PAGE_URL, NULL);

  g_assert_no_error (error);
  g_assert_nonnull (doc);
  g_assert_true (cg_links_foreach_in_document (doc, PAGE_URL, count_cb, &stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.about_count, ==, 2);
  g_assert_cmpuint (stats.total, ==, deduplicated->len + 1);
  g_assert_cmpuint (stats.with_path, ==, stats.total);
  g_assert_true (stats.nodes_match);

  g_assert_false (cg_links_foreach_in_document (doc, "ftp://x/", count_cb, &stats, &error));
  g_assert_error (error, CG_LINKS_ERROR, CG_LINKS_ERROR_BAD_BASE);
  xmlFreeDoc (doc);
}

static void
test_bounds (void)
{
  GString *page = g_string_new ("<body>");
  GString *nested = g_string_new (NULL);
  GString *long_text = g_string_new ("<a href=\"long.html\">");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) many = NULL;
  g_autoptr(GPtrArray) deep = NULL;
  g_autoptr(GPtrArray) text = NULL;
  const char *anchor;

  for (guint i = 0; i < CG_LINKS_MAX_PER_DOCUMENT + 2000; i++)
    g_string_append_printf (page, "<a href=\"p%u.html\">%u</a>\n", i, i);
  many = cg_links_extract_html (page->str, page->len, PAGE_URL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (many->len, ==, CG_LINKS_MAX_PER_DOCUMENT);
  g_assert_cmpstr (((CgLink *) many->pdata[0])->url, ==, D "p0.html");

  for (guint i = 0; i < 20000; i++)
    g_string_append (nested, "<div>");
  g_string_append (nested, "<a href=\"deep.html\">deep</a>");
  deep = cg_links_extract_html (nested->str, nested->len, PAGE_URL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (deep);

  for (guint i = 0; i < 1000; i++)
    g_string_append (long_text, " word \n\t ");
  g_string_append (long_text, "</a>");
  text = cg_links_extract_html (long_text->str, long_text->len, PAGE_URL, NULL, &error);
  g_assert_no_error (error);
  anchor = first_text (text);
  g_assert_cmpuint (g_utf8_strlen (anchor, -1), <=, CG_LINKS_MAX_ANCHOR_TEXT);
  g_assert_true (g_str_has_prefix (anchor, "word word word"));
  g_assert_null (strstr (anchor, "  "));
  g_assert_false (g_str_has_suffix (anchor, " "));

  g_string_free (page, TRUE);
  g_string_free (nested, TRUE);
  g_string_free (long_text, TRUE);
}

/* The links of a page read from its tree, deduplicated as
 * cg_links_extract_html() deduplicates: what the extractor read before it
 * read pages without a tree, and must still give. */
static void
tree_collect_cb (const CgLink *link,
                 xmlNodePtr    node,
                 gpointer      user_data)
{
  GPtrArray *links = user_data;

  for (guint i = 0; i < links->len; i++)
    {
      CgLink *seen = links->pdata[i];

      if (seen->hop == link->hop && g_str_equal (seen->url, link->url))
        return;
    }
  g_ptr_array_add (links, cg_link_copy (link));
}

static GPtrArray *
extract_from_tree (const char *data,
                   gsize       length,
                   const char *url,
                   const char *content_type)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *links = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_link_free);
  htmlDocPtr doc = cg_html_parse (data, length, url, content_type, &error);

  g_assert_no_error (error);
  g_assert_true (cg_links_foreach_in_document (doc, url, tree_collect_cb, links, &error));
  g_assert_no_error (error);
  xmlFreeDoc (doc);
  return links;
}

/* Both ways of reading @html give the same links, in the same order, with
 * the same texts; and so does an extractor that has read other pages. */
static void
assert_same_as_tree (CgLinkExtractor *extractor,
                     const char      *html,
                     gsize            length,
                     const char      *url,
                     const char      *content_type)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) expected = extract_from_tree (html, length, url, content_type);
  g_autoptr(GPtrArray) alone = cg_links_extract_html (html, length, url, content_type, &error);
  g_autoptr(GPtrArray) reused = NULL;

  g_assert_no_error (error);
  reused = cg_link_extractor_extract_html (extractor, html, length, url, content_type, &error);
  g_assert_no_error (error);

  for (guint round = 0; round < 2; round++)
    {
      GPtrArray *links = round == 0 ? alone : reused;

      g_assert_cmpuint (links->len, ==, expected->len);
      for (guint i = 0; i < links->len; i++)
        {
          CgLink *got = links->pdata[i];
          CgLink *want = expected->pdata[i];

          g_assert_cmpstr (got->url, ==, want->url);
          g_assert_cmpint (got->hop, ==, want->hop);
          g_assert_cmpstr (got->element, ==, want->element);
          g_assert_cmpstr (got->attribute, ==, want->attribute);
          g_assert_cmpstr (got->text, ==, want->text);
        }
    }
}

static void
test_same_as_tree (void)
{
  static const char * const pages[] = {
    /* Texts: nested markup, blanks between blocks (kept, as no blanks are
     * dropped), entities, script text, comments, images' alt texts. */
    "<a href=\"/x\"><div>a</div> <div>b</div></a><a href=\"/y\"><p>one</p>\n<p>two</p></a>",
    "<body>\n<a href=\"/e\">caf&eacute; &amp; &#x263A; &nbsp;x</a><a href=\"/s\">a<script>var s = 1;</script>b</a>",
    "<a href=\"/c\">x<!-- no -->y</a><a href=\"/i\"><img src=\"/i.png\" alt=\"  the   image \"></a>",
    /* Every ASCII blank, and a vertical tab, which is none. */
    "<a href=\"/w\">\tone\r\n\ftwo \x0b three</a><a href=\"/w2\"> x &#9; y&#12;</a>",
    "<a href=\"/i2\"> <span><img src=\"/a.png\"><img src=\"/b.png\" alt=\"\"><img alt=\"third\"></span></a>",
    "<a href=\"/n\"><b>bold</b><img alt=\"alt\"></a><a href=\"/m\"></a><area href=\"/ar\" alt=\" an area \">",
    /* Unclosed and nested links, links without href. */
    "<p><a href=\"/open\">open <b>bold <a href=\"/inner\">inner</a> tail</b> more",
    "<a>no href <a href=\"/after\">after</a></a><a name=\"x\"><img alt=\"skip\"></a><a href=\"/z\">z",
    "<table><tr><td><a href=\"/t1\">cell</td><td>next</a></td></tr></table><a href=\"/t2\">t2</a>",
    /* A late <base>, a second one, and one without href. */
    "<a href=\"rel.html\">r</a><base target=\"_top\"><base href=\"http://other.example/b/\">"
    "<base href=\"http://third.example/\"><img src=\"img.png\">",
    /* Style blocks and attributes, meta refresh, forms, srcset. */
    "<head><style>@import url(a.css); body { background: url('/bg.png') }</style>"
    "<meta http-equiv=\"Refresh\" content=\"0; URL='/moved'\"></head>"
    "<body style=\"background:url(/body.png)\" background=\"/bg2.png\">"
    "<div style=\"x: url(/div.png)\"><a href=\"/s\" style=\"y: url(/a.png)\">s</a></div>"
    "<style media=\"print\" style=\"z: url(/self.png)\">p { q: url(/p.png) }</style>"
    "<form action=\"/search\"><input type=\"IMAGE\" src=\"/go.png\"></form><form method=\"post\" action=\"/post\">"
    "<img srcset=\"/a1.png 1x, /a2.png 2x\" src=\"/a0.png\"><picture><source srcset=\"/s,1.png 1x,/s2.png\"></picture>"
    "<link rel=\"stylesheet preload\" href=\"/l.css\"><link rel=\"next\" href=\"/next\" imagesrcset=\"/ls.png 2x\">",
    /* Every kind of reference the fast way leaves alone, and some it takes. */
    "<a href=\"/p/./q\">1</a><a href=\"/p/../q\">2</a><a href=\"/p/.\">3</a><a href=\"/p/..\">4</a>"
    "<a href=\"/a;jsessionid=0123456789ABCDEF0123\">5</a><a href=\"/(S(lit3py55t21z5v55vlm25s55))/x.aspx\">6</a>"
    "<a href=\"/%7euser/%41\">7</a><a href=\"/q?x=1#f\">8</a><a href=\"//cdn.example/x\">9</a>"
    "<a href=\"/a b\">10</a><a href=\"/caf\xc3\xa9\">11</a><a href=\"  /spaced  \">12</a><a href=\"/.hidden/..x\">13</a>"
    "<a href=\"/a/b/c-d_e~f!$&amp;'*+,=:@g\">14</a><a href=\"/\">15</a><a href=\"\\back\\slash\">16</a>",
    /* Odd markup: upper case, attributes without values, a doctype whose
     * body keeps no blanks, frames. */
    "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\"><HTML><BODY>\n <A HREF=\"/up\"> <I>x</I> <I>y</I> </A>"
    "<a href>empty</a><IMG SRC=/bare.png ALT=bare><FRAMESET><FRAME SRC=\"/f.html\"></FRAMESET>",
    /* Encodings: none declared (UTF-8, else ISO-8859-1), declared in the
     * page, a byte order mark. */
    "<a href=\"/caf\xc3\xa9\">caf\xc3\xa9</a>",
    "<a href=\"/caf\xe9\">caf\xe9</a>",
    "<meta charset=\"windows-1251\"><a href=\"/\xc1\">\xc1</a>",
    "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-7\"><a href=\"/\xe1\">\xe1</a>",
    "\xef\xbb\xbf<a href=\"/bom\xc3\xa9\">bom</a>",
    "",
    "   \n  ",
    "<svg><a href=\"/svg\">in svg</a><style>x { y: url(/svg.png) }</style></svg><math><a href=\"/m\">m</a></math>",
    /* Names with a prefix: the tree takes what follows the ':'. */
    "<p>x<o:p></o:p><x:a href=\"/prefixed\">prefixed <b>text</b></x:a><xml:a href=\"/xml\">xml</xml:a>"
    "<a: href=\"/colon\">colon</a:><svg:img src=\"/svg-img.png\"><ound-image:a href=\"/odd\">odd</ound-image:a>",
  };
  g_autoptr(CgLinkExtractor) extractor = cg_link_extractor_new ();
  const char * const fixtures[] = { "all-elements.html", "base.html", "broken.html", "frames.html", "latin1.html" };
  g_autoptr(CgDemoSite) site = cg_demo_site_new ();
  GString *many = g_string_new ("<body>");
  guint checked = 0;

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    assert_same_as_tree (extractor, pages[i], strlen (pages[i]), PAGE_URL, NULL);
  {
    /* A link text longer than is kept, cut at the same place, in ASCII
     * and with a non-ASCII character past the cut. */
    g_autofree char *words = g_strnfill (CG_LINKS_MAX_ANCHOR_TEXT * 2, 'w');
    g_autofree char *page = NULL;

    for (guint i = 3; i < CG_LINKS_MAX_ANCHOR_TEXT * 2; i += 7)
      words[i] = ' ';
    page = g_strdup_printf ("<a href=\"/long\">%s</a><a href=\"/long2\">%s caf\xc3\xa9</a>", words, words);
    assert_same_as_tree (extractor, page, strlen (page), PAGE_URL, NULL);
  }
  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autoptr(GBytes) bytes = load_fixture (fixtures[i]);
      gsize length;
      const char *data = g_bytes_get_data (bytes, &length);

      assert_same_as_tree (extractor, data, length, PAGE_URL, NULL);
      assert_same_as_tree (extractor, data, length, PAGE_URL, "text/html; charset=iso-8859-1");
    }

  /* Deeper than libxml2 builds trees: it stops there, whichever way the
   * page is read. */
  for (guint i = 0; i < 400; i++)
    g_string_append_printf (many, "<div><a href=\"/d%u\">d%u <b>", i, i);
  g_string_append (many, "<a href=\"/deepest\">deepest</a>");
  assert_same_as_tree (extractor, many->str, many->len, PAGE_URL, NULL);
  g_string_assign (many, "<body>");

  /* Past the bound on links, and with a long text. */
  for (guint i = 0; i < CG_LINKS_MAX_PER_DOCUMENT + 10; i++)
    g_string_append_printf (many, "<a href=\"/p%u\" style=\"b: url(/s%u.png)\">%u <i>x</i></a>", i, i, i);
  for (guint i = 0; i < 300; i++)
    g_string_append (many, "<a href=\"/long\">word&#x20;word \n");
  assert_same_as_tree (extractor, many->str, many->len, PAGE_URL, NULL);
  g_string_free (many, TRUE);

  /* Every page of the demo site. */
  for (guint i = 0; i < cg_demo_site_get_n_pages (site); i++)
    {
      JsonObject *page = cg_demo_site_get_page (site, i);
      g_autofree char *path = g_strdup (json_object_get_string_member (page, "path"));
      char *query = strchr (path, '?');
      g_autofree char *url = NULL;
      g_autoptr(CgDemoResponse) response = NULL;
      const char *data;
      gsize length;

      url = g_strconcat ("http://127.0.0.1:8080", path, NULL);
      if (query != NULL)
        *query++ = '\0';
      response = cg_demo_site_respond (site, "http://127.0.0.1:8080", path, query, NULL, NULL);
      if (response->status != 200 || response->body == NULL)
        continue;
      data = g_bytes_get_data (response->body, &length);
      assert_same_as_tree (extractor, data, length, url, response->content_type);
      checked++;
    }
  g_assert_cmpuint (checked, >, 100);
}

/* ---- pages read without libxml2's parser -------------------------------- */

static void
ignore_start_cb (gpointer     user_data,
                 const char  *name,
                 const char **atts)
{
}

static void
ignore_end_cb (gpointer    user_data,
               const char *name)
{
}

static void
ignore_text_cb (gpointer    user_data,
                const char *text,
                gsize       length)
{
}

/* Whether the extractor reads @html without libxml2's parser. */
static gboolean
scanner_reads (const char *html,
               gsize       length,
               const char *encoding)
{
  static const CgLinkScannerEvents ignore = { ignore_start_cb, ignore_end_cb, ignore_text_cb };

  return cg_link_scanner_read (html, length, encoding, &ignore, NULL);
}

/* A page as the site generators of the crawl benchmark and of many real
 * sites write them. */
static const char plain_page[] =
  "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd\">\n"
  "<!-- generated -->\n<html lang=\"en\">\n<head>\n<meta charset=\"UTF-8\">\n<title>A &amp; B</title>\n"
  "<link rel=\"stylesheet\" href=\"/assets/site.css\"><base href=\"/dir/\">\n"
  "<style>body { background: url(bg.png) } a:hover { color: red }</style>\n"
  "<script>if (a < b && c) document.write('</div>');</script>\n</head>\n"
  "<body class=x background='/body.png'>\n<header><a href=\"/index.html\">Home</a><h1>Title</h1></header>\n"
  "<p>Caf\xc3\xa9 &eacute; &#233; &#xE9; &copy; &bogus; & &amp x < y</p>\n"
  "<ul>\n<li><a href=\"p1.html?a=1&amp;b=2&c=3&copy\">One <b>bold</b> <img src=i.png alt=\"\"></a></li>\n"
  "<li><a href=p2.html title='two'>Two<br/>lines &lt;&gt;</a></li>\n"
  "<li><a href=\"/p3\"><svg viewBox=\"0 0 1 1\"><path d=\"M0\"/></svg> Icon <my-tag>custom</my-tag></a>\n"
  "<li><a href=\"/p4\"><span class=\"x\"><script>var s = '<a href=/no>';</script>with script</span></a>\n"
  "<li><a href=\"/card\"><div class=\"card\"><h3>Card</h3><picture><source srcset=\"/c.webp\"><img src=\"/c.png\"></picture>"
  "<meta itemprop=\"position\" content=\"1\"></div></a>\n"
  "<li><a name=\"anchor-only\">no href</a> <a href=\"/p5\"/>self-closed\n"
  "</ul>\n<img srcset=\"/a1.png 1x, /a2.png 2x\" src=\"/a0.png\">\n"
  "<form action=\"/search\"><input type=\"image\" src=\"/go.png\"></form>\n"
  "<div style=\"background: url(/div.png)\"><area href=\"/area\" alt=\"An area\"></div>\n"
  "</body>\n</html>\n<script src=\"/after-html.js\"></script>\n";

static void
test_scanner_reads_plain_pages (void)
{
  g_autoptr(CgLinkExtractor) extractor = cg_link_extractor_new ();
  g_autoptr(GString) deep = g_string_new ("<body>");

  g_assert_true (scanner_reads (plain_page, strlen (plain_page), NULL));
  g_assert_true (scanner_reads (plain_page, strlen (plain_page), "utf-8"));
  assert_same_as_tree (extractor, plain_page, strlen (plain_page), PAGE_URL, NULL);
  assert_same_as_tree (extractor, plain_page, strlen (plain_page), PAGE_URL, "text/html; charset=UTF-8");

  /* Past a UTF-8 byte order mark, as libxml2 reads it. */
  {
    g_autofree char *marked = g_strconcat ("\xEF\xBB\xBF", plain_page, NULL);

    assert_same_as_tree (extractor, marked, strlen (marked), PAGE_URL, NULL);
    assert_same_as_tree (extractor, marked, strlen (marked), PAGE_URL, "text/html; charset=iso-8859-1");
  }

  /* An ASCII page reads the same in any encoding that extends ASCII. */
  {
    static const char ascii[] = "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\">"
                                "<a href=\"/x\">x</a>";

    g_assert_true (scanner_reads (ascii, strlen (ascii), NULL));
    g_assert_true (scanner_reads (ascii, strlen (ascii), "iso-8859-2"));
    assert_same_as_tree (extractor, ascii, strlen (ascii), PAGE_URL, "text/html; charset=iso-8859-2");
  }

  /* Nesting as deep as is safe, but not deeper. */
  for (guint i = 0; i < 150; i++)
    g_string_append (deep, "<div>");
  g_string_append (deep, "<a href=\"/deep\">deep</a>");
  g_assert_true (scanner_reads (deep->str, deep->len, NULL));
  assert_same_as_tree (extractor, deep->str, deep->len, PAGE_URL, NULL);
  for (guint i = 0; i < 100; i++)
    g_string_append (deep, "<div>");
  g_assert_false (scanner_reads (deep->str, deep->len, NULL));
  assert_same_as_tree (extractor, deep->str, deep->len, PAGE_URL, NULL);
}

/* Pages the reader is not sure of are left to libxml2, which gives the
 * links of the tree. */
static void
test_scanner_declines_the_rest (void)
{
  static const struct {
    const char *html;
    const char *encoding;
  } pages[] = {
    /* Elements within a link that libxml2 closes it with, or may. */
    { "<a href=\"/1\">one <a href=\"/2\">two</a></a>", NULL },
    { "<a href=\"/1\"><p>paragraph</p></a>", NULL },
    { "<a href=\"/1\"><ul><li>item</ul></a>", NULL },
    { "<table><tr><td><a href=\"/t1\">cell</td><td>next</a></td></tr></table>", NULL },
    { "<a href=\"/1\"><div>block</a></div>", NULL },
    { "<a href=\"/1\"><meta charset=\"koi8-r\">\xc1</a>", NULL },
    { "<div><a href=\"/1\">x</div>y</a>", NULL },
    /* Another encoding, declared or not UTF-8. */
    { "<meta charset=\"windows-1251\"><a href=\"/\xc1\">\xc1</a>", NULL },
    { "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-7\"><a href=\"/\xe1\">\xe1</a>", NULL },
    { "<a href=\"/caf\xc3\xa9\">caf\xc3\xa9</a>", "iso-8859-2" },
    { "<a href=\"/caf\xe9\">caf\xe9</a>", NULL },
    { "<a href=\"/x\">\xef\xbf\xbe</a>", NULL },
    /* Characters libxml2 drops, and references it cuts values at. */
    { "<a href=\"/w\">one\x0btwo</a>", NULL },
    { "<a href=\"/w\x0c\">x</a>", NULL },
    { "<a href=\"/v&#0;w\">x</a>", NULL },
    { "<a href=\"/v&#xD800;w\">x</a>", NULL },
    { "<a href=\"/v&caf\xc3\xa9;\">x</a>", NULL },
    /* An <html>, <head> or <body> libxml2 drops, with references (one
     * without is read: nothing of it would be). */
    { "<a href=\"/first\">first</a><body background=\"/dropped.png\">", NULL },
    { "text<body background=\"/dropped.png\">", NULL },
    { "<p>x</p><html style=\"background: url(/h.png)\">", NULL },
    { "<title>t</title><head style=\"background: url(/h.png)\">", NULL },
    { "<body><body background=\"/second.png\">", NULL },
    { "<head><title>a</html> b</title></head><body background=\"/dropped.png\">", NULL },
    { "<frameset><frame src=\"/f.html\"></frameset>", NULL },
    /* Markup this reader does not take. */
    { "<?xml version=\"1.0\"?><a href=\"/pi\">pi</a>", NULL },
    { "<!-- unfinished <a href=\"/c\">c</a>", NULL },
    { "<!-- a --!> <a href=\"/c\">c</a> -->", NULL },
    { "<![CDATA[x]]><a href=\"/c\">c</a>", NULL },
    { "<a href=\"/c\">c</ a>", NULL },
    { "<a href=\"/c\" / >c</a>", NULL },
    { "<a href=\"/c>c</a>", NULL },
    { "<_x><a href=\"/c\">c</a>", NULL },
    { "<a.b href=\"/c\">c</a.b>", NULL },
    { "<x:a href=\"/c\">c</x:a>", NULL },
    { "<script>unfinished <a href=\"/s\">", NULL },
    { "<script>x</scripts><a href=\"/s\">s</a></script>", NULL },
    { "<a href=\"/c\">c</a><!DOCTYPE html \"x\">", NULL },
    { "<p><span>x<script></span><a href=\"/after\">after</a></p>", NULL },
    { "<a href=\"/d\">d<!DOCTYPE html></a>", NULL },
  };
  g_autoptr(CgLinkExtractor) extractor = cg_link_extractor_new ();

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      gsize length = strlen (pages[i].html);
      g_autofree char *content_type = pages[i].encoding != NULL ?
        g_strdup_printf ("text/html; charset=%s", pages[i].encoding) : NULL;

      {
        /* Escaped: the pages are in legacy encodings, and the test's
         * output is TAP, which must be UTF-8. */
        g_autofree char *shown = g_strescape (pages[i].html, NULL);

        g_test_message ("%s", shown);
      }
      g_assert_false (scanner_reads (pages[i].html, length, pages[i].encoding));
      assert_same_as_tree (extractor, pages[i].html, length, PAGE_URL, content_type);
    }
}

/* No element the reader lets a link hold closes the link or another of
 * them in libxml2, nested either way; nor do elements libxml2 does not
 * know. */
static void
test_scanner_link_content (void)
{
  const char * const *content = cg_link_scanner_get_link_content ();
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(CgLinkExtractor) extractor = cg_link_extractor_new ();
  GString *page = g_string_new (NULL);

  for (guint i = 0; content[i] != NULL; i++)
    g_ptr_array_add (names, (gpointer) content[i]);
  g_ptr_array_add (names, (gpointer) "svg");
  g_ptr_array_add (names, (gpointer) "my-element");
  g_assert_cmpuint (names->len, >, 80);

  for (guint i = 0; i < names->len; i++)
    for (guint j = 0; j < names->len; j++)
      {
        const char *outer = names->pdata[i];
        const char *inner = names->pdata[j];
        const htmlElemDesc *outer_desc = htmlTagLookup ((const xmlChar *) outer);
        const htmlElemDesc *inner_desc = htmlTagLookup ((const xmlChar *) inner);
        gboolean outer_empty = outer_desc != NULL && outer_desc->empty;
        gboolean inner_empty = inner_desc != NULL && inner_desc->empty;

        /* Script and style hold text, not elements. */
        if (g_str_equal (outer, "script") || g_str_equal (outer, "style"))
          inner_empty = TRUE, inner = "br";

        g_string_assign (page, "<p><a href=\"/1\">t ");
        g_string_append_printf (page, "<%s title=\"o\" style=\"x: url(/o.png)\">u ", outer);
        if (inner_empty)
          g_string_append_printf (page, g_str_equal (outer, "script") || g_str_equal (outer, "style") ?
                                  "&lt;%s alt=\"inner alt\"&gt;" : "<%s alt=\"inner alt\">", inner);
        else
          g_string_append_printf (page, "<%s alt=\"i\">v</%s>", inner, inner);
        if (!outer_empty)
          g_string_append_printf (page, " w</%s>", outer);
        g_string_append (page, " x</a> y <a href=\"/2\">z</a></p>");

        g_test_message ("%s", page->str);
        g_assert_true (scanner_reads (page->str, page->len, NULL));
        assert_same_as_tree (extractor, page->str, page->len, PAGE_URL, NULL);

        /* The inner one left open: the outer's end tag closes it, unless
         * it outranks the outer (a <div> in a <span>), or the link's end
         * tag meets a <div> still open; the reader leaves those to
         * libxml2. */
        if (!outer_empty && !inner_empty && !g_str_equal (inner, "script") && !g_str_equal (inner, "style"))
          {
            g_string_printf (page, "<p><a href=\"/1\">t <%s>u <%s>v </%s> w</a> <a href=\"/2\">z</a>",
                             outer, inner, outer);
            g_test_message ("%s", page->str);
            if (!g_str_equal (inner, "div") && !g_str_equal (outer, "div"))
              g_assert_true (scanner_reads (page->str, page->len, NULL));
            assert_same_as_tree (extractor, page->str, page->len, PAGE_URL, NULL);
          }
      }
  g_string_free (page, TRUE);
}

/* Pages changed at random (pieces of markup put in, cut out or
 * repeated) give the links of the tree, whichever way they are read. */
static void
test_scanner_on_changed_pages (void)
{
  static const char * const pieces[] = {
    "<a href=\"/m\">", "</a>", "<b>", "</b>", "<div>", "</div>", "<p>", "</p>", "<td>", "<table>",
    "<body background=\"/b.png\">", "<head>", "<html>", "</html>", "</body>", "<title>", "</title>",
    "<script>", "</script>", "<style>", "</style>", "<!--", "-->", "--!>", "<!DOCTYPE html>", "<?x?>",
    "<meta charset=\"iso-8859-2\">", "<meta charset=\"utf-8\">", "<br/>", "<img alt=\"alt\">", "/>",
    "&amp;", "&#0;", "&#233;", "&#x", "&bogus;", "&", "<", ">", "\"", "'", "=", " ", "\n", "\x0b",
    "\xc3\xa9", "\xe9", "</", "<a", "<a href=", "url(/u.png)", "<base href=\"/b/\">", "<svg>",
    "<my-tag>", "</my-tag>", "<span>", "</span>", "&eacute;", "&#x41;", "&amp", "&#65", "&x", "<path/>",
    "<a href=x>", "<a href='y' title=t>", "<area href=/ar>", "<link href=/l.css rel=stylesheet>", "<em>",
    "</em>", "<li>", "<ul>", "</td>", "<!-- c -->", "<script>s</script>", "<style>a{b:url(/s.png)}</style>",
  };
  g_autoptr(CgLinkExtractor) extractor = cg_link_extractor_new ();
  g_autoptr(CgDemoSite) site = cg_demo_site_new ();
  g_autoptr(GPtrArray) sources = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  guint read_plainly = 0;
  const guint rounds = 1500;

  g_ptr_array_add (sources, g_bytes_new_static (plain_page, strlen (plain_page)));
  for (guint i = 0; i < cg_demo_site_get_n_pages (site) && sources->len < 40; i++)
    {
      JsonObject *page = cg_demo_site_get_page (site, i);
      g_autofree char *path = g_strdup (json_object_get_string_member (page, "path"));
      char *query = strchr (path, '?');
      g_autoptr(CgDemoResponse) response = NULL;

      if (query != NULL)
        *query++ = '\0';
      response = cg_demo_site_respond (site, "http://127.0.0.1:8080", path, query, NULL, NULL);
      if (response->status == 200 && response->body != NULL)
        g_ptr_array_add (sources, g_bytes_ref (response->body));
    }

  for (guint round = 0; round < rounds; round++)
    {
      GBytes *source = sources->pdata[g_test_rand_int_range (0, (gint32) sources->len)];
      gsize length;
      const char *data = g_bytes_get_data (source, &length);
      GString *page = g_string_new_len (data, (gssize) length);
      guint changes = (guint) g_test_rand_int_range (1, 5);

      for (guint c = 0; c < changes; c++)
        {
          gsize at = (gsize) g_test_rand_int_range (0, (gint32) page->len + 1);
          gsize span = (gsize) g_test_rand_int_range (1, 60);
          gsize gap = (gsize) g_test_rand_int_range (0, 200);

          span = MIN (span, page->len - at);

          switch (g_test_rand_int_range (0, 3))
            {
            case 0:
              g_string_insert (page, (gssize) at, pieces[g_test_rand_int_range (0, G_N_ELEMENTS (pieces))]);
              break;
            case 1:
              g_string_erase (page, (gssize) at, (gssize) span);
              break;
            default:
              {
                g_autofree char *copy = g_strndup (page->str + at, span);

                g_string_insert (page, (gssize) MIN (at + span + gap, page->len), copy);
              }
              break;
            }
        }
      /* The extractor refuses pages with NUL bytes; no piece has one. */
      g_assert_null (memchr (page->str, '\0', page->len));
      if (scanner_reads (page->str, page->len, NULL))
        read_plainly++;
      assert_same_as_tree (extractor, page->str, page->len, PAGE_URL, NULL);
      g_string_free (page, TRUE);
    }
  /* Both ways were taken, each often. */
  g_test_message ("%u of %u changed pages read without libxml2's parser", read_plainly, rounds);
  g_assert_cmpuint (read_plainly, >, rounds / 10);
  g_assert_cmpuint (read_plainly, <, rounds - rounds / 10);
}

/* An absolute-path reference made only of plain characters is resolved
 * without GUri; every reference must still resolve as
 * cg_url_resolve_uri() resolves it. */
static void
test_resolves_as_url_module (void)
{
  static const char * const bases[] = {
    PAGE_URL,
    "HTTP://User:Pw@WWW.Example.ORG:80/dir/x.html?q=1",
    "https://[2001:db8::1]:8443/a/b",
    "http://example.org.:8080",
  };
  static const char * const references[] = {
    "/", "/a", "/a/b/", "/a//b", "/a/./b", "/a/../b", "/a/.", "/a/..", "/.", "/..", "/.a", "/..a", "/a.",
    "/a:b@c", "/a!$&'*+,=", "/~u", "/a;b", "/a;jsessionid=0123456789ABCDEF0123", "/(S(abc))/x",
    "/%41", "/a%zz", "/a b", "/a?b", "/a#b", "//host/x", "/caf\xc3\xa9", "/a\\b", "/a|b", "/a^b",
    "/a\"b", "/a<b>", "/a`b", "/a{b}", "/a\tb", "relative", "./x", "../x",
  };
  GString *html = g_string_new (NULL);

  for (guint b = 0; b < G_N_ELEMENTS (bases); b++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GUri) base = cg_url_parse (bases[b], CG_URL_NORMALIZE_SYNTAX, &error);
      g_autoptr(GPtrArray) links = NULL;

      g_assert_no_error (error);
      g_string_truncate (html, 0);
      for (guint r = 0; r < G_N_ELEMENTS (references); r++)
        {
          g_autofree char *escaped = g_markup_escape_text (references[r], -1);

          g_string_append_printf (html, "<a href=\"%s\">%u</a>", escaped, r);
        }
      links = cg_links_extract_html (html->str, html->len, bases[b], NULL, &error);
      g_assert_no_error (error);

      for (guint r = 0; r < G_N_ELEMENTS (references); r++)
        {
          g_autofree char *expected = cg_url_resolve_uri (base, references[r], CG_URL_NORMALIZE_CRAWL, NULL);
          g_autofree char *number = g_strdup_printf ("%u", r);
          const char *got = NULL;

          for (guint i = 0; i < links->len; i++)
            {
              CgLink *link = links->pdata[i];

              /* Two references may lead to one URL, which is listed once,
               * with the text of the first. */
              if (expected != NULL && g_str_equal (link->url, expected))
                got = link->url;
              else if (g_str_equal (link->text, number))
                got = link->url;
            }
          g_test_message ("%s + %s: %s", bases[b], references[r], expected != NULL ? expected : "(none)");
          g_assert_cmpstr (got, ==, expected);
        }
    }
  g_string_free (html, TRUE);
}

static void
test_hop_chars (void)
{
  g_assert_cmpint (cg_hop_type_to_char (CG_HOP_NAVLINK), ==, 'L');
  g_assert_cmpint (cg_hop_type_to_char (CG_HOP_EMBED), ==, 'E');
  g_assert_cmpint (cg_hop_type_to_char (CG_HOP_REDIRECT), ==, 'R');
  g_assert_cmpint (cg_hop_type_to_char (CG_HOP_SPECULATIVE), ==, 'X');
  g_assert_cmpint (cg_hop_type_to_char (CG_HOP_PREREQUISITE), ==, 'P');
  g_assert_cmpint (cg_hop_type_to_char (CG_HOP_SUBMIT), ==, 'S');
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/links/html/every-element", test_every_element);
  g_test_add_func ("/links/html/frames", test_frames);
  g_test_add_func ("/links/html/base", test_base_href);
  g_test_add_func ("/links/html/bad-base-href", test_bad_base_href_is_ignored);
  g_test_add_func ("/links/html/broken", test_broken_markup);
  g_test_add_func ("/links/html/upper-case", test_upper_case_markup);
  g_test_add_func ("/links/html/encodings", test_encodings);
  g_test_add_func ("/links/html/deep-nesting", test_deep_nesting);
  g_test_add_func ("/links/html/meta-refresh", test_meta_refresh);
  g_test_add_func ("/links/html/empty-binary", test_empty_and_binary);
  g_test_add_func ("/links/html/callback", test_callback_gives_nodes);
  g_test_add_func ("/links/html/bounds", test_bounds);
  g_test_add_func ("/links/srcset", test_srcset);
  g_test_add_func ("/links/css", test_css);
  g_test_add_func ("/links/css/edge-cases", test_css_edge_cases);
  g_test_add_func ("/links/hop-chars", test_hop_chars);
  g_test_add_func ("/links/html/same-as-tree", test_same_as_tree);
  g_test_add_func ("/links/html/scanner/plain-pages", test_scanner_reads_plain_pages);
  g_test_add_func ("/links/html/scanner/declines", test_scanner_declines_the_rest);
  g_test_add_func ("/links/html/scanner/link-content", test_scanner_link_content);
  g_test_add_func ("/links/html/scanner/changed-pages", test_scanner_on_changed_pages);
  g_test_add_func ("/links/html/resolves-as-url-module", test_resolves_as_url_module);

  return g_test_run ();
}
