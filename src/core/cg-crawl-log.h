/* cg-crawl-log.h: the crawl log, in Heritrix's crawl.log format.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Heritrix's negative fetch status codes, for URLs that got no HTTP
 * status: they keep the log readable by the tools archivists know. */
#define CG_FETCH_STATUS_DNS_FAILED         (-1)
#define CG_FETCH_STATUS_CONNECT_FAILED     (-2)
#define CG_FETCH_STATUS_CONNECT_LOST       (-3)
#define CG_FETCH_STATUS_TIMEOUT            (-4)
#define CG_FETCH_STATUS_UNEXPECTED         (-5)
#define CG_FETCH_STATUS_UNSUPPORTED_SCHEME (-7)
#define CG_FETCH_STATUS_RETRIES_EXHAUSTED  (-8)
#define CG_FETCH_STATUS_ROBOTS_PREREQUISITE (-61)
#define CG_FETCH_STATUS_EMPTY_RESPONSE     (-404)
#define CG_FETCH_STATUS_TRAP               (-4000)
#define CG_FETCH_STATUS_TOO_MANY_HOPS      (-4001)
#define CG_FETCH_STATUS_OUT_OF_SCOPE       (-5000)
#define CG_FETCH_STATUS_QUOTA              (-5003)
#define CG_FETCH_STATUS_RUNTIME            (-5004)
#define CG_FETCH_STATUS_ROBOTS             (-9998)

typedef struct {
  gint64      log_time_us;
  int         status;
  gint64      size;            /* -1 when nothing was received */
  const char *url;
  const char *hops;            /* "" for a seed */
  const char *via;             /* NULL for a seed */
  const char *mime;
  guint       worker;
  gint64      fetch_start_us;  /* 0 when nothing was fetched */
  gint64      duration_ms;
  const char *digest;          /* "sha1:…", or NULL */
  const char *annotations;     /* comma-separated, or NULL */
} CgCrawlLogEntry;

#define CG_TYPE_CRAWL_LOG (cg_crawl_log_get_type ())
G_DECLARE_FINAL_TYPE (CgCrawlLog, cg_crawl_log, CG, CRAWL_LOG, GObject)

/* The log holds the lines written until cg_crawl_log_flush() writes them
 * to the file, so that a crawl can write the lines of a transaction as it
 * commits and drop them (cg_crawl_log_discard()) when it rolls back. It
 * stores the log's size with the commit (cg_crawl_log_get_size()), and
 * opens the log again with that size: what a kill, or a failed commit
 * (cg_crawl_log_cut()), left after it is cut, so that a page fetched
 * again is logged once. Past 8 MiB held, lines are written without
 * waiting. Lines still held when the log is finalized are written then.
 *
 * @committed_size: the log is cut to it if longer; -1 when unknown, and
 * the log is cut after its last whole line. */
CgCrawlLog *cg_crawl_log_open         (const char             *path,
                                       gint64                  committed_size,
                                       GError                **error);
char       *cg_crawl_log_format_entry (const CgCrawlLogEntry  *entry);
gboolean    cg_crawl_log_write        (CgCrawlLog             *self,
                                       const CgCrawlLogEntry  *entry,
                                       GError                **error);
gboolean    cg_crawl_log_flush        (CgCrawlLog             *self,
                                       GError                **error);
void        cg_crawl_log_discard      (CgCrawlLog             *self);
/* The size of the file: what was flushed. */
goffset     cg_crawl_log_get_size     (CgCrawlLog             *self);
/* Drops the held lines and cuts the file back to @size, if longer. */
gboolean    cg_crawl_log_cut          (CgCrawlLog             *self,
                                       goffset                 size,
                                       GError                **error);

G_END_DECLS
