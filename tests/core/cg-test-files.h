/* cg-test-files.h: the temporary folders and whole files the core tests
 * make, read and remove.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Removes @path and everything under it; what is not there is let be. */
void    cg_test_remove_tree (const char *path);

/* The whole of the file at @path; fails the test when it cannot be read. */
GBytes *cg_test_read_file   (const char *path);

/* Replaces the file at @path with @data; fails the test when it cannot. */
void    cg_test_write_file  (const char *path,
                             const void *data,
                             gsize       length);

G_END_DECLS
