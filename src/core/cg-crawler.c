/* cg-crawler.c: the archival crawl.
 *
 * A crawl runs in a thread of its own, with its own main context, database
 * connection and libsoup session, so that neither the window nor the
 * command line ever waits for it. A second thread compresses and writes
 * the WARC records, which is most of a fast crawl's CPU (DESIGN.md), and
 * a small pool of parser threads extracts the links of fetched pages and
 * computes their payload digests; the crawl thread meanwhile fetches and
 * keeps the frontier and the link graph. Signals are emitted in the main
 * context that was current when cg_crawler_start() was called, and only
 * in the thread that runs it.
 *
 * Exactly once, whatever the moment of a kill: a page is marked done, with
 * its fetch and the place of its records, only after its records are in
 * the WARC file, and in the same transaction the file's committed size is
 * moved past them. Resuming cuts every WARC file back to its committed
 * size and queues again the URLs that were in flight. So a record is in
 * the archive if and only if the database says so, and no page is lost or
 * written twice. URLs discovered on a page may commit before its records;
 * seen again after a resume, they are recognised and not queued twice.
 *
 * robots.txt is fetched as a prerequisite of each host (all redirects
 * followed), archived like any other response, kept in the hosts table
 * and checked again just before each fetch (seed 002, §1).
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cg-cdxj.h"
#include "cg-crawl-lock.h"
#include "cg-crawl-log.h"
#include "cg-crawler.h"
#include "cg-dispatch.h"
#include "cg-fetcher.h"
#include "cg-format.h"
#include "cg-frontier.h"
#include "cg-json.h"
#include "cg-links.h"
#include "cg-robots.h"
#include "cg-scope.h"
#include "cg-seen-cache.h"
#include "cg-url.h"
#include "cg-warc-writer.h"

/* The User-Agent product token robots.txt groups are matched against. */
#define ROBOTS_PRODUCT_TOKEN "cartograph"

/* Transactions are committed at the first tick a second after the last
 * commit, or sooner after this many changes, so that a kill loses little
 * work (its pages are fetched again on resuming). Each commit writes the
 * index pages it changed to the write-ahead log again, in the crawl
 * thread: committing at every tick, or every 2,000 changes, wrote 65 %
 * more of the log in the crawl throughput benchmark (tests/bench). */
#define COMMIT_INTERVAL_US          G_USEC_PER_SEC
#define MAX_CHANGES_PER_TRANSACTION 20000

/* The crawl's database connection caches this many KiB of pages. */
#define CRAWL_DB_CACHE_KIB 16384

/* The crawl's connection copies its write-ahead log into the database
 * once the log holds this many pages (64 MiB of SQLite's 4 KiB pages),
 * instead of SQLite's default of 1,000. The crawl rewrites the same index
 * pages at every commit, and each checkpoint copies them into the database
 * file again, in the crawl thread, which limits pages per second: with
 * fewer checkpoints each page is copied fewer times. Checkpointing every
 * 4 MiB cost about 3 % of the pages per second of the crawl throughput
 * benchmark (tests/bench), whose 20,000-page crawl writes about 57 MiB of
 * log. A kill loses nothing more: what is committed is in the log, which
 * SQLite replays on opening. */
#define CRAWL_DB_WAL_CHECKPOINT_PAGES 16384

/* Documents per second are measured over this many ticks. */
#define RATE_WINDOW_TICKS 25

/* The parsers and the WARC writer thread may together fall this many
 * pages behind before fetching waits for them, which bounds the memory
 * held by pages on their way to the archive. */
#define MAX_PENDING_WRITES 256

/* Threads that extract the links of fetched pages and compute their
 * payload digests. Parsing HTML was a quarter of the crawl thread's work
 * in the crawl throughput benchmark (tests/bench); done beside it, the
 * crawl thread, the parsers and the WARC writer share the cores. One
 * parser keeps up with about 15,000 pages a second there (most pages are
 * read by cg-link-scanner.c); a second one only pays where a core is
 * left for it: on two cores it made the crawl ~5 % slower, all of it in
 * the wake-ups of threads taking turns. */
#define MAX_PARSE_THREADS 2

static guint
n_parse_threads (void)
{
  /* The crawl thread and the WARC writer have a core each first. */
  return CLAMP (g_get_num_processors () - 2, 1, MAX_PARSE_THREADS);
}

/* The parser threads and the WARC writer are faster than the crawl
 * thread, so they would wait for every page, and the crawl thread would
 * have to wake them for every page: a futex call each, a few per cent of
 * the crawl thread's work in the crawl throughput benchmark (tests/bench),
 * and a thread switch on a shared core. So once its queue is empty a
 * thread naps before it waits, and takes the pages queued meanwhile
 * without a wake-up; a page is dealt with up to a nap later. In runs
 * alternating with and without, naps of 1 ms made the benchmark's crawl
 * about 8 % faster, 4 ms 5 % more, 10 ms another 2 %. */
#define QUEUE_NAP_US 10000

/* At most this many pages' records are written to the WARC file with one
 * write (see writer_thread_main()). */
#define WRITE_BATCH_JOBS 64

static gpointer
pop_after_nap (GAsyncQueue *queue)
{
  gpointer item = g_async_queue_try_pop (queue);

  if (item != NULL)
    return item;
  g_usleep (QUEUE_NAP_US);
  item = g_async_queue_try_pop (queue);
  return item != NULL ? item : g_async_queue_pop (queue);
}

/* The statements run for every page or link are prepared once per run:
 * compiling them again each time was the largest single cost of the
 * crawl thread in the crawl throughput benchmark (tests/bench). */
typedef enum {
  RUN_STMT_COMMIT_WARC_END,
  RUN_STMT_INSERT_FETCH,
  RUN_STMT_INSERT_OUTLINKS,
  RUN_STMT_FIND_DUPLICATE,
  N_RUN_STMTS
} RunStmtId;

static const char * const run_stmt_sql[N_RUN_STMTS] = {
  [RUN_STMT_COMMIT_WARC_END] = "UPDATE warc_files SET committed_size = max(committed_size, ?2) WHERE id = ?1",
  [RUN_STMT_INSERT_FETCH] =
    "INSERT INTO fetches (crawl_id, url_id, fetched_at, duration_ms, status, mime, size, "
    "  payload_digest, ip, record_type, warc_file_id, warc_offset, warc_length, "
    "  warc_record_id, warc_date, truncated, etag, last_modified, conditional) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)",
  /* A page's outlinks are one row (see cg-store.c). A page is fetched
   * once per crawl, so the row is new; should it not be, the edges it
   * lacks are added, the first of each target and hop kept, as a table of
   * one row per edge with that key would. */
  [RUN_STMT_INSERT_OUTLINKS] =
    "INSERT INTO outlinks (from_id, edges) VALUES (?1, ?2) "
    "ON CONFLICT (from_id) DO UPDATE SET edges = ("
    "  SELECT json_group_array (json (value)) FROM ("
    "    SELECT 0 AS part, key, value FROM json_each (outlinks.edges) "
    "    UNION ALL "
    "    SELECT 1, added.key, added.value FROM json_each (excluded.edges) AS added "
    "    WHERE NOT EXISTS (SELECT 1 FROM json_each (outlinks.edges) AS had "
    "                      WHERE had.value ->> 0 = added.value ->> 0 AND had.value ->> 1 = added.value ->> 1) "
    "    ORDER BY part, key))",
  [RUN_STMT_FIND_DUPLICATE] =
    "SELECT u.url, f.warc_date, f.warc_record_id, f.mime, f.warc_file_id FROM fetches f JOIN urls u ON u.id = f.url_id "
    "WHERE f.payload_digest = ?1 AND f.record_type = 'response' ORDER BY f.id",
};

/* A redirect does not take a URL one hop further from the seed, so the
 * depth limit does not end a chain of redirects to ever new URLs
 * (/a/1 → /a/2 → …): the crawl follows a chain as far as the fetcher
 * would, and records the URL past that as skipped. */
#define MAX_REDIRECT_CHAIN CG_FETCHER_MAX_REDIRECTS_LIMIT

G_DEFINE_QUARK (cg-crawler-error-quark, cg_crawler_error)

/* Crawls of this process whose thread has not ended yet, for
 * cg_crawler_count_running(). */
static gint running_crawls;

typedef struct _CrawlRun CrawlRun;

struct _CgCrawler
{
  GObject        parent_instance;

  CgProject     *project;
  CgCrawlConfig *config;
  gint64         crawl_id;
  CgCrawlLock   *lock;          /* held from construction (cg-crawl-lock.c) */
  CgBandwidth   *bandwidth;

  CgCrawlDriver  driver;
  gboolean       driven;
  GPtrArray     *start_warnings;  /* of char *, or NULL */

  GMainContext  *owner_context;
  GThread       *thread;
  CrawlRun      *run;

  GMutex         stats_lock;
  CgCrawlStats   stats;
  gint           paused;    /* atomic */
  gint           stopping;  /* atomic */
  gboolean       running;
};

G_DEFINE_FINAL_TYPE (CgCrawler, cg_crawler, G_TYPE_OBJECT)

enum {
  SIGNAL_PROGRESS,
  SIGNAL_EVENT,
  SIGNAL_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* A page on its way to the WARC file. */
typedef struct {
  CrawlRun         *run;
  CgFrontierItem   *item;          /* NULL for a robots.txt hop */
  CgFetchResult    *result;
  char             *payload_digest;
  char             *revisit_uri;
  char             *revisit_date;
  char             *revisit_id;
  const char       *revisit_profile;  /* NULL: identical payload digest */
  char             *revisit_mime;  /* for a 304: the type of the copy it refers to */
  char             *sent_etag;     /* the validators of a conditional request */
  char             *sent_last_modified;
  GStrv             fields;        /* the driver's, for the metadata record */
  GPtrArray        *outlinks;      /* char *, for the metadata record */
  /* A parser's links and their targets, already added to the frontier:
   * kept only to be freed by the writer thread (see writer_thread_main()). */
  GPtrArray        *spent_links;
  GArray           *spent_targets;
  gint64            host_ready_at;
  gint64            robots_host_id;
  /* Filled by the writer thread. */
  CgWarcRecordInfo *request_info;
  CgWarcRecordInfo *response_info;
  CgWarcRecordInfo *metadata_info;
  GError           *error;
} WriteJob;

struct _CrawlRun
{
  CgCrawler       *crawler;       /* strong reference held by the thread */
  CgCrawlConfig   *config;
  gint64           crawl_id;
  GMainContext    *context;
  GMainLoop       *loop;
  GCancellable    *cancellable;

  CgStore         *store;
  sqlite3_stmt    *stmts[N_RUN_STMTS];  /* see run_stmt() */
  CgFrontier      *frontier;
  CgFetcher       *fetcher;
  CgScope         *scope;
  CgRobotsCache   *robots;
  CgCrawlLog      *log;
  char            *warc_dir;
  char            *warc_prefix;

  /* Edges of the link graph waiting for flush_links(). */
  GArray          *edges;            /* Edge */
  GString         *outlinks;         /* flush_links()' JSON */
  GHashTable      *targets_stored;   /* gint64 * (in edges) set, for flush_links() */

  /* The parser threads, their queue of ParseJob, and how many are out. */
  GPtrArray       *parser_threads;
  GAsyncQueue     *parse_queue;
  guint            parsing;

  /* The writer thread and its queue of WriteJob. */
  GThread         *writer_thread;
  GAsyncQueue     *write_queue;
  CgWarcWriter    *writer;
  guint            pending_writes;
  /* Why the writer thread could not close the WARC file as it stopped. */
  GError          *writer_close_error;

  /* What the parsers and the writer hand back, taken by the crawl thread
   * in batches (see inbox_push()). */
  GMutex           inbox_lock;
  GQueue           parsed;           /* ParseJob, in the order they ended */
  GQueue           written;          /* WriteJob, in the order of the file */
  gboolean         inbox_woken;

  GHashTable      *warc_file_ids;    /* file name → gint64 id (boxed) */
  /* Responses queued for writing whose fetch rows are not in the store
   * yet: payload digest → QueuedPayload. A duplicate of one is written
   * as a revisit too, though the two were fetched at once. */
  GHashTable      *queued_payloads;
  /* Ids (gint64, boxed) of WARC files of earlier crawls that are no
   * longer in the folder: a revisit may not refer to a record in one. */
  GHashTable      *missing_warc_files;
  char            *current_warc;
  GHashTable      *robots_waiting;   /* host key → GPtrArray of CgFrontierItem */
  /* host key → why its robots.txt could not be fetched (no answer): a
   * host that is down, not one that forbids. */
  GHashTable      *robots_unreachable;
  /* "URL: why" of the first URL that could not be fetched, for a crawl
   * that fetched nothing at all. */
  char            *first_failure;
  /* In a driven crawl: URL awaited → the URL the driver asked for (the
   * same, or the one whose redirects lead to it). */
  GHashTable      *requested;
  guint            in_flight;        /* HTTP fetches under way */
  gboolean         in_transaction;
  /* A page was stored in part, or a commit failed, when the run failed:
   * the open transaction is rolled back and nothing more is committed, so
   * that the store keeps no page whose storing did not finish (its records
   * past the committed end of the file are cut when the crawl resumes, and
   * the page is fetched again). What this run keeps in memory (URLs seen,
   * the frontier's counts) no longer matches the store then. */
  gboolean         spoiled;
  guint            changes;
  gint64           committed_at;   /* monotonic µs */
  /* The crawl log's size at the last commit; -1 when unknown (a crawl
   * begun before the store kept it). */
  gint64           log_committed_size;
  /* The end of the last record written to the file warc_end_file_id,
   * stored at the next commit (see note_warc_end()); 0: none to store. */
  gint64           warc_end_file_id;
  guint64          warc_end;
  GSource         *wake_source;
  GSource         *tick_source;
  gboolean         finishing;
  CgCrawlEnd       end;
  GError          *error;

  gint64           started_us;
  guint64          bytes;
  guint64          warc_bytes;
  guint64          documents;
  guint64          rate_history[RATE_WINDOW_TICKS];
  guint            rate_index;
};

static const char * const crawl_end_names[] = {
  [CG_CRAWL_END_DONE] = "finished",
  [CG_CRAWL_END_LIMIT] = "limit",
  [CG_CRAWL_END_STOPPED] = "stopped",
  [CG_CRAWL_END_FAILED] = "failed",
};

const char *
cg_crawl_end_to_string (CgCrawlEnd end)
{
  return end < G_N_ELEMENTS (crawl_end_names) ? crawl_end_names[end] : "failed";
}

/* ------------------------------------------------------------------ */
/* Reporting to the owner's main context                               */

typedef struct {
  CgCrawler        *crawler;
  CgCrawlEventKind  kind;
  char             *url;
  char             *message;
} EventData;

static gboolean
emit_event_cb (gpointer user_data)
{
  EventData *data = user_data;

  g_signal_emit (data->crawler, signals[SIGNAL_EVENT], 0, data->kind, data->url, data->message);
  return G_SOURCE_REMOVE;
}

static void
event_data_free (gpointer user_data)
{
  EventData *data = user_data;

  g_object_unref (data->crawler);
  g_free (data->url);
  g_free (data->message);
  g_free (data);
}

static void
report_event (CrawlRun         *run,
              CgCrawlEventKind  kind,
              const char       *url,
              const char       *message)
{
  EventData *data = g_new0 (EventData, 1);

  data->crawler = g_object_ref (run->crawler);
  data->kind = kind;
  data->url = g_strdup (url);
  data->message = g_strdup (message);
  cg_dispatch_to_context (run->crawler->owner_context, emit_event_cb, data, event_data_free);
}

/* A URL that could not be fetched: an event, and the first is kept. */
static void
report_failure (CrawlRun   *run,
                const char *url,
                const char *message)
{
  if (run->first_failure == NULL)
    run->first_failure = g_strdup_printf ("%s: %s", url, message);
  report_event (run, CG_CRAWL_EVENT_FETCH_FAILED, url, message);
}

static gboolean
emit_progress_cb (gpointer user_data)
{
  CgCrawler *self = user_data;
  CgCrawlStats stats;

  cg_crawler_get_stats (self, &stats);
  g_signal_emit (self, signals[SIGNAL_PROGRESS], 0, &stats);
  return G_SOURCE_REMOVE;
}

static void
publish_stats (CrawlRun *run)
{
  CgCrawler *self = run->crawler;
  guint64 oldest = run->rate_history[(run->rate_index + 1) % RATE_WINDOW_TICKS];
  CgCrawlStats stats = { 0 };
  guint ticks = MIN (run->rate_index, RATE_WINDOW_TICKS - 1);

  run->rate_index++;
  run->rate_history[run->rate_index % RATE_WINDOW_TICKS] = run->documents;

  stats.queued = cg_frontier_count (run->frontier, CG_URL_QUEUED);
  stats.in_flight = cg_frontier_count (run->frontier, CG_URL_IN_FLIGHT);
  stats.done = cg_frontier_count (run->frontier, CG_URL_DONE);
  stats.failed = cg_frontier_count (run->frontier, CG_URL_FAILED);
  stats.skipped = cg_frontier_count (run->frontier, CG_URL_SKIPPED);
  stats.bytes = run->bytes;
  stats.warc_bytes = run->warc_bytes;
  stats.elapsed_us = g_get_monotonic_time () - run->started_us;
  stats.paused = g_atomic_int_get (&self->paused);
  stats.hosts = cg_frontier_get_n_hosts (run->frontier);
  if (ticks > 0)
    stats.documents_per_second = (double) (run->documents - (run->rate_index > RATE_WINDOW_TICKS - 1 ? oldest : 0)) /
                                 (ticks * CG_CRAWLER_TICK_MS / 1000.0);

  g_mutex_lock (&self->stats_lock);
  self->stats = stats;
  g_mutex_unlock (&self->stats_lock);

  cg_dispatch_to_context (self->owner_context, emit_progress_cb, g_object_ref (self), g_object_unref);
}

/* ------------------------------------------------------------------ */
/* Transactions                                                        */

static gboolean
ensure_transaction (CrawlRun  *run,
                    GError   **error)
{
  if (run->in_transaction)
    return TRUE;
  if (!cg_store_begin (run->store, error))
    return FALSE;
  run->in_transaction = TRUE;
  run->changes = 0;
  return TRUE;
}

static gboolean store_warc_end (CrawlRun *run, GError **error);

/* Takes the crawl log's lines since the last commit back, those held and
 * those written (past 8 MiB held, or before a commit that failed). */
static void
take_back_log_lines (CrawlRun *run)
{
  if (run->log_committed_size >= 0)
    cg_crawl_log_cut (run->log, run->log_committed_size, NULL);
  else
    cg_crawl_log_discard (run->log);
}

/* The crawl log's size at this commit (see commit()). */
static gboolean
store_log_size (CrawlRun  *run,
                GError   **error)
{
  g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (run->store, "UPDATE crawls SET log_size = ?2 WHERE id = ?1", error);

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, run->crawl_id);
  sqlite3_bind_int64 (stmt, 2, cg_crawl_log_get_size (run->log));
  return cg_store_step_done (run->store, stmt, error);
}

static gboolean
commit (CrawlRun  *run,
        GError   **error)
{
  if (!run->in_transaction)
    return TRUE;
  run->in_transaction = FALSE;
  /* The crawl log's lines since the last commit go with the transaction:
   * written to the log before it commits, with the log's size, and taken
   * back when it fails (see cg-crawl-log.h). */
  if (run->spoiled)
    {
      cg_store_rollback (run->store);
      take_back_log_lines (run);
      return TRUE;
    }
  run->committed_at = g_get_monotonic_time ();
  if (!cg_crawl_log_flush (run->log, error) || !store_warc_end (run, error) ||
      !store_log_size (run, error) || !cg_store_commit (run->store, error))
    {
      /* Nothing of the transaction is in the store, and no transaction
       * is left open for the end of the run's own statements. */
      run->spoiled = TRUE;
      cg_store_rollback (run->store);
      take_back_log_lines (run);
      return FALSE;
    }
  run->log_committed_size = cg_crawl_log_get_size (run->log);
  /* The crawl takes the lock again as soon as it goes on: a write of the
   * window's that waits for it has its turn now. */
  cg_store_give_way (run->store);
  return TRUE;
}

static void fail_run (CrawlRun *run, GError *error);
static void spoil_run (CrawlRun *run, GError *error);
static void pump (CrawlRun *run);

/* Counts a change and commits when enough have piled up. */
static void
changed (CrawlRun *run)
{
  g_autoptr(GError) error = NULL;

  if (++run->changes < MAX_CHANGES_PER_TRANSACTION)
    return;
  if (!commit (run, &error) || !ensure_transaction (run, &error))
    fail_run (run, g_steal_pointer (&error));
}

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */

static gint64
politeness_ready_at (CrawlRun   *run,
                     const char *url,
                     gint64      now_us,
                     gint64      duration_us)
{
  const CgCrawlConfig *config = run->config;
  double delay = MAX (config->min_delay, config->delay_factor * duration_us / (double) G_USEC_PER_SEC);
  double crawl_delay = cg_robots_cache_get_crawl_delay (run->robots, url, now_us);

  delay = MIN (delay, config->max_delay);
  /* Crawl-delay is the site's own request: it wins over our cap, up to
   * the robots module's own limit. */
  delay = MAX (delay, crawl_delay);
  return now_us + (gint64) (delay * G_USEC_PER_SEC);
}

static gboolean
is_html (const char *content_type)
{
  return g_strcmp0 (content_type, "text/html") == 0 || g_strcmp0 (content_type, "application/xhtml+xml") == 0;
}

static int
status_for_error (const GError *error)
{
  if (error == NULL)
    return CG_FETCH_STATUS_UNEXPECTED;
  if (error->domain == CG_FETCHER_ERROR)
    switch ((CgFetcherError) error->code)
      {
      case CG_FETCHER_ERROR_DNS: return CG_FETCH_STATUS_DNS_FAILED;
      case CG_FETCHER_ERROR_CONNECT: return CG_FETCH_STATUS_CONNECT_FAILED;
      case CG_FETCHER_ERROR_CONNECTION: return CG_FETCH_STATUS_CONNECT_LOST;
      case CG_FETCHER_ERROR_TIMEOUT: return CG_FETCH_STATUS_TIMEOUT;
      case CG_FETCHER_ERROR_UNSUPPORTED_SCHEME: return CG_FETCH_STATUS_UNSUPPORTED_SCHEME;
      case CG_FETCHER_ERROR_TLS: return CG_FETCH_STATUS_CONNECT_FAILED;
      default: return CG_FETCH_STATUS_UNEXPECTED;
      }
  return CG_FETCH_STATUS_UNEXPECTED;
}

/* Heritrix's annotation for a body cut short, followed by a comma: its
 * own for the size and time limits; a connection that broke mid-body,
 * which Heritrix does not archive, is named after WARC-Truncated's
 * "disconnect". */
static const char *
truncation_annotation (CgFetchTruncation truncation)
{
  switch (truncation)
    {
    case CG_FETCH_TRUNCATED_LENGTH:
      return "lenTrunc,";
    case CG_FETCH_TRUNCATED_TIME:
      return "timeTrunc,";
    case CG_FETCH_TRUNCATED_DISCONNECT:
      return "disconnectTrunc,";
    case CG_FETCH_TRUNCATED_NONE:
    default:
      return NULL;
    }
}

static void
log_line (CrawlRun             *run,
          int                   status,
          gint64                size,
          const char           *url,
          const char           *hops,
          const char           *via,
          const char           *mime,
          gint64                start_us,
          gint64                duration_us,
          const char           *digest,
          const char           *annotations)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *token = NULL;
  CgCrawlLogEntry entry = {
    .log_time_us = g_get_real_time (),
    .status = status,
    .size = size,
    .url = url,
    .hops = hops,
    .via = via,
    .mime = mime,
    .fetch_start_us = start_us,
    .duration_ms = duration_us / 1000,
    .digest = digest,
    .annotations = annotations,
  };

  /* The annotations are the last of the space-separated fields, so a
   * space in them (a robots.txt rule such as "Disallow: /cart/") would
   * make the line one field too long for the tools that read
   * Heritrix's format. */
  if (annotations != NULL && strpbrk (annotations, " \t\r\n") != NULL)
    {
      GString *compact = g_string_new (NULL);

      for (const char *p = annotations; *p != '\0'; p++)
        if (!g_ascii_isspace (*p))
          g_string_append_c (compact, *p);
      token = g_string_free (compact, FALSE);
      entry.annotations = token;
    }

  if (!cg_crawl_log_write (run->log, &entry, &error))
    g_warning ("%s", error->message);
}

/* Returns the run's statement @id, prepared on first use, reset and with
 * its bindings cleared. Callers reset it again as soon as they are done,
 * so that no statement holds a read transaction open. */
static sqlite3_stmt *
run_stmt (CrawlRun   *run,
          RunStmtId   id,
          GError    **error)
{
  if (run->stmts[id] == NULL)
    {
      run->stmts[id] = cg_store_prepare (run->store, run_stmt_sql[id], error);
      if (run->stmts[id] == NULL)
        return NULL;
    }
  sqlite3_reset (run->stmts[id]);
  sqlite3_clear_bindings (run->stmts[id]);
  return run->stmts[id];
}

/* Steps a statement of run_stmt() that returns no row, and resets it. */
static gboolean
run_stmt_done (CrawlRun      *run,
               sqlite3_stmt  *stmt,
               GError       **error)
{
  gboolean ok = cg_store_step_done (run->store, stmt, error);

  sqlite3_reset (stmt);
  return ok;
}

/* ------------------------------------------------------------------ */
/* The WARC writer thread                                              */

static void
write_job_free (WriteJob *job)
{
  g_clear_pointer (&job->item, cg_frontier_item_free);
  g_clear_pointer (&job->result, cg_fetch_result_unref);
  g_free (job->payload_digest);
  g_free (job->revisit_uri);
  g_free (job->revisit_date);
  g_free (job->revisit_id);
  g_free (job->revisit_mime);
  g_free (job->sent_etag);
  g_free (job->sent_last_modified);
  g_strfreev (job->fields);
  g_clear_pointer (&job->outlinks, g_ptr_array_unref);
  g_clear_pointer (&job->spent_links, g_ptr_array_unref);
  g_clear_pointer (&job->spent_targets, g_array_unref);
  g_clear_pointer (&job->request_info, cg_warc_record_info_free);
  g_clear_pointer (&job->response_info, cg_warc_record_info_free);
  g_clear_pointer (&job->metadata_info, cg_warc_record_info_free);
  g_clear_error (&job->error);
  g_free (job);
}

/* The fetcher keeps the header block as received; the payload it gives is
 * de-chunked, so a Transfer-Encoding: chunked line would make readers
 * de-chunk it again. It is kept under another name, as wget does. */
static GBytes *
response_headers_for_warc (CgFetchResult *result)
{
  GBytes *block = cg_fetch_result_get_response_header_block (result);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GString *out;

  if (!cg_fetch_result_get_payload_dechunked (result))
    return g_bytes_ref (block);

  text = g_strndup (g_bytes_get_data (block, NULL), g_bytes_get_size (block));
  lines = g_strsplit (text, "\r\n", -1);
  out = g_string_sized_new (g_bytes_get_size (block) + 32);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append (out, "\r\n");
      if (g_ascii_strncasecmp (lines[i], "Transfer-Encoding:", 18) == 0)
        g_string_append (out, "X-Archive-Orig-");
      g_string_append (out, lines[i]);
    }
  return g_string_free_to_bytes (out);
}

static void inbox_push (CrawlRun *run, GQueue *queue, gpointer item);

static void
write_job (CgWarcWriter *writer,
           WriteJob     *job)
{
  CgFetchResult *result = job->result;
  GBytes *request = cg_fetch_result_get_request_header_block (result);
  g_autoptr(GBytes) response = response_headers_for_warc (result);
  GBytes *payload = cg_fetch_result_get_payload (result);
  SoupMessageHeaders *headers = cg_fetch_result_get_response_headers (result);
  g_autoptr(GDateTime) date = g_date_time_new_from_unix_utc (cg_fetch_result_get_start_time (result) / G_USEC_PER_SEC);
  CgWarcExchange exchange = {
    .target_uri = cg_fetch_result_get_url (result),
    .date = date,
    .ip_address = cg_fetch_result_get_remote_ip (result),
    .request_headers = request != NULL ? g_bytes_get_data (request, NULL) : (const guint8 *) "",
    .request_headers_length = request != NULL ? g_bytes_get_size (request) : 0,
    .response_headers = g_bytes_get_data (response, NULL),
    .response_headers_length = g_bytes_get_size (response),
    .payload = payload != NULL ? g_bytes_get_data (payload, NULL) : NULL,
    .payload_length = payload != NULL ? g_bytes_get_size (payload) : 0,
    .truncated = (CgWarcTruncation) cg_fetch_result_get_truncated (result),
    /* From libsoup's parse of the header block, which spares the writer
     * one of its own for the index: a parse of every response was 1 % of
     * the crawl's work in the crawl throughput benchmark (tests/bench). */
    .response_status = cg_fetch_result_get_status (result),
    .response_content_type = headers != NULL ? soup_message_headers_get_one (headers, "Content-Type") : NULL,
    /* Computed by a parser to find duplicates. */
    .payload_digest = job->revisit_uri == NULL ? job->payload_digest : NULL,
    .revisit_payload_digest = job->revisit_uri != NULL ? job->payload_digest : NULL,
    .revisit_target_uri = job->revisit_uri,
    .revisit_date = job->revisit_date,
    .revisit_record_id = job->revisit_id,
    .revisit_profile = job->revisit_profile,
  };

  if (!cg_warc_writer_write_exchange (writer, &exchange, &job->request_info, &job->response_info, &job->error))
    return;

  if ((job->outlinks != NULL && job->outlinks->len > 0) || job->fields != NULL)
    {
      if (job->outlinks != NULL)
        g_ptr_array_add (job->outlinks, NULL);
      job->metadata_info = cg_warc_writer_write_metadata (writer, exchange.target_uri, date,
                                                          job->response_info->record_id,
                                                          job->outlinks != NULL && job->outlinks->len > 1
                                                            ? (const char * const *) job->outlinks->pdata : NULL,
                                                          (const char * const *) job->fields, &job->error);
    }
}

/* Hands a batch of written jobs to the crawl thread once their records
 * are in the file. The writer holds records (see
 * cg_warc_writer_set_hold_records()): a record is in the file only once
 * flushed, and the crawl thread commits a page's records as stored, so a
 * page is handed over only after the flush. An error in a batch may have
 * taken back any record of it, so it fails every page of the batch (the
 * run fails with the first). */
static void
hand_over_batch (CrawlRun  *run,
                 GPtrArray *batch)
{
  g_autoptr(GError) batch_error = NULL;

  /* The batch's error is a copy of its first page's error, not that error
   * itself: the crawl thread frees a page once it is handed over, while
   * the pages after it still take copies. */
  cg_warc_writer_flush (run->writer, &batch_error);
  for (guint i = 0; i < batch->len && batch_error == NULL; i++)
    {
      const GError *job_error = ((WriteJob *) batch->pdata[i])->error;

      if (job_error != NULL)
        batch_error = g_error_copy (job_error);
    }

  for (guint i = 0; i < batch->len; i++)
    {
      WriteJob *job = batch->pdata[i];

      if (batch_error != NULL && job->error == NULL)
        job->error = g_error_copy (batch_error);
      inbox_push (run, &run->written, job);
    }
  g_ptr_array_set_size (batch, 0);
}

static gpointer
writer_thread_main (gpointer user_data)
{
  CrawlRun *run = user_data;
  g_autoptr(GPtrArray) batch = g_ptr_array_sized_new (WRITE_BATCH_JOBS);
  WriteJob *job = pop_after_nap (run->write_queue);

  /* A job whose run is NULL is the signal to stop. The jobs waiting are
   * written as one batch, whose records go to the file with one write
   * (see hand_over_batch()): one write(2) per record was a tenth of the
   * writer thread's work in the crawl throughput benchmark (tests/bench). */
  while (job->run != NULL)
    {
      write_job (run->writer, job);
      /* What the crawl thread no longer reads is freed here: the crawl
       * thread is the one that limits pages per second, and freeing a
       * page's links and outlinks was a few per cent of its work in the
       * crawl throughput benchmark (tests/bench). */
      g_clear_pointer (&job->outlinks, g_ptr_array_unref);
      g_clear_pointer (&job->fields, g_strfreev);
      g_clear_pointer (&job->spent_links, g_ptr_array_unref);
      g_clear_pointer (&job->spent_targets, g_array_unref);
      g_ptr_array_add (batch, job);

      if (batch->len < WRITE_BATCH_JOBS && (job = g_async_queue_try_pop (run->write_queue)) != NULL)
        continue;
      hand_over_batch (run, batch);
      job = pop_after_nap (run->write_queue);
    }
  hand_over_batch (run, batch);
  g_free (job);

  /* Closing flushes the file to the disk and writes its index: done here,
   * it overlaps the crawl thread's last commit and checkpoint (see
   * tear_down_run()). */
  cg_warc_writer_close (run->writer, &run->writer_close_error);
  return NULL;
}

/* ------------------------------------------------------------------ */
/* Bookkeeping of WARC files                                           */

static gint64
warc_file_id (CrawlRun    *run,
              const char  *name,
              GError     **error)
{
  g_autoptr(sqlite3_stmt) insert = NULL;
  g_autoptr(sqlite3_stmt) close_others = NULL;
  gint64 *id = g_hash_table_lookup (run->warc_file_ids, name);

  if (id != NULL)
    return *id;

  /* A new file means the writer closed the ones before it. */
  close_others = cg_store_prepare (run->store, "UPDATE warc_files SET closed = 1 WHERE crawl_id = ?1", error);
  if (close_others == NULL)
    return -1;
  sqlite3_bind_int64 (close_others, 1, run->crawl_id);
  if (!cg_store_step_done (run->store, close_others, error))
    return -1;

  insert = cg_store_prepare (run->store, "INSERT INTO warc_files (crawl_id, name) VALUES (?1, ?2)", error);
  if (insert == NULL)
    return -1;
  sqlite3_bind_int64 (insert, 1, run->crawl_id);
  sqlite3_bind_text (insert, 2, name, -1, SQLITE_TRANSIENT);
  if (!cg_store_step_done (run->store, insert, error))
    return -1;

  id = g_new (gint64, 1);
  *id = sqlite3_last_insert_rowid (cg_store_get_db (run->store));
  g_hash_table_insert (run->warc_file_ids, g_strdup (name), id);
  g_free (run->current_warc);
  run->current_warc = g_strdup (name);
  return *id;
}

/* Stores the end of the records written so far, which resuming keeps
 * and cuts the file back to. */
static gboolean
store_warc_end (CrawlRun  *run,
                GError   **error)
{
  sqlite3_stmt *stmt;

  if (run->warc_end_file_id == 0)
    return TRUE;
  stmt = run_stmt (run, RUN_STMT_COMMIT_WARC_END, error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, run->warc_end_file_id);
  sqlite3_bind_int64 (stmt, 2, (gint64) run->warc_end);
  if (!run_stmt_done (run, stmt, error))
    return FALSE;
  run->warc_end_file_id = 0;
  return TRUE;
}

/* Notes that the records of a page, up to @last, are in the file: stored
 * with the transaction that stores the page, once for all the pages it
 * holds rather than a statement for each. */
static gboolean
note_warc_end (CrawlRun                *run,
               gint64                   file_id,
               const CgWarcRecordInfo  *last,
               GError                 **error)
{
  if (run->warc_end_file_id != file_id)
    {
      if (!store_warc_end (run, error))
        return FALSE;
      run->warc_end_file_id = file_id;
      run->warc_end = 0;
    }
  run->warc_end = MAX (run->warc_end, last->offset + last->length);
  return TRUE;
}

static gboolean
insert_fetch (CrawlRun    *run,
              WriteJob    *job,
              gint64       url_id,
              gint64       file_id,
              GError     **error)
{
  sqlite3_stmt *stmt;
  CgFetchResult *result = job->result;
  SoupMessageHeaders *headers = cg_fetch_result_get_response_headers (result);
  GBytes *payload = cg_fetch_result_get_payload (result);
  const char *truncated = cg_fetch_truncation_to_string (cg_fetch_result_get_truncated (result));

  stmt = run_stmt (run, RUN_STMT_INSERT_FETCH, error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, run->crawl_id);
  sqlite3_bind_int64 (stmt, 2, url_id);
  sqlite3_bind_int64 (stmt, 3, cg_fetch_result_get_start_time (result));
  sqlite3_bind_int64 (stmt, 4, cg_fetch_result_get_duration (result) / 1000);
  sqlite3_bind_int (stmt, 5, (int) cg_fetch_result_get_status (result));
  /* A 304 keeps the type of the copy it stands for, so that the page is
   * still known as a page. */
  sqlite3_bind_text (stmt, 6, job->revisit_mime != NULL ? job->revisit_mime : cg_fetch_result_get_content_type (result),
                     -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (stmt, 7, payload != NULL ? (gint64) g_bytes_get_size (payload) : 0);
  sqlite3_bind_text (stmt, 8, job->payload_digest != NULL ? job->payload_digest : job->response_info->payload_digest,
                     -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 9, cg_fetch_result_get_remote_ip (result), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 10, job->revisit_uri != NULL ? "revisit" : "response", -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 11, file_id);
  sqlite3_bind_int64 (stmt, 12, (gint64) job->response_info->offset);
  sqlite3_bind_int64 (stmt, 13, (gint64) job->response_info->length);
  sqlite3_bind_text (stmt, 14, job->response_info->record_id, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 15, job->response_info->date, -1, SQLITE_TRANSIENT);
  if (truncated != NULL)
    sqlite3_bind_text (stmt, 16, truncated, -1, SQLITE_STATIC);
  {
    const char *etag = headers != NULL ? soup_message_headers_get_one (headers, "ETag") : NULL;
    const char *last_modified = headers != NULL ? soup_message_headers_get_one (headers, "Last-Modified") : NULL;

    /* A 304 need not repeat the validators; those that were sent still
     * hold for the next conditional request. */
    if (cg_fetch_result_is_not_modified (result))
      {
        if (etag == NULL)
          etag = job->sent_etag;
        if (last_modified == NULL)
          last_modified = job->sent_last_modified;
      }
    sqlite3_bind_text (stmt, 17, etag, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text (stmt, 18, last_modified, -1, SQLITE_TRANSIENT);
  }
  /* What was sent, not what the URL had: a copy whose WARC file is gone
   * is asked for in full (see start_fetch()). */
  sqlite3_bind_int (stmt, 19, job->sent_etag != NULL || job->sent_last_modified != NULL);
  return run_stmt_done (run, stmt, error);
}

static gboolean
store_robots (CrawlRun      *run,
              gint64         host_id,
              CgFetchResult *result,
              GError       **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  GBytes *body = cg_fetch_result_get_decoded_payload (result);

  stmt = cg_store_prepare (run->store,
                           "UPDATE hosts SET robots_status = ?2, robots_body = ?3, robots_fetched_at = ?4 WHERE id = ?1",
                           error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, host_id);
  sqlite3_bind_int (stmt, 2, cg_fetch_result_has_response (result) ? (int) cg_fetch_result_get_status (result) : 0);
  if (body != NULL)
    sqlite3_bind_blob (stmt, 3, g_bytes_get_data (body, NULL), (int) g_bytes_get_size (body), SQLITE_TRANSIENT);
  sqlite3_bind_int64 (stmt, 4, g_get_real_time ());
  return cg_store_step_done (run->store, stmt, error);
}

static void
write_done (CrawlRun *run,
            WriteJob *job)
{
  g_autoptr(GError) error = NULL;
  const CgWarcRecordInfo *last;
  GBytes *payload;
  gint64 file_id;

  run->pending_writes--;

  if (job->error != NULL)
    {
      /* Nothing of this page is committed: it stays in flight and a
       * resumed crawl fetches it again. */
      fail_run (run, g_error_new (CG_CRAWLER_ERROR, CG_CRAWLER_ERROR_WARC,
                                  _("Cannot write the WARC file: %s"), job->error->message));
      return;
    }
  if (run->error != NULL)
    {
      /* Once the run has failed, nothing more is committed: a page whose
       * exchange was written but whose metadata record was not has left
       * its records in the file, and committing a later record would move
       * the committed size past them, so that resuming would keep them
       * and archive the page a second time. These pages stay in flight
       * and their records are cut when the crawl resumes. */
      return;
    }

  /* The writer keeps a page's records in one file (see
   * cg_warc_writer_set_max_file_size()): the file of the last is the
   * file of the response the fetch row points at. */
  last = job->metadata_info != NULL ? job->metadata_info : job->response_info;
  if (!ensure_transaction (run, &error) ||
      (file_id = warc_file_id (run, last->file_name, &error)) < 0 ||
      !note_warc_end (run, file_id, last, &error))
    {
      spoil_run (run, g_steal_pointer (&error));
      return;
    }
  run->warc_bytes += job->request_info->length + job->response_info->length +
                     (job->metadata_info != NULL ? job->metadata_info->length : 0);
  run->documents++;

  if (job->item == NULL)
    {
      GBytes *hop_payload = cg_fetch_result_get_payload (job->result);
      g_autofree char *attempts = g_strdup_printf ("%ut", cg_fetch_result_get_n_attempts (job->result));

      /* A robots.txt hop: logged once archived, with its digest, as a
       * page is; its answer is kept with the host. */
      log_line (run, (int) cg_fetch_result_get_status (job->result),
                hop_payload != NULL ? (gint64) g_bytes_get_size (hop_payload) : 0,
                cg_fetch_result_get_url (job->result), "P", NULL, cg_fetch_result_get_content_type (job->result),
                cg_fetch_result_get_start_time (job->result), cg_fetch_result_get_duration (job->result),
                job->response_info->payload_digest, attempts);
      if (job->robots_host_id > 0 && !store_robots (run, job->robots_host_id, job->result, &error))
        {
          spoil_run (run, g_steal_pointer (&error));
          return;
        }
      changed (run);
      return;
    }

  if (!insert_fetch (run, job, job->item->id, file_id, &error) ||
      !cg_frontier_finish (run->frontier, job->item, CG_URL_DONE, NULL, job->host_ready_at, &error))
    {
      spoil_run (run, g_steal_pointer (&error));
      return;
    }
  /* Found in the store from now on. */
  if (job->payload_digest != NULL && job->revisit_uri == NULL)
    g_hash_table_remove (run->queued_payloads, job->payload_digest);

  payload = cg_fetch_result_get_payload (job->result);
  {
    const char *via = job->item->via_url;
    g_autofree char *annotations = NULL;

    const char *truncation = truncation_annotation (cg_fetch_result_get_truncated (job->result));

    annotations = g_strdup_printf ("%s%s%ut",
                                   job->revisit_uri != NULL && job->revisit_profile != NULL ? "not-modified,"
                                   : job->revisit_uri != NULL ? "duplicate:digest," : "",
                                   truncation != NULL ? truncation : "",
                                   cg_fetch_result_get_n_attempts (job->result));
    log_line (run, (int) cg_fetch_result_get_status (job->result),
              payload != NULL ? (gint64) g_bytes_get_size (payload) : 0,
              job->item->url, job->item->hops, via, cg_fetch_result_get_content_type (job->result),
              cg_fetch_result_get_start_time (job->result), cg_fetch_result_get_duration (job->result),
              job->payload_digest != NULL ? job->payload_digest : job->response_info->payload_digest,
              annotations);
  }
  changed (run);
}

typedef struct {
  char *url;
  char *warc_date;
  char *mime;
} QueuedPayload;

static void
queued_payload_free (QueuedPayload *queued)
{
  g_free (queued->url);
  g_free (queued->warc_date);
  g_free (queued->mime);
  g_free (queued);
}

static void
queue_write (CrawlRun *run,
             WriteJob *job)
{
  /* A page's full response: the pages queued after it with the same
   * payload refer to it. They are written after it in the same order, and
   * committed after it (write_done() goes in file order), so that a
   * revisit never outlives the record it refers to. */
  if (job->item != NULL && job->payload_digest != NULL && job->revisit_uri == NULL &&
      !g_hash_table_contains (run->queued_payloads, job->payload_digest))
    {
      QueuedPayload *queued = g_new0 (QueuedPayload, 1);
      g_autoptr(GDateTime) date = g_date_time_new_from_unix_utc (cg_fetch_result_get_start_time (job->result) /
                                                                 G_USEC_PER_SEC);

      queued->url = g_strdup (cg_fetch_result_get_url (job->result));
      queued->warc_date = cg_warc_format_date (date);
      queued->mime = g_strdup (cg_fetch_result_get_content_type (job->result));
      g_hash_table_insert (run->queued_payloads, g_strdup (job->payload_digest), queued);
    }
  job->run = run;
  run->pending_writes++;
  g_async_queue_push (run->write_queue, job);
}

/* ------------------------------------------------------------------ */
/* Links                                                               */

typedef struct {
  CrawlRun         *run;
  const CgFrontierItem *item;
  GPtrArray        *outlinks;
  GError           *error;
} LinkContext;

/* How many redirects led to the URL whose hop path is @hops. */
static guint
redirect_chain_length (const char *hops)
{
  gsize length = hops != NULL ? strlen (hops) : 0;
  guint n = 0;

  while (n < length && hops[length - 1 - n] == (char) CG_HOP_REDIRECT)
    n++;
  return n;
}

/* Calls the driver's page() with everything the crawl did committed and
 * no transaction open (see CgCrawlDriver), then opens one again if one
 * was open. */
static void
call_driver_page (CrawlRun     *run,
                  const char   *requested,
                  const char   *final_url,
                  guint         status,
                  const char   *content_type,
                  GBytes       *body,
                  gint64        url_id)
{
  g_autoptr(GError) error = NULL;
  gboolean was_open = run->in_transaction;

  if (!commit (run, &error))
    fail_run (run, g_steal_pointer (&error));
  run->crawler->driver.page (run->crawler->driver.user_data, requested, final_url, status, content_type,
                             body, url_id);
  if (was_open && !ensure_transaction (run, &error))
    fail_run (run, g_steal_pointer (&error));
}

/* Tells the driver what became of a URL it asked for, if @url is one
 * (or is where one's redirects led). Returns TRUE when it did. */
static gboolean
report_to_driver (CrawlRun      *run,
                  const char    *url,
                  gboolean       fetched,
                  CgFetchResult *result,
                  gint64         url_id)
{
  g_autofree char *awaited = NULL;
  g_autofree char *requested = NULL;
  GBytes *body = NULL;

  if (!run->crawler->driven ||
      !g_hash_table_steal_extended (run->requested, url, (gpointer *) &awaited, (gpointer *) &requested))
    return FALSE;
  if (fetched && result != NULL)
    body = cg_fetch_result_get_decoded_payload (result);
  call_driver_page (run, requested, fetched ? url : NULL,
                    result != NULL && cg_fetch_result_has_response (result) ? cg_fetch_result_get_status (result) : 0,
                    result != NULL ? cg_fetch_result_get_content_type (result) : NULL,
                    body, url_id);
  return TRUE;
}

/* What a parser worked out for one link of a page, so that the crawl
 * thread, which limits the pages per second, need not. */
typedef struct {
  char  *host_key;     /* NULL: no URL the crawl can fetch */
  char  *anchor_json;  /* the anchor text as a JSON string, or NULL */
  gsize  anchor_json_length;
  guint  url_hash;     /* cg_seen_cache_hash_url() of the URL */
} LinkTarget;

static void
link_target_clear (gpointer data)
{
  LinkTarget *target = data;

  g_free (target->host_key);
  g_free (target->anchor_json);
}

/* One edge of the link graph on its way to the database. @anchor_json is
 * borrowed: it belongs to the page's link targets, which outlive the
 * flush. */
typedef struct {
  gint64      from_id;
  gint64      to_id;
  char        hop;
  const char *anchor_json;
  gsize       anchor_json_length;
  gint64      target_key;   /* to_id and hop in one, for flush_links() */
} Edge;

/* One edge of the link graph, stored with the others of its page by
 * flush_links(). */
static void
insert_link (CrawlRun    *run,
             gint64       from_id,
             gint64       to_id,
             char         hop_char,
             const char  *anchor_json,
             gsize        anchor_json_length)
{
  Edge edge = {
    .from_id = from_id,
    .to_id = to_id,
    .hop = hop_char,
    .anchor_json = anchor_json,
    .anchor_json_length = anchor_json_length,
    /* Hops are ASCII letters and URL ids are far below 2^55. */
    .target_key = to_id << 8 | (guchar) hop_char,
  };

  g_array_append_val (run->edges, edge);
}

/* Stores the edges gathered since the last flush: a page's edges are one
 * row of outlinks, a JSON array of [target id, hop, anchor] in the order
 * of the page, the first edge of each target and hop kept. A row per edge
 * made storing the link graph about a tenth of the crawl thread's work in
 * the crawl throughput benchmark (tests/bench): 26 rows a page there, each
 * an insertion into an index. */
static gboolean
flush_links (CrawlRun  *run,
             GError   **error)
{
  guint first = 0;
  gboolean ok = TRUE;

  while (ok && first < run->edges->len)
    {
      gint64 from_id = g_array_index (run->edges, Edge, first).from_id;
      guint end = first;
      sqlite3_stmt *stmt;

      g_string_assign (run->outlinks, "[");
      for (; end < run->edges->len && g_array_index (run->edges, Edge, end).from_id == from_id; end++)
        {
          Edge *edge = &g_array_index (run->edges, Edge, end);

          if (!g_hash_table_add (run->targets_stored, &edge->target_key))
            continue;
          if (run->outlinks->len > 1)
            g_string_append_c (run->outlinks, ',');
          g_string_append_c (run->outlinks, '[');
          cg_format_append_decimal (run->outlinks, edge->to_id, 0, ' ');
          g_string_append (run->outlinks, ",\"");
          g_string_append_c (run->outlinks, edge->hop);
          g_string_append (run->outlinks, "\",");
          if (edge->anchor_json != NULL)
            g_string_append_len (run->outlinks, edge->anchor_json, (gssize) edge->anchor_json_length);
          else
            g_string_append (run->outlinks, "null");
          g_string_append_c (run->outlinks, ']');
        }
      g_string_append_c (run->outlinks, ']');
      g_hash_table_remove_all (run->targets_stored);

      stmt = run_stmt (run, RUN_STMT_INSERT_OUTLINKS, error);
      ok = stmt != NULL;
      if (ok)
        {
          sqlite3_bind_int64 (stmt, 1, from_id);
          sqlite3_bind_text (stmt, 2, run->outlinks->str, (int) run->outlinks->len, SQLITE_STATIC);
          ok = run_stmt_done (run, stmt, error);
          sqlite3_clear_bindings (stmt);
        }
      if (ok)
        changed (run);
      first = end;
    }
  g_array_set_size (run->edges, 0);
  return ok;
}

/* @anchor_json: the anchor text as a JSON string, or NULL, and its
 * length
 * @known_host_key: the host key of @url if the caller has it, else NULL. */
static gboolean
add_link (CrawlRun              *run,
          const CgFrontierItem  *item,
          const char            *url,
          guint                  url_hash,
          CgHopType              hop,
          const char            *anchor_json,
          gsize                  anchor_json_length,
          const char            *known_host_key,
          GError               **error)
{
  g_autofree char *own_host_key = NULL;
  const char *host_key = known_host_key;
  g_autofree char *detail = NULL;
  g_autofree char *hops = NULL;
  CgScopeVerdict verdict;
  guint depth = item->depth + (hop == CG_HOP_REDIRECT ? 0 : 1);
  gint64 to_id = 0;
  char hop_char = cg_hop_type_to_char (hop);

  /* A driven crawl follows the requisites of its pages and the redirects
   * of the URLs it was given; its driver chooses the rest. */
  if (run->crawler->driven && (hop == CG_HOP_NAVLINK || hop == CG_HOP_SUBMIT))
    return TRUE;

  /* A URL seen already is neither checked nor queued again: only the
   * edge is new. Redirects go the long way, since a driven crawl follows
   * where they lead, and so does a URL that may have been skipped for the
   * way it was reached, which this way may bring into scope. */
  if (hop != CG_HOP_REDIRECT && !cg_frontier_may_be_skipped (run->frontier, url_hash) &&
      cg_frontier_lookup_seen (run->frontier, url, url_hash, &to_id))
    {
      insert_link (run, item->id, to_id, hop_char, anchor_json, anchor_json_length);
      return TRUE;
    }

  if (host_key == NULL)
    host_key = own_host_key = cg_url_get_host_key (url, NULL);
  if (host_key == NULL)
    return TRUE;
  hops = g_strdup_printf ("%s%c", item->hops != NULL ? item->hops : "", hop_char);

  verdict = cg_scope_check (run->scope, url, depth, hop, &detail);
  if (verdict == CG_SCOPE_IN_SCOPE && hop == CG_HOP_REDIRECT &&
      redirect_chain_length (item->hops) >= MAX_REDIRECT_CHAIN)
    {
      if (!cg_frontier_add_skipped (run->frontier, url, host_key, (int) depth, hops, item->id,
                                    "too-many-redirects", TRUE, &to_id, error))
        return FALSE;
    }
  else if (verdict == CG_SCOPE_IN_SCOPE)
    {
      /* Requisites before the next level's pages, so that pages replay
       * soon after they are archived. */
      int priority = hop == CG_HOP_EMBED || hop == CG_HOP_SPECULATIVE ? (int) item->depth : (int) depth;

      if (!cg_frontier_add (run->frontier, url, host_key, (int) depth, hops, item->id, priority,
                            &to_id, NULL, error))
        return FALSE;
    }
  /* Too deep this way, or a requisite when those are not fetched: a
   * shorter way, or a link, may still reach it in scope. */
  else if (!cg_frontier_add_skipped (run->frontier, url, host_key, (int) depth, hops, item->id,
                                     cg_scope_verdict_to_string (verdict),
                                     verdict == CG_SCOPE_TOO_DEEP || verdict == CG_SCOPE_REQUISITES_OFF,
                                     &to_id, error))
    return FALSE;

  if (hop == CG_HOP_REDIRECT && run->crawler->driven)
    {
      g_autofree char *awaited = NULL;
      g_autofree char *requested = NULL;

      /* The driver's URL now waits for where its redirect leads, unless
       * that cannot be fetched. */
      if (g_hash_table_steal_extended (run->requested, item->url, (gpointer *) &awaited, (gpointer *) &requested))
        {
          if (verdict == CG_SCOPE_IN_SCOPE && redirect_chain_length (item->hops) < MAX_REDIRECT_CHAIN &&
              !g_hash_table_contains (run->requested, url))
            g_hash_table_insert (run->requested, g_strdup (url), g_steal_pointer (&requested));
          else
            {
              g_hash_table_insert (run->requested, g_strdup (url), g_steal_pointer (&requested));
              report_to_driver (run, url, FALSE, NULL, 0);
            }
        }
    }

  insert_link (run, item->id, to_id, hop_char, anchor_json, anchor_json_length);
  return TRUE;
}

/* @targets: a LinkTarget for each link, as the parser found. */
static gboolean
add_links (CrawlRun              *run,
           const CgFrontierItem  *item,
           GPtrArray             *links,
           GArray                *targets,
           GError               **error)
{
  for (guint i = 0; i < links->len; i++)
    {
      const CgLink *link = g_ptr_array_index (links, i);
      const LinkTarget *target = &g_array_index (targets, LinkTarget, i);

      /* A link whose host key the parser could not find is no URL the
       * crawl can fetch, as add_link() would find again. */
      if (target->host_key == NULL)
        continue;
      if (!add_link (run, item, link->url, target->url_hash, link->hop, target->anchor_json,
                     target->anchor_json_length, target->host_key, error))
        return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Fetching                                                            */

typedef struct {
  CrawlRun       *run;
  CgFrontierItem *item;
  /* A conditional request: what was sent, and the digest of the copy. */
  char           *etag;
  char           *last_modified;
  char           *earlier_digest;
} FetchData;

static void
fetch_data_free (FetchData *data)
{
  g_free (data->etag);
  g_free (data->last_modified);
  g_free (data->earlier_digest);
  g_free (data);
}

static void handle_item (CrawlRun *run, CgFrontierItem *item);

/* Steps @stmt (RUN_STMT_FIND_DUPLICATE) to the first response that is
 * in a WARC file still there; FALSE when there is none. */
static gboolean
find_readable_response (CrawlRun     *run,
                        sqlite3_stmt *stmt)
{
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      gint64 file_id = sqlite3_column_int64 (stmt, 4);

      if (run->missing_warc_files == NULL || !g_hash_table_contains (run->missing_warc_files, &file_id))
        return TRUE;
    }
  return FALSE;
}

/* Whether the project holds a response with @payload_digest in a WARC
 * file that is still there. A read error is taken as none. */
static gboolean
has_readable_response (CrawlRun   *run,
                       const char *payload_digest)
{
  sqlite3_stmt *stmt = run_stmt (run, RUN_STMT_FIND_DUPLICATE, NULL);
  gboolean found;

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, payload_digest, -1, SQLITE_STATIC);
  found = find_readable_response (run, stmt);
  sqlite3_reset (stmt);
  return found;
}

/* Finds an earlier response with the same payload, in any crawl of the
 * project, so that a revisit record refers to it instead of a copy;
 * @out_mime (may be NULL) gets its type. Best-effort: a read error is
 * taken as no earlier response, which archives the page in full, costing
 * space and losing nothing (a damaged database fails the run at its next
 * write). */
static gboolean
find_duplicate (CrawlRun    *run,
                WriteJob    *job,
                char       **out_mime)
{
  sqlite3_stmt *stmt = run_stmt (run, RUN_STMT_FIND_DUPLICATE, NULL);

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, job->payload_digest, -1, SQLITE_STATIC);
  if (find_readable_response (run, stmt))
    {
      job->revisit_uri = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
      job->revisit_date = g_strdup ((const char *) sqlite3_column_text (stmt, 1));
      job->revisit_id = g_strdup ((const char *) sqlite3_column_text (stmt, 2));
      if (out_mime != NULL)
        *out_mime = g_strdup ((const char *) sqlite3_column_text (stmt, 3));
    }
  else
    {
      /* Queued, not yet written: its record id is not known, and
       * WARC-Refers-To, which may be left out, is. */
      QueuedPayload *queued = g_hash_table_lookup (run->queued_payloads, job->payload_digest);

      if (queued != NULL)
        {
          job->revisit_uri = g_strdup (queued->url);
          job->revisit_date = g_strdup (queued->warc_date);
          if (out_mime != NULL)
            *out_mime = g_strdup (queued->mime);
        }
    }
  sqlite3_reset (stmt);
  return job->revisit_uri != NULL && job->revisit_date != NULL;
}

static void
fetch_failed (CrawlRun       *run,
              CgFrontierItem *item,
              CgFetchResult  *result)
{
  g_autoptr(GError) error = NULL;
  const char *via = item->via_url;
  g_autofree char *annotations = NULL;
  const GError *fetch_error = cg_fetch_result_get_error (result);
  gint64 now = g_get_real_time ();
  int status = status_for_error (fetch_error);

  if (!ensure_transaction (run, &error) ||
      !cg_frontier_finish (run->frontier, item, CG_URL_FAILED,
                           fetch_error != NULL ? fetch_error->message : NULL,
                           politeness_ready_at (run, item->url, now, cg_fetch_result_get_duration (result)),
                           &error))
    {
      fail_run (run, g_steal_pointer (&error));
      return;
    }
  /* The error message is kept in the URL's reason; the log says how many
   * attempts were made, as it does for fetches that succeeded. */
  annotations = g_strdup_printf ("%ut", cg_fetch_result_get_n_attempts (result));
  log_line (run, status, -1, item->url, item->hops, via, NULL,
            cg_fetch_result_get_start_time (result), cg_fetch_result_get_duration (result), NULL,
            annotations);
  report_failure (run, item->url, fetch_error != NULL ? fetch_error->message : _("The fetch failed"));
  report_to_driver (run, item->url, FALSE, result, item->id);
  changed (run);
}

/* What a parser does with a fetched page. */
typedef enum {
  PARSE_NONE,   /* only the payload digest */
  PARSE_HTML,
  PARSE_CSS,
} ParseKind;

/* A fetched page on its way through a parser thread. The parser reads the
 * page and fills in what it finds; nothing else touches the page until
 * the parser hands it back to the crawl thread (parse_done()). */
typedef struct {
  CrawlRun              *run;
  WriteJob              *job;
  ParseKind              kind;
  gboolean               digest;
  CgWarcDigestAlgorithm  algorithm;
  char                  *content_type;  /* with its charset, for HTML */
  /* Filled by the parser. */
  GPtrArray             *links;         /* CgLink * */
  GArray                *targets;       /* LinkTarget, one per link */
  char                  *payload_digest;
  GError                *link_error;
} ParseJob;

static void
parse_job_free (ParseJob *parse)
{
  g_free (parse->content_type);
  g_clear_pointer (&parse->links, g_ptr_array_unref);
  g_clear_pointer (&parse->targets, g_array_unref);
  g_free (parse->payload_digest);
  g_clear_error (&parse->link_error);
  g_free (parse);
}

/* In a parser thread: the links of a page, what the crawl thread needs of
 * each (see LinkTarget), the outlinks of its metadata record and its
 * payload digest. */
static void
parse_page (ParseJob        *parse,
            CgLinkExtractor *extractor)
{
  WriteJob *job = parse->job;
  GBytes *decoded = cg_fetch_result_get_decoded_payload (job->result);
  GBytes *payload = cg_fetch_result_get_payload (job->result);
  const char *url = job->item->url;

  if (parse->kind == PARSE_HTML)
    parse->links = cg_link_extractor_extract_html (extractor, g_bytes_get_data (decoded, NULL),
                                                   g_bytes_get_size (decoded), url, parse->content_type,
                                                   &parse->link_error);
  else if (parse->kind == PARSE_CSS)
    parse->links = cg_links_extract_css (g_bytes_get_data (decoded, NULL), g_bytes_get_size (decoded),
                                         url, &parse->link_error);
  if (parse->links != NULL)
    {
      /* The links of a page mostly share a scheme and authority, and the
       * same "scheme://authority" has the same host key: it is worked out
       * once for each run of links that share one. */
      const char *previous_url = NULL;
      const char *previous_key = NULL;
      gsize previous_end = 0;

      parse->targets = g_array_sized_new (FALSE, TRUE, sizeof (LinkTarget), parse->links->len);
      g_array_set_clear_func (parse->targets, link_target_clear);
      for (guint i = 0; i < parse->links->len; i++)
        {
          const CgLink *link = g_ptr_array_index (parse->links, i);
          gsize end = cg_url_get_authority_end (link->url);
          LinkTarget target = { .url_hash = cg_seen_cache_hash_url (link->url) };

          if (previous_key != NULL && end > 0 && end == previous_end &&
              strncmp (link->url, previous_url, end) == 0)
            target.host_key = g_strdup (previous_key);
          else
            target.host_key = cg_url_get_host_key (link->url, NULL);
          if (link->text != NULL && *link->text != '\0')
            {
              GString *json = g_string_sized_new (strlen (link->text) + 8);

              cg_json_append_string (json, link->text);
              target.anchor_json_length = json->len;
              target.anchor_json = g_string_free (json, FALSE);
            }
          g_array_append_val (parse->targets, target);
          previous_url = link->url;
          previous_key = target.host_key;
          previous_end = end;
          g_ptr_array_add (job->outlinks, g_strconcat (link->url, " ", (char[]) { cg_hop_type_to_char (link->hop), '\0' },
                                                       " ", link->element, "/@", link->attribute, NULL));
        }
    }
  if (parse->digest)
    parse->payload_digest = cg_warc_digest_compute (parse->algorithm, g_bytes_get_data (payload, NULL),
                                                    g_bytes_get_size (payload));
  inbox_push (parse->run, &parse->run->parsed, parse);
}

static gpointer
parser_thread_main (gpointer user_data)
{
  CrawlRun *run = user_data;
  g_autoptr(CgLinkExtractor) extractor = cg_link_extractor_new ();
  ParseJob *parse;

  /* A job whose run is NULL is the signal to stop. */
  while ((parse = pop_after_nap (run->parse_queue))->run != NULL)
    parse_page (parse, extractor);
  g_free (parse);
  return NULL;
}

/* The end of a fetched page's way through the crawl thread: its links go
 * to the frontier, its driver hears of it, and its records are queued for
 * writing. @links and @targets come from a parser, or are NULL. */
static gboolean
finish_page (CrawlRun   *run,
             WriteJob   *job,
             GPtrArray  *links,
             GArray     *targets,
             GError    **error)
{
  CgFrontierItem *item = job->item;

  if (!ensure_transaction (run, error))
    return FALSE;
  if (links != NULL && !add_links (run, item, links, targets, error))
    {
      g_array_set_size (run->edges, 0);
      return FALSE;
    }
  /* Before the page's records are queued: the page is done only once its
   * edges are in the database, so that none is lost to a kill. */
  if (!flush_links (run, error))
    return FALSE;
  if (!cg_fetch_result_is_redirect (job->result) &&
      report_to_driver (run, item->url, TRUE, job->result, item->id) &&
      run->crawler->driver.page_fields != NULL)
    job->fields = run->crawler->driver.page_fields (run->crawler->driver.user_data, item->url, item->id);
  queue_write (run, job);
  return TRUE;
}

static void
parse_done (CrawlRun *run,
            ParseJob *parse)
{
  WriteJob *job = g_steal_pointer (&parse->job);
  g_autoptr(GError) error = NULL;

  run->parsing--;
  /* A page whose links cannot be read is still archived as it is. */
  if (parse->link_error != NULL)
    g_debug ("No links from %s: %s", job->item->url, parse->link_error->message);

  if (run->error != NULL)
    {
      /* The run has failed: nothing more is committed, and the page,
       * still in flight in the database, is fetched again on resuming. */
      write_job_free (job);
    }
  else
    {
      if (parse->payload_digest != NULL)
        {
          job->payload_digest = g_steal_pointer (&parse->payload_digest);
          find_duplicate (run, job, NULL);
        }
      /* The links go with the page, to be freed by the writer thread. */
      job->spent_links = g_steal_pointer (&parse->links);
      job->spent_targets = g_steal_pointer (&parse->targets);
      if (!finish_page (run, job, job->spent_links, job->spent_targets, &error))
        {
          write_job_free (job);
          fail_run (run, g_steal_pointer (&error));
        }
    }
  parse_job_free (parse);
}

/* ------------------------------------------------------------------ */
/* The inbox of the crawl thread                                       */

static gboolean
inbox_drain_cb (gpointer user_data)
{
  CrawlRun *run = user_data;
  GQueue parsed;
  GQueue written;
  gpointer item;

  g_mutex_lock (&run->inbox_lock);
  parsed = run->parsed;
  written = run->written;
  g_queue_init (&run->parsed);
  g_queue_init (&run->written);
  run->inbox_woken = FALSE;
  g_mutex_unlock (&run->inbox_lock);

  /* Written pages first, in the order of their records in the file (see
   * write_done()): they free room for the pages the parsers hand over. */
  while ((item = g_queue_pop_head (&written)) != NULL)
    {
      write_done (run, item);
      write_job_free (item);
    }
  while ((item = g_queue_pop_head (&parsed)) != NULL)
    parse_done (run, item);
  pump (run);
  return G_SOURCE_REMOVE;
}

/* Hands @item to the crawl thread, from a parser or the writer thread.
 * Only the first item of a batch wakes the crawl thread; the rest join
 * it until the crawl thread takes them all. One wake-up and one call of
 * pump() per page each way was a large part of the crawl thread's work
 * in the crawl throughput benchmark (tests/bench). */
static void
inbox_push (CrawlRun *run,
            GQueue   *queue,
            gpointer  item)
{
  gboolean wake;

  g_mutex_lock (&run->inbox_lock);
  g_queue_push_tail (queue, item);
  wake = !run->inbox_woken;
  run->inbox_woken = TRUE;
  g_mutex_unlock (&run->inbox_lock);
  if (wake)
    cg_dispatch_to_context (run->context, inbox_drain_cb, run, NULL);
}

static void
fetch_done_cb (GObject      *source,
               GAsyncResult *async_result,
               gpointer      user_data)
{
  FetchData *data = user_data;
  CrawlRun *run = data->run;
  CgFrontierItem *item = data->item;
  g_autoptr(CgFetchResult) result = cg_fetcher_fetch_finish (CG_FETCHER (source), async_result);
  g_autoptr(GError) error = NULL;
  const GError *fetch_error = cg_fetch_result_get_error (result);
  const char *content_type;
  GBytes *payload;
  WriteJob *job;
  guint64 received;
  gint64 now = g_get_real_time ();
  g_autofree char *sent_etag = g_steal_pointer (&data->etag);
  g_autofree char *sent_last_modified = g_steal_pointer (&data->last_modified);
  g_autofree char *earlier_digest = g_steal_pointer (&data->earlier_digest);

  fetch_data_free (data);
  run->in_flight--;

  if (g_error_matches (fetch_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* Stopped: the URL stays in flight in the database and is fetched
       * again when the crawl resumes. */
      cg_frontier_item_free (item);
      pump (run);
      return;
    }

  if (!cg_fetch_result_has_response (result))
    {
      fetch_failed (run, item, result);
      cg_frontier_item_free (item);
      pump (run);
      return;
    }

  payload = cg_fetch_result_get_payload (result);
  content_type = cg_fetch_result_get_content_type (result);
  received = g_bytes_get_size (payload) + g_bytes_get_size (cg_fetch_result_get_response_header_block (result));
  run->bytes += received;
  cg_bandwidth_consume (run->crawler->bandwidth, received, now);

  job = g_new0 (WriteJob, 1);
  job->item = item;
  job->result = cg_fetch_result_ref (result);
  job->outlinks = g_ptr_array_new_with_free_func (g_free);
  job->host_ready_at = politeness_ready_at (run, item->url, now, cg_fetch_result_get_duration (result));
  /* The server is done with this request: its host may be asked again
   * (after the politeness delay) while the page is parsed and written. */
  cg_frontier_release_host (run->frontier, item, job->host_ready_at);
  job->sent_etag = g_steal_pointer (&sent_etag);
  job->sent_last_modified = g_steal_pointer (&sent_last_modified);

  if (!ensure_transaction (run, &error))
    goto failed;

  if (cg_fetch_result_is_not_modified (result) && earlier_digest != NULL)
    {
      /* The server says the copy archived earlier is current: the 304 is
       * archived as a revisit (server-not-modified profile) that refers
       * to the response holding that copy. If that response cannot be
       * found, the 304 is archived as it came. */
      job->payload_digest = g_steal_pointer (&earlier_digest);
      if (find_duplicate (run, job, &job->revisit_mime))
        job->revisit_profile = CG_WARC_REVISIT_PROFILE_NOT_MODIFIED;
      else
        {
          g_clear_pointer (&job->payload_digest, g_free);
          g_clear_pointer (&job->revisit_uri, g_free);
          g_clear_pointer (&job->revisit_date, g_free);
          g_clear_pointer (&job->revisit_id, g_free);
          g_clear_pointer (&job->revisit_mime, g_free);
        }
    }
  cg_scope_record_fetch (run->scope, received, is_html (job->revisit_mime != NULL ? job->revisit_mime : content_type));

  if (cg_fetch_result_is_redirect (result))
    {
      const char *location = cg_fetch_result_get_location (result);

      g_ptr_array_add (job->outlinks, g_strdup_printf ("%s R Location", location));
      if (!add_link (run, item, location, cg_seen_cache_hash_url (location), CG_HOP_REDIRECT, NULL, 0, NULL, &error))
        goto failed;
    }
  else if (cg_fetch_result_get_status (result) / 100 == 2)
    {
      GBytes *decoded = cg_fetch_result_get_decoded_payload (result);
      ParseKind kind = PARSE_NONE;
      gboolean digest = g_bytes_get_size (payload) > 0 &&
                        cg_fetch_result_get_truncated (result) == CG_FETCH_TRUNCATED_NONE;

      if (decoded != NULL && is_html (content_type))
        kind = PARSE_HTML;
      else if (decoded != NULL && g_strcmp0 (content_type, "text/css") == 0)
        kind = PARSE_CSS;
      if (kind != PARSE_NONE || digest)
        {
          ParseJob *parse = g_new0 (ParseJob, 1);

          parse->run = run;
          parse->job = job;
          parse->kind = kind;
          parse->digest = digest;
          parse->algorithm = run->config->digest;
          if (kind == PARSE_HTML)
            parse->content_type = g_strdup_printf ("%s%s%s", content_type,
                                                   cg_fetch_result_get_charset (result) != NULL ? "; charset=" : "",
                                                   cg_fetch_result_get_charset (result) != NULL
                                                     ? cg_fetch_result_get_charset (result) : "");
          run->parsing++;
          g_async_queue_push (run->parse_queue, parse);
          pump (run);
          return;
        }
    }

  if (!finish_page (run, job, NULL, NULL, &error))
    goto failed;
  pump (run);
  return;

failed:
  g_array_set_size (run->edges, 0);
  write_job_free (job);
  fail_run (run, g_steal_pointer (&error));
}

static void
start_fetch (CrawlRun       *run,
             CgFrontierItem *item)
{
  FetchData *data = g_new0 (FetchData, 1);
  CgCrawlDriver *driver = &run->crawler->driver;
  CgFetchOptions options = { 0 };
  gboolean conditional = FALSE;

  data->run = run;
  data->item = item;
  if (run->crawler->driven && driver->validators != NULL &&
      driver->validators (driver->user_data, item->url, &data->etag, &data->last_modified, &data->earlier_digest))
    {
      /* A 304 stands for the earlier copy: the revisit refers to it and
       * the driver reads it (a harvest follows its links). One whose
       * every copy is in a WARC file no longer there (see
       * find_missing_warc_files()) is asked for in full instead. */
      if (data->earlier_digest != NULL && !has_readable_response (run, data->earlier_digest))
        {
          g_clear_pointer (&data->etag, g_free);
          g_clear_pointer (&data->last_modified, g_free);
          g_clear_pointer (&data->earlier_digest, g_free);
        }
      options.if_none_match = data->etag;
      options.if_modified_since = data->last_modified;
      conditional = data->etag != NULL || data->last_modified != NULL;
    }
  run->in_flight++;
  cg_fetcher_fetch_async (run->fetcher, item->url, conditional ? &options : NULL, run->cancellable,
                          fetch_done_cb, data);
}

/* ------------------------------------------------------------------ */
/* robots.txt                                                          */

typedef struct {
  CrawlRun *run;
  char     *host_key;
  char     *robots_url;
  gint64    host_id;
} RobotsData;

static void
robots_done_cb (GObject      *source,
                GAsyncResult *async_result,
                gpointer      user_data)
{
  RobotsData *data = user_data;
  CrawlRun *run = data->run;
  g_autoptr(GPtrArray) hops = cg_fetcher_fetch_following_finish (CG_FETCHER (source), async_result);
  g_autoptr(GPtrArray) waiting = NULL;
  g_autofree char *waiting_key = NULL;
  g_autoptr(GError) error = NULL;
  CgFetchResult *last = g_ptr_array_index (hops, hops->len - 1);
  const GError *last_error = cg_fetch_result_get_error (last);
  gint64 now = g_get_real_time ();
  gint64 host_ready_at;
  GBytes *body;

  run->in_flight--;
  /* Stolen, key and all: the key is freed here, the items below. */
  g_hash_table_steal_extended (run->robots_waiting, data->host_key, (gpointer *) &waiting_key, (gpointer *) &waiting);

  if (g_error_matches (last_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    goto out;

  /* Every hop with a response is archived, the redirects too. */
  for (guint i = 0; i < hops->len; i++)
    {
      CgFetchResult *hop = g_ptr_array_index (hops, i);

      if (!cg_fetch_result_has_response (hop))
        {
          log_line (run, status_for_error (cg_fetch_result_get_error (hop)), -1, cg_fetch_result_get_url (hop),
                    "P", NULL, NULL, cg_fetch_result_get_start_time (hop), cg_fetch_result_get_duration (hop),
                    NULL, NULL);
          continue;
        }
      {
        WriteJob *job = g_new0 (WriteJob, 1);

        job->result = cg_fetch_result_ref (hop);
        /* The answer is stored with the host, and the hop logged, once it
         * is archived (write_done()). */
        job->robots_host_id = i == hops->len - 1 ? data->host_id : 0;
        queue_write (run, job);
      }
    }

  body = cg_fetch_result_get_decoded_payload (last);
  if (!cg_robots_cache_store (run->robots, data->robots_url,
                              cg_fetch_result_has_response (last) && last_error == NULL && !cg_fetch_result_is_redirect (last)
                                ? cg_fetch_result_get_status (last) : 0,
                              body != NULL ? g_bytes_get_data (body, NULL) : NULL,
                              body != NULL ? g_bytes_get_size (body) : 0,
                              now, &error))
    g_warning ("robots.txt of %s: %s", data->host_key, error->message);
  g_clear_error (&error);
  if (!cg_fetch_result_has_response (last) && last_error != NULL)
    g_hash_table_replace (run->robots_unreachable, g_strdup (data->host_key), g_strdup (last_error->message));
  else
    g_hash_table_remove (run->robots_unreachable, data->host_key);

  /* robots.txt was a request to the host like any other: the URLs that
   * waited for it go back to the frontier, which holds the host for the
   * politeness delay (and any Crawl-delay just read) before the next
   * request, as Heritrix does after a prerequisite. */
  host_ready_at = politeness_ready_at (run, data->robots_url, g_get_real_time (),
                                       cg_fetch_result_get_duration (last));
  if (waiting != NULL && waiting->len > 0 && !ensure_transaction (run, &error))
    {
      fail_run (run, g_steal_pointer (&error));
      goto out;
    }
  for (guint i = 0; waiting != NULL && i < waiting->len; i++)
    {
      CgFrontierItem *item = g_ptr_array_index (waiting, i);

      if (!cg_frontier_retry (run->frontier, item, 0, host_ready_at, &error))
        {
          fail_run (run, g_steal_pointer (&error));
          goto out;
        }
      changed (run);
    }

out:
  g_free (data->host_key);
  g_free (data->robots_url);
  g_free (data);
  pump (run);
}

/* Returns TRUE when @item may be fetched now; otherwise it was skipped or
 * parked until its host's robots.txt arrives. */
static gboolean
check_robots (CrawlRun       *run,
              CgFrontierItem *item)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *rule = NULL;
  gint64 now = g_get_real_time ();
  GPtrArray *waiting;

  /* A queued URL parses: links and seeds are normalized, and add_link()
   * queues none whose host it cannot find. */
  switch (cg_robots_cache_check_normalized (run->robots, item->url, now, &rule))
    {
    case CG_ROBOTS_ALLOWED:
      return TRUE;

    case CG_ROBOTS_DISALLOWED:
      {
        const char *via = item->via_url;
        /* RFC 9309 forbids fetching from a host whose robots.txt cannot
         * be fetched at all; the host is down, which is a failure, not a
         * rule of the site. */
        const char *unreachable = g_hash_table_lookup (run->robots_unreachable, item->host_key);
        g_autofree char *annotation = unreachable != NULL ? g_strdup ("robots:unreachable")
                                      : rule != NULL ? g_strdup_printf ("robots:%s", rule) : NULL;

        if (!ensure_transaction (run, &error) ||
            !cg_frontier_finish (run->frontier, item, unreachable != NULL ? CG_URL_FAILED : CG_URL_SKIPPED,
                                 unreachable != NULL ? unreachable : "robots", now, &error))
          {
            fail_run (run, g_steal_pointer (&error));
            return FALSE;
          }
        log_line (run, unreachable != NULL ? CG_FETCH_STATUS_ROBOTS_PREREQUISITE : CG_FETCH_STATUS_ROBOTS, -1,
                  item->url, item->hops, via, NULL, 0, 0, NULL, annotation);
        report_to_driver (run, item->url, FALSE, NULL, item->id);
        if (unreachable != NULL)
          {
            g_autofree char *message = g_strdup_printf (_("The host’s robots.txt could not be fetched (%s), "
                                                          "so nothing of the host is fetched"),
                                                        unreachable);

            report_failure (run, item->url, message);
          }
        else
          report_event (run, CG_CRAWL_EVENT_ROBOTS, item->url, _("Kept out by robots.txt"));
        changed (run);
        cg_frontier_item_free (item);
        return FALSE;
      }

    case CG_ROBOTS_NEED_FETCH:
    default:
      break;
    }

  waiting = g_hash_table_lookup (run->robots_waiting, item->host_key);
  if (waiting == NULL)
    {
      RobotsData *data = g_new0 (RobotsData, 1);

      data->run = run;
      data->host_key = g_strdup (item->host_key);
      data->host_id = item->host_id;
      data->robots_url = cg_robots_url_for (item->url, NULL);
      if (data->robots_url == NULL)
        {
          g_free (data->host_key);
          g_free (data);
          return TRUE;
        }
      waiting = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_frontier_item_free);
      g_hash_table_insert (run->robots_waiting, g_strdup (item->host_key), waiting);
      run->in_flight++;
      cg_fetcher_fetch_following_async (run->fetcher, data->robots_url, CG_FETCHER_ROBOTS_MAX_REDIRECTS,
                                        NULL, run->cancellable, robots_done_cb, data);
    }
  g_ptr_array_add (waiting, item);
  return FALSE;
}

static void
handle_item (CrawlRun       *run,
             CgFrontierItem *item)
{
  if (g_atomic_int_get (&run->crawler->stopping))
    {
      cg_frontier_item_free (item);
      return;
    }
  if (run->config->obey_robots && !check_robots (run, item))
    return;
  start_fetch (run, item);
}

/* ------------------------------------------------------------------ */
/* Scheduling                                                          */

static gboolean
wake_cb (gpointer user_data)
{
  CrawlRun *run = user_data;

  g_clear_pointer (&run->wake_source, g_source_unref);
  pump (run);
  return G_SOURCE_REMOVE;
}

static void
wake_in (CrawlRun *run,
         gint64    wait_us)
{
  guint ms = (guint) CLAMP ((wait_us + 999) / 1000, 1, 60 * 1000);

  if (run->wake_source != NULL)
    {
      g_source_destroy (run->wake_source);
      g_clear_pointer (&run->wake_source, g_source_unref);
    }
  run->wake_source = g_timeout_source_new (ms);
  g_source_set_callback (run->wake_source, wake_cb, run, NULL);
  g_source_attach (run->wake_source, run->context);
}

static void finish_run (CrawlRun *run);

/* Asks the driver what to fetch next and queues it. Returns FALSE when the
 * driver has nothing more: the crawl is over. */
static gboolean
queue_driver_urls (CrawlRun  *run,
                   GError   **error)
{
  CgCrawler *self = run->crawler;
  g_autoptr(GPtrArray) urls = self->driver.next_urls (self->driver.user_data);

  if (urls == NULL || urls->len == 0)
    return FALSE;

  for (guint i = 0; i < urls->len; i++)
    {
      const char *requested = g_ptr_array_index (urls, i);
      g_autofree char *url = cg_url_normalize (requested, CG_URL_NORMALIZE_CRAWL, NULL);
      g_autofree char *host_key = url != NULL ? cg_url_get_host_key (url, NULL) : NULL;
      gboolean is_new = FALSE;

      if (host_key == NULL || g_hash_table_contains (run->requested, url))
        {
          /* Not a URL, or asked for twice at once: answered at once. */
          call_driver_page (run, requested, NULL, 0, NULL, NULL, 0);
          continue;
        }
      g_hash_table_insert (run->requested, g_strdup (url), g_strdup (requested));
      if (cg_scope_check (run->scope, url, 1, CG_HOP_NAVLINK, NULL) != CG_SCOPE_IN_SCOPE)
        {
          report_to_driver (run, url, FALSE, NULL, 0);
          continue;
        }
      if (!cg_frontier_add (run->frontier, url, host_key, 1, "L", 0, 0, NULL, &is_new, error))
        return FALSE;
      if (!is_new)
        report_to_driver (run, url, FALSE, NULL, 0);
      changed (run);
    }
  return TRUE;
}

static void
maybe_finish (CrawlRun *run)
{
  if (run->in_flight == 0 && run->pending_writes == 0 && run->parsing == 0)
    finish_run (run);
}

/* Starts as many fetches as the connection cap, politeness, the bandwidth
 * schedule and the limits allow, and arranges to be called again. */
static void
pump (CrawlRun *run)
{
  CgCrawler *self = run->crawler;
  g_autoptr(GError) error = NULL;

  if (run->finishing)
    {
      maybe_finish (run);
      return;
    }
  if (g_atomic_int_get (&self->stopping))
    {
      run->finishing = TRUE;
      run->end = CG_CRAWL_END_STOPPED;
      g_cancellable_cancel (run->cancellable);
      maybe_finish (run);
      return;
    }
  if (g_atomic_int_get (&self->paused))
    return;

  while (run->in_flight < run->config->max_connections && run->pending_writes + run->parsing < MAX_PENDING_WRITES)
    {
      gint64 now = g_get_real_time ();
      gint64 wait = 0;
      CgScopeVerdict limit = cg_scope_check_limits (run->scope, now);
      CgFrontierItem *item;

      if (limit != CG_SCOPE_IN_SCOPE)
        {
          report_event (run, CG_CRAWL_EVENT_LIMIT, NULL, cg_scope_verdict_describe (limit));
          run->finishing = TRUE;
          run->end = CG_CRAWL_END_LIMIT;
          maybe_finish (run);
          return;
        }

      wait = cg_bandwidth_get_wait (self->bandwidth, now);
      if (wait > 0)
        {
          wake_in (run, wait);
          return;
        }

      if (!ensure_transaction (run, &error))
        {
          fail_run (run, g_steal_pointer (&error));
          return;
        }
      item = cg_frontier_next (run->frontier, now, &wait, &error);
      if (error != NULL)
        {
          fail_run (run, g_steal_pointer (&error));
          return;
        }
      if (item == NULL)
        {
          if (wait > 0)
            wake_in (run, wait);
          else if (cg_frontier_is_exhausted (run->frontier) && run->in_flight == 0 &&
                   run->pending_writes == 0 && run->parsing == 0 &&
                   g_hash_table_size (run->robots_waiting) == 0 &&
                   self->driven)
            {
              if (queue_driver_urls (run, &error))
                continue;
              if (error != NULL)
                {
                  fail_run (run, g_steal_pointer (&error));
                  return;
                }
              /* A driver with nothing now may have something later. */
              if (self->driver.wait != NULL && (wait = self->driver.wait (self->driver.user_data)) > 0)
                {
                  wake_in (run, wait);
                  return;
                }
              run->finishing = TRUE;
              run->end = CG_CRAWL_END_DONE;
              maybe_finish (run);
            }
          else if (cg_frontier_is_exhausted (run->frontier) && run->in_flight == 0 &&
                   run->pending_writes == 0 && run->parsing == 0 &&
                   g_hash_table_size (run->robots_waiting) == 0)
            {
              run->finishing = TRUE;
              run->end = CG_CRAWL_END_DONE;
              maybe_finish (run);
            }
          return;
        }
      changed (run);
      handle_item (run, item);
    }
}

static gboolean
tick_cb (gpointer user_data)
{
  CrawlRun *run = user_data;
  g_autoptr(GError) error = NULL;

  /* Another connection waiting for the database (the window's) has it
   * at the next tick instead of the next commit, up to a second later. */
  if ((g_get_monotonic_time () - run->committed_at >= COMMIT_INTERVAL_US || cg_store_is_awaited (run->store)) &&
      !commit (run, &error))
    {
      fail_run (run, g_steal_pointer (&error));
      return G_SOURCE_CONTINUE;
    }
  publish_stats (run);
  /* Pause, unpause and stop are noticed here at the latest. */
  pump (run);
  return G_SOURCE_CONTINUE;
}

static void
fail_run (CrawlRun *run,
          GError   *error)
{
  if (run->error == NULL)
    {
      run->error = error;
      report_event (run, CG_CRAWL_EVENT_ERROR, NULL, error->message);
    }
  else
    g_error_free (error);

  if (!run->finishing)
    {
      run->finishing = TRUE;
      run->end = CG_CRAWL_END_FAILED;
      g_cancellable_cancel (run->cancellable);
    }
  maybe_finish (run);
}

/* Fails the run when storing a page failed part-way: what the open
 * transaction holds is not committed (see CrawlRun.spoiled). */
static void
spoil_run (CrawlRun *run,
           GError   *error)
{
  run->spoiled = TRUE;
  fail_run (run, error);
}

static void
finish_run (CrawlRun *run)
{
  if (g_main_loop_is_running (run->loop))
    g_main_loop_quit (run->loop);
}

/* ------------------------------------------------------------------ */
/* Setting up and resuming                                             */

static gboolean
truncate_file (const char  *path,
               guint64      size,
               GError     **error)
{
  if (truncate (path, (off_t) size) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Cannot cut the WARC file “%s” back to %" PRIu64 " bytes: %s"),
                   path, size, g_strerror (saved_errno));
      return FALSE;
    }
  return TRUE;
}

static void
remove_index (const char *warc_path)
{
  g_autofree char *index = cg_cdxj_path_for_warc (warc_path);

  g_remove (index);
}

/* Moves the file @name of @dir into DIR/orphaned/, where no crawl writes
 * or reads, under a folder of the time it was moved: a later file of the
 * same name never replaces it. Returns the new path, or NULL with errno
 * set; @out_aside_dir (may be NULL) is the folder it went to, or was to. */
static char *
move_into_orphaned (const char  *dir,
                    const char  *name,
                    char       **out_aside_dir)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d%H%M%S");
  g_autofree char *stamp_dir = g_build_filename (dir, CG_CRAWLER_ORPHANED_DIR, stamp, NULL);
  g_autofree char *aside_dir = g_strdup (stamp_dir);
  g_autofree char *from = g_build_filename (dir, name, NULL);
  g_autofree char *to = g_build_filename (aside_dir, name, NULL);
  gboolean moved;

  for (guint n = 1; g_file_test (to, G_FILE_TEST_EXISTS); n++)
    {
      g_free (aside_dir);
      g_free (to);
      aside_dir = g_strdup_printf ("%s-%u", stamp_dir, n);
      to = g_build_filename (aside_dir, name, NULL);
    }
  moved = g_mkdir_with_parents (aside_dir, 0755) == 0 && g_rename (from, to) == 0;
  if (out_aside_dir != NULL)
    *out_aside_dir = g_steal_pointer (&aside_dir);
  return moved ? g_steal_pointer (&to) : NULL;
}

/* Moves the WARC file @name of @warc_dir, and its index, into
 * WARC_DIR/orphaned/ (see move_into_orphaned()): a later file of the same
 * name (its serial is free again) never replaces it. */
static gboolean
move_aside (const char  *warc_dir,
            const char  *name,
            GError     **error)
{
  g_autofree char *from = g_build_filename (warc_dir, name, NULL);
  g_autofree char *index_from = cg_cdxj_path_for_warc (from);
  g_autofree char *aside_dir = NULL;
  g_autofree char *to = move_into_orphaned (warc_dir, name, &aside_dir);

  if (to == NULL)
    {
      int saved_errno = errno;

      g_set_error (error, CG_CRAWLER_ERROR, CG_CRAWLER_ERROR_WARC,
                   _("Cannot move the WARC file “%s”, which the project does not list, into “%s”: %s"),
                   from, aside_dir, g_strerror (saved_errno));
      return FALSE;
    }
  if (g_file_test (index_from, G_FILE_TEST_EXISTS))
    {
      g_autofree char *index_to = cg_cdxj_path_for_warc (to);

      g_rename (index_from, index_to);
    }
  return TRUE;
}

/* Marks every WARC file of crawl @crawl_id closed. Only this crawl's:
 * another crawl of the project may have been interrupted too, and its
 * files must stay open in the database until it is resumed and cuts them
 * back to what it committed. */
static gboolean
close_warc_files (CgStore  *store,
                  gint64    crawl_id,
                  GError  **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  stmt = cg_store_prepare (store, "UPDATE warc_files SET closed = 1 WHERE crawl_id = ?1", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  return cg_store_step_done (store, stmt, error);
}

/* Makes the WARC files of crawl @crawl_id (named @warc_prefix-…) agree
 * with the database after an interrupted run: files are cut back to what
 * was committed, files with nothing committed are removed, the indexes
 * are written again and the files are marked closed. Adds the bytes cut
 * to @cut. */
static gboolean
repair_warc_files (CgStore     *store,
                   const char  *warc_dir,
                   const char  *warc_prefix,
                   gint64       crawl_id,
                   gboolean     fresh,
                   guint64     *cut,
                   guint       *moved,
                   GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GHashTable) known = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GDir) dir = NULL;
  const char *name;
  int rc;

  stmt = cg_store_prepare (store, "SELECT name, committed_size, closed FROM warc_files WHERE crawl_id = ?1", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *file = (const char *) sqlite3_column_text (stmt, 0);
      guint64 committed = (guint64) sqlite3_column_int64 (stmt, 1);
      g_autofree char *path = g_build_filename (warc_dir, file, NULL);
      GStatBuf st;

      g_hash_table_add (known, g_strdup (file));
      if (sqlite3_column_int (stmt, 2) != 0 || g_stat (path, &st) != 0)
        continue;
      if ((guint64) st.st_size > committed)
        {
          if (!truncate_file (path, committed, error))
            return FALSE;
          *cut += (guint64) st.st_size - committed;
          remove_index (path);
        }
    }
  /* A read error ends the rows too: taken for their end, the files not
   * read yet would look unknown and be removed below, archive and all. */
  if (rc != SQLITE_DONE)
    return cg_store_set_error (store, rc, error);

  dir = g_dir_open (warc_dir, 0, error);
  if (dir == NULL)
    return FALSE;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      const char *index_temp = strstr (name, ".cdxj.");

      if (index_temp != NULL)
        {
          g_autofree char *base = g_strndup (name, index_temp - name);
          g_autofree char *warc_name = g_strconcat (base, ".warc.gz", NULL);
          g_autofree char *path = g_build_filename (warc_dir, name, NULL);

          /* The temporary file of an index that was being written when the
           * run was killed (g_file_set_contents() renames it into place
           * when it is complete): the index is written again. */
          if (cg_warc_writer_is_own_file (warc_prefix, warc_name))
            g_remove (path);
        }
      else if (cg_warc_writer_is_own_file (warc_prefix, name) && !g_hash_table_contains (known, name))
        {
          g_autofree char *path = g_build_filename (warc_dir, name, NULL);
          GStatBuf st;

          /* A file of this crawl the store does not list is no part of the
           * crawl. Before its first run, the crawl has written none: the
           * file is of an earlier crawl of this number that the store no
           * longer knows (it was restored from a backup, or lost its
           * journal), and it is kept, moved aside. After, it is the one a
           * killed run began before it recorded it, whose records were
           * never committed: their pages are fetched again. */
          if (fresh)
            {
              if (!move_aside (warc_dir, name, error))
                return FALSE;
              (*moved)++;
            }
          else
            {
              if (g_stat (path, &st) == 0)
                *cut += (guint64) st.st_size;
              remove_index (path);
              g_remove (path);
            }
        }
    }

  return cg_warc_writer_recover (warc_dir, warc_prefix, NULL, error) &&
         close_warc_files (store, crawl_id, error);
}

/* A WARC file the crawl recorded but that is gone: the pages archived in
 * it are marked done and would not be fetched again, so the crawl does
 * not go on as if its archive were whole. */
static gboolean
check_warc_files_present (CrawlRun  *run,
                          GError   **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  stmt = cg_store_prepare (run->store,
                           "SELECT w.name, (SELECT count(*) FROM fetches f WHERE f.warc_file_id = w.id) "
                           "FROM warc_files w WHERE w.crawl_id = ?1 AND w.committed_size > 0",
                           error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, run->crawl_id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *name = (const char *) sqlite3_column_text (stmt, 0);
      g_autofree char *path = g_build_filename (run->warc_dir, name, NULL);
      int pages = sqlite3_column_int (stmt, 1);

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        {
          g_set_error (error, CG_CRAWLER_ERROR, CG_CRAWLER_ERROR_WARC,
                       g_dngettext (GETTEXT_PACKAGE,
                                    "The WARC file “%s” of crawl %" PRId64 " is missing, and %d page "
                                    "archived in it would be lost: put the file back to go on with the crawl",
                                    "The WARC file “%s” of crawl %" PRId64 " is missing, and %d pages "
                                    "archived in it would be lost: put the file back to go on with the crawl",
                                    pages),
                       path, run->crawl_id, pages);
          return FALSE;
        }
    }
  if (rc != SQLITE_DONE)
    return cg_store_set_error (run->store, rc, error);
  return TRUE;
}

/* The WARC files of earlier crawls that are no longer in the folder
 * (moved to other storage, deleted): what was archived only there is
 * archived again in full rather than as revisits of records no one can
 * read, and the archivist is told, once for each crawl. */
static gboolean
find_missing_warc_files (CrawlRun  *run,
                         GError   **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  gint64 last_crawl = 0;
  guint n_missing = 0;
  g_autofree char *first_missing = NULL;
  int rc;

  stmt = cg_store_prepare (run->store,
                           "SELECT id, name, crawl_id FROM warc_files WHERE crawl_id <> ?1 AND committed_size > 0 "
                           "ORDER BY crawl_id, id",
                           error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, run->crawl_id);
  for (;;)
    {
      gint64 crawl_id = 0;

      rc = sqlite3_step (stmt);
      if (rc == SQLITE_ROW)
        crawl_id = sqlite3_column_int64 (stmt, 2);
      if (n_missing > 0 && crawl_id != last_crawl)
        {
          g_autofree char *message =
            g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                          "%u WARC file of crawl %" PRId64 " is missing (%s): what was archived "
                                          "only there is archived again in full",
                                          "%u WARC files of crawl %" PRId64 " are missing (%s, …): what was "
                                          "archived only there is archived again in full",
                                          n_missing),
                             n_missing, last_crawl, first_missing);

          report_event (run, CG_CRAWL_EVENT_WARNING, NULL, message);
          n_missing = 0;
          g_clear_pointer (&first_missing, g_free);
        }
      if (rc != SQLITE_ROW)
        break;
      last_crawl = crawl_id;
      {
        g_autofree char *path = g_build_filename (run->warc_dir, (const char *) sqlite3_column_text (stmt, 1), NULL);

        if (g_file_test (path, G_FILE_TEST_EXISTS))
          continue;
        if (run->missing_warc_files == NULL)
          run->missing_warc_files = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
        g_hash_table_add (run->missing_warc_files, g_memdup2 (&(gint64) { sqlite3_column_int64 (stmt, 0) },
                                                              sizeof (gint64)));
        if (n_missing++ == 0)
          first_missing = g_steal_pointer (&path);
      }
    }
  if (rc != SQLITE_DONE)
    return cg_store_set_error (run->store, rc, error);
  return TRUE;
}

static gboolean
reconcile_warc_files (CrawlRun  *run,
                      GError   **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  guint64 cut = 0;
  guint moved = 0;
  gboolean fresh;
  int rc;

  stmt = cg_store_prepare (run->store, "SELECT state = 'created' FROM crawls WHERE id = ?1", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, run->crawl_id);
  rc = sqlite3_step (stmt);
  fresh = rc == SQLITE_ROW && sqlite3_column_int (stmt, 0) != 0;
  /* Reset before the writes below: a statement left on its row keeps its
   * read transaction open, and a connection that writes from an old read
   * transaction while another has written since fails at once with
   * "database is locked", without waiting (the window's connection writes
   * while the crawl starts). */
  sqlite3_reset (stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return cg_store_set_error (run->store, rc, error);
  if (!check_warc_files_present (run, error) || !find_missing_warc_files (run, error) ||
      !repair_warc_files (run->store, run->warc_dir, run->warc_prefix, run->crawl_id, fresh, &cut, &moved, error))
    return FALSE;
  if (cut > 0)
    {
      g_autofree char *message = g_strdup_printf (_("Cut %" PRIu64 " bytes of unfinished WARC records "
                                                    "left by an interrupted run; their pages are fetched again"),
                                                  cut);
      report_event (run, CG_CRAWL_EVENT_REPAIRED, NULL, message);
    }
  if (moved > 0)
    {
      g_autofree char *aside = g_build_filename (run->warc_dir, CG_CRAWLER_ORPHANED_DIR, NULL);
      g_autofree char *message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                               "Moved %u WARC file of this crawl that the project "
                                                               "does not list into “%s”: its records are not part "
                                                               "of the crawl",
                                                               "Moved %u WARC files of this crawl that the project "
                                                               "does not list into “%s”: their records are not part "
                                                               "of the crawl",
                                                               moved),
                                                  moved, aside);
      report_event (run, CG_CRAWL_EVENT_REPAIRED, NULL, message);
    }
  return TRUE;
}

static gboolean
load_robots (CrawlRun  *run,
             GError   **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  stmt = cg_store_prepare (run->store,
                           "SELECT host_key, robots_status, robots_body, robots_fetched_at FROM hosts "
                           "WHERE crawl_id = ?1 AND robots_fetched_at IS NOT NULL",
                           error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, run->crawl_id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *host_key = (const char *) sqlite3_column_text (stmt, 0);
      g_autofree char *url = NULL;
      g_autofree char *robots_url = NULL;

      /* The host key has no scheme; robots.txt was fetched over the seed's. */
      url = g_strdup_printf ("%s://%s/", g_str_has_suffix (host_key, ":443") ? "https" : "http", host_key);
      robots_url = cg_robots_url_for (url, NULL);
      if (robots_url == NULL)
        continue;
      cg_robots_cache_store (run->robots, robots_url, (guint) sqlite3_column_int (stmt, 1),
                             sqlite3_column_blob (stmt, 2), (gsize) sqlite3_column_bytes (stmt, 2),
                             sqlite3_column_int64 (stmt, 3), NULL);
    }
  /* A read error ends the rows too: the run stops there rather than go
   * on with a database it cannot read, asking the hosts not read for
   * their robots.txt again. */
  if (rc != SQLITE_DONE)
    return cg_store_set_error (run->store, rc, error);
  return TRUE;
}

static gboolean
restore_counters (CrawlRun  *run,
                  GError   **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  stmt = cg_store_prepare (run->store,
                           "SELECT count(CASE WHEN mime IN ('text/html', 'application/xhtml+xml') THEN 1 END), "
                           "  coalesce(sum(size), 0) FROM fetches WHERE crawl_id = ?1",
                           error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, run->crawl_id);
  /* An aggregate always has its row; without it the read failed, and
   * counters left at zero would let the run go past its limits. */
  if ((rc = sqlite3_step (stmt)) != SQLITE_ROW)
    return cg_store_set_error (run->store, rc, error);
  cg_scope_set_counters (run->scope, (guint64) sqlite3_column_int64 (stmt, 0),
                         (guint64) sqlite3_column_int64 (stmt, 1));
  run->bytes = (guint64) sqlite3_column_int64 (stmt, 1);
  return TRUE;
}

/* Whether @hops is that of a URL the driver asked for ("L") or of where
 * its redirects led ("LR", "LRR", …). */
static gboolean
is_driver_hops (const char *hops)
{
  if (hops == NULL || hops[0] != (char) CG_HOP_NAVLINK)
    return FALSE;
  for (const char *p = hops + 1; *p != '\0'; p++)
    if (*p != (char) CG_HOP_REDIRECT)
      return FALSE;
  return TRUE;
}

/* A driven crawl that resumes fetches again what an earlier run had
 * queued or left in flight; those of its URLs the driver asked for (or
 * their redirects' targets) are awaited again, each for the URL the
 * driver asked for, so that the driver hears of them as it would have. */
static gboolean
restore_requested (CrawlRun  *run,
                   GError   **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GHashTable) by_id = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr(GPtrArray) open_ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) via = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  int rc;

  stmt = cg_store_prepare (run->store,
                           "SELECT id, url, hops, coalesce(via_id, 0), state FROM urls "
                           "WHERE crawl_id = ?1 AND hops GLOB 'L*'",
                           error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, run->crawl_id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (stmt, 0);
      const char *hops = (const char *) sqlite3_column_text (stmt, 2);
      int state = sqlite3_column_int (stmt, 4);

      if (!is_driver_hops (hops))
        continue;
      g_hash_table_insert (by_id, g_memdup2 (&id, sizeof id), g_strdup ((const char *) sqlite3_column_text (stmt, 1)));
      if (strlen (hops) > 1)
        {
          gint64 from = sqlite3_column_int64 (stmt, 3);

          g_hash_table_insert (via, g_memdup2 (&id, sizeof id), g_memdup2 (&from, sizeof from));
        }
      if (state == CG_URL_QUEUED || state == CG_URL_IN_FLIGHT)
        g_ptr_array_add (open_ids, g_memdup2 (&id, sizeof id));
    }
  /* A read error ends the rows too: taken for their end, the driver
   * would not hear of the URLs not read as it asked for them. */
  if (rc != SQLITE_DONE)
    return cg_store_set_error (run->store, rc, error);

  for (guint i = 0; i < open_ids->len; i++)
    {
      gint64 *id = g_ptr_array_index (open_ids, i);
      const char *url = g_hash_table_lookup (by_id, id);
      gint64 root = *id;
      gint64 *from;
      const char *requested;

      /* Back along the redirects to the URL the driver asked for. */
      for (guint hop = 0; (from = g_hash_table_lookup (via, &root)) != NULL && hop <= MAX_REDIRECT_CHAIN; hop++)
        root = *from;
      requested = g_hash_table_lookup (by_id, &root);
      if (url != NULL && requested != NULL)
        g_hash_table_insert (run->requested, g_strdup (url), g_strdup (requested));
    }
  return TRUE;
}

static gboolean
add_seeds (CrawlRun  *run,
           GError   **error)
{
  for (guint i = 0; run->config->seeds[i] != NULL; i++)
    {
      g_autofree char *url = cg_url_normalize (run->config->seeds[i], CG_URL_NORMALIZE_CRAWL, error);
      g_autofree char *host_key = NULL;

      if (url == NULL)
        return FALSE;
      host_key = cg_url_get_host_key (url, error);
      if (host_key == NULL)
        return FALSE;
      if (!cg_frontier_add (run->frontier, url, host_key, 0, "", 0, 0, NULL, NULL, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
set_crawl_state (CgStore     *store,
                 gint64       crawl_id,
                 const char  *state,
                 gboolean     finished,
                 GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  stmt = cg_store_prepare (store,
                           finished
                             ? "UPDATE crawls SET state = ?2, finished_at = ?3 WHERE id = ?1"
                             : "UPDATE crawls SET state = ?2, started_at = coalesce(started_at, ?3), finished_at = NULL WHERE id = ?1",
                           error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  sqlite3_bind_text (stmt, 2, state, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 3, g_get_real_time () / G_USEC_PER_SEC);
  return cg_store_step_done (store, stmt, error);
}

/* Opens the crawl log @log_name of @log_dir, cut to its size at the
 * crawl's last commit (see commit()). A log there before the crawl first
 * ran is another's, of the same number (the database was restored from a
 * copy older than it): it is moved into LOG_DIR/orphaned/, as WARC files
 * the project does not list are, not cut. */
static gboolean
open_crawl_log (CrawlRun    *run,
                const char  *log_dir,
                const char  *log_name,
                GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (run->store, "SELECT log_size, started_at IS NULL FROM crawls WHERE id = ?1",
                                                   error);
  g_autofree char *log_path = g_build_filename (log_dir, log_name, NULL);
  int rc;

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, run->crawl_id);
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW)
    return cg_store_set_error (run->store, rc == SQLITE_DONE ? SQLITE_NOTFOUND : rc, error);
  run->log_committed_size = sqlite3_column_type (stmt, 0) == SQLITE_NULL ? -1 : sqlite3_column_int64 (stmt, 0);

  if (sqlite3_column_int (stmt, 1) && g_file_test (log_path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *aside_dir = NULL;
      g_autofree char *moved = move_into_orphaned (log_dir, log_name, &aside_dir);

      if (moved == NULL)
        {
          int saved_errno = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       _("Cannot move the crawl log “%s”, left by an earlier crawl of the same number, into “%s”: %s"),
                       log_path, aside_dir, g_strerror (saved_errno));
          return FALSE;
        }
      {
        g_autofree char *message = g_strdup_printf (_("The crawl log “%s”, left by an earlier crawl of the same number, "
                                                      "was moved to “%s”"), log_path, moved);

        report_event (run, CG_CRAWL_EVENT_REPAIRED, NULL, message);
      }
    }

  run->log = cg_crawl_log_open (log_path, run->log_committed_size, error);
  return run->log != NULL;
}

static gboolean
set_up_run (CrawlRun  *run,
            GError   **error)
{
  CgCrawler *self = run->crawler;
  const CgCrawlConfig *config = run->config;
  g_autofree char *db_path = g_build_filename (cg_project_get_folder (self->project), CG_PROJECT_DATABASE_NAME, NULL);
  g_autofree char *log_dir = g_build_filename (cg_project_get_folder (self->project), "logs", NULL);
  g_autofree char *log_name = g_strdup_printf ("crawl-%" G_GINT64_FORMAT ".log", run->crawl_id);
  g_autofree char *warcinfo = NULL;
  g_autofree char *user_agent = NULL;
  CgFetcherConfig fetcher_config;

  run->store = cg_store_open (db_path, error);
  if (run->store == NULL)
    return FALSE;
  /* The crawl looks up URLs and writes the link graph all the time: a
   * page cache larger than SQLite's 2 MiB default keeps the indexes it
   * searches in memory instead of reading them back from the file. */
  if (!cg_store_exec (run->store, "PRAGMA cache_size = -" G_STRINGIFY (CRAWL_DB_CACHE_KIB), error))
    return FALSE;
  /* The crawl writes only rows that refer to rows it has just written or
   * read (a URL's host, the page that found it, the ends of a link) and
   * deletes nothing. Looking each reference up again was half the cost of
   * inserting the link graph, itself the largest cost of the crawl thread
   * in the crawl throughput benchmark (tests/bench). The other connections
   * to the project keep enforcing them, and test-crawler checks that
   * every reference holds after its crawls. */
  if (!cg_store_exec (run->store, "PRAGMA foreign_keys = OFF", error))
    return FALSE;
  if (!cg_store_exec (run->store, "PRAGMA wal_autocheckpoint = " G_STRINGIFY (CRAWL_DB_WAL_CHECKPOINT_PAGES), error))
    return FALSE;

  run->warc_dir = cg_project_get_warc_dir (self->project);
  run->warc_prefix = g_strdup_printf ("%s-%" G_GINT64_FORMAT, config->warc_prefix, run->crawl_id);
  /* The driver's warnings first, then the archive's own (missing files,
   * repairs). */
  for (guint i = 0; self->start_warnings != NULL && i < self->start_warnings->len; i++)
    report_event (run, CG_CRAWL_EVENT_WARNING, NULL, g_ptr_array_index (self->start_warnings, i));
  if (!reconcile_warc_files (run, error))
    return FALSE;

  run->frontier = cg_frontier_new (run->store, run->crawl_id, config->max_per_host, error);
  if (run->frontier == NULL)
    return FALSE;

  run->scope = cg_crawl_config_build_scope (config, error);
  if (run->scope == NULL)
    return FALSE;
  if (!restore_counters (run, error))
    return FALSE;

  cg_fetcher_config_init (&fetcher_config);
  user_agent = config->user_agent != NULL ? g_strdup (config->user_agent) : cg_fetcher_build_user_agent (config->contact);
  fetcher_config.user_agent = user_agent;
  fetcher_config.contact_url = config->contact;
  fetcher_config.cookies = config->cookies;
  fetcher_config.max_conns = config->max_connections + 1;
  fetcher_config.max_conns_per_host = config->max_per_host;
  if (config->timeout > 0)
    fetcher_config.total_timeout = config->timeout;
  if (config->max_body_size > 0)
    fetcher_config.max_body_size = config->max_body_size;
  run->fetcher = cg_fetcher_new (&fetcher_config, error);
  if (run->fetcher == NULL)
    return FALSE;

  run->robots = cg_robots_cache_new (ROBOTS_PRODUCT_TOKEN,
                                     config->obey_robots ? CG_ROBOTS_POLICY_OBEY : CG_ROBOTS_POLICY_IGNORE);
  if (!load_robots (run, error))
    return FALSE;

  if (g_mkdir_with_parents (log_dir, 0755) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Cannot create the folder “%s”: %s"), log_dir, g_strerror (saved_errno));
      return FALSE;
    }
  if (!open_crawl_log (run, log_dir, log_name, error))
    return FALSE;

  run->writer = cg_warc_writer_new (run->warc_dir, run->warc_prefix, error);
  if (run->writer == NULL)
    return FALSE;
  if (config->warc_max_size > 0)
    cg_warc_writer_set_max_file_size (run->writer, config->warc_max_size);
  /* See writer_thread_main(). */
  if (!cg_warc_writer_set_hold_records (run->writer, TRUE, error))
    return FALSE;
  cg_warc_writer_set_compression_level (run->writer, config->compression_level);
  cg_warc_writer_set_digest_algorithm (run->writer, config->digest);
  cg_warc_writer_set_robots_policy (run->writer, config->obey_robots ? CG_WARC_ROBOTS_OBEY : CG_WARC_ROBOTS_IGNORE);
  warcinfo = cg_crawl_config_to_warcinfo (config);
  if (!cg_warc_writer_set_crawl_config (run->writer, warcinfo, error))
    return FALSE;

  if (self->driven && !restore_requested (run, error))
    return FALSE;

  if (!cg_store_begin (run->store, error))
    return FALSE;
  run->in_transaction = TRUE;
  /* A driven crawl fetches only what its driver asks for. */
  if (!self->driven &&
      cg_frontier_count (run->frontier, CG_URL_QUEUED) + cg_frontier_count (run->frontier, CG_URL_DONE) +
      cg_frontier_count (run->frontier, CG_URL_FAILED) + cg_frontier_count (run->frontier, CG_URL_SKIPPED) == 0 &&
      !add_seeds (run, error))
    return FALSE;
  if (!set_crawl_state (run->store, run->crawl_id, "running", FALSE, error))
    return FALSE;
  return commit (run, error);
}

/* Ends the run as failed, whatever was ending it, keeping the first
 * error: a crawl that could not set up, fetched nothing, or could not
 * save its last changes or WARC file (what it archived is then not all
 * where it should be until --resume repairs it). */
static void
fail_at_end (CrawlRun *run,
             GError   *error)
{
  run->end = CG_CRAWL_END_FAILED;
  if (run->error == NULL)
    run->error = error;
  else
    g_error_free (error);
}

static void
tear_down_run (CrawlRun *run)
{
  g_autoptr(GError) error = NULL;
  WriteJob *stop;

  /* Let the writer finish what it has, then stop it. */
  if (run->writer_thread != NULL)
    {
      while (run->pending_writes > 0 || run->parsing > 0)
        g_main_context_iteration (run->context, TRUE);
      for (guint i = 0; i < run->parser_threads->len; i++)
        g_async_queue_push (run->parse_queue, g_new0 (ParseJob, 1));
      for (guint i = 0; i < run->parser_threads->len; i++)
        g_thread_join (run->parser_threads->pdata[i]);
      g_ptr_array_set_size (run->parser_threads, 0);
      stop = g_new0 (WriteJob, 1);
      g_async_queue_push (run->write_queue, stop);
    }

  /* The writer thread is now flushing the WARC file to the disk and
   * writing its index, and this thread does its own share of the same:
   * the last commit, and copying the write-ahead log into the database,
   * which the last connection to close would otherwise do after the
   * writer is done. Both mostly wait for the disk. One after the other,
   * the crawl throughput benchmark (tests/bench) ended about 0.37 s after
   * its last page; at once, about 0.28 s. A checkpoint that cannot finish
   * (another connection is reading) leaves the rest to the last
   * connection to close. */
  if (run->store != NULL)
    {
      if (!commit (run, &error))
        {
          fail_at_end (run, g_steal_pointer (&error));
          cg_store_rollback (run->store);
        }
      else if (run->writer_thread != NULL)
        cg_store_checkpoint (run->store);
    }

  if (run->writer_thread != NULL)
    {
      g_thread_join (run->writer_thread);
      run->writer_thread = NULL;
    }
  /* Without a writer thread (the run failed to start), or after it:
   * closing a closed writer does nothing. */
  if (run->writer != NULL && run->writer_close_error == NULL)
    cg_warc_writer_close (run->writer, &run->writer_close_error);

  if (run->store != NULL)
    {
      /* The files of a run that failed stay open, as those of a killed
       * run do, for resuming to cut them back to what was committed: the
       * writer goes on writing the pages queued when the run failed, and
       * those are not committed. */
      if (run->writer_close_error != NULL)
        fail_at_end (run, g_steal_pointer (&run->writer_close_error));
      else if (run->writer != NULL && run->error == NULL && !close_warc_files (run->store, run->crawl_id, &error))
        g_clear_error (&error);

      /* A crawl that reached its end without fetching anything, every URL
       * failing (a site that is down), did not do its work. */
      if (run->end == CG_CRAWL_END_DONE && run->first_failure != NULL && run->frontier != NULL &&
          cg_frontier_count (run->frontier, CG_URL_DONE) == 0)
        fail_at_end (run, g_error_new (CG_CRAWLER_ERROR, CG_CRAWLER_ERROR_NOTHING_FETCHED,
                                       _("Nothing could be fetched; the first failure: %s"),
                                       run->first_failure));
      if (!set_crawl_state (run->store, run->crawl_id, cg_crawl_end_to_string (run->end), TRUE, &error))
        g_clear_error (&error);
    }
  /* Lines held after a rollback went with it (see commit()). */
  if (run->log != NULL && run->spoiled)
    take_back_log_lines (run);
  else if (run->log != NULL)
    cg_crawl_log_flush (run->log, NULL);
  for (guint i = 0; i < N_RUN_STMTS; i++)
    g_clear_pointer (&run->stmts[i], sqlite3_finalize);
}

static gpointer
crawl_thread_main (gpointer user_data)
{
  CrawlRun *run = user_data;
  GError *error = NULL;

  g_main_context_push_thread_default (run->context);

  run->started_us = g_get_monotonic_time ();
  if (!set_up_run (run, &error))
    fail_at_end (run, error);
  else
    {
      guint n_parsers = n_parse_threads ();

      /* libxml2 must set up its globals before threads parse at once. */
      xmlInitParser ();
      for (guint i = 0; i < n_parsers; i++)
        g_ptr_array_add (run->parser_threads, g_thread_new ("cg-parser", parser_thread_main, run));
      run->writer_thread = g_thread_new ("cg-warc-writer", writer_thread_main, run);
      run->tick_source = g_timeout_source_new (CG_CRAWLER_TICK_MS);
      g_source_set_callback (run->tick_source, tick_cb, run, NULL);
      g_source_attach (run->tick_source, run->context);
      cg_scope_start_clock (run->scope, g_get_monotonic_time ());

      pump (run);
      if (!run->finishing || run->in_flight > 0 || run->pending_writes > 0 || run->parsing > 0)
        g_main_loop_run (run->loop);
    }

  tear_down_run (run);
  if (run->frontier != NULL)
    publish_stats (run);

  g_main_context_pop_thread_default (run->context);
  return NULL;
}

/* ------------------------------------------------------------------ */
/* The object the window and the command line hold                     */

typedef struct {
  CgCrawler  *crawler;
  CgCrawlEnd  end;
  GError     *error;
} FinishedData;

static void
crawl_run_free (CrawlRun *run)
{
  if (run->wake_source != NULL)
    g_source_destroy (run->wake_source);
  g_clear_pointer (&run->wake_source, g_source_unref);
  if (run->tick_source != NULL)
    g_source_destroy (run->tick_source);
  g_clear_pointer (&run->tick_source, g_source_unref);
  g_clear_object (&run->writer);
  g_clear_error (&run->writer_close_error);
  g_clear_pointer (&run->write_queue, g_async_queue_unref);
  g_clear_pointer (&run->parse_queue, g_async_queue_unref);
  g_clear_pointer (&run->parser_threads, g_ptr_array_unref);
  g_mutex_clear (&run->inbox_lock);
  g_clear_pointer (&run->edges, g_array_unref);
  if (run->outlinks != NULL)
    g_string_free (run->outlinks, TRUE);
  g_clear_pointer (&run->targets_stored, g_hash_table_unref);
  g_clear_object (&run->log);
  g_clear_pointer (&run->robots, cg_robots_cache_unref);
  g_clear_pointer (&run->scope, cg_scope_unref);
  g_clear_object (&run->fetcher);
  g_clear_object (&run->frontier);
  g_clear_object (&run->store);
  g_clear_pointer (&run->warc_file_ids, g_hash_table_unref);
  g_clear_pointer (&run->queued_payloads, g_hash_table_unref);
  g_clear_pointer (&run->missing_warc_files, g_hash_table_unref);
  g_clear_pointer (&run->robots_waiting, g_hash_table_unref);
  g_clear_pointer (&run->robots_unreachable, g_hash_table_unref);
  g_clear_pointer (&run->first_failure, g_free);
  g_clear_pointer (&run->requested, g_hash_table_unref);
  g_clear_object (&run->cancellable);
  g_clear_pointer (&run->loop, g_main_loop_unref);
  g_clear_pointer (&run->context, g_main_context_unref);
  g_clear_pointer (&run->config, cg_crawl_config_free);
  g_free (run->warc_dir);
  g_free (run->warc_prefix);
  g_free (run->current_warc);
  g_clear_error (&run->error);
  g_free (run);
}

static gboolean
finished_cb (gpointer user_data)
{
  CgCrawler *self = user_data;
  CrawlRun *run = self->run;
  g_autoptr(GError) error = NULL;
  CgCrawlEnd end;

  g_thread_join (self->thread);
  self->thread = NULL;
  self->run = NULL;
  self->running = FALSE;
  g_atomic_int_add (&running_crawls, -1);

  end = run->end;
  error = g_steal_pointer (&run->error);
  g_clear_object (&run->crawler);
  crawl_run_free (run);

  g_signal_emit (self, signals[SIGNAL_FINISHED], 0, end, error);
  g_object_unref (self);
  return G_SOURCE_REMOVE;
}

static gpointer
crawl_thread_outer (gpointer user_data)
{
  CrawlRun *run = user_data;
  CgCrawler *self = run->crawler;

  crawl_thread_main (run);
  cg_dispatch_to_context (self->owner_context, finished_cb, self, NULL);
  return NULL;
}

static void
cg_crawler_finalize (GObject *object)
{
  CgCrawler *self = CG_CRAWLER (object);

  g_clear_object (&self->project);
  g_clear_pointer (&self->config, cg_crawl_config_free);
  g_clear_pointer (&self->lock, cg_crawl_lock_release);
  g_clear_object (&self->bandwidth);
  g_clear_pointer (&self->owner_context, g_main_context_unref);
  g_clear_pointer (&self->start_warnings, g_ptr_array_unref);
  g_mutex_clear (&self->stats_lock);

  G_OBJECT_CLASS (cg_crawler_parent_class)->finalize (object);
}

static void
cg_crawler_class_init (CgCrawlerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = cg_crawler_finalize;

  /* Every CG_CRAWLER_TICK_MS while running, with a const CgCrawlStats *. */
  signals[SIGNAL_PROGRESS] = g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  /* Something worth telling the user: a CgCrawlEventKind, the URL it is
   * about (or NULL) and a translated message. */
  signals[SIGNAL_EVENT] = g_signal_new ("event", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                                        G_TYPE_INT, G_TYPE_STRING, G_TYPE_STRING);
  /* The crawl ended: a CgCrawlEnd and, for CG_CRAWL_END_FAILED, the error. */
  signals[SIGNAL_FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                                           G_TYPE_INT, G_TYPE_ERROR);
}

static void
cg_crawler_init (CgCrawler *self)
{
  g_mutex_init (&self->stats_lock);
  self->bandwidth = cg_bandwidth_new ();
}

static CgCrawler *
crawler_new (CgProject      *project,
             CgCrawlConfig  *config,
             gint64          crawl_id,
             GError        **error)
{
  g_autoptr(CgCrawler) self = g_object_new (CG_TYPE_CRAWLER, NULL);

  self->project = g_object_ref (project);
  self->config = config;
  self->crawl_id = crawl_id;
  /* Before anything of the crawl is touched: resuming cuts its WARC
   * files back, which must not happen while another process writes them. */
  self->lock = cg_crawl_lock_acquire (project, crawl_id, error);
  if (self->lock == NULL)
    return NULL;
  if (!cg_bandwidth_set_schedule (self->bandwidth, config->bandwidth, error))
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * cg_crawler_new:
 *
 * Records a new crawl with @config in @project. It starts with
 * cg_crawler_start().
 */
CgCrawler *
cg_crawler_new (CgProject            *project,
                const CgCrawlConfig  *config,
                GError              **error)
{
  g_autofree char *json = NULL;
  gint64 crawl_id;

  g_return_val_if_fail (CG_IS_PROJECT (project), NULL);

  if (!cg_crawl_config_validate (config, error))
    return NULL;
  json = cg_crawl_config_to_json (config);
  crawl_id = cg_project_add_crawl (project, "crawl", config->seeds[0], json, error);
  if (crawl_id < 0)
    return NULL;
  return crawler_new (project, cg_crawl_config_copy (config), crawl_id, error);
}

/**
 * cg_crawler_new_driven:
 * @kind: what the crawl is for, as stored: "explore" or "harvest"
 *
 * Records a new crawl that fetches what @driver asks for (see
 * CgCrawlDriver) with the settings of @config; its seeds are not fetched
 * unless the driver asks for them.
 */
CgCrawler *
cg_crawler_new_driven (CgProject            *project,
                       const CgCrawlConfig  *config,
                       const char           *kind,
                       const CgCrawlDriver  *driver,
                       GError              **error)
{
  g_autofree char *json = NULL;
  CgCrawler *self;
  gint64 crawl_id;

  g_return_val_if_fail (CG_IS_PROJECT (project), NULL);
  g_return_val_if_fail (driver != NULL && driver->next_urls != NULL && driver->page != NULL, NULL);

  if (!cg_crawl_config_validate (config, error))
    return NULL;
  json = cg_crawl_config_to_json (config);
  crawl_id = cg_project_add_crawl (project, kind, config->seeds[0], json, error);
  if (crawl_id < 0)
    return NULL;
  self = crawler_new (project, cg_crawl_config_copy (config), crawl_id, error);
  if (self != NULL)
    {
      self->driver = *driver;
      self->driven = TRUE;
    }
  return self;
}

/**
 * cg_crawler_load_config:
 *
 * The settings crawl @crawl_id of @project runs with: to resume it, or to
 * change for cg_crawler_new_for_crawl_with_config().
 */
CgCrawlConfig *
cg_crawler_load_config (CgProject  *project,
                        gint64      crawl_id,
                        GError    **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(CgCrawlConfig) config = NULL;
  int rc;

  g_return_val_if_fail (CG_IS_PROJECT (project), NULL);

  stmt = cg_store_prepare (cg_project_get_store (project), "SELECT config FROM crawls WHERE id = ?1", error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_DONE)
    {
      g_set_error (error, CG_CRAWLER_ERROR, CG_CRAWLER_ERROR_NO_SUCH_CRAWL,
                   _("The project “%s” has no crawl %" PRId64),
                   cg_project_get_folder (project), crawl_id);
      return NULL;
    }
  /* A damaged database is not a crawl that does not exist. */
  if (rc != SQLITE_ROW)
    {
      cg_store_set_error (cg_project_get_store (project), rc, error);
      return NULL;
    }
  config = cg_crawl_config_from_json ((const char *) sqlite3_column_text (stmt, 0), error);
  if (config == NULL || !cg_crawl_config_validate (config, error))
    {
      g_prefix_error (error, _("Crawl %" PRId64 ": "), crawl_id);
      return NULL;
    }
  return g_steal_pointer (&config);
}

/**
 * cg_crawler_close_interrupted:
 *
 * Ends crawl @crawl_id of @project if it is recorded as running but no
 * process runs it (one that was killed): its WARC files are cut back to
 * what it committed, indexed and closed, and it is recorded as stopped.
 * For crawls that are never resumed (explorations); a crawl or a harvest
 * resumes instead. Fails with G_IO_ERROR_BUSY when a process, this one
 * included, runs it.
 */
gboolean
cg_crawler_close_interrupted (CgProject  *project,
                              gint64      crawl_id,
                              GError    **error)
{
  g_autoptr(CgCrawlLock) lock = NULL;
  g_autoptr(CgCrawlConfig) config = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autofree char *warc_dir = NULL;
  g_autofree char *warc_prefix = NULL;
  CgStore *store = cg_project_get_store (project);
  guint64 cut = 0;
  guint moved = 0;
  int rc;

  g_return_val_if_fail (CG_IS_PROJECT (project), FALSE);

  lock = cg_crawl_lock_acquire_unused (project, crawl_id, error);
  if (lock == NULL)
    return FALSE;
  /* Read again under the lock: it may have ended meanwhile. */
  stmt = cg_store_prepare (store, "SELECT state = 'running' FROM crawls WHERE id = ?1", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return cg_store_set_error (store, rc, error);
  if (rc == SQLITE_DONE || sqlite3_column_int (stmt, 0) == 0)
    return TRUE;

  config = cg_crawler_load_config (project, crawl_id, error);
  if (config == NULL)
    return FALSE;
  warc_dir = cg_project_get_warc_dir (project);
  warc_prefix = g_strdup_printf ("%s-%" G_GINT64_FORMAT, config->warc_prefix, crawl_id);
  if (!repair_warc_files (store, warc_dir, warc_prefix, crawl_id, FALSE, &cut, &moved, error))
    return FALSE;
  if (cut > 0 || moved > 0)
    g_debug ("Crawl %" G_GINT64_FORMAT ": cut %" G_GUINT64_FORMAT " bytes of unfinished WARC records, "
             "moved %u unlisted files aside", crawl_id, cut, moved);
  return set_crawl_state (store, crawl_id, "stopped", TRUE, error);
}

/**
 * cg_crawler_new_for_crawl:
 *
 * Opens an earlier crawl of @project to resume it with its own settings.
 */
CgCrawler *
cg_crawler_new_for_crawl (CgProject  *project,
                          gint64      crawl_id,
                          GError    **error)
{
  CgCrawlConfig *config;

  g_return_val_if_fail (CG_IS_PROJECT (project), NULL);

  config = cg_crawler_load_config (project, crawl_id, error);
  if (config == NULL)
    return NULL;
  return crawler_new (project, config, crawl_id, error);
}

/* Stores @config as the settings of crawl @crawl_id. */
static gboolean
store_crawl_config (CgProject            *project,
                    gint64                crawl_id,
                    const CgCrawlConfig  *config,
                    GError              **error)
{
  CgStore *store = cg_project_get_store (project);
  g_autofree char *json = cg_crawl_config_to_json (config);
  g_autoptr(sqlite3_stmt) stmt = cg_store_prepare (store, "UPDATE crawls SET config = ?2 WHERE id = ?1", error);

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  sqlite3_bind_text (stmt, 2, json, -1, SQLITE_STATIC);
  return cg_store_step_done (store, stmt, error);
}

/**
 * cg_crawler_new_for_crawl_with_config:
 *
 * Opens crawl @crawl_id of @project to resume it with @config, its
 * settings with new limits or politeness (see
 * cg_crawl_config_check_resume_change()): a crawl that stopped at its
 * page limit goes further, or a crawl goes on more gently. @config is
 * stored as the crawl's settings once the crawl is taken from any other
 * process, and the warcinfo record of its next WARC file gives it.
 */
CgCrawler *
cg_crawler_new_for_crawl_with_config (CgProject            *project,
                                      gint64                crawl_id,
                                      const CgCrawlConfig  *config,
                                      GError              **error)
{
  g_autoptr(CgCrawlConfig) stored = NULL;
  g_autoptr(CgCrawler) self = NULL;

  g_return_val_if_fail (CG_IS_PROJECT (project), NULL);
  g_return_val_if_fail (config != NULL, NULL);

  stored = cg_crawler_load_config (project, crawl_id, error);
  if (stored == NULL || !cg_crawl_config_check_resume_change (stored, config, error))
    return NULL;
  /* The lock first: a crawl another process runs keeps its settings. */
  self = crawler_new (project, cg_crawl_config_copy (config), crawl_id, error);
  if (self == NULL || !store_crawl_config (project, crawl_id, config, error))
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * cg_crawler_new_driven_for_crawl:
 *
 * @config: (nullable): new limits and politeness for the crawl, as
 *   cg_crawler_new_for_crawl_with_config() takes; NULL keeps its own
 *
 * Opens an earlier driven crawl of @project (such as a harvest) to resume
 * it with @driver. What the earlier runs had queued is fetched again and
 * reported to @driver as if it had just asked for it; the driver must not
 * ask for those URLs again.
 */
CgCrawler *
cg_crawler_new_driven_for_crawl (CgProject            *project,
                                 gint64                crawl_id,
                                 const CgCrawlConfig  *config,
                                 const CgCrawlDriver  *driver,
                                 GError              **error)
{
  CgCrawler *self;

  g_return_val_if_fail (driver != NULL && driver->next_urls != NULL && driver->page != NULL, NULL);

  self = config != NULL ? cg_crawler_new_for_crawl_with_config (project, crawl_id, config, error)
                        : cg_crawler_new_for_crawl (project, crawl_id, error);
  if (self != NULL)
    {
      self->driver = *driver;
      self->driven = TRUE;
    }
  return self;
}

/* The newest archival crawl of @project that did not reach its end, or 0
 * with @error set when there is none. */
gint64
cg_crawler_find_resumable (CgProject  *project,
                           GError    **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  stmt = cg_store_prepare (cg_project_get_store (project),
                           "SELECT id, state FROM crawls WHERE kind = 'crawl' ORDER BY id DESC LIMIT 1", error);
  if (stmt == NULL)
    return 0;
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_DONE)
    {
      g_set_error (error, CG_CRAWLER_ERROR, CG_CRAWLER_ERROR_NO_SUCH_CRAWL,
                   _("The project “%s” has no crawl to resume"), cg_project_get_folder (project));
      return 0;
    }
  if (rc != SQLITE_ROW)
    {
      cg_store_set_error (cg_project_get_store (project), rc, error);
      return 0;
    }
  if (g_strcmp0 ((const char *) sqlite3_column_text (stmt, 1), "finished") == 0)
    {
      g_set_error (error, CG_CRAWLER_ERROR, CG_CRAWLER_ERROR_FINISHED,
                   _("The last crawl of “%s” is finished: there is nothing to resume"),
                   cg_project_get_folder (project));
      return 0;
    }
  return sqlite3_column_int64 (stmt, 0);
}

gint64
cg_crawler_get_crawl_id (CgCrawler *self)
{
  g_return_val_if_fail (CG_IS_CRAWLER (self), 0);
  return self->crawl_id;
}

const CgCrawlConfig *
cg_crawler_get_config (CgCrawler *self)
{
  g_return_val_if_fail (CG_IS_CRAWLER (self), NULL);
  return self->config;
}

/* The crawl's bandwidth cap; its schedule may be changed while it runs. */
CgBandwidth *
cg_crawler_get_bandwidth (CgCrawler *self)
{
  g_return_val_if_fail (CG_IS_CRAWLER (self), NULL);
  return self->bandwidth;
}

void
cg_crawler_add_start_warning (CgCrawler  *self,
                              const char *message)
{
  g_return_if_fail (CG_IS_CRAWLER (self));
  g_return_if_fail (message != NULL);
  g_return_if_fail (self->thread == NULL);

  if (self->start_warnings == NULL)
    self->start_warnings = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->start_warnings, g_strdup (message));
}

/**
 * cg_crawler_start:
 *
 * Starts the crawl in its own thread. Signals are emitted in the
 * thread-default main context of the caller, which must keep running.
 */
void
cg_crawler_start (CgCrawler *self)
{
  CrawlRun *run;

  g_return_if_fail (CG_IS_CRAWLER (self));
  g_return_if_fail (!self->running);

  run = g_new0 (CrawlRun, 1);
  run->crawler = g_object_ref (self);
  run->config = cg_crawl_config_copy (self->config);
  run->crawl_id = self->crawl_id;
  run->context = g_main_context_new ();
  run->loop = g_main_loop_new (run->context, FALSE);
  run->cancellable = g_cancellable_new ();
  run->write_queue = g_async_queue_new ();
  run->parse_queue = g_async_queue_new ();
  run->parser_threads = g_ptr_array_new ();
  g_mutex_init (&run->inbox_lock);
  run->edges = g_array_new (FALSE, FALSE, sizeof (Edge));
  run->outlinks = g_string_new (NULL);
  run->targets_stored = g_hash_table_new (g_int64_hash, g_int64_equal);
  run->warc_file_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  run->queued_payloads = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                (GDestroyNotify) queued_payload_free);
  run->robots_waiting = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  run->robots_unreachable = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  run->requested = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  g_clear_pointer (&self->owner_context, g_main_context_unref);
  self->owner_context = g_main_context_ref_thread_default ();
  self->run = run;
  self->running = TRUE;
  g_atomic_int_set (&self->stopping, FALSE);
  g_object_ref (self);
  g_atomic_int_inc (&running_crawls);
  self->thread = g_thread_new ("cg-crawl", crawl_thread_outer, run);
}

static gboolean
poke_cb (gpointer user_data)
{
  pump (user_data);
  return G_SOURCE_REMOVE;
}

static void
poke (CgCrawler *self)
{
  if (self->run != NULL)
    cg_dispatch_to_context (self->run->context, poke_cb, self->run, NULL);
}

void
cg_crawler_pause (CgCrawler *self)
{
  g_return_if_fail (CG_IS_CRAWLER (self));
  g_atomic_int_set (&self->paused, TRUE);
}

void
cg_crawler_unpause (CgCrawler *self)
{
  g_return_if_fail (CG_IS_CRAWLER (self));
  g_atomic_int_set (&self->paused, FALSE);
  poke (self);
}

/* Stops the crawl: fetches under way are abandoned, what is archived is
 * committed, and the crawl can be resumed later. "finished" follows. */
void
cg_crawler_stop (CgCrawler *self)
{
  g_return_if_fail (CG_IS_CRAWLER (self));
  g_atomic_int_set (&self->stopping, TRUE);
  poke (self);
}

/**
 * cg_crawler_count_running:
 *
 * The crawls of this process that have not ended: those running and those
 * told to stop whose "finished" has not been emitted yet. A program that
 * exits while one runs leaves it unfinished (it resumes, but its state
 * says it is running); one that runs its main context until this is 0
 * lets every stopped crawl end in order.
 */
guint
cg_crawler_count_running (void)
{
  return (guint) g_atomic_int_get (&running_crawls);
}

gboolean
cg_crawler_is_running (CgCrawler *self)
{
  g_return_val_if_fail (CG_IS_CRAWLER (self), FALSE);
  return self->running;
}

void
cg_crawler_get_stats (CgCrawler    *self,
                      CgCrawlStats *out_stats)
{
  g_return_if_fail (CG_IS_CRAWLER (self));

  g_mutex_lock (&self->stats_lock);
  *out_stats = self->stats;
  g_mutex_unlock (&self->stats_lock);
  /* The rest is as of the crawl thread's last tick, but whether the crawl
   * is paused is known now: a snapshot from before a resume, emitted
   * after it, had the window offer Resume again on a running crawl. */
  out_stats->paused = g_atomic_int_get (&self->paused);
}
