/* cg-content-decoder.h: bounded decoding of HTTP content codings.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CG_CONTENT_DECODER_ERROR (cg_content_decoder_error_quark ())

typedef enum {
  /* A coding Cartograph cannot decode (compress, zstd, …). */
  CG_CONTENT_DECODER_ERROR_UNSUPPORTED,
  /* The encoded bytes are damaged or end before the stream does. */
  CG_CONTENT_DECODER_ERROR_CORRUPT,
  /* The decoded size would pass the caller's limit (a "zip bomb"). */
  CG_CONTENT_DECODER_ERROR_TOO_LARGE,
} CgContentDecoderError;

typedef enum {
  CG_CONTENT_CODING_IDENTITY,
  CG_CONTENT_CODING_GZIP,
  CG_CONTENT_CODING_DEFLATE,
  CG_CONTENT_CODING_BROTLI,
  CG_CONTENT_CODING_UNKNOWN,
} CgContentCoding;

/* More codings stacked in one Content-Encoding than this are refused: real
 * servers send one, and each layer costs a full pass over the data. */
#define CG_CONTENT_DECODER_MAX_CODINGS 4

GQuark           cg_content_decoder_error_quark (void);

/* Maps one coding token ("gzip", "x-gzip", "deflate", "br", "identity"),
 * case-insensitively, ignoring surrounding whitespace. */
CgContentCoding  cg_content_coding_from_string  (const char       *token);

/* Decodes @input, which is encoded with @coding, into at most @max_size
 * bytes. Deflate accepts both the zlib-wrapped form of RFC 9110 and the raw
 * form some servers send instead; gzip accepts concatenated members.
 *
 * Returns the decoded bytes, or NULL with @error set. On a
 * CG_CONTENT_DECODER_ERROR_TOO_LARGE or _CORRUPT error, @partial (if not
 * NULL) receives what was decoded before the failure, never more than
 * @max_size bytes: a truncated page still has links worth reading. */
GBytes          *cg_content_decode              (CgContentCoding   coding,
                                                 GBytes           *input,
                                                 gsize             max_size,
                                                 GBytes          **partial,
                                                 GError          **error);

/* Like cg_content_decode() for a whole Content-Encoding header value such as
 * "gzip" or "deflate, br", undoing the codings in reverse order. NULL, empty
 * and "identity" return a new reference to @input. */
GBytes          *cg_content_decode_header       (const char       *content_encoding,
                                                 GBytes           *input,
                                                 gsize             max_size,
                                                 GBytes          **partial,
                                                 GError          **error);

G_END_DECLS
