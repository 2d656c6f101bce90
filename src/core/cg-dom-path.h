/* cg-dom-path.h: root-to-element paths of a parsed HTML document.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>

G_BEGIN_DECLS

/* A CgDomPath records, for every element from the root down to one
 * element, its tag name, its position among its siblings and all its
 * attributes with their values: everything the analyses of a page need
 * about where a link or a text sits (seed 000 §3.3.3.2 records the same
 * for its XPath lattice). It does not point into the document, so it
 * outlives the parsed tree, can be compared across pages and can be
 * stored (cg_dom_path_to_json()).
 *
 * Three strings are derived from it:
 *
 *  - the indexed absolute XPath, "/html[1]/body[1]/div[2]/a[1]": every
 *    step is a lowercase tag name and the 1-based position of the element
 *    among its element siblings of the same name in libxml2's tree. It
 *    selects exactly the element on the document it came from.
 *
 *  - the tag path, "/html/body/div/a": the same without positions. It is
 *    an XPath too, selecting every element with that chain of names
 *    (seed 003's tag paths, seed 000's "HTML-DIV-UL-LI-A").
 *
 *  - the canonical XPath, the form in which paths computed on libxml2's
 *    tree are compared with paths the renderer computes on the browser's
 *    DOM (data-cg-xpath in src/render/cg-capture.js). The two parsers build
 *    different trees from the same markup; the canonical form removes the
 *    difference that is systematic and cheap to remove:
 *
 *      1. Only element nodes are steps; text, comment and other nodes never
 *         appear, so a path always ends at an element.
 *      2. Names are the ASCII-lowercase local names (libxml2 lowercases
 *         HTML names; browsers keep "foreignObject" in SVG).
 *      3. Every step carries an explicit position, also [1].
 *      4. A tbody element whose parent is a table is dissolved: it is not a
 *         step, and its children count as children of the table, in
 *         document order, for the positions of same-name siblings.
 *         Browsers insert tbody around rows that the markup puts directly
 *         in a table, libxml2 never does, and markup may have several row
 *         groups; dissolving makes
 *         <table><tr>…</tr><tbody><tr>…</tr></tbody></table> give
 *         table[1]/tr[1] and table[1]/tr[2] on both sides.
 *      5. html, head and body are not special: both parsers create html
 *         and body when the markup leaves them out, and head's presence
 *         does not change body's position, which counts body siblings only.
 *
 *    The remaining differences follow from the HTML standard's tree
 *    construction, which libxml2 does not implement, and are not
 *    normalised; paths below such markup may differ between the two sides:
 *
 *      - misnested formatting elements (<b>1<p>2</b>3</p>): browsers
 *        reopen the b inside the p (the adoption agency algorithm),
 *        libxml2 closes it;
 *      - content misplaced inside a table (<table><a>…</a><tr>…): browsers
 *        move it before the table (foster parenting), libxml2 keeps it in
 *        the table;
 *      - a stray </p> creates an empty p in browsers and is ignored by
 *        libxml2, shifting the positions of the following p siblings;
 *      - content after </html> goes into body in browsers and into a second
 *        html element nested in the first with libxml2;
 *      - noscript content is text for browsers with scripting on and
 *        elements for libxml2; template content is in a separate fragment
 *        in browsers and in the tree for libxml2.
 *
 *    cg_dom_node_has_browser_counterpart() tells whether an element lies
 *    inside noscript or template, where no browser path exists.
 *
 * Attributes are recorded in document order, which is also the order in
 * which browsers list them, because seed 000's default lattice path uses
 * each tag's first attribute. Attributes the renderer adds to the DOM it
 * captures (data-cg-*), namespaced attributes (xml:lang, xlink:href) and
 * attributes whose names are not XPath names (Vue's "@click", ":href")
 * are not recorded: they are not part of the page's template or cannot be
 * written in an XPath. */

/* libxml2's HTML parser nests at most 256 elements deep; deeper trees only
 * come from other builders and are refused. */
#define CG_DOM_PATH_MAX_DEPTH 1024

/* At most this many attributes are recorded per step, in document order. */
#define CG_DOM_PATH_MAX_ATTRIBUTES 32

/* Longer attribute values are recorded without their value (the name
 * only): a [@name="value"] test on them would be a data value, not a
 * template feature, and would make paths unboundedly long. */
#define CG_DOM_PATH_MAX_VALUE_LENGTH 512

/* Bounds of cg_dom_xpath_eval(): the number of nodes returned, and the
 * number of XPath operations libxml2 may run before it gives up. */
#define CG_DOM_XPATH_MAX_RESULTS 100000
#define CG_DOM_XPATH_MAX_OPERATIONS 50000000

#define CG_DOM_PATH_ERROR (cg_dom_path_error_quark ())

typedef enum {
  CG_DOM_PATH_ERROR_TOO_DEEP,        /* deeper than CG_DOM_PATH_MAX_DEPTH */
  CG_DOM_PATH_ERROR_INVALID_XPATH,   /* the expression does not compile or fails */
  CG_DOM_PATH_ERROR_NOT_NODES,       /* the expression gives a number, string or boolean */
  CG_DOM_PATH_ERROR_TOO_MANY_NODES,  /* more than CG_DOM_XPATH_MAX_RESULTS nodes */
  CG_DOM_PATH_ERROR_INVALID_JSON,    /* cg_dom_path_new_from_json() input */
} CgDomPathError;

typedef struct _CgDomPath CgDomPath;

#define CG_TYPE_DOM_PATH (cg_dom_path_get_type ())
GType        cg_dom_path_get_type                (void) G_GNUC_CONST;
GQuark       cg_dom_path_error_quark             (void);

/* The path from the root element down to @element, which must be an
 * element node of a document. Fails only for trees deeper than
 * CG_DOM_PATH_MAX_DEPTH. */
CgDomPath   *cg_dom_path_new_for_node            (xmlNodePtr        element,
                                                  GError          **error);

/* Finding an element's position means counting its earlier siblings, so
 * computing the paths of all items of a long list one by one takes time
 * quadratic in its length. A cache numbers the children of each element
 * once: use one per document, while the document does not change, to
 * compute many paths (all the links or texts of a page). */
typedef struct _CgDomPathCache CgDomPathCache;

CgDomPathCache *cg_dom_path_cache_new            (void);
void         cg_dom_path_cache_free              (CgDomPathCache   *cache);
CgDomPath   *cg_dom_path_new_for_node_cached     (xmlNodePtr        element,
                                                  CgDomPathCache   *cache,
                                                  GError          **error);

CgDomPath   *cg_dom_path_ref                     (CgDomPath        *path);
void         cg_dom_path_unref                   (CgDomPath        *path);

/* Steps are numbered from 0 (the root element, normally html) to
 * length − 1 (the element itself). */
guint        cg_dom_path_get_length              (const CgDomPath  *path);
const char  *cg_dom_path_get_tag                 (const CgDomPath  *path,
                                                  guint             step);
/* The 1-based position among element siblings of the same name. */
guint        cg_dom_path_get_position            (const CgDomPath  *path,
                                                  guint             step);
/* The position in the canonical form, or 0 for a tbody step that the
 * canonical form dissolves. */
guint        cg_dom_path_get_canonical_position  (const CgDomPath  *path,
                                                  guint             step);
guint        cg_dom_path_get_n_attributes        (const CgDomPath  *path,
                                                  guint             step);
const char  *cg_dom_path_get_attribute_name      (const CgDomPath  *path,
                                                  guint             step,
                                                  guint             attribute);
/* NULL when the value is longer than CG_DOM_PATH_MAX_VALUE_LENGTH. */
const char  *cg_dom_path_get_attribute_value     (const CgDomPath  *path,
                                                  guint             step,
                                                  guint             attribute);
/* The index of the attribute called @name in @step, or -1. */
int          cg_dom_path_find_attribute          (const CgDomPath  *path,
                                                  guint             step,
                                                  const char       *name);

gboolean     cg_dom_path_equal                   (const CgDomPath  *a,
                                                  const CgDomPath  *b);

/* "/html[1]/body[1]/div[2]/a[1]" */
char        *cg_dom_path_to_xpath                (const CgDomPath  *path);
/* "/html/body/div/a" */
char        *cg_dom_path_to_tag_path             (const CgDomPath  *path);
/* "/html[1]/body[1]/table[1]/tr[3]/td[1]/a[1]", see above. */
char        *cg_dom_path_to_canonical_xpath      (const CgDomPath  *path);

/* A JSON array with one object per step:
 * [{"tag":"div","position":2,"canonical":2,"attributes":[["class","x"]]}, …];
 * a value that was too long to record is null. Reading checks every
 * field and bound, so a path read back from a project file is as
 * trustworthy as one computed from a page. */
char        *cg_dom_path_to_json                 (const CgDomPath  *path);
CgDomPath   *cg_dom_path_new_from_json           (const char       *json,
                                                  GError          **error);

/* Shortcuts for the strings of one element. */
char        *cg_dom_node_xpath                   (xmlNodePtr        element);
char        *cg_dom_node_tag_path                (xmlNodePtr        element);
char        *cg_dom_node_canonical_xpath         (xmlNodePtr        element);

/* FALSE for an element inside noscript or template, which browsers do not
 * put in the DOM as elements. */
gboolean     cg_dom_node_has_browser_counterpart (xmlNodePtr        element);

/* @value as an XPath 1.0 string literal: "value" in double quotes, 'value'
 * in apostrophes when it holds a double quote, and a concat() of both
 * kinds when it holds both, since XPath 1.0 literals have no escapes. */
char        *cg_dom_xpath_literal                (const char       *value);

/* Evaluates an XPath 1.0 expression on @doc, relative to @context (the
 * document when NULL), and returns the nodes it selects in document order
 * as a GPtrArray of xmlNodePtr owned by @doc (the array holds no
 * references; it is valid while @doc is). Fails with a message naming the
 * expression for an expression that does not compile, one that does not
 * give a node set, one that runs more than CG_DOM_XPATH_MAX_OPERATIONS
 * operations and one that selects more than CG_DOM_XPATH_MAX_RESULTS
 * nodes. libxml2 prints nothing. */
GPtrArray   *cg_dom_xpath_eval                   (xmlDocPtr         doc,
                                                  xmlNodePtr        context,
                                                  const char       *expression,
                                                  GError          **error);

/* Compiles an XPath 1.0 expression, or gives NULL for one that does not
 * compile; libxml2 prints nothing (it would print its own message on
 * stderr beside the caller's). Free with xmlXPathFreeCompExpr(). */
xmlXPathCompExprPtr cg_dom_xpath_compile         (const char       *expression);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgDomPath, cg_dom_path_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgDomPathCache, cg_dom_path_cache_free)

G_END_DECLS
