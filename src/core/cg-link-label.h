/* cg-link-label.h: seed 004's root-to-link edge labels.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "cg-dom-path.h"

G_BEGIN_DECLS

/* ACEBot (seed 004 §5.1) labels every link of its site graph with the path
 * from /html down to the link, and two links with the same label lead to
 * "similar" pages. The label keeps every tag, no positions, and tests the
 * attributes of its parameter a: id, class or both (default id):
 *
 *   /html/body/div[contains(@id,"wrapper")]/div[contains(@id,"post-")]/a
 *
 * An id is tested with contains() on the id with its digits cut off, so
 * that post-123 and post-456 give the same label. The thesis shows
 * "post-" for such ids but does not state the rule; the one used here is
 * "the first run of the id that holds no digit" (post-123 → "post-",
 * 12-comments → "-comments", item7x → "item"), which is always a
 * substring of the id, so the label still selects the link it came from.
 * An id that is all digits, or empty, is tested for presence only
 * ([@id]), as contains(@id,"") would also hold for elements without one.
 * A class is tested for presence ([@class]), as seed 004's parameter
 * description gives it.
 *
 * The thesis writes labels with a final /@href step, the OXPath way of
 * naming the attribute to click; these labels stop at the element, so
 * that they are plain XPaths of the links. The navigation patterns add
 * the /@href{click/} action when they are written out. */

typedef enum {
  CG_LINK_LABEL_ID    = 1 << 0,
  CG_LINK_LABEL_CLASS = 1 << 1,
} CgLinkLabelAttributes;

/* Seed 004's default: a = id. */
#define CG_LINK_LABEL_DEFAULT_ATTRIBUTES CG_LINK_LABEL_ID

/* The label of the element at the end of @path. */
char   *cg_link_label_for_path     (const CgDomPath       *path,
                                    CgLinkLabelAttributes  attributes);

/* The part of an id that a label tests with contains(), or NULL when the
 * id has no such part and is tested with [@id]. */
char   *cg_link_label_id_stem      (const char            *id);

G_END_DECLS
