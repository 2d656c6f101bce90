/* cg-test-demo.c: demo-site pages made in process, for the tests that read them.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "cg-links.h"
#include "cg-test-demo.h"

htmlDocPtr
cg_test_demo_parse_page (CgDemoSite *site,
                         const char *base_url,
                         const char *path_and_query)
{
  g_autofree char *path = g_strdup (path_and_query);
  g_autofree char *url = g_strconcat (base_url, path_and_query, NULL);
  g_autoptr(CgDemoResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  char *query = strchr (path, '?');
  htmlDocPtr doc;
  gsize length;
  const char *data;

  if (query != NULL)
    *query++ = '\0';
  response = cg_demo_site_respond (site, base_url, path, query, NULL, NULL);
  g_assert_cmpuint (response->status, ==, 200);
  data = g_bytes_get_data (response->body, &length);
  doc = cg_html_parse (data, length, url, response->content_type, &error);
  g_assert_no_error (error);
  return doc;
}

GPtrArray *
cg_test_demo_class_pages (CgDemoSite *site,
                          const char *klass)
{
  GPtrArray *pages = g_ptr_array_new ();

  for (guint i = 0; i < cg_demo_site_get_n_pages (site); i++)
    {
      JsonObject *page = cg_demo_site_get_page (site, i);

      if (g_str_equal (json_object_get_string_member (page, "class"), klass))
        g_ptr_array_add (pages, page);
    }
  return pages;
}
