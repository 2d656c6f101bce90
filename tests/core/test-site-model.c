/* test-site-model.c: site models: versions, crawl specs, exports, diffs.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <libxml/parser.h>

#include "cg-json.h"
#include "cg-project.h"
#include "cg-site-model.h"
#include "cg-test-damage.h"
#include "cg-test-files.h"

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
    { "home\tclass\tHome\t([a-z\n", "line 1: The URL pattern “([a-z” is not a regular expression" },
    { "home\tclass\tHome\nbook\tclass\tBook\n\nhome\tclass\tStart\n",
      "line 4: the class “home” is already defined on line 1" },
    { "home\tclass\tHome\t-\t0\t1\t[\"html/body\", 3]\n", "line 1: the schema: item 2 of the JSON array is not a string" },
    { "-\tparameters\t[1]\nhome\tclass\tHome\n", "line 1: the parameters are not a JSON object" },
    { "-\tparameters\t{\"a\":\nhome\tclass\tHome\n", "line 1: the parameters are not valid JSON" },
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

/* Text of @depth nested arrays, with @inside in the innermost one. */
static char *
nested_arrays (guint       depth,
               const char *inside)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < depth; i++)
    g_string_append_c (text, '[');
  g_string_append (text, inside);
  for (guint i = 0; i < depth; i++)
    g_string_append_c (text, ']');
  return g_string_free (text, FALSE);
}

/* json-glib recurses once per level of nesting: without the check, these
 * overflow the stack and the test dies with SIGSEGV. */
static void
test_deep_json (void)
{
  g_autofree char *deep = nested_arrays (100000, "");
  g_autofree char *deep_classes = NULL;
  g_autofree char *brackets = NULL;
  g_autofree char *in_string = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(CgSiteModel) model = NULL;
  CgPageClass *klass;

  model = cg_site_model_from_json (deep, &error);
  g_assert_null (model);
  g_assert_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "more than 512 levels deep"));
  g_clear_error (&error);

  deep_classes = g_strdup_printf ("{\"site\": \"http://shop.test/\", \"classes\": %s}", deep);
  g_assert_null (cg_site_model_from_json (deep_classes, &error));
  g_assert_nonnull (strstr (error->message, "512"));
  g_clear_error (&error);

  /* Brackets in strings do not nest, and an escaped quote does not end
   * the string they are in; an escaped backslash before a quote does. */
  brackets = g_strnfill (100000, '[');
  in_string = g_strdup_printf ("{\"site\": \"http://shop.test/\", \"classes\": [{\"name\": \"a\\\"%s\\\\\", "
                               "\"label\": \"%s\"}]}", brackets, brackets);
  model = cg_site_model_from_json (in_string, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cg_site_model_get_classes (model)->len, ==, 1);
  klass = g_ptr_array_index (cg_site_model_get_classes (model), 0);
  g_assert_cmpuint (strlen (klass->name), ==, strlen ("a\"") + 100000 + strlen ("\\"));
  g_assert_cmpuint (strlen (klass->label), ==, 100000);
}

/* cg_json_parse() on its own: the limit is exactly CG_JSON_MAX_DEPTH. */
static void
test_json_depth_limit (void)
{
  g_autofree char *deepest = nested_arrays (CG_JSON_MAX_DEPTH, "1");
  g_autofree char *too_deep = nested_arrays (CG_JSON_MAX_DEPTH + 1, "1");
  g_autofree char *objects = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  GString *text = g_string_new (NULL);

  root = cg_json_parse (deepest, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (root));
  g_clear_pointer (&root, json_node_unref);

  g_assert_null (cg_json_parse (too_deep, -1, &error));
  g_assert_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA);
  g_clear_error (&error);

  /* Objects count as arrays do, and the line is named. */
  g_string_append (text, "\n\n");
  for (guint i = 0; i <= CG_JSON_MAX_DEPTH; i++)
    g_string_append (text, "{\"a\":");
  objects = g_string_free (text, FALSE);
  g_assert_null (cg_json_parse (objects, -1, &error));
  g_assert_nonnull (strstr (error->message, "line 3"));
  g_clear_error (&error);

  /* Only @length bytes are read. */
  root = cg_json_parse ("[1]garbage", 3, &error);
  g_assert_no_error (error);
  g_clear_pointer (&root, json_node_unref);

  g_assert_null (cg_json_parse ("  ", -1, &error));
  g_assert_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA);
  g_clear_error (&error);
  g_assert_null (cg_json_parse ("[1,", -1, &error));
  g_assert_nonnull (error);
}

/* Every member of a model file is type-checked: a wrong type is an error
 * that names the member and what it should be. json-glib's getters print
 * a critical on a wrong type instead; g_test_init() makes criticals fatal
 * (as G_DEBUG=fatal-criticals does for the whole suite), so any critical
 * left here fails the test. */
static void
test_json_member_types (void)
{
  const char *bad[][2] = {
    { "{\"classes\": [42]}", "Class 1 of the model file should be an object, not a number" },
    { "{\"classes\": [{\"name\": \"a\"}], \"patterns\": [null, 1, \"x\"]}",
      "Navigation pattern 1 of the model file should be an object, not null" },
    { "{\"patterns\": [{\"pattern\": \"L(//a)\"}, 1]}", "Navigation pattern 2 of the model file should be an object, not a number" },
    { "{\"patterns\": [{\"score\": 1}]}", "Navigation pattern 1 of the model file has no pattern" },
    { "{\"patterns\": [{\"pattern\": \"L(//a)\", \"score\": \"high\"}]}", "“score” should be a number, not a string" },
    { "{\"patterns\": [{\"pattern\": \"L(//a)\", \"score\": 1e999}]}", "“score” should be a finite number" },
    { "{\"site\": 5}", "The model file: “site” should be a string, not a number" },
    { "{\"entry_class\": []}", "The model file: “entry_class” should be a string, not an array" },
    { "{\"created_at\": \"now\"}", "The model file: “created_at” should be a whole number, not a string" },
    { "{\"parameters\": \"fast\"}", "The model file: “parameters” should be an object, not a string" },
    { "{\"classes\": {}}", "The model file: “classes” should be an array, not an object" },
    { "{\"classes\": [{\"name\": 7}]}", "Class 1 of the model file: “name” should be a string, not a number" },
    { "{\"classes\": [{\"label\": \"A\"}]}", "Class 1 of the model file has no name" },
    { "{\"classes\": [{\"name\": \"a\", \"depth\": \"2\"}]}", "“depth” should be a whole number, not a string" },
    { "{\"classes\": [{\"name\": \"a\", \"pages\": -3}]}", "“pages” should be a whole number from 0 to 2147483647, not -3" },
    { "{\"classes\": [{\"name\": \"a\", \"pages\": 2.5}]}", "“pages” should be a whole number from 0" },
    { "{\"classes\": [{\"name\": \"a\", \"pages\": 1e300}]}", "“pages” should be a whole number from 0" },
    { "{\"classes\": [{\"name\": \"a\", \"url_pattern\": false}]}", "“url_pattern” should be a string, not true or false" },
    { "{\"classes\": [{\"name\": \"a\", \"schema\": [\"html\", 1]}]}",
      "Class 1 of the model file: item 2 of “schema” should be a string, not a number" },
    { "{\"classes\": [{\"name\": \"a\", \"samples\": \"http://shop.test/\"}]}", "“samples” should be an array, not a string" },
    { "{\"links\": [{\"source\": \"a\", \"target\": \"a\", \"type\": \"list\", \"xpath\": \"//a\", \"links\": \"many\"}]}",
      "Link 1 of the model file: “links” should be a whole number, not a string" },
    { "{\"links\": [{\"source\": [\"a\"], \"target\": \"a\", \"type\": \"list\", \"xpath\": \"//a\"}]}",
      "Link 1 of the model file: “source” should be a string, not an array" },
    { "{\"links\": [{\"source\": \"a\", \"target\": \"a\", \"type\": \"sometimes\", \"xpath\": \"//a\"}]}",
      "“sometimes” is not a link type" },
    { "{\"links\": [{\"source\": \"a\", \"target\": \"a\", \"type\": \"menu\", \"menu\": 3, \"xpath\": \"//a\"}]}",
      "“menu” should be a string, not a number" },
    { "{\"links\": [{\"source\": \"a\", \"target\": \"a\", \"type\": \"menu\", \"menu\": \"big\", \"xpath\": \"//a\"}]}",
      "“big” is not a kind of menu" },
    { "{\"links\": [{\"source\": \"a\", \"type\": \"list\"}]}", "Link 1 of the model file needs a source, a target" },
    { "{\"data_links\": [true]}", "Data link 1 of the model file should be an object, not true or false" },
    { "{\"data_links\": [{\"source\": \"a\", \"type\": \"text\", \"xpath\": \"//h1\"}]}", "“text” is not a data link type" },
    { "{\"data_links\": [{\"source\": \"a\", \"type\": \"string\", \"xpath\": \"//h1[\"}]}",
      "Data link 1 of the model file: “//h1[” is not a valid XPath" },
    { "{\"data_links\": [{\"source\": \"a\", \"type\": \"string\", \"xpath\": \"//h1\", \"name\": {}}]}",
      "“name” should be a string, not an object" },
    { "[]", "not a JSON object" },
    { "", "not valid JSON" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CgSiteModel) model = cg_site_model_from_json (bad[i][0], &error);

      g_assert_null (model);
      g_assert_nonnull (error);
      if (strstr (error->message, bad[i][1]) == NULL)
        g_error ("model file %u gave “%s”, expected “%s”", i, error->message, bad[i][1]);
    }
}

/* What an imported model must be beyond what a learned one is. */
static void
test_imported_rules (void)
{
  const char *bad_json[][2] = {
    { "{\"site\": \"not a url\", \"classes\": [{\"name\": \"a\"}]}", "The URL “not a url” is not valid" },
    { "{\"site\": \"ftp://x/\", \"classes\": [{\"name\": \"a\"}]}", "“ftp://x/” uses the scheme “ftp”" },
    { "{\"site\": \"http://shop.test/\", \"classes\": [{\"name\": \"a\"}, {\"name\": \"b\"}, {\"name\": \"a\"}]}",
      "Classes 1 and 3 of the model file are both called “a”" },
    { "{\"site\": \"http://shop.test/\", \"classes\": [{\"name\": \"book\", \"url_pattern\": \"((\"}]}",
      "Class “book”: The URL pattern “((” is not a regular expression" },
    { "{\"site\": \"http://shop.test/\", \"classes\": [{\"name\": \"a\\tb\"}]}", "The class name “a\tb” cannot be used" },
    { "{\"site\": \"http://shop.test/\", \"classes\": [{\"name\": \"#a\"}]}", "The class name “#a” cannot be used" },
    { "{\"site\": \"http://shop.test/\", \"classes\": [{\"name\": \"a\"}], "
      "\"data_links\": [{\"source\": \"b\", \"type\": \"string\", \"xpath\": \"//h1\"}]}",
      "names the class “b”, which the model does not have" },
  };
  const char *bad_spec[][3] = {
    { "http://shop.test/", "-\tsite\tnot a url\nhome\tclass\tHome\n", "The URL “not a url” is not valid" },
    { "ftp://x/", "home\tclass\tHome\n", "“ftp://x/” uses the scheme “ftp”" },
    { "http://shop.test/", "home\tclass\tHome\t((\n", "line 1: The URL pattern “((” is not a regular expression" },
    { "http://shop.test/", "home\tlink\t//a\t#book\tlist\n", "The class name “#book” cannot be used" },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(CgSiteModel) model = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad_json); i++)
    {
      model = cg_site_model_from_json (bad_json[i][0], &error);
      g_assert_null (model);
      g_assert_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_INVALID);
      if (strstr (error->message, bad_json[i][1]) == NULL)
        g_error ("model file %u gave “%s”, expected “%s”", i, error->message, bad_json[i][1]);
      g_clear_error (&error);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad_spec); i++)
    {
      model = cg_site_model_from_spec (bad_spec[i][0], bad_spec[i][1], &error);
      g_assert_null (model);
      g_assert_true (error->domain == CG_SITE_MODEL_ERROR);
      if (strstr (error->message, bad_spec[i][2]) == NULL)
        g_error ("spec %u gave “%s”, expected “%s”", i, error->message, bad_spec[i][2]);
      g_clear_error (&error);
    }

  /* The site given for a file that names none is checked as the file's
   * would be, and is the model's site when it passes; a file's own site
   * comes first. */
  g_assert_null (cg_site_model_from_json_with_site ("not a url", "{\"classes\": [{\"name\": \"a\"}]}", &error));
  g_assert_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_INVALID);
  g_clear_error (&error);
  model = cg_site_model_from_json_with_site ("http://shop.test/", "{\"classes\": [{\"name\": \"a\", \"url_pattern\": \"\"}]}",
                                             &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cg_site_model_get_site (model), ==, "http://shop.test/");
  /* An empty pattern is no pattern, as "-" in a crawl spec. */
  g_assert_null (cg_site_model_get_class (model, "a")->url_pattern);
  g_clear_object (&model);
  model = cg_site_model_from_json_with_site ("http://other.test/",
                                             "{\"site\": \"http://shop.test/\", \"classes\": [{\"name\": \"a\"}]}", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cg_site_model_get_site (model), ==, "http://shop.test/");
  g_clear_object (&model);
  /* A model of nothing would hide the site's last version. */
  g_assert_null (cg_site_model_from_json_with_site ("http://shop.test/", "{\"classes\": []}", &error));
  g_assert_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_SPEC);
  g_assert_cmpstr (error->message, ==, "The model file has no class");
  g_clear_error (&error);
  g_assert_null (cg_site_model_from_json_with_site ("http://shop.test/", "{}", &error));
  g_assert_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_SPEC);
  g_clear_error (&error);
  /* A spreadsheet's byte order mark before a crawl spec. */
  model = cg_site_model_from_spec ("http://shop.test/", "\xEF\xBB\xBFhome\tclass\tHome\n", &error);
  g_assert_no_error (error);
  g_assert_nonnull (cg_site_model_get_class (model, "home"));
  g_clear_object (&model);
  /* With no site anywhere, the caller is left to ask for one. */
  model = cg_site_model_from_json ("{\"classes\": [{\"name\": \"a\", \"depth\": 3.0}]}", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cg_site_model_get_site (model), ==, "");
  g_assert_cmpint (cg_site_model_get_class (model, "a")->depth, ==, 3);
  g_clear_object (&model);
  g_assert_null (cg_site_model_from_spec ("not a url", "home\tclass\tHome\n", &error));
  g_assert_error (error, CG_SITE_MODEL_ERROR, CG_SITE_MODEL_ERROR_INVALID);
  g_clear_error (&error);
}

static void
test_versions_in_store (void)
{
  g_autoptr(CgTestFolder) dir = cg_test_folder_new ("cg-model-XXXXXX");
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
  g_clear_error (&error);

  /* A site however spelt is one site with one history: an import under
   * "HTTP://Shop.Test:80" once began a history of its own. */
  {
    g_autoptr(CgSiteModel) spelt = cg_site_model_new ("HTTP://Shop.Test:80");
    g_autoptr(CgSiteModel) found = NULL;
    g_autoptr(GArray) all = NULL;

    g_assert_cmpstr (cg_site_model_get_site (spelt), ==, "http://shop.test/");
    g_assert_true (cg_site_model_save (spelt, store, &error));
    g_assert_no_error (error);
    g_assert_cmpint (cg_site_model_get_version (spelt), ==, 3);
    found = cg_site_model_load (store, "http://SHOP.test", 3, &error);
    g_assert_no_error (error);
    g_assert_nonnull (found);
    g_clear_object (&found);
    found = cg_site_model_load_latest (store, "HTTP://shop.test:80/", &error);
    g_assert_no_error (error);
    g_assert_cmpint (cg_site_model_get_version (found), ==, 3);
    all = cg_site_model_list_versions (store, "http://Shop.Test", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (all->len, ==, 3);
  }
}

/* A store that cannot be read is not one without models. */
static void
test_list_sites_unreadable (void)
{
  g_autoptr(CgTestFolder) dir = cg_test_folder_new ("cg-model-XXXXXX");
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) project = cg_project_create (dir, NULL, &error);
  g_autoptr(CgSiteModel) model = bookshop_model ();
  g_auto(GStrv) sites = NULL;

  g_assert_no_error (error);
  g_assert_true (cg_site_model_save (model, cg_project_get_store (project), &error));
  g_assert_no_error (error);
  sites = cg_site_model_list_sites (cg_project_get_store (project), &error);
  g_assert_no_error (error);
  g_assert_cmpstrv (sites, ((const char *[]) { "http://shop.test/", NULL }));
  g_clear_pointer (&sites, g_strfreev);

  cg_test_damage_database (project);
  sites = cg_site_model_list_sites (cg_project_get_store (project), &error);
  g_assert_null (sites);
  g_assert_error (error, CG_STORE_ERROR, CG_STORE_ERROR_CORRUPT);
  /* The message names the file. */
  g_assert_nonnull (strstr (error->message, CG_PROJECT_DATABASE_NAME));
}

/* A model whose classes cannot all be read is not loaded with the ones
 * read before the damage, and a store that cannot be read is not one
 * without the model. */
static void
test_load_unreadable (void)
{
  g_autoptr(CgTestFolder) dir = cg_test_folder_new ("cg-model-XXXXXX");
  g_autoptr(GError) error = NULL;
  g_autoptr(CgProject) project = cg_project_create (dir, NULL, &error);
  CgStore *store = cg_project_get_store (project);
  g_autoptr(CgSiteModel) model = bookshop_model ();
  g_autoptr(CgSiteModel) loaded = NULL;
  g_autoptr(GArray) versions = NULL;

  g_assert_no_error (error);
  /* Enough classes for several pages of the table. */
  for (guint i = 0; i < 300; i++)
    {
      g_autofree char *name = g_strdup_printf ("extra-%03u", i);
      CgPageClass *klass = cg_site_model_add_class (model, name, name);

      g_strfreev (klass->samples);
      klass->samples = g_strsplit ("http://shop.test/a-long-enough-sample-address/one|"
                                   "http://shop.test/a-long-enough-sample-address/two", "|", -1);
    }
  g_assert_true (cg_site_model_save (model, store, &error));
  g_assert_no_error (error);
  loaded = cg_site_model_load (store, "http://shop.test/", 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cg_site_model_get_classes (loaded)->len, ==, 303);
  g_clear_object (&loaded);

  /* The model's row is read, then its classes cannot be. */
  cg_test_damage_middle_of (project, "page_classes");
  loaded = cg_site_model_load (store, "http://shop.test/", 1, &error);
  g_assert_null (loaded);
  g_assert_error (error, CG_STORE_ERROR, CG_STORE_ERROR_CORRUPT);
  g_clear_error (&error);
  loaded = cg_site_model_load_latest (store, "http://shop.test/", &error);
  g_assert_null (loaded);
  g_assert_error (error, CG_STORE_ERROR, CG_STORE_ERROR_CORRUPT);
  g_clear_error (&error);
  loaded = cg_site_model_load_latest (store, NULL, &error);
  g_assert_null (loaded);
  g_assert_error (error, CG_STORE_ERROR, CG_STORE_ERROR_CORRUPT);
  g_clear_error (&error);

  /* Nothing can be read: the model is not "not found". */
  cg_test_damage_database (project);
  loaded = cg_site_model_load (store, "http://shop.test/", 1, &error);
  g_assert_null (loaded);
  g_assert_error (error, CG_STORE_ERROR, CG_STORE_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, CG_PROJECT_DATABASE_NAME));
  g_clear_error (&error);
  loaded = cg_site_model_load_latest (store, "http://shop.test/", &error);
  g_assert_null (loaded);
  g_assert_error (error, CG_STORE_ERROR, CG_STORE_ERROR_CORRUPT);
  g_clear_error (&error);
  versions = cg_site_model_list_versions (store, "http://shop.test/", &error);
  g_assert_null (versions);
  g_assert_error (error, CG_STORE_ERROR, CG_STORE_ERROR_CORRUPT);
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
  g_test_add_func ("/site-model/deep-json", test_deep_json);
  g_test_add_func ("/site-model/json-depth-limit", test_json_depth_limit);
  g_test_add_func ("/site-model/json-member-types", test_json_member_types);
  g_test_add_func ("/site-model/imported-rules", test_imported_rules);
  g_test_add_func ("/site-model/versions-in-store", test_versions_in_store);
  g_test_add_func ("/site-model/list-sites-unreadable", test_list_sites_unreadable);
  g_test_add_func ("/site-model/load-unreadable", test_load_unreadable);
  g_test_add_func ("/site-model/graph-exports", test_graph_exports);

  return g_test_run ();
}
