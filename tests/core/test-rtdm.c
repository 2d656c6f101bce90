/* test-rtdm.c: the restricted top-down tree edit distance.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <libxml/HTMLtree.h>

#include "cg-links.h"
#include "cg-rtdm.h"

static CgRtdmTree *
tree (const char *notation)
{
  g_autoptr(GError) error = NULL;
  CgRtdmTree *t = cg_rtdm_tree_new_parse (notation, &error);

  g_assert_no_error (error);
  g_assert_nonnull (t);
  return t;
}

static guint
distance (const CgRtdmTree *a,
          const CgRtdmTree *b)
{
  g_autoptr(GError) error = NULL;
  guint d = G_MAXUINT;

  g_assert_true (cg_rtdm_distance (a, b, &d, &error));
  g_assert_no_error (error);
  return d;
}

/* Distances worked out by hand, unit costs. In each comment, a pair of
 * nodes with equal labels costs the edit distance between their child
 * lists (deleting or inserting a child costs its subtree's size); a pair
 * with different labels costs 1 + (size − 1) + (size − 1), since nothing
 * below a substitution is mapped. */
static void
test_hand_worked (void)
{
  const struct {
    const char *a;
    const char *b;
    guint       distance;
    const char *why;
  } cases[] = {
    { "html(head(title) body(div(p p) ul(li li)))", "html(head(title) body(div(p p) ul(li li)))", 0,
      "identical trees: one equivalence class, nothing to do" },
    { "a(b c)", "a(b d)", 1,
      "b~b identical (0); c~d different leaves: 1 + 0 + 0 = 1; deleting c and inserting d would cost 2" },
    { "a(b)", "x(b)", 3,
      "roots differ: 1 + (2 − 1) + (2 − 1) = 3 (an unrestricted edit distance would be 1)" },
    { "a(b c)", "a(b x c)", 1,
      "b~b 0, insert x 1, c~c 0" },
    { "r(a(b c))", "r(x(b c))", 5,
      "a~x different labels: 1 + 2 + 2 = 5; deleting a's subtree and inserting x's would cost 3 + 3 = 6" },
    { "html(body(div(p p) ul(li)))", "html(body(div(p) ul(li li)))", 2,
      "body~body: div~div is [p p]→[p], delete p (1); ul~ul is [li]→[li li], insert li (1); 1 + 1" },
    { "a(b c)", "a(c b)", 2,
      "order is kept: b~c 1 + c~b 1 = 2, or delete b, c~c, insert b = 2" },
    { "a(b)", "a(b c(d e))", 3,
      "b~b 0, insert c's subtree of 3 nodes" },
    { "a(b(c d) e)", "a", 4,
      "delete both children's subtrees: 3 + 1" },
    /* body's children [div₁ div₂] (sizes 4, 4) against [div₁' table div₂']
     * (sizes 3, 4, 3). Pair costs: div₁~div₁' [h1 p p]→[h1 p] = 1;
     * div₁~table = 1 + 3 + 3 = 7; div₁~div₂' [h1 p p]→[a a] = 2
     * substitutions + 1 deletion = 3; div₂~div₁' [a a a]→[h1 p] = 3;
     * div₂~table = 7; div₂~div₂' [a a a]→[a a] = 1. The table, row by
     * row (columns: none, div₁', table, div₂'):
     *   none: 0  3  7 10
     *   div₁: 4  1  5  8
     *   div₂: 8  5  8  6
     * so 6: div₁~div₁' 1, insert the table 4, div₂~div₂' 1. */
    { "html(body(div(h1 p p) div(a a a)))", "html(body(div(h1 p) table(tr(td td)) div(a a)))", 6,
      "see the table above" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(CgRtdmTree) a = tree (cases[i].a);
      g_autoptr(CgRtdmTree) b = tree (cases[i].b);

      g_test_message ("%s → %s: %s", cases[i].a, cases[i].b, cases[i].why);
      g_assert_cmpuint (distance (a, b), ==, cases[i].distance);
      /* Unit costs make the distance symmetric. */
      g_assert_cmpuint (distance (b, a), ==, cases[i].distance);
    }
}

static void
test_similarity (void)
{
  g_autoptr(CgRtdmTree) a = tree ("html(body(div(h1 p p) div(a a a)))");
  g_autoptr(CgRtdmTree) b = tree ("html(body(div(h1 p) table(tr(td td)) div(a a)))");
  g_autoptr(CgRtdmTree) x = tree ("a(b)");
  g_autoptr(CgRtdmTree) y = tree ("x(b)");
  g_autoptr(GError) error = NULL;
  double similarity = -1;

  g_assert_cmpuint (cg_rtdm_tree_get_size (a), ==, 10);
  g_assert_cmpuint (cg_rtdm_tree_get_size (b), ==, 12);
  /* 1 − 6 / (10 + 12) */
  g_assert_true (cg_rtdm_similarity (a, b, &similarity, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (similarity, 1.0 - 6.0 / 22.0, 1e-12);
  /* 1 − 3 / (2 + 2) */
  g_assert_true (cg_rtdm_similarity (x, y, &similarity, &error));
  g_assert_cmpfloat_with_epsilon (similarity, 0.25, 1e-12);
  g_assert_true (cg_rtdm_similarity (a, a, &similarity, &error));
  g_assert_cmpfloat (similarity, ==, 1.0);
  g_assert_cmpfloat (cg_rtdm_normalize (0, 0, 0), ==, 1.0);
}

static CgRtdmTree *
html_tree (const char      *html,
           CgRtdmTreeFlags  flags)
{
  g_autoptr(GError) error = NULL;
  htmlDocPtr doc = cg_html_parse (html, strlen (html), "http://www.example.org/", NULL, &error);
  CgRtdmTree *t;

  g_assert_no_error (error);
  t = cg_rtdm_tree_new_for_document (doc, flags, &error);
  g_assert_no_error (error);
  xmlFreeDoc (doc);
  return t;
}

/* Two pages of one template and a page of another, from libxml2 trees. */
static void
test_pages (void)
{
  const char *detail_a = "<html><head><title>A</title></head><body><h1>A</h1><p>x</p><p>y</p></body></html>";
  const char *detail_b = "<html><head><title>B</title></head>\n<body><h1>B</h1>\n<p>z</p><!-- c --></body></html>";
  const char *list = "<html><head><title>L</title></head><body><ul><li><a href=1>1</a></li>"
                     "<li><a href=2>2</a></li></ul></body></html>";
  g_autoptr(CgRtdmTree) a = html_tree (detail_a, CG_RTDM_TREE_DEFAULT);
  g_autoptr(CgRtdmTree) b = html_tree (detail_b, CG_RTDM_TREE_DEFAULT);
  g_autoptr(CgRtdmTree) l = html_tree (list, CG_RTDM_TREE_DEFAULT);
  g_autoptr(CgRtdmTree) a_elements = html_tree (detail_a, CG_RTDM_TREE_ELEMENTS_ONLY);
  g_autoptr(CgRtdmTree) b_elements = html_tree (detail_b, CG_RTDM_TREE_ELEMENTS_ONLY);
  g_autofree char *a_string = cg_rtdm_tree_to_string (a);
  g_autofree char *b_string = cg_rtdm_tree_to_string (b);
  g_autofree char *l_string = cg_rtdm_tree_to_string (l);
  g_autoptr(GError) error = NULL;
  double same = 0;
  double other = 0;

  /* Text content, white space and comments are not structure. */
  g_assert_cmpstr (a_string, ==, "html(head(title(#text)) body(h1(#text) p(#text) p(#text)))");
  g_assert_cmpstr (b_string, ==, "html(head(title(#text)) body(h1(#text) p(#text)))");
  g_assert_cmpstr (l_string, ==, "html(head(title(#text)) body(ul(li(a(#text)) li(a(#text)))))");

  /* head~head identical; body: [h1 p p]→[h1 p], delete p and its text (2). */
  g_assert_cmpuint (distance (a, b), ==, 2);
  /* head~head identical; body: [h1 p p] (2 nodes each) against [ul] (7):
   * h1~ul or p~ul = 1 + 1 + 6 = 8 plus deleting the other two (4) = 12,
   * against deleting all (6) and inserting ul (7) = 13. */
  g_assert_cmpuint (distance (a, l), ==, 12);
  /* Without text nodes, body: [h1 p p]→[h1 p] deletes one p. */
  g_assert_cmpuint (distance (a_elements, b_elements), ==, 1);

  g_assert_true (cg_rtdm_similarity (a, b, &same, &error));
  g_assert_true (cg_rtdm_similarity (a, l, &other, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (same, 1.0 - 2.0 / 20.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (other, 1.0 - 12.0 / 23.0, 1e-12);
}

/* ---- a naive reference ------------------------------------------------------- */

/* The same definition computed the plain recursive way, without
 * equivalence classes, on trees of this test's own making, to check the
 * module's identical-subtree shortcut and its two-row tables. */
typedef struct Node Node;
struct Node {
  char      label;
  GPtrArray *children;
};

static void
node_free (Node *node)
{
  g_ptr_array_unref (node->children);
  g_free (node);
}

static guint
node_size (const Node *node)
{
  guint size = 1;

  for (guint i = 0; i < node->children->len; i++)
    size += node_size (node->children->pdata[i]);
  return size;
}

static guint
naive (const Node *a,
       const Node *b)
{
  guint m = a->children->len;
  guint n = b->children->len;
  g_autofree guint *table = NULL;

  if (a->label != b->label)
    return 1 + (node_size (a) - 1) + (node_size (b) - 1);
  table = g_new0 (guint, (m + 1) * (n + 1));
#define T(x, y) table[(x) * (n + 1) + (y)]
  for (guint x = 1; x <= m; x++)
    T (x, 0) = T (x - 1, 0) + node_size (a->children->pdata[x - 1]);
  for (guint y = 1; y <= n; y++)
    T (0, y) = T (0, y - 1) + node_size (b->children->pdata[y - 1]);
  for (guint x = 1; x <= m; x++)
    for (guint y = 1; y <= n; y++)
      T (x, y) = MIN (T (x - 1, y - 1) + naive (a->children->pdata[x - 1], b->children->pdata[y - 1]),
                      MIN (T (x - 1, y) + node_size (a->children->pdata[x - 1]),
                           T (x, y - 1) + node_size (b->children->pdata[y - 1])));
  return T (m, n);
#undef T
}

static Node *
random_node (GRand *rand,
             guint  depth,
             guint *budget)
{
  Node *node = g_new0 (Node, 1);
  guint n_children;

  node->label = "abc"[g_rand_int_range (rand, 0, 3)];
  node->children = g_ptr_array_new_with_free_func ((GDestroyNotify) node_free);
  (*budget)--;
  n_children = depth < 4 ? (guint) g_rand_int_range (rand, 0, 4) : 0;
  for (guint i = 0; i < n_children && *budget > 0; i++)
    g_ptr_array_add (node->children, random_node (rand, depth + 1, budget));
  return node;
}

static void
node_notation (const Node *node,
               GString    *out)
{
  g_string_append_c (out, node->label);
  if (node->children->len == 0)
    return;
  g_string_append_c (out, '(');
  for (guint i = 0; i < node->children->len; i++)
    {
      if (i > 0)
        g_string_append_c (out, ' ');
      node_notation (node->children->pdata[i], out);
    }
  g_string_append_c (out, ')');
}

static void
test_against_naive (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20260401);

  for (guint round = 0; round < 300; round++)
    {
      guint budget_a = 40;
      guint budget_b = 40;
      Node *x = random_node (rand, 0, &budget_a);
      Node *y = random_node (rand, 0, &budget_b);
      GString *nx = g_string_new (NULL);
      GString *ny = g_string_new (NULL);
      g_autoptr(CgRtdmTree) a = NULL;
      g_autoptr(CgRtdmTree) b = NULL;
      g_autofree char *back = NULL;

      /* Share the root label often, so that the recursion is exercised. */
      y->label = g_rand_boolean (rand) ? x->label : y->label;
      node_notation (x, nx);
      node_notation (y, ny);
      a = tree (nx->str);
      b = tree (ny->str);
      back = cg_rtdm_tree_to_string (a);
      g_assert_cmpstr (back, ==, nx->str);
      g_assert_cmpuint (cg_rtdm_tree_get_size (a), ==, node_size (x));
      if (distance (a, b) != naive (x, y))
        g_error ("%s → %s: %u, naive %u", nx->str, ny->str, distance (a, b), naive (x, y));
      node_free (x);
      node_free (y);
      g_string_free (nx, TRUE);
      g_string_free (ny, TRUE);
    }
}

/* ---- bad inputs and bounds --------------------------------------------------- */

static void
test_parse_errors (void)
{
  const char *bad[] = { "", "   ", "a(", "a)", "a b", "(a)", "a()", "a(b))", "a(b c" };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CgRtdmTree) t = cg_rtdm_tree_new_parse (bad[i], &error);

      g_assert_null (t);
      g_assert_error (error, CG_RTDM_ERROR, CG_RTDM_ERROR_PARSE);
      g_test_message ("[%s] %s", bad[i], error->message);
    }
}

static void
test_bounds (void)
{
  GString *html = g_string_new ("<body>");
  GString *wide_a = g_string_new ("r(");
  GString *wide_b = g_string_new ("r(");
  GString *deep = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CgRtdmTree) t = NULL;
  g_autoptr(CgRtdmTree) a = NULL;
  g_autoptr(CgRtdmTree) b = NULL;
  htmlDocPtr doc;
  xmlNodePtr node;
  guint d = 0;

  /* Too many nodes. */
  for (guint i = 0; i < CG_RTDM_MAX_NODES; i++)
    g_string_append (html, "<i></i>");
  doc = cg_html_parse (html->str, html->len, "http://www.example.org/", NULL, &error);
  g_assert_no_error (error);
  t = cg_rtdm_tree_new_for_document (doc, CG_RTDM_TREE_DEFAULT, &error);
  g_assert_null (t);
  g_assert_error (error, CG_RTDM_ERROR, CG_RTDM_ERROR_TOO_LARGE);
  g_clear_error (&error);
  xmlFreeDoc (doc);

  /* Too costly: 8,000 × 8,000 child pairs under roots with equal labels. */
  for (guint i = 0; i < 8000; i++)
    {
      g_string_append (wide_a, "a ");
      g_string_append (wide_b, "b ");
    }
  g_string_append_c (wide_a, ')');
  g_string_append_c (wide_b, ')');
  a = tree (wide_a->str);
  b = tree (wide_b->str);
  g_assert_false (cg_rtdm_distance (a, b, &d, &error));
  g_assert_error (error, CG_RTDM_ERROR, CG_RTDM_ERROR_TOO_COSTLY);
  g_clear_error (&error);
  /* Identical wide trees need no table at all. */
  g_assert_true (cg_rtdm_distance (a, a, &d, &error));
  g_assert_cmpuint (d, ==, 0);

  /* Too deep, as notation and as a hand-built document. */
  for (guint i = 0; i <= CG_RTDM_MAX_DEPTH; i++)
    g_string_append (deep, "a(");
  g_string_append (deep, "b");
  for (guint i = 0; i <= CG_RTDM_MAX_DEPTH; i++)
    g_string_append_c (deep, ')');
  g_clear_pointer (&t, cg_rtdm_tree_free);
  t = cg_rtdm_tree_new_parse (deep->str, &error);
  g_assert_null (t);
  g_assert_error (error, CG_RTDM_ERROR, CG_RTDM_ERROR_PARSE);
  g_clear_error (&error);

  doc = xmlNewDoc ((const xmlChar *) "1.0");
  node = xmlNewNode (NULL, (const xmlChar *) "html");
  xmlDocSetRootElement (doc, node);
  for (guint i = 0; i <= CG_RTDM_MAX_DEPTH; i++)
    node = xmlNewChild (node, NULL, (const xmlChar *) "div", NULL);
  t = cg_rtdm_tree_new_for_document (doc, CG_RTDM_TREE_DEFAULT, &error);
  g_assert_null (t);
  g_assert_error (error, CG_RTDM_ERROR, CG_RTDM_ERROR_TOO_DEEP);
  g_clear_error (&error);
  xmlFreeDoc (doc);

  /* A document with no root element. */
  doc = htmlNewDocNoDtD (NULL, NULL);
  t = cg_rtdm_tree_new_for_document (doc, CG_RTDM_TREE_DEFAULT, &error);
  g_assert_null (t);
  g_assert_error (error, CG_RTDM_ERROR, CG_RTDM_ERROR_EMPTY);
  xmlFreeDoc (doc);

  g_string_free (html, TRUE);
  g_string_free (wide_a, TRUE);
  g_string_free (wide_b, TRUE);
  g_string_free (deep, TRUE);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/rtdm/hand-worked", test_hand_worked);
  g_test_add_func ("/rtdm/similarity", test_similarity);
  g_test_add_func ("/rtdm/pages", test_pages);
  g_test_add_func ("/rtdm/against-naive", test_against_naive);
  g_test_add_func ("/rtdm/parse-errors", test_parse_errors);
  g_test_add_func ("/rtdm/bounds", test_bounds);

  return g_test_run ();
}
