/* cg-url.h: parsing, resolution, normalisation and SURT form of crawlable URLs.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Every URL that enters the crawl goes through cg_url_normalize() (or
 * cg_url_resolve() for a reference found in a page), so that two spellings
 * of one resource give one string, and anything that is not an http(s) URL
 * with a usable host is refused with a GError that names the URL.
 *
 * All functions here are pure: no I/O, no global state, safe to call from
 * any thread. */

#define CG_URL_ERROR (cg_url_error_quark ())

typedef enum {
  CG_URL_ERROR_INVALID,             /* not a URL at all, or bad syntax */
  CG_URL_ERROR_UNSUPPORTED_SCHEME,  /* mailto:, javascript:, ftp:, … */
  CG_URL_ERROR_BAD_HOST,            /* no host, or a host that cannot be a DNS name or IP */
  CG_URL_ERROR_TOO_LONG,            /* longer than CG_URL_MAX_LENGTH */
} CgUrlError;

/* The longest URL accepted, before or after normalisation. Browsers and
 * servers commonly stop at 8 KiB; a longer URL is almost always generated
 * garbage. (The scope's spider-trap guard uses a much lower limit.) */
#define CG_URL_MAX_LENGTH 8192

typedef enum {
  /* RFC 3986 §6.2.2 syntax and §6.2.3 scheme normalisation only: scheme and
   * host in lower case, IDN host in ASCII (punycode), default port removed,
   * empty path made "/", dot segments removed, percent-encoding normalised
   * (unreserved characters decoded, hex digits in upper case, stray '%' and
   * characters that are not allowed encoded), fragment dropped, an empty
   * query ("?" alone) dropped, a trailing dot of the host dropped. */
  CG_URL_NORMALIZE_SYNTAX            = 0,
  /* Drop session-id query parameters (PHPSESSID, jsessionid, CFID,
   * CFTOKEN, ASPSESSIONIDxxxxxxxx, sid when its value looks like a session
   * key, …) and path parameters (;jsessionid=…, ASP.NET "(S(…))" segments),
   * and empty query parameters ("a=1&&b=2" → "a=1&b=2"). */
  CG_URL_NORMALIZE_STRIP_SESSION_IDS = 1 << 0,
  /* Drop "user:password@" from the authority. */
  CG_URL_NORMALIZE_STRIP_USERINFO    = 1 << 1,
  /* Drop a leading "www." / "wwwN." label. Only for building dedup keys:
   * the crawler must still fetch the host as it was written. */
  CG_URL_NORMALIZE_STRIP_WWW         = 1 << 2,
} CgUrlNormalizeFlags;

/* What the crawler uses for every URL it enqueues and fetches. */
#define CG_URL_NORMALIZE_CRAWL (CG_URL_NORMALIZE_STRIP_SESSION_IDS | \
                                CG_URL_NORMALIZE_STRIP_USERINFO)

GQuark      cg_url_error_quark          (void);

/* Parses an absolute http or https URL and normalises it as @flags say.
 * Leading and trailing white space and embedded tabs and newlines are
 * removed, and backslashes before the query are read as slashes, as
 * browsers do. Returns a newly allocated string, or NULL with @error set. */
char       *cg_url_normalize            (const char            *url,
                                         CgUrlNormalizeFlags    flags,
                                         GError               **error);

/* As cg_url_normalize(), but returns the parsed GUri (never with a
 * fragment; port is -1 when it is the scheme's default). Flags of the
 * returned GUri include G_URI_FLAGS_ENCODED. */
GUri       *cg_url_parse                (const char            *url,
                                         CgUrlNormalizeFlags    flags,
                                         GError               **error);

/* Resolves @reference (as found in an href, possibly relative) against
 * @base_url by RFC 3986 §5.2, then normalises the result. Fails with
 * CG_URL_ERROR_UNSUPPORTED_SCHEME for "mailto:", "javascript:" and the
 * like, which a link extractor can silently skip. */
char       *cg_url_resolve              (const char            *base_url,
                                         const char            *reference,
                                         CgUrlNormalizeFlags    flags,
                                         GError               **error);

/* The same with a base already parsed (by cg_url_parse() or g_uri_parse()),
 * for resolving the many links of one page. */
char       *cg_url_resolve_uri          (GUri                  *base,
                                         const char            *reference,
                                         CgUrlNormalizeFlags    flags,
                                         GError               **error);

/* Plain RFC 3986 §5.2 resolution for any scheme, without normalisation
 * beyond the removal of dot segments the RFC requires, and keeping the
 * fragment. Mostly for checking against the RFC; crawling code wants
 * cg_url_resolve(). */
char       *cg_url_resolve_reference    (const char            *base_url,
                                         const char            *reference,
                                         GError               **error);

/* The SURT (Sort-friendly URI Reordering Transform) form, as Heritrix
 * writes it: "http://www.example.org:8080/a?b" gives
 * "http://(org,example,www,:8080)/a?b". IP addresses are not reversed:
 * "http://(127.0.0.1:8080)/". The URL is normalised first (syntax only). */
char       *cg_url_to_surt              (const char            *url,
                                         GError               **error);

/* The SURT prefix that a seed implies (Heritrix's seeds-as-SURT-prefixes):
 * the SURT of the URL cut after the last '/' of its path, query dropped.
 * "http://www.example.org/dir/page.html" gives
 * "http://(org,example,www,)/dir/". */
char       *cg_url_surt_prefix_for_url  (const char            *url,
                                         GError               **error);

/* A SURT prefix for a whole domain and all its subdomains, any port:
 * "example.org" gives "http://(org,example,"; "it" gives "http://(it,".
 * The domain may be given with a leading dot. Returns NULL with @error set
 * if @domain is not a valid host name. */
char       *cg_url_surt_prefix_for_domain (const char          *domain,
                                           GError             **error);

/* Whether @surt starts with @prefix. "https://" is compared as "http://"
 * on both sides, so that one prefix covers both schemes, as in Heritrix 3. */
gboolean    cg_url_surt_has_prefix      (const char            *surt,
                                         const char            *prefix);

/* The politeness key of a URL: "host:port" with the port always written,
 * e.g. "example.org:80", "[::1]:8080". Requests to one key share a queue,
 * a crawl delay and a robots.txt. */
char       *cg_url_get_host_key         (const char            *url,
                                         GError               **error);

/* The length of the "scheme://authority" that starts @url, up to its
 * first '/', '?' or '#' after "://", or 0 if @url has no "://". Nothing is
 * checked or parsed: it tells quickly whether two URLs start alike, which
 * then have the same host key. */
gsize       cg_url_get_authority_end    (const char            *url);

/* The normalised host of a URL (lower case, ASCII, no brackets around an
 * IPv6 address). */
char       *cg_url_get_host             (const char            *url,
                                         GError               **error);

/* Whether @host is an IPv4 or IPv6 address literal rather than a name. */
gboolean    cg_url_host_is_ip           (const char            *host);

G_END_DECLS
