/* cg-xpath-lattice.h: seed 000's lattice of path expressiveness.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "cg-dom-path.h"

G_BEGIN_DECLS

/* Seed 000 (§3.3.3.2, §4.2.2.2) describes where a link or a text sits by
 * its root-to-element path, recorded with every tag and every attribute.
 * A path can be written at several levels of detail, its expressiveness:
 * each attribute of each tag is left out, tested for presence
 * (div[@class]) or tested for its value (div[@class="List1"]), and a tag
 * can be left out altogether, which turns the step before it into a
 * descendant step (//div/ul/li/a → //ul/li/a). The set of these versions
 * is the path's lattice; a CgLatticePath is one point of it, an XPath
 * that selects the element it was made from and possibly others like it.
 *
 * Every move in the lattice changes one thing by one level: refining
 * raises one attribute from absent to name or from name to value, or
 * puts back a dropped tag; generalizing does the reverse. A tag can be
 * dropped only when none of its attributes is tested, so that a drop is
 * one level too, and the element itself (the last step) is never dropped.
 * cg_lattice_path_get_rank() counts the tests, so one move changes the
 * rank by exactly one.
 *
 * The default path (seed 000's defaultPath) keeps every tag and tests the
 * name of each tag's first attribute; link collections are first formed
 * by grouping a page's anchors on it.
 *
 * The href of a link (the last step, when it is an a or area element) is
 * not part of the lattice: every link of a link collection has one and
 * its value is the URL the collection groups. This is also what seed
 * 000's Fig. 3.13 shows: its paths end in a bare A at every level. The
 * "first attribute" of such a step is its first other attribute.
 *
 * Lattice paths never use positions ([2]): the lattice describes
 * collections of similar elements, not one element. */

typedef enum {
  CG_XPATH_ATTRIBUTE_NONE  = 0,   /* not tested */
  CG_XPATH_ATTRIBUTE_NAME  = 1,   /* tag[@name] */
  CG_XPATH_ATTRIBUTE_VALUE = 2,   /* tag[@name="value"] */
} CgXPathAttributeLevel;

typedef struct _CgLatticePath CgLatticePath;

#define CG_TYPE_LATTICE_PATH (cg_lattice_path_get_type ())
GType            cg_lattice_path_get_type          (void) G_GNUC_CONST;

/* Every tag, no attribute: the most generic point that keeps all tags
 * (level 1 of Fig. 3.12). */
CgLatticePath   *cg_lattice_path_new_bare          (CgDomPath            *path);
/* Every tag and the name of each tag's first attribute. */
CgLatticePath   *cg_lattice_path_new_default       (CgDomPath            *path);
/* Every tag and every attribute with its value, where the value was
 * recorded (see CG_DOM_PATH_MAX_VALUE_LENGTH), else with its name. */
CgLatticePath   *cg_lattice_path_new_exact         (CgDomPath            *path);

CgLatticePath   *cg_lattice_path_copy              (const CgLatticePath  *self);
void             cg_lattice_path_free              (CgLatticePath        *self);

CgDomPath       *cg_lattice_path_get_dom_path      (const CgLatticePath  *self);
CgXPathAttributeLevel
                 cg_lattice_path_get_level         (const CgLatticePath  *self,
                                                    guint                 step,
                                                    guint                 attribute);
gboolean         cg_lattice_path_is_dropped        (const CgLatticePath  *self,
                                                    guint                 step);
/* FALSE for the attributes the lattice leaves out (a link's href). */
gboolean         cg_lattice_path_is_tunable        (const CgLatticePath  *self,
                                                    guint                 step,
                                                    guint                 attribute);
/* The number of tests: kept tags plus the attribute levels. */
guint            cg_lattice_path_get_rank          (const CgLatticePath  *self);

/* A copy with one attribute at @level, or NULL if the lattice has no such
 * point: the attribute is not tunable, its value was not recorded, or
 * its tag is dropped. Any level may be set, not only the next one. */
CgLatticePath   *cg_lattice_path_with_level        (const CgLatticePath  *self,
                                                    guint                 step,
                                                    guint                 attribute,
                                                    CgXPathAttributeLevel level);
/* A copy with @step dropped or put back, or NULL if it cannot be (the
 * last step, or a step with a tested attribute). */
CgLatticePath   *cg_lattice_path_with_dropped      (const CgLatticePath  *self,
                                                    guint                 step,
                                                    gboolean              dropped);

/* Every point one refinement above @self (rank + 1), as CgLatticePath,
 * ordered from the root step to the last and, within a step, by
 * attribute: a dropped tag is put back; an attribute goes from none to
 * name or from name to value. */
GPtrArray       *cg_lattice_path_refinements       (const CgLatticePath  *self);
/* Every point one generalization below @self (rank − 1), in the same
 * order: an attribute goes from value to name or from name to none; a tag
 * with no tested attribute, other than the last, is dropped. */
GPtrArray       *cg_lattice_path_generalizations   (const CgLatticePath  *self);

/* One chain through the lattice, from the bare path up to the exact one,
 * one refinement per level (seed 000 Fig. 3.12–3.13 shows such a chain
 * and notes that each level picks one of its points): the first
 * attribute's name on each tag from the root down, which reaches the
 * default path; then the first attribute's value on each tag from the
 * root down; then the other attributes' names, then their values, in the
 * same order. */
GPtrArray       *cg_lattice_path_chain             (CgDomPath            *path);

/* The XPath 1.0 expression, e.g. /html/body/div[@class]/ul[@class="x"]/li/a
 * or //ul/li/a; values are quoted with cg_dom_xpath_literal(). */
char            *cg_lattice_path_to_xpath          (const CgLatticePath  *self);

/* Whether the XPath of @self selects the element at the end of @other,
 * computed on the recorded paths alone, so that it works across pages
 * and after the documents are gone. It agrees with evaluating
 * cg_lattice_path_to_xpath() on the document @other came from. */
gboolean         cg_lattice_path_matches           (const CgLatticePath  *self,
                                                    const CgDomPath      *other);
/* How many of @paths (CgDomPath) match, e.g. how many links of a page
 * fall in the link collection @self describes. */
guint            cg_lattice_path_count_matches     (const CgLatticePath  *self,
                                                    GPtrArray            *paths);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgLatticePath, cg_lattice_path_free)

G_END_DECLS
