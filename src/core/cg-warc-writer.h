/* cg-warc-writer.h: writes WARC 1.1 files, one gzip member per record.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cg-warc.h"

G_BEGIN_DECLS

/* Once a file has reached this size, it is closed when the next record
 * comes and that record starts the next file. The last record of a file
 * may take it past the size: records (and the two records of an exchange)
 * are never split across files. */
#define CG_WARC_WRITER_DEFAULT_MAX_FILE_SIZE       (G_GUINT64_CONSTANT (1000000000))
/* libdeflate level 1. Compressing was the largest part of the WARC
 * thread's work, and in the crawl throughput benchmark (tests/bench) that
 * thread took about 40 % less time at level 1 than at level 6, for files
 * 2 % larger: HTML is so redundant that the fastest level removes most of
 * it. Levels run from 0 (stored) to 12; each warcinfo states the level. */
#define CG_WARC_WRITER_DEFAULT_COMPRESSION_LEVEL   1
#define CG_WARC_WRITER_MAX_COMPRESSION_LEVEL       12

#define CG_WARC_REVISIT_PROFILE_IDENTICAL_PAYLOAD \
  "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"
#define CG_WARC_REVISIT_PROFILE_NOT_MODIFIED \
  "http://netpreserve.org/warc/1.1/revisit/server-not-modified"
#define CG_WARC_CONFORMS_TO \
  "http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"

typedef enum {
  CG_WARC_ROBOTS_OBEY,
  CG_WARC_ROBOTS_IGNORE,
} CgWarcRobotsPolicy;

/* Why a payload is shorter than what the server sent (WARC-Truncated). */
typedef enum {
  CG_WARC_TRUNCATED_NONE,
  CG_WARC_TRUNCATED_LENGTH,
  CG_WARC_TRUNCATED_TIME,
  CG_WARC_TRUNCATED_DISCONNECT,
  CG_WARC_TRUNCATED_UNSPECIFIED,
} CgWarcTruncation;

/* Where a record went and what the store needs to know of it. */
typedef struct {
  /* The WARC file's base name, in the writer's directory. */
  char    *file_name;
  /* The offset of the record's gzip member in that file, and the member's
   * length: what a CDXJ line and cg_warc_reader_read_at() want. */
  guint64  offset;
  guint64  length;
  /* "<urn:uuid:…>". */
  char    *record_id;
  /* The WARC-Date written, e.g. "2026-03-01T12:00:00Z"; a revisit of this
   * record gives it as WARC-Refers-To-Date. */
  char    *date;
  char    *block_digest;
  /* "sha1:BASE32": for a response, the digest of the payload, which the
   * store keeps to find later identical payloads and write revisits; NULL
   * for records without one (warcinfo, metadata). For a revisit, the
   * digest it was given. */
  char    *payload_digest;
} CgWarcRecordInfo;

void cg_warc_record_info_free (CgWarcRecordInfo *info);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgWarcRecordInfo, cg_warc_record_info_free)

/* One HTTP exchange as the fetcher saw it, for cg_warc_writer_write_exchange().
 * Header blocks are the bytes as sent and as received: start line, fields,
 * and the empty line that ends them ("\r\n\r\n" at the end). The response
 * block starts with an HTTP/1.1 (or 1.0) status line: application/http is
 * HTTP/1 message syntax, so an HTTP/2 exchange is recorded as HTTP/1.1, as
 * other archiving tools record it. The payload is
 * the body as received with the transfer coding removed and the content
 * coding kept: a gzip-encoded page is stored gzip-encoded, with its
 * Content-Encoding line. The fetcher de-chunks, so the response header
 * block given here must not declare "Transfer-Encoding: chunked" (readers
 * would try to de-chunk the payload again); replace it with
 * "X-Archive-Orig-Transfer-Encoding: chunked" if it should be kept. */
typedef struct {
  const char       *target_uri;
  /* When the request was sent; NULL for now. Any time zone. */
  GDateTime        *date;
  /* The server's address, or NULL if unknown. */
  const char       *ip_address;

  const guint8     *request_headers;
  gsize             request_headers_length;
  const guint8     *request_body;
  gsize             request_body_length;

  const guint8     *response_headers;
  gsize             response_headers_length;
  const guint8     *payload;
  gsize             payload_length;
  /* The payload was cut (size limit, time limit, lost connection). */
  CgWarcTruncation  truncated;
  /* The payload's digest ("LABEL:BASE32") if the caller has computed it
   * already, or NULL. It is used only if it is of the writer's algorithm
   * (see cg_warc_writer_set_digest_algorithm()), and must be that of
   * payload: the writer does not check it. */
  const char       *payload_digest;
  /* The response's status code and Content-Type field value (NULL if it
   * has none), for the CDXJ index, if the caller has them from its own
   * parse of response_headers; a status of 0 leaves the writer to parse
   * the block for them. They must be those of response_headers: the
   * writer does not check. */
  guint             response_status;
  const char       *response_content_type;

  /* Set revisit_payload_digest to write a revisit record (identical
   * payload digest profile) instead of a response: payload is then
   * ignored and not stored. The other revisit fields name the record that
   * holds the payload; revisit_record_id may be NULL. */
  const char       *revisit_payload_digest;
  const char       *revisit_target_uri;
  const char       *revisit_date;
  const char       *revisit_record_id;
  /* The revisit's WARC-Profile: NULL for the identical payload digest
   * profile, or CG_WARC_REVISIT_PROFILE_NOT_MODIFIED for a 304 answer to
   * a conditional request (re-harvest). */
  const char       *revisit_profile;
} CgWarcExchange;

/* The writer. Files are named PREFIX-YYYYMMDDhhmmss-NNNNN.warc.gz (UTC
 * time the file was started, and a serial that goes on from the highest
 * one already in the directory for that prefix, so a resumed crawl never
 * reuses a name). Each file starts with a warcinfo record, which every
 * later record of the file names in WARC-Warcinfo-ID. A file is
 * started when the first record is written after creation, rollover or
 * cg_warc_writer_close(); settings changed in between apply to it.
 *
 * Each record is compressed and digested in the calling thread and
 * written with one write(2) of its whole gzip member, so a process killed
 * at any instant leaves at most a truncated last member, which
 * cg_warc_writer_repair_file() removes. Data is flushed to disk
 * (fdatasync) when a file is closed and on cg_warc_writer_sync(). A
 * writer can also hold records in memory and write many with one
 * write(2) (see cg_warc_writer_set_hold_records()).
 *
 * Beside each WARC file, its CDXJ index NAME.cdxj (see cg-cdxj.h) is
 * written, sorted, when the file is closed. A file without its index was
 * not closed: cg_warc_writer_recover() repairs it and writes the index.
 *
 * Threads: the writer has no thread affinity and may be called from any
 * thread, but from one thread at a time (it holds no lock). A crawler
 * with several workers either serialises calls or gives each worker its
 * own writer with its own prefix. */
#define CG_TYPE_WARC_WRITER (cg_warc_writer_get_type ())
G_DECLARE_FINAL_TYPE (CgWarcWriter, cg_warc_writer, CG, WARC_WRITER, GObject)

/* Creates the directory if needed. prefix must be non-empty, with no "/"
 * and no white space or control character. */
CgWarcWriter     *cg_warc_writer_new                (const char          *directory,
                                                     const char          *prefix,
                                                     GError             **error);

const char       *cg_warc_writer_get_directory      (CgWarcWriter        *self);
const char       *cg_warc_writer_get_prefix         (CgWarcWriter        *self);

/* A file is closed once it reaches @max_file_size, when the next record
 * comes; a record concurrent to the last one written (the metadata of an
 * exchange) still goes in its file, so that one exchange's records are
 * never split. */
void              cg_warc_writer_set_max_file_size  (CgWarcWriter        *self,
                                                     guint64              max_file_size);
void              cg_warc_writer_set_compression_level (CgWarcWriter     *self,
                                                     int                  level);
void              cg_warc_writer_set_digest_algorithm (CgWarcWriter      *self,
                                                     CgWarcDigestAlgorithm algorithm);
CgWarcDigestAlgorithm cg_warc_writer_get_digest_algorithm (CgWarcWriter  *self);
/* Whether records are held in memory, to be written to the file together
 * by cg_warc_writer_flush(), cg_warc_writer_sync() or
 * cg_warc_writer_close(), or once a mebibyte is held (default FALSE).
 * A record returned is then in the file only after one of these has
 * succeeded, and an error from any call may have taken back every record
 * held since the last successful flush. A crawl that writes thousands of
 * small records a second saves as many system calls; it must not count a
 * record as stored before its flush. Turning it off flushes first. */
gboolean          cg_warc_writer_set_hold_records   (CgWarcWriter        *self,
                                                     gboolean             hold_records,
                                                     GError             **error);
/* Writes the held records to the file (not to disk: see
 * cg_warc_writer_sync()). On error none of them is in the file. */
gboolean          cg_warc_writer_flush              (CgWarcWriter        *self,
                                                     GError             **error);
/* Whether to write NAME.cdxj beside each file (default TRUE). */
void              cg_warc_writer_set_write_index    (CgWarcWriter        *self,
                                                     gboolean             write_index);

/* What the warcinfo record of each following file says. crawl_config is
 * "name: value" lines (LF or CRLF ends) such as "seed: http://…" or
 * "max-pages: 200"; a line of another form, or a name that is not an
 * HTTP token, is refused. The warcinfo also gives software, format,
 * conformsTo, hostname, operator (if set) and "robots: obey" or
 * "robots: ignore". */
gboolean          cg_warc_writer_set_crawl_config   (CgWarcWriter        *self,
                                                     const char          *crawl_config,
                                                     GError             **error);
void              cg_warc_writer_set_robots_policy  (CgWarcWriter        *self,
                                                     CgWarcRobotsPolicy   policy);
gboolean          cg_warc_writer_set_operator       (CgWarcWriter        *self,
                                                     const char          *operator_,
                                                     GError             **error);

/* The base name of the file being written, or NULL when none is open. */
const char       *cg_warc_writer_get_current_file_name (CgWarcWriter     *self);

/* A fresh "<urn:uuid:…>" for callers that link records written later. */
char             *cg_warc_new_record_id             (void);
/* @date (NULL: now) as the writer writes WARC-Date ("2026-03-01T12:00:00Z"),
 * for callers that refer to a record before it is written. */
char             *cg_warc_format_date               (GDateTime           *date);

/* Request and response of one exchange (or request and revisit), each
 * with WARC-Concurrent-To naming the other, written to the same file,
 * the request first. On error nothing of the exchange stays in the file.
 * out_request / out_response may be NULL. */
gboolean          cg_warc_writer_write_exchange     (CgWarcWriter        *self,
                                                     const CgWarcExchange *exchange,
                                                     CgWarcRecordInfo   **out_request,
                                                     CgWarcRecordInfo   **out_response,
                                                     GError             **error);

/* Single records. date NULL means now; ip_address and concurrent_to (a
 * WARC-Record-ID) may be NULL. Header blocks are as described at
 * CgWarcExchange. */
CgWarcRecordInfo *cg_warc_writer_write_request      (CgWarcWriter        *self,
                                                     const char          *target_uri,
                                                     GDateTime           *date,
                                                     const char          *ip_address,
                                                     const char          *concurrent_to,
                                                     const guint8        *headers,
                                                     gsize                headers_length,
                                                     const guint8        *body,
                                                     gsize                body_length,
                                                     GError             **error);
CgWarcRecordInfo *cg_warc_writer_write_response     (CgWarcWriter        *self,
                                                     const char          *target_uri,
                                                     GDateTime           *date,
                                                     const char          *ip_address,
                                                     const char          *concurrent_to,
                                                     const guint8        *headers,
                                                     gsize                headers_length,
                                                     const guint8        *payload,
                                                     gsize                payload_length,
                                                     CgWarcTruncation     truncated,
                                                     GError             **error);
/* A revisit (identical-payload-digest profile): the response header block
 * only, with the payload digest of the earlier record and where it is.
 * refers_to_record_id may be NULL. */
CgWarcRecordInfo *cg_warc_writer_write_revisit      (CgWarcWriter        *self,
                                                     const char          *target_uri,
                                                     GDateTime           *date,
                                                     const char          *ip_address,
                                                     const char          *concurrent_to,
                                                     const guint8        *headers,
                                                     gsize                headers_length,
                                                     const char          *payload_digest,
                                                     const char          *refers_to_target_uri,
                                                     const char          *refers_to_date,
                                                     const char          *refers_to_record_id,
                                                     GError             **error);
/* An application/warc-fields metadata record about target_uri: one
 * "outlink: URL" line per outlink (in order; an entry may carry more after
 * a space, such as "URL L a/@href"), then fields, a NULL-terminated list
 * of alternating names and values ("page-class", "product", NULL).
 * Either list may be NULL. */
CgWarcRecordInfo *cg_warc_writer_write_metadata     (CgWarcWriter        *self,
                                                     const char          *target_uri,
                                                     GDateTime           *date,
                                                     const char          *concurrent_to,
                                                     const char * const  *outlinks,
                                                     const char * const  *fields,
                                                     GError             **error);
/* A resource record (a screenshot, say): data as it is, of content_type. */
CgWarcRecordInfo *cg_warc_writer_write_resource     (CgWarcWriter        *self,
                                                     const char          *target_uri,
                                                     GDateTime           *date,
                                                     const char          *concurrent_to,
                                                     const char          *content_type,
                                                     const guint8        *data,
                                                     gsize                length,
                                                     GError             **error);

/* Flushes what was written to disk (for crawl checkpoints). */
gboolean          cg_warc_writer_sync               (CgWarcWriter        *self,
                                                     GError             **error);
/* Closes the current file (flushed, index written). The next record
 * starts a new file. Also done on rollover and, errors only logged, when
 * the writer is finalized. */
gboolean          cg_warc_writer_close              (CgWarcWriter        *self,
                                                     GError             **error);

/* Crash repair. Reads path through and cuts it after the last complete
 * record (gzip member and WARC record both complete), so that the
 * truncated last member a kill leaves is removed. Also removes a tail of
 * zero bytes (what a power cut can leave). Refuses, with
 * CG_WARC_ERROR_DAMAGED, a file damaged anywhere else, since cutting there
 * would lose complete records. Not for a file a writer has open.
 * out_truncated_bytes (may be NULL) is set to how much was cut. */
gboolean          cg_warc_writer_repair_file        (const char          *path,
                                                     guint64             *out_truncated_bytes,
                                                     GError             **error);

/* Whether @name is a file a writer with @prefix writes
 * ("PREFIX-YYYYMMDDhhmmss-NNNNN.warc.gz"), and not one of a longer prefix
 * that starts with it ("PREFIX-2-…"). */
gboolean          cg_warc_writer_is_own_file        (const char          *prefix,
                                                     const char          *name);

/* What a resumed crawl calls before writing again: every
 * PREFIX-*.warc.gz in directory that has no index (it was not closed) is
 * repaired and indexed. out_truncated_bytes (may be NULL) is the total
 * cut. */
gboolean          cg_warc_writer_recover            (const char          *directory,
                                                     const char          *prefix,
                                                     guint64             *out_truncated_bytes,
                                                     GError             **error);

G_END_DECLS
