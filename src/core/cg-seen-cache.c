/* cg-seen-cache.c: a bounded cache of the URLs a crawl has seen.
 *
 * Most links of a site are to pages the crawl has seen (menus, footers,
 * pagination), and the crawl thread looks each one up: in the crawl
 * throughput benchmark (tests/bench) that was 26 lookups a page, on the
 * thread that limits the pages per second. The cache is written by hand
 * rather than on GHashTable for two reasons:
 *
 * - GHashTable hashes every key it is given, where the hash of a link's
 *   URL is worked out by the parser threads, beside the rest of the page;
 * - a slot here holds the hash, the id and the URL's address together, and
 *   the URLs lie packed in a GStringChunk, so a hit costs two cache misses
 *   where GHashTable's separate arrays of hashes, keys and values and an
 *   allocation per entry cost four.
 *
 * Open addressing with linear probing, at most half full. A full cache is
 * emptied rather than kept in order of use: the URLs that matter come back
 * at once, and keeping an order would cost something on every lookup.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "cg-seen-cache.h"

/* The URLs are copied into blocks of this size. */
#define URL_BLOCK_SIZE (64 * 1024)

typedef struct {
  const char *url;   /* in the string chunk; NULL for a free slot */
  gint64      id;
  guint       hash;
} Slot;

struct _CgSeenCache
{
  Slot         *slots;
  guint         mask;       /* the number of slots less one, a power of two less one */
  guint         size;
  guint         capacity;
  GStringChunk *urls;
};

guint
cg_seen_cache_hash_url (const char *url)
{
  return g_str_hash (url);
}

CgSeenCache *
cg_seen_cache_new (guint capacity)
{
  CgSeenCache *self;
  guint n_slots = 2;

  g_return_val_if_fail (capacity > 0 && capacity <= G_MAXUINT / 4, NULL);

  self = g_new0 (CgSeenCache, 1);
  while (n_slots < 2 * capacity)
    n_slots *= 2;
  self->slots = g_new0 (Slot, n_slots);
  self->mask = n_slots - 1;
  self->capacity = capacity;
  self->urls = g_string_chunk_new (URL_BLOCK_SIZE);
  return self;
}

void
cg_seen_cache_free (CgSeenCache *self)
{
  if (self == NULL)
    return;
  g_free (self->slots);
  g_string_chunk_free (self->urls);
  g_free (self);
}

/* The slot holding @url, or the free slot where it would go. The table is
 * never more than half full, so there is always a free slot to stop at. */
static Slot *
find_slot (CgSeenCache *self,
           const char  *url,
           guint        hash)
{
  for (guint i = hash & self->mask;; i = (i + 1) & self->mask)
    {
      Slot *slot = &self->slots[i];

      if (slot->url == NULL || (slot->hash == hash && strcmp (slot->url, url) == 0))
        return slot;
    }
}

gboolean
cg_seen_cache_lookup (CgSeenCache *self,
                      const char  *url,
                      guint        hash,
                      gint64      *out_id)
{
  Slot *slot;

  g_return_val_if_fail (self != NULL && url != NULL && out_id != NULL, FALSE);

  slot = find_slot (self, url, hash);
  if (slot->url == NULL)
    return FALSE;
  *out_id = slot->id;
  return TRUE;
}

void
cg_seen_cache_insert (CgSeenCache *self,
                      const char  *url,
                      guint        hash,
                      gint64       id)
{
  Slot *slot;

  g_return_if_fail (self != NULL && url != NULL);

  slot = find_slot (self, url, hash);
  if (slot->url == NULL && self->size >= self->capacity)
    {
      memset (self->slots, 0, sizeof (Slot) * ((gsize) self->mask + 1));
      g_string_chunk_clear (self->urls);
      self->size = 0;
      slot = find_slot (self, url, hash);
    }
  if (slot->url == NULL)
    {
      slot->url = g_string_chunk_insert (self->urls, url);
      slot->hash = hash;
      self->size++;
    }
  slot->id = id;
}

guint
cg_seen_cache_get_size (CgSeenCache *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->size;
}
