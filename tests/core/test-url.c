/* test-url.c: URL resolution, normalisation, session ids and SURT form.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "cg-url.h"

typedef struct {
  const char *input;
  const char *expected;
} Case;

/* RFC 3986 §5.4.1 and §5.4.2, base "http://a/b/c/d;p?q". */
static const char rfc_base[] = "http://a/b/c/d;p?q";

static const Case rfc_normal[] = {
  { "g:h", "g:h" },
  { "g", "http://a/b/c/g" },
  { "./g", "http://a/b/c/g" },
  { "g/", "http://a/b/c/g/" },
  { "/g", "http://a/g" },
  { "//g", "http://g" },
  { "?y", "http://a/b/c/d;p?y" },
  { "g?y", "http://a/b/c/g?y" },
  { "#s", "http://a/b/c/d;p?q#s" },
  { "g#s", "http://a/b/c/g#s" },
  { "g?y#s", "http://a/b/c/g?y#s" },
  { ";x", "http://a/b/c/;x" },
  { "g;x", "http://a/b/c/g;x" },
  { "g;x?y#s", "http://a/b/c/g;x?y#s" },
  { "", "http://a/b/c/d;p?q" },
  { ".", "http://a/b/c/" },
  { "./", "http://a/b/c/" },
  { "..", "http://a/b/" },
  { "../", "http://a/b/" },
  { "../g", "http://a/b/g" },
  { "../..", "http://a/" },
  { "../../", "http://a/" },
  { "../../g", "http://a/g" },
};

static const Case rfc_abnormal[] = {
  { "../../../g", "http://a/g" },
  { "../../../../g", "http://a/g" },
  { "/./g", "http://a/g" },
  { "/../g", "http://a/g" },
  { "g.", "http://a/b/c/g." },
  { ".g", "http://a/b/c/.g" },
  { "g..", "http://a/b/c/g.." },
  { "..g", "http://a/b/c/..g" },
  { "./../g", "http://a/b/g" },
  { "./g/.", "http://a/b/c/g/" },
  { "g/./h", "http://a/b/c/g/h" },
  { "g/../h", "http://a/b/c/h" },
  { "g;x=1/./y", "http://a/b/c/g;x=1/y" },
  { "g;x=1/../y", "http://a/b/c/y" },
  { "g?y/./x", "http://a/b/c/g?y/./x" },
  { "g?y/../x", "http://a/b/c/g?y/../x" },
  { "g#s/./x", "http://a/b/c/g#s/./x" },
  { "g#s/../x", "http://a/b/c/g#s/../x" },
  { "http:g", "http:g" },
};

static void
check_rfc_cases (const Case *cases,
                 gsize       n_cases)
{
  for (gsize i = 0; i < n_cases; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *result = cg_url_resolve_reference (rfc_base, cases[i].input, &error);

      g_test_message ("reference “%s”", cases[i].input);
      g_assert_no_error (error);
      g_assert_cmpstr (result, ==, cases[i].expected);
    }
}

static void
test_rfc3986_normal (void)
{
  check_rfc_cases (rfc_normal, G_N_ELEMENTS (rfc_normal));
}

static void
test_rfc3986_abnormal (void)
{
  check_rfc_cases (rfc_abnormal, G_N_ELEMENTS (rfc_abnormal));
}

/* The crawling resolver agrees with the RFC on every http result, drops
 * the fragment, and refuses the non-http ones. */
static void
test_resolve_for_crawling (void)
{
  const Case *all[] = { rfc_normal, rfc_abnormal };
  gsize sizes[] = { G_N_ELEMENTS (rfc_normal), G_N_ELEMENTS (rfc_abnormal) };

  for (guint k = 0; k < G_N_ELEMENTS (all); k++)
    for (gsize i = 0; i < sizes[k]; i++)
      {
        g_autoptr(GError) error = NULL;
        g_autofree char *result = cg_url_resolve (rfc_base, all[k][i].input,
                                                  CG_URL_NORMALIZE_SYNTAX, &error);
        g_autofree char *expected = g_strdup (all[k][i].expected);
        char *hash = strchr (expected, '#');

        g_test_message ("reference “%s”", all[k][i].input);
        if (!g_str_has_prefix (expected, "http:"))
          {
            g_assert_error (error, CG_URL_ERROR, CG_URL_ERROR_UNSUPPORTED_SCHEME);
            g_assert_null (result);
            continue;
          }
        if (!g_str_has_prefix (expected, "http://"))
          {
            /* "http:g" is an http URL without a host. */
            g_assert_error (error, CG_URL_ERROR, CG_URL_ERROR_BAD_HOST);
            g_assert_null (result);
            continue;
          }
        if (hash != NULL)
          *hash = '\0';
        g_assert_no_error (error);
        /* "//g" has an empty path, which normalisation writes as "/". */
        if (g_str_equal (expected, "http://g"))
          g_assert_cmpstr (result, ==, "http://g/");
        else
          g_assert_cmpstr (result, ==, expected);
      }
}

static const Case normalize_cases[] = {
  { "HTTP://WWW.Example.COM:80/a/./b/../c/%7euser?x=%7e&y=%3a#frag",
    "http://www.example.com/a/c/~user?x=~&y=%3A" },
  { "https://Example.com:443", "https://example.com/" },
  { "http://example.com:8080", "http://example.com:8080/" },
  { "https://example.com:80/", "https://example.com:80/" },
  { "http://bücher.de/straße", "http://xn--bcher-kva.de/stra%C3%9Fe" },
  { "http://B%C3%BCCHER.de/", "http://xn--bcher-kva.de/" },
  { "  http://example.com/a b\n", "http://example.com/a%20b" },
  { "http://exa\tmple.com/a\r\nb", "http://example.com/ab" },
  { "http://example.com/%zz%4", "http://example.com/%25zz%254" },
  { "http://example.com/%c3%a9%2f%41", "http://example.com/%C3%A9%2FA" },
  { "http://example.com/a\\b?c\\d", "http://example.com/a/b?c%5Cd" },
  { "http://example.com/\"<x>\"?q={1}|^`", "http://example.com/%22%3Cx%3E%22?q=%7B1%7D%7C%5E%60" },
  { "http://example.com./", "http://example.com/" },
  { "http://example.com/?", "http://example.com/" },
  { "http://example.com/p?#f", "http://example.com/p" },
  { "http://example.com/a/%2E%2e/b", "http://example.com/b" },
  { "http://[::1]:8080/x", "http://[::1]:8080/x" },
  { "http://[FE80::A]/", "http://[fe80::a]/" },
  { "http://127.0.0.1:3000", "http://127.0.0.1:3000/" },
  { "http://user:pw@example.com/", "http://user:pw@example.com/" },
  { "http://a_b.example.com/", "http://a_b.example.com/" },
  { "http://example.com/a//b/", "http://example.com/a//b/" },
  { "http://example.com/p;type=a", "http://example.com/p;type=a" },
};

static void
test_normalize (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (normalize_cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *result = cg_url_normalize (normalize_cases[i].input,
                                                  CG_URL_NORMALIZE_SYNTAX, &error);
      g_autofree char *again = NULL;

      g_test_message ("url “%s”", normalize_cases[i].input);
      g_assert_no_error (error);
      g_assert_cmpstr (result, ==, normalize_cases[i].expected);

      /* Normalising a normalised URL changes nothing. */
      again = cg_url_normalize (result, CG_URL_NORMALIZE_CRAWL, &error);
      g_assert_no_error (error);
      if (strchr (result, '@') == NULL)
        g_assert_cmpstr (again, ==, result);
    }
}

static void
test_normalize_userinfo_and_www (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *crawl = cg_url_normalize ("http://user:pw@www.example.com/x",
                                             CG_URL_NORMALIZE_CRAWL, &error);
  g_autofree char *key = NULL;
  g_autofree char *www2 = NULL;
  g_autofree char *bare = NULL;
  g_autofree char *www_only = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (crawl, ==, "http://www.example.com/x");

  key = cg_url_normalize ("http://www.example.com/x", CG_URL_NORMALIZE_STRIP_WWW, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (key, ==, "http://example.com/x");
  www2 = cg_url_normalize ("http://WWW2.example.com/x", CG_URL_NORMALIZE_STRIP_WWW, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (www2, ==, "http://example.com/x");
  /* Neither a name that only starts with "www" nor "www.com" itself. */
  bare = cg_url_normalize ("http://wwwx.example.com/", CG_URL_NORMALIZE_STRIP_WWW, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (bare, ==, "http://wwwx.example.com/");
  www_only = cg_url_normalize ("http://www.com/", CG_URL_NORMALIZE_STRIP_WWW, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (www_only, ==, "http://www.com/");
}

typedef struct {
  const char *input;
  int         code;
  const char *in_message;
} BadCase;

static void
test_normalize_rejects (void)
{
  g_autofree char *long_url = NULL;
  GString *builder = g_string_new ("http://example.com/");
  const BadCase cases[] = {
    { "mailto:someone@example.com", CG_URL_ERROR_UNSUPPORTED_SCHEME, "mailto" },
    { "javascript:void(0)", CG_URL_ERROR_UNSUPPORTED_SCHEME, "javascript" },
    { "ftp://example.com/file", CG_URL_ERROR_UNSUPPORTED_SCHEME, "ftp://example.com/file" },
    { "data:text/html,hello", CG_URL_ERROR_UNSUPPORTED_SCHEME, "data" },
    { "http://", CG_URL_ERROR_BAD_HOST, "http://" },
    { "http:/path/only", CG_URL_ERROR_BAD_HOST, "http:/path/only" },
    { "http://exa mple.com/", CG_URL_ERROR_BAD_HOST, "exa mple.com" },
    { "http://a..b/", CG_URL_ERROR_BAD_HOST, "a..b" },
    { "http://exa<mple.com/", CG_URL_ERROR_BAD_HOST, "exa<mple.com" },
    /* GLib reads "host" and a path ";x/y"; the authority is "host;x". */
    { "http://example.com;x/y", CG_URL_ERROR_BAD_HOST, "example.com;x" },
    { "http://no>';</script>", CG_URL_ERROR_BAD_HOST, "http://no>';</script>" },
    { "ftp://example.com;x", CG_URL_ERROR_UNSUPPORTED_SCHEME, "ftp://example.com;x" },
    { "http://[fe80::1%25eth0]/", CG_URL_ERROR_BAD_HOST, "fe80" },
    { "http://example.com:99999/", CG_URL_ERROR_INVALID, "99999" },
    { "http://example.com:0/", CG_URL_ERROR_INVALID, "port 0" },
    { "not a url", CG_URL_ERROR_INVALID, "not a url" },
    { "   ", CG_URL_ERROR_INVALID, "empty" },
    { "", CG_URL_ERROR_INVALID, "empty" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *result = cg_url_normalize (cases[i].input, CG_URL_NORMALIZE_CRAWL, &error);

      g_test_message ("url “%s”", cases[i].input);
      g_assert_null (result);
      g_assert_error (error, CG_URL_ERROR, cases[i].code);
      g_assert_nonnull (strstr (error->message, cases[i].in_message));
    }

  /* Over the length limit, before and after normalisation (a URL that
   * grows when its bytes are percent-encoded). */
  while (builder->len <= CG_URL_MAX_LENGTH)
    g_string_append (builder, "abcdefgh/");
  long_url = g_string_free (builder, FALSE);
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *result = cg_url_normalize (long_url, CG_URL_NORMALIZE_SYNTAX, &error);

    g_assert_null (result);
    g_assert_error (error, CG_URL_ERROR, CG_URL_ERROR_TOO_LONG);
    g_assert_nonnull (strstr (error->message, "http://example.com/abcdefgh/"));
    /* The message quotes a shortened URL, not all 8 KiB of it. */
    g_assert_cmpuint (strlen (error->message), <, 600);
  }
  {
    g_autoptr(GError) error = NULL;
    GString *spaces = g_string_new ("http://example.com/");
    g_autofree char *grown = NULL;
    g_autofree char *result = NULL;

    while (spaces->len < CG_URL_MAX_LENGTH - 10)
      g_string_append (spaces, "a b");
    g_assert_cmpuint (spaces->len, <=, CG_URL_MAX_LENGTH);
    grown = g_string_free (spaces, FALSE);
    result = cg_url_normalize (grown, CG_URL_NORMALIZE_SYNTAX, &error);
    g_assert_null (result);
    g_assert_error (error, CG_URL_ERROR, CG_URL_ERROR_TOO_LONG);
  }
  {
    /* Invalid UTF-8 in a bad URL still gives a valid UTF-8 message. */
    g_autoptr(GError) error = NULL;
    g_autofree char *result = cg_url_normalize ("gopher://\xff\xfe/", CG_URL_NORMALIZE_SYNTAX, &error);

    g_assert_null (result);
    g_assert_nonnull (error);
    g_assert_true (g_utf8_validate (error->message, -1, NULL));
  }
}

static const Case session_cases[] = {
  { "http://shop.example/cart;jsessionid=0123ABCDEF?item=5", "http://shop.example/cart?item=5" },
  { "http://shop.example/cart;JSESSIONID=0123ABCDEF", "http://shop.example/cart" },
  { "http://shop.example/a;type=x;jsessionid=99/b", "http://shop.example/a;type=x/b" },
  { "http://x.example/p.php?PHPSESSID=abcdef0123456789abcdef0123456789&page=2",
    "http://x.example/p.php?page=2" },
  { "http://x.example/p.php?page=2&phpsessid=abcdef0123456789", "http://x.example/p.php?page=2" },
  { "http://cf.example/i.cfm?CFID=1234&CFTOKEN=56789012&a=1", "http://cf.example/i.cfm?a=1" },
  { "http://iis.example/d.asp?ASPSESSIONIDQQGGQGPC=FOOBARBAZQUUXFOOBARBAZQU&x=1",
    "http://iis.example/d.asp?x=1" },
  { "http://osc.example/index.php?cPath=3&osCsid=f00dfeedf00dfeedf00dfeedf00dfeed",
    "http://osc.example/index.php?cPath=3" },
  { "http://a.example/p?sid=12", "http://a.example/p?sid=12" },
  { "http://a.example/p?sid=3f2a9c0e8b7d6a5f4e3d2c1b0a998877&x=1", "http://a.example/p?x=1" },
  { "http://a.example/p?sessionid=zz", "http://a.example/p" },
  { "http://a.example/(S(lit3py55t21z5v55vlm25s55))/default.aspx?x=1",
    "http://a.example/default.aspx?x=1" },
  { "http://a.example/(X(1)S(lit3py55t21z5v55vlm25s55))/default.aspx",
    "http://a.example/default.aspx" },
  { "http://a.example/(notasession)/x", "http://a.example/(notasession)/x" },
  { "http://a.example/p?a=1&&b=2&", "http://a.example/p?a=1&b=2" },
  { "http://a.example/p?session=1&asid=2", "http://a.example/p?session=1&asid=2" },
};

static void
test_session_ids (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (session_cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *stripped = cg_url_normalize (session_cases[i].input,
                                                    CG_URL_NORMALIZE_CRAWL, &error);
      g_autofree char *kept = NULL;

      g_test_message ("url “%s”", session_cases[i].input);
      g_assert_no_error (error);
      g_assert_cmpstr (stripped, ==, session_cases[i].expected);

      /* Without the flag the session is kept: stripping is a choice. */
      kept = cg_url_normalize (session_cases[i].input, CG_URL_NORMALIZE_SYNTAX, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (kept, ==, session_cases[i].input);
    }
}

/* The same page reached with a thousand session ids is one URL. */
static void
test_session_ids_collapse (void)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < 1000; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *url = g_strdup_printf ("http://a.example/list;jsessionid=%08X%08X?PHPSESSID=%032u&page=1",
                                              g_random_int (), i, i);
      char *normal = cg_url_normalize (url, CG_URL_NORMALIZE_CRAWL, &error);

      g_assert_no_error (error);
      g_hash_table_add (seen, normal);
    }
  g_assert_cmpuint (g_hash_table_size (seen), ==, 1);
  g_assert_true (g_hash_table_contains (seen, "http://a.example/list?page=1"));
}

static void
test_resolve_links (void)
{
  const char *base = "http://Example.com/dir/page.html?x=1";
  const Case cases[] = {
    { "other.html", "http://example.com/dir/other.html" },
    { "  ../up.html  ", "http://example.com/up.html" },
    { "\\img\\a.png", "http://example.com/img/a.png" },
    { "//cdn.Example.net/s.js", "http://cdn.example.net/s.js" },
    { "https://secure.example.com:443/", "https://secure.example.com/" },
    { "?page=2#top", "http://example.com/dir/page.html?page=2" },
    { "a b.html", "http://example.com/dir/a%20b.html" },
    { "x;jsessionid=ABCDEF", "http://example.com/dir/x" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *result = cg_url_resolve (base, cases[i].input, CG_URL_NORMALIZE_CRAWL, &error);

      g_test_message ("reference “%s”", cases[i].input);
      g_assert_no_error (error);
      g_assert_cmpstr (result, ==, cases[i].expected);
    }

  {
    g_autoptr(GError) error = NULL;
    g_autofree char *result = cg_url_resolve ("not a base", "x.html", CG_URL_NORMALIZE_CRAWL, &error);

    g_assert_null (result);
    g_assert_error (error, CG_URL_ERROR, CG_URL_ERROR_INVALID);
  }
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *result = cg_url_resolve (base, "mailto:x@example.com", CG_URL_NORMALIZE_CRAWL, &error);

    g_assert_null (result);
    g_assert_error (error, CG_URL_ERROR, CG_URL_ERROR_UNSUPPORTED_SCHEME);
  }
}

static void
test_surt (void)
{
  const Case cases[] = {
    { "http://www.archive.org", "http://(org,archive,www,)/" },
    { "http://www.archive.org/movies/movies.php", "http://(org,archive,www,)/movies/movies.php" },
    { "http://www.archive.org:8080/movies/movies.php", "http://(org,archive,www,:8080)/movies/movies.php" },
    { "http://user:pass@www.archive.org/movies/movies.php", "http://(org,archive,www,@user:pass)/movies/movies.php" },
    { "http://user:pass@www.archive.org:8080/m.php", "http://(org,archive,www,:8080@user:pass)/m.php" },
    { "http://www.archive.org/movies/movies.php#top", "http://(org,archive,www,)/movies/movies.php" },
    { "http://www.example.com/foo@bar?q=1", "http://(com,example,www,)/foo@bar?q=1" },
    { "http://127.2.34.5/foo", "http://(127.2.34.5)/foo" },
    { "http://127.0.0.1:8080/", "http://(127.0.0.1:8080)/" },
    { "http://[::1]:8080/", "http://([::1]:8080)/" },
    { "HTTPS://Example.IT:443/a", "https://(it,example,)/a" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *surt = cg_url_to_surt (cases[i].input, &error);

      g_test_message ("url “%s”", cases[i].input);
      g_assert_no_error (error);
      g_assert_cmpstr (surt, ==, cases[i].expected);
    }
}

static void
test_surt_prefixes (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *seed_prefix = cg_url_surt_prefix_for_url ("http://www.example.org/dir/page.html?x=1", &error);
  g_autofree char *root_prefix = NULL;
  g_autofree char *domain_prefix = NULL;
  g_autofree char *tld_prefix = NULL;
  g_autofree char *idn_prefix = NULL;
  g_autofree char *surt = NULL;
  g_autofree char *bad = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (seed_prefix, ==, "http://(org,example,www,)/dir/");
  root_prefix = cg_url_surt_prefix_for_url ("https://www.example.org", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (root_prefix, ==, "https://(org,example,www,)/");
  domain_prefix = cg_url_surt_prefix_for_domain ("Example.org", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (domain_prefix, ==, "http://(org,example,");
  tld_prefix = cg_url_surt_prefix_for_domain (".it", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tld_prefix, ==, "http://(it,");
  idn_prefix = cg_url_surt_prefix_for_domain ("bücher.de", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (idn_prefix, ==, "http://(de,xn--bcher-kva,");

  surt = cg_url_to_surt ("https://shop.example.org:8443/dir/page2.html", &error);
  g_assert_no_error (error);
  g_assert_true (cg_url_surt_has_prefix (surt, domain_prefix));
  g_assert_false (cg_url_surt_has_prefix (surt, seed_prefix));
  g_assert_false (cg_url_surt_has_prefix (surt, tld_prefix));
  g_assert_true (cg_url_surt_has_prefix ("http://(org,example,www,)/dir/sub/x", seed_prefix));
  g_assert_true (cg_url_surt_has_prefix ("https://(org,example,www,)/dir/", seed_prefix));
  g_assert_false (cg_url_surt_has_prefix ("http://(org,example,www,)/dirt", seed_prefix));
  g_assert_false (cg_url_surt_has_prefix ("http://(org,examples,)/", domain_prefix));
  g_assert_true (cg_url_surt_has_prefix ("http://(it,comune,roma,)/", tld_prefix));
  g_assert_false (cg_url_surt_has_prefix ("http://(it.evil,)/", tld_prefix));

  bad = cg_url_surt_prefix_for_domain ("exa mple.org", &error);
  g_assert_null (bad);
  g_assert_error (error, CG_URL_ERROR, CG_URL_ERROR_BAD_HOST);
  g_assert_nonnull (strstr (error->message, "exa mple.org"));
  g_clear_error (&error);
  bad = cg_url_surt_prefix_for_domain ("127.0.0.1", &error);
  g_assert_null (bad);
  g_assert_error (error, CG_URL_ERROR, CG_URL_ERROR_BAD_HOST);
}

static void
test_host_key (void)
{
  const Case cases[] = {
    { "http://Example.org/x", "example.org:80" },
    { "https://example.org/x", "example.org:443" },
    { "https://example.org:8443/", "example.org:8443" },
    { "http://[::1]:8080/x", "[::1]:8080" },
    { "http://127.0.0.1/", "127.0.0.1:80" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *key = cg_url_get_host_key (cases[i].input, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (key, ==, cases[i].expected);
    }

  {
    /* Where "scheme://authority" ends, without parsing. */
    const struct { const char *url; const char *start; } starts[] = {
      { "http://example.org/x", "http://example.org" },
      { "http://example.org", "http://example.org" },
      { "https://user@Example.org:8443?q#f", "https://user@Example.org:8443" },
      { "http://[::1]:8080#top", "http://[::1]:8080" },
      { "http:///path", "http://" },
      { "mailto:x@example.org", "" },
      { "", "" },
    };

    for (gsize i = 0; i < G_N_ELEMENTS (starts); i++)
      {
        gsize end = cg_url_get_authority_end (starts[i].url);
        g_autofree char *start = g_strndup (starts[i].url, end);

        g_assert_cmpstr (start, ==, starts[i].start);
      }
  }

  {
    g_autoptr(GError) error = NULL;
    g_autofree char *host = cg_url_get_host ("http://[::1]:8080/x", &error);
    g_autofree char *bad = cg_url_get_host_key ("mailto:x@y", &error);

    g_assert_cmpstr (host, ==, "::1");
    g_assert_true (cg_url_host_is_ip (host));
    g_assert_false (cg_url_host_is_ip ("example.org"));
    g_assert_null (bad);
    g_assert_error (error, CG_URL_ERROR, CG_URL_ERROR_UNSUPPORTED_SCHEME);
  }
}

static void
test_parse_gives_guri (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GUri) uri = cg_url_parse ("HTTP://Example.org:80/a/../b?x=1#frag", CG_URL_NORMALIZE_CRAWL, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (g_uri_get_scheme (uri), ==, "http");
  g_assert_cmpstr (g_uri_get_host (uri), ==, "example.org");
  g_assert_cmpint (g_uri_get_port (uri), ==, -1);
  g_assert_cmpstr (g_uri_get_path (uri), ==, "/b");
  g_assert_cmpstr (g_uri_get_query (uri), ==, "x=1");
  g_assert_null (g_uri_get_fragment (uri));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/url/rfc3986/normal", test_rfc3986_normal);
  g_test_add_func ("/url/rfc3986/abnormal", test_rfc3986_abnormal);
  g_test_add_func ("/url/resolve/crawling", test_resolve_for_crawling);
  g_test_add_func ("/url/resolve/links", test_resolve_links);
  g_test_add_func ("/url/normalize", test_normalize);
  g_test_add_func ("/url/normalize/userinfo-www", test_normalize_userinfo_and_www);
  g_test_add_func ("/url/normalize/rejects", test_normalize_rejects);
  g_test_add_func ("/url/session-ids", test_session_ids);
  g_test_add_func ("/url/session-ids/collapse", test_session_ids_collapse);
  g_test_add_func ("/url/surt", test_surt);
  g_test_add_func ("/url/surt/prefixes", test_surt_prefixes);
  g_test_add_func ("/url/host-key", test_host_key);
  g_test_add_func ("/url/parse", test_parse_gives_guri);

  return g_test_run ();
}
