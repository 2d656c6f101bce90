/* test-page-features.c: parsing for analysis, anchors, texts, 2-grams, leaf paths.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "cg-links.h"
#include "cg-page-features.h"

#define PAGE_URL "http://www.example.org/dir/page.html"

static htmlDocPtr
parse_with (const char *data,
            gsize       length,
            const char *content_type)
{
  g_autoptr(GError) error = NULL;
  htmlDocPtr doc = cg_page_parse (data, length, PAGE_URL, content_type, &error);

  g_assert_no_error (error);
  g_assert_nonnull (doc);
  return doc;
}

static htmlDocPtr
parse (const char *html)
{
  return parse_with (html, strlen (html), "text/html; charset=utf-8");
}

static GError *
parse_error (const char *data,
             gsize       length,
             const char *content_type)
{
  GError *error = NULL;
  htmlDocPtr doc = cg_page_parse (data, length, PAGE_URL, content_type, &error);

  g_assert_null (doc);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  /* Every message names the page. */
  g_assert_nonnull (strstr (error->message, PAGE_URL));
  return error;
}

/* ---- bad inputs ------------------------------------------------------------ */

static void
test_empty (void)
{
  g_autoptr(GError) none = parse_error ("", 0, "text/html");
  g_autoptr(GError) blank = parse_error (" \r\n\t ", 5, "text/html");
  g_autoptr(GError) comment = parse_error ("<!-- nothing -->\n", 17, NULL);
  htmlDocPtr doc;
  g_autoptr(GPtrArray) texts = NULL;
  g_autoptr(GHashTable) bigrams = NULL;
  g_autoptr(GPtrArray) anchors = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_error (none, CG_PAGE_ERROR, CG_PAGE_ERROR_EMPTY);
  g_assert_error (blank, CG_PAGE_ERROR, CG_PAGE_ERROR_EMPTY);
  g_assert_error (comment, CG_PAGE_ERROR, CG_PAGE_ERROR_EMPTY);

  /* An empty <body> is a page, with nothing in it. */
  doc = parse ("<html><head></head><body></body></html>");
  texts = cg_page_collect_texts (doc);
  bigrams = cg_page_collect_bigrams (doc, NULL);
  anchors = cg_page_collect_anchors (doc, PAGE_URL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (texts->len, ==, 0);
  g_assert_cmpuint (g_hash_table_size (bigrams), ==, 0);
  g_assert_cmpuint (anchors->len, ==, 0);
  xmlFreeDoc (doc);
}

static void
test_binary (void)
{
  static const char png[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10";
  g_autoptr(GError) error = parse_error (png, sizeof png - 1, "text/html");

  g_assert_error (error, CG_LINKS_ERROR, CG_LINKS_ERROR_NOT_TEXT);
}

/* A 50 MB page is refused on its size before any parsing. */
static void
test_too_large (void)
{
  gsize length = 50 * 1024 * 1024;
  g_autofree char *page = g_malloc (length);
  g_autoptr(GError) error = NULL;

  for (gsize i = 0; i < length; i += 16)
    memcpy (page + i, "<p>lorem ipsum</p>", MIN (16, length - i));
  error = parse_error (page, length, "text/html");
  g_assert_error (error, CG_LINKS_ERROR, CG_LINKS_ERROR_TOO_LARGE);
}

/* Bytes that are not valid in a page's character set read as a browser
 * shows them, each as U+FFFD, and the rest of the page as it is: such a
 * page was once refused, and a site with a stray byte in its template
 * gave an empty model. */
static void
test_invalid_encodings (void)
{
  /* Declared UTF-8 in the header; byte 9 (0xE9) is Latin-1. */
  static const char latin1_as_utf8[] = "<p>caf\xc3\xa9 \xe9t\xc3\xa9</p>";
  /* Declared UTF-8 in the page only. */
  static const char latin1_in_meta[] = "<meta charset=utf-8><p>caf\xe9</p><p>th\xc3\xa9</p>";
  /* Declared Shift_JIS in the page; 0x82 0xFF is no Shift_JIS character. */
  static const char bad_sjis[] = "<meta charset=shift_jis><p>\x82\xa0 \x82\xff\x82\xa0</p>";
  /* The header's ISO-8859-1 is read as windows-1252, which has no 0x81. */
  static const char bad_1252[] = "<p>price \x80 5 \x81</p>";
  /* UTF-16LE with a byte order mark, then a lone low surrogate. */
  static const char bad_utf16[] = "\xff\xfe<\0p\0>\0h\0\x00\xdci\0";
  /* A three-byte UTF-8 character cut off by the end of the page. */
  static const char cut_off[] = "<p>\xe3\x81\x82\xe3\x81";
  const struct {
    const char *data;
    gsize       length;
    const char *content_type;
    const char *texts[3];
  } pages[] = {
    { latin1_as_utf8, sizeof latin1_as_utf8 - 1, "text/html; charset=UTF-8", { "caf\xc3\xa9 \xef\xbf\xbdt\xc3\xa9" } },
    { latin1_in_meta, sizeof latin1_in_meta - 1, "text/html", { "caf\xef\xbf\xbd", "th\xc3\xa9" } },
    /* 0x82 starts a character of two bytes, and 0xFF ends none: the
     * next character is read whole. */
    { bad_sjis, sizeof bad_sjis - 1, "text/html", { "\xe3\x81\x82 \xef\xbf\xbd\xef\xbf\xbd\xe3\x81\x82" } },
    { bad_1252, sizeof bad_1252 - 1, "text/html; charset=iso-8859-1", { "price \xe2\x82\xac 5 \xef\xbf\xbd" } },
    { bad_utf16, sizeof bad_utf16 - 1, NULL, { "h\xef\xbf\xbdi" } },
    { cut_off, sizeof cut_off - 1, "text/html; charset=utf-8", { "\xe3\x81\x82\xef\xbf\xbd\xef\xbf\xbd" } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      htmlDocPtr doc = parse_with (pages[i].data, pages[i].length, pages[i].content_type);
      g_autoptr(GPtrArray) texts = cg_page_collect_texts (doc);
      guint n = 0;

      while (n < G_N_ELEMENTS (pages[i].texts) && pages[i].texts[n] != NULL)
        n++;
      g_test_message ("page %u", i);
      g_assert_cmpuint (texts->len, ==, n);
      for (guint t = 0; t < n; t++)
        g_assert_cmpstr (((CgPageText *) texts->pdata[t])->text, ==, pages[i].texts[t]);
      xmlFreeDoc (doc);
    }
}

static void
test_valid_encodings (void)
{
  static const char sjis[] = "<meta charset=shift_jis><p>\x82\xa0</p>";
  static const char undeclared_latin1[] = "<p>caf\xe9</p>";
  static const char w1252[] = "<p>\x80 5</p>";
  static const char utf16[] = "\xff\xfe<\0p\0>\0h\0i\0";
  const struct {
    const char *data;
    gsize       length;
    const char *content_type;
    const char *text;
  } pages[] = {
    { sjis, sizeof sjis - 1, "text/html", "\xe3\x81\x82" },
    /* Nothing declared: read as libxml2 reads it, never refused. */
    { undeclared_latin1, sizeof undeclared_latin1 - 1, "text/html", "caf\xc3\xa9" },
    { w1252, sizeof w1252 - 1, "text/html; charset=latin1", "\xe2\x82\xac 5" },
    { utf16, sizeof utf16 - 1, NULL, "hi" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      htmlDocPtr doc = parse_with (pages[i].data, pages[i].length, pages[i].content_type);
      g_autoptr(GPtrArray) texts = cg_page_collect_texts (doc);

      g_assert_cmpuint (texts->len, ==, 1);
      g_assert_cmpstr (((CgPageText *) texts->pdata[0])->text, ==, pages[i].text);
      xmlFreeDoc (doc);
    }
}

/* ---- anchors ------------------------------------------------------------------ */

static void
test_anchors (void)
{
  htmlDocPtr doc = parse ("<base href='http://www.example.org/base/'>"
                          "<ul><li><a href=one.html>  One\n link </a>"
                          "<li><a href='#top'>top</a><li><a href='mailto:x@example.org'>mail</a>"
                          "<li><a href='javascript:go()'>js</a><li><a name=anchor>no href</a>"
                          "<li><a href=one.html><img src=i.png alt='Again'></a></ul>"
                          "<map><area href=area.html alt=Area></map>");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) anchors = cg_page_collect_anchors (doc, PAGE_URL, &error);
  g_autofree char *xpath = NULL;
  CgPageAnchor *first;
  CgPageAnchor *second;
  g_autoptr(GPtrArray) none = NULL;

  g_assert_no_error (error);
  /* Fragments, mailto:, javascript:, <a> without href and <area> are not
   * anchors; a repeated link is, with its own path. */
  g_assert_cmpuint (anchors->len, ==, 2);
  first = anchors->pdata[0];
  second = anchors->pdata[1];
  g_assert_cmpstr (first->url, ==, "http://www.example.org/base/one.html");
  g_assert_cmpstr (first->text, ==, "One link");
  xpath = cg_dom_path_to_xpath (first->path);
  g_assert_cmpstr (xpath, ==, "/html[1]/body[1]/ul[1]/li[1]/a[1]");
  g_assert_cmpstr (second->url, ==, first->url);
  g_assert_cmpstr (second->text, ==, "Again");
  g_assert_cmpuint (cg_dom_path_get_position (second->path, 3), ==, 6);

  none = cg_page_collect_anchors (doc, "ftp://example.org/", &error);
  g_assert_null (none);
  g_assert_error (error, CG_LINKS_ERROR, CG_LINKS_ERROR_BAD_BASE);
  xmlFreeDoc (doc);
}

/* ---- texts ---------------------------------------------------------------------- */

typedef struct {
  const char *text;
  const char *tag_path;
} ExpectedText;

static void
assert_texts (GPtrArray          *texts,
              const ExpectedText *expected,
              gsize               n_expected)
{
  for (guint i = 0; i < texts->len; i++)
    {
      CgPageText *text = texts->pdata[i];
      g_autofree char *tag_path = cg_dom_path_to_tag_path (text->path);

      g_test_message ("%s [%s]", tag_path, text->text);
    }
  g_assert_cmpuint (texts->len, ==, n_expected);
  for (gsize i = 0; i < n_expected; i++)
    {
      CgPageText *text = texts->pdata[i];
      g_autofree char *tag_path = cg_dom_path_to_tag_path (text->path);

      g_assert_cmpstr (text->text, ==, expected[i].text);
      g_assert_cmpstr (tag_path, ==, expected[i].tag_path);
    }
}

/* Seed 000 §3.2.1.2's page p3: labels in spans, values in list items. */
static void
test_texts (void)
{
  g_autofree char *just_short = g_strnfill (CG_PAGE_TEXT_MAX_CHARS - 1, 'x');
  g_autofree char *too_long = g_strnfill (CG_PAGE_TEXT_MAX_CHARS, 'y');
  /* 63 characters, 126 bytes: the limit counts characters. */
  GString *accented = g_string_new (NULL);
  g_autofree char *html = NULL;
  htmlDocPtr doc;
  g_autoptr(GPtrArray) texts = NULL;
  g_autoptr(GPtrArray) collections = NULL;
  const ExpectedText expected[] = {
    { "Book", "/html/head/title" },
    { "Prezzo", "/html/body/div/span" },
    { "Titolo", "/html/body/div/span" },
    { "19.99", "/html/body/ul/li" },
    { "Il Trono di Spade", "/html/body/ul/li" },
    { "Price:", "/html/body/p" },
    { "9.99", "/html/body/p/b" },
    { "", "/html/body/p" },
    { "", "/html/body/p" },
  };
  CgPageCollection *collection;

  for (guint i = 0; i < CG_PAGE_TEXT_MAX_CHARS - 1; i++)
    g_string_append (accented, "\xc3\xa9");
  html = g_strdup_printf ("<html><head><title>Book</title><style>p { color: red }</style>"
                          "<script>var label = 'x';</script></head><body>"
                          "<div><span>Prezzo</span> <span>Titolo</span></div>"
                          "<ul><li>19.99</li><li>  Il Trono\n\tdi   Spade </li></ul>"
                          "<noscript>Enable scripts</noscript><template><p>later</p></template>"
                          "<!-- a comment -->"
                          "<p>Price: <b>9.99</b></p><p>%s</p><p>%s</p><p>%s</p></body></html>",
                          just_short, too_long, accented->str);
  doc = parse (html);
  texts = cg_page_collect_texts (doc);

  {
    ExpectedText all[G_N_ELEMENTS (expected)];

    memcpy (all, expected, sizeof expected);
    all[7].text = just_short;
    all[8].text = accented->str;
    assert_texts (texts, all, G_N_ELEMENTS (all));
  }

  /* Text collections: texts grouped on their default path. */
  collections = cg_page_text_collections (texts);
  g_assert_cmpuint (collections->len, ==, 5);
  collection = collections->pdata[1];
  g_assert_cmpstr (collection->xpath, ==, "/html/body/div/span");
  g_assert_cmpuint (collection->items->len, ==, 2);
  g_assert_cmpstr (collection->items->pdata[1], ==, "Titolo");
  collection = collections->pdata[2];
  g_assert_cmpstr (collection->xpath, ==, "/html/body/ul/li");
  g_assert_cmpstr (collection->items->pdata[1], ==, "Il Trono di Spade");
  collection = collections->pdata[3];
  g_assert_cmpstr (collection->xpath, ==, "/html/body/p");
  g_assert_cmpuint (collection->items->len, ==, 3);

  xmlFreeDoc (doc);
  g_string_free (accented, TRUE);
}

static void
test_texts_bounded (void)
{
  GString *html = g_string_new ("<ul>");
  htmlDocPtr doc;
  g_autoptr(GPtrArray) texts = NULL;

  for (guint i = 0; i < CG_PAGE_MAX_TEXTS + 50; i++)
    g_string_append_printf (html, "<li>item %u</li>", i);
  doc = parse (html->str);
  texts = cg_page_collect_texts (doc);
  g_assert_cmpuint (texts->len, ==, CG_PAGE_MAX_TEXTS);
  g_assert_cmpstr (((CgPageText *) texts->pdata[CG_PAGE_MAX_TEXTS - 1])->text, ==, "item 9999");
  xmlFreeDoc (doc);
  g_string_free (html, TRUE);
}

/* ---- words and 2-grams ------------------------------------------------------------ */

static void
assert_words (const char         *text,
              const char * const *expected)
{
  g_auto(GStrv) words = cg_page_words (text);
  g_autofree char *joined = g_strjoinv ("|", words);
  g_autofree char *wanted = g_strjoinv ("|", (GStrv) expected);

  g_assert_cmpstr (joined, ==, wanted);
}

static void
test_words (void)
{
  const char * const plain[] = { "the", "cat", "sat", "on", "the", "mat", NULL };
  const char * const unicode[] = { "\xc3\xa9lan", "vital", "\xc3\xa9lan", "vital", NULL };
  const char * const apostrophes[] = { "don't", "stop", "don't", "l", NULL };
  const char * const scripts[] = { "\xe6\x9d\xb1\xe4\xba\xac", "\xd0\xbc\xd0\xb8\xd1\x80", "3", "14", NULL };
  const char * const none[] = { NULL };
  g_autofree char *long_word = g_strnfill (CG_PAGE_MAX_WORD_CHARS + 20, 'z');
  g_auto(GStrv) cut = cg_page_words (long_word);

  assert_words ("The cat sat on the mat.", plain);
  /* Lowercased, and "e" + combining acute is the same word as "é". */
  assert_words ("\xc3\x89lan VITAL e\xcc\x81lan vital", unicode);
  /* Both apostrophes, inside a word only. */
  assert_words ("Don\xe2\x80\x99t stop, don't 'l'", apostrophes);
  assert_words ("\xe6\x9d\xb1\xe4\xba\xac \xd0\x9c\xd0\xb8\xd1\x80 3.14", scripts);
  assert_words (" -- ... !? ", none);

  g_assert_cmpuint (g_strv_length (cut), ==, 1);
  g_assert_cmpuint (strlen (cut[0]), ==, CG_PAGE_MAX_WORD_CHARS);
}

static void
assert_bigrams (const char         *html,
                const char * const *expected)
{
  htmlDocPtr doc = parse (html);
  gboolean truncated = TRUE;
  g_autoptr(GHashTable) bigrams = cg_page_collect_bigrams (doc, &truncated);
  guint n = 0;

  for (; expected[n] != NULL; n++)
    {
      g_test_message ("expect [%s]", expected[n]);
      g_assert_true (g_hash_table_contains (bigrams, expected[n]));
    }
  g_assert_cmpuint (g_hash_table_size (bigrams), ==, n);
  g_assert_false (truncated);
  xmlFreeDoc (doc);
}

static void
test_bigrams (void)
{
  /* the cat sat on the mat the cat ran: 8 pairs, "the cat" twice. */
  const char * const cat[] = {
    "the cat", "cat sat", "sat on", "on the", "the mat", "mat the", "cat ran", NULL,
  };
  /* Inline elements join, other boundaries separate; hidden text and
   * attributes are not words; the title is. */
  const char * const joined[] = { "title here", "here big", "big 5", "5 6", "6 end", NULL };
  const char * const one_word[] = { NULL };

  assert_bigrams ("<p>The cat sat on the mat.</p><p>The cat ran</p>", cat);
  assert_bigrams ("<title>Title here</title><style>b { x: y }</style>"
                  "<p title='not words'><b>Bi</b>g</p><script>var a = 1;</script>"
                  "<table><tr><td>5</td><td>6</td></tr></table><noscript>no script</noscript>"
                  "<!-- comment words --><template>tpl</template>end",
                  joined);
  assert_bigrams ("<p>Alone</p>", one_word);
}

static void
test_bigrams_bounded (void)
{
  GString *html = g_string_new ("<p>");
  htmlDocPtr doc;
  gboolean truncated = FALSE;
  g_autoptr(GHashTable) bigrams = NULL;

  for (guint i = 0; i <= CG_PAGE_MAX_BIGRAMS + 1; i++)
    g_string_append_printf (html, "w%u ", i);
  doc = parse (html->str);
  bigrams = cg_page_collect_bigrams (doc, &truncated);
  g_assert_true (truncated);
  g_assert_cmpuint (g_hash_table_size (bigrams), ==, CG_PAGE_MAX_BIGRAMS);
  g_assert_true (g_hash_table_contains (bigrams, "w0 w1"));
  xmlFreeDoc (doc);
  g_string_free (html, TRUE);
}

/* ---- leaf tag paths ---------------------------------------------------------------- */

static void
assert_counts (GHashTable         *counts,
               const char * const *paths,
               const guint        *expected)
{
  GHashTableIter iter;
  gpointer key;
  gpointer value;
  guint n = 0;

  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_test_message ("%s: %u", (const char *) key, GPOINTER_TO_UINT (value));
  for (; paths[n] != NULL; n++)
    g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (counts, paths[n])), ==, expected[n]);
  g_assert_cmpuint (g_hash_table_size (counts), ==, n);
}

static void
test_leaf_paths (void)
{
  htmlDocPtr doc = parse ("<html><head><title>t</title><link rel=stylesheet href=s.css></head><body>"
                          "<div><img src=a.png><br><p>text</p><p> \n </p><a href=x></a>"
                          "<span><input name=q><!-- c --></span><img src=b.png></div>"
                          "<table><tr><td><a href=y>y</a></td><td></td></tr></table></body></html>");
  g_autoptr(GHashTable) textless = cg_page_collect_leaf_paths (doc, CG_LEAF_PATHS_TEXTLESS);
  g_autoptr(GHashTable) leaves = cg_page_collect_leaf_paths (doc, CG_LEAF_PATHS_ALL_LEAVES);
  const char * const textless_paths[] = {
    "/html/head/link", "/html/body/div/img", "/html/body/div/br", "/html/body/div/p",
    "/html/body/div/a", "/html/body/div/span/input", "/html/body/table/tr/td", NULL,
  };
  const guint textless_counts[] = { 1, 2, 1, 1, 1, 1, 1 };
  const char * const leaf_paths[] = {
    "/html/head/title", "/html/head/link", "/html/body/div/img", "/html/body/div/br",
    "/html/body/div/p", "/html/body/div/a", "/html/body/div/span/input",
    "/html/body/table/tr/td/a", "/html/body/table/tr/td", NULL,
  };
  const guint leaf_counts[] = { 1, 1, 2, 1, 2, 1, 1, 1, 1 };

  assert_counts (textless, textless_paths, textless_counts);
  assert_counts (leaves, leaf_paths, leaf_counts);
  xmlFreeDoc (doc);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/page-features/empty", test_empty);
  g_test_add_func ("/page-features/binary", test_binary);
  g_test_add_func ("/page-features/too-large", test_too_large);
  g_test_add_func ("/page-features/invalid-encodings", test_invalid_encodings);
  g_test_add_func ("/page-features/valid-encodings", test_valid_encodings);
  g_test_add_func ("/page-features/anchors", test_anchors);
  g_test_add_func ("/page-features/texts", test_texts);
  g_test_add_func ("/page-features/texts-bounded", test_texts_bounded);
  g_test_add_func ("/page-features/words", test_words);
  g_test_add_func ("/page-features/bigrams", test_bigrams);
  g_test_add_func ("/page-features/bigrams-bounded", test_bigrams_bounded);
  g_test_add_func ("/page-features/leaf-paths", test_leaf_paths);

  return g_test_run ();
}
