/* cg-crawler.h: the archival crawl.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cg-bandwidth.h"
#include "cg-crawl-config.h"
#include "cg-project.h"

G_BEGIN_DECLS

#define CG_CRAWLER_ERROR (cg_crawler_error_quark ())

typedef enum {
  CG_CRAWLER_ERROR_NO_SUCH_CRAWL,
  CG_CRAWLER_ERROR_FINISHED,
  CG_CRAWLER_ERROR_WARC,
  CG_CRAWLER_ERROR_STORE,
  CG_CRAWLER_ERROR_NOTHING_FETCHED,   /* every URL failed (a site that is down) */
} CgCrawlerError;

/* Why a crawl ended. */
typedef enum {
  CG_CRAWL_END_DONE,      /* every URL in scope was dealt with */
  CG_CRAWL_END_LIMIT,     /* a page, byte or time limit was reached */
  CG_CRAWL_END_STOPPED,   /* stopped by the user: it can be resumed */
  CG_CRAWL_END_FAILED,    /* an error that stops everything (disk full, database) */
} CgCrawlEnd;

typedef struct {
  guint64  queued;
  guint64  in_flight;
  guint64  done;
  guint64  failed;
  guint64  skipped;
  guint64  bytes;                 /* received, this crawl in all its runs */
  guint64  warc_bytes;            /* written to WARC files in this run */
  double   documents_per_second;  /* over the last few seconds */
  gint64   elapsed_us;            /* this run */
  guint    hosts;
  gboolean paused;
} CgCrawlStats;

typedef enum {
  CG_CRAWL_EVENT_ROBOTS,        /* a URL robots.txt keeps out */
  CG_CRAWL_EVENT_FETCH_FAILED,  /* a URL that failed after its retries */
  CG_CRAWL_EVENT_LIMIT,         /* a limit ended the crawl */
  CG_CRAWL_EVENT_REPAIRED,      /* resuming cut what an interrupted run left unfinished */
  CG_CRAWL_EVENT_WARNING,       /* what the archivist should know, such as an earlier crawl's missing WARC file */
  CG_CRAWL_EVENT_ERROR,         /* an error that stops the crawl */
} CgCrawlEventKind;

/* How often the crawl commits what it did and reports progress. */
#define CG_CRAWLER_TICK_MS 200

/* Under the project's warc/ folder: WARC files of a crawl that its store
 * does not list, moved there when the crawl runs again instead of being
 * deleted (see the crawler's repair of its files). */
#define CG_CRAWLER_ORPHANED_DIR "orphaned"

/* A crawl that fetches only what a driver asks for, with the requisites
 * of those pages, such as the learning crawl of a site model. All the
 * functions run in the crawl's own thread.
 *
 * next_urls: the URLs (char *) to fetch next, asked for whenever the crawl
 *   has nothing else to do; NULL or an empty array ends the crawl (unless
 *   wait, below, asks to be asked again later).
 * page: one call for each URL next_urls gave, when its answer is in:
 *   after following its redirects, @final_url is where it led and @body
 *   the decoded payload; @final_url is NULL when it could not be fetched
 *   (out of scope, kept out by robots.txt, seen already, failed). A 304
 *   answer to a conditional request (see validators) comes with @status
 *   304 and an empty body. No transaction of the crawl is open during the
 *   call, and everything the crawl did before it is committed (@url_id
 *   included), so that the driver may write to the project's database
 *   from this thread through a connection of its own.
 *
 * The members after user_data are optional; a driver that leaves them
 * NULL gets the behaviour above.
 *
 * page_fields: called right after page() for a URL that was fetched,
 *   before the page's records are queued for writing: name/value pairs
 *   (alternating, NULL-terminated, such as "page-class", "book") for the
 *   page's WARC metadata record, or NULL.
 * wait: asked when next_urls gave nothing: how long (µs) to wait before
 *   asking next_urls again, or 0 to end the crawl. It lets a driver pace
 *   its requests (the harvest's wait between two pages of one class).
 * validators: asked before each fetch of the crawl (pages and their
 *   requisites): TRUE with the ETag and the Last-Modified value of an
 *   earlier copy of @url (either may be NULL) to make the request
 *   conditional, and the payload digest of that copy. A 304 answer is
 *   then archived as a revisit record of the server-not-modified profile
 *   that refers to the project's earlier response with that digest. The
 *   strings become the crawl's. FALSE sends a plain request. */
typedef struct {
  GPtrArray *(*next_urls) (gpointer      user_data);
  void       (*page)      (gpointer      user_data,
                           const char   *requested_url,
                           const char   *final_url,
                           guint         status,
                           const char   *content_type,
                           GBytes       *body,
                           gint64        url_id);
  gpointer    user_data;

  GStrv      (*page_fields) (gpointer    user_data,
                             const char *final_url,
                             gint64      url_id);
  gint64     (*wait)        (gpointer    user_data);
  gboolean   (*validators)  (gpointer    user_data,
                             const char *url,
                             char      **out_etag,
                             char      **out_last_modified,
                             char      **out_payload_digest);
} CgCrawlDriver;

#define CG_TYPE_CRAWLER (cg_crawler_get_type ())
G_DECLARE_FINAL_TYPE (CgCrawler, cg_crawler, CG, CRAWLER, GObject)

GQuark        cg_crawler_error_quark    (void);

CgCrawler    *cg_crawler_new            (CgProject            *project,
                                         const CgCrawlConfig  *config,
                                         GError              **error);
CgCrawler    *cg_crawler_new_driven     (CgProject            *project,
                                         const CgCrawlConfig  *config,
                                         const char           *kind,
                                         const CgCrawlDriver  *driver,
                                         GError              **error);
CgCrawler    *cg_crawler_new_for_crawl  (CgProject            *project,
                                         gint64                crawl_id,
                                         GError              **error);
CgCrawlConfig *cg_crawler_load_config   (CgProject            *project,
                                         gint64                crawl_id,
                                         GError              **error);
CgCrawler    *cg_crawler_new_for_crawl_with_config (CgProject   *project,
                                         gint64                crawl_id,
                                         const CgCrawlConfig  *config,
                                         GError              **error);
CgCrawler    *cg_crawler_new_driven_for_crawl (CgProject      *project,
                                         gint64                crawl_id,
                                         const CgCrawlConfig  *config,
                                         const CgCrawlDriver  *driver,
                                         GError              **error);
gint64        cg_crawler_find_resumable (CgProject            *project,
                                         GError              **error);

gint64        cg_crawler_get_crawl_id   (CgCrawler            *self);
const CgCrawlConfig *cg_crawler_get_config (CgCrawler         *self);
CgBandwidth  *cg_crawler_get_bandwidth  (CgCrawler            *self);

/* A warning its driver has about the crawl (a harvest whose classifier
 * could not read some of its sample pages), reported as a
 * CG_CRAWL_EVENT_WARNING event when the crawl starts, beside the crawl's
 * own warnings. Call before cg_crawler_start(). */
void          cg_crawler_add_start_warning (CgCrawler         *self,
                                            const char        *message);
void          cg_crawler_start          (CgCrawler            *self);
void          cg_crawler_pause          (CgCrawler            *self);
void          cg_crawler_unpause        (CgCrawler            *self);
void          cg_crawler_stop           (CgCrawler            *self);
gboolean      cg_crawler_is_running     (CgCrawler            *self);
guint         cg_crawler_count_running  (void);
gboolean      cg_crawler_close_interrupted (CgProject       *project,
                                            gint64           crawl_id,
                                            GError         **error);
void          cg_crawler_get_stats      (CgCrawler            *self,
                                         CgCrawlStats         *out_stats);
const char   *cg_crawl_end_to_string    (CgCrawlEnd            end);

G_END_DECLS
