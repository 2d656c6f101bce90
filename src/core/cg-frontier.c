/* cg-frontier.c: the crawl frontier and seen set, kept in SQLite.
 *
 * Every URL a crawl has seen is one row of the urls table, whatever became
 * of it, so the table is both the seen set and the queue. Only the hosts
 * live in memory: a host is "eligible" while it has queued URLs and fewer
 * requests in flight than allowed, and eligible hosts are kept sorted by
 * the time their politeness delay ends. Picking the next URL is therefore
 * one indexed query on the first ready host, and memory grows with the
 * number of hosts, not of URLs.
 *
 * Two things save the crawl thread two statements for each URL it takes
 * (4 % of its time in the crawl throughput benchmark, tests/bench; the
 * crawl took 6 % less CPU time with them):
 *
 * - The query reads a few of the host's next URLs at once, and the
 *   following ones are handed out from memory (see READ_AHEAD_MAX).
 * - A URL handed out stays queued in the database until it is finished or
 *   queued again for a retry; only memory knows it is in flight. A crawl
 *   that is killed fetches its in-flight URLs again all the same, since
 *   no fetch of theirs was committed, and their attempts are counted when
 *   they end.
 *
 * The frontier runs statements but never begins or commits transactions:
 * the crawler groups a page's changes (its state, its fetch, its links and
 * the URLs they discovered) into one transaction. Its in-memory host table
 * assumes those transactions commit; a crawler that rolls one back must
 * drop the frontier and make a new one, which reloads from the database.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "cg-frontier.h"
#include "cg-seen-cache.h"

typedef struct {
  gint64         id;
  char          *key;
  guint64        queued;
  guint          fetching;   /* URLs handed out whose fetch slot is not given back */
  gint64         ready_at;
  GSequenceIter *ready_iter;

  /* The host's next queued URLs, read ahead of their turn in the order
   * they are handed out; still queued in the database. */
  GQueue         read_ahead;
  int            read_ahead_last_priority;
  guint          read_ahead_size;  /* how many the next read takes */
} Host;

/* The seen cache keeps at most this many URLs: a few MiB, whatever the
 * size of the crawl. Most links of a site are to the same pages (menus,
 * footers, pagination), so most lookups are answered there instead of by
 * an index search in SQLite, which was the largest cost of adding a link
 * in the crawl throughput benchmark (tests/bench). */
#define SEEN_CACHE_SIZE 65536

/* A URL skipped for the way it was reached (too many links from the seed,
 * a requisite when those are not fetched, the end of too long a chain of
 * redirects) is queued when another way reaches it in scope: pages are
 * fetched in parallel, so a page deeper in the site can be read before a
 * shallower one that links to the same URL. Such URLs are marked by their
 * hash in a bitmap of this many bits, so that a link to a URL seen already
 * costs one bit test more (cg_frontier_may_be_skipped()); a mark shared
 * with another URL costs an update that changes nothing. */
#define ON_THE_WAY_MARK_BITS (1u << 20)

/* A host's read ahead starts at one URL and doubles with each read up to
 * READ_AHEAD_MAX, so that a host asked once costs no more than before, and
 * the hosts hold at most READ_AHEAD_ROWS_MAX URLs between them: memory
 * stays bounded however many hosts a crawl meets. A URL queued for a host
 * that ranks before its last URL read ahead (a lower priority) drops the
 * host's read ahead, which is read again when the host's turn comes. */
#define READ_AHEAD_MAX      64
#define READ_AHEAD_ROWS_MAX 4096

typedef enum {
  STMT_FIND_URL,
  STMT_INSERT_URL,
  STMT_FIND_HOST,
  STMT_INSERT_HOST,
  STMT_NEXT_URL,
  STMT_EARLIEST_RETRY,
  STMT_FINISH_URL,
  STMT_RETRY_URL,
  STMT_REQUEUE_URL,
  N_STMTS
} StmtId;

static const char * const stmt_sql[N_STMTS] = {
  [STMT_FIND_URL] = "SELECT id FROM urls WHERE crawl_id = ?1 AND url = ?2",
  [STMT_INSERT_URL] =
    "INSERT INTO urls (crawl_id, host_id, url, depth, hops, via_id, priority, state, reason, discovered_at, on_the_way) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
  [STMT_FIND_HOST] = "SELECT id FROM hosts WHERE crawl_id = ?1 AND host_key = ?2",
  [STMT_INSERT_HOST] = "INSERT INTO hosts (crawl_id, host_key) VALUES (?1, ?2)",
  /* state = 0 is spelled out so that the partial index urls_queue is used.
   * The URL it was found on comes along for the crawl log, in the same
   * step rather than in a query of its own for each page. */
  [STMT_NEXT_URL] =
    "SELECT u.id, u.url, u.depth, u.hops, u.via_id, u.attempts, v.url, u.priority FROM urls u "
    "LEFT JOIN urls v ON v.id = u.via_id "
    "WHERE u.host_id = ?1 AND u.state = 0 AND u.not_before <= ?2 "
    "ORDER BY u.priority, u.id LIMIT ?3",
  /* The URLs in flight are queued in the table too, and were ready. */
  [STMT_EARLIEST_RETRY] = "SELECT min(not_before) FROM urls WHERE host_id = ?1 AND state = 0 AND not_before > ?2",
  [STMT_FINISH_URL] = "UPDATE urls SET state = ?2, reason = ?3, attempts = attempts + 1 WHERE id = ?1",
  [STMT_RETRY_URL] = "UPDATE urls SET state = 0, not_before = ?2, attempts = attempts + 1 WHERE id = ?1",
  [STMT_REQUEUE_URL] =
    "UPDATE urls SET state = ?6, depth = ?2, hops = ?3, via_id = ?4, priority = ?5, reason = NULL, on_the_way = 0 "
    "WHERE id = ?1 AND state = ?7 AND on_the_way",
};

struct _CgFrontier
{
  GObject       parent_instance;

  CgStore      *store;
  gint64        crawl_id;
  guint         max_in_flight_per_host;

  sqlite3_stmt *stmts[N_STMTS];
  GHashTable   *hosts_by_key;   /* char * → Host * (owned) */
  GHashTable   *hosts_by_id;    /* gint64 * → Host * */
  GSequence    *ready;          /* Host *, by ready_at then id */
  guint64       counts[CG_URL_N_STATES];
  GHashTable   *in_flight_ids;  /* gint64 * (owned): the URLs handed out, queued in the table */
  guint         read_ahead_rows;
  CgSeenCache  *seen_cache;
  guint8       *on_the_way_marks;  /* ON_THE_WAY_MARK_BITS bits, or NULL for none */
};

G_DEFINE_FINAL_TYPE (CgFrontier, cg_frontier, G_TYPE_OBJECT)
G_DEFINE_BOXED_TYPE (CgFrontierItem, cg_frontier_item, cg_frontier_item_copy, cg_frontier_item_free)

CgFrontierItem *
cg_frontier_item_copy (const CgFrontierItem *item)
{
  CgFrontierItem *copy = g_new (CgFrontierItem, 1);

  *copy = *item;
  copy->url = g_strdup (item->url);
  copy->host_key = g_strdup (item->host_key);
  copy->hops = g_strdup (item->hops);
  copy->via_url = g_strdup (item->via_url);
  return copy;
}

void
cg_frontier_item_free (CgFrontierItem *item)
{
  if (item == NULL)
    return;
  g_free (item->url);
  g_free (item->host_key);
  g_free (item->hops);
  g_free (item->via_url);
  g_free (item);
}

static void
host_free (Host *host)
{
  g_queue_clear_full (&host->read_ahead, (GDestroyNotify) cg_frontier_item_free);
  g_free (host->key);
  g_free (host);
}

static int
compare_ready (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const Host *ha = a;
  const Host *hb = b;

  if (ha->ready_at != hb->ready_at)
    return ha->ready_at < hb->ready_at ? -1 : 1;
  return ha->id < hb->id ? -1 : (ha->id > hb->id ? 1 : 0);
}

/* Puts the host where it belongs in the ready sequence after any change to
 * its counters or its ready time. */
static void
host_update (CgFrontier *self,
             Host       *host)
{
  gboolean eligible = host->queued > 0 && host->fetching < self->max_in_flight_per_host;

  if (host->ready_iter != NULL)
    {
      g_sequence_remove (host->ready_iter);
      host->ready_iter = NULL;
    }
  if (eligible)
    host->ready_iter = g_sequence_insert_sorted (self->ready, host, compare_ready, NULL);
}

static void
cg_frontier_finalize (GObject *object)
{
  CgFrontier *self = CG_FRONTIER (object);

  for (guint i = 0; i < N_STMTS; i++)
    g_clear_pointer (&self->stmts[i], sqlite3_finalize);
  g_clear_pointer (&self->ready, g_sequence_free);
  g_clear_pointer (&self->hosts_by_id, g_hash_table_unref);
  g_clear_pointer (&self->hosts_by_key, g_hash_table_unref);
  g_clear_pointer (&self->in_flight_ids, g_hash_table_unref);
  g_clear_pointer (&self->seen_cache, cg_seen_cache_free);
  g_clear_pointer (&self->on_the_way_marks, g_free);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (cg_frontier_parent_class)->finalize (object);
}

static void
cg_frontier_class_init (CgFrontierClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cg_frontier_finalize;
}

static void
cg_frontier_init (CgFrontier *self)
{
  self->hosts_by_key = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) host_free);
  self->hosts_by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  self->ready = g_sequence_new (NULL);
  self->in_flight_ids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->seen_cache = cg_seen_cache_new (SEEN_CACHE_SIZE);
}

/* Returns the cached statement, reset and with its bindings cleared. */
static sqlite3_stmt *
stmt (CgFrontier  *self,
      StmtId       id,
      GError     **error)
{
  if (self->stmts[id] == NULL)
    {
      self->stmts[id] = cg_store_prepare (self->store, stmt_sql[id], error);
      if (self->stmts[id] == NULL)
        return NULL;
    }
  sqlite3_reset (self->stmts[id]);
  sqlite3_clear_bindings (self->stmts[id]);
  return self->stmts[id];
}

static Host *
host_add (CgFrontier *self,
          gint64      id,
          const char *key)
{
  Host *host = g_new0 (Host, 1);

  host->id = id;
  host->key = g_strdup (key);
  host->read_ahead_size = 1;
  g_queue_init (&host->read_ahead);
  g_hash_table_insert (self->hosts_by_key, host->key, host);
  g_hash_table_insert (self->hosts_by_id, &host->id, host);
  return host;
}

/* Forgets the URLs read ahead for @host: they are still queued in the
 * table, and are read again in their new order at the host's turn. */
static void
drop_read_ahead (CgFrontier *self,
                 Host       *host)
{
  self->read_ahead_rows -= host->read_ahead.length;
  g_queue_clear_full (&host->read_ahead, (GDestroyNotify) cg_frontier_item_free);
}

/* The byte of the on-the-way marks that holds the mark of @url_hash, and
 * in *@mask its bit. */
static guint
mark_byte (guint   url_hash,
           guint8 *mask)
{
  guint bit = url_hash % ON_THE_WAY_MARK_BITS;

  *mask = (guint8) (1u << (bit % 8));
  return bit / 8;
}

static void
mark_on_the_way (CgFrontier *self,
                 guint       url_hash)
{
  guint8 mask;
  guint byte = mark_byte (url_hash, &mask);

  if (self->on_the_way_marks == NULL)
    self->on_the_way_marks = g_malloc0 (ON_THE_WAY_MARK_BITS / 8);
  self->on_the_way_marks[byte] |= mask;
}

static gboolean
load (CgFrontier  *self,
      GError     **error)
{
  g_autoptr(sqlite3_stmt) reset = NULL;
  g_autoptr(sqlite3_stmt) hosts = NULL;
  g_autoptr(sqlite3_stmt) queued = NULL;
  g_autoptr(sqlite3_stmt) counts = NULL;
  g_autoptr(sqlite3_stmt) on_the_way = NULL;
  int rc;

  /* The table keeps the URLs in flight queued (see the top of this file),
   * but a crawl killed under an earlier version of Cartograph marked them
   * in flight there: their fetches never committed, so they are queued. */
  reset = cg_store_prepare (self->store, "UPDATE urls SET state = 0 WHERE crawl_id = ?1 AND state = 1", error);
  if (reset == NULL)
    return FALSE;
  sqlite3_bind_int64 (reset, 1, self->crawl_id);
  if (!cg_store_step_done (self->store, reset, error))
    return FALSE;

  hosts = cg_store_prepare (self->store, "SELECT id, host_key FROM hosts WHERE crawl_id = ?1", error);
  if (hosts == NULL)
    return FALSE;
  sqlite3_bind_int64 (hosts, 1, self->crawl_id);
  while ((rc = sqlite3_step (hosts)) == SQLITE_ROW)
    host_add (self, sqlite3_column_int64 (hosts, 0), (const char *) sqlite3_column_text (hosts, 1));
  /* A read error ends the rows too: taken for their end, the crawl would
   * resume with part of its frontier and call itself finished early. */
  if (rc != SQLITE_DONE)
    return cg_store_set_error (self->store, rc, error);

  queued = cg_store_prepare (self->store,
                             "SELECT host_id, count(*) FROM urls WHERE crawl_id = ?1 AND state = 0 GROUP BY host_id",
                             error);
  if (queued == NULL)
    return FALSE;
  sqlite3_bind_int64 (queued, 1, self->crawl_id);
  while ((rc = sqlite3_step (queued)) == SQLITE_ROW)
    {
      gint64 host_id = sqlite3_column_int64 (queued, 0);
      Host *host = g_hash_table_lookup (self->hosts_by_id, &host_id);

      if (host != NULL)
        {
          host->queued = (guint64) sqlite3_column_int64 (queued, 1);
          host_update (self, host);
        }
    }
  if (rc != SQLITE_DONE)
    return cg_store_set_error (self->store, rc, error);

  on_the_way = cg_store_prepare (self->store,
                                 "SELECT url FROM urls WHERE crawl_id = ?1 AND state = ?2 AND on_the_way",
                                 error);
  if (on_the_way == NULL)
    return FALSE;
  sqlite3_bind_int64 (on_the_way, 1, self->crawl_id);
  sqlite3_bind_int (on_the_way, 2, CG_URL_SKIPPED);
  while ((rc = sqlite3_step (on_the_way)) == SQLITE_ROW)
    mark_on_the_way (self, cg_seen_cache_hash_url ((const char *) sqlite3_column_text (on_the_way, 0)));
  if (rc != SQLITE_DONE)
    return cg_store_set_error (self->store, rc, error);

  counts = cg_store_prepare (self->store,
                             "SELECT state, count(*) FROM urls WHERE crawl_id = ?1 GROUP BY state",
                             error);
  if (counts == NULL)
    return FALSE;
  sqlite3_bind_int64 (counts, 1, self->crawl_id);
  while ((rc = sqlite3_step (counts)) == SQLITE_ROW)
    {
      int state = sqlite3_column_int (counts, 0);

      if (state >= 0 && state < CG_URL_N_STATES)
        self->counts[state] = (guint64) sqlite3_column_int64 (counts, 1);
    }
  if (rc != SQLITE_DONE)
    return cg_store_set_error (self->store, rc, error);
  return TRUE;
}

/**
 * cg_frontier_new:
 * @store: the project's store
 * @crawl_id: the crawl whose frontier this is
 * @max_in_flight_per_host: how many URLs of one host may be fetched at once
 *
 * Opens the frontier of a crawl, new or interrupted. URLs left in flight by
 * an interrupted crawl are queued again.
 */
CgFrontier *
cg_frontier_new (CgStore  *store,
                 gint64    crawl_id,
                 guint     max_in_flight_per_host,
                 GError  **error)
{
  g_autoptr(CgFrontier) self = NULL;

  g_return_val_if_fail (CG_IS_STORE (store), NULL);
  g_return_val_if_fail (max_in_flight_per_host > 0, NULL);

  self = g_object_new (CG_TYPE_FRONTIER, NULL);
  self->store = g_object_ref (store);
  self->crawl_id = crawl_id;
  self->max_in_flight_per_host = max_in_flight_per_host;

  if (!load (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

static Host *
ensure_host (CgFrontier  *self,
             const char  *host_key,
             GError     **error)
{
  Host *host = g_hash_table_lookup (self->hosts_by_key, host_key);
  sqlite3_stmt *s;

  if (host != NULL)
    return host;

  if ((s = stmt (self, STMT_INSERT_HOST, error)) == NULL)
    return NULL;
  sqlite3_bind_int64 (s, 1, self->crawl_id);
  sqlite3_bind_text (s, 2, host_key, -1, SQLITE_STATIC);
  if (!cg_store_step_done (self->store, s, error))
    return NULL;
  sqlite3_reset (s);
  return host_add (self, sqlite3_last_insert_rowid (cg_store_get_db (self->store)), host_key);
}

gint64
cg_frontier_get_host_id (CgFrontier  *self,
                         const char  *host_key,
                         GError     **error)
{
  Host *host;

  g_return_val_if_fail (CG_IS_FRONTIER (self), -1);

  host = ensure_host (self, host_key, error);
  return host != NULL ? host->id : -1;
}

static gboolean
find_url (CgFrontier  *self,
          const char  *url,
          guint        url_hash,
          gint64      *out_id,
          GError     **error)
{
  sqlite3_stmt *s;
  int rc;

  if (cg_seen_cache_lookup (self->seen_cache, url, url_hash, out_id))
    return TRUE;
  s = stmt (self, STMT_FIND_URL, error);
  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, self->crawl_id);
  sqlite3_bind_text (s, 2, url, -1, SQLITE_STATIC);
  rc = sqlite3_step (s);
  /* The error is the step's own: stepping again would run the query
   * afresh, and its answer could take a URL already seen for a new one. */
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    {
      cg_store_set_error (self->store, rc, error);
      sqlite3_reset (s);
      return FALSE;
    }
  *out_id = rc == SQLITE_ROW ? sqlite3_column_int64 (s, 0) : -1;
  sqlite3_reset (s);
  if (*out_id >= 0)
    cg_seen_cache_insert (self->seen_cache, url, url_hash, *out_id);
  return TRUE;
}

/* Queues URL @id again if it was skipped for the way it was reached
 * (see ON_THE_WAY_MARK_BITS), as reached now. */
static gboolean
requeue_if_skipped_on_the_way (CgFrontier  *self,
                               gint64       id,
                               const char  *host_key,
                               int          depth,
                               const char  *hops,
                               gint64       via_id,
                               int          priority,
                               gboolean    *out_is_new,
                               GError     **error)
{
  sqlite3_stmt *s;
  Host *host;

  if ((s = stmt (self, STMT_REQUEUE_URL, error)) == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, id);
  sqlite3_bind_int (s, 2, depth);
  sqlite3_bind_text (s, 3, hops != NULL ? hops : "", -1, SQLITE_STATIC);
  if (via_id > 0)
    sqlite3_bind_int64 (s, 4, via_id);
  else
    sqlite3_bind_null (s, 4);
  sqlite3_bind_int (s, 5, priority);
  sqlite3_bind_int (s, 6, CG_URL_QUEUED);
  sqlite3_bind_int (s, 7, CG_URL_SKIPPED);
  if (!cg_store_step_done (self->store, s, error))
    return FALSE;
  sqlite3_reset (s);
  if (sqlite3_changes (cg_store_get_db (self->store)) == 0)
    return TRUE;

  if ((host = ensure_host (self, host_key, error)) == NULL)
    return FALSE;
  /* An older URL, which may rank before any read ahead. */
  drop_read_ahead (self, host);
  self->counts[CG_URL_SKIPPED]--;
  self->counts[CG_URL_QUEUED]++;
  host->queued++;
  host_update (self, host);
  if (out_is_new != NULL)
    *out_is_new = TRUE;
  return TRUE;
}

/* @on_the_way: for a skipped URL, whether it was skipped for the way it
 * was reached (see cg_frontier_add_skipped()) */
static gboolean
insert_url (CgFrontier  *self,
            const char  *url,
            const char  *host_key,
            int          depth,
            const char  *hops,
            gint64       via_id,
            int          priority,
            CgUrlState   state,
            const char  *reason,
            gboolean     on_the_way,
            gint64      *out_url_id,
            gboolean    *out_is_new,
            GError     **error)
{
  sqlite3_stmt *s;
  Host *host;
  gint64 id;
  guint url_hash;

  g_return_val_if_fail (CG_IS_FRONTIER (self), FALSE);
  g_return_val_if_fail (url != NULL && host_key != NULL, FALSE);

  if (out_is_new != NULL)
    *out_is_new = FALSE;
  url_hash = cg_seen_cache_hash_url (url);
  if (!find_url (self, url, url_hash, &id, error))
    return FALSE;
  if (id >= 0)
    {
      if (state == CG_URL_QUEUED && cg_frontier_may_be_skipped (self, url_hash) &&
          !requeue_if_skipped_on_the_way (self, id, host_key, depth, hops, via_id, priority, out_is_new, error))
        return FALSE;
      if (out_url_id != NULL)
        *out_url_id = id;
      return TRUE;
    }

  if ((host = ensure_host (self, host_key, error)) == NULL)
    return FALSE;
  if ((s = stmt (self, STMT_INSERT_URL, error)) == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, self->crawl_id);
  sqlite3_bind_int64 (s, 2, host->id);
  sqlite3_bind_text (s, 3, url, -1, SQLITE_STATIC);
  sqlite3_bind_int (s, 4, depth);
  sqlite3_bind_text (s, 5, hops != NULL ? hops : "", -1, SQLITE_STATIC);
  if (via_id > 0)
    sqlite3_bind_int64 (s, 6, via_id);
  sqlite3_bind_int (s, 7, priority);
  sqlite3_bind_int (s, 8, state);
  if (reason != NULL)
    sqlite3_bind_text (s, 9, reason, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (s, 10, g_get_real_time ());
  sqlite3_bind_int (s, 11, on_the_way);
  if (!cg_store_step_done (self->store, s, error))
    return FALSE;
  sqlite3_reset (s);

  id = sqlite3_last_insert_rowid (cg_store_get_db (self->store));
  cg_seen_cache_insert (self->seen_cache, url, url_hash, id);
  if (on_the_way)
    mark_on_the_way (self, url_hash);
  self->counts[state]++;
  if (state == CG_URL_QUEUED)
    {
      /* A URL of the same priority comes after those read ahead, being
       * newer; one of a lower priority comes before some of them. */
      if (!g_queue_is_empty (&host->read_ahead) && priority < host->read_ahead_last_priority)
        drop_read_ahead (self, host);
      host->queued++;
      host_update (self, host);
    }
  if (out_url_id != NULL)
    *out_url_id = id;
  if (out_is_new != NULL)
    *out_is_new = TRUE;
  return TRUE;
}

/**
 * cg_frontier_add:
 * @url: a normalised absolute URL
 * @host_key: the politeness key of its host (see cg_url_get_host_key())
 * @depth: links followed from the seed
 * @hops: the hop path from the seed, Heritrix style (L link, E embed, R redirect)
 * @via_id: the URL that discovered it, or 0 for a seed
 * @priority: lower is fetched first among the URLs of one host
 * @out_url_id: (out) (optional): the URL's id, new or already seen
 * @out_is_new: (out) (optional): whether the URL was queued by this call
 *
 * Queues @url unless the crawl has seen it already, and for a URL
 * skipped for the way it was reached (see cg_frontier_add_skipped()),
 * queues it as reached now.
 */
gboolean
cg_frontier_add (CgFrontier  *self,
                 const char  *url,
                 const char  *host_key,
                 int          depth,
                 const char  *hops,
                 gint64       via_id,
                 int          priority,
                 gint64      *out_url_id,
                 gboolean    *out_is_new,
                 GError     **error)
{
  return insert_url (self, url, host_key, depth, hops, via_id, priority,
                     CG_URL_QUEUED, NULL, FALSE, out_url_id, out_is_new, error);
}

/**
 * cg_frontier_lookup_seen:
 * @url_hash: cg_seen_cache_hash_url (@url), which the caller may have
 *   worked out in another thread
 * @out_url_id: (out): the URL's id when it is known
 *
 * Whether @url is known, without asking the database, to be in the seen
 * set already: the frontier keeps a bounded cache of the URLs it added
 * or found lately. FALSE means only that the cache does not know.
 */
gboolean
cg_frontier_lookup_seen (CgFrontier *self,
                         const char *url,
                         guint       url_hash,
                         gint64     *out_url_id)
{
  g_return_val_if_fail (CG_IS_FRONTIER (self), FALSE);
  g_return_val_if_fail (url != NULL && out_url_id != NULL, FALSE);

  return cg_seen_cache_lookup (self->seen_cache, url, url_hash, out_url_id);
}

/**
 * cg_frontier_may_be_skipped:
 * @url_hash: cg_seen_cache_hash_url () of the URL
 *
 * Whether the URL may be one skipped for the way it was reached, which
 * cg_frontier_add() would queue: FALSE for certain when it is not.
 */
gboolean
cg_frontier_may_be_skipped (CgFrontier *self,
                            guint       url_hash)
{
  guint8 mask;
  guint byte = mark_byte (url_hash, &mask);

  g_return_val_if_fail (CG_IS_FRONTIER (self), TRUE);

  return self->on_the_way_marks != NULL && (self->on_the_way_marks[byte] & mask) != 0;
}

/**
 * cg_frontier_add_skipped:
 * @reason: why the URL is not fetched (out of scope, robots.txt…)
 * @on_the_way: whether it is skipped for the way it was reached (too many
 *   links from the seed, as a requisite when those are not fetched...),
 *   so that cg_frontier_add() queues it when another way reaches it
 *
 * Records a URL the crawl has seen and will not fetch, so that it joins
 * the seen set and the link graph without a scope check each time.
 */
gboolean
cg_frontier_add_skipped (CgFrontier  *self,
                         const char  *url,
                         const char  *host_key,
                         int          depth,
                         const char  *hops,
                         gint64       via_id,
                         const char  *reason,
                         gboolean     on_the_way,
                         gint64      *out_url_id,
                         GError     **error)
{
  return insert_url (self, url, host_key, depth, hops, via_id, 0,
                     CG_URL_SKIPPED, reason, on_the_way, out_url_id, NULL, error);
}

static gboolean
earliest_retry (CgFrontier  *self,
                Host        *host,
                gint64       now_us,
                gint64      *out_time,
                GError     **error)
{
  sqlite3_stmt *s = stmt (self, STMT_EARLIEST_RETRY, error);
  int rc;

  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, host->id);
  sqlite3_bind_int64 (s, 2, now_us);
  rc = sqlite3_step (s);
  /* An aggregate always has its row; without it the read failed, and a
   * time of 0 would have the caller drop the host's queued URLs. */
  if (rc != SQLITE_ROW)
    {
      cg_store_set_error (self->store, rc, error);
      sqlite3_reset (s);
      return FALSE;
    }
  *out_time = sqlite3_column_int64 (s, 0);
  sqlite3_reset (s);
  return TRUE;
}

/* Reads @host's next queued URLs that are ready at @now_us and not in
 * flight into its read ahead. */
static gboolean
read_ahead (CgFrontier  *self,
            Host        *host,
            gint64       now_us,
            GError     **error)
{
  sqlite3_stmt *s = stmt (self, STMT_NEXT_URL, error);
  /* At least the one URL about to be handed out. */
  guint room = READ_AHEAD_ROWS_MAX - MIN (self->read_ahead_rows, READ_AHEAD_ROWS_MAX - 1);
  guint want = MIN (host->read_ahead_size, room);
  int rc = SQLITE_DONE;

  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, host->id);
  sqlite3_bind_int64 (s, 2, now_us);
  /* The URLs in flight are queued in the table and may come first:
   * enough rows are allowed to pass them all, whatever their host. */
  sqlite3_bind_int64 (s, 3, (gint64) (want + self->counts[CG_URL_IN_FLIGHT]));
  while (host->read_ahead.length < want && (rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (s, 0);
      CgFrontierItem *item;

      if (g_hash_table_contains (self->in_flight_ids, &id))
        continue;
      item = g_new0 (CgFrontierItem, 1);
      item->id = id;
      item->url = g_strdup ((const char *) sqlite3_column_text (s, 1));
      item->depth = sqlite3_column_int (s, 2);
      item->hops = g_strdup ((const char *) sqlite3_column_text (s, 3));
      item->via_id = sqlite3_column_int64 (s, 4);
      item->attempts = sqlite3_column_int (s, 5) + 1;
      item->via_url = g_strdup ((const char *) sqlite3_column_text (s, 6));
      item->host_id = host->id;
      item->host_key = g_strdup (host->key);
      host->read_ahead_last_priority = sqlite3_column_int (s, 7);
      g_queue_push_tail (&host->read_ahead, item);
      self->read_ahead_rows++;
    }
  /* Stepping again would run the query afresh and could leave @error
   * unset: "nothing ready" instead of the failure. */
  if (host->read_ahead.length < want && rc != SQLITE_DONE)
    {
      cg_store_set_error (self->store, rc, error);
      sqlite3_reset (s);
      drop_read_ahead (self, host);
      return FALSE;
    }
  sqlite3_reset (s);
  host->read_ahead_size = MIN (host->read_ahead_size * 2, READ_AHEAD_MAX);
  return TRUE;
}

/**
 * cg_frontier_next:
 * @now_us: the current wall-clock time in microseconds
 * @out_wait_us: (out): when nothing is ready, how long until a host is;
 *   -1 when no URL is queued that could become ready by waiting alone
 *
 * Takes the next URL to fetch: the best-placed URL of the host whose
 * politeness delay ended first. It is in flight until cg_frontier_finish()
 * or cg_frontier_retry(), in memory only: the table keeps it queued (see
 * the top of this file).
 *
 * Returns: (transfer full) (nullable): the URL, or %NULL with @error unset
 *   when none is ready now
 */
CgFrontierItem *
cg_frontier_next (CgFrontier  *self,
                  gint64       now_us,
                  gint64      *out_wait_us,
                  GError     **error)
{
  g_return_val_if_fail (CG_IS_FRONTIER (self), NULL);

  *out_wait_us = -1;

  for (;;)
    {
      GSequenceIter *first = g_sequence_get_begin_iter (self->ready);
      CgFrontierItem *item;
      Host *host;

      if (g_sequence_iter_is_end (first))
        return NULL;

      host = g_sequence_get (first);
      if (host->ready_at > now_us)
        {
          *out_wait_us = host->ready_at - now_us;
          return NULL;
        }

      if (g_queue_is_empty (&host->read_ahead) && !read_ahead (self, host, now_us, error))
        return NULL;
      if (g_queue_is_empty (&host->read_ahead))
        {
          gint64 retry_at = 0;

          /* Every queued URL of this host waits for a retry: the host is
           * ready when the first of them is. */
          if (!earliest_retry (self, host, now_us, &retry_at, error))
            return NULL;
          if (retry_at <= now_us)
            {
              /* The counters and the table disagree; trust the table. */
              g_warning ("Frontier of crawl %" G_GINT64_FORMAT ": host %s has no queued URL",
                         self->crawl_id, host->key);
              host->queued = 0;
            }
          host->ready_at = MAX (host->ready_at, retry_at);
          host_update (self, host);
          continue;
        }

      item = g_queue_pop_head (&host->read_ahead);
      self->read_ahead_rows--;
      g_hash_table_add (self->in_flight_ids, g_memdup2 (&item->id, sizeof item->id));
      host->queued--;
      host->fetching++;
      self->counts[CG_URL_QUEUED]--;
      self->counts[CG_URL_IN_FLIGHT]++;
      host_update (self, host);
      *out_wait_us = 0;
      return item;
    }
}

static Host *
host_of (CgFrontier           *self,
         const CgFrontierItem *item)
{
  Host *host = g_hash_table_lookup (self->hosts_by_id, &item->host_id);

  g_return_val_if_fail (host != NULL, NULL);
  return host;
}

/* Gives back the fetch slot of @item's host, once, and keeps the host
 * waiting until @host_ready_at_us. */
static void
release_host (Host     *host,
              gboolean  released,
              gint64    host_ready_at_us)
{
  if (!released)
    {
      g_return_if_fail (host->fetching > 0);
      host->fetching--;
    }
  host->ready_at = MAX (host->ready_at, host_ready_at_us);
}

/* Forgets that @item is in flight, once it is finished or queued again. */
static void
end_in_flight (CgFrontier           *self,
               const CgFrontierItem *item)
{
  g_hash_table_remove (self->in_flight_ids, &item->id);
  self->counts[CG_URL_IN_FLIGHT]--;
}

/**
 * cg_frontier_release_host:
 * @host_ready_at_us: the earliest time the host may be asked again
 *
 * Says that the fetch of the in-flight @item is over while its page is
 * still on its way to the archive (parsed, then written): its host may be
 * asked for another URL from @host_ready_at_us. Politeness limits the
 * requests a server sees at once, not the pages the crawl is still
 * handling; holding the slot until the page was written kept the
 * connections idle for that time. The URL stays in flight until
 * cg_frontier_finish() or cg_frontier_retry().
 */
void
cg_frontier_release_host (CgFrontier     *self,
                          CgFrontierItem *item,
                          gint64          host_ready_at_us)
{
  Host *host;

  g_return_if_fail (CG_IS_FRONTIER (self));
  g_return_if_fail (!item->host_released);

  if ((host = host_of (self, item)) == NULL)
    return;
  release_host (host, FALSE, host_ready_at_us);
  item->host_released = TRUE;
  host_update (self, host);
}

/**
 * cg_frontier_finish:
 * @state: %CG_URL_DONE, %CG_URL_FAILED or %CG_URL_SKIPPED
 * @reason: (nullable): why it failed or was skipped
 * @host_ready_at_us: the earliest time the host may be asked again
 */
gboolean
cg_frontier_finish (CgFrontier            *self,
                    const CgFrontierItem  *item,
                    CgUrlState             state,
                    const char            *reason,
                    gint64                 host_ready_at_us,
                    GError               **error)
{
  sqlite3_stmt *s;
  Host *host;

  g_return_val_if_fail (CG_IS_FRONTIER (self), FALSE);
  g_return_val_if_fail (state == CG_URL_DONE || state == CG_URL_FAILED || state == CG_URL_SKIPPED, FALSE);

  if ((host = host_of (self, item)) == NULL)
    return FALSE;
  if ((s = stmt (self, STMT_FINISH_URL, error)) == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, item->id);
  sqlite3_bind_int (s, 2, state);
  if (reason != NULL)
    sqlite3_bind_text (s, 3, reason, -1, SQLITE_STATIC);
  if (!cg_store_step_done (self->store, s, error))
    return FALSE;
  sqlite3_reset (s);

  release_host (host, item->host_released, host_ready_at_us);
  end_in_flight (self, item);
  self->counts[state]++;
  host_update (self, host);
  return TRUE;
}

/**
 * cg_frontier_retry:
 * @not_before_us: the earliest time this URL may be fetched again
 * @host_ready_at_us: the earliest time the host may be asked again
 *
 * Queues an in-flight URL again after a failure worth retrying.
 */
gboolean
cg_frontier_retry (CgFrontier            *self,
                   const CgFrontierItem  *item,
                   gint64                 not_before_us,
                   gint64                 host_ready_at_us,
                   GError               **error)
{
  sqlite3_stmt *s;
  Host *host;

  g_return_val_if_fail (CG_IS_FRONTIER (self), FALSE);

  if ((host = host_of (self, item)) == NULL)
    return FALSE;
  if ((s = stmt (self, STMT_RETRY_URL, error)) == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, item->id);
  sqlite3_bind_int64 (s, 2, not_before_us);
  if (!cg_store_step_done (self->store, s, error))
    return FALSE;
  sqlite3_reset (s);

  release_host (host, item->host_released, host_ready_at_us);
  end_in_flight (self, item);
  host->queued++;
  self->counts[CG_URL_QUEUED]++;
  host_update (self, host);
  return TRUE;
}

/* Holds a host back, for example while its robots.txt is fetched or after
 * the server asked to slow down. */
void
cg_frontier_delay_host (CgFrontier *self,
                        gint64      host_id,
                        gint64      ready_at_us)
{
  Host *host;

  g_return_if_fail (CG_IS_FRONTIER (self));

  host = g_hash_table_lookup (self->hosts_by_id, &host_id);
  if (host == NULL)
    return;
  host->ready_at = MAX (host->ready_at, ready_at_us);
  host_update (self, host);
}

guint64
cg_frontier_count (CgFrontier *self,
                   CgUrlState  state)
{
  g_return_val_if_fail (CG_IS_FRONTIER (self), 0);
  g_return_val_if_fail (state < CG_URL_N_STATES, 0);
  return self->counts[state];
}

/* Nothing queued and nothing in flight: the crawl has reached its end. */
gboolean
cg_frontier_is_exhausted (CgFrontier *self)
{
  g_return_val_if_fail (CG_IS_FRONTIER (self), TRUE);
  return self->counts[CG_URL_QUEUED] == 0 && self->counts[CG_URL_IN_FLIGHT] == 0;
}

guint
cg_frontier_get_n_hosts (CgFrontier *self)
{
  g_return_val_if_fail (CG_IS_FRONTIER (self), 0);
  return g_hash_table_size (self->hosts_by_key);
}

/* How many queued URLs the hosts hold read ahead between them (see
 * READ_AHEAD_ROWS_MAX). */
guint
cg_frontier_get_n_read_ahead (CgFrontier *self)
{
  g_return_val_if_fail (CG_IS_FRONTIER (self), 0);
  return self->read_ahead_rows;
}
