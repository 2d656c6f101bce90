/* cg-renderer-pool.h: several renderers working side by side.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "cg-renderer.h"

G_BEGIN_DECLS

/* Two renderers by default: each has its own web process, so while one
 * waits for the network the other lays out, and rendering keeps up with a
 * polite crawl's fetching on a two-core machine. */
#define CG_RENDERER_POOL_DEFAULT_SIZE  2
#define CG_RENDERER_POOL_MAX_SIZE      16
/* Renders waiting for a free renderer; asking for more is an error, so a
 * caller that outruns the pool learns it instead of growing a queue. */
#define CG_RENDERER_POOL_MAX_QUEUED    10000

/* Renders are started in the order they are asked for, on the first free
 * renderer, and each reports to its own callback. A renderer that loses
 * its web process recovers by itself and stays in the pool. Used from the
 * main thread only. */
#define CG_TYPE_RENDERER_POOL (cg_renderer_pool_get_type ())
G_DECLARE_FINAL_TYPE (CgRendererPool, cg_renderer_pool, CG, RENDERER_POOL, GObject)

/* @size 0 means CG_RENDERER_POOL_DEFAULT_SIZE; @options may be NULL. */
CgRendererPool *cg_renderer_pool_new            (CgWebContext          *context,
                                                 guint                  size,
                                                 const CgRenderOptions *options);
guint           cg_renderer_pool_get_size       (CgRendererPool        *self);
CgRenderer     *cg_renderer_pool_get_renderer   (CgRendererPool        *self,
                                                 guint                  index);
/* Renders asked for and not yet finished: waiting plus under way. */
guint           cg_renderer_pool_get_n_pending  (CgRendererPool        *self);

void            cg_renderer_pool_render_async   (CgRendererPool        *self,
                                                 const char            *url,
                                                 GCancellable          *cancellable,
                                                 GAsyncReadyCallback    callback,
                                                 gpointer               user_data);
CgRenderResult *cg_renderer_pool_render_finish  (CgRendererPool        *self,
                                                 GAsyncResult          *result,
                                                 GError               **error);

G_END_DECLS
