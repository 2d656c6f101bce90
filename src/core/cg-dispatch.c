/* cg-dispatch.c: running a callback in the thread that owns a main context.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "cg-dispatch.h"

void
cg_dispatch_to_context (GMainContext   *context,
                        GSourceFunc     func,
                        gpointer        data,
                        GDestroyNotify  notify)
{
  g_autoptr(GSource) source = g_idle_source_new ();

  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, func, data, notify);
  g_source_set_static_name (source, "[cartograph] dispatch");
  g_source_attach (source, context);
}
