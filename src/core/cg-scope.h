/* cg-scope.h: which URLs a crawl may fetch, spider-trap guards, and the
 * crawl's page, byte and time limits.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "cg-links.h"

G_BEGIN_DECLS

/* Hops from a seed before navigation stops (Heritrix's max-hops). */
#define CG_SCOPE_DEFAULT_MAX_DEPTH 20

/* Page requisites may go this many hops past the depth limit, so that the
 * last pages still get their stylesheets, and the images those load
 * (Heritrix's max-trans-hops). */
#define CG_SCOPE_MAX_REQUISITE_HOPS 2

/* Spider-trap guards. Each may be changed; 0 turns one off. */
#define CG_SCOPE_DEFAULT_MAX_URL_LENGTH      2048  /* Heritrix and old browsers stop near here */
#define CG_SCOPE_DEFAULT_MAX_PATH_SEGMENTS   20    /* Heritrix's TooManyPathSegments */
#define CG_SCOPE_DEFAULT_MAX_SEGMENT_REPEATS 2     /* /a/a/a or /a/b/a/b/a/b is a loop (Heritrix's PathologicalPath) */
#define CG_SCOPE_DEFAULT_MAX_QUERY_PARAMS    32    /* more is a generated URL, not a form */
#define CG_SCOPE_DEFAULT_MAX_QUERY_VARIANTS  1000  /* distinct queries on one host and path: endless calendars */

/* Runs of repeated segments are looked for up to this length: "/a/b/c"
 * repeated is caught, a longer cycle is left to the segment count. */
#define CG_SCOPE_MAX_REPEAT_PERIOD 8

typedef enum {
  CG_SCOPE_MODE_HOST,         /* the seeds' hosts ("www." or not) */
  CG_SCOPE_MODE_DOMAIN,       /* the seeds' registrable domains and their subdomains */
  CG_SCOPE_MODE_SURT_PREFIX,  /* the SURT prefixes of the seeds and those added */
} CgScopeMode;

typedef enum {
  CG_SCOPE_IN_SCOPE,
  CG_SCOPE_INVALID_URL,
  CG_SCOPE_OFF_HOST,
  CG_SCOPE_OFF_DOMAIN,
  CG_SCOPE_OFF_SURT_PREFIX,
  CG_SCOPE_EXCLUDED_BY_REGEX,
  CG_SCOPE_NOT_INCLUDED,          /* include regexes are set and none matched */
  CG_SCOPE_TOO_DEEP,
  CG_SCOPE_REQUISITES_OFF,        /* an embed, and page requisites are not fetched */
  CG_SCOPE_TRAP_URL_TOO_LONG,
  CG_SCOPE_TRAP_TOO_MANY_SEGMENTS,
  CG_SCOPE_TRAP_REPEATED_SEGMENTS,
  CG_SCOPE_TRAP_TOO_MANY_PARAMS,
  CG_SCOPE_TRAP_QUERY_VARIANTS,
  CG_SCOPE_LIMIT_PAGES,           /* only from cg_scope_check_limits() */
  CG_SCOPE_LIMIT_BYTES,
  CG_SCOPE_LIMIT_DURATION,
} CgScopeVerdict;

typedef struct {
  guint max_url_length;
  guint max_path_segments;
  guint max_segment_repeats;
  guint max_query_params;
  guint max_query_variants;
} CgScopeTraps;

#define CG_SCOPE_ERROR (cg_scope_error_quark ())

typedef enum {
  CG_SCOPE_ERROR_BAD_SEED,
  CG_SCOPE_ERROR_BAD_PREFIX,
  CG_SCOPE_ERROR_BAD_REGEX,
} CgScopeError;

/* Reference counted; not thread-safe (cg_scope_check() remembers the
 * queries it has seen per path): use it from the crawl's own thread. */
typedef struct _CgScope CgScope;

#define CG_TYPE_SCOPE (cg_scope_get_type ())
GType            cg_scope_get_type             (void) G_GNUC_CONST;
GQuark           cg_scope_error_quark          (void);

CgScope         *cg_scope_new                  (CgScopeMode          mode);
CgScope         *cg_scope_ref                  (CgScope             *self);
void             cg_scope_unref                (CgScope             *self);

CgScopeMode      cg_scope_get_mode             (CgScope             *self);

/* Adds a seed: its host (HOST mode), registrable domain (DOMAIN mode,
 * from the Public Suffix List through libsoup's libpsl; an IP address or
 * a name under no known suffix stands for itself) or SURT prefix (SURT
 * mode, cg_url_surt_prefix_for_url()) joins the scope. */
gboolean         cg_scope_add_seed             (CgScope             *self,
                                                const char          *url,
                                                GError             **error);

/* Adds a SURT prefix (SURT mode only has use for it). @prefix is taken as
 * a SURT if it contains '(' ("http://(it,"), as a URL if it contains
 * "://" (its seed prefix), else as a domain name ("it", "example.org"). */
gboolean         cg_scope_add_surt_prefix      (CgScope             *self,
                                                const char          *prefix,
                                                GError             **error);

/* Regexes (GRegex, PCRE syntax, unanchored) matched against the
 * normalised URL. An excluded URL is never fetched, requisite or not.
 * When include regexes are set, a navigation link must also match one of
 * them (they narrow the scope; requisites are not held to them). */
gboolean         cg_scope_add_exclude_regex    (CgScope             *self,
                                                const char          *pattern,
                                                GError             **error);
gboolean         cg_scope_add_include_regex    (CgScope             *self,
                                                const char          *pattern,
                                                GError             **error);

/* Hops from a seed; 0 crawls only the seeds (and their requisites). */
void             cg_scope_set_max_depth        (CgScope             *self,
                                                guint                max_depth);
guint            cg_scope_get_max_depth        (CgScope             *self);

/* Whether page requisites (CG_HOP_EMBED and CG_HOP_SPECULATIVE: CSS, JS,
 * images, frames) are fetched, on any host, so that archived pages
 * replay. On by default. */
void             cg_scope_set_fetch_requisites (CgScope             *self,
                                                gboolean             fetch);
gboolean         cg_scope_get_fetch_requisites (CgScope             *self);

void             cg_scope_get_traps            (CgScope             *self,
                                                CgScopeTraps        *out_traps);
void             cg_scope_set_traps            (CgScope             *self,
                                                const CgScopeTraps  *traps);

/* Decides whether @url, reached by @hop at @depth hops from its seed
 * (seeds are depth 0, hop CG_HOP_SEED), may be fetched. The URL is
 * normalised with CG_URL_NORMALIZE_CRAWL first. Seeds are always in scope
 * if they are valid URLs. Checks, in this order: validity, URL length,
 * exclude regexes (a prerequisite such as robots.txt passes after these),
 * requisites switch, depth, host/domain/SURT prefix and include regexes
 * (both skipped for requisites), path segments, repeated segments, query
 * parameters, query variants per host and path. An accepted URL with a
 * query is remembered for the last check; asking twice about one URL
 * counts it once.
 *
 * If @out_detail is not NULL it receives, for a rejection, the data
 * behind it (the host, the regex, "depth 21 > 20", …) for the crawl log,
 * and NULL for IN_SCOPE. */
CgScopeVerdict   cg_scope_check                (CgScope             *self,
                                                const char          *url,
                                                guint                depth,
                                                CgHopType            hop,
                                                char               **out_detail);

/* ---- limits on the whole crawl ---------------------------------------- */

/* 0 means no limit. Pages are what cg_scope_record_fetch() counts as
 * pages; bytes are all bytes received; duration is measured from
 * cg_scope_start_clock(). */
void             cg_scope_set_max_pages        (CgScope             *self,
                                                guint64              max_pages);
void             cg_scope_set_max_bytes        (CgScope             *self,
                                                guint64              max_bytes);
void             cg_scope_set_max_duration     (CgScope             *self,
                                                guint64              max_seconds);

/* Starts the duration clock at @start_us (any clock in microseconds, used
 * consistently). A resumed crawl passes now minus the time already spent.
 * If never called, the first cg_scope_check_limits() starts it. */
void             cg_scope_start_clock          (CgScope             *self,
                                                gint64               start_us);

/* Counts one completed fetch of @bytes bytes; @is_page says whether it
 * counts against the page limit (the crawler decides, e.g. HTML only or
 * every document). */
void             cg_scope_record_fetch         (CgScope             *self,
                                                guint64              bytes,
                                                gboolean             is_page);

/* Restores the counters of a resumed crawl. */
void             cg_scope_set_counters         (CgScope             *self,
                                                guint64              pages,
                                                guint64              bytes);
guint64          cg_scope_get_pages            (CgScope             *self);
guint64          cg_scope_get_bytes            (CgScope             *self);

/* May another fetch start at @now_us? CG_SCOPE_IN_SCOPE if so, else the
 * limit that was reached (LIMIT_PAGES, LIMIT_BYTES or LIMIT_DURATION). */
CgScopeVerdict   cg_scope_check_limits         (CgScope             *self,
                                                gint64               now_us);

/* A stable token for logs and the store: "in-scope", "off-host",
 * "excluded-by-regex", "too-deep", "trap-query-variants", … */
const char      *cg_scope_verdict_to_string    (CgScopeVerdict       verdict);

/* A translated sentence for the user interface. */
const char      *cg_scope_verdict_describe     (CgScopeVerdict       verdict);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgScope, cg_scope_unref)

G_END_DECLS
