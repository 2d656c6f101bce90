/* cg-bandwidth.h: a crawl's bandwidth cap and its weekly schedule.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define CG_BANDWIDTH_ERROR (cg_bandwidth_error_quark ())

typedef enum {
  CG_BANDWIDTH_ERROR_SYNTAX,
} CgBandwidthError;

#define CG_TYPE_BANDWIDTH (cg_bandwidth_get_type ())
G_DECLARE_FINAL_TYPE (CgBandwidth, cg_bandwidth, CG, BANDWIDTH, GObject)

GQuark       cg_bandwidth_error_quark     (void);

CgBandwidth *cg_bandwidth_new             (void);
gboolean     cg_bandwidth_set_schedule    (CgBandwidth  *self,
                                           const char   *schedule,
                                           GError      **error);
char        *cg_bandwidth_dup_schedule    (CgBandwidth  *self);
guint64      cg_bandwidth_get_rate_at     (CgBandwidth  *self,
                                           GDateTime    *when);
void         cg_bandwidth_consume         (CgBandwidth  *self,
                                           guint64       bytes,
                                           gint64        now_us);
gint64       cg_bandwidth_get_wait        (CgBandwidth  *self,
                                           gint64        now_us);

G_END_DECLS
