/* cg-renderer-pool.c: several renderers working side by side.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "cg-renderer-pool.h"

struct _CgRendererPool
{
  GObject    parent_instance;
  GPtrArray *renderers;
  GQueue     waiting;      /* GTask, data: a Request */
  guint      n_running;
  guint      purge_id;
};

typedef struct {
  char         *url;
  GCancellable *cancellable;
  gulong        cancelled_id;  /* while waiting */
} Request;

static void
request_free (Request *request)
{
  if (request->cancelled_id != 0)
    g_signal_handler_disconnect (request->cancellable, request->cancelled_id);
  g_clear_object (&request->cancellable);
  g_free (request->url);
  g_free (request);
}

/* Takes the next waiting render off the queue; it no longer needs to hear
 * of its cancellation from the pool. */
static GTask *
pop_waiting (CgRendererPool *self,
             GList          *link)
{
  GTask *task = link->data;
  Request *request = g_task_get_task_data (task);

  g_queue_delete_link (&self->waiting, link);
  if (request->cancelled_id != 0)
    {
      g_signal_handler_disconnect (request->cancellable, request->cancelled_id);
      request->cancelled_id = 0;
    }
  return task;
}

G_DEFINE_TYPE (CgRendererPool, cg_renderer_pool, G_TYPE_OBJECT)

static void dispatch (CgRendererPool *self);

static void
cg_renderer_pool_dispose (GObject *object)
{
  CgRendererPool *self = CG_RENDERER_POOL (object);
  GTask *task;

  g_clear_handle_id (&self->purge_id, g_source_remove);
  while (self->waiting.head != NULL)
    {
      Request *request;

      task = pop_waiting (self, self->waiting.head);
      request = g_task_get_task_data (task);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               _("The renderers were closed before rendering %s"), request->url);
      g_object_unref (task);
    }
  g_clear_pointer (&self->renderers, g_ptr_array_unref);

  G_OBJECT_CLASS (cg_renderer_pool_parent_class)->dispose (object);
}

static void
cg_renderer_pool_class_init (CgRendererPoolClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = cg_renderer_pool_dispose;
}

static void
cg_renderer_pool_init (CgRendererPool *self)
{
  g_queue_init (&self->waiting);
}

CgRendererPool *
cg_renderer_pool_new (CgWebContext          *context,
                      guint                  size,
                      const CgRenderOptions *options)
{
  CgRendererPool *self;

  g_return_val_if_fail (CG_IS_WEB_CONTEXT (context), NULL);

  if (size == 0)
    size = CG_RENDERER_POOL_DEFAULT_SIZE;
  size = MIN (size, CG_RENDERER_POOL_MAX_SIZE);

  self = g_object_new (CG_TYPE_RENDERER_POOL, NULL);
  self->renderers = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < size; i++)
    g_ptr_array_add (self->renderers, cg_renderer_new (context, options));
  return self;
}

guint
cg_renderer_pool_get_size (CgRendererPool *self)
{
  g_return_val_if_fail (CG_IS_RENDERER_POOL (self), 0);
  return self->renderers->len;
}

CgRenderer *
cg_renderer_pool_get_renderer (CgRendererPool *self,
                               guint           index)
{
  g_return_val_if_fail (CG_IS_RENDERER_POOL (self), NULL);
  g_return_val_if_fail (index < self->renderers->len, NULL);
  return self->renderers->pdata[index];
}

guint
cg_renderer_pool_get_n_pending (CgRendererPool *self)
{
  g_return_val_if_fail (CG_IS_RENDERER_POOL (self), 0);
  return self->waiting.length + self->n_running;
}

static void
render_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CgRendererPool *self = g_task_get_source_object (task);
  GError *error = NULL;
  CgRenderResult *render;

  self->n_running--;
  render = cg_renderer_render_finish (CG_RENDERER (source), result, &error);
  /* The next render starts before this one is reported, so that a slow
   * callback does not leave the renderer idle. */
  dispatch (self);
  if (render == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, render, (GDestroyNotify) cg_render_result_free);
}

static void
dispatch (CgRendererPool *self)
{
  guint i = 0;

  if (self->renderers == NULL)
    return;
  while (i < self->renderers->len && self->waiting.length > 0)
    {
      CgRenderer *renderer = self->renderers->pdata[i];
      GTask *task;

      if (cg_renderer_is_busy (renderer))
        {
          i++;
          continue;
        }
      task = pop_waiting (self, self->waiting.head);
      if (g_task_return_error_if_cancelled (task))
        {
          g_object_unref (task);
          continue;
        }
      self->n_running++;
      cg_renderer_render_async (renderer, ((Request *) g_task_get_task_data (task))->url,
                                g_task_get_cancellable (task), render_done_cb, task);
      i++;
    }
}

/* Renders cancelled while waiting are reported at once rather than when a
 * renderer would have been free for them. */
static gboolean
purge_cb (gpointer user_data)
{
  CgRendererPool *self = user_data;
  GList *link = self->waiting.head;

  self->purge_id = 0;
  while (link != NULL)
    {
      GList *next = link->next;
      GTask *task = link->data;

      if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
        {
          pop_waiting (self, link);
          g_task_return_error_if_cancelled (task);
          g_object_unref (task);
        }
      link = next;
    }
  return G_SOURCE_REMOVE;
}

static void
waiting_cancelled_cb (GCancellable   *cancellable,
                      CgRendererPool *self)
{
  if (self->purge_id == 0)
    self->purge_id = g_idle_add (purge_cb, self);
}

void
cg_renderer_pool_render_async (CgRendererPool      *self,
                               const char          *url,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Request *request;

  g_return_if_fail (CG_IS_RENDERER_POOL (self));
  g_return_if_fail (url != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, cg_renderer_pool_render_async);
  request = g_new0 (Request, 1);
  request->url = g_strdup (url);
  g_task_set_task_data (task, request, (GDestroyNotify) request_free);
  if (self->waiting.length >= CG_RENDERER_POOL_MAX_QUEUED)
    {
      g_task_return_new_error (task, CG_RENDER_ERROR, CG_RENDER_ERROR_BUSY,
                               _("%u pages are already waiting to be rendered"),
                               (guint) CG_RENDERER_POOL_MAX_QUEUED);
      return;
    }
  if (cancellable != NULL)
    {
      request->cancellable = g_object_ref (cancellable);
      request->cancelled_id = g_signal_connect_object (cancellable, "cancelled",
                                                       G_CALLBACK (waiting_cancelled_cb), self, 0);
    }
  g_queue_push_tail (&self->waiting, g_steal_pointer (&task));
  dispatch (self);
}

CgRenderResult *
cg_renderer_pool_render_finish (CgRendererPool  *self,
                                GAsyncResult    *result,
                                GError         **error)
{
  g_return_val_if_fail (CG_IS_RENDERER_POOL (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
