/* cg-frontier.h: the crawl frontier and seen set, kept in SQLite.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cg-store.h"

G_BEGIN_DECLS

/* A URL's state in the urls table. The numbers are stored: never renumber. */
typedef enum {
  CG_URL_QUEUED    = 0,
  CG_URL_IN_FLIGHT = 1,  /* counted by the frontier; the table keeps these queued */
  CG_URL_DONE      = 2,
  CG_URL_FAILED    = 3,
  CG_URL_SKIPPED   = 4,
  CG_URL_N_STATES
} CgUrlState;

typedef struct {
  gint64  id;
  gint64  host_id;
  char   *url;
  char   *host_key;
  int     depth;
  char   *hops;
  gint64  via_id;
  char   *via_url;   /* the URL of via_id, NULL for a seed */
  int     attempts;
  /* The host's fetch slot was given back (cg_frontier_release_host()):
   * the URL is still in flight until it is finished. */
  gboolean host_released;
} CgFrontierItem;

#define CG_TYPE_FRONTIER_ITEM (cg_frontier_item_get_type ())
GType           cg_frontier_item_get_type (void) G_GNUC_CONST;
CgFrontierItem *cg_frontier_item_copy     (const CgFrontierItem *item);
void            cg_frontier_item_free     (CgFrontierItem       *item);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgFrontierItem, cg_frontier_item_free)

#define CG_TYPE_FRONTIER (cg_frontier_get_type ())
G_DECLARE_FINAL_TYPE (CgFrontier, cg_frontier, CG, FRONTIER, GObject)

CgFrontier     *cg_frontier_new               (CgStore         *store,
                                               gint64           crawl_id,
                                               guint            max_in_flight_per_host,
                                               GError         **error);

gboolean        cg_frontier_add               (CgFrontier      *self,
                                               const char      *url,
                                               const char      *host_key,
                                               int              depth,
                                               const char      *hops,
                                               gint64           via_id,
                                               int              priority,
                                               gint64          *out_url_id,
                                               gboolean        *out_is_new,
                                               GError         **error);
gboolean        cg_frontier_lookup_seen       (CgFrontier      *self,
                                               const char      *url,
                                               guint            url_hash,
                                               gint64          *out_url_id);
gboolean        cg_frontier_add_skipped       (CgFrontier      *self,
                                               const char      *url,
                                               const char      *host_key,
                                               int              depth,
                                               const char      *hops,
                                               gint64           via_id,
                                               const char      *reason,
                                               gboolean         on_the_way,
                                               gint64          *out_url_id,
                                               GError         **error);
gboolean        cg_frontier_may_be_skipped    (CgFrontier      *self,
                                               guint            url_hash);

CgFrontierItem *cg_frontier_next              (CgFrontier      *self,
                                               gint64           now_us,
                                               gint64          *out_wait_us,
                                               GError         **error);
gboolean        cg_frontier_finish            (CgFrontier      *self,
                                               const CgFrontierItem *item,
                                               CgUrlState       state,
                                               const char      *reason,
                                               gint64           host_ready_at_us,
                                               GError         **error);
gboolean        cg_frontier_retry             (CgFrontier      *self,
                                               const CgFrontierItem *item,
                                               gint64           not_before_us,
                                               gint64           host_ready_at_us,
                                               GError         **error);
void            cg_frontier_release_host      (CgFrontier      *self,
                                               CgFrontierItem  *item,
                                               gint64           host_ready_at_us);
void            cg_frontier_delay_host        (CgFrontier      *self,
                                               gint64           host_id,
                                               gint64           ready_at_us);

gint64          cg_frontier_get_host_id       (CgFrontier      *self,
                                               const char      *host_key,
                                               GError         **error);
guint64         cg_frontier_count             (CgFrontier      *self,
                                               CgUrlState       state);
gboolean        cg_frontier_is_exhausted      (CgFrontier      *self);
guint           cg_frontier_get_n_hosts       (CgFrontier      *self);
guint           cg_frontier_get_n_read_ahead  (CgFrontier      *self);

G_END_DECLS
