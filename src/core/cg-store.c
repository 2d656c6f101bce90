/* cg-store.c: the project's SQLite database, its schema and migrations.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sys/mman.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "cg-store.h"

typedef struct _TurnBoard TurnBoard;

struct _CgStore
{
  GObject    parent_instance;
  char      *path;
  sqlite3   *db;
  int        schema_version;
  TurnBoard *board;       /* shared by this process's connections to the file; set once open */
  gint64     busy_since;  /* when the current wait for a lock began */
};

G_DEFINE_TYPE (CgStore, cg_store, G_TYPE_OBJECT)
G_DEFINE_QUARK (cg-store-error-quark, cg_store_error)

/* ------------------------------------------------------------------ */
/* Taking turns at the write lock                                      */

/* SQLite lets one connection write at a time, and one that finds the
 * lock taken retries now and then; it does not queue. A crawl without
 * politeness writes all the time, and takes the lock back the moment
 * after each commit, so another connection's write (the window renaming
 * a class while a crawl runs) retried until it gave up with "database is
 * locked". The connections of this process to one file therefore share
 * a board: a connection waiting for the lock notes on it that it waits,
 * and a connection that writes a lot (the crawl) commits when it sees
 * that note and waits for the other to have its turn before it goes on.
 *
 * Other processes (the command line crawling a project the window has
 * open) see the same note through SharedTurn, a few bytes of the file
 * DATABASE-turn that every process maps: without it, the window's writes
 * found the lock taken by the command line's crawl at every try. */
typedef struct {
  gint64 awaited_at;      /* g_get_monotonic_time(), the same clock in every process */
  gint64 waiter;          /* the process_token() of the process whose connection waits */
} SharedTurn;

struct _TurnBoard
{
  char       *file;       /* the key in the table of boards */
  guint       refs;       /* under boards_lock */
  GMutex      lock;
  gint64      awaited_at; /* when a connection last noted that it waits */
  CgStore    *waiter;     /* that connection */
  SharedTurn *shared;     /* NULL where DATABASE-turn cannot be written */
};

/* How long a connection waits for a lock in all before it fails. */
#define BUSY_TIMEOUT_US   (5 * G_USEC_PER_SEC)
/* How long it naps between two tries; a turn lasts at least that. */
#define BUSY_NAP_US       1000
/* A note older than this is from a connection that waits no more: it
 * would have renewed it after its nap, even on a busy machine. */
#define AWAITED_FRESH_US  (20 * 1000)
/* The longest a connection gives way to another at once. */
#define GIVE_WAY_MAX_US   (200 * 1000)

static GMutex      boards_lock;
static GHashTable *boards;  /* file name → TurnBoard */

/* The size DATABASE-turn is given: one page, though a SharedTurn needs
 * only its first bytes. */
#define SHARED_TURN_FILE_SIZE 4096

/* What tells this process's notes from others': not the process id,
 * which two processes in sandboxes of their own (Flatpak gives each its
 * own process ids) can share. Never 0, an empty note's. */
static gint64
process_token (void)
{
  static gint64 token;

  if (g_once_init_enter (&token))
    {
      gint64 drawn;

      do
        drawn = (gint64) (((guint64) g_random_int () << 32) | g_random_int ());
      while (drawn == 0);
      g_once_init_leave (&token, drawn);
    }
  return token;
}

/* Maps DATABASE-turn, made if missing, with the database's permissions.
 * Where it cannot be (a folder that cannot be written, a full disk), the
 * turns are taken within this process only. Its page is given its blocks
 * before it is mapped: a first store into a page without them on a full
 * disk would kill the process with SIGBUS. */
static SharedTurn *
map_shared_turn (const char *file)
{
  g_autofree char *path = g_strconcat (file, CG_STORE_TURN_SUFFIX, NULL);
  GStatBuf database;
  void *mapped;
  int fd;

  if (g_stat (file, &database) != 0)
    return NULL;
  fd = g_open (path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, database.st_mode & 0666);
  if (fd < 0)
    return NULL;
  if (posix_fallocate (fd, 0, SHARED_TURN_FILE_SIZE) != 0)
    {
      close (fd);
      return NULL;
    }
  mapped = mmap (NULL, SHARED_TURN_FILE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close (fd);
  return mapped != MAP_FAILED ? mapped : NULL;
}

static TurnBoard *
turn_board_acquire (const char *file)
{
  TurnBoard *board;

  g_mutex_lock (&boards_lock);
  if (boards == NULL)
    boards = g_hash_table_new (g_str_hash, g_str_equal);
  board = g_hash_table_lookup (boards, file);
  if (board == NULL)
    {
      board = g_new0 (TurnBoard, 1);
      board->file = g_strdup (file);
      g_mutex_init (&board->lock);
      board->shared = map_shared_turn (file);
      g_hash_table_insert (boards, board->file, board);
    }
  board->refs++;
  g_mutex_unlock (&boards_lock);
  return board;
}

static void
turn_board_release (TurnBoard *board,
                    CgStore   *store)
{
  g_mutex_lock (&board->lock);
  if (board->waiter == store)
    board->waiter = NULL;
  g_mutex_unlock (&board->lock);

  g_mutex_lock (&boards_lock);
  if (--board->refs == 0)
    {
      g_hash_table_remove (boards, board->file);
      if (board->shared != NULL)
        munmap (board->shared, SHARED_TURN_FILE_SIZE);
      g_mutex_clear (&board->lock);
      g_free (board->file);
      g_free (board);
    }
  g_mutex_unlock (&boards_lock);
}

/* SQLite's busy handler: called with @n_calls 0, 1, 2… while the lock
 * the connection wants is taken; it retries when this returns nonzero. */
static int
busy_cb (void *user_data,
         int   n_calls)
{
  CgStore *self = user_data;
  gint64 now = g_get_monotonic_time ();

  if (n_calls == 0)
    self->busy_since = now;
  if (now - self->busy_since >= BUSY_TIMEOUT_US)
    return 0;
  g_mutex_lock (&self->board->lock);
  self->board->awaited_at = now;
  self->board->waiter = self;
  g_mutex_unlock (&self->board->lock);
  if (self->board->shared != NULL)
    {
      /* The two are read without a lock: a reader that sees one note's
       * time with another's process errs for one nap at most. */
      __atomic_store_n (&self->board->shared->waiter, process_token (), __ATOMIC_RELAXED);
      __atomic_store_n (&self->board->shared->awaited_at, now, __ATOMIC_RELEASE);
    }
  g_usleep (BUSY_NAP_US);
  return 1;
}

/**
 * cg_store_is_awaited:
 *
 * Whether another connection to the same database, of this process or
 * another, waits for a lock that @self holds or is about to take again:
 * a connection that keeps a write transaction open should then commit
 * soon, and call cg_store_give_way() after.
 */
gboolean
cg_store_is_awaited (CgStore *self)
{
  SharedTurn *shared;
  gint64 now;
  gboolean awaited;

  g_return_val_if_fail (CG_IS_STORE (self), FALSE);

  now = g_get_monotonic_time ();
  shared = self->board->shared;
  if (shared != NULL)
    {
      /* A note from before the machine last started can be "later" than
       * now (the clock starts again at boot): it is no note. */
      gint64 age = now - __atomic_load_n (&shared->awaited_at, __ATOMIC_ACQUIRE);

      if (age >= 0 && age < AWAITED_FRESH_US &&
          __atomic_load_n (&shared->waiter, __ATOMIC_RELAXED) != process_token ())
        return TRUE;
    }

  g_mutex_lock (&self->board->lock);
  awaited = self->board->waiter != NULL && self->board->waiter != self &&
            now - self->board->awaited_at < AWAITED_FRESH_US;
  g_mutex_unlock (&self->board->lock);
  return awaited;
}

/**
 * cg_store_give_way:
 *
 * Called between two transactions: while another connection waits for a
 * lock (see cg_store_is_awaited()), waits for it to
 * take the lock, up to a fifth of a second, so that it does not find the
 * lock taken again at its next try.
 */
void
cg_store_give_way (CgStore *self)
{
  gint64 until = g_get_monotonic_time () + GIVE_WAY_MAX_US;

  g_return_if_fail (CG_IS_STORE (self));

  while (cg_store_is_awaited (self) && g_get_monotonic_time () < until)
    g_usleep (BUSY_NAP_US);
}

/* Each entry takes the schema from version i to version i + 1 and runs in
 * one transaction with the version bump, so a migration that fails leaves
 * the database exactly as it was. Entries are only ever appended. */
static const char * const migrations[] = {
  /* 0 → 1: the project and its crawls. */
  "CREATE TABLE meta ("
  "  key   TEXT PRIMARY KEY,"
  "  value TEXT NOT NULL"
  ") WITHOUT ROWID;"
  "CREATE TABLE crawls ("
  "  id          INTEGER PRIMARY KEY,"
  "  kind        TEXT NOT NULL CHECK (kind IN ('crawl', 'explore', 'harvest')),"
  "  seed_url    TEXT NOT NULL,"
  "  config      TEXT NOT NULL DEFAULT '{}',"
  "  state       TEXT NOT NULL DEFAULT 'created',"
  "  created_at  INTEGER NOT NULL,"
  "  started_at  INTEGER,"
  "  finished_at INTEGER"
  ");",

  /* 1 → 2: the archival crawl: hosts, the frontier and seen set (urls),
   * what was fetched and where it is archived, and the link graph.
   * URLs that were seen but not fetched (out of scope, robots) stay in
   * urls with a reason, so the seen set and the link graph are complete. */
  "CREATE TABLE hosts ("
  "  id                INTEGER PRIMARY KEY,"
  "  crawl_id          INTEGER NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,"
  "  host_key          TEXT NOT NULL,"
  "  robots_status     INTEGER,"
  "  robots_body       BLOB,"
  "  robots_fetched_at INTEGER,"
  "  UNIQUE (crawl_id, host_key)"
  ");"
  "CREATE TABLE urls ("
  "  id            INTEGER PRIMARY KEY,"
  "  crawl_id      INTEGER NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,"
  "  host_id       INTEGER NOT NULL REFERENCES hosts (id),"
  "  url           TEXT NOT NULL,"
  "  depth         INTEGER NOT NULL,"
  "  hops          TEXT NOT NULL DEFAULT '',"
  "  via_id        INTEGER REFERENCES urls (id),"
  "  priority      INTEGER NOT NULL DEFAULT 0,"
  "  state         INTEGER NOT NULL DEFAULT 0,"
  "  reason        TEXT,"
  "  attempts      INTEGER NOT NULL DEFAULT 0,"
  "  not_before    INTEGER NOT NULL DEFAULT 0,"
  "  discovered_at INTEGER NOT NULL,"
  "  UNIQUE (crawl_id, url)"
  ");"
  "CREATE INDEX urls_queue ON urls (host_id, priority, id) WHERE state = 0;"
  "CREATE INDEX urls_state ON urls (crawl_id, state);"
  "CREATE TABLE warc_files ("
  "  id             INTEGER PRIMARY KEY,"
  "  crawl_id       INTEGER NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,"
  "  name           TEXT NOT NULL UNIQUE,"
  "  committed_size INTEGER NOT NULL DEFAULT 0,"
  "  closed         INTEGER NOT NULL DEFAULT 0"
  ");"
  "CREATE TABLE fetches ("
  "  id             INTEGER PRIMARY KEY,"
  "  crawl_id       INTEGER NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,"
  "  url_id         INTEGER NOT NULL REFERENCES urls (id),"
  "  fetched_at     INTEGER NOT NULL,"
  "  duration_ms    INTEGER NOT NULL DEFAULT 0,"
  "  status         INTEGER NOT NULL,"
  "  mime           TEXT,"
  "  size           INTEGER NOT NULL DEFAULT 0,"
  "  payload_digest TEXT,"
  "  ip             TEXT,"
  "  record_type    TEXT,"
  "  warc_file_id   INTEGER REFERENCES warc_files (id),"
  "  warc_offset    INTEGER,"
  "  warc_length    INTEGER,"
  "  warc_record_id TEXT,"
  "  warc_date      TEXT,"
  "  truncated      TEXT,"
  "  etag           TEXT,"
  "  last_modified  TEXT"
  ");"
  "CREATE INDEX fetches_url ON fetches (url_id);"
  "CREATE INDEX fetches_digest ON fetches (payload_digest);"
  "CREATE TABLE links ("
  "  from_id INTEGER NOT NULL REFERENCES urls (id),"
  "  to_id   INTEGER NOT NULL REFERENCES urls (id),"
  "  hop     TEXT NOT NULL,"
  "  path    TEXT,"
  "  anchor  TEXT,"
  "  PRIMARY KEY (from_id, to_id, hop)"
  ") WITHOUT ROWID;",

  /* 2 → 3: site models, versioned per site, and the class of each page
   * under each model (NULL for a page that fits no class). Classes are
   * referred to by their name, which is unique within a model. */
  "CREATE TABLE models ("
  "  id          INTEGER PRIMARY KEY,"
  "  site        TEXT NOT NULL,"
  "  version     INTEGER NOT NULL,"
  "  created_at  INTEGER NOT NULL,"
  "  parameters  TEXT NOT NULL DEFAULT '{}',"
  "  crawl_id    INTEGER REFERENCES crawls (id) ON DELETE SET NULL,"
  "  entry_class TEXT,"
  "  UNIQUE (site, version)"
  ");"
  "CREATE TABLE page_classes ("
  "  id          INTEGER PRIMARY KEY,"
  "  model_id    INTEGER NOT NULL REFERENCES models (id) ON DELETE CASCADE,"
  "  name        TEXT NOT NULL,"
  "  label       TEXT NOT NULL,"
  "  depth       INTEGER NOT NULL DEFAULT -1,"
  "  url_pattern TEXT,"
  "  schema      TEXT NOT NULL DEFAULT '[]',"
  "  samples     TEXT NOT NULL DEFAULT '[]',"
  "  n_pages     INTEGER NOT NULL DEFAULT 0,"
  "  UNIQUE (model_id, name)"
  ");"
  "CREATE TABLE class_links ("
  "  id        INTEGER PRIMARY KEY,"
  "  model_id  INTEGER NOT NULL REFERENCES models (id) ON DELETE CASCADE,"
  "  source    TEXT NOT NULL,"
  "  target    TEXT NOT NULL,"
  "  type      TEXT NOT NULL,"
  "  menu      TEXT,"
  "  xpath     TEXT NOT NULL,"
  "  n_links   INTEGER NOT NULL DEFAULT 0"
  ");"
  "CREATE TABLE data_links ("
  "  id        INTEGER PRIMARY KEY,"
  "  model_id  INTEGER NOT NULL REFERENCES models (id) ON DELETE CASCADE,"
  "  source    TEXT NOT NULL,"
  "  type      TEXT NOT NULL,"
  "  xpath     TEXT NOT NULL,"
  "  name      TEXT NOT NULL"
  ");"
  "CREATE TABLE nav_patterns ("
  "  id        INTEGER PRIMARY KEY,"
  "  model_id  INTEGER NOT NULL REFERENCES models (id) ON DELETE CASCADE,"
  "  rank      INTEGER NOT NULL,"
  "  pattern   TEXT NOT NULL,"
  "  score     REAL NOT NULL DEFAULT 0,"
  "  pages     INTEGER NOT NULL DEFAULT 0"
  ");"
  "CREATE TABLE page_labels ("
  "  url_id    INTEGER NOT NULL REFERENCES urls (id) ON DELETE CASCADE,"
  "  model_id  INTEGER NOT NULL REFERENCES models (id) ON DELETE CASCADE,"
  "  class     TEXT,"
  "  method    TEXT NOT NULL,"
  "  PRIMARY KEY (url_id, model_id)"
  ") WITHOUT ROWID;"
  "CREATE INDEX page_labels_class ON page_labels (model_id, class);",

  /* 3 → 4: data records. A wrapper is learned per class of a model and
   * says where the records and their fields are (JSON: kind list or
   * detail, region and record XPaths, named columns). Each record keeps
   * the page it came from (through urls), its region and its position in
   * the page, and its fields by column name (a JSON object). */
  "CREATE TABLE wrappers ("
  "  id          INTEGER PRIMARY KEY,"
  "  model_id    INTEGER NOT NULL REFERENCES models (id) ON DELETE CASCADE,"
  "  class       TEXT NOT NULL,"
  "  kind        TEXT NOT NULL CHECK (kind IN ('list', 'detail')),"
  "  definition  TEXT NOT NULL,"
  "  n_pages     INTEGER NOT NULL DEFAULT 0,"
  "  created_at  INTEGER NOT NULL,"
  "  UNIQUE (model_id, class)"
  ");"
  "CREATE TABLE records ("
  "  id          INTEGER PRIMARY KEY,"
  "  model_id    INTEGER NOT NULL REFERENCES models (id) ON DELETE CASCADE,"
  "  class       TEXT NOT NULL,"
  "  url_id      INTEGER NOT NULL REFERENCES urls (id) ON DELETE CASCADE,"
  "  region      TEXT NOT NULL,"
  "  position    INTEGER NOT NULL,"
  "  fields      TEXT NOT NULL,"
  "  UNIQUE (model_id, url_id, region, position)"
  ");"
  "CREATE INDEX records_class ON records (model_id, class);",

  /* 4 → 5: when the records of a model's sample were last extracted in
   * full (NULL: never, or an extraction was cut off), so that the window
   * can offer to finish what a stop or a quit left half done. A model
   * with records from before this version was extracted by a run that
   * could not say whether it ended; it is taken as done. */
  "ALTER TABLE models ADD COLUMN records_extracted_at INTEGER;"
  "UPDATE models SET records_extracted_at = created_at WHERE id IN (SELECT model_id FROM records);",

  /* 5 → 6: whether a fetch was a conditional request (If-None-Match or
   * If-Modified-Since sent): 1 or 0, NULL for fetches recorded before
   * this version, of which it is not known. */
  "ALTER TABLE fetches ADD COLUMN conditional INTEGER;",

  /* 6 → 7: the link graph as one row per page, its outlinks: a JSON array
   * of [target URL id, hop, anchor text or null], one per target and hop,
   * in the order of the page (edges stored before this version come in no
   * particular order). A row per edge was about a tenth of a fast crawl's
   * work; SQLite's JSON functions still query the edges one by one
   * (json_each), as cg_export_links() does. The old table's path column
   * was never filled. */
  "CREATE TABLE outlinks ("
  "  from_id INTEGER PRIMARY KEY REFERENCES urls (id),"
  "  edges   TEXT NOT NULL"
  ");"
  "INSERT INTO outlinks (from_id, edges) "
  "  SELECT from_id, json_group_array (json_array (to_id, hop, anchor)) FROM links GROUP BY from_id;"
  "DROP TABLE links;",

  /* 7 → 8: whether a skipped URL was skipped for the way it was reached
   * (too many links from the seed...), so that another way may still
   * queue it (see cg_frontier_add_skipped()). */
  "ALTER TABLE urls ADD COLUMN on_the_way INTEGER NOT NULL DEFAULT 0;",

  /* 8 → 9: how long the crawl log was at the crawl's last commit, so that
   * resuming cuts the lines of what was not committed (see
   * cg_crawl_log_open()). Unknown (NULL) for the crawls before, whose
   * logs are only cut to whole lines. */
  "ALTER TABLE crawls ADD COLUMN log_size INTEGER DEFAULT 0;"
  "UPDATE crawls SET log_size = NULL;",
};

#define LATEST_VERSION ((int) G_N_ELEMENTS (migrations))

static void
cg_store_finalize (GObject *object)
{
  CgStore *self = CG_STORE (object);

  if (self->db != NULL)
    sqlite3_close_v2 (self->db);
  if (self->board != NULL)
    turn_board_release (self->board, self);
  g_free (self->path);

  G_OBJECT_CLASS (cg_store_parent_class)->finalize (object);
}

static void
cg_store_class_init (CgStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cg_store_finalize;
}

static void
cg_store_init (CgStore *self)
{
}

/* The error for SQLite's result @code, with SQLite's @message. */
static gboolean
set_sql_error_message (GError     **error,
                       const char  *path,
                       int          code,
                       const char  *message)
{
  int primary = code & 0xff;

  if (primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT)
    g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_CORRUPT,
                 _("The project database “%s” is damaged: %s"), path, message);
  /* SQLite's own words ("attempt to write a readonly database") do not
   * say that reading a project writes to it too (WAL mode keeps its
   * shared memory and journal beside the database), nor what cannot be
   * written: the file, its folder or the whole file system. */
  else if (primary == SQLITE_READONLY || primary == SQLITE_PERM || primary == SQLITE_CANTOPEN)
    {
      g_autofree char *folder = g_path_get_dirname (path);
      int file_errno = g_access (path, W_OK) == 0 ? 0 : errno;
      int folder_errno = g_access (folder, W_OK) == 0 ? 0 : errno;

      if (file_errno == EROFS || folder_errno == EROFS)
        g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_SQL,
                     _("The project database “%s” cannot be written (%s): the file system that holds it is "
                       "read-only, so copy the project to a writable disk"),
                     path, message);
      else if (folder_errno != 0)
        g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_SQL,
                     _("The project database “%s” cannot be written (%s): Cartograph needs to write to a "
                       "project’s folder even to read it, so check that folder’s permissions"),
                     path, message);
      else if (file_errno != 0 && file_errno != ENOENT)
        g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_SQL,
                     _("The project database “%s” cannot be written (%s): the file itself is read-only, "
                       "so make it writable"),
                     path, message);
      else
        g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_SQL,
                     _("The project database “%s” cannot be written (%s): check the permissions of the file "
                       "and of its folder"),
                     path, message);
    }
  else
    g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_SQL,
                 _("Database error in “%s”: %s"), path, message);
  return FALSE;
}

static gboolean
set_sql_error (GError     **error,
               sqlite3     *db,
               const char  *path,
               int          code)
{
  int primary = code & 0xff;
  int system_errno = db != NULL ? sqlite3_system_errno (db) : 0;
  g_autofree char *message = NULL;

  /* SQLite says "database or disk is full" (its page limit is far out of
   * reach: it is the disk), or "disk I/O error" for a write that ran out
   * of space, where the system's reason says what to do about it. */
  if (primary == SQLITE_FULL || (primary == SQLITE_IOERR && (system_errno == ENOSPC || system_errno == EDQUOT)))
    {
      g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_SQL,
                   _("The disk holding the project database “%s” is full: free some space and try again; "
                     "what was stored before is kept"),
                   path);
      return FALSE;
    }
  if (primary == SQLITE_IOERR && system_errno != 0)
    message = g_strdup_printf ("%s (%s)", db != NULL ? sqlite3_errmsg (db) : sqlite3_errstr (code),
                               g_strerror (system_errno));
  return set_sql_error_message (error, path, code,
                                message != NULL ? message : db != NULL ? sqlite3_errmsg (db) : sqlite3_errstr (code));
}

int
cg_store_get_latest_version (void)
{
  return LATEST_VERSION;
}

static gboolean
query_int (sqlite3     *db,
           const char  *path,
           const char  *sql,
           int         *out_value,
           GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    return set_sql_error (error, db, path, rc);
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW)
    return set_sql_error (error, db, path, rc);
  *out_value = sqlite3_column_int (stmt, 0);
  return TRUE;
}

/* Reads the header and checks the file page by page before anything is
 * written, so that a damaged or foreign file is reported and left as it was.
 * The check runs on a read-only connection that is closed again. */
static gboolean
check_existing_database (const char  *path,
                         int         *out_version,
                         GError     **error)
{
  sqlite3 *db = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int application_id = 0;
  int version = 0;
  int rc;
  gboolean ok = FALSE;

  rc = sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL);
  if (rc != SQLITE_OK)
    {
      set_sql_error (error, db, path, rc);
      goto out;
    }
  /* It waits for locks as long as a project's connections do: another
   * connection may have the database to itself for a moment, as the last
   * one to close has while it checkpoints. Its reads never hold a writer
   * up, so it needs no turn (see busy_cb()). */
  sqlite3_busy_timeout (db, BUSY_TIMEOUT_US / 1000);

  if (!query_int (db, path, "PRAGMA application_id", &application_id, error))
    goto out;

  rc = sqlite3_prepare_v2 (db, "PRAGMA quick_check", -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    {
      set_sql_error (error, db, path, rc);
      goto out;
    }
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW)
    {
      set_sql_error (error, db, path, rc);
      goto out;
    }
  if (g_strcmp0 ((const char *) sqlite3_column_text (stmt, 0), "ok") != 0)
    {
      g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_CORRUPT,
                   _("The project database “%s” is damaged: %s"),
                   path, (const char *) sqlite3_column_text (stmt, 0));
      goto out;
    }

  if (application_id != CG_STORE_APPLICATION_ID)
    {
      g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_NOT_A_PROJECT,
                   _("“%s” is an SQLite database, but not a Cartograph project"),
                   path);
      goto out;
    }

  if (!query_int (db, path, "PRAGMA user_version", &version, error))
    goto out;

  if (version > LATEST_VERSION)
    {
      g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_TOO_NEW,
                   _("The project “%s” was written by a newer Cartograph "
                     "(schema version %d; this version reads up to %d). "
                     "It has not been changed."),
                   path, version, LATEST_VERSION);
      goto out;
    }

  *out_version = version;
  ok = TRUE;

out:
  g_clear_pointer (&stmt, sqlite3_finalize);
  sqlite3_close_v2 (db);
  return ok;
}

gboolean
cg_store_exec (CgStore     *self,
               const char  *sql,
               GError     **error)
{
  char *message = NULL;
  int rc;

  g_return_val_if_fail (CG_IS_STORE (self), FALSE);

  rc = sqlite3_exec (self->db, sql, NULL, NULL, &message);
  if (rc != SQLITE_OK)
    {
      set_sql_error_message (error, self->path, rc, message != NULL ? message : sqlite3_errstr (rc));
      sqlite3_free (message);
      return FALSE;
    }
  return TRUE;
}

sqlite3_stmt *
cg_store_prepare (CgStore     *self,
                  const char  *sql,
                  GError     **error)
{
  sqlite3_stmt *stmt = NULL;
  int rc;

  g_return_val_if_fail (CG_IS_STORE (self), NULL);

  rc = sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    {
      set_sql_error (error, self->db, self->path, rc);
      return NULL;
    }
  return stmt;
}

gboolean
cg_store_step_done (CgStore       *self,
                    sqlite3_stmt  *stmt,
                    GError       **error)
{
  int rc = sqlite3_step (stmt);

  if (rc != SQLITE_DONE && rc != SQLITE_ROW)
    return set_sql_error (error, self->db, self->path, rc);
  return TRUE;
}

gboolean
cg_store_set_error (CgStore  *self,
                    int       code,
                    GError  **error)
{
  g_return_val_if_fail (CG_IS_STORE (self), FALSE);
  return set_sql_error (error, self->db, self->path, code);
}

gboolean
cg_store_begin (CgStore  *self,
                GError  **error)
{
  return cg_store_exec (self, "BEGIN IMMEDIATE", error);
}

gboolean
cg_store_commit (CgStore  *self,
                 GError  **error)
{
  return cg_store_exec (self, "COMMIT", error);
}

/**
 * cg_store_checkpoint:
 *
 * Copies the write-ahead log into the database file, as far as the other
 * connections' reads allow (a passive checkpoint), so that the work is
 * not left to the last connection to close. What cannot be copied now is
 * copied by a later checkpoint, so a failure is not an error.
 */
void
cg_store_checkpoint (CgStore *self)
{
  g_return_if_fail (CG_IS_STORE (self));
  sqlite3_wal_checkpoint_v2 (self->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
}

void
cg_store_rollback (CgStore *self)
{
  if (!sqlite3_get_autocommit (self->db))
    sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
}

static gboolean
migrate (CgStore  *self,
         int       target,
         GError  **error)
{
  while (self->schema_version < target)
    {
      int next = self->schema_version + 1;
      g_autofree char *bump = g_strdup_printf ("PRAGMA user_version = %d", next);

      if (!cg_store_begin (self, error))
        return FALSE;
      if (!cg_store_exec (self, migrations[self->schema_version], error) ||
          !cg_store_exec (self, bump, error) ||
          !cg_store_commit (self, error))
        {
          cg_store_rollback (self);
          g_prefix_error (error, _("Could not upgrade the project schema to version %d: "), next);
          return FALSE;
        }
      self->schema_version = next;
    }
  return TRUE;
}

/* SQLite refuses to open a database whose absolute path, with the
 * "-journal" it may add for its journal, is longer than its file system
 * layer's limit (512 bytes on Unix), and says only "unable to open
 * database file", which sent users to check permissions. @suffix is what
 * the file being opened adds to @path (see create_at_version()), or NULL. */
static gboolean
check_path_length (const char  *path,
                   const char  *suffix,
                   GError     **error)
{
  static const char journal_suffix[] = "-journal";
  sqlite3_vfs *vfs = sqlite3_vfs_find (NULL);
  g_autofree char *absolute = g_canonicalize_filename (path, NULL);
  gsize length = strlen (absolute) + (suffix != NULL ? strlen (suffix) : 0) + strlen (journal_suffix);
  gsize excess;

  if (vfs == NULL || length <= (gsize) vfs->mxPathname)
    return TRUE;
  excess = length - (gsize) vfs->mxPathname;
  g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_PATH_TOO_LONG,
               g_dngettext (GETTEXT_PACKAGE,
                            "The path of the project database “%s” is too long for SQLite: its files may have "
                            "paths of at most %d bytes, and this one would need %" PRIu64 "; choose a "
                            "project folder with a path %" PRIu64 " byte shorter",
                            "The path of the project database “%s” is too long for SQLite: its files may have "
                            "paths of at most %d bytes, and this one would need %" PRIu64 "; choose a "
                            "project folder with a path %" PRIu64 " bytes shorter",
                            excess),
               absolute, vfs->mxPathname, (guint64) length, (guint64) excess);
  return FALSE;
}

static CgStore *
open_connection (const char  *path,
         int          flags,
         int          version,
         GError     **error)
{
  g_autoptr(CgStore) self = g_object_new (CG_TYPE_STORE, NULL);
  int rc;

  self->path = g_strdup (path);
  self->schema_version = version;

  rc = sqlite3_open_v2 (path, &self->db, flags | SQLITE_OPEN_READWRITE, NULL);
  if (rc != SQLITE_OK)
    {
      set_sql_error (error, self->db, path, rc);
      return NULL;
    }
  sqlite3_extended_result_codes (self->db, 1);
  /* Crawls write from their own thread while the window reads and
   * writes; a short wait for the lock is better than an error the user
   * cannot act on. See busy_cb(). */
  self->board = turn_board_acquire (sqlite3_db_filename (self->db, "main"));
  sqlite3_busy_handler (self->db, busy_cb, self);

  if (!cg_store_exec (self,
                      "PRAGMA journal_mode = WAL;"
                      "PRAGMA synchronous = NORMAL;"
                      "PRAGMA foreign_keys = ON;",
                      error))
    return NULL;

  return g_steal_pointer (&self);
}

/* The suffix of a database being created; see create_at_version(). */
#define CREATING_SUFFIX ".creating"

void
cg_store_remove_files (const char *path)
{
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);
  g_autofree char *journal = g_strconcat (path, "-journal", NULL);
  g_autofree char *turn = g_strconcat (path, CG_STORE_TURN_SUFFIX, NULL);

  g_unlink (path);
  g_unlink (wal);
  g_unlink (shm);
  g_unlink (journal);
  g_unlink (turn);
}

/* The schema is built under a temporary name and the finished file is
 * renamed into place, so that a process killed while creating a project
 * never leaves a database without its schema under the real name. */
static CgStore *
create_at_version (const char  *path,
                   int          version,
                   GError     **error)
{
  g_autoptr(CgStore) self = NULL;
  g_autofree char *set_id = NULL;
  g_autofree char *building = g_strconcat (path, CREATING_SUFFIX, NULL);

  if (g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_EXISTS,
                   _("Cannot create the project database “%s”: the file already exists"),
                   path);
      return NULL;
    }

  if (!check_path_length (path, CREATING_SUFFIX, error))
    return NULL;

  /* What an earlier creation left behind when it was killed. */
  cg_store_remove_files (building);

  self = open_connection (building, SQLITE_OPEN_CREATE, 0, error);
  if (self == NULL)
    {
      cg_store_remove_files (building);
      return NULL;
    }

  set_id = g_strdup_printf ("PRAGMA application_id = %d", CG_STORE_APPLICATION_ID);
  if (!cg_store_exec (self, set_id, error) || !migrate (self, version, error))
    {
      g_clear_object (&self);
      cg_store_remove_files (building);
      return NULL;
    }

  /* Closing the only connection checkpoints the WAL into the file. */
  g_clear_object (&self);
  if (g_rename (building, path) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Cannot create the project database “%s”: %s"), path, g_strerror (saved_errno));
      cg_store_remove_files (building);
      return NULL;
    }
  /* What is left under that name, the file its one connection took turns
   * through. */
  cg_store_remove_files (building);

  return open_connection (path, 0, version, error);
}

gboolean
cg_store_is_leftover_file (const char *name)
{
  return strstr (name, CREATING_SUFFIX) != NULL;
}

CgStore *
cg_store_create (const char  *path,
                 GError     **error)
{
  g_return_val_if_fail (path != NULL, NULL);

  return create_at_version (path, LATEST_VERSION, error);
}

CgStore *
cg_store_create_at_version (const char  *path,
                            int          version,
                            GError     **error)
{
  g_return_val_if_fail (version >= 0 && version <= LATEST_VERSION, NULL);

  return create_at_version (path, version, error);
}

CgStore *
cg_store_open (const char  *path,
               GError     **error)
{
  g_autoptr(CgStore) self = NULL;
  int version = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_NOT_FOUND,
                   _("The project database “%s” does not exist"), path);
      return NULL;
    }

  if (!check_path_length (path, NULL, error) || !check_existing_database (path, &version, error))
    return NULL;

  self = open_connection (path, 0, version, error);
  if (self == NULL || !migrate (self, LATEST_VERSION, error))
    return NULL;

  return g_steal_pointer (&self);
}

const char *
cg_store_get_path (CgStore *self)
{
  g_return_val_if_fail (CG_IS_STORE (self), NULL);
  return self->path;
}

sqlite3 *
cg_store_get_db (CgStore *self)
{
  g_return_val_if_fail (CG_IS_STORE (self), NULL);
  return self->db;
}

int
cg_store_get_schema_version (CgStore *self)
{
  g_return_val_if_fail (CG_IS_STORE (self), -1);
  return self->schema_version;
}

char *
cg_store_get_meta (CgStore    *self,
                   const char *key)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (CG_IS_STORE (self), NULL);

  stmt = cg_store_prepare (self, "SELECT value FROM meta WHERE key = ?1", NULL);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_text (stmt, 1, key, -1, SQLITE_TRANSIENT);
  if (sqlite3_step (stmt) != SQLITE_ROW)
    return NULL;
  return g_strdup ((const char *) sqlite3_column_text (stmt, 0));
}

gboolean
cg_store_set_meta (CgStore     *self,
                   const char  *key,
                   const char  *value,
                   GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (CG_IS_STORE (self), FALSE);

  stmt = cg_store_prepare (self,
                           "INSERT INTO meta (key, value) VALUES (?1, ?2) "
                           "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                           error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, key, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 2, value, -1, SQLITE_TRANSIENT);
  return cg_store_step_done (self, stmt, error);
}
