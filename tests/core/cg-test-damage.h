/* cg-test-damage.h: a project's database damaged under an open project, as
 * a failing disk would, and a disk that fills up, for the tests of what
 * reads and writes it.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "cg-project.h"

G_BEGIN_DECLS

/* Writes over every page of @project's database but the first (the header
 * and the schema), so that any read of its rows fails. */
void cg_test_damage_database  (CgProject  *project);

/* Writes over one page in the middle of the b-tree @name (a table or an
 * index): a scan of @name in its order then gets some rows and fails
 * part-way. @name must span three pages or more, so that its root has a
 * child between the first and the last. */
void cg_test_damage_middle_of (CgProject  *project,
                               const char *name);

/* A disk that fills up at one write, for every SQLite connection opened
 * after cg_test_full_disk_install(): a write of data that holds the marker
 * fails with SQLITE_FULL (no marker, no failure). Uninstall before the
 * connections opened meanwhile are used again. */
void cg_test_full_disk_install    (void);
void cg_test_full_disk_set_marker (const char *marker);
void cg_test_full_disk_uninstall  (void);

G_END_DECLS
