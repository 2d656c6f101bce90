/* cg-fd.c: writing to file descriptors.
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <unistd.h>

#include "cg-fd.h"

gboolean
cg_fd_write_all (int         fd,
                 const void *data,
                 gsize       length,
                 int        *out_errno)
{
  const guint8 *next = data;

  while (length > 0)
    {
      gssize n = write (fd, next, MIN (length, (gsize) G_MAXSSIZE));

      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          *out_errno = errno;
          return FALSE;
        }
      next += n;
      length -= (gsize) n;
    }
  return TRUE;
}
