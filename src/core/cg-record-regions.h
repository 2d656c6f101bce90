/* cg-record-regions.h: the regions a page class's records come from, the main one first.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A list wrapper keeps every region that recurs across its class's pages
 * (cg-wrapper.h), so a class's records can come from several: the books
 * of an author's page and the paragraphs of the author's biography. Each
 * region has its own columns, and a table that mixed them would show rows
 * of one shape between rows of another. This module tells which region
 * each stored record is in, so that the class view and the export can
 * show one region at a time, the main one by default.
 *
 * A stored record names its region by the concrete XPath of the region's
 * element in its page ("/html[1]/body[1]/main[1]/ul[1]"), while the
 * wrapper may name it by a more general one that finds it on every page
 * ("/html/body/main/ul[@class="books"]"). A record is in the wrapper's
 * region whose XPath has the same steps, its element names equal and its
 * positions equal where the wrapper gives a position, and whose columns
 * are the record's (the wrapper made the record with them). Records no
 * region of the wrapper takes (extracted by an older wrapper, or with no
 * wrapper at all) are grouped by their own region XPath with its
 * positions dropped and by their columns, after the wrapper's regions.
 *
 * Indexes: the wrapper's regions keep their index in its "regions" array,
 * even those with no stored record; the other groups follow. The main
 * region is the first that has records: cg_wrapper_learn() stores its
 * regions in rank order (by their ClustVX visual weight summed over the
 * learning pages), so the main region is its first unless no stored
 * record is in it; the other groups are ordered by their number of
 * records times their number of columns, the most first, which is the
 * same idea when no ranking is known. */

/* At most this many regions; records that would make more join the last. */
#define CG_RECORD_REGIONS_MAX 256

typedef struct {
  /* The wrapper's XPath of the region, or for a group of records no
   * region of the wrapper takes, their region's XPath without positions. */
  char     *xpath;
  /* The field columns: the wrapper region's in its order, then any other
   * its records have, in the order they first appear. */
  GStrv     columns;
  guint     n_records;
  /* TRUE for a region of the wrapper. */
  gboolean  in_wrapper;
} CgRecordRegion;

typedef struct _CgRecordRegions CgRecordRegions;

/* Assigns each of @records (CgRecord, of one class) to a region of the
 * wrapper @definition (its JSON, see cg-wrapper.h; NULL when the class
 * has none). A definition that cannot be read counts as none: the records
 * are still grouped, and nothing is lost from a view or an export. The
 * result refers to records by their index in @records, which the caller
 * keeps unchanged while using it. */
CgRecordRegions      *cg_record_regions_new             (const char        *definition,
                                                         GPtrArray         *records);
void                  cg_record_regions_free            (CgRecordRegions   *self);

guint                 cg_record_regions_get_n_regions   (CgRecordRegions   *self);
const CgRecordRegion *cg_record_regions_get_region      (CgRecordRegions   *self,
                                                         guint              index);
/* The main region's index, or -1 when no region has records. */
int                   cg_record_regions_get_main        (CgRecordRegions   *self);
/* The region of the record at @record in the array given to _new(). */
guint                 cg_record_regions_get_record_region (CgRecordRegions *self,
                                                           guint            record);
/* The records of region @index, in their order in @records (the array
 * given to _new()): a new array of the same pointers, which it does not
 * own. */
GPtrArray            *cg_record_regions_select          (CgRecordRegions   *self,
                                                         GPtrArray         *records,
                                                         guint              index);
/* A short name of region @index: the last steps of its XPath, at least
 * two and as many as it takes to tell it from the other regions
 * ("section[1]/ul[1]"). Free with g_free(). */
char                 *cg_record_regions_describe        (CgRecordRegions   *self,
                                                         guint              index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgRecordRegions, cg_record_regions_free)

G_END_DECLS
