/* cg-cdxj.h: CDXJ indexes of WARC files.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "cg-warc-reader.h"

G_BEGIN_DECLS

/* One index line, in the pywb / OpenWayback CDXJ convention:
 *
 *   SURT_KEY TIMESTAMP14 {"url": …, "mime": …, "status": …, "digest": …,
 *                         "length": …, "offset": …, "filename": …}
 *
 * All JSON values are strings, as pywb and warcio write them. "digest" is
 * the WARC-Payload-Digest without its "sha1:" label (the convention; a
 * SHA-256 digest is told apart by its length). "mime" and "status" are left
 * out when the record has none; "digest" too. "length" and "offset" are
 * those of the record's gzip member in "filename" (a base name, resolved
 * against the index's directory).
 *
 * Indexed records: response, revisit (mime "warc/revisit") and resource.
 * Request, metadata and warcinfo records are not replayed and are left
 * out, as pywb and warcio leave them out. */
typedef struct {
  char    *urlkey;
  char    *timestamp;
  char    *url;
  char    *mime;
  guint    status;
  char    *digest;
  guint64  length;
  guint64  offset;
  char    *filename;
} CgCdxjEntry;

void          cg_cdxj_entry_free        (CgCdxjEntry  *entry);

/* Parses one line (with or without its newline). */
CgCdxjEntry  *cg_cdxj_parse_line        (const char   *line,
                                         GError      **error);

/* The SURT form of url used as the sort key: scheme dropped, host labels
 * reversed and joined with ",", a leading "www" label dropped, default port
 * dropped, everything lower case, query arguments sorted, fragment
 * dropped. Anything that is not an http(s) URL is returned unchanged. */
char         *cg_cdxj_urlkey            (const char   *url);

/* The index path that belongs to a WARC file: "NAME.warc.gz" (or
 * "NAME.warc") becomes "NAME.cdxj" in the same directory. */
char         *cg_cdxj_path_for_warc     (const char   *warc_path);

/* An index being built: lines are collected in memory (a few hundred bytes
 * per record, so a 1 GB WARC file of small pages costs some megabytes) and
 * written sorted, byte-wise as `LC_ALL=C sort` does, in one atomic
 * replacement of the file. Used from one thread at a time. */
typedef struct _CgCdxjIndex CgCdxjIndex;

CgCdxjIndex  *cg_cdxj_index_new         (void);
void          cg_cdxj_index_free        (CgCdxjIndex  *self);
guint         cg_cdxj_index_get_n_lines (CgCdxjIndex  *self);

/* The "mime" of a line for a Content-Type value: the media type in lower
 * case, without parameters; NULL for NULL or an empty type. */
char         *cg_cdxj_mime_of_content_type (const char *content_type);
/* The "YYYYMMDDhhmmss" of a line for a WARC-Date ("2026-03-01T12:00:00Z"):
 * its first 14 digits, fewer if it has fewer. */
void          cg_cdxj_timestamp14_of_date  (const char *date,
                                            char        out[15]);

/* Adds one line. timestamp14 is "YYYYMMDDhhmmss"; mime, digest may be
 * NULL and status 0 when unknown (a NULL mime is written "unk", as pywb
 * does). */
void          cg_cdxj_index_add         (CgCdxjIndex  *self,
                                         const char   *url,
                                         const char   *timestamp14,
                                         const char   *mime,
                                         guint         status,
                                         const char   *digest,
                                         guint64       length,
                                         guint64       offset,
                                         const char   *filename);
/* Adds the line of a record read back; records of types that are not
 * indexed are skipped and TRUE returned. */
gboolean      cg_cdxj_index_add_record  (CgCdxjIndex  *self,
                                         CgWarcRecord *record,
                                         const char   *filename,
                                         GError      **error);
gboolean      cg_cdxj_index_write       (CgCdxjIndex  *self,
                                         const char   *path,
                                         GError      **error);

/* Reads warc_path through and writes its index to cdxj_path. */
gboolean      cg_cdxj_index_warc_file   (const char   *warc_path,
                                         const char   *cdxj_path,
                                         GError      **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgCdxjEntry, cg_cdxj_entry_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgCdxjIndex, cg_cdxj_index_free)

G_END_DECLS
