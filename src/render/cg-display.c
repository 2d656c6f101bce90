/* cg-display.c: a display for headless rendering.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include <glib-unix.h>
#include <gtk/gtk.h>

#include "cg-display.h"

/* How long Xvfb may take to say which display it opened. */
#define XVFB_START_TIMEOUT_MS 15000

struct _CgDisplay
{
  GObject      parent_instance;
  GSubprocess *xvfb;
  GSubprocess *bus;
  char        *name;
};

G_DEFINE_TYPE (CgDisplay, cg_display, G_TYPE_OBJECT)

static void
stop_process (GSubprocess **process)
{
  if (*process == NULL)
    return;
  g_subprocess_send_signal (*process, SIGTERM);
  g_subprocess_wait (*process, NULL, NULL);
  g_clear_object (process);
}

static void
cg_display_finalize (GObject *object)
{
  CgDisplay *self = CG_DISPLAY (object);

  stop_process (&self->bus);
  stop_process (&self->xvfb);
  g_free (self->name);

  G_OBJECT_CLASS (cg_display_parent_class)->finalize (object);
}

static void
cg_display_class_init (CgDisplayClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cg_display_finalize;
}

static void
cg_display_init (CgDisplay *self)
{
}

/* Runs in the child between fork and exec: the helpers must not outlive
 * a cartograph-cli that is killed. */
static void
helper_child_setup (gpointer user_data)
{
  prctl (PR_SET_PDEATHSIG, SIGTERM);
}

/* Reads the first line a helper writes to the pipe @fd once it is ready
 * (Xvfb's display number, dbus-daemon's address). */
static gboolean
read_ready_line (const char   *helper,
                 int           fd,
                 char        **out_line,
                 GError      **error)
{
  char buffer[1024];
  gsize length = 0;
  gint64 deadline = g_get_monotonic_time () + XVFB_START_TIMEOUT_MS * 1000;

  while (length < sizeof buffer - 1)
    {
      struct pollfd pfd = { fd, POLLIN, 0 };
      gint64 left = (deadline - g_get_monotonic_time ()) / 1000;
      ssize_t n;
      int rc;

      if (left <= 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                       _("%s did not start within %d s"), helper, XVFB_START_TIMEOUT_MS / 1000);
          return FALSE;
        }
      rc = poll (&pfd, 1, (int) left);
      if (rc < 0 && errno == EINTR)
        continue;
      if (rc <= 0)
        continue;
      n = read (fd, buffer + length, sizeof buffer - 1 - length);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      length += (gsize) n;
      if (memchr (buffer, '\n', length) != NULL)
        break;
    }
  buffer[length] = '\0';
  g_strstrip (buffer);
  if (buffer[0] == '\0' || memchr (buffer, '\n', strlen (buffer)) != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("%s did not start: it exited without saying it was ready"), helper);
      return FALSE;
    }
  *out_line = g_strdup (buffer);
  return TRUE;
}

/* Starts @argv with the write end of a pipe as its fd 3 and returns its
 * first line. */
static GSubprocess *
start_helper (const char * const  *argv,
              char               **out_line,
              GError             **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) local_error = NULL;
  int fds[2];
  gboolean ok;

  if (!g_unix_open_pipe (fds, FD_CLOEXEC, &local_error))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("Cannot start %s: %s"), argv[0], local_error->message);
      return NULL;
    }
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_take_fd (launcher, fds[1], 3);
  g_subprocess_launcher_set_child_setup (launcher, helper_child_setup, NULL, NULL);
  process = g_subprocess_launcher_spawnv (launcher, argv, &local_error);
  if (process == NULL)
    {
      close (fds[0]);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("Cannot start %s: %s"), argv[0], local_error->message);
      return NULL;
    }
  /* The launcher keeps the write end open until it is freed; without
   * that, a helper that dies would never give end of file. */
  g_clear_object (&launcher);
  ok = read_ready_line (argv[0], fds[0], out_line, error);
  close (fds[0]);
  if (!ok)
    {
      stop_process (&process);
      return NULL;
    }
  return g_steal_pointer (&process);
}

static gboolean
start_xvfb (CgDisplay  *self,
            GError    **error)
{
  g_autofree char *program = g_find_program_in_path ("Xvfb");
  g_autofree char *number = NULL;

  if (program == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("No display is set (DISPLAY, WAYLAND_DISPLAY) and Xvfb is not installed "
                             "(Debian package xvfb) to render without one"));
      return FALSE;
    }
  {
    const char * const argv[] = {
      program, "-displayfd", "3", "-screen", "0", CG_DISPLAY_XVFB_SCREEN,
      "-nolisten", "tcp", "-noreset", NULL
    };

    self->xvfb = start_helper (argv, &number, error);
  }
  if (self->xvfb == NULL)
    return FALSE;
  if (strspn (number, "0123456789") != strlen (number))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("Xvfb named no display number but “%s”"), number);
      stop_process (&self->xvfb);
      return FALSE;
    }
  self->name = g_strconcat (":", number, NULL);
  g_setenv ("DISPLAY", self->name, TRUE);
  g_setenv ("GDK_BACKEND", "x11", TRUE);

  /* Without a session bus, GLib would autolaunch one through the new
   * display (dbus-launch), which lingers; a private bus that ends with
   * this object is tidier. A missing dbus-daemon is not fatal: WebKit
   * works without a session bus. */
  if (g_getenv ("DBUS_SESSION_BUS_ADDRESS") == NULL)
    {
      g_autofree char *daemon = g_find_program_in_path ("dbus-daemon");
      g_autofree char *address = NULL;

      if (daemon != NULL)
        {
          const char * const argv[] = {
            daemon, "--session", "--nofork", "--nopidfile", "--print-address=3", NULL
          };

          self->bus = start_helper (argv, &address, NULL);
        }
      if (self->bus != NULL)
        g_setenv ("DBUS_SESSION_BUS_ADDRESS", address, TRUE);
      else
        g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/cartograph-no-bus", TRUE);
    }
  return TRUE;
}

CgDisplay *
cg_display_open (GError **error)
{
  g_autoptr(CgDisplay) self = g_object_new (CG_TYPE_DISPLAY, NULL);
  const char *display = g_getenv ("DISPLAY");
  const char *wayland = g_getenv ("WAYLAND_DISPLAY");

  if ((display == NULL || display[0] == '\0') && (wayland == NULL || wayland[0] == '\0'))
    {
      if (!start_xvfb (self, error))
        return NULL;
    }
  else
    self->name = g_strdup (wayland != NULL && wayland[0] != '\0' ? wayland : display);

  /* Headless renders need no accessibility bus. */
  g_setenv ("GTK_A11Y", "none", FALSE);
  if (!gtk_init_check ())
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("Cannot open the display “%s”"), self->name);
      return NULL;
    }
  return g_steal_pointer (&self);
}

gboolean
cg_display_is_virtual (CgDisplay *self)
{
  g_return_val_if_fail (CG_IS_DISPLAY (self), FALSE);
  return self->xvfb != NULL;
}

const char *
cg_display_get_name (CgDisplay *self)
{
  g_return_val_if_fail (CG_IS_DISPLAY (self), NULL);
  return self->name;
}
