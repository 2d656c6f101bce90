/* cg-record-metrics.h: record-level precision and recall of an extraction against ground truth.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "cg-clustvx.h"

G_BEGIN_DECLS

/* Seed 003 (§5.2, eq. 4.3–4.5) scores record extraction per record, with
 * FiVaTech's criterion: an extracted record is correct when more than 60 %
 * of the data items of the actual record it stands for were extracted
 * correctly, and the record is correctly segmented. Then
 *
 *   precision       = correct / extracted
 *   recall          = extracted / actual   (the definition behind every
 *                                            figure the thesis publishes)
 *   recall_correct  = correct / actual     (the stricter one, which the
 *                                            thesis's formula states)
 *
 * and each recall gives its F1. Both recalls are computed because the
 * published figures use the first (see the seed's summary, §5.2); the
 * first can exceed 1 when more records are extracted than exist.
 *
 * Ground truth is given by text, as data sets give it: an actual record is
 * the list of its values (one per attribute), an extracted record the
 * list of its items' texts. The aligner matches them:
 *
 *  - Texts are normalised: Unicode NFKC, case-folded, and cut into words
 *    (maximal runs of letters, digits and marks); punctuation, currency
 *    signs and white space only separate words. "£14.99" and "14.99 £"
 *    are the same, "Crime & Thriller" and "crime thriller" too.
 *  - A value is found in an extracted record when its words appear, in
 *    order and contiguous, in the record's words (its items' words in
 *    order): an item may hold the value with a label ("Price: £5") and a
 *    value may span two items. A value cut off with "…" or "..." matches
 *    on its words before the cut, the last one as a prefix. A value of at
 *    least four words also matches when the share fuzzy_overlap of its
 *    words appears in the record (texts that a data set copied with small
 *    differences).
 *  - Values without a word (empty, "|", "★★★") are not items and do not
 *    count; an actual record without any word is left out.
 *  - Each extracted record is aligned to at most one actual record and
 *    the other way round: pairs are taken greedily by the share of the
 *    actual record's values found, then by the number found, then by the
 *    closeness of their positions in the page.
 *  - Segmentation: an extracted record is wrongly segmented when it holds a
 *    value of another actual record that is missing from the extracted
 *    record aligned to that one (a value that went to the wrong record),
 *    and both records are then wrong; or when it holds more than
 *    item_share of the values of an actual record that no extracted
 *    record stands for (two records merged into one). Only values that the
 *    record's own actual record does not also have, and that have at
 *    least CG_RECORD_METRICS_MIN_DISTINCT_CHARS letters or digits, are
 *    counted, so that shared values ("Paperback", a year) and stray digits
 *    accuse nothing. */

#define CG_RECORD_METRICS_DEFAULT_ITEM_SHARE     0.6
#define CG_RECORD_METRICS_DEFAULT_FUZZY_OVERLAP  0.8
#define CG_RECORD_METRICS_MIN_DISTINCT_CHARS     3

/* Bounds of one page's alignment: records on each side, and words kept of
 * one value or record (the rest is ignored). */
#define CG_RECORD_METRICS_MAX_RECORDS            2000
#define CG_RECORD_METRICS_MAX_WORDS              4096

typedef struct {
  double item_share;     /* more than this share of the items must be right: (0, 1) */
  double fuzzy_overlap;  /* in (0, 1]; values of four words or more */
} CgRecordMetricsOptions;

void          cg_record_metrics_options_init  (CgRecordMetricsOptions *options);

/* Counts and rates. Scores of several pages are pooled by adding their
 * counts (cg_record_score_add()), as the thesis's tables do. Rates with a
 * zero denominator are 0. */
typedef struct {
  guint  n_actual;
  guint  n_extracted;
  guint  n_aligned;       /* extracted records aligned to an actual record */
  guint  n_correct;
  double precision;       /* n_correct / n_extracted */
  double recall;          /* n_extracted / n_actual, the thesis's published figures */
  double recall_correct;  /* n_correct / n_actual */
  double f1;              /* of precision and recall */
  double f1_correct;      /* of precision and recall_correct */
} CgRecordScore;

void          cg_record_score_init            (CgRecordScore       *score);
/* Adds @page's counts to @total and computes @total's rates again. */
void          cg_record_score_add             (CgRecordScore       *total,
                                               const CgRecordScore *page);
/* Computes the rates from the counts. */
void          cg_record_score_update          (CgRecordScore       *score);

/* The words of @text as the aligner sees them, joined by single spaces:
 * "  Crime &amp; THRILLER " → "crime thriller". */
char         *cg_record_metrics_normalize     (const char          *text);

/* How one extracted record was judged. */
typedef struct {
  int      actual;      /* the index of the aligned actual record, or -1 */
  guint    n_values;    /* that record's values that count */
  guint    n_found;     /* of those, the ones found in the extracted record */
  gboolean segmented;   /* FALSE when it took values of another record */
  gboolean correct;
} CgRecordMatch;

/* Aligns the extracted records of one page with its actual records. Both
 * arrays hold GStrv (NULL-terminated string arrays): @actual the values of
 * each ground-truth record, @extracted the texts of each extracted
 * record's items, in page order. Returns one CgRecordMatch per extracted
 * record, in order; fills @score when it is not NULL. Records beyond
 * CG_RECORD_METRICS_MAX_RECORDS on either side are ignored. */
GArray       *cg_record_metrics_align         (GPtrArray                    *actual,
                                               GPtrArray                    *extracted,
                                               const CgRecordMetricsOptions *options,
                                               CgRecordScore                *score);

/* The texts of a region's records in the form the aligner takes: a GStrv
 * per record with its items' texts (an image gives its alt text). */
GPtrArray    *cg_record_metrics_region_texts  (const CgClustvxRegion        *region);

/* Element-level scoring, as the invariants data set defines it: the actual
 * records are elements (xmlNodePtr: record containers selected by an
 * XPath), the extracted ones too, and an extracted element is correct when
 * it is one of the actual elements, or wraps one: when its only content is
 * one element, which is an actual element or wraps one in turn (the
 * wrappers of a record are the same record; which of them a data set
 * calls the container is arbitrary). An element extracted twice counts
 * once. n_aligned = n_correct. */
void          cg_record_metrics_score_nodes   (GPtrArray                    *actual,
                                               GPtrArray                    *extracted,
                                               CgRecordScore                *score);

G_END_DECLS
