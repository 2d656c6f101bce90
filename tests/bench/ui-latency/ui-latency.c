/* ui-latency.c: the workbench's main-loop latency while it explores and
 * harvests the demo site.
 *
 * The window is what archivists keep open for hours while crawls stream
 * pages in, so it must answer within a frame or two whatever runs. This
 * program opens the real window, tries the demo (exploration, sample
 * rendering, record extraction), then harvests it, and meanwhile a
 * high-priority timeout asks to run every 10 ms: how late it runs is how
 * long the main loop was busy with something else, which is how long a
 * click or a redraw would have waited. It prints the mean, 95th
 * percentile and maximum lateness of each stage; the target is a maximum
 * under 50 ms.
 *
 * Lateness also counts the time the main thread waited for a processor,
 * which on a loaded machine (other builds, the crawl's own threads, WebKit's
 * web processes, Xvfb) can be most of it. So the main thread's own CPU time
 * between two runs of the timeout is measured as well: "busy" is how much
 * of each interval the main loop spent working rather than waiting in
 * poll(), which is what the application can do something about.
 *
 * Run it with tests/bench/ui-latency/run.sh.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <adwaita.h>

#include "cg-project-page.h"
#include "cg-window.h"

#define PROBE_INTERVAL_MS   10
#define TARGET_MS           50.0
#define MAX_SAMPLES         (10 * 60 * 100)   /* ten minutes of probes per stage */
#define IDLE_SECONDS        2
#define STAGE_TIMEOUT_S     600

typedef struct {
  const char *name;
  GArray     *lateness_ms;   /* double */
  GArray     *busy_ms;       /* double: main-thread CPU time per interval */
} Stage;

typedef struct {
  Stage       stages[6];
  guint       current;
  gint64      expected_us;
  double      cpu_ms;        /* main-thread CPU time at the last run */
  GMainLoop  *loop;
  CgWindow   *window;
  CgProjectPage *page;
  guint       harvest_seconds;
  gboolean    failed;
} Bench;

enum { STAGE_IDLE, STAGE_EXPLORING, STAGE_RENDERING, STAGE_EXTRACTING, STAGE_HARVESTING, STAGE_AFTER };

static double
thread_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static gboolean
probe_cb (gpointer user_data)
{
  Bench *bench = user_data;
  gint64 now = g_get_monotonic_time ();
  Stage *stage = &bench->stages[bench->current];
  double late_ms = (now - bench->expected_us) / 1000.0;
  double cpu = thread_cpu_ms ();
  double busy_ms = cpu - bench->cpu_ms;

  bench->cpu_ms = cpu;
  if (stage->lateness_ms->len < MAX_SAMPLES)
    {
      g_array_append_val (stage->lateness_ms, late_ms);
      g_array_append_val (stage->busy_ms, busy_ms);
    }
  /* The next run is expected a period after this one: a late run is
   * counted once, not again in every run after it. */
  bench->expected_us = now + PROBE_INTERVAL_MS * 1000;
  return G_SOURCE_CONTINUE;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* Sorts @values and gives their mean, 95th percentile and maximum. */
static void
summarize (GArray *values,
           double *out_mean,
           double *out_p95,
           double *out_max)
{
  double sum = 0;

  g_array_sort (values, compare_doubles);
  for (guint i = 0; i < values->len; i++)
    sum += g_array_index (values, double, i);
  *out_mean = sum / values->len;
  *out_p95 = g_array_index (values, double, MIN (values->len - 1, (guint) (values->len * 0.95)));
  *out_max = g_array_index (values, double, values->len - 1);
}

static void
print_stage (Stage  *stage,
             double *out_worst_late,
             double *out_worst_busy)
{
  double mean, p95, max, busy_mean, busy_p95, busy_max;

  if (stage->lateness_ms->len == 0)
    {
      printf ("%-12s %8s\n", stage->name, "-");
      return;
    }
  summarize (stage->lateness_ms, &mean, &p95, &max);
  summarize (stage->busy_ms, &busy_mean, &busy_p95, &busy_max);
  printf ("%-12s %8u %9.2f %9.2f %9.2f   %9.2f %9.2f %9.2f\n", stage->name, stage->lateness_ms->len,
          mean, p95, max, busy_mean, busy_p95, busy_max);
  *out_worst_late = MAX (*out_worst_late, max);
  *out_worst_busy = MAX (*out_worst_busy, busy_max);
}

static void
set_stage (Bench *bench,
           guint  stage)
{
  if (bench->current != stage)
    g_printerr ("%s\n", bench->stages[stage].name);
  bench->current = stage;
}

static void
stage_changed_cb (CgPipeline      *pipeline,
                  CgPipelineStage  stage,
                  Bench           *bench)
{
  switch (stage)
    {
    case CG_PIPELINE_EXPLORING:
      set_stage (bench, STAGE_EXPLORING);
      break;
    case CG_PIPELINE_RENDERING:
      set_stage (bench, STAGE_RENDERING);
      break;
    case CG_PIPELINE_EXTRACTING:
      set_stage (bench, STAGE_EXTRACTING);
      break;
    case CG_PIPELINE_HARVESTING:
      set_stage (bench, STAGE_HARVESTING);
      break;
    case CG_PIPELINE_IDLE:
    default:
      set_stage (bench, STAGE_AFTER);
      break;
    }
}

/* The machine's load when the run ends: lateness means little without it. */
static const char *
load_average (void)
{
  static char text[64];
  g_autofree char *contents = NULL;

  if (!g_file_get_contents ("/proc/loadavg", &contents, NULL, NULL))
    return "unknown";
  g_strlcpy (text, contents, sizeof text);
  for (char *p = text; *p != '\0'; p++)
    if (*p == '\n')
      *p = '\0';
  return text;
}

static gboolean
stop_harvest_cb (gpointer user_data)
{
  Bench *bench = user_data;

  cg_project_page_stop (bench->page);
  return G_SOURCE_REMOVE;
}

static gboolean
quit_cb (gpointer user_data)
{
  g_main_loop_quit (((Bench *) user_data)->loop);
  return G_SOURCE_REMOVE;
}

static void
finished_cb (CgPipeline      *pipeline,
             CgPipelineStage  stage,
             gboolean         cancelled,
             const GError    *error,
             Bench           *bench)
{
  g_autoptr(GError) local_error = NULL;

  if (error != NULL)
    {
      g_printerr ("%s stage failed: %s\n", bench->stages[bench->current].name, error->message);
      bench->failed = TRUE;
      g_main_loop_quit (bench->loop);
      return;
    }
  if (stage != CG_PIPELINE_HARVESTING)
    {
      /* The model is ready: harvest it, for a while at most. */
      if (!cg_project_page_start_harvest (bench->page, CG_HARVEST_STRATEGY_CLASSES, NULL, &local_error))
        {
          g_printerr ("Cannot harvest: %s\n", local_error->message);
          bench->failed = TRUE;
          g_main_loop_quit (bench->loop);
          return;
        }
      g_timeout_add_seconds (bench->harvest_seconds, stop_harvest_cb, bench);
      return;
    }
  /* A little of the window at rest after it all. */
  g_timeout_add_seconds (IDLE_SECONDS, quit_cb, bench);
}

static gboolean
start_demo_cb (gpointer user_data)
{
  Bench *bench = user_data;

  /* The demo opens once its server, started in a thread, listens: that
   * wait is part of the exploring stage. */
  set_stage (bench, STAGE_EXPLORING);
  cg_window_try_demo (bench->window);
  return G_SOURCE_REMOVE;
}

static gboolean
timeout_cb (gpointer user_data)
{
  Bench *bench = user_data;

  g_printerr ("Gave up after %d s\n", STAGE_TIMEOUT_S);
  bench->failed = TRUE;
  g_main_loop_quit (bench->loop);
  return G_SOURCE_REMOVE;
}

int
main (int argc, char **argv)
{
  g_autofree char *home = g_dir_make_tmp ("cg-ui-latency-XXXXXX", NULL);
  const char *seconds = g_getenv ("CG_BENCH_HARVEST_SECONDS");
  Bench bench = { 0 };
  CgPipeline *pipeline;
  double worst = 0, worst_busy = 0;
  const char *names[] = { "idle", "exploring", "rendering", "extracting", "harvesting", "after" };

  /* A throw-away home: the demo project is made afresh, so it is explored. */
  g_setenv ("HOME", home, TRUE);
  g_setenv ("XDG_DATA_HOME", home, TRUE);
  g_setenv ("XDG_CONFIG_HOME", home, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  gtk_init ();
  adw_init ();

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      bench.stages[i].name = names[i];
      bench.stages[i].lateness_ms = g_array_new (FALSE, FALSE, sizeof (double));
      bench.stages[i].busy_ms = g_array_new (FALSE, FALSE, sizeof (double));
    }
  bench.harvest_seconds = seconds != NULL ? (guint) CLAMP (atoi (seconds), 1, 3600) : 30;
  bench.loop = g_main_loop_new (NULL, FALSE);
  bench.window = g_object_new (CG_TYPE_WINDOW, "default-width", 1100, "default-height", 720, NULL);
  bench.page = CG_PROJECT_PAGE (cg_window_get_project_page (bench.window));
  gtk_window_present (GTK_WINDOW (bench.window));

  /* The page's pipeline is made when the demo project opens; its signals
   * are followed from then on. */
  bench.expected_us = g_get_monotonic_time () + PROBE_INTERVAL_MS * 1000;
  bench.cpu_ms = thread_cpu_ms ();
  g_timeout_add_full (G_PRIORITY_HIGH, PROBE_INTERVAL_MS, probe_cb, &bench, NULL);
  g_timeout_add_seconds (IDLE_SECONDS, start_demo_cb, &bench);
  g_timeout_add_seconds (STAGE_TIMEOUT_S, timeout_cb, &bench);

  /* Wait for the project to open, then follow its pipeline. */
  while (cg_project_page_get_pipeline (bench.page) == NULL)
    g_main_context_iteration (NULL, TRUE);
  pipeline = cg_project_page_get_pipeline (bench.page);
  g_signal_connect (pipeline, "stage-changed", G_CALLBACK (stage_changed_cb), &bench);
  g_signal_connect (pipeline, "finished", G_CALLBACK (finished_cb), &bench);
  if (!cg_pipeline_is_busy (pipeline))
    {
      g_printerr ("Try the Demo started nothing (a demo project left from before?)\n");
      return 2;
    }
  set_stage (&bench, STAGE_EXPLORING);
  g_main_loop_run (bench.loop);

  printf ("Lateness of a %d ms high-priority timeout and main-thread CPU time per interval, in ms\n", PROBE_INTERVAL_MS);
  printf ("(target: lateness under %.0f ms; load average %s)\n", TARGET_MS, load_average ());
  printf ("%-12s %8s %9s %9s %9s   %9s %9s %9s\n", "stage", "samples", "late mean", "p95", "max",
          "busy mean", "p95", "max");
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    print_stage (&bench.stages[i], &worst, &worst_busy);
  printf ("worst lateness %.2f ms (%s), worst busy interval %.2f ms (%s)\n",
          worst, worst < TARGET_MS ? "within the target" : "OVER THE TARGET",
          worst_busy, worst_busy < TARGET_MS ? "within the target" : "OVER THE TARGET");

  g_signal_handlers_disconnect_by_data (pipeline, &bench);
  gtk_window_destroy (GTK_WINDOW (bench.window));
  g_main_loop_unref (bench.loop);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_array_unref (bench.stages[i].lateness_ms);
      g_array_unref (bench.stages[i].busy_ms);
    }
  return bench.failed ? 2 : worst_busy < TARGET_MS ? 0 : 1;
}
