/* test-site-model.c: site models: versions, crawl specs, exports, diffs.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <libxml/parser.h>

#include "cg-project.h"
#include "cg-site-model.h"

static CgSiteModel *
bookshop_model (void)
{
  CgSiteModel *model = cg_site_model_new ("http://shop.test/");
  CgPageClass *klass;
  CgClassLink *link;

  cg_site_model_set_entry_class (model, "home");
  klass = cg_site_model_add_class (model, "home", "Home");
  klass->url_pattern = g_strdup ("^http://shop\\.test/$");
  klass->n_pages = 1;
  klass = cg_site_model_add_class (model, "category", "Category");
  klass->url_pattern = g_strdup ("^http://shop\\.test/category/[a-z-]+/(\\?page=\\d+)?$");
  klass->n_pages = 12;
  g_strfreev (klass->schema);
  klass->schema = g_strsplit ("html/body/nav/ul/li/a|html/body/main/ol/li/h3/a", "|", -1);
  g_strfreev (klass->samples);
  klass->samples = g_strsplit ("http://shop.test/category/poetry/|http://shop.test/category/history/", "|", -1);
  klass = cg_site_model_add_class (model, "book", "Book");
  klass->n_pages = 30;
  cg_site_model_add_link (model, "home", "category", CG_CLASS_LINK_MENU, "/html/body/nav[@class]/ul/li/a")->menu = CG_MENU_FIXED_ANCHOR;
  link = cg_site_model_add_link (model, "category", "book", CG_CLASS_LINK_LIST, "/html/body/main/ol[@class=\"books\"]/li/h3/a");
  link->n_links = 36;
  cg_site_model_add_link (model, "category", "category", CG_CLASS_LINK_SINGLETON, "//a[@rel=\"next\"]");
  cg_site_model_add_data_link (model, "book", CG_DATA_LINK_STRING, "//h1/text()", "title");
  cg_site_model_add_pattern (model, "L(/html/body/nav/ul/li/a) L+(//a[@rel=\"next\"]) L(//h3/a)", 41.5, 30);
  cg_site_model_compute_depths (model);
  return model;
}

static void
test_depths (void)
{
  g_autoptr(CgSiteModel) model = bookshop_model ();

  g_assert_cmpint (cg_site_model_get_class (model, "home")->depth, ==, 0);
  g_assert_cmpint (cg_site_model_get_class (model, "category")->depth, ==, 1);
  g_assert_cmpint (cg_site_model_get_class (model, "book")->depth, ==, 2);
}

static void
test_spec_round_trip (void)
{
  g_autoptr(CgSiteModel) model = bookshop_model ();
  g_autoptr(CgSiteModel) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *spec = cg_site_model_to_spec (model);
  g_autofree char *spec_again = NULL;
  g_autofree char *json = cg_site_model_to_json (model);
  g_autofree char *json_again = NULL;

  again = cg_site_model_from_spec ("ignored", spec, &error);
  g_assert_no_error (error);
  spec_again = cg_site_model_to_spec (again);
  g_assert_cmpstr (spec, ==, spec_again);
  g_assert_cmpstr (cg_site_model_get_site (again), ==, "http://shop.test/");
  g_assert_cmpstr (cg_site_model_get_class (again, "category")->samples[1], ==, "http://shop.test/category/history/");
  g_assert_cmpint (((CgClassLink *) cg_site_model_get_links (again)->pdata[0])->menu, ==, CG_MENU_FIXED_ANCHOR);

  g_clear_object (&again);
  again = cg_site_model_from_json (json, &error);
  g_assert_no_error (error);
  json_again = cg_site_model_to_json (again);
  g_assert_cmpstr (json, ==, json_again);
}

/* Seed 000's Table A.5, as an archivist would type it. */
static const char olfatheque[] =
  "# olfatheque.com\n"
  "home\tlink\t//div[@id=\"sidebar-menu-content\"]/ul/li[3]/a\tperfumes\tsingleton\n"
  "perfumes\tlink\t//span[@class=\"active\"]/../following-sibling::li[1]/a\tperfumes\tsingleton\n"
  "perfumes\tlink\t//div[@id=\"result\"]/div[@class]/div[@class]/h3/a\tperfume\tlist\n"
  "perfume\tform\t//form[@id=\"form\"],./div/input[1]:user,./div/input[2]:pass\n"
  "perfume\tstring\t//div[@class=\"fiche-title\"]/h1/text()\tName\n"
  "perfume\tstring\t//div[@id=\"recap\"]/p[@class=\"famille\"]/a/text()\tFamily\n"
  "\n"
  "perfume\tstring\t//div[@class=\"note note-tete\"]/p/a/text()\tTop notes\r\n";

static void
test_hand_written_spec (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CgSiteModel) model = cg_site_model_from_spec ("https://www.olfatheque.com/", olfatheque, &error);
  CgDataLink *form;

  g_assert_no_error (error);
  g_assert_cmpuint (cg_site_model_get_classes (model)->len, ==, 3);
  g_assert_cmpuint (cg_site_model_get_links (model)->len, ==, 3);
  g_assert_cmpuint (cg_site_model_get_data_links (model)->len, ==, 4);
  g_assert_cmpstr (cg_site_model_get_entry_class (model), ==, "home");
  form = g_ptr_array_index (cg_site_model_get_data_links (model), 0);
  g_assert_cmpint (form->type, ==, CG_DATA_LINK_FORM);
  g_assert_cmpstr (((CgDataLink *) cg_site_model_get_data_links (model)->pdata[3])->name, ==, "Top notes");
  cg_site_model_compute_depths (model);
  g_assert_cmpint (cg_site_model_get_class (model, "perfume")->depth, ==, 2);
}

static void
test_bad_specs (void)
{
  const char *bad[][2] = {
    { "home\tlink\t//a\tlist\n", "line 1: a link row has 5 columns" },
    { "# c\nhome\tlink\t//a[\tbook\tlist\n", "line 2: “//a[” is not a valid XPath" },
    { "home\tlink\t//a\tbook\tsometimes\n", "line 1: “sometimes” is not a link subtype" },
    { "home\tlink\t//a\tbook\tlist\nbook\tcolour\t//h1\tName\n", "line 2: “colour” is not a row type" },
    { "book\tstring\t//h1\n", "line 1: a string row has 4 columns" },
    { "home\tlink\t//form,./input\tresults\tform\n", "line 1: the form field “./input” has no “:value”" },
    { "home\tclass\tHome\t([a-z\n", "line 1: the URL pattern is not a regular expression" },
    { "home\tlink\n", "line 1: a row needs at least 3" },
    { "# nothing but comments\n\n", "no class and no link" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CgSiteModel) model = cg_site_model_from_spec ("x", bad[i][0], &error);

      g_assert_null (model);
      g_assert_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_SPEC);
      if (strstr (error->message, bad[i][1]) == NULL)
        g_error ("spec %u gave “%s”, expected “%s”", i, error->message, bad[i][1]);
    }
}

static void
test_versions_in_store (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cg-model-XXXXXX", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) project = cg_project_create (dir, NULL, &error);
  CgStore *store = cg_project_get_store (project);
  g_autoptr(CgSiteModel) first = bookshop_model ();
  g_autoptr(CgSiteModel) second = bookshop_model ();
  g_autoptr(CgSiteModel) loaded = NULL;
  g_autoptr(CgSiteModel) latest = NULL;
  g_autoptr(GArray) versions = NULL;
  g_autoptr(CgSiteModelDiff) diff = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *actual = NULL;

  g_assert_no_error (error);
  g_assert_true (cg_site_model_save (first, store, &error));
  g_assert_no_error (error);
  g_assert_cmpint (cg_site_model_get_version (first), ==, 1);
  g_assert_false (cg_site_model_save (first, store, &error));
  g_clear_error (&error);

  /* The site grew an author class and lost its pagination link. */
  cg_site_model_add_class (second, "author", "Author");
  cg_site_model_add_link (second, "book", "author", CG_CLASS_LINK_SINGLETON, "//a[@rel=\"author\"]");
  g_ptr_array_remove_index (cg_site_model_get_links (second), 2);
  g_free (cg_site_model_get_class (second, "book")->url_pattern);
  cg_site_model_get_class (second, "book")->url_pattern = g_strdup ("^http://shop\\.test/book/.+$");
  g_assert_true (cg_site_model_save (second, store, &error));
  g_assert_cmpint (cg_site_model_get_version (second), ==, 2);

  versions = cg_site_model_list_versions (store, "http://shop.test/", &error);
  g_assert_cmpuint (versions->len, ==, 2);

  loaded = cg_site_model_load (store, "http://shop.test/", 1, &error);
  g_assert_no_error (error);
  expected = cg_site_model_to_json (first);
  actual = cg_site_model_to_json (loaded);
  g_assert_cmpstr (expected, ==, actual);

  latest = cg_site_model_load_latest (store, "http://shop.test/", &error);
  g_assert_cmpint (cg_site_model_get_version (latest), ==, 2);

  diff = cg_site_model_compare (loaded, latest);
  g_assert_cmpstrv (diff->added_classes, ((const char *[]) { "author", NULL }));
  g_assert_cmpstrv (diff->removed_classes, ((const char *[]) { NULL }));
  g_assert_cmpstrv (diff->changed_classes, ((const char *[]) { "book", NULL }));
  g_assert_cmpstrv (diff->added_links, ((const char *[]) { "book → author (singleton)", NULL }));
  g_assert_cmpstrv (diff->removed_links, ((const char *[]) { "category → category (singleton)", NULL }));

  /* Renaming a class is the one change a saved version takes. */
  g_assert_true (cg_site_model_rename_class (loaded, store, "book", "  Title page ", &error));
  g_clear_object (&loaded);
  loaded = cg_site_model_load (store, "http://shop.test/", 1, &error);
  g_assert_cmpstr (cg_site_model_get_class (loaded, "book")->label, ==, "Title page");
  g_assert_false (cg_site_model_rename_class (loaded, store, "book", " ", &error));
  g_assert_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_INVALID);
  g_clear_error (&error);

  g_assert_null (cg_site_model_load (store, "http://shop.test/", 9, &error));
  g_assert_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_NOT_FOUND);
}

static void
test_graph_exports (void)
{
  g_autoptr(CgSiteModel) model = bookshop_model ();
  g_autofree char *dot = cg_site_model_to_dot (model);
  g_autofree char *graphml = cg_site_model_to_graphml (model);
  xmlDocPtr doc;

  g_assert_nonnull (strstr (dot, "\"category\" -> \"book\" [style=bold"));
  g_assert_nonnull (strstr (dot, "\"category\" -> \"category\""));
  g_assert_nonnull (strstr (dot, "\"home\" -> \"category\" [style=dashed"));
  doc = xmlReadMemory (graphml, (int) strlen (graphml), "model.graphml", NULL, XML_PARSE_NONET | XML_PARSE_NOERROR);
  g_assert_nonnull (doc);
  g_assert_cmpstr ((const char *) xmlDocGetRootElement (doc)->name, ==, "graphml");
  xmlFreeDoc (doc);
  g_assert_nonnull (strstr (graphml, "<data key=\"xpath\">/html/body/main/ol[@class=&quot;books&quot;]/li/h3/a</data>"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/site-model/depths", test_depths);
  g_test_add_func ("/site-model/spec-round-trip", test_spec_round_trip);
  g_test_add_func ("/site-model/hand-written-spec", test_hand_written_spec);
  g_test_add_func ("/site-model/bad-specs", test_bad_specs);
  g_test_add_func ("/site-model/versions-in-store", test_versions_in_store);
  g_test_add_func ("/site-model/graph-exports", test_graph_exports);

  return g_test_run ();
}
