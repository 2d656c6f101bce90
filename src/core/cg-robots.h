/* cg-robots.h: robots.txt (RFC 9309) rules and a per-host cache of them.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* Only the first 500 KiB of a robots.txt are parsed (RFC 9309 §2.5);
 * content past it is ignored, as is the line cut by the limit. A body of
 * exactly this size is taken as cut, so the fetcher may simply stop
 * reading here. */
#define CG_ROBOTS_MAX_SIZE (500 * 1024)

/* How long a robots.txt is trusted before it must be fetched again
 * (RFC 9309 §2.4: no more than 24 hours; Heritrix's default too). */
#define CG_ROBOTS_CACHE_SECONDS (24 * 60 * 60)

/* A server error or an unreachable host disallows the whole site; the
 * crawler asks again after this long rather than waiting a day. */
#define CG_ROBOTS_RETRY_SECONDS (15 * 60)

/* Crawl-delay is honoured up to this many seconds (seed 002, §3.8:
 * Heritrix's respect-crawl-delay-up-to-secs). A longer delay is cut to it. */
#define CG_ROBOTS_MAX_CRAWL_DELAY 300.0

/* The cache forgets the least recently fetched host beyond this many. */
#define CG_ROBOTS_CACHE_MAX_HOSTS 50000

/* ---- CgRobots: the rules of one robots.txt for one crawler ----------- */

/* Parsed rules, already reduced to the groups that apply to the product
 * token given to the parser (merged as RFC 9309 §2.2.1 says; the "*" group
 * when none names the crawler). Immutable and reference counted, so it
 * can be shared between threads once built. */
typedef struct _CgRobots CgRobots;

#define CG_TYPE_ROBOTS (cg_robots_get_type ())
GType        cg_robots_get_type           (void) G_GNUC_CONST;

/* Parses a robots.txt body for the crawler whose product token is
 * @user_agent (e.g. "cartograph"; anything from the first character that
 * is not a letter, '_' or '-' on is ignored, so "cartograph/0.1" works
 * too, but a browser-like "Mozilla/5.0 (…)" string would match as
 * "Mozilla": pass the product token). Parsing never fails: lines that are not rules are skipped,
 * as the RFC requires. A UTF-8 byte order mark is skipped. */
CgRobots    *cg_robots_parse              (const char  *data,
                                           gsize        length,
                                           const char  *user_agent);

/* The rules RFC 9309 §2.3.1 implies for a fetch that ended with HTTP
 * @status (after the fetcher followed up to five redirects): 2xx parses
 * @data; 4xx (and a 3xx left after the redirects) allows everything; 5xx,
 * 429 and @status 0 (the host could not be reached) disallow everything.
 * 429 is treated as a server error, as Google does: a site that asks us to
 * slow down has not said that everything may be crawled. */
CgRobots    *cg_robots_new_for_status     (guint        status,
                                           const char  *data,
                                           gsize        length,
                                           const char  *user_agent);
CgRobots    *cg_robots_new_allow_all      (void);
CgRobots    *cg_robots_new_disallow_all   (void);

CgRobots    *cg_robots_ref                (CgRobots    *self);
void         cg_robots_unref              (CgRobots    *self);

/* Whether @path_and_query ("/a/b?c=d", what follows the authority of the
 * URL) may be fetched. Longest match wins, Allow wins a tie, '*' matches
 * any run of characters and a final '$' anchors the end; both sides are
 * compared with percent-encoding normalised. "/robots.txt" is always
 * allowed. If @out_rule is not NULL it receives the deciding rule as
 * written ("Disallow: /private/") or NULL when no rule matched, for the
 * crawl log. */
gboolean     cg_robots_is_allowed         (CgRobots    *self,
                                           const char  *path_and_query,
                                           char       **out_rule);

/* As cg_robots_is_allowed(), for an absolute URL; a URL that cannot be
 * parsed is not allowed. */
gboolean     cg_robots_is_url_allowed     (CgRobots    *self,
                                           const char  *url,
                                           char       **out_rule);

/* The Crawl-delay of the matching groups in seconds (the largest if they
 * differ), not capped, or a negative value when none was given. This is
 * not part of RFC 9309. */
double       cg_robots_get_crawl_delay    (CgRobots    *self);

/* The Sitemap URLs the file lists, in order, wherever they appear;
 * NULL-terminated, owned by @self. */
const char * const *cg_robots_get_sitemaps (CgRobots   *self);

/* Whether these rules come from a parsed file, or are the blanket
 * allow/disallow for a missing file or a failed fetch. */
gboolean     cg_robots_is_from_file       (CgRobots    *self);

/* The number of Allow and Disallow rules kept for this crawler. */
guint        cg_robots_get_n_rules        (CgRobots    *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgRobots, cg_robots_unref)

/* ---- CgRobotsCache: robots.txt per scheme, host and port ------------- */

typedef enum {
  CG_ROBOTS_ALLOWED,
  CG_ROBOTS_DISALLOWED,
  /* No fresh robots.txt for this host: fetch cg_robots_url_for() (GET, up
   * to five redirects, CG_ROBOTS_MAX_SIZE bytes), hand the result to
   * cg_robots_cache_store() and ask again. */
  CG_ROBOTS_NEED_FETCH,
} CgRobotsVerdict;

/* How the crawl treats robots.txt. Ignoring it must be an explicit
 * choice, recorded in the WARC's warcinfo (see
 * cg_robots_policy_to_string()). */
typedef enum {
  CG_ROBOTS_POLICY_OBEY,
  CG_ROBOTS_POLICY_IGNORE,
} CgRobotsPolicy;

/* A pure data structure: it never fetches anything. Seed 002 (§1) asks for
 * the check to happen just before each fetch, not at enqueue time, because
 * a URL can wait long in the frontier and robots.txt may change meanwhile;
 * the expiry makes that cheap. Not thread-safe: use it from one thread. */
typedef struct _CgRobotsCache CgRobotsCache;

#define CG_TYPE_ROBOTS_CACHE (cg_robots_cache_get_type ())
GType           cg_robots_cache_get_type        (void) G_GNUC_CONST;

CgRobotsCache  *cg_robots_cache_new             (const char     *user_agent,
                                                 CgRobotsPolicy  policy);
CgRobotsCache  *cg_robots_cache_ref             (CgRobotsCache  *self);
void            cg_robots_cache_unref           (CgRobotsCache  *self);

CgRobotsPolicy  cg_robots_cache_get_policy      (CgRobotsCache  *self);

/* The value for the warcinfo record's "robots" field: "obey" or
 * "ignore". */
const char     *cg_robots_policy_to_string      (CgRobotsPolicy  policy);

/* Whether @url may be fetched at @now_us (g_get_real_time() or any
 * monotonic clock in microseconds, used consistently). With the IGNORE
 * policy the answer is always ALLOWED. A URL that cannot be parsed is
 * DISALLOWED. @out_rule as for cg_robots_is_allowed(). */
CgRobotsVerdict cg_robots_cache_check           (CgRobotsCache  *self,
                                                 const char     *url,
                                                 gint64          now_us,
                                                 char          **out_rule);

/* As cg_robots_cache_check(), for a URL known to parse, such as one
 * cg_url_normalize() gave (the crawl's queued URLs are): a host that
 * disallows nothing is answered without parsing it, so the answer for any
 * other string is undefined. */
CgRobotsVerdict cg_robots_cache_check_normalized (CgRobotsCache *self,
                                                  const char    *url,
                                                  gint64         now_us,
                                                  char         **out_rule);

/* Stores the outcome of fetching the robots.txt of @url's scheme, host
 * and port (any URL on the host will do) at @now_us, with the rules of
 * cg_robots_new_for_status(). Fresh for CG_ROBOTS_CACHE_SECONDS after a
 * 2xx or 4xx, CG_ROBOTS_RETRY_SECONDS after a failure. Returns FALSE with
 * @error set only if @url cannot be parsed. */
gboolean        cg_robots_cache_store           (CgRobotsCache  *self,
                                                 const char     *url,
                                                 guint           status,
                                                 const char     *data,
                                                 gsize           length,
                                                 gint64          now_us,
                                                 GError        **error);

/* The rules stored for @url's host if still fresh at @now_us, or NULL.
 * Transfer full. */
CgRobots       *cg_robots_cache_lookup          (CgRobotsCache  *self,
                                                 const char     *url,
                                                 gint64          now_us);

/* The Crawl-delay for @url's host in seconds, capped at
 * CG_ROBOTS_MAX_CRAWL_DELAY, or 0 if none is known. */
double          cg_robots_cache_get_crawl_delay (CgRobotsCache  *self,
                                                 const char     *url,
                                                 gint64          now_us);

guint           cg_robots_cache_get_n_hosts     (CgRobotsCache  *self);

/* "http://example.org:8080/robots.txt" for any URL on that host. */
char           *cg_robots_url_for               (const char     *url,
                                                 GError        **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgRobotsCache, cg_robots_cache_unref)

G_END_DECLS
