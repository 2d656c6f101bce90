"""What the Python tests of cartograph-cli share: the command under test
(CARTOGRAPH_CLI), checks printed as "ok - NAME" or "not ok - NAME" and
counted, and the demo site served on 127.0.0.1 with its ground truth.

The tests import it from their own folder, which Python puts first on
the module path.
"""
import contextlib
import json
import os
import subprocess
import sys

CLI = os.environ["CARTOGRAPH_CLI"]
failures = 0


def check(name, condition):
    """Prints the check's result and counts it if it failed."""
    global failures
    print(("ok - " if condition else "not ok - ") + name)
    if not condition:
        failures += 1


def run(*args, timeout=600, **kwargs):
    """cartograph-cli with these arguments, its output captured as text."""
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=timeout, **kwargs)


@contextlib.contextmanager
def demo_site():
    """Serves the demo site on a free port of 127.0.0.1 while the with
    block runs; gives its URL ("http://127.0.0.1:PORT/")."""
    server = subprocess.Popen([CLI, "serve-demo", "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        yield server.stdout.readline().split()[-1]
    finally:
        server.terminate()
        server.wait(timeout=10)


def index_path_of(warc_path):
    """The CDXJ index the crawl writes beside the WARC file @warc_path."""
    return warc_path[:-len(".warc.gz")] + ".cdxj"


def demo_truth():
    """The demo site's ground truth (serve-demo --print-truth): each page's
    object by its path."""
    pages = (json.loads(line) for line in run("serve-demo", "--print-truth").stdout.splitlines())
    return {page["path"]: page for page in pages}


def finish():
    """Prints the count of failed checks and exits with the test's status."""
    print("%d failed" % failures)
    sys.exit(1 if failures else 0)
