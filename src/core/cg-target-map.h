/* cg-target-map.h: seed 001's target page map and its URL navigation pattern.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "Crawl every page like this sample" (seed 001, GoGetIt!) in two steps.
 *
 * Mapping: the site is crawled breadth-first from the entry point; each
 * page is compared with the sample (RTDM, cg-rtdm.h); a page like the
 * sample is a target and is not expanded. Every page keeps the page
 * through which it was first found. The caller does the crawling and
 * tells the map about each page; the map keeps the tree of discovery
 * paths from the entry to the targets: the target page map (Def. 4).
 *
 * Generation: the map's tree is grouped top-down (Algorithm 3, Group):
 * the children of a node are split into groups of similar URLs (URLsim,
 * K = 2, where URLs of two levels or more must also agree on one of
 * them, or /book/NAME and /author/NAME would be one group; a URL joins
 * the first group whose first URL it is similar to, since URLsim is not
 * transitive), and each group becomes one node, whose children are all
 * their children, grouped in turn. A node whose URLs are similar to its
 * parent's (the next pages of a list) is folded into the parent, which
 * then repeats: from a page it reached, the links that match its own
 * pattern reach it again, as the `+` of seed 004's patterns. Similar
 * siblings are merged. Once the tree has its final shape, each node gets
 * the pattern of its URLs: the levels they share stay literal and a level
 * that varies may be any level (a query parameter keeps its name).
 * Algorithm 4's token by token generalisation fits only the URLs seen
 * and misses a page whose slug has one word more than theirs; it is used
 * only for URLs of different shapes, which URLsim keeps apart anyway.
 * Every list node (one that held no target but led to some) repeats as
 * well: the map seldom shows a whole pagination, since the mapping stops
 * at its page budget and a list's fourth page is often linked from its
 * third only.
 *
 * The navigation pattern is the grouped tree itself, not only the one
 * path of Def. 5 that covers the most targets: the seed keeps one path
 * and its recall falls short wherever targets are reached by several
 * paths (books from a category's first page and from its later pages);
 * following every path of the map costs a request per list page the map
 * saw such paths through, and finds the targets behind all of them.
 *
 * Crawling: from the entry, a page reached at a node follows the links
 * that match the pattern of one of the node's children (and its own,
 * when it repeats); pages reached at a node that held targets are the
 * candidates. No tree edit distance is needed for the crawl itself. */

/* Bounds: pages in one map, and levels of the tree (a discovery path
 * longer than this is cut). */
#define CG_TARGET_MAP_MAX_PAGES   1000000
#define CG_TARGET_MAP_MAX_DEPTH   64

#define CG_TARGET_MAP_ERROR (cg_target_map_error_quark ())

typedef enum {
  CG_TARGET_MAP_ERROR_INVALID,    /* an empty URL, a page added twice, an unknown parent */
  CG_TARGET_MAP_ERROR_TOO_MANY,   /* more than CG_TARGET_MAP_MAX_PAGES */
  CG_TARGET_MAP_ERROR_NO_TARGET,  /* generation with no target in the map */
} CgTargetMapError;

GQuark        cg_target_map_error_quark   (void);

/* One node of the navigation pattern. */
typedef struct _CgUrlNavNode CgUrlNavNode;

struct _CgUrlNavNode
{
  char         *pattern;     /* anchored regular expression; NULL for the entry */
  GRegex       *regex;       /* compiled @pattern; NULL for the entry */
  gboolean      repeats;     /* links matching @pattern from its pages reach it again */
  guint         n_pages;     /* pages of the map grouped into it */
  guint         n_targets;   /* of those, targets */
  guint         level;       /* 0 for the entry */
  GPtrArray    *children;    /* CgUrlNavNode */
  CgUrlNavNode *parent;
  GPtrArray    *urls;        /* char *: the URLs of the map grouped into it */
};

typedef struct _CgTargetMap CgTargetMap;

CgTargetMap  *cg_target_map_new           (const char      *entry_url);
void          cg_target_map_free          (CgTargetMap     *self);

/* Records a mapped page, found first on @parent_url (NULL only for the
 * entry, which is added by cg_target_map_new()). Fails for an empty URL,
 * a URL added before, a parent that was not added, and beyond
 * CG_TARGET_MAP_MAX_PAGES. */
gboolean      cg_target_map_add_page      (CgTargetMap     *self,
                                           const char      *url,
                                           const char      *parent_url,
                                           gboolean         target,
                                           GError         **error);
gboolean      cg_target_map_contains      (CgTargetMap     *self,
                                           const char      *url);
guint         cg_target_map_get_n_pages   (CgTargetMap     *self);
guint         cg_target_map_get_n_targets (CgTargetMap     *self);

/* Groups the map into its navigation pattern; the root is the entry.
 * Fails when the map has no target. Free with cg_url_nav_node_free(). */
CgUrlNavNode *cg_target_map_generate      (CgTargetMap     *self,
                                           GError         **error);

void          cg_url_nav_node_free        (CgUrlNavNode    *node);
/* The nodes that a page reached at @node reaches through a link to @url:
 * each child whose pattern matches, and @node itself when it repeats and
 * matches. Returns CgUrlNavNode (not owned), possibly empty. */
GPtrArray    *cg_url_nav_node_follow      (CgUrlNavNode    *node,
                                           const char      *url);
/* Every node in depth-first order, the root first (not owned). */
GPtrArray    *cg_url_nav_node_flatten     (CgUrlNavNode    *root);
/* One line per node, indented by level: "PATTERN (+) pages/targets". */
char         *cg_url_nav_node_to_string   (CgUrlNavNode    *root);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgTargetMap, cg_target_map_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgUrlNavNode, cg_url_nav_node_free)

G_END_DECLS
