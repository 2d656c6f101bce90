/* cg-archive.h: archived HTTP responses, looked up by URL for replay.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <libsoup/soup.h>

G_BEGIN_DECLS

#define CG_ARCHIVE_ERROR (cg_archive_error_quark ())

typedef enum {
  CG_ARCHIVE_ERROR_NOT_FOUND,      /* the URL is not in the archive */
  CG_ARCHIVE_ERROR_BAD_SOURCE,     /* the WARC file or project cannot be used */
  CG_ARCHIVE_ERROR_BAD_RECORD,     /* the record of the URL cannot be replayed */
  CG_ARCHIVE_ERROR_TOO_LARGE,      /* more records or a larger payload than allowed */
} CgArchiveError;

/* A WARC file is indexed in memory when it is opened, a few hundred bytes
 * per record; a file with more records than this is refused (a project's
 * database indexes any number). */
#define CG_ARCHIVE_MAX_WARC_ENTRIES   2000000
/* Payloads larger than this are not replayed (the WARC reader keeps
 * smaller blocks only). */
#define CG_ARCHIVE_MAX_PAYLOAD_SIZE   (G_GUINT64_CONSTANT (64) * 1024 * 1024)

/* One archived response, ready to be served again. The payload is as the
 * server sent it: still content-encoded when the headers say so, but never
 * chunked. */
typedef struct {
  char               *url;           /* the archived target URI */
  guint               status;
  char               *reason;
  SoupMessageHeaders *headers;       /* the archived response headers */
  GBytes             *payload;
  char               *date;          /* WARC-Date of the record */
} CgArchiveResponse;

void               cg_archive_response_free  (CgArchiveResponse *response);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgArchiveResponse, cg_archive_response_free)

/* What was archived, from one of two sources: a WARC file (indexed from its
 * CDXJ file when one newer than the WARC file lies beside it, else read
 * through once), or a project folder, whose database says for every fetch
 * where its record is. URLs are matched as replay tools match them: by
 * their CDX key (SURT form, "www." and the default port dropped, query
 * arguments sorted) for a WARC file, by the crawler's normal form for a
 * project. When a URL was archived more than once, the latest capture is
 * replayed. Revisit records are replayed with the payload of the response
 * they refer to (by payload digest).
 *
 * An archive is safe to use from several threads: lookups are serialised. */
#define CG_TYPE_ARCHIVE (cg_archive_get_type ())
G_DECLARE_FINAL_TYPE (CgArchive, cg_archive, CG, ARCHIVE, GObject)

GQuark              cg_archive_error_quark       (void);

CgArchive          *cg_archive_new_for_warc      (const char  *warc_path,
                                                  GError     **error);
/* crawl_id 0 means every crawl of the project. */
CgArchive          *cg_archive_new_for_project   (const char  *project_folder,
                                                  gint64       crawl_id,
                                                  GError     **error);

/* A short description for messages: the WARC file or the project folder. */
const char         *cg_archive_get_description   (CgArchive   *self);

/* TRUE when a capture of @url exists (whatever its status). */
gboolean            cg_archive_contains          (CgArchive   *self,
                                                  const char  *url);

/* The latest capture of @url, read from its WARC file. Fails with
 * CG_ARCHIVE_ERROR_NOT_FOUND when there is none. */
CgArchiveResponse  *cg_archive_lookup            (CgArchive   *self,
                                                  const char  *url,
                                                  GError     **error);

/* The URLs of the archived HTML pages (status 200, type text/html or
 * application/xhtml+xml), in the order they were archived, at most
 * @max_pages (0 for no limit). */
GStrv               cg_archive_list_pages        (CgArchive   *self,
                                                  guint        max_pages,
                                                  GError     **error);

G_END_DECLS
