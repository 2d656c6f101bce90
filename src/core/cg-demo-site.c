/* cg-demo-site.c: the bundled demo bookshop and its ground truth.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include <libsoup/soup.h>

#include "cg-demo-site.h"

#define RESOURCE_PREFIX "/io/github/cartograph/Cartograph/demo/"

/* The site's own texts are not marked for translation: the demo site is an
 * English bookshop whatever the user's language, and its pages and ground
 * truth must be the same on every machine. Only errors for the user are. */

/* The catalogue is drawn from GRand, a Mersenne Twister whose sequence for a
 * given seed is fixed, so the site is the same on every machine. Changing
 * the seed or any count here changes the whole site and its ground truth. */
#define CATALOGUE_SEED      20251001u
#define N_AUTHORS           60
#define N_BOOKS             540
#define N_NEW_BOOKS         8
#define N_RELATED           4
#define MAX_POPULAR         8
#define MAX_TITLE_TRIES     40
#define MAX_FILL_DEPTH      4
#define MAX_QUERY_CHARS     100
#define MAX_QUERY_TERMS     8
#define PAGINATION_WINDOW   2

/* Every page but the books' says it was last changed at this instant. */
#define SITE_DATE           "2025-10-01T09:00:00Z"

typedef struct _Category Category;
typedef struct _Author   Author;
typedef struct _Book     Book;

struct _Category
{
  guint      index;
  char      *group;
  char      *kind_group;
  char      *slug;
  char      *path;
  char      *name;
  char      *description;
  char      *genre;
  guint      weight;
  GPtrArray *books;       /* Book *, by title */
};

struct _Author
{
  guint      index;
  char      *first_name;
  char      *surname;
  char      *name;
  char      *slug;
  char      *path;
  char      *initials;
  char      *city;
  guint      birth_year;
  Category  *category;    /* the one most of the author's books are in */
  char      *born;
  char      *bio[2];
  char      *count_text;
  GPtrArray *books;       /* Book *, newest first */
};

struct _Book
{
  guint      index;
  char      *title;
  char      *slug;
  char      *path;
  char      *cover_path;
  Author    *author;
  Category  *category;
  char      *publisher;
  const char *format;
  guint      year;
  guint      month;
  guint      pages;
  guint      price;       /* pence */
  guint      was_price;   /* pence, 0 when the book is not reduced */
  guint      rating;      /* tenths of a star */
  guint      reviews;
  const char *badge;      /* NULL, "New" or "Bestseller" */
  char       isbn[14];
  char      *description[2];
  char      *snippet;
  char      *price_text;
  char      *was_text;
  char      *was_value;
  char      *year_text;
  char      *published_text;
  char      *pages_text;
  char      *rating_text;
  char      *reviews_text;
  char      *haystack;    /* casefolded words that searches match */
  gint64     modified;
};

typedef struct {
  char      *path;
  char      *menu;
  char      *title;
  char      *lede;
  GPtrArray *sections;    /* GStrv: the heading, then the paragraphs */
} StaticPage;

typedef struct {
  char  *term;
  char  *path;
  guint  n_results;
} PopularSearch;

typedef enum {
  ROUTE_HOME,
  ROUTE_STATIC,
  ROUTE_CATEGORY,
  ROUTE_AUTHOR,
  ROUTE_AUTHOR_INDEX,
  ROUTE_BOOK,
  ROUTE_COVER,
  ROUTE_SEARCH,
  ROUTE_STYLESHEET,
  ROUTE_FAVICON,
  ROUTE_ROBOTS,
  ROUTE_SITEMAP,
} RouteKind;

typedef struct {
  RouteKind kind;
  gpointer  target;
} Route;

/* What one rendering adds to the ground truth; both members may be NULL
 * when only the HTML is wanted. */
typedef struct {
  JsonArray  *records;
  JsonObject *item;
} Truth;

struct _CgDemoSite
{
  GObject     parent_instance;

  GKeyFile   *words;
  GRand      *rand;

  char       *shop_name;
  char       *tagline;
  guint       shop_year;
  gint64      site_modified;
  GHashTable *revisions;       /* path and query → revision (GUINT_TO_POINTER), see cg_demo_site_set_revision() */

  GPtrArray  *categories;      /* Category * */
  GPtrArray  *authors;         /* Author *, in the order they were made */
  GPtrArray  *authors_sorted;  /* Author *, by surname */
  GPtrArray  *books;           /* Book * */
  GPtrArray  *new_books;       /* Book *, the newest */
  GPtrArray  *static_pages;    /* StaticPage * */
  GPtrArray  *popular;         /* PopularSearch * */

  GHashTable *routes;          /* path → Route */
  GPtrArray  *truth;           /* JsonObject * */
  GHashTable *truth_by_path;   /* path and query → JsonObject */

  GBytes     *stylesheet;
  GBytes     *favicon;
};

G_DEFINE_FINAL_TYPE (CgDemoSite, cg_demo_site, G_TYPE_OBJECT)

static const char * const classes[] = {
  CG_DEMO_CLASS_HOME,
  CG_DEMO_CLASS_CATEGORY,
  CG_DEMO_CLASS_BOOK,
  CG_DEMO_CLASS_AUTHOR,
  CG_DEMO_CLASS_AUTHOR_INDEX,
  CG_DEMO_CLASS_SEARCH,
  CG_DEMO_CLASS_STATIC,
  NULL
};

/* Muted colours for the generated covers and author portraits. */
static const char * const palette[] = {
  "#1f4e5f", "#7a3b2e", "#2f5d3a", "#5b3f6e", "#8c6a2f", "#23395d",
  "#6b2f45", "#3e6259", "#9a4f27", "#40476d", "#4f5d2f", "#7d2f2f",
  "#2d5c6e", "#6a4a3c", "#355e3b", "#58355e",
};

/* ---------------------------------------------------------------------- */
/* Freeing                                                                 */

static void
category_free (gpointer data)
{
  Category *category = data;

  g_free (category->group);
  g_free (category->kind_group);
  g_free (category->slug);
  g_free (category->path);
  g_free (category->name);
  g_free (category->description);
  g_free (category->genre);
  g_ptr_array_unref (category->books);
  g_free (category);
}

static void
author_free (gpointer data)
{
  Author *author = data;

  g_free (author->first_name);
  g_free (author->surname);
  g_free (author->name);
  g_free (author->slug);
  g_free (author->path);
  g_free (author->initials);
  g_free (author->city);
  g_free (author->born);
  g_free (author->bio[0]);
  g_free (author->bio[1]);
  g_free (author->count_text);
  g_ptr_array_unref (author->books);
  g_free (author);
}

static void
book_free (gpointer data)
{
  Book *book = data;

  g_free (book->title);
  g_free (book->slug);
  g_free (book->path);
  g_free (book->cover_path);
  g_free (book->publisher);
  g_free (book->description[0]);
  g_free (book->description[1]);
  g_free (book->snippet);
  g_free (book->price_text);
  g_free (book->was_text);
  g_free (book->was_value);
  g_free (book->year_text);
  g_free (book->published_text);
  g_free (book->pages_text);
  g_free (book->rating_text);
  g_free (book->reviews_text);
  g_free (book->haystack);
  g_free (book);
}

static void
static_page_free (gpointer data)
{
  StaticPage *page = data;

  g_free (page->path);
  g_free (page->menu);
  g_free (page->title);
  g_free (page->lede);
  g_ptr_array_unref (page->sections);
  g_free (page);
}

static void
popular_search_free (gpointer data)
{
  PopularSearch *search = data;

  g_free (search->term);
  g_free (search->path);
  g_free (search);
}

void
cg_demo_response_free (CgDemoResponse *response)
{
  if (response == NULL)
    return;
  g_free (response->content_type);
  g_clear_pointer (&response->body, g_bytes_unref);
  g_free (response->etag);
  g_free (response->last_modified);
  g_free (response->location);
  g_free (response);
}

static void
cg_demo_site_finalize (GObject *object)
{
  CgDemoSite *self = CG_DEMO_SITE (object);

  g_clear_pointer (&self->words, g_key_file_unref);
  g_clear_pointer (&self->rand, g_rand_free);
  g_free (self->shop_name);
  g_free (self->tagline);
  g_clear_pointer (&self->routes, g_hash_table_unref);
  g_clear_pointer (&self->revisions, g_hash_table_unref);
  g_clear_pointer (&self->truth_by_path, g_hash_table_unref);
  g_clear_pointer (&self->truth, g_ptr_array_unref);
  g_clear_pointer (&self->new_books, g_ptr_array_unref);
  g_clear_pointer (&self->popular, g_ptr_array_unref);
  g_clear_pointer (&self->static_pages, g_ptr_array_unref);
  g_clear_pointer (&self->authors_sorted, g_ptr_array_unref);
  g_clear_pointer (&self->books, g_ptr_array_unref);
  g_clear_pointer (&self->authors, g_ptr_array_unref);
  g_clear_pointer (&self->categories, g_ptr_array_unref);
  g_clear_pointer (&self->stylesheet, g_bytes_unref);
  g_clear_pointer (&self->favicon, g_bytes_unref);

  G_OBJECT_CLASS (cg_demo_site_parent_class)->finalize (object);
}

static void
cg_demo_site_class_init (CgDemoSiteClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cg_demo_site_finalize;
}

/* ---------------------------------------------------------------------- */
/* Small helpers                                                           */

static GBytes *
load_resource (const char *name)
{
  g_autofree char *path = g_strconcat (RESOURCE_PREFIX, name, NULL);
  g_autoptr(GError) error = NULL;
  GBytes *bytes = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, &error);

  /* The resource is compiled into the library, so a missing one is a
   * broken build, not something a user could act on. */
  if (bytes == NULL)
    g_error ("The demo site resource %s is missing: %s", path, error->message);
  return bytes;
}

static GKeyFile *
load_key_file (const char *name)
{
  g_autoptr(GBytes) bytes = load_resource (name);
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autoptr(GError) error = NULL;

  g_key_file_set_list_separator (key_file, ';');
  if (!g_key_file_load_from_bytes (key_file, bytes, G_KEY_FILE_NONE, &error))
    g_error ("The demo site resource %s is not a valid key file: %s", name, error->message);
  return g_steal_pointer (&key_file);
}

static char *
slugify (const char *text)
{
  GString *slug = g_string_new (NULL);
  gboolean dash = FALSE;

  for (const char *p = text; *p != '\0'; p++)
    {
      if (g_ascii_isalnum (*p))
        {
          if (dash && slug->len > 0)
            g_string_append_c (slug, '-');
          g_string_append_c (slug, g_ascii_tolower (*p));
          dash = FALSE;
        }
      else if (*p != '\'')
        dash = TRUE;
    }
  return g_string_free (slug, FALSE);
}

static char *
format_pounds (guint pence)
{
  return g_strdup_printf ("£%u.%02u", pence / 100, pence % 100);
}

static void
append_text (GString    *html,
             const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text, -1);

  g_string_append (html, escaped);
}

/* The field of a ground-truth record or item: the text exactly as the page
 * shows it. */
static void
set_field (JsonObject *object,
           const char *name,
           const char *value)
{
  if (object != NULL && value != NULL)
    json_object_set_string_member (object, name, value);
}

static char *
http_date (gint64 unix_time)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_utc (unix_time);

  return soup_date_time_to_string (time, SOUP_DATE_HTTP);
}

static gint
compare_books_by_title (gconstpointer a,
                        gconstpointer b)
{
  const Book *x = *(const Book * const *) a;
  const Book *y = *(const Book * const *) b;
  int order = g_ascii_strcasecmp (x->title, y->title);

  return order != 0 ? order : (int) x->index - (int) y->index;
}

static gint
compare_books_newest_first (gconstpointer a,
                            gconstpointer b)
{
  const Book *x = *(const Book * const *) a;
  const Book *y = *(const Book * const *) b;
  guint dx = x->year * 12 + x->month;
  guint dy = y->year * 12 + y->month;

  if (dx != dy)
    return dx > dy ? -1 : 1;
  return compare_books_by_title (a, b);
}

static gint
compare_authors (gconstpointer a,
                 gconstpointer b)
{
  const Author *x = *(const Author * const *) a;
  const Author *y = *(const Author * const *) b;
  int order = g_ascii_strcasecmp (x->surname, y->surname);

  if (order == 0)
    order = g_ascii_strcasecmp (x->first_name, y->first_name);
  return order != 0 ? order : (int) x->index - (int) y->index;
}

static guint
n_pages_for (guint n_items,
             guint page_size)
{
  return MAX (1, (n_items + page_size - 1) / page_size);
}

/* What page @page (from 1) of a paginated list of @n_items shows: the
 * items from @first to before @last, of @n_pages pages in all. */
typedef struct {
  guint first;
  guint last;
  guint n_pages;
} PageSpan;

static PageSpan
page_span (guint n_items,
           guint page_size,
           guint page)
{
  PageSpan span = { .first = (page - 1) * page_size, .n_pages = n_pages_for (n_items, page_size) };

  span.last = MIN (n_items, span.first + page_size);
  return span;
}

/* The title of page @page of the list called @name. */
static char *
page_title (const char *name,
            guint       page)
{
  return page > 1 ? g_strdup_printf ("%s, page %u", name, page) : g_strdup (name);
}

/* The link to page @page of a paginated list whose first page is
 * @first_page: page 1 is always linked by its canonical path. */
static char *
page_href (const char *first_page,
           guint       page)
{
  if (page <= 1)
    return g_strdup (first_page);
  return g_strdup_printf ("%s%spage=%u", first_page,
                          strchr (first_page, '?') != NULL ? "&" : "?", page);
}

/* ---------------------------------------------------------------------- */
/* Generating the catalogue                                                */

static guint
pick_index (CgDemoSite *self,
            guint       n)
{
  return (guint) g_rand_int_range (self->rand, 0, (gint32) n);
}

static char *
pick_word (CgDemoSite         *self,
           const char * const *groups,
           const char         *list)
{
  for (guint i = 0; groups[i] != NULL; i++)
    {
      g_auto(GStrv) words = NULL;
      gsize n = 0;

      words = g_key_file_get_string_list (self->words, groups[i], list, &n, NULL);
      if (words != NULL && n > 0)
        return g_strdup (words[pick_index (self, n)]);
    }
  g_critical ("The demo catalogue has no word list “%s”", list);
  return g_strdup (list);
}

/* Replaces every {name} in @pattern with a value of @specials or a random
 * word from the list @name of the first of @groups that has it. */
static char *
fill (CgDemoSite         *self,
      const char * const *groups,
      GHashTable         *specials,
      const char         *pattern,
      guint               depth)
{
  GString *out = g_string_new (NULL);
  const char *p = pattern;

  while (*p != '\0')
    {
      const char *open = strchr (p, '{');
      const char *close = open != NULL ? strchr (open, '}') : NULL;
      g_autofree char *name = NULL;
      const char *special;

      if (open == NULL || close == NULL)
        {
          g_string_append (out, p);
          break;
        }
      g_string_append_len (out, p, open - p);
      name = g_strndup (open + 1, close - open - 1);
      special = specials != NULL ? g_hash_table_lookup (specials, name) : NULL;
      if (special != NULL)
        g_string_append (out, special);
      else
        {
          g_autofree char *word = pick_word (self, groups, name);

          if (depth < MAX_FILL_DEPTH && strchr (word, '{') != NULL)
            {
              g_autofree char *filled = fill (self, groups, specials, word, depth + 1);
              g_string_append (out, filled);
            }
          else
            g_string_append (out, word);
        }
      p = close + 1;
    }
  return g_string_free (out, FALSE);
}

static char *
fill_from (CgDemoSite         *self,
           const char * const *groups,
           GHashTable         *specials,
           const char         *list)
{
  g_autofree char *pattern = pick_word (self, groups, list);

  return fill (self, groups, specials, pattern, 0);
}

static void
load_categories (CgDemoSite *self)
{
  g_auto(GStrv) groups = g_key_file_get_groups (self->words, NULL);

  for (guint i = 0; groups[i] != NULL; i++)
    {
      Category *category;
      g_autofree char *kind = NULL;

      if (!g_str_has_prefix (groups[i], "category "))
        continue;
      category = g_new0 (Category, 1);
      category->index = self->categories->len;
      category->group = g_strdup (groups[i]);
      category->name = g_key_file_get_string (self->words, groups[i], "name", NULL);
      category->slug = g_key_file_get_string (self->words, groups[i], "slug", NULL);
      category->description = g_key_file_get_string (self->words, groups[i], "description", NULL);
      category->genre = g_key_file_get_string (self->words, groups[i], "genre", NULL);
      kind = g_key_file_get_string (self->words, groups[i], "kind", NULL);
      category->weight = (guint) MAX (1, g_key_file_get_integer (self->words, groups[i], "weight", NULL));
      if (category->name == NULL || category->slug == NULL || category->description == NULL
          || category->genre == NULL || kind == NULL)
        g_error ("The demo catalogue's group [%s] is incomplete", groups[i]);
      category->kind_group = g_strconcat ("kind ", kind, NULL);
      category->path = g_strdup_printf ("/category/%s/", category->slug);
      category->books = g_ptr_array_new ();
      g_ptr_array_add (self->categories, category);
    }
  if (self->categories->len < 2)
    g_error ("The demo catalogue has fewer than two categories");
}

static Category *
pick_category (CgDemoSite *self)
{
  guint total = 0;
  guint n;

  for (guint i = 0; i < self->categories->len; i++)
    total += ((Category *) self->categories->pdata[i])->weight;
  n = pick_index (self, total);
  for (guint i = 0; i < self->categories->len; i++)
    {
      Category *category = self->categories->pdata[i];

      if (n < category->weight)
        return category;
      n -= category->weight;
    }
  g_assert_not_reached ();
}

static void
make_authors (CgDemoSite *self)
{
  static const char * const groups[] = { "authors", "words", NULL };
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < N_AUTHORS; i++)
    {
      Author *author = g_new0 (Author, 1);
      g_autoptr(GHashTable) specials = g_hash_table_new (g_str_hash, g_str_equal);
      g_autofree char *birth_year = NULL;
      g_autofree char *opening = NULL;
      g_autofree char *middle = NULL;

      author->index = i;
      do
        {
          g_clear_pointer (&author->first_name, g_free);
          g_clear_pointer (&author->surname, g_free);
          g_clear_pointer (&author->name, g_free);
          author->first_name = pick_word (self, groups, "first-names");
          author->surname = pick_word (self, groups, "surnames");
          author->name = g_strdup_printf ("%s %s", author->first_name, author->surname);
        }
      while (g_hash_table_contains (names, author->name));
      g_hash_table_add (names, author->name);
      author->slug = slugify (author->name);
      author->path = g_strdup_printf ("/author/%s", author->slug);
      author->initials = g_strdup_printf ("%c%c", author->first_name[0], author->surname[0]);
      author->city = pick_word (self, groups, "cities");
      author->birth_year = 1941 + pick_index (self, 52);
      author->category = pick_category (self);
      author->born = g_strdup_printf ("Born %u in %s", author->birth_year, author->city);
      author->books = g_ptr_array_new ();

      birth_year = g_strdup_printf ("%u", author->birth_year);
      g_hash_table_insert (specials, (char *) "author", author->name);
      g_hash_table_insert (specials, (char *) "surname", author->surname);
      g_hash_table_insert (specials, (char *) "genre", author->category->genre);
      g_hash_table_insert (specials, (char *) "birth-city", author->city);
      g_hash_table_insert (specials, (char *) "birth-year", birth_year);
      opening = fill_from (self, groups, specials, "bios");
      middle = fill_from (self, groups, specials, "middles");
      author->bio[0] = g_strdup_printf ("%s %s", opening, middle);
      author->bio[1] = fill_from (self, groups, specials, "closers");
      g_ptr_array_add (self->authors, author);
    }
}

/* A paginated list of @n items has a last page with a single record when
 * n % size == 1, and record extraction needs at least two records a page. */
static gboolean
count_is_listable (guint n,
                   guint page_size)
{
  return n >= 2 && n % page_size != 1;
}

/* How many books each author wrote: at least two each, the rest drawn with
 * uneven weights so that a few authors are prolific, as in a real shop. */
static void
share_books_among_authors (CgDemoSite *self,
                           guint      *counts)
{
  guint weights[N_AUTHORS];
  guint total = 0;
  gboolean changed;

  for (guint i = 0; i < N_AUTHORS; i++)
    {
      guint w = pick_index (self, 6);

      weights[i] = 1 + w * w;
      total += weights[i];
      counts[i] = 2;
    }
  for (guint b = 2 * N_AUTHORS; b < N_BOOKS; b++)
    {
      guint n = pick_index (self, total);

      for (guint i = 0; i < N_AUTHORS; i++)
        {
          if (n < weights[i])
            {
              counts[i]++;
              break;
            }
          n -= weights[i];
        }
    }

  do
    {
      changed = FALSE;
      for (guint i = 0; i < N_AUTHORS; i++)
        {
          if (count_is_listable (counts[i], CG_DEMO_AUTHOR_PAGE_SIZE))
            continue;
          for (guint j = 0; j < N_AUTHORS; j++)
            {
              if (j != i && counts[j] < 10)
                {
                  counts[i]--;
                  counts[j]++;
                  changed = TRUE;
                  break;
                }
            }
        }
    }
  while (changed);
}

static void
balance_categories (CgDemoSite *self)
{
  guint counts[64] = { 0 };
  guint n_categories = self->categories->len;
  gboolean changed;

  g_assert (n_categories <= G_N_ELEMENTS (counts));
  for (guint i = 0; i < self->books->len; i++)
    counts[((Book *) self->books->pdata[i])->category->index]++;

  do
    {
      changed = FALSE;
      for (guint c = 0; c < n_categories; c++)
        {
          if (count_is_listable (counts[c], CG_DEMO_CATEGORY_PAGE_SIZE))
            continue;
          /* Move the last book of an overfull or awkward category to the
           * first category that stays listable with one more book. */
          for (guint d = 0; d < n_categories; d++)
            {
              if (d == c || !count_is_listable (counts[d] + 1, CG_DEMO_CATEGORY_PAGE_SIZE))
                continue;
              for (guint i = self->books->len; i > 0; i--)
                {
                  Book *book = self->books->pdata[i - 1];

                  if (book->category->index == c)
                    {
                      book->category = self->categories->pdata[d];
                      counts[c]--;
                      counts[d]++;
                      changed = TRUE;
                      break;
                    }
                }
              break;
            }
        }
    }
  while (changed);
}

static guint
isbn_check_digit (const char *digits)
{
  guint sum = 0;

  for (guint i = 0; i < 12; i++)
    sum += (guint) (digits[i] - '0') * (i % 2 == 0 ? 1 : 3);
  return (10 - sum % 10) % 10;
}

static void
describe_book (CgDemoSite *self,
               Book       *book)
{
  const char *groups[] = { book->category->group, book->category->kind_group, "words", NULL };
  g_autoptr(GHashTable) specials = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *opening = NULL;
  g_autofree char *middle = NULL;

  g_hash_table_insert (specials, (char *) "title", book->title);
  g_hash_table_insert (specials, (char *) "author", book->author->name);
  g_hash_table_insert (specials, (char *) "surname", book->author->surname);
  g_hash_table_insert (specials, (char *) "genre", book->category->genre);
  opening = fill_from (self, groups, specials, "openers");
  middle = fill_from (self, groups, specials, "middles");
  book->snippet = g_strdup (opening);
  book->description[0] = g_strdup_printf ("%s %s", opening, middle);
  book->description[1] = fill_from (self, groups, specials, "closers");
}

static void
make_book (CgDemoSite *self,
           Book       *book,
           GHashTable *slugs,
           GHashTable *titles)
{
  const char *groups[] = { book->category->group, "words", NULL };
  g_auto(GStrv) months = g_key_file_get_string_list (self->words, "words", "months", NULL, NULL);
  const char *kind = book->category->kind_group;
  g_autofree char *haystack = NULL;
  guint format_roll;
  char digits[13];

  for (guint tries = 0; ; tries++)
    {
      g_clear_pointer (&book->title, g_free);
      book->title = fill_from (self, groups, NULL, "titles");
      if (!g_hash_table_contains (titles, book->title) || tries >= MAX_TITLE_TRIES)
        break;
    }
  g_hash_table_add (titles, book->title);
  book->slug = slugify (book->title);
  if (g_hash_table_contains (slugs, book->slug))
    {
      /* Two authors may well write books of one title; the shop tells them
       * apart by the author, as real shops do. */
      g_autofree char *author_slug = slugify (book->author->surname);
      char *slug = g_strdup_printf ("%s-%s", book->slug, author_slug);

      g_free (book->slug);
      book->slug = slug;
      if (g_hash_table_contains (slugs, book->slug))
        {
          slug = g_strdup_printf ("%s-%u", book->slug, book->index);
          g_free (book->slug);
          book->slug = slug;
        }
    }
  g_hash_table_add (slugs, book->slug);
  book->path = g_strdup_printf ("/book/%s", book->slug);
  book->cover_path = g_strdup_printf ("/cover/%s.svg", book->slug);

  book->publisher = pick_word (self, groups, "publishers");
  if (pick_index (self, 100) < 14)
    {
      book->year = self->shop_year;
      book->month = 1 + pick_index (self, 9);
    }
  else
    {
      book->year = self->shop_year - 1 - pick_index (self, 30);
      book->month = 1 + pick_index (self, 12);
    }

  if (g_str_equal (kind, "kind children"))
    book->pages = 24 + 8 * pick_index (self, 18);
  else if (g_str_equal (kind, "kind poetry"))
    book->pages = 48 + 4 * pick_index (self, 24);
  else
    book->pages = 160 + 8 * pick_index (self, 60);

  format_roll = pick_index (self, 10);
  if (format_roll < 6)
    {
      book->format = "Paperback";
      book->price = 699 + 100 * pick_index (self, 9);
    }
  else if (format_roll < 9)
    {
      book->format = "Hardback";
      book->price = 1499 + 100 * pick_index (self, 16);
    }
  else
    {
      book->format = "Ebook";
      book->price = 399 + 100 * pick_index (self, 6);
    }

  book->rating = 31 + pick_index (self, 20);
  book->reviews = 2 + pick_index (self, 480);
  if (book->year == self->shop_year)
    book->badge = "New";
  else if (book->reviews >= 330 && book->rating >= 44)
    book->badge = "Bestseller";

  g_snprintf (digits, sizeof digits, "9781%03u%05u",
              200 + 7 * pick_index (self, 100), book->index * 13 + pick_index (self, 13));
  g_snprintf (book->isbn, sizeof book->isbn, "%s%u", digits, isbn_check_digit (digits));

  book->modified = self->site_modified - (gint64) pick_index (self, 300) * 86400
                   - (gint64) pick_index (self, 86400);

  describe_book (self, book);

  book->price_text = format_pounds (book->price);
  book->year_text = g_strdup_printf ("%u", book->year);
  book->published_text = g_strdup_printf ("%s %u", months[book->month - 1], book->year);
  book->pages_text = g_strdup_printf ("%u", book->pages);
  book->rating_text = g_strdup_printf ("%u.%u", book->rating / 10, book->rating % 10);
  book->reviews_text = g_strdup_printf ("%u reviews", book->reviews);
  haystack = g_strjoin (" ", book->title, book->author->name, book->category->name, NULL);
  book->haystack = g_utf8_casefold (haystack, -1);
}

static void
set_book_prices_text (Book *book)
{
  g_clear_pointer (&book->was_text, g_free);
  g_clear_pointer (&book->was_value, g_free);
  if (book->was_price != 0)
    {
      book->was_text = format_pounds (book->was_price);
      book->was_value = g_strdup_printf ("%u.%02u", book->was_price / 100, book->was_price % 100);
    }
}

static void
make_books (CgDemoSite *self)
{
  guint counts[N_AUTHORS];
  g_autoptr(GHashTable) slugs = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) titles = g_hash_table_new (g_str_hash, g_str_equal);

  share_books_among_authors (self, counts);
  for (guint a = 0; a < N_AUTHORS; a++)
    {
      Author *author = self->authors->pdata[a];

      for (guint k = 0; k < counts[a]; k++)
        {
          Book *book = g_new0 (Book, 1);

          book->index = self->books->len;
          book->author = author;
          book->category = pick_index (self, 4) == 0 ? pick_category (self) : author->category;
          g_ptr_array_add (self->books, book);
          g_ptr_array_add (author->books, book);
        }
    }
  balance_categories (self);

  for (guint i = 0; i < self->books->len; i++)
    {
      Book *book = self->books->pdata[i];

      make_book (self, book, slugs, titles);
      g_ptr_array_add (book->category->books, book);
    }

  for (guint i = 0; i < self->categories->len; i++)
    g_ptr_array_sort (((Category *) self->categories->pdata[i])->books, compare_books_by_title);
  for (guint i = 0; i < self->authors->len; i++)
    {
      Author *author = self->authors->pdata[i];

      g_ptr_array_sort (author->books, compare_books_newest_first);
      author->count_text = g_strdup_printf (author->books->len == 1 ? "%u book" : "%u books",
                                            author->books->len);
    }

  /* Views of arrays that own their elements, so with no free function. */
  self->authors_sorted = g_ptr_array_new ();
  g_ptr_array_extend (self->authors_sorted, self->authors, NULL, NULL);
  g_ptr_array_sort (self->authors_sorted, compare_authors);

  self->new_books = g_ptr_array_new ();
  g_ptr_array_extend (self->new_books, self->books, NULL, NULL);
  g_ptr_array_sort (self->new_books, compare_books_newest_first);
  g_ptr_array_set_size (self->new_books, MIN (N_NEW_BOOKS, self->new_books->len));
}

static void
load_static_pages (CgDemoSite *self)
{
  g_autoptr(GKeyFile) pages = load_key_file ("pages.ini");
  g_auto(GStrv) groups = g_key_file_get_groups (pages, NULL);

  for (guint i = 0; groups[i] != NULL; i++)
    {
      StaticPage *page = g_new0 (StaticPage, 1);
      g_auto(GStrv) sections = NULL;

      page->path = g_key_file_get_string (pages, groups[i], "path", NULL);
      page->menu = g_key_file_get_string (pages, groups[i], "menu", NULL);
      page->title = g_key_file_get_string (pages, groups[i], "title", NULL);
      page->lede = g_key_file_get_string (pages, groups[i], "lede", NULL);
      sections = g_key_file_get_string_list (pages, groups[i], "sections", NULL, NULL);
      if (page->path == NULL || page->menu == NULL || page->title == NULL
          || page->lede == NULL || sections == NULL)
        g_error ("The demo site's page [%s] is incomplete", groups[i]);
      page->sections = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
      for (guint s = 0; sections[s] != NULL; s++)
        g_ptr_array_add (page->sections, g_strsplit (sections[s], "|", -1));
      g_ptr_array_add (self->static_pages, page);
    }
}

/* ---------------------------------------------------------------------- */
/* Search                                                                  */

/* The query as the shop understands it: valid UTF-8, whitespace collapsed,
 * at most MAX_QUERY_CHARS characters. */
static char *
normalize_query (const char *query)
{
  g_autofree char *valid = g_utf8_make_valid (query != NULL ? query : "", -1);
  g_auto(GStrv) words = g_strsplit_set (valid, " \t\r\n\f\v", -1);
  GString *out = g_string_new (NULL);

  for (guint i = 0; words[i] != NULL; i++)
    {
      if (words[i][0] == '\0')
        continue;
      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, words[i]);
    }
  if (g_utf8_strlen (out->str, -1) > MAX_QUERY_CHARS)
    g_string_truncate (out, g_utf8_offset_to_pointer (out->str, MAX_QUERY_CHARS) - out->str);
  return g_string_free (out, FALSE);
}

/* The books matching every word of @query: books whose title matches come
 * first, then the rest, each group by title. */
static GPtrArray *
search_books (CgDemoSite *self,
              const char *query)
{
  g_autofree char *folded = g_utf8_casefold (query, -1);
  g_auto(GStrv) terms = g_strsplit (folded, " ", MAX_QUERY_TERMS + 1);
  g_autoptr(GPtrArray) in_title = g_ptr_array_new ();
  g_autoptr(GPtrArray) others = g_ptr_array_new ();
  GPtrArray *results = g_ptr_array_new ();
  guint n_terms = MIN (g_strv_length (terms), MAX_QUERY_TERMS);

  if (n_terms == 0 || terms[0][0] == '\0')
    return results;
  for (guint i = 0; i < self->books->len; i++)
    {
      Book *book = self->books->pdata[i];
      g_autofree char *title = NULL;
      gboolean all = TRUE;
      gboolean title_all = TRUE;

      for (guint t = 0; t < n_terms && all; t++)
        all = strstr (book->haystack, terms[t]) != NULL;
      if (!all)
        continue;
      title = g_utf8_casefold (book->title, -1);
      for (guint t = 0; t < n_terms && title_all; t++)
        title_all = strstr (title, terms[t]) != NULL;
      g_ptr_array_add (title_all ? in_title : others, book);
    }
  g_ptr_array_sort (in_title, compare_books_by_title);
  g_ptr_array_sort (others, compare_books_by_title);
  g_ptr_array_extend (results, in_title, NULL, NULL);
  g_ptr_array_extend (results, others, NULL, NULL);
  return results;
}

static char *
search_href (const char *query)
{
  g_autofree char *escaped = g_uri_escape_string (query, NULL, FALSE);

  return g_strdup_printf ("/search?q=%s", escaped);
}

static void
choose_popular_searches (CgDemoSite *self)
{
  g_auto(GStrv) terms = g_key_file_get_string_list (self->words, "shop", "popular-searches", NULL, NULL);

  for (guint i = 0; terms != NULL && terms[i] != NULL && self->popular->len < MAX_POPULAR; i++)
    {
      g_autoptr(GPtrArray) results = search_books (self, terms[i]);
      PopularSearch *search;

      /* Only searches whose every results page lists two books or more. */
      if (!count_is_listable (results->len, CG_DEMO_SEARCH_PAGE_SIZE))
        continue;
      search = g_new0 (PopularSearch, 1);
      search->term = g_strdup (terms[i]);
      search->path = search_href (terms[i]);
      search->n_results = results->len;
      g_ptr_array_add (self->popular, search);
    }
}

/* ---------------------------------------------------------------------- */
/* Optional fields                                                         */

typedef struct {
  GPtrArray *books;
  gboolean   shows_badge;
} ListPage;

static void
list_page_free (gpointer data)
{
  ListPage *page = data;

  g_ptr_array_unref (page->books);
  g_free (page);
}

static void
add_list_pages (GPtrArray *pages,
                GPtrArray *books,
                guint      page_size,
                gboolean   shows_badge)
{
  for (guint start = 0; start < books->len; start += page_size)
    {
      ListPage *page = g_new0 (ListPage, 1);

      page->books = g_ptr_array_new ();
      for (guint i = start; i < MIN (books->len, start + page_size); i++)
        g_ptr_array_add (page->books, books->pdata[i]);
      page->shows_badge = shows_badge;
      g_ptr_array_add (pages, page);
    }
}

/* Record extraction recognises a field by its repetition on the page, so a
 * reduced price that only one record of a list page shows could not be
 * found. Promotions therefore reduce books in groups: the books of one
 * author that share a category page and an author page are reduced
 * together, which shows each reduced price on those two pages at least
 * twice. */
static void
promote_books (CgDemoSite *self)
{
  for (guint a = 0; a < self->authors->len; a++)
    {
      Author *author = self->authors->pdata[a];
      g_autoptr(GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                            (GDestroyNotify) g_ptr_array_unref);
      g_autoptr(GPtrArray) keys = g_ptr_array_new ();

      for (guint i = 0; i < author->books->len; i++)
        {
          Book *book = author->books->pdata[i];
          guint position = 0;
          char *key;
          GPtrArray *group;

          g_ptr_array_find (book->category->books, book, &position);
          key = g_strdup_printf ("%u/%u/%u", book->category->index,
                                 position / CG_DEMO_CATEGORY_PAGE_SIZE, i / CG_DEMO_AUTHOR_PAGE_SIZE);
          group = g_hash_table_lookup (groups, key);
          if (group == NULL)
            {
              group = g_ptr_array_new ();
              g_hash_table_insert (groups, key, group);
              g_ptr_array_add (keys, key);
            }
          else
            g_free (key);
          g_ptr_array_add (group, book);
        }

      /* In the order the groups were met, so that the draws are the same
       * on every run. */
      for (guint k = 0; k < keys->len; k++)
        {
          GPtrArray *group = g_hash_table_lookup (groups, keys->pdata[k]);

          if (group->len < 2 || pick_index (self, 100) >= 40)
            continue;
          for (guint i = 0; i < group->len; i++)
            {
              Book *book = group->pdata[i];

              book->was_price = book->price + 200 + 100 * pick_index (self, 6);
            }
        }
    }
}

/* Other list pages (the home page, search results) and the badges may
 * still show an optional field on a single record. The shop takes such
 * lone fields away until every list page shows each optional field on no
 * record or on at least two. Fields are only ever removed, so this ends. */
static void
settle_optional_fields (CgDemoSite *self)
{
  g_autoptr(GPtrArray) pages = g_ptr_array_new_with_free_func (list_page_free);
  gboolean changed;

  add_list_pages (pages, self->new_books, self->new_books->len, TRUE);
  for (guint i = 0; i < self->categories->len; i++)
    add_list_pages (pages, ((Category *) self->categories->pdata[i])->books,
                    CG_DEMO_CATEGORY_PAGE_SIZE, TRUE);
  for (guint i = 0; i < self->authors->len; i++)
    add_list_pages (pages, ((Author *) self->authors->pdata[i])->books,
                    CG_DEMO_AUTHOR_PAGE_SIZE, TRUE);
  for (guint i = 0; i < self->popular->len; i++)
    {
      g_autoptr(GPtrArray) results = search_books (self, ((PopularSearch *) self->popular->pdata[i])->term);

      add_list_pages (pages, results, CG_DEMO_SEARCH_PAGE_SIZE, FALSE);
    }

  do
    {
      changed = FALSE;
      for (guint p = 0; p < pages->len; p++)
        {
          ListPage *page = pages->pdata[p];
          Book *lone_was = NULL;
          Book *lone_badge = NULL;
          guint n_was = 0;
          guint n_badge = 0;

          for (guint i = 0; i < page->books->len; i++)
            {
              Book *book = page->books->pdata[i];

              if (book->was_price != 0)
                {
                  n_was++;
                  lone_was = book;
                }
              if (book->badge != NULL)
                {
                  n_badge++;
                  lone_badge = book;
                }
            }
          if (n_was == 1)
            {
              lone_was->was_price = 0;
              changed = TRUE;
            }
          if (page->shows_badge && n_badge == 1)
            {
              lone_badge->badge = NULL;
              changed = TRUE;
            }
        }
    }
  while (changed);

  for (guint i = 0; i < self->books->len; i++)
    set_book_prices_text (self->books->pdata[i]);
}

/* ---------------------------------------------------------------------- */
/* Rendering                                                               */

static void
page_begin (CgDemoSite *self,
            GString    *html,
            const char *klass,
            const char *title,
            const char *query)
{
  g_string_append (html,
                   "<!DOCTYPE html>\n"
                   "<html lang=\"en-GB\">\n"
                   "<head>\n"
                   "<meta charset=\"utf-8\">\n"
                   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                   "<title>");
  append_text (html, title);
  g_string_append (html, " | ");
  append_text (html, self->shop_name);
  g_string_append (html,
                   "</title>\n"
                   "<link rel=\"stylesheet\" href=\"/static/style.css\">\n"
                   "<link rel=\"icon\" href=\"/static/favicon.svg\" type=\"image/svg+xml\">\n"
                   "</head>\n");
  g_string_append_printf (html, "<body class=\"page-%s\">\n", klass);
  g_string_append (html,
                   "<header class=\"site-header\">\n"
                   "<div class=\"masthead\">\n"
                   "<a class=\"logo\" href=\"/\">");
  append_text (html, self->shop_name);
  g_string_append (html, "</a>\n<p class=\"tagline\">");
  append_text (html, self->tagline);
  g_string_append (html,
                   "</p>\n"
                   "<form class=\"site-search\" action=\"/search\" method=\"get\" role=\"search\">\n"
                   "<input type=\"search\" name=\"q\" aria-label=\"Search the catalogue\" "
                   "placeholder=\"Title, author or subject\" value=\"");
  append_text (html, query != NULL ? query : "");
  g_string_append (html,
                   "\">\n"
                   "<button type=\"submit\">Search</button>\n"
                   "</form>\n"
                   "<a class=\"basket\" href=\"/cart/\">Basket</a>\n"
                   "</div>\n"
                   "<nav class=\"site-menu\" aria-label=\"Main menu\">\n<ul>\n"
                   "<li><a href=\"/\">Home</a></li>\n");
  for (guint i = 0; i < self->categories->len; i++)
    {
      Category *category = self->categories->pdata[i];

      g_string_append_printf (html, "<li><a href=\"%s\">", category->path);
      append_text (html, category->name);
      g_string_append (html, "</a></li>\n");
    }
  g_string_append (html,
                   "<li><a href=\"/authors/\">Authors</a></li>\n"
                   "</ul>\n</nav>\n"
                   "</header>\n");
  g_string_append_printf (html, "<main class=\"content %s\">\n", klass);
}

static void
page_end (CgDemoSite *self,
          GString    *html)
{
  g_string_append (html,
                   "</main>\n"
                   "<footer class=\"site-footer\">\n"
                   "<div class=\"footer-columns\">\n"
                   "<section class=\"footer-help\">\n<h2>Help and information</h2>\n<ul>\n");
  for (guint i = 0; i < self->static_pages->len; i++)
    {
      StaticPage *page = self->static_pages->pdata[i];

      g_string_append_printf (html, "<li><a href=\"%s\">", page->path);
      append_text (html, page->menu);
      g_string_append (html, "</a></li>\n");
    }
  g_string_append (html,
                   "</ul>\n</section>\n"
                   "<section class=\"footer-popular\">\n<h2>Popular searches</h2>\n<ul>\n");
  for (guint i = 0; i < self->popular->len; i++)
    {
      PopularSearch *search = self->popular->pdata[i];

      g_string_append (html, "<li><a href=\"");
      append_text (html, search->path);
      g_string_append (html, "\">");
      append_text (html, search->term);
      g_string_append (html, "</a></li>\n");
    }
  g_string_append (html,
                   "</ul>\n</section>\n"
                   "<section class=\"footer-visit\">\n<h2>Visit the shop</h2>\n"
                   "<p>14 Lantern Lane, Harbourside, Portland PL4 7QX</p>\n"
                   "<p>Monday to Saturday 9 am to 6 pm, Sunday 11 am to 4 pm</p>\n"
                   "</section>\n"
                   "</div>\n"
                   "<p class=\"copyright\">");
  g_string_append_printf (html, "© %u ", self->shop_year);
  append_text (html, self->shop_name);
  g_string_append (html,
                   " Ltd. A demonstration shop made for Cartograph: nothing here is for sale.</p>\n"
                   "</footer>\n"
                   "</body>\n"
                   "</html>\n");
}

/* Breadcrumbs: @n_links pairs of (href, text), then the current page. */
static void
append_breadcrumbs (GString    *html,
                    const char *current,
                    guint       n_links,
                    ...)
{
  va_list args;

  g_string_append (html,
                   "<nav class=\"breadcrumbs\" aria-label=\"Breadcrumbs\">\n<ol>\n"
                   "<li><a href=\"/\">Home</a></li>\n");
  va_start (args, n_links);
  for (guint i = 0; i < n_links; i++)
    {
      const char *href = va_arg (args, const char *);
      const char *text = va_arg (args, const char *);

      g_string_append_printf (html, "<li><a href=\"%s\">", href);
      append_text (html, text);
      g_string_append (html, "</a></li>\n");
    }
  va_end (args);
  g_string_append (html, "<li aria-current=\"page\">");
  append_text (html, current);
  g_string_append (html, "</li>\n</ol>\n</nav>\n");
}

static void
append_pagination (GString    *html,
                   const char *first_page,
                   guint       page,
                   guint       n_pages)
{
  g_autofree char *prev = page_href (first_page, page - 1);
  g_autofree char *next = page_href (first_page, page + 1);
  gboolean gap = FALSE;

  g_string_append (html, "<nav class=\"pagination\" aria-label=\"Pages\">\n");
  if (page > 1)
    {
      g_string_append (html, "<a class=\"page-prev\" rel=\"prev\" href=\"");
      append_text (html, prev);
      g_string_append (html, "\">Previous</a>\n");
    }
  else
    g_string_append (html, "<span class=\"page-prev disabled\">Previous</span>\n");

  g_string_append (html, "<ol class=\"page-numbers\">\n");
  for (guint p = 1; p <= n_pages; p++)
    {
      g_autofree char *href = NULL;

      /* Long result lists show the ends and a window around the page. */
      if (p != 1 && p != n_pages && (p + PAGINATION_WINDOW < page || p > page + PAGINATION_WINDOW))
        {
          if (!gap)
            g_string_append (html, "<li class=\"page-gap\">…</li>\n");
          gap = TRUE;
          continue;
        }
      gap = FALSE;
      if (p == page)
        {
          g_string_append_printf (html, "<li><span class=\"page-current\" aria-current=\"page\">%u</span></li>\n", p);
          continue;
        }
      href = page_href (first_page, p);
      g_string_append (html, "<li><a href=\"");
      append_text (html, href);
      g_string_append_printf (html, "\">%u</a></li>\n", p);
    }
  g_string_append (html, "</ol>\n");

  if (page < n_pages)
    {
      g_string_append (html, "<a class=\"page-next\" rel=\"next\" href=\"");
      append_text (html, next);
      g_string_append (html, "\">Next</a>\n");
    }
  else
    g_string_append (html, "<span class=\"page-next disabled\">Next</span>\n");
  g_string_append (html, "</nav>\n");
}

static void
append_price (GString    *html,
              JsonObject *record,
              Book       *book)
{
  g_string_append (html, "<span class=\"price\">");
  append_text (html, book->price_text);
  g_string_append (html, "</span>");
  set_field (record, "price", book->price_text);
  if (book->was_text != NULL)
    {
      g_string_append_printf (html, "<data class=\"was-price\" value=\"%s\">", book->was_value);
      append_text (html, book->was_text);
      g_string_append (html, "</data>");
      set_field (record, "was_price", book->was_text);
    }
}

/* One book in a grid of cards. Every visible text in a card is one field of
 * its record, and separators come from the stylesheet, so that the ground
 * truth is exactly what the page shows. */
static void
append_card (GString   *html,
             JsonArray *records,
             Book      *book,
             gboolean   show_author)
{
  JsonObject *record = records != NULL ? json_object_new () : NULL;

  g_string_append_printf (html,
                          "<li class=\"card\">\n"
                          "<a class=\"card-cover\" href=\"%s\" style=\"background-image: url(%s)\" "
                          "tabindex=\"-1\" aria-hidden=\"true\"></a>\n"
                          "<h3 class=\"card-title\"><a href=\"%s\">",
                          book->path, book->cover_path, book->path);
  append_text (html, book->title);
  g_string_append (html, "</a></h3>\n");
  set_field (record, "title", book->title);
  if (show_author)
    {
      g_string_append_printf (html, "<p class=\"card-author\"><a href=\"%s\">", book->author->path);
      append_text (html, book->author->name);
      g_string_append (html, "</a></p>\n");
      set_field (record, "author", book->author->name);
    }
  g_string_append_printf (html,
                          "<p class=\"card-details\"><span class=\"card-format\">%s</span>"
                          "<time class=\"card-year\" datetime=\"%s\">%s</time></p>\n",
                          book->format, book->year_text, book->year_text);
  set_field (record, "format", book->format);
  set_field (record, "year", book->year_text);
  g_string_append (html, "<div class=\"card-price\">");
  append_price (html, record, book);
  g_string_append (html, "</div>\n");
  if (book->badge != NULL)
    {
      g_string_append_printf (html, "<div class=\"card-badge\">%s</div>\n", book->badge);
      set_field (record, "badge", book->badge);
    }
  g_string_append (html, "</li>\n");
  if (record != NULL)
    json_array_add_object_element (records, record);
}

/* Page @page of a paginated list of @books: its cards, then the links to
 * the other pages of the list that starts at @first_page. */
static void
append_book_grid (GString        *html,
                  Truth          *truth,
                  GPtrArray      *books,
                  const PageSpan *span,
                  gboolean        show_author,
                  const char     *first_page,
                  guint           page)
{
  g_string_append (html, "<ul class=\"book-grid\">\n");
  for (guint i = span->first; i < span->last; i++)
    append_card (html, truth->records, books->pdata[i], show_author);
  g_string_append (html, "</ul>\n");
  append_pagination (html, first_page, page, span->n_pages);
}

static void
append_result (GString   *html,
               JsonArray *records,
               Book      *book)
{
  JsonObject *record = records != NULL ? json_object_new () : NULL;

  g_string_append_printf (html,
                          "<li class=\"result\">\n"
                          "<h2 class=\"result-title\"><a href=\"%s\">", book->path);
  append_text (html, book->title);
  g_string_append_printf (html, "</a></h2>\n<p class=\"result-meta\"><a href=\"%s\">", book->author->path);
  append_text (html, book->author->name);
  g_string_append (html, "</a><span class=\"result-category\">");
  append_text (html, book->category->name);
  g_string_append_printf (html, "</span><time datetime=\"%s\">%s</time></p>\n"
                          "<p class=\"result-snippet\">", book->year_text, book->year_text);
  append_text (html, book->snippet);
  g_string_append (html, "</p>\n<div class=\"result-price\">");
  set_field (record, "title", book->title);
  set_field (record, "author", book->author->name);
  set_field (record, "category", book->category->name);
  set_field (record, "year", book->year_text);
  set_field (record, "snippet", book->snippet);
  append_price (html, record, book);
  g_string_append (html, "</div>\n</li>\n");
  if (record != NULL)
    json_array_add_object_element (records, record);
}

static void
append_list_count (GString    *html,
                   guint       first,
                   guint       last,
                   guint       total,
                   const char *order)
{
  g_string_append_printf (html, "<p class=\"list-count\">Showing %u–%u of %u books, %s</p>\n",
                          first, last, total, order);
}

static GString *
render_home (CgDemoSite *self,
             Truth      *truth)
{
  GString *html = g_string_new (NULL);

  page_begin (self, html, CG_DEMO_CLASS_HOME, "New and recommended books", NULL);
  g_string_append (html,
                   "<section class=\"hero\">\n"
                   "<h1>Good books, chosen by people who read them</h1>\n"
                   "<p>Browse new arrivals, find your next favourite in our categories, or search "
                   "the whole shop by title, author or subject.</p>\n"
                   "</section>\n"
                   "<section class=\"new-books\">\n<h2>New this month</h2>\n<ul class=\"book-grid\">\n");
  for (guint i = 0; i < self->new_books->len; i++)
    append_card (html, truth->records, self->new_books->pdata[i], TRUE);
  g_string_append (html,
                   "</ul>\n</section>\n"
                   "<section class=\"browse\">\n<h2>Browse by category</h2>\n<ul class=\"category-tiles\">\n");
  for (guint i = 0; i < self->categories->len; i++)
    {
      Category *category = self->categories->pdata[i];

      g_string_append_printf (html, "<li><a href=\"%s\"><span class=\"tile-name\">", category->path);
      append_text (html, category->name);
      g_string_append_printf (html, "</span><span class=\"tile-count\">%u books</span></a></li>\n",
                              category->books->len);
    }
  g_string_append (html, "</ul>\n</section>\n");
  page_end (self, html);
  return html;
}

static GString *
render_category (CgDemoSite *self,
                 Category   *category,
                 guint       page,
                 Truth      *truth)
{
  GString *html = g_string_new (NULL);
  PageSpan span = page_span (category->books->len, CG_DEMO_CATEGORY_PAGE_SIZE, page);
  g_autofree char *title = page_title (category->name, page);

  page_begin (self, html, CG_DEMO_CLASS_CATEGORY, title, NULL);
  append_breadcrumbs (html, category->name, 0);
  g_string_append (html, "<header class=\"list-header\">\n<h1>");
  append_text (html, category->name);
  g_string_append (html, "</h1>\n<p class=\"list-intro\">");
  append_text (html, category->description);
  g_string_append (html, "</p>\n");
  append_list_count (html, span.first + 1, span.last, category->books->len, "sorted by title");
  g_string_append (html, "</header>\n");
  append_book_grid (html, truth, category->books, &span, TRUE, category->path, page);
  page_end (self, html);
  return html;
}

static GString *
render_author (CgDemoSite *self,
               Author     *author,
               guint       page,
               Truth      *truth)
{
  GString *html = g_string_new (NULL);
  PageSpan span = page_span (author->books->len, CG_DEMO_AUTHOR_PAGE_SIZE, page);
  g_autofree char *title = page_title (author->name, page);

  page_begin (self, html, CG_DEMO_CLASS_AUTHOR, title, NULL);
  append_breadcrumbs (html, author->name, 1, "/authors/", "Authors");
  g_string_append_printf (html,
                          "<article class=\"author-profile\">\n"
                          "<div class=\"author-portrait\" style=\"background-color: %s\" aria-hidden=\"true\">%s</div>\n"
                          "<div class=\"author-about\">\n<h1>",
                          palette[author->index % G_N_ELEMENTS (palette)], author->initials);
  append_text (html, author->name);
  g_string_append (html, "</h1>\n<p class=\"author-born\">");
  append_text (html, author->born);
  g_string_append (html, "</p>\n");
  for (guint i = 0; i < G_N_ELEMENTS (author->bio); i++)
    {
      g_string_append (html, "<p class=\"author-bio\">");
      append_text (html, author->bio[i]);
      g_string_append (html, "</p>\n");
    }
  g_string_append (html, "</div>\n</article>\n<section class=\"author-books\">\n<h2>Books by ");
  append_text (html, author->name);
  g_string_append (html, "</h2>\n");
  append_list_count (html, span.first + 1, span.last, author->books->len, "newest first");
  append_book_grid (html, truth, author->books, &span, FALSE, author->path, page);
  g_string_append (html, "</section>\n");
  page_end (self, html);
  return html;
}

static GString *
render_author_index (CgDemoSite *self,
                     Truth      *truth)
{
  GString *html = g_string_new (NULL);

  page_begin (self, html, CG_DEMO_CLASS_AUTHOR_INDEX, "Authors A to Z", NULL);
  append_breadcrumbs (html, "Authors", 0);
  g_string_append_printf (html,
                          "<header class=\"list-header\">\n<h1>Authors A to Z</h1>\n"
                          "<p class=\"list-intro\">All %u authors on our shelves, by surname.</p>\n"
                          "</header>\n<ul class=\"author-list\">\n",
                          self->authors_sorted->len);
  for (guint i = 0; i < self->authors_sorted->len; i++)
    {
      Author *author = self->authors_sorted->pdata[i];
      JsonObject *record = truth->records != NULL ? json_object_new () : NULL;

      g_string_append_printf (html, "<li class=\"author-entry\"><a href=\"%s\">", author->path);
      append_text (html, author->name);
      g_string_append (html, "</a><span class=\"author-count\">");
      append_text (html, author->count_text);
      g_string_append (html, "</span></li>\n");
      set_field (record, "name", author->name);
      set_field (record, "books", author->count_text);
      if (record != NULL)
        json_array_add_object_element (truth->records, record);
    }
  g_string_append (html, "</ul>\n");
  page_end (self, html);
  return html;
}

static void
append_fact (GString    *html,
             JsonObject *item,
             const char *label,
             const char *field,
             const char *value,
             const char *href)
{
  g_string_append_printf (html, "<dt>%s</dt><dd>", label);
  if (href != NULL)
    g_string_append_printf (html, "<a href=\"%s\">", href);
  append_text (html, value);
  if (href != NULL)
    g_string_append (html, "</a>");
  g_string_append (html, "</dd>\n");
  set_field (item, field, value);
}

static GString *
render_book (CgDemoSite *self,
             Book       *book,
             Truth      *truth)
{
  GString *html = g_string_new (NULL);
  Category *category = book->category;
  guint position = 0;
  guint n_related;

  page_begin (self, html, CG_DEMO_CLASS_BOOK, book->title, NULL);
  append_breadcrumbs (html, book->title, 1, category->path, category->name);
  g_string_append_printf (html,
                          "<article class=\"book-detail\">\n"
                          "<div class=\"book-cover\"><img src=\"%s\" alt=\"Cover of ",
                          book->cover_path);
  append_text (html, book->title);
  g_string_append (html,
                   "\" width=\"240\" height=\"360\"></div>\n"
                   "<div class=\"book-summary\">\n<h1 class=\"book-title\">");
  append_text (html, book->title);
  g_string_append_printf (html, "</h1>\n<p class=\"book-byline\">by <a href=\"%s\">", book->author->path);
  append_text (html, book->author->name);
  g_string_append_printf (html,
                          "</a></p>\n"
                          "<p class=\"book-rating\"><span class=\"stars\" style=\"width: %upx\" aria-hidden=\"true\"></span>"
                          "<span class=\"rating-value\">%s</span><span class=\"rating-count\">%s</span></p>\n",
                          book->rating * 2, book->rating_text, book->reviews_text);
  set_field (truth->item, "title", book->title);
  set_field (truth->item, "author", book->author->name);
  set_field (truth->item, "rating", book->rating_text);
  set_field (truth->item, "reviews", book->reviews_text);

  g_string_append (html, "<div class=\"buy-box\">\n<p class=\"book-price\">");
  append_price (html, truth->item, book);
  g_string_append_printf (html,
                          "</p>\n"
                          "<p class=\"stock\">In stock, usually dispatched within one working day</p>\n"
                          "<a class=\"add-to-basket\" href=\"/cart/add?book=%u\" rel=\"nofollow\">Add to basket</a>\n"
                          "</div>\n"
                          "<dl class=\"book-facts\">\n",
                          book->index + 1);
  append_fact (html, truth->item, "Publisher", "publisher", book->publisher, NULL);
  append_fact (html, truth->item, "Published", "published", book->published_text, NULL);
  append_fact (html, truth->item, "Pages", "pages", book->pages_text, NULL);
  append_fact (html, truth->item, "ISBN-13", "isbn", book->isbn, NULL);
  append_fact (html, truth->item, "Format", "format", book->format, NULL);
  append_fact (html, truth->item, "Category", "category", category->name, category->path);
  g_string_append (html,
                   "</dl>\n</div>\n</article>\n"
                   "<section class=\"book-description\">\n<h2>About this book</h2>\n");
  for (guint i = 0; i < G_N_ELEMENTS (book->description); i++)
    {
      g_string_append (html, "<p>");
      append_text (html, book->description[i]);
      g_string_append (html, "</p>\n");
    }
  g_string_append (html, "</section>\n<section class=\"related\">\n<h2>More in ");
  append_text (html, category->name);
  g_string_append (html, "</h2>\n<ul class=\"related-list\">\n");

  /* The books that follow this one on its category's shelf. */
  g_ptr_array_find (category->books, book, &position);
  n_related = MIN (N_RELATED, category->books->len - 1);
  for (guint i = 1; i <= n_related; i++)
    {
      Book *other = category->books->pdata[(position + i) % category->books->len];

      g_string_append_printf (html, "<li><a href=\"%s\"><span class=\"related-title\">", other->path);
      append_text (html, other->title);
      g_string_append (html, "</span></a><span class=\"related-author\">");
      append_text (html, other->author->name);
      g_string_append (html, "</span></li>\n");
    }
  g_string_append (html, "</ul>\n</section>\n");
  page_end (self, html);
  return html;
}

static GString *
render_static (CgDemoSite *self,
               StaticPage *page)
{
  GString *html = g_string_new (NULL);

  page_begin (self, html, CG_DEMO_CLASS_STATIC, page->title, NULL);
  append_breadcrumbs (html, page->menu, 0);
  g_string_append (html, "<article class=\"static-page\">\n<h1>");
  append_text (html, page->title);
  g_string_append (html, "</h1>\n<p class=\"lede\">");
  append_text (html, page->lede);
  g_string_append (html, "</p>\n");
  for (guint s = 0; s < page->sections->len; s++)
    {
      GStrv section = page->sections->pdata[s];

      g_string_append (html, "<section>\n<h2>");
      append_text (html, section[0]);
      g_string_append (html, "</h2>\n");
      for (guint p = 1; section[p] != NULL; p++)
        {
          g_string_append (html, "<p>");
          append_text (html, section[p]);
          g_string_append (html, "</p>\n");
        }
      g_string_append (html, "</section>\n");
    }
  g_string_append (html, "</article>\n");
  page_end (self, html);
  return html;
}

static GString *
render_search (CgDemoSite *self,
               const char *query,
               GPtrArray  *results,
               guint       page,
               Truth      *truth)
{
  GString *html = g_string_new (NULL);
  g_autofree char *title = NULL;

  if (query[0] == '\0')
    title = g_strdup ("Search");
  else if (page > 1)
    title = g_strdup_printf ("Search results for “%s”, page %u", query, page);
  else
    title = g_strdup_printf ("Search results for “%s”", query);

  page_begin (self, html, CG_DEMO_CLASS_SEARCH, title, query);
  append_breadcrumbs (html, "Search", 0);
  g_string_append (html,
                   "<header class=\"list-header\">\n<h1>Search results</h1>\n"
                   "<form class=\"search-refine\" action=\"/search\" method=\"get\">\n"
                   "<label for=\"refine-q\">Search for</label>\n"
                   "<input id=\"refine-q\" type=\"search\" name=\"q\" value=\"");
  append_text (html, query);
  g_string_append (html, "\">\n<button type=\"submit\">Search</button>\n</form>\n");

  if (query[0] == '\0')
    {
      g_string_append (html,
                       "<p class=\"list-count\">Type a title, an author or a subject to search "
                       "the whole shop.</p>\n</header>\n");
    }
  else if (results->len == 0)
    {
      g_string_append (html, "<p class=\"list-count\">No books match “");
      append_text (html, query);
      g_string_append (html, "”. Try a shorter word, or browse the categories.</p>\n</header>\n");
    }
  else
    {
      g_autofree char *first_page = search_href (query);
      PageSpan span = page_span (results->len, CG_DEMO_SEARCH_PAGE_SIZE, page);

      g_string_append_printf (html, "<p class=\"list-count\">Showing %u–%u of %u books matching “",
                              span.first + 1, span.last, results->len);
      append_text (html, query);
      g_string_append_printf (html, "”</p>\n</header>\n<ol class=\"results\" start=\"%u\">\n", span.first + 1);
      for (guint i = span.first; i < span.last; i++)
        append_result (html, truth->records, results->pdata[i]);
      g_string_append (html, "</ol>\n");
      append_pagination (html, first_page, page, span.n_pages);
    }
  page_end (self, html);
  return html;
}

static GString *
render_basket (CgDemoSite *self)
{
  GString *html = g_string_new (NULL);

  page_begin (self, html, "basket", "Your basket", NULL);
  g_string_append (html,
                   "<article class=\"static-page\">\n<h1>Your basket</h1>\n"
                   "<p class=\"lede\">This is a demonstration shop, so your basket stays empty. "
                   "Every book can be found in the shop on Lantern Lane.</p>\n"
                   "</article>\n");
  page_end (self, html);
  return html;
}

static GString *
render_error (CgDemoSite *self,
              const char *heading,
              const char *text)
{
  GString *html = g_string_new (NULL);

  page_begin (self, html, "error", heading, NULL);
  g_string_append (html, "<article class=\"static-page\">\n<h1>");
  append_text (html, heading);
  g_string_append (html, "</h1>\n<p class=\"lede\">");
  append_text (html, text);
  g_string_append (html, "</p>\n<p><a href=\"/\">Go to the home page</a></p>\n</article>\n");
  page_end (self, html);
  return html;
}

static char *
render_cover (Book *book)
{
  GString *svg = g_string_new (NULL);
  const char *background = palette[(book->category->index * 5 + book->index * 7) % G_N_ELEMENTS (palette)];
  g_auto(GStrv) words = g_strsplit (book->title, " ", -1);
  GString *line = g_string_new (NULL);
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  guint style = book->category->index % 3;
  double y;

  for (guint i = 0; words[i] != NULL; i++)
    {
      if (line->len > 0 && line->len + 1 + strlen (words[i]) > 14)
        {
          g_ptr_array_add (lines, g_strdup (line->str));
          g_string_truncate (line, 0);
        }
      if (line->len > 0)
        g_string_append_c (line, ' ');
      g_string_append (line, words[i]);
    }
  if (line->len > 0)
    g_ptr_array_add (lines, g_strdup (line->str));
  g_string_free (line, TRUE);

  g_string_append (svg,
                   "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"240\" height=\"360\" "
                   "viewBox=\"0 0 240 360\" role=\"img\" aria-label=\"");
  append_text (svg, book->title);
  g_string_append_printf (svg, "\">\n<rect width=\"240\" height=\"360\" fill=\"%s\"/>\n", background);
  for (guint i = 0; i < 5; i++)
    {
      guint k = (book->index * 31 + i * 17) % 97;

      if (style == 0)
        g_string_append_printf (svg,
                                "<circle cx=\"%u\" cy=\"%u\" r=\"%u\" fill=\"#ffffff\" fill-opacity=\"0.08\"/>\n",
                                20 + (k * 7) % 200, 200 + (k * 3) % 140, 20 + k % 60);
      else if (style == 1)
        g_string_append_printf (svg,
                                "<rect x=\"0\" y=\"%u\" width=\"240\" height=\"%u\" fill=\"#ffffff\" fill-opacity=\"0.07\"/>\n",
                                200 + i * 30, 6 + k % 14);
      else
        g_string_append_printf (svg,
                                "<path d=\"M0 %u Q60 %u 120 %u T240 %u\" stroke=\"#ffffff\" stroke-opacity=\"0.18\" "
                                "stroke-width=\"3\" fill=\"none\"/>\n",
                                220 + i * 22, 200 + i * 22 - k % 20, 220 + i * 22, 220 + i * 22);
    }
  g_string_append (svg,
                   "<rect x=\"14\" y=\"14\" width=\"212\" height=\"332\" fill=\"none\" "
                   "stroke=\"#f4ead8\" stroke-opacity=\"0.55\" stroke-width=\"2\"/>\n"
                   "<text x=\"120\" text-anchor=\"middle\" font-family=\"Georgia, serif\" "
                   "font-size=\"24\" fill=\"#f8f1e5\">\n");
  y = 90 - 14.0 * (MIN (lines->len, 5u) - 1);
  for (guint i = 0; i < MIN (lines->len, 5u); i++)
    {
      g_string_append_printf (svg, "<tspan x=\"120\" y=\"%u\">", (guint) (y + 30 * i));
      append_text (svg, lines->pdata[i]);
      g_string_append (svg, "</tspan>\n");
    }
  g_string_append (svg,
                   "</text>\n"
                   "<text x=\"120\" y=\"318\" text-anchor=\"middle\" font-family=\"Helvetica, Arial, sans-serif\" "
                   "font-size=\"15\" letter-spacing=\"1\" fill=\"#f4ead8\">");
  append_text (svg, book->author->name);
  g_string_append (svg, "</text>\n</svg>\n");
  return g_string_free (svg, FALSE);
}

static char *
render_robots (const char *base_url)
{
  return g_strdup_printf ("# Robots are welcome everywhere but in the basket.\n"
                          "User-agent: *\n"
                          "Disallow: /cart/\n"
                          "\n"
                          "Sitemap: %s/sitemap.xml\n",
                          base_url);
}

static void
append_sitemap_url (GString    *xml,
                    const char *base_url,
                    const char *path,
                    gint64      modified)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_utc (modified);
  g_autofree char *date = g_date_time_format (time, "%Y-%m-%d");

  g_string_append (xml, "<url><loc>");
  append_text (xml, base_url);
  append_text (xml, path);
  g_string_append_printf (xml, "</loc><lastmod>%s</lastmod></url>\n", date);
}

static char *
render_sitemap (CgDemoSite *self,
                const char *base_url)
{
  GString *xml = g_string_new ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                               "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");

  append_sitemap_url (xml, base_url, "/", self->site_modified);
  for (guint i = 0; i < self->static_pages->len; i++)
    append_sitemap_url (xml, base_url, ((StaticPage *) self->static_pages->pdata[i])->path, self->site_modified);
  for (guint i = 0; i < self->categories->len; i++)
    append_sitemap_url (xml, base_url, ((Category *) self->categories->pdata[i])->path, self->site_modified);
  append_sitemap_url (xml, base_url, "/authors/", self->site_modified);
  for (guint i = 0; i < self->authors_sorted->len; i++)
    append_sitemap_url (xml, base_url, ((Author *) self->authors_sorted->pdata[i])->path, self->site_modified);
  for (guint i = 0; i < self->books->len; i++)
    {
      Book *book = self->books->pdata[i];

      append_sitemap_url (xml, base_url, book->path, book->modified);
    }
  g_string_append (xml, "</urlset>\n");
  return g_string_free (xml, FALSE);
}

/* ---------------------------------------------------------------------- */
/* The ground truth                                                        */

static void
add_truth (CgDemoSite *self,
           const char *path,
           const char *klass,
           Truth      *truth)
{
  JsonObject *page = json_object_new ();

  json_object_set_string_member (page, "path", path);
  json_object_set_string_member (page, "class", klass);
  if (truth->records != NULL)
    json_object_set_array_member (page, "records", json_array_ref (truth->records));
  if (truth->item != NULL)
    json_object_set_object_member (page, "item", json_object_ref (truth->item));
  g_ptr_array_add (self->truth, page);
  g_hash_table_insert (self->truth_by_path, (char *) json_object_get_string_member (page, "path"), page);
}

/* The truth of every page of a paginated list of @n_items, @page_size a
 * page, whose first page is @first_page. */
static void
add_list_truths (CgDemoSite *self,
                 const char *first_page,
                 guint       n_items,
                 guint       page_size,
                 const char *klass,
                 GString *(*render) (CgDemoSite *, gpointer, guint, Truth *),
                 gpointer    target)
{
  guint n_pages = n_pages_for (n_items, page_size);

  for (guint p = 1; p <= n_pages; p++)
    {
      g_autofree char *path = page_href (first_page, p);
      g_autoptr(JsonArray) records = json_array_new ();
      Truth truth = { records, NULL };
      GString *html = render (self, target, p, &truth);

      g_string_free (html, TRUE);
      add_truth (self, path, klass, &truth);
    }
}

static GString *
render_category_cb (CgDemoSite *self, gpointer target, guint page, Truth *truth)
{
  return render_category (self, target, page, truth);
}

static GString *
render_author_cb (CgDemoSite *self, gpointer target, guint page, Truth *truth)
{
  return render_author (self, target, page, truth);
}

static GString *
render_popular_cb (CgDemoSite *self, gpointer target, guint page, Truth *truth)
{
  PopularSearch *search = target;
  g_autoptr(GPtrArray) results = search_books (self, search->term);

  return render_search (self, search->term, results, page, truth);
}

/* The ground truth is made by rendering every page with the very code that
 * serves it, so that a record can never say something its page does not. */
static void
build_truth (CgDemoSite *self)
{
  {
    g_autoptr(JsonArray) records = json_array_new ();
    Truth truth = { records, NULL };

    g_string_free (render_home (self, &truth), TRUE);
    add_truth (self, "/", CG_DEMO_CLASS_HOME, &truth);
  }
  for (guint i = 0; i < self->static_pages->len; i++)
    {
      Truth truth = { NULL, NULL };

      add_truth (self, ((StaticPage *) self->static_pages->pdata[i])->path, CG_DEMO_CLASS_STATIC, &truth);
    }
  for (guint i = 0; i < self->categories->len; i++)
    {
      Category *category = self->categories->pdata[i];

      add_list_truths (self, category->path, category->books->len, CG_DEMO_CATEGORY_PAGE_SIZE,
                       CG_DEMO_CLASS_CATEGORY, render_category_cb, category);
    }
  {
    g_autoptr(JsonArray) records = json_array_new ();
    Truth truth = { records, NULL };

    g_string_free (render_author_index (self, &truth), TRUE);
    add_truth (self, "/authors/", CG_DEMO_CLASS_AUTHOR_INDEX, &truth);
  }
  for (guint i = 0; i < self->authors_sorted->len; i++)
    {
      Author *author = self->authors_sorted->pdata[i];

      add_list_truths (self, author->path, author->books->len, CG_DEMO_AUTHOR_PAGE_SIZE,
                       CG_DEMO_CLASS_AUTHOR, render_author_cb, author);
    }
  for (guint i = 0; i < self->books->len; i++)
    {
      Book *book = self->books->pdata[i];
      g_autoptr(JsonObject) item = json_object_new ();
      Truth truth = { NULL, item };

      g_string_free (render_book (self, book, &truth), TRUE);
      add_truth (self, book->path, CG_DEMO_CLASS_BOOK, &truth);
    }
  for (guint i = 0; i < self->popular->len; i++)
    {
      PopularSearch *search = self->popular->pdata[i];

      add_list_truths (self, search->path, search->n_results, CG_DEMO_SEARCH_PAGE_SIZE,
                       CG_DEMO_CLASS_SEARCH, render_popular_cb, search);
    }
}

/* ---------------------------------------------------------------------- */
/* Construction                                                            */

static void
add_route (CgDemoSite *self,
           const char *path,
           RouteKind   kind,
           gpointer    target)
{
  Route *route = g_new0 (Route, 1);

  route->kind = kind;
  route->target = target;
  g_hash_table_insert (self->routes, g_strdup (path), route);
}

static void
build_routes (CgDemoSite *self)
{
  add_route (self, "/", ROUTE_HOME, NULL);
  add_route (self, "/authors/", ROUTE_AUTHOR_INDEX, NULL);
  add_route (self, "/search", ROUTE_SEARCH, NULL);
  add_route (self, "/static/style.css", ROUTE_STYLESHEET, NULL);
  add_route (self, "/static/favicon.svg", ROUTE_FAVICON, NULL);
  add_route (self, "/robots.txt", ROUTE_ROBOTS, NULL);
  add_route (self, "/sitemap.xml", ROUTE_SITEMAP, NULL);
  for (guint i = 0; i < self->static_pages->len; i++)
    add_route (self, ((StaticPage *) self->static_pages->pdata[i])->path, ROUTE_STATIC,
               self->static_pages->pdata[i]);
  for (guint i = 0; i < self->categories->len; i++)
    add_route (self, ((Category *) self->categories->pdata[i])->path, ROUTE_CATEGORY,
               self->categories->pdata[i]);
  for (guint i = 0; i < self->authors->len; i++)
    add_route (self, ((Author *) self->authors->pdata[i])->path, ROUTE_AUTHOR,
               self->authors->pdata[i]);
  for (guint i = 0; i < self->books->len; i++)
    {
      Book *book = self->books->pdata[i];

      add_route (self, book->path, ROUTE_BOOK, book);
      add_route (self, book->cover_path, ROUTE_COVER, book);
    }
}

static void
cg_demo_site_init (CgDemoSite *self)
{
  g_autoptr(GDateTime) site_date = g_date_time_new_from_iso8601 (SITE_DATE, NULL);

  self->site_modified = g_date_time_to_unix (site_date);
  self->revisions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->words = load_key_file ("catalogue.ini");
  self->rand = g_rand_new_with_seed (CATALOGUE_SEED);
  self->stylesheet = load_resource ("style.css");
  self->favicon = load_resource ("favicon.svg");
  self->shop_name = g_key_file_get_string (self->words, "shop", "name", NULL);
  self->tagline = g_key_file_get_string (self->words, "shop", "tagline", NULL);
  self->shop_year = (guint) g_key_file_get_integer (self->words, "shop", "year", NULL);
  if (self->shop_name == NULL || self->tagline == NULL || self->shop_year < 2000)
    g_error ("The demo catalogue's group [shop] is incomplete");

  self->categories = g_ptr_array_new_with_free_func (category_free);
  self->authors = g_ptr_array_new_with_free_func (author_free);
  self->books = g_ptr_array_new_with_free_func (book_free);
  self->static_pages = g_ptr_array_new_with_free_func (static_page_free);
  self->popular = g_ptr_array_new_with_free_func (popular_search_free);
  self->routes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->truth = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  self->truth_by_path = g_hash_table_new (g_str_hash, g_str_equal);

  load_categories (self);
  make_authors (self);
  make_books (self);
  load_static_pages (self);
  choose_popular_searches (self);
  promote_books (self);
  settle_optional_fields (self);
  build_routes (self);
  build_truth (self);
}

CgDemoSite *
cg_demo_site_new (void)
{
  return g_object_new (CG_TYPE_DEMO_SITE, NULL);
}

/* ---------------------------------------------------------------------- */
/* Answering requests                                                      */

static CgDemoResponse *
response_new (guint       status,
              const char *content_type,
              char       *body,
              gsize       length)
{
  CgDemoResponse *response = g_new0 (CgDemoResponse, 1);

  response->status = status;
  response->content_type = g_strdup (content_type);
  response->body = g_bytes_new_take (body, length);
  return response;
}

static CgDemoResponse *
html_response (guint    status,
               GString *html)
{
  gsize length = html->len;

  return response_new (status, "text/html; charset=utf-8", g_string_free (html, FALSE), length);
}

static CgDemoResponse *
redirect_response (CgDemoSite *self,
                   const char *location)
{
  GString *html = render_error (self, "Moved", "This page has moved.");
  CgDemoResponse *response = html_response (SOUP_STATUS_MOVED_PERMANENTLY, html);

  response->location = g_strdup (location);
  return response;
}

static CgDemoResponse *
not_found_response (CgDemoSite *self)
{
  return html_response (SOUP_STATUS_NOT_FOUND,
                        render_error (self, "Page not found",
                                      "There is no page at this address. It may have moved, "
                                      "or the link you followed may be mistyped."));
}

/* Whether @header, an If-None-Match list, names @etag. The comparison is
 * the weak one that RFC 9110 asks of If-None-Match. */
static gboolean
etag_matches (const char *header,
              const char *etag)
{
  g_auto(GStrv) tags = g_strsplit (header, ",", -1);

  for (guint i = 0; tags[i] != NULL; i++)
    {
      const char *tag = g_strstrip (tags[i]);

      if (g_str_has_prefix (tag, "W/"))
        tag += 2;
      if (g_str_equal (tag, "*") || g_str_equal (tag, etag))
        return TRUE;
    }
  return FALSE;
}

/* Adds the validators to a 200 response, or turns it into a 304 when the
 * request's conditions say the client's copy is current. */
static CgDemoResponse *
validate (CgDemoResponse *response,
          gint64          modified,
          const char     *if_none_match,
          const char     *if_modified_since)
{
  g_autofree char *digest = g_compute_checksum_for_bytes (G_CHECKSUM_SHA1, response->body);
  gboolean not_modified = FALSE;

  response->etag = g_strdup_printf ("\"%.20s\"", digest);
  response->last_modified = http_date (modified);

  if (if_none_match != NULL)
    not_modified = etag_matches (if_none_match, response->etag);
  else if (if_modified_since != NULL)
    {
      g_autoptr(GDateTime) since = soup_date_time_new_from_http_string (if_modified_since);

      not_modified = since != NULL && g_date_time_to_unix (since) >= modified;
    }
  if (not_modified)
    {
      response->status = SOUP_STATUS_NOT_MODIFIED;
      g_clear_pointer (&response->content_type, g_free);
      g_bytes_unref (response->body);
      response->body = g_bytes_new (NULL, 0);
    }
  return response;
}

/* The page number of a paginated list from its query. Returns 0 when the
 * query names a page that does not exist, and sets @canonical when it names
 * page 1, whose canonical link has no page parameter. */
static guint
parse_page (GHashTable *params,
            guint       n_pages,
            gboolean   *canonical)
{
  const char *value = params != NULL ? g_hash_table_lookup (params, "page") : NULL;
  guint64 page = 1;

  *canonical = TRUE;
  if (value == NULL)
    return 1;
  if (!g_ascii_string_to_unsigned (value, 10, 1, n_pages, &page, NULL))
    return 0;
  *canonical = page != 1;
  return (guint) page;
}

static CgDemoResponse *
respond_list (CgDemoSite *self,
              Route      *route,
              GHashTable *params)
{
  GString *html;
  guint n_items;
  guint page;
  gboolean canonical;
  const char *first_page;
  g_autoptr(GPtrArray) results = NULL;
  g_autofree char *search = NULL;
  g_autofree char *search_path = NULL;
  Truth truth = { NULL, NULL };

  switch (route->kind)
    {
    case ROUTE_CATEGORY:
      n_items = ((Category *) route->target)->books->len;
      first_page = ((Category *) route->target)->path;
      page = parse_page (params, n_pages_for (n_items, CG_DEMO_CATEGORY_PAGE_SIZE), &canonical);
      break;
    case ROUTE_AUTHOR:
      n_items = ((Author *) route->target)->books->len;
      first_page = ((Author *) route->target)->path;
      page = parse_page (params, n_pages_for (n_items, CG_DEMO_AUTHOR_PAGE_SIZE), &canonical);
      break;
    case ROUTE_SEARCH:
      search = normalize_query (params != NULL ? g_hash_table_lookup (params, "q") : NULL);
      results = search_books (self, search);
      search_path = search_href (search);
      first_page = search_path;
      page = parse_page (params, n_pages_for (results->len, CG_DEMO_SEARCH_PAGE_SIZE), &canonical);
      break;
    case ROUTE_HOME:
    case ROUTE_STATIC:
    case ROUTE_AUTHOR_INDEX:
    case ROUTE_BOOK:
    case ROUTE_COVER:
    case ROUTE_STYLESHEET:
    case ROUTE_FAVICON:
    case ROUTE_ROBOTS:
    case ROUTE_SITEMAP:
    default:
      g_assert_not_reached ();
    }

  if (page == 0)
    return not_found_response (self);
  if (!canonical)
    return redirect_response (self, first_page);

  if (route->kind == ROUTE_CATEGORY)
    html = render_category (self, route->target, page, &truth);
  else if (route->kind == ROUTE_AUTHOR)
    html = render_author (self, route->target, page, &truth);
  else
    html = render_search (self, search, results, page, &truth);
  return html_response (SOUP_STATUS_OK, html);
}

/* A page given a revision (cg_demo_site_set_revision()) says so in a
 * paragraph at the end of its main content, and was modified that many
 * hours after the rest of the site. */
static void
revise (CgDemoSite     *self,
        CgDemoResponse *response,
        const char     *path,
        const char     *query,
        gint64         *modified)
{
  g_autofree char *key = query != NULL && query[0] != '\0' ? g_strconcat (path, "?", query, NULL) : g_strdup (path);
  guint revision = GPOINTER_TO_UINT (g_hash_table_lookup (self->revisions, key));
  gsize length;
  const char *html;
  const char *end;
  GString *revised;

  if (revision == 0 || g_strcmp0 (response->content_type, "text/html; charset=utf-8") != 0)
    return;
  html = g_bytes_get_data (response->body, &length);
  end = g_strstr_len (html, (gssize) length, "</main>");
  if (end == NULL)
    return;
  revised = g_string_new_len (html, end - html);
  g_string_append_printf (revised, "<p class=\"revision\">Revised: revision %u of this page.</p>\n", revision);
  g_string_append_len (revised, end, (gssize) (length - (gsize) (end - html)));
  g_bytes_unref (response->body);
  response->body = g_string_free_to_bytes (revised);
  *modified = MAX (*modified, self->site_modified) + (gint64) revision * 3600;
}

/**
 * cg_demo_site_set_revision:
 * @self: the site
 * @path_and_query: a page's path and query, as linked on the site
 * @revision: the page's revision; 0 gives the page back its original text
 *
 * Changes a page, for tests of re-harvests: from now on the page's HTML
 * ends its main content with a paragraph naming @revision, so that its
 * payload, its ETag and its Last-Modified date change. The ground truth
 * is not changed.
 */
void
cg_demo_site_set_revision (CgDemoSite *self,
                           const char *path_and_query,
                           guint       revision)
{
  g_return_if_fail (CG_IS_DEMO_SITE (self));
  g_return_if_fail (path_and_query != NULL);

  if (revision == 0)
    g_hash_table_remove (self->revisions, path_and_query);
  else
    g_hash_table_insert (self->revisions, g_strdup (path_and_query), GUINT_TO_POINTER (revision));
}

/**
 * cg_demo_site_respond:
 * @self: the site
 * @base_url: the scheme, host and port the site is served at, for the
 *   absolute URLs of robots.txt and the sitemap, e.g. "http://127.0.0.1:8080"
 * @path: the request's path, as sent
 * @query: (nullable): the request's query, as sent
 * @if_none_match: (nullable): the request's If-None-Match header
 * @if_modified_since: (nullable): the request's If-Modified-Since header
 *
 * The site's answer to a GET request. Pages are generated on demand from
 * the catalogue; nothing here depends on earlier requests.
 *
 * Returns: (transfer full): the response
 */
CgDemoResponse *
cg_demo_site_respond (CgDemoSite *self,
                      const char *base_url,
                      const char *path,
                      const char *query,
                      const char *if_none_match,
                      const char *if_modified_since)
{
  g_autoptr(GHashTable) params = NULL;
  g_autofree char *base = NULL;
  CgDemoResponse *response = NULL;
  gint64 modified = self->site_modified;
  Route *route;

  g_return_val_if_fail (CG_IS_DEMO_SITE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  base = g_strdup (base_url != NULL ? base_url : "http://127.0.0.1");
  while (g_str_has_suffix (base, "/"))
    base[strlen (base) - 1] = '\0';

  if (query != NULL && query[0] != '\0')
    {
      params = g_uri_parse_params (query, -1, "&", G_URI_PARAMS_WWW_FORM, NULL);
      if (params == NULL)
        return html_response (SOUP_STATUS_BAD_REQUEST,
                              render_error (self, "Bad request",
                                            "The address of this page has a malformed query."));
    }

  if (g_str_equal (path, "/cart") || g_str_has_prefix (path, "/cart/"))
    return validate (html_response (SOUP_STATUS_OK, render_basket (self)), modified,
                     if_none_match, if_modified_since);

  route = g_hash_table_lookup (self->routes, path);
  if (route == NULL)
    return not_found_response (self);

  switch (route->kind)
    {
    case ROUTE_HOME:
      {
        Truth truth = { NULL, NULL };

        response = html_response (SOUP_STATUS_OK, render_home (self, &truth));
      }
      break;
    case ROUTE_STATIC:
      response = html_response (SOUP_STATUS_OK, render_static (self, route->target));
      break;
    case ROUTE_AUTHOR_INDEX:
      {
        Truth truth = { NULL, NULL };

        response = html_response (SOUP_STATUS_OK, render_author_index (self, &truth));
      }
      break;
    case ROUTE_BOOK:
      {
        Truth truth = { NULL, NULL };

        response = html_response (SOUP_STATUS_OK, render_book (self, route->target, &truth));
        modified = ((Book *) route->target)->modified;
      }
      break;
    case ROUTE_CATEGORY:
    case ROUTE_AUTHOR:
    case ROUTE_SEARCH:
      response = respond_list (self, route, params);
      break;
    case ROUTE_COVER:
      {
        char *svg = render_cover (route->target);

        response = response_new (SOUP_STATUS_OK, "image/svg+xml", svg, strlen (svg));
        modified = ((Book *) route->target)->modified;
      }
      break;
    case ROUTE_STYLESHEET:
      response = g_new0 (CgDemoResponse, 1);
      response->status = SOUP_STATUS_OK;
      response->content_type = g_strdup ("text/css; charset=utf-8");
      response->body = g_bytes_ref (self->stylesheet);
      break;
    case ROUTE_FAVICON:
      response = g_new0 (CgDemoResponse, 1);
      response->status = SOUP_STATUS_OK;
      response->content_type = g_strdup ("image/svg+xml");
      response->body = g_bytes_ref (self->favicon);
      break;
    case ROUTE_ROBOTS:
      {
        char *text = render_robots (base);

        response = response_new (SOUP_STATUS_OK, "text/plain; charset=utf-8", text, strlen (text));
      }
      break;
    case ROUTE_SITEMAP:
      {
        char *xml = render_sitemap (self, base);

        response = response_new (SOUP_STATUS_OK, "application/xml", xml, strlen (xml));
      }
      break;
    default:
      g_assert_not_reached ();
    }

  if (response->status != SOUP_STATUS_OK)
    return response;
  revise (self, response, path, query, &modified);
  return validate (response, modified, if_none_match, if_modified_since);
}

/* ---------------------------------------------------------------------- */
/* Accessors                                                               */

/**
 * cg_demo_site_get_classes:
 *
 * Returns: (transfer none): the template classes of the demo site, as a
 *   %NULL-terminated array
 */
const char * const *
cg_demo_site_get_classes (void)
{
  return classes;
}

guint
cg_demo_site_get_n_books (CgDemoSite *self)
{
  g_return_val_if_fail (CG_IS_DEMO_SITE (self), 0);
  return self->books->len;
}

guint
cg_demo_site_get_n_pages (CgDemoSite *self)
{
  g_return_val_if_fail (CG_IS_DEMO_SITE (self), 0);
  return self->truth->len;
}

/**
 * cg_demo_site_get_page:
 * @self: the site
 * @index: an index below cg_demo_site_get_n_pages()
 *
 * Returns: (transfer none): the ground truth of one page
 */
JsonObject *
cg_demo_site_get_page (CgDemoSite *self,
                       guint       index)
{
  g_return_val_if_fail (CG_IS_DEMO_SITE (self), NULL);
  g_return_val_if_fail (index < self->truth->len, NULL);
  return self->truth->pdata[index];
}

/**
 * cg_demo_site_lookup_page:
 * @self: the site
 * @path_and_query: a path with its query, as linked on the site
 *
 * Returns: (transfer none) (nullable): the ground truth of the page, or
 *   %NULL when the site links no such page
 */
JsonObject *
cg_demo_site_lookup_page (CgDemoSite *self,
                          const char *path_and_query)
{
  g_return_val_if_fail (CG_IS_DEMO_SITE (self), NULL);
  g_return_val_if_fail (path_and_query != NULL, NULL);
  return g_hash_table_lookup (self->truth_by_path, path_and_query);
}

guint
cg_demo_site_count_class (CgDemoSite *self,
                          const char *klass)
{
  guint n = 0;

  g_return_val_if_fail (CG_IS_DEMO_SITE (self), 0);
  for (guint i = 0; i < self->truth->len; i++)
    if (g_strcmp0 (json_object_get_string_member (self->truth->pdata[i], "class"), klass) == 0)
      n++;
  return n;
}

/**
 * cg_demo_site_list_popular_searches:
 * @self: the site
 *
 * Returns: (transfer full): the words of the popular searches the site's
 *   footer links to
 */
GStrv
cg_demo_site_list_popular_searches (CgDemoSite *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (CG_IS_DEMO_SITE (self), NULL);
  for (guint i = 0; i < self->popular->len; i++)
    g_strv_builder_add (builder, ((PopularSearch *) self->popular->pdata[i])->term);
  return g_strv_builder_end (builder);
}

/**
 * cg_demo_site_write_truth:
 * @self: the site
 * @out: where to write
 * @error: return location for a #GError
 *
 * Writes the ground truth as JSON Lines: one object per page, in a fixed
 * order (home, static pages, categories, the author index, authors, books,
 * searches).
 *
 * Returns: %TRUE on success
 */
gboolean
cg_demo_site_write_truth (CgDemoSite     *self,
                          GOutputStream  *out,
                          GError        **error)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  g_return_val_if_fail (CG_IS_DEMO_SITE (self), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  for (guint i = 0; i < self->truth->len; i++)
    {
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
      g_autofree char *line = NULL;
      gsize length = 0;

      json_node_set_object (node, self->truth->pdata[i]);
      json_generator_set_root (generator, node);
      line = json_generator_to_data (generator, &length);
      if (!g_output_stream_write_all (out, line, length, NULL, NULL, error)
          || !g_output_stream_write_all (out, "\n", 1, NULL, NULL, error))
        {
          g_prefix_error (error, _("Could not write the demo site’s ground truth: "));
          return FALSE;
        }
    }
  return TRUE;
}
