/* cg-warc.c: what the WARC writer, reader and index share.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "cg-warc.h"

G_DEFINE_QUARK (cg-warc-error-quark, cg_warc_error)

/* WARC digests are written in base32 by convention (Heritrix, wget, warcio
 * and pywb all do), and GLib offers only base64 and hex, so this small
 * RFC 4648 encoder is written here. Each group of 5 input bytes gives 8
 * output characters; a short last group is padded with "=". */
char *
cg_warc_base32_encode (const guint8 *data,
                       gsize         length)
{
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  /* Characters that carry data in a last group of 1, 2, 3 or 4 bytes. */
  static const guint tail_chars[5] = { 0, 2, 4, 5, 7 };
  gsize n_groups = (length + 4) / 5;
  char *out;
  char *p;

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  out = g_malloc (n_groups * 8 + 1);
  p = out;

  for (gsize i = 0; i < length; i += 5)
    {
      gsize n = MIN (5, length - i);
      guint64 bits = 0;
      guint used;

      for (gsize j = 0; j < 5; j++)
        bits = (bits << 8) | (j < n ? data[i + j] : 0);

      used = n == 5 ? 8 : tail_chars[n];
      for (guint j = 0; j < 8; j++)
        *p++ = j < used ? alphabet[(bits >> (35 - 5 * j)) & 0x1f] : '=';
    }
  *p = '\0';

  return out;
}

const char *
cg_warc_digest_algorithm_get_label (CgWarcDigestAlgorithm algorithm)
{
  switch (algorithm)
    {
    case CG_WARC_DIGEST_SHA256:
      return "sha256";
    case CG_WARC_DIGEST_SHA1:
    default:
      return "sha1";
    }
}

GChecksumType
cg_warc_digest_algorithm_get_checksum_type (CgWarcDigestAlgorithm algorithm)
{
  switch (algorithm)
    {
    case CG_WARC_DIGEST_SHA256:
      return G_CHECKSUM_SHA256;
    case CG_WARC_DIGEST_SHA1:
    default:
      return G_CHECKSUM_SHA1;
    }
}

char *
cg_warc_digest_finish (GChecksum             *checksum,
                       CgWarcDigestAlgorithm  algorithm)
{
  guint8 raw[64];
  gsize raw_length = sizeof raw;
  g_autofree char *encoded = NULL;

  g_checksum_get_digest (checksum, raw, &raw_length);
  encoded = cg_warc_base32_encode (raw, raw_length);

  return g_strconcat (cg_warc_digest_algorithm_get_label (algorithm), ":", encoded, NULL);
}

char *
cg_warc_digest_compute (CgWarcDigestAlgorithm  algorithm,
                        const void            *data,
                        gsize                  length)
{
  g_autoptr(GChecksum) checksum =
    g_checksum_new (cg_warc_digest_algorithm_get_checksum_type (algorithm));

  /* g_checksum_update takes a signed length, so feed huge buffers in parts. */
  for (gsize done = 0; done < length;)
    {
      gsize n = MIN (length - done, (gsize) G_MAXSSIZE / 2);

      g_checksum_update (checksum, (const guchar *) data + done, n);
      done += n;
    }

  return cg_warc_digest_finish (checksum, algorithm);
}
