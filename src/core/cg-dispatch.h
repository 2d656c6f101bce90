/* cg-dispatch.h: running a callback in the thread that owns a main context.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Crawls, explorations and harvests work in threads of their own and
 * report to the main context of the thread that started them. They all
 * go through this function rather than g_main_context_invoke(): when no
 * thread owns the context at that moment (a test iterating it by hand, a
 * main loop not running yet), invoke may run the callback at once in the
 * calling thread, so that the owner's handlers would run in a worker, and
 * a handler that joins the worker would join the very thread it runs in.
 *
 * cg_dispatch_to_context() always runs @func later, from @context, once;
 * callbacks attached at one priority run in the order they were attached,
 * so reports keep their order. @notify frees @data afterwards. */
void cg_dispatch_to_context (GMainContext   *context,
                             GSourceFunc     func,
                             gpointer        data,
                             GDestroyNotify  notify);

G_END_DECLS
