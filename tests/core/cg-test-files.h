/* cg-test-files.h: the temporary folders and whole files the core tests
 * make, read and remove, and the room files may take.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Removes @path and everything under it; what is not there is let be.
 * Symbolic links are removed, not followed. */
void    cg_test_remove_tree (const char *path);

/* A temporary folder that goes, with everything in it, when its
 * g_autoptr(CgTestFolder) variable goes out of scope. Declared before the
 * objects that use it, it is removed after they are released, so a test
 * leaves nothing behind in the temporary folder however it ends. */
typedef char CgTestFolder;

/* A new folder named from @name_template, as g_dir_make_tmp() names it;
 * fails the test when it cannot be made. */
CgTestFolder *cg_test_folder_new    (const char   *name_template);
void          cg_test_folder_remove (CgTestFolder *folder);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgTestFolder, cg_test_folder_remove)

/* The whole of the file at @path; fails the test when it cannot be read. */
GBytes *cg_test_read_file   (const char *path);

/* Replaces the file at @path with @data; fails the test when it cannot. */
void    cg_test_write_file  (const char *path,
                             const void *data,
                             gsize       length);

/* Lets no file of this process grow past @size bytes, as a full disk or a
 * quota would: a write past it fails with EFBIG (SIGXFSZ is ignored
 * meanwhile), until cg_test_unlimit_file_size(). */
void    cg_test_limit_file_size   (guint64     size);
void    cg_test_unlimit_file_size (void);

G_END_DECLS
