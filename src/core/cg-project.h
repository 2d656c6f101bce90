/* cg-project.h: a Cartograph project folder.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cg-store.h"

G_BEGIN_DECLS

/* The names inside a project folder. */
#define CG_PROJECT_DATABASE_NAME   "cartograph.db"
#define CG_PROJECT_WARC_DIR        "warc"
#define CG_PROJECT_THUMBNAILS_DIR  "thumbnails"

#define CG_TYPE_PROJECT (cg_project_get_type ())
G_DECLARE_FINAL_TYPE (CgProject, cg_project, CG, PROJECT, GObject)

CgProject  *cg_project_create              (const char  *folder,
                                            const char  *name,
                                            GError     **error);
/* Removes a project cg_project_create() has just made at @folder, before
 * anything else was put in it, when its creation cannot go on: its
 * database and its subfolders, and the folders from @folder up to
 * @made_from, which creation made (see
 * cg_project_first_missing_folder(), called before it; NULL when @folder
 * existed: a user's folder itself is never removed). Folders go only when
 * empty, so anything else found there stays, with the folders holding it.
 * cg_project_create() does this itself when it fails. */
void        cg_project_remove_unfinished   (const char  *folder,
                                            const char  *made_from);
/* The highest of @folder and its parents that does not exist yet: what
 * cg_project_create() would make. NULL when @folder exists. */
char       *cg_project_first_missing_folder (const char *folder);
CgProject  *cg_project_open                (const char  *folder,
                                            GError     **error);
/* cg_project_open() in a worker thread: opening checks the whole
 * database (PRAGMA quick_check), which takes seconds on a large project.
 * Once @cancellable is cancelled the result is G_IO_ERROR_CANCELLED and
 * the project, if it opened, is closed again. */
void        cg_project_open_async          (const char          *folder,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
CgProject  *cg_project_open_finish         (GAsyncResult        *result,
                                            GError             **error);
CgProject  *cg_project_open_or_create      (const char  *folder,
                                            GError     **error);
gboolean    cg_project_is_project_folder   (const char  *folder);

const char *cg_project_get_folder          (CgProject   *self);
const char *cg_project_get_name            (CgProject   *self);
CgStore    *cg_project_get_store           (CgProject   *self);
char       *cg_project_get_warc_dir        (CgProject   *self);
char       *cg_project_get_thumbnails_dir  (CgProject   *self);
gboolean    cg_project_owns_path           (CgProject   *self,
                                            const char  *path);

gint64      cg_project_add_crawl           (CgProject   *self,
                                            const char  *kind,
                                            const char  *seed_url,
                                            const char  *config_json,
                                            GError     **error);
guint       cg_project_count_crawls        (CgProject   *self);

/* One crawl of a project, as `info` and the window list it. */
typedef struct {
  gint64  id;
  char   *kind;        /* crawl, explore or harvest */
  char   *state;       /* created, running, stopped, finished, failed… */
  char   *seed_url;
  guint   n_fetched;   /* fetches recorded, pages and requisites */
  guint64 bytes;       /* their payloads */
} CgCrawlSummary;

void        cg_crawl_summary_free          (CgCrawlSummary *summary);
/* The project's crawls, oldest first; NULL with @error when the store
 * cannot be read. */
GPtrArray  *cg_project_list_crawls         (CgProject   *self,
                                            GError     **error);

G_END_DECLS
