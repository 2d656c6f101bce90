/* cg-harvester.c: the structure-driven harvest of a site, after its model.
 *
 * A harvest is a driven crawl of kind "harvest" (cg-crawler.h): the
 * harvester decides which pages to fetch, and the archival crawler fetches
 * them with their requisites, obeying robots.txt and politeness, writes
 * them to WARC and keeps the crawl resumable. Three strategies decide:
 *
 *  - classes (seed 000, §4.1, the intensive crawl): from the entry page,
 *    which is of the model's entry class, the XPaths of the class links
 *    whose source is a page's class are applied to the page (libxml2);
 *    every URL they select takes the link's target class. A menu link
 *    has several targets behind one XPath: the URL takes the one target
 *    whose URL pattern it matches, or none, and is then classified when
 *    it arrives. URLs are handed to the crawler shallow classes first
 *    (the class depth is the priority), and with a per-class wait, two
 *    pages of one class are handed out at least that long apart, on top
 *    of the crawler's host politeness. Pages that no class link reaches
 *    are not fetched, unless everything in scope is asked for; those then
 *    come last.
 *  - patterns (seed 004, the ACEBot online phase): the model's selected
 *    navigation patterns are run from the entry page
 *    (cg_nav_expression_follow()); a `+` step repeats until no new page
 *    comes, bounded by max_repeats rounds.
 *  - like (seed 001): the site is mapped breadth-first from the entry,
 *    each page compared with the sample by RTDM; the target page map is
 *    grouped into a URL navigation pattern (cg-target-map.h), which is
 *    then crawled to find every page of the sample's kind.
 *
 * Whatever the strategy, every HTML page that arrives is classified
 * (cg-page-classifier.h: the class link that found it first, then
 * UXClust fingerprints and schemas), labelled in page_labels under the
 * model (method link, uxclust, schema or none), given a WARC metadata
 * record with its "page-class" and "page-class-method" (and, for a page
 * found like the sample of a harvest by example, "page-like" with the
 * sample's URL), and its records are extracted when its class has a
 * wrapper. A page like the sample takes the sample's class, by the link
 * method: the pattern's last step led to it, as a class link would.
 *
 * The classifier gap of the learner: the learner keeps seed 000's MDL
 * class schemas, which lack the text paths that vary from page to page,
 * so that no page is close to them (cg-page-classifier.h). The harvester
 * gives each class, instead, the union of the schemas of its sample
 * pages, and their UXClust fingerprint, both computed from the sample
 * pages archived by the learning crawl; nothing new is stored, and a
 * model without an archived learning crawl (an imported one) keeps its
 * own schemas.
 *
 * Threads: the driver's functions run in the crawl's thread. The
 * harvester's state is used from there while the crawl runs, and from the
 * creating thread before it starts and after it ends. Labels and records
 * are written from the crawl's thread through a connection of the
 * harvester's own, while the crawler holds no transaction (see
 * CgCrawlDriver). The counts per class are read from any thread under a
 * lock; signals are emitted in the creating thread's main context.
 *
 * Resuming: the crawl keeps which URLs were fetched and which are still
 * queued; the harvester keeps nothing of its own but its options, in
 * PROJECT/harvests/crawl-N.json. A resumed harvester replays the pages
 * the crawl archived, in the order it archived them, read back from the
 * WARC files, which rebuilds what it knew (classes found by links,
 * pattern steps, the target page map); the URLs still queued are awaited
 * rather than asked for again.
 *
 * Reuse: a first harvest reads the pages its model's learning crawl
 * archived back from the project, before it fetches anything, and treats
 * them as fetched pages (see load_reusable()), so that the learning
 * sample costs the site its requests once. Their metadata records go to
 * a WARC file of the harvest's own, since the crawler writes records only
 * for what it fetches.
 *
 * Pruning (patterns): the patterns run in the order of their rank, and a
 * pattern whose last pages brought next to no new 2-grams is dropped (see
 * record_yield()).
 *
 * Re-harvest: when the project holds earlier harvests, each request is
 * made conditional on the ETag and Last-Modified date they kept for the
 * URL (its newest copy); a harvest reports its changes against the last
 * one only; a 304 is archived as a revisit (server-not-modified) and
 * the page is read back from the earlier copy, so that the harvest goes
 * on through it as through a fresh page.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <libxml/xpath.h>

#include "cg-crawl-lock.h"
#include "cg-cdxj.h"
#include "cg-content-decoder.h"
#include "cg-dispatch.h"
#include "cg-fetcher.h"
#include "cg-harvester.h"
#include "cg-json.h"
#include "cg-links.h"
#include "cg-nav-patterns.h"
#include "cg-page-classifier.h"
#include "cg-page-features.h"
#include "cg-record-extractor.h"
#include "cg-record-store.h"
#include "cg-rtdm.h"
#include "cg-target-map.h"
#include "cg-url.h"
#include "cg-uxclust.h"
#include "cg-warc-reader.h"
#include "cg-warc-writer.h"

/* URLs handed to the crawler at once. The crawler asks again only when
 * it has fetched them all, so a small batch keeps the order of the
 * priorities close, and a large one keeps connections busy. */
#define BATCH_SIZE 32

/* Priorities run from 0 (the entry class) to this, the last. */
#define MAX_PRIORITY 63

/* URLs the harvester keeps track of: every link of every page it read. */
#define MAX_KNOWN_URLS 5000000

/* Distinct 2-grams counted for the coverage; past this, the count stops. */
#define MAX_BIGRAMS 50000000

/* Archived payloads read back (resume, 304, class samples) larger than
 * this are not analysed. */
#define MAX_ARCHIVED_PAYLOAD (64 * 1024 * 1024)

G_DEFINE_QUARK (cg-harvester-error-quark, cg_harvester_error)

/* ------------------------------------------------------------------ */
/* Options                                                             */

CgHarvestOptions *
cg_harvest_options_new (void)
{
  CgHarvestOptions *options = g_new0 (CgHarvestOptions, 1);

  options->strategy = CG_HARVEST_STRATEGY_CLASSES;
  options->conditional = TRUE;
  options->reuse_sample = TRUE;
  options->prune_patterns = TRUE;
  options->crawl = cg_crawl_config_new ();
  return options;
}

CgHarvestOptions *
cg_harvest_options_copy (const CgHarvestOptions *options)
{
  CgHarvestOptions *copy = g_memdup2 (options, sizeof *options);

  copy->like_url = g_strdup (options->like_url);
  copy->crawl = options->crawl != NULL ? cg_crawl_config_copy (options->crawl) : NULL;
  return copy;
}

void
cg_harvest_options_free (CgHarvestOptions *options)
{
  if (options == NULL)
    return;
  g_free (options->like_url);
  g_clear_pointer (&options->crawl, cg_crawl_config_free);
  g_free (options);
}

static const char * const strategy_names[] = {
  [CG_HARVEST_STRATEGY_CLASSES] = "classes",
  [CG_HARVEST_STRATEGY_PATTERNS] = "patterns",
  [CG_HARVEST_STRATEGY_LIKE] = "like",
};

const char *
cg_harvest_strategy_to_string (CgHarvestStrategy strategy)
{
  return (guint) strategy < G_N_ELEMENTS (strategy_names) ? strategy_names[strategy] : "classes";
}

gboolean
cg_harvest_strategy_from_string (const char        *text,
                                 CgHarvestStrategy *out_strategy)
{
  for (guint i = 0; i < G_N_ELEMENTS (strategy_names); i++)
    if (g_strcmp0 (text, strategy_names[i]) == 0)
      {
        *out_strategy = (CgHarvestStrategy) i;
        return TRUE;
      }
  return FALSE;
}

gboolean
cg_harvest_options_validate (const CgHarvestOptions  *options,
                             GError                 **error)
{
  if ((guint) options->strategy >= G_N_ELEMENTS (strategy_names))
    {
      g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_INVALID,
                   _("%d is not a harvest strategy"), (int) options->strategy);
      return FALSE;
    }
  if (options->strategy == CG_HARVEST_STRATEGY_LIKE)
    {
      g_autofree char *url = NULL;

      if (options->like_url == NULL || options->like_url[0] == '\0')
        {
          g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_INVALID,
                       _("A harvest by example needs the URL of a sample page"));
          return FALSE;
        }
      url = cg_url_normalize (options->like_url, CG_URL_NORMALIZE_CRAWL, NULL);
      if (url == NULL || !g_str_has_prefix (url, "http"))
        {
          g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_INVALID,
                       _("The sample page “%s” is not an http or https URL"), options->like_url);
          return FALSE;
        }
    }
  if (options->like_similarity < 0 || options->like_similarity > 1 || isnan (options->like_similarity))
    {
      g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_INVALID,
                   _("The similarity to the sample page must be between 0 and 1, not %g"),
                   options->like_similarity);
      return FALSE;
    }
  if (options->class_wait_ms > CG_HARVEST_MAX_CLASS_WAIT_MS)
    {
      g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_INVALID,
                   _("The wait between two pages of a class is %u ms, more than the %u ms allowed"),
                   options->class_wait_ms, (guint) CG_HARVEST_MAX_CLASS_WAIT_MS);
      return FALSE;
    }
  if (options->like_map_pages > CG_TARGET_MAP_MAX_PAGES)
    {
      g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_INVALID,
                   _("A harvest by example maps at most %u pages, not %u"),
                   (guint) CG_TARGET_MAP_MAX_PAGES, options->like_map_pages);
      return FALSE;
    }
  if (options->crawl != NULL && options->crawl->seeds != NULL && options->crawl->seeds[0] != NULL &&
      !cg_crawl_config_validate (options->crawl, error))
    return FALSE;
  return TRUE;
}

/* The options as a JSON object, as the harvest's state holds them. */
static JsonNode *
options_to_json_node (const CgHarvestOptions *options)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "strategy");
  json_builder_add_string_value (builder, cg_harvest_strategy_to_string (options->strategy));
  if (options->like_url != NULL)
    {
      json_builder_set_member_name (builder, "like");
      json_builder_add_string_value (builder, options->like_url);
    }
  json_builder_set_member_name (builder, "everything");
  json_builder_add_boolean_value (builder, options->everything_in_scope);
  json_builder_set_member_name (builder, "class_wait_ms");
  json_builder_add_int_value (builder, options->class_wait_ms);
  json_builder_set_member_name (builder, "max_repeats");
  json_builder_add_int_value (builder, options->max_repeats);
  json_builder_set_member_name (builder, "like_map_pages");
  json_builder_add_int_value (builder, options->like_map_pages);
  json_builder_set_member_name (builder, "like_similarity");
  json_builder_add_double_value (builder, options->like_similarity);
  json_builder_set_member_name (builder, "conditional");
  json_builder_add_boolean_value (builder, options->conditional);
  json_builder_set_member_name (builder, "reuse_sample");
  json_builder_add_boolean_value (builder, options->reuse_sample);
  json_builder_set_member_name (builder, "prune_patterns");
  json_builder_add_boolean_value (builder, options->prune_patterns);
  if (options->crawl != NULL)
    {
      json_builder_set_member_name (builder, "crawl");
      json_builder_add_value (builder, cg_crawl_config_to_json_node (options->crawl));
    }
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

char *
cg_harvest_options_to_json (const CgHarvestOptions *options)
{
  g_autoptr(JsonNode) root = options_to_json_node (options);

  return json_to_string (root, FALSE);
}

/* Reads the members of @object into @options; what is missing keeps the
 * value @options has. */
static gboolean
read_options (JsonObject        *object,
              CgHarvestOptions  *options,
              GError           **error)
{
  const char *where = _("The harvest options");
  const char *strategy = "classes", *like = NULL;
  gint64 class_wait = options->class_wait_ms, max_repeats = options->max_repeats;
  gint64 like_map_pages = options->like_map_pages;
  JsonObject *crawl = NULL;

  if (!cg_json_read_string (object, where, "strategy", &strategy, error) ||
      !cg_json_read_string (object, where, "like", &like, error) ||
      !cg_json_read_boolean (object, where, "everything", &options->everything_in_scope, error) ||
      !cg_json_read_boolean (object, where, "conditional", &options->conditional, error) ||
      !cg_json_read_boolean (object, where, "reuse_sample", &options->reuse_sample, error) ||
      !cg_json_read_boolean (object, where, "prune_patterns", &options->prune_patterns, error) ||
      !cg_json_read_double (object, where, "like_similarity", &options->like_similarity, error) ||
      !cg_json_read_int (object, where, "class_wait_ms", 0, G_MAXUINT, &class_wait, error) ||
      !cg_json_read_int (object, where, "max_repeats", 0, G_MAXUINT, &max_repeats, error) ||
      !cg_json_read_int (object, where, "like_map_pages", 0, G_MAXUINT, &like_map_pages, error) ||
      !cg_json_read_object (object, where, "crawl", &crawl, error))
    return FALSE;
  if (!cg_harvest_strategy_from_string (strategy, &options->strategy))
    {
      g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_INVALID,
                   _("“%s” is not a harvest strategy: use classes, patterns or like"), strategy);
      return FALSE;
    }
  options->like_url = g_strdup (like);
  options->class_wait_ms = (guint) class_wait;
  options->max_repeats = (guint) max_repeats;
  options->like_map_pages = (guint) like_map_pages;
  if (crawl != NULL)
    {
      g_clear_pointer (&options->crawl, cg_crawl_config_free);
      options->crawl = cg_crawl_config_from_json_object (crawl, error);
      if (options->crawl == NULL)
        return FALSE;
    }
  return TRUE;
}

/* The options held by @object, checked. */
static CgHarvestOptions *
options_from_json_object (JsonObject  *object,
                          GError     **error)
{
  g_autoptr(CgHarvestOptions) options = cg_harvest_options_new ();
  g_autoptr(GError) local_error = NULL;

  /* A harvest recorded before these options existed reused nothing and
   * pruned nothing, and resumes so. */
  options->reuse_sample = FALSE;
  options->prune_patterns = FALSE;
  if (!read_options (object, options, &local_error))
    {
      g_set_error_literal (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_INVALID, local_error->message);
      return NULL;
    }
  if (!cg_harvest_options_validate (options, error))
    return NULL;
  return g_steal_pointer (&options);
}

CgHarvestOptions *
cg_harvest_options_from_json (const char  *json,
                              GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) root = NULL;

  root = cg_json_parse (json, -1, &local_error);
  if (root == NULL)
    {
      g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_INVALID,
                   _("The harvest options cannot be read: %s"), local_error->message);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_INVALID,
                   _("The harvest options are not a JSON object"));
      return NULL;
    }
  return options_from_json_object (json_node_get_object (root), error);
}

/* ------------------------------------------------------------------ */
/* What the harvester knows of each URL                                */

typedef enum {
  URL_NEW,        /* seen (a link), not to be fetched (yet) */
  URL_QUEUED,     /* in the harvester's queue */
  URL_AWAITING,   /* handed to the crawler */
  URL_DONE,       /* its answer is in */
  URL_FAILED,     /* it could not be fetched */
} UrlState;

/* How a URL was reached by a pattern (patterns: the pattern's index and
 * its step + 1, 0 for the entry; like: the node's index). */
typedef struct {
  guint32 automaton;
  guint32 state;
  guint32 repeats;   /* rounds of a repeated step that led here */
} Reach;

typedef struct _UrlInfo UrlInfo;

/* One link of a page read: where it goes and, for patterns, its label
 * (both interned, not owned). */
typedef struct {
  UrlInfo    *to;
  const char *label;
} LinkRef;

struct _UrlInfo
{
  char     *url;          /* normalised; the key */
  char     *link_class;   /* the class the class link that found it gives it */
  UrlState  state;
  int       priority;
  GArray   *reaches;      /* Reach (patterns, like) */
  GArray   *links;        /* LinkRef, once done (patterns, like) */
  UrlInfo  *parent;       /* like: the page it was found on while mapping */
  guint     level;        /* like: breadth-first level while mapping */
  gboolean  mapping;      /* like: queued by the mapping */
  gboolean  mapped;       /* like: in the target page map */
  gboolean  compared;     /* like: compared with the sample */
  gboolean  similar;      /* like: the RTDM says it is like the sample */
};

static void
url_info_free (UrlInfo *info)
{
  g_free (info->url);
  g_free (info->link_class);
  g_clear_pointer (&info->reaches, g_array_unref);
  g_clear_pointer (&info->links, g_array_unref);
  g_free (info);
}

/* One XPath of the class links of a source class, with its targets. */
typedef struct {
  char               *xpath;
  xmlXPathCompExprPtr compiled;
  GPtrArray          *targets;   /* char * class names */
} LinkRule;

static void
link_rule_free (LinkRule *rule)
{
  g_free (rule->xpath);
  g_clear_pointer (&rule->compiled, xmlXPathFreeCompExpr);
  g_ptr_array_unref (rule->targets);
  g_free (rule);
}

/* The validators of the earlier harvest's copy of a URL. */
typedef struct {
  char *etag;
  char *last_modified;
  char *digest;
  char *mime;
} Validators;

static void
validators_free (Validators *v)
{
  g_free (v->etag);
  g_free (v->last_modified);
  g_free (v->digest);
  g_free (v->mime);
  g_free (v);
}

/* Pages and records of a class so far. */
typedef struct {
  guint pages;
  guint records;
} ClassCounts;

/* A page the learning crawl archived, which the harvest reads back
 * instead of fetching it again. */
typedef struct {
  char   *url;
  gint64  url_id;
  char   *warc_name;      /* the response record, or NULL: by digest */
  gint64  warc_offset;
  char   *digest;
  char   *mime;
  char   *record_id;      /* of the response (or revisit) record */
  char   *sample_class;   /* the class the learner gave it, if it labelled it */
} ReusedPage;

static void
reused_page_free (ReusedPage *page)
{
  g_free (page->url);
  g_free (page->warc_name);
  g_free (page->digest);
  g_free (page->mime);
  g_free (page->record_id);
  g_free (page->sample_class);
  g_free (page);
}

/* What the pages of one navigation pattern brought (see record_yield()). */
typedef struct {
  guint    pages;                            /* pages fetched for it */
  guint    recent[CG_HARVEST_PRUNE_PAGES];   /* new 2-grams of its last pages, a ring */
  guint    recent_sum;
  gboolean dropped;
} PatternYield;

/* The WARC metadata record of a reused page, written once all are read. */
typedef struct {
  char  *url;
  char  *record_id;
  GStrv  fields;
} ReusedMetadata;

static void
reused_metadata_free (ReusedMetadata *metadata)
{
  g_free (metadata->url);
  g_free (metadata->record_id);
  g_strfreev (metadata->fields);
  g_free (metadata);
}

typedef enum {
  LIKE_SAMPLE,    /* the sample page is being fetched */
  LIKE_MAPPING,
  LIKE_CRAWLING,
} LikePhase;

struct _CgHarvester
{
  GObject             parent_instance;

  CgProject          *project;
  CgSiteModel        *model;
  CgHarvestOptions   *options;
  CgCrawler          *crawler;
  GMainContext       *owner_context;
  gint64              crawl_id;
  CgCrawlLock        *crawl_lock;     /* a resumed harvest's, from the start */
  gint64              previous_crawl_id;
  char               *entry_url;
  char               *state_path;     /* PROJECT/harvests/crawl-N.json */

  /* The crawl thread's while it runs. */
  CgProject          *thread_project;
  CgPageClassifier   *classifier;
  char               *classifier_warning;  /* what it lacks, or NULL */
  GHashTable         *class_depths;   /* class name → depth + 1 (GINT_TO_POINTER) */
  GHashTable         *rules;          /* source class → GPtrArray of LinkRule */
  GHashTable         *class_patterns; /* class name → GRegex (URL pattern) */
  GHashTable         *wrappers;       /* class names with a wrapper */
  GHashTable         *urls;           /* url → UrlInfo */
  GHashTable         *strings;        /* interned link labels */
  GQueue              queue[MAX_PRIORITY + 1];
  GHashTable         *class_next;     /* class name → gint64 * (µs when the next may go) */
  GHashTable         *validators;     /* url → Validators (earlier harvest) */
  GHashTable         *bigrams;        /* guint64 hashes of the 2-grams seen */
  guint64             n_requests;     /* pages answered */
  GQueue              work;           /* WorkItem: reaches of pages already read */
  GPtrArray          *expressions;    /* CgNavExpression (patterns) */
  GArray             *yields;         /* PatternYield, one per expression */
  char               *pending_url;    /* the page page_fields() will be asked about */
  GStrv               pending_fields;
  gboolean            replaying;
  GError             *fatal;          /* a failure of the harvest itself */

  /* The learning crawl's pages, reused by a first harvest. */
  gint64              reuse_crawl_id;  /* 0: nothing to reuse */
  GPtrArray          *reused;          /* ReusedPage, in the order the crawl fetched them */
  GPtrArray          *reused_metadata; /* ReusedMetadata, while reading them */
  GHashTable         *reuse_archived;  /* URLs the learning crawl archived (requisites too) */
  gboolean            reuse_done;
  guint               n_reused;
  /* Owner thread: the pages are read back in a worker before the crawl
   * starts. */
  gboolean            reusing;
  gboolean            stop_requested;
  gboolean            pause_requested;

  /* like */
  LikePhase           like_phase;
  char               *sample_url;
  char               *sample_class;
  char               *sample_shape;
  CgRtdmTree         *sample_tree;
  CgTargetMap        *map;
  CgUrlNavNode       *nav;
  GPtrArray          *nav_nodes;      /* CgUrlNavNode, not owned */
  guint               n_mapped;
  guint               switch_at;      /* resume: pages mapped when the crawl began */
  guint               n_targets;      /* atomic */

  /* Any thread, under the lock. */
  GMutex              lock;
  GHashTable         *counts;         /* class name → ClassCounts */
};

G_DEFINE_FINAL_TYPE (CgHarvester, cg_harvester, G_TYPE_OBJECT)

enum {
  SIGNAL_CLASS_PROGRESS,
  SIGNAL_COVERAGE,
  SIGNAL_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef struct {
  UrlInfo *info;
  Reach    reach;
} WorkItem;

/* ------------------------------------------------------------------ */
/* Signals in the owner's context                                      */

typedef struct {
  CgHarvester *harvester;
  char        *class_name;
  guint        pages;
  guint        records;
  guint64      requests;
  guint64      bigrams;
} EmitData;

static void
emit_data_free (gpointer user_data)
{
  EmitData *data = user_data;

  g_object_unref (data->harvester);
  g_free (data->class_name);
  g_free (data);
}

static gboolean
emit_class_progress_cb (gpointer user_data)
{
  EmitData *data = user_data;

  g_signal_emit (data->harvester, signals[SIGNAL_CLASS_PROGRESS], 0, data->class_name, data->pages, data->records);
  return G_SOURCE_REMOVE;
}

static gboolean
emit_coverage_cb (gpointer user_data)
{
  EmitData *data = user_data;

  g_signal_emit (data->harvester, signals[SIGNAL_COVERAGE], 0, data->requests, data->bigrams);
  return G_SOURCE_REMOVE;
}

static void
emit_progress (CgHarvester *self,
               const char  *class_name,
               guint        pages,
               guint        records)
{
  EmitData *data = g_new0 (EmitData, 1);
  EmitData *coverage = g_new0 (EmitData, 1);

  data->harvester = g_object_ref (self);
  data->class_name = g_strdup (class_name);
  data->pages = pages;
  data->records = records;
  cg_dispatch_to_context (self->owner_context, emit_class_progress_cb, data, emit_data_free);

  coverage->harvester = g_object_ref (self);
  coverage->requests = self->n_requests;
  coverage->bigrams = g_hash_table_size (self->bigrams);
  cg_dispatch_to_context (self->owner_context, emit_coverage_cb, coverage, emit_data_free);
}

/* ------------------------------------------------------------------ */
/* Reading archived pages back                                         */

/* The payload of the response record at @offset of the WARC file @name,
 * decoded, with the type its headers give. */
static GBytes *
read_archived (const char  *warc_dir,
               const char  *name,
               gint64       offset,
               char       **out_content_type,
               GError     **error)
{
  g_autofree char *path = NULL;
  g_autoptr(CgWarcReader) reader = NULL;
  g_autoptr(CgWarcRecord) record = NULL;
  g_autoptr(CgWarcHttpMessage) http = NULL;
  const char *encoding;

  /* The name comes from the database; a path in it would read a file
   * outside the project. */
  if (name == NULL || strchr (name, '/') != NULL || g_str_equal (name, "..") || name[0] == '\0')
    {
      g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST,
                   _("The project names a WARC file “%s” that is not in its WARC folder"), name != NULL ? name : "");
      return NULL;
    }
  path = g_build_filename (warc_dir, name, NULL);
  reader = cg_warc_reader_new (path, error);
  if (reader == NULL)
    return NULL;
  cg_warc_reader_set_max_block_size (reader, MAX_ARCHIVED_PAYLOAD + CG_WARC_READER_MAX_HTTP_HEADER_SIZE);
  record = cg_warc_reader_read_at (reader, (guint64) offset, error);
  if (record == NULL)
    return NULL;
  http = cg_warc_record_parse_http (record, error);
  if (http == NULL)
    return NULL;
  if (http->is_request || http->payload == NULL)
    {
      g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST,
                   _("The record at %" PRId64 " of %s holds no response payload"), offset, name);
      return NULL;
    }
  if (out_content_type != NULL)
    *out_content_type = g_strdup (soup_message_headers_get_one (http->headers, "Content-Type"));
  encoding = soup_message_headers_get_one (http->headers, "Content-Encoding");
  return cg_content_decode_header (encoding, http->payload, MAX_ARCHIVED_PAYLOAD, NULL, error);
}

/* The payload of the project's response with @digest: the first that
 * can be read, since a copy may be in a WARC file no longer there. */
static GBytes *
read_by_digest (CgStore     *store,
                const char  *warc_dir,
                const char  *digest,
                char       **out_content_type,
                GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) unreadable = NULL;
  int rc;

  stmt = cg_store_prepare (store,
                           "SELECT w.name, f.warc_offset FROM fetches f JOIN warc_files w ON w.id = f.warc_file_id "
                           "WHERE f.payload_digest = ?1 AND f.record_type = 'response' ORDER BY f.id",
                           error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_text (stmt, 1, digest, -1, SQLITE_STATIC);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autofree char *content_type = NULL;
      GBytes *payload;

      g_clear_error (&unreadable);
      payload = read_archived (warc_dir, (const char *) sqlite3_column_text (stmt, 0), sqlite3_column_int64 (stmt, 1),
                               &content_type, &unreadable);
      if (payload != NULL)
        {
          if (out_content_type != NULL)
            *out_content_type = g_steal_pointer (&content_type);
          return payload;
        }
    }
  /* A damaged database is not a response that was never archived. */
  if (rc != SQLITE_DONE)
    cg_store_set_error (store, rc, error);
  else if (unreadable != NULL)
    g_propagate_error (error, g_steal_pointer (&unreadable));
  else
    g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST,
                 _("The project holds no response with the payload digest %s"), digest);
  return NULL;
}

/* The payload of the last fetch of @url in @crawl_id. */
static GBytes *
read_page (CgStore     *store,
           const char  *warc_dir,
           gint64       crawl_id,
           const char  *url,
           char       **out_content_type,
           GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  stmt = cg_store_prepare (store,
                           "SELECT f.record_type, f.payload_digest, w.name, f.warc_offset "
                           "FROM urls u JOIN fetches f ON f.url_id = u.id LEFT JOIN warc_files w ON w.id = f.warc_file_id "
                           "WHERE u.crawl_id = ?1 AND u.url = ?2 AND (f.status / 100 = 2 OR f.status = 304) "
                           "ORDER BY f.id DESC LIMIT 1",
                           error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  sqlite3_bind_text (stmt, 2, url, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_DONE)
    {
      g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST,
                   _("The crawl %" PRId64 " archived no page %s"), crawl_id, url);
      return NULL;
    }
  if (rc != SQLITE_ROW)
    {
      cg_store_set_error (store, rc, error);
      return NULL;
    }
  if (g_strcmp0 ((const char *) sqlite3_column_text (stmt, 0), "response") == 0)
    return read_archived (warc_dir, (const char *) sqlite3_column_text (stmt, 2), sqlite3_column_int64 (stmt, 3),
                          out_content_type, error);
  if (sqlite3_column_text (stmt, 1) == NULL)
    {
      g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST,
                   _("The archived copy of %s has no payload digest"), url);
      return NULL;
    }
  return read_by_digest (store, warc_dir, (const char *) sqlite3_column_text (stmt, 1), out_content_type, error);
}

static gboolean
is_html (const char *content_type)
{
  g_autofree char *type = NULL;

  if (content_type == NULL)
    return FALSE;
  type = g_ascii_strdown (content_type, -1);
  g_strstrip (type);
  return g_str_has_prefix (type, "text/html") || g_str_has_prefix (type, "application/xhtml+xml");
}

/* ------------------------------------------------------------------ */
/* The classifier, with the union schemas of the class samples         */

static CgPageClassifier *
build_classifier (CgProject    *project,
                  CgSiteModel  *model,
                  char        **out_warning,
                  GError      **error)
{
  g_autoptr(GString) short_classes = g_string_new (NULL);
  guint n_samples = 0, n_unread = 0;
  g_autoptr(CgPageClassifier) classifier = cg_page_classifier_new (model, error);
  g_autofree char *warc_dir = cg_project_get_warc_dir (project);
  CgStore *store = cg_project_get_store (project);
  GPtrArray *classes = cg_site_model_get_classes (model);
  gint64 crawl_id = cg_site_model_get_crawl_id (model);

  if (classifier == NULL)
    return NULL;
  if (crawl_id <= 0)
    return g_steal_pointer (&classifier);

  for (guint c = 0; c < classes->len; c++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, c);
      g_autoptr(GPtrArray) docs = g_ptr_array_new_with_free_func ((GDestroyNotify) xmlFreeDoc);
      g_autoptr(GPtrArray) urls = g_ptr_array_new ();
      gboolean class_listed = FALSE;

      for (guint s = 0; klass->samples != NULL && klass->samples[s] != NULL; s++)
        {
          g_autoptr(GError) local_error = NULL;
          g_autofree char *content_type = NULL;
          g_autoptr(GBytes) body = read_page (store, warc_dir, crawl_id, klass->samples[s], &content_type, &local_error);
          htmlDocPtr doc;

          /* A sample the archive lacks is left out; a database that cannot
           * be read is a failure, not a smaller sample. */
          if (body == NULL && local_error->domain == CG_STORE_ERROR)
            {
              g_propagate_error (error, g_steal_pointer (&local_error));
              return NULL;
            }
          n_samples++;
          if (body == NULL)
            {
              g_debug ("Sample %s of class %s: %s", klass->samples[s], klass->name, local_error->message);
              n_unread++;
              /* Each class once in the warning below. */
              if (!class_listed)
                {
                  g_string_append_printf (short_classes, "%s%s", short_classes->len > 0 ? ", " : "", klass->name);
                  class_listed = TRUE;
                }
              continue;
            }
          doc = cg_html_parse (g_bytes_get_data (body, NULL), g_bytes_get_size (body), klass->samples[s],
                               content_type, &local_error);
          if (doc == NULL)
            continue;
          g_ptr_array_add (docs, doc);
          g_ptr_array_add (urls, klass->samples[s]);
        }
      if (!cg_page_classifier_learn_samples (classifier, klass->name, docs, urls, error))
        return NULL;
    }
  /* Pages are labelled by their likeness to the samples: without some of
   * them (their WARC files gone), pages of those classes can go
   * unlabelled, which the harvest would not say otherwise. */
  if (n_unread > 0)
    *out_warning = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                 "%u of the %u sample pages the model was learnt from is not in "
                                                 "the archive (of %s): pages like it may go unlabelled",
                                                 "%u of the %u sample pages the model was learnt from are not in "
                                                 "the archive (of %s): pages like them may go unlabelled",
                                                 n_unread),
                                    n_unread, n_samples, short_classes->str);
  return g_steal_pointer (&classifier);
}

/* ------------------------------------------------------------------ */
/* Known URLs and the queue                                            */

static UrlInfo *
lookup_url (CgHarvester *self,
            const char  *url,
            gboolean     create)
{
  UrlInfo *info = g_hash_table_lookup (self->urls, url);

  if (info != NULL || !create)
    return info;
  if (g_hash_table_size (self->urls) >= MAX_KNOWN_URLS)
    return NULL;
  info = g_new0 (UrlInfo, 1);
  info->url = g_strdup (url);
  info->priority = MAX_PRIORITY;
  g_hash_table_insert (self->urls, info->url, info);
  return info;
}

static int
class_priority (CgHarvester *self,
                const char  *class_name,
                int          fallback)
{
  gpointer value;

  if (class_name != NULL && g_hash_table_lookup_extended (self->class_depths, class_name, NULL, &value) &&
      GPOINTER_TO_INT (value) > 0)
    return CLAMP (GPOINTER_TO_INT (value) - 1, 0, MAX_PRIORITY);
  return CLAMP (fallback, 0, MAX_PRIORITY);
}

/* Puts @info in the queue unless it is known for more than a link. */
static void
enqueue (CgHarvester *self,
         UrlInfo     *info,
         int          priority)
{
  if (info->state != URL_NEW)
    return;
  info->state = URL_QUEUED;
  info->priority = CLAMP (priority, 0, MAX_PRIORITY);
  g_queue_push_tail (&self->queue[info->priority], info);
}

/* Of the target classes of the class links that found @url, the one it
 * takes: the only one, or the only one whose URL pattern matches. */
static const char *
choose_target (CgHarvester *self,
               GPtrArray   *targets,
               const char  *url)
{
  const char *found = NULL;

  if (targets->len == 1)
    return g_ptr_array_index (targets, 0);
  for (guint i = 0; i < targets->len; i++)
    {
      const char *target = g_ptr_array_index (targets, i);
      GRegex *regex = g_hash_table_lookup (self->class_patterns, target);

      if (regex != NULL && g_regex_match (regex, url, 0, NULL))
        {
          if (found != NULL)
            return NULL;
          found = target;
        }
    }
  return found;
}

/* ------------------------------------------------------------------ */
/* Reading a page                                                      */

typedef struct {
  GHashTable *by_node;   /* xmlNodePtr → url (owned) */
  GPtrArray  *urls;      /* navigation links, in order, distinct */
  GHashTable *seen;
  GPtrArray  *embeds;    /* requisites (char *, owned), in order */
} PageLinks;

static void
collect_link_cb (const CgLink *link,
                 xmlNodePtr    node,
                 gpointer      user_data)
{
  PageLinks *links = user_data;

  if (link->hop == CG_HOP_EMBED)
    {
      if (!g_ptr_array_find_with_equal_func (links->embeds, link->url, g_str_equal, NULL))
        g_ptr_array_add (links->embeds, g_strdup (link->url));
      return;
    }
  if (link->hop != CG_HOP_NAVLINK)
    return;
  if (node != NULL && !g_hash_table_contains (links->by_node, node))
    g_hash_table_insert (links->by_node, node, g_strdup (link->url));
  if (!g_hash_table_contains (links->seen, link->url))
    {
      char *url = g_strdup (link->url);

      g_hash_table_add (links->seen, url);
      g_ptr_array_add (links->urls, url);
    }
}

static void
page_links_clear (PageLinks *links)
{
  g_clear_pointer (&links->by_node, g_hash_table_unref);
  g_clear_pointer (&links->urls, g_ptr_array_unref);
  g_clear_pointer (&links->seen, g_hash_table_unref);
  g_clear_pointer (&links->embeds, g_ptr_array_unref);
}

static gboolean
page_links_collect (PageLinks   *links,
                    htmlDocPtr   doc,
                    const char  *url)
{
  links->by_node = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  links->seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  links->urls = g_ptr_array_new ();
  links->embeds = g_ptr_array_new_with_free_func (g_free);
  return cg_links_foreach_in_document (doc, url, collect_link_cb, links, NULL);
}

/* Applies the class links of @class_name to @doc: every URL found takes
 * the target class of the links that found it (unless an earlier page
 * gave it one), and, in a class-driven harvest, is queued. A URL that
 * links with different targets select (a menu's XPath, or a breadcrumb's
 * that also matches the pagination below it) takes the one target whose
 * URL pattern it matches, or none: the classifier decides when it
 * arrives. */
static void
follow_class_links (CgHarvester *self,
                    htmlDocPtr   doc,
                    PageLinks   *links,
                    const char  *class_name)
{
  GPtrArray *rules = class_name != NULL ? g_hash_table_lookup (self->rules, class_name) : NULL;
  g_autoptr(GHashTable) candidates = NULL;
  g_autoptr(GPtrArray) order = NULL;
  xmlXPathContextPtr context;
  int source_priority = class_priority (self, class_name, MAX_PRIORITY - 1);

  if (rules == NULL)
    return;
  context = xmlXPathNewContext (doc);
  if (context == NULL)
    return;
  candidates = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_ptr_array_unref);
  order = g_ptr_array_new ();
  for (guint r = 0; r < rules->len; r++)
    {
      LinkRule *rule = g_ptr_array_index (rules, r);
      xmlXPathObjectPtr result = xmlXPathCompiledEval (rule->compiled, context);

      if (result == NULL)
        continue;
      for (int n = 0; result->nodesetval != NULL && n < result->nodesetval->nodeNr; n++)
        {
          xmlNodePtr node = result->nodesetval->nodeTab[n];
          const char *url;
          GPtrArray *targets;

          if (node->type == XML_ATTRIBUTE_NODE)
            node = node->parent;
          url = g_hash_table_lookup (links->by_node, node);
          if (url == NULL)
            continue;
          targets = g_hash_table_lookup (candidates, url);
          if (targets == NULL)
            {
              targets = g_ptr_array_new ();
              g_hash_table_insert (candidates, (gpointer) url, targets);
              g_ptr_array_add (order, (gpointer) url);
            }
          for (guint t = 0; t < rule->targets->len; t++)
            if (!g_ptr_array_find_with_equal_func (targets, g_ptr_array_index (rule->targets, t), g_str_equal, NULL))
              g_ptr_array_add (targets, g_ptr_array_index (rule->targets, t));
        }
      xmlXPathFreeObject (result);
    }
  xmlXPathFreeContext (context);

  for (guint i = 0; i < order->len; i++)
    {
      const char *url = g_ptr_array_index (order, i);
      const char *target = choose_target (self, g_hash_table_lookup (candidates, url), url);
      UrlInfo *info = lookup_url (self, url, TRUE);

      if (info == NULL)
        continue;
      if (info->link_class == NULL && target != NULL && info->state != URL_DONE)
        info->link_class = g_strdup (target);
      if (self->options->strategy == CG_HARVEST_STRATEGY_CLASSES)
        enqueue (self, info, class_priority (self, target, source_priority + 1));
    }
}

static void
add_reach (CgHarvester *self,
           UrlInfo     *info,
           Reach        reach)
{
  if (info->reaches == NULL)
    info->reaches = g_array_new (FALSE, FALSE, sizeof (Reach));
  for (guint i = 0; i < info->reaches->len; i++)
    {
      Reach *known = &g_array_index (info->reaches, Reach, i);

      if (known->automaton == reach.automaton && known->state == reach.state)
        return;
    }
  g_array_append_val (info->reaches, reach);
  if (info->state == URL_DONE)
    {
      WorkItem *item = g_new (WorkItem, 1);

      item->info = info;
      item->reach = reach;
      g_queue_push_tail (&self->work, item);
    }
  else if (self->options->strategy == CG_HARVEST_STRATEGY_PATTERNS && self->options->prune_patterns)
    {
      /* Patterns run in the order of their rank (see record_yield()): a
       * URL waits at the rank of the best-ranked pattern that asked for
       * it. */
      int priority = (int) MIN (reach.automaton, MAX_PRIORITY - 1);

      if (info->state == URL_QUEUED && priority < info->priority)
        {
          g_queue_remove (&self->queue[info->priority], info);
          info->state = URL_NEW;
        }
      enqueue (self, info, priority);
    }
  else
    enqueue (self, info, self->options->strategy == CG_HARVEST_STRATEGY_LIKE ? 1 : 0);
}

static guint
max_repeats (CgHarvester *self)
{
  return self->options->max_repeats > 0 ? self->options->max_repeats : CG_HARVEST_DEFAULT_MAX_REPEATS;
}

static gboolean pattern_dropped (CgHarvester *self,
                                 guint        automaton);

/* Follows one way a read page was reached: the next steps of a pattern,
 * or the children of a node of the URL navigation pattern. */
static void
apply_reach (CgHarvester *self,
             UrlInfo     *info,
             Reach        reach)
{
  if (info->links == NULL)
    return;
  if (self->options->strategy == CG_HARVEST_STRATEGY_PATTERNS && !pattern_dropped (self, reach.automaton))
    {
      CgNavExpression *expression = g_ptr_array_index (self->expressions, reach.automaton);
      g_autoptr(GPtrArray) links = g_ptr_array_new ();
      g_autofree CgNavLink *storage = g_new (CgNavLink, info->links->len);
      g_autoptr(GPtrArray) follows = NULL;
      int reached_step = (int) reach.state - 1;

      for (guint i = 0; i < info->links->len; i++)
        {
          LinkRef *ref = &g_array_index (info->links, LinkRef, i);

          storage[i].url = ref->to->url;
          storage[i].label = (char *) ref->label;
          g_ptr_array_add (links, &storage[i]);
        }
      follows = cg_nav_expression_follow (expression, reached_step, links);
      for (guint i = 0; i < follows->len; i++)
        {
          CgNavFollow *follow = g_ptr_array_index (follows, i);
          UrlInfo *to = lookup_url (self, follow->url, TRUE);
          Reach next = { reach.automaton, follow->step + 1, 0 };

          if (to == NULL)
            continue;
          if ((int) follow->step == reached_step)
            next.repeats = reach.repeats + 1;
          if (next.repeats > max_repeats (self))
            continue;
          add_reach (self, to, next);
        }
    }
  else if (self->options->strategy == CG_HARVEST_STRATEGY_LIKE && self->nav_nodes != NULL)
    {
      CgUrlNavNode *node = g_ptr_array_index (self->nav_nodes, reach.state);

      for (guint i = 0; i < info->links->len; i++)
        {
          LinkRef *ref = &g_array_index (info->links, LinkRef, i);
          g_autoptr(GPtrArray) reached = cg_url_nav_node_follow (node, ref->to->url);

          for (guint r = 0; r < reached->len; r++)
            {
              CgUrlNavNode *next_node = g_ptr_array_index (reached, r);
              guint index = 0;
              Reach next = { 0, 0, 0 };

              if (!g_ptr_array_find (self->nav_nodes, next_node, &index))
                continue;
              next.state = index;
              if (next_node == node)
                next.repeats = reach.repeats + 1;
              if (next.repeats > max_repeats (self))
                continue;
              add_reach (self, ref->to, next);
            }
        }
    }
}

static void
run_work (CgHarvester *self)
{
  WorkItem *item;

  while ((item = g_queue_pop_head (&self->work)) != NULL)
    {
      apply_reach (self, item->info, item->reach);
      g_free (item);
    }
}

static const char *
intern (CgHarvester *self,
        const char  *text)
{
  char *known = g_hash_table_lookup (self->strings, text);

  if (known == NULL)
    {
      known = g_strdup (text);
      g_hash_table_add (self->strings, known);
    }
  return known;
}

/* Keeps the links of a read page, for the ways it is reached later. */
static void
keep_links (CgHarvester *self,
            UrlInfo     *info,
            htmlDocPtr   doc,
            const char  *url,
            PageLinks   *page_links)
{
  g_clear_pointer (&info->links, g_array_unref);
  info->links = g_array_new (FALSE, FALSE, sizeof (LinkRef));
  if (self->options->strategy == CG_HARVEST_STRATEGY_PATTERNS)
    {
      g_autoptr(GPtrArray) links = cg_nav_links_for_document (doc, url, CG_LINK_LABEL_DEFAULT_ATTRIBUTES, NULL);

      for (guint i = 0; links != NULL && i < links->len; i++)
        {
          CgNavLink *link = g_ptr_array_index (links, i);
          LinkRef ref = { lookup_url (self, link->url, TRUE), intern (self, link->label) };

          if (ref.to != NULL)
            g_array_append_val (info->links, ref);
        }
    }
  else
    {
      for (guint i = 0; i < page_links->urls->len; i++)
        {
          LinkRef ref = { lookup_url (self, g_ptr_array_index (page_links->urls, i), TRUE), NULL };

          if (ref.to != NULL)
            g_array_append_val (info->links, ref);
        }
    }
}

static gboolean
same_host (const char *a,
           const char *b)
{
  g_autofree char *host_a = cg_url_get_host_key (a, NULL);
  g_autofree char *host_b = cg_url_get_host_key (b, NULL);

  return host_a != NULL && g_strcmp0 (host_a, host_b) == 0;
}

/* The shape of a URL: its origin, then for each path segment whether it
 * is empty, all digits, or anything else, then its query's parameter
 * names. "http://h/2021/02/a-title/" is "http://h d d x e". */
static char *
url_shape (const char *url)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_ENCODED, NULL);
  g_auto(GStrv) segments = NULL;
  const char *path;
  const char *query;
  GString *shape;

  if (uri == NULL || g_uri_get_host (uri) == NULL)
    return NULL;
  shape = g_string_new (NULL);
  g_string_append_printf (shape, "%s://%s:%d", g_uri_get_scheme (uri), g_uri_get_host (uri), g_uri_get_port (uri));
  path = g_uri_get_path (uri);
  segments = g_strsplit (path != NULL && path[0] == '/' ? path + 1 : (path != NULL ? path : ""), "/", -1);
  for (guint i = 0; segments[i] != NULL; i++)
    {
      const char *kind = segments[i][0] == '\0' ? "e" : "d";

      for (const char *c = segments[i]; *c != '\0' && kind[0] == 'd'; c++)
        if (!g_ascii_isdigit (*c))
          kind = "x";
      g_string_append_printf (shape, " %s", kind);
    }
  query = g_uri_get_query (uri);
  if (query != NULL && query[0] != '\0')
    {
      g_auto(GStrv) params = g_strsplit (query, "&", -1);

      for (guint i = 0; params[i] != NULL; i++)
        {
          char *equals = strchr (params[i], '=');

          if (equals != NULL)
            *equals = '\0';
          g_string_append_printf (shape, " ?%s", params[i]);
        }
    }
  return g_string_free (shape, FALSE);
}

/* Whether @doc, fetched from @url, is like the sample page: its URL has
 * the sample's shape (URLsim's first condition, the same number of
 * levels, with one more: where the sample's level is a number, the
 * page's is one too, and the other way round; and the same query
 * parameters), and its DOM tree is within the RTDM similarity of the
 * sample's (seed 001). The shape is what tells a blog's posts
 * (/2021/02/a-title/) from its day archives (/2021/02/05/) and the
 * next pages of its lists (/2021/02/page/2/), whose trees can be as
 * close to a post's as other posts are. */
static gboolean
like_sample (CgHarvester *self,
             htmlDocPtr   doc,
             const char  *url)
{
  g_autoptr(CgRtdmTree) tree = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *shape = url_shape (url);
  double similarity = 0;
  double threshold = self->options->like_similarity > 0 ? self->options->like_similarity
                                                        : CG_HARVEST_DEFAULT_LIKE_SIMILARITY;

  if (self->sample_tree == NULL || g_strcmp0 (shape, self->sample_shape) != 0)
    return FALSE;
  tree = cg_rtdm_tree_new_for_document (doc, CG_RTDM_TREE_DEFAULT, &error);
  if (tree == NULL || !cg_rtdm_similarity (self->sample_tree, tree, &similarity, &error))
    {
      g_debug ("Comparing %s with the sample: %s", url, error->message);
      return FALSE;
    }
  return similarity >= threshold;
}

static void
count_class (CgHarvester *self,
             const char  *class_name,
             guint        records,
             guint       *out_pages,
             guint       *out_records)
{
  const char *name = class_name != NULL ? class_name : CG_HARVEST_UNCLASSIFIED;
  ClassCounts *counts;

  g_mutex_lock (&self->lock);
  counts = g_hash_table_lookup (self->counts, name);
  if (counts == NULL)
    {
      counts = g_new0 (ClassCounts, 1);
      g_hash_table_insert (self->counts, g_strdup (name), counts);
    }
  counts->pages++;
  counts->records += records;
  *out_pages = counts->pages;
  *out_records = counts->records;
  g_mutex_unlock (&self->lock);
}

/* FNV-1a, 64 bits: GLib's string hashes have 32 bits, which collide too
 * often over the millions of 2-grams of a large site for a count. */
static guint64
hash64 (const char *text)
{
  guint64 hash = G_GUINT64_CONSTANT (14695981039346656037);

  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    {
      hash ^= *p;
      hash *= G_GUINT64_CONSTANT (1099511628211);
    }
  return hash;
}

/* Counts the distinct 2-grams of @doc; returns how many were new. */
static guint
count_bigrams (CgHarvester *self,
               htmlDocPtr   doc)
{
  g_autoptr(GHashTable) bigrams = cg_page_collect_bigrams (doc, NULL);
  GHashTableIter iter;
  gpointer key;
  guint n_new = 0;

  g_hash_table_iter_init (&iter, bigrams);
  while (g_hash_table_iter_next (&iter, &key, NULL) && g_hash_table_size (self->bigrams) < MAX_BIGRAMS)
    {
      guint64 hash = hash64 (key);

      if (!g_hash_table_contains (self->bigrams, &hash))
        {
          g_hash_table_add (self->bigrams, g_memdup2 (&hash, sizeof hash));
          n_new++;
        }
    }
  return n_new;
}

/* Pruning the navigation patterns as they run. Seed 004 selects the
 * patterns on the learning sample by the distinct 2-grams each brings per
 * request, and a sample is too small to tell a list of excerpts from the
 * content it lists: a tag or month archive shows parts of posts that the
 * sample mostly lacks, so its pattern looks productive there, and on the
 * site it costs one request per tag or month for text that the posts
 * hold already. The harvest measures the same thing on the site instead:
 * the patterns run in the order they were selected (each pattern's URLs
 * at the priority of its rank, so that a later pattern starts once the
 * earlier ones have nothing left), every fetched page counts the new
 * distinct 2-grams it brought for each pattern that asked for it, and a
 * pattern is dropped once its last CG_HARVEST_PRUNE_PAGES pages brought,
 * together, fewer than CG_HARVEST_PRUNE_MIN_YIELD times the harvest's
 * mean per page each: its pages mostly repeat what the others reached
 * (what they do bring is where their excerpts meet, since 2-grams run
 * across elements). A dropped pattern is followed no further, and the
 * URLs only it asked for are not fetched. Until a pattern has shown what
 * it brings, its URLs are handed out a few at a time (pattern_batch()),
 * so that dropping it saves what it would have fetched. Nothing of this
 * depends on the site's kind: a pattern that keeps bringing new text is
 * never dropped, whatever its pages are; the cost is a sliver of text
 * (on the WordPress bench, 0.4 % of wget's 2-grams, for 28 requests of
 * month archives). */
static void
record_yield (CgHarvester *self,
              UrlInfo     *info,
              guint        n_new)
{
  double mean = (double) g_hash_table_size (self->bigrams) / MAX (self->n_requests, 1);
  g_autoptr(GHashTable) counted = NULL;

  if (self->yields == NULL || !self->options->prune_patterns || info->reaches == NULL)
    return;
  counted = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < info->reaches->len; i++)
    {
      guint automaton = g_array_index (info->reaches, Reach, i).automaton;
      PatternYield *yield;

      if (automaton >= self->yields->len || !g_hash_table_add (counted, GUINT_TO_POINTER (automaton + 1)))
        continue;
      yield = &g_array_index (self->yields, PatternYield, automaton);
      yield->recent_sum -= yield->recent[yield->pages % CG_HARVEST_PRUNE_PAGES];
      yield->recent[yield->pages % CG_HARVEST_PRUNE_PAGES] = n_new;
      yield->recent_sum += n_new;
      yield->pages++;
      if (!yield->dropped && yield->pages >= CG_HARVEST_PRUNE_PAGES &&
          yield->recent_sum < CG_HARVEST_PRUNE_MIN_YIELD * mean * CG_HARVEST_PRUNE_PAGES)
        {
          yield->dropped = TRUE;
          g_debug ("Navigation pattern %u dropped after %u pages: its last %u brought %u new 2-grams, "
                   "against %.0f a page on the mean", automaton + 1, yield->pages, CG_HARVEST_PRUNE_PAGES,
                   yield->recent_sum, mean);
        }
    }
}

static gboolean
pattern_dropped (CgHarvester *self,
                 guint        automaton)
{
  return self->yields != NULL && automaton < self->yields->len &&
         g_array_index (self->yields, PatternYield, automaton).dropped;
}

/* Whether every pattern that asked for @info was dropped. */
static gboolean
only_dropped_reaches (CgHarvester *self,
                      UrlInfo     *info)
{
  if (self->yields == NULL || info->reaches == NULL || info->reaches->len == 0)
    return FALSE;
  for (guint i = 0; i < info->reaches->len; i++)
    if (!pattern_dropped (self, g_array_index (info->reaches, Reach, i).automaton))
      return FALSE;
  return TRUE;
}

/* How many URLs of queue @priority to hand out at once: a pattern's
 * first pages go a few at a time, and so do the next ones while its last
 * pages brought less than twice what would drop it (see record_yield()). */
static guint
pattern_batch (CgHarvester *self,
               guint        priority)
{
  double mean = (double) g_hash_table_size (self->bigrams) / MAX (self->n_requests, 1);
  PatternYield *yield;

  if (self->yields == NULL || !self->options->prune_patterns || priority >= self->yields->len ||
      priority >= MAX_PRIORITY - 1)
    return BATCH_SIZE;
  yield = &g_array_index (self->yields, PatternYield, priority);
  if (yield->pages >= CG_HARVEST_PRUNE_PAGES &&
      yield->recent_sum >= 2 * CG_HARVEST_PRUNE_MIN_YIELD * mean * CG_HARVEST_PRUNE_PAGES)
    return BATCH_SIZE;
  return CG_HARVEST_PRUNE_PAGES;
}

static CgProject *
thread_project (CgHarvester  *self,
                GError      **error)
{
  if (self->thread_project == NULL)
    self->thread_project = cg_project_open (cg_project_get_folder (self->project), error);
  return self->thread_project;
}

static gboolean
store_label (CgHarvester      *self,
             gint64            url_id,
             const char       *class_name,
             CgClassifyMethod  method,
             GError          **error)
{
  CgProject *project = thread_project (self, error);

  return project != NULL &&
         cg_page_classifier_store_label (cg_project_get_store (project), url_id, cg_site_model_get_id (self->model),
                                         class_name, method, error);
}

static gboolean save_state (CgHarvester *self, GError **error);

/* Whether a page reached in the crawl phase of a harvest by example was
 * reached at a node of the navigation pattern that held targets. */
static gboolean
at_target_node (CgHarvester *self,
                UrlInfo     *info)
{
  if (self->nav_nodes == NULL || info->reaches == NULL)
    return FALSE;
  for (guint i = 0; i < info->reaches->len; i++)
    {
      Reach *reach = &g_array_index (info->reaches, Reach, i);
      CgUrlNavNode *node = g_ptr_array_index (self->nav_nodes, reach->state);

      if (node->n_targets > 0)
        return TRUE;
    }
  return FALSE;
}

/* Everything the harvest does with one answer. @replay: the page was
 * archived by an earlier run of the crawl and is read back (resume):
 * nothing is written, nothing asked for again. @reused: the page is the
 * learning crawl's, read back instead of fetched (see reuse_pages()): it
 * is labelled and its records extracted, and its WARC metadata record is
 * kept for later rather than handed to the crawler. */
static void
process_page (CgHarvester      *self,
              UrlInfo          *info,
              const char       *final_url,
              guint             status,
              const char       *content_type,
              GBytes           *body,
              gint64            url_id,
              gboolean          replay,
              const ReusedPage *reused)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) earlier = NULL;
  g_autofree char *earlier_type = NULL;
  PageLinks links = { 0 };
  CgClassification classification = { NULL, CG_CLASSIFY_NONE, 0 };
  const char *link_class = info->link_class;
  htmlDocPtr doc = NULL;
  guint records = 0, pages_so_far = 0, records_so_far = 0, n_new_bigrams;
  gboolean target = FALSE;

  info->state = final_url != NULL ? URL_DONE : URL_FAILED;
  if (final_url == NULL)
    return;
  if (g_strcmp0 (final_url, info->url) != 0)
    {
      /* Where a redirect led is known too, so that it is not asked for
       * again. */
      UrlInfo *alias = lookup_url (self, final_url, TRUE);

      if (alias != NULL && (alias->state == URL_NEW || alias->state == URL_QUEUED))
        alias->state = URL_DONE;
    }

  if (status == 304)
    {
      /* Not modified: the harvest reads the copy it already has. */
      Validators *validators = self->validators != NULL ? g_hash_table_lookup (self->validators, final_url) : NULL;
      g_autofree char *warc_dir = cg_project_get_warc_dir (self->project);
      CgProject *project = thread_project (self, &error);

      if (validators != NULL && validators->digest != NULL && project != NULL)
        earlier = read_by_digest (cg_project_get_store (project), warc_dir, validators->digest, &earlier_type, &error);
      if (earlier == NULL)
        {
          g_debug ("No earlier copy of %s: %s", final_url, error != NULL ? error->message : "no validators");
          return;
        }
      body = earlier;
      content_type = earlier_type != NULL ? earlier_type : (validators != NULL ? validators->mime : NULL);
    }
  else if (status / 100 != 2)
    return;
  if (body == NULL || !is_html (content_type))
    return;

  self->n_requests++;
  doc = cg_html_parse (g_bytes_get_data (body, NULL), g_bytes_get_size (body), final_url, content_type, &error);
  if (doc == NULL)
    {
      g_debug ("Cannot read %s: %s", final_url, error->message);
      return;
    }
  page_links_collect (&links, doc, final_url);

  /* The crawler fetches the requisites of the pages it gets; of a page
   * that was not modified it gets no body, and the harvester, which read
   * the earlier copy, asks for them itself (conditionally too), so that
   * a changed stylesheet or image is archived again. Of a reused page it
   * asks for those the learning crawl did not archive. */
  if ((status == 304 || reused != NULL) && self->options->crawl->requisites)
    for (guint i = 0; i < links.embeds->len; i++)
      {
        const char *embed = g_ptr_array_index (links.embeds, i);
        UrlInfo *requisite;

        if (reused != NULL && self->reuse_archived != NULL && g_hash_table_contains (self->reuse_archived, embed))
          continue;
        requisite = lookup_url (self, embed, TRUE);
        if (requisite != NULL)
          enqueue (self, requisite, info->priority);
      }

  /* A harvest by example: the sample, the map, and pages like it. */
  if (self->options->strategy == CG_HARVEST_STRATEGY_LIKE)
    {
      if (g_strcmp0 (info->url, self->sample_url) == 0 && self->sample_tree == NULL)
        {
          self->sample_tree = cg_rtdm_tree_new_for_document (doc, CG_RTDM_TREE_DEFAULT, &error);
          if (self->sample_tree == NULL)
            g_set_error (&self->fatal, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_SAMPLE,
                         _("The sample page %s cannot be compared with others: %s"), final_url, error->message);
          else if (self->like_phase == LIKE_SAMPLE)
            self->like_phase = LIKE_MAPPING;
          g_clear_error (&error);
          info->compared = TRUE;
          info->similar = TRUE;
          target = TRUE;
        }
      if (info->mapping && !info->mapped && self->like_phase == LIKE_MAPPING)
        {
          info->similar = like_sample (self, doc, final_url);
          info->compared = TRUE;
          if (!cg_target_map_add_page (self->map, info->url, info->parent != NULL ? info->parent->url : NULL,
                                       info->similar, &error) &&
              info->parent != NULL)
            g_debug ("Target page map: %s", error->message);
          g_clear_error (&error);
          info->mapped = TRUE;
          self->n_mapped++;
          target = info->similar;
          /* Targets are not expanded (Algorithm 2); the rest is, within
           * the mapping's page budget. */
          if (!info->similar)
            for (guint i = 0; i < links.urls->len; i++)
              {
                const char *url = g_ptr_array_index (links.urls, i);
                UrlInfo *child;

                if (!same_host (url, self->entry_url) || (child = lookup_url (self, url, TRUE)) == NULL)
                  continue;
                if (g_strcmp0 (child->url, self->sample_url) == 0 && child->state == URL_DONE && !child->mapped)
                  {
                    /* The sample, fetched first, is a target of the map
                     * where the mapping finds it. */
                    child->mapped = cg_target_map_add_page (self->map, child->url, info->url, TRUE, NULL);
                    continue;
                  }
                if (child->state != URL_NEW || child->mapping)
                  continue;
                child->mapping = TRUE;
                child->parent = info;
                child->level = info->level + 1;
                enqueue (self, child, (int) MIN (child->level, MAX_PRIORITY));
              }
        }
      else if (at_target_node (self, info))
        {
          if (!info->compared)
            {
              info->similar = like_sample (self, doc, final_url);
              info->compared = TRUE;
            }
          target = info->similar;
        }
      if (target)
        {
          g_atomic_int_inc (&self->n_targets);
          if (self->sample_class != NULL)
            link_class = self->sample_class;
        }
    }

  if (reused != NULL && reused->sample_class != NULL)
    {
      /* The learner classified its sample pages itself, and the explorer
       * labelled them so: that label stands. */
      classification.class_name = reused->sample_class;
      classification.method = CG_CLASSIFY_LINK;
      classification.score = 1;
    }
  else if (!cg_page_classifier_classify (self->classifier, doc, final_url, NULL, link_class, &classification, &error))
    {
      g_debug ("Classifying %s: %s", final_url, error->message);
      g_clear_error (&error);
      classification.class_name = NULL;
      classification.method = CG_CLASSIFY_NONE;
    }

  if (!replay)
    {
      g_auto(GStrv) fields = NULL;

      if ((reused == NULL || reused->sample_class == NULL) &&
          !store_label (self, url_id, classification.class_name, classification.method, &error))
        {
          g_warning ("Cannot label %s: %s", final_url, error->message);
          g_clear_error (&error);
        }
      if (classification.class_name != NULL && g_hash_table_contains (self->wrappers, classification.class_name))
        {
          CgProject *project = thread_project (self, &error);

          if (project == NULL ||
              !cg_record_extractor_extract_page (project, self->model, classification.class_name, url_id, doc,
                                                 final_url, &records, &error))
            {
              g_debug ("No records from %s: %s", final_url, error->message);
              g_clear_error (&error);
            }
        }
      fields = g_new0 (char *, 9);
      fields[0] = g_strdup ("page-class");
      fields[1] = g_strdup (classification.class_name != NULL ? classification.class_name : CG_HARVEST_UNCLASSIFIED);
      fields[2] = g_strdup ("page-class-method");
      fields[3] = g_strdup (reused != NULL && reused->sample_class != NULL
                              ? "sample" : cg_classify_method_to_string (classification.method));
      /* A page found like the sample says so, whatever its class. */
      if (target)
        {
          fields[4] = g_strdup ("page-like");
          fields[5] = g_strdup (self->sample_url);
        }
      else if (reused != NULL)
        {
          fields[4] = g_strdup ("page-reused-from-crawl");
          fields[5] = g_strdup_printf ("%" G_GINT64_FORMAT, self->reuse_crawl_id);
        }
      if (reused != NULL)
        {
          ReusedMetadata *metadata = g_new0 (ReusedMetadata, 1);

          metadata->url = g_strdup (final_url);
          metadata->record_id = g_strdup (reused->record_id);
          metadata->fields = g_steal_pointer (&fields);
          g_ptr_array_add (self->reused_metadata, metadata);
        }
      else
        {
          g_strfreev (self->pending_fields);
          g_free (self->pending_url);
          self->pending_url = g_strdup (final_url);
          self->pending_fields = g_steal_pointer (&fields);
        }
    }

  n_new_bigrams = count_bigrams (self, doc);
  /* A page read back costs no request: it tells nothing of a pattern. */
  if (reused == NULL)
    record_yield (self, info, n_new_bigrams);
  count_class (self, classification.class_name, records, &pages_so_far, &records_so_far);
  if (!replay)
    emit_progress (self, classification.class_name != NULL ? classification.class_name : CG_HARVEST_UNCLASSIFIED,
                   pages_so_far, records_so_far);

  /* Where the harvest goes from here. */
  follow_class_links (self, doc, &links, classification.class_name);
  if (self->options->strategy == CG_HARVEST_STRATEGY_CLASSES && self->options->everything_in_scope)
    for (guint i = 0; i < links.urls->len; i++)
      {
        UrlInfo *other = lookup_url (self, g_ptr_array_index (links.urls, i), TRUE);

        if (other != NULL)
          enqueue (self, other, MAX_PRIORITY);
      }
  if (self->options->strategy != CG_HARVEST_STRATEGY_CLASSES)
    {
      keep_links (self, info, doc, final_url, &links);
      for (guint i = 0; info->reaches != NULL && i < info->reaches->len; i++)
        apply_reach (self, info, g_array_index (info->reaches, Reach, i));
      run_work (self);
    }

  page_links_clear (&links);
  xmlFreeDoc (doc);
}

/* ------------------------------------------------------------------ */
/* Reusing the learning crawl's pages                                  */

/* The pages the learning crawl of the model archived, which a first
 * harvest reads back rather than fetching them a second time: the
 * learning sample (200 pages by default) is a good share of what a
 * harvest needs, and a harvest that fetched it again would cost the site
 * those requests twice. Only a first harvest reuses: a re-harvest is
 * there to see what changed, so it asks again (conditionally, see
 * load_validators()). A harvest by example does not reuse either, since
 * its mapping compares each page it fetches with the sample as it goes.
 * Each reused page is read as if fetched (classified, its links
 * followed, its records extracted, labelled), and its WARC metadata
 * record, which refers to the learning crawl's response record, goes to a
 * file of the harvest's own (write_reused_metadata()). */
static gboolean
load_reusable (CgHarvester  *self,
               GError      **error)
{
  CgStore *store = cg_project_get_store (self->project);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  gint64 crawl_id = cg_site_model_get_crawl_id (self->model);
  int rc;

  if (!self->options->reuse_sample || self->options->strategy == CG_HARVEST_STRATEGY_LIKE ||
      self->previous_crawl_id > 0 || crawl_id <= 0)
    return TRUE;
  stmt = cg_store_prepare (store,
                           "SELECT u.url, u.id, f.status, f.mime, f.record_type, f.payload_digest, w.name, "
                           "  f.warc_offset, f.warc_record_id, "
                           "  (SELECT l.class FROM page_labels l "
                           "   WHERE l.url_id = u.id AND l.model_id = ?2 AND l.method = 'sample') "
                           "FROM fetches f JOIN urls u ON u.id = f.url_id LEFT JOIN warc_files w ON w.id = f.warc_file_id "
                           "WHERE f.crawl_id = ?1 AND f.id = (SELECT max(g.id) FROM fetches g WHERE g.url_id = f.url_id) "
                           "ORDER BY f.id",
                           error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  sqlite3_bind_int64 (stmt, 2, cg_site_model_get_id (self->model));
  self->reuse_crawl_id = crawl_id;
  self->reused = g_ptr_array_new_with_free_func ((GDestroyNotify) reused_page_free);
  self->reuse_archived = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *url = (const char *) sqlite3_column_text (stmt, 0);
      guint status = (guint) sqlite3_column_int (stmt, 2);
      const char *mime = (const char *) sqlite3_column_text (stmt, 3);
      const char *record_type = (const char *) sqlite3_column_text (stmt, 4);
      const char *digest = (const char *) sqlite3_column_text (stmt, 5);
      ReusedPage *page;

      if (url == NULL || status / 100 != 2)
        continue;
      g_hash_table_add (self->reuse_archived, g_strdup (url));
      /* A page is read back from its response record, or from the
       * response its revisit record refers to by digest. */
      if (!is_html (mime) || !same_host (url, self->entry_url) ||
          (g_strcmp0 (record_type, "response") != 0 && digest == NULL))
        continue;
      page = g_new0 (ReusedPage, 1);
      page->url = g_strdup (url);
      page->url_id = sqlite3_column_int64 (stmt, 1);
      page->mime = g_strdup (mime);
      page->digest = g_strdup (digest);
      if (g_strcmp0 (record_type, "response") == 0)
        page->warc_name = g_strdup ((const char *) sqlite3_column_text (stmt, 6));
      page->warc_offset = sqlite3_column_int64 (stmt, 7);
      page->record_id = g_strdup ((const char *) sqlite3_column_text (stmt, 8));
      page->sample_class = g_strdup ((const char *) sqlite3_column_text (stmt, 9));
      g_ptr_array_add (self->reused, page);
    }
  if (rc != SQLITE_DONE)
    {
      g_set_error (error, CG_STORE_ERROR, CG_STORE_ERROR_SQL,
                   _("Cannot read the pages of the learning crawl %" PRId64 ": %s"),
                   crawl_id, sqlite3_errmsg (cg_store_get_db (store)));
      return FALSE;
    }
  return TRUE;
}

/* The metadata records of the reused pages ("page-class" and the rest, as
 * for a fetched page) in a WARC file of their own, PREFIX-reused-N-….warc.gz
 * for harvest N, since the crawler writes records only for what it
 * fetches. Each refers to the learning crawl's record of the page
 * (WARC-Concurrent-To: the same capture). The file is written whole
 * before the crawl starts, so a resumed harvest finds it closed, with its
 * index beside it, and does not write it again; a file cut short by a
 * kill has no index and is written again from the start. */
static void
write_reused_metadata (CgHarvester *self)
{
  g_autofree char *warc_dir = cg_project_get_warc_dir (self->project);
  g_autofree char *prefix = g_strdup_printf ("%s-reused-%" G_GINT64_FORMAT,
                                             self->options->crawl->warc_prefix != NULL
                                               ? self->options->crawl->warc_prefix : CG_CRAWL_DEFAULT_WARC_PREFIX,
                                             self->crawl_id);
  g_autofree char *start = g_strconcat (prefix, "-", NULL);
  g_autofree char *config = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autoptr(CgWarcWriter) writer = NULL;
  g_autoptr(GError) error = NULL;
  const char *name;

  if (self->reused_metadata == NULL || self->reused_metadata->len == 0)
    return;
  dir = g_dir_open (warc_dir, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *index = NULL;

      if (!g_str_has_prefix (name, start) || !g_str_has_suffix (name, ".warc.gz"))
        continue;
      path = g_build_filename (warc_dir, name, NULL);
      index = cg_cdxj_path_for_warc (path);
      if (g_file_test (index, G_FILE_TEST_EXISTS))
        return;
      if (g_unlink (path) != 0)
        g_warning ("Cannot remove the unfinished %s: %s", path, g_strerror (errno));
    }

  writer = cg_warc_writer_new (warc_dir, prefix, &error);
  config = g_strdup_printf ("harvest-crawl: %" G_GINT64_FORMAT "\nreused-from-crawl: %" G_GINT64_FORMAT "\n",
                            self->crawl_id, self->reuse_crawl_id);
  if (writer == NULL || !cg_warc_writer_set_crawl_config (writer, config, &error))
    {
      g_warning ("Cannot write the metadata of the reused pages in %s: %s", warc_dir, error->message);
      return;
    }
  for (guint i = 0; i < self->reused_metadata->len; i++)
    {
      ReusedMetadata *metadata = g_ptr_array_index (self->reused_metadata, i);
      g_autoptr(CgWarcRecordInfo) info = NULL;

      info = cg_warc_writer_write_metadata (writer, metadata->url, NULL, metadata->record_id, NULL,
                                            (const char * const *) metadata->fields, &error);
      if (info == NULL)
        {
          g_warning ("Cannot write the metadata of the reused page %s: %s", metadata->url, error->message);
          return;
        }
    }
  if (!cg_warc_writer_close (writer, &error))
    g_warning ("Cannot close the metadata of the reused pages in %s: %s", warc_dir, error->message);
}

/* Reads the learning crawl's pages back as if the harvest had fetched
 * them, in the order the learning crawl fetched them, before the crawl
 * asks for anything: what they link to is then queued as from any page
 * (see load_reusable()). A page that cannot be read back is fetched as
 * usual. */
static void
reuse_pages (CgHarvester *self)
{
  g_autofree char *warc_dir = cg_project_get_warc_dir (self->project);
  g_autoptr(GError) error = NULL;
  CgProject *project;

  if (self->reuse_done || self->reused == NULL)
    return;
  self->reuse_done = TRUE;
  project = thread_project (self, &error);
  if (project == NULL)
    {
      g_warning ("Cannot reuse the pages of the learning crawl: %s", error->message);
      return;
    }
  self->reused_metadata = g_ptr_array_new_with_free_func ((GDestroyNotify) reused_metadata_free);
  for (guint i = 0; i < self->reused->len; i++)
    {
      ReusedPage *page = g_ptr_array_index (self->reused, i);
      UrlInfo *info = lookup_url (self, page->url, TRUE);
      g_autoptr(GBytes) body = NULL;
      g_autofree char *content_type = NULL;
      g_autoptr(GError) local_error = NULL;

      if (info == NULL || info->state == URL_DONE || info->state == URL_FAILED || info->state == URL_AWAITING)
        continue;
      if (page->warc_name != NULL)
        body = read_archived (warc_dir, page->warc_name, page->warc_offset, &content_type, &local_error);
      else
        body = read_by_digest (cg_project_get_store (project), warc_dir, page->digest, &content_type, &local_error);
      if (body == NULL)
        {
          g_debug ("Fetching %s again: %s", page->url, local_error->message);
          continue;
        }
      process_page (self, info, page->url, 200, content_type != NULL ? content_type : page->mime, body,
                    page->url_id, FALSE, page);
      self->n_reused++;
    }
  run_work (self);
  write_reused_metadata (self);
  g_clear_pointer (&self->reused_metadata, g_ptr_array_unref);
}

/* ------------------------------------------------------------------ */
/* The crawl driver                                                    */

/* From the mapping to the crawl of a harvest by example: the target page
 * map becomes the navigation pattern, which is then followed from the
 * entry page. */
static void
start_like_crawl (CgHarvester *self)
{
  g_autoptr(GError) error = NULL;
  UrlInfo *entry;
  Reach root = { 0, 0, 0 };

  self->like_phase = LIKE_CRAWLING;
  /* What the mapping queued and did not fetch is left to the pattern. */
  for (guint p = 0; p <= MAX_PRIORITY; p++)
    {
      UrlInfo *info;

      while ((info = g_queue_pop_head (&self->queue[p])) != NULL)
        info->state = URL_NEW;
    }
  self->nav = cg_target_map_generate (self->map, &error);
  if (self->nav == NULL)
    {
      self->fatal = g_error_new (CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_SAMPLE,
                                 _("No page like %s was found in the %u pages mapped: %s"),
                                 self->sample_url, self->n_mapped, error->message);
      return;
    }
  self->nav_nodes = cg_url_nav_node_flatten (self->nav);
  {
    g_autofree char *text = cg_url_nav_node_to_string (self->nav);

    g_debug ("Navigation pattern after %u pages mapped:\n%s", self->n_mapped, text);
  }
  if (self->switch_at == 0)
    {
      self->switch_at = self->n_mapped;
      if (!save_state (self, &self->fatal))
        return;
    }
  entry = lookup_url (self, self->entry_url, TRUE);
  if (entry != NULL)
    add_reach (self, entry, root);
  run_work (self);
}

static gboolean
like_mapping_over (CgHarvester *self)
{
  guint budget = self->options->like_map_pages > 0 ? self->options->like_map_pages : CG_HARVEST_DEFAULT_LIKE_MAP_PAGES;

  return self->n_mapped >= budget || (self->switch_at > 0 && self->n_mapped >= self->switch_at);
}

static GPtrArray *
next_urls (gpointer user_data)
{
  CgHarvester *self = user_data;
  GPtrArray *urls = g_ptr_array_new_with_free_func (g_free);
  gint64 now = g_get_real_time ();
  gint64 wait = (gint64) self->options->class_wait_ms * 1000;
  g_autoptr(GHashTable) taken = g_hash_table_new (g_str_hash, g_str_equal);

  if (self->fatal != NULL)
    return urls;

  if (self->options->strategy == CG_HARVEST_STRATEGY_LIKE)
    {
      UrlInfo *sample = lookup_url (self, self->sample_url, TRUE);

      if (sample == NULL)
        return urls;
      if (self->like_phase == LIKE_SAMPLE)
        {
          if (sample->state == URL_NEW || sample->state == URL_QUEUED)
            {
              sample->state = URL_AWAITING;
              g_ptr_array_add (urls, g_strdup (sample->url));
              return urls;
            }
          if (sample->state == URL_AWAITING)
            return urls;
          if (self->sample_tree == NULL)
            {
              if (self->fatal == NULL)
                self->fatal = g_error_new (CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_SAMPLE,
                                           _("The sample page %s could not be fetched as an HTML page"),
                                           self->sample_url);
              return urls;
            }
          self->like_phase = LIKE_MAPPING;
        }
      if (self->like_phase == LIKE_MAPPING)
        {
          gboolean queued = FALSE;

          for (guint p = 0; p <= MAX_PRIORITY && !queued; p++)
            queued = !g_queue_is_empty (&self->queue[p]);
          if (!queued || like_mapping_over (self))
            {
              start_like_crawl (self);
              if (self->fatal != NULL)
                return urls;
            }
        }
    }

  /* Shallow classes first: the lowest priority that has URLs, and, with a
   * wait per class, one URL of each class whose wait is over, from
   * wherever in the queue. */
  for (guint p = 0; p <= MAX_PRIORITY && urls->len < BATCH_SIZE; p++)
    {
      GList *link = self->queue[p].head;
      guint batch = pattern_batch (self, p);

      if (wait == 0 && urls->len > 0)
        break;
      while (link != NULL && urls->len < batch)
        {
          GList *next = link->next;
          UrlInfo *info = link->data;
          const char *class_name = info->link_class != NULL ? info->link_class : "";

          /* A URL whose answer came in some other way (a resumed crawl,
           * a redirect) leaves the queue here. */
          if (info->state != URL_QUEUED)
            {
              g_queue_delete_link (&self->queue[p], link);
              link = next;
              continue;
            }
          /* So does one that only dropped patterns asked for; a pattern
           * still followed that reaches it later queues it again. */
          if (only_dropped_reaches (self, info))
            {
              info->state = URL_NEW;
              g_queue_delete_link (&self->queue[p], link);
              link = next;
              continue;
            }
          if (wait > 0)
            {
              gint64 *not_before = g_hash_table_lookup (self->class_next, class_name);

              if (g_hash_table_contains (taken, class_name) || (not_before != NULL && *not_before > now))
                {
                  link = next;
                  continue;
                }
              g_hash_table_add (taken, (gpointer) class_name);
              if (not_before == NULL)
                {
                  not_before = g_new (gint64, 1);
                  g_hash_table_insert (self->class_next, g_strdup (class_name), not_before);
                }
              *not_before = now + wait;
            }
          g_queue_delete_link (&self->queue[p], link);
          info->state = URL_AWAITING;
          g_ptr_array_add (urls, g_strdup (info->url));
          link = next;
        }
    }
  return urls;
}

/* How long until a class's wait is over, when URLs wait for it. */
static gint64
driver_wait (gpointer user_data)
{
  CgHarvester *self = user_data;
  gint64 now = g_get_real_time ();
  gint64 soonest = 0;

  if (self->options->class_wait_ms == 0 || self->fatal != NULL)
    return 0;
  for (guint p = 0; p <= MAX_PRIORITY; p++)
    for (GList *link = self->queue[p].head; link != NULL; link = link->next)
      {
        UrlInfo *info = link->data;
        gint64 *not_before = g_hash_table_lookup (self->class_next, info->link_class != NULL ? info->link_class : "");
        gint64 wait = not_before != NULL ? MAX (*not_before - now, 1) : 1;

        if (soonest == 0 || wait < soonest)
          soonest = wait;
      }
  return soonest;
}

static void
driver_page (gpointer      user_data,
             const char   *requested_url,
             const char   *final_url,
             guint         status,
             const char   *content_type,
             GBytes       *body,
             gint64        url_id)
{
  CgHarvester *self = user_data;
  UrlInfo *info = lookup_url (self, requested_url, TRUE);

  g_clear_pointer (&self->pending_fields, g_strfreev);
  g_clear_pointer (&self->pending_url, g_free);
  if (info == NULL)
    return;
  process_page (self, info, final_url, status, content_type, body, url_id, FALSE, NULL);
}

static GStrv
driver_page_fields (gpointer    user_data,
                    const char *final_url,
                    gint64      url_id)
{
  CgHarvester *self = user_data;

  if (g_strcmp0 (final_url, self->pending_url) != 0)
    return NULL;
  g_clear_pointer (&self->pending_url, g_free);
  return g_steal_pointer (&self->pending_fields);
}

static gboolean
driver_validators (gpointer    user_data,
                   const char *url,
                   char      **out_etag,
                   char      **out_last_modified,
                   char      **out_payload_digest)
{
  CgHarvester *self = user_data;
  Validators *validators = self->validators != NULL ? g_hash_table_lookup (self->validators, url) : NULL;

  if (validators == NULL || validators->digest == NULL || (validators->etag == NULL && validators->last_modified == NULL))
    return FALSE;
  *out_etag = g_strdup (validators->etag);
  *out_last_modified = g_strdup (validators->last_modified);
  *out_payload_digest = g_strdup (validators->digest);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Setting up                                                          */

static gboolean
compile_rules (CgHarvester  *self,
               GError      **error)
{
  GPtrArray *classes = cg_site_model_get_classes (self->model);
  GPtrArray *links = cg_site_model_get_links (self->model);

  for (guint c = 0; c < classes->len; c++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, c);

      g_hash_table_insert (self->class_depths, g_strdup (klass->name), GINT_TO_POINTER (klass->depth + 1));
      if (klass->url_pattern != NULL)
        {
          GRegex *regex = g_regex_new (klass->url_pattern, G_REGEX_OPTIMIZE, 0, NULL);

          if (regex != NULL)
            g_hash_table_insert (self->class_patterns, g_strdup (klass->name), regex);
        }
    }
  for (guint l = 0; l < links->len; l++)
    {
      CgClassLink *link = g_ptr_array_index (links, l);
      GPtrArray *rules = g_hash_table_lookup (self->rules, link->source);
      LinkRule *rule = NULL;

      if (link->type == CG_CLASS_LINK_FORM)
        continue;
      if (rules == NULL)
        {
          rules = g_ptr_array_new_with_free_func ((GDestroyNotify) link_rule_free);
          g_hash_table_insert (self->rules, g_strdup (link->source), rules);
        }
      for (guint r = 0; r < rules->len && rule == NULL; r++)
        if (g_str_equal (((LinkRule *) g_ptr_array_index (rules, r))->xpath, link->xpath))
          rule = g_ptr_array_index (rules, r);
      if (rule == NULL)
        {
          rule = g_new0 (LinkRule, 1);
          rule->xpath = g_strdup (link->xpath);
          rule->compiled = cg_dom_xpath_compile (link->xpath);
          rule->targets = g_ptr_array_new_with_free_func (g_free);
          if (rule->compiled == NULL)
            {
              g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_MODEL,
                           _("The class link from %s to %s has an XPath that cannot be read: %s"),
                           link->source, link->target, link->xpath);
              link_rule_free (rule);
              return FALSE;
            }
          g_ptr_array_add (rules, rule);
        }
      if (!g_ptr_array_find_with_equal_func (rule->targets, link->target, g_str_equal, NULL))
        g_ptr_array_add (rule->targets, g_strdup (link->target));
    }
  return TRUE;
}

static gboolean
load_wrappers (CgHarvester  *self,
               GError      **error)
{
  g_autoptr(GPtrArray) wrappers = cg_record_store_list_wrappers (cg_project_get_store (self->project),
                                                                  cg_site_model_get_id (self->model), error);

  if (wrappers == NULL)
    return FALSE;
  for (guint i = 0; i < wrappers->len; i++)
    g_hash_table_add (self->wrappers, g_strdup (((CgStoredWrapper *) g_ptr_array_index (wrappers, i))->class_name));
  return TRUE;
}

/* The validators the earlier harvests kept of each URL they fetched, the
 * newest copy of each: a URL the last harvest did not reach but an
 * earlier one did is still asked for conditionally, and so is a page of
 * the learning crawl that the last harvest read back instead of fetching
 * it. (The crawler asks in full for a URL whose earlier copies are all in
 * WARC files no longer there: after a 304 the harvest would have no page
 * to read its links from, and all below it would be reported gone.) */
static gboolean
load_validators (CgHarvester  *self,
                 GError      **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  if (self->previous_crawl_id <= 0 || !self->options->conditional)
    return TRUE;
  stmt = cg_store_prepare (cg_project_get_store (self->project),
                           "SELECT u.url, f.etag, f.last_modified, f.payload_digest, f.mime "
                           "FROM fetches f JOIN urls u ON u.id = f.url_id JOIN crawls c ON c.id = f.crawl_id "
                           "WHERE ((c.kind = 'harvest' AND f.crawl_id <= ?1) OR f.crawl_id = ?2) "
                           "  AND (f.status / 100 = 2 OR f.status = 304) "
                           "  AND f.payload_digest IS NOT NULL AND (f.etag IS NOT NULL OR f.last_modified IS NOT NULL) "
                           "ORDER BY f.id",
                           error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, self->previous_crawl_id);
  sqlite3_bind_int64 (stmt, 2, cg_harvest_get_reused_crawl (self->project, self->previous_crawl_id));
  self->validators = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) validators_free);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      Validators *v = g_new0 (Validators, 1);

      v->etag = g_strdup ((const char *) sqlite3_column_text (stmt, 1));
      v->last_modified = g_strdup ((const char *) sqlite3_column_text (stmt, 2));
      v->digest = g_strdup ((const char *) sqlite3_column_text (stmt, 3));
      v->mime = g_strdup ((const char *) sqlite3_column_text (stmt, 4));
      g_hash_table_replace (self->validators, g_strdup ((const char *) sqlite3_column_text (stmt, 0)), v);
    }
  /* A read error ends the rows too; the database that gave it is not
   * one to harvest into. */
  if (rc != SQLITE_DONE)
    return cg_store_set_error (cg_project_get_store (self->project), rc, error);
  return TRUE;
}

static char *
state_path_for (CgProject *project,
                gint64     crawl_id)
{
  g_autofree char *name = g_strdup_printf ("crawl-%" G_GINT64_FORMAT ".json", crawl_id);

  return g_build_filename (cg_project_get_folder (project), "harvests", name, NULL);
}

/* Keeps what a resumed harvest needs and the crawl does not hold: the
 * options, the model, the earlier harvest, and for a harvest by example
 * how many pages were mapped before its crawl began. A harvest that
 * cannot keep it could not be resumed, nor compared with by the next
 * one: the caller fails it at once, with the error naming the file,
 * rather than let it run to its end and then be lost. */
static gboolean
save_state (CgHarvester  *self,
            GError      **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  g_autofree char *dir = g_path_get_dirname (self->state_path);
  g_autoptr(GError) local_error = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "crawl");
  json_builder_add_int_value (builder, self->crawl_id);
  json_builder_set_member_name (builder, "site");
  json_builder_add_string_value (builder, cg_site_model_get_site (self->model));
  json_builder_set_member_name (builder, "model_version");
  json_builder_add_int_value (builder, cg_site_model_get_version (self->model));
  json_builder_set_member_name (builder, "previous_crawl");
  json_builder_add_int_value (builder, self->previous_crawl_id);
  json_builder_set_member_name (builder, "like_mapped");
  json_builder_add_int_value (builder, self->switch_at);
  json_builder_set_member_name (builder, "reused_crawl");
  json_builder_add_int_value (builder, self->reuse_crawl_id);
  json_builder_set_member_name (builder, "options");
  json_builder_add_value (builder, options_to_json_node (self->options));
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  text = json_to_string (root, TRUE);
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   _("Cannot keep the state of harvest %" PRId64 " in %s: %s"),
                   self->crawl_id, dir, g_strerror (saved_errno));
      return FALSE;
    }
  if (!g_file_set_contents (self->state_path, text, -1, &local_error))
    {
      g_set_error (error, local_error->domain, local_error->code,
                   _("Cannot keep the state of harvest %" PRId64 " in %s: %s"),
                   self->crawl_id, self->state_path, local_error->message);
      return FALSE;
    }
  return TRUE;
}

/* Marks the harvest's crawl failed in the store, so that no later
 * harvest takes it for the one to compare with
 * (cg_harvester_find_previous()); a failure to do so is added to
 * @error, the harvest's own failure. */
static void
record_harvest_failed (CgHarvester  *self,
                       GError      **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GError) state_error = NULL;
  GError *both;

  stmt = cg_store_prepare (cg_project_get_store (self->project),
                           "UPDATE crawls SET state = 'failed' WHERE id = ?1", &state_error);
  if (stmt != NULL)
    {
      sqlite3_bind_int64 (stmt, 1, self->crawl_id);
      cg_store_step_done (cg_project_get_store (self->project), stmt, &state_error);
    }
  if (state_error == NULL || error == NULL || *error == NULL)
    return;
  both = g_error_new ((*error)->domain, (*error)->code,
                      _("%s (and the harvest cannot be recorded as failed: %s)"),
                      (*error)->message, state_error->message);
  g_clear_error (error);
  *error = both;
}

static void
crawler_finished_cb (CgCrawler    *crawler,
                     int           end,
                     const GError *crawl_error,
                     CgHarvester  *self)
{
  g_autoptr(GError) error = NULL;

  /* The crawl's thread is over: its connection goes. */
  g_clear_object (&self->thread_project);
  if (self->fatal != NULL && end != CG_CRAWL_END_FAILED && end != CG_CRAWL_END_STOPPED)
    {
      error = g_error_copy (self->fatal);
      end = CG_CRAWL_END_FAILED;
      /* The crawl ended and recorded itself finished; the harvest did
       * not, and says so, so that no later harvest takes it for the one
       * to compare with (cg_harvester_find_previous()). */
      record_harvest_failed (self, &error);
    }
  else if (crawl_error != NULL)
    error = g_error_copy (crawl_error);
  g_signal_emit (self, signals[SIGNAL_FINISHED], 0, end, error);
}

static void
cg_harvester_finalize (GObject *object)
{
  CgHarvester *self = CG_HARVESTER (object);

  if (self->crawler != NULL)
    g_signal_handlers_disconnect_by_data (self->crawler, self);
  g_clear_object (&self->crawler);
  g_clear_pointer (&self->crawl_lock, cg_crawl_lock_release);
  g_clear_object (&self->thread_project);
  g_clear_object (&self->model);
  g_clear_object (&self->project);
  g_clear_pointer (&self->options, cg_harvest_options_free);
  g_clear_pointer (&self->owner_context, g_main_context_unref);
  g_free (self->entry_url);
  g_free (self->state_path);
  g_clear_pointer (&self->classifier, cg_page_classifier_free);
  g_clear_pointer (&self->classifier_warning, g_free);
  g_clear_pointer (&self->class_depths, g_hash_table_unref);
  g_clear_pointer (&self->rules, g_hash_table_unref);
  g_clear_pointer (&self->class_patterns, g_hash_table_unref);
  g_clear_pointer (&self->wrappers, g_hash_table_unref);
  for (guint p = 0; p <= MAX_PRIORITY; p++)
    g_queue_clear (&self->queue[p]);
  g_queue_clear_full (&self->work, g_free);
  g_clear_pointer (&self->urls, g_hash_table_unref);
  g_clear_pointer (&self->strings, g_hash_table_unref);
  g_clear_pointer (&self->class_next, g_hash_table_unref);
  g_clear_pointer (&self->validators, g_hash_table_unref);
  g_clear_pointer (&self->bigrams, g_hash_table_unref);
  g_clear_pointer (&self->expressions, g_ptr_array_unref);
  g_clear_pointer (&self->yields, g_array_unref);
  g_free (self->pending_url);
  g_strfreev (self->pending_fields);
  g_clear_error (&self->fatal);
  g_free (self->sample_url);
  g_free (self->sample_class);
  g_free (self->sample_shape);
  g_clear_pointer (&self->sample_tree, cg_rtdm_tree_free);
  g_clear_pointer (&self->map, cg_target_map_free);
  g_clear_pointer (&self->nav_nodes, g_ptr_array_unref);
  g_clear_pointer (&self->nav, cg_url_nav_node_free);
  g_clear_pointer (&self->counts, g_hash_table_unref);
  g_clear_pointer (&self->reused, g_ptr_array_unref);
  g_clear_pointer (&self->reused_metadata, g_ptr_array_unref);
  g_clear_pointer (&self->reuse_archived, g_hash_table_unref);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (cg_harvester_parent_class)->finalize (object);
}

static void
cg_harvester_class_init (CgHarvesterClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cg_harvester_finalize;

  /* The pages of a class harvested so far and the records extracted from
   * them (CG_HARVEST_UNCLASSIFIED for pages of no class). */
  signals[SIGNAL_CLASS_PROGRESS] = g_signal_new ("class-progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                 0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                                                 G_TYPE_STRING, G_TYPE_UINT, G_TYPE_UINT);
  /* Distinct word 2-grams of the harvested HTML pages against the pages
   * requested. */
  signals[SIGNAL_COVERAGE] = g_signal_new ("coverage", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT64, G_TYPE_UINT64);
  /* The harvest ended: a CgCrawlEnd and, for CG_CRAWL_END_FAILED, the
   * error. */
  signals[SIGNAL_FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_INT, G_TYPE_ERROR);
}

static void
cg_harvester_init (CgHarvester *self)
{
  g_mutex_init (&self->lock);
  self->owner_context = g_main_context_ref_thread_default ();
  self->class_depths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->rules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  self->class_patterns = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_regex_unref);
  self->wrappers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->urls = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) url_info_free);
  self->strings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->class_next = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->bigrams = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint p = 0; p <= MAX_PRIORITY; p++)
    g_queue_init (&self->queue[p]);
  g_queue_init (&self->work);
}

/* The class the model gives the sample page: the class it is a sample
 * of, else what the classifier says. */
static char *
sample_class_of (CgHarvester *self,
                 const char  *url)
{
  GPtrArray *classes = cg_site_model_get_classes (self->model);

  for (guint c = 0; c < classes->len; c++)
    {
      CgPageClass *klass = g_ptr_array_index (classes, c);

      if (klass->samples != NULL && g_strv_contains ((const char * const *) klass->samples, url))
        return g_strdup (klass->name);
    }
  return NULL;
}

/* Everything new() and new_for_crawl() share, once the options and the
 * model are known. */
static gboolean
set_up (CgHarvester  *self,
        GError      **error)
{
  GPtrArray *patterns = cg_site_model_get_patterns (self->model);

  if (!compile_rules (self, error) || !load_wrappers (self, error) || !load_validators (self, error) ||
      !load_reusable (self, error))
    return FALSE;
  self->classifier = build_classifier (self->project, self->model, &self->classifier_warning, error);
  if (self->classifier == NULL)
    return FALSE;

  switch (self->options->strategy)
    {
    case CG_HARVEST_STRATEGY_CLASSES:
      if (cg_site_model_get_entry_class (self->model) == NULL)
        {
          g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_MODEL,
                       _("The model of %s has no entry class to start a class-driven harvest from"),
                       cg_site_model_get_site (self->model));
          return FALSE;
        }
      break;

    case CG_HARVEST_STRATEGY_PATTERNS:
      self->expressions = g_ptr_array_new_with_free_func ((GDestroyNotify) cg_nav_expression_free);
      for (guint i = 0; i < patterns->len; i++)
        {
          CgNavPattern *pattern = g_ptr_array_index (patterns, i);
          CgNavExpression *expression = cg_nav_expression_new_from_string (pattern->pattern, error);

          if (expression == NULL)
            {
              g_prefix_error (error, _("Navigation pattern %u of the model: "), i + 1);
              return FALSE;
            }
          g_ptr_array_add (self->expressions, expression);
        }
      self->yields = g_array_new (FALSE, TRUE, sizeof (PatternYield));
      g_array_set_size (self->yields, self->expressions->len);
      if (self->expressions->len == 0)
        {
          g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_MODEL,
                       _("The model of %s has no navigation patterns to harvest with"),
                       cg_site_model_get_site (self->model));
          return FALSE;
        }
      break;

    case CG_HARVEST_STRATEGY_LIKE:
      self->sample_url = cg_url_normalize (self->options->like_url, CG_URL_NORMALIZE_CRAWL, error);
      if (self->sample_url == NULL)
        return FALSE;
      self->sample_class = sample_class_of (self, self->sample_url);
      self->sample_shape = url_shape (self->sample_url);
      self->map = cg_target_map_new (self->entry_url);
      break;

    default:
      g_assert_not_reached ();
    }
  return TRUE;
}

/* Queues the entry page. */
static void
seed (CgHarvester *self)
{
  UrlInfo *entry = lookup_url (self, self->entry_url, TRUE);

  switch (self->options->strategy)
    {
    case CG_HARVEST_STRATEGY_CLASSES:
      if (entry->link_class == NULL)
        entry->link_class = g_strdup (cg_site_model_get_entry_class (self->model));
      enqueue (self, entry, 0);
      break;
    case CG_HARVEST_STRATEGY_PATTERNS:
      if (entry->link_class == NULL)
        entry->link_class = g_strdup (cg_site_model_get_entry_class (self->model));
      for (guint i = 0; i < self->expressions->len; i++)
        add_reach (self, entry, (Reach) { i, 0, 0 });
      break;
    case CG_HARVEST_STRATEGY_LIKE:
      if (entry->link_class == NULL)
        entry->link_class = g_strdup (cg_site_model_get_entry_class (self->model));
      entry->mapping = TRUE;
      entry->level = 0;
      enqueue (self, entry, 0);
      break;
    default:
      g_assert_not_reached ();
    }
}

static CgCrawlDriver
make_driver (CgHarvester *self)
{
  CgCrawlDriver driver = {
    .next_urls = next_urls,
    .page = driver_page,
    .user_data = self,
    .page_fields = driver_page_fields,
    .wait = driver_wait,
    .validators = driver_validators,
  };

  return driver;
}

/* Whether @sample_url is in the scope of @config, reached by a link from
 * a seed (the sample is a page of the site, not a seed of its own). */
static gboolean
sample_is_in_scope (const CgCrawlConfig  *config,
                    const char           *sample_url,
                    GError              **error)
{
  g_autoptr(CgScope) scope = cg_crawl_config_build_scope (config, error);
  CgScopeVerdict verdict;

  if (scope == NULL)
    return FALSE;
  verdict = cg_scope_check (scope, sample_url, 1, CG_HOP_NAVLINK, NULL);
  if (verdict == CG_SCOPE_IN_SCOPE)
    return TRUE;
  g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_INVALID,
               _("The sample page “%s” is not a page of %s (%s)"), sample_url, config->seeds[0],
               cg_scope_verdict_describe (verdict));
  return FALSE;
}

/* Where the exploration that made @model started, if it is a page of the
 * model's site: a model learned from /catalogue/ is harvested from there,
 * not from the site's root, which may be no page of it at all. NULL for
 * a model no exploration made (an imported one), and with @error when the
 * project cannot be read. */
static char *
exploration_seed (CgProject    *project,
                  CgSiteModel  *model,
                  GError      **error)
{
  CgStore *store = cg_project_get_store (project);
  const char *site = cg_site_model_get_site (model);
  g_autoptr(sqlite3_stmt) stmt = NULL;
  const char *seed;
  int rc;

  if (cg_site_model_get_crawl_id (model) <= 0)
    return NULL;
  stmt = cg_store_prepare (store, "SELECT seed_url FROM crawls WHERE id = ?1", error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, cg_site_model_get_crawl_id (model));
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    {
      cg_store_set_error (store, rc, error);
      return NULL;
    }
  seed = rc == SQLITE_ROW ? (const char *) sqlite3_column_text (stmt, 0) : NULL;
  return seed != NULL && g_str_has_prefix (seed, site) ? g_strdup (seed) : NULL;
}

/**
 * cg_harvester_new:
 * @model: a saved model of the site
 * @options: (nullable): how to harvest; NULL harvests by classes with the
 *   default crawl settings, from the model's site
 *
 * Records a new harvest of @model's site in @project, as a crawl of kind
 * "harvest". It starts with cg_harvester_start().
 */
CgHarvester *
cg_harvester_new (CgProject               *project,
                  CgSiteModel             *model,
                  const CgHarvestOptions  *options,
                  GError                 **error)
{
  g_autoptr(CgHarvester) self = g_object_new (CG_TYPE_HARVESTER, NULL);
  g_autoptr(GError) local_error = NULL;
  CgCrawlConfig *config;
  CgCrawlDriver driver;

  g_return_val_if_fail (CG_IS_PROJECT (project), NULL);
  g_return_val_if_fail (CG_IS_SITE_MODEL (model), NULL);

  self->project = g_object_ref (project);
  self->model = g_object_ref (model);
  self->options = options != NULL ? cg_harvest_options_copy (options) : cg_harvest_options_new ();
  if (self->options->crawl == NULL)
    self->options->crawl = cg_crawl_config_new ();
  if (cg_site_model_get_id (model) <= 0)
    {
      g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_MODEL,
                   _("The model of %s is not saved in the project: pages are labelled under a saved model"),
                   cg_site_model_get_site (model));
      return NULL;
    }

  /* The entry is the first seed, else where the exploration that made the
   * model started, else the model's site. */
  config = self->options->crawl;
  if (config->seeds == NULL || config->seeds[0] == NULL)
    {
      g_autoptr(GError) seed_error = NULL;
      char *entry = exploration_seed (project, model, &seed_error);

      if (seed_error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&seed_error));
          return NULL;
        }
      g_strfreev (config->seeds);
      config->seeds = g_new0 (char *, 2);
      config->seeds[0] = entry != NULL ? entry : g_strdup (cg_site_model_get_site (model));
    }
  /* The sample of a harvest by example is a seed too, so that the crawl
   * takes it in (a depth limit could otherwise keep it out); the crawl
   * fetches only what the harvester asks for. A seed widens the scope to
   * its host, so a sample off the site would take the harvest to another
   * server: it must be in the scope the site's seeds make. */
  if (self->options->strategy == CG_HARVEST_STRATEGY_LIKE && self->options->like_url != NULL &&
      !g_strv_contains ((const char * const *) config->seeds, self->options->like_url))
    {
      if (!sample_is_in_scope (config, self->options->like_url, error))
        return NULL;

      guint n = g_strv_length (config->seeds);

      config->seeds = g_renew (char *, config->seeds, n + 2);
      config->seeds[n] = g_strdup (self->options->like_url);
      config->seeds[n + 1] = NULL;
    }
  if (!cg_harvest_options_validate (self->options, error))
    return NULL;
  self->entry_url = cg_url_normalize (self->options->crawl->seeds[0], CG_URL_NORMALIZE_CRAWL, error);
  if (self->entry_url == NULL)
    return NULL;

  self->previous_crawl_id = cg_harvester_find_previous (project, 0, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  if (!set_up (self, error))
    return NULL;

  driver = make_driver (self);
  self->crawler = cg_crawler_new_driven (project, self->options->crawl, "harvest", &driver, error);
  if (self->crawler == NULL)
    return NULL;
  if (self->classifier_warning != NULL)
    cg_crawler_add_start_warning (self->crawler, self->classifier_warning);
  self->crawl_id = cg_crawler_get_crawl_id (self->crawler);
  self->state_path = state_path_for (project, self->crawl_id);
  if (!save_state (self, error))
    {
      record_harvest_failed (self, error);
      return NULL;
    }
  g_signal_connect (self->crawler, "finished", G_CALLBACK (crawler_finished_cb), self);
  seed (self);
  return g_steal_pointer (&self);
}

/* ------------------------------------------------------------------ */
/* Resuming                                                            */

typedef struct {
  char   *url;
  char   *hops;
  gint64  via;
  int     state;
} CrawlUrl;

static void
crawl_url_free (CrawlUrl *row)
{
  g_free (row->url);
  g_free (row->hops);
  g_free (row);
}

static gboolean
is_driver_hops (const char *hops)
{
  if (hops == NULL || hops[0] != 'L')
    return FALSE;
  for (const char *p = hops + 1; *p != '\0'; p++)
    if (*p != 'R')
      return FALSE;
  return TRUE;
}

/* The URL the harvester asked for that led to @id (itself, or the start
 * of the redirects that led to it). */
static const char *
requested_for (GHashTable *rows,
               gint64      id)
{
  CrawlUrl *row = g_hash_table_lookup (rows, &id);

  for (guint hops = 0; row != NULL && strlen (row->hops) > 1 && hops <= CG_FETCHER_MAX_REDIRECTS_LIMIT; hops++)
    {
      CrawlUrl *from = g_hash_table_lookup (rows, &row->via);

      if (from == NULL)
        break;
      row = from;
    }
  return row != NULL ? row->url : NULL;
}

/* Rebuilds what the harvester knew from what the crawl archived (see the
 * top of this file). */
static gboolean
replay (CgHarvester  *self,
        GError      **error)
{
  CgStore *store = cg_project_get_store (self->project);
  g_autofree char *warc_dir = cg_project_get_warc_dir (self->project);
  g_autoptr(GHashTable) rows = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) crawl_url_free);
  g_autoptr(sqlite3_stmt) urls = NULL;
  g_autoptr(sqlite3_stmt) fetches = NULL;
  GHashTableIter iter;
  gpointer key, value;
  int rc;

  urls = cg_store_prepare (store, "SELECT id, url, hops, coalesce(via_id, 0), state FROM urls "
                                  "WHERE crawl_id = ?1 AND hops GLOB 'L*'", error);
  if (urls == NULL)
    return FALSE;
  sqlite3_bind_int64 (urls, 1, self->crawl_id);
  while ((rc = sqlite3_step (urls)) == SQLITE_ROW)
    {
      CrawlUrl *row;
      gint64 id = sqlite3_column_int64 (urls, 0);

      if (!is_driver_hops ((const char *) sqlite3_column_text (urls, 2)))
        continue;
      row = g_new0 (CrawlUrl, 1);
      row->url = g_strdup ((const char *) sqlite3_column_text (urls, 1));
      row->hops = g_strdup ((const char *) sqlite3_column_text (urls, 2));
      row->via = sqlite3_column_int64 (urls, 3);
      row->state = sqlite3_column_int (urls, 4);
      g_hash_table_insert (rows, g_memdup2 (&id, sizeof id), row);
    }
  /* A read error ends the rows too: taken for their end, the harvest
   * would resume knowing part of what it had asked for. */
  if (rc != SQLITE_DONE)
    return cg_store_set_error (store, rc, error);

  /* What the crawl still has queued comes back to the driver by itself
   * (cg_crawler_new_driven_for_crawl()): it is awaited, not asked for. */
  g_hash_table_iter_init (&iter, rows);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      CrawlUrl *row = value;
      const char *requested;
      UrlInfo *info;

      if (row->state != 0 && row->state != 1)
        continue;
      requested = requested_for (rows, *(gint64 *) key);
      if (requested != NULL && (info = lookup_url (self, requested, TRUE)) != NULL)
        info->state = URL_AWAITING;
    }

  seed (self);
  /* The learning crawl's pages were read before anything was fetched. */
  reuse_pages (self);
  if (self->options->strategy == CG_HARVEST_STRATEGY_LIKE)
    {
      /* The sample was the first page; everything after it was mapped,
       * up to the count the state file kept. */
      UrlInfo *sample = lookup_url (self, self->sample_url, TRUE);

      if (sample->state != URL_AWAITING)
        sample->state = URL_QUEUED;
    }

  fetches = cg_store_prepare (store,
                              "SELECT f.url_id, f.status, f.mime, f.record_type, f.payload_digest, w.name, f.warc_offset "
                              "FROM fetches f LEFT JOIN warc_files w ON w.id = f.warc_file_id "
                              "WHERE f.crawl_id = ?1 ORDER BY f.id",
                              error);
  if (fetches == NULL)
    return FALSE;
  sqlite3_bind_int64 (fetches, 1, self->crawl_id);
  self->replaying = TRUE;
  while ((rc = sqlite3_step (fetches)) == SQLITE_ROW)
    {
      gint64 url_id = sqlite3_column_int64 (fetches, 0);
      guint status = (guint) sqlite3_column_int (fetches, 1);
      const char *mime = (const char *) sqlite3_column_text (fetches, 2);
      const char *record_type = (const char *) sqlite3_column_text (fetches, 3);
      const char *digest = (const char *) sqlite3_column_text (fetches, 4);
      CrawlUrl *row = g_hash_table_lookup (rows, &url_id);
      const char *requested;
      g_autoptr(GBytes) body = NULL;
      g_autofree char *content_type = NULL;
      g_autoptr(GError) local_error = NULL;
      UrlInfo *info;

      /* Redirects were followed to their targets, which are replayed on
       * their own; a 304 is the page itself, unchanged, and is replayed
       * from its earlier copy, so that its links are followed again. */
      if (row == NULL || (status / 100 == 3 && status != 304))
        continue;
      requested = requested_for (rows, url_id);
      info = requested != NULL ? lookup_url (self, requested, TRUE) : NULL;
      if (info == NULL)
        continue;

      if (self->options->strategy == CG_HARVEST_STRATEGY_LIKE)
        {
          if (self->like_phase == LIKE_SAMPLE && g_strcmp0 (info->url, self->sample_url) != 0)
            self->like_phase = LIKE_MAPPING;
          if (self->like_phase == LIKE_MAPPING && self->switch_at > 0 && self->n_mapped >= self->switch_at)
            start_like_crawl (self);
        }

      if ((status / 100 == 2 || status == 304) && is_html (mime))
        {
          if (g_strcmp0 (record_type, "response") == 0)
            body = read_archived (warc_dir, (const char *) sqlite3_column_text (fetches, 5),
                                  sqlite3_column_int64 (fetches, 6), &content_type, &local_error);
          else if (digest != NULL)
            body = read_by_digest (store, warc_dir, digest, &content_type, &local_error);
          /* A page the archive cannot give back is replayed without its
           * body, but a database that cannot be read fails the replay:
           * every page after it would be read from the same damage. */
          if (body == NULL && local_error != NULL && local_error->domain == CG_STORE_ERROR)
            {
              self->replaying = FALSE;
              g_propagate_error (error, g_steal_pointer (&local_error));
              return FALSE;
            }
          if (body == NULL)
            g_debug ("Replaying %s: %s", row->url, local_error != NULL ? local_error->message : "no payload");
        }
      process_page (self, info, row->url, status == 304 ? 200 : status,
                    content_type != NULL ? content_type : mime, body, url_id, TRUE, NULL);
      if (self->options->strategy == CG_HARVEST_STRATEGY_LIKE && self->like_phase == LIKE_SAMPLE)
        self->like_phase = LIKE_MAPPING;
    }
  self->replaying = FALSE;
  if (rc != SQLITE_DONE)
    return cg_store_set_error (store, rc, error);
  if (self->options->strategy == CG_HARVEST_STRATEGY_LIKE && self->like_phase == LIKE_MAPPING &&
      self->switch_at > 0 && self->n_mapped >= self->switch_at)
    start_like_crawl (self);
  return TRUE;
}

/**
 * cg_harvester_new_for_crawl:
 *
 * Opens the interrupted harvest @crawl_id of @project to resume it with
 * its own options and model.
 */
static CgHarvester *
open_for_crawl (CgProject            *project,
                gint64                crawl_id,
                const CgCrawlConfig  *config,
                GError              **error)
{
  g_autoptr(CgHarvester) self = g_object_new (CG_TYPE_HARVESTER, NULL);
  g_autofree char *state_text = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local_error = NULL;
  JsonObject *state;
  JsonObject *options = NULL;
  const char *site = NULL;
  gint64 model_version = 0, like_mapped = 0;
  CgCrawlDriver driver;

  self->project = g_object_ref (project);
  self->crawl_id = crawl_id;
  /* Not resumed while it runs in another process: replaying and resuming
   * would read and cut back WARC files that process still writes. */
  self->crawl_lock = cg_crawl_lock_acquire (project, crawl_id, error);
  if (self->crawl_lock == NULL)
    return NULL;
  self->state_path = state_path_for (project, crawl_id);
  /* The state is a file in the project folder, which a person can edit. */
  if (!g_file_get_contents (self->state_path, &state_text, NULL, &local_error) ||
      (root = cg_json_parse (state_text, -1, &local_error)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST,
                   _("Crawl %" PRId64 " of “%s” is not a harvest that can be resumed: %s"),
                   crawl_id, cg_project_get_folder (project),
                   local_error != NULL ? local_error->message : _("its state is not a JSON object"));
      return NULL;
    }
  state = json_node_get_object (root);
  if (!cg_json_read_object (state, self->state_path, "options", &options, &local_error) ||
      !cg_json_read_string (state, self->state_path, "site", &site, &local_error) ||
      !cg_json_read_int (state, self->state_path, "model_version", 0, G_MAXINT, &model_version, &local_error) ||
      !cg_json_read_int (state, self->state_path, "previous_crawl", 0, G_MAXINT64, &self->previous_crawl_id,
                         &local_error) ||
      !cg_json_read_int (state, self->state_path, "like_mapped", 0, G_MAXUINT, &like_mapped, &local_error))
    {
      g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST,
                   _("Crawl %" PRId64 " of “%s” is not a harvest that can be resumed: %s"),
                   crawl_id, cg_project_get_folder (project), local_error->message);
      return NULL;
    }
  if (options == NULL || site == NULL)
    {
      g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST,
                   _("The state of harvest %" PRId64 " in %s lacks its options or its site"),
                   crawl_id, self->state_path);
      return NULL;
    }
  self->options = options_from_json_object (options, error);
  if (self->options == NULL)
    {
      g_prefix_error (error, "%s: ", self->state_path);
      return NULL;
    }
  self->model = cg_site_model_load (cg_project_get_store (project), site, (int) model_version, error);
  if (self->model == NULL)
    return NULL;
  self->switch_at = (guint) like_mapped;
  if (self->options->crawl == NULL || self->options->crawl->seeds == NULL || self->options->crawl->seeds[0] == NULL)
    {
      g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST,
                   _("The state of harvest %" PRId64 " in %s has no entry URL"), crawl_id, self->state_path);
      return NULL;
    }
  if (config != NULL)
    {
      if (!cg_crawl_config_check_resume_change (self->options->crawl, config, error))
        return NULL;
      cg_crawl_config_free (self->options->crawl);
      self->options->crawl = cg_crawl_config_copy (config);
    }
  self->entry_url = cg_url_normalize (self->options->crawl->seeds[0], CG_URL_NORMALIZE_CRAWL, error);
  if (self->entry_url == NULL || !set_up (self, error) || !replay (self, error))
    return NULL;

  driver = make_driver (self);
  self->crawler = cg_crawler_new_driven_for_crawl (project, crawl_id, config, &driver, error);
  if (self->crawler == NULL)
    return NULL;
  if (self->classifier_warning != NULL)
    cg_crawler_add_start_warning (self->crawler, self->classifier_warning);
  /* The new settings are the harvest's own from now on. Should the state
   * file not take them, the crawl keeps them all the same (the crawler
   * stored them); the next resume reads its limits from the crawl. */
  if (config != NULL && !save_state (self, error))
    return NULL;
  g_signal_connect (self->crawler, "finished", G_CALLBACK (crawler_finished_cb), self);
  return g_steal_pointer (&self);
}

CgHarvester *
cg_harvester_new_for_crawl (CgProject  *project,
                            gint64      crawl_id,
                            GError    **error)
{
  g_return_val_if_fail (CG_IS_PROJECT (project), NULL);

  return open_for_crawl (project, crawl_id, NULL, error);
}

CgHarvester *
cg_harvester_new_for_crawl_with_config (CgProject            *project,
                                        gint64                crawl_id,
                                        const CgCrawlConfig  *config,
                                        GError              **error)
{
  g_return_val_if_fail (CG_IS_PROJECT (project), NULL);
  g_return_val_if_fail (config != NULL, NULL);

  return open_for_crawl (project, crawl_id, config, error);
}

gint64
cg_harvester_find_resumable (CgProject  *project,
                             GError    **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  g_return_val_if_fail (CG_IS_PROJECT (project), 0);

  stmt = cg_store_prepare (cg_project_get_store (project),
                           "SELECT id, state FROM crawls WHERE kind = 'harvest' ORDER BY id DESC LIMIT 1", error);
  if (stmt == NULL)
    return 0;
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_DONE)
    {
      g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST,
                   _("The project “%s” has no harvest to resume"), cg_project_get_folder (project));
      return 0;
    }
  if (rc != SQLITE_ROW)
    {
      cg_store_set_error (cg_project_get_store (project), rc, error);
      return 0;
    }
  if (g_strcmp0 ((const char *) sqlite3_column_text (stmt, 1), "finished") == 0)
    {
      g_set_error (error, CG_HARVESTER_ERROR, CG_HARVESTER_ERROR_NO_HARVEST,
                   _("The last harvest of “%s” is finished: there is nothing to resume"),
                   cg_project_get_folder (project));
      return 0;
    }
  return sqlite3_column_int64 (stmt, 0);
}

gint64
cg_harvester_find_previous (CgProject  *project,
                            gint64      crawl_id,
                            GError    **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  g_return_val_if_fail (CG_IS_PROJECT (project), 0);

  /* A harvest that archived something counts, whether it finished, hit
   * a limit or was stopped: its pages are in the archive. One that failed
   * does not: what it did not reach would all be reported new. */
  stmt = cg_store_prepare (cg_project_get_store (project),
                           "SELECT c.id FROM crawls c WHERE c.kind = 'harvest' AND (?1 = 0 OR c.id < ?1) "
                           "  AND c.state <> 'failed' "
                           "  AND EXISTS (SELECT 1 FROM fetches f WHERE f.crawl_id = c.id) "
                           "ORDER BY c.id DESC LIMIT 1",
                           error);
  if (stmt == NULL)
    return 0;
  sqlite3_bind_int64 (stmt, 1, crawl_id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    return sqlite3_column_int64 (stmt, 0);
  /* A read error is not "no earlier harvest": that would re-harvest
   * everything unconditionally, as if for the first time. */
  if (rc != SQLITE_DONE)
    cg_store_set_error (cg_project_get_store (project), rc, error);
  return 0;
}

/* ------------------------------------------------------------------ */
/* Running                                                             */

static void
reuse_thread_cb (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  /* The crawl has not started: the harvester's state is this thread's
   * until the task returns, and the crawl's thread's after that. */
  reuse_pages (source_object);
  g_task_return_boolean (task, TRUE);
}

static void
reuse_done_cb (GObject      *source_object,
               GAsyncResult *result,
               gpointer      user_data)
{
  CgHarvester *self = CG_HARVESTER (source_object);

  self->reusing = FALSE;
  cg_crawler_start (self->crawler);
  if (self->pause_requested)
    cg_crawler_pause (self->crawler);
  if (self->stop_requested)
    cg_crawler_stop (self->crawler);
}

/**
 * cg_harvester_start:
 *
 * Starts the harvest. A first harvest reads the learning crawl's pages
 * back in a worker thread first (see load_reusable()), then starts the
 * crawl; stopping or pausing meanwhile applies when it starts.
 */
void
cg_harvester_start (CgHarvester *self)
{
  g_return_if_fail (CG_IS_HARVESTER (self));

  if (self->reusing)
    return;
  if (self->reused != NULL && !self->reuse_done)
    {
      g_autoptr(GTask) task = g_task_new (self, NULL, reuse_done_cb, NULL);

      self->reusing = TRUE;
      g_task_set_source_tag (task, cg_harvester_start);
      g_task_run_in_thread (task, reuse_thread_cb);
      return;
    }
  cg_crawler_start (self->crawler);
}

void
cg_harvester_stop (CgHarvester *self)
{
  g_return_if_fail (CG_IS_HARVESTER (self));
  if (self->reusing)
    self->stop_requested = TRUE;
  else
    cg_crawler_stop (self->crawler);
}

void
cg_harvester_pause (CgHarvester *self)
{
  g_return_if_fail (CG_IS_HARVESTER (self));
  if (self->reusing)
    self->pause_requested = TRUE;
  else
    cg_crawler_pause (self->crawler);
}

void
cg_harvester_unpause (CgHarvester *self)
{
  g_return_if_fail (CG_IS_HARVESTER (self));
  if (self->reusing)
    self->pause_requested = FALSE;
  else
    cg_crawler_unpause (self->crawler);
}

gboolean
cg_harvester_is_running (CgHarvester *self)
{
  g_return_val_if_fail (CG_IS_HARVESTER (self), FALSE);
  return self->reusing || cg_crawler_is_running (self->crawler);
}

CgCrawler *
cg_harvester_get_crawler (CgHarvester *self)
{
  g_return_val_if_fail (CG_IS_HARVESTER (self), NULL);
  return self->crawler;
}

CgSiteModel *
cg_harvester_get_model (CgHarvester *self)
{
  g_return_val_if_fail (CG_IS_HARVESTER (self), NULL);
  return self->model;
}

const CgHarvestOptions *
cg_harvester_get_options (CgHarvester *self)
{
  g_return_val_if_fail (CG_IS_HARVESTER (self), NULL);
  return self->options;
}

gint64
cg_harvester_get_crawl_id (CgHarvester *self)
{
  g_return_val_if_fail (CG_IS_HARVESTER (self), 0);
  return self->crawl_id;
}

gint64
cg_harvester_get_previous_crawl_id (CgHarvester *self)
{
  g_return_val_if_fail (CG_IS_HARVESTER (self), 0);
  return self->previous_crawl_id;
}

/* Meant for after "finished" (or before the start): the count is the
 * worker's, then the crawl thread's, while the harvest runs. */
guint
cg_harvester_get_n_reused (CgHarvester *self)
{
  g_return_val_if_fail (CG_IS_HARVESTER (self), 0);
  return self->n_reused;
}

guint
cg_harvester_get_n_targets (CgHarvester *self)
{
  g_return_val_if_fail (CG_IS_HARVESTER (self), 0);
  return (guint) g_atomic_int_get (&self->n_targets);
}

static int
compare_names (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}

GStrv
cg_harvester_list_classes (CgHarvester *self)
{
  g_autofree char **names = NULL;
  GStrv copy;

  g_return_val_if_fail (CG_IS_HARVESTER (self), NULL);

  g_mutex_lock (&self->lock);
  names = (char **) g_hash_table_get_keys_as_array (self->counts, NULL);
  copy = g_strdupv (names);
  g_mutex_unlock (&self->lock);
  g_qsort_with_data (copy, (gint) g_strv_length (copy), sizeof (char *), compare_names, NULL);
  return copy;
}

void
cg_harvester_get_class_counts (CgHarvester *self,
                               const char  *class_name,
                               guint       *out_pages,
                               guint       *out_records)
{
  ClassCounts *counts;

  g_return_if_fail (CG_IS_HARVESTER (self));

  g_mutex_lock (&self->lock);
  counts = g_hash_table_lookup (self->counts, class_name != NULL ? class_name : CG_HARVEST_UNCLASSIFIED);
  if (out_pages != NULL)
    *out_pages = counts != NULL ? counts->pages : 0;
  if (out_records != NULL)
    *out_records = counts != NULL ? counts->records : 0;
  g_mutex_unlock (&self->lock);
}

CgHarvestReport *
cg_harvester_get_report (CgHarvester  *self,
                         GError      **error)
{
  g_return_val_if_fail (CG_IS_HARVESTER (self), NULL);
  return cg_harvest_report_compute (self->project, self->crawl_id, self->previous_crawl_id, error);
}
