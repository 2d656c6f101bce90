/* cg-warc-reader.h: reads WARC files, record by record or at an offset.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <libsoup/soup.h>

#include "cg-warc.h"

G_BEGIN_DECLS

/* The largest WARC header (version line and fields) the reader accepts. */
#define CG_WARC_READER_MAX_HEADER_SIZE          (256 * 1024)
/* The largest HTTP header block inside a record that is parsed. */
#define CG_WARC_READER_MAX_HTTP_HEADER_SIZE     (256 * 1024)
/* Blocks up to this size are kept in memory; larger ones are read through
 * (their digests are still checked) and only their first
 * CG_WARC_READER_MAX_HTTP_HEADER_SIZE bytes are kept. */
#define CG_WARC_READER_DEFAULT_MAX_BLOCK_SIZE   (G_GUINT64_CONSTANT (64) * 1024 * 1024)

typedef enum {
  CG_WARC_RECORD_OTHER,
  CG_WARC_RECORD_WARCINFO,
  CG_WARC_RECORD_RESPONSE,
  CG_WARC_RECORD_RESOURCE,
  CG_WARC_RECORD_REQUEST,
  CG_WARC_RECORD_METADATA,
  CG_WARC_RECORD_REVISIT,
  CG_WARC_RECORD_CONVERSION,
  CG_WARC_RECORD_CONTINUATION,
} CgWarcRecordType;

/* One record as read. Immutable and reference counted, so it may be handed
 * to another thread. */
typedef struct _CgWarcRecord CgWarcRecord;

#define CG_TYPE_WARC_RECORD (cg_warc_record_get_type ())
GType             cg_warc_record_get_type           (void) G_GNUC_CONST;
CgWarcRecord     *cg_warc_record_ref                (CgWarcRecord  *record);
void              cg_warc_record_unref              (CgWarcRecord  *record);

/* Where the record is: for a .warc.gz file, the offset of the gzip member
 * the record starts in and the compressed length up to the end of the
 * member it ends in (0 when another record follows in that same member,
 * which Cartograph never writes); for a plain .warc file, the offset of
 * "WARC/" and the length through the two CRLF after the block. */
guint64           cg_warc_record_get_offset         (CgWarcRecord  *record);
guint64           cg_warc_record_get_length         (CgWarcRecord  *record);

/* "WARC/1.1" or "WARC/1.0". */
const char       *cg_warc_record_get_version        (CgWarcRecord  *record);
CgWarcRecordType  cg_warc_record_get_record_type    (CgWarcRecord  *record);
/* The WARC-Type value as written, for types the enum does not know. */
const char       *cg_warc_record_get_type_name      (CgWarcRecord  *record);
const char       *cg_warc_record_get_record_id      (CgWarcRecord  *record);
const char       *cg_warc_record_get_target_uri     (CgWarcRecord  *record);
/* The WARC-Date value as written, and parsed (NULL if it does not parse). */
const char       *cg_warc_record_get_date_string    (CgWarcRecord  *record);
GDateTime        *cg_warc_record_get_date           (CgWarcRecord  *record);
guint64           cg_warc_record_get_content_length (CgWarcRecord  *record);

/* The first field of that name (compared ASCII case-insensitively), with
 * continuation lines joined by one space; NULL if there is none. */
const char       *cg_warc_record_get_header         (CgWarcRecord  *record,
                                                     const char    *name);
guint             cg_warc_record_get_n_headers      (CgWarcRecord  *record);
void              cg_warc_record_get_nth_header     (CgWarcRecord  *record,
                                                     guint          index,
                                                     const char   **name,
                                                     const char   **value);

/* The whole block, or NULL when it was larger than the reader's maximum
 * block size and was read through without being kept. */
GBytes           *cg_warc_record_get_block          (CgWarcRecord  *record);
/* TRUE when the digests present in the record were computed and matched
 * (the reader verifies only when asked to; unknown algorithms are not
 * verified). */
gboolean          cg_warc_record_get_digests_verified (CgWarcRecord *record);

/* The HTTP message in a request, response or revisit record. The
 * payload is the rest of the block as stored: still content-encoded if it
 * was (gzip, br), and de-chunked. Cartograph's fetcher stores payloads
 * de-chunked and does not keep a "Transfer-Encoding: chunked" line in the
 * header block it hands to the writer; when a record from another tool
 * still declares it, transfer_chunked is TRUE and the payload is what that
 * tool stored, which is normally still chunked. */
typedef struct {
  gboolean            is_request;
  /* Requests. */
  char               *method;
  char               *request_target;
  /* Responses. */
  guint               status;
  char               *reason;
  SoupHTTPVersion     http_version;
  SoupMessageHeaders *headers;
  /* Bytes of the header block, its empty last line included. */
  gsize               header_length;
  /* NULL when the block was too large to be kept. */
  GBytes             *payload;
  gboolean            transfer_chunked;
} CgWarcHttpMessage;

void               cg_warc_http_message_free        (CgWarcHttpMessage *message);

CgWarcHttpMessage *cg_warc_record_parse_http        (CgWarcRecord  *record,
                                                     GError       **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgWarcRecord, cg_warc_record_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgWarcHttpMessage, cg_warc_http_message_free)

/* The reader. It reads .warc.gz files (a gzip member per record, or any
 * gzip stream of members) and plain .warc files, which it tells apart by
 * their first bytes. Memory is bounded: the input and output buffers are
 * fixed, headers are capped, and blocks above the maximum block size are
 * read through rather than kept. Every error names the file and the offset.
 * A reader is used from one thread at a time. */
#define CG_TYPE_WARC_READER (cg_warc_reader_get_type ())
G_DECLARE_FINAL_TYPE (CgWarcReader, cg_warc_reader, CG, WARC_READER, GObject)

CgWarcReader  *cg_warc_reader_new                  (const char    *path,
                                                    GError       **error);
const char    *cg_warc_reader_get_path             (CgWarcReader  *self);
gboolean       cg_warc_reader_is_compressed        (CgWarcReader  *self);

void           cg_warc_reader_set_max_block_size   (CgWarcReader  *self,
                                                    guint64        max_block_size);
/* When TRUE, WARC-Block-Digest and WARC-Payload-Digest are checked for
 * every record read, and a mismatch is an error. */
void           cg_warc_reader_set_verify_digests   (CgWarcReader  *self,
                                                    gboolean       verify);

/* The next record, or NULL at the end of the file (error unset) or on an
 * error (error set). After an error the reader stays at the bad place and
 * every further call reports the same error. */
CgWarcRecord  *cg_warc_reader_next                 (CgWarcReader  *self,
                                                    GError       **error);
/* Reads the one record at offset (a value from cg_warc_record_get_offset
 * or from a CDXJ line). cg_warc_reader_next then goes on from there. */
CgWarcRecord  *cg_warc_reader_read_at              (CgWarcReader  *self,
                                                    guint64        offset,
                                                    GError       **error);
/* Where the last complete record read ended: for gzip files, the end of
 * its gzip member. Repair truncates files to this. */
guint64        cg_warc_reader_get_end_of_last_record (CgWarcReader *self);

G_END_DECLS
