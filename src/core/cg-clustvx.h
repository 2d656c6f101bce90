/* cg-clustvx.h: seed 003's ClustVX, data records of a list page from clusters of visually similar XPaths.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <libxml/HTMLparser.h>

G_BEGIN_DECLS

/* ClustVX (seed 003 §2) finds the data records of a list page, a page
 * that shows two or more records made from one template (a list of
 * books, of search results), without any knowledge of the site:
 *
 *  1. Pre-processing. Inline formatting elements (b, i, em, strong, font,
 *     …) are dissolved and the text they split is merged; every text that
 *     shares its parent with other elements ("hanging text") becomes an
 *     element of its own, as if wrapped in a span; invisible elements are
 *     dropped.
 *  2. Every remaining element that holds text of its own or is an image
 *     gets an Xstring: the tag names of its path from the root, without
 *     positions, joined to its computed font ("fontdata").
 *  3. Elements are clustered in one pass by exact Xstring equality: a
 *     cluster is one attribute repeated across records, such as all the
 *     prices.
 *  4. The longest common prefix (in positional steps) of a cluster's
 *     XPaths is its data region; clusters with the same prefix form one
 *     region.
 *  5. Records are segmented: type A when every record has an element of
 *     its own below the region (li, tr, div…), type B when the records are
 *     runs of siblings under one parent, split by tree hopping at each
 *     occurrence of the visually first item's cluster.
 *  6. The items of each record are aligned into columns by their path
 *     inside the record (the record-relative Xstring).
 *  7. Regions are ranked by visual weight, eq. 2.1: the region's area
 *     times the square of its items per record. All regions are returned,
 *     best first.
 *
 * Input. The document is a libxml2 HTML tree, of one of two kinds:
 *
 *  - the decorated rendered DOM that src/render writes (cg-capture.js):
 *    every element carries data-cg-left/top/width/height, data-cg-visible
 *    and data-cg-fontdata, so visibility, fonts, positions and areas come
 *    from the browser, as in the seed;
 *  - a plain fetched page (cg_page_parse()). There are no visual features:
 *    the fontdata is empty (the Xstring is the tag path alone), except
 *    that a text that is all inside formatting elements gets their names,
 *    "font/b", which is what made it look different; only what
 *    is obviously never shown is dropped (head, script, style, template,
 *    noscript, elements with the hidden attribute, type="hidden" inputs,
 *    an inline style of display:none or visibility:hidden), the visual
 *    order is document order and a region's area is estimated from the
 *    length of its text and its number of images.
 *
 * CG_CLUSTVX_FEATURES_AUTO uses the visual features when the root element
 * carries data-cg-visible, which only the renderer writes.
 *
 * The document is never modified: pre-processing is done on a view of the
 * tree, so every XPath returned is a plain positional XPath of the input
 * document ("/html[1]/body[1]/div[2]/ul[1]"), which xmlXPathEval() (or
 * cg_dom_xpath_eval()) selects on the same page parsed by libxml2, with
 * or without the renderer's decorations. The data-cg-xpath attributes are
 * not used for that: they are the browser's canonical paths, which differ
 * from libxml2's where tbody is involved. (A rendered DOM has the tbody
 * elements the browser inserted, so its XPaths go through tbody[1] where
 * the fetched page's tree has none; cg_dom_path_to_canonical_xpath()
 * compares the two.)
 *
 * Where this module departs from the seed or fills its gaps ([inferred] in
 * the seed's summary), and why:
 *
 *  - Items are every content element inside a record, not only the members
 *    of the region's clusters: the seed's goal is all items of all records,
 *    and an attribute shown by a single record forms no cluster.
 *  - The record level of a type-A region is the region element's
 *    children, as in the seed, unless most clusters have several members
 *    per child there: then it is the first deeper level whose nodes still
 *    hold items of two clusters or more and where most clusters have one
 *    member per node, so that grids (table/tr/td, a record per cell) and
 *    masonry columns of cards are cut at the cell and the card. The
 *    search also goes deeper through nodes that hold lists of their own
 *    (three clusters or more with several members inside one node), so
 *    that results shown in sections, a heading and a table of rows each,
 *    are cut at the rows rather than at the sections. It stops at the
 *    seed's level, though, when a shallower level already had a cluster
 *    with one member in at least half of its nodes (a title per record)
 *    and the deeper level's nodes hold one item each on average: those
 *    nodes are the fields of records whose fields share an Xstring
 *    (company and place both spans), and the boxes whose lists took
 *    the search deeper are split as below.
 *  - The seed's decision between types A and B (its Fig. 2.10) was lost.
 *    A region is of type B when a cluster with one member per child of
 *    the region element leaves gaps between its children that mostly hold
 *    children of another kind (dt and dd; a title, a link and a score
 *    between <br>; a row and its details row), and the runs it starts
 *    mostly have the same shape. The start cluster is the visually first
 *    item's, among the clusters with the most members.
 *  - A record shown apart, beside the region element rather than in it (a
 *    highlighted first result), has Xstrings of its own and forms no
 *    cluster with the others; a sibling of the region element that holds
 *    the same items as most records is added to the region, which then
 *    becomes the element that holds all its records, and record_xpath is
 *    the union of the records' two paths ("div | div/div").
 *  - A child of the region element most of whose items are of one
 *    cluster repeated inside it, which fewer than half of the children
 *    hold, and which repeats no other cluster, is a list of its own and
 *    no record: a row of page links above and below the rows of a results
 *    table. The seed makes every child holding an item of the region's
 *    clusters a record (the current page, in bold, may share the Xstring
 *    of an item of the records).
 *  - A region must hold at least CgClustvxOptions.min_records records (2,
 *    the seed's definition of a list page).
 *  - An attribute that only some records of a list show (the season and
 *    episode of the TV episodes among titles) has clusters whose prefix
 *    is deeper than the list's, so the seed makes it a region of its own
 *    whose records are some of the list's records, the same elements,
 *    and which, with many items a record, outranks the list. A region
 *    whose records are all records of another region, which also has
 *    records among them that it left out (siblings of its records), is
 *    dropped: the list holds all its items. A region that only lacks a
 *    record shown apart elsewhere keeps its place.
 *  - Some records of a type-A list can be grouped in a box that is one
 *    child of the region element among the records (sponsored results
 *    above and below the others, in a markup of their own). A record
 *    element unlike the others (column keys with a Jaccard similarity
 *    below EXTEND_MIN_SIMILARITY to those most records have), with more
 *    items than the median record, whose children of at least half a
 *    record's size (two or more; below a heading, through at most four
 *    wrapper elements) all start with an item of one cluster and hold all
 *    its items but the heading, is split into those children, and
 *    record_xpath is the union of the records' paths.
 *  - The area in the visual weight (the seed's DR_a) is the area the
 *    records cover, the sum of their boxes, rather than the region
 *    element's: a pager above and below a list has the list's container
 *    as its region element but covers two thin strips. On a plain page it
 *    is estimated from the records' text length and images. A region
 *    whose records hold other regions (results shown in sections, each a
 *    heading, a list and a "more" link) counts only the area its records
 *    cover outside the outermost regions nested in them: otherwise the
 *    sections, whose headings recur once each, would outweigh the lists
 *    that are the page's data.
 *  - Items per record in the visual weight is the mean number of distinct
 *    attributes (item tag path and font, the region's Xstrings) that a
 *    record shares with another record of the region: an item no other
 *    record has is not a repeated attribute, and the tenth link of a list
 *    inside a record is the same attribute as the first. Without this a
 *    page footer of three sections of links outweighs a short list.
 *
 * Bounds: at most CgClustvxOptions.max_elements elements are read (the
 * rest of a larger page is ignored and the result says it is partial), at
 * most max_regions regions, max_records records per region and
 * max_items items per record are returned, and an item's text is cut at
 * CG_CLUSTVX_MAX_TEXT_LENGTH bytes. Broken markup is whatever tree
 * libxml2's recovering parser made of it. */

#define CG_CLUSTVX_DEFAULT_MAX_ELEMENTS  200000
#define CG_CLUSTVX_DEFAULT_MAX_REGIONS   100
#define CG_CLUSTVX_DEFAULT_MAX_RECORDS   5000
#define CG_CLUSTVX_DEFAULT_MAX_ITEMS     200
#define CG_CLUSTVX_DEFAULT_MIN_RECORDS   2

/* Upper limits of the options above. */
#define CG_CLUSTVX_MAX_ELEMENTS          5000000
#define CG_CLUSTVX_MAX_REGIONS           10000
#define CG_CLUSTVX_MAX_RECORDS           100000
#define CG_CLUSTVX_MAX_ITEMS             10000

/* An item's text is cut (at a character boundary) to at most this many
 * bytes. */
#define CG_CLUSTVX_MAX_TEXT_LENGTH       (64 * 1024)

#define CG_CLUSTVX_ERROR (cg_clustvx_error_quark ())

typedef enum {
  CG_CLUSTVX_ERROR_NO_DOCUMENT,      /* no document, or one without a root element */
  CG_CLUSTVX_ERROR_INVALID_OPTIONS,  /* a bound out of range */
} CgClustvxError;

GQuark        cg_clustvx_error_quark          (void);

typedef enum {
  CG_CLUSTVX_FEATURES_AUTO,      /* rendered when the root carries data-cg-visible */
  CG_CLUSTVX_FEATURES_RENDERED,  /* use the data-cg-* attributes */
  CG_CLUSTVX_FEATURES_PLAIN,     /* ignore them, as for a fetched page */
} CgClustvxFeatures;

typedef struct {
  CgClustvxFeatures features;
  guint             max_elements;  /* 1 … CG_CLUSTVX_MAX_ELEMENTS */
  guint             max_regions;   /* 1 … CG_CLUSTVX_MAX_REGIONS */
  guint             max_records;   /* per region, 2 … CG_CLUSTVX_MAX_RECORDS */
  guint             max_items;     /* per record, 1 … CG_CLUSTVX_MAX_ITEMS */
  guint             min_records;   /* per region, 2 … max_records */
} CgClustvxOptions;

/* Fills @options with the defaults above. Callers always start from it,
 * so that fields added later get their defaults. */
void          cg_clustvx_options_init         (CgClustvxOptions *options);

/* What an item is. An image's text is its alt text. A price is a text
 * with a currency sign or code next to a number ("£35.00", "12,50 EUR");
 * a date a text that is a calendar date in a common numeric or English
 * form ("2014-05-01", "1 May 2014", "May 1, 2014"). A link is an element
 * that is or lies inside an <a href> and is none of the above. */
typedef enum {
  CG_CLUSTVX_ITEM_TEXT,
  CG_CLUSTVX_ITEM_LINK,
  CG_CLUSTVX_ITEM_IMAGE,
  CG_CLUSTVX_ITEM_PRICE,
  CG_CLUSTVX_ITEM_DATE,
} CgClustvxItemKind;

/* "text", "link", "image", "price", "date" */
const char   *cg_clustvx_item_kind_to_string  (CgClustvxItemKind kind);

/* What @text alone says of its kind: CG_CLUSTVX_ITEM_PRICE or
 * CG_CLUSTVX_ITEM_DATE as above, else CG_CLUSTVX_ITEM_TEXT. Texts longer
 * than a price or a date would be are text. The wrapper names the fields
 * it finds on detail pages with it, so that a column has the same kind
 * whichever of the two found it. */
CgClustvxItemKind cg_clustvx_text_kind        (const char       *text);

/* The Jaccard similarity of two sets kept as the keys of hash tables,
 * |A ∩ B| / |A ∪ B|, with B's hash and equality deciding membership; 1
 * when both are empty. ClustVX compares records' attribute sets with it
 * and the wrappers compare the values columns show on different pages. */
double        cg_clustvx_jaccard              (GHashTable       *a,
                                               GHashTable       *b);

typedef enum {
  CG_CLUSTVX_RECORDS_TYPE_A,  /* one element per record */
  CG_CLUSTVX_RECORDS_TYPE_B,  /* runs of siblings under one parent (tree hopping) */
} CgClustvxRecordsType;

/* "A", "B" */
const char   *cg_clustvx_records_type_to_string (CgClustvxRecordsType type);

/* Why a result has no region, or why it is partial. */
typedef enum {
  CG_CLUSTVX_REASON_FOUND,          /* at least one region */
  CG_CLUSTVX_REASON_NO_CONTENT,     /* no visible text or image at all */
  CG_CLUSTVX_REASON_NO_REPETITION,  /* no two content elements share an Xstring */
  CG_CLUSTVX_REASON_SINGLE_RECORD,  /* repetitions, but no region of min_records records */
} CgClustvxReason;

/* One data item: a content element after pre-processing. */
typedef struct {
  CgClustvxItemKind  kind;
  guint              column;    /* index in the region's columns */
  char              *path;      /* the alignment key, the column's key */
  char              *xpath;     /* absolute, positional, on the input document; see below */
  char              *text;      /* visible text, white space collapsed and trimmed; may be "" */
  char              *href;      /* the enclosing link's href as written, trimmed, or NULL */
  char              *url;       /* href (or src for images) resolved against the document's
                                 * URL when that gives an http(s) URL, else NULL */
  char              *src;       /* images: the src as written, or NULL */
  char              *fontdata;  /* plain mode: "" or the formatting names, see above */
  xmlNodePtr         node;      /* the first node of the item in the input document */
  xmlNodePtr         last_node; /* the last one (the same unless it is a merged text run) */
  double             left, top, width, height;  /* page pixels; all -1 in plain mode */
} CgClustvxItem;

/* An item is usually one element. A hanging text is a run of sibling
 * nodes in the input (text nodes and the formatting elements merged into
 * them); its xpath is then the union of the runs' nodes' XPaths,
 * "/…/li[1]/text()[2] | /…/li[1]/b[1]", which selects the run in
 * document order, and its node and last_node are the run's ends (a text
 * node or an element). */

/* One record of a region: one element (type A) or a run of the region
 * element's children (type B). */
typedef struct {
  char        *xpath;    /* absolute XPath of the record element (type B: its first node) */
  GPtrArray   *nodes;    /* xmlNodePtr, in document order: the element, or the run */
  GPtrArray   *items;    /* CgClustvxItem *, in document order */
} CgClustvxRecord;

/* One column of a region: the items of its records that share a path. */
typedef struct {
  char              *key;       /* the items' path: see below */
  char              *tag_path;  /* "h3/a", "#text" for a wrapped hanging text; "" for the
                                 * record element itself */
  char              *fontdata;  /* plain mode: "" or the formatting names, see above */
  CgClustvxItemKind  kind;      /* the kind of most of its items */
  guint              n_items;   /* records that have it */
} CgClustvxColumn;

/* A column key is "TAG_PATH|FONTDATA|N": the item's tag path inside its
 * record after pre-processing (the steps below the record element, names
 * only; a wrapped hanging text is the step "#text"; type B: below the
 * region element), its fontdata, and N, its occurrence among the record's
 * items with the same tag path and fontdata, from 1. Two items of two
 * records with the same key are the same attribute (seed 003 §2.2.9). */

typedef struct {
  char                 *xpath;         /* absolute XPath of the region element */
  xmlNodePtr            node;          /* that element */
  CgClustvxRecordsType  type;
  char                 *record_xpath;  /* relative to the region element: the record elements
                                        * ("li", "tr/td", "div | div/div") for type A, the
                                        * children that start a record for type B; names only,
                                        * so it may select more than the records */
  GPtrArray            *columns;       /* CgClustvxColumn *, in order of first appearance */
  GPtrArray            *records;       /* CgClustvxRecord *, in document order */
  guint                 n_clusters;    /* Xstring clusters whose prefix is this region */
  double                area;          /* px² covered by the records (rendered), or the plain
                                        * estimate; at least 1 */
  double                items_per_record;  /* shared attributes per record, see above */
  double                visual_weight; /* area × items_per_record² */
  double                score;         /* visual_weight relative to the best region's, in (0, 1] */
  gboolean              truncated;     /* records or items were left out by a bound */
} CgClustvxRegion;

typedef struct {
  GPtrArray        *regions;     /* CgClustvxRegion *, by decreasing visual weight */
  CgClustvxReason   reason;
  char             *message;     /* a translated sentence saying what was found or why not */
  gboolean          rendered;    /* the visual features were used */
  gboolean          truncated;   /* the page had more than max_elements elements, or more
                                  * regions than max_regions: the result is partial */
  guint             n_elements;  /* elements read */
  guint             n_content;   /* content elements (items) after pre-processing */
  guint             n_clusters;  /* clusters with at least two members */
} CgClustvxResult;

void          cg_clustvx_result_free          (CgClustvxResult *result);

/* Runs ClustVX on @doc with @options (the defaults when NULL). The
 * result's nodes point into @doc, which must outlive it and not change.
 * A page without records is not an error: the result has no region and
 * its reason says why. Fails for a NULL document or one without a root
 * element, and for options out of range. */
CgClustvxResult *cg_clustvx_extract           (htmlDocPtr               doc,
                                               const CgClustvxOptions  *options,
                                               GError                 **error);

/* The result as JSON, for the command line and the benchmark: an object
 * {"reason", "message", "rendered", "truncated", "elements", "regions":
 * [{"xpath", "type", "record_xpath", "score", "visual_weight", "area",
 * "items_per_record", "truncated", "columns": [{"key", "tag_path",
 * "kind", "items"}], "records": [{"xpath", "items": [{"column", "kind",
 * "path", "xpath", "text", "href", "url", "src"}]}]}]}, where absent
 * strings are null and fontdata is left out. */
JsonNode     *cg_clustvx_result_to_json       (const CgClustvxResult *result);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgClustvxResult, cg_clustvx_result_free)

G_END_DECLS
