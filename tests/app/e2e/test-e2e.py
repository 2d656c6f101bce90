#!/usr/bin/python3
"""The workbench end to end, through the accessibility tree, as a person
(or a screen reader) would use it.

Starts the real `cartograph` on the suite's display with an accessibility
bus, and with pyatspi: clicks Try the Demo, waits for the model (the
Classes list fills in and the exploration's work is done), opens a class
that has records and checks that its records table shows records of the
demo's ground truth, starts a harvest, sees the progress counters change
and stops it.

Every wait polls the tree with a generous deadline; nothing relies on a
fixed sleep. Runs with Debian's Python (python3-pyatspi). Without a
display or a session bus, it runs itself again under dbus-run-session and
xvfb-run.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

APP = os.environ.get("CARTOGRAPH_APP")
CLI = os.environ.get("CARTOGRAPH_CLI")
# The exploration (200 pages), rendering and extraction take a minute or
# two on a shared CI machine; the deadlines leave room for a slow one.
MODEL_TIMEOUT = 420
STEP_TIMEOUT = 90
POLL = 0.5


def reexec_in_session():
    """Without a display and a session bus there is no accessibility bus
    to talk to: run again inside fresh ones."""
    if os.environ.get("CG_E2E_IN_SESSION"):
        return
    if os.environ.get("DISPLAY") and os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        return
    if not shutil.which("xvfb-run") or not shutil.which("dbus-run-session"):
        print("1..0 # SKIP no display, and xvfb-run or dbus-run-session is missing")
        sys.exit(77)
    env = dict(os.environ, CG_E2E_IN_SESSION="1")
    args = ["dbus-run-session", "--", "xvfb-run", "-a", "-s", "-screen 0 1280x1024x24",
            sys.executable, os.path.abspath(__file__)]
    os.execvpe(args[0], args, env)


reexec_in_session()

import pyatspi  # noqa: E402  (after the session exists, since it connects at import)

failures = 0
checks = 0


def check(name, condition, detail=""):
    global failures, checks
    checks += 1
    print(("ok %d - " if condition else "not ok %d - ") % checks + name + (" # " + detail if detail else ""))
    sys.stdout.flush()
    if not condition:
        failures += 1
    return condition


def fail(name, detail=""):
    check(name, False, detail)
    finish()


def wait_until(what, predicate, timeout):
    """Polls @predicate until it returns something true; None on timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = predicate()
        except Exception as e:  # the tree changes under our feet: try again
            value = None
            last_error = e
        if value:
            return value
        time.sleep(POLL)
    print("# timed out after %d s waiting for %s" % (timeout, what))
    return None


def start_accessibility_bus():
    """The session may lack an accessibility bus; GTK only talks to one
    that the at-spi bus launcher started."""
    launcher = "/usr/libexec/at-spi-bus-launcher"
    if os.path.exists(launcher):
        return subprocess.Popen([launcher, "--launch-immediately"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return None


def nodes(root, max_nodes=20000):
    """Every node below @root, breadth first. GTK 4.8 does not keep the
    showing state of its accessible objects up to date, so hidden ones
    (pages of a stack not in view) are walked too: what is searched for
    is named so that it is found in one place only, and buttons are
    checked for sensitivity before they are pressed."""
    queue = [root]
    seen = 0
    while queue and seen < max_nodes:
        node = queue.pop(0)
        seen += 1
        yield node
        try:
            count = node.childCount
        except Exception:
            continue
        for i in range(count):
            try:
                child = node.getChildAtIndex(i)
            except Exception:
                continue
            if child is not None:
                queue.append(child)


def clean(name):
    """GTK 4.8 names a button with a mnemonic "_Label Label": the text
    with its underline, then without."""
    name = name or ""
    for i, c in enumerate(name):
        if c == " " and "_" in name[:i] and name[:i].replace("_", "") == name[i + 1:]:
            return name[i + 1:]
    return name.replace("_", "")


def find(root, name=None, roles=None, pattern=None):
    for node in nodes(root):
        try:
            node_name = clean(node.name)
            role = node.getRoleName()
        except Exception:
            continue
        if roles and role not in roles:
            continue
        if name is not None and node_name != name:
            continue
        if pattern is not None and not re.search(pattern, node_name):
            continue
        return node
    return None


def find_all(root, roles=None, pattern=None):
    found = []
    for node in nodes(root):
        try:
            node_name = clean(node.name)
            role = node.getRoleName()
        except Exception:
            continue
        if roles and role not in roles:
            continue
        if pattern is not None and not re.search(pattern, node_name):
            continue
        found.append(node)
    return found


BUTTONS = ("push button", "toggle button", "button")
TABS = ("page tab", "toggle button", "radio button", "push button")


def press_all(root, name, roles):
    """Presses every button so named. The view switcher is there twice
    (wide and narrow, and a bottom bar): GTK ignores presses on the hidden
    ones, which the tree does not tell apart."""
    found = [node for node in find_all(root, roles=roles, pattern="^" + re.escape(name) + "$")]
    for node in found:
        press(node)
    return found


def press(node):
    action = node.queryAction()
    for i in range(action.nActions):
        if action.getName(i) in ("click", "press", "activate", "toggle"):
            return action.doAction(i)
    return action.doAction(0)


def is_sensitive(node):
    return node.getState().contains(pyatspi.STATE_SENSITIVE)


def sensitive(node):
    return node if node is not None and is_sensitive(node) else None


def find_app(process):
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        try:
            if app is not None and app.get_process_id() == process.pid:
                return app
        except Exception:
            continue
    return None


def text_of(node):
    """The text a label shows; its accessible name may be another's (a
    counter's number is labelled by its caption)."""
    try:
        return node.queryText().getText(0, -1)
    except Exception:
        return node.name or ""


def counter_value(root, caption):
    """The number a counter of the progress view shows, beside its
    caption."""
    label = find(root, name=caption, roles=("label",))
    if label is None:
        return None
    box = label.parent
    for i in range(box.childCount):
        text = clean(box.getChildAtIndex(i).name).replace(",", "").replace("\u202f", "").replace(".", "")
        if text.isdigit():
            return int(text)
    return None


def progress_view(app):
    """The progress view's own part of the tree, found from its Stop
    button: searching it alone is quick, where the whole tree (with a
    records table of hundreds of cells) takes seconds to walk."""
    stop = find(app, name="Stop", roles=BUTTONS)
    node = stop
    for _ in range(8):
        if node is None:
            return None
        node = node.parent
        if node is not None and find(node, name="Fetched", roles=("label",)) is not None:
            return node
    return None


def truth_values():
    """Every text of the demo's ground-truth records."""
    if not CLI:
        return set()
    out = subprocess.run([CLI, "serve-demo", "--print-truth"], capture_output=True, text=True, timeout=60).stdout
    values = set()
    for line in out.splitlines():
        page = json.loads(line)
        records = page.get("records", []) + ([page["item"]] if "item" in page else [])
        for record in records:
            for value in record.values():
                if isinstance(value, str) and len(value) > 3:
                    values.add(value)
    return values


process = None
bus = None
home = None


def finish():
    if process is not None and process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    if bus is not None and bus.poll() is None:
        bus.terminate()
        bus.wait()
    if home is not None:
        shutil.rmtree(home, ignore_errors=True)
    print("1..%d" % checks)
    print("# %d failed" % failures)
    sys.exit(1 if failures else 0)


def main():
    global process, bus, home
    if not APP or not os.path.exists(APP):
        print("1..0 # SKIP CARTOGRAPH_APP is not set to the built cartograph")
        sys.exit(77)

    bus = start_accessibility_bus()
    home = tempfile.mkdtemp(prefix="cg-e2e-")
    env = dict(os.environ)
    env.update({
        "HOME": home,
        "XDG_DATA_HOME": os.path.join(home, "data"),
        "XDG_CONFIG_HOME": os.path.join(home, "config"),
        "XDG_CACHE_HOME": os.path.join(home, "cache"),
        "GSETTINGS_BACKEND": "memory",
        "GTK_A11Y": "atspi",
        "NO_AT_BRIDGE": "0",
        # Criticals would abort the app under the suite's G_DEBUG; here the
        # app runs as users run it.
        "G_DEBUG": "",
    })
    env.pop("GTK_DEBUG", None)
    if "GSETTINGS_SCHEMA_DIR" not in env:
        fail("GSETTINGS_SCHEMA_DIR names the built schemas")
    log = open(os.path.join(home, "app.log"), "w")
    process = subprocess.Popen([APP], env=env, stdout=log, stderr=subprocess.STDOUT)

    app = wait_until("the app on the accessibility bus", lambda: find_app(process), STEP_TIMEOUT)
    if not check("the app is on the accessibility bus", app is not None):
        finish()

    demo = wait_until("Try the Demo", lambda: find(app, name="Try the Demo", roles=BUTTONS), STEP_TIMEOUT)
    if not check("the start page offers Try the Demo", demo is not None):
        finish()
    press(demo)

    # The exploration starts at once (on a fast machine it may be over by
    # the time the tree is read: a later stage's title counts too).
    title = wait_until("the exploration", lambda: find(
        app, roles=("label",),
        pattern=r"^(Exploring http|Rendering the Sample Pages|Extracting Records|The Model Is Ready)"), STEP_TIMEOUT)
    check("the exploration starts at once (%s)" % (clean(title.name) if title else None), title is not None)

    # The model: the exploration, the rendering and the extraction are done.
    ready = wait_until("the model", lambda: find(app, name="The Model Is Ready", roles=("label",)), MODEL_TIMEOUT)
    if not check("the exploration, rendering and extraction end with a model", ready is not None):
        with open(os.path.join(home, "app.log")) as f:
            print("# " + f.read()[-3000:].replace("\n", "\n# "))
        finish()

    classes_tab = wait_until("the Classes view switcher", lambda: press_all(app, "Classes", TABS), STEP_TIMEOUT)
    if not check("the view switcher has a Classes view", bool(classes_tab)):
        finish()

    def classes_with_records():
        buttons = find_all(app, roles=BUTTONS, pattern=r"^Open Class ")
        counted = []
        for button in buttons:
            match = re.search(r"(\d+) records?", button.description or "")
            counted.append((int(match.group(1)) if match else 0, button))
        return counted

    listed = wait_until("the classes list", classes_with_records, STEP_TIMEOUT) or []
    check("the Classes view lists the model's classes (%d)" % len(listed), len(listed) >= 5)
    if not listed:
        finish()
    records, button = max(listed, key=lambda pair: pair[0])
    check("some class has records (%d in %s)" % (records, button.name), records > 0)
    press(button)

    values = truth_values()

    def table_rows():
        """The records table's rows (the column titles' row aside), and the
        texts of their cells."""
        rows, texts = 0, set()
        for table in find_all(app, roles=("tree table", "table"), pattern="^Records$"):
            for view in find_all(table, roles=("list",)):
                for i in range(view.childCount):
                    row = view.getChildAtIndex(i)
                    if row is None or row.getRoleName() != "table row":
                        continue
                    rows += 1
                    for cell in nodes(row, max_nodes=100):
                        texts.add(cell.name or "")
        return (rows, texts) if rows > 0 else None

    shown = wait_until("rows in the records table", table_rows, STEP_TIMEOUT)
    check("the class's records table has rows (%d shown)" % (shown[0] if shown else 0), shown is not None)
    if shown is not None:
        known = sorted(shown[1] & values)
        check("its cells hold records of the demo's ground truth (%d, such as %r)" % (len(known), known[:1]),
              len(known) > 0)

    if not check("the view switcher has a Crawl view", bool(press_all(app, "Crawl", TABS))):
        finish()
    harvest = wait_until("Start Harvest", lambda: sensitive(find(app, name="Start Harvest", roles=BUTTONS)),
                         STEP_TIMEOUT)
    if not check("Start Harvest is offered once the model is ready", harvest is not None):
        finish()
    progress = progress_view(app)
    if not check("the Crawl view has the progress view", progress is not None):
        finish()
    stop = find(progress, name="Stop", roles=BUTTONS)
    press(harvest)

    title = wait_until("the harvest's title", lambda: find(progress, roles=("label",), pattern=r"^Harvesting "),
                       STEP_TIMEOUT)
    check("the harvest is under way (%s)" % (clean(title.name) if title else None), title is not None)
    first = wait_until("fetched pages", lambda: counter_value(progress, "Fetched"), STEP_TIMEOUT)
    check("the Fetched counter counts (%s)" % first, first is not None)
    later = wait_until("more fetched pages",
                       lambda: (lambda v: v if v is not None and first is not None and v > first else None)(
                           counter_value(progress, "Fetched")), STEP_TIMEOUT)
    check("the Fetched counter grows while the harvest runs (%s → %s)" % (first, later), later is not None)

    finished = find(progress, name="Harvest Finished", roles=("label",))
    if finished is None and check("Stop is offered while harvesting", stop is not None and is_sensitive(stop)):
        press(stop)
        stopped = wait_until("the harvest to stop", lambda: find(progress, name="Stopped", roles=("label",)),
                             STEP_TIMEOUT)
        check("the harvest stops", stopped is not None)
        # Stopped for good: the counter stays put.
        value = counter_value(progress, "Fetched")
        time.sleep(1)
        check("nothing is fetched once stopped", counter_value(progress, "Fetched") == value)
        check("Start Harvest is offered again",
              wait_until("Start Harvest again", lambda: sensitive(harvest), STEP_TIMEOUT) is not None)
    elif finished is not None:
        check("the harvest finished before it could be stopped", True)

    check("the app is still running", process.poll() is None)
    finish()


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except Exception as e:
        check("the test ran without an exception", False, repr(e))
        finish()
