/* cg-store.h: the project's SQLite database, its schema and migrations.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <sqlite3.h>

G_BEGIN_DECLS

#define CG_STORE_ERROR (cg_store_error_quark ())

typedef enum {
  CG_STORE_ERROR_NOT_FOUND,
  CG_STORE_ERROR_NOT_A_PROJECT,
  CG_STORE_ERROR_CORRUPT,
  CG_STORE_ERROR_TOO_NEW,
  CG_STORE_ERROR_EXISTS,
  CG_STORE_ERROR_SQL,
  CG_STORE_ERROR_PATH_TOO_LONG,
} CgStoreError;

/* Stored in the SQLite header so that Cartograph databases can be told from
 * any other SQLite file without reading a table: the bytes "CART". */
#define CG_STORE_APPLICATION_ID 0x43415254

/* The file beside the database through which the connections of several
 * processes take turns at the write lock (see cg_store_is_awaited()):
 * DATABASE-turn, as SQLite keeps DATABASE-wal and DATABASE-shm. */
#define CG_STORE_TURN_SUFFIX "-turn"

#define CG_TYPE_STORE (cg_store_get_type ())
G_DECLARE_FINAL_TYPE (CgStore, cg_store, CG, STORE, GObject)

GQuark        cg_store_error_quark           (void);

CgStore      *cg_store_create                (const char   *path,
                                              GError      **error);
CgStore      *cg_store_open                  (const char   *path,
                                              GError      **error);

const char   *cg_store_get_path              (CgStore      *self);
sqlite3      *cg_store_get_db                (CgStore      *self);
int           cg_store_get_schema_version    (CgStore      *self);
int           cg_store_get_latest_version    (void);

gboolean      cg_store_exec                  (CgStore      *self,
                                              const char   *sql,
                                              GError      **error);
sqlite3_stmt *cg_store_prepare               (CgStore      *self,
                                              const char   *sql,
                                              GError      **error);
gboolean      cg_store_step_done             (CgStore      *self,
                                              sqlite3_stmt *stmt,
                                              GError      **error);
/* Sets @error for SQLite's result @code on this store's connection (with
 * the connection's message), as every failing call of CgStore does: a
 * damaged database is CG_STORE_ERROR_CORRUPT, anything else
 * CG_STORE_ERROR_SQL, naming the database. Returns FALSE, for
 * "return cg_store_set_error (…);". */
gboolean      cg_store_set_error             (CgStore      *self,
                                              int           code,
                                              GError      **error);
gboolean      cg_store_begin                 (CgStore      *self,
                                              GError      **error);
gboolean      cg_store_is_awaited            (CgStore      *self);
void          cg_store_give_way              (CgStore      *self);
gboolean      cg_store_commit                (CgStore      *self,
                                              GError      **error);
void          cg_store_rollback              (CgStore      *self);
void          cg_store_checkpoint            (CgStore      *self);

char         *cg_store_get_meta              (CgStore      *self,
                                              const char   *key);
gboolean      cg_store_set_meta              (CgStore      *self,
                                              const char   *key,
                                              const char   *value,
                                              GError      **error);

/* Removes the database at @path and the files kept beside it (SQLite's
 * -wal, -shm and -journal, and DATABASE-turn), those that are there. */
void          cg_store_remove_files          (const char   *path);

/* Whether @name is a file an interrupted cg_store_create() left behind. */
gboolean      cg_store_is_leftover_file      (const char   *name);

/* For tests of the migration path: open with the schema stopped at an older
 * version, as an older Cartograph would have left it. */
CgStore      *cg_store_create_at_version     (const char   *path,
                                              int           version,
                                              GError      **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

G_END_DECLS
