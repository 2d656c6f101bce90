/* cg-seen-cache.h: a bounded cache of the URLs a crawl has seen.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CgSeenCache CgSeenCache;

/* The hash every URL is looked up and stored by. It may be worked out in
 * another thread than the cache's, ahead of the lookup. */
guint         cg_seen_cache_hash_url      (const char  *url);

/* A cache of at most @capacity URLs with their ids. */
CgSeenCache  *cg_seen_cache_new           (guint        capacity);
void          cg_seen_cache_free          (CgSeenCache *self);

/* @hash: cg_seen_cache_hash_url (@url) */
gboolean      cg_seen_cache_lookup        (CgSeenCache *self,
                                           const char  *url,
                                           guint        hash,
                                           gint64      *out_id);
/* Remembers @url with @id (a URL already there takes the new id). A full
 * cache is emptied first. */
void          cg_seen_cache_insert        (CgSeenCache *self,
                                           const char  *url,
                                           guint        hash,
                                           gint64       id);
guint         cg_seen_cache_get_size      (CgSeenCache *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgSeenCache, cg_seen_cache_free)

G_END_DECLS
