/* cg-test-encode.h: content codings for test data, made with the real encoders.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <zlib.h>
#include <brotli/encode.h>

G_BEGIN_DECLS

/* zlib's deflate at level 6; @window_bits as deflateInit2() takes them:
 * 15 for a zlib stream, −15 for raw deflate, 31 for gzip. */
GBytes *cg_test_zlib_encode   (GBytes            *input,
                               int                window_bits);
GBytes *cg_test_brotli_encode (GBytes            *input,
                               BrotliEncoderMode  mode);

G_END_DECLS
