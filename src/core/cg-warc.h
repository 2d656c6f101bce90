/* cg-warc.h: what the WARC writer, reader and index share: the error
 * domain, the digest algorithms and the digest text form.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CG_WARC_ERROR (cg_warc_error_quark ())

/* Errors of the WARC writer, reader, repair and index. Failures of the file
 * system itself (permissions, full disk) are reported in G_IO_ERROR. */
typedef enum {
  /* The file is neither a gzip file nor a WARC file. */
  CG_WARC_ERROR_NOT_WARC,
  /* The file ends inside a gzip member or inside a record. */
  CG_WARC_ERROR_TRUNCATED,
  /* Damaged compressed data, or bytes that are not a gzip member where
   * one should start (garbage between members). */
  CG_WARC_ERROR_BAD_GZIP,
  /* A bad version line or header field, a missing mandatory field, a
   * header larger than the reader accepts, or garbage between records. */
  CG_WARC_ERROR_BAD_HEADER,
  /* A Content-Length that is missing, not a number, or does not match
   * where the record really ends. */
  CG_WARC_ERROR_BAD_LENGTH,
  /* WARC-Block-Digest or WARC-Payload-Digest does not match the data. */
  CG_WARC_ERROR_DIGEST_MISMATCH,
  /* The HTTP message inside a request or response record is malformed. */
  CG_WARC_ERROR_BAD_HTTP,
  /* A record is larger than the caller allowed. */
  CG_WARC_ERROR_TOO_LARGE,
  /* The writer was given a value it cannot write (a URI with a line
   * break, an HTTP header block with no end, ...). Nothing was written. */
  CG_WARC_ERROR_INVALID_ARGUMENT,
  /* Repair refused: the file is damaged before its last record, and
   * cutting it there would lose complete records. */
  CG_WARC_ERROR_DAMAGED,
  /* A CDXJ line that cannot be parsed. */
  CG_WARC_ERROR_BAD_INDEX,
} CgWarcError;

/* The digest used for WARC-Block-Digest and WARC-Payload-Digest. SHA-1 is
 * what nearly every WARC tool writes and deduplicates on; SHA-256 is there
 * for archives that want a digest without known collisions. */
typedef enum {
  CG_WARC_DIGEST_SHA1,
  CG_WARC_DIGEST_SHA256,
} CgWarcDigestAlgorithm;

#define CG_WARC_DEFAULT_DIGEST CG_WARC_DIGEST_SHA1

GQuark         cg_warc_error_quark                (void);

/* RFC 4648 base32 (upper case, "=" padded). */
char          *cg_warc_base32_encode              (const guint8          *data,
                                                   gsize                  length);

/* "sha1" or "sha256": the label that prefixes a digest value. */
const char    *cg_warc_digest_algorithm_get_label (CgWarcDigestAlgorithm  algorithm);

/* A digest being computed piece by piece. */
typedef struct _CgWarcDigest CgWarcDigest;

CgWarcDigest  *cg_warc_digest_new                 (CgWarcDigestAlgorithm  algorithm);
void           cg_warc_digest_update              (CgWarcDigest          *digest,
                                                   const void            *data,
                                                   gsize                  length);
/* Returns the WARC text form "LABEL:BASE32", for example "sha1:3I42H3S6...",
 * of what digest has been given; digest is then empty again, as if new. */
char          *cg_warc_digest_to_string           (CgWarcDigest          *digest);
void           cg_warc_digest_free                (CgWarcDigest          *digest);

char          *cg_warc_digest_compute             (CgWarcDigestAlgorithm  algorithm,
                                                   const void            *data,
                                                   gsize                  length);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgWarcDigest, cg_warc_digest_free)

G_END_DECLS
