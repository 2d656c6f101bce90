/* cg-test-damage.h: a project's database damaged under an open project, as
 * a failing disk would, for the tests of what reads it.
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

G_END_DECLS
