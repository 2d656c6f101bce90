/* test-demo-site.c: the bundled demo bookshop, its server and its ground truth.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <libsoup/soup.h>
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#include "cg-demo-server.h"
#include "cg-demo-site.h"

#define BASE_URL "http://127.0.0.1:8080"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (xmlDoc, xmlFreeDoc)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (xmlXPathContext, xmlXPathFreeContext)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (xmlXPathObject, xmlXPathFreeObject)

/* One site for the tests that only read it: generating it is the slow part. */
static CgDemoSite *shared_site;

static CgDemoResponse *
get (CgDemoSite *site,
     const char *path_and_query)
{
  g_auto(GStrv) parts = g_strsplit (path_and_query, "?", 2);

  return cg_demo_site_respond (site, BASE_URL, parts[0], parts[1], NULL, NULL);
}

static xmlDoc *
parse_html (GBytes     *body,
            const char *url)
{
  gsize length = 0;
  const char *data = g_bytes_get_data (body, &length);
  xmlDoc *doc = htmlReadMemory (data, (int) length, url, "UTF-8",
                                HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);

  g_assert_nonnull (doc);
  return doc;
}

static char *
normalize_space (const char *text)
{
  g_auto(GStrv) words = g_strsplit_set (text, " \t\r\n", -1);
  GString *out = g_string_new (NULL);

  for (guint i = 0; words[i] != NULL; i++)
    {
      if (words[i][0] == '\0')
        continue;
      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, words[i]);
    }
  return g_string_free (out, FALSE);
}

/* The non-empty texts under @node, whitespace-normalised, in document order. */
static void
collect_texts (xmlNode   *node,
               GPtrArray *texts)
{
  for (xmlNode *child = node->children; child != NULL; child = child->next)
    {
      if (child->type == XML_TEXT_NODE)
        {
          g_autofree char *text = normalize_space ((const char *) child->content);

          if (text[0] != '\0')
            g_ptr_array_add (texts, g_steal_pointer (&text));
        }
      else if (child->type == XML_ELEMENT_NODE)
        collect_texts (child, texts);
    }
}

static xmlXPathObject *
eval (xmlDoc     *doc,
      const char *xpath)
{
  g_autoptr(xmlXPathContext) context = xmlXPathNewContext (doc);
  xmlXPathObject *result = xmlXPathEvalExpression ((const xmlChar *) xpath, context);

  g_assert_nonnull (result);
  return result;
}

/* A well-formedness check the HTML parser does not do: every element that
 * is not void is closed, in the order it was opened. Attribute values hold
 * no '>' because the site escapes them. */
static void
assert_tags_balanced (GBytes     *body,
                      const char *path)
{
  static const char * const void_elements[] = { "meta", "link", "input", "img", "br", "hr", NULL };
  gsize length = 0;
  const char *html = g_bytes_get_data (body, &length);
  g_autoptr(GPtrArray) open = g_ptr_array_new_with_free_func (g_free);
  const char *p = html;
  const char *end = html + length;

  while ((p = memchr (p, '<', end - p)) != NULL)
    {
      const char *close = memchr (p, '>', end - p);
      gboolean closing = p[1] == '/';
      const char *name = p + (closing ? 2 : 1);
      gsize n = strspn (name, "abcdefghijklmnopqrstuvwxyz0123456789");
      g_autofree char *tag = NULL;

      g_assert_nonnull (close);
      if (p[1] == '!')
        {
          p = close + 1;
          continue;
        }
      g_assert_cmpuint (n, >, 0);
      tag = g_strndup (name, n);
      if (closing)
        {
          if (open->len == 0 || !g_str_equal (open->pdata[open->len - 1], tag))
            g_error ("%s: </%s> closes <%s>", path, tag,
                     open->len > 0 ? (char *) open->pdata[open->len - 1] : "nothing");
          g_ptr_array_set_size (open, open->len - 1);
        }
      else if (!g_strv_contains (void_elements, tag))
        g_ptr_array_add (open, g_steal_pointer (&tag));
      p = close + 1;
    }
  if (open->len != 0)
    g_error ("%s: <%s> is never closed", path, (char *) open->pdata[open->len - 1]);
}

static const char *
record_xpath (const char *klass)
{
  if (g_str_equal (klass, CG_DEMO_CLASS_SEARCH))
    return "//ol[@class='results']/li";
  if (g_str_equal (klass, CG_DEMO_CLASS_AUTHOR_INDEX))
    return "//ul[@class='author-list']/li";
  return "//ul[@class='book-grid']/li";
}

static char *
href_to_path (const char *page,
              const char *href)
{
  g_autofree char *page_url = g_strconcat (BASE_URL, page, NULL);
  g_autoptr(GUri) base = g_uri_parse (page_url, G_URI_FLAGS_ENCODED, NULL);
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (base);
  uri = g_uri_parse_relative (base, href, G_URI_FLAGS_ENCODED, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (g_uri_get_host (uri), ==, "127.0.0.1");
  g_assert_cmpint (g_uri_get_port (uri), ==, 8080);
  if (g_uri_get_query (uri) != NULL)
    return g_strconcat (g_uri_get_path (uri), "?", g_uri_get_query (uri), NULL);
  return g_strdup (g_uri_get_path (uri));
}

static const char *
some_book_path (guint n)
{
  for (guint i = 0; i < cg_demo_site_get_n_pages (shared_site); i++)
    {
      JsonObject *page = cg_demo_site_get_page (shared_site, i);

      if (g_str_equal (json_object_get_string_member (page, "class"), CG_DEMO_CLASS_BOOK) && n-- == 0)
        return json_object_get_string_member (page, "path");
    }
  g_assert_not_reached ();
}

/* ---------------------------------------------------------------------- */

static void
test_determinism (void)
{
  g_autoptr(CgDemoSite) other = cg_demo_site_new ();
  const char *extra[] = { "/robots.txt", "/sitemap.xml", "/static/style.css", "/search?q=sea%20winter" };

  g_assert_cmpuint (cg_demo_site_get_n_pages (other), ==, cg_demo_site_get_n_pages (shared_site));
  for (guint i = 0; i < cg_demo_site_get_n_pages (shared_site); i++)
    {
      const char *path = json_object_get_string_member (cg_demo_site_get_page (shared_site, i), "path");
      g_autoptr(CgDemoResponse) a = get (shared_site, path);
      g_autoptr(CgDemoResponse) b = get (other, path);
      g_autoptr(JsonNode) truth_a = json_node_init_object (json_node_alloc (), cg_demo_site_get_page (shared_site, i));
      g_autoptr(JsonNode) truth_b = json_node_init_object (json_node_alloc (), cg_demo_site_get_page (other, i));

      g_assert_true (g_bytes_equal (a->body, b->body));
      g_assert_cmpstr (a->etag, ==, b->etag);
      g_assert_cmpstr (a->last_modified, ==, b->last_modified);
      g_assert_true (json_node_equal (truth_a, truth_b));
    }
  for (guint i = 0; i < G_N_ELEMENTS (extra); i++)
    {
      g_autoptr(CgDemoResponse) a = get (shared_site, extra[i]);
      g_autoptr(CgDemoResponse) b = get (other, extra[i]);

      g_assert_cmpuint (a->status, ==, 200);
      g_assert_true (g_bytes_equal (a->body, b->body));
    }
}

static void
test_truth_pages_served (void)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < cg_demo_site_get_n_pages (shared_site); i++)
    {
      JsonObject *page = cg_demo_site_get_page (shared_site, i);
      const char *path = json_object_get_string_member (page, "path");
      const char *klass = json_object_get_string_member (page, "class");
      g_autoptr(CgDemoResponse) response = get (shared_site, path);
      gsize length = 0;
      const char *body = g_bytes_get_data (response->body, &length);
      g_autofree char *body_class = g_strdup_printf ("<body class=\"page-%s\">", klass);

      g_assert_true (g_strv_contains (cg_demo_site_get_classes (), klass));
      g_assert_false (g_hash_table_contains (seen, path));
      g_hash_table_add (seen, (char *) path);
      g_assert_true (cg_demo_site_lookup_page (shared_site, path) == page);

      g_assert_cmpuint (response->status, ==, 200);
      g_assert_cmpstr (response->content_type, ==, "text/html; charset=utf-8");
      g_assert_true (g_str_has_prefix (body, "<!DOCTYPE html>\n"));
      g_assert_true (g_utf8_validate (body, length, NULL));
      g_assert_nonnull (g_strstr_len (body, length, body_class));
      g_assert_nonnull (response->etag);
      g_assert_nonnull (response->last_modified);
      assert_tags_balanced (response->body, path);
    }
  g_assert_null (cg_demo_site_lookup_page (shared_site, "/nowhere"));
}

static void
test_class_counts (void)
{
  guint total = 0;

  g_assert_cmpuint (cg_demo_site_get_n_books (shared_site), >=, 500);
  g_assert_cmpuint (cg_demo_site_count_class (shared_site, CG_DEMO_CLASS_BOOK), ==,
                    cg_demo_site_get_n_books (shared_site));
  g_assert_cmpuint (cg_demo_site_count_class (shared_site, CG_DEMO_CLASS_HOME), ==, 1);
  g_assert_cmpuint (cg_demo_site_count_class (shared_site, CG_DEMO_CLASS_AUTHOR_INDEX), ==, 1);
  g_assert_cmpuint (cg_demo_site_count_class (shared_site, CG_DEMO_CLASS_STATIC), >=, 3);
  /* Twelve categories, each more than one page long. */
  g_assert_cmpuint (cg_demo_site_count_class (shared_site, CG_DEMO_CLASS_CATEGORY), >, 24);
  g_assert_cmpuint (cg_demo_site_count_class (shared_site, CG_DEMO_CLASS_AUTHOR), >=, 60);
  g_assert_cmpuint (cg_demo_site_count_class (shared_site, CG_DEMO_CLASS_SEARCH), >=, 5);
  g_assert_cmpuint (g_strv_length ((GStrv) cg_demo_site_get_classes ()), >=, 6);
  for (guint i = 0; cg_demo_site_get_classes ()[i] != NULL; i++)
    total += cg_demo_site_count_class (shared_site, cg_demo_site_get_classes ()[i]);
  g_assert_cmpuint (total, ==, cg_demo_site_get_n_pages (shared_site));
}

/* Every href and src on every page leads to a page of the ground truth, to
 * a page requisite that is served, or into the disallowed basket. */
static void
test_no_broken_links (void)
{
  g_autoptr(GHashTable) checked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) linked = g_hash_table_new (g_str_hash, g_str_equal);
  guint n_links = 0;

  for (guint i = 0; i < cg_demo_site_get_n_pages (shared_site); i++)
    {
      const char *page = json_object_get_string_member (cg_demo_site_get_page (shared_site, i), "path");
      g_autoptr(CgDemoResponse) response = get (shared_site, page);
      g_autoptr(xmlDoc) doc = parse_html (response->body, page);
      g_autoptr(xmlXPathObject) refs = eval (doc, "//a/@href | //link/@href | //img/@src | //form/@action | //@style");

      for (int r = 0; refs->nodesetval != NULL && r < refs->nodesetval->nodeNr; r++)
        {
          xmlNode *attr = refs->nodesetval->nodeTab[r];
          g_autofree char *value = (char *) xmlNodeGetContent (attr);
          g_autofree char *href = NULL;
          g_autofree char *path = NULL;

          if (g_str_equal ((const char *) attr->name, "style"))
            {
              const char *url = strstr (value, "url(");
              const char *close = url != NULL ? strchr (url, ')') : NULL;

              if (url == NULL)
                continue;
              g_assert_nonnull (close);
              href = g_strndup (url + 4, close - url - 4);
            }
          else
            href = g_strdup (value);

          path = href_to_path (page, href);
          n_links++;
          if (cg_demo_site_lookup_page (shared_site, path) != NULL)
            {
              g_hash_table_add (linked, (char *) json_object_get_string_member (cg_demo_site_lookup_page (shared_site, path), "path"));
              continue;
            }
          if (g_str_has_prefix (path, "/cart/") || g_hash_table_contains (checked, path))
            continue;
          {
            g_autoptr(CgDemoResponse) target = get (shared_site, path);

            if (target->status != 200)
              g_error ("%s links to %s, which answers %u", page, path, target->status);
            /* The only HTML outside the ground truth is the search form's
             * target, which is reached by submitting the form, not by a link. */
            if (!g_str_equal (path, "/search"))
              g_assert_false (g_str_has_prefix (target->content_type, "text/html"));
            g_hash_table_add (checked, g_steal_pointer (&path));
          }
        }
    }
  g_assert_cmpuint (n_links, >, 10000);
  /* Every page but the home page is linked from another page. */
  g_assert_cmpuint (g_hash_table_size (linked), ==, cg_demo_site_get_n_pages (shared_site));
}

/* Every list page's records are exactly the visible texts of its record
 * elements, in page order, and every optional field repeats. */
static void
test_records_match_html (void)
{
  guint n_list_pages = 0;

  for (guint i = 0; i < cg_demo_site_get_n_pages (shared_site); i++)
    {
      JsonObject *page = cg_demo_site_get_page (shared_site, i);
      const char *path = json_object_get_string_member (page, "path");
      const char *klass = json_object_get_string_member (page, "class");
      g_autoptr(CgDemoResponse) response = get (shared_site, path);
      g_autoptr(xmlDoc) doc = parse_html (response->body, path);
      g_autoptr(xmlXPathObject) elements = eval (doc, record_xpath (klass));
      g_autoptr(GHashTable) field_counts = g_hash_table_new (g_str_hash, g_str_equal);
      JsonArray *records;
      GHashTableIter iter;
      gpointer name, count;

      if (!json_object_has_member (page, "records"))
        {
          g_assert_true (g_str_equal (klass, CG_DEMO_CLASS_BOOK) || g_str_equal (klass, CG_DEMO_CLASS_STATIC));
          continue;
        }
      n_list_pages++;
      records = json_object_get_array_member (page, "records");
      g_assert_cmpuint (json_array_get_length (records), >=, 2);
      g_assert_nonnull (elements->nodesetval);
      g_assert_cmpint (elements->nodesetval->nodeNr, ==, (int) json_array_get_length (records));

      for (guint r = 0; r < json_array_get_length (records); r++)
        {
          JsonObject *record = json_array_get_object_element (records, r);
          g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
          JsonObjectIter fields;
          const char *field;
          JsonNode *value;
          guint t = 0;

          collect_texts (elements->nodesetval->nodeTab[r], texts);
          json_object_iter_init_ordered (&fields, record);
          while (json_object_iter_next_ordered (&fields, &field, &value))
            {
              g_autofree char *normal = normalize_space (json_node_get_string (value));

              g_assert_cmpstr (normal, ==, json_node_get_string (value));
              g_assert_cmpuint (t, <, texts->len);
              if (!g_str_equal (texts->pdata[t], json_node_get_string (value)))
                g_error ("%s record %u: field %s is “%s” but the page shows “%s”",
                         path, r, field, json_node_get_string (value), (char *) texts->pdata[t]);
              t++;
              g_hash_table_insert (field_counts, (char *) field,
                                   GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (field_counts, field)) + 1));
            }
          /* No text in a record that is not one of its fields. */
          g_assert_cmpuint (t, ==, texts->len);
        }

      g_hash_table_iter_init (&iter, field_counts);
      while (g_hash_table_iter_next (&iter, &name, &count))
        if (GPOINTER_TO_UINT (count) < 2)
          g_error ("%s: the field %s shows on one record only", path, (char *) name);
    }
  g_assert_cmpuint (n_list_pages, >, 100);
}

static void
test_book_items (void)
{
  guint n_reduced = 0;

  for (guint i = 0; i < cg_demo_site_get_n_pages (shared_site); i++)
    {
      JsonObject *page = cg_demo_site_get_page (shared_site, i);
      const char *path = json_object_get_string_member (page, "path");
      JsonObject *item;
      g_autoptr(CgDemoResponse) response = NULL;
      g_autoptr(xmlDoc) doc = NULL;
      g_autoptr(xmlXPathObject) body = NULL;
      g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
      const char * const required[] = { "title", "author", "rating", "reviews", "price", "publisher",
                                        "published", "pages", "isbn", "format", "category" };
      const char *isbn;
      guint sum = 0;

      if (!g_str_equal (json_object_get_string_member (page, "class"), CG_DEMO_CLASS_BOOK))
        continue;
      item = json_object_get_object_member (page, "item");
      g_assert_nonnull (item);
      for (guint f = 0; f < G_N_ELEMENTS (required); f++)
        g_assert_true (json_object_has_member (item, required[f]));
      if (json_object_has_member (item, "was_price"))
        n_reduced++;

      isbn = json_object_get_string_member (item, "isbn");
      g_assert_cmpuint (strlen (isbn), ==, 13);
      for (guint d = 0; d < 13; d++)
        sum += (guint) (isbn[d] - '0') * (d % 2 == 0 ? 1 : 3);
      g_assert_cmpuint (sum % 10, ==, 0);

      response = get (shared_site, path);
      doc = parse_html (response->body, path);
      body = eval (doc, "//main");
      collect_texts (body->nodesetval->nodeTab[0], texts);
      {
        JsonObjectIter fields;
        const char *field;
        JsonNode *value;

        json_object_iter_init_ordered (&fields, item);
        while (json_object_iter_next_ordered (&fields, &field, &value))
          if (!g_ptr_array_find_with_equal_func (texts, json_node_get_string (value), g_str_equal, NULL))
            g_error ("%s: the item's %s “%s” is not a text of the page", path, field,
                     json_node_get_string (value));
      }
    }
  /* Some books are reduced, not all. */
  g_assert_cmpuint (n_reduced, >, 20);
  g_assert_cmpuint (n_reduced, <, cg_demo_site_get_n_books (shared_site) / 2);
}

static guint
page_number (const char *path)
{
  const char *p = strstr (path, "page=");

  return p != NULL ? (guint) g_ascii_strtoull (p + 5, NULL, 10) : 1;
}

static char *
first_page_of (const char *path)
{
  const char *p = strstr (path, "page=");

  return p != NULL ? g_strndup (path, p - 1 - path) : g_strdup (path);
}

static void
test_pagination (void)
{
  g_autoptr(GHashTable) last_pages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTableIter iter;
  gpointer key, value;

  for (guint i = 0; i < cg_demo_site_get_n_pages (shared_site); i++)
    {
      JsonObject *page = cg_demo_site_get_page (shared_site, i);
      const char *path = json_object_get_string_member (page, "path");
      const char *klass = json_object_get_string_member (page, "class");
      guint size;
      guint number;
      g_autofree char *first = NULL;
      g_autoptr(CgDemoResponse) response = NULL;
      g_autoptr(xmlDoc) doc = NULL;
      g_autoptr(xmlXPathObject) next = NULL;
      g_autoptr(xmlXPathObject) current = NULL;

      if (g_str_equal (klass, CG_DEMO_CLASS_CATEGORY))
        size = CG_DEMO_CATEGORY_PAGE_SIZE;
      else if (g_str_equal (klass, CG_DEMO_CLASS_AUTHOR))
        size = CG_DEMO_AUTHOR_PAGE_SIZE;
      else if (g_str_equal (klass, CG_DEMO_CLASS_SEARCH))
        size = CG_DEMO_SEARCH_PAGE_SIZE;
      else
        continue;

      number = page_number (path);
      first = first_page_of (path);
      g_assert_cmpuint (number, >=, 1);
      /* Every page before this one is in the ground truth too. */
      for (guint p = 1; p < number; p++)
        {
          g_autofree char *earlier = p == 1 ? g_strdup (first)
                                            : g_strdup_printf ("%s%cpage=%u", first, strchr (first, '?') ? '&' : '?', p);

          g_assert_nonnull (cg_demo_site_lookup_page (shared_site, earlier));
        }

      response = get (shared_site, path);
      doc = parse_html (response->body, path);
      next = eval (doc, "//nav[@class='pagination']//a[@rel='next']/@href");
      current = eval (doc, "//nav[@class='pagination']//span[@class='page-current']");
      g_assert_nonnull (current->nodesetval);
      g_assert_cmpint (current->nodesetval->nodeNr, ==, 1);
      {
        g_autofree char *text = (char *) xmlNodeGetContent (current->nodesetval->nodeTab[0]);
        g_assert_cmpuint (g_ascii_strtoull (text, NULL, 10), ==, number);
      }

      if (next->nodesetval != NULL && next->nodesetval->nodeNr > 0)
        {
          g_autofree char *href = (char *) xmlNodeGetContent (next->nodesetval->nodeTab[0]);

          /* A page that is not the last is full. */
          g_assert_cmpuint (json_array_get_length (json_object_get_array_member (page, "records")), ==, size);
          g_assert_cmpuint (page_number (href), ==, number + 1);
          g_assert_nonnull (cg_demo_site_lookup_page (shared_site, href));
        }
      else
        {
          g_assert_cmpuint (json_array_get_length (json_object_get_array_member (page, "records")), <=, size);
          g_assert_false (g_hash_table_contains (last_pages, first));
          g_hash_table_insert (last_pages, g_strdup (first), GUINT_TO_POINTER (number));
        }
    }

  /* Past the last page there is nothing, and page 1 has one address. */
  g_hash_table_iter_init (&iter, last_pages);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const char *sep = strchr (key, '?') != NULL ? "&" : "?";
      g_autofree char *beyond = g_strdup_printf ("%s%spage=%u", (char *) key, sep, GPOINTER_TO_UINT (value) + 1);
      g_autofree char *one = g_strdup_printf ("%s%spage=1", (char *) key, sep);
      g_autofree char *zero = g_strdup_printf ("%s%spage=0", (char *) key, sep);
      g_autofree char *junk = g_strdup_printf ("%s%spage=2x", (char *) key, sep);
      g_autoptr(CgDemoResponse) r_beyond = get (shared_site, beyond);
      g_autoptr(CgDemoResponse) r_one = get (shared_site, one);
      g_autoptr(CgDemoResponse) r_zero = get (shared_site, zero);
      g_autoptr(CgDemoResponse) r_junk = get (shared_site, junk);

      g_assert_cmpuint (r_beyond->status, ==, 404);
      g_assert_cmpuint (r_zero->status, ==, 404);
      g_assert_cmpuint (r_junk->status, ==, 404);
      g_assert_cmpuint (r_one->status, ==, 301);
      g_assert_cmpstr (r_one->location, ==, key);
    }
  g_assert_cmpuint (g_hash_table_size (last_pages), >, 60);
}

static void
test_not_found (void)
{
  const char *paths[] = { "/nowhere", "/book/no-such-book", "/category/fiction", "/category/nothing/",
                          "/author/", "/cover/none.svg", "/static/", "/static/../catalogue.ini",
                          "/about/", "/index.html" };

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(CgDemoResponse) response = get (shared_site, paths[i]);
      const char *body = g_bytes_get_data (response->body, NULL);

      g_assert_cmpuint (response->status, ==, 404);
      g_assert_cmpstr (response->content_type, ==, "text/html; charset=utf-8");
      g_assert_nonnull (strstr (body, "Page not found"));
      g_assert_null (response->etag);
    }
}

static void
test_bad_queries (void)
{
  g_autofree char *long_query = NULL;
  GString *q = g_string_new ("/search?q=");

  for (guint i = 0; i < 5000; i++)
    g_string_append (q, "garden%20");
  long_query = g_string_free (q, FALSE);

  {
    g_autoptr(CgDemoResponse) response = get (shared_site, "/search?q=%zz");
    g_assert_cmpuint (response->status, ==, 400);
  }
  {
    g_autoptr(CgDemoResponse) response = get (shared_site, long_query);
    g_assert_cmpuint (response->status, ==, 200);
    g_assert_cmpuint (g_bytes_get_size (response->body), <, 100000);
  }
  {
    /* Queries must be UTF-8, as the site's own form sends them. */
    g_autoptr(CgDemoResponse) response = get (shared_site, "/search?q=%ff%fe");
    g_assert_cmpuint (response->status, ==, 400);
  }
  {
    g_autoptr(CgDemoResponse) response = get (shared_site, "/search?q=%3Cscript%3E%22");
    const char *body = g_bytes_get_data (response->body, NULL);

    g_assert_cmpuint (response->status, ==, 200);
    g_assert_true (g_utf8_validate (body, g_bytes_get_size (response->body), NULL));
    g_assert_null (strstr (body, "<script>"));
    g_assert_nonnull (strstr (body, "&lt;script&gt;&quot;"));
    assert_tags_balanced (response->body, "/search?q=<script>");
  }
  {
    g_autoptr(CgDemoResponse) response = get (shared_site, "/search");
    g_autoptr(CgDemoResponse) empty = get (shared_site, "/search?q=");
    g_autoptr(CgDemoResponse) none = get (shared_site, "/search?q=zzqqxx");

    g_assert_cmpuint (response->status, ==, 200);
    g_assert_true (g_bytes_equal (response->body, empty->body));
    g_assert_cmpuint (none->status, ==, 200);
    g_assert_nonnull (strstr (g_bytes_get_data (none->body, NULL), "No books match"));
  }
  {
    /* A search finds the same books whatever the case and spacing of its
     * words, and shows the query as the shop understood it. */
    g_autoptr(CgDemoResponse) a = get (shared_site, "/search?q=garden");
    g_autoptr(CgDemoResponse) b = get (shared_site, "/search?q=+GARDEN++");
    g_autoptr(xmlDoc) doc_a = parse_html (a->body, "a");
    g_autoptr(xmlDoc) doc_b = parse_html (b->body, "b");
    g_autoptr(xmlXPathObject) links_a = eval (doc_a, "//ol[@class='results']//a/@href");
    g_autoptr(xmlXPathObject) links_b = eval (doc_b, "//ol[@class='results']//a/@href");
    g_autoptr(xmlXPathObject) value = eval (doc_b, "string(//input[@id='refine-q']/@value)");

    g_assert_cmpint (links_a->nodesetval->nodeNr, >, 2);
    g_assert_cmpint (links_a->nodesetval->nodeNr, ==, links_b->nodesetval->nodeNr);
    for (int i = 0; i < links_a->nodesetval->nodeNr; i++)
      {
        g_autofree char *href_a = (char *) xmlNodeGetContent (links_a->nodesetval->nodeTab[i]);
        g_autofree char *href_b = (char *) xmlNodeGetContent (links_b->nodesetval->nodeTab[i]);

        g_assert_cmpstr (href_a, ==, href_b);
      }
    g_assert_cmpstr ((const char *) value->stringval, ==, "GARDEN");
  }
}

static void
test_conditional_requests (void)
{
  g_autoptr(CgDemoResponse) first = get (shared_site, "/");
  const char *book = some_book_path (200);
  g_autoptr(CgDemoResponse) page = get (shared_site, book);
  g_autofree char *weak = g_strdup_printf ("\"nope\", W/%s", page->etag);
  g_autoptr(GDateTime) modified = soup_date_time_new_from_http_string (page->last_modified);
  g_autoptr(GDateTime) earlier = g_date_time_add_seconds (modified, -1);
  g_autofree char *earlier_text = soup_date_time_to_string (earlier, SOUP_DATE_HTTP);
  g_auto(GStrv) parts = g_strsplit (book, "?", 2);

  g_assert_nonnull (first->etag);
  g_assert_true (first->etag[0] == '"');
  g_assert_cmpstr (first->etag, !=, page->etag);
  g_assert_nonnull (modified);

  {
    g_autoptr(CgDemoResponse) r = cg_demo_site_respond (shared_site, BASE_URL, parts[0], parts[1], page->etag, NULL);
    g_assert_cmpuint (r->status, ==, 304);
    g_assert_cmpuint (g_bytes_get_size (r->body), ==, 0);
    g_assert_cmpstr (r->etag, ==, page->etag);
    g_assert_cmpstr (r->last_modified, ==, page->last_modified);
  }
  {
    g_autoptr(CgDemoResponse) r = cg_demo_site_respond (shared_site, BASE_URL, parts[0], parts[1], weak, NULL);
    g_assert_cmpuint (r->status, ==, 304);
  }
  {
    g_autoptr(CgDemoResponse) r = cg_demo_site_respond (shared_site, BASE_URL, parts[0], parts[1], first->etag, NULL);
    g_assert_cmpuint (r->status, ==, 200);
    g_assert_true (g_bytes_equal (r->body, page->body));
  }
  {
    g_autoptr(CgDemoResponse) r = cg_demo_site_respond (shared_site, BASE_URL, parts[0], parts[1], NULL, page->last_modified);
    g_assert_cmpuint (r->status, ==, 304);
  }
  {
    g_autoptr(CgDemoResponse) r = cg_demo_site_respond (shared_site, BASE_URL, parts[0], parts[1], NULL, earlier_text);
    g_assert_cmpuint (r->status, ==, 200);
  }
  {
    /* If-None-Match wins over If-Modified-Since. */
    g_autoptr(CgDemoResponse) r = cg_demo_site_respond (shared_site, BASE_URL, parts[0], parts[1], "\"other\"", page->last_modified);
    g_assert_cmpuint (r->status, ==, 200);
  }
  {
    g_autoptr(CgDemoResponse) r = cg_demo_site_respond (shared_site, BASE_URL, parts[0], parts[1], NULL, "not a date");
    g_assert_cmpuint (r->status, ==, 200);
  }
}

static void
test_robots (void)
{
  g_autoptr(CgDemoResponse) response = get (shared_site, "/robots.txt");
  g_autofree char *text = g_strndup (g_bytes_get_data (response->body, NULL), g_bytes_get_size (response->body));
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  guint n_disallow = 0;

  g_assert_cmpuint (response->status, ==, 200);
  g_assert_true (g_str_has_prefix (response->content_type, "text/plain"));
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_ascii_strncasecmp (lines[i], "Disallow:", 9) == 0)
      {
        n_disallow++;
        g_assert_cmpstr (lines[i], ==, "Disallow: /cart/");
      }
  g_assert_cmpuint (n_disallow, ==, 1);
  g_assert_true (g_strv_contains ((const char * const *) lines, "Sitemap: " BASE_URL "/sitemap.xml"));
}

static void
test_sitemap (void)
{
  g_autoptr(CgDemoResponse) response = get (shared_site, "/sitemap.xml");
  gsize length = 0;
  const char *data = g_bytes_get_data (response->body, &length);
  g_autoptr(xmlDoc) doc = xmlReadMemory (data, (int) length, "sitemap.xml", NULL, XML_PARSE_NONET);
  g_autoptr(xmlXPathContext) context = NULL;
  g_autoptr(xmlXPathObject) locs = NULL;
  guint n_books = 0;

  g_assert_cmpuint (response->status, ==, 200);
  g_assert_nonnull (doc);
  context = xmlXPathNewContext (doc);
  xmlXPathRegisterNs (context, (const xmlChar *) "s", (const xmlChar *) "http://www.sitemaps.org/schemas/sitemap/0.9");
  locs = xmlXPathEvalExpression ((const xmlChar *) "/s:urlset/s:url/s:loc", context);
  g_assert_nonnull (locs->nodesetval);
  for (int i = 0; i < locs->nodesetval->nodeNr; i++)
    {
      g_autofree char *loc = (char *) xmlNodeGetContent (locs->nodesetval->nodeTab[i]);
      JsonObject *page;

      g_assert_true (g_str_has_prefix (loc, BASE_URL "/"));
      page = cg_demo_site_lookup_page (shared_site, loc + strlen (BASE_URL));
      if (page == NULL)
        g_error ("The sitemap lists %s, which is no page of the ground truth", loc);
      if (g_str_equal (json_object_get_string_member (page, "class"), CG_DEMO_CLASS_BOOK))
        n_books++;
    }
  g_assert_cmpuint (n_books, ==, cg_demo_site_get_n_books (shared_site));
}

static void
test_assets (void)
{
  g_autoptr(CgDemoResponse) css = get (shared_site, "/static/style.css");
  g_autoptr(CgDemoResponse) icon = get (shared_site, "/static/favicon.svg");
  const char *path = some_book_path (100);
  g_autofree char *cover_path = g_strdup_printf ("/cover/%s.svg", path + strlen ("/book/"));
  g_autoptr(CgDemoResponse) cover = get (shared_site, cover_path);
  g_autoptr(xmlDoc) svg = NULL;
  g_autoptr(CgDemoResponse) basket = get (shared_site, "/cart/add?book=1");

  g_assert_cmpuint (css->status, ==, 200);
  g_assert_cmpstr (css->content_type, ==, "text/css; charset=utf-8");
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (css->body, NULL), g_bytes_get_size (css->body), ".card-title"));
  g_assert_cmpuint (icon->status, ==, 200);
  g_assert_cmpstr (icon->content_type, ==, "image/svg+xml");
  g_assert_cmpuint (cover->status, ==, 200);
  g_assert_cmpstr (cover->content_type, ==, "image/svg+xml");
  svg = xmlReadMemory (g_bytes_get_data (cover->body, NULL), (int) g_bytes_get_size (cover->body),
                       cover_path, NULL, XML_PARSE_NONET);
  g_assert_nonnull (svg);
  g_assert_cmpstr ((const char *) xmlDocGetRootElement (svg)->name, ==, "svg");
  g_assert_cmpuint (basket->status, ==, 200);
}

static void
test_write_truth (void)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint n = 0;

  g_assert_true (cg_demo_site_write_truth (shared_site, out, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  text = g_strndup (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out)),
                    g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)));
  g_assert_true (g_str_has_suffix (text, "\n"));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(JsonNode) truth = NULL;
      JsonObject *object;

      g_assert_true (json_parser_load_from_data (parser, lines[i], -1, &error));
      g_assert_no_error (error);
      object = json_node_get_object (json_parser_get_root (parser));
      g_assert_true (g_str_has_prefix (lines[i], "{\"path\":\""));
      truth = json_node_init_object (json_node_alloc (), cg_demo_site_get_page (shared_site, i));
      g_assert_true (json_node_equal (json_parser_get_root (parser), truth));
      g_assert_nonnull (json_object_get_string_member (object, "class"));
      n++;
    }
  g_assert_cmpuint (n, ==, cg_demo_site_get_n_pages (shared_site));
}

/* ---------------------------------------------------------------------- */
/* The server                                                              */

typedef struct {
  GBytes  *body;
  guint    status;
  char    *etag;
  char    *content_length;
  char    *location;
  gboolean done;
} Fetch;

static void
fetch_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  Fetch *fetch = user_data;
  g_autoptr(GError) error = NULL;
  SoupMessage *msg = soup_session_get_async_result_message (SOUP_SESSION (source), result);

  fetch->body = soup_session_send_and_read_finish (SOUP_SESSION (source), result, &error);
  g_assert_no_error (error);
  fetch->status = soup_message_get_status (msg);
  fetch->etag = g_strdup (soup_message_headers_get_one (soup_message_get_response_headers (msg), "ETag"));
  fetch->content_length = g_strdup (soup_message_headers_get_one (soup_message_get_response_headers (msg), "Content-Length"));
  fetch->location = g_strdup (soup_message_headers_get_one (soup_message_get_response_headers (msg), "Location"));
  fetch->done = TRUE;
}

static void
fetch_clear (Fetch *fetch)
{
  g_clear_pointer (&fetch->body, g_bytes_unref);
  g_clear_pointer (&fetch->etag, g_free);
  g_clear_pointer (&fetch->content_length, g_free);
  g_clear_pointer (&fetch->location, g_free);
  fetch->done = FALSE;
}

static void
fetch (SoupSession *session,
       const char  *method,
       const char  *url,
       const char  *if_none_match,
       Fetch       *result)
{
  g_autoptr(SoupMessage) msg = soup_message_new (method, url);

  g_assert_nonnull (msg);
  /* The test checks redirects themselves. */
  soup_message_add_flags (msg, SOUP_MESSAGE_NO_REDIRECT);
  if (if_none_match != NULL)
    soup_message_headers_append (soup_message_get_request_headers (msg), "If-None-Match", if_none_match);
  fetch_clear (result);
  soup_session_send_and_read_async (session, msg, G_PRIORITY_DEFAULT, NULL, fetch_cb, result);
  while (!result->done)
    g_main_context_iteration (NULL, TRUE);
}

static void
test_server (void)
{
  g_autoptr(CgDemoServer) server = cg_demo_server_new ();
  g_autoptr(CgDemoServer) second = cg_demo_server_new ();
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  g_autofree char *robots = NULL;
  g_autofree char *expected_sitemap = NULL;
  g_autofree char *fiction_1 = NULL;
  g_autofree char *cart = NULL;
  g_autofree char *missing = NULL;
  g_autofree char *home_etag = NULL;
  Fetch result = { 0 };
  guint port;

  g_assert_nonnull (cg_demo_server_get_site (server));
  g_assert_null (cg_demo_server_get_url (server));
  g_assert_false (cg_demo_server_start (server, 70000, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "70000"));
  g_clear_error (&error);

  g_assert_true (cg_demo_server_start (server, 0, &error));
  g_assert_no_error (error);
  g_assert_true (cg_demo_server_is_running (server));
  port = cg_demo_server_get_port (server);
  g_assert_cmpuint (port, >, 0);
  url = cg_demo_server_get_url (server);
  {
    g_autofree char *expected = g_strdup_printf ("http://127.0.0.1:%u/", port);
    g_assert_cmpstr (url, ==, expected);
  }

  g_assert_false (cg_demo_server_start (server, 0, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_clear_error (&error);
  /* A port in use is an error that names the port. */
  g_assert_false (cg_demo_server_start (second, port, &error));
  g_assert_nonnull (error);
  {
    g_autofree char *port_text = g_strdup_printf ("%u", port);
    g_assert_nonnull (strstr (error->message, port_text));
  }
  g_clear_error (&error);

  fetch (session, "GET", url, NULL, &result);
  g_assert_cmpuint (result.status, ==, 200);
  {
    g_autoptr(CgDemoResponse) direct = get (cg_demo_server_get_site (server), "/");
    g_assert_true (g_bytes_equal (result.body, direct->body));
  }
  home_etag = g_strdup (result.etag);
  g_assert_nonnull (home_etag);

  fetch (session, "GET", url, home_etag, &result);
  g_assert_cmpuint (result.status, ==, 304);
  g_assert_cmpuint (g_bytes_get_size (result.body), ==, 0);
  g_assert_cmpstr (result.etag, ==, home_etag);

  fetch (session, "HEAD", url, NULL, &result);
  g_assert_cmpuint (result.status, ==, 200);
  g_assert_cmpuint (g_bytes_get_size (result.body), ==, 0);
  g_assert_cmpstr (result.etag, ==, home_etag);

  fetch (session, "POST", url, NULL, &result);
  g_assert_cmpuint (result.status, ==, 405);

  robots = g_strconcat (url, "robots.txt", NULL);
  expected_sitemap = g_strdup_printf ("Sitemap: http://127.0.0.1:%u/sitemap.xml", port);
  fetch (session, "GET", robots, NULL, &result);
  g_assert_cmpuint (result.status, ==, 200);
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (result.body, NULL), g_bytes_get_size (result.body), expected_sitemap));

  fiction_1 = g_strconcat (url, "category/fiction/?page=1", NULL);
  fetch (session, "GET", fiction_1, NULL, &result);
  g_assert_cmpuint (result.status, ==, 301);
  g_assert_cmpstr (result.location, ==, "/category/fiction/");

  missing = g_strconcat (url, "no/such/page", NULL);
  fetch (session, "GET", missing, NULL, &result);
  g_assert_cmpuint (result.status, ==, 404);

  cart = g_strconcat (url, "cart/add?book=3", NULL);
  fetch (session, "GET", cart, NULL, &result);
  g_assert_cmpuint (result.status, ==, 200);

  cg_demo_server_stop (server);
  g_assert_false (cg_demo_server_is_running (server));
  g_assert_cmpuint (cg_demo_server_get_port (server), ==, 0);
  g_assert_null (cg_demo_server_get_url (server));
  /* Stopping twice is harmless, and a stopped server starts again. */
  cg_demo_server_stop (server);
  g_assert_true (cg_demo_server_start (server, 0, &error));
  g_assert_no_error (error);
  fetch_clear (&result);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  shared_site = cg_demo_site_new ();

  g_test_add_func ("/demo-site/determinism", test_determinism);
  g_test_add_func ("/demo-site/truth-pages-served", test_truth_pages_served);
  g_test_add_func ("/demo-site/class-counts", test_class_counts);
  g_test_add_func ("/demo-site/no-broken-links", test_no_broken_links);
  g_test_add_func ("/demo-site/records-match-html", test_records_match_html);
  g_test_add_func ("/demo-site/book-items", test_book_items);
  g_test_add_func ("/demo-site/pagination", test_pagination);
  g_test_add_func ("/demo-site/not-found", test_not_found);
  g_test_add_func ("/demo-site/bad-queries", test_bad_queries);
  g_test_add_func ("/demo-site/conditional-requests", test_conditional_requests);
  g_test_add_func ("/demo-site/robots", test_robots);
  g_test_add_func ("/demo-site/sitemap", test_sitemap);
  g_test_add_func ("/demo-site/assets", test_assets);
  g_test_add_func ("/demo-site/write-truth", test_write_truth);
  g_test_add_func ("/demo-site/server", test_server);

  status = g_test_run ();
  g_clear_object (&shared_site);
  return status;
}
