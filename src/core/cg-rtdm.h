/* cg-rtdm.h: the restricted top-down tree edit distance (RTDM).
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <libxml/tree.h>

G_BEGIN_DECLS

/* Seed 001 (§2.2, after de Castro Reis et al., WWW 2004) decides whether a
 * page is "like the sample" by the edit distance between their DOM trees,
 * restricted so that it is cheap to compute:
 *
 *  - a mapping between the trees is top-down: a node is mapped only if
 *    its parent is mapped to the other node's parent, so insertions and
 *    deletions remove or add whole subtrees;
 *  - it is restricted: when a node is mapped to a node with another label
 *    (a substitution), nothing below either of them is mapped, so their
 *    descendants are all deleted and inserted;
 *  - sibling order is kept, and every operation costs 1 (the thesis gives
 *    no other costs).
 *
 * The distance is the cost of the cheapest such mapping: 1 per
 * substitution, 1 per deleted node of the first tree and 1 per inserted
 * node of the second. For two nodes with the same label it is the edit
 * distance between their child sequences, where deleting or inserting a
 * child costs its subtree's size and matching two children costs their
 * own distance; two nodes with different labels cost
 * 1 + (size − 1) + (size − 1). Identical subtrees are found first, in
 * linear time, by giving every subtree of both trees an equivalence class
 * (hash-consing of label and child classes); a pair of the same class
 * costs 0 without a look inside. The worst case is O(|T1|·|T2|), and two
 * pages of one template cost far less, since most of their subtrees are
 * identical.
 *
 * Nodes are labelled with lowercase element names; with the default
 * flags, every text node that is not only white space is a leaf labelled
 * "#text" (its content is ignored, the structure is what counts).
 * Comments and processing instructions are left out.
 *
 * The thesis leaves the similarity and its threshold open; this module
 * defines the similarity as 1 − d / (|T1| + |T2|), which is 1 for
 * identical trees and above 0 otherwise (d is at most |T1| + |T2| − 1,
 * reached when the roots differ), and leaves the threshold to the caller.
 *
 * Bounds: a tree has at most CG_RTDM_MAX_NODES nodes (a large page has a
 * few thousand), and one comparison fills at most CG_RTDM_MAX_CELLS cells
 * of its dynamic programming tables, which is under a second; beyond
 * either, an error is returned rather than a slow answer. */

#define CG_RTDM_MAX_NODES 100000
#define CG_RTDM_MAX_DEPTH 1024
#define CG_RTDM_MAX_CELLS 50000000

#define CG_RTDM_ERROR (cg_rtdm_error_quark ())

typedef enum {
  CG_RTDM_ERROR_EMPTY,       /* a document without a root element */
  CG_RTDM_ERROR_TOO_LARGE,   /* more than CG_RTDM_MAX_NODES nodes */
  CG_RTDM_ERROR_TOO_DEEP,    /* more than CG_RTDM_MAX_DEPTH levels */
  CG_RTDM_ERROR_TOO_COSTLY,  /* the comparison needs more than CG_RTDM_MAX_CELLS cells */
  CG_RTDM_ERROR_PARSE,       /* cg_rtdm_tree_new_parse() input */
} CgRtdmError;

typedef enum {
  CG_RTDM_TREE_DEFAULT       = 0,
  CG_RTDM_TREE_ELEMENTS_ONLY = 1 << 0,   /* no "#text" leaves */
} CgRtdmTreeFlags;

/* A labelled ordered tree, independent of the document it was read
 * from, so that a sample page's tree can be kept and compared with many
 * pages. */
typedef struct _CgRtdmTree CgRtdmTree;

GQuark        cg_rtdm_error_quark          (void);

CgRtdmTree   *cg_rtdm_tree_new_for_node     (xmlNodePtr          root,
                                             CgRtdmTreeFlags     flags,
                                             GError            **error);
/* The tree of @doc's root element. */
CgRtdmTree   *cg_rtdm_tree_new_for_document (xmlDocPtr           doc,
                                             CgRtdmTreeFlags     flags,
                                             GError            **error);
/* A tree written as "label(child child(grandchild))": labels are runs of
 * characters other than white space and parentheses, children follow in
 * parentheses, separated by white space. For tests and examples. */
CgRtdmTree   *cg_rtdm_tree_new_parse        (const char         *notation,
                                             GError            **error);
void          cg_rtdm_tree_free             (CgRtdmTree         *tree);

guint         cg_rtdm_tree_get_size         (const CgRtdmTree   *tree);
/* The tree in the notation cg_rtdm_tree_new_parse() reads. */
char         *cg_rtdm_tree_to_string        (const CgRtdmTree   *tree);

/* The restricted top-down edit distance from @a to @b, with unit costs. */
gboolean      cg_rtdm_distance              (const CgRtdmTree   *a,
                                             const CgRtdmTree   *b,
                                             guint              *distance,
                                             GError            **error);
/* 1 − @distance / (@size_a + @size_b); 1 when both sizes are 0. */
double        cg_rtdm_normalize             (guint               distance,
                                             guint               size_a,
                                             guint               size_b);
/* The distance, normalised. */
gboolean      cg_rtdm_similarity            (const CgRtdmTree   *a,
                                             const CgRtdmTree   *b,
                                             double             *similarity,
                                             GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgRtdmTree, cg_rtdm_tree_free)

G_END_DECLS
